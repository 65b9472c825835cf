#pragma once
// Steps that `run` and `compare` share (private to the session layer).
#include <cstdint>
#include <string>
#include <vector>

#include "ohprof/collectors/split_collector.hpp"
#include "ohprof/model/report.hpp"
#include "ohprof/session/runtime.hpp"

namespace ohprof {

// A path's split when the measurement stopped before the split pass.
inline constexpr const char* kSplitStoppedReason = "measurement stopped before the split pass";

// Analyses the split pass's records of one path (`timeline`, its iterations first..last of the
// collection) into `path`: the breakdown, the collector and its cost against the timing pass, and, for
// an AOTI package on the CPU collector, which kernels of its generated code were seen; raises the
// warnings the analysis counters call for.
void attach_split(Report& report, PathResult& path, const SplitCollection& collection, const Timeline& timeline,
                  const std::vector<std::int64_t>& split_wall_ns, const Runtime& runtime, std::int64_t first_iteration, std::int64_t last_iteration);

// hyperfine's hints from the samples: a slow first run, outliers. `compare` names the path in each.
void add_sample_hints(Report& report, bool name_the_path);

}  // namespace ohprof
