#include "ohprof/output/report_text.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

TEST(StopReasonText, EachCodeHasTheTextTheReportAlwaysHad) {
  EXPECT_EQ(stop_reason_text(StopReason{}), "");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::runs_reached}), "runs reached");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::converged}), "converged");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::max_runs_reached, "aoti: runs 3 < 10"}),
            "max runs reached (unmet: aoti: runs 3 < 10)");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::time_limit, "a: rse 2.00% > 1.00%; b: runs 1 < 10"}),
            "time limit (unmet: a: rse 2.00% > 1.00%; b: runs 1 < 10)");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::interrupted}), "interrupted");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::error}), "error");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::no_paths}), "no paths");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::end_of_trace}), "end of trace");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::in_progress}), "in progress");
}

}  // namespace
}  // namespace ohprof
