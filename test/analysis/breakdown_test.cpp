#include "ohprof/analysis/breakdown.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>

#include "ohprof/analysis/window_split.hpp"

// Every expected number below is worked out by hand in the comment above it, from the definitions
// in docs/metrics.md; none is copied from the code's output.

namespace ohprof {
namespace {

DeviceOp op(std::int64_t start, std::int64_t end, std::int64_t stream, std::uint64_t correlation,
            std::string name = "k", DeviceOpKind kind = DeviceOpKind::kernel) {
  DeviceOp out;
  out.kind = kind;
  out.start_ns = start;
  out.end_ns = end;
  out.stream = stream;
  out.correlation = correlation;
  out.name = std::move(name);
  return out;
}

LaunchCall launch(std::int64_t start, std::int64_t end, std::uint64_t correlation,
                  LaunchKind kind = LaunchKind::kernel, std::optional<std::int64_t> iteration = std::nullopt) {
  LaunchCall out;
  out.kind = kind;
  out.start_ns = start;
  out.end_ns = end;
  out.correlation = correlation;
  out.iteration = iteration;
  return out;
}

// The two exact identities of docs/metrics.md, for every iteration and every stream.
void expect_identities(const PathBreakdown& result) {
  const auto check = [](const BusySplit& split, std::int64_t wall, const std::string& what) {
    EXPECT_EQ(split.busy_ns + split.idle_ns, wall) << what;
    EXPECT_EQ(split.idle.head_ns + split.idle.host_bound_ns + split.idle.other_ns + split.idle.tail_ns,
              split.idle_ns)
        << what;
    EXPECT_GE(split.busy_ns, 0) << what;
    EXPECT_GE(split.spill_ns, 0) << what;
    EXPECT_GE(split.idle.head_ns, 0) << what;
    EXPECT_GE(split.idle.tail_ns, 0) << what;
  };
  for (const auto& it : result.iterations) {
    EXPECT_EQ(it.wall_ns, it.end_ns - it.start_ns);
    check(it.gpu, it.wall_ns, "all streams, iteration " + std::to_string(it.index));
    for (const auto& stream : it.streams) {
      check(stream.split, it.wall_ns,
            "stream " + std::to_string(stream.key.stream) + ", iteration " + std::to_string(it.index));
    }
    if (it.dispatch_ns) {
      ASSERT_TRUE(it.framework_ns.has_value());
      EXPECT_EQ(*it.framework_ns + it.launch_api_ns, *it.dispatch_ns);
    }
  }
}

TEST(Breakdown, OverlappingKernelsOnTwoStreams) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}};
  timeline.launches = {launch(0, 5, 1), launch(5, 10, 2), launch(10, 15, 3)};
  timeline.ops = {op(10, 40, 7, 1, "a"), op(30, 60, 8, 2, "b"), op(70, 90, 7, 3, "c")};
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  ASSERT_EQ(result.iterations.size(), 1u);
  const IterationBreakdown& it = result.iterations[0];
  EXPECT_EQ(it.wall_ns, 100);
  // Union over both streams: [10,60] (a and b overlap on [30,40]) + [70,90] = 50 + 20 = 70.
  EXPECT_EQ(it.gpu.busy_ns, 70);
  EXPECT_EQ(it.gpu.idle_ns, 30);
  // head 0->10; gap [60,70]: c's launch began at 10 < 60 -> other; tail 90->100.
  EXPECT_EQ(it.gpu.idle.head_ns, 10);
  EXPECT_EQ(it.gpu.idle.host_bound_ns, 0);
  EXPECT_EQ(it.gpu.idle.other_ns, 10);
  EXPECT_EQ(it.gpu.idle.tail_ns, 10);
  EXPECT_EQ(it.gpu.spill_ns, 0);
  EXPECT_EQ(it.gpu.ops, 3u);
  // Per stream, sorted by stream id: 7 then 8.
  ASSERT_EQ(it.streams.size(), 2u);
  EXPECT_EQ(it.streams[0].key.stream, 7);
  // Stream 7: [10,40] + [70,90] = 50 busy; head 10; gap [40,70] = 30, c launched at 10 < 40 -> other;
  // tail 10.
  EXPECT_EQ(it.streams[0].split.busy_ns, 50);
  EXPECT_EQ(it.streams[0].split.idle.head_ns, 10);
  EXPECT_EQ(it.streams[0].split.idle.other_ns, 30);
  EXPECT_EQ(it.streams[0].split.idle.host_bound_ns, 0);
  EXPECT_EQ(it.streams[0].split.idle.tail_ns, 10);
  // Stream 8: [30,60] = 30 busy; head 30; tail 40.
  EXPECT_EQ(it.streams[1].key.stream, 8);
  EXPECT_EQ(it.streams[1].split.busy_ns, 30);
  EXPECT_EQ(it.streams[1].split.idle.head_ns, 30);
  EXPECT_EQ(it.streams[1].split.idle.tail_ns, 40);
  // Host: last launch ends at 15 -> dispatch 15; launch calls [0,5] [5,10] [10,15] -> 15; framework 0.
  ASSERT_TRUE(it.dispatch_ns.has_value());
  EXPECT_EQ(*it.dispatch_ns, 15);
  EXPECT_EQ(it.launch_api_ns, 15);
  EXPECT_EQ(*it.framework_ns, 0);
  EXPECT_EQ(it.launches, 3u);
  EXPECT_EQ(it.gpu_ops, 3u);
  // Queue delays: a 10-5 = 5, b 30-10 = 20, c 70-15 = 55.
  std::vector<std::int64_t> delays = it.queue_delays_ns;
  std::sort(delays.begin(), delays.end());
  EXPECT_EQ(delays, (std::vector<std::int64_t>{5, 20, 55}));
  EXPECT_EQ(it.queue_delays_clipped, 0u);
}

