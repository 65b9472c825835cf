// The steps `run` and `compare` share (src/session/session_steps.hpp): attach_split (the split and the
// warnings of its analysis counters, the collector and its cost, kernel attribution for an AOTI package
// on the CPU collector) and add_sample_hints (slow first run, outliers), on hand-built inputs.
#include <gtest/gtest.h>

#include "fake_runtime.hpp"
#include "ohprof/analysis/breakdown.hpp"
#include "session_steps.hpp"

namespace ohprof {
namespace {

using fake::FakeWorld;

// Three windows of 100 us at 1 ms intervals, one kernel each (fake_timeline: busy 20 us, head 10 us).
SplitCollection hand_collection(CollectorKind collector) {
  std::vector<IterationWindow> windows;
  for (std::int64_t i = 0; i < 3; ++i) windows.push_back(IterationWindow{i, 1'000'000 * (i + 1), 1'000'000 * (i + 1) + 100'000});
  SplitCollection collection;
  collection.collector = collector;
  collection.timeline = fake::fake_timeline(windows, {{"gemm"}});
  collection.cpu_events = {CpuEvent{"cpp_fused_0", 1, 2}, CpuEvent{"aten::addmm", 3, 4}};
  return collection;
}

PathResult timed_path(const std::string& name, std::vector<std::int64_t> wall_ns) {
  PathResult path;
  path.name = name;
  path.artifact = "/fake/" + name + ".pt2";
  path.wall_ns = std::move(wall_ns);
  path.wall = summarize_ns(path.wall_ns);
  return path;
}

TEST(AttachSplit, AnalysesTheTimelineAndCostsTheCollector) {
  FakeWorld world;
  const Runtime runtime = world.runtime();
  Report report;
  PathResult path = timed_path("aoti", {100, 200, 300});  // median 200
  const SplitCollection collection = hand_collection(CollectorKind::cupti);
  attach_split(report, path, collection, collection.timeline, {300, 500, 700}, runtime, false, 0, 2);

  ASSERT_TRUE(path.breakdown.has_value());
  ASSERT_EQ(path.breakdown->iterations.size(), 3u);
  for (const auto& it : path.breakdown->iterations) {
    EXPECT_EQ(it.wall_ns, 100'000);
    EXPECT_EQ(it.gpu.busy_ns, 20'000);
    EXPECT_EQ(it.gpu.device_wait_ns, 7'000);
    EXPECT_EQ(it.gpu.host_bound_ns, 73'000);
    EXPECT_EQ(it.launch_api_ns, 2'000);
  }
  EXPECT_EQ(path.split_collector, CollectorKind::cupti);
  ASSERT_TRUE(path.collector_cost.has_value());
  EXPECT_EQ(path.collector_cost->collector, CollectorKind::cupti);
  EXPECT_EQ(path.collector_cost->runs, 3u);
  EXPECT_EQ(path.collector_cost->wall_median_without_ns, 200);
  EXPECT_EQ(path.collector_cost->wall_median_with_ns, 500);
  EXPECT_DOUBLE_EQ(path.collector_cost->ratio, 2.5);
  EXPECT_TRUE(world.attributions.empty());  // cupti: no attribution
  EXPECT_FALSE(path.kernel_attribution.has_value());
  EXPECT_TRUE(report.warnings.empty()) << ::testing::PrintToString(report.warnings);
}

TEST(AttachSplit, UsesTheTimelineItIsGivenNotTheWholeCollection) {
  FakeWorld world;
  Report report;
  PathResult path = timed_path("eager", {100});
  const SplitCollection collection = hand_collection(CollectorKind::cupti);
  const Timeline first_only = select_iterations(collection.timeline, 0, 0);
  attach_split(report, path, collection, first_only, {100}, world.runtime(), false, 0, 0);
  ASSERT_TRUE(path.breakdown.has_value());
  EXPECT_EQ(path.breakdown->iterations.size(), 1u);
  EXPECT_EQ(path.breakdown->summary.gpu_ops.count, 1u);
}

TEST(AttachSplit, AnalysisCountersAreWarnings) {
  // One more kernel, with no launch call, after the last window: in no iteration. `run` and `compare`
  // have no ProfilerSteps, so the warning does not mention them.
  FakeWorld world;
  Report report;
  PathResult path = timed_path("eager", {100, 200, 300});
  SplitCollection collection = hand_collection(CollectorKind::cupti);
  DeviceOp stray;
  stray.kind = DeviceOpKind::kernel;
  stray.start_ns = 10'000'000;
  stray.end_ns = 10'020'000;
  stray.stream = fake::kStream;
  stray.correlation = 999;
  stray.name = "stray";
  collection.timeline.ops.push_back(stray);
  attach_split(report, path, collection, collection.timeline, {300, 500, 700}, world.runtime(), false, 0, 2);
  ASSERT_TRUE(path.breakdown.has_value());
  EXPECT_EQ(path.breakdown->iterations.size(), 3u);
  EXPECT_EQ(report.warnings,
            (std::vector<Warning>{Warning{WarningCode::ops_outside_iterations,
                                          "1 of 4 device operations belong to no iteration window and are not in the "
                                          "split"}}));
}

TEST(AttachSplit, RecordFunctionOnTheAotiPathAttributesItsKernels) {
  FakeWorld world;
  PackageAttribution attribution;
  attribution.summary.records_kernels = true;
  attribution.summary.seen = {"cpp_fused_0"};
  attribution.summary.not_in_code = {"aten::addmm"};
  attribution.warning = Warning{WarningCode::kernels_unattributed, "fake: 1 kernel of the package was never recorded"};
  world.attribution = attribution;
  Report report;
  PathResult path = timed_path("aoti", {100, 200, 300});
  const SplitCollection collection = hand_collection(CollectorKind::record_function);
  attach_split(report, path, collection, collection.timeline, {300, 500, 700}, world.runtime(), false, 7, 9);

  ASSERT_EQ(world.attributions.size(), 1u);
  EXPECT_EQ(world.attributions[0].package_path, "/fake/aoti.pt2");  // the path's artifact
  EXPECT_EQ(world.attributions[0].events, 2u);
  EXPECT_EQ(world.attributions[0].first_iteration, 7);
  EXPECT_EQ(world.attributions[0].last_iteration, 9);
  ASSERT_TRUE(path.kernel_attribution.has_value());
  EXPECT_TRUE(path.kernel_attribution->records_kernels);
  EXPECT_EQ(path.kernel_attribution->seen, std::vector<std::string>{"cpp_fused_0"});
  EXPECT_EQ(path.kernel_attribution->not_in_code, std::vector<std::string>{"aten::addmm"});
  EXPECT_EQ(report.warnings, (std::vector<Warning>{Warning{WarningCode::kernels_unattributed,
                                                            "fake: 1 kernel of the package was never recorded"}}));
  EXPECT_EQ(path.split_collector, CollectorKind::record_function);
  EXPECT_TRUE(path.breakdown.has_value());
}

TEST(AttachSplit, NoAttributionWarningWhenEveryKernelWasSeen) {
  FakeWorld world;
  world.attribution = PackageAttribution{};  // no warning
  Report report;
  PathResult path = timed_path("aoti", {100});
  const SplitCollection collection = hand_collection(CollectorKind::record_function);
  attach_split(report, path, collection, collection.timeline, {100}, world.runtime(), false, 0, 2);
  EXPECT_EQ(world.attributions.size(), 1u);
  EXPECT_TRUE(path.kernel_attribution.has_value());
  EXPECT_TRUE(report.warnings.empty()) << ::testing::PrintToString(report.warnings);
}

TEST(AttachSplit, AttributionErrorIsAWarningAndTheSplitStays) {
  FakeWorld world;
  world.attribution = make_error(ExitCode::invalid_package, "cannot read the package's generated code");
  Report report;
  PathResult path = timed_path("aoti", {100});
  const SplitCollection collection = hand_collection(CollectorKind::record_function);
  attach_split(report, path, collection, collection.timeline, {100}, world.runtime(), false, 0, 2);
  EXPECT_FALSE(path.kernel_attribution.has_value());
  EXPECT_TRUE(path.breakdown.has_value());
  EXPECT_TRUE(path.collector_cost.has_value());
  EXPECT_EQ(report.warnings, (std::vector<Warning>{Warning{WarningCode::kernel_attribution_failed,
                                                            "kernel attribution: cannot read the package's generated code"}}));
}

TEST(AttachSplit, OnlyTheAotiPathIsAttributed) {
  FakeWorld world;
  Report report;
  PathResult path = timed_path("compile", {100});
  const SplitCollection collection = hand_collection(CollectorKind::record_function);
  attach_split(report, path, collection, collection.timeline, {100}, world.runtime(), false, 0, 2);
  EXPECT_TRUE(world.attributions.empty());
  EXPECT_FALSE(path.kernel_attribution.has_value());
  EXPECT_EQ(path.split_collector, CollectorKind::record_function);
}

// docs/metrics.md, "Verdict": whether some of the path's CPU kernels do not record themselves, by path kind.
// hand_collection's split has a kernel in each window, busy 20 of 100 us: host-bound on the timeline.
TEST(AttachSplit, TheVerdictKnowsWhichPathsKernelsDoNotRecordThemselves) {
  const auto verdict_of = [](const std::string& name, CollectorKind collector, bool kernel_profile,
                             Result<PackageAttribution> attribution, std::size_t* attributions = nullptr) {
    FakeWorld world;
    world.attribution = std::move(attribution);
    Report report;
    PathResult path = timed_path(name, {100});
    const SplitCollection collection = hand_collection(collector);
    attach_split(report, path, collection, collection.timeline, {100}, world.runtime(), kernel_profile, 0, 2);
    if (attributions != nullptr) *attributions = world.attributions.size();
    return path.breakdown->verdict;
  };
  PackageAttribution all_seen;
  all_seen.summary.seen = {"cpp_fused_0"};
  PackageAttribution one_unseen = all_seen;
  one_unseen.summary.unattributed = {"cpp_fused_1"};
  const Result<PackageAttribution> failed = make_error(ExitCode::invalid_package, "unreadable");
  // the package's code says: aoti and aoti:python alike (aoti:python's attribution is read, not kept)
  EXPECT_FALSE(verdict_of("aoti", CollectorKind::record_function, false, all_seen).kernels_unrecorded);
  const PathVerdict aoti = verdict_of("aoti", CollectorKind::record_function, false, one_unseen);
  EXPECT_TRUE(aoti.kernels_unrecorded);
  EXPECT_EQ(aoti.verdict, Verdict::unknown);
  EXPECT_EQ(aoti.reason, VerdictReason::kernels_unrecorded);
  std::size_t attributions = 0;
  EXPECT_TRUE(verdict_of("aoti:python", CollectorKind::record_function, true, one_unseen, &attributions).kernels_unrecorded);
  EXPECT_EQ(attributions, 1u);
  EXPECT_FALSE(verdict_of("aoti:python", CollectorKind::record_function, false, all_seen).kernels_unrecorded);
  // an attribution that fails: as a torch.compile path, by --kernel-profile
  EXPECT_TRUE(verdict_of("aoti", CollectorKind::record_function, false, failed).kernels_unrecorded);
  EXPECT_FALSE(verdict_of("aoti", CollectorKind::record_function, true, failed).kernels_unrecorded);
  // torch.compile's paths, their settings and their layer variants: by --kernel-profile
  for (const std::string name : {"compile", "compile:cpp-wrapper", "compile:max-autotune-no-cudagraphs", "compile/no-guards"}) {
    const PathVerdict v = verdict_of(name, CollectorKind::record_function, false, all_seen, &attributions);
    EXPECT_TRUE(v.kernels_unrecorded) << name;
    EXPECT_EQ(v.verdict, Verdict::unknown) << name;
    EXPECT_EQ(attributions, 0u) << name;
    EXPECT_FALSE(verdict_of(name, CollectorKind::record_function, true, all_seen).kernels_unrecorded) << name;
  }
  // eager's ATen operators always record themselves; CUPTI sees every kernel
  const PathVerdict eager = verdict_of("eager", CollectorKind::record_function, false, all_seen);
  EXPECT_FALSE(eager.kernels_unrecorded);
  EXPECT_EQ(eager.verdict, Verdict::host_bound);
  EXPECT_FALSE(verdict_of("compile", CollectorKind::cupti, false, all_seen).kernels_unrecorded);
  EXPECT_FALSE(verdict_of("aoti", CollectorKind::cupti, false, one_unseen).kernels_unrecorded);
}

TEST(AddSampleHints, SlowFirstRunAndOutliersPerPath) {
  // a: [1000, 100 x 4]: median 100, the first is 10 x the median; Q1 = Q3 = 100, so 1000 is the one
  // outlier. b: [100, 101, 102, 103]: nothing to say.
  Report report;
  report.paths.push_back(timed_path("a", {1000, 100, 100, 100, 100}));
  report.paths.push_back(timed_path("b", {100, 101, 102, 103}));
  ASSERT_EQ(report.paths[0].wall.outliers, 1u);
  ASSERT_EQ(report.paths[1].wall.outliers, 0u);

  // compare names the paths, all in one warning: c [100 x 4, 900] has one outlier too (its first is no slow one).
  Report named = report;
  named.paths.push_back(timed_path("c", {100, 100, 100, 100, 900}));
  ASSERT_EQ(named.paths[2].wall.outliers, 1u);
  add_sample_hints(named, /*name_the_path=*/true);
  EXPECT_EQ(named.warnings,
            (std::vector<Warning>{
                Warning{WarningCode::slow_first_run,
                        "path a: the first measured iteration took 10.0 times the median (a cold start the warm-up did "
                        "not absorb); raise --warmup"},
                Warning{WarningCode::outliers,
                        "iterations that are statistical outliers: a 1 of 5, c 1 of 5; close other programs or raise --warmup"}}));

  Report unnamed = report;
  add_sample_hints(unnamed, /*name_the_path=*/false);
  EXPECT_EQ(unnamed.warnings,
            (std::vector<Warning>{
                Warning{WarningCode::slow_first_run,
                        "path a: the first measured iteration took 10.0 times the median (a cold start the warm-up did "
                        "not absorb); raise --warmup"},
                Warning{WarningCode::outliers,
                        "1 of 5 iterations are statistical outliers; close other programs, pin CPU frequency or raise "
                        "--warmup/--runs"}}));
}

TEST(AddSampleHints, SlowFirstRunIsMoreThanThreeTimesTheMedian) {
  Report report;
  report.paths.push_back(timed_path("three_x", {300, 100, 100}));  // exactly 3 x the median: not more
  report.paths.push_back(timed_path("above", {301, 100, 100}));
  for (auto& path : report.paths) path.wall.outliers = 0;         // only the slow-run rule here
  add_sample_hints(report, true);
  EXPECT_EQ(report.warnings,
            (std::vector<Warning>{Warning{WarningCode::slow_first_run,
                                          "path above: the first measured iteration took 3.0 times the median (a cold "
                                          "start the warm-up did not absorb); raise --warmup"}}));
}

// The status precedence of run and compare: the measurement's error (the report kept, stopped early),
// then --export-trace's, then --dump-code's.
TEST(MeasuredOutcome, TheMeasurementsErrorFirstThenTheTracesThenTheDumps) {
  Report report;
  report.paths.emplace_back().name = "aoti";
  const Status measured = make_error(ExitCode::model_error, "boom");
  const Status trace = make_error(ExitCode::output_error, "no trace");
  const Status dump = make_error(ExitCode::output_error, "no dump");

  SessionOutcome all = measured_outcome(report, measured, trace, dump);
  ASSERT_TRUE(all.report.has_value());
  EXPECT_EQ(all.status.error().message, "boom");
  ASSERT_EQ(all.report->warnings.size(), 1u);
  EXPECT_EQ(all.report->warnings[0], (Warning{WarningCode::stopped_early, "stopped early: boom"}));

  SessionOutcome trace_and_dump = measured_outcome(report, ok_status(), trace, dump);
  EXPECT_EQ(trace_and_dump.status.error().message, "no trace");
  EXPECT_TRUE(trace_and_dump.report->warnings.empty());
  EXPECT_EQ(measured_outcome(report, ok_status(), ok_status(), dump).status.error().message, "no dump");

  SessionOutcome fine = measured_outcome(report, ok_status(), ok_status(), ok_status());
  EXPECT_TRUE(fine.status.ok());
  ASSERT_TRUE(fine.report.has_value());
  EXPECT_EQ(fine.report->paths.size(), 1u);
}

}  // namespace
}  // namespace ohprof
