// The CUPTI collector's real code against the fake CUPTI (test/fake_cupti): scripted buffers of real
// CUDA 13 record structs in, the exact Timeline out. Every expected value below is written by hand from
// the records the test builds; none is copied from the collector's output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cupti_record_builders.hpp"
#include "fake_cupti.hpp"
#include "timeline_lines.hpp"
#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/base/clock.hpp"
#include "ohprof/collectors/cupti_collector.hpp"
#include "ohprof/harness/measurement_loop.hpp"

namespace ohprof {
namespace {

using namespace cupti_test;  // the record builders and lines()

class CuptiCollectorTest : public ::testing::Test {
 protected:
  void SetUp() override { fake_cupti::reset(); }
  void TearDown() override {
    // Every buffer the collector handed CUPTI was zeroed, as it told CUPTI they would be.
    EXPECT_EQ(fake_cupti::unzeroed_buffers(), 0u);
    fake_cupti::reset();
  }

  // One measured iteration (no warm-up) under `collector`, then the records `fill(buffer, tag)` adds
  // (tag: the iteration's external id) delivered at the flush: the collection.
  static Result<CuptiCollection> collect_one_iteration(
      CuptiCollector& collector, const std::function<void(fake_cupti::Buffer&, std::uint64_t)>& fill) {
    LoopResult loop;
    if (Status s = run_measurement_loop(LoopConfig{0, 1}, [] { return ok_status(); }, {&collector}, loop); !s.ok()) {
      return s.error();
    }
    fake_cupti::Buffer buffer;
    fill(buffer, fake_cupti::pushed_ids().at(0));
    fake_cupti::deliver_at_flush(buffer);
    return collector.finish(loop.iterations);
  }

  static std::unique_ptr<CuptiCollector> make_collector() {
    auto collector = CuptiCollector::create(CuptiOptions{.device_present = true});
    EXPECT_TRUE(collector.ok()) << (collector.ok() ? "" : collector.error().message);
    return collector.ok() ? std::move(collector.value()) : nullptr;
  }
};

// ---- setting CUPTI up and putting it back -----------------------------------------------------------

TEST_F(CuptiCollectorTest, EnablesTheConcurrentKindsAndNeverTheSerialisingKernelKind) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  const std::vector<CUpti_ActivityKind> expected = {
      CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,          CUPTI_ACTIVITY_KIND_MEMSET,
      CUPTI_ACTIVITY_KIND_RUNTIME,           CUPTI_ACTIVITY_KIND_DRIVER,          CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
      CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, CUPTI_ACTIVITY_KIND_OVERHEAD, CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API};
  EXPECT_EQ(fake_cupti::ever_enabled(), expected);
  const auto enabled = fake_cupti::enabled_kinds();
  EXPECT_EQ(std::count(enabled.begin(), enabled.end(), CUPTI_ACTIVITY_KIND_KERNEL), 0);
  EXPECT_TRUE(fake_cupti::subscribed());
  EXPECT_EQ(fake_cupti::subscriber_name(), "ohprof");
  EXPECT_TRUE(fake_cupti::timestamp_callback_registered_before_first_enable());

  collector.reset();  // never finished: stop recording, force the rest out, let CUPTI go
  EXPECT_TRUE(fake_cupti::enabled_kinds().empty());
  EXPECT_FALSE(fake_cupti::subscribed());
  EXPECT_EQ(fake_cupti::flush_flags(), std::vector<std::uint32_t>{CUPTI_ACTIVITY_FLAG_FLUSH_FORCED});
}

TEST_F(CuptiCollectorTest, RegistersOneMonotonicTimestampCallbackPerProcess) {
  for (int i = 0; i < 3; ++i) {
    auto collector = make_collector();
    ASSERT_TRUE(collector);
  }
  EXPECT_EQ(fake_cupti::timestamp_callback_registrations(), 1);
  EXPECT_TRUE(fake_cupti::timestamp_callback_registered_before_first_enable());
  // CUPTI's timestamps are ohprof's monotonic clock, the one iterations are stamped with.
  const std::int64_t before = monotonic_now_ns();
  const auto stamp = static_cast<std::int64_t>(fake_cupti::call_timestamp_callback());
  const std::int64_t after = monotonic_now_ns();
  EXPECT_LE(before, stamp);
  EXPECT_LE(stamp, after);
}

// torch's profiler registered its own buffer callbacks after an earlier collector: the next collector
// registers again, and gets the buffers.
TEST_F(CuptiCollectorTest, ReRegistersTheBufferCallbacksAtEveryStart) {
  { auto first = make_collector(); }
  fake_cupti::register_foreign_callbacks();
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  auto collection = collect_one_iteration(*collector, [](fake_cupti::Buffer& buffer, std::uint64_t m0) {
    buffer.add(tag(m0, 5))
        .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 100, 200, 77, 5))
        .add(kernel("k", 300, 400, 0, 7, 5));
  });
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  EXPECT_EQ(collection->timeline.ops.size(), 1u);
  EXPECT_EQ(fake_cupti::timestamp_callback_registrations(), 1);  // still once per process
}

TEST_F(CuptiCollectorTest, HandsCuptiBuffersZeroedBeforeTheRunAndCountsTheOnesZeroedInIt) {
  auto created = CuptiCollector::create(
      CuptiOptions{.device_present = true, .buffer_bytes = 64 * 1024, .prepared_buffers = 2});
  ASSERT_TRUE(created.ok()) << created.error().message;
  auto& collector = *created;
  // CUPTI is told not to zero buffers itself (it would, on the thread that fills them), before recording.
  EXPECT_EQ(fake_cupti::attribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER), std::optional<std::uint64_t>(1));
  EXPECT_TRUE(fake_cupti::zeroed_attribute_set_before_first_enable());
  // Three buffers fill during the run: two were prepared, the third is zeroed when CUPTI asks for it.
  for (std::uint32_t i = 0; i < 3; ++i) {
    fake_cupti::Buffer buffer;
    buffer.add(kernel("k", 1000 + 10 * i, 1005 + 10 * i, 0, 7, 100 + i));
    fake_cupti::deliver_now(buffer);
  }
  auto collection = collector->finish({});
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  EXPECT_EQ(collection->timeline.ops.size(), 3u);
  EXPECT_EQ(collection->buffers_zeroed_in_run, 1u);
  EXPECT_EQ(collection->warnings,
            (std::vector<Warning>{{WarningCode::cupti_buffers_zeroed_in_run,
                                   "CUPTI needed 1 more activity buffer(s) than the 2 prepared before the run; each "
                                   "was allocated and zeroed on the thread that asked for it, a stall inside an "
                                   "iteration"}}));
}

TEST_F(CuptiCollectorTest, OnlyOneCollectorAtATime) {
  auto first = make_collector();
  ASSERT_TRUE(first);
  auto second = CuptiCollector::create(CuptiOptions{.device_present = true});
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().code, ExitCode::internal_error);
  first.reset();
  auto third = make_collector();
  EXPECT_TRUE(third);
}