TEST(Breakdown, HostBoundGapAndQueuedGap) {
  Timeline timeline;
  timeline.iterations = {{0, 1000, 2000}};
  timeline.launches = {launch(1000, 1010, 1), launch(1300, 1320, 2), launch(1050, 1060, 3)};
  timeline.ops = {op(1020, 1100, 1, 1), op(1330, 1400, 1, 2), op(1500, 1600, 1, 3)};
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  // busy: 80 + 70 + 100 = 250; idle 750.
  EXPECT_EQ(it.gpu.busy_ns, 250);
  EXPECT_EQ(it.gpu.idle_ns, 750);
  // head 1000->1020 = 20.
  EXPECT_EQ(it.gpu.idle.head_ns, 20);
  // gap [1100,1330] = 230: launch 2 began at 1300 >= 1100 -> the GPU waited for the host.
  EXPECT_EQ(it.gpu.idle.host_bound_ns, 230);
  // gap [1400,1500] = 100: launch 3 began at 1050 < 1400 -> other (the work was already queued).
  EXPECT_EQ(it.gpu.idle.other_ns, 100);
  // tail 1600->2000 = 400.  20 + 230 + 100 + 400 = 750.
  EXPECT_EQ(it.gpu.idle.tail_ns, 400);
  // dispatch: last launch end 1320 - 1000 = 320; launch API 10 + 10 + 20 = 40; framework 280.
  EXPECT_EQ(*it.dispatch_ns, 320);
  EXPECT_EQ(it.launch_api_ns, 40);
  EXPECT_EQ(*it.framework_ns, 280);
  // Queue delays: 1020-1010 = 10, 1330-1320 = 10, 1500-1060 = 440.
  std::vector<std::int64_t> delays = it.queue_delays_ns;
  std::sort(delays.begin(), delays.end());
  EXPECT_EQ(delays, (std::vector<std::int64_t>{10, 10, 440}));
}

TEST(Breakdown, LaunchStartingExactlyWhenGpuGoesIdleIsHostBound) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}};
  timeline.launches = {launch(0, 5, 1), launch(20, 25, 2)};
  timeline.ops = {op(10, 20, 1, 1), op(30, 40, 1, 2)};
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  // Gap [20,30]: launch 2 began at 20, the moment the GPU went idle ("at or after") -> host-bound 10.
  EXPECT_EQ(result.iterations[0].gpu.idle.host_bound_ns, 10);
  EXPECT_EQ(result.iterations[0].gpu.idle.other_ns, 0);
}

TEST(Breakdown, GapIsHostBoundOnlyIfEveryOpStartingTheNextIntervalWasLaunchedAfterIt) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}};
  // Two ops start the interval at 50; one was launched at 45 (after the GPU went idle at 30), the
  // other at 5 (before): the GPU did not only wait for the host -> the gap [30,50] = 20 is "other".
  timeline.launches = {launch(0, 5, 1), launch(45, 48, 2), launch(5, 8, 3)};
  timeline.ops = {op(10, 30, 1, 1), op(50, 60, 1, 2), op(50, 70, 2, 3)};
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  EXPECT_EQ(result.iterations[0].gpu.idle.other_ns, 20);
  EXPECT_EQ(result.iterations[0].gpu.idle.host_bound_ns, 0);
  // Per stream 1 alone: gap [30,50] starts with op 2 only, launched at 45 >= 30 -> host-bound 20.
  EXPECT_EQ(result.iterations[0].streams[0].split.idle.host_bound_ns, 20);
}

TEST(Breakdown, MemcpyAndMemsetCountAsBusyAndClippedQueueDelayIsCounted) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 1000}};
  timeline.launches = {launch(0, 50, 1, LaunchKind::memcpy), launch(150, 160, 2, LaunchKind::memset),
                       launch(160, 170, 3)};
  timeline.ops = {op(40, 140, 1, 1, "HtoD", DeviceOpKind::memcpy), op(200, 210, 1, 2, "memset", DeviceOpKind::memset),
                  op(205, 300, 2, 3, "kernel")};
  timeline.ops[0].bytes = 4096;
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  // Union: [40,140] = 100 and [200,300] = 100 (memset [200,210] and kernel [205,300] overlap).
  EXPECT_EQ(it.gpu.busy_ns, 200);
  // head 40; gap [140,200] = 60 starts with the memset, launched at 150 >= 140 -> host-bound; tail 700.
  EXPECT_EQ(it.gpu.idle.head_ns, 40);
  EXPECT_EQ(it.gpu.idle.host_bound_ns, 60);
  EXPECT_EQ(it.gpu.idle.other_ns, 0);
  EXPECT_EQ(it.gpu.idle.tail_ns, 700);
  // Queue delays: memcpy 40-50 = -10 -> 0 (clipped, counted); memset 200-160 = 40; kernel 205-170 = 35.
  std::vector<std::int64_t> delays = it.queue_delays_ns;
  std::sort(delays.begin(), delays.end());
  EXPECT_EQ(delays, (std::vector<std::int64_t>{0, 35, 40}));
  EXPECT_EQ(it.queue_delays_clipped, 1u);
  EXPECT_EQ(result.summary.queue_delays_clipped, 1u);
  // The kernel table has one row per (kind, name); each lasted 100, 10 and 95 ns.
  ASSERT_EQ(result.kernels.size(), 3u);
  EXPECT_EQ(result.kernels[0].kind, DeviceOpKind::memcpy);  // 100 ns, the largest total
  EXPECT_EQ(result.kernels[0].total_ns, 100);
  EXPECT_EQ(result.kernels[1].kind, DeviceOpKind::kernel);  // 95 ns
  EXPECT_EQ(result.kernels[2].kind, DeviceOpKind::memset);  // 10 ns
  EXPECT_EQ(result.kernels[2].name, "memset");
}

