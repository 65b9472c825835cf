#include "ohprof/analysis/breakdown.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <random>
#include <tuple>

#include "ohprof/analysis/window_split.hpp"

// Every expected number below is worked out by hand in the comment above it, from the definitions
// in docs/metrics.md; none is copied from the code's output. The random test recounts them
// nanosecond by nanosecond, with none of the analysis's machinery.

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
                  LaunchKind kind = LaunchKind::kernel, std::optional<std::int64_t> iteration = std::nullopt,
                  std::string name = "cudaLaunchKernel", std::int64_t thread = 1) {
  LaunchCall out;
  out.kind = kind;
  out.start_ns = start;
  out.end_ns = end;
  out.correlation = correlation;
  out.iteration = iteration;
  out.name = std::move(name);
  out.thread_id = thread;
  return out;
}

SyncCall sync(std::int64_t start, std::int64_t end, std::int64_t thread = 1, bool harness = false) {
  SyncCall out;
  out.start_ns = start;
  out.end_ns = end;
  out.thread_id = thread;
  out.name = "cudaStreamSynchronize";
  out.harness = harness;
  return out;
}

ApiCall api(std::int64_t start, std::int64_t end, std::int64_t thread = 1, std::string name = "cudaMalloc") {
  return ApiCall{start, end, thread, std::move(name)};
}

// The exact identities of docs/metrics.md, for every iteration and every stream.
void expect_identities(const PathBreakdown& result) {
  const auto check = [](const DeviceSplit& split, std::int64_t wall, const std::string& what) {
    EXPECT_EQ(split.busy_ns + split.host_bound_ns + split.device_wait_ns, wall) << what;
    EXPECT_EQ(split.idle_ns, wall - split.busy_ns) << what;
    EXPECT_GE(split.busy_ns, 0) << what;
    EXPECT_GE(split.host_bound_ns, 0) << what;
    EXPECT_GE(split.device_wait_ns, 0) << what;
    EXPECT_GE(split.carried_out_ns, 0) << what;
    EXPECT_LE(split.own_busy_ns, split.busy_ns) << what;
  };
  for (const auto& it : result.iterations) {
    EXPECT_EQ(it.wall_ns, it.end_ns - it.start_ns);
    check(it.gpu, it.wall_ns, "all streams, iteration " + std::to_string(it.index));
    const HostStates& h = it.host_states;
    EXPECT_EQ(h.blocking_ns + h.launch_ns + h.other_api_ns + h.harness_ns + h.framework_ns, it.gpu.host_bound_ns);
    EXPECT_EQ(it.launch_exposed_ns + it.launch_hidden_ns, it.launch_api_ns);
    for (const auto& stream : it.streams) {
      check(stream.split, it.wall_ns,
            "stream " + std::to_string(stream.key.stream) + ", iteration " + std::to_string(it.index));
      EXPECT_LE(stream.waited_ns, it.gpu.device_wait_ns);
    }
  }
  const BreakdownTotals& t = result.summary.totals;
  EXPECT_EQ(t.gpu.busy_ns + t.gpu.host_bound_ns + t.gpu.device_wait_ns, t.wall_ns);
}

// Ops on two streams that wait on each other: the device-wait time, the streams waited on, the queue.
TEST(Breakdown, CrossStreamWaitIsDeviceWaitAndNamesTheStreams) {
  // Window [0, 200). Launches: a [0,5) -> op a stream 1 [10,50); b [5,8) -> op b stream 2 [80,120)
  // (it waits for c, an event); c [8,9) -> op c stream 1 [60,80).
  // Pending: a from 5, b from 8, c from 9 (each launch's return; every op starts later).
  Timeline t;
  t.iterations = {{0, 0, 200}};
  t.launches = {launch(0, 5, 1), launch(5, 8, 2), launch(8, 9, 3)};
  t.ops = {op(10, 50, 1, 1, "a"), op(80, 120, 2, 2, "b"), op(60, 80, 1, 3, "c")};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  ASSERT_EQ(result.iterations.size(), 1u);
  const IterationBreakdown& it = result.iterations[0];
  // [0,5) nothing pending: host-bound 5 (the host is in launch a: state launch).
  // [5,10) pending, nothing running: device-wait 5. [10,50) busy 40. [50,60) b and c pending: device-wait
  // 10. [60,80) busy 20. [80,120) busy 40. [120,200) nothing pending: host-bound 80 (framework).
  EXPECT_EQ(it.gpu.busy_ns, 100);
  EXPECT_EQ(it.gpu.idle_ns, 100);
  EXPECT_EQ(it.gpu.device_wait_ns, 15);
  EXPECT_EQ(it.gpu.host_bound_ns, 85);
  EXPECT_EQ(it.host_states.launch_ns, 5);
  EXPECT_EQ(it.host_states.framework_ns, 80);
  // Queue: a pending 45 ([5,50)), b 112 ([8,120)), c 71 ([9,80)): 228; at most 3 at once ([9,50)).
  EXPECT_EQ(it.gpu.queue_ns, 228);
  EXPECT_EQ(it.gpu.queue_max, 3);
  EXPECT_EQ(it.gpu.ops, 3u);
  // Launch API: [0,9) = 9; exposed where nothing was pending: [0,5) = 5; hidden 4.
  EXPECT_EQ(it.launch_api_ns, 9);
  EXPECT_EQ(it.launch_exposed_ns, 5);
  EXPECT_EQ(it.launch_hidden_ns, 4);
  ASSERT_EQ(it.streams.size(), 2u);
  // Stream 1 (a, c): [0,5) host-bound, [5,10) device-wait, [10,50) busy, [50,60) device-wait (c
  // pending), [60,80) busy, [80,200) host-bound: busy 60, device-wait 15, host-bound 125.
  // Waited: pending during the all-streams device-wait [5,10) and [50,60): 15.
  EXPECT_EQ(it.streams[0].key.stream, 1);
  EXPECT_EQ(it.streams[0].split.busy_ns, 60);
  EXPECT_EQ(it.streams[0].split.device_wait_ns, 15);
  EXPECT_EQ(it.streams[0].split.host_bound_ns, 125);
  EXPECT_EQ(it.streams[0].waited_ns, 15);
  // Stream 2 (b, pending from 8): [0,8) host-bound, [8,80) device-wait 72, [80,120) busy 40,
  // [120,200) host-bound: host-bound 88. Waited: [8,10) and [50,60): 12.
  EXPECT_EQ(it.streams[1].split.busy_ns, 40);
  EXPECT_EQ(it.streams[1].split.device_wait_ns, 72);
  EXPECT_EQ(it.streams[1].split.host_bound_ns, 88);
  EXPECT_EQ(it.streams[1].waited_ns, 12);
  // Shares: busy 0.5, host-bound 0.425, device-wait 0.075: busy leads by 0.075 < 0.10: mixed.
  EXPECT_EQ(result.verdict.verdict, Verdict::mixed);
  EXPECT_EQ(result.verdict.reason, VerdictReason::close_shares);
  EXPECT_EQ(result.verdict.first, TimeShare::busy);
  EXPECT_EQ(result.verdict.second, TimeShare::host_bound);
  EXPECT_DOUBLE_EQ(result.verdict.busy_share, 0.5);
  EXPECT_DOUBLE_EQ(result.verdict.host_bound_share, 0.425);
  // Stream 1 waited 15 of the 15 ns of device-wait.
  ASSERT_TRUE(result.verdict.waited_stream.has_value());
  EXPECT_EQ(result.verdict.waited_stream->stream, 1);
  EXPECT_DOUBLE_EQ(result.verdict.waited_stream_share, 1.0);
}

TEST(Breakdown, DeviceWaitBoundWhenQueuedWorkWaitsOnAnotherStream) {
  // Window [0, 100). A collective on stream 40 is launched at [0,1) (pending from 1) and runs [80, 90)
  // (it waits for the other rank). A kernel on stream 7 [2,3) -> [3, 13).
  Timeline t;
  t.iterations = {{0, 0, 100}};
  t.launches = {launch(0, 1, 1), launch(2, 3, 2)};
  t.ops = {op(80, 90, 40, 1, "nccl"), op(3, 13, 7, 2, "gemm")};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  // [0,1) host-bound 1; [1,3) device-wait 2; [3,13) busy; [13,80) device-wait 67; [80,90) busy;
  // [90,100) host-bound 10. busy 20, device-wait 69, host-bound 11.
  EXPECT_EQ(it.gpu.busy_ns, 20);
  EXPECT_EQ(it.gpu.device_wait_ns, 69);
  EXPECT_EQ(it.gpu.host_bound_ns, 11);
  // Stream 40 was pending throughout the device-wait: 69; stream 7 only in [2,3)... it is pending
  // from 3 (its launch returned at 3, it started at 3): never during device-wait: 0.
  EXPECT_EQ(it.streams.at(1).key.stream, 40);
  EXPECT_EQ(it.streams.at(1).waited_ns, 69);
  EXPECT_EQ(it.streams.at(0).waited_ns, 0);
  // device-wait share 0.69 >= 0.5, ahead of busy (0.20) by 0.49.
  EXPECT_EQ(result.verdict.verdict, Verdict::device_wait_bound);
  EXPECT_EQ(result.verdict.reason, VerdictReason::dominant_share);
  ASSERT_TRUE(result.verdict.waited_stream.has_value());
  EXPECT_EQ(result.verdict.waited_stream->stream, 40);
  EXPECT_DOUBLE_EQ(result.verdict.waited_stream_share, 1.0);
  // Queue delays: nccl 80 - 1 = 79, gemm 3 - 3 = 0; median 39.5.
  EXPECT_DOUBLE_EQ(result.verdict.queue_delay_median_ns, 39.5);
}

