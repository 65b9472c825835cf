// The diff's statistics and matching (analysis/diff.hpp, docs/diff.md). The resampled median is checked
// against the bootstrap's exact distribution, enumerated over every resample of a small sample; the
// interval's coverage on samples whose true ratio is known; the verdict rule case by case. The
// intervals on real reports are checked by the independent reference, test/tools/diff_reference.py.
#include "ohprof/analysis/diff.hpp"

#include <gtest/gtest.h>

#include <set>

#include <algorithm>
#include <cmath>
#include <map>

namespace ohprof {
namespace {

// The exact bootstrap distribution of the median of `x`: every one of the n^n index tuples, enumerated.
std::map<double, double> exact_resampled_median_pmf(const std::vector<double>& x) {
  const std::size_t n = x.size();
  std::vector<std::size_t> idx(n, 0);
  std::map<double, double> pmf;
  const double weight = std::pow(static_cast<double>(n), -static_cast<double>(n));
  for (;;) {
    std::vector<double> resample;
    for (std::size_t i : idx) resample.push_back(x[i]);
    std::sort(resample.begin(), resample.end());
    const double m = n % 2 == 1 ? resample[n / 2] : (resample[n / 2 - 1] + resample[n / 2]) / 2;
    pmf[m] += weight;
    std::size_t d = 0;
    while (d < n && ++idx[d] == n) idx[d++] = 0;
    if (d == n) break;
  }
  return pmf;
}

void expect_same_distribution(const std::vector<double>& x) {
  const auto exact = exact_resampled_median_pmf(x);
  DiffRng rng(7);
  const int draws = 200000;
  std::map<double, double> seen;
  for (int i = 0; i < draws; ++i) seen[resampled_median(x, rng)] += 1.0 / draws;
  for (const auto& [value, p] : seen) EXPECT_TRUE(exact.count(value) > 0) << "impossible median " << value;
  // the largest pmf has sd sqrt(p(1-p)/draws) < 0.0012: 0.006 is 5 sd
  for (const auto& [value, p] : exact) {
    EXPECT_NEAR(seen.count(value) ? seen.at(value) : 0.0, p, 0.006) << "median " << value << " of n = " << x.size();
  }
}

TEST(ResampledMedian, HasTheBootstrapsExactDistributionForOddSamples) {
  expect_same_distribution({1, 2, 4, 8, 16});             // 5^5 resamples
  expect_same_distribution({3, 5, 5, 6, 10, 20, 40});     // 7^7, with a tie
}

TEST(ResampledMedian, HasTheBootstrapsExactDistributionForEvenSamples) {
  expect_same_distribution({1, 2, 4, 8, 16, 32});         // 6^6: the mean of two order statistics
  expect_same_distribution({10, 11, 12, 13});
}

TEST(ResampledMedian, OneSampleIsItsOwnMedian) {
  DiffRng rng(1);
  const std::vector<double> x{42};
  EXPECT_EQ(resampled_median(x, rng), 42);
}

TEST(DiffRng, BetaAndGammaHaveTheirMeansAndVariances) {
  DiffRng rng(3);
  const int n = 200000;
  double sum = 0, squares = 0, gamma_sum = 0;
  for (int i = 0; i < n; ++i) {
    const double b = rng.beta(3, 5);
    sum += b;
    squares += b * b;
    gamma_sum += rng.gamma(0.5);  // shape < 1: the boost from Gamma(1.5)
  }
  const double mean = sum / n;
  EXPECT_NEAR(mean, 3.0 / 8, 0.002);                             // a / (a + b)
  EXPECT_NEAR(squares / n - mean * mean, 15.0 / (64 * 9), 0.0005);  // ab / ((a+b)^2 (a+b+1))
  EXPECT_NEAR(gamma_sum / n, 0.5, 0.01);
}

TEST(DiffRng, TheSameSeedGivesTheSameStream) {
  DiffRng a(11), b(11), c(12);
  for (int i = 0; i < 100; ++i) {
    const double x = a.gamma(2.5);
    EXPECT_EQ(x, b.gamma(2.5));
    EXPECT_NE(x, c.gamma(2.5));
  }
}

std::vector<double> lognormal(std::size_t n, double median, double sigma, std::uint64_t seed) {
  DiffRng rng(seed);
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(median * std::exp(sigma * rng.normal()));
  std::sort(v.begin(), v.end());
  return v;
}

TEST(BootstrapRatio, SamplesScaledByAFactorGiveThatFactor) {
  const std::vector<double> base = lognormal(201, 1000, 0.1, 5);
  std::vector<double> scaled;
  for (double v : base) scaled.push_back(1.2 * v);
  const RatioInterval r = bootstrap_ratio({{scaled, 1}, {base, -1}}, 2000, 0.05, 0);
  EXPECT_NEAR(r.ratio, 1.2, 1e-12);
  EXPECT_LT(r.low, 1.2);
  EXPECT_GT(r.high, 1.2);
  EXPECT_GT(r.low, 1.1);   // two independent resamples of 201 samples of 10% spread: about +-2.5%
  EXPECT_LT(r.high, 1.3);
  const RatioInterval same = bootstrap_ratio({{base, 1}, {base, -1}}, 2000, 0.05, 0);
  EXPECT_DOUBLE_EQ(same.ratio, 1);
  EXPECT_LT(same.low, 1);
  EXPECT_GT(same.high, 1);
}

TEST(BootstrapRatio, TheSameSeedGivesTheSameInterval) {
  const std::vector<double> a = lognormal(50, 1000, 0.2, 1);
  const std::vector<double> b = lognormal(50, 1000, 0.2, 2);
  const RatioInterval x = bootstrap_ratio({{a, 1}, {b, -1}}, 1000, 0.05, 9);
  const RatioInterval y = bootstrap_ratio({{a, 1}, {b, -1}}, 1000, 0.05, 9);
  const RatioInterval z = bootstrap_ratio({{a, 1}, {b, -1}}, 1000, 0.05, 10);
  EXPECT_EQ(x.low, y.low);
  EXPECT_EQ(x.high, y.high);
  EXPECT_NE(x.low, z.low);
}

TEST(BootstrapRatio, NinetyFivePercentIntervalsCoverTheTrueRatioAboutNinetyFivePercentOfTheTime) {
  // Base and new drawn from log-normals with medians 1000 and 1100: the true ratio of medians is 1.1.
  // 400 independent pairs: a 95% interval covers 1.1 in 380 of them on average (sd 4.4); the band
  // [360, 395] fails an interval that is too narrow (a 90% one covers 360) or far too wide.
  int covered = 0;
  const int trials = 400;
  for (int t = 0; t < trials; ++t) {
    const std::vector<double> base = lognormal(101, 1000, 0.2, 1000 + 2 * t);
    const std::vector<double> next = lognormal(101, 1100, 0.2, 1001 + 2 * t);
    const RatioInterval r = bootstrap_ratio({{next, 1}, {base, -1}}, 1000, 0.05, t);
    if (r.low <= 1.1 && 1.1 <= r.high) ++covered;
  }
  RecordProperty("covered", covered);
  EXPECT_GE(covered, 360);
  EXPECT_LE(covered, 395);
}

TEST(BootstrapRatio, AReferenceCancelsAFactorCommonToBothPathsOfAReport) {
  // The new report ran on a machine 30% slower: every path's samples scaled by 1.3. Against the
  // reference path, in each report, nothing changed.
  const std::vector<double> path = lognormal(101, 5000, 0.1, 21);
  const std::vector<double> ref = lognormal(101, 1000, 0.1, 22);
  std::vector<double> path_slow, ref_slow;
  for (double v : path) path_slow.push_back(1.3 * v);
  for (double v : ref) ref_slow.push_back(1.3 * v);
  const RatioInterval r = bootstrap_ratio({{path_slow, 1}, {path, -1}, {ref_slow, -1}, {ref, 1}}, 2000, 0.05, 0);
  EXPECT_NEAR(r.ratio, 1.0, 1e-12);
  EXPECT_LT(r.low, 1);
  EXPECT_GT(r.high, 1);
}

TEST(JudgeRatio, EachCaseOfTheRule) {
  // threshold 10%
  EXPECT_EQ(judge_ratio(1.20, 1.15, 1.25, 0.10).verdict, DiffVerdict::slower);
  EXPECT_EQ(judge_ratio(1.20, 1.15, 1.25, 0.10).reason, DiffReason::above_threshold);
  EXPECT_EQ(judge_ratio(0.80, 0.75, 0.85, 0.10).verdict, DiffVerdict::faster);
  // significant, but +5% is within the threshold
  EXPECT_EQ(judge_ratio(1.05, 1.03, 1.07, 0.10).verdict, DiffVerdict::no_change);
  EXPECT_EQ(judge_ratio(1.05, 1.03, 1.07, 0.10).reason, DiffReason::below_threshold);
  // +20%, but the interval reaches 1: not significant
  EXPECT_EQ(judge_ratio(1.20, 0.99, 1.40, 0.10).reason, DiffReason::not_significant);
  // exactly at the threshold is not beyond it
  EXPECT_EQ(judge_ratio(1.10, 1.05, 1.15, 0.10).verdict, DiffVerdict::no_change);
  // threshold 0: any significant change counts
  EXPECT_EQ(judge_ratio(1.01, 1.005, 1.015, 0.0).verdict, DiffVerdict::slower);
}

// A digest of one compare report with the given paths.
ReportDigest digest(std::vector<DigestPath> paths, DigestKind kind = DigestKind::compare) {
  ReportDigest d;
  d.file = "r.json";
  d.kind = kind;
  d.schema_version = 4;
  d.model = "tiny_models:tiny_mlp";
  d.inputs = {"[1, 16]:float32"};
  d.device_type = DeviceKind::cpu;
  d.device_name = "AMD EPYC";
  d.torch_version = "2.14.1";
  d.hostname = "h";
  d.paths = std::move(paths);
  return d;
}

DigestPath path(const std::string& name, const std::vector<double>& samples, double scale = 1,
                std::optional<std::int64_t> point = std::nullopt) {
  DigestPath p;
  p.name = name;
  p.point = point;
  for (double v : samples) p.samples_ns.push_back(static_cast<std::int64_t>(std::llround(scale * v)));
  return p;
}

DiffConfig fast_config() {
  DiffConfig c;
  c.resamples = 1000;
  return c;
}

TEST(DiffReports, MatchesPathsByNameAndJudgesEach) {
  const auto a = lognormal(200, 10000, 0.05, 31);
  const auto b = lognormal(200, 30000, 0.05, 32);
  const ReportDigest base = digest({path("aoti", a), path("compile", b), path("eager", a)});
  // new: compile 20% slower, aoti unchanged (other samples of the same distribution), eager gone, a new path
  const ReportDigest next = digest({path("compile", b, 1.2), path("aoti", lognormal(200, 10000, 0.05, 33)),
                                    path("export", a)});
  const DiffResult r = diff_reports(base, next, fast_config());
  ASSERT_EQ(r.paths.size(), 4u);
  EXPECT_EQ(r.paths[0].name, "aoti");
  EXPECT_EQ(r.paths[0].verdict, DiffVerdict::no_change);
  EXPECT_EQ(r.paths[1].name, "compile");
  EXPECT_EQ(r.paths[1].verdict, DiffVerdict::slower);
  EXPECT_NEAR(*r.paths[1].ratio, 1.2, 1e-4);  // rounding the scaled samples to whole nanoseconds
  EXPECT_EQ(r.paths[2].name, "eager");
  EXPECT_EQ(r.paths[2].reason, DiffReason::only_in_base);
  EXPECT_EQ(r.paths[3].name, "export");
  EXPECT_EQ(r.paths[3].reason, DiffReason::only_in_new);
  EXPECT_EQ(r.outcome(), DiffOutcome::regression);
  const auto unmatched = std::count_if(r.warnings.begin(), r.warnings.end(),
                                       [](const Warning& w) { return w.code == WarningCode::diff_path_unmatched; });
  EXPECT_EQ(unmatched, 2);
}

TEST(DiffReports, FewerThanTheMinimumSamplesIsUnknown) {
  const auto few = lognormal(kMinDiffSamples - 1, 1000, 0.1, 41);
  const auto enough = lognormal(kMinDiffSamples, 1000, 0.1, 42);
  const DiffResult r = diff_reports(digest({path("a", few), path("b", enough)}),
                                    digest({path("a", enough), path("b", enough)}), fast_config());
  EXPECT_EQ(r.paths[0].verdict, DiffVerdict::unknown);
  EXPECT_EQ(r.paths[0].reason, DiffReason::too_few_samples);
  EXPECT_FALSE(r.paths[0].ratio.has_value());
  EXPECT_NE(r.paths[1].verdict, DiffVerdict::unknown);
  EXPECT_EQ(r.judged(), 1u);
}

// A path whose figures in a report are not the path's (docs/diff.md, "Figures that are not the path's") is not
// judged, however many samples it has and however far it moved: compile's new figures are eager's, 40% faster.
TEST(DiffReports, APathWhoseFiguresAreNotThePathsIsUnknownWhateverItsChange) {
  const auto a = lognormal(200, 10000, 0.05, 61);
  const auto b = lognormal(200, 30000, 0.05, 62);
  DigestPath uncompiled = path("compile", b, 0.6);
  uncompiled.flaw = DigestFlaw::ran_uncompiled;
  const DiffResult r = diff_reports(digest({path("aoti", a), path("compile", b)}),
                                    digest({path("aoti", a, 1.0), uncompiled}), fast_config());
  ASSERT_EQ(r.paths.size(), 2u);
  EXPECT_EQ(r.paths[1].verdict, DiffVerdict::unknown);
  EXPECT_EQ(r.paths[1].reason, DiffReason::flawed);
  EXPECT_FALSE(r.paths[1].base_flaw.has_value());
  EXPECT_EQ(r.paths[1].new_flaw, DigestFlaw::ran_uncompiled);
  EXPECT_FALSE(r.paths[1].ratio.has_value());
  EXPECT_TRUE(r.paths[1].base_median_ns.has_value());  // the medians are still shown
  EXPECT_EQ(r.judged(), 1u);
  // both sides flawed; and a slower flawed path is no regression either (it is not judged)
  DigestPath differs = path("compile", b);
  differs.flaw = DigestFlaw::outputs_differ;
  DigestPath pooled = path("compile", b, 1.5);
  pooled.flaw = DigestFlaw::samples_pooled;
  const DiffResult both = diff_reports(digest({differs}), digest({pooled}), fast_config());
  EXPECT_EQ(both.paths[0].base_flaw, DigestFlaw::outputs_differ);
  EXPECT_EQ(both.paths[0].new_flaw, DigestFlaw::samples_pooled);
  EXPECT_EQ(both.outcome(), DiffOutcome::nothing_judged);
}

// Its throughput with several callers is of the same loaded path: not judged either, unless the flaw is the
// timing pass's own (pooled samples).
TEST(DiffReports, AFlawedPathsThroughputIsNotJudgedUnlessTheFlawIsTheTimingPasssOwn) {
  const auto b = lognormal(200, 30000, 0.05, 63);
  // 2 callers: 10k calls/s in the base, 20k in the new report, each ± 100 over 9 rounds: significant, +100%
  const auto with_calls = [&](double scale, std::optional<DigestFlaw> flaw) {
    DigestPath p = path("compile", b);
    p.flaw = flaw;
    p.throughput = {DigestThroughput{1, 8000, 100, 9}, DigestThroughput{2, 10000 * scale, 100, 9}};
    return p;
  };
  for (const DigestFlaw flaw : {DigestFlaw::outputs_differ, DigestFlaw::ran_uncompiled, DigestFlaw::samples_pooled}) {
    const DiffResult r = diff_reports(digest({with_calls(1, std::nullopt)}), digest({with_calls(2, flaw)}), fast_config());
    ASSERT_FALSE(r.deployment.empty());
    const DeploymentDiff& d = r.deployment.front();
    EXPECT_EQ(d.measure, DeployMeasure::throughput);
    if (flaw == DigestFlaw::samples_pooled) {
      EXPECT_NE(d.verdict, DiffVerdict::unknown) << to_string(flaw);
    } else {
      EXPECT_EQ(d.verdict, DiffVerdict::unknown) << to_string(flaw);
      EXPECT_EQ(d.reason, DiffReason::flawed);
    }
  }
}

TEST(DiffReports, RelativeToCancelsAMachineThatRanEveryPathSlower) {
  const auto a = lognormal(300, 10000, 0.05, 51);
  const auto b = lognormal(300, 30000, 0.05, 52);
  const ReportDigest base = digest({path("aoti", a), path("compile", b)});
  const ReportDigest slow_machine = digest({path("aoti", a, 1.25), path("compile", b, 1.25)});
  EXPECT_EQ(diff_reports(base, slow_machine, fast_config()).outcome(), DiffOutcome::regression);
  DiffConfig relative = fast_config();
  relative.relative_to = "aoti";
  const DiffResult r = diff_reports(base, slow_machine, relative);
  EXPECT_EQ(r.paths[0].reason, DiffReason::reference_path);
  EXPECT_EQ(r.paths[1].verdict, DiffVerdict::no_change);
  EXPECT_NEAR(*r.paths[1].ratio, 1.0, 1e-4);
  EXPECT_EQ(r.outcome(), DiffOutcome::no_regression);
  // ... and still finds compile's own 20% on that machine
  const ReportDigest slower_compile = digest({path("aoti", a, 1.25), path("compile", b, 1.25 * 1.2)});
  EXPECT_EQ(diff_reports(base, slower_compile, relative).outcome(), DiffOutcome::regression);
}

// A flawed --relative-to path: the ratio would divide by figures that are not the reference's, so no path is
// judged against it (reference_flawed); the reference's own row says its flaw; every flaw counts.
TEST(DiffReports, NoPathIsJudgedAgainstAFlawedReference) {
  const auto a = lognormal(300, 10000, 0.05, 71);
  const auto b = lognormal(300, 30000, 0.05, 72);
  const ReportDigest base = digest({path("aoti", a), path("compile", b)});
  DiffConfig relative = fast_config();
  relative.relative_to = "aoti";
  for (const DigestFlaw flaw : {DigestFlaw::outputs_differ, DigestFlaw::ran_uncompiled, DigestFlaw::samples_pooled}) {
    DigestPath reference = path("aoti", a, 1.25);
    reference.flaw = flaw;
    // compile 50% slower against a reference 25% slower: without the flaw, a regression
    const DiffResult r = diff_reports(base, digest({reference, path("compile", b, 1.25 * 1.5)}), relative);
    ASSERT_EQ(r.paths.size(), 2u);
    EXPECT_EQ(r.paths[0].reason, DiffReason::flawed) << to_string(flaw);  // the reference's own row
    EXPECT_EQ(r.paths[0].new_flaw, flaw);
    EXPECT_EQ(r.paths[1].verdict, DiffVerdict::unknown) << to_string(flaw);
    EXPECT_EQ(r.paths[1].reason, DiffReason::reference_flawed) << to_string(flaw);
    EXPECT_FALSE(r.paths[1].ratio);
    EXPECT_FALSE(r.paths[1].new_flaw);  // compile's own figures are its own
    EXPECT_EQ(r.outcome(), DiffOutcome::nothing_judged) << to_string(flaw);
  }
  // a flawed base-side reference counts the same
  DigestPath flawed_base_reference = path("aoti", a);
  flawed_base_reference.flaw = DigestFlaw::ran_uncompiled;
  const DiffResult r = diff_reports(digest({flawed_base_reference, path("compile", b)}),
                                    digest({path("aoti", a), path("compile", b, 1.5)}), relative);
  EXPECT_EQ(r.paths[1].reason, DiffReason::reference_flawed);
  // without --relative-to, compile is judged on its own
  EXPECT_EQ(diff_reports(digest({flawed_base_reference, path("compile", b)}), digest({path("aoti", a), path("compile", b, 1.5)}),
                         fast_config())
                .paths[1]
                .verdict,
            DiffVerdict::slower);
}

TEST(DiffReports, ARelativeToPathMissingFromAReportMakesThemIncomparable) {
  const auto a = lognormal(50, 1000, 0.1, 61);
  DiffConfig relative = fast_config();
  relative.relative_to = "aoti";
  const DiffResult r = diff_reports(digest({path("aoti", a), path("compile", a)}), digest({path("compile", a)}), relative);
  ASSERT_EQ(r.incomparable.size(), 1u);
  EXPECT_STREQ(r.incomparable[0].field, "relative_to");
  EXPECT_EQ(r.incomparable[0].new_value, "no path aoti");
  EXPECT_EQ(r.outcome(), DiffOutcome::incomparable);
  EXPECT_TRUE(r.paths.empty());
}

TEST(Incomparabilities, EachIdentityFieldIsChecked) {
  const ReportDigest base = digest({});
  std::set<std::string> fields;  // every field found: the list a diff report's reader takes (kIncomparableFields)
  const auto differs_in = [&](auto change) {
    ReportDigest other = base;
    change(other);
    const auto found = incomparabilities(base, other, DiffConfig{});
    for (const Incomparability& i : found) fields.insert(i.field);
    return found.size() == 1 ? std::string(found[0].field) : std::string("count ") + std::to_string(found.size());
  };
  EXPECT_EQ(differs_in([](ReportDigest& d) { d.kind = DigestKind::run; }), "kind");
  EXPECT_EQ(differs_in([](ReportDigest& d) { d.schema_version = 3; }), "schema_version");
  EXPECT_EQ(differs_in([](ReportDigest& d) { d.model = "other:model"; }), "model");
  EXPECT_EQ(differs_in([](ReportDigest& d) { d.inputs = {"[4, 16]:float32"}; }), "inputs");
  EXPECT_EQ(differs_in([](ReportDigest& d) { d.axis = "batch"; }), "axis");
  EXPECT_EQ(differs_in([](ReportDigest& d) { d.device_name = "Intel Xeon"; }), "device");
  EXPECT_EQ(differs_in([](ReportDigest& d) { d.device_type = DeviceKind::cuda; }), "device");
  // context only: no incomparability
  EXPECT_EQ(differs_in([](ReportDigest& d) { d.torch_version = "2.15.0"; }), "count 0");
  EXPECT_EQ(differs_in([](ReportDigest& d) { d.hostname = "other"; }), "count 0");
  DiffConfig relative;
  relative.relative_to = "aoti";
  for (const Incomparability& i : incomparabilities(base, base, relative)) fields.insert(i.field);
  EXPECT_EQ(fields, std::set<std::string>(kIncomparableFields.begin(), kIncomparableFields.end()));
}

TEST(DiffReports, ContextDifferencesAreWarnedAbout) {
  const auto a = lognormal(50, 1000, 0.1, 71);
  ReportDigest next = digest({path("aoti", a)});
  next.torch_version = "2.15.0";
  next.hostname = "ci-runner-7";
  next.inputs_values = "--inputs file (digest 0123456789abcdef)";  // a sweep of the user's inputs against random ones
  ReportDigest base = digest({path("aoti", a)});
  base.inputs_values = "random (seed 0)";
  const DiffResult r = diff_reports(base, next, fast_config());
  EXPECT_TRUE(r.incomparable.empty());
  std::vector<std::string> messages;
  for (const Warning& w : r.warnings) {
    if (w.code == WarningCode::diff_context_differs) messages.push_back(w.message);
  }
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[0], "the reports differ in torch_version: '2.14.1' in the base, '2.15.0' in the new report");
  EXPECT_EQ(messages[1], "the reports differ in hostname: 'h' in the base, 'ci-runner-7' in the new report");
  EXPECT_EQ(messages[2],
            "the reports differ in inputs' values: 'random (seed 0)' in the base, '--inputs file (digest "
            "0123456789abcdef)' in the new report");
  // an analyze report (no inputs' values) against another kind, forced: nothing said of the inputs
  ReportDigest traced = digest({path("aoti", a)});
  ReportDigest forced_new = next;
  forced_new.torch_version = traced.torch_version;
  forced_new.hostname = traced.hostname;
  DiffConfig forced = fast_config();
  forced.force = true;
  const DiffResult none = diff_reports(traced, forced_new, forced);
  for (const Warning& w : none.warnings) EXPECT_EQ(w.message.find("inputs' values"), std::string::npos) << w.message;
}

// docs/metrics.md, "Waiting for a core": a report whose paths waited for a CPU for 5% or more of their timed
// blocks, 10 ms at least, is named with those paths (a sweep's with their points); one below, or without the
// figure, is not.
TEST(DiffReports, AReportMeasuredOnBusyCoresIsNamedWithItsPaths) {
  const auto a = lognormal(50, 1000, 0.1, 73);
  ReportDigest base = digest({path("aoti", a), path("eager", a)});
  base.paths[0].run_queue = PathRunQueue{9'800'000, 200'000'000};
  ReportDigest next = digest({path("aoti", a), path("eager", a)});
  next.file = "new.json";
  next.paths[0].run_queue = PathRunQueue{76'400'000, 200'000'000};
  next.paths[1].run_queue = PathRunQueue{10'000'000, 200'000'000};
  const auto busy = [](const DiffResult& r) {
    std::vector<std::string> messages;
    for (const Warning& w : r.warnings) {
      if (w.code == WarningCode::cores_busy) messages.push_back(w.message);
    }
    return messages;
  };
  const std::vector<std::string> messages = busy(diff_reports(base, next, fast_config()));
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0], "new.json: the measuring thread waited for a CPU for part of these paths' timed wall time: "
                         "aoti 38.2%, eager 5.0% (docs/metrics.md, \"Waiting for a core\"): a change in those paths "
                         "may be the machine's load as well as the code's");
  ReportDigest sweep = digest({path("aoti", a, 1, 8), path("aoti", a, 1, 64)}, DigestKind::sweep);
  sweep.file = "sweep.json";
  sweep.paths[1].run_queue = PathRunQueue{20'000'000, 100'000'000};
  const std::vector<std::string> points = busy(diff_reports(sweep, sweep, fast_config()));
  ASSERT_EQ(points.size(), 2u);  // the same report as base and as new
  EXPECT_NE(points[0].find("timed wall time: aoti at 64 20.0% ("), std::string::npos) << points[0];
}

