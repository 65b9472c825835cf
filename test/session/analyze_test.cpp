// analyze_trace (`ohprof analyze`) on the real Kineto traces of test/data/traces and on small hand-written
// ones: the report's trace source block, the path named after the file, the warnings, the trace export
// and the errors (docs/analyze.md, docs/exit-codes.md). The numbers of the real traces are those
// test/tools/trace_reference.py computes independently (test/trace/trace_reference_numbers.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../trace/trace_reference_numbers.hpp"
#include "fake_runtime.hpp"
#include "ohprof/session/session.hpp"

namespace ohprof {
namespace {

using trace_reference::kExpected;
using trace_reference::trace_path;

const trace_reference::TraceExpect& expected_for(const std::string& file) {
  for (const auto& expect : kExpected) {
    if (expect.file == file) return expect;
  }
  throw std::runtime_error("no reference numbers for " + file);
}

SessionOutcome analyze(const std::string& path, const std::string& export_trace = "") {
  AnalyzeOptions options;
  options.trace_path = path;
  options.export_trace = export_trace;
  options.argv = {"ohprof", "analyze", path};
  return analyze_trace(options);
}

std::string write_temp(const std::string& name, const std::string& text) {
  static const std::string dir = fake::make_temp_dir("analyze");
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// One ProfilerStep [0, 100) us with one launch [10, 15), its kernel [20, 50) on stream 7 and a device
// synchronisation [16, 100) (the recording ends with the step; `extra` adds events).
std::string tiny_trace(const std::string& extra = "") {
  return R"({"traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 5, "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 20, "dur": 30, "args": {"device": 0, "stream": 7, "correlation": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaDeviceSynchronize", "pid": 1, "tid": 1, "ts": 16, "dur": 84, "args": {"correlation": 9}})" +
         extra + "\n]}";
}

TEST(AnalyzeTrace, ReportOfARealTraceWithProfilerSteps) {
  const std::string path = trace_path("nccl_data.json.gz");
  const SessionOutcome outcome = analyze(path);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error().message;
  ASSERT_TRUE(outcome.report.has_value());
  EXPECT_TRUE(outcome.print_table);
  const Report& report = *outcome.report;
  EXPECT_EQ(report.kind, ReportKind::analyze);
  EXPECT_EQ(report.context.device.type, DeviceKind::cuda);
  EXPECT_EQ(report.context.device.index, 0);
  EXPECT_EQ(report.context.device.name, "NVIDIA A100-PG509-200");
  EXPECT_EQ(report.context.argv, (std::vector<std::string>{"ohprof", "analyze", path}));

  // The trace source block.
  ASSERT_TRUE(report.trace.has_value());
  const TraceSource& source = *report.trace;
  EXPECT_EQ(source.path, path);
  EXPECT_EQ(source.format, "kineto");
  EXPECT_TRUE(source.compressed);
  EXPECT_EQ(source.file_bytes, std::filesystem::file_size(path));
  EXPECT_GT(source.json_bytes, source.file_bytes);  // gzip: the JSON is larger
  EXPECT_EQ(source.events, 40'573u);                // test/data/traces/SOURCES.md
  EXPECT_EQ(source.events_kept + source.events_ignored + source.events_skipped, source.events);
  EXPECT_EQ(source.events_skipped, 0u);
  EXPECT_EQ(source.iterations_from, IterationSource::profiler_steps);
  EXPECT_GT(source.read_ns, 0);

  // One path, named after the file, its samples the ProfilerStep windows (#4..#6).
  ASSERT_EQ(report.paths.size(), 1u);
  const PathResult& result = report.paths[0];
  EXPECT_EQ(result.name, "nccl_data");
  EXPECT_EQ(result.artifact, path);
  EXPECT_EQ(result.load_ns, source.read_ns);
  EXPECT_EQ(result.stop_reason, StopReason{StopCode::end_of_trace});
  const auto& windows = expected_for("nccl_data.json.gz").windows;
  ASSERT_EQ(result.wall_ns.size(), windows.size());
  for (std::size_t w = 0; w < windows.size(); ++w) {
    EXPECT_EQ(result.wall_ns[w], windows[w].end_ns - windows[w].start_ns) << w;
  }
  EXPECT_EQ(result.wall.count, windows.size());
  EXPECT_EQ(report.config.runs, static_cast<int>(windows.size()));
  ASSERT_TRUE(result.breakdown.has_value());
  ASSERT_EQ(result.breakdown->iterations.size(), windows.size());
  for (std::size_t w = 0; w < windows.size(); ++w) {
    EXPECT_EQ(result.breakdown->iterations[w].index, windows[w].index);
    EXPECT_EQ(result.breakdown->iterations[w].gpu.busy_ns, windows[w].gpu.busy);
    EXPECT_EQ(result.breakdown->iterations[w].gpu.host_bound_ns, windows[w].gpu.host_bound);
  }
  EXPECT_TRUE(result.split_unavailable_reason.empty());
  EXPECT_TRUE(report.warnings.empty()) << ::testing::PrintToString(report.warnings);
}

// docs/report-schema.md ("trace" (analyze)) and docs/metrics.md ("The split pass and its cost": `trace`
// (`analyze`)): an analyze report's split was recorded by the trace.
TEST(AnalyzeTrace, SplitCollectorIsTrace) {
  const SessionOutcome outcome = analyze(trace_path("triton_example.json.gz"));
  ASSERT_TRUE(outcome.report.has_value());
  EXPECT_EQ(outcome.report->paths.at(0).split_collector, CollectorKind::trace);
  EXPECT_STREQ(to_string(outcome.report->paths.at(0).split_collector), "trace");
}

TEST(AnalyzeTrace, TraceWithoutStepsIsOneWholeTraceWindow) {
  const std::string file = "benchmark_result_493459_1694039959_trace.json.gz";
  const SessionOutcome outcome = analyze(trace_path(file));
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error().message;
  const Report& report = *outcome.report;
  EXPECT_EQ(report.trace->iterations_from, IterationSource::whole_trace);
  EXPECT_EQ(report.paths[0].name, "benchmark_result_493459_1694039959_trace");
  const auto& window = expected_for(file).windows.at(0);
  ASSERT_EQ(report.paths[0].wall_ns.size(), 1u);
  EXPECT_EQ(report.paths[0].wall_ns[0], window.end_ns - window.start_ns);
  EXPECT_EQ(report.config.runs, 1);
}

TEST(AnalyzeTrace, ReaderWarningsAreRecorded) {
  // triton_example's ProfilerStep#1 runs past the end of the recording.
  const SessionOutcome outcome = analyze(trace_path("triton_example.json.gz"));
  ASSERT_TRUE(outcome.status.ok());
  const auto& warnings = outcome.report->warnings;
  ASSERT_EQ(warnings.size(), 1u) << ::testing::PrintToString(warnings);
  EXPECT_EQ(warnings[0].code, WarningCode::step_cut_at_recording_end) << ::testing::PrintToString(warnings[0]);
  EXPECT_NE(warnings[0].message.find("ProfilerStep#1 ends"), std::string::npos) << warnings[0].message;
}

TEST(AnalyzeTrace, AnalysisCountersAreWarnings) {
  // A second launch + kernel after the only ProfilerStep: one of two ops in no window.
  const std::string outside = write_temp("outside.json", tiny_trace(R"(,
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 200, "dur": 5, "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 210, "dur": 10, "args": {"device": 0, "stream": 7, "correlation": 2}})"));
  const SessionOutcome a = analyze(outside);
  ASSERT_TRUE(a.status.ok()) << a.status.error().message;
  EXPECT_EQ(a.report->warnings,
            (std::vector<Warning>{Warning{WarningCode::ops_outside_iterations,
                                          "1 of 2 device operations belong to no iteration window (launched outside "
                                          "every ProfilerStep) and are not in the split"}}));
  EXPECT_EQ(a.report->paths[0].name, "outside");  // ".json" dropped too

  // A second launch call with correlation 1.
  const std::string duplicate = write_temp("duplicate.json", tiny_trace(R"(,
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 60, "dur": 5, "args": {"correlation": 1}})"));
  const SessionOutcome b = analyze(duplicate);
  ASSERT_TRUE(b.status.ok()) << b.status.error().message;
  EXPECT_EQ(b.report->warnings,
            (std::vector<Warning>{Warning{WarningCode::duplicate_launch_correlations,
                                          "1 launch calls share a correlation id with an earlier one; ops join the "
                                          "earliest"}}));

  // The tiny trace itself: plain JSON, no warnings, its one window by hand.
  const std::string plain = write_temp("tiny.trace", tiny_trace());
  const SessionOutcome c = analyze(plain);
  ASSERT_TRUE(c.status.ok()) << c.status.error().message;
  EXPECT_TRUE(c.report->warnings.empty()) << ::testing::PrintToString(c.report->warnings);
  EXPECT_EQ(c.report->paths[0].name, "tiny.trace");  // only .json / .gz are dropped
  EXPECT_FALSE(c.report->trace->compressed);
  EXPECT_EQ(c.report->trace->file_bytes, c.report->trace->json_bytes);
  EXPECT_EQ(c.report->trace->events, 4u);
  EXPECT_EQ(c.report->paths[0].wall_ns, std::vector<std::int64_t>{100'000});
  EXPECT_EQ(c.report->paths[0].breakdown->iterations.at(0).gpu.busy_ns, 30'000);
  // Launch [10,15) us, kernel [20,50) pending from 15, sync [16,100): host-bound [0,15) and [50,100),
  // device-wait [15,20), of the host-bound time [50,100) in the sync (blocking).
  const IterationBreakdown& it = c.report->paths[0].breakdown->iterations.at(0);
  EXPECT_EQ(it.gpu.host_bound_ns, 65'000);
  EXPECT_EQ(it.gpu.device_wait_ns, 5'000);
  EXPECT_EQ(it.host_states.blocking_ns, 50'000);
  EXPECT_EQ(it.host_states.launch_ns, 5'000);
}

TEST(AnalyzeTrace, ExportTraceWritesATraceWithTheSameSplit) {
  const std::string dir = fake::make_temp_dir("analyze-export");
  const std::string exported = dir + "/with-split.json.gz";
  const SessionOutcome outcome = analyze(trace_path("triton_example.json.gz"), exported);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error().message;
  ASSERT_TRUE(outcome.report.has_value());
  ASSERT_TRUE(std::filesystem::exists(exported));
  EXPECT_EQ(fake::read_text(exported).substr(0, 2), "\x1f\x8b");  // gzip, by its name
  // The exported file is itself a trace, with the same windows and split.
  const SessionOutcome again = analyze(exported);
  ASSERT_TRUE(again.status.ok()) << again.status.error().message;
  EXPECT_EQ(again.report->paths[0].name, "with-split");
  EXPECT_EQ(again.report->paths[0].wall_ns, outcome.report->paths[0].wall_ns);
  ASSERT_EQ(again.report->paths[0].breakdown->iterations.size(), outcome.report->paths[0].breakdown->iterations.size());
  EXPECT_EQ(again.report->paths[0].breakdown->iterations[0].gpu.busy_ns,
            outcome.report->paths[0].breakdown->iterations[0].gpu.busy_ns);
  EXPECT_EQ(again.report->trace->events_skipped, 0u);

  // A plain name gets plain JSON.
  const std::string plain = dir + "/with-split.json";
  ASSERT_TRUE(analyze(trace_path("triton_example.json.gz"), plain).status.ok());
  const nlohmann::json json = nlohmann::json::parse(fake::read_text(plain));
  EXPECT_TRUE(json.contains("traceEvents"));
}

TEST(AnalyzeTrace, UnwritableExportIsAnOutputErrorWithTheReport) {
  const SessionOutcome outcome = analyze(trace_path("triton_example.json.gz"), "/nonexistent/dir/t.json");
  ASSERT_FALSE(outcome.status.ok());
  EXPECT_EQ(outcome.status.error().code, ExitCode::output_error);
  EXPECT_TRUE(outcome.report.has_value());  // the analysis was made: the command still reports it
}

TEST(AnalyzeTrace, ExportTraceOverTheInputIsAUsageError) {
  const std::string path = trace_path("triton_example.json.gz");
  const SessionOutcome outcome = analyze(path, path);
  ASSERT_FALSE(outcome.status.ok());
  EXPECT_EQ(outcome.status.error().code, ExitCode::usage_error);
  EXPECT_NE(outcome.status.error().message.find("--export-trace"), std::string::npos);
  EXPECT_FALSE(outcome.report.has_value());
}

TEST(AnalyzeTrace, MissingTraceIsFileNotFound) {
  const SessionOutcome outcome = analyze("/nonexistent/trace.json.gz");
  ASSERT_FALSE(outcome.status.ok());
  EXPECT_EQ(outcome.status.error().code, ExitCode::file_not_found);  // exit code 3, docs/exit-codes.md
  EXPECT_EQ(to_int(outcome.status.error().code), 3);
  EXPECT_NE(outcome.status.error().message.find("/nonexistent/trace.json.gz"), std::string::npos);
  EXPECT_FALSE(outcome.report.has_value());
}

TEST(AnalyzeTrace, UnusableTraceIsAnInvalidTrace) {
  const SessionOutcome not_json = analyze(write_temp("garbage.json", "{ not json"));
  ASSERT_FALSE(not_json.status.ok());
  EXPECT_EQ(not_json.status.error().code, ExitCode::invalid_trace);  // 7
  EXPECT_FALSE(not_json.report.has_value());
}

TEST(AnalyzeTrace, TraceWithoutDeviceWorkIsAReportThatSaysSo) {
  const SessionOutcome no_gpu =
      analyze(write_temp("cpu.json", R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "ts": 1, "dur": 1}]})"));
  ASSERT_TRUE(no_gpu.status.ok()) << no_gpu.status.error().message;
  ASSERT_TRUE(no_gpu.report.has_value());
  const PathBreakdown& split = *no_gpu.report->paths.at(0).breakdown;
  EXPECT_EQ(split.verdict.verdict, Verdict::unknown);
  EXPECT_EQ(split.verdict.reason, VerdictReason::no_device_work);
  EXPECT_EQ(no_gpu.report->trace->iterations_from, IterationSource::whole_trace);
  EXPECT_EQ(no_gpu.report->context.device.type, DeviceKind::cpu);
}

}  // namespace
}  // namespace ohprof