TEST(Breakdown, CudaGraphLaunchIsOneLaunchWithSeveralKernels) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 1000}};
  timeline.launches = {launch(100, 130, 9, LaunchKind::graph)};
  timeline.ops = {op(150, 200, 1, 9, "g1"), op(200, 260, 1, 9, "g2"), op(300, 350, 1, 9, "g3")};
  for (auto& o : timeline.ops) o.graph_id = 1;
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  EXPECT_EQ(it.launches, 1u);
  EXPECT_EQ(it.graph_launches, 1u);
  EXPECT_EQ(it.gpu_ops, 3u);
  // g1 and g2 touch at 200 -> one busy interval [150,260] = 110; g3 = 50; busy 160.
  EXPECT_EQ(it.gpu.busy_ns, 160);
  // head 150; gap [260,300] = 40, g3's launch (the graph launch) began at 100 < 260 -> other; tail 650.
  EXPECT_EQ(it.gpu.idle.head_ns, 150);
  EXPECT_EQ(it.gpu.idle.other_ns, 40);
  EXPECT_EQ(it.gpu.idle.host_bound_ns, 0);
  EXPECT_EQ(it.gpu.idle.tail_ns, 650);
  // One queue delay, from the graph's first kernel: 150 - 130 = 20.
  EXPECT_EQ(it.queue_delays_ns, (std::vector<std::int64_t>{20}));
  // dispatch 130, launch API 30, framework 100.
  EXPECT_EQ(*it.dispatch_ns, 130);
  EXPECT_EQ(it.launch_api_ns, 30);
  EXPECT_EQ(*it.framework_ns, 100);
  EXPECT_EQ(result.summary.graph_launches.median, 1.0);
  EXPECT_EQ(result.analysis_counters.ops_without_launch, 0u);
}

TEST(Breakdown, LostTimestampsAndOpsWithoutLaunchAreCountedNotTimed) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}};
  timeline.launches = {launch(0, 10, 1)};
  timeline.ops = {op(20, 30, 1, 1),     // launched by 1
                  op(0, 0, 1, 1),       // lost timestamps
                  op(50, 60, 1, 77),    // no launch call 77: attributed by its start (50) to the window
                  op(500, 600, 1, 78),  // no launch call, start outside every window
                  op(70, 60, 1, 1)};    // end < start
  timeline.counters.dropped_records = 3;
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  EXPECT_EQ(result.analysis_counters.ops_total, 5u);
  EXPECT_EQ(result.analysis_counters.ops_without_timestamps, 1u);
  EXPECT_EQ(result.analysis_counters.ops_invalid_interval, 1u);
  EXPECT_EQ(result.analysis_counters.ops_without_launch, 2u);
  EXPECT_EQ(result.analysis_counters.ops_outside_iterations, 1u);
  EXPECT_EQ(result.collection_counters.dropped_records, 3u);
  EXPECT_EQ(it.gpu_ops, 2u);
  // busy [20,30] + [50,60] = 20; head 20; gap [30,50] = 20 starts with an op without launch -> other;
  // tail 40.
  EXPECT_EQ(it.gpu.busy_ns, 20);
  EXPECT_EQ(it.gpu.idle.head_ns, 20);
  EXPECT_EQ(it.gpu.idle.other_ns, 20);
  EXPECT_EQ(it.gpu.idle.host_bound_ns, 0);
  EXPECT_EQ(it.gpu.idle.tail_ns, 40);
  // The lost op (start 0) must not count as launch 1's first op: delay 20 - 10 = 10, not clipped.
  EXPECT_EQ(it.queue_delays_ns, (std::vector<std::int64_t>{10}));
  EXPECT_EQ(it.queue_delays_clipped, 0u);
}

TEST(Breakdown, WorkPastTheWindowEndIsSpillNotBusy) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}, {1, 100, 300}};
  timeline.launches = {launch(0, 10, 1), launch(10, 20, 2), launch(100, 110, 3)};
  timeline.ops = {op(50, 150, 1, 1), op(140, 170, 1, 2), op(200, 250, 1, 3)};
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  ASSERT_EQ(result.iterations.size(), 2u);
  const IterationBreakdown& first = result.iterations[0];
  // Iteration 0 owns ops 1 and 2 (launched inside it). Clipped to [0,100]: [50,100] = 50 busy.
  // Unclipped union [50,170] = 120 -> spill 120 - 50 = 70. Op 2 lies wholly outside but is counted.
  EXPECT_EQ(first.gpu.busy_ns, 50);
  EXPECT_EQ(first.gpu.spill_ns, 70);
  EXPECT_EQ(first.gpu.idle.head_ns, 50);
  EXPECT_EQ(first.gpu.idle.tail_ns, 0);
  EXPECT_EQ(first.gpu_ops, 2u);
  // Queue delays 50-10 = 40 and 140-20 = 120.
  std::vector<std::int64_t> delays = first.queue_delays_ns;
  std::sort(delays.begin(), delays.end());
  EXPECT_EQ(delays, (std::vector<std::int64_t>{40, 120}));
  // Iteration 1 owns only op 3: busy 50, head 100->200 = 100 (iteration 0's spill is not its work),
  // tail 50, spill 0.
  const IterationBreakdown& second = result.iterations[1];
  EXPECT_EQ(second.gpu.busy_ns, 50);
  EXPECT_EQ(second.gpu.idle.head_ns, 100);
  EXPECT_EQ(second.gpu.idle.tail_ns, 50);
  EXPECT_EQ(second.gpu.spill_ns, 0);
  // Summary of spill over (70, 0): median 35.
  EXPECT_EQ(result.summary.gpu.spill_ns.median, 35.0);
}