TEST(DiffReports, ForceDiffsIncomparableReportsAndWarnsOfEachReason) {
  const auto a = lognormal(50, 1000, 0.1, 81);
  ReportDigest next = digest({path("aoti", a)});
  next.inputs = {"[4, 16]:float32"};
  DiffConfig config = fast_config();
  EXPECT_EQ(diff_reports(digest({path("aoti", a)}), next, config).outcome(), DiffOutcome::incomparable);
  config.force = true;
  const DiffResult r = diff_reports(digest({path("aoti", a)}), next, config);
  EXPECT_EQ(r.outcome(), DiffOutcome::no_regression);
  ASSERT_EQ(r.paths.size(), 1u);
  EXPECT_TRUE(std::any_of(r.warnings.begin(), r.warnings.end(),
                          [](const Warning& w) { return w.code == WarningCode::diff_incomparable_forced; }));
}

TEST(DiffReports, SweepPathsAreMatchedByPointAndName) {
  const auto a = lognormal(50, 1000, 0.05, 91);
  const auto b = lognormal(50, 8000, 0.05, 92);
  ReportDigest base = digest({path("aoti", a, 1, 1), path("aoti", b, 1, 64)}, DigestKind::sweep);
  ReportDigest next = digest({path("aoti", a, 1, 1), path("aoti", b, 1.3, 64), path("aoti", b, 1, 128)}, DigestKind::sweep);
  base.axis = next.axis = "batch";
  const DiffResult r = diff_reports(base, next, fast_config());
  ASSERT_EQ(r.paths.size(), 3u);
  EXPECT_EQ(r.paths[0].point, 1);
  EXPECT_EQ(r.paths[0].verdict, DiffVerdict::no_change);
  EXPECT_EQ(r.paths[1].point, 64);
  EXPECT_EQ(r.paths[1].verdict, DiffVerdict::slower);
  EXPECT_EQ(r.paths[2].point, 128);
  EXPECT_EQ(r.paths[2].reason, DiffReason::only_in_new);
}

