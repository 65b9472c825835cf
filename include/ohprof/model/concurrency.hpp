#pragma once
// compare --threads: several callers of one loaded path at once (docs/metrics.md, "Concurrent callers").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/enum_text.hpp"
#include "ohprof/model/explanation.hpp"

namespace ohprof {

// What stops a path's throughput from growing with its callers (docs/metrics.md, "Concurrent callers").
#define OHPROF_CONCURRENCY_LIMIT_VALUES(X)                                                                            \
  X(none, "none")        /* it scales, and nothing known bounds it at the largest count measured */                   \
  X(gil, "gil")          /* a Python path that does not scale: its host work holds the GIL, one caller at a time */   \
  X(cores, "cores")      /* the callers' work shares the machine's cores: callers x intra-op threads >= cores */      \
  X(device, "device")    /* a CUDA path that does not scale: the one device (and the one stream the callers share) */ \
  X(unknown, "unknown")  /* it does not scale and none of the above is known to hold */
OHPROF_ENUM_CLASS(ConcurrencyLimit, OHPROF_CONCURRENCY_LIMIT_VALUES)

// A path is said not to scale only when its scaling's 95% interval lies below 1 + this (a gain of at most a
// tenth of one caller's throughput): a gain within noise that could be larger names no limit.
inline constexpr double kNoGainTolerance = 0.10;
// The blocked share (ThreadsPoint::blocked_share) from which callers that barely waited for a CPU are said to
// take turns (at the GIL, for a Python path): analysis/concurrency.hpp, cores_had_room.
inline constexpr double kTakingTurnsShare = 0.10;

// One count of callers: `threads` threads each made `calls_per_round` calls in each round, all starting
// together; a round's throughput is its calls over the time from their start to the last call's end.
struct ThreadsPoint {
  int threads = 0;
  std::int64_t calls_per_round = 0;        // per thread
  std::vector<std::int64_t> round_ns;      // each round's elapsed time
  std::vector<std::int64_t> latency_ns;    // calls' wall times, round by round, thread by thread: each
                                           // thread's calls 0, s, 2s, ... (s = latency_stride(calls_per_round))
  double calls_per_s = 0;                  // median over rounds of threads * calls_per_round / round_ns
  double calls_per_s_se = 0;               // its standard error (docs/metrics.md, "Spread of a difference")
  double p50_ns = 0;                       // quantiles of latency_ns (linear interpolation)
  double p99_ns = 0;
  // Against one caller: calls_per_s / the 1-thread point's, and the 95% interval 1 + the gain's interval
  // over the 1-thread throughput; `scales` when the gain is significant and positive.
  double scaling = 1;
  double scaling_low = 1;
  double scaling_high = 1;
  bool scales = false;
  // How long the callers ran on a CPU, and waited for one, over the point's rounds: each caller thread's
  // schedstat from before its first call to after its last, summed over threads and rounds (docs/metrics.md,
  // "Concurrent callers"); nullopt where a read failed or the kernel keeps no schedstat.
  std::optional<std::int64_t> on_cpu_ns;
  std::optional<std::int64_t> waited_ns;
  // on_cpu_ns over the rounds' time: how many CPUs the callers' own threads kept busy on average.
  [[nodiscard]] std::optional<double> cpus_used() const {
    const double time = rounds_time();
    if (!on_cpu_ns || !(time > 0)) return std::nullopt;
    return static_cast<double>(*on_cpu_ns) / time;
  }
  // waited_ns over the callers' time, threads * the rounds' time: the part of it they waited for a CPU.
  [[nodiscard]] std::optional<double> wait_share() const {
    const double time = rounds_time();
    if (!waited_ns || !(time > 0) || threads <= 0) return std::nullopt;
    return static_cast<double>(*waited_ns) / (static_cast<double>(threads) * time);
  }
  // The part of the callers' time they were neither on a CPU nor waiting for one, 1 - (on_cpu_ns + waited_ns) /
  // (threads * the rounds' time): asleep, as a thread that waits for a lock (the GIL) is. An upper bound: it
  // also holds each caller's start after the round's and its idle end after its last call. It can fall below 0
  // by a hair, as cpus_used can exceed threads.
  [[nodiscard]] std::optional<double> blocked_share() const {
    const double time = rounds_time();
    if (!on_cpu_ns || !waited_ns || !(time > 0) || threads <= 0) return std::nullopt;
    return 1.0 - static_cast<double>(*on_cpu_ns + *waited_ns) / (static_cast<double>(threads) * time);
  }
  [[nodiscard]] double rounds_time() const {
    double time = 0;
    for (const std::int64_t ns : round_ns) time += static_cast<double>(ns);
    return time;
  }
  // on_cpu_ns and waited_ns round by round, each the sum over the callers of that round (beside round_ns), so
  // that the shares have a spread (analysis/concurrency.hpp, wait_share_estimate); empty where on_cpu_ns is
  // null, and in reports written before rule 3 read an interval.
  std::vector<std::int64_t> on_cpu_round_ns;
  std::vector<std::int64_t> waited_round_ns;
  friend bool operator==(const ThreadsPoint&, const ThreadsPoint&) = default;
};

// A point's wait share (ThreadsPoint::wait_share) and blocked share (blocked_share) with their standard errors
// over its rounds (docs/metrics.md, "Concurrent callers"): share_of_sums_se with whole_r = N · round_ns[r] and
// part_r = waited_round_ns[r], or N · round_ns[r] − on_cpu_round_ns[r] − waited_round_ns[r]. None without the
// round figures (one per round) or with fewer than 2 rounds. (Here, not in analysis/, as the limit's sentence
// prints them.)
std::optional<Estimate> wait_share_estimate(const ThreadsPoint& point);
std::optional<Estimate> blocked_share_estimate(const ThreadsPoint& point);

// What the limit rule looks at besides the points.
struct ConcurrencyContext {
  int cores = 0;               // CPUs this process may run on
  int intra_op_threads = 0;    // LibTorch's intra-op threads per call
  bool cuda = false;           // the paths ran on a CUDA device
  friend bool operator==(const ConcurrencyContext&, const ConcurrencyContext&) = default;
};

struct PathConcurrency {
  std::vector<ThreadsPoint> points;        // by thread count, 1 first
  bool holds_gil = false;                  // a Python path: every call runs Python under the GIL
  std::optional<double> host_share;        // its split's host-bound share of wall time (verdict), when known
  // That share's standard error over the split's iterations (share_of_sums_se), when host_share is known.
  std::optional<double> host_share_se;
  // The limit is unknown as the largest count's gain is within noise yet could exceed a tenth of one caller's
  // throughput (analysis/concurrency.hpp, scaling_within_noise): neither "scales" nor "does not scale" is shown.
  bool scaling_within_noise = false;
  // The limit is unknown and the GIL rule could not read the share: its 95% interval contains the rule's 50%.
  bool host_share_within_noise = false;
  // The limit is unknown as the GIL rule needed the share, which is unknown, to tell the GIL from the device or
  // the cores (analysis/concurrency.hpp, gil_share_missing).
  bool host_share_missing = false;
  std::int64_t runner_instances = 0;       // the AOTI C++ runner's model instances (num_runners); 0: not that path
  ConcurrencyContext context;              // what the limit rule read besides the points
  ConcurrencyLimit limit = ConcurrencyLimit::unknown;  // at the largest count measured
  // The 1-caller point's p50 over the timing pass's median, when a call on a caller thread is materially
  // slower than on the measuring thread (one_caller_slowdown, docs/metrics.md, "Slower on a caller
  // thread"); the scaling then measures that cost too. None: not slower, or not measured.
  std::optional<double> caller_slowdown;
  std::string unavailable;                 // why it was not measured ("" : it was)
  // The limit was read from the callers' schedstat (analysis/concurrency.hpp, cores_had_room): at the largest
  // count they barely waited for a CPU and were asleep a tenth of their time or more (both shown by their 95%
  // intervals), so the cores are not the limit; it is the GIL for a Python path, else unknown.
  bool cores_had_room = false;
  friend bool operator==(const PathConcurrency&, const PathConcurrency&) = default;
};

}  // namespace ohprof
