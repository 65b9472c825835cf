// docs/sweep.md, "What it computes", defines every number here; test/tools/sweep_reference.py computes
// them again, independently.
#include "ohprof/analysis/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ohprof/analysis/explanation.hpp"  // median_standard_error, paired_se

namespace ohprof {
namespace {


const SweepPathPoint* find_path(const SweepPoint& point, const std::string& name) {
  if (point.status != PointStatus::measured) return nullptr;
  for (const auto& path : point.paths) {
    if (path.name == name && path.wall_ns.count > 0 && path.wall_ns.median > 0) return &path;
  }
  return nullptr;
}

struct Line {
  double c = 0, k = 0, var_c = 0, var_k = 0;
};

// The weighted fit over the points with used[i]; nullopt when the xs do not determine a line.
std::optional<Line> weighted_line(const std::vector<std::int64_t>& xs, const std::vector<double>& ys,
                                  const std::vector<bool>& used) {
  double s = 0, sx = 0, sxx = 0, sy = 0, sxy = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (!used[i]) continue;
    const double w = 1.0 / (ys[i] * ys[i]);
    const double x = static_cast<double>(xs[i]);
    s += w;
    sx += w * x;
    sxx += w * x * x;
    sy += w * ys[i];
    sxy += w * x * ys[i];
    ++n;
  }
  const double d = s * sxx - sx * sx;
  if (n < 2 || !(d > 0)) return std::nullopt;
  Line line;
  line.k = (s * sxy - sx * sy) / d;
  line.c = (sy - line.k * sx) / s;
  if (n > 2) {
    double weighted_squares = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (!used[i]) continue;
      const double r = ys[i] - line.c - line.k * static_cast<double>(xs[i]);
      weighted_squares += r * r / (ys[i] * ys[i]);
    }
    const double s2 = weighted_squares / static_cast<double>(n - 2);
    line.var_k = s2 * s / d;
    line.var_c = s2 * sxx / d;
  }
  return line;
}

double relative_residual(const Line& line, std::int64_t x, double y) {
  return (y - line.c - line.k * static_cast<double>(x)) / y;
}

}  // namespace

double pass_score(const std::vector<std::pair<std::string, double>>& medians_ns) {
  double logs = 0;
  std::size_t n = 0;
  for (const auto& [name, m] : medians_ns) {
    if (!(m > 0)) continue;  // a path without samples takes no part
    logs += std::log(m);
    ++n;
  }
  return n == 0 ? 0 : std::exp(logs / static_cast<double>(n));
}

std::size_t least_disturbed_pass(const std::vector<SweepPass>& passes) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < passes.size(); ++i) {
    if (passes[i].score_ns < passes[best].score_ns) best = i;
  }
  return best;
}

SweepPathFigures path_figures(std::int64_t value, const SampleSummary& wall_ns) {
  SweepPathFigures f;
  f.latency_ns = wall_ns.median;
  f.latency_se_ns = median_standard_error(wall_ns);
  if (wall_ns.median > 0) {
    f.throughput_per_s = static_cast<double>(value) * 1e9 / wall_ns.median;
    f.throughput_se_per_s = f.throughput_per_s * f.latency_se_ns / wall_ns.median;
  }
  return f;
}

SweepRatio point_ratio(const SweepPathPoint& slower, const SweepPathPoint& faster, double tolerance) {
  SweepRatio r;
  r.slower = slower.name;
  r.faster = faster.name;
  const double ms = slower.wall_ns.median;
  const double mf = faster.wall_ns.median;
  r.ratio = ms / mf;
  r.se = r.ratio * std::hypot(median_standard_error(slower.wall_ns) / ms, median_standard_error(faster.wall_ns) / mf);
  // Paired by round where the point kept its rounds: the spread of the per-round ratios, when larger.
  if (const auto paired = paired_se(slower.round_medians_ns, faster.round_medians_ns,
                                    [](double s, double f) { return s / f; })) {
    r.se = std::max(r.se, *paired);
  }
  r.low = r.ratio - kZ95 * r.se;
  r.high = r.ratio + kZ95 * r.se;
  r.within = r.low <= 1 + tolerance && r.high >= 1 - tolerance;
  return r;
}