TEST(DiffReports, TwoAnalyzeReportsOfOnePathEachAreMatchedWhateverTheTraceNames) {
  const auto a = lognormal(20, 1000, 0.05, 95);
  ReportDigest base = digest({path("trace_monday", a)}, DigestKind::analyze);
  ReportDigest next = digest({path("trace_tuesday", a)}, DigestKind::analyze);
  const DiffResult r = diff_reports(base, next, fast_config());
  ASSERT_EQ(r.paths.size(), 1u);
  EXPECT_EQ(r.paths[0].name, "trace_monday");
  EXPECT_EQ(r.paths[0].verdict, DiffVerdict::no_change);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].message,
            "the traces' paths are named 'trace_monday' in the base and 'trace_tuesday' in the new report; matched as the "
            "one path of each, shown as 'trace_monday'");
}

TEST(DiffReports, APathWithoutSamplesOrWithAZeroMedianIsUnknownNotJudged) {
  const auto a = lognormal(20, 1000, 0.05, 96);
  DigestPath empty = path("aoti", {});
  empty.median_ns = 1000;  // a sweep point without its report: the median only
  DiffResult r = diff_reports(digest({empty}), digest({path("aoti", a)}), fast_config());
  EXPECT_EQ(r.paths[0].reason, DiffReason::no_samples);
  EXPECT_EQ(r.outcome(), DiffOutcome::nothing_judged);
  // zeros (which the reader refuses) would make the ratio infinite: unknown, not a verdict
  const DigestPath zeros = path("aoti", std::vector<double>(20, 0.0));
  r = diff_reports(digest({zeros}), digest({path("aoti", a)}), fast_config());
  EXPECT_EQ(r.paths[0].verdict, DiffVerdict::unknown);
  EXPECT_FALSE(r.paths[0].ratio.has_value());
}

