// `ohprof analyze` as a user runs it: output, exit codes, reports and the exported trace.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"
#include "ohprof/base/exit_codes.hpp"

namespace ohprof {
namespace {

using testing::make_temp_dir;
using testing::read_file;
using testing::run_ohprof;

int code(ExitCode c) { return to_int(c); }

std::size_t line_count(const std::string& text) {
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string trace(const std::string& file) {
  const char* env = std::getenv("OHPROF_TRACES_DIR");
  return (std::filesystem::path(env != nullptr && *env != '\0' ? env : OHPROF_TRACES_DIR) / file).string();
}

std::string write_temp(const std::string& name, const std::string& text) {
  static const std::string dir = make_temp_dir("analyze-cli");
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

const std::string kTinyTrace = R"({"traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 5, "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 20, "dur": 30, "args": {"device": 0, "stream": 7, "correlation": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaDeviceSynchronize", "pid": 1, "tid": 1, "ts": 16, "dur": 84, "args": {"correlation": 2}}
]})";

// The report's context names what inflated the trace, as --version does ("0.1.0 (sha; gzip: ISA-L 2.30.0)").
TEST(AnalyzeCli, TheReportsContextNamesTheInflaterAsVersionDoes) {
  const auto version = run_ohprof({"--version"});
  ASSERT_EQ(version.exit_code, 0);
  const std::size_t at = version.out.find("; gzip: ");
  ASSERT_NE(at, std::string::npos) << version.out;
  const std::string inflater = version.out.substr(at + 8, version.out.find(')', at) - at - 8);
  const std::string report = write_temp("inflater.json", "");
  const auto result = run_ohprof({"analyze", trace("nccl_data.json.gz"), "--quiet", "--export-json", report});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const nlohmann::json j = nlohmann::json::parse(read_file(report));
  EXPECT_EQ(j.at("context").at("inflate_library"), inflater);
  EXPECT_TRUE(inflater.rfind("ISA-L 2.", 0) == 0 || inflater.rfind("zlib 1.", 0) == 0) << inflater;
}

TEST(AnalyzeCli, PrintsTheSplitForEachSharedTrace) {
  for (const std::string file : {"benchmark_result_493459_1694039959_trace.json.gz", "nccl_data.json.gz",
                                 "triton_example.json.gz"}) {
    const auto result = run_ohprof({"analyze", trace(file)});
    EXPECT_EQ(result.exit_code, 0) << file << ": " << result.err;
    EXPECT_TRUE(contains(result.out, "trace:  " + trace(file))) << result.out;
    EXPECT_TRUE(contains(result.out, "NVIDIA A100-PG509-200")) << result.out;
    EXPECT_TRUE(contains(result.out, "GPU busy:")) << result.out;
    EXPECT_TRUE(contains(result.out, "host-bound:")) << result.out;
  }
}

// docs/analyze.md, "The device": an MTIA trace's split, verdict and JSON suggestion call its device "device",
// never "GPU".
TEST(AnalyzeCli, AnAcceleratorTraceIsNotCalledAGpu) {
  const std::string report = write_temp("mtia_noun.json", "");
  const auto result = run_ohprof({"analyze", trace("mtia_inference.json.gz"), "--export-json", report});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.out, "device busy:")) << result.out;
  EXPECT_TRUE(contains(result.out, "the device waits for the host")) << result.out;
  EXPECT_FALSE(contains(result.out, "GPU")) << result.out;
  const nlohmann::json j = nlohmann::json::parse(read_file(report));
  EXPECT_EQ(j.at("context").at("device").at("type"), "accelerator");
  const std::string suggestion = j.at("paths").at(0).at("split").at("verdict").at("suggestion");
  EXPECT_EQ(suggestion.find("GPU"), std::string::npos) << suggestion;
}

