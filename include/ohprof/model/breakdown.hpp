#pragma once
// What the analysis produces (ohprof/analysis/breakdown.hpp computes it): each iteration's wall time on
// the device timeline, split into busy, host-bound and device-wait time (per stream too), the launch
// queue, what the host was doing while the device waited for it, the host-side calls, its summary,
// totals, counters, kernel sets and verdict. Plain data, integer nanoseconds; every quantity is defined in docs/metrics.md, with the JSON
// field it is reported in.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ohprof/base/enum_text.hpp"
#include "ohprof/base/stats.hpp"
#include "ohprof/model/timeline.hpp"

namespace ohprof {

// What the threads that launch device work were doing while the device waited for the host
// (docs/metrics.md, "Host states"). The five add up to the host-bound time, exactly.
struct HostStates {
  std::int64_t blocking_ns = 0;   // in a synchronisation or a blocking copy (the host waited)
  std::int64_t launch_ns = 0;     // in a launch call that did not block (a kernel launch: of at most kSlowLaunchNs)
  std::int64_t other_api_ns = 0;  // in another runtime/driver call (allocation, initialisation, queries), or
                                  // in a longer kernel launch call (loading code)
  std::int64_t harness_ns = 0;    // in the harness's own end-of-iteration sync (live runs)
  std::int64_t framework_ns = 0;  // in none of them: framework, Python, data loading
};

// In the order of precedence (docs/metrics.md, "Host states").
#define OHPROF_HOST_STATE_VALUES(X) \
  X(blocking, "blocking")           \
  X(launch, "launch")               \
  X(other_api, "other_api")         \
  X(harness, "harness")             \
  X(framework, "framework")
OHPROF_ENUM_CLASS(HostState, OHPROF_HOST_STATE_VALUES)

// A kernel launch takes microseconds; a kernel or graph launch call longer than this is loading code (lazy
// module loading on a kernel's first launch) or waiting on the driver: other_api in the host states.
inline constexpr std::int64_t kSlowLaunchNs = 100'000;

// The device timeline of one window for one set of streams (all streams, or one stream), by time:
// what ran in the window, whoever launched it (docs/metrics.md, "Device timeline").
// busy + host_bound + device_wait == wall, exactly.
struct DeviceSplit {
  std::int64_t busy_ns = 0;         // union of the ops' intervals clipped to the window
  std::int64_t idle_ns = 0;         // wall - busy
  std::int64_t host_bound_ns = 0;   // idle, and no op pending: the device waited for the host
  std::int64_t device_wait_ns = 0;  // idle while ops were pending: the device waited on the device
  std::int64_t queue_ns = 0;        // integral of the number of pending ops over the window (op x ns)
  std::int64_t queue_max = 0;       // the most ops pending at one time in the window
  std::int64_t communication_ns = 0;  // busy time with a communication op (a collective) running
  std::size_t ops = 0;              // timed ops that ran in the window (clipped length > 0)
  // Diagnostics: the window's own work (ops whose launch call belongs to it).
  std::size_t own_ops = 0;          // timed ops the window launched, wherever they ran
  std::int64_t own_busy_ns = 0;     // union of their intervals clipped to the window
  std::int64_t carried_out_ns = 0;  // union of their intervals outside the window
};

// The time-weighted mean depth of the launch queue: queue_ns / wall (0 for an empty window).
inline double queue_mean(const DeviceSplit& split, std::int64_t wall_ns) {
  return wall_ns > 0 ? static_cast<double>(split.queue_ns) / static_cast<double>(wall_ns) : 0.0;
}

// A stream is identified by (device, stream); for CPU runs the stream is the thread id.
struct StreamKey {
  std::int32_t device = 0;
  std::int64_t stream = 0;
  friend bool operator==(const StreamKey&, const StreamKey&) = default;
  friend auto operator<=>(const StreamKey&, const StreamKey&) = default;
};

struct StreamSplit {
  StreamKey key;
  DeviceSplit split;     // pending and running on this stream only
  std::int64_t waited_ns = 0;  // part of the all-streams device-wait time with ops pending on this stream
};

// One iteration window, split.
struct IterationBreakdown {
  std::int64_t index = 0;       // IterationWindow::index
  // The split pass's round (from 0) the iteration ran in (run, compare); absent for analyze.
  std::optional<int> round;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t wall_ns = 0;     // end - start
  DeviceSplit gpu;              // all streams of all devices together
  HostStates host_states;       // of gpu.host_bound_ns (CPU runs: all of it framework)
  // The most ops pending on one device (its streams together) at one time: the full-queue flag's number.
  std::int64_t device_queue_max = 0;
  // One entry per stream with an op pending in, or launched by, any window, sorted by (device, stream),
  // the same list in every iteration (a stream without work in this iteration has busy 0).
  std::vector<StreamSplit> streams;