std::optional<std::size_t> crossover_index(const std::vector<SweepRatio>& series) {
  if (series.empty() || !series.back().within) return std::nullopt;
  std::size_t first = series.size() - 1;
  while (first > 0 && series[first - 1].within) --first;
  return first;
}

SweepFit fit_fixed_and_per_item(const std::string& path, const std::vector<std::int64_t>& xs,
                                const std::vector<double>& times_ns, double fit_tolerance) {
  SweepFit fit;
  fit.path = path;
  if (xs.size() < 3) {  // too_few_points
    fit.points_used = xs;
    return fit;
  }
  std::vector<bool> used(xs.size(), true);
  std::size_t n_used = xs.size();
  // A line that describes less than half the sweep is no fit of it: at least ceil(n / 2) points, and 3.
  const std::size_t keep_at_least = std::max<std::size_t>(3, (xs.size() + 1) / 2);
  std::optional<Line> line;
  // While the line through the others predicts some point worse than the tolerance (its deleted
  // residual), leave out the point without which the others fit best.
  while (n_used > keep_at_least) {
    double worst_deleted = 0;
    std::size_t best = 0;
    double best_rest = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (!used[i]) continue;
      std::vector<bool> others = used;
      others[i] = false;
      const std::optional<Line> without = weighted_line(xs, times_ns, others);
      if (!without) continue;
      worst_deleted = std::max(worst_deleted, std::abs(relative_residual(*without, xs[i], times_ns[i])));
      double rest = 0;
      for (std::size_t j = 0; j < xs.size(); ++j) {
        if (others[j]) rest = std::max(rest, std::abs(relative_residual(*without, xs[j], times_ns[j])));
      }
      if (rest < best_rest) {
        best_rest = rest;
        best = i;
      }
    }
    if (worst_deleted <= fit_tolerance) break;
    used[best] = false;
    --n_used;
  }
  line = weighted_line(xs, times_ns, used);
  if (!line) return fit;  // cannot happen: the values are distinct and at least 3 are used
  double largest = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (used[i]) largest = std::max(largest, std::abs(relative_residual(*line, xs[i], times_ns[i])));
  }
  fit.max_relative_residual = largest;
  fit.status = *fit.max_relative_residual <= fit_tolerance ? FitStatus::fitted : FitStatus::not_linear;
  const double t = student_t_975(static_cast<int>(n_used) - 2);
  fit.fixed_ns = line->c;
  fit.fixed_low_ns = line->c - t * std::sqrt(line->var_c);
  fit.fixed_high_ns = line->c + t * std::sqrt(line->var_c);
  fit.per_item_ns = line->k;
  fit.per_item_low_ns = line->k - t * std::sqrt(line->var_k);
  fit.per_item_high_ns = line->k + t * std::sqrt(line->var_k);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (used[i]) {
      fit.points_used.push_back(xs[i]);
    } else {
      fit.points_left_out.push_back(LeftOutPoint{xs[i], relative_residual(*line, xs[i], times_ns[i])});
    }
  }
  return fit;
}