// The host runs far ahead: 1,200 launches in window 0, the device works through them until long after.
TEST(Breakdown, HostAheadWithAFullQueueIsComputeBoundAndWorkRunsWhereItRan) {
  // Launch i: [i, i+1), i = 0..1199, all in window 0 = [0, 2000). Op i: stream 1, [1+10i, 11+10i): back
  // to back from 1 to 12001. Window 1 = [2000, 12001) launches nothing.
  Timeline t;
  t.iterations = {{0, 0, 2000}, {1, 2000, 12001}};
  for (std::uint64_t i = 0; i < 1200; ++i) {
    const auto s = static_cast<std::int64_t>(i);
    t.launches.push_back(launch(s, s + 1, i + 1));
    t.ops.push_back(op(1 + 10 * s, 11 + 10 * s, 1, i + 1));
  }
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  ASSERT_EQ(result.iterations.size(), 2u);
  const IterationBreakdown& w0 = result.iterations[0];
  const IterationBreakdown& w1 = result.iterations[1];
  // Window 0: busy [1,2000) = 1999; [0,1) nothing pending: host-bound 1, the host in launch 0.
  EXPECT_EQ(w0.gpu.busy_ns, 1999);
  EXPECT_EQ(w0.gpu.host_bound_ns, 1);
  EXPECT_EQ(w0.gpu.device_wait_ns, 0);
  EXPECT_EQ(w0.host_states.launch_ns, 1);
  // Its own work: all 1,200 ops, 1999 ns inside, [2000,12001) = 10001 ns carried out.
  EXPECT_EQ(w0.gpu.own_ops, 1200u);
  EXPECT_EQ(w0.gpu.own_busy_ns, 1999);
  EXPECT_EQ(w0.gpu.carried_out_ns, 10001);
  // Ops that ran in window 0: those starting before 2000: 1+10i < 2000 -> i <= 199: 200.
  EXPECT_EQ(w0.gpu.ops, 200u);
  // Depth in [k, k+1) for k <= 1200: k launches returned, minus ops ended by k (op i ends 11+10i <= k:
  // floor((k-11)/10)+1). Largest at k = 1200: 1200 - 119 = 1081 >= 1000: a full queue.
  EXPECT_EQ(w0.gpu.queue_max, 1081);
  // Launch API [0,1200) = 1200: exposed [0,1) = 1 (nothing pending), hidden 1199.
  EXPECT_EQ(w0.launch_api_ns, 1200);
  EXPECT_EQ(w0.launch_exposed_ns, 1);
  EXPECT_EQ(w0.launch_hidden_ns, 1199);
  // Window 1: busy all of it (10001 ns), none of it its own.
  EXPECT_EQ(w1.gpu.busy_ns, 10001);
  EXPECT_EQ(w1.gpu.own_ops, 0u);
  EXPECT_EQ(w1.gpu.own_busy_ns, 0);
  EXPECT_EQ(w1.launches, 0u);
  // Ops that ran in window 1: i >= 199 (op 199 runs [1991, 2001)): 1001.
  EXPECT_EQ(w1.gpu.ops, 1001u);
  // At 2000 the queue holds ops 199..1199: 1001.
  EXPECT_EQ(w1.gpu.queue_max, 1001);
  EXPECT_EQ(result.summary.totals.full_queue_iterations, 2u);
  // Busy 12000 of 12001: compute-bound, with a full queue.
  EXPECT_EQ(result.verdict.verdict, Verdict::compute_bound);
  EXPECT_EQ(result.verdict.reason, VerdictReason::dominant_share);
  EXPECT_EQ(result.verdict.full_queue_iterations, 2u);
  EXPECT_EQ(result.verdict.queue_max, 1081);
  // The queue integral is each op's pending length: op i pending [i+1, 11+10i) = 10 + 9i, clipped to
  // the windows; all of it lies in [0, 12001): sum 10*1200 + 9*(1199*1200/2) = 12000 + 6474600.
  EXPECT_EQ(w0.gpu.queue_ns + w1.gpu.queue_ns, 12000 + 6474600);
}

