#pragma once
// compare --threads (docs/metrics.md, "Concurrent callers"): a point's throughput and latency quantiles,
// its scaling against one caller, and the limit a path hits. Pure functions over plain structs.
#include <cstdint>
#include <optional>
#include <vector>

#include "ohprof/base/run_queue.hpp"
#include "ohprof/base/stats.hpp"

#include "ohprof/model/concurrency.hpp"
#include "ohprof/model/explanation.hpp"

namespace ohprof {

// A round lasts about this long for one thread (calls_per_round).
inline constexpr double kThreadRoundTargetNs = 50e6;
inline constexpr std::int64_t kThreadRoundMinCalls = 5;
inline constexpr std::int64_t kThreadRoundMaxCalls = 5000;
// Rounds of every (path, thread count), interleaved.
inline constexpr int kThreadRounds = 9;
// Latencies kept per thread per round, at most: every latency_stride(calls)-th call's from the first.
inline constexpr std::int64_t kLatenciesPerThreadRound = 100;
// The limit rule's host share above which a Python path that does not scale is said to be GIL-bound.
inline constexpr double kGilHostShare = 0.5;

// Calls each thread makes per round for a path whose one call takes `median_ns` (from the timing pass):
// kThreadRoundTargetNs / median_ns, rounded, within [kThreadRoundMinCalls, kThreadRoundMaxCalls].
std::int64_t calls_per_round(double median_ns);

// ceil(calls / kLatenciesPerThreadRound): a thread's calls 0, s, 2s, ... of a round are kept in latency_ns.
std::int64_t latency_stride(std::int64_t calls);

// One point from its rounds' elapsed times, its calls' latencies and, per round, its callers' time on a CPU
// and waiting for one, summed over the callers (the fields above scaling; on_cpu_ns and waited_ns, the sums over
// the rounds, and on_cpu_round_ns and waited_round_ns, when `round_sched` holds a figure for every round of
// round_ns; none of the four otherwise).
ThreadsPoint threads_point(int threads, std::int64_t calls_per_round, std::vector<std::int64_t> round_ns,
                           std::vector<std::int64_t> latency_ns, const std::vector<std::optional<SchedStat>>& round_sched = {});


// Each point's scaling against the 1-thread point (points.front(), which must have threads == 1).
void scale_against_one(std::vector<ThreadsPoint>& points);

// Two paths' points at the same count, measured in the same rounds (round_ns[r] is round r's burst), compared:
// a.calls_per_s - b.calls_per_s, with the larger of the independent error sqrt(se_a^2 + se_b^2) and the
// round-paired one, se(median) of the per-round throughput differences over the rounds both have (2 or more;
// docs/metrics.md, "Spread of a difference").
Estimate throughput_difference(const ThreadsPoint& a, const ThreadsPoint& b);

// A caller thread is "slower" when its calls' p50 is at least this many times the timing pass's median
// (and the difference is significant).
inline constexpr double kSlowCallerRatio = 2.0;

// docs/metrics.md, "Slower on a caller thread": one.p50_ns / timing.median when the 1-caller point (`one`,
// threads == 1) is slower than the measuring thread's timing pass (`timing`, PathResult::wall): the ratio
// is at least kSlowCallerRatio and p50 - median is significant, with the standard error of each median
// ("Spread of a difference") over one.latency_ns and the timing samples. None otherwise.
std::optional<double> one_caller_slowdown(const ThreadsPoint& one, const SampleSummary& timing);

// A path whose gain at the largest count is within noise (not `scales`) and whose scaling's 95% interval
// reaches above 1 + kNoGainTolerance (model/concurrency.hpp): whether more callers add calls is not known, so
// no limit is named. False with fewer than two points or with caller_slowdown (that rule comes first).
bool scaling_within_noise(const PathConcurrency& path);

// Rule 3 of the limit (docs/metrics.md, "Concurrent callers"): a path that does not scale (not `scales`, nor
// scaling_within_noise, no caller_slowdown, two points or more) on the CPU with at most one intra-op thread
// per call, so that its callers' own threads do all of a call's work, whose callers at the largest count waited
// for a CPU less than kBusyCoresShare of their time (the 95% interval of wait_share_estimate ends below it) and
// were asleep at least kTakingTurnsShare of it (blocked_share_estimate's interval starts at it or above): a core
// was free whenever a caller was ready, and the callers did not keep the cores busy, so the cores are not its
// limit; the callers took turns at something (a Python path: the GIL). False without the callers' schedstat
// figures round by round.
bool cores_had_room(const PathConcurrency& path);

// Whether the GIL rule cannot read a path's host share: the path holds the GIL and host_share ± 1.96 ·
// host_share_se contains kGilHostShare (the difference is not significant). False without host_share_se, and
// where scaling_within_noise or cores_had_room holds (those rules come first).
bool gil_share_within_noise(const PathConcurrency& path);
// A path that holds the GIL, does not scale, and whose host share is unknown, where the device (CUDA) or the
// cores (N · max(1, intra-op threads) ≥ cores) could be its limit too: the share would tell them apart. False
// where scaling_within_noise or cores_had_room holds.
bool gil_share_missing(const PathConcurrency& path);

// The limit at the largest count measured (docs/metrics.md, "Concurrent callers").
// Reads path.points (their scaling intervals and the largest count's schedstat figures), holds_gil, host_share,
// host_share_se, caller_slowdown and context.
ConcurrencyLimit concurrency_limit(const PathConcurrency& path);

}  // namespace ohprof
