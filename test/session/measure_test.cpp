// measure_path (`ohprof run`) on a fake Runtime (fake_runtime.hpp): the two passes and what each sees,
// the report it makes, how it stops, its usage errors and its checkpoints (docs/metrics.md, "The split
// pass and its cost"; docs/report-schema.md, "Checkpoints").
#include <gtest/gtest.h>

#include <climits>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "fake_runtime.hpp"
#include "ohprof/base/interrupt.hpp"
#include "ohprof/base/stats.hpp"
#include "ohprof/session/checkpoint.hpp"
#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/session/session.hpp"
#include "ohprof/trace/kineto_reader.hpp"
#include "session_steps.hpp"

namespace ohprof {
namespace {

using fake::FakeWorld;
using fake::has_warning;

class MeasurePath : public ::testing::Test {
 protected:
  MeasureOptions options_for(int warmup, int runs) {
    MeasureOptions options;
    options.aoti_package = package;
    options.warmup = warmup;
    options.runs = runs;
    options.argv = {"ohprof", "run", "--aoti", package};
    return options;
  }
  SessionOutcome measure(const MeasureOptions& options) { return measure_path(options, world.runtime()); }

  const std::string package = fake::make_temp_file("measure", "model.aoti.pt2");
  FakeWorld world;
};

std::int64_t median_of(const std::vector<std::int64_t>& values) { return static_cast<std::int64_t>(summarize_ns(values).median); }

// --- the two passes ----------------------------------------------------------------------------------

TEST_F(MeasurePath, TimingPassThenSplitPassWithTheCollectorOnlyInTheSplitPass) {
  world.aoti.duration_ns = [](int) { return 100'000; };  // 100 us: the fake kernel (30 us) fits
  const SessionOutcome outcome = measure(options_for(/*warmup=*/2, /*runs=*/5));
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error().message;
  ASSERT_TRUE(outcome.report.has_value());
  EXPECT_TRUE(outcome.print_table);

  // 2 warm-up + 5 timed, then the split pass: 1 warm-up + min(5, 100) = 5.
  EXPECT_EQ(world.calls, 2 + 5 + kSplitWarmups + 5);  // the split pass warms up under tracing
  // The collector's observer saw only the split pass: nothing before the 7 timing-pass calls had run.
  ASSERT_FALSE(world.observed.empty());
  for (const auto& event : world.observed) EXPECT_GE(event.runner_calls, 7);
  using Kind = fake::ObserverEvent::Kind;
  std::vector<Kind> kinds;
  for (const auto& event : world.observed) kinds.push_back(event.kind);
  // kSplitWarmups warm-ups (3), then the measurement of 5 iterations.
  std::vector<Kind> expected_kinds;
  for (int i = 0; i < kSplitWarmups; ++i) expected_kinds.insert(expected_kinds.end(), {Kind::iteration_begin, Kind::iteration_end});
  expected_kinds.push_back(Kind::measurement_begin);
  for (int i = 0; i < 5; ++i) expected_kinds.insert(expected_kinds.end(), {Kind::iteration_begin, Kind::iteration_end});
  expected_kinds.push_back(Kind::measurement_end);
  EXPECT_EQ(kinds, expected_kinds);
  ASSERT_EQ(kSplitWarmups, 3);
  const std::vector<std::pair<std::int64_t, bool>> begins{{0, true},  {1, true},  {2, true},  {0, false},
                                                          {1, false}, {2, false}, {3, false}, {4, false}};
  EXPECT_EQ(world.iteration_begins(), begins);
  ASSERT_EQ(world.collector_starts.size(), 1u);
  EXPECT_EQ(world.collector_starts[0].device_type, DeviceKind::cpu);  // the runner's device
  EXPECT_FALSE(world.collector_starts[0].disabled);
  // finish() got the 5 measured split iterations, numbered from 0.
  ASSERT_EQ(world.finished.size(), 1u);
  const auto& windows = world.finished[0];
  ASSERT_EQ(windows.size(), 5u);
  for (std::size_t i = 0; i < windows.size(); ++i) EXPECT_EQ(windows[i].index, static_cast<std::int64_t>(i));

  const PathResult& path = outcome.report->paths.at(0);
  EXPECT_EQ(path.warmup_ns.size(), 2u);
  ASSERT_EQ(path.wall_ns.size(), 5u);
  for (auto ns : path.wall_ns) EXPECT_GE(ns, 100'000);
  EXPECT_EQ(path.wall.count, 5u);
  EXPECT_EQ(path.stop_reason, StopReason{StopCode::runs_reached});
  EXPECT_TRUE(path.split_unavailable_reason.empty()) << path.split_unavailable_reason;
  EXPECT_EQ(path.split_collector, CollectorKind::cupti);
  EXPECT_EQ(outcome.report->context.cupti_version, "fake-cupti-13");

  // The split is the hand-built timeline's: per iteration one launch [1, 3) us and one kernel [10, 30) us.
  ASSERT_TRUE(path.breakdown.has_value());
  ASSERT_EQ(path.breakdown->iterations.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    const IterationBreakdown& it = path.breakdown->iterations[i];
    EXPECT_EQ(it.index, static_cast<std::int64_t>(i));
    EXPECT_EQ(it.wall_ns, windows[i].end_ns - windows[i].start_ns);
    EXPECT_EQ(it.gpu.busy_ns, 20'000);
    // [0,3) us host-bound, [3,10) device-wait (pending), [10,30) busy, [30,wall) host-bound.
    EXPECT_EQ(it.gpu.device_wait_ns, 7'000);
    EXPECT_EQ(it.gpu.host_bound_ns, it.wall_ns - 27'000);
    EXPECT_EQ(it.gpu.carried_out_ns, 0);
    EXPECT_EQ(it.host_states.launch_ns, 2'000);
    EXPECT_EQ(it.host_states.framework_ns, it.wall_ns - 29'000);
    EXPECT_EQ(it.launch_api_ns, 2'000);
    EXPECT_EQ(it.launch_exposed_ns, 2'000);
    EXPECT_EQ(it.launches, 1u);
    EXPECT_EQ(it.gpu.own_ops, 1u);
    EXPECT_EQ(it.queue_delays_ns, std::vector<std::int64_t>{7'000});
  }
  ASSERT_EQ(path.breakdown->kernels.size(), 1u);
  EXPECT_EQ(path.breakdown->kernels[0].name, "gemm");
  EXPECT_EQ(path.breakdown->kernels[0].count, 5u);
  EXPECT_EQ(path.breakdown->kernels[0].total_ns, 5 * 20'000);

  // Collector cost: the split pass's median wall time against the timing pass's.
  ASSERT_TRUE(path.collector_cost.has_value());
  EXPECT_EQ(path.collector_cost->collector, CollectorKind::cupti);
  EXPECT_EQ(path.collector_cost->runs, 5u);
  EXPECT_EQ(path.collector_cost->wall_median_without_ns, median_of(path.wall_ns));
  EXPECT_EQ(path.collector_cost->wall_median_with_ns, median_of(wall_times(windows)));
  EXPECT_DOUBLE_EQ(path.collector_cost->ratio, path.collector_cost->wall_median_with_ns /
                                                   path.collector_cost->wall_median_without_ns);
  EXPECT_TRUE(world.attributions.empty());  // cupti: no kernel attribution
}

TEST_F(MeasurePath, SplitCostRatioFollowsTheSlowerSplitPass) {
  // Timing pass iterations take 200 us, split pass iterations 600 us: the ratio is about 3.
  world.aoti.duration_ns = [](int call) { return call < 1 + 5 ? 200'000 : 600'000; };
  const SessionOutcome outcome = measure(options_for(1, 5));
  ASSERT_TRUE(outcome.report.has_value());
  const auto& cost = outcome.report->paths[0].collector_cost;
  ASSERT_TRUE(cost.has_value());
  EXPECT_GT(cost->ratio, 1.5);
  EXPECT_LT(cost->ratio, 4.5);
}

TEST_F(MeasurePath, SplitRunsDefaultIsTheRunsCappedAt100) {
  const SessionOutcome outcome = measure(options_for(0, 150));
  ASSERT_TRUE(outcome.report.has_value());
  EXPECT_EQ(world.calls, 150 + kSplitWarmups + 100);
  ASSERT_EQ(world.finished.size(), 1u);
  EXPECT_EQ(world.finished[0].size(), 100u);
  EXPECT_EQ(outcome.report->paths[0].wall_ns.size(), 150u);
  ASSERT_TRUE(outcome.report->paths[0].collector_cost.has_value());
  EXPECT_EQ(outcome.report->paths[0].collector_cost->runs, 100u);
}

TEST_F(MeasurePath, SplitRunsWhenGivenIsTheSplitPassLength) {
  MeasureOptions options = options_for(3, 10);
  options.split_runs = 4;
  const SessionOutcome outcome = measure(options);
  ASSERT_TRUE(outcome.report.has_value());
  EXPECT_EQ(world.calls, 3 + 10 + kSplitWarmups + 4);
  ASSERT_EQ(world.finished.size(), 1u);
  EXPECT_EQ(world.finished[0].size(), 4u);
  EXPECT_EQ(outcome.report->paths[0].breakdown->iterations.size(), 4u);
  EXPECT_EQ(outcome.report->paths[0].collector_cost->runs, 4u);
  EXPECT_EQ(outcome.report->config.runs, 10);  // the config is the timing pass's
}

// --- the report ---------------------------------------------------------------------------------------

TEST_F(MeasurePath, ReportDescribesTheRunThePackageAndItsPath) {
  world.aoti.build_ns = 123'456'789;
  world.aoti_device = DeviceDescription{DeviceKind::cuda, 0, "Fake GPU"};
  world.aoti_warnings = {Warning{WarningCode::package_inputs_unrecorded, "package records no inputs: input checks stay on"}};
  world.torch = TorchRuntimeInfo{"2.9.0+fake", true, 1, 5};
  MeasureOptions options = options_for(1, 2);
  options.seed = 42;
  options.inputs = {InputSpec{{1, 8}, DType::float16}};
  options.device = DeviceRequest{DeviceRequest::Kind::cuda, 0};
  options.no_cupti = true;
  const SessionOutcome outcome = measure(options);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error().message;
  ASSERT_TRUE(outcome.report.has_value());
  const Report& report = *outcome.report;

  // What the loader was asked for.
  ASSERT_EQ(world.loads.size(), 1u);
  EXPECT_EQ(world.loads[0].package_path, package);
  EXPECT_EQ(world.loads[0].seed, 42u);
  EXPECT_EQ(world.loads[0].device.kind, DeviceRequest::Kind::cuda);
  ASSERT_EQ(world.loads[0].inputs.size(), 1u);
  EXPECT_EQ(world.loads[0].inputs[0].shape, (std::vector<std::int64_t>{1, 8}));
  // The collector gets the runner's device and --no-cupti.
  ASSERT_EQ(world.collector_starts.size(), 1u);
  EXPECT_EQ(world.collector_starts[0].device_type, DeviceKind::cuda);
  EXPECT_TRUE(world.collector_starts[0].disabled);

  EXPECT_EQ(report.kind, ReportKind::run);
  EXPECT_EQ(report.config.warmup, 1);
  EXPECT_EQ(report.config.runs, 2);
  EXPECT_EQ(report.config.seed, 42u);
  // The inputs are those the runner runs on (the package's answer), not the options' text.
  EXPECT_EQ(report.config.inputs, std::vector<std::string>{"[4, 16]:float32"});
  EXPECT_FALSE(report.config.compare.has_value());
  EXPECT_EQ(report.context.torch_version, "2.9.0+fake");
  EXPECT_EQ(report.context.cpu_threads, 5);
  EXPECT_EQ(report.context.device.type, DeviceKind::cuda);
  EXPECT_EQ(report.context.device.index, 0);
  EXPECT_EQ(report.context.device.name, "Fake GPU");
  EXPECT_EQ(report.context.argv, options.argv);
  EXPECT_FALSE(report.interrupted);
  EXPECT_FALSE(report.artifacts.has_value());
  EXPECT_TRUE(report.ratios.empty());
  EXPECT_TRUE(report.kernel_diffs.empty());
  EXPECT_EQ(report.warnings, (std::vector<Warning>{Warning{WarningCode::package_inputs_unrecorded,
                                                            "package records no inputs: input checks stay on"}}));

  ASSERT_EQ(report.paths.size(), 1u);
  EXPECT_EQ(report.paths[0].name, "aoti");
  EXPECT_EQ(report.paths[0].artifact, package);
  EXPECT_EQ(report.paths[0].load_ns, 123'456'789);
  EXPECT_FALSE(report.paths[0].output_check.has_value());
}

TEST_F(MeasurePath, CollectorWithoutObserverMeansNoSplitPassAndItsReason) {
  world.collector.available = false;
  const SessionOutcome outcome = measure(options_for(2, 3));
  ASSERT_TRUE(outcome.status.ok());
  ASSERT_TRUE(outcome.report.has_value());
  EXPECT_EQ(world.calls, 2 + 3);  // no split pass
  EXPECT_TRUE(world.observed.empty());
  EXPECT_TRUE(world.finished.empty());
  const PathResult& path = outcome.report->paths[0];
  EXPECT_EQ(path.split_unavailable_reason, "fake: no activity collector on this machine");
  EXPECT_FALSE(path.breakdown.has_value());
  EXPECT_FALSE(path.collector_cost.has_value());
  EXPECT_EQ(path.split_collector, CollectorKind::none);
  EXPECT_EQ(outcome.report->context.cupti_version, "none");  // asked only when a collector runs
  EXPECT_EQ(path.wall_ns.size(), 3u);
}

TEST_F(MeasurePath, ExportTraceWritesTheSplitPassWhichReadsBackToItsSplit) {
  world.aoti.duration_ns = [](int) { return 100'000; };
  MeasureOptions options = options_for(1, 5);
  options.export_trace = fake::make_temp_file("measure-trace", "split.json.gz");
  const SessionOutcome outcome = measure(options);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error().message;
  auto trace = read_kineto_trace(options.export_trace);
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  const PathBreakdown again = analyze_timeline(trace->timeline);
  const BreakdownTotals& want = outcome.report->paths[0].breakdown->summary.totals;
  EXPECT_EQ(again.summary.totals.iterations, want.iterations);
  EXPECT_EQ(again.summary.totals.wall_ns, want.wall_ns);
  EXPECT_EQ(again.summary.totals.gpu.busy_ns, want.gpu.busy_ns);
  EXPECT_EQ(again.summary.totals.gpu.host_bound_ns, want.gpu.host_bound_ns);
  EXPECT_EQ(again.summary.totals.host_states.harness_ns, want.host_states.harness_ns);
}

TEST_F(MeasurePath, ExportTraceWithoutASplitPassIsAnOutputErrorAndTheReportIsKept) {
  world.collector.available = false;
  MeasureOptions options = options_for(1, 3);
  options.export_trace = fake::make_temp_file("measure-trace", "none.json");
  std::filesystem::remove(options.export_trace);
  const SessionOutcome outcome = measure(options);
  ASSERT_FALSE(outcome.status.ok());
  EXPECT_EQ(outcome.status.error().code, ExitCode::output_error);
  EXPECT_EQ(outcome.status.error().message,
            "--export-trace: '" + options.export_trace + "' was not written: the split pass recorded no timeline (fake: no "
            "activity collector on this machine); the other reports were written; the split pass needs a collector "
            "(without --no-cupti) and a measurement that finished");
  ASSERT_TRUE(outcome.report.has_value());
  EXPECT_EQ(outcome.report->paths[0].wall_ns.size(), 3u);
  EXPECT_FALSE(std::filesystem::exists(options.export_trace));
}

TEST_F(MeasurePath, ExportTraceAfterCtrlCIsAWarningSoTheExitCodeStaysInterrupted) {
  // Ctrl-C during the timing pass: no split pass
  world.aoti.duration_ns = [](int call) {
    if (call == 2) request_interrupt();
    return 100'000;
  };
  MeasureOptions options = options_for(0, 5);
  options.export_trace = fake::make_temp_file("measure-trace", "ctrl-c.json");
  std::filesystem::remove(options.export_trace);
  const SessionOutcome outcome = measure(options);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error().message;
  ASSERT_TRUE(outcome.report.has_value());
  EXPECT_TRUE(outcome.report->interrupted);
  EXPECT_TRUE(has_warning(*outcome.report, WarningCode::trace_not_written, "was not written"));
  clear_interrupt();
}

TEST_F(MeasurePath, CollectorFinishErrorIsTheSplitsReason) {
  world.collector.finish_error = make_error(ExitCode::internal_error, "fake: CUPTI buffers lost");
  const SessionOutcome outcome = measure(options_for(0, 3));
  ASSERT_TRUE(outcome.status.ok());
  ASSERT_TRUE(outcome.report.has_value());
  EXPECT_EQ(outcome.report->paths[0].split_unavailable_reason, "fake: CUPTI buffers lost");
  EXPECT_FALSE(outcome.report->paths[0].breakdown.has_value());
  EXPECT_EQ(outcome.report->paths[0].wall_ns.size(), 3u);
}

// The collection's `warnings` (what the collector could not deliver: dropped CUPTI records, unpaired
// RecordFunction ranges) reach the report, with their codes, as in compare_paths.
TEST_F(MeasurePath, CollectorWarningsReachTheReport) {
  world.collector.warnings = {Warning{WarningCode::cupti_buffer_unreadable, "fake: 12 activity records dropped"}};
  const SessionOutcome outcome = measure(options_for(0, 3));
  ASSERT_TRUE(outcome.report.has_value());
  EXPECT_TRUE(has_warning(*outcome.report, WarningCode::cupti_buffer_unreadable, "fake: 12 activity records dropped"))
      << ::testing::PrintToString(outcome.report->warnings);
}

TEST_F(MeasurePath, RecordFunctionSplitAttributesThePackagesKernels) {
  world.collector.kind = CollectorKind::record_function;
  world.collector.cpu_events = {CpuEvent{"cpp_fused_0", 1, 2}, CpuEvent{"aten::mm", 3, 4}, CpuEvent{"x", 5, 6}};
  PackageAttribution attribution;
  attribution.summary.records_kernels = true;
  attribution.summary.seen = {"cpp_fused_0"};
  attribution.summary.unattributed = {"cpp_fused_1"};
  attribution.warning = Warning{WarningCode::kernels_unattributed, "1 of 2 kernels named in the package's code were never recorded"};
  world.attribution = attribution;
  const SessionOutcome outcome = measure(options_for(0, 3));
  ASSERT_TRUE(outcome.report.has_value());
  ASSERT_EQ(world.attributions.size(), 1u);
  EXPECT_EQ(world.attributions[0].package_path, package);
  EXPECT_EQ(world.attributions[0].events, 3u);
  EXPECT_EQ(world.attributions[0].first_iteration, 0);
  EXPECT_EQ(world.attributions[0].last_iteration, kIterationsPerPath - 1);  // path 0's iterations of the split pass
  const PathResult& path = outcome.report->paths[0];
  EXPECT_EQ(path.split_collector, CollectorKind::record_function);
  ASSERT_TRUE(path.kernel_attribution.has_value());
  EXPECT_EQ(path.kernel_attribution->seen, std::vector<std::string>{"cpp_fused_0"});
  EXPECT_EQ(path.kernel_attribution->unattributed, std::vector<std::string>{"cpp_fused_1"});
  EXPECT_TRUE(has_warning(*outcome.report, WarningCode::kernels_unattributed, "1 of 2 kernels named in the package's code"))
      << ::testing::PrintToString(outcome.report->warnings);
}

// --- stopping -----------------------------------------------------------------------------------------

TEST_F(MeasurePath, FailingTimingIterationIsAnErrorWithTheSamplesMeasuredBefore) {
  // Calls 0, 1: warm-up; 2, 3: measured iterations 0, 1; call 4 (iteration 2) fails.
  world.aoti.fail_on_call = 4;
  const SessionOutcome outcome = measure(options_for(2, 5));
  ASSERT_FALSE(outcome.status.ok());
  EXPECT_EQ(outcome.status.error().code, ExitCode::model_error);
  EXPECT_EQ(outcome.status.error().message, "iteration 2: boom at call 4");
  ASSERT_TRUE(outcome.report.has_value());
  const PathResult& path = outcome.report->paths.at(0);
  EXPECT_EQ(path.warmup_ns.size(), 2u);
  EXPECT_EQ(path.wall_ns.size(), 2u);
  EXPECT_EQ(path.wall.count, 2u);
  EXPECT_EQ(path.stop_reason, StopReason{StopCode::error});
  EXPECT_EQ(path.split_unavailable_reason, kSplitStoppedReason);
  EXPECT_FALSE(path.breakdown.has_value());
  ASSERT_FALSE(outcome.report->warnings.empty());
  EXPECT_EQ(outcome.report->warnings.back(),
            (Warning{WarningCode::stopped_early, "stopped early: iteration 2: boom at call 4"}));
  EXPECT_EQ(world.calls, 5);  // no split pass
  EXPECT_TRUE(world.observed.empty());
  EXPECT_TRUE(world.finished.empty());
}

TEST_F(MeasurePath, FailingBeforeAnySampleIsAnErrorWithoutReport) {
  {
    FakeWorld local;
    local.aoti.fail_on_call = 1;  // the second warm-up iteration
    const SessionOutcome outcome = measure_path(options_for(2, 5), local.runtime());
    ASSERT_FALSE(outcome.status.ok());
    EXPECT_EQ(outcome.status.error().code, ExitCode::model_error);
    EXPECT_EQ(outcome.status.error().message, "warm-up iteration 1: boom at call 1");
    EXPECT_FALSE(outcome.report.has_value());
  }
  {
    FakeWorld local;
    local.aoti.fail_on_call = 2;  // the first measured iteration
    const SessionOutcome outcome = measure_path(options_for(2, 5), local.runtime());
    ASSERT_FALSE(outcome.status.ok());
    EXPECT_EQ(outcome.status.error().message, "iteration 0: boom at call 2");
    EXPECT_FALSE(outcome.report.has_value());
  }
}

TEST_F(MeasurePath, FailingSplitIterationKeepsTheTimingsAndSaysWhyThereIsNoSplit) {
  // 1 warm-up + 3 timed (calls 0..3); split: warm-ups calls 4..6 (kSplitWarmups = 3), iteration 0 call
  // 7, iteration 1 call 8 fails.
  ASSERT_EQ(kSplitWarmups, 3);
  world.aoti.fail_on_call = 8;
  const SessionOutcome outcome = measure(options_for(1, 3));
  EXPECT_TRUE(outcome.status.ok());
  ASSERT_TRUE(outcome.report.has_value());
  const PathResult& path = outcome.report->paths[0];
  EXPECT_EQ(path.wall_ns.size(), 3u);
  EXPECT_EQ(path.stop_reason, StopReason{StopCode::runs_reached});
  EXPECT_EQ(path.split_unavailable_reason, "path aoti, iteration 1: boom at call 8");  // compare's split pass, one path
  EXPECT_FALSE(path.breakdown.has_value());
  ASSERT_EQ(world.finished.size(), 1u);  // finish() still ends the collection, with what was measured
  EXPECT_EQ(world.finished[0].size(), 1u);
}

TEST_F(MeasurePath, SlowFirstRunAndOutliersAreHinted) {
  // First measured iteration 10 ms, the ten others 200 us: 10 ms > 3 x the median, and outside
  // Q3 + 1.5 IQR (it stays so unless three of the others are slowed down as much).
  world.aoti.duration_ns = [](int call) { return call == 0 ? 10'000'000 : 200'000; };
  world.collector.available = false;
  const SessionOutcome outcome = measure(options_for(0, 11));
  ASSERT_TRUE(outcome.report.has_value());
  const PathResult& path = outcome.report->paths[0];
  EXPECT_TRUE(has_warning(*outcome.report, WarningCode::slow_first_run, "path aoti: the first measured iteration took"))
      << ::testing::PrintToString(outcome.report->warnings);
  ASSERT_GE(path.wall.outliers, 1u) << ::testing::PrintToString(path.wall_ns);
  // `run` does not name its one path in the outlier hint.
  EXPECT_TRUE(has_warning(*outcome.report, WarningCode::outliers,
                          std::to_string(path.wall.outliers) +
                              " of 11 iterations are statistical outliers; close other programs, "
                              "pin CPU frequency or raise --warmup/--runs"))
      << ::testing::PrintToString(outcome.report->warnings);
}

// --- usage errors ---------------------------------------------------------------------------------------

TEST_F(MeasurePath, UsageErrorsComeBeforeAnythingIsLoaded) {
  const auto expect_usage = [&](MeasureOptions options, const std::string& flag) {
    FakeWorld local;
    const SessionOutcome outcome = measure_path(options, local.runtime());
    ASSERT_FALSE(outcome.status.ok()) << flag;
    EXPECT_EQ(outcome.status.error().code, ExitCode::usage_error) << flag;
    EXPECT_NE(outcome.status.error().message.find(flag), std::string::npos) << outcome.status.error().message;
    EXPECT_FALSE(outcome.report.has_value()) << flag;
    EXPECT_TRUE(local.loads.empty()) << flag;
    EXPECT_EQ(local.calls, 0) << flag;
  };
  MeasureOptions options = options_for(-1, 5);
  expect_usage(options, "--warmup");
  options = options_for(0, 0);
  expect_usage(options, "--runs");
  options = options_for(0, 5);
  options.split_runs = -1;
  expect_usage(options, "--split-runs");
  // The boundaries are allowed.
  options = options_for(0, 1);
  EXPECT_TRUE(measure(options).status.ok());
}

TEST_F(MeasurePath, MissingPackageIsFileNotFound) {
  MeasureOptions options = options_for(1, 3);
  options.aoti_package = package + ".missing";
  const SessionOutcome outcome = measure(options);
  ASSERT_FALSE(outcome.status.ok());
  EXPECT_EQ(outcome.status.error().code, ExitCode::file_not_found);
  EXPECT_NE(outcome.status.error().message.find(options.aoti_package), std::string::npos);
  EXPECT_FALSE(outcome.report.has_value());
  EXPECT_TRUE(world.loads.empty());
}

TEST_F(MeasurePath, LoaderErrorKeepsItsCodeWithThePackageAsContext) {
  world.load_error = make_error(ExitCode::invalid_package, "not a zip");
  const SessionOutcome outcome = measure(options_for(1, 3));
  ASSERT_FALSE(outcome.status.ok());
  EXPECT_EQ(outcome.status.error().code, ExitCode::invalid_package);
  EXPECT_EQ(outcome.status.error().message, "loading AOTI package '" + package + "': not a zip");
  EXPECT_FALSE(outcome.report.has_value());
  EXPECT_EQ(world.calls, 0);
}

// --- checkpoints (docs/report-schema.md, "Checkpoints") -------------------------------------------------

nlohmann::json read_json(const std::string& path) { return nlohmann::json::parse(fake::read_text(path)); }

TEST_F(MeasurePath, CheckpointBetweenThePassesIsAWholeReportWithTheTimingPass) {
  const std::string file = fake::make_temp_dir("measure-checkpoint") + "/report.json";
  MeasureOptions options = options_for(2, 4);
  options.checkpoint_path = file;
  const SessionOutcome outcome = measure(options);
  ASSERT_TRUE(outcome.report.has_value());
  // The session writes only checkpoints (the command writes the final report): the last one is the one
  // written between the passes.
  ASSERT_TRUE(std::filesystem::exists(file));
  const nlohmann::json checkpoint = read_json(file);
  EXPECT_EQ(checkpoint["schema_version"], kReportSchemaVersion);
  EXPECT_EQ(checkpoint["kind"], "run");
  EXPECT_EQ(checkpoint["stop_reason"], "in progress");
  ASSERT_EQ(checkpoint["paths"].size(), 1u);
  const auto& path = checkpoint["paths"][0];
  EXPECT_EQ(path["stop_reason"], "runs reached");
  EXPECT_EQ(path["samples_ns"].get<std::vector<std::int64_t>>(), outcome.report->paths[0].wall_ns);
  EXPECT_EQ(path["warmup_ns"].size(), 2u);
  EXPECT_EQ(path["split"]["available"], false);
  EXPECT_EQ(path["split"]["reason"], kSplitPendingReason);
}

TEST_F(MeasurePath, CheckpointDuringTheTimingPassHoldsTheIterationsSoFar) {
  // The last timed iteration fails, so the split pass never starts and nothing rewrites the checkpoint
  // after the timing pass's. The first checkpoint is due 1 s after the measurement starts: the warm-up
  // iteration takes 1.1 s, so it is written after the first measured iteration, and the next would be
  // due a second later.
  world.aoti.fail_on_call = 3;  // 1 warm-up + 3 timed: calls 0..3
  world.aoti.duration_ns = [](int call) { return call == 0 ? 1'100'000'000 : 0; };
  const std::string file = fake::make_temp_dir("measure-checkpoint") + "/report.json";
  MeasureOptions options = options_for(1, 3);
  options.checkpoint_path = file;
  const SessionOutcome outcome = measure(options);
  ASSERT_TRUE(outcome.report.has_value());
  ASSERT_TRUE(std::filesystem::exists(file));
  const nlohmann::json checkpoint = read_json(file);
  EXPECT_EQ(checkpoint["stop_reason"], "in progress");
  const auto& path = checkpoint["paths"][0];
  EXPECT_EQ(path["stop_reason"], "in progress");
  ASSERT_EQ(path["samples_ns"].size(), 1u);
  EXPECT_EQ(path["samples_ns"][0].get<std::int64_t>(), outcome.report->paths[0].wall_ns[0]);
  EXPECT_EQ(path["wall_ns"]["count"], 1);
  ASSERT_EQ(path["warmup_ns"].size(), 1u);
  EXPECT_GE(path["warmup_ns"][0].get<std::int64_t>(), 1'100'000'000);
  EXPECT_EQ(path["split"]["reason"], kSplitPendingReason);
}

TEST_F(MeasurePath, NoCheckpointFileForStdout) {
  // "-" is the report on stdout: no checkpoints (and no file named "-").
  std::filesystem::remove("-");
  MeasureOptions options = options_for(1, 3);
  options.checkpoint_path = "-";
  ASSERT_TRUE(measure(options).report.has_value());
  EXPECT_FALSE(std::filesystem::exists("-"));
}

}  // namespace
}  // namespace ohprof
