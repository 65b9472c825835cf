// The explanation of a gap (analysis/explanation.hpp, docs/metrics.md "Explanation" and "Spread of a
// difference") on hand-made paths whose every term is computed by hand in the comments.
#include "ohprof/analysis/explanation.hpp"
#include "ohprof/analysis/breakdown.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace ohprof {
namespace {

// The split's summaries over its iterations, as analyze_timeline makes them (the explanation reads them).
void summarize_split(PathResult& path) {
  std::vector<std::int64_t> busy;
  std::vector<std::int64_t> wall;
  for (const auto& it : path.breakdown->iterations) {
    busy.push_back(it.gpu.busy_ns);
    wall.push_back(it.wall_ns);
  }
  path.breakdown->summary.gpu.busy_ns = summarize_ns(busy);
  path.breakdown->summary.wall_ns = summarize_ns(wall);
  // the totals and the verdict from them (a split whose time outside the kernels is all host-bound)
  BreakdownTotals& totals = path.breakdown->summary.totals;
  totals.iterations = busy.size();
  for (std::size_t i = 0; i < busy.size(); ++i) {
    totals.wall_ns += wall[i];
    totals.gpu.busy_ns += busy[i];
    totals.gpu.host_bound_ns += wall[i] - busy[i];
  }
  path.breakdown->verdict = decide_verdict(path.breakdown->summary);
}

// A path with these wall samples (timing pass) and, when `busy` is given, a split pass of the same
// number of iterations each `split_wall` long with `busy` of one kernel `kernel` in it.
PathResult make_path(const std::string& name, std::vector<std::int64_t> wall, std::optional<std::int64_t> busy = std::nullopt,
                     std::int64_t split_wall = 0, const std::string& kernel = "gemm",
                     PathRole role = PathRole::variant) {
  PathResult path;
  path.name = name;
  path.role = role;
  path.wall_ns = std::move(wall);
  path.wall = summarize_ns(path.wall_ns);
  if (busy) {
    PathBreakdown breakdown;
    for (std::size_t i = 0; i < path.wall_ns.size(); ++i) {
      IterationBreakdown it;
      it.index = static_cast<std::int64_t>(i);
      it.wall_ns = split_wall;
      it.gpu.busy_ns = *busy;
      breakdown.iterations.push_back(it);
    }
    breakdown.kernels.push_back(KernelStat{DeviceOpKind::kernel, kernel, path.wall_ns.size(), 0, 0, 1.0});
    path.breakdown = std::move(breakdown);
    summarize_split(path);
  } else {
    path.split_unavailable_reason = "fake: no collector";
  }
  return path;
}

std::vector<std::int64_t> flat(std::int64_t ns) { return std::vector<std::int64_t>(5, ns); }

// compile against aoti, every sample constant (no spread), in ns:
//   timing medians: compile 30000, /no-guards 28000, /graph 11000, /inductor 9000, /call 7600; aoti 4000
//   split pass busy: compile 2100, /call 2000, aoti 2000
// so gap 26000; kernels 2100 - 2000 = 100; layers 2000, 17000, 2000, 1400; the floors' host time
// (timing median - split busy) 7600 - 2000 = 5600 and 4000 - 2000 = 2000, wrapper 3600; residual
// (7600 - 4000) - 100 - 3600 = -100, which is (busy(/call) - busy(compile)) - 0 = 2000 - 2100; and
// 100 + 22400 + 3600 - 100 = 26000.
std::vector<PathResult> compile_and_aoti() {
  return {make_path("aoti", flat(4000), 2000, 4100, "gemm", PathRole::path),
          make_path("compile", flat(30000), 2100, 32000, "gemm", PathRole::path),
          make_path("compile:cpp-wrapper", flat(20000), 2000, 21000, "gemm", PathRole::path),
          make_path("compile/no-guards", flat(28000), 2100, 29000),
          make_path("compile/graph", flat(11000), 2100, 12000),
          make_path("compile/inductor", flat(9000), 2000, 9500),
          make_path("compile/call", flat(7600), 2000, 7700)};
}

TEST(MedianStandardError, IsTheNormalAsymptoticWithTheRobustSigma) {
  // 10, 12, 14, 16, 18 us: median 14 us, |x - median| = 4, 2, 0, 2, 4 us, MAD 2 us;
  // se = sqrt(pi/2) * 1.4826 * 2 us / sqrt(5) = 1.2533141 * 1.4826 * 2000 / 2.2360680 = 1661.99 ns.
  const SampleSummary s = summarize_ns(std::vector<std::int64_t>{10'000, 12'000, 14'000, 16'000, 18'000});
  EXPECT_NEAR(median_standard_error(s), 1661.99, 0.01);
  EXPECT_EQ(median_standard_error(summarize_ns(std::vector<std::int64_t>{5})), 0.0);  // one value: none
  // A difference of two such samples: sqrt(2) * 1661.99 = 2350.42.
  const SampleSummary t = summarize_ns(std::vector<std::int64_t>{20'000, 22'000, 24'000, 26'000, 28'000});
  const Estimate d = difference_of_medians(t, s);
  EXPECT_DOUBLE_EQ(d.value_ns, 10'000);
  EXPECT_NEAR(d.se_ns, 2350.42, 0.01);
  const Estimate sum = Estimate{3, 3} + Estimate{1, 4};
  EXPECT_DOUBLE_EQ(sum.value_ns, 4);
  EXPECT_DOUBLE_EQ(sum.se_ns, 5);
  const Estimate diff = Estimate{3, 3} - Estimate{1, 4};
  EXPECT_DOUBLE_EQ(diff.value_ns, 2);
  EXPECT_DOUBLE_EQ(diff.se_ns, 5);
}

// docs/metrics.md, "Spread of a difference": two paths measured in three rounds of two calls each.
//   a: 10 10 | 30 30 | 20 20, block medians 10, 30, 20; b: 20 20 | 10 10 | 50 50, block medians 20, 10, 50.
//   d = -10, 20, -30: median -10, |d + 10| = 0, 30, 20, MAD 20; paired se = sqrt(pi/2) * 1.4826 * 20 / sqrt(3)
//   = 1.8581635 * 20 / 1.7320508 = 21.4562 ns.
//   Independent: a sorted 10 10 20 20 30 30, median 20, |a - 20| = 0 0 10 10 10 10, MAD 10, se 1.8581635 * 10 /
//   sqrt(6) = 7.5860; b sorted 10 10 20 20 50 50, median 20, MAD 10, se 7.5860; together 10.7281 ns.
TEST(RoundPairedSe, IsTheSpreadOfThePerRoundDifferences) {
  const std::vector<std::int64_t> a{10, 10, 30, 30, 20, 20};
  const std::vector<std::int64_t> b{20, 20, 10, 10, 50, 50};
  const std::vector<int> rounds{0, 0, 1, 1, 2, 2};
  const auto paired = round_paired_se(a, rounds, b, rounds);
  ASSERT_TRUE(paired.has_value());
  EXPECT_NEAR(*paired, 21.4562, 1e-4);
  // A round only one path ran in is left out: rounds 0 and 1 in common, d = -10, 20: median 5, MAD 15,
  // se 1.8581635 * 15 / sqrt(2) = 19.7088.
  const std::vector<int> shifted{0, 0, 1, 1, 7, 7};
  EXPECT_NEAR(*round_paired_se(a, rounds, b, shifted), 19.7088, 1e-4);
  // Fewer than two common rounds, or samples without their rounds: none.
  EXPECT_FALSE(round_paired_se(a, rounds, b, std::vector<int>{0, 0, 5, 5, 7, 7}).has_value());
  EXPECT_FALSE(round_paired_se(a, std::vector<int>{}, b, rounds).has_value());

  PathResult pa = make_path("a", a);
  PathResult pb = make_path("b", b);
  // Without rounds (run, an older report): the independent form.
  EXPECT_NEAR(wall_difference(pa, pb).se_ns, 10.7281, 1e-4);
  EXPECT_DOUBLE_EQ(wall_difference(pa, pb).value_ns, 0);
  // With them: the larger, here the paired one.
  pa.wall_rounds = rounds;
  pb.wall_rounds = rounds;
  EXPECT_NEAR(wall_difference(pa, pb).se_ns, 21.4562, 1e-4);
  // Drift common to a round cancels in the pairs (b = a + 5 in every round: d = -5, -5, -5, MAD 0), and the
  // independent form is kept: 10.7281.
  PathResult drift = make_path("b", std::vector<std::int64_t>{15, 15, 35, 35, 25, 25});
  drift.wall_rounds = rounds;
  EXPECT_EQ(*round_paired_se(a, rounds, drift.wall_ns, rounds), 0.0);
  const Estimate d = wall_difference(pa, drift);
  EXPECT_DOUBLE_EQ(d.value_ns, -5);
  EXPECT_NEAR(d.se_ns, 10.7281, 1e-4);
}

// The split pass's busy times pair by their iterations' rounds the same way (the same numbers as above, as
// busy times); an iteration without a round (a report before 2026-12-06) leaves the independent form.
TEST(RoundPairedSe, BusyTimesPairByTheirIterationsRounds) {
  const auto with_busy = [](const std::string& name, const std::vector<std::int64_t>& busy, std::vector<std::optional<int>> rounds) {
    PathResult path = make_path(name, std::vector<std::int64_t>(busy.size(), 100), 0, 100);
    for (std::size_t i = 0; i < busy.size(); ++i) {
      path.breakdown->iterations[i].gpu.busy_ns = busy[i];
      path.breakdown->iterations[i].round = rounds[i];
    }
    summarize_split(path);
    return path;
  };
  const std::vector<std::optional<int>> rounds{0, 0, 1, 1, 2, 2};
  const PathResult a = with_busy("a", {10, 10, 30, 30, 20, 20}, rounds);
  const PathResult b = with_busy("b", {20, 20, 10, 10, 50, 50}, rounds);
  EXPECT_DOUBLE_EQ(busy_difference(a, b).value_ns, 0);
  EXPECT_NEAR(busy_difference(a, b).se_ns, 21.4562, 1e-4);
  const PathResult unpaired = with_busy("b", {20, 20, 10, 10, 50, 50}, {0, 0, 1, 1, 2, std::nullopt});
  EXPECT_NEAR(busy_difference(a, unpaired).se_ns, 10.7281, 1e-4);
}

TEST(ExplainGap, SplitsTheGapIntoKernelsLayersWrapperAndResidual) {
  const auto paths = compile_and_aoti();
  const GapExplanation e = explain_gap(paths, "compile", "aoti");
  EXPECT_DOUBLE_EQ(e.gap.value_ns, 26000);
  EXPECT_DOUBLE_EQ(e.gap.se_ns, 0);
  EXPECT_FALSE(e.within_noise);
  ASSERT_TRUE(e.kernels.has_value());
  EXPECT_DOUBLE_EQ(e.kernels->value_ns, 100);
  EXPECT_EQ(e.kernels_same, true);
  // aoti's split: busy 2000 of 4100 (48.8%), host-bound 51.2%: no share leads by 10 points, mixed
  ASSERT_TRUE(e.faster_kernel_share.has_value());
  EXPECT_DOUBLE_EQ(*e.faster_kernel_share, 2000.0 / 4100.0);
  EXPECT_EQ(e.faster_dominant, Dominant::neither);
  ASSERT_EQ(e.layers.size(), 4u);
  const double expected[] = {2000, 17000, 2000, 1400};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_DOUBLE_EQ(e.layers[i].estimate.value_ns, expected[i]) << i;
    EXPECT_EQ(e.layers[i].sign, 1);
    EXPECT_EQ(e.layers[i].path, "compile");
    EXPECT_EQ(e.layers[i].kernels_differ, false);
  }
  EXPECT_EQ(e.floor_slower, "compile/call");
  EXPECT_EQ(e.floor_faster, "aoti");
  ASSERT_TRUE(e.wrapper.has_value());
  EXPECT_DOUBLE_EQ(e.wrapper->value_ns, 3600);
  ASSERT_TRUE(e.residual.has_value());
  EXPECT_DOUBLE_EQ(e.residual->value_ns, -100);
  // compile:cpp-wrapper (20000) closes 10000 of the 26000; the variants are not remedies.
  ASSERT_EQ(e.remedies.size(), 1u);
  EXPECT_EQ(e.remedies[0].path, "compile:cpp-wrapper");
  EXPECT_DOUBLE_EQ(e.remedies[0].saved.value_ns, 10000);
  EXPECT_DOUBLE_EQ(e.remedies[0].share_of_gap, 10000.0 / 26000.0);
  EXPECT_TRUE(e.missing.empty());
}

TEST(ExplainGap, TheFasterPathsLayersAreSubtracted) {
  // compile (30000) against aoti:python (13900): aoti:python's own loader layer, aoti:python - aoti =
  // 13900 - 4000 = 9900, is a layer of the faster side, so it counts against the gap (sign -1).
  auto paths = compile_and_aoti();
  paths.push_back(make_path("aoti:python", flat(13900), 2000, 14000, "gemm", PathRole::path));
  const GapExplanation e = explain_gap(paths, "compile", "aoti:python");
  EXPECT_DOUBLE_EQ(e.gap.value_ns, 30000 - 13900);
  ASSERT_EQ(e.layers.size(), 5u);
  EXPECT_EQ(e.layers[4].layer, HostLayer::python_loader);
  EXPECT_EQ(e.layers[4].sign, -1);
  EXPECT_DOUBLE_EQ(e.layers[4].estimate.value_ns, 9900);
  EXPECT_EQ(e.floor_faster, "aoti");
  // The identity: gap = kernels + sum(sign * layer) + wrapper + residual.
  double sum = e.kernels->value_ns + e.wrapper->value_ns + e.residual->value_ns;
  for (const auto& layer : e.layers) sum += layer.sign * layer.estimate.value_ns;
  EXPECT_NEAR(sum, e.gap.value_ns, 1e-9);
}

TEST(ExplainGap, OneFloorOnBothSidesHasNoWrapperTerm) {
  auto paths = compile_and_aoti();
  paths.push_back(make_path("aoti:python", flat(13900), 2050, 14000, "gemm", PathRole::path));
  const GapExplanation e = explain_gap(paths, "aoti:python", "aoti");
  ASSERT_EQ(e.layers.size(), 1u);
  EXPECT_DOUBLE_EQ(e.layers[0].estimate.value_ns, 9900);
  EXPECT_DOUBLE_EQ(e.wrapper->value_ns, 0);
  EXPECT_DOUBLE_EQ(e.wrapper->se_ns, 0);
  // The floors are one path, so the telescoped floor gap is exactly 0; the kernels' 50 ns moves to the residual.
  EXPECT_DOUBLE_EQ(e.kernels->value_ns, 50);
  EXPECT_DOUBLE_EQ(e.residual->value_ns, -50);
}

TEST(ExplainGap, AMissingVariantEndsTheChainAndSaysWhy) {
  auto paths = compile_and_aoti();
  paths.erase(paths.begin() + 5);  // compile/inductor
  ExplainContext context;
  context.unavailable = {{"compile/inductor", "2 graphs"}};
  const GapExplanation e = explain_gap(paths, "compile", "aoti", context);
  ASSERT_EQ(e.layers.size(), 2u);
  EXPECT_EQ(e.floor_slower, "compile/graph");
  EXPECT_FALSE(e.floor_kind_slower.has_value());
  EXPECT_DOUBLE_EQ(e.floor_gap.value_ns, 11000 - 4000);
  ASSERT_EQ(e.missing.size(), 1u);
  EXPECT_EQ(e.missing[0], "AOTAutograd wrapper of compile: variant compile/inductor not built: 2 graphs");
  // The wrapper term is then all of compile/graph's host time against aoti's: (11000 - 2100) - (4000 - 2000).
  EXPECT_DOUBLE_EQ(e.wrapper->value_ns, 6900);
  // residual (11000 - 4000) - 100 - 6900 = 0: compile/graph runs compile's kernel time (busy 2100 both)
  EXPECT_DOUBLE_EQ(e.residual->value_ns, 0);
}

// A path that ran uncompiled code (the execution check's probe) has no layers of compiled code: none is
// peeled, its floor is itself, and the explanation says why. A variant that did ends the chain above it.
TEST(ExplainGap, APathThatRanUncompiledHasNoLayers) {
  auto paths = compile_and_aoti();
  paths[1].execution = ExecutionCheck{};
  paths[1].execution->facts.dynamo = true;
  paths[1].execution->compiled_call = CompiledCall::guards_missed;
  GapExplanation e = explain_gap(paths, "compile", "aoti");
  EXPECT_TRUE(e.layers.empty());
  EXPECT_EQ(e.floor_slower, "compile");
  EXPECT_DOUBLE_EQ(e.floor_gap.value_ns, 26000);  // all of it, compile against aoti
  ASSERT_EQ(e.missing.size(), 1u);
  EXPECT_EQ(e.missing[0], "the layers of compile: it ran uncompiled code (execution check), so its variants' "
                          "differences are not its layers");
  // The wrapper term: compile's host time against aoti's, (30000 - 2100) - (4000 - 2000).
  EXPECT_DOUBLE_EQ(e.wrapper->value_ns, 25900);

  paths[1].execution->compiled_call = CompiledCall::compiled;
  paths[3].execution = paths[1].execution;  // compile/no-guards
  paths[3].execution->compiled_call = CompiledCall::no_graph;  // its probe ran no compiled graph
  e = explain_gap(paths, "compile", "aoti");
  EXPECT_TRUE(e.layers.empty());
  ASSERT_EQ(e.missing.size(), 1u);
  EXPECT_EQ(e.missing[0], "guards of compile: compile/no-guards ran uncompiled code (execution check), so the "
                          "difference is not that layer alone");
}

TEST(ExplainGap, WithoutASplitTheKernelsWrapperAndResidualAreAbsentAndNamed) {
  std::vector<PathResult> paths{make_path("aoti", flat(4000), std::nullopt, 0, "gemm", PathRole::path),
                                make_path("eager", flat(17000), std::nullopt, 0, "gemm", PathRole::path)};
  const GapExplanation e = explain_gap(paths, "eager", "aoti");
  EXPECT_DOUBLE_EQ(e.gap.value_ns, 13000);
  EXPECT_FALSE(e.kernels.has_value());
  EXPECT_FALSE(e.wrapper.has_value());
  EXPECT_FALSE(e.residual.has_value());
  ASSERT_EQ(e.missing.size(), 1u);
  EXPECT_EQ(e.missing[0], "kernel time and the wrapper term: eager: fake: no collector");
  // What the terms would split is still there, whole: everything below the chains.
  EXPECT_DOUBLE_EQ(e.floor_gap.value_ns, 13000);
}

// A side whose verdict says its kernels do not record themselves (kernels_unrecorded, docs/metrics.md, "Verdict"):
// its busy time is not its kernels' time, so the kernel and wrapper terms are unknown, and the reason names it.
TEST(ExplainGap, KernelsThatDoNotRecordThemselvesMakeTheKernelTermUnknown) {
  std::vector<PathResult> paths = compile_and_aoti();
  for (PathResult& p : paths) {
    if (p.name == "compile") p.breakdown->verdict.kernels_unrecorded = true;
  }
  const GapExplanation e = explain_gap(paths, "compile", "aoti");
  EXPECT_TRUE(e.measured);
  EXPECT_FALSE(e.kernels.has_value());
  EXPECT_FALSE(e.wrapper.has_value());
  EXPECT_FALSE(e.residual.has_value());
  EXPECT_EQ(e.layers.size(), 4u);  // the layers are wall-time differences: still measured
  EXPECT_DOUBLE_EQ(e.floor_gap.value_ns, 3600);
  ASSERT_EQ(e.missing.size(), 1u);
  EXPECT_EQ(e.missing[0], "kernel time and the wrapper term: compile: on the CPU, Inductor's generated kernels record "
                          "themselves only when compiled with --kernel-profile; without it part of the kernels' time "
                          "would count as host time; rerun with --kernel-profile");
  // An AOTI package whose code was read (its kernel attribution) and says it was built without profiling.
  paths = compile_and_aoti();
  for (PathResult& p : paths) {
    if (p.name != "aoti") continue;
    p.breakdown->verdict.kernels_unrecorded = true;
    p.kernel_attribution = KernelAttributionSummary{};
  }
  EXPECT_EQ(explain_gap(paths, "compile", "aoti").missing.at(0),
            "kernel time and the wrapper term: the AOTI package of path aoti was built without "
            "cpp.enable_kernel_profile, so its CPU kernels do not record themselves; rebuild it with --kernel-profile");
  // No side unrecorded (eager's ATen operators always record; a profiled package's kernels do): the terms are
  // computed, whatever the run's --kernel-profile was.
  EXPECT_TRUE(explain_gap(compile_and_aoti(), "compile", "aoti").kernels.has_value());
}

// Spread, computed by hand. Five samples each; a sample "m + d" for d in (-2, -1, 0, 1, 2) * s has
// median m and MAD s, so se(median) = 1.2533141 * 1.4826 * s / sqrt(5) = 0.8309958 * s.
std::vector<std::int64_t> spread(std::int64_t median, std::int64_t s) {
  return {median - 2 * s, median - s, median, median + s, median + 2 * s};
}

TEST(ExplainGap, EachTermCarriesTheStandardErrorItsSamplesGive) {
  constexpr double k = 0.8309958;  // se(median) per unit of MAD, n = 5
  auto with_busy = [](PathResult path, std::vector<std::int64_t> busy) {
    for (std::size_t i = 0; i < busy.size(); ++i) path.breakdown->iterations[i].gpu.busy_ns = busy[i];
    summarize_split(path);
    return path;
  };
  // timing: compile 30000 (MAD 1000), /no-guards 28000 (MAD 500), /graph 11000 (200), /inductor 9000 (100),
  // /call 7600 (100), aoti 4000 (100); split busy: compile 2100 (MAD 30), /call 2000 (40), aoti 2000 (20).
  std::vector<PathResult> paths{
      with_busy(make_path("aoti", spread(4000, 100), 0, 4100, "gemm", PathRole::path), spread(2000, 20)),
      with_busy(make_path("compile", spread(30000, 1000), 0, 32000, "gemm", PathRole::path), spread(2100, 30)),
      make_path("compile/no-guards", spread(28000, 500), 2100, 29000),
      make_path("compile/graph", spread(11000, 200), 2100, 12000),
      make_path("compile/inductor", spread(9000, 100), 2000, 9500),
      with_busy(make_path("compile/call", spread(7600, 100), 0, 7700), spread(2000, 40))};
  const GapExplanation e = explain_gap(paths, "compile", "aoti");
  // gap: sqrt(1000^2 + 100^2) * k
  EXPECT_NEAR(e.gap.se_ns, std::hypot(1000, 100) * k, 1e-3);
  // guards: compile - /no-guards, sqrt(1000^2 + 500^2) * k; Dynamo: sqrt(500^2 + 200^2) * k
  EXPECT_NEAR(e.layers[0].estimate.se_ns, std::hypot(1000, 500) * k, 1e-3);
  EXPECT_NEAR(e.layers[1].estimate.se_ns, std::hypot(500, 200) * k, 1e-3);
  // kernels: busy compile - busy aoti, sqrt(30^2 + 20^2) * k
  EXPECT_NEAR(e.kernels->se_ns, std::hypot(30, 20) * k, 1e-3);
  // wrapper: (t(/call) - busy(/call)) - (t(aoti) - busy(aoti)): the four errors in quadrature
  EXPECT_NEAR(e.wrapper->se_ns, std::sqrt(100.0 * 100 + 40 * 40 + 100 * 100 + 20 * 20) * k, 1e-3);
  // residual: (busy(/call) - busy(compile)) - 0: sqrt(40^2 + 30^2) * k, not the layers' errors
  EXPECT_NEAR(e.residual->se_ns, std::hypot(40, 30) * k, 1e-3);
  EXPECT_DOUBLE_EQ(e.residual->value_ns, -100);
  EXPECT_DOUBLE_EQ(*e.residual_share, -100.0 / 26000.0);
}

TEST(ExplainGap, WithinTwoStandardErrorsIsNoise) {
  // medians 120 and 125 us, MAD 10 us each: se of the difference sqrt(2) * 1.2533 * 1.4826 * 10 / sqrt(5)
  // = 11.75 us, so a 5 us gap is noise.
  std::vector<PathResult> paths{
      make_path("a", {100'000, 110'000, 120'000, 130'000, 140'000}, 90'000, 120'000, "gemm", PathRole::path),
      make_path("b", {105'000, 115'000, 125'000, 135'000, 145'000}, 90'000, 125'000, "gemm", PathRole::path)};
  const GapExplanation e = explain_gap(paths, "a", "b");
  EXPECT_DOUBLE_EQ(e.gap.value_ns, -5000);
  EXPECT_NEAR(e.gap.se_ns, 11752.1, 0.1);
  EXPECT_TRUE(e.within_noise);
  // b's split: busy 90 of 125 us (72%), host-bound 28%: compute-bound, so kernels dominate
  ASSERT_TRUE(e.faster_kernel_share.has_value());
  EXPECT_DOUBLE_EQ(*e.faster_kernel_share, 90.0 / 125.0);
  EXPECT_EQ(e.faster_dominant, Dominant::kernels);
  // a faster path whose verdict is unknown (here: no iteration) says nothing of what dominates
  paths[1].breakdown->verdict = PathVerdict{};
  EXPECT_FALSE(explain_gap(paths, "a", "b").faster_dominant.has_value());
  EXPECT_FALSE(explain_gap(paths, "a", "b").faster_kernel_share.has_value());
}

TEST(ExplainGap, DynamosOwnRangesAreSetBesideTheGuardAndDynamoLayers) {
  auto paths = compile_and_aoti();
  // compile's split pass: lookup 1800 ns, outside the compiled region 19500 ns, constant.
  paths[1].dynamo_ranges = DynamoRanges{5, summarize_ns(flat(1800)), summarize_ns(flat(19500))};
  const GapExplanation e = explain_gap(paths, "compile", "aoti");
  ASSERT_EQ(e.dynamo_ranges.size(), 1u);  // aoti has none
  const DynamoRangeCheck& check = e.dynamo_ranges[0];
  EXPECT_EQ(check.path, "compile");
  EXPECT_DOUBLE_EQ(check.cache_lookup.value_ns, 1800);
  EXPECT_DOUBLE_EQ(check.outside_region.value_ns, 19500);
  ASSERT_TRUE(check.guards && check.guards_and_dynamo);
  EXPECT_DOUBLE_EQ(check.guards->value_ns, 2000);              // compile - compile/no-guards
  EXPECT_DOUBLE_EQ(check.guards_and_dynamo->value_ns, 19000);  // 2000 + 17000
  // Without compile/graph there is no Dynamo-entry layer: no sum, where the guards alone once stood for it.
  std::erase_if(paths, [](const PathResult& p) { return p.name == "compile/graph"; });
  const GapExplanation without = explain_gap(paths, "compile", "aoti");
  ASSERT_EQ(without.dynamo_ranges.size(), 1u);
  ASSERT_TRUE(without.dynamo_ranges[0].guards.has_value());
  EXPECT_FALSE(without.dynamo_ranges[0].guards_and_dynamo.has_value());
}

// guards + Dynamo entry is compile − compile/graph as one estimate: the noise of compile/no-guards, the
// variant the two layers share, cancels in the sum. With no-guards' samples 27, 27.5, 28, 28.5, 29 us
// (median 28000, MAD 500, se 1.2533141 * 1.4826 * 500 / sqrt(5) = 415.5 ns) and the others flat: each
// layer's se is 415.5 ns, their quadrature 587.6 ns, and the sum's 0 (compile and compile/graph flat).
TEST(ExplainGap, GuardsAndDynamoEntryIsOneDifferenceWhoseSharedVariantCancels) {
  auto paths = compile_and_aoti();
  paths[3] = make_path("compile/no-guards", {27000, 27500, 28000, 28500, 29000}, 2100, 29000);
  paths[1].dynamo_ranges = DynamoRanges{5, summarize_ns(flat(1800)), summarize_ns(flat(19500))};
  const GapExplanation e = explain_gap(paths, "compile", "aoti");
  ASSERT_EQ(e.dynamo_ranges.size(), 1u);
  const DynamoRangeCheck& check = e.dynamo_ranges[0];
  ASSERT_TRUE(check.guards && check.guards_and_dynamo);
  EXPECT_NEAR(check.guards->se_ns, 415.5, 0.1);
  EXPECT_DOUBLE_EQ(check.guards_and_dynamo->value_ns, 19000);
  EXPECT_DOUBLE_EQ(check.guards_and_dynamo->se_ns, 0);
}

TEST(LayersExceedRange, BeyondNoiseAndBeyondAQuarter) {
  // Each by hand: excess = layer - range, se in quadrature; flagged when excess > 1.96 se, excess > 0 and
  // layer >= 1.25 range.
  EXPECT_TRUE(layers_exceed_range({2000, 0}, {1500, 0}));     // x1.333, excess 500 with no spread
  EXPECT_TRUE(layers_exceed_range({1875, 0}, {1500, 0}));     // x1.25 exactly
  EXPECT_FALSE(layers_exceed_range({1870, 0}, {1500, 0}));    // x1.247: the views' own differences
  EXPECT_FALSE(layers_exceed_range({2000, 300}, {1500, 0}));  // 500 < 1.96 * 300 = 588: within noise
  EXPECT_TRUE(layers_exceed_range({2000, 200}, {1500, 150})); // se 250, 1.96 * 250 = 490 < 500
  EXPECT_FALSE(layers_exceed_range({2000, 200}, {1500, 160})); // se 256.1, 502 > 500
  EXPECT_TRUE(layers_exceed_range({1000, 0}, {0, 0}));        // a range of zero: any excess beyond noise
  EXPECT_FALSE(layers_exceed_range({1500, 0}, {2000, 0}));    // the range holds more: what it may (one-sided)
  EXPECT_FALSE(layers_exceed_range({-500, 0}, {0, 0}));
}

TEST(ExplainGap, DynamosOwnRangesDisagreeWhereALayerHoldsMoreThanItsRange) {
  auto paths = compile_and_aoti();  // guards 2000 ns, guards + Dynamo entry 19000 ns, all without spread
  const auto check_with = [&](std::int64_t lookup, std::int64_t outside) {
    paths[1].dynamo_ranges = DynamoRanges{5, summarize_ns(flat(lookup)), summarize_ns(flat(outside))};
    const GapExplanation e = explain_gap(paths, "compile", "aoti");
    EXPECT_EQ(e.dynamo_ranges.size(), 1u);
    return e;
  };
  GapExplanation e = check_with(1800, 19500);  // 2000 / 1800 = x1.11; 19000 < 19500
  EXPECT_FALSE(e.dynamo_ranges[0].guards_exceed_lookup);
  EXPECT_FALSE(e.dynamo_ranges[0].layers_exceed_outside);
  e = check_with(1500, 19500);  // 2000 / 1500 = x1.33
  EXPECT_TRUE(e.dynamo_ranges[0].guards_exceed_lookup);
  EXPECT_FALSE(e.dynamo_ranges[0].layers_exceed_outside);
  e = check_with(1800, 15000);  // 19000 / 15000 = x1.27
  EXPECT_FALSE(e.dynamo_ranges[0].guards_exceed_lookup);
  EXPECT_TRUE(e.dynamo_ranges[0].layers_exceed_outside);
  e = check_with(1800, 15500);  // 19000 / 15500 = x1.23: the views' own differences
  EXPECT_FALSE(e.dynamo_ranges[0].layers_exceed_outside);
  // The lookup with spread: 0.5, 1, 1.5, 2, 2.5 us, median 1500, MAD 500, se = 1.2533141 * 1.4826 * 500 /
  // sqrt(5) = 415.5 ns; the guards' excess 500 ns < 1.96 * 415.5 = 814 ns: within noise, though x1.33.
  paths[1].dynamo_ranges = DynamoRanges{5, summarize_ns(std::vector<std::int64_t>{500, 1000, 1500, 2000, 2500}),
                                        summarize_ns(flat(19500))};
  e = explain_gap(paths, "compile", "aoti");
  EXPECT_FALSE(e.dynamo_ranges[0].guards_exceed_lookup);
}

TEST(ExplainAgainstFastest, EachPathAgainstTheFastestPathNotVariant) {
  const auto paths = compile_and_aoti();  // compile/call (7600) is faster than compile but a variant
  const auto all = explain_against_fastest(paths);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].slower, "compile");
  EXPECT_EQ(all[0].faster, "aoti");
  EXPECT_EQ(all[1].slower, "compile:cpp-wrapper");
  // compile:cpp-wrapper's chain is not measured here: its first variant is missing.
  ASSERT_FALSE(all[1].missing.empty());
  EXPECT_EQ(all[1].missing[0], "guards of compile:cpp-wrapper: variant compile:cpp-wrapper/no-guards not measured");
}

TEST(ExplainGap, KernelSetsThatDifferAreFlaggedOnThePairAndTheLayer) {
  auto paths = compile_and_aoti();
  paths[1] = make_path("compile", flat(30000), 2100, 32000, "fused_gemm", PathRole::path);
  const GapExplanation e = explain_gap(paths, "compile", "aoti");
  EXPECT_EQ(e.kernels_same, false);
  EXPECT_EQ(e.layers[0].kernels_differ, true);   // compile vs compile/no-guards
  EXPECT_EQ(e.layers[1].kernels_differ, false);
  // Kernels that do not record themselves (a CPU run without --kernel-profile): the recorded ops differing
  // says nothing of the kernels: whether they differ is unknown.
  paths[1].breakdown->verdict.kernels_unrecorded = true;
  EXPECT_FALSE(explain_gap(paths, "compile", "aoti").layers[0].kernels_differ.has_value());
}

}  // namespace
}  // namespace ohprof
