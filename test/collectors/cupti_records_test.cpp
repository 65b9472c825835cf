// Reading CUPTI's activity buffers into plain records (src/collectors/cupti_records.cpp), on its own: a
// buffer of real CUDA 13 record structs (the fake CUPTI walks it as CUPTI does) in, ActivityRecords out.
// Every expected value is written by hand from the records built here.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cupti_record_builders.hpp"
#include "fake_cupti.hpp"
#include "ohprof/collectors/cupti_records.hpp"

namespace ohprof {
namespace {

using namespace cupti_test;

ActivityRecords read(const fake_cupti::Buffer& buffer) {
  std::vector<std::uint8_t> bytes = buffer.bytes();
  ActivityRecords records;
  read_activity_buffer(bytes.data(), bytes.size(), records);
  return records;
}

class CuptiRecords : public ::testing::Test {
 protected:
  void SetUp() override { fake_cupti::reset(); }
  void TearDown() override { fake_cupti::reset(); }
};

TEST_F(CuptiRecords, ClassifiesEachCallByItsCallbackIdAndNamesItOnce) {
  fake_cupti::Buffer buffer;
  buffer.add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 100, 110, 7, 1))
      .add(driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 102, 108, 7, 1))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, 120, 130, 7, 2))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, 140, 150, 8, 3))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, 160, 170, 8, 4))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 180, 190, 8, 5))  // not a launch
      .add(driver(CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32, 200, 210, 8, 6))          // not a launch
      .add(api(CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API, 0, 220, 230, 9, 7))
      .add(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 240, 250, 7, 8));  // a second one, same name
  const ActivityRecords r = read(buffer);
  ASSERT_EQ(r.apis.size(), 9u);
  EXPECT_TRUE(r.warnings.empty());

  struct Want {
    ApiDomain domain;
    std::optional<LaunchKind> launch;
    std::string name;
  };
  const std::vector<Want> want = {
      {ApiDomain::runtime, LaunchKind::kernel, "cudaLaunchKernel"},  // runtime names lose their version
      {ApiDomain::driver, LaunchKind::kernel, "cuLaunchKernel"},
      {ApiDomain::runtime, LaunchKind::graph, "cudaGraphLaunch"},
      {ApiDomain::runtime, LaunchKind::memcpy, "cudaMemcpyAsync"},
      {ApiDomain::runtime, LaunchKind::memset, "cudaMemsetAsync"},
      {ApiDomain::runtime, std::nullopt, "cudaStreamSynchronize"},  // CUPTI's name (cuptiGetCallbackName)
      {ApiDomain::driver, std::nullopt, "cuStreamWriteValue32"},
      {ApiDomain::internal, LaunchKind::kernel, "internal launch"},
      {ApiDomain::runtime, LaunchKind::kernel, "cudaLaunchKernel"},
  };
  for (std::size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r.apis[i].domain, want[i].domain);
    EXPECT_EQ(r.apis[i].launch, want[i].launch);
    EXPECT_EQ(r.api_names.at(r.apis[i].name), want[i].name);
  }
  EXPECT_EQ(r.apis[0].name, r.apis[8].name);  // one name per (domain, callback id)
  EXPECT_EQ(r.api_names.size(), 8u);
  EXPECT_EQ(r.apis[3].start_ns, 140);
  EXPECT_EQ(r.apis[3].end_ns, 150);
  EXPECT_EQ(r.apis[3].thread_id, 8u);
  EXPECT_EQ(r.apis[3].correlation, 3u);
}

TEST_F(CuptiRecords, ACallbackIdCuptiCannotNameIsNamedByItsNumber) {
  fake_cupti::Buffer buffer;
  buffer.add(runtime(static_cast<CUpti_CallbackId>(99999), 1, 2, 1, 1))
      .add(driver(static_cast<CUpti_CallbackId>(88888), 3, 4, 1, 2));
  const ActivityRecords r = read(buffer);
  ASSERT_EQ(r.apis.size(), 2u);
  EXPECT_EQ(r.api_names.at(r.apis[0].name), "runtime API 99999");
  EXPECT_EQ(r.api_names.at(r.apis[1].name), "driver API 88888");
}

