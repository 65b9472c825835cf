#include "ohprof/model/breakdown.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ohprof {
namespace {

// These names are values of the JSON report (docs/metrics.md) and of the tables: scripts compare
// them, so they never change.
TEST(BreakdownNames, DeviceOpKinds) {
  EXPECT_STREQ(to_string(DeviceOpKind::kernel), "kernel");
  EXPECT_STREQ(to_string(DeviceOpKind::memcpy), "memcpy");
  EXPECT_STREQ(to_string(DeviceOpKind::memset), "memset");
}

TEST(BreakdownNames, Verdicts) {
  EXPECT_STREQ(to_string(Verdict::unknown), "unknown");
  EXPECT_STREQ(to_string(Verdict::host_bound), "host-bound");
  EXPECT_STREQ(to_string(Verdict::device_wait_bound), "device-wait-bound");
  EXPECT_STREQ(to_string(Verdict::compute_bound), "compute-bound");
  EXPECT_STREQ(to_string(Verdict::mixed), "mixed");
}

TEST(BreakdownNames, VerdictReasons) {
  EXPECT_STREQ(to_string(VerdictReason::no_iterations), "no_iterations");
  EXPECT_STREQ(to_string(VerdictReason::no_device_work), "no_device_work");
  EXPECT_STREQ(to_string(VerdictReason::no_launches), "no_launches");
  EXPECT_STREQ(to_string(VerdictReason::startup_without_steps), "startup_without_steps");
  EXPECT_STREQ(to_string(VerdictReason::dominant_share), "dominant_share");
  EXPECT_STREQ(to_string(VerdictReason::close_shares), "close_shares");
}

TEST(BreakdownNames, HostStatesAndShares) {
  EXPECT_STREQ(to_string(HostState::blocking), "blocking");
  EXPECT_STREQ(to_string(HostState::launch), "launch");
  EXPECT_STREQ(to_string(HostState::other_api), "other_api");
  EXPECT_STREQ(to_string(HostState::framework), "framework");
  EXPECT_STREQ(to_string(TimeShare::busy), "busy");
  EXPECT_STREQ(to_string(TimeShare::host_bound), "host_bound");
  EXPECT_STREQ(to_string(TimeShare::device_wait), "device_wait");
}

TEST(BreakdownNames, AValueOutsideTheEnumeratorsStillGetsAName) {
  // never a null pointer into the JSON writer
  EXPECT_STREQ(to_string(static_cast<DeviceOpKind>(3)), "unknown");
  EXPECT_STREQ(to_string(static_cast<Verdict>(7)), "unknown");
  EXPECT_STREQ(to_string(static_cast<HostState>(7)), "unknown");
}

TEST(KernelSetDiff, SameSetWhenNeitherPathHasAKernelOfItsOwn) {
  KernelSetDiff diff;
  EXPECT_TRUE(diff.same_set());  // two paths without kernels
  diff.both.push_back(KernelDiffRow{DeviceOpKind::kernel, "gemm", 1, 1, 10, 12});
  EXPECT_TRUE(diff.same_set());  // timings may differ, the set is the same
  KernelSetDiff only_a = diff;
  only_a.only_a.push_back(KernelDiffRow{DeviceOpKind::kernel, "relu", 1, 0, 5, 0});
  EXPECT_FALSE(only_a.same_set());
  KernelSetDiff only_b = diff;
  only_b.only_b.push_back(KernelDiffRow{DeviceOpKind::memcpy, "HtoD", 0, 2, 0, 3});
  EXPECT_FALSE(only_b.same_set());
}

TEST(StreamKey, OrdersByDeviceThenStream) {
  // IterationBreakdown::streams is sorted by (device, stream)
  EXPECT_LT((StreamKey{0, 99}), (StreamKey{1, 7}));
  EXPECT_LT((StreamKey{1, 7}), (StreamKey{1, 8}));
  EXPECT_EQ((StreamKey{2, 3}), (StreamKey{2, 3}));
  EXPECT_NE((StreamKey{2, 3}), (StreamKey{3, 2}));
}

}  // namespace
}  // namespace ohprof