TEST_F(CuptiCollectorTest, SurvivesBufferCallbacksFromInsideCuptiCalls) {
  // Would deadlock if the collector held its lock across a CUPTI call.
  for (const char* function : {"cuptiActivityEnable", "cuptiActivityDisable", "cuptiActivityFlushAll",
                               "cuptiActivityPushExternalCorrelationId", "cuptiActivityPopExternalCorrelationId",
                               "cuptiActivityGetNumDroppedRecords"}) {
    fake_cupti::call_buffer_callbacks_inside(function);
  }
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  LoopResult loop;
  ASSERT_TRUE(run_measurement_loop(LoopConfig{1, 1}, [] { return ok_status(); }, {collector.get()}, loop).ok());
  auto collection = collector->finish(loop.iterations);
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  EXPECT_TRUE(collection->timeline.ops.empty());
  EXPECT_GT(fake_cupti::buffers_requested(), 8u);
}

// ---- degrading honestly -----------------------------------------------------------------------------

TEST_F(CuptiCollectorTest, NoDeviceMeansNoCuptiCallAtAll) {
  auto collector = CuptiCollector::create(CuptiOptions{.device_present = false});
  ASSERT_FALSE(collector.ok());
  EXPECT_EQ(collector.error().code, ExitCode::device_unavailable);
  EXPECT_EQ(collector.error().message, "no CUDA device");
  EXPECT_TRUE(fake_cupti::calls().empty());
}

TEST_F(CuptiCollectorTest, NamesTheToolThatHoldsCupti) {
  fake_cupti::hold_cupti("Nsight Systems");
  auto collector = CuptiCollector::create(CuptiOptions{.device_present = true});
  ASSERT_FALSE(collector.ok());
  EXPECT_EQ(collector.error().code, ExitCode::device_unavailable);
  EXPECT_EQ(collector.error().message,
            "another tool holds CUPTI (CUPTI reports 'Nsight Systems'); ohprof cannot trace the GPU in this "
            "process. Under Nsight Systems run ohprof with --no-cupti; otherwise stop the other profiler");
  EXPECT_TRUE(fake_cupti::ever_enabled().empty());
  EXPECT_TRUE(fake_cupti::flush_flags().empty());  // the holder's buffers are left alone
}

TEST_F(CuptiCollectorTest, SaysWhoMayHoldCuptiWhenCuptiDoesNotName) {
  fake_cupti::hold_cupti("");
  auto collector = CuptiCollector::create(CuptiOptions{.device_present = true});
  ASSERT_FALSE(collector.ok());
  EXPECT_EQ(collector.error().message,
            "another tool holds CUPTI (for example Nsight Systems or PyTorch's profiler); ohprof cannot trace the "
            "GPU in this process. Under Nsight Systems run ohprof with --no-cupti; otherwise stop the other profiler");
}

TEST_F(CuptiCollectorTest, AMachineWithoutAGpuGivesTracingUnavailableAndLeavesCuptiClean) {
  // What CUDA 13 CUPTI does where the driver finds no GPU: enabling any kind returns CUPTI_ERROR_UNKNOWN.
  fake_cupti::fail("cuptiActivityEnable", CUPTI_ERROR_UNKNOWN);
  auto collector = CuptiCollector::create(CuptiOptions{.device_present = true});
  ASSERT_FALSE(collector.ok());
  EXPECT_EQ(collector.error().code, ExitCode::device_unavailable);
  EXPECT_EQ(collector.error().message, "tracing unavailable: CUPTI_ERROR_UNKNOWN (enabling CONCURRENT_KERNEL activity)");
  EXPECT_FALSE(fake_cupti::subscribed());
  // And the next attempt is not blocked by the failed one.
  fake_cupti::reset();
  EXPECT_TRUE(make_collector());
}

TEST_F(CuptiCollectorTest, AKindThatCannotBeEnabledUndoesTheOthers) {
  fake_cupti::fail_enable_of(CUPTI_ACTIVITY_KIND_OVERHEAD, CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
  auto collector = CuptiCollector::create(CuptiOptions{.device_present = true});
  ASSERT_FALSE(collector.ok());
  EXPECT_EQ(collector.error().message,
            "tracing unavailable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (enabling OVERHEAD activity)");
  EXPECT_EQ(fake_cupti::ever_enabled().size(), 7u);
  EXPECT_TRUE(fake_cupti::enabled_kinds().empty());
  EXPECT_FALSE(fake_cupti::subscribed());
}

TEST_F(CuptiCollectorTest, SubscribeFailureIsTracingUnavailable) {
  fake_cupti::fail("cuptiSubscribe_v2", CUPTI_ERROR_NOT_INITIALIZED);
  auto collector = CuptiCollector::create(CuptiOptions{.device_present = true});
  ASSERT_FALSE(collector.ok());
  EXPECT_EQ(collector.error().message, "tracing unavailable: CUPTI_ERROR_NOT_INITIALIZED (cuptiSubscribe_v2)");
}

TEST_F(CuptiCollectorTest, AFailedIterationTagMakesTheCollectionUnusable) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  fake_cupti::fail("cuptiActivityPushExternalCorrelationId", CUPTI_ERROR_UNKNOWN);
  LoopResult loop;
  ASSERT_TRUE(run_measurement_loop(LoopConfig{0, 2}, [] { return ok_status(); }, {collector.get()}, loop).ok());
  EXPECT_EQ(fake_cupti::correlation_stack_depth(), 0);  // nothing pushed, nothing popped
  auto collection = collector->finish(loop.iterations);
  ASSERT_FALSE(collection.ok());
  EXPECT_EQ(collection.error().message, "tracing unavailable: CUPTI_ERROR_UNKNOWN (tagging measured iteration 0)");
  EXPECT_TRUE(fake_cupti::enabled_kinds().empty());
}

TEST_F(CuptiCollectorTest, AFailedFlushIsReported) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  fake_cupti::fail("cuptiActivityFlushAll", CUPTI_ERROR_UNKNOWN);
  auto collection = collector->finish({});
  ASSERT_FALSE(collection.ok());
  EXPECT_EQ(collection.error().message, "tracing unavailable: CUPTI_ERROR_UNKNOWN (flushing the activity buffers)");
  EXPECT_TRUE(fake_cupti::enabled_kinds().empty());
  EXPECT_FALSE(fake_cupti::subscribed());
}

TEST_F(CuptiCollectorTest, FinishTwiceIsAnError) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  ASSERT_TRUE(collector->finish({}).ok());
  auto again = collector->finish({});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, ExitCode::internal_error);
}

// ---- iteration tags -----------------------------------------------------------------------------