TEST(DiffReports, TheSplitChangesArePerIterationMeansOfTheTotals) {
  const auto a = lognormal(20, 1000, 0.05, 97);
  DigestPath b = path("aoti", a);
  DigestPath n = path("aoti", a);
  // base: 4 iterations, 4000 ns wall, 3000 busy, 1000 host-bound (all framework)
  b.split = SplitTotals{4, 4000, 3000, 1000, 0, 0, 0, 0, 0, 1000};
  // new: 10 iterations, 12000 ns wall, 8000 busy, 3000 host-bound (2000 launch, 1000 framework), 1000 device-wait
  n.split = SplitTotals{10, 12000, 8000, 3000, 1000, 0, 2000, 0, 0, 1000};
  const DiffResult r = diff_reports(digest({b}), digest({n}), fast_config());
  const auto& split = r.paths[0].split;
  ASSERT_EQ(split.size(), 9u);
  const auto component = [&](const char* name) {
    return *std::find_if(split.begin(), split.end(), [&](const ComponentChange& c) { return std::string(c.component) == name; });
  };
  EXPECT_DOUBLE_EQ(component("wall").base_ns, 1000);
  EXPECT_DOUBLE_EQ(component("wall").new_ns, 1200);
  EXPECT_DOUBLE_EQ(component("busy").new_ns, 800);
  EXPECT_DOUBLE_EQ(component("host_bound").base_ns, 250);
  EXPECT_DOUBLE_EQ(component("device_wait").new_ns, 100);
  EXPECT_DOUBLE_EQ(component("launch").new_ns, 200);
  EXPECT_DOUBLE_EQ(component("framework").base_ns, 250);
  for (const ComponentChange& c : split) EXPECT_EQ(c.base_bound, Bound::exact) << c.component;
}

