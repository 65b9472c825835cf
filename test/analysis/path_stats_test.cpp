#include "ohprof/analysis/path_stats.hpp"

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

TEST(RatiosAgainstFastest, ComparesTheLowestMedianWithEveryOtherPathInOrder) {
  // aoti {9, 10, 11}: median 10, MAD 1; compile {27, 30, 33, 3000}: median 31.5, |x - 31.5| = 4.5, 1.5,
  // 1.5, 2968.5 -> MAD 3 (the outlier moves the mean to 772, not the median); eager {20}: median 20, MAD 0.
  const std::vector<PathResult> paths{measured("compile", {27, 30, 33, 3000}), measured("aoti", {9, 10, 11}),
                                      measured("eager", {20}), measured("empty", {})};
  const auto ratios = ratios_against_fastest(paths);
  ASSERT_EQ(ratios.size(), 2u);
  EXPECT_EQ(ratios[0].faster, "aoti");
  EXPECT_EQ(ratios[0].slower, "compile");
  EXPECT_DOUBLE_EQ(ratios[0].ratio, 3.15);
  // sigma = 3.15 * sqrt((1.4826 * 3 / 31.5)^2 + (1.4826 * 1 / 10)^2)
  const double a = 1.4826 * 3 / 31.5;
  const double b = 1.4826 * 1 / 10;
  EXPECT_NEAR(ratios[0].stddev, 3.15 * std::sqrt(a * a + b * b), 1e-12);
  EXPECT_EQ(ratios[1].slower, "eager");
  EXPECT_DOUBLE_EQ(ratios[1].ratio, 2.0);
  EXPECT_NEAR(ratios[1].stddev, 2.0 * b, 1e-12);
}

// The paths slower than one beyond noise, each against it (docs/metrics.md, "Remedies measured slower"):
// eager {10, 11, 12} median 11; compile {30, 31, 32} median 31 (ratio 31/11); aoti {9, 10, 11} faster; tied
// {10, 11, 12, 13} median 11.5, within noise; a variant and a path that ran uncompiled are not listed.
TEST(SlowerPaths, ArePathsAskedForSlowerBeyondNoiseInPathOrder) {
  std::vector<PathResult> paths{measured("eager", {10, 11, 12}), measured("compile", {30, 31, 32}),
                                measured("aoti", {9, 10, 11}), measured("tied", {10, 11, 12, 13}),
                                measured("compile/no-guards", {40, 41, 42}), measured("compile:cpp-wrapper", {50, 51, 52})};
  paths[4].role = PathRole::variant;
  paths[5].execution = ExecutionCheck{};
  paths[5].execution->facts.dynamo = true;
  paths[5].execution->compiled_call = CompiledCall::no_graph;  // no compiled graph ran: not a compiled path's figures
  const auto slower = slower_paths(paths, paths[0]);
  ASSERT_EQ(slower.size(), 1u);
  EXPECT_EQ(slower[0].faster, "eager");
  EXPECT_EQ(slower[0].slower, "compile");
  EXPECT_DOUBLE_EQ(slower[0].ratio, 31.0 / 11.0);
  EXPECT_TRUE(slower[0].significant);
  // The same figures as the summary's ratio of the two.
  const PathRatio direct = ratio_between(paths[0], paths[1]);
  EXPECT_DOUBLE_EQ(slower[0].low, direct.low);
  EXPECT_DOUBLE_EQ(slower[0].high, direct.high);
  EXPECT_GT(slower[0].low, 1.0);
  EXPECT_TRUE(slower_paths(paths, paths[1]).empty());  // the slowest compiled path: none slower
  EXPECT_TRUE(slower_paths(paths, measured("none", {})).empty());
}

TEST(RatiosAgainstFastest, NothingMeasuredGivesNoRatios) {
  EXPECT_TRUE(ratios_against_fastest({measured("a", {}), measured("b", {})}).empty());
}