TEST_F(CuptiCollectorTest, TagsEveryIterationWithItsOwnCustom2Id) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  std::vector<int> depth_inside;
  LoopResult loop;
  ASSERT_TRUE(run_measurement_loop(
                  LoopConfig{2, 3},
                  [&] {
                    depth_inside.push_back(fake_cupti::correlation_stack_depth());
                    return ok_status();
                  },
                  {collector.get()}, loop)
                  .ok());
  EXPECT_EQ(depth_inside, (std::vector<int>{1, 1, 1, 1, 1}));  // the model always runs tagged
  EXPECT_EQ(fake_cupti::correlation_stack_depth(), 0);
  const auto kinds = fake_cupti::pushed_kinds();
  ASSERT_EQ(kinds.size(), 5u);
  EXPECT_TRUE(std::all_of(kinds.begin(), kinds.end(),
                          [](auto kind) { return kind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2; }));
  auto ids = fake_cupti::pushed_ids();
  // Warm-up 0/1 and measured 0/1/2: five distinct ids, so a warm-up record never passes for a measured one.
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::unique(ids.begin(), ids.end()), ids.end());
}

// ---- records in, Timeline out ------------------------------------------------------------------------

// One warm-up and two measured iterations of a model that launches through the runtime API (ATen), the
// driver API (Triton/AOTI) and a CUDA graph, copies, fills and synchronises. Records of one iteration are
// split across buffers, and buffers arrive out of order (one during the run, from CUPTI's thread).
TEST_F(CuptiCollectorTest, BuildsTheExactTimelineAndAttributesEveryRecordToItsIteration) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);

  // The loop; during measured iteration 1 CUPTI hands over a full buffer (the warm-up's records).
  int calls = 0;
  LoopResult loop;
  ASSERT_TRUE(run_measurement_loop(
                  LoopConfig{1, 2},
                  [&] {
                    if (++calls == 3) {
                      const std::uint64_t w0 = fake_cupti::pushed_ids().at(0);
                      fake_cupti::Buffer during;
                      during.add(tag(w0, 5))
                          .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 100, 200, 77, 5))
                          .add(kernel("warmup_kernel", 300, 400, 0, 7, 5));
                      fake_cupti::deliver_now(during);
                    }
                    return ok_status();
                  },
                  {collector.get()}, loop)
                  .ok());
  const auto ids = fake_cupti::pushed_ids();
  ASSERT_EQ(ids.size(), 3u);
  const std::uint64_t m0 = ids[1];
  const std::uint64_t m1 = ids[2];

  // Records that were dropped since the collector started.
  fake_cupti::set_dropped_records(5);

  // Delivered at the final flush: B first, then A. Iteration 0's launch of correlation 10 is in B and
  // its tag and kernel in A; correlation 11's kernel is in B and its launch in A; the graph's kernels are
  // split between both.
  fake_cupti::Buffer b;
  b.add(kernel("triton_poi_fused_add_0", 2700, 2900, 0, 7, 11))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1000, 1400, 77, 10))
      // the driver call the runtime made inside cudaLaunchKernel, same correlation: not a second launch
      .add(driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 1100, 1300, 77, 10))
      .add(tag(m0, 12))
      .add(copy(CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, 8192, 3000, 3100, 7, 12))
      .add(tag(m1, 20))
      .add(kernel("graph_kernel_2", 5500, 5650, 0, 9, 20, 42))
      .add(overhead(CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH, 8000, 8100))
      // PyTorch's profiler's own tags (CUSTOM1) on the same correlation are not iterations
      .add(tag(999, 11, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1));
  fake_cupti::Buffer a;
  a.add(tag(m0, 10))
      .add(tag(m0, 11))
      .add(driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 1500, 1700, 77, 11))
      .add(kernel("conv_kernel", 2000, 2600, 0, 7, 10))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, 1800, 1900, 77, 12))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020, 1940, 1945, 77, 14))  // launches nothing
      .add(tag(m0, 14))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 1950, 3200, 77, 13))
      .add(tag(m0, 13))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, 1960, 3150, 13))
      // iteration 1: one graph launch, three kernels
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, 5000, 5300, 77, 20))
      .add(kernel("graph_kernel_1", 5400, 5500, 0, 9, 20, 42))
      .add(kernel("graph_kernel_3", 5650, 5700, 0, 9, 20, 42))
      .add(driver(CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async, 5310, 5350, 77, 21))
      .add(tag(m1, 21))
      .add(fill(4096, 5710, 5720, 9, 21))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 5360, 5390, 77, 22))
      .add(tag(m1, 22))
      .add(kernel("kernel_that_lost_its_timestamps", 0, 0, 0, 9, 22))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 5400, 5800, 77, 23))
      .add(tag(m1, 23))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, 5410, 5790, 23))
      // untagged: launched from another thread, outside any iteration
      .add(driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, 6000, 6050, 88, 31))
      .add(kernel("untagged_kernel", 6100, 6200, 1, 3, 31))
      // a kernel whose launch record is missing
      .add(kernel("orphan_kernel", 7000, 7100, 0, 7, 30))
      // an event synchronisation without its API record; a stream wait (not a host sync)
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE, 7200, 7300, 50))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020, 7300, 7310, 77, 51))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT, 7300, 7305, 51))
      // a synchronisation whose timestamps CUPTI could not collect (start == end == 0): the API call's
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 7400, 7500, 77, 52))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, 0, 0, 52));
  fake_cupti::deliver_at_flush(b);
  fake_cupti::deliver_at_flush(a);

  auto collection = collector->finish(loop.iterations);
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  const Timeline& t = collection->timeline;

  EXPECT_EQ(lines(t.ops), (std::vector<std::string>{
                              "kernel 2000-2600 dev0 s7 c10 g0 b0 conv_kernel",
                              "kernel 2700-2900 dev0 s7 c11 g0 b0 triton_poi_fused_add_0",
                              "memcpy 3000-3100 dev0 s7 c12 g0 b8192 DtoH",
                              "kernel 5400-5500 dev0 s9 c20 g42 b0 graph_kernel_1",
                              "kernel 5500-5650 dev0 s9 c20 g42 b0 graph_kernel_2",
                              "kernel 5650-5700 dev0 s9 c20 g42 b0 graph_kernel_3",
                              "memset 5710-5720 dev0 s9 c21 g0 b4096 Memset",
                              "kernel 6100-6200 dev1 s3 c31 g0 b0 untagged_kernel",
                              "kernel 7000-7100 dev0 s7 c30 g0 b0 orphan_kernel",
                          }));
  EXPECT_EQ(lines(t.launches), (std::vector<std::string>{
                                   "kernel 1000-1400 t77 c10 it0 cudaLaunchKernel",
                                   "kernel 1500-1700 t77 c11 it0 cuLaunchKernel",
                                   "memcpy 1800-1900 t77 c12 it0 cudaMemcpyAsync",
                                   "graph 5000-5300 t77 c20 it1 cudaGraphLaunch",
                                   "memset 5310-5350 t77 c21 it1 cuMemsetD32Async",
                                   "kernel 5360-5390 t77 c22 it1 cudaLaunchKernel",
                                   "kernel 6000-6050 t88 c31 it- cuLaunchKernelEx",
                               }));
  // The last sync of each measured iteration is the harness's (here each has one); untagged ones never are.
  EXPECT_EQ(lines(t.syncs), (std::vector<std::string>{
                                "1960-3150 t77 cudaStreamSynchronize harness",
                                "5410-5790 t77 cudaDeviceSynchronize harness",
                                "7200-7300 t0 event synchronize",
                                "7400-7500 t77 cudaDeviceSynchronize",
                            }));
  // Neither launches (nor the driver call inside one) nor the API records of syncs; the stream wait is
  // an API call, not a host synchronisation.
  EXPECT_EQ(lines(t.api_calls), (std::vector<std::string>{
                                    "1940-1945 t77 cudaGetDeviceCount",
                                    "7300-7310 t77 cudaStreamWaitEvent",
                                }));
  EXPECT_EQ(t.counters.dropped_records, 5u);
  EXPECT_EQ(t.counters.ops_without_timestamps, 1u);  // correlation 22's kernel
  EXPECT_EQ(t.counters.ops_without_launch, 1u);      // orphan_kernel
  EXPECT_EQ(t.counters.skipped_events, 0u);
  EXPECT_EQ(collection->warmup_records, 2u);  // the warm-up's launch and kernel
  ASSERT_EQ(collection->overheads.size(), 1u);
  EXPECT_EQ(collection->overheads[0].kind, "cupti buffer flush");
  EXPECT_EQ(collection->overheads[0].start_ns, 8000);
  EXPECT_EQ(collection->overheads[0].end_ns, 8100);
  EXPECT_TRUE(collection->warnings.empty());

  ASSERT_EQ(t.iterations.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(t.iterations[i].index, loop.iterations[i].index);
    EXPECT_EQ(t.iterations[i].start_ns, loop.iterations[i].start_ns);
    EXPECT_EQ(t.iterations[i].end_ns, loop.iterations[i].end_ns);
  }

  // How CUPTI was driven at the end: a normal flush, then (recording off) a forced one.
  EXPECT_EQ(fake_cupti::flush_flags(), (std::vector<std::uint32_t>{0, CUPTI_ACTIVITY_FLAG_FLUSH_FORCED}));
  EXPECT_TRUE(fake_cupti::enabled_kinds().empty());
  EXPECT_EQ(fake_cupti::buffers_requested(), 3u);
  EXPECT_EQ(fake_cupti::misaligned_buffers(), 0u);
}

