#include "ohprof/analysis/ranks.hpp"

#include "ohprof/base/stats.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ohprof {
namespace {

// A collective's place in its step: (stream id, ordinal). The device is left out: rank r usually runs
// on GPU r of its host, so the same stream of the same program has another device index on each rank.
using CollectiveKey = std::pair<std::int64_t, std::size_t>;

// One rank's collectives in one step: by key, and how many more had a key already taken (the same
// stream id on two of the rank's devices): those are never matched.
struct StepCollectives {
  std::map<CollectiveKey, const CollectiveOp*> by_key;
  std::int64_t total_ns = 0;  // every one's duration
  std::size_t clashing = 0;
};

// One rank's share of a step: its split and its collectives there.
struct RankStepData {
  std::int64_t rank = 0;
  bool queue_open = false;
  const RankStep* split = nullptr;
  const StepCollectives* collectives = nullptr;  // null: none
};

// Fills the matched collectives' waits; returns (matched pairs, unmatched kernels).
std::pair<std::size_t, std::size_t> match_collectives(std::vector<RankStepData>& present, std::vector<RankInStep>& out) {
  if (present.size() < 2) return {0, 0};
  std::set<CollectiveKey> keys;
  std::size_t kernels = 0;
  for (const RankStepData& rank : present) {
    if (!rank.collectives) continue;
    for (const auto& entry : rank.collectives->by_key) keys.insert(entry.first);
    kernels += rank.collectives->by_key.size() + rank.collectives->clashing;
  }
  std::size_t matched = 0;
  std::size_t matched_kernels = 0;
  for (const CollectiveKey& key : keys) {
    std::vector<const CollectiveOp*> ops;
    for (const RankStepData& rank : present) {
      if (!rank.collectives) break;
      const auto it = rank.collectives->by_key.find(key);
      if (it == rank.collectives->by_key.end()) break;
      ops.push_back(it->second);
    }
    if (ops.size() != present.size()) continue;
    const bool same_name = std::all_of(ops.begin(), ops.end(), [&](const CollectiveOp* op) { return op->name == ops[0]->name; });
    if (!same_name) continue;
    std::int64_t shortest = ops[0]->duration_ns;
    for (const CollectiveOp* op : ops) shortest = std::min(shortest, op->duration_ns);
    for (std::size_t r = 0; r < ops.size(); ++r) out[r].collective_wait_ns += ops[r]->duration_ns - shortest;
    ++matched;
    matched_kernels += ops.size();
  }
  return {matched, kernels - matched_kernels};
}

std::optional<StepStraggler> find_straggler(const std::vector<RankInStep>& ranks) {
  if (ranks.size() < 2) return std::nullopt;
  std::size_t slowest = 0;
  for (std::size_t r = 1; r < ranks.size(); ++r) {
    if (ranks[r].active_ns > ranks[slowest].active_ns) slowest = r;  // ties: the first, the lowest rank
  }
  const auto median_by = [&](auto field) {
    std::vector<double> values;
    for (const RankInStep& rank : ranks) values.push_back(static_cast<double>(field(rank)));
    return quantile(values, 0.5);  // the median: the mean of the two middle values for an even count
  };
  StepStraggler out;
  const RankInStep& s = ranks[slowest];
  out.rank = s.rank;
  out.active_ns = s.active_ns;
  out.median_active_ns = median_by([](const RankInStep& r) { return r.active_ns; });
  out.excess_ns = static_cast<double>(s.active_ns) - out.median_active_ns;
  out.excess_share = out.median_active_ns != 0 ? out.excess_ns / out.median_active_ns : 0.0;
  const std::pair<StragglerCause, double> components[] = {
      {StragglerCause::compute,
       static_cast<double>(s.compute_ns) - median_by([](const RankInStep& r) { return r.compute_ns; })},
      {StragglerCause::host_bound,
       static_cast<double>(s.split.host_bound_ns) - median_by([](const RankInStep& r) { return r.split.host_bound_ns; })},
      {StragglerCause::device_wait, static_cast<double>(s.split.device_wait_ns) -
                                        median_by([](const RankInStep& r) { return r.split.device_wait_ns; })},
  };
  for (const auto& [cause, excess] : components) {
    if (excess > 0 && excess > out.cause_excess_ns) {  // strictly more: the earlier wins a tie
      out.largest = cause;
      out.cause_excess_ns = excess;
    }
  }
  // docs/ranks.md, "The straggler": level below the floor; else the largest component when it accounts
  // for the excess, offsetting when it is over twice it, unknown when under half of it (or none exceeds)
  // a median of 0 has no share: level only when there is no excess either
  if (out.median_active_ns > 0 ? out.excess_share < kStragglerMinExcessShare : out.excess_ns <= 0) {
    out.cause = StragglerCause::level;
  } else if (std::any_of(ranks.begin(), ranks.end(), [](const RankInStep& r) { return r.queue_open; })) {
    out.cause = StragglerCause::queue_open;  // host-bound and device-wait are bounds on some rank: no excess is known
  } else if (out.cause_excess_ns > kCauseMaxOfExcess * out.excess_ns) {
    out.cause = StragglerCause::offsetting;
  } else if (out.largest != StragglerCause::unknown && out.cause_excess_ns >= kCauseMinOfExcess * out.excess_ns) {
    out.cause = out.largest;
  }
  return out;
}

}  // namespace

