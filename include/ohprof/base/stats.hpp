#pragma once
// Summary statistics of a sample (docs/metrics.md, "Summary statistics").
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ohprof {

struct SampleSummary {
  std::size_t count = 0;
  double mean = 0;
  double stddev = 0;          // sample standard deviation (n - 1); 0 when count < 2
  double median = 0;          // middle value; mean of the two middle values for even counts
  double min = 0;
  double max = 0;
  double relative_noise = 0;  // stddev / mean; 0 when mean == 0
  double mad = 0;             // median absolute deviation: median of |x - median|
  std::size_t outliers = 0;   // samples outside [Q1 - 1.5 IQR, Q3 + 1.5 IQR]
};

SampleSummary summarize(std::span<const double> values);
SampleSummary summarize_ns(std::span<const std::int64_t> values_ns);

// Count, sum, mean and variance kept as values arrive (Welford's method): O(1) per value, so a
// stopping rule can be checked every round without touching the samples.
class RunningStats {
 public:
  void add(double value);
  [[nodiscard]] std::size_t count() const { return m_count; }
  [[nodiscard]] double sum() const { return m_sum; }
  [[nodiscard]] double mean() const { return m_mean; }
  [[nodiscard]] double stddev() const;  // sample standard deviation (n - 1); 0 when count < 2

 private:
  std::size_t m_count = 0;
  double m_sum = 0;
  double m_mean = 0;
  double m_m2 = 0;
};

// Linear-interpolated quantile (q in [0, 1]) of a sample; the sample need not be sorted.
double quantile(std::span<const double> values, double q);

// MAD to standard deviation for normal data: sigma = 1.4826 * MAD (the robust spread used throughout).
inline constexpr double kMadToSigma = 1.4826;

// Ratio a/b with its standard deviation by first-order error propagation
// (hyperfine's "x ± y times faster"): sigma = ratio * sqrt((sa/a)^2 + (sb/b)^2).
struct Ratio {
  double value = 0;
  double stddev = 0;
};
Ratio ratio_of_means(const SampleSummary& numerator, const SampleSummary& denominator);

// The same for medians, with the robust spread 1.4826 * MAD (the standard deviation for normal data,
// unmoved by the heavy tail that OS noise gives wall times) in place of the standard deviation.
Ratio ratio_of_medians(const SampleSummary& numerator, const SampleSummary& denominator);

}  // namespace ohprof

namespace ohprof {

// Equal-width bins of a sample for a picture (the HTML report's distributions): `bins` bins from the
// sample's minimum to its `upper` quantile (linear-interpolated, as quantile()); a value equal to the
// upper edge falls in the last bin; values above it are counted in `above`, not drawn. An empty
// sample gives no bins; a sample of one value (or lo == hi) one bin holding every value.
struct Histogram {
  double lo = 0;
  double hi = 0;
  std::vector<std::size_t> counts;
  std::size_t above = 0;
};
Histogram histogram(std::span<const double> values, std::size_t bins, double upper = 1.0);
// The same up to the value `hi` instead of a quantile (values above it counted in `above`).
Histogram histogram_to(std::span<const double> values, std::size_t bins, double hi);

// Student's t distribution's 0.975 quantile with `dof` degrees of freedom (the half-width factor of a
// two-sided 95% interval): tabulated for 1..30, 40, 50, 60, 80, 100 (NIST/SEMATECH e-Handbook of
// Statistical Methods, section 1.3.6.7.2); between and beyond tabulated values the next lower one's
// (the wider interval). dof < 1: NaN.
double student_t_975(int dof);

// The standard error of a share of sums, R = Σ part_i / Σ whole_i over n paired values (the ratio
// estimator's linearised variance): sqrt(Σ (part_i − R · whole_i)² / (n (n − 1))) / mean(whole).
// None for n < 2, sizes that differ, or Σ whole ≤ 0.
std::optional<double> share_of_sums_se(std::span<const std::int64_t> part, std::span<const std::int64_t> whole);

}  // namespace ohprof