TEST(Breakdown, ExternalIterationIdsDecideAttribution) {
  Timeline timeline;
  // Given out of order; index 4 (a warm-up) has no window.
  timeline.iterations = {{6, 100, 200}, {5, 0, 100}};
  timeline.launches = {launch(10, 20, 1),                             // untagged: by time -> 5
                       launch(95, 105, 2, LaunchKind::kernel, 6),     // tagged 6 though it starts in 5
                       launch(150, 160, 3, LaunchKind::kernel, 4)};   // tagged 4: no such window
  timeline.ops = {op(30, 60, 1, 1), op(120, 130, 1, 2), op(170, 180, 1, 3)};
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  ASSERT_EQ(result.iterations.size(), 2u);
  EXPECT_EQ(result.iterations[0].index, 5);  // sorted by window start
  EXPECT_EQ(result.iterations[1].index, 6);
  EXPECT_EQ(result.analysis_counters.launches_outside_iterations, 1u);
  EXPECT_EQ(result.analysis_counters.ops_outside_iterations, 1u);
  const IterationBreakdown& five = result.iterations[0];
  // Iteration 5: op [30,60]: busy 30, head 30, tail 40; launch [10,20]: dispatch 20, API 10, framework 10.
  EXPECT_EQ(five.gpu.busy_ns, 30);
  EXPECT_EQ(five.gpu.idle.head_ns, 30);
  EXPECT_EQ(five.gpu.idle.tail_ns, 40);
  EXPECT_EQ(five.launches, 1u);
  EXPECT_EQ(*five.dispatch_ns, 20);
  EXPECT_EQ(five.launch_api_ns, 10);
  EXPECT_EQ(*five.framework_ns, 10);
  const IterationBreakdown& six = result.iterations[1];
  // Iteration 6: op [120,130] (op [170,180] belongs to iteration 4, outside): busy 10, head 20,
  // tail 70. Launch [95,105] clipped to the window: dispatch 105-100 = 5, API [100,105] = 5, framework 0.
  EXPECT_EQ(six.gpu.busy_ns, 10);
  EXPECT_EQ(six.gpu.idle.head_ns, 20);
  EXPECT_EQ(six.gpu.idle.tail_ns, 70);
  EXPECT_EQ(six.gpu_ops, 1u);
  EXPECT_EQ(*six.dispatch_ns, 5);
  EXPECT_EQ(six.launch_api_ns, 5);
  EXPECT_EQ(*six.framework_ns, 0);
  // Queue delay 120 - 105 = 15.
  EXPECT_EQ(six.queue_delays_ns, (std::vector<std::int64_t>{15}));
  // Summary: busy (30, 10) -> median 20, mean 20, sample stddev sqrt(((10)^2 + (10)^2) / 1) = 14.142...
  EXPECT_EQ(result.summary.gpu.busy_ns.median, 20.0);
  EXPECT_NEAR(result.summary.gpu.busy_ns.stddev, 14.1421356, 1e-6);
  EXPECT_EQ(result.summary.wall_ns.median, 100.0);
  EXPECT_EQ(result.summary.dispatch_ns.count, 2u);
  EXPECT_EQ(result.summary.dispatch_ns.median, 12.5);  // (20 + 5) / 2
}

TEST(Breakdown, WindowsAreHalfOpenAndInvalidWindowsAreSkipped) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}, {1, 100, 200}, {2, 300, 250}};
  // No launch calls: each op goes to the window holding its start; 100 belongs to iteration 1.
  timeline.ops = {op(100, 110, 1, 0), op(99, 100, 1, 0)};
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  EXPECT_EQ(result.analysis_counters.invalid_windows, 1u);
  ASSERT_EQ(result.iterations.size(), 2u);
  EXPECT_EQ(result.iterations[0].gpu.busy_ns, 1);
  EXPECT_EQ(result.iterations[1].gpu.busy_ns, 10);
}

TEST(Breakdown, TimeAtTheLastWindowEndBelongsToNoWindow) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}};
  timeline.ops = {op(100, 110, 1, 0)};  // no launch: attributed by start 100, outside [0, 100)
  const PathBreakdown result = analyze_timeline(timeline);
  EXPECT_EQ(result.analysis_counters.ops_outside_iterations, 1u);
  EXPECT_EQ(result.iterations.at(0).gpu_ops, 0u);
}

TEST(Breakdown, DuplicateCorrelationJoinsTheEarliestLaunchCall) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}, {1, 100, 200}};
  // Two calls share correlation 5; the later one (start 150, iteration 1) comes first in the input.
  timeline.launches = {launch(150, 160, 5), launch(10, 20, 5)};
  timeline.ops = {op(50, 60, 1, 5)};
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  EXPECT_EQ(result.analysis_counters.duplicate_launch_correlations, 1u);
  // The op joins the call at 10 -> iteration 0: busy 10, queue delay 50 - 20 = 30.
  EXPECT_EQ(result.iterations[0].gpu.busy_ns, 10);
  EXPECT_EQ(result.iterations[0].queue_delays_ns, (std::vector<std::int64_t>{30}));
  EXPECT_EQ(result.iterations[1].gpu_ops, 0u);
  // Both calls still count as launches of their own iterations.
  EXPECT_EQ(result.iterations[1].launches, 1u);
}

TEST(Breakdown, DispatchIsClippedToTheWindow) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}};
  timeline.launches = {launch(90, 120, 1)};  // returns after the window ends
  timeline.ops = {op(95, 99, 1, 1)};
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  // dispatch min(120, 100) - 0 = 100; launch API [90, 100] = 10; framework 90.
  EXPECT_EQ(*result.iterations[0].dispatch_ns, 100);
  EXPECT_EQ(result.iterations[0].launch_api_ns, 10);
  EXPECT_EQ(*result.iterations[0].framework_ns, 90);
  // Queue delay 95 - 120 = -25 -> 0, clipped.
  EXPECT_EQ(result.iterations[0].queue_delays_clipped, 1u);
}

TEST(Breakdown, NoLaunchCallsLeavesDispatchAbsent) {
  // A CPU-style run: ops on two threads, no launch calls at all.
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}};
  timeline.ops = {op(10, 30, 1001, 0, "cpp_fused_a"), op(20, 50, 1002, 0, "cpp_fused_b")};
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  EXPECT_FALSE(it.dispatch_ns.has_value());
  EXPECT_FALSE(it.framework_ns.has_value());
  EXPECT_EQ(it.launch_api_ns, 0);
  EXPECT_EQ(it.launches, 0u);
  EXPECT_TRUE(it.queue_delays_ns.empty());
  // Union [10,50] = 40 busy; head 10; tail 50.
  EXPECT_EQ(it.gpu.busy_ns, 40);
  EXPECT_EQ(it.gpu.idle.head_ns, 10);
  EXPECT_EQ(it.gpu.idle.tail_ns, 50);
  EXPECT_EQ(result.summary.dispatch_ns.count, 0u);
  EXPECT_EQ(result.analysis_counters.ops_without_launch, 2u);
  // 40 busy > 0 host-bound and no dispatch: compute-bound.
  EXPECT_EQ(result.verdict.verdict, Verdict::compute_bound);
}