SweepReport analyze_sweep(SweepReport report) {
  const std::vector<std::string>& names = report.config.paths;
  const double tolerance = report.config.tolerance;
  report.analysis = SweepAnalysis{};  // baseline "" (JSON null) when no point was measured
  // Baseline: the fastest at the first measured point.
  for (const auto& point : report.points) {
    if (point.status != PointStatus::measured) continue;
    const SweepPathPoint* best = nullptr;
    for (const auto& name : names) {
      const SweepPathPoint* path = find_path(point, name);
      if (path != nullptr && (best == nullptr || path->wall_ns.median < best->wall_ns.median)) best = path;
    }
    if (best != nullptr) {
      report.analysis.baseline = best->name;
      break;
    }
  }
  // Each path's figures, and its ratio to the baseline.
  for (auto& point : report.points) {
    point.ratios.clear();
    const SweepPathPoint* baseline = find_path(point, report.analysis.baseline);
    for (auto& path : point.paths) {
      path.figures = SweepPathFigures{};
      if (point.status != PointStatus::measured) continue;
      path.figures = path_figures(point.value, path.wall_ns);
      if (baseline != nullptr && path.name != baseline->name && find_path(point, path.name) != nullptr) {
        const SweepRatio r = point_ratio(path, *baseline, tolerance);
        path.figures.to_baseline = SweepPathFigures::BaselineRatio{r.ratio, r.se, r.low, r.high};
      }
    }
  }

  // Pairs, oriented at the first point where both were measured.
  for (std::size_t a = 0; a < names.size(); ++a) {
    for (std::size_t b = a + 1; b < names.size(); ++b) {
      SweepPair pair;
      std::vector<SweepRatio> series;
      for (auto& point : report.points) {
        const SweepPathPoint* pa = find_path(point, names[a]);
        const SweepPathPoint* pb = find_path(point, names[b]);
        if (pa == nullptr || pb == nullptr) continue;
        if (pair.slower.empty()) {
          const bool a_slower = pa->wall_ns.median >= pb->wall_ns.median;
          pair.slower = a_slower ? names[a] : names[b];
          pair.faster = a_slower ? names[b] : names[a];
        }
        const SweepRatio ratio = pair.slower == names[a] ? point_ratio(*pa, *pb, tolerance) : point_ratio(*pb, *pa, tolerance);
        point.ratios.push_back(ratio);
        series.push_back(ratio);
      }
      if (pair.slower.empty()) continue;  // never measured together
      pair.points = series.size();
      pair.crossover_index = crossover_index(series);
      if (pair.crossover_index) {
        std::size_t seen = 0;
        for (const auto& point : report.points) {
          if (find_path(point, names[a]) == nullptr || find_path(point, names[b]) == nullptr) continue;
          if (seen++ == *pair.crossover_index) {
            pair.crossover = point.value;
            break;
          }
        }
      }
      report.analysis.pairs.push_back(std::move(pair));
    }
  }

  // Fits, per path.
  for (const auto& name : names) {
    std::vector<std::int64_t> xs;
    std::vector<double> times;
    const SweepPathPoint* smallest = nullptr;
    std::int64_t smallest_value = 0;
    for (const auto& point : report.points) {
      const SweepPathPoint* path = find_path(point, name);
      if (path == nullptr) continue;
      if (smallest == nullptr) {
        smallest = path;
        smallest_value = point.value;
      }
      xs.push_back(point.value);
      times.push_back(path->wall_ns.median);
    }
    SweepFit fit = fit_fixed_and_per_item(name, xs, times, report.config.fit_tolerance);
    if (smallest != nullptr) {
      fit.smallest = smallest_value;
      fit.host_at_smallest_ns = smallest->host_ns;
      fit.busy_at_smallest_ns = smallest->busy_ns;
      // c − host only where c describes the smallest point: a fit that left it out describes the others
      // (a GPU path's flat overhead-bound points, docs/sweep.md "Fit"), and c − host there compares unrelated figures
      const bool in_fit = std::find(fit.points_used.begin(), fit.points_used.end(), smallest_value) != fit.points_used.end();
      if (fit.fixed_ns && smallest->host_ns && in_fit) fit.fixed_minus_host_ns = *fit.fixed_ns - *smallest->host_ns;
      fit.host_upper_bound = smallest->host_ns && (smallest->kernels_unrecorded || smallest->queue_open);
    }
    report.analysis.fits.push_back(std::move(fit));
  }
  return report;
}

}  // namespace ohprof
