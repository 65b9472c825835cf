// compare --what-if's ledger (docs/metrics.md, "What-if ledger"), each figure computed by hand.
#include "ohprof/analysis/what_if.hpp"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "ohprof/base/stats.hpp"

namespace ohprof {
namespace {

PathResult path(const std::string& name, std::vector<std::int64_t> samples, std::int64_t load_ns = 0) {
  PathResult p;
  p.name = name;
  p.wall_ns = std::move(samples);
  p.wall = summarize_ns(p.wall_ns);
  p.load_ns = load_ns;
  return p;
}

PathOutputCheck check(bool passed, double max_abs) {
  PathOutputCheck c;
  c.reference = "eager";
  c.passed = passed;
  c.max_abs_diff = max_abs;
  return c;
}

TEST(WhatIfSettings, EachSettingItsPathAndNameInTheLedgersOrder) {
  std::vector<std::string> names;
  std::vector<std::string> paths;
  for (const WhatIfSetting& s : what_if_settings()) {
    names.push_back(to_string(s.setting));
    paths.push_back(s.path);
    EXPECT_NE(std::string(setting_label(s.setting)), "") << to_string(s.setting);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"skip-guards", "skip-module-guards", "cpp-wrapper", "cuda-graphs", "autotune"}));
  EXPECT_EQ(paths, (std::vector<std::string>{"compile/no-guards", "compile:no-module-guards", "compile:cpp-wrapper",
                                             "compile:reduce-overhead", "compile:max-autotune-no-cudagraphs"}));
  EXPECT_STREQ(setting_label(CompileSetting::cpp_wrapper), "torch._inductor.config.cpp_wrapper = True");
  EXPECT_STREQ(to_string(PathRole::what_if), "what-if");
  EXPECT_TRUE(what_if_compiles(CompileSetting::autotune));
  EXPECT_FALSE(what_if_compiles(CompileSetting::skip_guards));
}

// base: median 1200 ns, MAD 100 ns (deviations 200 100 0 100 200); 5 samples.
const std::vector<std::int64_t> kBase{1000, 1100, 1200, 1300, 1400};