// A report whose kernels do not all record themselves: its busy is at least, its host-bound and framework
// (where those kernels' time lands) at most, the figure; the other report's are exact.
TEST(DiffReports, TheSplitOfAReportWhoseKernelsDoNotRecordThemselvesIsBounds) {
  const auto a = lognormal(20, 1000, 0.05, 97);
  DigestPath b = path("aoti", a);
  DigestPath n = path("aoti", a);
  b.split = SplitTotals{4, 4000, 3000, 1000, 0, 0, 0, 0, 0, 1000};
  b.split->kernels_unrecorded = true;
  n.split = SplitTotals{4, 4000, 3000, 1000, 0, 0, 0, 0, 0, 1000};
  const DiffResult r = diff_reports(digest({b}), digest({n}), fast_config());
  for (const ComponentChange& c : r.paths[0].split) {
    const std::string name = c.component;
    const Bound want = name == "busy"                               ? Bound::at_least
                            : name == "host_bound" || name == "framework" ? Bound::at_most
                                                                          : Bound::exact;
    EXPECT_EQ(c.base_bound, want) << name;
    EXPECT_EQ(c.new_bound, Bound::exact) << name;
  }
}

// A report with device ops without a launch call (docs/metrics.md, "Ops without a launch call"): its host-bound
// and every host state at most, its device-wait at least; busy exact.
TEST(DiffReports, TheSplitOfAReportWhoseQueueIsOpenIsBounds) {
  const auto a = lognormal(20, 1000, 0.05, 97);
  DigestPath b = path("trace", a);
  DigestPath n = path("trace", a);
  b.split = SplitTotals{4, 4000, 3000, 1000, 0, 0, 0, 0, 0, 1000};
  n.split = SplitTotals{4, 4000, 3000, 1000, 0, 0, 0, 0, 0, 1000};
  n.split->queue_unknown = true;
  const DiffResult r = diff_reports(digest({b}), digest({n}), fast_config());
  for (const ComponentChange& c : r.paths[0].split) {
    const std::string name = c.component;
    const bool host = name == "host_bound" || name == "blocking" || name == "launch" || name == "other_api" ||
                      name == "harness" || name == "framework";
    const Bound want = host ? Bound::at_most : name == "device_wait" ? Bound::at_least : Bound::exact;
    EXPECT_EQ(c.new_bound, want) << name;
    EXPECT_EQ(c.base_bound, Bound::exact) << name;
  }
}

