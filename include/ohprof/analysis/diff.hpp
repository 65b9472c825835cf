#pragma once
// What `ohprof diff` derives from two report digests (docs/diff.md): whether they can be compared, and
// per path the ratio of medians with its bootstrap interval, a verdict against the threshold, and the
// change of each split component. Pure functions over model/diff.hpp's structs.
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "ohprof/model/diff.hpp"

namespace ohprof {

// A reproducible random stream (std::mt19937_64's generator, fully specified by the C++ standard, with
// ohprof's own uniform, normal, gamma and beta draws, so one seed gives the same interval everywhere).
class DiffRng {
 public:
  explicit DiffRng(std::uint64_t seed);
  double uniform();                 // in [0, 1)
  double normal();                  // standard normal (Marsaglia's polar method)
  double gamma(double shape);       // Gamma(shape, 1) (Marsaglia and Tsang), shape > 0
  double beta(double a, double b);  // Beta(a, b) = G_a / (G_a + G_b)

 private:
  std::mt19937_64 m_engine;
  std::optional<double> m_spare_normal;
};

// The median of one bootstrap resample (n draws with replacement) of `sorted` (ascending, not empty),
// drawn exactly without drawing the resample: its middle order statistic(s) are x[floor(n U_(k))], with
// U_(k) ~ Beta(k, n + 1 - k) the k-th of n uniform order statistics (docs/diff.md, "The statistics").
double resampled_median(std::span<const double> sorted, DiffRng& rng);

// A product of medians raised to +1 or -1: new/base, or (new_p/new_ref) / (base_p/base_ref).
struct MedianTerm {
  std::span<const double> sorted;  // ascending
  int power = 1;                   // 1 or -1
};
struct RatioInterval {
  double ratio = 0;  // of the samples' own medians (SampleSummary's median)
  double low = 0;    // the (alpha/2, 1 - alpha/2) percentiles of the bootstrap's ratios
  double high = 0;
};
RatioInterval bootstrap_ratio(const std::vector<MedianTerm>& terms, int resamples, double alpha, std::uint64_t seed);

// The verdict for a ratio and its interval against the threshold (docs/diff.md, "The verdict").
struct Judgement {
  DiffVerdict verdict = DiffVerdict::unknown;
  DiffReason reason = DiffReason::too_few_samples;
};
Judgement judge_ratio(double ratio, double low, double high, double threshold);
// The same rule for a time ratio whose significance another rule decided: `up` (new slower) or `down`.
Judgement judge_change(double ratio, bool up, bool down, double threshold);

// compare: one path's deployment figures in both reports (docs/diff.md, "Deployment figures"); null
// sides are a figure one report lacks.
DeploymentDiff diff_throughput(const std::string& path, const std::vector<DigestThroughput>& base,
                               const std::vector<DigestThroughput>& new_report, double threshold);
DeploymentDiff diff_start(const std::string& path, CompileCache cache, const DigestStart* base,
                          const DigestStart* new_report, double threshold);
// A state's peaks by the same rank rule as its starts: larger (the worse direction) or smaller.
DeploymentDiff diff_fresh_peak(const std::string& path, CompileCache cache, const DigestStart* base,
                               const DigestStart* new_report, double threshold);

// Why the two reports cannot be compared: another kind, schema, model, inputs, axis or device, or a
// --relative-to path one of them lacks (empty: comparable).
std::vector<Incomparability> incomparabilities(const ReportDigest& base, const ReportDigest& new_report,
                                               const DiffConfig& config);

// The whole diff: comparability, context warnings, and every path of either report, matched by name
// (and point); analyze reports of one path each are matched whatever their names.
DiffResult diff_reports(const ReportDigest& base, const ReportDigest& new_report, const DiffConfig& config);

}  // namespace ohprof