TEST(WhatIfLedger, SavedIsTheDifferenceOfMediansWithTheSpreadOfADifference) {
  PathResult base = path("compile", kBase, 5'000'000);
  base.memory = PathMemory{};
  base.memory->run_peak_bytes = 4096;
  PathResult guards = path("compile/no-guards", {700, 800, 900, 1000, 1100});  // median 900, MAD 100
  guards.output_check = check(true, 0);
  PathResult modules = path("compile:no-module-guards", {1050, 1150, 1250, 1350, 1450}, 7'000'000);  // median 1250
  modules.output_check = check(false, 0.5);
  modules.memory = PathMemory{};
  modules.memory->run_peak_bytes = 1024;
  modules.memory->device = PathDeviceMemory{};
  modules.memory->device->graph_pool_bytes = 8192;  // made up: carried over as it is
  modules.execution = ExecutionCheck{};
  modules.execution->facts.fx_cache_hits = 1;
  modules.execution->facts.fx_cache_misses = 0;
  const WhatIfLedger ledger = what_if_ledger({base, guards, modules}, WhatIfContext{});
  EXPECT_EQ(ledger.base, "compile");
  EXPECT_TRUE(ledger.base_measured);
  EXPECT_EQ(ledger.base_ready_ns, 5'000'000);
  ASSERT_EQ(ledger.entries.size(), 5u);

  // se of one median: sqrt(pi/2) * 1.4826 * MAD / sqrt(n) = 1.25331 * 1.4826 * 100 / sqrt(5) = 83.0996 ns;
  // of the difference: hypot(83.0996, 83.0996) = 117.5206 ns; 95%: 300 ± 1.96 * 117.5206 = 69.66 to 530.34.
  const WhatIfEntry& g = ledger.entries[0];
  EXPECT_EQ(g.setting, CompileSetting::skip_guards);
  EXPECT_EQ(g.path, "compile/no-guards");
  ASSERT_TRUE(g.saved.has_value());
  EXPECT_DOUBLE_EQ(g.saved->value_ns, 300.0);
  EXPECT_NEAR(g.saved->se_ns, 117.5206, 1e-3);
  EXPECT_NEAR(interval_low(*g.saved), 69.6597, 1e-3);
  EXPECT_NEAR(interval_high(*g.saved), 530.3403, 1e-3);
  EXPECT_TRUE(g.significant);
  EXPECT_FALSE(g.negligible);  // 300 ns is 25% of the base's 1200 ns
  EXPECT_EQ(g.outputs_match, std::optional<bool>(true));
  EXPECT_FALSE(g.ready_ns.has_value());  // the base's compile, guards skipped around the call: no cost of its own
  EXPECT_FALSE(g.extra_run_peak_bytes.has_value());

  // −50 ns with the same spread: its interval (−280.3 to 180.3) contains zero.
  const WhatIfEntry& m = ledger.entries[1];
  ASSERT_TRUE(m.saved.has_value());
  EXPECT_DOUBLE_EQ(m.saved->value_ns, -50.0);
  EXPECT_FALSE(m.significant);
  EXPECT_EQ(m.outputs_match, std::optional<bool>(false));
  EXPECT_EQ(m.max_abs_diff, std::optional<double>(0.5));
  EXPECT_EQ(m.ready_ns, std::optional<std::int64_t>(7'000'000));
  EXPECT_EQ(m.extra_run_peak_bytes, std::optional<std::int64_t>(1024 - 4096));
  EXPECT_EQ(m.graph_pool_bytes, std::optional<std::int64_t>(8192));
  EXPECT_FALSE(g.graph_pool_bytes.has_value());
  EXPECT_EQ(m.fx_cache_hits, std::optional<std::int64_t>(1));
  EXPECT_EQ(m.fx_cache_misses, std::optional<std::int64_t>(0));

  // Not built, nothing said by the session: named as such.
  EXPECT_EQ(ledger.entries[2].unavailable, "not built");
  EXPECT_FALSE(ledger.entries[2].saved.has_value());
  // CUDA graphs on the CPU: not applicable, before anything else.
  EXPECT_EQ(ledger.entries[3].setting, CompileSetting::cuda_graphs);
  EXPECT_FALSE(ledger.entries[3].not_applicable.empty());
  EXPECT_TRUE(ledger.entries[3].unavailable.empty());
}

TEST(WhatIfLedger, TheSessionsReasonsAreKeptAndCUDAGraphsApplyOnCUDA) {
  WhatIfContext context;
  context.device = DeviceKind::cuda;
  context.not_offered["compile:no-module-guards"] = "torch 2.5 has no skip_guard_on_all_nn_modules_unsafe";
  context.failed["compile:cpp-wrapper"] = "no C++ compiler";
  const WhatIfLedger ledger =
      what_if_ledger({path("compile", kBase), path("compile:reduce-overhead", {600, 700, 800, 900, 1000}),
                      path("compile:max-autotune-no-cudagraphs", {})},
                     context);
  EXPECT_EQ(ledger.entries[1].not_applicable, "torch 2.5 has no skip_guard_on_all_nn_modules_unsafe");
  EXPECT_EQ(ledger.entries[2].unavailable, "its build failed: no C++ compiler");
  EXPECT_TRUE(ledger.entries[3].not_applicable.empty());
  ASSERT_TRUE(ledger.entries[3].saved.has_value());
  EXPECT_DOUBLE_EQ(ledger.entries[3].saved->value_ns, 400.0);
  EXPECT_EQ(ledger.entries[4].unavailable, "no measured iterations");
  EXPECT_EQ(what_if_not_applicable(CompileSetting::cuda_graphs, DeviceKind::cuda), "");
  EXPECT_NE(what_if_not_applicable(CompileSetting::cuda_graphs, DeviceKind::cpu), "");
}