TEST(Breakdown, StreamIdleInAnIterationIsWholeWindowHead) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}, {1, 100, 200}};
  timeline.launches = {launch(0, 1, 1), launch(100, 101, 2)};
  timeline.ops = {op(10, 20, 3, 1), op(110, 130, 4, 2)};
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  // Both iterations list streams 3 and 4; stream 4 did nothing in iteration 0 -> head 100.
  ASSERT_EQ(result.iterations[0].streams.size(), 2u);
  EXPECT_EQ(result.iterations[0].streams[1].key.stream, 4);
  EXPECT_EQ(result.iterations[0].streams[1].split.busy_ns, 0);
  EXPECT_EQ(result.iterations[0].streams[1].split.idle.head_ns, 100);
  // Stream summaries: stream 3 busy (10, 0) -> median 5; stream 4 busy (0, 20) -> median 10.
  ASSERT_EQ(result.summary.streams.size(), 2u);
  EXPECT_EQ(result.summary.streams[0].split.busy_ns.median, 5.0);
  EXPECT_EQ(result.summary.streams[1].split.busy_ns.median, 10.0);
}

TEST(Breakdown, KernelTableAndKernelSetDiff) {
  // Path A: two iterations, each runs gemm twice (10 ns, 30 ns) and relu once (5 ns).
  Timeline a;
  a.iterations = {{0, 0, 1000}, {1, 1000, 2000}};
  for (std::int64_t base : {0, 1000}) {
    a.ops.push_back(op(base + 100, base + 110, 1, 0, "gemm"));
    a.ops.push_back(op(base + 200, base + 230, 1, 0, "gemm"));
    a.ops.push_back(op(base + 300, base + 305, 1, 0, "relu"));
  }
  // Path B: one iteration: gemm twice (20 ns each) and fused_relu_add once (8 ns).
  Timeline b;
  b.iterations = {{0, 0, 1000}};
  b.ops = {op(100, 120, 1, 0, "gemm"), op(200, 220, 1, 0, "gemm"), op(300, 308, 1, 0, "fused_relu_add")};
  const PathBreakdown pa = analyze_timeline(a);
  const PathBreakdown pb = analyze_timeline(b);
  // A's table: gemm count 4, total 2 * (10 + 30) = 80, mean 20, 2 per iteration; relu 2, 10, 5, 1.
  ASSERT_EQ(pa.kernels.size(), 2u);
  EXPECT_EQ(pa.kernels[0].name, "gemm");
  EXPECT_EQ(pa.kernels[0].count, 4u);
  EXPECT_EQ(pa.kernels[0].total_ns, 80);
  EXPECT_EQ(pa.kernels[0].mean_ns, 20.0);
  EXPECT_EQ(pa.kernels[0].count_per_iteration, 2.0);
  EXPECT_EQ(pa.kernels[1].name, "relu");
  EXPECT_EQ(pa.kernels[1].total_ns, 10);
  EXPECT_EQ(pa.kernels[1].count_per_iteration, 1.0);

  const KernelSetDiff diff = diff_kernel_sets(pa, pb, "aoti", "compile");
  EXPECT_EQ(diff.path_a, "aoti");
  EXPECT_FALSE(diff.same_set());
  ASSERT_EQ(diff.both.size(), 1u);
  EXPECT_EQ(diff.both[0].name, "gemm");
  EXPECT_EQ(diff.both[0].count_per_iteration_a, 2.0);
  EXPECT_EQ(diff.both[0].count_per_iteration_b, 2.0);
  EXPECT_EQ(diff.both[0].mean_ns_a, 20.0);
  EXPECT_EQ(diff.both[0].mean_ns_b, 20.0);
  ASSERT_EQ(diff.only_a.size(), 1u);
  EXPECT_EQ(diff.only_a[0].name, "relu");
  EXPECT_EQ(diff.only_a[0].count_per_iteration_b, 0.0);
  ASSERT_EQ(diff.only_b.size(), 1u);
  EXPECT_EQ(diff.only_b[0].name, "fused_relu_add");
  EXPECT_EQ(diff.only_b[0].count_per_iteration_b, 1.0);
  EXPECT_TRUE(diff_kernel_sets(pa, pa).same_set());
}

TEST(Breakdown, VerdictOverheadBoundWhenDispatchExceedsBusy) {
  // Ten tiny kernels, each launched 100 ns after the previous: launch [100i, 100i+10],
  // kernel [100i+20, 100i+30]. busy = 10 * 10 = 100; dispatch = 910 >= 100.
  Timeline timeline;
  timeline.iterations = {{0, 0, 1000}};
  for (std::int64_t i = 0; i < 10; ++i) {
    timeline.launches.push_back(launch(100 * i, 100 * i + 10, static_cast<std::uint64_t>(i + 1)));
    timeline.ops.push_back(op(100 * i + 20, 100 * i + 30, 1, static_cast<std::uint64_t>(i + 1)));
  }
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  EXPECT_EQ(it.gpu.busy_ns, 100);
  EXPECT_EQ(*it.dispatch_ns, 910);
  // head 20; nine gaps of 90 each launched at/after the previous kernel ended
  // (launch 100i >= 100(i-1)+30) -> host-bound 810; tail 1000 - 930 = 70. 20 + 810 + 70 = 900.
  EXPECT_EQ(it.gpu.idle.head_ns, 20);
  EXPECT_EQ(it.gpu.idle.host_bound_ns, 810);
  EXPECT_EQ(it.gpu.idle.tail_ns, 70);
  EXPECT_EQ(result.verdict.verdict, Verdict::overhead_bound);
  EXPECT_EQ(result.verdict.rule, VerdictRule::dispatch_exceeds_busy);
  EXPECT_NE(result.verdict.suggestion.find("reduce-overhead"), std::string::npos);
  EXPECT_STREQ(to_string(result.verdict.verdict), "overhead-bound");
}