CrossRankView cross_rank_view(const std::vector<RankDigest>& ranks) {
  CrossRankView view;
  std::set<std::int64_t> step_numbers;
  for (const RankDigest& rank : ranks) {
    for (const RankStep& step : rank.steps) step_numbers.insert(step.step);
  }
  // Per rank: its steps (the first of a repeated number) and its collectives by (step, key).
  std::vector<std::map<std::int64_t, const RankStep*>> steps_of(ranks.size());
  std::vector<std::map<std::int64_t, StepCollectives>> collectives_of(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    for (const RankStep& step : ranks[r].steps) steps_of[r].emplace(step.step, &step);
    for (const CollectiveOp& op : ranks[r].collectives) {
      StepCollectives& step = collectives_of[r][op.step];
      step.total_ns += op.duration_ns;
      if (!step.by_key.emplace(CollectiveKey{op.stream.stream, op.ordinal}, &op).second) ++step.clashing;
    }
  }
  view.ranks.resize(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) view.ranks[r].rank = ranks[r].rank;

  for (const std::int64_t number : step_numbers) {
    StepView step;
    step.step = number;
    std::vector<RankStepData> present;
    std::vector<std::size_t> present_index;  // into ranks
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      const auto it = steps_of[r].find(number);
      if (it == steps_of[r].end()) {
        step.missing_ranks.push_back(ranks[r].rank);
        continue;
      }
      RankStepData data;
      data.rank = ranks[r].rank;
      data.queue_open = ranks[r].queue_open;
      data.split = it->second;
      if (const auto c = collectives_of[r].find(number); c != collectives_of[r].end()) data.collectives = &c->second;
      present.push_back(std::move(data));
      present_index.push_back(r);
    }
    for (const RankStepData& data : present) {
      RankInStep rank;
      rank.rank = data.rank;
      rank.queue_open = data.queue_open;
      rank.split = *data.split;
      rank.compute_ns = data.split->busy_ns - data.split->communication_ns;
      rank.collective_ns = data.collectives ? data.collectives->total_ns : 0;
      step.ranks.push_back(rank);
    }
    std::tie(step.collectives_matched, step.collectives_unmatched) = match_collectives(present, step.ranks);
    std::vector<double> walls;
    for (RankInStep& rank : step.ranks) {
      rank.active_ns = rank.split.wall_ns - rank.collective_wait_ns;
      walls.push_back(static_cast<double>(rank.split.wall_ns));
    }
    if (!step.ranks.empty()) {
      const auto [lo, hi] = std::minmax_element(step.ranks.begin(), step.ranks.end(), [](const RankInStep& a, const RankInStep& b) {
        return a.split.wall_ns < b.split.wall_ns;
      });
      step.wall_min_ns = lo->split.wall_ns;
      step.wall_max_ns = hi->split.wall_ns;
      step.wall_median_ns = quantile(walls, 0.5);
    }
    step.straggler = find_straggler(step.ranks);

    for (std::size_t p = 0; p < step.ranks.size(); ++p) {
      const RankInStep& rank = step.ranks[p];
      RankTotals& totals = view.ranks[present_index[p]];
      ++totals.steps;
      totals.wall_ns += rank.split.wall_ns;
      totals.busy_ns += rank.split.busy_ns;
      totals.host_bound_ns += rank.split.host_bound_ns;
      totals.device_wait_ns += rank.split.device_wait_ns;
      totals.communication_ns += rank.split.communication_ns;
      totals.compute_ns += rank.compute_ns;
      totals.collective_ns += rank.collective_ns;
      totals.collective_wait_ns += rank.collective_wait_ns;
      totals.active_ns += rank.active_ns;
      if (step.straggler && step.straggler->named() && step.straggler->rank == rank.rank) ++totals.slowest_steps;
    }
    view.steps.push_back(std::move(step));
  }
  return view;
}

