#include "ohprof/base/format.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

TEST(FormatDuration, PicksUnitBySize) {
  EXPECT_EQ(format_duration(812), "812 ns");
  EXPECT_EQ(format_duration(12'345), "12.35 us");
  EXPECT_EQ(format_duration(1'840'000), "1.840 ms");
  EXPECT_EQ(format_duration(123'400'000), "123.4 ms");
  EXPECT_EQ(format_duration(2'031'000'000), "2.031 s");
}

TEST(FormatDuration, NegativeDurationsKeepTheirSignAndUnit) {
  EXPECT_EQ(format_duration(-812), "-812 ns");
  EXPECT_EQ(format_duration(-1'840'000), "-1.840 ms");
}

}  // namespace
}  // namespace ohprof
