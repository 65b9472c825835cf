#include "ohprof/base/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace ohprof {

void RunningStats::add(double value) {
  ++m_count;
  m_sum += value;
  const double delta = value - m_mean;
  m_mean += delta / static_cast<double>(m_count);
  m_m2 += delta * (value - m_mean);
}

double RunningStats::stddev() const {
  return m_count < 2 ? 0.0 : std::sqrt(m_m2 / static_cast<double>(m_count - 1));
}

double quantile(std::span<const double> values, double q) {
  if (values.empty()) return 0;
  if (std::isnan(q)) return std::numeric_limits<double>::quiet_NaN();
  // The order statistics at floor and ceil of the position, as a full sort would place them: the
  // lower by nth_element, the upper the least of what lies after it (linear, not n log n).
  std::vector<double> order(values.begin(), values.end());
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(order.size() - 1);
  const auto lower = static_cast<std::size_t>(std::floor(position));
  const auto upper = static_cast<std::size_t>(std::ceil(position));
  const double fraction = position - static_cast<double>(lower);
  const auto nth = order.begin() + static_cast<std::ptrdiff_t>(lower);
  std::nth_element(order.begin(), nth, order.end());
  const double low = *nth;
  const double high = upper == lower ? low : *std::min_element(nth + 1, order.end());
  return low + (high - low) * fraction;
}

SampleSummary summarize(std::span<const double> values) {
  SampleSummary summary;
  summary.count = values.size();
  if (values.empty()) return summary;
  const double n = static_cast<double>(values.size());
  summary.mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
  if (values.size() > 1) {
    double squares = 0;
    for (double v : values) squares += (v - summary.mean) * (v - summary.mean);
    summary.stddev = std::sqrt(squares / (n - 1));
  }
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  summary.min = *lo;
  summary.max = *hi;
  summary.median = quantile(values, 0.5);
  summary.relative_noise = summary.mean != 0 ? summary.stddev / summary.mean : 0;
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::fabs(v - summary.median));
  summary.mad = quantile(deviations, 0.5);
  const double q1 = quantile(values, 0.25);
  const double q3 = quantile(values, 0.75);
  const double fence = 1.5 * (q3 - q1);
  summary.outliers = static_cast<std::size_t>(std::count_if(
      values.begin(), values.end(), [&](double v) { return v < q1 - fence || v > q3 + fence; }));
  return summary;
}

SampleSummary summarize_ns(std::span<const std::int64_t> values_ns) {
  std::vector<double> values(values_ns.begin(), values_ns.end());
  return summarize(values);
}

Ratio ratio_of_means(const SampleSummary& numerator, const SampleSummary& denominator) {
  Ratio ratio;
  if (denominator.mean == 0 || numerator.mean == 0) return ratio;
  ratio.value = numerator.mean / denominator.mean;
  const double a = numerator.stddev / numerator.mean;
  const double b = denominator.stddev / denominator.mean;
  ratio.stddev = ratio.value * std::sqrt(a * a + b * b);
  return ratio;
}

Ratio ratio_of_medians(const SampleSummary& numerator, const SampleSummary& denominator) {
  Ratio ratio;
  if (denominator.median == 0 || numerator.median == 0) return ratio;
  ratio.value = numerator.median / denominator.median;
  const double a = kMadToSigma * numerator.mad / numerator.median;
  const double b = kMadToSigma * denominator.mad / denominator.median;
  ratio.stddev = ratio.value * std::sqrt(a * a + b * b);
  return ratio;
}

}  // namespace ohprof

namespace ohprof {

double student_t_975(int dof) {
  // Upper 2.5% critical values of Student's t, NIST/SEMATECH e-Handbook of Statistical Methods,
  // section 1.3.6.7.2 (public domain, U.S. government work).
  static constexpr double kSmall[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                        2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                        2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  static constexpr std::pair<int, double> kLarge[] = {{40, 2.021}, {50, 2.009}, {60, 2.000}, {80, 1.990}, {100, 1.984}};
  if (dof < 1) return std::numeric_limits<double>::quiet_NaN();
  if (dof <= 30) return kSmall[dof - 1];
  double value = kSmall[29];
  for (const auto& [at, t] : kLarge) {
    if (dof >= at) value = t;
  }
  return value;
}

Histogram histogram(std::span<const double> values, std::size_t bins, double upper) {
  if (values.empty() || bins == 0) return Histogram{};
  return histogram_to(values, bins, quantile(values, upper));
}

Histogram histogram_to(std::span<const double> values, std::size_t bins, double hi) {
  Histogram h;
  if (values.empty() || bins == 0) return h;
  h.lo = *std::min_element(values.begin(), values.end());
  h.hi = hi;
  if (!(h.hi > h.lo)) {
    h.hi = h.lo;
    h.counts = {0};
    for (double v : values) (v > h.hi ? h.above : h.counts[0]) += 1;
    return h;
  }
  h.counts.assign(bins, 0);
  const double width = (h.hi - h.lo) / static_cast<double>(bins);
  for (double v : values) {
    if (v > h.hi) {
      ++h.above;
      continue;
    }
    const auto bin = static_cast<std::size_t>((v - h.lo) / width);
    ++h.counts[std::min(bin, bins - 1)];
  }
  return h;
}

std::optional<double> share_of_sums_se(std::span<const std::int64_t> part, std::span<const std::int64_t> whole) {
  const std::size_t n = part.size();
  if (n < 2 || whole.size() != n) return std::nullopt;
  double sum_part = 0;
  double sum_whole = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sum_part += static_cast<double>(part[i]);
    sum_whole += static_cast<double>(whole[i]);
  }
  if (!(sum_whole > 0)) return std::nullopt;
  const double share = sum_part / sum_whole;
  double squares = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double residual = static_cast<double>(part[i]) - share * static_cast<double>(whole[i]);
    squares += residual * residual;
  }
  const double count = static_cast<double>(n);
  return std::sqrt(squares / (count * (count - 1))) / (sum_whole / count);
}

}  // namespace ohprof
