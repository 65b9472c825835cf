// The sweep's figures (analysis/sweep.hpp, docs/sweep.md "What it computes") on cases whose answers are
// worked by hand in the comments, or (the fit's intervals) taken from the independent reference,
// test/tools/sweep_reference.py, which has its own t quantiles.
#include "ohprof/analysis/sweep.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace ohprof {
namespace {

// sqrt(pi / 2) * 1.4826: se(median) = kSeFactor * MAD / sqrt(n).
const double kSeFactor = std::sqrt(std::numbers::pi / 2) * 1.4826;

SampleSummary wall(double median, double mad = 0, std::size_t count = 4) {
  SampleSummary s;
  s.count = count;
  s.median = median;
  s.mean = median;
  s.mad = mad;
  return s;
}

SweepPathPoint path(const std::string& name, double median, double mad = 0, std::optional<double> host = std::nullopt,
                    std::optional<double> busy = std::nullopt) {
  return SweepPathPoint{name, wall(median, mad), busy, host, std::nullopt, std::nullopt};
}

TEST(SweepFigures, LatencyAndThroughputWithTheirStandardErrors) {
  // value 4, median 2000 ns, MAD 100 ns over 100 samples: se = kSeFactor * 100 / 10 = 18.58 ns;
  // throughput 4e9 / 2000 = 2e6 per s, its se 2e6 * 18.58 / 2000 = 18582 per s.
  const SweepPathFigures f = path_figures(4, wall(2000, 100, 100));
  EXPECT_DOUBLE_EQ(f.latency_ns, 2000);
  EXPECT_NEAR(f.latency_se_ns, kSeFactor * 10, 1e-9);
  EXPECT_NEAR(f.latency_se_ns, 18.5817, 1e-3);
  EXPECT_DOUBLE_EQ(f.throughput_per_s, 2e6);
  EXPECT_NEAR(f.throughput_se_per_s, 2e6 * kSeFactor * 10 / 2000, 1e-6);
  // One sample: no spread.
  EXPECT_EQ(path_figures(1, wall(2000, 100, 1)).latency_se_ns, 0);
}

TEST(SweepFigures, RatioIntervalAndTheToleranceBand) {
  // 3000 / 1000 with MAD 0: ratio 3 exactly, se 0.
  SweepRatio r = point_ratio(path("compile", 3000), path("aoti", 1000), 0.05);
  EXPECT_EQ(r.slower, "compile");
  EXPECT_EQ(r.faster, "aoti");
  EXPECT_DOUBLE_EQ(r.ratio, 3);
  EXPECT_EQ(r.se, 0);
  EXPECT_FALSE(r.within);
  // Both medians 1% uncertain (se = kSeFactor * MAD / 2 with n = 4: MAD = 0.02 m / kSeFactor): the
  // ratio's relative se is sqrt(2) %, se = 3 * 0.014142 = 0.042426; low = 3 - 1.96 * 0.042426 = 2.91684.
  r = point_ratio(path("compile", 3000, 60 / kSeFactor), path("aoti", 1000, 20 / kSeFactor), 0.05);
  EXPECT_NEAR(r.se, 0.0424264, 1e-6);
  EXPECT_NEAR(r.low, 2.916844, 1e-6);
  EXPECT_NEAR(r.high, 3.083156, 1e-6);
  // The band [1 - t, 1 + t]: 1.04 +- 0 reaches [0.95, 1.05] but not [1, 1] (t = 0).
  EXPECT_TRUE(point_ratio(path("a", 1040), path("b", 1000), 0.05).within);
  EXPECT_FALSE(point_ratio(path("a", 1040), path("b", 1000), 0.0).within);
  // With t = 0 the interval must include 1: 1.04 with se 0.0294 (low 0.982) does.
  EXPECT_TRUE(point_ratio(path("a", 1040, 60 / kSeFactor), path("b", 1000, 20 / kSeFactor), 0.0).within);
}

// docs/sweep.md, "Pairs": medians 120 and 20 (MAD 10, 6 samples each): ratio 6, independent se
// 6 * kSeFactor * 10 / sqrt(6) * sqrt(1 / 120^2 + 1 / 20^2) = 2.30717; per-round medians 110, 150, 120 against
// 20, 10, 50: ratios 5.5, 15, 2.4, median 5.5, MAD 3.1, paired se kSeFactor * 3.1 / sqrt(3) = 3.32571, the
// larger. Rounds 0 and 2 only in common: ratios 5.5, 2.4, MAD 1.55, kSeFactor * 1.55 / sqrt(2) = 2.03657,
// smaller: the independent se.
TEST(SweepFigures, ARatioPairsByRoundWhereThePointKeptItsRounds) {
  SweepPathPoint a{"compile", wall(120, 10, 6), std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  SweepPathPoint b{"aoti", wall(20, 10, 6), std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  EXPECT_NEAR(point_ratio(a, b, 0.05).se, 2.30717, 1e-5);
  a.round_medians_ns = {110, 150, 120};
  b.round_medians_ns = {20, 10, 50};
  const SweepRatio r = point_ratio(a, b, 0.05);
  EXPECT_DOUBLE_EQ(r.ratio, 6);
  EXPECT_NEAR(r.se, 3.32571, 1e-5);
  EXPECT_NEAR(r.low, 6 - 1.96 * 3.32571, 1e-4);
  b.round_medians_ns = {20, std::nullopt, 50, 7};
  EXPECT_NEAR(point_ratio(a, b, 0.05).se, 2.30717, 1e-5);
}

std::vector<SweepRatio> series(std::initializer_list<bool> within) {
  std::vector<SweepRatio> out;
  for (bool w : within) out.push_back(SweepRatio{"a", "b", 1, 0, 1, 1, w});
  return out;
}

TEST(SweepFigures, CrossoverIsTheFirstPointFromWhichEveryRatioIsWithin) {
  EXPECT_EQ(crossover_index(series({false, false, true, true, true})), 2u);
  EXPECT_EQ(crossover_index(series({true, false, true})), 2u);  // a dip out of the band resets it
  EXPECT_EQ(crossover_index(series({true, true})), 0u);          // converged over the whole range
  EXPECT_EQ(crossover_index(series({true, true, false})), std::nullopt);
  EXPECT_EQ(crossover_index({}), std::nullopt);
}

TEST(SweepFit, AnExactLineIsRecoveredWithIntervalsOfZeroWidth) {
  const SweepFit f = fit_fixed_and_per_item("p", {1, 2, 4, 8}, {1010, 1020, 1040, 1080}, 0.10);
  EXPECT_EQ(f.status, FitStatus::fitted);
  EXPECT_NEAR(*f.fixed_ns, 1000, 1e-9);
  EXPECT_NEAR(*f.per_item_ns, 10, 1e-12);
  EXPECT_NEAR(*f.fixed_high_ns - *f.fixed_low_ns, 0, 1e-6);
  EXPECT_NEAR(*f.per_item_high_ns - *f.per_item_low_ns, 0, 1e-6);
  EXPECT_EQ(f.points_used, (std::vector<std::int64_t>{1, 2, 4, 8}));
  EXPECT_TRUE(f.points_left_out.empty());
  EXPECT_NEAR(*f.max_relative_residual, 0, 1e-12);
}

TEST(SweepFit, ABadPointInsideTheRangeIsLeftOutWithItsResidual) {
  // 1000 + 10 x, and x = 6 at 1.4 times its 1060: left out; e = (1484 - 1060) / 1484 = 0.2857.
  const SweepFit f = fit_fixed_and_per_item("p", {1, 2, 4, 6, 8}, {1010, 1020, 1040, 1.4 * 1060, 1080}, 0.10);
  EXPECT_EQ(f.status, FitStatus::fitted);
  EXPECT_EQ(f.points_used, (std::vector<std::int64_t>{1, 2, 4, 8}));
  ASSERT_EQ(f.points_left_out.size(), 1u);
  EXPECT_EQ(f.points_left_out[0].value, 6);
  EXPECT_NEAR(f.points_left_out[0].relative_residual, 0.4 / 1.4, 1e-9);
  EXPECT_NEAR(*f.per_item_ns, 10, 1e-9);
}

TEST(SweepFit, ABadPointAtTheEndIsLeftOutDespiteItsLeverage) {
  // At the largest value the bad point pulls the slope towards itself: a rule on plain residuals left
  // out x = 8 instead (and kept x = 32 within 10%, k = 26.6); the deleted residual finds it.
  for (std::int64_t far : {16, 32}) {
    const SweepFit f = fit_fixed_and_per_item("p", {1, 2, 4, 8, far},
                                              {1010, 1020, 1040, 1080, 1.4 * (1000 + 10.0 * static_cast<double>(far))}, 0.10);
    EXPECT_EQ(f.points_used, (std::vector<std::int64_t>{1, 2, 4, 8})) << far;
    ASSERT_EQ(f.points_left_out.size(), 1u);
    EXPECT_EQ(f.points_left_out[0].value, far);
    EXPECT_NEAR(*f.per_item_ns, 10, 1e-9);
  }
}

TEST(SweepFit, IntervalsMatchTheReference) {
  // time 10, 12, 13 at x = 1, 2, 3: test/tools/sweep_reference.py's fit (exact t quantile 12.7062 for
  // 1 degree of freedom; ohprof's table has 12.706, hence the tolerance on the bounds).
  const SweepFit f = fit_fixed_and_per_item("p", {1, 2, 3}, {10, 12, 13}, 0.10);
  EXPECT_EQ(f.status, FitStatus::fitted);
  EXPECT_NEAR(*f.fixed_ns, 8.577514792899423, 1e-9);
  EXPECT_NEAR(*f.per_item_ns, 1.5408284023668561, 1e-9);
  EXPECT_NEAR(*f.max_relative_residual, 0.028402366863905366, 1e-12);
  EXPECT_NEAR(*f.fixed_low_ns, 1.4999917029544196, 1e-3);
  EXPECT_NEAR(*f.fixed_high_ns, 15.655037882844427, 1e-3);
  EXPECT_NEAR(*f.per_item_low_ns, -2.005974777493903, 1e-3);
  EXPECT_NEAR(*f.per_item_high_ns, 5.0876315822276155, 1e-3);
}

TEST(SweepFit, CurvatureLeavesOutTheFarPointsOrIsNotLinear) {
  // 100 + x^2: the line through 1, 2, 4 fits within 5%; 8, 16, 32 are left out (reference: e = 0.17,
  // 0.50, 0.77 against the final fit).
  const SweepFit f = fit_fixed_and_per_item("p", {1, 2, 4, 8, 16, 32}, {101, 104, 116, 164, 356, 1124}, 0.05);
  EXPECT_EQ(f.status, FitStatus::fitted);
  EXPECT_EQ(f.points_used, (std::vector<std::int64_t>{1, 2, 4}));
  ASSERT_EQ(f.points_left_out.size(), 3u);
  EXPECT_NEAR(f.points_left_out[0].relative_residual, 0.1717, 1e-4);
  // With a 0.1% tolerance even 3 points do not fit: not_linear, numbers still given.
  const SweepFit tight = fit_fixed_and_per_item("p", {1, 2, 4, 8, 16, 32}, {101, 104, 116, 164, 356, 1124}, 0.001);
  EXPECT_EQ(tight.status, FitStatus::not_linear);
  EXPECT_EQ(tight.points_used.size(), 3u);
  EXPECT_TRUE(tight.fixed_ns.has_value());
  EXPECT_GT(*tight.max_relative_residual, 0.001);
}

TEST(SweepFit, TwoPointsAreTooFew) {
  const SweepFit f = fit_fixed_and_per_item("p", {1, 2}, {10, 12}, 0.10);
  EXPECT_EQ(f.status, FitStatus::too_few_points);
  EXPECT_FALSE(f.fixed_ns.has_value());
  EXPECT_FALSE(f.max_relative_residual.has_value());
  EXPECT_EQ(f.points_used, (std::vector<std::int64_t>{1, 2}));
}

SweepPoint measured(std::int64_t value, std::vector<SweepPathPoint> paths) {
  SweepPoint p;
  p.value = value;
  p.status = PointStatus::measured;
  p.paths = std::move(paths);
  return p;
}

TEST(AnalyzeSweep, PairsAreOrientedAtTheFirstPointAndSkipFailedPoints) {
  SweepReport report;
  report.config.paths = {"aoti", "compile"};
  report.config.tolerance = 0.05;
  report.config.fit_tolerance = 0.10;
  // compile is 10x slower at 1, 2x at 2, failed at 4, 1.02x at 8 and 0.99x at 16.
  report.points.push_back(measured(1, {path("aoti", 1000, 0, 300.0, 700.0), path("compile", 10000, 0, 9000.0, 1000.0)}));
  report.points.push_back(measured(2, {path("aoti", 2000), path("compile", 4000)}));
  SweepPoint failed;
  failed.value = 4;
  failed.status = PointStatus::failed;
  failed.reason = "out of memory";
  report.points.push_back(failed);
  report.points.push_back(measured(8, {path("aoti", 8000), path("compile", 8160)}));
  report.points.push_back(measured(16, {path("aoti", 16000), path("compile", 15840)}));
  const SweepReport out = analyze_sweep(report);

  EXPECT_EQ(out.analysis.baseline, "aoti");
  ASSERT_EQ(out.analysis.pairs.size(), 1u);
  const SweepPair& pair = out.analysis.pairs[0];
  EXPECT_EQ(pair.slower, "compile");  // slower at batch 1, and stays the numerator at 16 (ratio 0.99)
  EXPECT_EQ(pair.points, 4u);
  EXPECT_EQ(pair.crossover, 8);        // within at 8 (1.02) and 16 (0.99); 4 failed and is skipped
  EXPECT_EQ(pair.crossover_index, 2u); // the pair's third point
  EXPECT_TRUE(out.points[2].ratios.empty());
  ASSERT_EQ(out.points[4].ratios.size(), 1u);
  EXPECT_NEAR(out.points[4].ratios[0].ratio, 0.99, 1e-12);
  EXPECT_NEAR(out.points[0].paths[1].figures.throughput_per_s, 1e5, 1e-6);  // 1 / 10 us
  // Each path's ratio to the baseline (aoti): compile / aoti, at every measured point; none for aoti.
  EXPECT_FALSE(out.points[0].paths[0].figures.to_baseline.has_value());
  ASSERT_TRUE(out.points[4].paths[1].figures.to_baseline.has_value());
  EXPECT_NEAR(out.points[4].paths[1].figures.to_baseline->ratio, 0.99, 1e-12);
  EXPECT_NEAR(out.points[0].paths[1].figures.to_baseline->ratio, 10, 1e-12);

  ASSERT_EQ(out.analysis.fits.size(), 2u);
  const SweepFit& aoti = out.analysis.fits[0];
  EXPECT_EQ(aoti.path, "aoti");
  EXPECT_NEAR(*aoti.per_item_ns, 1000, 1e-6);  // 1000 x exactly
  EXPECT_NEAR(*aoti.fixed_ns, 0, 1e-6);
  EXPECT_EQ(aoti.smallest, 1);
  EXPECT_EQ(aoti.host_at_smallest_ns, 300.0);
  EXPECT_EQ(aoti.busy_at_smallest_ns, 700.0);
  EXPECT_NEAR(*aoti.fixed_minus_host_ns, -300, 1e-6);
  EXPECT_FALSE(aoti.host_upper_bound);
  EXPECT_EQ(aoti.points_used, (std::vector<std::int64_t>{1, 2, 8, 16}));
}

// A path whose kernels do not record themselves at the smallest point: the fit's host time is a bound.
TEST(AnalyzeSweep, TheFitsHostTimeIsABoundWhereThePathsKernelsDoNotRecordThemselves) {
  SweepReport report;
  report.config.paths = {"aoti", "compile"};
  for (const std::int64_t v : {1, 2, 4}) {
    report.points.push_back(measured(v, {path("aoti", 1000.0 * static_cast<double>(v), 0, 300.0, 700.0),
                                         path("compile", 9000.0 + 1000.0 * static_cast<double>(v), 0, 8000.0, 2000.0)}));
  }
  report.points[0].paths[1].kernels_unrecorded = true;   // compile at batch 1
  report.points[1].paths[0].kernels_unrecorded = true;   // aoti at 2 only: not the smallest point
  const SweepReport out = analyze_sweep(report);
  ASSERT_EQ(out.analysis.fits.size(), 2u);
  EXPECT_FALSE(out.analysis.fits[0].host_upper_bound);
  EXPECT_TRUE(out.analysis.fits[1].host_upper_bound);
  EXPECT_EQ(out.analysis.fits[1].host_at_smallest_ns, 8000.0);
  EXPECT_NEAR(*out.analysis.fits[1].fixed_minus_host_ns, 9000 - 8000, 1e-6);  // c = 9000 (10000 at 1, 1000 per item)
  // an open queue at the smallest point bounds it the same way (docs/sweep.md, queue_open)
  report.points[0].paths[1].kernels_unrecorded = false;
  EXPECT_FALSE(analyze_sweep(report).analysis.fits[1].host_upper_bound);
  report.points[0].paths[1].queue_open = true;
  EXPECT_TRUE(analyze_sweep(report).analysis.fits[1].host_upper_bound);
}

// A fit that leaves the smallest point out (a GPU path flat while overhead-bound) describes the others: its c
// is not compared with the host time there. 1: 5000 (host 4000); 2, 4, 8, 16: 1000 + 10 x. The first point is
// 80% off the line through the others: left out; c = 1000 lies below its time, and c − host would read −3000.
TEST(AnalyzeSweep, NoFixedMinusHostWhereTheFitLeftTheSmallestPointOut) {
  SweepReport report;
  report.config.paths = {"aoti"};
  report.points.push_back(measured(1, {path("aoti", 5000.0, 0, 4000.0, 1000.0)}));
  for (const std::int64_t v : {2, 4, 8, 16}) {
    report.points.push_back(measured(v, {path("aoti", 1000.0 + 10.0 * static_cast<double>(v), 0, 500.0, 500.0)}));
  }
  const SweepFit fit = analyze_sweep(report).analysis.fits.at(0);
  EXPECT_EQ(fit.points_used, (std::vector<std::int64_t>{2, 4, 8, 16}));
  EXPECT_NEAR(fit.fixed_ns.value_or(-1), 1000, 1e-6);
  EXPECT_EQ(fit.smallest, 1);
  EXPECT_EQ(fit.host_at_smallest_ns, 4000.0);  // still given
  EXPECT_FALSE(fit.fixed_minus_host_ns);
}

TEST(AnalyzeSweep, OnATieTheFirstListedIsTheSlowerAndBaselineIsTheFirstFastest) {
  SweepReport report;
  report.config.paths = {"eager", "aoti"};
  report.points.push_back(measured(1, {path("eager", 1000), path("aoti", 1000)}));
  report.points.push_back(measured(2, {path("eager", 3000), path("aoti", 2000)}));
  const SweepReport out = analyze_sweep(report);
  EXPECT_EQ(out.analysis.baseline, "eager");
  ASSERT_EQ(out.analysis.pairs.size(), 1u);
  EXPECT_EQ(out.analysis.pairs[0].slower, "eager");
  EXPECT_NEAR(out.points[1].ratios[0].ratio, 1.5, 1e-12);
  EXPECT_EQ(out.analysis.fits[0].status, FitStatus::too_few_points);
}

TEST(AnalyzeSweep, NoMeasuredPointLeavesAnEmptyAnalysis) {
  SweepReport report;
  report.config.paths = {"aoti", "compile"};
  SweepPoint p;
  p.value = 1;
  p.status = PointStatus::failed;
  report.points.push_back(p);
  const SweepReport out = analyze_sweep(report);
  EXPECT_EQ(out.analysis.baseline, "");
  EXPECT_TRUE(out.analysis.pairs.empty());
  ASSERT_EQ(out.analysis.fits.size(), 2u);
  EXPECT_FALSE(out.analysis.fits[0].smallest.has_value());
}

}  // namespace
}  // namespace ohprof

namespace ohprof {
namespace {

TEST(SweepPasses, TheLeastDisturbedPassHasTheLowestGeometricMean) {
  EXPECT_NEAR(pass_score({{"a", 1000}, {"b", 4000}}), 2000, 1e-9);  // sqrt(1000 * 4000)
  EXPECT_EQ(pass_score({}), 0);
  EXPECT_NEAR(pass_score({{"a", 1000}, {"b", 0}}), 1000, 1e-9);  // a path without samples takes no part
  // Pass 2 is 10% slower on one path and 20% faster on the other: its score is lower.
  const auto medians = [](double a, double b) { return std::vector<std::pair<std::string, double>>{{"a", a}, {"b", b}}; };
  std::vector<SweepPass> passes{{1, "", medians(1000, 4000), pass_score(medians(1000, 4000))},
                                {2, "", medians(1100, 3200), pass_score(medians(1100, 3200))},
                                {3, "", medians(1100, 3200), pass_score(medians(1100, 3200))}};
  EXPECT_EQ(least_disturbed_pass(passes), 1u);  // the first of the two equal ones
  passes.resize(1);
  EXPECT_EQ(least_disturbed_pass(passes), 0u);
}

}  // namespace
}  // namespace ohprof