TEST_F(CuptiCollectorTest, RecordsOfAnEarlierCollectorAreNotTakenForThisOnes) {
  std::uint64_t earlier_tag = 0;
  {
    auto earlier = make_collector();
    ASSERT_TRUE(earlier);
    LoopResult loop;
    ASSERT_TRUE(run_measurement_loop(LoopConfig{0, 1}, [] { return ok_status(); }, {earlier.get()}, loop).ok());
    earlier_tag = fake_cupti::pushed_ids().at(0);
    ASSERT_TRUE(earlier->finish(loop.iterations).ok());
  }
  fake_cupti::reset();
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  LoopResult loop;
  ASSERT_TRUE(run_measurement_loop(LoopConfig{0, 1}, [] { return ok_status(); }, {collector.get()}, loop).ok());
  const std::uint64_t now_tag = fake_cupti::pushed_ids().at(0);
  fake_cupti::Buffer late;
  late.add(tag(earlier_tag, 1))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 10, 20, 77, 1))
      .add(kernel("earlier_paths_kernel", 30, 40, 0, 7, 1))
      .add(tag(earlier_tag, 3))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 22, 28, 77, 3))
      .add(tag(earlier_tag, 4))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 41, 45, 77, 4))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, 41, 45, 4))
      .add(tag(now_tag, 2))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 50, 60, 77, 2))
      .add(kernel("this_paths_kernel", 70, 80, 0, 7, 2));
  fake_cupti::deliver_at_flush(late);
  auto collection = collector->finish(loop.iterations);
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  EXPECT_EQ(lines(collection->timeline.ops), (std::vector<std::string>{"kernel 70-80 dev0 s7 c2 g0 b0 this_paths_kernel"}));
  EXPECT_EQ(lines(collection->timeline.launches), (std::vector<std::string>{"kernel 50-60 t77 c2 it0 cudaLaunchKernel"}));
  EXPECT_TRUE(collection->timeline.api_calls.empty());
  EXPECT_TRUE(collection->timeline.syncs.empty());
  EXPECT_EQ(collection->timeline.counters.ops_without_launch, 0u);
}

TEST_F(CuptiCollectorTest, DropsBeforeTheCollectorStartedAreNotCounted) {
  fake_cupti::set_dropped_records(7);  // lost by someone before us; the count resets on read
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  auto collection = collector->finish({});
  ASSERT_TRUE(collection.ok());
  EXPECT_EQ(collection->timeline.counters.dropped_records, 0u);
}

TEST_F(CuptiCollectorTest, AnApiOutsideTheLaunchListsThatEnqueuedWorkIsALaunchOfKindOther) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  LoopResult loop;
  ASSERT_TRUE(run_measurement_loop(LoopConfig{0, 1}, [] { return ok_status(); }, {collector.get()}, loop).ok());
  fake_cupti::Buffer buffer;
  buffer.add(tag(fake_cupti::pushed_ids().at(0), 3))
      .add(driver(CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32, 10, 20, 77, 3))
      .add(fill(4, 30, 35, 7, 3));
  fake_cupti::deliver_at_flush(buffer);
  auto collection = collector->finish(loop.iterations);
  ASSERT_TRUE(collection.ok());
  EXPECT_EQ(lines(collection->timeline.launches), (std::vector<std::string>{"other 10-20 t77 c3 it0 cuStreamWriteValue32"}));
  EXPECT_EQ(collection->timeline.counters.ops_without_launch, 0u);
}

TEST_F(CuptiCollectorTest, AnUnreadableBufferKeepsWhatCameBeforeAndWarns) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  fake_cupti::Buffer buffer;
  buffer.add(driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 10, 20, 77, 1))
      .add(kernel("before_the_bad_record", 30, 40, 0, 7, 1))
      .add_unknown_kind()
      .add(kernel("after_the_bad_record", 50, 60, 0, 7, 2));
  fake_cupti::deliver_at_flush(buffer);
  auto collection = collector->finish({});
  ASSERT_TRUE(collection.ok());
  EXPECT_EQ(lines(collection->timeline.ops), (std::vector<std::string>{"kernel 30-40 dev0 s7 c1 g0 b0 before_the_bad_record"}));
  EXPECT_EQ(collection->warnings,
            (std::vector<Warning>{{WarningCode::cupti_buffer_unreadable,
                                   "an activity buffer could not be read to its end: CUPTI_ERROR_INVALID_KIND"}}));
}

// ---- what the host did: API calls, the harness's sync, blocking copies (docs/cupti.md) ----------------