TEST(Breakdown, VerdictComputeBoundWhenGpuWorkHidesDispatch) {
  // One launch [0,10], one long kernel [20,990]: dispatch 10 < busy 970; host-bound 0.
  Timeline timeline;
  timeline.iterations = {{0, 0, 1000}};
  timeline.launches = {launch(0, 10, 1)};
  timeline.ops = {op(20, 990, 1, 1)};
  const PathBreakdown result = analyze_timeline(timeline);
  EXPECT_EQ(result.verdict.verdict, Verdict::compute_bound);
  EXPECT_EQ(result.verdict.rule, VerdictRule::compute);
  // busy 970 / wall 1000 = 97.0%.
  EXPECT_NE(result.verdict.suggestion.find("97.0%"), std::string::npos) << result.verdict.suggestion;
}

TEST(Breakdown, VerdictHostBoundLargestRuleAlone) {
  // No dispatch (no launch calls known), host-bound median 500 >= busy 300, head 100, other 0, tail 100.
  BreakdownSummary summary;
  const auto at = [](double median) {
    SampleSummary s;
    s.count = 1;
    s.median = s.mean = s.min = s.max = median;
    return s;
  };
  summary.wall_ns = at(1000);
  summary.gpu.busy_ns = at(300);
  summary.gpu.head_ns = at(100);
  summary.gpu.host_bound_ns = at(500);
  summary.gpu.other_ns = at(0);
  summary.gpu.tail_ns = at(100);
  PathVerdict verdict = decide_verdict(summary);
  EXPECT_EQ(verdict.verdict, Verdict::overhead_bound);
  EXPECT_EQ(verdict.rule, VerdictRule::host_bound_largest);
  // Busy larger than host-bound (which is still larger than head, other and tail) -> compute-bound.
  summary.gpu.busy_ns = at(600);
  EXPECT_EQ(decide_verdict(summary).verdict, Verdict::compute_bound);
  // A tie counts as host-bound being the largest.
  summary.gpu.busy_ns = at(500);
  EXPECT_EQ(decide_verdict(summary).rule, VerdictRule::host_bound_largest);
  summary.gpu.busy_ns = at(300);
  // Make tail the largest part instead: not host-bound -> compute-bound.
  summary.gpu.tail_ns = at(600);
  verdict = decide_verdict(summary);
  EXPECT_EQ(verdict.verdict, Verdict::compute_bound);
  summary.gpu.tail_ns = at(100);
  // Ten launches per iteration without graphs: CUDA graphs are the first suggestion.
  summary.launches = at(10);
  verdict = decide_verdict(summary);
  EXPECT_NE(verdict.suggestion.find("reduce-overhead"), std::string::npos) << verdict.suggestion;
  // One launch per iteration: graphs would not remove anything; the overhead is around the launch.
  summary.launches = at(1);
  verdict = decide_verdict(summary);
  EXPECT_EQ(verdict.suggestion.find("reduce-overhead"), std::string::npos) << verdict.suggestion;
  EXPECT_NE(verdict.suggestion.find("AOTInductor"), std::string::npos) << verdict.suggestion;
  summary.launches = at(10);
  // Graphs already in use: the suggestion must not propose CUDA graphs again.
  summary.graph_launches = at(1);
  verdict = decide_verdict(summary);
  EXPECT_EQ(verdict.verdict, Verdict::overhead_bound);
  EXPECT_EQ(verdict.suggestion.find("reduce-overhead"), std::string::npos) << verdict.suggestion;
  EXPECT_NE(verdict.suggestion.find("larger batch"), std::string::npos);
}

TEST(Breakdown, VerdictDispatchEqualToBusyIsOverheadBound) {
  BreakdownSummary summary;
  const auto at = [](double median) {
    SampleSummary s;
    s.count = 1;
    s.median = s.mean = s.min = s.max = median;
    return s;
  };
  summary.wall_ns = at(1000);
  summary.gpu.busy_ns = at(400);
  summary.gpu.tail_ns = at(600);
  summary.dispatch_ns = at(400);  // >= busy: overhead-bound
  EXPECT_EQ(decide_verdict(summary).rule, VerdictRule::dispatch_exceeds_busy);
  summary.dispatch_ns = at(399);
  EXPECT_EQ(decide_verdict(summary).verdict, Verdict::compute_bound);
}

TEST(Breakdown, VerdictUnknownWithoutIterationsOrWork) {
  EXPECT_EQ(analyze_timeline(Timeline{}).verdict.verdict, Verdict::unknown);
  Timeline idle;
  idle.iterations = {{0, 0, 100}};
  const PathBreakdown result = analyze_timeline(idle);
  EXPECT_EQ(result.verdict.verdict, Verdict::unknown);
  // An iteration without any op is all head.
  EXPECT_EQ(result.iterations.at(0).gpu.idle.head_ns, 100);
  expect_identities(result);
}

