#pragma once
// What the analysis produces (ohprof/analysis/breakdown.hpp computes it): each iteration's wall time
// split into GPU busy / idle time (and the idle time into head, host-bound gaps, other gaps and tail)
// and into host dispatch time (launch API vs framework), its summary, counters, kernel sets and
// verdict. Plain data, integer nanoseconds; every quantity is defined in docs/metrics.md, with the JSON
// field it is reported in.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/stats.hpp"
#include "ohprof/model/timeline.hpp"

namespace ohprof {

// How the idle time of a window splits (docs/metrics.md, "Idle split").
// head + host_bound + other + tail == idle, exactly.
struct IdleSplit {
  std::int64_t head_ns = 0;        // window start to the first busy interval (the whole window if none)
  std::int64_t host_bound_ns = 0;  // gaps where the next work's launch call began after the GPU went idle
  std::int64_t other_ns = 0;       // all other gaps between busy intervals
  std::int64_t tail_ns = 0;        // last busy interval to window end
};

// Busy/idle time of one set of ops (all streams, or one stream) in one iteration window.
// busy_ns + idle_ns == wall of the window, exactly.
struct BusySplit {
  std::int64_t busy_ns = 0;   // length of the union of the ops' intervals clipped to the window
  std::int64_t idle_ns = 0;   // wall - busy
  IdleSplit idle;
  std::int64_t spill_ns = 0;  // length of the union of the ops' intervals outside the window
  std::size_t ops = 0;        // timed ops in the set (including ops that lie wholly outside the window)
};

// A stream is identified by (device, stream); for CPU runs the stream is the thread id.
struct StreamKey {
  std::int32_t device = 0;
  std::int64_t stream = 0;
  friend bool operator==(const StreamKey&, const StreamKey&) = default;
  friend auto operator<=>(const StreamKey&, const StreamKey&) = default;
};

struct StreamSplit {
  StreamKey key;
  BusySplit split;
};

// One iteration window, split.
struct IterationBreakdown {
  std::int64_t index = 0;       // IterationWindow::index
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t wall_ns = 0;     // end - start
  BusySplit gpu;                // all streams of all devices together
  // One entry per stream that ran any op of any iteration of the path, sorted by (device, stream),
  // the same list in every iteration (a stream without work in this iteration is idle: head == wall).
  std::vector<StreamSplit> streams;

  // Host side. dispatch and framework are absent when the iteration has no launch calls.
  std::optional<std::int64_t> dispatch_ns;   // window start to the end of the last launch call (clipped)
  std::int64_t launch_api_ns = 0;            // union of the launch calls' intervals within the window
  std::optional<std::int64_t> framework_ns;  // dispatch - launch_api

  std::size_t launches = 0;       // launch calls attributed to the iteration (a graph launch is one)
  std::size_t graph_launches = 0; // of which LaunchKind::graph
  std::size_t gpu_ops = 0;        // timed device ops attributed to the iteration
  // Per launch call with at least one timed op: first op start - launch call end, negative clipped to 0.
  std::vector<std::int64_t> queue_delays_ns;
  std::size_t queue_delays_clipped = 0;  // how many were negative before clipping
};

// Medians and spread over iterations of every per-iteration quantity.
struct BusySplitSummary {
  SampleSummary busy_ns;
  SampleSummary idle_ns;
  SampleSummary head_ns;
  SampleSummary host_bound_ns;
  SampleSummary other_ns;
  SampleSummary tail_ns;
  SampleSummary spill_ns;
};

struct StreamSummary {
  StreamKey key;
  BusySplitSummary split;
};

struct BreakdownSummary {
  // The ops are CPU kernels the host ran itself (Timeline::ops_have_launches == false): "busy" is CPU
  // kernel time, dispatch is wall - busy, and launch statistics do not apply.
  bool cpu_kernels = false;
  SampleSummary wall_ns;
  BusySplitSummary gpu;
  std::vector<StreamSummary> streams;  // same order as IterationBreakdown::streams
  SampleSummary dispatch_ns;     // over iterations that have launch calls (count says how many)
  SampleSummary launch_api_ns;
  SampleSummary framework_ns;    // over iterations that have launch calls
  SampleSummary launches;        // launch calls per iteration
  SampleSummary graph_launches;  // graph launch calls per iteration
  SampleSummary gpu_ops;         // timed ops per iteration
  SampleSummary queue_delay_ns;  // pooled over all launches of all iterations
  std::size_t queue_delays_clipped = 0;
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
};

enum class Verdict { unknown, overhead_bound, compute_bound };

// Which rule decided (docs/metrics.md, "Verdict").
enum class VerdictRule {
  none,                     // unknown: no iterations, or no GPU work
  dispatch_exceeds_busy,    // median dispatch >= median gpu busy
  host_bound_largest,       // median host_bound >= medians of busy, head, other and tail
  compute,                  // neither of the above
};

struct PathVerdict {
  Verdict verdict = Verdict::unknown;
  VerdictRule rule = VerdictRule::none;
  std::string suggestion;  // one line that fits the evidence
};

struct PathBreakdown {
  std::vector<IterationBreakdown> iterations;  // sorted by window start
  BreakdownSummary summary;
  std::vector<KernelStat> kernels;  // sorted by total_ns descending, then kind, then name
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
  bool same_set() const { return only_a.empty() && only_b.empty(); }
};

// Stable names used in JSON and tables: "kernel", "memcpy", "memset"; "overhead-bound", ...
const char* to_string(DeviceOpKind kind);
const char* to_string(Verdict verdict);
const char* to_string(VerdictRule rule);

}  // namespace ohprof
