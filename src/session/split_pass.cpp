// The split pass of `run` and `compare` (docs/metrics.md, "The split pass and its cost"): one implementation for one path
// or many.
#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/base/clock.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/harness/interleaved_loop.hpp"
#include "ohprof/output/report_output.hpp"
#include "session_steps.hpp"

namespace ohprof {
namespace {

// Forwards one path's iteration events to the shared collector, tagging path p's iteration i as
// p * kIterationsPerPath + i so that the collection can be split per path afterwards.
class PathTaggedObserver final : public IterationObserver {
 public:
  PathTaggedObserver(IterationObserver* inner, std::int64_t path_index)
      : m_inner(inner), m_base(path_index * kIterationsPerPath), m_first(path_index == 0) {}
  // The interleaved loop begins every path's measurement in path order and ends them in reverse, so
  // path 0's begin and end bracket all of them: only those reach the shared collector.
  void on_measurement_begin() override {
    if (m_first) m_inner->on_measurement_begin();
  }
  void on_measurement_end() override {
    if (m_first) m_inner->on_measurement_end();
  }
  void on_iteration_begin(std::int64_t index, bool warmup) override { m_inner->on_iteration_begin(m_base + index, warmup); }
  void on_iteration_end(std::int64_t index, bool warmup) override { m_inner->on_iteration_end(m_base + index, warmup); }

 private:
  IterationObserver* m_inner;
  std::int64_t m_base;
  bool m_first;
};

}  // namespace

Status measure_split_pass(Report& report, const std::vector<InterleavedPath>& plain_paths, const SplitPassOptions& options,
                          const Runtime& runtime, std::vector<std::vector<IterationWindow>>& split_windows) {
  std::unique_ptr<SplitCollector> collector = runtime.start_collector(SplitCollectorOptions{options.device, options.no_cupti});
  if (collector->observer() == nullptr) {
    console::progress("device split unavailable: " + collector->unavailable_reason());
    return no_split(report, collector->unavailable_reason(), options.export_trace);
  }
  report.context.cupti_version = runtime.cupti_version();
  if (runtime.cupti_library) report.context.cupti_library = runtime.cupti_library();
  std::vector<std::unique_ptr<PathTaggedObserver>> tagged;
  std::vector<InterleavedPath> paths = plain_paths;
  for (std::size_t p = 0; p < paths.size(); ++p) {
    tagged.push_back(std::make_unique<PathTaggedObserver>(collector->observer(), static_cast<std::int64_t>(p)));
    paths[p].observers.push_back(tagged.back().get());
  }
  const AdaptiveStopping stopping = AdaptiveStopping::fixed(kSplitWarmups, options.runs, options.time_limit_s, options.block);
  console::progress(fmt::format("measuring the device split with {}: {} iterations{}", to_string(collector->kind()), options.runs,
                                paths.size() > 1 ? " per path" : ""));
  InterleavedResult measured;
  Status status = run_interleaved(paths, stopping, measured, monotonic_now_ns);
  std::vector<IterationWindow> windows;
  split_windows.clear();
  for (std::size_t p = 0; p < measured.paths.size(); ++p) {
    split_windows.push_back(measured.paths[p].iterations);
    for (const auto& window : measured.paths[p].iterations) {
      windows.push_back(IterationWindow{static_cast<std::int64_t>(p) * kIterationsPerPath + window.index,
                                        window.start_ns, window.end_ns});
    }
  }
  auto collection = collector->finish(windows);
  if (!status.ok() || !collection.ok()) {
    const std::string reason = !status.ok() ? status.error().message : collection.error().message;
    console::progress("device split unavailable: " + reason);
    return no_split(report, reason, options.export_trace);
  }
  report.interrupted = report.interrupted || measured.interrupted;
  for (auto& warning : collection->warnings) add_warning(report, std::move(warning));
  for (std::size_t p = 0; p < report.paths.size(); ++p) {
    const std::int64_t first = static_cast<std::int64_t>(p) * kIterationsPerPath;
    const std::int64_t last = first + kIterationsPerPath - 1;
    attach_split(report, report.paths[p], *collection, select_iterations(collection->timeline, first, last),
                 measured.paths[p].wall_ns(), runtime, options.kernel_profile, first, last);
    // Each analysed iteration's round, so that two paths' busy times pair by round (docs/metrics.md,
    // "Spread of a difference"); its index is its place among the path's measured iterations.
    const std::vector<int>& rounds = measured.paths[p].rounds;
    for (IterationBreakdown& iteration : report.paths[p].breakdown->iterations) {
      if (iteration.index >= 0 && static_cast<std::size_t>(iteration.index) < rounds.size()) {
        iteration.round = rounds[static_cast<std::size_t>(iteration.index)];
      }
    }
  }
  for (std::size_t p = 1; p < report.paths.size(); ++p) {
    if (report.paths[p].role != PathRole::path) continue;
    report.kernel_diffs.push_back(diff_kernel_sets(*report.paths[0].breakdown, *report.paths[p].breakdown,
                                                   report.paths[0].name, report.paths[p].name));
  }
  if (options.export_trace.empty()) return ok_status();
  std::vector<std::string> names;
  for (const PathResult& path : report.paths) names.push_back(path.name);
  return export_split_timeline(report, names, collection->timeline, options.export_trace);
}

}  // namespace ohprof