// Every runtime/driver call of a measured (or untagged) iteration that is neither a launch nor the API
// record of a synchronisation is an ApiCall: one per correlation id, the outer call when the runtime
// made a driver call inside it.
TEST_F(CuptiCollectorTest, DeliversEveryOtherApiCallWithItsThreadAndName) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  LoopResult loop;
  ASSERT_TRUE(run_measurement_loop(LoopConfig{1, 2}, [] { return ok_status(); }, {collector.get()}, loop).ok());
  const auto ids = fake_cupti::pushed_ids();
  ASSERT_EQ(ids.size(), 3u);
  const std::uint64_t w0 = ids[0];
  const std::uint64_t m0 = ids[1];
  const std::uint64_t m1 = ids[2];
  fake_cupti::Buffer buffer;
  buffer.add(tag(w0, 1))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 100, 150, 77, 1))  // warm-up: left out
      // measured iteration 0: an allocation (the driver call inside it first in the buffer), an event query
      .add(tag(m0, 10))
      .add(driver(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, 1050, 1250, 77, 10))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 1000, 1300, 77, 10))
      .add(tag(m0, 11))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020, 1400, 1410, 77, 11))
      // a launch and the driver call inside it: a LaunchCall, no ApiCall
      .add(tag(m0, 12))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1500, 1600, 77, 12))
      .add(driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 1520, 1580, 77, 12))
      .add(kernel("k", 1700, 1800, 0, 7, 12))
      // a synchronisation, its API record and the driver call inside it: a SyncCall, no ApiCall
      .add(tag(m0, 13))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 1610, 1900, 77, 13))
      .add(driver(CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, 1620, 1890, 77, 13))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, 1615, 1895, 13))
      // measured iteration 1: an event record and query, and a call cuptiGetCallbackName does not name
      .add(tag(m1, 21))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020, 2100, 2105, 77, 21))
      .add(tag(m1, 20))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020, 2000, 2020, 77, 20))
      .add(tag(m1, 22))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020, 2200, 2250, 77, 22))
      // untagged, on another thread: kept, the analysis places it by time
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020, 3000, 3005, 99, 30));
  fake_cupti::deliver_at_flush(buffer);
  auto collection = collector->finish(loop.iterations);
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  const Timeline& t = collection->timeline;
  EXPECT_EQ(lines(t.api_calls), (std::vector<std::string>{
                                    "1000-1300 t77 cudaMalloc",
                                    "1400-1410 t77 cudaEventQuery",
                                    "2000-2020 t77 cudaEventRecord",
                                    "2100-2105 t77 cudaEventQuery",
                                    "2200-2250 t77 runtime API 22",  // cudaFree_v3020 = 22, unnamed by the fake
                                    "3000-3005 t99 cudaGetDeviceCount",
                                }));
  EXPECT_EQ(lines(t.launches), (std::vector<std::string>{"kernel 1500-1600 t77 c12 it0 cudaLaunchKernel"}));
  EXPECT_EQ(lines(t.syncs), (std::vector<std::string>{"1615-1895 t77 cudaStreamSynchronize harness"}));
  EXPECT_EQ(collection->warmup_records, 1u);  // the warm-up's cudaMalloc
}

// The calls made around every launch that are neither launches, copies, memsets nor syncs are switched
// off per call once RUNTIME and DRIVER are enabled (docs/cupti.md, "Calls not traced"): CUPTI writes no
// record of them. One iteration of a CUDA 13 <<<>>> launch from Triton's launcher with three pointer
// arguments: 10 API records would be written without the switches, 2 with them.
TEST_F(CuptiCollectorTest, SwitchesOffTheChattyCallsAfterEnablingTheirKinds) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  using Off = std::pair<CUpti_ActivityKind, CUpti_CallbackId>;
  const std::vector<Off> expected{
      {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020},
      {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID___cudaPushCallConfiguration_v13000},
      {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID___cudaPopCallConfiguration_v13000},
      {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID___cudaGetKernel_v13000},
      {CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuKernelGetAttribute},
      {CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState},
      {CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent},
      {CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute},
  };
  std::vector<Off> off = fake_cupti::switched_off_apis();
  std::sort(off.begin(), off.end());
  std::vector<Off> want = expected;
  std::sort(want.begin(), want.end());
  EXPECT_EQ(off, want);
  // After the kinds were enabled (enabling a kind again would switch its calls back on).
  const std::vector<std::string> calls = fake_cupti::calls();
  const auto last_enable = std::find(calls.rbegin(), calls.rend(), "cuptiActivityEnable");
  ASSERT_NE(last_enable, calls.rend());
  const auto first_switch = std::find_if(calls.begin(), calls.end(), [](const std::string& c) {
    return c == "cuptiActivityEnableRuntimeApi" || c == "cuptiActivityEnableDriverApi";
  });
  ASSERT_NE(first_switch, calls.end());
  EXPECT_LT(calls.rend() - last_enable - 1, first_switch - calls.begin());

  auto collection = collect_one_iteration(*collector, [](fake_cupti::Buffer& buffer, std::uint64_t m0) {
    buffer.add(tag(m0, 10))
        .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020, 1000, 1002, 77, 10))
        .add(runtime(CUPTI_RUNTIME_TRACE_CBID___cudaPushCallConfiguration_v13000, 1003, 1004, 77, 10))
        .add(runtime(CUPTI_RUNTIME_TRACE_CBID___cudaPopCallConfiguration_v13000, 1005, 1006, 77, 10))
        .add(runtime(CUPTI_RUNTIME_TRACE_CBID___cudaGetKernel_v13000, 1007, 1008, 77, 10))
        .add(driver(CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent, 1010, 1011, 77, 10))
        .add(driver(CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute, 1012, 1013, 77, 10))
        .add(driver(CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute, 1014, 1015, 77, 10))
        .add(driver(CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute, 1016, 1017, 77, 10))
        .add(tag(m0, 11))
        .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1100, 1200, 77, 11))
        .add(driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 1120, 1180, 77, 11))
        .add(kernel("k", 1300, 1400, 0, 7, 11));
  });
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  EXPECT_TRUE(collection->timeline.api_calls.empty());  // none of the eight quiet calls reached ohprof
  EXPECT_EQ(lines(collection->timeline.launches), (std::vector<std::string>{"kernel 1100-1200 t77 c11 it0 cudaLaunchKernel"}));
}

// A kernel launched outside any public API call (a library's internal launch) has an INTERNAL_LAUNCH_API
// record with its correlation id: it is the kernel's launch, tagged with the iteration like the others.
TEST_F(CuptiCollectorTest, AnInternalLaunchIsTheLaunchOfItsKernel) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  auto collection = collect_one_iteration(*collector, [](fake_cupti::Buffer& buffer, std::uint64_t m0) {
    buffer.add(tag(m0, 30))
        .add(api(CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API, 0, 1000, 1010, 77, 30))
        .add(kernel("cublas_internal", 1100, 1500, 0, 7, 30));
  });
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  EXPECT_EQ(lines(collection->timeline.launches), (std::vector<std::string>{"kernel 1000-1010 t77 c30 it0 internal launch"}));
  EXPECT_EQ(collection->timeline.counters.ops_without_launch, 0u);
  EXPECT_TRUE(collection->timeline.api_calls.empty());
}

