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
  EXPECT_STREQ(to_string(Verdict::overhead_bound), "overhead-bound");
  EXPECT_STREQ(to_string(Verdict::compute_bound), "compute-bound");
}

TEST(BreakdownNames, VerdictRules) {
  EXPECT_STREQ(to_string(VerdictRule::none), "none");
  EXPECT_STREQ(to_string(VerdictRule::dispatch_exceeds_busy), "dispatch_exceeds_busy");
  EXPECT_STREQ(to_string(VerdictRule::host_bound_largest), "host_bound_largest");
  EXPECT_STREQ(to_string(VerdictRule::compute), "compute");
}

TEST(BreakdownNames, AValueOutsideTheEnumeratorsStillGetsAName) {
  // never a null pointer into the JSON writer (3 is within each enumeration's range of values)
  EXPECT_STREQ(to_string(static_cast<DeviceOpKind>(3)), "unknown");
  EXPECT_STREQ(to_string(static_cast<Verdict>(3)), "unknown");
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