std::vector<Warning> cross_rank_warnings(const std::vector<RankDigest>& ranks, const CrossRankView& view) {
  std::vector<Warning> out;
  for (const RankDigest& rank : ranks) {
    if (rank.rank_from == RankSource::position) {
      out.push_back(Warning{WarningCode::rank_from_position,
                            fmt::format("'{}' has no distributedInfo.rank; it is rank {}, its position among the traces",
                                        rank.trace, rank.rank)});
    }
  }
  std::set<std::int64_t> world_sizes;
  std::set<std::string> backends;
  for (const RankDigest& rank : ranks) {
    if (rank.world_size) world_sizes.insert(*rank.world_size);
    if (!rank.backend.empty()) backends.insert(rank.backend);
  }
  if (world_sizes.size() > 1 || backends.size() > 1) {
    out.push_back(Warning{WarningCode::ranks_job_differs,
                          fmt::format("the traces do not agree on their job: world sizes {}, backends {}; are they of one run?",
                                      fmt::join(world_sizes, ", "), fmt::join(backends, ", "))});
  }
  for (const RankDigest& rank : ranks) {
    std::set<std::int64_t> seen;
    std::set<std::int64_t> repeated;
    for (const RankStep& step : rank.steps) {
      if (!seen.insert(step.step).second) repeated.insert(step.step);
    }
    if (!repeated.empty()) {
      out.push_back(Warning{WarningCode::ranks_steps_differ,
                            fmt::format("rank {}'s trace '{}' has step{} {} more than once; each is compared by its first "
                                        "window of that number",
                                        rank.rank, rank.trace, repeated.size() == 1 ? "" : "s", fmt::join(repeated, ", "))});
    }
  }
  std::vector<std::string> incomplete;
  std::size_t unmatched = 0;
  std::size_t unmatched_steps = 0;
  for (const StepView& step : view.steps) {
    if (!step.missing_ranks.empty()) {
      incomplete.push_back(fmt::format("step {} on rank{} {}", step.step, step.missing_ranks.size() == 1 ? "" : "s",
                                       fmt::join(step.missing_ranks, ", ")));
    }
    if (step.collectives_unmatched > 0) {
      unmatched += step.collectives_unmatched;
      ++unmatched_steps;
    }
  }
  if (!incomplete.empty()) {
    constexpr std::size_t kShown = 5;
    const std::size_t shown = std::min(incomplete.size(), kShown);
    out.push_back(Warning{
        WarningCode::ranks_steps_differ,
        fmt::format("the ranks did not record the same steps: missing {}{}; those steps are compared over the ranks "
                    "that have them",
                    fmt::join(incomplete.begin(), incomplete.begin() + static_cast<std::ptrdiff_t>(shown), "; "),
                    incomplete.size() > shown ? fmt::format("; and {} more", incomplete.size() - shown) : "")});
  }
  if (unmatched > 0) {
    out.push_back(Warning{WarningCode::ranks_collectives_unmatched,
                          fmt::format("{} collective kernel{} in {} step{} do not line up across the ranks (another "
                                      "count or name at the same place on a stream); their wait is not estimated",
                                      unmatched, unmatched == 1 ? "" : "s", unmatched_steps,
                                      unmatched_steps == 1 ? "" : "s")});
  }
  return out;
}

}  // namespace ohprof
