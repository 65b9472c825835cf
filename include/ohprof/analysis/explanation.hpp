#pragma once
// The explanation of a wall-time gap between two measured paths in named layers of host work
// (docs/metrics.md, "Explanation"). Pure functions over the report's plain structs.
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ohprof/base/stats.hpp"
#include "ohprof/model/explanation.hpp"
#include "ohprof/model/report.hpp"

namespace ohprof {

// The standard error of a sample's median, 1.2533 * 1.4826 * MAD / sqrt(n): the normal-data
// asymptotic sqrt(pi/2) * sigma / sqrt(n) with the robust sigma 1.4826 * MAD (docs/metrics.md,
// "Spread of a difference"). 0 for fewer than 2 values.
double median_standard_error(const SampleSummary& summary);

// median(a) - median(b), with the standard error sqrt(se(a)^2 + se(b)^2) (the two samples taken as
// independent).
Estimate difference_of_medians(const SampleSummary& a, const SampleSummary& b);

// The median of `values` in each interleaved round: index = round, nullopt where no value is in it. Empty
// unless every value has a (non-negative) round.
using RoundMedians = std::vector<std::optional<double>>;
RoundMedians round_medians(std::span<const std::int64_t> values, std::span<const int> rounds);

// se(median) (as median_standard_error) of pair(a_r, b_r) over the rounds both have a median in; nullopt for
// fewer than 2 such rounds.
std::optional<double> paired_se(const RoundMedians& a, const RoundMedians& b, double (*pair)(double, double));

// The standard error of a difference of two samples measured in the same interleaved rounds, from the
// rounds (docs/metrics.md, "Spread of a difference"): for each round both have samples in, d = median of
// a's samples in it - median of b's; the standard error of the median of those d (as
// median_standard_error). nullopt for fewer than 2 such rounds, or rounds not given for every sample.
std::optional<double> round_paired_se(std::span<const std::int64_t> a, std::span<const int> a_rounds,
                                      std::span<const std::int64_t> b, std::span<const int> b_rounds);

// Two paths' wall times (timing pass) compared: median(a) - median(b), with the larger of the
// independent standard error (difference_of_medians) and the round-paired one (round_paired_se), so that
// neither calls that share a block's machine state nor drift common to a round narrow the interval.
Estimate wall_difference(const PathResult& a, const PathResult& b);

// The same for two paths' split-pass busy times (split.iterations[i].gpu.busy_ns, paired by their `round`);
// both must have a breakdown.
Estimate busy_difference(const PathResult& a, const PathResult& b);

// The sum and difference of estimates, their errors added in quadrature.
Estimate operator+(const Estimate& a, const Estimate& b);
Estimate operator-(const Estimate& a, const Estimate& b);

// Whether a layer estimate (timing pass) holds more than the range of Dynamo's that holds what it peels
// (split pass): `layer - range` significant and positive, and `layer >= kLayersExceedRatio * range`.
bool layers_exceed_range(const Estimate& layer, const Estimate& range);

// What the explanation needs to know beyond the measured paths.
struct ExplainContext {
  // The variants that could not be built, with the reason (they end their chain).
  std::map<std::string, std::string> unavailable;
};

// Why `slower` took longer than `faster`, from the measured paths and variants of one compare run.
GapExplanation explain_gap(const std::vector<PathResult>& paths, const std::string& slower, const std::string& faster,
                           const ExplainContext& context = {});

// Every measured path the user asked for (role path) against the fastest of them, in path order.
std::vector<GapExplanation> explain_against_fastest(const std::vector<PathResult>& paths,
                                                    const ExplainContext& context = {});

}  // namespace ohprof
