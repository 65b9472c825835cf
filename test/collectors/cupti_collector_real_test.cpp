// The production collector linked against the toolkit's real CUPTI (label "real-cupti"), on a machine
// without a GPU: it must say why tracing is unavailable, never crash or throw. With
// OHPROF_WITH_CUPTI=OFF the same tests check the stub's answer. (The fake-CUPTI tests in
// cupti_collector_test.cpp cover what happens with records.)
#include <gtest/gtest.h>

#include <filesystem>

#include "ohprof/collectors/cupti_collector.hpp"

namespace ohprof {
namespace {

bool machine_has_nvidia_gpu() { return std::filesystem::exists("/dev/nvidia0"); }

TEST(CuptiCollectorRealTest, NoDeviceIsReportedWithoutTouchingCupti) {
  auto collector = CuptiCollector::create(CuptiOptions{.device_present = false});
  ASSERT_FALSE(collector.ok());
  EXPECT_EQ(collector.error().message, "no CUDA device");
  EXPECT_EQ(collector.error().code, ExitCode::device_unavailable);
}

#if OHPROF_CUPTI_BUILD
TEST(CuptiCollectorRealTest, WithoutAGpuCuptiReportsTracingUnavailable) {
  if (machine_has_nvidia_gpu()) GTEST_SKIP() << "this machine has a GPU; the check is for machines without";
  // Claim a device that is not there: CUPTI itself must refuse, and the collector must say so.
  auto collector = CuptiCollector::create(CuptiOptions{.device_present = true});
  ASSERT_FALSE(collector.ok());
  EXPECT_EQ(collector.error().code, ExitCode::device_unavailable);
  EXPECT_EQ(collector.error().message.rfind("tracing unavailable: CUPTI_ERROR_", 0), 0u) << collector.error().message;
  // A second attempt behaves the same (nothing was left half-claimed).
  auto again = CuptiCollector::create(CuptiOptions{.device_present = true});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().message, collector.error().message);
}

TEST(CuptiCollectorRealTest, VersionComesFromTheLoadedLibrary) {
  EXPECT_TRUE(cupti_built_in());
  const std::string version = cupti_version_text();
  // CUDA 13 CUPTI reports its API version, e.g. 130001.
  ASSERT_NE(version, "none");
  EXPECT_GE(std::stoul(version), 130000u);
}
#else
TEST(CuptiCollectorRealTest, BuiltWithoutCuptiSaysSo) {
  EXPECT_FALSE(cupti_built_in());
  auto collector = CuptiCollector::create(CuptiOptions{.device_present = true});
  ASSERT_FALSE(collector.ok());
  EXPECT_EQ(collector.error().message, "built without CUPTI (OHPROF_WITH_CUPTI=OFF)");
  EXPECT_EQ(cupti_version_text(), "none");
}
#endif

}  // namespace
}  // namespace ohprof