TEST(SlowFirstRunHint, OnlyWhenTheFirstIterationTookMoreThanThreeTimesTheMedian) {
  EXPECT_EQ(slow_first_run_hint(measured("aoti", {400, 100, 100, 100})),
            (Warning{WarningCode::slow_first_run,
                     "path aoti: the first measured iteration took 4.0 times the median (a cold start the warm-up "
                     "did not absorb); raise --warmup"}));
  EXPECT_EQ(slow_first_run_hint(measured("aoti", {300, 100, 100, 100})), std::nullopt);  // exactly 3x: no hint
  EXPECT_EQ(slow_first_run_hint(measured("aoti", {100, 400, 100, 100})), std::nullopt);  // a later one: an outlier
  EXPECT_EQ(slow_first_run_hint(measured("aoti", {900, 100})), std::nullopt);            // too few samples to say
}

// The share is waited / span, and the warning names each path at or above 5% that waited at least 10 ms, in
// path order, with its share to one decimal: aoti 76.4/200 ms = 38.2%, eager 10/200 ms = 5.0% (at both
// thresholds: named), compile 9.8/200 ms = 4.9% (not), short 9.999/20 ms (too little wait: not), run 7 ns
// over 0 (no share), and a path without a figure.
TEST(BusyCoresHint, NamesEachPathThatWaitedForACpuForAtLeastFivePercentAndTenMilliseconds) {
  std::vector<PathResult> paths{measured("aoti", {}), measured("compile", {}), measured("eager", {}),
                                measured("short", {}), measured("run", {}), measured("unread", {})};
  paths[0].run_queue = PathRunQueue{76'400'000, 200'000'000};
  paths[1].run_queue = PathRunQueue{9'800'000, 200'000'000};
  paths[2].run_queue = PathRunQueue{10'000'000, 200'000'000};
  paths[3].run_queue = PathRunQueue{9'999'999, 20'000'000};
  paths[4].run_queue = PathRunQueue{7, 0};
  EXPECT_DOUBLE_EQ(*paths[0].run_queue->share(), 0.382);
  EXPECT_EQ(paths[4].run_queue->share(), std::nullopt);
  EXPECT_FALSE(waited_for_cores(paths[5].run_queue));
  EXPECT_TRUE(waited_for_cores(paths[2].run_queue));
  EXPECT_FALSE(waited_for_cores(paths[3].run_queue));
  const auto warning = busy_cores_hint(paths);
  ASSERT_TRUE(warning.has_value());
  EXPECT_EQ(warning->code, WarningCode::cores_busy);
  EXPECT_EQ(warning->message,
            "the measuring thread waited for a CPU for part of these paths' timed wall time: aoti 38.2%, eager 5.0% "
            "(its run delay in /proc/thread-self/schedstat): more threads were ready to run than there were CPUs, "
            "another process's or this one's; the calls that waited are slower by their wait, and the median too "
            "where most calls waited; measure on a quiet machine, or with fewer intra-op threads (OMP_NUM_THREADS)");
  paths[1].run_queue = PathRunQueue{12'000'000, 200'000'000};
  EXPECT_NE(busy_cores_hint(paths)->message.find(": aoti 38.2%, compile 6.0%, eager 5.0% ("), std::string::npos);
  EXPECT_EQ(busy_cores_hint({paths[3], paths[4], paths[5], measured("quiet", {})}), std::nullopt);
}

TEST(MakeCollectorCost, RatioOfMedians) {
  const CollectorCost cost = make_collector_cost(CollectorKind::cupti, {100, 300, 200}, {250, 210, 230, 220});
  EXPECT_EQ(cost.collector, CollectorKind::cupti);
  EXPECT_EQ(cost.runs, 4u);
  EXPECT_DOUBLE_EQ(cost.wall_median_without_ns, 200.0);
  EXPECT_DOUBLE_EQ(cost.wall_median_with_ns, 225.0);
  EXPECT_DOUBLE_EQ(cost.ratio, 1.125);
  EXPECT_DOUBLE_EQ(make_collector_cost(CollectorKind::cupti, {}, {1}).ratio, 0.0);
}

}  // namespace
}  // namespace ohprof