// --- deployment figures (docs/diff.md, "Deployment figures"), each worked by hand --------------------------

TEST(DiffThroughput, TheDifferenceOfTheRatesAgainstItsErrorThenTheThreshold) {
  const auto t = [](int threads, double cps, double se) { return DigestThroughput{threads, cps, se, 10}; };
  const DigestThroughput one{1, 500, 5, 10};
  // 1000 -> 800 calls/s at 2 callers, se 10 each: difference -200, error hypot(10, 10) = 14.14, 1.96 * 14.14 =
  // 27.7 < 200: significant; the rate's ratio 0.8 lost 20%, beyond 10%: slower.
  const std::vector<DigestThroughput> b{one, t(2, 1000, 10)};
  DeploymentDiff d = diff_throughput("aoti", b, {one, t(2, 800, 10)}, 0.10);
  EXPECT_EQ(d.measure, DeployMeasure::throughput);
  EXPECT_EQ(d.threads, 2);
  EXPECT_EQ(d.base_value, std::optional<double>(1000));
  EXPECT_EQ(d.new_value, std::optional<double>(800));
  EXPECT_EQ(d.base_count, 10u);
  EXPECT_DOUBLE_EQ(*d.ratio, 0.8);
  EXPECT_EQ(d.verdict, DiffVerdict::slower);
  EXPECT_EQ(d.reason, DiffReason::above_threshold);
  // 1000 -> 950, se 30 each: 1.96 * hypot(30, 30) = 83.2 > 50: within noise.
  d = diff_throughput("aoti", {t(2, 1000, 30)}, {t(2, 950, 30)}, 0.10);
  EXPECT_EQ(d.verdict, DiffVerdict::no_change);
  EXPECT_EQ(d.reason, DiffReason::not_significant);
  // 1000 -> 1050, se 5 each: significant (1.96 * 7.07 = 13.9 < 50), a 5% gain: within 10%, faster beyond 3%.
  d = diff_throughput("aoti", {t(2, 1000, 5)}, {t(2, 1050, 5)}, 0.10);
  EXPECT_EQ(d.verdict, DiffVerdict::no_change);
  EXPECT_EQ(d.reason, DiffReason::below_threshold);
  d = diff_throughput("aoti", {t(2, 1000, 5)}, {t(2, 1050, 5)}, 0.03);
  EXPECT_EQ(d.verdict, DiffVerdict::faster);
  // a loss of 9.5% (1000 -> 905) is within 10%; of 10.5% (-> 895), beyond it
  EXPECT_EQ(diff_throughput("aoti", {t(2, 1000, 5)}, {t(2, 905, 5)}, 0.10).reason, DiffReason::below_threshold);
  EXPECT_EQ(diff_throughput("aoti", {t(2, 1000, 5)}, {t(2, 895, 5)}, 0.10).verdict, DiffVerdict::slower);
  // --threads 1,2,4 against 1,2: judged at 2, the most callers both measured
  d = diff_throughput("aoti", {one, t(2, 1000, 10), t(4, 3000, 10)}, b, 0.10);
  EXPECT_EQ(d.threads, 2);
  EXPECT_EQ(d.verdict, DiffVerdict::no_change);
  // no common count, or a side without --threads: no verdict
  d = diff_throughput("aoti", {t(2, 1000, 10)}, {t(4, 1000, 10)}, 0.10);
  EXPECT_EQ(d.reason, DiffReason::callers_differ);
  EXPECT_EQ(d.verdict, DiffVerdict::unknown);
  EXPECT_EQ(d.threads, 0);
  EXPECT_FALSE(d.ratio.has_value());
  d = diff_throughput("aoti", b, {}, 0.10);
  EXPECT_EQ(d.reason, DiffReason::only_in_base);
  EXPECT_EQ(d.threads, 2);
  EXPECT_EQ(d.base_value, std::optional<double>(1000));
  EXPECT_FALSE(d.new_value.has_value());
}

