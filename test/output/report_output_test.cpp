#include "ohprof/output/report_output.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

TEST(ReportOutput, WarningsArePrintedAndRecordedInOrder) {
  Report report;
  testing::internal::CaptureStderr();
  add_warning(report, "first thing");
  add_warning(report, "second thing");
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(report.warnings, (std::vector<std::string>{"first thing", "second thing"}));
  EXPECT_LT(printed.find("first thing"), printed.find("second thing"));
}

}  // namespace
}  // namespace ohprof
