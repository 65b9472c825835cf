// The join of CUPTI's records into a Timeline (src/collectors/cupti_join.cpp), on its own: plain records
// built here in, the Timeline out. No CUPTI call. Every expected line is written by hand from the records.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/collectors/cupti_join.hpp"
#include "timeline_lines.hpp"

namespace ohprof {
namespace {

using namespace cupti_test;
using Lines = std::vector<std::string>;

constexpr std::uint64_t kSession = 2;

// ActivityRecords written by hand, as reading CUPTI's buffers would give them.
struct Records {
  ActivityRecords r;

  Records& api(ApiDomain domain, std::optional<LaunchKind> launch, const std::string& name, std::int64_t start,
               std::int64_t end, std::uint32_t thread, std::uint32_t correlation) {
    std::uint32_t index = 0;
    while (index < r.api_names.size() && r.api_names[index] != name) ++index;
    if (index == r.api_names.size()) r.api_names.push_back(name);
    r.apis.push_back(ApiRecord{domain, launch, index, start, end, thread, correlation});
    return *this;
  }
  Records& launch(const std::string& name, std::int64_t start, std::int64_t end, std::uint32_t thread,
                  std::uint32_t correlation, LaunchKind kind = LaunchKind::kernel) {
    return api(ApiDomain::runtime, kind, name, start, end, thread, correlation);
  }
  Records& call(const std::string& name, std::int64_t start, std::int64_t end, std::uint32_t thread,
                std::uint32_t correlation) {
    return api(ApiDomain::runtime, std::nullopt, name, start, end, thread, correlation);
  }
  Records& op(const std::string& name, std::int64_t start, std::int64_t end, std::uint32_t correlation,
              std::uint32_t graph_id = 0) {
    DeviceOp o;
    o.kind = DeviceOpKind::kernel;
    o.name = name;
    o.start_ns = start;
    o.end_ns = end;
    o.stream = 7;
    o.correlation = correlation;
    o.graph_id = graph_id;
    r.ops.push_back(o);
    return *this;
  }
  Records& sync(std::int64_t start, std::int64_t end, std::uint32_t correlation, bool stream_wait = false,
                const char* type = "stream synchronize") {
    r.syncs.push_back(SyncRecord{stream_wait, type, start, end, correlation});
    return *this;
  }
  Records& tag(std::uint32_t correlation, std::int64_t iteration, bool warmup = false, std::uint64_t session = kSession) {
    r.tags[correlation] = encode_iteration_tag(session, iteration, warmup);
    return *this;
  }
  CuptiCollection join() { return join_records(r, kSession, 0, {}); }
};

TEST(CuptiJoin, TheTagEncodesSessionWarmUpAndIteration) {
  ActivityRecords r;
  r.tags[1] = encode_iteration_tag(2, 5, false);
  r.tags[2] = encode_iteration_tag(2, 6, true);
  r.tags[3] = encode_iteration_tag(3, 5, false);
  EXPECT_EQ(encode_iteration_tag(2, 5, false), (std::uint64_t{2} << 48) | 5);
  EXPECT_EQ(encode_iteration_tag(2, 6, true), (std::uint64_t{2} << 48) | (std::uint64_t{1} << 47) | 6);
  const TagPlace measured = place_of(r, 1, 2);
  EXPECT_EQ(measured.kind, TagPlace::Kind::measured);
  EXPECT_EQ(measured.index, 5);
  const TagPlace warmup = place_of(r, 2, 2);
  EXPECT_EQ(warmup.kind, TagPlace::Kind::warmup);
  EXPECT_EQ(warmup.index, 6);
  EXPECT_EQ(place_of(r, 3, 2).kind, TagPlace::Kind::other_session);
  EXPECT_EQ(place_of(r, 3, 3).kind, TagPlace::Kind::measured);
  EXPECT_EQ(place_of(r, 4, 2).kind, TagPlace::Kind::untagged);
}

TEST(CuptiJoin, EachRecordGoesToTheIterationOfItsTagWarmUpsAreCountedOtherSessionsLeftOut) {
  Records in;
  in.launch("cudaLaunchKernel", 100, 110, 1, 1).op("a", 200, 300, 1).tag(1, 0);
  in.launch("cudaLaunchKernel", 400, 410, 1, 2).op("b", 500, 600, 2).tag(2, 1);
  in.launch("cudaLaunchKernel", 10, 20, 1, 3).op("w", 30, 40, 3).tag(3, 0, /*warmup=*/true);
  in.launch("cudaLaunchKernel", 700, 710, 1, 4).op("late", 720, 730, 4).tag(4, 0, false, /*session=*/1);
  in.launch("cudaLaunchKernel", 800, 810, 1, 5).op("untagged", 820, 830, 5);
  const CuptiCollection out = in.join();
  EXPECT_EQ(lines(out.timeline.launches),
            (Lines{"kernel 100-110 t1 c1 it0 cudaLaunchKernel", "kernel 400-410 t1 c2 it1 cudaLaunchKernel",
                   "kernel 800-810 t1 c5 it- cudaLaunchKernel"}));
  EXPECT_EQ(lines(out.timeline.ops), (Lines{"kernel 200-300 dev0 s7 c1 g0 b0 a", "kernel 500-600 dev0 s7 c2 g0 b0 b",
                                            "kernel 820-830 dev0 s7 c5 g0 b0 untagged"}));
  EXPECT_EQ(out.warmup_records, 2u);  // the warm-up's launch and its kernel
  EXPECT_EQ(out.timeline.counters.ops_without_launch, 0u);
}

TEST(CuptiJoin, TwoLaunchCallsUnderOneIdAreOneLaunchTheOuterCall) {
  Records in;
  in.launch("cudaLaunchKernel", 100, 200, 1, 1).api(ApiDomain::driver, LaunchKind::kernel, "cuLaunchKernel", 120, 180, 1, 1);
  in.op("k", 300, 400, 1).tag(1, 0);
  const CuptiCollection out = in.join();
  EXPECT_EQ(lines(out.timeline.launches), (Lines{"kernel 100-200 t1 c1 it0 cudaLaunchKernel"}));
  EXPECT_TRUE(out.timeline.api_calls.empty());
}

TEST(CuptiJoin, ADriverLaunchInsideARuntimeLaunchUnderItsOwnIdIsTheSameLaunch) {
  Records in;
  // The runtime launch (id 10) carries the kernel; the driver call it made got id 11 and carries nothing.
  in.launch("cudaLaunchKernel", 100, 200, 7, 10).op("k", 300, 400, 10);
  in.api(ApiDomain::driver, LaunchKind::kernel, "cuLaunchKernel", 110, 190, 7, 11);
  // The same shape on another thread is not inside it: a launch of its own.
  in.api(ApiDomain::driver, LaunchKind::kernel, "cuLaunchKernel", 120, 180, 8, 12);
  // An internal launch inside it, carrying no work under its own id, is the same launch too.
  in.api(ApiDomain::internal, LaunchKind::kernel, "internal launch", 140, 150, 7, 14);
  // A driver launch inside the runtime call that carries work of its own is a launch too.
  in.api(ApiDomain::driver, LaunchKind::kernel, "cuLaunchKernel", 130, 170, 7, 13).op("k2", 500, 600, 13);
  const CuptiCollection out = in.join();
  EXPECT_EQ(lines(out.timeline.launches),
            (Lines{"kernel 100-200 t7 c10 it- cudaLaunchKernel", "kernel 120-180 t8 c12 it- cuLaunchKernel",
                   "kernel 130-170 t7 c13 it- cuLaunchKernel"}));
  EXPECT_TRUE(out.timeline.api_calls.empty());  // id 11 is neither a launch nor another API call
}

TEST(CuptiJoin, AnUnlistedCallThatEnqueuedWorkIsALaunchOfKindOther) {
  Records in;
  in.call("cudaLaunchHostFunc", 100, 110, 1, 20).op("k", 200, 300, 20);
  in.call("cudaGetLastError", 120, 121, 1, 21);
  const CuptiCollection out = in.join();
  EXPECT_EQ(lines(out.timeline.launches), (Lines{"other 100-110 t1 c20 it- cudaLaunchHostFunc"}));
  EXPECT_EQ(lines(out.timeline.api_calls), (Lines{"120-121 t1 cudaGetLastError"}));
  EXPECT_EQ(out.timeline.counters.ops_without_launch, 0u);
}

TEST(CuptiJoin, OpsWithoutTimestampsAreCountedAndLeftOutOpsWithoutALaunchCountedAndKept) {
  Records in;
  in.launch("cudaLaunchKernel", 100, 110, 1, 1).op("lost", 0, 0, 1);
  in.op("orphan", 200, 300, 2);
  const CuptiCollection out = in.join();
  EXPECT_EQ(out.timeline.counters.ops_without_timestamps, 1u);
  EXPECT_EQ(out.timeline.counters.ops_without_launch, 1u);
  EXPECT_EQ(lines(out.timeline.ops), (Lines{"kernel 200-300 dev0 s7 c2 g0 b0 orphan"}));
}

TEST(CuptiJoin, ABlockingCopyCallIsMarkedSynchronous) {
  Records in;
  in.launch("cudaMemcpy", 100, 300, 1, 1, LaunchKind::memcpy).launch("cudaMemcpyAsync", 400, 410, 1, 2, LaunchKind::memcpy);
  const CuptiCollection out = in.join();
  ASSERT_EQ(out.timeline.launches.size(), 2u);
  EXPECT_TRUE(out.timeline.launches[0].synchronous);
  EXPECT_FALSE(out.timeline.launches[1].synchronous);
}

TEST(CuptiJoin, SynchronisationsTakeTheirCallsNameAndThreadAndTheLastOfEachIterationIsTheHarnesss) {
  Records in;
  // Iteration 0: a model sync, then the harness's; iteration 1: one sync only.
  in.call("cudaStreamSynchronize", 100, 150, 3, 1).sync(105, 148, 1).tag(1, 0);
  in.call("cudaDeviceSynchronize", 200, 260, 3, 2).sync(205, 255, 2, false, "context synchronize").tag(2, 0);
  in.call("cudaDeviceSynchronize", 300, 360, 3, 3).sync(305, 355, 3, false, "context synchronize").tag(3, 1);
  // Lost timestamps: the call's own times.
  in.call("cudaEventSynchronize", 400, 420, 4, 4).sync(0, 0, 4, false, "event synchronize");
  // Lost timestamps and no call: of no use.
  in.sync(0, 0, 5);
  // No call: the sync's type names it. Untagged: never the harness's.
  in.sync(500, 510, 6, false, "stream synchronize");
  // A stream wait blocks no host: its call stays an API call.
  in.call("cudaStreamWaitEvent", 600, 601, 3, 7).sync(600, 601, 7, /*stream_wait=*/true, "stream wait event");
  const CuptiCollection out = in.join();
  EXPECT_EQ(lines(out.timeline.syncs),
            (Lines{"105-148 t3 cudaStreamSynchronize", "205-255 t3 cudaDeviceSynchronize harness",
                   "305-355 t3 cudaDeviceSynchronize harness", "400-420 t4 cudaEventSynchronize",
                   "500-510 t0 stream synchronize"}));
  EXPECT_EQ(lines(out.timeline.api_calls), (Lines{"600-601 t3 cudaStreamWaitEvent"}));
}

TEST(CuptiJoin, EveryOtherCallIsOneApiCallPerIdTheOuterOne) {
  Records in;
  in.call("cudaMalloc", 100, 200, 1, 1).api(ApiDomain::driver, std::nullopt, "cuMemAlloc_v2", 110, 190, 1, 1).tag(1, 0);
  in.call("cudaEventRecord", 300, 310, 2, 2).tag(2, 0, true);  // a warm-up's: counted
  in.call("cudaFree", 50, 60, 1, 3);
  const CuptiCollection out = in.join();
  EXPECT_EQ(lines(out.timeline.api_calls), (Lines{"50-60 t1 cudaFree", "100-200 t1 cudaMalloc"}));
  EXPECT_EQ(out.warmup_records, 1u);
}

TEST(CuptiJoin, ListsAreSortedByStartAndOverheadsAndWarningsMoveIntoTheCollection) {
  Records in;
  in.launch("cudaLaunchKernel", 300, 310, 1, 3).op("c", 900, 950, 3);
  in.launch("cudaLaunchKernel", 100, 110, 1, 1).op("a", 500, 600, 1);
  in.launch("cudaLaunchKernel", 200, 210, 1, 2).op("b", 500, 550, 2);
  in.r.overheads = {CuptiOverhead{"cupti buffer flush", 80, 90}, CuptiOverhead{"lazy function loading", 10, 20}};
  in.r.warnings = {Warning{WarningCode::cupti_buffer_unreadable, "x"}};
  const CuptiCollection out = join_records(in.r, kSession, 4, {IterationWindow{0, 1, 2}});
  EXPECT_EQ(lines(out.timeline.launches),
            (Lines{"kernel 100-110 t1 c1 it- cudaLaunchKernel", "kernel 200-210 t1 c2 it- cudaLaunchKernel",
                   "kernel 300-310 t1 c3 it- cudaLaunchKernel"}));
  EXPECT_EQ(lines(out.timeline.ops), (Lines{"kernel 500-550 dev0 s7 c2 g0 b0 b", "kernel 500-600 dev0 s7 c1 g0 b0 a",
                                            "kernel 900-950 dev0 s7 c3 g0 b0 c"}));
  ASSERT_EQ(out.overheads.size(), 2u);
  EXPECT_EQ(out.overheads[0].kind, "lazy function loading");
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(out.timeline.counters.dropped_records, 4u);
  ASSERT_EQ(out.timeline.iterations.size(), 1u);
  EXPECT_EQ(out.timeline.iterations[0].end_ns, 2);
}

TEST(CuptiJoin, GraphWorkCountsEachGraphLaunchOnceAndEveryOpOfAGraph) {
  Records in;
  in.launch("cudaGraphLaunch", 100, 200, 1, 1, LaunchKind::graph)
      .api(ApiDomain::driver, LaunchKind::graph, "cuGraphLaunch", 110, 190, 1, 1);  // the same launch
  in.launch("cudaGraphLaunch", 300, 400, 1, 2, LaunchKind::graph).tag(2, 0, false, /*session=*/1);  // another session's too
  in.op("g1", 500, 510, 1, 9).op("g2", 520, 530, 1, 9).op("plain", 540, 550, 3);
  const GraphWork work = graph_work(in.r);
  EXPECT_EQ(work.launches, 2u);
  EXPECT_EQ(work.ops, 2u);
  EXPECT_EQ(graph_work(ActivityRecords{}).launches, 0u);
}

}  // namespace
}  // namespace ohprof