TEST(DiffStart, TheRankRuleOfTheColdStartThenTheThreshold) {
  const auto s = [](CompileCache cache, std::vector<std::int64_t> totals) { return DigestStart{cache, std::move(totals)}; };
  // every new total above every base total, C(8, 4) = 70 orders: slower; medians 15 / 11 = 1.364.
  const DigestStart b = s(CompileCache::cold, {10, 11, 12, 11});
  const DigestStart above = s(CompileCache::cold, {14, 16, 15, 15});
  DeploymentDiff d = diff_start("compile", CompileCache::cold, &b, &above, 0.10);
  EXPECT_EQ(d.measure, DeployMeasure::start);
  EXPECT_EQ(d.cache, CompileCache::cold);
  EXPECT_EQ(d.base_value, std::optional<double>(11));
  EXPECT_EQ(d.new_value, std::optional<double>(15));
  EXPECT_EQ(d.new_count, 4u);
  EXPECT_DOUBLE_EQ(*d.ratio, 15.0 / 11.0);
  EXPECT_EQ(d.verdict, DiffVerdict::slower);
  // every one below: faster (6 / 11)
  const DigestStart below = s(CompileCache::cold, {5, 6, 7, 6});
  d = diff_start("compile", CompileCache::cold, &b, &below, 0.10);
  EXPECT_EQ(d.verdict, DiffVerdict::faster);
  EXPECT_DOUBLE_EQ(*d.ratio, 6.0 / 11.0);
  // ranges overlap: no significant change, however far the medians
  const DigestStart overlapping = s(CompileCache::cold, {11, 13, 20, 13});
  d = diff_start("compile", CompileCache::cold, &b, &overlapping, 0.10);
  EXPECT_EQ(d.verdict, DiffVerdict::no_change);
  EXPECT_EQ(d.reason, DiffReason::not_significant);
  // 2 against 2: C(4, 2) = 6 < 40 orders, too few to tell, apart or overlapping; 3 against 3 too (20: either
  // order by chance 2 in 20)
  EXPECT_EQ(diff_start("compile", CompileCache::cold, &b, &above, 0.10).reason, DiffReason::above_threshold);
  const DigestStart three = s(CompileCache::cold, {10, 11, 12});
  const DigestStart three_above = s(CompileCache::cold, {14, 16, 15});
  EXPECT_EQ(diff_start("compile", CompileCache::cold, &three, &three_above, 0.10).reason, DiffReason::too_few_samples);
  const DigestStart two = s(CompileCache::cold, {10, 11});
  const DigestStart two_above = s(CompileCache::cold, {20, 21});
  d = diff_start("compile", CompileCache::cold, &two, &two_above, 0.10);
  EXPECT_EQ(d.verdict, DiffVerdict::unknown);
  EXPECT_EQ(d.reason, DiffReason::too_few_samples);
  const DigestStart two_overlapping = s(CompileCache::cold, {10, 12});
  EXPECT_EQ(diff_start("compile", CompileCache::cold, &two, &two_overlapping, 0.10).reason, DiffReason::too_few_samples);
  // a state whose every process failed: no figure on that side
  const DigestStart failed = s(CompileCache::cold, {});
  d = diff_start("compile", CompileCache::cold, &b, &failed, 0.10);
  EXPECT_EQ(d.reason, DiffReason::no_samples);
  EXPECT_EQ(d.base_value, std::optional<double>(11));
  // apart (every new total above 12,000), but medians 12,200 / 11,000 = 1.109: within a 15% threshold
  const DigestStart just = s(CompileCache::cold, {12'100, 12'200, 12'300, 12'200});
  const DigestStart b_ms = s(CompileCache::cold, {10'000, 11'000, 12'000, 11'000});
  d = diff_start("compile", CompileCache::cold, &b_ms, &just, 0.15);
  EXPECT_EQ(d.reason, DiffReason::below_threshold);
  d = diff_start("compile", CompileCache::warm, nullptr, &b, 0.10);
  EXPECT_EQ(d.reason, DiffReason::only_in_new);
  EXPECT_FALSE(d.base_value.has_value());
}