// Independent check on random timelines: each iteration's split recomputed nanosecond by nanosecond.
TEST(Breakdown, MatchesNanosecondByNanosecondRecountOnRandomTimelines) {
  std::mt19937_64 rng(12345);
  for (int round = 0; round < 20; ++round) {
    Timeline timeline;
    const std::int64_t window_len = 400;
    const int windows = 4;
    for (int w = 0; w < windows; ++w) timeline.iterations.push_back({w, w * window_len, (w + 1) * window_len});
    std::uniform_int_distribution<std::int64_t> start_dist(-50, windows * window_len + 50);
    std::uniform_int_distribution<std::int64_t> len_dist(0, 60);
    std::uniform_int_distribution<int> iter_dist(0, windows - 1);
    std::uniform_int_distribution<int> stream_dist(0, 2);
    for (std::uint64_t c = 1; c <= 60; ++c) {
      const std::int64_t start = start_dist(rng);
      const int iteration = iter_dist(rng);
      const std::int64_t launch_start = start - std::uniform_int_distribution<std::int64_t>(0, 100)(rng);
      timeline.launches.push_back(launch(launch_start, launch_start + 5, c, LaunchKind::kernel, iteration));
      timeline.ops.push_back(op(start, start + len_dist(rng), stream_dist(rng), c));
    }
    const PathBreakdown result = analyze_timeline(timeline);
    expect_identities(result);
    ASSERT_EQ(result.iterations.size(), static_cast<std::size_t>(windows));
    for (int w = 0; w < windows; ++w) {
      const std::int64_t lo = w * window_len;
      const std::int64_t hi = lo + window_len;
      // Per-nanosecond occupancy of the iteration's own ops, inside the window and outside it.
      std::vector<char> busy(static_cast<std::size_t>(window_len), 0);
      std::int64_t outside = 0;
      std::vector<char> outside_mark(static_cast<std::size_t>(windows * window_len + 400), 0);
      for (std::size_t i = 0; i < timeline.ops.size(); ++i) {
        if (*timeline.launches[i].iteration != w) continue;
        for (std::int64_t t = timeline.ops[i].start_ns; t < timeline.ops[i].end_ns; ++t) {
          if (t >= lo && t < hi) {
            busy[static_cast<std::size_t>(t - lo)] = 1;
          } else if (!outside_mark[static_cast<std::size_t>(t + 100)]) {
            outside_mark[static_cast<std::size_t>(t + 100)] = 1;
            ++outside;
          }
        }
      }
      std::int64_t busy_ns = 0, head = 0, tail = 0, host_bound = 0, other = 0;
      std::int64_t first = -1, last = -1;
      for (std::int64_t t = 0; t < window_len; ++t) {
        if (busy[static_cast<std::size_t>(t)]) {
          ++busy_ns;
          if (first < 0) first = t;
          last = t;
        }
      }
      if (first < 0) {
        head = window_len;
      } else {
        head = first;
        tail = window_len - 1 - last;
        // Each idle run strictly inside [first, last]: classify by the ops starting where it ends.
        std::int64_t t = first;
        while (t <= last) {
          if (busy[static_cast<std::size_t>(t)]) {
            ++t;
            continue;
          }
          const std::int64_t gap_begin = t;
          while (!busy[static_cast<std::size_t>(t)]) ++t;
          bool all_after = true;
          for (std::size_t i = 0; i < timeline.ops.size(); ++i) {
            if (*timeline.launches[i].iteration != w) continue;
            if (timeline.ops[i].start_ns == lo + t && timeline.ops[i].end_ns > timeline.ops[i].start_ns) {
              all_after = all_after && timeline.launches[i].start_ns >= lo + gap_begin;
            }
          }
          (all_after ? host_bound : other) += t - gap_begin;
        }
      }
      const IterationBreakdown& it = result.iterations[static_cast<std::size_t>(w)];
      EXPECT_EQ(it.gpu.busy_ns, busy_ns) << "round " << round << " window " << w;
      EXPECT_EQ(it.gpu.spill_ns, outside) << "round " << round << " window " << w;
      EXPECT_EQ(it.gpu.idle.head_ns, head) << "round " << round << " window " << w;
      EXPECT_EQ(it.gpu.idle.tail_ns, tail) << "round " << round << " window " << w;
      EXPECT_EQ(it.gpu.idle.host_bound_ns, host_bound) << "round " << round << " window " << w;
      EXPECT_EQ(it.gpu.idle.other_ns, other) << "round " << round << " window " << w;
    }
  }
}

TEST(Breakdown, HandlesAHundredThousandOps) {
  // Size check (no timing assertion): 100k ops over 100 iterations; identities hold, nothing is lost.
  Timeline timeline;
  const std::int64_t window_len = 1'000'000;
  for (int w = 0; w < 100; ++w) timeline.iterations.push_back({w, w * window_len, (w + 1) * window_len});
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::int64_t> start_dist(0, 100 * window_len - 1);
  for (std::uint64_t c = 1; c <= 100'000; ++c) {
    const std::int64_t start = start_dist(rng);
    timeline.launches.push_back(launch(start - 3000, start - 1000, c));
    timeline.ops.push_back(op(start, start + 2000, static_cast<std::int64_t>(c % 4), c, "k" + std::to_string(c % 50)));
  }
  const PathBreakdown result = analyze_timeline(timeline);
  expect_identities(result);
  std::size_t ops = 0;
  for (const auto& it : result.iterations) ops += it.gpu_ops;
  EXPECT_EQ(ops + result.analysis_counters.ops_outside_iterations, 100'000u);
  EXPECT_EQ(result.kernels.size(), 50u);
}

}  // namespace
}  // namespace ohprof

namespace ohprof {
namespace {

// CPU runs: kernels run on the calling thread, with no launch calls; they are attributed by start time
// and not counted as missing their launch.
TEST(BreakdownCpuTimeline, OpsWithoutLaunchesAreNotFlaggedOnTheCpu) {
  Timeline timeline;
  timeline.ops_have_launches = false;
  timeline.iterations = {{0, 0, 100}};
  DeviceOp a;
  a.start_ns = 10;
  a.end_ns = 40;
  a.stream = 7;
  DeviceOp b = a;
  b.start_ns = 60;
  b.end_ns = 90;
  timeline.ops = {a, b};
  const PathBreakdown split = analyze_timeline(timeline);
  EXPECT_EQ(split.analysis_counters.ops_without_launch, 0u);
  ASSERT_EQ(split.iterations.size(), 1u);
  // busy = 30 + 30; head 10, one gap of 20 (no launch: "other"), tail 10.
  EXPECT_EQ(split.iterations[0].gpu.busy_ns, 60);
  EXPECT_EQ(split.iterations[0].gpu.idle.head_ns, 10);
  EXPECT_EQ(split.iterations[0].gpu.idle.other_ns, 20);
  EXPECT_EQ(split.iterations[0].gpu.idle.tail_ns, 10);
  // CPU: dispatch = wall - busy = 40, all of it framework; no launch API, no queue delays.
  ASSERT_TRUE(split.iterations[0].dispatch_ns.has_value());
  EXPECT_EQ(*split.iterations[0].dispatch_ns, 40);
  EXPECT_EQ(*split.iterations[0].framework_ns, 40);
  EXPECT_EQ(split.iterations[0].launch_api_ns, 0);
  EXPECT_TRUE(split.iterations[0].queue_delays_ns.empty());

  timeline.ops_have_launches = true;  // the same ops from a GPU collector: no launches, no dispatch
  EXPECT_FALSE(analyze_timeline(timeline).iterations[0].dispatch_ns.has_value());  // the same ops from a GPU collector would be flagged
  EXPECT_EQ(analyze_timeline(timeline).analysis_counters.ops_without_launch, 2u);
}

}  // namespace
}  // namespace ohprof

