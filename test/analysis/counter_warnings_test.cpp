#include "ohprof/analysis/counter_warnings.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

TEST(CounterWarnings, NoneWhenEverythingWasUsed) {
  AnalysisCounters counters;
  counters.ops_total = 10;
  counters.ops_without_launch = 2;  // the reader warns about these itself
  EXPECT_TRUE(counter_warnings(counters, true).empty());
}

TEST(CounterWarnings, OneWarningPerCounterThatLostRecords) {
  AnalysisCounters counters;
  counters.ops_total = 40;
  counters.ops_outside_iterations = 3;
  counters.duplicate_launch_correlations = 2;
  counters.ops_invalid_interval = 1;
  const auto from_steps = counter_warnings(counters, true);
  ASSERT_EQ(from_steps.size(), 3u);
  EXPECT_EQ(from_steps[0], (Warning{WarningCode::ops_outside_iterations,
                                    "3 of 40 device operations belong to no iteration window (launched outside every "
                                    "ProfilerStep) and are not in the split"}));
  EXPECT_EQ(from_steps[1], (Warning{WarningCode::duplicate_launch_correlations,
                                    "2 launch calls share a correlation id with an earlier one; ops join the earliest"}));
  EXPECT_EQ(from_steps[2], (Warning{WarningCode::ops_invalid_interval,
                                    "1 device operation ends before it starts and is not in the split"}));
  // Live runs' windows are the measured iterations, not ProfilerSteps.
  EXPECT_EQ(counter_warnings(counters, false)[0].message,
            "3 of 40 device operations belong to no iteration window and are not in the split");
  counters.ops_invalid_interval = 2;
  EXPECT_EQ(counter_warnings(counters, false)[2].message,
            "2 device operations end before they start and are not in the split");
}

}  // namespace
}  // namespace ohprof
