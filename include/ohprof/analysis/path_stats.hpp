#pragma once
// Figures derived from measured paths: ratios between them, what the collector cost, and the hints
// their samples call for. Pure functions over the report's plain structs.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/model/report.hpp"

namespace ohprof {

// The fastest path asked for (lowest median wall time; variants are not paths here) against each other measured path, in path order
// (docs/metrics.md, "Ratios"): ratio of medians with the robust spread (ratio_of_medians).
std::vector<PathRatio> ratios_against_fastest(const std::vector<PathResult>& paths);

// `slower` against `faster`, both with samples: the ratio of medians with its spread, and the 95% interval
// and significance of the paired difference of medians (docs/metrics.md, "Ratios").
PathRatio ratio_between(const PathResult& faster, const PathResult& slower);

// The other paths asked for (role path, with samples, not run uncompiled: execution_check.hpp) whose
// median exceeds `path`'s beyond noise, each against it, in path order (docs/metrics.md, "Advice"); none
// for a path without samples.
std::vector<PathRatio> slower_paths(const std::vector<PathResult>& paths, const PathResult& path);

// The measured path asked for (role path, at least one sample) with the lowest median wall time; the
// first of equals; nullptr when there is none.
const PathResult* fastest_path(const std::vector<PathResult>& paths);

// Collector cost from the two passes' wall times: medians of each and their ratio (with / without;
// 0 when either pass is empty).
CollectorCost make_collector_cost(CollectorKind collector, const std::vector<std::int64_t>& without_ns,
                                  const std::vector<std::int64_t>& with_ns);

// hyperfine's hint: when the first measured iteration took more than 3 times the median (caches, lazy
// initialisation, a warm-up too short), the warning to print; empty otherwise.
std::optional<Warning> slow_first_run_hint(const PathResult& path);

// From this share on a path's times are said to include waiting for a core (the cores-busy warning). On
// this project's quiet 2-core machine the shares were 0 to 0.69% (docs/metrics.md); beside four spinning
// processes, two thirds.
inline constexpr double kBusyCoresShare = 0.05;
// ... provided the path waited at least this long in all: several time slices (a few ms each), so that one
// preemption, which a short run's share can make large, names no path (its slow call is the outliers hint's).
inline constexpr std::int64_t kBusyCoresMinWaitNs = 10'000'000;

// A path as the busy-cores rule reads it: its name as the warning names it, its run_queue.
struct PathShare {
  std::string name;
  std::optional<PathRunQueue> run_queue;
};

// Whether a path waited for a CPU enough to be named: share >= kBusyCoresShare and waited_ns >=
// kBusyCoresMinWaitNs.
bool waited_for_cores(const std::optional<PathRunQueue>& run_queue);

// The paths that waited_for_cores, in order, as the warnings name them: "aoti 38.2%, compile 6.0%, eager
// 5.0%"; "" when none did.
std::string busy_paths_text(const std::vector<PathShare>& paths);

// One cores-busy warning naming each path that waited_for_cores, with its share; empty when none did.
std::optional<Warning> busy_cores_hint(const std::vector<PathResult>& paths);

}  // namespace ohprof