  // Host side (docs/metrics.md, "Host side"), on every thread, the harness's own sync left out.
  std::int64_t launch_api_ns = 0;      // union of the non-blocking launch calls, clipped
  std::int64_t launch_exposed_ns = 0;  // the part of it while no op was pending
  std::int64_t launch_hidden_ns = 0;   // launch_api - launch_exposed
  std::int64_t blocking_ns = 0;        // union of the blocking calls (syncs, blocking copies), clipped
  std::size_t blocking_calls = 0;      // blocking calls that start in the window
  std::int64_t other_api_ns = 0;       // union of the other runtime/driver calls, clipped
  // CPU runs only (the host runs the kernels itself): wall - busy, the host time around the kernels.
  std::optional<std::int64_t> dispatch_ns;

  std::size_t launches = 0;       // launch calls attributed to the iteration (a graph launch is one)
  std::size_t graph_launches = 0; // of which LaunchKind::graph
  // Per launch call with at least one timed op: first op start - launch call end, negative clipped to 0.
  std::vector<std::int64_t> queue_delays_ns;
  std::size_t queue_delays_clipped = 0;  // how many were negative before clipping
  // Set where the path's queue is open (PathVerdict::queue_open: device ops without a launch call): the
  // iteration's host-bound time with each such op pending from the earliest its launch can have been, the
  // least its host-bound time can be (gpu.host_bound_ns is the most); docs/metrics.md, "Ops without a launch call".
  std::optional<std::int64_t> host_bound_least_ns;
};

// Medians and spread over iterations of the per-iteration quantities.
struct DeviceSplitSummary {
  SampleSummary busy_ns;
  SampleSummary idle_ns;
  SampleSummary host_bound_ns;
  SampleSummary device_wait_ns;
  SampleSummary queue_mean;      // per window: queue_ns / wall_ns (0 for an empty window)
  SampleSummary queue_max;
  SampleSummary own_busy_ns;
  SampleSummary carried_out_ns;
};

// Sums over all analysed iterations (what the verdict uses), integer nanoseconds.
struct DeviceSplitTotals {
  std::int64_t busy_ns = 0;
  std::int64_t host_bound_ns = 0;
  std::int64_t device_wait_ns = 0;
  std::int64_t queue_ns = 0;
  std::int64_t queue_max = 0;  // the largest per-window queue_max
  std::int64_t communication_ns = 0;
  std::int64_t own_busy_ns = 0;
  std::int64_t carried_out_ns = 0;
};

struct StreamSummary {
  StreamKey key;
  DeviceSplitSummary split;
  DeviceSplitTotals totals;
  std::int64_t waited_ns = 0;  // sum over iterations of StreamSplit::waited_ns
};

struct BreakdownTotals {
  std::size_t iterations = 0;
  std::int64_t wall_ns = 0;
  DeviceSplitTotals gpu;
  HostStates host_states;
  std::int64_t launch_api_ns = 0;
  std::int64_t launch_exposed_ns = 0;
  std::int64_t launch_hidden_ns = 0;
  std::int64_t blocking_ns = 0;
  std::size_t blocking_calls = 0;
  std::int64_t other_api_ns = 0;
  std::int64_t dispatch_ns = 0;  // CPU runs
  std::int64_t device_queue_max = 0;      // the largest per-iteration device_queue_max
  std::size_t full_queue_iterations = 0;  // iterations whose device_queue_max >= kFullLaunchQueue
};

// About the CUDA launch-queue limit: a window whose queue reaches it has launches blocked on it.
inline constexpr std::int64_t kFullLaunchQueue = 1000;

struct BreakdownSummary {
  // The ops are CPU kernels the host ran itself (Timeline::ops_have_launches == false): "busy" is CPU
  // kernel time, dispatch is wall - busy, and the queue and host-state notions do not apply.
  bool cpu_kernels = false;
  SampleSummary wall_ns;
  DeviceSplitSummary gpu;
  std::vector<StreamSummary> streams;  // same order as IterationBreakdown::streams
  SampleSummary host_blocking_ns;      // host_states.* per iteration
  SampleSummary host_launch_ns;
  SampleSummary host_other_api_ns;
  SampleSummary host_harness_ns;
  SampleSummary host_framework_ns;
  SampleSummary launch_api_ns;
  SampleSummary launch_exposed_ns;
  SampleSummary launch_hidden_ns;
  SampleSummary blocking_ns;
  SampleSummary other_api_ns;
  SampleSummary dispatch_ns;     // CPU runs (count 0 otherwise)
  SampleSummary launches;        // launch calls per iteration
  SampleSummary graph_launches;  // graph launch calls per iteration
  SampleSummary gpu_ops;         // timed ops per iteration (launched by it)
  SampleSummary queue_delay_ns;  // pooled over all launches of all iterations
  std::size_t queue_delays_clipped = 0;
  BreakdownTotals totals;
};

// What the analysis found it could not use; reported, never silent (docs/metrics.md, "Counters").
struct AnalysisCounters {
  std::size_t ops_total = 0;                   // timeline.ops.size()
  std::size_t ops_without_timestamps = 0;      // start == end == 0: excluded from all timing
  std::size_t ops_invalid_interval = 0;        // end < start: excluded from all timing
  std::size_t ops_without_launch = 0;          // timed ops whose correlation matches no launch call
  std::size_t ops_outside_iterations = 0;      // timed ops attributed to no iteration window
  std::size_t launches_total = 0;              // timeline.launches.size()
  std::size_t launches_outside_iterations = 0; // launch calls attributed to no iteration window
  std::size_t duplicate_launch_correlations = 0;  // launch calls whose correlation an earlier call has
  std::size_t invalid_windows = 0;             // iteration windows with end < start: skipped
};

// One row of the per-kernel table: ops of one kind and name attributed to the path's iterations.
struct KernelStat {
  DeviceOpKind kind = DeviceOpKind::kernel;
  std::string name;
  std::size_t count = 0;
  std::int64_t total_ns = 0;  // sum of end - start (unclipped)
  double mean_ns = 0;         // total / count
  double count_per_iteration = 0;  // count / number of analysed iterations
  double median_ns = 0;       // median of one call's end - start: the headline figure (outliers move the mean)
};

#define OHPROF_VERDICT_VALUES(X)            \
  X(unknown, "unknown")                     \
  X(host_bound, "host-bound")               \
  X(device_wait_bound, "device-wait-bound") \
  X(compute_bound, "compute-bound")         \
  X(mixed, "mixed")
OHPROF_ENUM_CLASS(Verdict, OHPROF_VERDICT_VALUES)

// What decided the verdict (docs/metrics.md, "Verdict").
#define OHPROF_VERDICT_REASON_VALUES(X)                                                                                                      \
  X(unread_device_events, "unread_device_events")    /* unknown: no busy time, but device events of categories ohprof does not read */       \
  X(no_iterations, "no_iterations")                  /* unknown: no iteration was analysed */                                                \
  X(launches_without_ops, "launches_without_ops")    /* unknown: launch calls recorded, but no device op read: not zero */                 \
  X(no_device_work, "no_device_work")                /* unknown: no device op ran in any window */                                           \
  X(no_launches, "no_launches")                      /* unknown: device ops, but none has its launch call in the data */                     \
  X(startup_without_steps, "startup_without_steps")  /* unknown: no iterations marked, and start-up calls dominate the one window */         \
  X(kernels_unrecorded, "kernels_unrecorded")        /* unknown: CPU kernels that do not record themselves count as dispatch; not busy-led */ \
  X(queue_unknown, "queue_unknown")                  /* unknown: ops without a launch call leave host-bound and device-wait as bounds, and the verdict differs within them */ \
  X(dominant_share, "dominant_share")                /* one share of wall time is at least kDominantSharePercent, kShareLeadPercent ahead */ \
  X(close_shares, "close_shares")                    /* mixed: no share does */
OHPROF_ENUM_CLASS(VerdictReason, OHPROF_VERDICT_REASON_VALUES)

// Which of a split's shares can be read, by the verdict's reason: none where device work was not read
// (unread_device_events, launches_without_ops: busy 0 is not zero), and busy alone where no device op has its
// launch call (no_launches: host-bound and device-wait cannot be told apart). Both otherwise. Every printer,
// and the deployment summary's host share, reads a share only where this says it can be read.
struct ReadableShares {
  bool busy = true;
  bool queueing = true;  // host-bound and device-wait
};
ReadableShares readable_shares(VerdictReason reason);

// The share of the wall time that decides, and how far ahead of the second it must be, in percent of
// the wall time (compared in integer arithmetic, so 50% is exactly 50%).
inline constexpr std::int64_t kDominantSharePercent = 50;
inline constexpr std::int64_t kShareLeadPercent = 10;

// The part of the wall time that each verdict stands for.
#define OHPROF_TIME_SHARE_VALUES(X) \
  X(busy, "busy")                   \
  X(host_bound, "host_bound")       \
  X(device_wait, "device_wait")
OHPROF_ENUM_CLASS(TimeShare, OHPROF_TIME_SHARE_VALUES)

// Headroom (docs/metrics.md, "Headroom"): by Amdahl's bound, removing a part P of the summed wall time W
// makes the path at most W / (W - P) times faster. Host changes are said not to help only when the
// host-bound part's headroom is under kNegligibleHeadroomPercent / 100 (compared in integers:
// 100 W < 105 (W - P)).
inline constexpr std::int64_t kNegligibleHeadroomPercent = 105;

struct PathVerdict {
  Verdict verdict = Verdict::unknown;
  VerdictReason reason = VerdictReason::no_iterations;
  // The evidence: shares of the summed wall time (BreakdownTotals), 0 when there is none.
  double busy_share = 0;
  double host_bound_share = 0;    // GPU: host-bound; CPU runs: dispatch
  double device_wait_share = 0;   // GPU only
  TimeShare first = TimeShare::busy;   // the largest share, and the second largest
  TimeShare second = TimeShare::host_bound;
  // Host-bound and mixed-with-host-bound verdicts: the host state with the most host-bound time, and
  // its share of the host-bound time.
  std::optional<HostState> host_state;
  double host_state_share = 0;
  // Device-wait: the stream with the most waited time, and that time's share of the device-wait time.
  std::optional<StreamKey> waited_stream;
  double waited_stream_share = 0;
  double queue_delay_median_ns = 0;
  // Compute-bound: full launch queue (queue_max: the largest device_queue_max), time in blocking calls
  // (share of wall).
  std::size_t full_queue_iterations = 0;
  std::int64_t queue_max = 0;
  double blocking_share = 0;
  double communication_share = 0;  // totals.gpu.communication_ns / totals.gpu.busy_ns
  double launches_per_iteration = 0;        // median
  double graph_launches_per_iteration = 0;  // median
  bool cpu_kernels = false;
  bool whole_recording_window = false;  // Timeline::whole_recording_window: no steps marked iterations
  // Headroom of each part: W / (W - part); nullopt when W is 0 or the part is all of W (no bound).
  std::optional<double> busy_headroom;
  std::optional<double> host_bound_headroom;
  std::optional<double> device_wait_headroom;
  bool host_headroom_negligible = true;  // 100 W < kNegligibleHeadroomPercent (W - host_bound)
  std::vector<EventCount> unread_device_events;  // Timeline::unread_device_events (unread_device_events)
  // Timeline::kernels_unrecorded: some of the path's CPU kernels do not record themselves, so their time is
  // in host_bound_share (dispatch), which is then an upper bound, and busy_share a lower one.
  bool kernels_unrecorded = false;
  // Timed ops without a launch call in the data that were not launched before the recording (a GPU timeline):
  // when they were queued is not known, so host_bound_share is at most and device_wait_share at least what it
  // says (docs/metrics.md, "Ops without a launch call"). With any, the other ends of the two bounds: the shares
  // with each such op pending from the earliest its launch can have been. nullopt when there are none.
  std::size_t ops_queue_unknown = 0;
  std::optional<double> host_bound_share_least;
  std::optional<double> device_wait_share_most;
  // The queue is open: host_bound_share (and every host-bound figure) at most, device_wait_share at least.
  bool queue_open() const { return host_bound_share_least.has_value(); }
};

// One collective's kernel (a DeviceOp with `communication`) whose start lies in an iteration window
// (docs/ranks.md, "The rank digest"): what the cross-rank view matches across ranks.
struct CollectiveOp {
  std::int64_t step = 0;         // the window's index (ProfilerStep#N)
  StreamKey stream;
  std::size_t ordinal = 0;       // its position among the window's collectives on its stream, by start
  std::string name;
  std::int64_t start_ns = 0;
  std::int64_t duration_ns = 0;  // end - start, not clipped to the window
  friend bool operator==(const CollectiveOp&, const CollectiveOp&) = default;
};

struct PathBreakdown {
  std::vector<IterationBreakdown> iterations;  // sorted by window start
  BreakdownSummary summary;
  std::vector<KernelStat> kernels;  // sorted by total_ns descending, then kind, then name
  std::vector<CollectiveOp> collectives;  // sorted by (step, stream, ordinal)
  AnalysisCounters analysis_counters;
  CollectionCounters collection_counters;  // copied from the Timeline as the producer delivered them
  PathVerdict verdict;
};

// Kernel-set difference of two paths, by (kind, name) (ohprof/analysis/breakdown.hpp: diff_kernel_sets).
struct KernelDiffRow {
  DeviceOpKind kind = DeviceOpKind::kernel;
  std::string name;
  double count_per_iteration_a = 0;  // 0 when only B ran it
  double count_per_iteration_b = 0;  // 0 when only A ran it
  double mean_ns_a = 0;
  double mean_ns_b = 0;
};

struct KernelSetDiff {
  std::string path_a;  // path names, filled by the caller (diff_kernel_sets leaves them as given)
  std::string path_b;
  std::vector<KernelDiffRow> both;    // sorted by kind, then name
  std::vector<KernelDiffRow> only_a;
  std::vector<KernelDiffRow> only_b;
  // Some CPU kernels of A or B do not record themselves (either verdict's kernels_unrecorded): the rows are
  // only the ops that do, not the paths' kernel sets, and nothing follows from their being the same or not.
  bool partial = false;
  bool same_set() const { return only_a.empty() && only_b.empty(); }
};

// The inverses of to_string (reports read back: docs/ranks.md).
std::optional<Verdict> parse_verdict(std::string_view text);
std::optional<VerdictReason> parse_verdict_reason(std::string_view text);

}  // namespace ohprof