// A cuLaunchKernel that cudaLaunchKernel made itself, under a correlation id of its own that no op
// carries: the same launch, counted once. A driver launch outside any runtime call stays a launch.
TEST_F(CuptiCollectorTest, ADriverLaunchInsideARuntimeLaunchUnderAnotherIdIsCountedOnce) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  auto collection = collect_one_iteration(*collector, [](fake_cupti::Buffer& buffer, std::uint64_t m0) {
    buffer.add(tag(m0, 40))
        .add(tag(m0, 41))
        .add(tag(m0, 42))
        .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1000, 1200, 77, 40))
        .add(driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 1050, 1150, 77, 41))  // inside it, its own id
        .add(kernel("k", 1300, 1400, 0, 7, 40))
        .add(driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 1500, 1550, 77, 42))  // Triton's: a launch of its own
        .add(kernel("triton_k", 1600, 1700, 0, 7, 42))
        .add(tag(m0, 43))
        .add(tag(m0, 44))
        .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 2000, 2200, 77, 43))
        .add(kernel("k2", 2300, 2400, 0, 7, 43))
        .add(driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 2050, 2150, 88, 44));  // inside in time, another thread
  });
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  EXPECT_EQ(lines(collection->timeline.launches), (std::vector<std::string>{"kernel 1000-1200 t77 c40 it0 cudaLaunchKernel",
                                                                            "kernel 1500-1550 t77 c42 it0 cuLaunchKernel",
                                                                            "kernel 2000-2200 t77 c43 it0 cudaLaunchKernel",
                                                                            "kernel 2050-2150 t88 c44 it0 cuLaunchKernel"}));
  EXPECT_TRUE(collection->timeline.api_calls.empty());  // nor an API call of its own
}

// Where CUPTI cannot trace internal launches, the collector runs without them.
TEST_F(CuptiCollectorTest, InternalLaunchesThatCannotBeTracedAreNotAnError) {
  fake_cupti::fail_enable_of(CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API, CUPTI_ERROR_NOT_SUPPORTED);
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  const auto enabled = fake_cupti::enabled_kinds();
  EXPECT_EQ(std::count(enabled.begin(), enabled.end(), CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API), 0);
  EXPECT_EQ(std::count(enabled.begin(), enabled.end(), CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), 1);
}

// Each measured iteration's run_once() ends with the harness's cudaDeviceSynchronize inside the
// iteration's tag: the iteration's last sync call (latest start) is marked harness, the model's not.
TEST_F(CuptiCollectorTest, MarksTheLastSyncOfEachMeasuredIterationAsTheHarnesss) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  LoopResult loop;
  ASSERT_TRUE(run_measurement_loop(LoopConfig{1, 3}, [] { return ok_status(); }, {collector.get()}, loop).ok());
  const auto ids = fake_cupti::pushed_ids();
  ASSERT_EQ(ids.size(), 4u);
  const std::uint64_t w0 = ids[0];
  const std::uint64_t m0 = ids[1];
  const std::uint64_t m1 = ids[2];
  const std::uint64_t m2 = ids[3];
  fake_cupti::Buffer buffer;
  buffer.add(tag(w0, 5))  // the warm-up's harness sync: left out, never marked
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 100, 200, 77, 5))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, 100, 200, 5))
      // iteration 0: the harness's sync (with the driver call inside it) comes first in the buffer
      .add(tag(m0, 11))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 2000, 2600, 77, 11))
      .add(driver(CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, 2010, 2590, 77, 11))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, 2005, 2595, 11))
      .add(tag(m0, 10))  // the model's own cudaStreamSynchronize (an .item(), say)
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 1000, 1500, 77, 10))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, 1010, 1490, 10))
      // iteration 1: the harness's sync record lost its timestamps: the API call's times stand in
      .add(tag(m1, 20))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 3000, 3100, 77, 20))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, 3000, 3100, 20))
      .add(tag(m1, 21))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 4000, 4300, 77, 21))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, 0, 0, 21))
      // iteration 2: no sync record at all (lost): nothing is marked
      .add(tag(m2, 30))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 5000, 5050, 77, 30))
      // untagged, another thread, later than every harness sync: not an iteration's, never marked
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 6000, 6100, 88, 40))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, 6000, 6100, 40));
  fake_cupti::deliver_at_flush(buffer);
  auto collection = collector->finish(loop.iterations);
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  const Timeline& t = collection->timeline;
  EXPECT_EQ(lines(t.syncs), (std::vector<std::string>{
                                "1010-1490 t77 cudaStreamSynchronize",
                                "2005-2595 t77 cudaDeviceSynchronize harness",
                                "3000-3100 t77 cudaStreamSynchronize",
                                "4000-4300 t77 cudaDeviceSynchronize harness",
                                "6000-6100 t88 cudaStreamSynchronize",
                            }));
  EXPECT_EQ(lines(t.api_calls), (std::vector<std::string>{"5000-5050 t77 cudaMalloc"}));
  EXPECT_EQ(collection->warmup_records, 1u);  // the warm-up's sync record
}