TEST(DiffFreshPeak, TheStartsRankRuleOverThePeaksLargerIsTheWorseDirection) {
  const auto s = [](std::vector<std::int64_t> peaks) { return DigestStart{CompileCache::cold, {1, 2, 3, 4}, std::move(peaks)}; };
  // MB: every new peak above every base peak (C(8, 4) = 70 orders); medians (960 + 970) / 2 = 965 over
  // (800 + 801) / 2 = 800.5: +20.5%, larger
  const DigestStart b = s({800, 801, 799, 802});
  const DigestStart above = s({950, 960, 970, 980});
  const auto against = [&](std::vector<std::int64_t> peaks) {
    const DigestStart n = s(std::move(peaks));
    return diff_fresh_peak("compile", CompileCache::cold, &b, &n, 0.10);
  };
  DeploymentDiff d = diff_fresh_peak("compile", CompileCache::cold, &b, &above, 0.10);
  EXPECT_EQ(d.measure, DeployMeasure::fresh_peak);
  EXPECT_EQ(d.cache, CompileCache::cold);
  EXPECT_EQ(d.base_value, std::optional<double>(800.5));
  EXPECT_EQ(d.new_value, std::optional<double>(965));
  EXPECT_DOUBLE_EQ(*d.ratio, 965 / 800.5);
  EXPECT_EQ(d.verdict, DiffVerdict::larger);
  EXPECT_EQ(d.reason, DiffReason::above_threshold);
  EXPECT_TRUE(is_worse(d.verdict));
  // every one below and 600.5 / 800.5 = 0.750: smaller, a gain
  d = against({600, 601, 599, 602});
  EXPECT_EQ(d.verdict, DiffVerdict::smaller);
  // apart, but 840.5 / 800.5 = 1.050: within 10%
  d = against({840, 841, 839, 842});
  EXPECT_EQ(d.verdict, DiffVerdict::no_change);
  EXPECT_EQ(d.reason, DiffReason::below_threshold);
  // one new peak inside the base's range: overlapping, however far the median
  d = against({801, 1000, 1000, 1000});
  EXPECT_EQ(d.verdict, DiffVerdict::no_change);
  EXPECT_EQ(d.reason, DiffReason::not_significant);
  // the peaks are counted, not the processes: 3 read peaks against 4 are 35 orders, too few
  d = against({950, 960, 970});
  EXPECT_EQ(d.new_count, 3u);
  EXPECT_EQ(d.reason, DiffReason::too_few_samples);
  // a state with processes but no reading (a report before 2026-12-07): no figure on that side
  d = against({});
  EXPECT_EQ(d.reason, DiffReason::no_samples);
  EXPECT_EQ(d.verdict, DiffVerdict::unknown);
  d = diff_fresh_peak("compile", CompileCache::cold, &b, nullptr, 0.10);
  EXPECT_EQ(d.reason, DiffReason::only_in_base);
}

TEST(DiffReports, AFreshPeakFollowsItsStateAndALargerOneIsARegression) {
  const auto a = lognormal(200, 10000, 0.05, 31);
  DigestPath base_aoti = path("aoti", a);
  base_aoti.starts = {DigestStart{CompileCache::none, {10, 11, 12, 11}, {500, 501, 502, 503}}};
  DigestPath base_eager = path("eager", a);
  base_eager.starts = {DigestStart{CompileCache::none, {10, 11, 12, 11}, {}}};  // no reading either side: no peak row
  DigestPath new_aoti = base_aoti;
  new_aoti.starts[0].peaks_bytes = {700, 701, 702, 703};
  const DiffResult r = diff_reports(digest({base_aoti, base_eager}), digest({new_aoti, base_eager}), fast_config());
  ASSERT_EQ(r.deployment.size(), 3u);
  EXPECT_EQ(r.deployment[0].measure, DeployMeasure::start);
  EXPECT_EQ(r.deployment[1].measure, DeployMeasure::fresh_peak);
  EXPECT_EQ(r.deployment[1].path, "aoti");
  EXPECT_EQ(r.deployment[1].verdict, DiffVerdict::larger);
  EXPECT_EQ(r.deployment[2].path, "eager");
  EXPECT_EQ(r.deployment[2].measure, DeployMeasure::start);
  EXPECT_EQ(r.outcome(), DiffOutcome::regression);
  // smaller is no regression
  const DiffResult back = diff_reports(digest({new_aoti, base_eager}), digest({base_aoti, base_eager}), fast_config());
  EXPECT_EQ(back.deployment[1].verdict, DiffVerdict::smaller);
  EXPECT_EQ(back.outcome(), DiffOutcome::no_regression);
}

TEST(DiffReports, DeploymentFiguresOfComparePathsAreDiffedAndASlowerOneIsARegression) {
  const auto a = lognormal(200, 10000, 0.05, 31);
  DigestPath base_aoti = path("aoti", a);
  base_aoti.throughput = {DigestThroughput{2, 1000, 10, 10}};
  base_aoti.starts = {DigestStart{CompileCache::none, {10, 11, 12, 11}}};
  DigestPath base_compile = path("compile", a);
  base_compile.starts = {DigestStart{CompileCache::cold, {100, 110, 120, 110}},
                         DigestStart{CompileCache::warm, {40, 41, 42, 41}}};
  DigestPath new_aoti = path("aoti", a);
  new_aoti.throughput = {DigestThroughput{2, 700, 10, 10}};  // 30% fewer calls: slower
  new_aoti.starts = {DigestStart{CompileCache::none, {10, 12, 11, 11}}};
  DigestPath new_compile = path("compile", a);
  new_compile.starts = {DigestStart{CompileCache::cold, {100, 111, 119, 110}}};
  const DiffResult r = diff_reports(digest({base_aoti, base_compile}), digest({new_aoti, new_compile}), fast_config());
  ASSERT_EQ(r.paths.size(), 2u);
  EXPECT_EQ(r.paths[0].verdict, DiffVerdict::no_change);  // the same samples: the latency did not move
  ASSERT_EQ(r.deployment.size(), 4u);
  EXPECT_EQ(r.deployment[0].path, "aoti");
  EXPECT_EQ(r.deployment[0].measure, DeployMeasure::throughput);
  EXPECT_EQ(r.deployment[0].verdict, DiffVerdict::slower);
  EXPECT_EQ(r.deployment[1].cache, CompileCache::none);
  EXPECT_EQ(r.deployment[1].reason, DiffReason::not_significant);
  EXPECT_EQ(r.deployment[2].path, "compile");
  EXPECT_EQ(r.deployment[2].cache, CompileCache::cold);
  EXPECT_EQ(r.deployment[2].reason, DiffReason::not_significant);
  EXPECT_EQ(r.deployment[3].cache, CompileCache::warm);
  EXPECT_EQ(r.deployment[3].reason, DiffReason::only_in_base);
  EXPECT_TRUE(r.regression());
  EXPECT_EQ(r.outcome(), DiffOutcome::regression);
  EXPECT_EQ(r.judged(), 2u + 3u);
  // run and analyze reports have none
  const DiffResult runs = diff_reports(digest({base_aoti}, DigestKind::run), digest({new_aoti}, DigestKind::run), fast_config());
  EXPECT_TRUE(runs.deployment.empty());
  EXPECT_EQ(runs.outcome(), DiffOutcome::no_regression);
}

}  // namespace
}  // namespace ohprof
