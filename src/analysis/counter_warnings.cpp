#include "ohprof/analysis/counter_warnings.hpp"

#include <fmt/format.h>

namespace ohprof {

std::vector<Warning> counter_warnings(const AnalysisCounters& a, bool from_profiler_steps) {
  std::vector<Warning> out;
  if (a.ops_outside_iterations > 0) {
    out.push_back(Warning{WarningCode::ops_outside_iterations,
                          fmt::format("{} of {} device operations belong to no iteration window{} and are not in the split",
                                      a.ops_outside_iterations, a.ops_total,
                                      from_profiler_steps ? " (launched outside every ProfilerStep)" : "")});
  }
  if (a.duplicate_launch_correlations > 0) {
    out.push_back(Warning{WarningCode::duplicate_launch_correlations,
                          fmt::format("{} launch calls share a correlation id with an earlier one; ops join the earliest",
                                      a.duplicate_launch_correlations)});
  }
  if (a.ops_invalid_interval > 0) {
    out.push_back(Warning{WarningCode::ops_invalid_interval,
                          a.ops_invalid_interval == 1
                              ? std::string("1 device operation ends before it starts and is not in the split")
                              : fmt::format("{} device operations end before they start and are not in the split",
                                            a.ops_invalid_interval)});
  }
  return out;
}

}  // namespace ohprof