TEST(WhatIfLedger, ASignificantEffectBelowOnePercentOfTheBaseIsNegligible) {
  // base: 100000 ns ± nothing (5 equal samples, se 0). The guard filter's 900 ns less is 0.9% (< 1%):
  // negligible; the C++ wrapper's 1100 ns more, 1.1%, is not; autotuning's 0 ns is not significant at all.
  // Skipping the guards' 900 ns is not negligible: it runs the base's compiled code, which placement
  // cannot move (docs/metrics.md).
  const std::vector<std::int64_t> base(5, 100'000);
  const std::vector<std::int64_t> less(5, 99'100);
  const WhatIfLedger ledger = what_if_ledger({path("compile", base), path("compile/no-guards", less),
                                              path("compile:no-module-guards", less),
                                              path("compile:cpp-wrapper", std::vector<std::int64_t>(5, 101'100)),
                                              path("compile:max-autotune-no-cudagraphs", base)},
                                             WhatIfContext{});
  EXPECT_TRUE(ledger.entries[0].significant);
  EXPECT_FALSE(ledger.entries[0].negligible);
  EXPECT_TRUE(ledger.entries[1].significant);
  EXPECT_TRUE(ledger.entries[1].negligible);
  EXPECT_TRUE(ledger.entries[2].significant);
  EXPECT_FALSE(ledger.entries[2].negligible);
  EXPECT_DOUBLE_EQ(ledger.entries[2].saved->value_ns, -1100.0);
  EXPECT_FALSE(ledger.entries[4].significant);
  EXPECT_FALSE(ledger.entries[4].negligible);
}

// The A/A check: each rebuild of the base moves by placement alone; the base and its rebuilds are draws of one
// build's median, and a setting that changes nothing is one more draw, so its saving falls inside Student's
// prediction interval of them, the placement band, widened where needed to 1% of the base's median.
TEST(WhatIfLedger, TheBaseAndItsRebuildsSetThePlacementBandByStudentsPredictionInterval) {
  const std::vector<std::int64_t> base(5, 100'000);  // median 100000, se 0: 1% is 1000 ns
  // compile:again 600 ns slower (moved -600), compile:again-2 300 ns faster (moved +300): medians 100000,
  // 100600, 99700, mean 100100, deviations -100 500 -400, s = sqrt(420000 / 2) = 458.258; t(2) = 4.303;
  // half width 4.303 * 458.258 * sqrt(1 + 1/3) = 2276.93; centre 100000 - 100100 = -100: the band
  // [-2376.93, 2176.93]. The guard filter's 1500 ns saving (> 1%) is inside it: negligible. The C++ wrapper's
  // 2500 ns cost is outside. Autotuning's 2300 ns saving is outside too, though below the band's larger edge
  // in size: the centre matters. Skipping the guards (1500 ns) runs the base's code: never negligible.
  const std::vector<PathResult> paths{path("compile", base), path("compile/no-guards", std::vector<std::int64_t>(5, 98'500)),
                                      path("compile:no-module-guards", std::vector<std::int64_t>(5, 98'500)),
                                      path("compile:cpp-wrapper", std::vector<std::int64_t>(5, 102'500)),
                                      path("compile:max-autotune-no-cudagraphs", std::vector<std::int64_t>(5, 97'700)),
                                      path("compile:again", std::vector<std::int64_t>(5, 100'600)),
                                      path("compile:again-2", std::vector<std::int64_t>(5, 99'700))};
  const WhatIfLedger ledger = what_if_ledger(paths, WhatIfContext{});
  ASSERT_EQ(ledger.again.size(), 2u);
  EXPECT_EQ(ledger.again[0].path, "compile:again");
  EXPECT_EQ(ledger.again[1].path, "compile:again-2");
  ASSERT_TRUE(ledger.again[0].moved.has_value());
  ASSERT_TRUE(ledger.again[1].moved.has_value());
  EXPECT_DOUBLE_EQ(ledger.again[0].moved->value_ns, -600.0);
  EXPECT_DOUBLE_EQ(ledger.again[1].moved->value_ns, 300.0);
  EXPECT_TRUE(ledger.again[0].significant);
  EXPECT_TRUE(ledger.again[1].unavailable.empty());
  const PlacementBand& band = ledger.placement;
  EXPECT_EQ(band.rule, PlacementRule::prediction);
  EXPECT_EQ(band.builds, 3);
  EXPECT_NEAR(band.spread_ns, 458.258, 0.001);
  EXPECT_DOUBLE_EQ(band.t, 4.303);
  EXPECT_NEAR(band.center_ns, -100.0, 1e-9);
  EXPECT_NEAR(band.half_width_ns, 2276.93, 0.01);
  EXPECT_NEAR(band.low_ns, -2376.93, 0.01);
  EXPECT_NEAR(band.high_ns, 2176.93, 0.01);
  EXPECT_TRUE(band.from_again);
  EXPECT_FALSE(ledger.entries[0].negligible);  // skip-guards
  EXPECT_TRUE(ledger.entries[1].negligible);   // skip-module-guards, +1500
  EXPECT_FALSE(ledger.entries[2].negligible);  // cpp-wrapper, -2500
  EXPECT_TRUE(ledger.entries[2].significant);
  EXPECT_FALSE(ledger.entries[4].negligible);  // autotune, +2300 > 2176.93
  EXPECT_TRUE(ledger.entries[4].significant);
  // A saving exactly on an edge is outside the band (low < saved < high): named. Rebuilds equal to the base give
  // s = 0 and the band the share's, ±1000 ns exactly: the guard filter's +1000 and the C++ wrapper's -1000 sit on
  // its edges, autotuning's +999 inside.
  {
    const std::vector<PathResult> on_edge{
        path("compile", base), path("compile:no-module-guards", std::vector<std::int64_t>(5, 99'000)),
        path("compile:cpp-wrapper", std::vector<std::int64_t>(5, 101'000)),
        path("compile:max-autotune-no-cudagraphs", std::vector<std::int64_t>(5, 99'001)),
        path("compile:again", base), path("compile:again-2", base)};
    const WhatIfLedger at = what_if_ledger(on_edge, WhatIfContext{});
    EXPECT_EQ(at.placement.builds, 3);
    EXPECT_DOUBLE_EQ(at.placement.half_width_ns, 0.0);
    EXPECT_DOUBLE_EQ(at.placement.high_ns, 1000.0);
    EXPECT_FALSE(at.placement.from_again);
    EXPECT_TRUE(at.entries[1].significant);
    EXPECT_FALSE(at.entries[1].negligible);  // +1000 == high
    EXPECT_FALSE(at.entries[2].negligible);  // -1000 == low
    EXPECT_TRUE(at.entries[4].negligible);   // +999
    // The share set both edges: the rebuilds' own interval (a point) holds nothing, and both edges are widened.
    EXPECT_FALSE(rebuilds_hold(at.placement, 999.0));
    EXPECT_TRUE(low_edge_widened(at.placement));
    EXPECT_TRUE(high_edge_widened(at.placement));
  }
  // The rebuilds' own interval of the first band, [-2376.93, 2176.93], holds the guard filter's +1500 and not the
  // C++ wrapper's -2500; neither edge is the share's.
  EXPECT_TRUE(rebuilds_hold(band, 1500.0));
  EXPECT_FALSE(rebuilds_hold(band, -2500.0));
  EXPECT_FALSE(low_edge_widened(band));
  EXPECT_FALSE(high_edge_widened(band));
  // The medians, not their intervals, set it: again {100400, 100500, 100600, 100700, 100800} has median
  // 100600 too, and a spread of its own, and gives the same band.
  std::vector<PathResult> spread = paths;
  spread[5] = path("compile:again", {100'400, 100'500, 100'600, 100'700, 100'800});
  EXPECT_DOUBLE_EQ(what_if_ledger(spread, WhatIfContext{}).placement.low_ns, band.low_ns);
  // Rebuilds that moved -50 and +30 ns: s = 40.41, half width 200.81 < 1000: the share is the band.
  std::vector<PathResult> small = paths;
  small[5] = path("compile:again", std::vector<std::int64_t>(5, 100'050));
  small[6] = path("compile:again-2", std::vector<std::int64_t>(5, 99'970));
  const WhatIfLedger within = what_if_ledger(small, WhatIfContext{});
  EXPECT_NEAR(within.placement.half_width_ns, 200.81, 0.01);
  EXPECT_DOUBLE_EQ(within.placement.low_ns, -1000.0);
  EXPECT_DOUBLE_EQ(within.placement.high_ns, 1000.0);
  EXPECT_FALSE(within.placement.from_again);
  EXPECT_FALSE(within.entries[1].negligible);  // 1500 > 1000: named
  // Both rebuilds 350 ns slower: medians 100000, 100350, 100350, s = 350 / sqrt(3) = 202.07, centre -233.33,
  // half width 1004.03: the low edge -1237.37 is the rebuilds', the high one (770.70) widened to the share.
  std::vector<PathResult> one_side = paths;
  one_side[5] = path("compile:again", std::vector<std::int64_t>(5, 100'350));
  one_side[6] = path("compile:again-2", std::vector<std::int64_t>(5, 100'350));
  const PlacementBand lopsided = what_if_ledger(one_side, WhatIfContext{}).placement;
  EXPECT_NEAR(lopsided.center_ns, -233.333, 0.001);
  EXPECT_NEAR(lopsided.low_ns, -1237.37, 0.01);
  EXPECT_DOUBLE_EQ(lopsided.high_ns, 1000.0);
  EXPECT_TRUE(lopsided.from_again);
  // One rebuild measured (the second failed): two builds, medians 100000 and 100600, mean 100300, s = 600 /
  // sqrt(2) = 424.26, t(1) = 12.706; the band is the Cauchy law's central 95% of the saving over what that
  // rebuild moved (docs/metrics.md): moved/2 ± 12.706 * |moved| / sqrt(2) * sqrt(3/2) = -300 ± 6602.23.
  std::vector<PathResult> one(paths.begin(), paths.end() - 1);
  WhatIfContext failed;
  failed.failed["compile:again-2"] = "no C++ compiler";
  const WhatIfLedger single = what_if_ledger(one, failed);
  EXPECT_EQ(single.again[1].unavailable, "its build failed: no C++ compiler");
  EXPECT_FALSE(single.again[1].moved.has_value());
  EXPECT_EQ(single.placement.builds, 2);
  EXPECT_NEAR(single.placement.low_ns, -6902.23, 0.01);
  EXPECT_NEAR(single.placement.high_ns, 6302.23, 0.01);
  const double cauchy_half = std::sqrt(3.0) / 2 * std::tan(0.475 * std::acos(-1.0));  // 11.0039
  EXPECT_NEAR(single.placement.half_width_ns / 600.0, cauchy_half, 0.001);
  // None built: the share alone, and why.
  std::vector<PathResult> none(paths.begin(), paths.end() - 2);
  const WhatIfLedger without = what_if_ledger(none, WhatIfContext{});
  EXPECT_EQ(without.again[0].unavailable, "not built");
  EXPECT_EQ(without.placement.builds, 1);
  EXPECT_DOUBLE_EQ(without.placement.low_ns, -1000.0);
  EXPECT_DOUBLE_EQ(without.placement.high_ns, 1000.0);
  EXPECT_FALSE(without.placement.from_again);
  const WhatIfLedger unmeasured = what_if_ledger({path("compile", {})}, WhatIfContext{});
  EXPECT_EQ(unmeasured.again[0].unavailable, "the base path compile was not measured");
  EXPECT_EQ(unmeasured.placement.builds, 0);
  EXPECT_DOUBLE_EQ(unmeasured.placement.high_ns, 0.0);
}

// Independently of the formula's derivation: placement alone (the base, two rebuilds and a setting that changes
// nothing, four independent normal builds) puts the setting's saving inside the band 95% of the time.
TEST(WhatIfLedger, PlacementAlonePutsASettingInsideTheBandNinetyFivePercentOfTheTime) {
  std::mt19937_64 rng(20261206);
  std::normal_distribution<double> normal(0.0, 1.0);
  constexpr int kDraws = 400'000;
  int within = 0;
  for (int i = 0; i < kDraws; ++i) {
    // Builds near 1e6 ns with placement spread 1000 ns: the 1% share (10000 ns) would cover them all, so the
    // count is of the rebuilds' interval: center ± half_width.
    const double base = 1e6 + 1000 * normal(rng), again = 1e6 + 1000 * normal(rng), again2 = 1e6 + 1000 * normal(rng);
    const double setting = 1e6 + 1000 * normal(rng);
    const PlacementBand band = placement_band(base, {base - again, base - again2});
    const double saved = base - setting;
    if (std::abs(saved - band.center_ns) < band.half_width_ns) ++within;
  }
  // binomial se at 0.95 over 4e5 draws: 0.000345; 5 se (the table's t(2) = 4.303 rounds 4.3027)
  EXPECT_NEAR(static_cast<double>(within) / kDraws, 0.95, 0.0018);
}

// A guard setting cannot save more than all of the base's guard evaluation (its "TorchDynamo Cache Lookup"
// ranges): a saving whose interval lies above that is beyond the guards.
TEST(WhatIfLedger, AGuardSettingThatSavesMoreThanTheGuardsTakeIsBeyondThem) {
  // base 100000 ns, se 0; skip-guards saves 2000 ns (interval [2000, 2000]), the filter 5000 ns, the C++
  // wrapper 5000 ns too (not a guard setting). The lookup takes 3000 ns per call.
  PathResult base = path("compile", std::vector<std::int64_t>(5, 100'000));
  DynamoRanges ranges;
  ranges.iterations = 5;
  const std::vector<std::int64_t> lookups(5, 3000);
  ranges.cache_lookup_ns = summarize_ns(lookups);
  base.dynamo_ranges = ranges;
  const std::vector<PathResult> paths{base, path("compile/no-guards", std::vector<std::int64_t>(5, 98'000)),
                                      path("compile:no-module-guards", std::vector<std::int64_t>(5, 95'000)),
                                      path("compile:cpp-wrapper", std::vector<std::int64_t>(5, 95'000))};
  const WhatIfLedger ledger = what_if_ledger(paths, WhatIfContext{});
  ASSERT_TRUE(ledger.base_cache_lookup_ns.has_value());
  EXPECT_DOUBLE_EQ(*ledger.base_cache_lookup_ns, 3000.0);
  EXPECT_FALSE(ledger.entries[0].beyond_guards);  // 2000 <= 3000
  EXPECT_TRUE(ledger.entries[1].beyond_guards);   // 5000 > 3000
  EXPECT_FALSE(ledger.entries[2].beyond_guards);  // not a guard setting
  // a saving whose interval reaches down to the lookup is not beyond it: MAD 2000, se 1662, low 1742 ns
  std::vector<PathResult> wide = paths;
  wide[2] = path("compile:no-module-guards", {91'000, 93'000, 95'000, 97'000, 99'000});
  const WhatIfLedger noisy = what_if_ledger(wide, WhatIfContext{});
  ASSERT_TRUE(noisy.entries[1].significant);
  EXPECT_LT(interval_low(*noisy.entries[1].saved), 3000.0);
  EXPECT_FALSE(noisy.entries[1].beyond_guards);
  // without the ranges (a GPU run), no bound
  std::vector<PathResult> no_ranges = paths;
  no_ranges[0].dynamo_ranges.reset();
  const WhatIfLedger unbounded = what_if_ledger(no_ranges, WhatIfContext{});
  EXPECT_FALSE(unbounded.base_cache_lookup_ns.has_value());
  EXPECT_FALSE(unbounded.entries[1].beyond_guards);
}

TEST(WhatIfLedger, CUDAGraphsThatWereNotReplayedGiveNoFigure) {
  WhatIfContext context;
  context.device = DeviceKind::cuda;
  PathResult graphs = path("compile:reduce-overhead", {600, 700, 800, 900, 1000});
  graphs.execution = ExecutionCheck{};
  graphs.execution->cuda_graphs = CudaGraphUse::skipped;
  graphs.execution->facts.cuda_graph_skip_reason = "mutated inputs";
  const WhatIfLedger skipped = what_if_ledger({path("compile", kBase), graphs}, context);
  EXPECT_FALSE(skipped.entries[3].saved.has_value());
  EXPECT_EQ(skipped.entries[3].unavailable,
            "its measured calls did not all replay CUDA graphs (execution: skipped: mutated inputs)");
  graphs.execution->cuda_graphs = CudaGraphUse::replayed;
  const WhatIfLedger replayed = what_if_ledger({path("compile", kBase), graphs}, context);
  ASSERT_TRUE(replayed.entries[3].saved.has_value());
  EXPECT_DOUBLE_EQ(replayed.entries[3].saved->value_ns, 400.0);
}

// A saving is against compiled code: a setting's path that ran uncompiled code (the execution check's
// probe), or a base that did, gives no figure, and says why.
TEST(WhatIfLedger, ASettingOrABaseThatRanUncompiledGivesNoFigure) {
  WhatIfContext context;
  const auto uncompiled = [] {
    ExecutionCheck check;
    check.facts.dynamo = true;
    check.facts.graphs = 1;
    check.compiled_call = CompiledCall::guards_missed;
    return check;
  };
  PathResult cpp = path("compile:cpp-wrapper", {600, 700, 800, 900, 1000});
  cpp.execution = uncompiled();
  WhatIfLedger ledger = what_if_ledger({path("compile", kBase), cpp}, context);
  EXPECT_FALSE(ledger.entries[2].saved.has_value());
  EXPECT_EQ(ledger.entries[2].unavailable, "it ran uncompiled code (execution check)");
  cpp.execution->compiled_call = CompiledCall::compiled;
  ledger = what_if_ledger({path("compile", kBase), cpp}, context);
  ASSERT_TRUE(ledger.entries[2].saved.has_value());
  EXPECT_DOUBLE_EQ(ledger.entries[2].saved->value_ns, 400.0);

  PathResult base = path("compile", kBase);
  base.execution = uncompiled();
  ledger = what_if_ledger({base, cpp}, context);
  EXPECT_TRUE(ledger.base_measured);
  EXPECT_FALSE(ledger.entries[2].saved.has_value());
  EXPECT_EQ(ledger.entries[2].unavailable, "the base path compile ran uncompiled code (execution check)");
}

TEST(WhatIfLedger, WithoutTheBaseNoSettingIsMeasured) {
  WhatIfContext context;
  PathResult guards = path("compile/no-guards", {1, 2, 3});
  guards.output_check = PathOutputCheck{};
  guards.output_check->passed = true;
  const WhatIfLedger ledger = what_if_ledger({path("compile", {}), guards}, context);
  EXPECT_FALSE(ledger.base_measured);
  EXPECT_FALSE(ledger.entries[0].saved.has_value());
  EXPECT_EQ(ledger.entries[0].unavailable, "the base path compile has no measured iterations");
  // The output check is still reported where there is one.
  EXPECT_EQ(ledger.entries[0].outputs_match, std::optional<bool>(true));
  // A base that was never built: with the session's reason (either map), or without one.
  context.not_offered["compile"] = "no set_stance";
  EXPECT_EQ(what_if_ledger({}, context).entries[0].unavailable, "the base path compile was not built: no set_stance");
  EXPECT_EQ(what_if_ledger({}, WhatIfContext{}).entries[2].unavailable, "the base path compile was not built");
}

}  // namespace
}  // namespace ohprof
