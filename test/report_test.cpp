#include "ohprof/report.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace ohprof {
namespace {

PathResult measured(const std::string& name, std::vector<std::int64_t> samples) {
  PathResult path;
  path.name = name;
  path.wall_ns = std::move(samples);
  path.wall = summarize_ns(path.wall_ns);
  return path;
}

TEST(RatiosAgainstFastest, ComparesTheLowestMeanWithEveryOtherPathInOrder) {
  // means: compile 30, aoti 10 (fastest), eager 20; each with stddev 10% of its mean? Use exact samples:
  // aoti {9, 11}: mean 10, s = sqrt(2); compile {27, 33}: mean 30, s = sqrt(18); eager {20}: mean 20, s = 0.
  const std::vector<PathResult> paths{measured("compile", {27, 33}), measured("aoti", {9, 11}),
                                      measured("eager", {20}), measured("empty", {})};
  const auto ratios = ratios_against_fastest(paths);
  ASSERT_EQ(ratios.size(), 2u);
  EXPECT_EQ(ratios[0].faster, "aoti");
  EXPECT_EQ(ratios[0].slower, "compile");
  EXPECT_DOUBLE_EQ(ratios[0].ratio, 3.0);
  // sigma = 3 * sqrt((sqrt(18)/30)^2 + (sqrt(2)/10)^2) = 3 * sqrt(0.02 + 0.02)
  EXPECT_NEAR(ratios[0].stddev, 3.0 * std::sqrt(0.04), 1e-12);
  EXPECT_EQ(ratios[1].slower, "eager");
  EXPECT_DOUBLE_EQ(ratios[1].ratio, 2.0);
  EXPECT_NEAR(ratios[1].stddev, 2.0 * std::sqrt(0.02), 1e-12);
}

TEST(RatiosAgainstFastest, NothingMeasuredGivesNoRatios) {
  EXPECT_TRUE(ratios_against_fastest({measured("a", {}), measured("b", {})}).empty());
}

TEST(MakeCollectorCost, RatioOfMedians) {
  const CollectorCost cost = make_collector_cost("cupti", {100, 300, 200}, {250, 210, 230, 220});
  EXPECT_EQ(cost.collector, "cupti");
  EXPECT_EQ(cost.runs, 4u);
  EXPECT_DOUBLE_EQ(cost.wall_median_without_ns, 200.0);
  EXPECT_DOUBLE_EQ(cost.wall_median_with_ns, 225.0);
  EXPECT_DOUBLE_EQ(cost.ratio, 1.125);
  EXPECT_DOUBLE_EQ(make_collector_cost("x", {}, {1}).ratio, 0.0);
}

}  // namespace
}  // namespace ohprof