// A synchronous cudaMemcpy is a launch of kind memcpy that returns after its copy started (here after it
// ended): the analysis counts it as the host waiting, not as launch overhead.
TEST_F(CuptiCollectorTest, ABlockingCopyIsAMemcpyLaunchThatEndsAfterItsCopyStarted) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  LoopResult loop;
  ASSERT_TRUE(run_measurement_loop(LoopConfig{0, 1}, [] { return ok_status(); }, {collector.get()}, loop).ok());
  const std::uint64_t m0 = fake_cupti::pushed_ids().at(0);
  fake_cupti::Buffer buffer;
  buffer.add(tag(m0, 40))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, 1000, 2000, 77, 40))
      .add(copy(CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, 8192, 1200, 1800, 7, 40))
      .add(tag(m0, 41))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, 2100, 2150, 77, 41))
      .add(copy(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, 4096, 2300, 2400, 7, 41));
  fake_cupti::deliver_at_flush(buffer);
  // The window is given by hand (the loop's real one has other times); its index is the loop's, 0.
  auto collection = collector->finish({IterationWindow{0, 1000, 3000}});
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  const Timeline& t = collection->timeline;
  EXPECT_EQ(lines(t.launches), (std::vector<std::string>{
                                   "memcpy 1000-2000 t77 c40 it0 cudaMemcpy",
                                   "memcpy 2100-2150 t77 c41 it0 cudaMemcpyAsync",
                               }));
  EXPECT_EQ(lines(t.ops), (std::vector<std::string>{
                              "memcpy 1200-1800 dev0 s7 c40 g0 b8192 DtoH",
                              "memcpy 2300-2400 dev0 s7 c41 g0 b4096 HtoD",
                          }));
  ASSERT_EQ(t.launches.size(), 2u);
  EXPECT_GT(t.launches[0].end_ns, t.ops[0].start_ns);
  EXPECT_TRUE(t.syncs.empty());
  EXPECT_TRUE(t.api_calls.empty());

  // By hand (docs/metrics.md). Window [1000, 3000), wall 2000.
  //   pending: DtoH from min(launch end 2000, start 1200) = 1200 to 1800; HtoD from min(2150, 2300) = 2150
  //   to 2400. busy = 600 + 100 = 700; device-wait = [2150, 2300) = 150;
  //   host-bound = [1000,1200) + [1800,2150) + [2400,3000) = 200 + 350 + 600 = 1150 (= 2000 - 700 - 150).
  //   host states: cudaMemcpy is blocking (a memcpy without "Async"): [1000,1200) + [1800,2000) = 400;
  //   cudaMemcpyAsync (returned before its copy started: not blocking) [2100,2150) = 50 launch;
  //   framework [2000,2100) + [2400,3000) = 700. 400 + 50 + 0 + 700 = 1150.
  //   host side: blocking = the union of blocking calls = [1000,2000) = 1000, 1 call; launch API = 50,
  //   all exposed (nothing pending in [2100,2150)); queue delays 1200 - 2000 = -800 -> 0 (clipped) and
  //   2300 - 2150 = 150.
  const PathBreakdown split = analyze_timeline(t);
  ASSERT_EQ(split.iterations.size(), 1u);
  const IterationBreakdown& it = split.iterations[0];
  EXPECT_EQ(it.wall_ns, 2000);
  EXPECT_EQ(it.gpu.busy_ns, 700);
  EXPECT_EQ(it.gpu.device_wait_ns, 150);
  EXPECT_EQ(it.gpu.host_bound_ns, 1150);
  EXPECT_EQ(it.host_states.blocking_ns, 400);
  EXPECT_EQ(it.host_states.launch_ns, 50);
  EXPECT_EQ(it.host_states.other_api_ns, 0);
  EXPECT_EQ(it.host_states.framework_ns, 700);
  EXPECT_EQ(it.blocking_ns, 1000);
  EXPECT_EQ(it.blocking_calls, 1u);
  EXPECT_EQ(it.launch_api_ns, 50);
  EXPECT_EQ(it.launch_exposed_ns, 50);
  EXPECT_EQ(it.launch_hidden_ns, 0);
  std::vector<std::int64_t> delays = it.queue_delays_ns;
  std::sort(delays.begin(), delays.end());
  EXPECT_EQ(delays, (std::vector<std::int64_t>{0, 150}));
  EXPECT_EQ(it.queue_delays_clipped, 1u);
}

// The collected Timeline through the analysis: one iteration in which the device has nothing pending
// while the host is in a launch call, in cudaMalloc, in the model's cudaStreamSynchronize after its
// kernel ended, in nothing, and in the harness's cudaDeviceSynchronize (not blocking: the harness's).
TEST_F(CuptiCollectorTest, TheAnalysisOfTheCollectedTimelineSplitsHostBoundTimeByHostState) {
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  LoopResult loop;
  ASSERT_TRUE(run_measurement_loop(LoopConfig{0, 1}, [] { return ok_status(); }, {collector.get()}, loop).ok());
  const std::uint64_t m0 = fake_cupti::pushed_ids().at(0);
  fake_cupti::Buffer buffer;
  buffer.add(tag(m0, 1))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 10000, 10500, 77, 1))
      .add(kernel("a", 10500, 12000, 0, 7, 1))
      .add(tag(m0, 2))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 12000, 12600, 77, 2))
      .add(tag(m0, 3))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 13000, 13200, 77, 3))
      .add(kernel("b", 13200, 14000, 0, 7, 3))
      .add(tag(m0, 4))  // the model's sync: waits for b, then 500 ns more after b ended
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 13300, 14500, 77, 4))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, 13300, 14500, 4))
      .add(tag(m0, 5))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020, 16000, 16300, 77, 5))
      .add(tag(m0, 6))  // the harness's sync, the iteration's last
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 18000, 19900, 77, 6))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, 18000, 19900, 6));
  fake_cupti::deliver_at_flush(buffer);
  auto collection = collector->finish({IterationWindow{0, 10000, 20000}});
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  const Timeline& t = collection->timeline;
  EXPECT_EQ(lines(t.syncs), (std::vector<std::string>{
                                "13300-14500 t77 cudaStreamSynchronize",
                                "18000-19900 t77 cudaDeviceSynchronize harness",
                            }));
  EXPECT_EQ(lines(t.api_calls), (std::vector<std::string>{
                                    "12000-12600 t77 cudaMalloc",
                                    "16000-16300 t77 cudaEventQuery",
                                }));

  // By hand (docs/metrics.md). Window [10000, 20000), wall 10000. Launching threads T = {77}.
  //   a is pending from min(10500, 10500) = 10500 to 12000, b from min(13200, 13200) = 13200 to 14000:
  //   each pending only while it runs, so device-wait = 0 and busy = 1500 + 800 = 2300;
  //   host-bound = 10000 - 2300 = 7700: [10000,10500) [12000,13200) [14000,20000).
  //   Host states over the host-bound time:
  //     launch     [10000,10500) a's launch 500 + [13000,13200) b's launch 200          =  700
  //     other_api  [12000,12600) cudaMalloc 600 + [16000,16300) cudaEventQuery 300       =  900
  //     blocking   [14000,14500) the model's cudaStreamSynchronize after b ended         =  500
  //     harness    [18000,19900) 1900 (the harness's own sync: not blocking, not framework)
  //     framework  [12600,13000) 400 + [14500,16000) 1500 + [16300,18000) 1700 + [19900,20000) 100 = 3700
  //     700 + 900 + 500 + 1900 + 3700 = 7700.
  //   Host side: launch API = 500 + 200 = 700, all exposed (nothing pending during either call);
  //   blocking = [13300,14500) = 1200 (the harness's sync left out), 1 call; other API = 300 + 600 = 900;
  //   queue integral = 1500 + 800 = 2300, max depth 1; 2 launches, 2 ops.
  const PathBreakdown split = analyze_timeline(t);
  ASSERT_EQ(split.iterations.size(), 1u);
  const IterationBreakdown& it = split.iterations[0];
  EXPECT_EQ(it.wall_ns, 10000);
  EXPECT_EQ(it.gpu.busy_ns, 2300);
  EXPECT_EQ(it.gpu.idle_ns, 7700);
  EXPECT_EQ(it.gpu.host_bound_ns, 7700);
  EXPECT_EQ(it.gpu.device_wait_ns, 0);
  EXPECT_EQ(it.gpu.queue_ns, 2300);
  EXPECT_EQ(it.gpu.queue_max, 1);
  EXPECT_EQ(it.host_states.launch_ns, 700);
  EXPECT_EQ(it.host_states.other_api_ns, 900);
  EXPECT_EQ(it.host_states.blocking_ns, 500);
  EXPECT_EQ(it.host_states.harness_ns, 1900);
  EXPECT_EQ(it.host_states.framework_ns, 3700);
  EXPECT_EQ(it.launch_api_ns, 700);
  EXPECT_EQ(it.launch_exposed_ns, 700);
  EXPECT_EQ(it.launch_hidden_ns, 0);
  EXPECT_EQ(it.blocking_ns, 1200);
  EXPECT_EQ(it.blocking_calls, 1u);
  EXPECT_EQ(it.other_api_ns, 900);
  EXPECT_EQ(it.launches, 2u);
  EXPECT_EQ(it.gpu.own_ops, 2u);
  EXPECT_FALSE(it.dispatch_ns.has_value());
  // Verdict: shares busy 2300/10000 = 0.23, host-bound 0.77, device-wait 0; 77% >= 50% and 54 points
  // ahead: host-bound, decided by framework (3700 of the 7700 host-bound ns); blocking share 0.12.
  EXPECT_EQ(split.verdict.verdict, Verdict::host_bound);
  EXPECT_EQ(split.verdict.reason, VerdictReason::dominant_share);
  EXPECT_EQ(split.verdict.host_state, std::optional<HostState>(HostState::framework));
  EXPECT_DOUBLE_EQ(split.verdict.host_state_share, 3700.0 / 7700.0);
  EXPECT_DOUBLE_EQ(split.verdict.blocking_share, 0.12);
}