TEST(AnalyzeCli, JsonReportOnStdoutIsMarkedAsComingFromATrace) {
  const auto result = run_ohprof({"analyze", trace("nccl_data.json.gz"), "--export-json", "-"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto report = nlohmann::json::parse(result.out);  // stdout holds the JSON only
  EXPECT_EQ(report["kind"], "analyze");
  EXPECT_EQ(report["trace"]["path"], trace("nccl_data.json.gz"));
  EXPECT_EQ(report["trace"]["format"], "kineto");
  EXPECT_EQ(report["trace"]["compressed"], true);
  EXPECT_EQ(report["trace"]["events"], 40573);
  EXPECT_EQ(report["trace"]["iterations_from"], "ProfilerStep");
  ASSERT_EQ(report["paths"].size(), 1u);
  const auto& path = report["paths"][0];
  EXPECT_EQ(path["name"], "nccl_data");
  EXPECT_EQ(path["split"]["available"], true);
  ASSERT_EQ(path["samples_ns"].size(), 3u);
  ASSERT_EQ(path["split"]["iterations"].size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& it = path["split"]["iterations"][i];
    EXPECT_EQ(path["samples_ns"][i], it["wall_ns"]);
    EXPECT_EQ(it["index"], 4 + static_cast<int>(i));
    EXPECT_EQ(it["end_ns"].get<std::int64_t>() - it["start_ns"].get<std::int64_t>(), it["wall_ns"].get<std::int64_t>());
  }
  EXPECT_EQ(report["context"]["device"]["type"], "cuda");
  EXPECT_EQ(report["context"]["device"]["index"], 0);
}

TEST(AnalyzeCli, WritesJsonAndTraceFiles) {
  const std::string dir = make_temp_dir("analyze-out");
  const std::string json_path = dir + "/report.json";
  const std::string trace_path = dir + "/with-split.json.gz";
  const auto result = run_ohprof(
      {"analyze", trace("triton_example.json.gz"), "--export-json", json_path, "--export-trace", trace_path, "--quiet"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;
  const auto report = nlohmann::json::parse(read_file(json_path));
  EXPECT_EQ(report["kind"], "analyze");
  // The ProfilerStep that runs past the recording is warned about, on stderr and in the report.
  EXPECT_TRUE(contains(result.err, "ProfilerStep#1 ends")) << result.err;
  ASSERT_EQ(report["warnings"].size(), 1u);
  EXPECT_EQ(read_file(trace_path).substr(0, 2), "\x1f\x8b");
  // The exported trace is itself a trace ohprof reads, with the same split.
  const auto again = run_ohprof({"analyze", trace_path, "--export-json", "-"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const auto second = nlohmann::json::parse(again.out);
  EXPECT_EQ(second["paths"][0]["split"]["iterations"], report["paths"][0]["split"]["iterations"]);
  EXPECT_EQ(second["trace"]["events_skipped"], 0);
}

TEST(AnalyzeCli, MissingTraceIsFileNotFoundInOneLine) {
  const auto result = run_ohprof({"analyze", "/nonexistent/trace.json.gz"});
  EXPECT_EQ(result.exit_code, code(ExitCode::file_not_found));
  EXPECT_TRUE(contains(result.err, "/nonexistent/trace.json.gz")) << result.err;
  EXPECT_EQ(line_count(result.err), 1u) << result.err;
}

TEST(AnalyzeCli, TruncatedGzipIsAnInvalidTraceInOneLine) {
  const std::string bytes = read_file(trace("nccl_data.json.gz"));
  const std::string path = write_temp("cut.json.gz", bytes.substr(0, bytes.size() / 3));
  const auto result = run_ohprof({"analyze", path});
  EXPECT_EQ(result.exit_code, code(ExitCode::invalid_trace)) << result.err;
  EXPECT_TRUE(contains(result.err, "truncated")) << result.err;
  EXPECT_EQ(line_count(result.err), 1u) << result.err;
  EXPECT_TRUE(result.out.empty());
}

TEST(AnalyzeCli, InvalidJsonIsAnInvalidTraceInOneLine) {
  const std::string path = write_temp("bad.json", R"({"traceEvents": [{"ph": "X",, }]})");
  const auto result = run_ohprof({"analyze", path});
  EXPECT_EQ(result.exit_code, code(ExitCode::invalid_trace));
  EXPECT_TRUE(contains(result.err, "not valid JSON")) << result.err;
  EXPECT_EQ(line_count(result.err), 1u) << result.err;
}

TEST(AnalyzeCli, TraceWithoutGpuWorkSaysNoDeviceWork) {
  // docs/metrics.md, "Verdict": no device events is "no device work", not a verdict and not an error.
  const std::string path = write_temp("cpu-only.json", R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "ts": 1, "dur": 1}]})");
  const auto result = run_ohprof({"analyze", path, "--export-json", "-"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto report = nlohmann::json::parse(result.out);
  const auto& verdict = report["paths"][0]["split"]["verdict"];
  EXPECT_EQ(verdict["verdict"], "unknown");
  EXPECT_EQ(verdict["reason"], "no_device_work");
}

// Launch calls whose kernels were not recorded (a lost buffer): the device ran work of unknown time, so the
// verdict is not "no device work", the shares are unknown, and the device is not the CPU.
TEST(AnalyzeCli, LaunchCallsWithoutDeviceOpsAreUnknownDeviceTimeNotNone) {
  std::string text = kTinyTrace;
  const std::size_t kernel = text.find(R"(  {"ph": "X", "cat": "kernel")");
  text.erase(kernel, text.find('\n', kernel) + 1 - kernel);
  const std::string path = write_temp("launches-no-ops.json", text);
  const auto result = run_ohprof({"analyze", path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.out, "device split:  unknown: launch calls, but no device op read")) << result.out;
  EXPECT_TRUE(contains(result.out, "verdict:       unknown: launch calls were recorded (1 per iteration), but no "
                                   "device op was read")) << result.out;
  EXPECT_FALSE(contains(result.out, "no device op ran in any window")) << result.out;
  const auto json_result = run_ohprof({"analyze", path, "--export-json", "-"});
  const auto report = nlohmann::json::parse(json_result.out);
  EXPECT_EQ(report["paths"][0]["split"]["verdict"]["reason"], "launches_without_ops");
  EXPECT_NE(report["context"]["device"]["type"], "cpu");
}

TEST(AnalyzeCli, SkippableProblemsAreCountedWarnings) {
  std::string text = kTinyTrace;
  text.insert(text.rfind(']'),
              R"(, {"ph": "X", "cat": "kernel", "name": "orphan", "ts": 60, "dur": 5, "args": {"device": 0, "stream": 7, "correlation": 99}},
                 {"ph": "X", "cat": "kernel", "name": "no_stream", "ts": 60, "dur": 5, "args": {"device": 0, "correlation": 1}},
                 {"ph": "X", "cat": "made_up", "name": "x", "ts": 1, "dur": 1})");
  const std::string path = write_temp("skippable.json", text);
  const auto result = run_ohprof({"analyze", path, "--export-json", "-"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.err, "warning: 1 of 2 GPU operations have no launch call")) << result.err;
  EXPECT_TRUE(contains(result.err, "missing 'args.stream'")) << result.err;
  EXPECT_TRUE(contains(result.err, "'made_up' x1")) << result.err;
  const auto report = nlohmann::json::parse(result.out);
  const auto& collection = report["paths"][0]["split"]["counters"]["collection"];
  EXPECT_EQ(collection["skipped_events"], 2);
  EXPECT_EQ(collection["ops_without_launch"], 1);
  EXPECT_EQ(report["trace"]["events_skipped"], 2);
  EXPECT_EQ(report["warnings"].size(), 3u);
  // The split of the tiny trace, by hand: window [0, 100) us; kernel [20, 50) and the orphan [60, 65).
  const auto& it = report["paths"][0]["split"]["iterations"][0];
  // The kernel is pending from its launch's return (15 us): [15, 20) device-wait. The orphan has no
  // launch call and a correlation above the launch's: pending only from its own start.
  EXPECT_EQ(it["gpu"]["busy_ns"], 35000);
  EXPECT_EQ(it["gpu"]["device_wait_ns"], 5000);
  EXPECT_EQ(it["gpu"]["host_bound_ns"], 60000);
}

TEST(AnalyzeCli, UsageErrors) {
  EXPECT_EQ(run_ohprof({"analyze"}).exit_code, code(ExitCode::usage_error));
  const std::string path = write_temp("tiny.json", kTinyTrace);
  // a second argument is a second trace: the ranks of a job (docs/ranks.md), one of them missing
  const auto stray = run_ohprof({"analyze", path, "stray"});
  EXPECT_EQ(stray.exit_code, code(ExitCode::traces_failed));
  EXPECT_TRUE(contains(stray.err, "1 of 2 traces could not be analysed")) << stray.err;
  EXPECT_EQ(run_ohprof({"analyze", path, "--bogus"}).exit_code, code(ExitCode::usage_error));
  const auto same = run_ohprof({"analyze", path, "--export-trace", path});
  EXPECT_EQ(same.exit_code, code(ExitCode::usage_error));
  EXPECT_TRUE(contains(same.err, "--export-trace")) << same.err;
  // two reports into one file, or an HTML page on stdout
  const std::string out = path + ".out";
  const auto clash = run_ohprof({"analyze", path, "--export-json", out, "--export-html", out});
  EXPECT_EQ(clash.exit_code, code(ExitCode::usage_error));
  EXPECT_EQ(clash.err, "ohprof analyze: error: --export-json and --export-html name the same file '" + out +
                           "'; give each its own\n");
  EXPECT_EQ(run_ohprof({"analyze", path, "--export-html", "-"}).exit_code, code(ExitCode::usage_error));
  EXPECT_EQ(run_ohprof({"analyze", path, "--export-json", "-", "--export-markdown", "-"}).exit_code,
            code(ExitCode::usage_error));
}

TEST(AnalyzeCli, UnwritableOutputsAreOutputErrors) {
  const std::string path = write_temp("tiny2.json", kTinyTrace);
  EXPECT_EQ(run_ohprof({"analyze", path, "--export-json", "/nonexistent/dir/r.json"}).exit_code,
            code(ExitCode::output_error));
  EXPECT_EQ(run_ohprof({"analyze", path, "--export-trace", "/nonexistent/dir/t.json"}).exit_code,
            code(ExitCode::output_error));
}

}  // namespace
}  // namespace ohprof