namespace ohprof {
namespace {

// AOTI's and torch.compile's CPU kernels for one graph differ only in their graph number and in how
// the GEMM is called: the diff matches them.
TEST(KernelSetDiffCanonical, MatchesTheSameKernelsUnderTheirPathSpecificNames) {
  const auto path_with = [](std::vector<std::pair<std::string, std::int64_t>> kernels) {
    Timeline timeline;
    timeline.ops_have_launches = false;
    timeline.iterations = {{0, 0, 1000}};
    std::int64_t t = 0;
    for (const auto& [name, duration] : kernels) {
      DeviceOp op;
      op.name = name;
      op.start_ns = t;
      op.end_ns = t + duration;
      t += duration;
      timeline.ops.push_back(op);
    }
    return analyze_timeline(timeline);
  };
  const PathBreakdown aoti = path_with({{"aoti_torch_cpu_addmm_out", 100}, {"graph_0_cpp_fused_relu_0", 10},
                                        {"aoti_torch_cpu_addmm_out", 300}});
  const PathBreakdown compile = path_with({{"aten::addmm", 150}, {"graph_1_cpp_fused_relu_0", 20},
                                           {"graph_2_cpp_fused_relu_0", 40}});
  const KernelSetDiff diff = diff_kernel_sets(aoti, compile, "aoti", "compile");
  EXPECT_TRUE(diff.same_set());
  ASSERT_EQ(diff.both.size(), 2u);
  EXPECT_EQ(diff.both[0].name, "aten::addmm");
  EXPECT_DOUBLE_EQ(diff.both[0].count_per_iteration_a, 2.0);
  EXPECT_DOUBLE_EQ(diff.both[0].mean_ns_a, 200.0);  // (100 + 300) / 2
  EXPECT_DOUBLE_EQ(diff.both[0].count_per_iteration_b, 1.0);
  EXPECT_EQ(diff.both[1].name, "cpp_fused_relu_0");
  // compile ran it twice (two graphs) with means 20 and 40: merged to 2 per iteration, mean 30.
  EXPECT_DOUBLE_EQ(diff.both[1].count_per_iteration_b, 2.0);
  EXPECT_DOUBLE_EQ(diff.both[1].mean_ns_b, 30.0);
}

}  // namespace
}  // namespace ohprof

namespace ohprof {
namespace {

// The shared attribution and tiling (window_split.hpp) that analyze_timeline and --export-trace use.
TEST(WindowSplit, AttributionGroupsByWindowAndStreamAndTilingIsInTimeOrder) {
  // Windows given out of order: [100, 200) index 2, [0, 100) index 1. Launch 1 starts at 0 but names
  // iteration 2: it and its op [150, 160) on stream 7 belong to [100, 200); the other launches have no
  // iteration: by time, window [0, 100). Ops 2 on stream 7: [10, 20) and [40, 50) (launched at 30,
  // after [10, 20) ended: host-bound gap 20..40) and, on stream 9, [40, 45) launched at 5 (before the
  // gap): the gap 20..40 is "other" for all streams, host-bound for stream 7 alone.
  Timeline t;
  t.iterations = {IterationWindow{2, 100, 200}, IterationWindow{1, 0, 100}};
  t.launches = {launch(0, 1, 1, LaunchKind::kernel, 2), launch(1, 2, 2), launch(30, 31, 3), launch(5, 6, 4)};
  t.ops = {op(150, 160, 7, 1), op(10, 20, 7, 2), op(40, 50, 7, 3), op(40, 45, 9, 4), op(0, 0, 7, 5)};
  const WindowAttribution a(t);
  ASSERT_EQ(a.windows.size(), 2u);
  EXPECT_EQ(a.windows[0].index, 1);
  EXPECT_EQ(a.launch_window, (std::vector<std::size_t>{1, 0, 0, 0}));
  EXPECT_EQ(a.ops.size(), 4u);
  EXPECT_EQ(a.counters.ops_without_timestamps, 1u);
  ASSERT_EQ(a.streams.size(), 2u);
  EXPECT_EQ(a.ops_of(0).size(), 3u);
  EXPECT_EQ(a.ops_of(0, 0).size(), 2u);
  EXPECT_EQ(a.ops_of(0, 1).size(), 1u);
  EXPECT_EQ(a.ops_of(1, 1).size(), 0u);
  using V = std::vector<std::tuple<SplitSegmentKind, std::int64_t, std::int64_t>>;
  const auto flat = [](const std::vector<SplitSegment>& segments) {
    V out;
    for (const auto& s : segments) out.emplace_back(s.kind, s.start_ns, s.end_ns);
    return out;
  };
  using K = SplitSegmentKind;
  EXPECT_EQ(flat(tile_window(a.ops_of(0), 0, 100)),
            (V{{K::head, 0, 10}, {K::busy, 10, 20}, {K::other, 20, 40}, {K::busy, 40, 50}, {K::tail, 50, 100}}));
  EXPECT_EQ(flat(tile_window(a.ops_of(0, 0), 0, 100)),
            (V{{K::head, 0, 10}, {K::busy, 10, 20}, {K::host_bound, 20, 40}, {K::busy, 40, 50}, {K::tail, 50, 100}}));
  EXPECT_EQ(flat(tile_window(a.ops_of(1, 1), 100, 200)), (V{{K::head, 100, 200}}));
  EXPECT_EQ(flat(tile_window(a.ops_of(1), 100, 200)),
            (V{{K::head, 100, 150}, {K::busy, 150, 160}, {K::tail, 160, 200}}));
}

}  // namespace
}  // namespace ohprof
