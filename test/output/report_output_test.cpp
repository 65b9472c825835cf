#include "ohprof/output/report_output.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

TEST(ReportOutput, WarningsArePrintedAndRecordedInOrder) {
  Report report;
  testing::internal::CaptureStderr();
  add_warning(report, Warning{WarningCode::outliers, "first thing"});
  add_warning(report, Warning{WarningCode::slow_first_run, "second thing"});
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(report.warnings, (std::vector<Warning>{{WarningCode::outliers, "first thing"},
                                                {WarningCode::slow_first_run, "second thing"}}));
  EXPECT_LT(printed.find("first thing"), printed.find("second thing"));
}

}  // namespace
}  // namespace ohprof