TEST(Breakdown, BlockingCopyAndSyncsAreWaitingAndTheHarnessSyncIsLeftOut) {
  // Window [0, 400), one host thread. Launch k [0,10) -> kernel [10,120) stream 7 (pending from 10).
  // cudaMemcpy (synchronous) [20,300) -> its copy [150,250) (pending from min(300,150) = 150): blocking.
  // cudaStreamSynchronize [310,330) (the model's); the harness's sync [350,400).
  Timeline t;
  t.iterations = {{0, 0, 400}};
  t.launches = {launch(0, 10, 1), launch(20, 300, 2, LaunchKind::memcpy, std::nullopt, "cudaMemcpy")};
  t.ops = {op(10, 120, 7, 1), op(150, 250, 7, 2, "DtoH", DeviceOpKind::memcpy)};
  t.syncs = {sync(310, 330), sync(350, 400, 1, true)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  // Device: [0,10) host-bound; [10,120) busy; [120,150) host-bound (the copy is not pending before its
  // start); [150,250) busy; [250,400) host-bound. Busy 210, host-bound 190, device-wait 0.
  EXPECT_EQ(it.gpu.busy_ns, 210);
  EXPECT_EQ(it.gpu.host_bound_ns, 190);
  EXPECT_EQ(it.gpu.device_wait_ns, 0);
  // Host states: [0,10) launch 10; [120,150) and [250,300) in the blocking copy: 80; [300,310) none;
  // [310,330) the model's sync: 20; [330,350) none; [350,400) the harness's sync, its own state: 50.
  // Framework 10 + 20 = 30.
  EXPECT_EQ(it.host_states.launch_ns, 10);
  EXPECT_EQ(it.host_states.blocking_ns, 100);
  EXPECT_EQ(it.host_states.other_api_ns, 0);
  EXPECT_EQ(it.host_states.harness_ns, 50);
  EXPECT_EQ(it.host_states.framework_ns, 30);
  // Host side: launch API [0,10) = 10, all exposed; blocking [20,300) + [310,330) = 300, two calls.
  EXPECT_EQ(it.launch_api_ns, 10);
  EXPECT_EQ(it.launch_exposed_ns, 10);
  EXPECT_EQ(it.blocking_ns, 300);
  EXPECT_EQ(it.blocking_calls, 2u);
  // Queue delays: kernel 10 - 10 = 0; copy 150 - 300 < 0: clipped to 0, counted.
  EXPECT_EQ(it.queue_delays_ns, (std::vector<std::int64_t>{0, 0}));
  EXPECT_EQ(it.queue_delays_clipped, 1u);
  EXPECT_DOUBLE_EQ(result.verdict.blocking_share, 300.0 / 400.0);
  // Busy 0.525, host-bound 0.475: mixed.
  EXPECT_EQ(result.verdict.verdict, Verdict::mixed);
}

TEST(Breakdown, AnAsyncCopyThatReturnsAfterItsCopyStartedIsBlocking) {
  // cudaMemcpyAsync to pageable memory [0,50) whose copy runs [20,40): it returned after the copy began.
  Timeline t;
  t.iterations = {{0, 0, 100}};
  t.launches = {launch(0, 50, 1, LaunchKind::memcpy, std::nullopt, "cudaMemcpyAsync")};
  t.ops = {op(20, 40, 7, 1, "DtoH", DeviceOpKind::memcpy)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  // Pending from min(50, 20) = 20. [0,20) and [40,50) host-bound in the blocking call: 30;
  // [50,100) framework 50; launch API 0 (the call blocked); blocking 50.
  EXPECT_EQ(it.host_states.blocking_ns, 30);
  EXPECT_EQ(it.host_states.framework_ns, 50);
  EXPECT_EQ(it.launch_api_ns, 0);
  EXPECT_EQ(it.blocking_ns, 50);
  EXPECT_EQ(it.blocking_calls, 1u);
}

TEST(Breakdown, AKernelLaunchReturningAfterItsKernelStartedDoesNotBlock) {
  // cudaLaunchKernel [0, 10) on an idle GPU; its kernel starts at 6, before the call returns, runs to 20.
  // A cudaMemsetAsync [30, 40) whose fill starts at 35 did block.
  Timeline t;
  t.iterations = {{0, 0, 100}};
  t.launches = {launch(0, 10, 1), launch(30, 40, 2, LaunchKind::memset, std::nullopt, "cudaMemsetAsync")};
  t.ops = {op(6, 20, 7, 1), op(35, 37, 7, 2, "Memset", DeviceOpKind::memset)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  // Kernel pending from 6: [0,6) host-bound in the launch call (launch 6); [6,20) busy; [20,35) host-bound,
  // [30,35) of it in the blocking memset call (5); [35,37) busy; [37,40) blocking 3; [40,100) framework.
  EXPECT_EQ(it.host_states.launch_ns, 6);
  EXPECT_EQ(it.host_states.blocking_ns, 8);
  EXPECT_EQ(it.host_states.framework_ns, 10 + 60);
  EXPECT_EQ(it.launch_api_ns, 10);
  EXPECT_EQ(it.launch_exposed_ns, 6);  // [0,6); [6,10) the kernel was pending
  EXPECT_EQ(it.blocking_ns, 10);
  EXPECT_EQ(it.blocking_calls, 1u);
}

TEST(Breakdown, HostStatePrecedenceAcrossLaunchingThreads) {
  // Window [0, 100). Threads 1 and 2 launch; thread 3 never does. Thread 2 launches [80, 81) a kernel
  // that runs [90, 100) (pending from 81). Thread 1 makes a launch call [10, 30) whose op was lost (no
  // op: it changes no device state), cudaMalloc [20, 50) and a sync [40, 45). Thread 3: a sync
  // [60, 70) and cudaFree [60, 75).
  Timeline t;
  t.iterations = {{0, 0, 100}};
  t.launches = {launch(80, 81, 1, LaunchKind::kernel, std::nullopt, "cudaLaunchKernel", 2),
                launch(10, 30, 2, LaunchKind::kernel, std::nullopt, "cudaLaunchKernel", 1)};
  t.ops = {op(90, 100, 7, 1)};
  t.api_calls = {api(20, 50, 1), api(60, 75, 3, "cudaFree")};
  t.syncs = {sync(40, 45, 1), sync(60, 70, 3)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  // Device: host-bound [0,81) = 81; device-wait [81,90) = 9; busy [90,100) = 10.
  EXPECT_EQ(it.gpu.host_bound_ns, 81);
  EXPECT_EQ(it.gpu.device_wait_ns, 9);
  // Host states over [0,81), launching threads 1 and 2 only:
  //   [0,10) none; [10,30) launch (the API call [20,30) under it: launch first) = 20;
  //   [30,40) cudaMalloc: other_api 10; [40,45) sync: blocking 5; [45,50) other_api 5;
  //   [50,80) none (thread 3's calls do not count) = 30; [80,81) launch 1.
  EXPECT_EQ(it.host_states.launch_ns, 21);
  EXPECT_EQ(it.host_states.other_api_ns, 15);
  EXPECT_EQ(it.host_states.blocking_ns, 5);
  EXPECT_EQ(it.host_states.framework_ns, 40);
  // Host side, every thread: blocking [40,45) + [60,70) = 15, two calls; other API [20,50) + [60,75) = 45.
  EXPECT_EQ(it.blocking_ns, 15);
  EXPECT_EQ(it.blocking_calls, 2u);
  EXPECT_EQ(it.other_api_ns, 45);
  // Launch API [10,30) + [80,81) = 21, all while nothing was pending: exposed.
  EXPECT_EQ(it.launch_api_ns, 21);
  EXPECT_EQ(it.launch_exposed_ns, 21);
  // Host-bound share 0.81: host-bound; the largest host state is framework (40 of 81).
  EXPECT_EQ(result.verdict.verdict, Verdict::host_bound);
  ASSERT_TRUE(result.verdict.host_state.has_value());
  EXPECT_EQ(*result.verdict.host_state, HostState::framework);
  EXPECT_DOUBLE_EQ(result.verdict.host_state_share, 40.0 / 81.0);
}

TEST(Breakdown, OpsLaunchedBeforeTheRecordingArePendingFromItsStart) {
  // The recording starts at 0 (a cudaEventQuery). The first launch call has correlation 10. Op 5 (no
  // launch, correlation below 10) runs [50, 80): launched before the recording, pending from 0. Op 20
  // (no launch, correlation above 10) runs [85, 90): pending from its start only.
  Timeline t;
  t.iterations = {{0, 0, 100}};
  t.api_calls = {api(0, 1, 1, "cudaEventQuery")};
  t.launches = {launch(2, 3, 10)};
  t.ops = {op(50, 80, 7, 5), op(85, 90, 7, 20), op(4, 6, 7, 10)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  // [0,4) device-wait (op 5 pending; op 10 from 3); [4,6) busy (op 10); [6,50) device-wait (op 5);
  // [50,80) busy; [80,85) nothing pending: host-bound; [85,90) busy; [90,100) host-bound.
  EXPECT_EQ(it.gpu.busy_ns, 37);
  EXPECT_EQ(it.gpu.device_wait_ns, 48);
  EXPECT_EQ(it.gpu.host_bound_ns, 15);
  EXPECT_EQ(result.analysis_counters.ops_without_launch, 2u);
  EXPECT_EQ(it.gpu.queue_max, 2);  // ops 5 and 10 in [3, 6)
  // docs/metrics.md, "Ops without a launch call": op 20's queued time is unknown. It was launched no earlier
  // than the call with the next lower correlation (10, starting at 2): pending from 2, [80, 85) would be
  // device-wait. So host-bound lies in [10, 15] and device-wait in [48, 53]. At 48 nothing dominates (mixed);
  // at 53 device-wait does (53% of the wall, 16 ahead of busy): the verdict is not known.
  const PathVerdict& v = result.verdict;
  EXPECT_EQ(v.ops_queue_unknown, 1u);
  EXPECT_DOUBLE_EQ(v.host_bound_share, 0.15);
  EXPECT_DOUBLE_EQ(v.host_bound_share_least.value_or(-1), 0.10);
  EXPECT_DOUBLE_EQ(v.device_wait_share_most.value_or(-1), 0.53);
  EXPECT_DOUBLE_EQ(v.device_wait_headroom.value_or(-1), 100.0 / 47.0);  // Amdahl's bound at the most device-wait
  EXPECT_EQ(v.verdict, Verdict::unknown);
  EXPECT_EQ(v.reason, VerdictReason::queue_unknown);
}

// One launching thread: the earliest an op without a launch call can have been queued is the start of the call with the next
// lower correlation: not the recording's start, not the lowest call, not that call's end. Recording from 0 (a query);
// launch 10 [2, 3) of op 10 [4, 6); launch 30 [40, 41) of op 30 [42, 44); op 35 (no launch) runs [90, 95).
// As measured: host-bound [0, 3) + [6, 41) + [44, 90) + [95, 100) = 89. With op 35 pending from 40 (launch 30's
// start): [44, 90) and [40, 41) become device-wait: least 3 + 34 + 5 = 42 (from 0 it would be 5; from 2, 7; from
// 41, 43).
TEST(Breakdown, AnOpWithoutALaunchCallPendsAtTheEarliestFromTheNextLowerCallsStart) {
  Timeline t;
  t.iterations = {{0, 0, 100}};
  t.api_calls = {api(0, 1, 1, "cudaEventQuery")};
  t.launches = {launch(2, 3, 10), launch(40, 41, 30)};
  t.ops = {op(4, 6, 7, 10), op(42, 44, 7, 30), op(90, 95, 7, 35)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  EXPECT_EQ(result.iterations.at(0).gpu.host_bound_ns, 89);
  EXPECT_EQ(result.verdict.ops_queue_unknown, 1u);
  EXPECT_DOUBLE_EQ(result.verdict.host_bound_share_least.value_or(-1), 0.42);
  EXPECT_DOUBLE_EQ(result.verdict.device_wait_share_most.value_or(-1), 0.49);  // 2 measured + 47 moved
}

// Correlations count up in the order launch calls begin, so an op without a launch call was launched no earlier
// than the latest start of all lower correlations' calls, not only the next lower one's (two threads launch).
// Recording from 0 (a query). Thread 1: launch 10 [2, 3) of op 10 [4, 6); launch 30 [40, 41) of op 30 [42, 44).
// Thread 2: launch 20 [60, 61) of op 20 [62, 64). Op 35 (no launch) runs [90, 95). As measured host-bound
// [0, 3) + [6, 40) + [40, 41) + [44, 61) + [64, 90) + [95, 100) = 86. Pending from 60 (launch 20's start, the
// latest below 35): [60, 61) and [64, 90) are device-wait: least 59 (from 40, launch 30's, it would be 42).
TEST(Breakdown, AnOpWithoutALaunchCallPendsFromTheLatestStartOfTheLowerCorrelations) {
  Timeline t;
  t.iterations = {{0, 0, 100}};
  t.api_calls = {api(0, 1, 1, "cudaEventQuery")};
  t.launches = {launch(2, 3, 10), launch(40, 41, 30), launch(60, 61, 20, LaunchKind::kernel, std::nullopt, "cudaLaunchKernel", 2)};
  t.ops = {op(4, 6, 7, 10), op(42, 44, 7, 30), op(62, 64, 7, 20), op(90, 95, 7, 35)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  EXPECT_EQ(result.iterations.at(0).gpu.host_bound_ns, 86);
  EXPECT_EQ(result.iterations.at(0).host_bound_least_ns, std::optional<std::int64_t>(59));
  EXPECT_DOUBLE_EQ(result.verdict.host_bound_share_least.value_or(-1), 0.59);
}

// Each iteration has its own least host-bound time, and the verdict's is their sum. Recording from 0 (a query).
// Iteration 0 [0, 100): launch 10 [2, 3) of op 10 [4, 6): host-bound [0, 3) + [6, 100) = 97, all linked, so
// its least is 97 too. Iteration 1 [100, 200): launch 30 [120, 121) of op 30 [122, 124); op 35 (no launch) runs
// [150, 160). As measured host-bound [100, 121) + [124, 150) + [160, 200) = 87; with op 35 pending from 120,
// [120, 121) and [124, 150) are device-wait: least [100, 120) + [160, 200) = 60. Path: 184 of 200 at most,
// 157 at least.
TEST(Breakdown, EachIterationKeepsItsLeastHostBoundTime) {
  Timeline t;
  t.iterations = {{0, 0, 100}, {1, 100, 200}};
  t.api_calls = {api(0, 1, 1, "cudaEventQuery")};
  t.launches = {launch(2, 3, 10), launch(120, 121, 30)};
  t.ops = {op(4, 6, 7, 10), op(122, 124, 7, 30), op(150, 160, 7, 35)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  ASSERT_EQ(result.iterations.size(), 2u);
  EXPECT_EQ(result.iterations[0].gpu.host_bound_ns, 97);
  EXPECT_EQ(result.iterations[0].host_bound_least_ns, std::optional<std::int64_t>(97));
  EXPECT_EQ(result.iterations[1].gpu.host_bound_ns, 87);
  EXPECT_EQ(result.iterations[1].host_bound_least_ns, std::optional<std::int64_t>(60));
  EXPECT_DOUBLE_EQ(result.verdict.host_bound_share, 0.92);
  EXPECT_DOUBLE_EQ(result.verdict.host_bound_share_least.value_or(-1), 0.785);
}

// Where an op without a launch call could not have been queued earlier than it ran (its next-lower call's
// launch is its own start), nothing moves: the bounds are exact and no iteration has a least.
TEST(Breakdown, NoIterationHasALeastWhenNothingCouldMove) {
  Timeline t;
  t.iterations = {{0, 0, 100}};
  t.api_calls = {api(0, 1, 1, "cudaEventQuery")};
  t.launches = {launch(40, 41, 30)};
  t.ops = {op(42, 44, 7, 30), op(40, 50, 7, 35)};  // op 35 runs from 40: pending from 40 moves nothing
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  EXPECT_EQ(result.verdict.ops_queue_unknown, 1u);
  EXPECT_FALSE(result.verdict.host_bound_share_least);
  EXPECT_FALSE(result.iterations.at(0).host_bound_least_ns);
}

// An op without a launch call and without a correlation could have been queued from the recording's start;
// a verdict that holds at both ends of the bounds stands, with the bounds beside it.
TEST(Breakdown, AVerdictThatHoldsAcrossTheQueueBoundsStands) {
  Timeline t;
  t.iterations = {{0, 0, 100}};
  t.launches = {launch(0, 1, 10)};
  // op 10 runs [0, 60): busy 60; op 0 (no correlation, no launch) runs [90, 95): busy 5. Host-bound [60, 90)
  // and [95, 100): 35; with op 0 pending from the recording's start (0), [60, 90) is device-wait: least 5.
  t.ops = {op(0, 60, 7, 10), op(90, 95, 7, 0)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  const PathVerdict& v = result.verdict;
  EXPECT_EQ(v.ops_queue_unknown, 1u);
  EXPECT_DOUBLE_EQ(v.host_bound_share, 0.35);
  EXPECT_DOUBLE_EQ(v.host_bound_share_least.value_or(-1), 0.05);
  EXPECT_DOUBLE_EQ(v.device_wait_share_most.value_or(-1), 0.30);
  // busy 65 against at most 35 of either: compute-bound at every point of the bounds
  EXPECT_EQ(v.verdict, Verdict::compute_bound);
  EXPECT_EQ(v.reason, VerdictReason::dominant_share);
}

// Mixed at both ends, yet busy dominates where host-bound and device-wait meet: not known.
TEST(Breakdown, UnderQueueBoundsBusyCanLeadInTheMiddleOnly) {
  BreakdownSummary s;
  s.totals.iterations = 1;
  s.totals.wall_ns = 1000;
  s.totals.gpu.busy_ns = 500;
  s.totals.gpu.host_bound_ns = 420;
  s.totals.gpu.device_wait_ns = 80;
  s.totals.host_states.framework_ns = 420;
  VerdictContext context;
  context.ops_queue_unknown = 3;
  context.host_bound_least_ns = 80;  // up to 340 may be device-wait: at 0 and at 340 busy leads by 8%, mixed;
                                     // at 170 (250 each) it leads by 25%
  EXPECT_EQ(decide_verdict(s, context).reason, VerdictReason::queue_unknown);
  context.host_bound_least_ns = 420;  // nothing can move: exact, mixed
  const PathVerdict exact = decide_verdict(s, context);
  EXPECT_EQ(exact.verdict, Verdict::mixed);
  EXPECT_FALSE(exact.host_bound_share_least);
  context.host_bound_least_ns = 410;  // 10 may move: busy leads by 8% and 9% at the ends (the meeting point
                                      // clamps to 10): mixed
  EXPECT_EQ(decide_verdict(s, context).verdict, Verdict::mixed);
  EXPECT_DOUBLE_EQ(decide_verdict(s, context).host_bound_share_least.value_or(-1), 0.41);
  context.host_bound_least_ns = 400;  // 20 may move: at 20 busy leads by exactly 10%: compute-bound there
  EXPECT_EQ(decide_verdict(s, context).reason, VerdictReason::queue_unknown);
}

TEST(Breakdown, WithoutStepsStartUpDominatingIsUnknown) {
  // One window over the whole recording: cudaMalloc [0, 800) and a kernel [900, 950) launched [850, 860).
  Timeline t;
  t.whole_recording_window = true;
  t.iterations = {{0, 0, 1000}};
  t.api_calls = {api(0, 800)};
  t.launches = {launch(850, 860, 1)};
  t.ops = {op(900, 950, 7, 1)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  // Host-bound [0,860) + [950,1000) = 910: other_api 800, launch 10, framework 100 -> start-up.
  EXPECT_EQ(result.iterations.at(0).host_states.other_api_ns, 800);
  EXPECT_EQ(result.verdict.verdict, Verdict::unknown);
  EXPECT_EQ(result.verdict.reason, VerdictReason::startup_without_steps);
  EXPECT_EQ(result.verdict.host_state, HostState::other_api);
  // The same records in a marked iteration: a host-bound verdict, allocation deciding the advice.
  t.whole_recording_window = false;
  const PathBreakdown marked = analyze_timeline(t);
  EXPECT_EQ(marked.verdict.verdict, Verdict::host_bound);
  EXPECT_EQ(marked.verdict.host_state, HostState::other_api);
}

TEST(Breakdown, UnknownWithoutIterationsDeviceWorkOrLaunches) {
  Timeline none;
  EXPECT_EQ(analyze_timeline(none).verdict.reason, VerdictReason::no_iterations);
  EXPECT_EQ(analyze_timeline(none).verdict.verdict, Verdict::unknown);

  Timeline idle;
  idle.iterations = {{0, 0, 100}};
  idle.api_calls = {api(0, 10)};
  EXPECT_EQ(analyze_timeline(idle).verdict.reason, VerdictReason::no_device_work);
  // launch calls but no device op read: the device's time is unknown, not none
  Timeline lost = idle;
  lost.launches = {launch(10, 15, 1)};
  EXPECT_EQ(analyze_timeline(lost).verdict.reason, VerdictReason::launches_without_ops);
  EXPECT_EQ(analyze_timeline(lost).verdict.verdict, Verdict::unknown);
  // ops read, but all outside the window (the window is [0, 100)): they were read, so no device work in it
  Timeline outside = lost;
  outside.launches = {launch(200, 205, 1)};
  outside.ops = {op(210, 240, 7, 1)};
  EXPECT_EQ(analyze_timeline(outside).verdict.reason, VerdictReason::no_device_work);
  lost.ops_have_launches = false;  // a CPU run: its ops are its kernels, and it has no device launches to read
  EXPECT_EQ(analyze_timeline(lost).verdict.reason, VerdictReason::no_device_work);

  // Device ops none of whose launch calls are in the data (an accelerator runtime ohprof does not read).
  Timeline unknown_runtime;
  unknown_runtime.iterations = {{0, 0, 100}};
  unknown_runtime.ops = {op(10, 20, 1, 7), op(30, 40, 1, 8)};
  const PathBreakdown r = analyze_timeline(unknown_runtime);
  EXPECT_EQ(r.verdict.verdict, Verdict::unknown);
  EXPECT_EQ(r.verdict.reason, VerdictReason::no_launches);
  // The numbers are still there: busy 20.
  EXPECT_EQ(r.iterations.at(0).gpu.busy_ns, 20);
}

// The per-kernel median per call (docs/metrics.md, "Per-kernel table"), by hand: calls of 1, 2 and 100
// us have mean 34.333 us and median 2 us.
TEST(Breakdown, KernelTableGivesEachKernelsMedianPerCall) {
  Timeline t;
  t.iterations = {{0, 0, 1'000'000}};
  t.ops = {op(0, 1'000, 1, 1, "k"), op(10'000, 12'000, 1, 2, "k"), op(20'000, 120'000, 1, 3, "k"),
           op(200'000, 200'500, 1, 4, "other")};
  t.launches = {launch(0, 1, 1), launch(9'000, 1, 2), launch(19'000, 1, 3), launch(199'000, 1, 4)};
  const PathBreakdown r = analyze_timeline(t);
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].name, "k");
  EXPECT_EQ(r.kernels[0].count, 3u);
  EXPECT_DOUBLE_EQ(r.kernels[0].mean_ns, 103'000.0 / 3);
  EXPECT_DOUBLE_EQ(r.kernels[0].median_ns, 2'000);
  EXPECT_DOUBLE_EQ(r.kernels[1].median_ns, 500);  // one call: itself
}

// Headroom (docs/metrics.md): W / (W - part), by hand, and the integer rule 100 W < 105 (W - host_bound).
TEST(Breakdown, HeadroomIsAmdahlsBoundOfEachPart) {
  BreakdownSummary s;
  s.totals.iterations = 1;
  // The training trace's shares (busy 57.6%, host-bound 40.1%, device-wait 2.3%): compute-bound by its
  // shares, yet removing the host-bound time could make it up to 1000 / 599 = 1.669 times faster.
  s.totals.wall_ns = 1000;
  s.totals.gpu.busy_ns = 576;
  s.totals.gpu.host_bound_ns = 401;
  s.totals.gpu.device_wait_ns = 23;
  s.totals.host_states.framework_ns = 401;
  PathVerdict v = decide_verdict(s);
  EXPECT_EQ(v.verdict, Verdict::compute_bound);
  EXPECT_DOUBLE_EQ(*v.busy_headroom, 1000.0 / 424.0);
  EXPECT_DOUBLE_EQ(*v.host_bound_headroom, 1000.0 / 599.0);
  EXPECT_DOUBLE_EQ(*v.device_wait_headroom, 1000.0 / 977.0);
  EXPECT_FALSE(v.host_headroom_negligible);
  // Exactly 1.05: W = 2100, host-bound 100 -> 2100 / 2000 = 1.05 is not under 1.05.
  s.totals.wall_ns = 2100;
  s.totals.gpu.busy_ns = 2000;
  s.totals.gpu.host_bound_ns = 100;
  s.totals.gpu.device_wait_ns = 0;
  s.totals.host_states.framework_ns = 100;
  EXPECT_FALSE(decide_verdict(s).host_headroom_negligible);
  // 99 of 2100: 2100 / 2001 = 1.0495 -> negligible.
  s.totals.gpu.busy_ns = 2001;
  s.totals.gpu.host_bound_ns = 99;
  s.totals.host_states.framework_ns = 99;
  v = decide_verdict(s);
  EXPECT_TRUE(v.host_headroom_negligible);
  EXPECT_DOUBLE_EQ(*v.device_wait_headroom, 1.0);  // no device-wait: nothing to gain
  // A part that is all of the wall time has no bound; no wall time, none at all.
  s.totals.gpu.busy_ns = 2100;
  s.totals.gpu.host_bound_ns = 0;
  s.totals.host_states.framework_ns = 0;
  EXPECT_FALSE(decide_verdict(s).busy_headroom.has_value());
  s.totals.wall_ns = 0;
  EXPECT_FALSE(decide_verdict(s).host_bound_headroom.has_value());
}

// Times near int64's limit (a damaged trace's timestamps, found by the fuzzer: 100 times the wall time
// overflowed): the same rules as at any scale. 1.9e18 of 2e18 busy is dominant; 1e17 of it host-bound
// leaves 2e18 / 1.9e18 = 1.053 of headroom, not negligible.
TEST(Breakdown, TheVerdictsRulesHoldForTimesNearInt64sLimit) {
  BreakdownSummary s;
  s.totals.iterations = 1;
  s.totals.wall_ns = 2'000'000'000'000'000'000;
  s.totals.gpu.busy_ns = 1'900'000'000'000'000'000;
  s.totals.gpu.host_bound_ns = 100'000'000'000'000'000;
  s.totals.host_states.framework_ns = s.totals.gpu.host_bound_ns;
  const PathVerdict v = decide_verdict(s);
  EXPECT_EQ(v.verdict, Verdict::compute_bound);
  EXPECT_EQ(v.reason, VerdictReason::dominant_share);
  EXPECT_FALSE(v.host_headroom_negligible);
  s.totals.gpu.host_bound_ns = s.totals.host_states.framework_ns = 90'000'000'000'000'000;  // 1.047: negligible
  s.totals.gpu.busy_ns = 1'910'000'000'000'000'000;
  EXPECT_TRUE(decide_verdict(s).host_headroom_negligible);
}

TEST(Breakdown, VerdictThresholdsAreInclusive) {
  BreakdownSummary s;
  s.totals.iterations = 1;
  s.totals.wall_ns = 1000;
  // busy exactly 0.5, host-bound 0.4: leads by exactly 0.10 -> compute-bound.
  s.totals.gpu.busy_ns = 500;
  s.totals.gpu.host_bound_ns = 400;
  s.totals.gpu.device_wait_ns = 100;
  s.totals.host_states.framework_ns = 400;
  EXPECT_EQ(decide_verdict(s).verdict, Verdict::compute_bound);
  // 0.499 busy: below 0.5 -> mixed.
  s.totals.gpu.busy_ns = 499;
  s.totals.gpu.device_wait_ns = 101;
  EXPECT_EQ(decide_verdict(s).verdict, Verdict::mixed);
  // 0.5 against 0.401: leads by 0.099 -> mixed.
  s.totals.gpu.busy_ns = 500;
  s.totals.gpu.host_bound_ns = 401;
  s.totals.gpu.device_wait_ns = 99;
  s.totals.host_states.framework_ns = 401;
  EXPECT_EQ(decide_verdict(s).verdict, Verdict::mixed);
  EXPECT_EQ(decide_verdict(s).second, TimeShare::host_bound);
  // Ties rank busy, host-bound, device-wait in that order.
  s.totals.gpu.busy_ns = 300;
  s.totals.gpu.host_bound_ns = 300;
  s.totals.gpu.device_wait_ns = 400;
  s.totals.host_states.framework_ns = 300;
  const PathVerdict v = decide_verdict(s);
  EXPECT_EQ(v.first, TimeShare::device_wait);
  EXPECT_EQ(v.second, TimeShare::busy);
}

// docs/metrics.md, "Verdict": CPU kernels that do not record themselves count as dispatch, so dispatch is
// an upper bound and busy a lower one: only a busy share that already dominates decides.
TEST(Breakdown, UnrecordedKernelsLeaveOnlyABusyLedVerdict) {
  BreakdownSummary s;
  s.cpu_kernels = true;
  s.totals.iterations = 1;
  s.totals.wall_ns = 1000;
  VerdictContext unrecorded;
  unrecorded.kernels_unrecorded = true;
  // dispatch 0.861, busy 0.139: host-bound on the timeline, unknown with unrecorded kernels
  s.totals.gpu.busy_ns = 139;
  s.totals.gpu.host_bound_ns = 861;
  EXPECT_EQ(decide_verdict(s).verdict, Verdict::host_bound);
  PathVerdict v = decide_verdict(s, unrecorded);
  EXPECT_EQ(v.verdict, Verdict::unknown);
  EXPECT_EQ(v.reason, VerdictReason::kernels_unrecorded);
  EXPECT_TRUE(v.kernels_unrecorded);
  EXPECT_DOUBLE_EQ(v.host_bound_share, 0.861);  // the evidence is kept: an upper bound now
  EXPECT_DOUBLE_EQ(v.busy_share, 0.139);
  // busy 0.487, dispatch 0.513: mixed on the timeline, unknown too (busy may be larger)
  s.totals.gpu.busy_ns = 487;
  s.totals.gpu.host_bound_ns = 513;
  EXPECT_EQ(decide_verdict(s).verdict, Verdict::mixed);
  EXPECT_EQ(decide_verdict(s, unrecorded).reason, VerdictReason::kernels_unrecorded);
  // busy 0.6, dispatch 0.4: compute-bound holds (busy only grows, dispatch only shrinks)
  s.totals.gpu.busy_ns = 600;
  s.totals.gpu.host_bound_ns = 400;
  v = decide_verdict(s, unrecorded);
  EXPECT_EQ(v.verdict, Verdict::compute_bound);
  EXPECT_EQ(v.reason, VerdictReason::dominant_share);
  EXPECT_TRUE(v.kernels_unrecorded);
  // no kernel recorded at all: the kernels are not absent (not no_device_work)
  s.totals.gpu.busy_ns = 0;
  s.totals.gpu.host_bound_ns = 1000;
  EXPECT_EQ(decide_verdict(s).reason, VerdictReason::no_device_work);
  EXPECT_EQ(decide_verdict(s, unrecorded).reason, VerdictReason::kernels_unrecorded);
  // the flag travels from the timeline
  Timeline t;
  t.ops_have_launches = false;
  t.kernels_unrecorded = true;
  t.iterations = {{0, 0, 100}};
  EXPECT_TRUE(analyze_timeline(t).verdict.kernels_unrecorded);
}

TEST(Breakdown, CudaGraphLaunchIsOneLaunchWithSeveralKernels) {
  // One cudaGraphLaunch [0, 10) whose three kernels share its correlation: [20,30), [30,40), [45,50).
  Timeline t;
  t.iterations = {{0, 0, 100}};
  t.launches = {launch(0, 10, 1, LaunchKind::graph, std::nullopt, "cudaGraphLaunch")};
  t.ops = {op(20, 30, 7, 1), op(30, 40, 7, 1), op(45, 50, 7, 1)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  EXPECT_EQ(it.launches, 1u);
  EXPECT_EQ(it.graph_launches, 1u);
  EXPECT_EQ(it.gpu.own_ops, 3u);
  // All three pending from 10: [10,20) device-wait, [40,45) device-wait (the third is pending): 15.
  EXPECT_EQ(it.gpu.device_wait_ns, 15);
  EXPECT_EQ(it.gpu.busy_ns, 25);
  EXPECT_EQ(it.gpu.queue_max, 3);
  // One queue delay: the first kernel, 20 - 10.
  EXPECT_EQ(it.queue_delays_ns, (std::vector<std::int64_t>{10}));
  EXPECT_EQ(result.verdict.graph_launches_per_iteration, 1.0);
}

TEST(Breakdown, LostTimestampsAndInvalidIntervalsAreCountedNotTimed) {
  Timeline t;
  t.iterations = {{0, 0, 100}};
  t.launches = {launch(0, 1, 1), launch(1, 2, 2), launch(2, 3, 3)};
  t.ops = {op(0, 0, 7, 1), op(50, 40, 7, 2), op(10, 20, 7, 3)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  EXPECT_EQ(result.analysis_counters.ops_total, 3u);
  EXPECT_EQ(result.analysis_counters.ops_without_timestamps, 1u);
  EXPECT_EQ(result.analysis_counters.ops_invalid_interval, 1u);
  EXPECT_EQ(result.iterations.at(0).gpu.busy_ns, 10);
  EXPECT_EQ(result.iterations.at(0).gpu.own_ops, 1u);
}

TEST(Breakdown, ExternalIterationIdsDecideOwnWorkNotBusyTime) {
  Timeline t;
  // Given out of order; index 4 (a warm-up) has no window.
  t.iterations = {{6, 100, 200}, {5, 0, 100}};
  t.launches = {launch(10, 20, 1),                             // untagged: by time -> 5
                launch(95, 105, 2, LaunchKind::kernel, 6),     // tagged 6 though it starts in 5
                launch(150, 160, 3, LaunchKind::kernel, 4)};   // tagged 4: no such window
  t.ops = {op(30, 60, 1, 1), op(120, 130, 1, 2), op(170, 180, 1, 3)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  ASSERT_EQ(result.iterations.size(), 2u);
  EXPECT_EQ(result.iterations[0].index, 5);  // sorted by window start
  EXPECT_EQ(result.iterations[1].index, 6);
  EXPECT_EQ(result.analysis_counters.launches_outside_iterations, 1u);
  EXPECT_EQ(result.analysis_counters.ops_outside_iterations, 1u);
  const IterationBreakdown& six = result.iterations[1];
  // Iteration 6 owns op [120,130) only; by time, op [170,180) (the warm-up's) ran in it too: busy 20.
  EXPECT_EQ(six.gpu.own_ops, 1u);
  EXPECT_EQ(six.gpu.own_busy_ns, 10);
  EXPECT_EQ(six.gpu.busy_ns, 20);
  EXPECT_EQ(six.gpu.ops, 2u);
  // Launch API by time: [95,105) clipped to [100,200) = 5, and the warm-up's call [150,160) = 10.
  // Queue delay (iteration 6's own launch): 120 - 105 = 15.
  EXPECT_EQ(six.launch_api_ns, 15);
  EXPECT_EQ(six.queue_delays_ns, (std::vector<std::int64_t>{15}));
  // Summary medians over (30, 20): busy median 25, sample stddev sqrt(50) = 7.071...
  EXPECT_EQ(result.summary.gpu.busy_ns.median, 25.0);
  EXPECT_NEAR(result.summary.gpu.busy_ns.stddev, 7.0710678, 1e-6);
  // Totals: wall 200, busy 50.
  EXPECT_EQ(result.summary.totals.wall_ns, 200);
  EXPECT_EQ(result.summary.totals.gpu.busy_ns, 50);
  EXPECT_EQ(result.summary.totals.iterations, 2u);
}

TEST(Breakdown, WindowsAreHalfOpenAndInvalidWindowsAreSkipped) {
  Timeline t;
  t.iterations = {{0, 0, 100}, {1, 100, 200}, {2, 300, 250}};
  t.ops = {op(100, 110, 1, 0), op(99, 100, 1, 0)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  EXPECT_EQ(result.analysis_counters.invalid_windows, 1u);
  ASSERT_EQ(result.iterations.size(), 2u);
  EXPECT_EQ(result.iterations[0].gpu.busy_ns, 1);
  EXPECT_EQ(result.iterations[1].gpu.busy_ns, 10);
  EXPECT_EQ(result.iterations[1].gpu.own_ops, 1u);  // by its start 100
}

// A damaged trace's times near int64's limits (saturating.hpp): a window longer than int64 nanoseconds is
// invalid, and totals over windows of 4e18 ns stay at int64's maximum instead of wrapping negative.
TEST(Breakdown, TimesNearInt64sLimitsNeitherWrapNorCountAsWindows) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  Timeline t;
  t.iterations = {{0, -kMax, kMax}, {1, 0, 4'000'000'000'000'000'000}, {2, 0, 4'000'000'000'000'000'000},
                  {3, 0, 4'000'000'000'000'000'000}};
  t.ops = {op(0, 4'000'000'000'000'000'000, 1, 0)};
  const PathBreakdown result = analyze_timeline(t);
  EXPECT_EQ(result.analysis_counters.invalid_windows, 1u);
  ASSERT_EQ(result.iterations.size(), 3u);
  EXPECT_EQ(result.iterations[0].wall_ns, 4'000'000'000'000'000'000);
  EXPECT_EQ(result.summary.totals.wall_ns, kMax);     // 1.2e19, held at the limit
  EXPECT_EQ(result.summary.totals.gpu.busy_ns, kMax);  // the op runs through each of the three windows
}

TEST(Breakdown, DuplicateCorrelationJoinsTheEarliestLaunchCall) {
  Timeline t;
  t.iterations = {{0, 0, 100}, {1, 100, 200}};
  // Two calls share correlation 5; the later one (start 150, iteration 1) comes first in the input.
  t.launches = {launch(150, 160, 5), launch(10, 20, 5)};
  t.ops = {op(50, 60, 1, 5)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  EXPECT_EQ(result.analysis_counters.duplicate_launch_correlations, 1u);
  // The op joins the call at 10 -> iteration 0: queue delay 50 - 20 = 30, pending from 20.
  EXPECT_EQ(result.iterations[0].gpu.own_ops, 1u);
  EXPECT_EQ(result.iterations[0].queue_delays_ns, (std::vector<std::int64_t>{30}));
  EXPECT_EQ(result.iterations[0].gpu.device_wait_ns, 30);
  EXPECT_EQ(result.iterations[1].gpu.own_ops, 0u);
  EXPECT_EQ(result.iterations[1].launches, 1u);
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
  ASSERT_EQ(pa.kernels.size(), 2u);
  EXPECT_EQ(pa.kernels[0].name, "gemm");
  EXPECT_EQ(pa.kernels[0].count, 4u);
  EXPECT_EQ(pa.kernels[0].total_ns, 80);
  EXPECT_EQ(pa.kernels[0].mean_ns, 20.0);
  EXPECT_EQ(pa.kernels[0].count_per_iteration, 2.0);
  EXPECT_EQ(pa.kernels[1].name, "relu");
  EXPECT_EQ(pa.kernels[1].total_ns, 10);

  const KernelSetDiff diff = diff_kernel_sets(pa, pb, "aoti", "compile");
  EXPECT_EQ(diff.path_a, "aoti");
  EXPECT_FALSE(diff.same_set());
  ASSERT_EQ(diff.both.size(), 1u);
  EXPECT_EQ(diff.both[0].name, "gemm");
  EXPECT_EQ(diff.both[0].count_per_iteration_b, 2.0);
  ASSERT_EQ(diff.only_a.size(), 1u);
  EXPECT_EQ(diff.only_a[0].name, "relu");
  ASSERT_EQ(diff.only_b.size(), 1u);
  EXPECT_EQ(diff.only_b[0].name, "fused_relu_add");
  EXPECT_TRUE(diff_kernel_sets(pa, pa).same_set());
  // Kernels that do not record themselves on either side make the sets partial (docs/metrics.md, "Kernel-set
  // diff"); the rows are the same.
  EXPECT_FALSE(diff.partial);
  PathBreakdown unrecorded = pb;
  unrecorded.verdict.kernels_unrecorded = true;
  EXPECT_TRUE(diff_kernel_sets(pa, unrecorded).partial);
  EXPECT_TRUE(diff_kernel_sets(unrecorded, pa).partial);
  EXPECT_EQ(diff_kernel_sets(pa, unrecorded).only_b.size(), 1u);
}

// A nanosecond-by-nanosecond recount of the device timeline, host states and host side, on random
// timelines with kernel and copy launches (synchronous or not), ops launched before the recording, ops
// without a launch call, syncs (one the harness's) and API calls on launching and other threads, gaps
// between windows and one window overlapping two others.
TEST(Breakdown, MatchesNanosecondByNanosecondRecountOnRandomTimelines) {
  std::mt19937_64 rng(12345);
  for (int round = 0; round < 30; ++round) {
    Timeline t;
    const std::int64_t lo_all = -300;
    const std::int64_t hi_all = 2400;
    // Windows [500w, 500w + 400) for w = 0..3, and [150, 650) overlapping windows 0 and 1.
    for (int w = 0; w < 4; ++w) t.iterations.push_back({w, w * 500, w * 500 + 400});
    t.iterations.push_back({9, 150, 650});
    std::uniform_int_distribution<std::int64_t> start_dist(-50, 2050);
    std::uniform_int_distribution<std::int64_t> len_dist(0, 60);
    std::uniform_int_distribution<int> iter_dist(0, 4);
    std::uniform_int_distribution<int> stream_dist(0, 2);
    std::uniform_int_distribution<int> thread_dist(1, 3);
    std::uniform_int_distribution<int> kind_dist(0, 5);
    // Launch calls have correlations 101..160; their op is ops[c - 101].
    for (std::uint64_t c = 101; c <= 160; ++c) {
      const std::int64_t start = start_dist(rng);
      const std::int64_t launch_start = start - std::uniform_int_distribution<std::int64_t>(-20, 100)(rng);
      const std::int64_t launch_len = std::uniform_int_distribution<std::int64_t>(1, 30)(rng);
      const int kind = kind_dist(rng);  // 0: synchronous copy, 1: async copy, 2: async fill, else a kernel
      const int iteration = iter_dist(rng);
      LaunchCall call = launch(launch_start, launch_start + launch_len, c,
                               kind == 0 || kind == 1 ? LaunchKind::memcpy
                               : kind == 2            ? LaunchKind::memset
                                                      : LaunchKind::kernel,
                               iteration == 4 ? std::optional<std::int64_t>(9) : std::optional<std::int64_t>(iteration),
                               kind == 0 ? "cudaMemcpy" : "cudaLaunchKernel", thread_dist(rng) == 3 ? 2 : 1);
      call.synchronous = kind == 0;
      t.launches.push_back(call);
      t.ops.push_back(op(start, start + len_dist(rng), stream_dist(rng), c));
    }
    // Five ops launched before the recording (correlation below 101) and five without a launch call
    // whose correlation is above every launch's: pending from the recording's start, and from their start.
    for (std::uint64_t c = 1; c <= 5; ++c) {
      const std::int64_t start = start_dist(rng);
      t.ops.push_back(op(start, start + len_dist(rng), stream_dist(rng), c));
    }
    for (std::uint64_t c = 500; c < 505; ++c) {
      const std::int64_t start = start_dist(rng);
      t.ops.push_back(op(start, start + len_dist(rng), stream_dist(rng), c));
    }
    for (int k = 0; k < 8; ++k) {
      const std::int64_t s0 = start_dist(rng);
      t.syncs.push_back(sync(s0, s0 + len_dist(rng), thread_dist(rng), k == 0));
      const std::int64_t a0 = start_dist(rng);
      t.api_calls.push_back(api(a0, a0 + len_dist(rng), thread_dist(rng)));
    }
    const PathBreakdown result = analyze_timeline(t);
    expect_identities(result);
    ASSERT_EQ(result.iterations.size(), 5u);

    // The recording starts at the earliest record of any kind.
    std::int64_t recording = std::numeric_limits<std::int64_t>::max();
    for (const auto& o : t.ops) {
      if (!(o.start_ns == 0 && o.end_ns == 0)) recording = std::min(recording, o.start_ns);
    }
    for (const auto& l : t.launches) recording = std::min(recording, l.start_ns);
    for (const auto& x : t.syncs) recording = std::min(recording, x.start_ns);
    for (const auto& x : t.api_calls) recording = std::min(recording, x.start_ns);

    // Per nanosecond over the whole span: pending / running counts, per stream too, and host flags.
    const auto n = static_cast<std::size_t>(hi_all - lo_all);
    const auto at = [&](std::int64_t x) { return static_cast<std::size_t>(x - lo_all); };
    std::vector<int> pending(n, 0), running(n, 0);
    std::vector<std::array<int, 3>> s_pending(n, {0, 0, 0}), s_running(n, {0, 0, 0});
    for (std::size_t i = 0; i < t.ops.size(); ++i) {
      const DeviceOp& o = t.ops[i];
      if (o.start_ns == 0 && o.end_ns == 0) continue;  // lost timestamps: not timed
      std::int64_t p = o.start_ns;
      if (o.correlation >= 101 && o.correlation <= 160) p = std::min(t.launches[o.correlation - 101].end_ns, o.start_ns);
      if (o.correlation < 101) p = recording;
      for (std::int64_t x = p; x < o.end_ns; ++x) {
        ++pending[at(x)];
        ++s_pending[at(x)][static_cast<std::size_t>(o.stream)];
      }
      for (std::int64_t x = o.start_ns; x < o.end_ns; ++x) {
        ++running[at(x)];
        ++s_running[at(x)][static_cast<std::size_t>(o.stream)];
      }
    }
    // Launching threads are 1 and 2 (every launch is on one of them); thread 3 never launches.
    std::vector<char> blocking_t(n, 0), blocking_any(n, 0), launch_on(n, 0), api_t(n, 0), api_any(n, 0),
        harness(n, 0);
    for (std::size_t i = 0; i < t.launches.size(); ++i) {
      const LaunchCall& l = t.launches[i];
      const DeviceOp& o = t.ops[i];
      const bool timed = !(o.start_ns == 0 && o.end_ns == 0);
      // docs/metrics.md, "Blocking launch calls": synchronous copies, and copies or fills that returned
      // after their op started; never a kernel launch.
      const bool blocking = l.synchronous || (l.kind != LaunchKind::kernel && timed && l.end_ns > o.start_ns);
      for (std::int64_t x = l.start_ns; x < l.end_ns; ++x) {
        (blocking ? blocking_t : launch_on)[at(x)] = 1;
        if (blocking) blocking_any[at(x)] = 1;
      }
    }
    for (const SyncCall& x : t.syncs) {
      for (std::int64_t y = x.start_ns; y < x.end_ns; ++y) {
        if (x.harness) {
          if (x.thread_id != 3) harness[at(y)] = 1;
          continue;
        }
        blocking_any[at(y)] = 1;
        if (x.thread_id != 3) blocking_t[at(y)] = 1;
      }
    }
    for (const ApiCall& x : t.api_calls) {
      for (std::int64_t y = x.start_ns; y < x.end_ns; ++y) {
        api_any[at(y)] = 1;
        if (x.thread_id != 3) api_t[at(y)] = 1;
      }
    }
    for (const IterationBreakdown& it : result.iterations) {
      std::int64_t busy = 0, hb = 0, dw = 0, queue = 0, qmax = 0;
      std::int64_t h_block = 0, h_launch = 0, h_api = 0, h_harness = 0, h_frame = 0, l_api = 0, l_exp = 0, block = 0,
                   other = 0;
      std::array<std::int64_t, 3> s_busy{}, s_dw{}, waited{};
      // Blocking calls starting in the window: the model's syncs and the blocking launch calls.
      std::size_t blocking_calls = 0;
      for (const SyncCall& x : t.syncs) {
        if (!x.harness && x.start_ns >= it.start_ns && x.start_ns < it.end_ns) ++blocking_calls;
      }
      for (std::size_t i = 0; i < t.launches.size(); ++i) {
        const LaunchCall& l = t.launches[i];
        const DeviceOp& o = t.ops[i];
        const bool timed = !(o.start_ns == 0 && o.end_ns == 0);
        const bool blocking = l.synchronous || (l.kind != LaunchKind::kernel && timed && l.end_ns > o.start_ns);
        if (blocking && l.start_ns >= it.start_ns && l.start_ns < it.end_ns) ++blocking_calls;
      }
      for (std::int64_t x = it.start_ns; x < it.end_ns; ++x) {
        const std::size_t k = at(x);
        queue += pending[k];
        qmax = std::max<std::int64_t>(qmax, pending[k]);
        if (running[k] > 0) {
          ++busy;
        } else if (pending[k] > 0) {
          ++dw;
          for (std::size_t st = 0; st < 3; ++st) waited[st] += s_pending[k][st] > 0 ? 1 : 0;
        } else {
          ++hb;
          if (blocking_t[k]) ++h_block;
          else if (launch_on[k]) ++h_launch;
          else if (api_t[k]) ++h_api;
          else if (harness[k]) ++h_harness;
          else ++h_frame;
        }
        for (std::size_t st = 0; st < 3; ++st) {
          if (s_running[k][st] > 0) ++s_busy[st];
          else if (s_pending[k][st] > 0) ++s_dw[st];
        }
        if (launch_on[k]) {
          ++l_api;
          if (pending[k] == 0) ++l_exp;
        }
        if (blocking_any[k]) ++block;
        if (api_any[k]) ++other;
      }
      const std::string where = "round " + std::to_string(round) + " window " + std::to_string(it.index);
      EXPECT_EQ(it.gpu.busy_ns, busy) << where;
      EXPECT_EQ(it.gpu.host_bound_ns, hb) << where;
      EXPECT_EQ(it.gpu.device_wait_ns, dw) << where;
      EXPECT_EQ(it.gpu.queue_ns, queue) << where;
      EXPECT_EQ(it.gpu.queue_max, qmax) << where;
      EXPECT_EQ(it.device_queue_max, qmax) << where;  // one device
      EXPECT_EQ(it.host_states.blocking_ns, h_block) << where;
      EXPECT_EQ(it.host_states.launch_ns, h_launch) << where;
      EXPECT_EQ(it.host_states.other_api_ns, h_api) << where;
      EXPECT_EQ(it.host_states.harness_ns, h_harness) << where;
      EXPECT_EQ(it.host_states.framework_ns, h_frame) << where;
      EXPECT_EQ(it.launch_api_ns, l_api) << where;
      EXPECT_EQ(it.launch_exposed_ns, l_exp) << where;
      EXPECT_EQ(it.blocking_ns, block) << where;
      EXPECT_EQ(it.blocking_calls, blocking_calls) << where;
      EXPECT_EQ(it.other_api_ns, other) << where;
      for (const StreamSplit& stream : it.streams) {
        const auto st = static_cast<std::size_t>(stream.key.stream);
        EXPECT_EQ(stream.split.busy_ns, s_busy[st]) << where << " stream " << st;
        EXPECT_EQ(stream.split.device_wait_ns, s_dw[st]) << where << " stream " << st;
        EXPECT_EQ(stream.waited_ns, waited[st]) << where << " stream " << st;
      }
    }
  }
}

TEST(Breakdown, CommunicationIsTheBusyTimeWithACollectiveRunning) {
  // Window [0, 100). A compute kernel on stream 7 [10, 50); an NCCL kernel on stream 40 [30, 80).
  Timeline t;
  t.iterations = {{0, 0, 100}};
  t.launches = {launch(0, 1, 1), launch(1, 2, 2)};
  DeviceOp nccl = op(30, 80, 40, 2, "ncclKernel_AllReduce_RING_LL_Sum_float");
  nccl.communication = communication_kernel(nccl.name);
  t.ops = {op(10, 50, 7, 1, "gemm"), nccl};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  // Busy [10, 80) = 70; with the collective running [30, 80) = 50; on stream 40 alone 50, on 7 none.
  EXPECT_EQ(it.gpu.busy_ns, 70);
  EXPECT_EQ(it.gpu.communication_ns, 50);
  EXPECT_EQ(it.streams.at(1).split.communication_ns, 50);
  EXPECT_EQ(it.streams.at(0).split.communication_ns, 0);
  EXPECT_DOUBLE_EQ(result.verdict.communication_share, 50.0 / 70.0);
  EXPECT_TRUE(communication_kernel("ncclDevKernel_SendRecv"));
  // CUPTI gives mangled names: _Z<length><name>..., _ZN<length><name>...
  EXPECT_TRUE(communication_kernel("_Z21ncclDevKernel_Generic24ncclDevKernelArgsStorageILm4096EE"));
  EXPECT_TRUE(communication_kernel("_ZN38ncclKernel_AllReduce_RING_LL_Sum_floatE"));
  EXPECT_FALSE(communication_kernel("_Z13gemm_kernelv"));
  EXPECT_FALSE(communication_kernel("void at::native::reduce_kernel<>"));
}

TEST(Breakdown, OverlappingWindowsEachGetAllOfTheirOwnTime) {
  // Step 1 = [0, 100) and a nested step 2 = [50, 80). One kernel [40, 90) launched [0, 1).
  Timeline t;
  t.iterations = {{1, 0, 100}, {2, 50, 80}};
  t.launches = {launch(0, 1, 1)};
  t.ops = {op(40, 90, 7, 1)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  ASSERT_EQ(result.iterations.size(), 2u);
  // Step 1: [0,1) host-bound, [1,40) device-wait (pending from 1), [40,90) busy, [90,100) host-bound.
  EXPECT_EQ(result.iterations[0].gpu.busy_ns, 50);
  EXPECT_EQ(result.iterations[0].gpu.device_wait_ns, 39);
  EXPECT_EQ(result.iterations[0].gpu.host_bound_ns, 11);
  // Step 2 lies inside the kernel: all 30 ns busy. The launch (at 0) belongs to step 1.
  EXPECT_EQ(result.iterations[1].gpu.busy_ns, 30);
  // A sync starting at 60 lies in both steps: a blocking call of each.
  t.syncs = {sync(60, 61)};
  const PathBreakdown with_sync = analyze_timeline(t);
  EXPECT_EQ(with_sync.iterations[0].blocking_calls, 1u);
  EXPECT_EQ(with_sync.iterations[1].blocking_calls, 1u);
  EXPECT_EQ(result.iterations[1].gpu.ops, 1u);
  EXPECT_EQ(result.iterations[1].gpu.own_ops, 0u);
  EXPECT_EQ(result.iterations[0].gpu.own_ops, 1u);
}

TEST(Breakdown, AnEmptyWindowStartingWhereAnotherStartsTakesNothingFromIt) {
  // [0,100), [100,200) and the empty [100,100), in that input order. Sorted by (start, end) the empty one
  // comes first, so time from 100 on belongs to [100,200). Kernel [120,150) launched [100,101).
  Timeline t;
  t.iterations = {{0, 0, 100}, {1, 100, 200}, {2, 100, 100}};
  t.launches = {launch(100, 101, 1)};
  t.ops = {op(120, 150, 7, 1)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  ASSERT_EQ(result.iterations.size(), 3u);
  EXPECT_EQ(result.iterations[1].index, 2);  // the empty window
  EXPECT_EQ(result.iterations[1].wall_ns, 0);
  const IterationBreakdown& full = result.iterations[2];
  EXPECT_EQ(full.index, 1);
  EXPECT_EQ(full.launches, 1u);
  // [100,101) host-bound, [101,120) device-wait, [120,150) busy, [150,200) host-bound.
  EXPECT_EQ(full.gpu.busy_ns, 30);
  EXPECT_EQ(full.gpu.device_wait_ns, 19);
  EXPECT_EQ(full.gpu.host_bound_ns, 51);
}

TEST(Breakdown, ALaunchCallOverAHundredMicrosecondsIsLoadingNotLaunchOverhead) {
  // cudaLaunchKernel [0, 200 us) (the kernel's code loads on its first launch); the kernel runs
  // [250, 260) us. Window [0, 300) us.
  Timeline t;
  t.iterations = {{0, 0, 300'000}};
  t.launches = {launch(0, 200'000, 1)};
  t.ops = {op(250'000, 260'000, 7, 1)};
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  const IterationBreakdown& it = result.iterations.at(0);
  // Host-bound [0, 200 us) in the slow launch: other_api, not launch; [260, 300) us framework.
  EXPECT_EQ(it.host_states.other_api_ns, 200'000);
  EXPECT_EQ(it.host_states.launch_ns, 0);
  EXPECT_EQ(it.host_states.framework_ns, 40'000);
  // The host side still counts it as launch API time, all of it exposed.
  EXPECT_EQ(it.launch_api_ns, 200'000);
  EXPECT_EQ(it.launch_exposed_ns, 200'000);
  // At exactly 100 us it is still a launch.
  t.launches = {launch(0, kSlowLaunchNs, 1)};
  EXPECT_EQ(analyze_timeline(t).iterations.at(0).host_states.launch_ns, kSlowLaunchNs);
}

TEST(Breakdown, TheFullQueueIsJudgedPerDevice) {
  // Two devices, each with one graph launch of 600 kernels (pending from the launch's return at 10).
  Timeline t;
  t.iterations = {{0, 0, 100'000}};
  t.launches = {launch(0, 10, 1, LaunchKind::graph), launch(0, 10, 2, LaunchKind::graph)};
  for (std::uint64_t g = 1; g <= 2; ++g) {
    for (std::int64_t i = 0; i < 600; ++i) {
      DeviceOp o = op(100 + 10 * i, 110 + 10 * i, 7, g);
      o.device = static_cast<std::int32_t>(g - 1);
      t.ops.push_back(o);
    }
  }
  const PathBreakdown two = analyze_timeline(t);
  expect_identities(two);
  // [10, 100): 1,200 pending in all, 600 on each device: no device's queue is full.
  EXPECT_EQ(two.iterations.at(0).gpu.queue_max, 1200);
  EXPECT_EQ(two.iterations.at(0).device_queue_max, 600);
  EXPECT_EQ(two.summary.totals.full_queue_iterations, 0u);
  // The same 1,200 kernels on one device fill its queue.
  for (DeviceOp& o : t.ops) o.device = 0;
  const PathBreakdown one = analyze_timeline(t);
  EXPECT_EQ(one.iterations.at(0).device_queue_max, 1200);
  EXPECT_EQ(one.summary.totals.full_queue_iterations, 1u);
  EXPECT_EQ(one.verdict.queue_max, 1200);
}

TEST(Breakdown, HandlesAHundredThousandOps) {
  // Size check (no timing assertion): 100k ops over 100 iterations; identities hold, nothing is lost.
  Timeline t;
  const std::int64_t window_len = 1'000'000;
  for (int w = 0; w < 100; ++w) t.iterations.push_back({w, w * window_len, (w + 1) * window_len});
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::int64_t> start_dist(0, 100 * window_len - 1);
  for (std::uint64_t c = 1; c <= 100'000; ++c) {
    const std::int64_t start = start_dist(rng);
    t.launches.push_back(launch(start - 3000, start - 1000, c));
    t.ops.push_back(op(start, start + 2000, static_cast<std::int64_t>(c % 4), c, "k" + std::to_string(c % 50)));
  }
  const PathBreakdown result = analyze_timeline(t);
  expect_identities(result);
  std::size_t ops = 0;
  for (const auto& it : result.iterations) ops += it.gpu.own_ops;
  EXPECT_EQ(ops + result.analysis_counters.ops_outside_iterations, 100'000u);
  EXPECT_EQ(result.kernels.size(), 50u);
}

// CPU runs: kernels run on the calling thread, with no launch calls: nothing is ever queued.
TEST(BreakdownCpuTimeline, HostBoundEqualsDispatchAndNothingWaitsOnTheDevice) {
  Timeline t;
  t.ops_have_launches = false;
  t.iterations = {{0, 0, 100}};
  DeviceOp a;
  a.start_ns = 10;
  a.end_ns = 40;
  a.stream = 7;
  DeviceOp b = a;
  b.start_ns = 60;
  b.end_ns = 90;
  t.ops = {a, b};
  const PathBreakdown split = analyze_timeline(t);
  expect_identities(split);
  EXPECT_EQ(split.analysis_counters.ops_without_launch, 0u);
  const IterationBreakdown& it = split.iterations.at(0);
  // busy 60; idle 40, all host-bound (nothing pending before a kernel starts), all framework.
  EXPECT_EQ(it.gpu.busy_ns, 60);
  EXPECT_EQ(it.gpu.host_bound_ns, 40);
  EXPECT_EQ(it.gpu.device_wait_ns, 0);
  EXPECT_EQ(it.host_states.framework_ns, 40);
  ASSERT_TRUE(it.dispatch_ns.has_value());
  EXPECT_EQ(*it.dispatch_ns, 40);
  EXPECT_EQ(it.launch_api_ns, 0);
  EXPECT_TRUE(it.queue_delays_ns.empty());
  EXPECT_TRUE(split.summary.cpu_kernels);
  // busy 0.6 vs dispatch 0.4: busy leads by 0.2: compute-bound.
  EXPECT_EQ(split.verdict.verdict, Verdict::compute_bound);
  EXPECT_TRUE(split.verdict.cpu_kernels);

  t.ops_have_launches = true;  // the same ops from a GPU collector: no launch calls, no dispatch
  const PathBreakdown gpu = analyze_timeline(t);
  EXPECT_FALSE(gpu.iterations.at(0).dispatch_ns.has_value());
  EXPECT_EQ(gpu.analysis_counters.ops_without_launch, 2u);
  EXPECT_EQ(gpu.verdict.reason, VerdictReason::no_launches);
}

// AOTI's and torch.compile's CPU kernels for one graph differ only in their graph number and in how
// the GEMM is called: the diff matches them.
TEST(KernelSetDiffCanonical, MatchesTheSameKernelsUnderTheirPathSpecificNames) {
  const auto path_with = [](std::vector<std::pair<std::string, std::int64_t>> kernels) {
    Timeline t;
    t.ops_have_launches = false;
    t.iterations = {{0, 0, 1000}};
    std::int64_t x = 0;
    for (const auto& [name, duration] : kernels) {
      DeviceOp o;
      o.name = name;
      o.start_ns = x;
      o.end_ns = x + duration;
      x += duration;
      t.ops.push_back(o);
    }
    return analyze_timeline(t);
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
  EXPECT_EQ(diff.both[1].name, "cpp_fused_relu_0");
  EXPECT_DOUBLE_EQ(diff.both[1].count_per_iteration_b, 2.0);
  EXPECT_DOUBLE_EQ(diff.both[1].mean_ns_b, 30.0);
}

// sort_by_time is std::stable_sort by time: random times, in narrow and wide ranges (negative ones and
// int64's limits included, where a radix sort of offsets must not wrap), with many ties.
TEST(SortByTime, IsAStableSortByTime) {
  std::mt19937_64 rng(5);
  const std::vector<std::pair<std::int64_t, std::int64_t>> ranges = {
      {0, 3}, {1669783687505316000, 1669783687505316000 + 5000000000}, {-1000, 1000}, {0, 1 << 20},
      {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()}};
  for (const auto& [lo, hi] : ranges) {
    for (std::size_t size : {0, 1, 2, 17, 5000}) {
      std::uniform_int_distribution<std::int64_t> time(lo, hi);
      std::vector<TimelineEvent> events(size);
      for (std::size_t i = 0; i < size; ++i) {
        // a few distinct times often repeated, as a timeline's starts and ends are
        const std::int64_t t = i > 0 && rng() % 3 == 0 ? events[rng() % i].t : time(rng);
        events[i] = TimelineEvent{t, TimelineEvent::Kind::running, +1, static_cast<std::uint32_t>(i)};
      }
      std::vector<TimelineEvent> expected = events;
      std::stable_sort(expected.begin(), expected.end(),
                       [](const TimelineEvent& x, const TimelineEvent& y) { return x.t < y.t; });
      sort_by_time(events);
      ASSERT_EQ(events.size(), expected.size());
      for (std::size_t i = 0; i < size; ++i) {
        ASSERT_EQ(events[i].t, expected[i].t) << i << " of " << size << " in [" << lo << ", " << hi << "]";
        ASSERT_EQ(events[i].index, expected[i].index) << i << " of " << size << " in [" << lo << ", " << hi << "]";
      }
    }
  }
}

// Launch calls that share a correlation (docs/metrics.md): each op joins the earliest of them, the first
// in the timeline among equal starts; the others are counted. Calls out of correlation order included.
TEST(WindowSplit, AnOpJoinsTheEarliestCallOfItsCorrelation) {
  Timeline t;
  t.iterations = {{0, 0, 1000}};
  t.launches = {launch(50, 55, 7), launch(5, 8, 9), launch(20, 22, 7), launch(20, 30, 7), launch(40, 41, 3),
                launch(60, 61, 9)};
  t.ops = {op(100, 110, 1, 7), op(120, 130, 1, 9), op(140, 150, 1, 3), op(160, 170, 1, 4)};
  const WindowAttribution a(t);
  ASSERT_EQ(a.ops.size(), 4u);
  EXPECT_EQ(a.ops[0].launch, 2u);  // correlation 7: starts 50, 20, 20: the first call starting at 20
  EXPECT_EQ(a.ops[0].pending_ns, 22);
  EXPECT_EQ(a.ops[1].launch, 1u);  // correlation 9: starts 5 and 60
  EXPECT_EQ(a.ops[2].launch, 4u);
  EXPECT_EQ(a.ops[3].launch, kNoIndex);  // no call has correlation 4
  EXPECT_EQ(a.counters.duplicate_launch_correlations, 3u);
  EXPECT_EQ(a.counters.ops_without_launch, 1u);
}

// The shared attribution and timeline walk (window_split.hpp) that analyze_timeline and --export-trace use.
TEST(WindowSplit, TracksTileEachWindowAndAddUpToTheAnalysis) {
  // The cross-stream case of the first test: window [0, 200).
  Timeline t;
  t.iterations = {{0, 0, 200}};
  t.launches = {launch(0, 5, 1), launch(5, 8, 2), launch(8, 9, 3)};
  t.ops = {op(10, 50, 1, 1), op(80, 120, 2, 2), op(60, 80, 1, 3), op(0, 0, 1, 4)};
  const WindowAttribution a(t);
  EXPECT_EQ(a.ops.size(), 3u);
  EXPECT_EQ(a.counters.ops_without_timestamps, 1u);
  ASSERT_EQ(a.streams.size(), 2u);
  EXPECT_EQ(a.own_ops(0).size(), 3u);
  EXPECT_EQ(a.own_ops(0, 0).size(), 2u);
  const std::vector<WindowTracks> tracks = window_tracks(a);
  ASSERT_EQ(tracks.size(), 1u);
  using V = std::vector<std::tuple<SplitSegmentKind, std::int64_t, std::int64_t>>;
  const auto flat = [](const SplitTrack& track) {
    V out;
    for (const auto& s : track.segments) out.emplace_back(s.kind, s.start_ns, s.end_ns);
    return out;
  };
  using K = SplitSegmentKind;
  EXPECT_EQ(flat(tracks[0].gpu), (V{{K::host_bound, 0, 5}, {K::device_wait, 5, 10}, {K::busy, 10, 50},
                                   {K::device_wait, 50, 60}, {K::busy, 60, 120}, {K::host_bound, 120, 200}}));
  EXPECT_EQ(flat(tracks[0].streams[1]),
            (V{{K::host_bound, 0, 8}, {K::device_wait, 8, 80}, {K::busy, 80, 120}, {K::host_bound, 120, 200}}));
  // Queue depth at each change: 0, 1 at 5, 2 at 8, 3 at 9, 2 at 50, 1 at 80, 0 at 120.
  std::vector<std::pair<std::int64_t, std::int64_t>> queue;
  for (const auto& q : tracks[0].queue) queue.emplace_back(q.t_ns, q.depth);
  EXPECT_EQ(queue, (std::vector<std::pair<std::int64_t, std::int64_t>>{
                       {0, 0}, {5, 1}, {8, 2}, {9, 3}, {50, 2}, {80, 1}, {120, 0}}));
}

// Collectives (docs/ranks.md, "The rank digest"): the communication kernels whose start lies in a window,
// with their window's index and their position on their stream in it; one that starts outside every
// window is left out, whoever launched it.
TEST(Collectives, AreTheCommunicationKernelsOfEachWindowNumberedPerStream) {
  Timeline t;
  t.iterations = {{551, 0, 1000}, {552, 1000, 2000}};
  const auto comm = [](std::int64_t start, std::int64_t end, std::int64_t stream, std::uint64_t correlation) {
    DeviceOp o = op(start, end, stream, correlation, "ncclKernel_AllReduce_RING_LL_Sum_float");
    o.communication = true;
    return o;
  };
  t.ops = {comm(300, 400, 7, 3), op(100, 200, 7, 1), comm(150, 250, 7, 2), comm(200, 1200, 9, 4),
           comm(1100, 1300, 7, 5), comm(2100, 2200, 7, 6)};
  for (std::uint64_t c = 1; c <= 6; ++c) t.launches.push_back(launch(10 * static_cast<std::int64_t>(c), 10 * static_cast<std::int64_t>(c) + 5, c));
  const PathBreakdown result = analyze_timeline(t);
  ASSERT_EQ(result.collectives.size(), 4u);
  const auto expect = [&](std::size_t i, std::int64_t step, std::int64_t stream, std::size_t ordinal, std::int64_t start,
                          std::int64_t duration) {
    const CollectiveOp& c = result.collectives[i];
    EXPECT_EQ(c.step, step) << i;
    EXPECT_EQ(c.stream.stream, stream) << i;
    EXPECT_EQ(c.ordinal, ordinal) << i;
    EXPECT_EQ(c.start_ns, start) << i;
    EXPECT_EQ(c.duration_ns, duration) << i;
  };
  expect(0, 551, 7, 0, 150, 100);   // the plain kernel at 100 is not a collective
  expect(1, 551, 7, 1, 300, 100);
  expect(2, 551, 9, 0, 200, 1000);  // its duration unclipped, though it runs into step 552
  expect(3, 552, 7, 0, 1100, 200);  // the one at 2100 starts after the last window
}

// A repeated ProfilerStep number: the step is its first window; the second one's collectives are not
// the step's (they would continue its ordinals).
TEST(Collectives, ARepeatedStepNumberKeepsItsFirstWindowsOnly) {
  Timeline t;
  t.iterations = {{7, 0, 1000}, {7, 1000, 2000}};
  for (std::uint64_t c : {1, 2}) {
    DeviceOp o = op(c == 1 ? 100 : 1100, c == 1 ? 200 : 1200, 7, c, "ncclDevKernel_AllGather");
    o.communication = true;
    t.ops.push_back(o);
    t.launches.push_back(launch(10 * static_cast<std::int64_t>(c), 10 * static_cast<std::int64_t>(c) + 5, c));
  }
  const PathBreakdown result = analyze_timeline(t);
  ASSERT_EQ(result.collectives.size(), 1u);
  EXPECT_EQ(result.collectives[0].start_ns, 100);
}

}  // namespace
}  // namespace ohprof
