#pragma once
// What `ohprof sweep` derives from its points (docs/sweep.md, "What it computes"): per-path latency and
// throughput with their spread, each pair's ratio with its interval and crossover, and each path's fit
// time(x) = c + k x. Pure functions over the plain structs of model/sweep.hpp.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ohprof/model/sweep.hpp"

namespace ohprof {

// A pass's score: the geometric mean of its paths' positive medians (0 without one).
double pass_score(const std::vector<std::pair<std::string, double>>& medians_ns);
// The index of the least disturbed pass: the lowest score, the first on a tie (a slower machine only
// ever adds time). Requires at least one pass.
std::size_t least_disturbed_pass(const std::vector<SweepPass>& passes);

// Latency (the median) and throughput (value / median) with their standard errors.
SweepPathFigures path_figures(std::int64_t value, const SampleSummary& wall_ns);

// slower / faster at one point, its standard error, 95% interval and whether it reaches the band
// [1 - tolerance, 1 + tolerance].
SweepRatio point_ratio(const SweepPathPoint& slower, const SweepPathPoint& faster, double tolerance);

// The index of the first ratio from which every later one is `within`; none when the last is not.
std::optional<std::size_t> crossover_index(const std::vector<SweepRatio>& series);

// Weighted least squares of time = c + k x (weights 1 / time^2), leaving out the worst point while more
// than 3 remain and one's relative residual exceeds `fit_tolerance`. xs ascending, times > 0.
SweepFit fit_fixed_and_per_item(const std::string& path, const std::vector<std::int64_t>& xs,
                                const std::vector<double>& times_ns, double fit_tolerance);

// The report with every derived field filled in from the points' measured summaries: each path's
// figures and each measured point's ratios, and the analysis (baseline, pairs, fits). Other fields unchanged.
SweepReport analyze_sweep(SweepReport report);

}  // namespace ohprof
