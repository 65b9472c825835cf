#include "ohprof/split_collector.hpp"

#include "ohprof/cupti_collector.hpp"

namespace ohprof {
namespace {

class CuptiSplitCollector final : public SplitCollector {
 public:
  explicit CuptiSplitCollector(std::unique_ptr<CuptiCollector> collector) : m_collector(std::move(collector)) {}
  IterationObserver* observer() override { return m_collector.get(); }
  [[nodiscard]] std::string unavailable_reason() const override { return {}; }
  [[nodiscard]] std::string collector_name() const override { return "cupti"; }
  Result<SplitCollection> finish(const std::vector<IterationWindow>& iterations) override {
    auto collection = m_collector->finish(iterations);
    m_collector.reset();  // one CUPTI collector per process at a time
    if (!collection.ok()) return collection.error();
    SplitCollection out;
    out.collector = "cupti";
    out.timeline = std::move(collection->timeline);
    out.warnings = std::move(collection->warnings);
    return out;
  }

 private:
  std::unique_ptr<CuptiCollector> m_collector;
};

class UnavailableCollector final : public SplitCollector {
 public:
  explicit UnavailableCollector(std::string reason) : m_reason(std::move(reason)) {}
  IterationObserver* observer() override { return nullptr; }
  [[nodiscard]] std::string unavailable_reason() const override { return m_reason; }
  [[nodiscard]] std::string collector_name() const override { return "none"; }
  Result<SplitCollection> finish(const std::vector<IterationWindow>&) override {
    return make_error(ExitCode::device_unavailable, m_reason);
  }

 private:
  std::string m_reason;
};

}  // namespace

std::unique_ptr<SplitCollector> SplitCollector::start(const SplitCollectorOptions& options) {
  if (options.device_type == "cuda") {
    if (options.disabled) {
      return std::make_unique<UnavailableCollector>(
          "--no-cupti: CUPTI not used (NVTX ranges and host timing only, e.g. for a run under Nsight Systems)");
    }
    auto collector = CuptiCollector::create(CuptiOptions{true});
    if (!collector.ok()) return std::make_unique<UnavailableCollector>(collector.error().message);
    return std::make_unique<CuptiSplitCollector>(std::move(*collector));
  }
  return std::make_unique<UnavailableCollector>(
      "the device-time split for CPU runs needs the CPU activity collector (not in this build)");
}

std::string collector_cupti_version() { return cupti_version_text(); }

}  // namespace ohprof
