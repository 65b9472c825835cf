#include "ohprof/analysis/concurrency.hpp"

#include <algorithm>
#include <cmath>

#include "ohprof/analysis/explanation.hpp"
#include "ohprof/analysis/path_stats.hpp"
#include "ohprof/base/stats.hpp"

namespace ohprof {

std::int64_t calls_per_round(double median_ns) {
  if (!(median_ns > 0)) return kThreadRoundMinCalls;
  const double calls = std::round(kThreadRoundTargetNs / median_ns);
  return static_cast<std::int64_t>(
      std::clamp(calls, static_cast<double>(kThreadRoundMinCalls), static_cast<double>(kThreadRoundMaxCalls)));
}

std::int64_t latency_stride(std::int64_t calls) {
  return std::max<std::int64_t>(1, (calls + kLatenciesPerThreadRound - 1) / kLatenciesPerThreadRound);
}

ThreadsPoint threads_point(int threads, std::int64_t calls_per_round, std::vector<std::int64_t> round_ns,
                           std::vector<std::int64_t> latency_ns, const std::vector<std::optional<SchedStat>>& round_sched) {
  ThreadsPoint point;
  const bool every_round = !round_ns.empty() && round_sched.size() == round_ns.size() &&
                           std::all_of(round_sched.begin(), round_sched.end(), [](const auto& s) { return s.has_value(); });
  if (every_round) {
    point.on_cpu_ns = 0;
    point.waited_ns = 0;
    for (const std::optional<SchedStat>& sched : round_sched) {
      point.on_cpu_round_ns.push_back(sched->on_cpu_ns);
      point.waited_round_ns.push_back(sched->run_delay_ns);
      *point.on_cpu_ns += sched->on_cpu_ns;
      *point.waited_ns += sched->run_delay_ns;
    }
  }
  point.threads = threads;
  point.calls_per_round = calls_per_round;
  point.round_ns = std::move(round_ns);
  point.latency_ns = std::move(latency_ns);
  std::vector<double> throughput;
  for (const std::int64_t ns : point.round_ns) {
    if (ns > 0) throughput.push_back(static_cast<double>(threads) * static_cast<double>(calls_per_round) * 1e9 / static_cast<double>(ns));
  }
  const SampleSummary summary = summarize(throughput);
  point.calls_per_s = summary.median;
  point.calls_per_s_se = median_standard_error(summary);
  std::vector<double> latency(point.latency_ns.begin(), point.latency_ns.end());
  if (!latency.empty()) {
    point.p50_ns = quantile(latency, 0.50);
    point.p99_ns = quantile(latency, 0.99);
  }
  return point;
}

void scale_against_one(std::vector<ThreadsPoint>& points) {
  if (points.empty() || points.front().threads != 1 || !(points.front().calls_per_s > 0)) return;
  const ThreadsPoint one = points.front();
  for (ThreadsPoint& point : points) {
    const Estimate gain{point.calls_per_s - one.calls_per_s, std::hypot(point.calls_per_s_se, one.calls_per_s_se)};
    point.scaling = point.calls_per_s / one.calls_per_s;
    point.scaling_low = 1 + interval_low(gain) / one.calls_per_s;
    point.scaling_high = 1 + interval_high(gain) / one.calls_per_s;
    point.scales = point.threads > 1 && significant(gain) && gain.value_ns > 0;
  }
}

namespace {

// A point's throughput in each round, N * calls_per_round * 1e9 / round_ns[r]; none for a round without a time.
RoundMedians round_throughputs(const ThreadsPoint& point) {
  RoundMedians out;
  for (const std::int64_t ns : point.round_ns) {
    out.push_back(ns > 0 ? std::optional<double>(static_cast<double>(point.threads) *
                                                 static_cast<double>(point.calls_per_round) * 1e9 / static_cast<double>(ns))
                         : std::nullopt);
  }
  return out;
}

}  // namespace

Estimate throughput_difference(const ThreadsPoint& a, const ThreadsPoint& b) {
  Estimate out{a.calls_per_s - b.calls_per_s, std::hypot(a.calls_per_s_se, b.calls_per_s_se)};
  if (const auto paired = paired_se(round_throughputs(a), round_throughputs(b), [](double x, double y) { return x - y; })) {
    out.se_ns = std::max(out.se_ns, *paired);
  }
  return out;
}

std::optional<double> one_caller_slowdown(const ThreadsPoint& one, const SampleSummary& timing) {
  if (one.threads != 1 || one.latency_ns.empty() || timing.count == 0 || !(timing.median > 0)) return std::nullopt;
  const SampleSummary latency = summarize_ns(one.latency_ns);
  const Estimate slower{one.p50_ns - timing.median,
                        std::hypot(median_standard_error(latency), median_standard_error(timing))};
  const double ratio = one.p50_ns / timing.median;
  if (ratio < kSlowCallerRatio || slower.value_ns <= 0 || !significant(slower)) return std::nullopt;
  return ratio;
}

bool scaling_within_noise(const PathConcurrency& path) {
  if (path.points.size() < 2 || path.caller_slowdown) return false;
  const ThreadsPoint& top = path.points.back();
  return !top.scales && top.scaling_high > 1 + kNoGainTolerance;
}

bool cores_had_room(const PathConcurrency& path) {
  if (path.points.size() < 2 || path.caller_slowdown || path.context.cuda || path.context.intra_op_threads > 1) return false;
  const ThreadsPoint& top = path.points.back();
  if (top.scales || scaling_within_noise(path)) return false;
  const std::optional<Estimate> waited = wait_share_estimate(top);
  const std::optional<Estimate> blocked = blocked_share_estimate(top);
  return waited && blocked && interval_high(*waited) < kBusyCoresShare && interval_low(*blocked) >= kTakingTurnsShare;
}

bool gil_share_within_noise(const PathConcurrency& path) {
  return path.holds_gil && path.host_share && path.host_share_se && !scaling_within_noise(path) &&
         !cores_had_room(path) && !significant(Estimate{*path.host_share - kGilHostShare, *path.host_share_se});
}

namespace {
bool cores_full(const PathConcurrency& path) {
  const ConcurrencyContext& context = path.context;
  return !path.points.empty() && !context.cuda && context.cores > 0 &&
         path.points.back().threads * std::max(1, context.intra_op_threads) >= context.cores;
}
}  // namespace

bool gil_share_missing(const PathConcurrency& path) {
  return path.holds_gil && !path.host_share && path.points.size() >= 2 && !path.caller_slowdown &&
         !path.points.back().scales && !scaling_within_noise(path) && !cores_had_room(path) &&
         (path.context.cuda || cores_full(path));
}

ConcurrencyLimit concurrency_limit(const PathConcurrency& path) {
  const ConcurrencyContext& context = path.context;
  if (path.points.size() < 2) return ConcurrencyLimit::unknown;
  // The scaling is measured against a 1-caller point that is itself materially slower than the timing pass:
  // it measures the caller threads' own cost too, so no rule below can be read from it.
  if (path.caller_slowdown) return ConcurrencyLimit::unknown;
  const ThreadsPoint& top = path.points.back();
  const bool full = cores_full(path);
  if (top.scales) return full ? ConcurrencyLimit::cores : ConcurrencyLimit::none;
  // Not shown to scale, nor shown not to: its gain could still exceed a tenth of one caller's throughput.
  if (scaling_within_noise(path)) return ConcurrencyLimit::unknown;
  // Callers asleep a material part of their time, with a core free whenever one was ready: not the cores; they
  // took turns at something, for a Python path the GIL that each of its calls takes.
  if (cores_had_room(path)) return path.holds_gil ? ConcurrencyLimit::gil : ConcurrencyLimit::unknown;
  if (path.holds_gil) {
    // Its share too near 50% to read, or unknown where the device or the cores could be the limit too: the
    // GIL or what the rules below name, not told apart. Unknown with nothing else shared: the GIL.
    if (gil_share_within_noise(path) || gil_share_missing(path)) return ConcurrencyLimit::unknown;
    if (!path.host_share || *path.host_share >= kGilHostShare) return ConcurrencyLimit::gil;
  }
  if (context.cuda) return ConcurrencyLimit::device;
  if (full) return ConcurrencyLimit::cores;
  return ConcurrencyLimit::unknown;
}

}  // namespace ohprof
