#include "ohprof/collectors/split_collector.hpp"

#include "ohprof/collectors/cpu_activity_collector.hpp"
#include "ohprof/collectors/cupti_collector.hpp"

namespace ohprof {
namespace {

class CuptiSplitCollector final : public SplitCollector {
 public:
  explicit CuptiSplitCollector(std::unique_ptr<CuptiCollector> collector) : m_collector(std::move(collector)) {}
  IterationObserver* observer() override { return m_collector.get(); }
  [[nodiscard]] std::string unavailable_reason() const override { return {}; }
  [[nodiscard]] CollectorKind kind() const override { return CollectorKind::cupti; }
  Result<SplitCollection> finish(const std::vector<IterationWindow>& iterations) override {
    auto collection = m_collector->finish(iterations);
    m_collector.reset();  // one CUPTI collector per process at a time
    if (!collection.ok()) return collection.error();
    SplitCollection out;
    out.collector = CollectorKind::cupti;
    out.timeline = std::move(collection->timeline);
    out.warnings = std::move(collection->warnings);
    return out;
  }

 private:
  std::unique_ptr<CuptiCollector> m_collector;
};

class RecordFunctionSplitCollector final : public SplitCollector {
 public:
  explicit RecordFunctionSplitCollector(std::unique_ptr<CpuActivityCollector> collector)
      : m_collector(std::move(collector)) {}
  IterationObserver* observer() override { return m_collector.get(); }
  [[nodiscard]] std::string unavailable_reason() const override { return {}; }
  [[nodiscard]] CollectorKind kind() const override { return CollectorKind::record_function; }
  Result<SplitCollection> finish(const std::vector<IterationWindow>& iterations) override {
    OHPROF_ASSIGN_OR_RETURN(auto collection, m_collector->finish(iterations));
    SplitCollection out;
    out.collector = CollectorKind::record_function;
    out.timeline = std::move(collection.timeline);
    out.cpu_events = std::move(collection.events);
    if (collection.unclosed + collection.unmatched_ends > 0) {
      out.warnings.push_back(Warning{WarningCode::record_function_ranges_unpaired,
                                     std::to_string(collection.unclosed + collection.unmatched_ends) +
                                         " RecordFunction ranges could not be paired (counted as dropped records)"});
    }
    return out;
  }

 private:
  std::unique_ptr<CpuActivityCollector> m_collector;
};

class UnavailableCollector final : public SplitCollector {
 public:
  explicit UnavailableCollector(std::string reason) : m_reason(std::move(reason)) {}
  IterationObserver* observer() override { return nullptr; }
  [[nodiscard]] std::string unavailable_reason() const override { return m_reason; }
  [[nodiscard]] CollectorKind kind() const override { return CollectorKind::none; }
  Result<SplitCollection> finish(const std::vector<IterationWindow>&) override {
    return make_error(ExitCode::device_unavailable, m_reason);
  }

 private:
  std::string m_reason;
};

}  // namespace

std::unique_ptr<SplitCollector> SplitCollector::start(const SplitCollectorOptions& options) {
  if (options.device_type == DeviceKind::cuda) {
    if (options.disabled) {
      return std::make_unique<UnavailableCollector>(
          "--no-cupti: CUPTI not used (NVTX ranges and host timing only, e.g. for a run under Nsight Systems)");
    }
    auto collector = CuptiCollector::create(CuptiOptions{true});
    if (!collector.ok()) return std::make_unique<UnavailableCollector>(collector.error().message);
    return std::make_unique<CuptiSplitCollector>(std::move(*collector));
  }
  auto collector = CpuActivityCollector::create();
  if (!collector.ok()) return std::make_unique<UnavailableCollector>(collector.error().message);
  return std::make_unique<RecordFunctionSplitCollector>(std::move(*collector));
}

std::string collector_cupti_version() { return cupti_version_text(); }
std::string collector_cupti_library() { return cupti_library_path(); }

}  // namespace ohprof
