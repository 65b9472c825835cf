#include "ohprof/base/stats.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace ohprof {
namespace {

TEST(Summarize, MatchesHandComputedValues) {
  // mean = 30/5 = 6; deviations -4,-2,0,2,4 -> squares 16+4+0+4+16 = 40; s = sqrt(40/4) = sqrt(10).
  const std::vector<double> values{8, 2, 6, 4, 10};
  const SampleSummary s = summarize(values);
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.mean, 6.0);
  EXPECT_DOUBLE_EQ(s.median, 6.0);
  EXPECT_DOUBLE_EQ(s.min, 2.0);
  EXPECT_DOUBLE_EQ(s.max, 10.0);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(10.0));
  EXPECT_DOUBLE_EQ(s.relative_noise, std::sqrt(10.0) / 6.0);
  EXPECT_EQ(s.outliers, 0u);
}

TEST(Summarize, EvenCountMedianIsMeanOfMiddlePair) {
  const std::vector<double> values{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(summarize(values).median, 2.5);
}

TEST(Summarize, SingleSampleHasZeroSpread) {
  const std::vector<double> values{7};
  const SampleSummary s = summarize(values);
  EXPECT_DOUBLE_EQ(s.stddev, 0.0);
  EXPECT_DOUBLE_EQ(s.median, 7.0);
}

TEST(Summarize, EmptySampleIsAllZero) {
  const SampleSummary s = summarize(std::vector<double>{});
  EXPECT_EQ(s.count, 0u);
  EXPECT_DOUBLE_EQ(s.mean, 0.0);
}

TEST(Summarize, FlagsTukeyOutliers) {
  // Q1 = 10.25, Q3 = 11.75 (linear interpolation over 10,10,11,11,12,100 sorted: 10,10,11,11,12,100)
  // -> positions 1.25 and 3.75: Q1 = 10 + 0.25*1 = 10.25, Q3 = 11 + 0.75*1 = 11.75, IQR 1.5,
  // fences 8.0 and 14.0: only 100 is outside.
  const std::vector<double> values{10, 11, 12, 10, 11, 100};
  EXPECT_EQ(summarize(values).outliers, 1u);
}

TEST(Summarize, NanosecondIntegersConvertExactly) {
  const std::vector<std::int64_t> values{1'000'000, 3'000'000};
  const SampleSummary s = summarize_ns(values);
  EXPECT_DOUBLE_EQ(s.mean, 2'000'000.0);
  EXPECT_DOUBLE_EQ(s.median, 2'000'000.0);
}

TEST(Quantile, InterpolatesLinearly) {
  const std::vector<double> values{0, 10, 20, 30};
  EXPECT_DOUBLE_EQ(quantile(values, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(quantile(values, 1.0), 30.0);
  EXPECT_DOUBLE_EQ(quantile(values, 0.5), 15.0);
  EXPECT_DOUBLE_EQ(quantile(values, 0.25), 7.5);
}

// quantile finds its two order statistics without sorting: the same value, bit for bit, as the
// definition over a sorted copy (docs/metrics.md), on random samples with and without ties.
TEST(Quantile, EqualsTheDefinitionOverASortedCopy) {
  const auto by_sorting = [](std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    const double position = q * static_cast<double>(v.size() - 1);
    const auto lower = static_cast<std::size_t>(std::floor(position));
    const auto upper = static_cast<std::size_t>(std::ceil(position));
    return v[lower] + (v[upper] - v[lower]) * (position - static_cast<double>(lower));
  };
  std::mt19937_64 random(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t n = 1 + random() % 64;
    const bool ties = trial % 2 == 0;
    std::vector<double> values(n);
    for (double& v : values) v = ties ? static_cast<double>(random() % 5) : std::ldexp(static_cast<double>(random() % 1000000), -7);
    for (const double q : {0.0, 0.01, 0.25, 0.5, 0.75, 0.99, 1.0, std::ldexp(static_cast<double>(random() % 1000), -10)}) {
      ASSERT_EQ(quantile(values, q), by_sorting(values, q)) << "n " << n << " q " << q << " trial " << trial;
    }
  }
  EXPECT_TRUE(std::isnan(quantile(std::vector<double>{1, 2}, std::numeric_limits<double>::quiet_NaN())));
}

TEST(RatioOfMeans, PropagatesRelativeErrors) {
  SampleSummary slow;
  slow.mean = 30;
  slow.stddev = 3;  // 10 %
  SampleSummary fast;
  fast.mean = 10;
  fast.stddev = 1;  // 10 %
  const Ratio r = ratio_of_means(slow, fast);
  EXPECT_DOUBLE_EQ(r.value, 3.0);
  EXPECT_NEAR(r.stddev, 3.0 * std::sqrt(0.02), 1e-12);
}

TEST(Summarize, MedianAbsoluteDeviation) {
  // median 6; |x - 6| = 2, 4, 0, 2, 4 -> sorted 0, 2, 2, 4, 4 -> MAD 2.
  const std::vector<double> values{8, 2, 6, 4, 10};
  EXPECT_DOUBLE_EQ(summarize(values).mad, 2.0);
  // A single wild value moves the stddev a lot and the MAD not at all.
  const std::vector<double> tailed{8, 2, 6, 4, 1000};
  EXPECT_DOUBLE_EQ(summarize(tailed).mad, 2.0);
}

TEST(RatioOfMedians, UsesTheRobustSpread) {
  SampleSummary slow;
  slow.median = 30;
  slow.mad = 3.0 / 1.4826;  // robust sigma 3: 10 %
  SampleSummary fast;
  fast.median = 10;
  fast.mad = 1.0 / 1.4826;  // robust sigma 1: 10 %
  const Ratio r = ratio_of_medians(slow, fast);
  EXPECT_DOUBLE_EQ(r.value, 3.0);
  EXPECT_NEAR(r.stddev, 3.0 * std::sqrt(0.02), 1e-12);
  EXPECT_DOUBLE_EQ(ratio_of_medians(slow, SampleSummary{}).value, 0.0);
}

TEST(RatioOfMeans, ZeroDenominatorGivesZero) {
  SampleSummary a;
  a.mean = 1;
  const Ratio r = ratio_of_means(a, SampleSummary{});
  EXPECT_DOUBLE_EQ(r.value, 0.0);
}

}  // namespace
}  // namespace ohprof

namespace ohprof {
namespace {

TEST(RunningStats, MatchesTheBatchSummary) {
  const std::vector<double> values{8, 2, 6, 4, 10};
  RunningStats running;
  for (double v : values) running.add(v);
  EXPECT_EQ(running.count(), 5u);
  EXPECT_DOUBLE_EQ(running.sum(), 30.0);
  EXPECT_DOUBLE_EQ(running.mean(), 6.0);
  EXPECT_NEAR(running.stddev(), std::sqrt(10.0), 1e-12);
  RunningStats one;
  one.add(3);
  EXPECT_DOUBLE_EQ(one.stddev(), 0.0);
}

}  // namespace
}  // namespace ohprof

namespace ohprof {
namespace {

TEST(StudentT, TabulatedValuesAndTheNextLowerBetweenThem) {
  // NIST/SEMATECH e-Handbook, 1.3.6.7.2, upper 2.5% critical values.
  EXPECT_DOUBLE_EQ(student_t_975(1), 12.706);
  EXPECT_DOUBLE_EQ(student_t_975(2), 4.303);
  EXPECT_DOUBLE_EQ(student_t_975(10), 2.228);
  EXPECT_DOUBLE_EQ(student_t_975(30), 2.042);
  EXPECT_DOUBLE_EQ(student_t_975(35), 2.042);  // between 30 and 40: 30's, the wider interval
  EXPECT_DOUBLE_EQ(student_t_975(40), 2.021);
  EXPECT_DOUBLE_EQ(student_t_975(99), 1.990);
  EXPECT_DOUBLE_EQ(student_t_975(100), 1.984);
  EXPECT_DOUBLE_EQ(student_t_975(100000), 1.984);
  EXPECT_TRUE(std::isnan(student_t_975(0)));
}

// Parts {1, 2, 3} of wholes {2, 4, 5}: R = 6/11 = 0.545455; residuals 1 - 2R = -0.090909, 2 - 4R = -0.181818,
// 3 - 5R = 0.272727; squares sum 0.115702; / (3 * 2) = 0.0192837; sqrt 0.138866; / mean(whole) 11/3 = 0.0378725.
TEST(ShareOfSumsSe, TheRatioEstimatorsLinearisedStandardError) {
  const std::vector<std::int64_t> part{1, 2, 3};
  const std::vector<std::int64_t> whole{2, 4, 5};
  ASSERT_TRUE(share_of_sums_se(part, whole).has_value());
  EXPECT_NEAR(*share_of_sums_se(part, whole), 0.0378725264, 1e-9);
  // every iteration the same share: no spread
  EXPECT_DOUBLE_EQ(*share_of_sums_se(std::vector<std::int64_t>{1, 2, 3}, std::vector<std::int64_t>{2, 4, 6}), 0.0);
  // one iteration, sizes that differ, no whole: none
  EXPECT_FALSE(share_of_sums_se(std::vector<std::int64_t>{1}, std::vector<std::int64_t>{2}).has_value());
  EXPECT_FALSE(share_of_sums_se(part, std::vector<std::int64_t>{2, 4}).has_value());
  EXPECT_FALSE(share_of_sums_se(part, std::vector<std::int64_t>{0, 0, 0}).has_value());
}

TEST(Histogram, EqualBinsFromTheMinimumToTheUpperQuantileAndTheRestAbove) {
  // 0..10 in 5 bins of width 2 up to the maximum: [0,2) holds 0 and 1, ..., the last [8,10] holds 8, 9, 10
  std::vector<double> v;
  for (int i = 0; i <= 10; ++i) v.push_back(i);
  Histogram h = histogram(v, 5);
  EXPECT_EQ(h.lo, 0);
  EXPECT_EQ(h.hi, 10);
  EXPECT_EQ(h.counts, (std::vector<std::size_t>{2, 2, 2, 2, 3}));
  EXPECT_EQ(h.above, 0u);
  // up to the 0.8 quantile (8, by linear interpolation over 11 values): 9 and 10 are above
  h = histogram(v, 4, 0.8);
  EXPECT_EQ(h.hi, 8);
  EXPECT_EQ(h.counts, (std::vector<std::size_t>{2, 2, 2, 3}));
  EXPECT_EQ(h.above, 2u);
}

TEST(Histogram, EmptyAndConstantSamples) {
  EXPECT_TRUE(histogram(std::vector<double>{}, 10).counts.empty());
  const Histogram h = histogram(std::vector<double>{7, 7, 7}, 10);
  EXPECT_EQ(h.counts, (std::vector<std::size_t>{3}));
  EXPECT_EQ(h.lo, 7);
  EXPECT_EQ(h.hi, 7);
}

}  // namespace
}  // namespace ohprof
