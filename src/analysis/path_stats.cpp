#include "ohprof/analysis/path_stats.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ohprof/analysis/explanation.hpp"

namespace ohprof {

std::optional<Warning> slow_first_run_hint(const PathResult& path) {
  if (path.wall_ns.size() < 3 || path.wall.median <= 0) return std::nullopt;
  const double first = static_cast<double>(path.wall_ns.front());
  if (first <= 3.0 * path.wall.median) return std::nullopt;
  return Warning{WarningCode::slow_first_run, fmt::format(
      "path {}: the first measured iteration took {:.1f} times the median (a cold start the warm-up did not "
      "absorb); raise --warmup",
      path.name, first / path.wall.median)};
}

bool waited_for_cores(const std::optional<PathRunQueue>& run_queue) {
  if (!run_queue || run_queue->waited_ns < kBusyCoresMinWaitNs) return false;
  const std::optional<double> share = run_queue->share();
  return share && *share >= kBusyCoresShare;
}

std::string busy_paths_text(const std::vector<PathShare>& paths) {
  std::vector<std::string> shares;
  for (const PathShare& path : paths) {
    if (waited_for_cores(path.run_queue)) {
      shares.push_back(fmt::format("{} {:.1f}%", path.name, *path.run_queue->share() * 100));
    }
  }
  return fmt::format("{}", fmt::join(shares, ", "));
}

std::optional<Warning> busy_cores_hint(const std::vector<PathResult>& paths) {
  std::vector<PathShare> shares;
  for (const PathResult& path : paths) shares.push_back({path.name, path.run_queue});
  const std::string listed = busy_paths_text(shares);
  if (listed.empty()) return std::nullopt;
  return Warning{WarningCode::cores_busy,
                 fmt::format("the measuring thread waited for a CPU for part of these paths' timed wall time: {} (its "
                             "run delay in /proc/thread-self/schedstat): more threads were ready to run than there were CPUs, "
                             "another process's or this one's; the calls that waited are slower by their wait, and "
                             "the median too where most calls waited; measure on a quiet machine, or with fewer "
                             "intra-op threads (OMP_NUM_THREADS)",
                             listed)};
}

CollectorCost make_collector_cost(CollectorKind collector, const std::vector<std::int64_t>& without_ns,
                                  const std::vector<std::int64_t>& with_ns) {
  CollectorCost cost;
  cost.collector = collector;
  cost.runs = with_ns.size();
  cost.wall_median_without_ns = summarize_ns(without_ns).median;
  cost.wall_median_with_ns = summarize_ns(with_ns).median;
  if (!without_ns.empty() && !with_ns.empty() && cost.wall_median_without_ns > 0) {
    cost.ratio = cost.wall_median_with_ns / cost.wall_median_without_ns;
  }
  return cost;
}

const PathResult* fastest_path(const std::vector<PathResult>& paths) {
  const PathResult* fastest = nullptr;
  for (const auto& path : paths) {
    if (path.role != PathRole::path || path.wall.count == 0) continue;
    if (fastest == nullptr || path.wall.median < fastest->wall.median) fastest = &path;
  }
  return fastest;
}

PathRatio ratio_between(const PathResult& faster, const PathResult& slower) {
  const Ratio ratio = ratio_of_medians(slower.wall, faster.wall);
  const Estimate gap = wall_difference(slower, faster);
  PathRatio out{faster.name, slower.name, ratio.value, ratio.stddev};
  if (faster.wall.median > 0) {
    out.low = 1.0 + interval_low(gap) / faster.wall.median;
    out.high = 1.0 + interval_high(gap) / faster.wall.median;
  }
  out.significant = significant(gap);
  return out;
}

std::vector<PathRatio> ratios_against_fastest(const std::vector<PathResult>& paths) {
  std::vector<PathRatio> ratios;
  const PathResult* fastest = fastest_path(paths);
  if (fastest == nullptr) return ratios;
  for (const auto& path : paths) {
    if (path.role != PathRole::path || &path == fastest || path.wall.count == 0) continue;
    ratios.push_back(ratio_between(*fastest, path));
  }
  return ratios;
}

std::vector<PathRatio> slower_paths(const std::vector<PathResult>& paths, const PathResult& path) {
  std::vector<PathRatio> out;
  if (path.wall.count == 0) return out;
  for (const auto& other : paths) {
    if (other.role != PathRole::path || &other == &path || other.wall.count == 0) continue;
    if (other.wall.median <= path.wall.median) continue;
    if (ran_uncompiled(other)) continue;  // not a compiled path's figures
    const PathRatio ratio = ratio_between(path, other);
    if (ratio.significant) out.push_back(ratio);
  }
  return out;
}

}  // namespace ohprof
