#include "session_steps.hpp"

#include <fmt/format.h>

#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/analysis/path_stats.hpp"
#include "ohprof/output/report_output.hpp"

namespace ohprof {

void attach_split(Report& report, PathResult& path, const SplitCollection& collection, const Timeline& timeline,
                  const std::vector<std::int64_t>& split_wall_ns, const std::string& collector_name,
                  const Runtime& runtime, std::int64_t first_iteration, std::int64_t last_iteration) {
  path.breakdown = analyze_timeline(timeline);
  path.split_collector = collection.collector;
  path.collector_cost = make_collector_cost(collector_name, path.wall_ns, split_wall_ns);
  if (collection.collector != "record_function" || path.name != "aoti") return;
  auto attribution = runtime.attribute_package_kernels(path.artifact, collection.cpu_events, first_iteration,
                                                       last_iteration);
  if (!attribution.ok()) {
    add_warning(report, "kernel attribution: " + attribution.error().message);
    return;
  }
  path.kernel_attribution = attribution->summary;
  if (!attribution->warning.empty()) add_warning(report, attribution->warning);
}

void add_sample_hints(Report& report, bool name_the_path) {
  for (const auto& path : report.paths) {
    if (const std::string hint = slow_first_run_hint(path); !hint.empty()) add_warning(report, hint);
    if (path.wall.outliers == 0) continue;
    if (name_the_path) {
      add_warning(report, fmt::format("path {}: {} of {} iterations are statistical outliers; close other programs or "
                                      "raise --warmup",
                                      path.name, path.wall.outliers, path.wall.count));
    } else {
      add_warning(report, fmt::format("{} of {} iterations are statistical outliers; close other programs, pin CPU "
                                      "frequency or raise --warmup/--runs",
                                      path.wall.outliers, path.wall.count));
    }
  }
}

}  // namespace ohprof