TEST_F(CuptiRecords, ReadsKernelsCopiesAndFillsWithTheirFields) {
  fake_cupti::Buffer buffer;
  buffer.add(kernel("gemm", 1000, 2000, 1, 7, 11, 3))
      .add(copy(CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, 4096, 2100, 2200, 8, 12))
      .add(fill(512, 2300, 2350, 9, 13))
      .add(kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 2400, 2500, 0, 10, 14));
  const ActivityRecords r = read(buffer);
  ASSERT_EQ(r.ops.size(), 4u);
  const DeviceOp& k = r.ops[0];
  EXPECT_EQ(k.kind, DeviceOpKind::kernel);
  EXPECT_EQ(k.name, "gemm");
  EXPECT_EQ(k.start_ns, 1000);
  EXPECT_EQ(k.end_ns, 2000);
  EXPECT_EQ(k.device, 1);
  EXPECT_EQ(k.stream, 7);
  EXPECT_EQ(k.correlation, 11u);
  EXPECT_EQ(k.graph_id, 3u);
  EXPECT_FALSE(k.communication);
  EXPECT_EQ(r.ops[1].kind, DeviceOpKind::memcpy);
  EXPECT_EQ(r.ops[1].name, "DtoH");
  EXPECT_EQ(r.ops[1].bytes, 4096u);
  EXPECT_EQ(r.ops[2].kind, DeviceOpKind::memset);
  EXPECT_EQ(r.ops[2].name, "Memset");
  EXPECT_EQ(r.ops[2].bytes, 512u);
  EXPECT_TRUE(r.ops[3].communication);  // an NCCL kernel
}

TEST_F(CuptiRecords, ReadsSynchronisationsTagsAndOverheads) {
  fake_cupti::Buffer buffer;
  buffer.add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, 10, 20, 1))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT, 30, 31, 2))
      .add(sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, 0, 0, 3))  // timestamps lost
      .add(tag(encode_iteration_tag(2, 5, false), 1))
      .add(tag(77, 2, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0))  // PyTorch's profiler's kind: not ohprof's
      .add(overhead(CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH, 40, 50));
  const ActivityRecords r = read(buffer);
  ASSERT_EQ(r.syncs.size(), 3u);
  EXPECT_FALSE(r.syncs[0].stream_wait);
  EXPECT_STREQ(r.syncs[0].type_name, "stream synchronize");
  EXPECT_EQ(r.syncs[0].start_ns, 10);
  EXPECT_EQ(r.syncs[0].end_ns, 20);
  EXPECT_EQ(r.syncs[0].correlation, 1u);
  EXPECT_TRUE(r.syncs[1].stream_wait);
  EXPECT_STREQ(r.syncs[2].type_name, "context synchronize");
  EXPECT_EQ(r.syncs[2].start_ns, 0);
  ASSERT_EQ(r.tags.size(), 1u);
  EXPECT_EQ(r.tags.at(1), encode_iteration_tag(2, 5, false));
  ASSERT_EQ(r.overheads.size(), 1u);
  EXPECT_EQ(r.overheads[0].kind, "cupti buffer flush");
  EXPECT_EQ(r.overheads[0].start_ns, 40);
  EXPECT_EQ(r.overheads[0].end_ns, 50);
}

TEST_F(CuptiRecords, ABufferThatCannotBeReadToItsEndKeepsWhatCameBeforeAndWarns) {
  fake_cupti::Buffer buffer;
  buffer.add(kernel("before", 1, 2, 0, 7, 1)).add_unknown_kind().add(kernel("after", 3, 4, 0, 7, 2));
  ActivityRecords r = read(buffer);
  ASSERT_EQ(r.ops.size(), 1u);
  EXPECT_EQ(r.ops[0].name, "before");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].code, WarningCode::cupti_buffer_unreadable);
  EXPECT_EQ(r.warnings[0].message, "an activity buffer could not be read to its end: CUPTI_ERROR_INVALID_KIND");
  // A second buffer adds to the same records.
  fake_cupti::Buffer second;
  second.add(kernel("next", 5, 6, 0, 7, 3));
  std::vector<std::uint8_t> bytes = second.bytes();
  read_activity_buffer(bytes.data(), bytes.size(), r);
  ASSERT_EQ(r.ops.size(), 2u);
  EXPECT_EQ(r.ops[1].name, "next");
}

}  // namespace
}  // namespace ohprof
