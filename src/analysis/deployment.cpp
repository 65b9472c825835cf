#include "ohprof/analysis/deployment.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "ohprof/analysis/cold_start.hpp"
#include "ohprof/analysis/concurrency.hpp"
#include "ohprof/analysis/explanation.hpp"

namespace ohprof {
namespace {

// The state of a path's cold starts that a criterion reads: `want` (cold or warm), or `none` for a path with
// nothing to cache (its one state stands for both); null when it has no finished process.
const ColdStartState* start_state(const PathResult& path, CompileCache want) {
  if (!path.cold_start) return nullptr;
  for (const ColdStartState& state : path.cold_start->states) {
    if ((state.cache == want || state.cache == CompileCache::none) && state.median) return &state;
  }
  return nullptr;
}

// The peaks its processes read (ColdStartSample::peak_rss_bytes), in the order they ran.
std::vector<std::int64_t> peaks_of(const ColdStartState& state) {
  std::vector<std::int64_t> out;
  for (const ColdStartSample& s : state.samples) {
    if (s.peak_rss_bytes) out.push_back(*s.peak_rss_bytes);
  }
  return out;
}

const ThreadsPoint* top_point(const PathResult& path) {
  if (!path.concurrency || !path.concurrency->unavailable.empty() || path.concurrency->points.empty()) return nullptr;
  return &path.concurrency->points.back();
}

// One criterion over the candidates that have a value for it (`measured`, in path order): the best (`better`
// orders two values), then, in path order, the others that `tied` cannot tell from it; `next` is the best of
// the rest; `without` the candidates with no value.
struct Measured {
  const PathResult* path;
  double value;
};
std::optional<CriterionLeaders> leaders_of(DeployCriterion criterion, const std::vector<const PathResult*>& candidates,
                                           std::vector<Measured> measured,
                                           const std::function<bool(double, double)>& better,
                                           const std::function<bool(const PathResult&, const PathResult&)>& tied) {
  if (measured.empty()) return std::nullopt;
  const auto best = std::min_element(measured.begin(), measured.end(),
                                     [&](const Measured& a, const Measured& b) { return better(a.value, b.value); });
  CriterionLeaders out;
  out.criterion = criterion;
  out.leaders.push_back(best->path->name);
  const Measured* next = nullptr;
  for (const Measured& m : measured) {
    if (&m == &*best) continue;
    if (tied(*best->path, *m.path)) {
      out.leaders.push_back(m.path->name);
    } else if (next == nullptr || better(m.value, next->value)) {
      next = &m;
    }
  }
  if (next != nullptr) out.next = next->path->name;
  for (const PathResult* candidate : candidates) {
    const bool has = std::any_of(measured.begin(), measured.end(), [&](const Measured& m) { return m.path == candidate; });
    if (!has) out.without.push_back(candidate->name);
  }
  return out;
}

}  // namespace

DeploymentSummary deployment_summary(const std::vector<PathResult>& paths) {
  DeploymentSummary out;
  std::vector<const PathResult*> candidates;
  for (const PathResult& path : paths) {
    if (path.role != PathRole::path) continue;
    DeploymentRow row;
    row.path = path.name;
    if (path.wall.count > 0) row.latency_ns = path.wall.median;
    if (const ThreadsPoint* point = top_point(path)) {
      row.threads = point->threads;
      row.calls_per_s = point->calls_per_s;
    }
    if (const ColdStartState* state = start_state(path, CompileCache::cold)) {
      row.cold_start_ns = state->median->total_ns;
      row.fresh_peak_bytes = state->median->peak_rss_bytes;
    }
    if (const ColdStartState* state = start_state(path, CompileCache::warm)) row.warm_start_ns = state->median->total_ns;
    if (path.memory) {
      row.build_retained_bytes = path.memory->build_retained_bytes;
      row.run_peak_bytes = path.memory->run_peak_bytes;
      if (path.memory->device) {
        row.device_build_bytes = path.memory->device->build_used_bytes;
        row.graph_pool_bytes = path.memory->device->graph_pool_bytes;
      }
    }
    // the host-bound share where the verdict says it can be read (not for no_launches, unread device work)
    if (path.breakdown && path.breakdown->summary.totals.iterations > 0 &&
        readable_shares(path.breakdown->verdict.reason).queueing) {
      row.host_share = path.breakdown->verdict.host_bound_share;
      // at most: kernels that do not record themselves, or ops whose queued time is unknown (docs/metrics.md)
      row.host_share_at_most = path.breakdown->verdict.kernels_unrecorded ||
                               path.breakdown->verdict.queue_open();
    }
    row.outputs_differ = path.output_check && !path.output_check->passed;
    row.ran_uncompiled = ran_uncompiled(path);
    (row.outputs_differ || row.ran_uncompiled ? out.left_out.push_back(path.name) : candidates.push_back(&path));
    out.rows.push_back(std::move(row));
  }
  const auto lower = [](double a, double b) { return a < b; };
  const auto higher = [](double a, double b) { return a > b; };

  std::vector<Measured> latency;
  for (const PathResult* p : candidates) {
    if (p->wall.count > 0) latency.push_back({p, p->wall.median});
  }
  if (auto l = leaders_of(DeployCriterion::latency, candidates, latency, lower, [](const PathResult& best, const PathResult& other) {
        return !significant(wall_difference(other, best));
      })) {
    out.criteria.push_back(*l);
  }

  // Throughput at the most callers measured: every path's top point has the same count (one --threads list);
  // a path whose callers were not measured has none.
  int top = 0;
  for (const PathResult* p : candidates) {
    if (const ThreadsPoint* point = top_point(*p)) top = std::max(top, point->threads);
  }
  std::vector<Measured> throughput;
  for (const PathResult* p : candidates) {
    const ThreadsPoint* point = top_point(*p);
    if (point != nullptr && point->threads == top) throughput.push_back({p, point->calls_per_s});
  }
  if (auto l = leaders_of(DeployCriterion::throughput, candidates, throughput, higher, [](const PathResult& best, const PathResult& other) {
        return !significant(throughput_difference(*top_point(best), *top_point(other)));
      })) {
    out.criteria.push_back(*l);
  }

  for (const auto& [criterion, cache] : {std::pair{DeployCriterion::cold_start, CompileCache::cold},
                                         std::pair{DeployCriterion::warm_start, CompileCache::warm}}) {
    std::vector<Measured> starts;
    for (const PathResult* p : candidates) {
      if (const ColdStartState* state = start_state(*p, cache)) starts.push_back({p, state->median->total_ns});
    }
    bool too_few = false;
    auto l = leaders_of(criterion, candidates, starts, lower, [&, cache = cache](const PathResult& best, const PathResult& other) {
      const std::optional<ColdStartOrder> order =
          order_against(start_state(other, cache)->samples, start_state(best, cache)->samples);
      if (order == ColdStartOrder::too_few) too_few = true;
      return order != ColdStartOrder::slower;
    });
    if (l) {
      l->too_few = too_few;
      out.criteria.push_back(*l);
    }
  }

  // The fresh peak: the same state as the cold start, its processes' peaks ordered by the same rank rule.
  std::vector<Measured> peaks;
  for (const PathResult* p : candidates) {
    const ColdStartState* state = start_state(*p, CompileCache::cold);
    if (state != nullptr && state->median->peak_rss_bytes) peaks.push_back({p, *state->median->peak_rss_bytes});
  }
  bool too_few_peaks = false;
  bool negligible = false;
  if (auto l = leaders_of(DeployCriterion::fresh_peak, candidates, peaks, lower, [&](const PathResult& best, const PathResult& other) {
        const ColdStartState& b = *start_state(best, CompileCache::cold);
        const ColdStartState& o = *start_state(other, CompileCache::cold);
        const std::optional<ColdStartOrder> order = rank_order(peaks_of(o), peaks_of(b));
        if (order == ColdStartOrder::too_few) too_few_peaks = true;
        if (order != ColdStartOrder::slower) return true;
        // apart, but by no more than the floor
        const bool within = *o.median->peak_rss_bytes <= *b.median->peak_rss_bytes * (1 + kFreshPeakTiePercent / 100);
        negligible = negligible || within;
        return within;
      })) {
    l->too_few = too_few_peaks;
    l->negligible = negligible;
    out.criteria.push_back(*l);
  }

  out.candidates = candidates.size();
  // The choice: the paths that lead every criterion measured, in path order; none among fewer than 2.
  if (!out.criteria.empty() && candidates.size() >= 2) {
    for (const PathResult* p : candidates) {
      const bool leads_all = std::all_of(out.criteria.begin(), out.criteria.end(), [&](const CriterionLeaders& c) {
        return std::find(c.leaders.begin(), c.leaders.end(), p->name) != c.leaders.end();
      });
      if (leads_all) out.choice.push_back(p->name);
    }
  }
  return out;
}

}  // namespace ohprof