// ---- CUPTI versions with known defects (docs/cupti.md, "CUPTI versions") ------------------------------

TEST(CuptiVersionPolicy, WarnsBelowThirteenZeroUpdateOneOnly) {
  EXPECT_FALSE(cupti_version_warning(130001).has_value());
  EXPECT_FALSE(cupti_version_warning(130301).has_value());
  const auto warning = cupti_version_warning(130000);
  ASSERT_TRUE(warning.has_value());
  EXPECT_EQ(warning->code, WarningCode::cupti_version_old);
  EXPECT_NE(warning->message.find("130000"), std::string::npos) << warning->message;
  EXPECT_EQ(warning->message.find('\n'), std::string::npos);
  EXPECT_TRUE(cupti_version_warning(28).has_value());  // 12.9 Update 1's API version, before 13's numbering
}

TEST(CuptiVersionPolicy, RefusesGraphWorkInALaterSessionOfACuptiBeforeThirteenOneUpdateOne) {
  // Refused: an affected version, a session after the first, graph launches or graph kernels.
  const auto refusal = graph_correlation_refusal(130001, 2, 3, 0);
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(refusal->code, ExitCode::device_unavailable);
  EXPECT_NE(refusal->message.find("session 2 with 3 graph launch(es)"), std::string::npos) << refusal->message;
  EXPECT_NE(refusal->message.find("a process of its own"), std::string::npos) << refusal->message;
  EXPECT_TRUE(graph_correlation_refusal(130100, 5, 0, 12).has_value());  // kernels with a graph id, no launch seen
  // Not refused: the first session, no graph work, or a fixed CUPTI.
  EXPECT_FALSE(graph_correlation_refusal(130001, 1, 3, 12).has_value());
  EXPECT_FALSE(graph_correlation_refusal(130001, 2, 0, 0).has_value());
  EXPECT_FALSE(graph_correlation_refusal(130101, 2, 3, 12).has_value());
  EXPECT_FALSE(graph_correlation_refusal(130200, 9, 3, 12).has_value());
}

// One collector run to its end (so that the next one is a later session of this process), then one
// iteration with a CUDA graph launch under a CUPTI of API version `version`.
Result<CuptiCollection> graph_iteration_in_a_later_session(std::uint32_t version) {
  fake_cupti::set_version(version);
  {
    auto first = CuptiCollector::create(CuptiOptions{.device_present = true});
    if (!first.ok()) return first.error();
    if (auto done = (*first)->finish({}); !done.ok()) return done.error();
  }
  auto collector = CuptiCollector::create(CuptiOptions{.device_present = true});
  if (!collector.ok()) return collector.error();
  LoopResult loop;
  if (Status s = run_measurement_loop(LoopConfig{0, 1}, [] { return ok_status(); }, {collector->get()}, loop); !s.ok()) {
    return s.error();
  }
  const std::uint64_t iteration = fake_cupti::pushed_ids().at(0);
  fake_cupti::Buffer buffer;
  buffer.add(tag(iteration, 20))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, 100, 140, 77, 20))
      .add(driver(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, 105, 135, 77, 20))  // the same launch, one id
      .add(kernel("graph_kernel", 150, 190, 0, 9, 20, 42));
  fake_cupti::deliver_at_flush(buffer);
  return (*collector)->finish(loop.iterations);
}

TEST_F(CuptiCollectorTest, ALaterSessionWithGraphLaunchesIsRefusedBeforeThirteenOneUpdateOne) {
  // (The fake says 130101 unless told otherwise, so that the other tests' collectors, whichever session of
  // the test process they are, are never refused.)
  EXPECT_EQ(cupti_version_text(), std::to_string(kCuptiGraphCorrelationFixed));
  auto refused = graph_iteration_in_a_later_session(130001);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ExitCode::device_unavailable);
  EXPECT_NE(refused.error().message.find("with 1 graph launch(es)"), std::string::npos) << refused.error().message;
  // Everything was put back: the next collector starts.
  fake_cupti::reset();
  auto fixed = graph_iteration_in_a_later_session(130101);
  ASSERT_TRUE(fixed.ok()) << fixed.error().message;
  EXPECT_EQ(lines(fixed->timeline.launches), (std::vector<std::string>{"graph 100-140 t77 c20 it0 cudaGraphLaunch"}));
  EXPECT_TRUE(fixed->warnings.empty());
}

TEST_F(CuptiCollectorTest, ALaterSessionWithoutGraphWorkIsKeptOnAnAffectedCupti) {
  fake_cupti::set_version(130001);
  { ASSERT_TRUE(make_collector()->finish({}).ok()); }
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  auto collection = collect_one_iteration(*collector, [](fake_cupti::Buffer& buffer, std::uint64_t iteration) {
    buffer.add(tag(iteration, 5))
        .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 100, 110, 77, 5))
        .add(kernel("plain_kernel", 120, 130, 0, 7, 5));
  });
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  EXPECT_EQ(collection->timeline.ops.size(), 1u);
  EXPECT_TRUE(collection->warnings.empty());
}

TEST_F(CuptiCollectorTest, ACuptiBeforeThirteenZeroUpdateOneIsWarnedOf) {
  fake_cupti::set_version(130000);
  auto collector = make_collector();
  ASSERT_TRUE(collector);
  auto collection = collector->finish({});
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  ASSERT_EQ(collection->warnings.size(), 1u);
  EXPECT_EQ(collection->warnings[0].code, WarningCode::cupti_version_old);
}

TEST_F(CuptiCollectorTest, ReportsTheCuptiVersion) {
  EXPECT_TRUE(cupti_built_in());
  fake_cupti::set_version(130001);
  EXPECT_EQ(cupti_version_text(), "130001");
  // The library that answered: in this test binary, the fake.
  const std::string library = cupti_library_path();
  EXPECT_NE(library.find("libohprof_fake_cupti.so"), std::string::npos) << library;
}

}  // namespace
}  // namespace ohprof
