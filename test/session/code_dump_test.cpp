// --dump-code (session/code_dump.cpp, docs/code-dump.md) on a fake Runtime (fake_runtime.hpp): what
// `run` and `compare` write for each path, that nothing is dumped before every timed pass is over, and
// that what cannot be had is a note while the rest is written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "fake_runtime.hpp"
#include "ohprof/session/session.hpp"
#include "session_steps.hpp"

namespace ohprof {
namespace {

using fake::FakeWorld;
using fake::has_warning;

// --- --dump-code (docs/code-dump.md) -----------------------------------------------------------------

// The fake package's code: kernel "gemm" defined on line 2 of kernel.cpp and called on line 3 of the
// wrapper; its library is not dumped.
std::vector<SourceFile> fake_package_code() {
  return {{"m.kernel.cpp", "// kernels\nextern \"C\" void gemm(float* out)\n{\n}\n"},
          {"m.wrapper.cpp", "extern \"C\" void gemm(float* out);\nvoid run() {\n    gemm(buf0);\n}\n"},
          {"m.wrapper_metadata.json", "{}"}};
}

TEST(MeasurePathDumpCode, WritesThePackagesCodeAndItsKernelsCostsAfterMeasuring) {
  const std::string package = fake::make_temp_file("measure-dump", "model.aoti.pt2");
  const std::string dir = fake::make_temp_dir("measure-dump") + "/dump";
  FakeWorld world;
  world.aoti.duration_ns = [](int) { return 100'000; };
  Runtime runtime = world.runtime();
  int calls_when_read = -1;
  runtime.read_package_sources = [&](const std::string& path) -> Result<std::vector<SourceFile>> {
    EXPECT_EQ(path, package);
    calls_when_read = world.calls;
    return fake_package_code();
  };
  MeasureOptions options;
  options.aoti_package = package;
  options.warmup = 1;
  options.runs = 4;
  options.dump_code_dir = dir;
  const SessionOutcome outcome = measure_path(options, runtime);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error().message;
  EXPECT_EQ(calls_when_read, 1 + 4 + kSplitWarmups + 4);  // after both passes
  ASSERT_TRUE(outcome.report->code_dump);
  EXPECT_EQ(outcome.report->code_dump->dir, dir);
  EXPECT_EQ(outcome.report->code_dump->files,
            (std::vector<std::string>{"aoti/code/m.kernel.cpp", "aoti/code/m.wrapper.cpp",
                                      "aoti/code/m.wrapper_metadata.json", "aoti/kernels.json", "index.html"}));
  EXPECT_TRUE(outcome.report->code_dump->notes.empty());
  std::ifstream in(dir + "/aoti/kernels.json");
  ASSERT_TRUE(in);
  const nlohmann::json kernels = nlohmann::json::parse(in);
  ASSERT_EQ(kernels.at("kernels").size(), 1u);
  const nlohmann::json& gemm = kernels.at("kernels").at(0);
  EXPECT_EQ(gemm.at("name"), "gemm");
  EXPECT_EQ(gemm.at("origin"), "generated");
  EXPECT_EQ(gemm.at("defined_at"), (nlohmann::json{{"file", "code/m.kernel.cpp"}, {"line", 2}}));
  EXPECT_EQ(gemm.at("calls"), (nlohmann::json::array({{{"file", "code/m.wrapper.cpp"}, {"line", 3}}})));
  // the fake split: one 20 us kernel per iteration
  EXPECT_DOUBLE_EQ(gemm.at("count_per_iteration").get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(gemm.at("ns_per_iteration").get<double>(), 20'000.0);
  std::ifstream code(dir + "/aoti/code/m.wrapper.cpp");
  EXPECT_TRUE(code);
}

TEST(MeasurePathDumpCode, WhatCannotBeHadIsANoteAndAWarningAndTheRestIsWritten) {
  const std::string package = fake::make_temp_file("measure-dump-none", "model.aoti.pt2");
  const std::string dir = fake::make_temp_dir("measure-dump-none") + "/dump";
  FakeWorld world;
  world.collector.available = false;  // no split: no costs
  MeasureOptions options;
  options.aoti_package = package;
  options.warmup = 0;
  options.runs = 2;
  options.dump_code_dir = dir;
  const SessionOutcome outcome = measure_path(options, world.runtime());  // and no package reader
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error().message;
  ASSERT_TRUE(outcome.report->code_dump);
  ASSERT_EQ(outcome.report->code_dump->notes.size(), 2u);
  EXPECT_NE(outcome.report->code_dump->notes[0].find("cannot read AOTI packages"), std::string::npos);
  EXPECT_NE(outcome.report->code_dump->notes[1].find("no split"), std::string::npos);
  EXPECT_TRUE(has_warning(*outcome.report, WarningCode::code_dump_incomplete, "--dump-code, aoti"));
  EXPECT_EQ(outcome.report->code_dump->files, (std::vector<std::string>{"aoti/kernels.json", "index.html"}));
}

TEST(MeasurePathDumpCode, AFolderUnderAFileIsRefusedBeforeMeasuring) {
  const std::string package = fake::make_temp_file("measure-dump-bad", "model.aoti.pt2");
  FakeWorld world;
  MeasureOptions options;
  options.aoti_package = package;
  options.warmup = 0;
  options.runs = 2;
  options.dump_code_dir = package + "/not-a-folder";  // under a file
  const SessionOutcome outcome = measure_path(options, world.runtime());
  ASSERT_FALSE(outcome.status.ok());
  EXPECT_EQ(outcome.status.error().code, ExitCode::output_error);
  EXPECT_NE(outcome.status.error().message.find("is a file, not a folder"), std::string::npos) << outcome.status.error().message;
  EXPECT_EQ(world.calls, 0);  // nothing was measured for a dump that could never be written
}


// --- compare --dump-code: every path, after every timed pass ------------------------------------------

CompareOptions dump_options(std::vector<std::string> paths, const std::string& dir) {
  CompareOptions options;
  options.paths = std::move(paths);
  options.stopping.warmup = 1;
  options.stopping.min_runs = 3;
  options.stopping.max_runs = 3;
  options.stopping.min_time_s = 0;
  options.stopping.max_rse = 1e9;
  options.stopping.time_limit_s = 60;
  options.stopping.block = 1;
  options.cache_dir = "/fake/cache";
  options.argv = {"ohprof", "compare"};
  options.explain = false;
  options.dump_code_dir = dir;
  return options;
}

TEST(CompareDumpCode, DumpsEveryPathAfterMeasuringWithItsCodeKernelsAndCallSequence) {
  const std::string dir = fake::make_temp_dir("compare-dump") + "/dump";
  FakeWorld world;
  world.artifacts.aoti_package = fake::make_temp_file("compare-dump", "model.aoti.pt2");
  // the split: aoti runs gemm then relu, compile runs gemm only (iterations long enough to hold them)
  world.collector.kernels_per_path = {{"gemm", "graph_0_relu"}, {"gemm"}};
  world.aoti.duration_ns = [](int) { return 100'000; };
  world.python["compile"].duration_ns = [](int) { return 100'000; };
  // compile's output code binds gemm on line 1 and calls it on line 4 (torch.compile's Python wrapper)
  world.dumped_code["compile"] = {{"code/output_code.py", "gemm = async_compile.cpp_pybinding(['float*'], r'''\n"
                                                          "''')\ndef call(args):\n    gemm(buf0)\n"}};
  Runtime runtime = world.runtime();
  int calls_when_read = -1;
  runtime.read_package_sources = [&](const std::string&) -> Result<std::vector<SourceFile>> {
    calls_when_read = world.calls;
    return fake_package_code();
  };
  const SessionOutcome outcome = compare_paths(dump_options({"aoti", "compile"}, dir), runtime);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error().message;
  // After both passes of both paths: warm-up and 3 timed runs, the split's warm-ups and 3 runs, each;
  // and the memory pass's calls (docs/metrics.md, "Memory").
  const int all_calls = 2 * (1 + 3 + kSplitWarmups + 3 + static_cast<int>(kMemoryCalls));
  EXPECT_EQ(calls_when_read, all_calls);
  EXPECT_EQ(world.dumps, (std::vector<std::pair<std::string, int>>{
                             {"dump_code aoti", all_calls}, {"dump_code compile", all_calls}, {"trace_compile compile", all_calls}}));
  ASSERT_TRUE(outcome.report->code_dump);
  EXPECT_EQ(outcome.report->code_dump->files,
            (std::vector<std::string>{"aoti/code/m.kernel.cpp", "aoti/code/m.wrapper.cpp", "aoti/code/m.wrapper_metadata.json",
                                      "aoti/graph.py", "aoti/kernels.json", "compile/code/output_code.py", "compile/graph.py",
                                      "compile/kernels.json", "compile/trace/fake_trace.log", "index.html"}));
  // the fake trace's note, under its path's name, and as a warning
  EXPECT_EQ(outcome.report->code_dump->notes, std::vector<std::string>{"compile: tlparse is not installed (fake)"});
  EXPECT_TRUE(has_warning(*outcome.report, WarningCode::code_dump_incomplete, "--dump-code, compile: tlparse"));

  const auto kernels_of = [&](const std::string& path) {
    std::ifstream in(dir + "/" + path + "/kernels.json");
    return nlohmann::json::parse(in);
  };
  const auto kernel = [](const nlohmann::json& listing, const std::string& name) {
    for (const auto& k : listing.at("kernels")) {
      if (k.at("name") == name) return k;
    }
    return nlohmann::json();
  };
  const nlohmann::json aoti = kernels_of("aoti");
  EXPECT_EQ(aoti.at("call_sequence"), (nlohmann::json::array({"gemm", "relu"})));
  EXPECT_EQ(kernel(aoti, "gemm").at("defined_at"), (nlohmann::json{{"file", "code/m.kernel.cpp"}, {"line", 2}}));
  EXPECT_EQ(kernel(aoti, "graph_0_relu").at("origin"), "not_in_code");
  const nlohmann::json compile = kernels_of("compile");
  EXPECT_EQ(compile.at("call_sequence"), (nlohmann::json::array({"gemm"})));
  EXPECT_EQ(compile.at("kernels").at(0).at("defined_at"), (nlohmann::json{{"file", "code/output_code.py"}, {"line", 1}}));
  EXPECT_EQ(compile.at("kernels").at(0).at("calls"), (nlohmann::json::array({{{"file", "code/output_code.py"}, {"line", 4}}})));
  // the index joins them: relu only on aoti
  const std::string index = fake::read_text(dir + "/index.html");
  EXPECT_NE(index.find("<tr data-kernel=\"relu\" class=\"ohprof-only\">"), std::string::npos) << index;
  EXPECT_NE(index.find("href=\"compile/code/output_code.py\">code/output_code.py:1</a>"), std::string::npos) << index;
}

TEST(CompareDumpCode, APythonSideThatFailsIsANoteAndTheRestIsWritten) {
  const std::string dir = fake::make_temp_dir("compare-dump-fail") + "/dump";
  FakeWorld world;
  world.dump_error = make_error(ExitCode::model_error, "--dump-code of path eager: the graph could not be drawn");
  const SessionOutcome outcome = compare_paths(dump_options({"eager"}, dir), world.runtime());
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error().message;
  ASSERT_TRUE(outcome.report->code_dump);
  EXPECT_EQ(outcome.report->code_dump->files, (std::vector<std::string>{"eager/kernels.json", "index.html"}));
  EXPECT_EQ(outcome.report->code_dump->notes,
            std::vector<std::string>{"eager: --dump-code of path eager: the graph could not be drawn"});
  // eager is no compiled path: no trace
  EXPECT_EQ(world.dumps.size(), 1u);
}

TEST(CompareDumpCode, AFileThePythonSideCannotWriteIsAnOutputErrorWithTheReportKept) {
  const std::string dir = fake::make_temp_dir("compare-dump-unwritable") + "/dump";
  FakeWorld world;
  world.dump_error = make_error(ExitCode::output_error, "cannot write '/x/graph.py': Permission denied");
  const SessionOutcome outcome = compare_paths(dump_options({"eager", "compile"}, dir), world.runtime());
  ASSERT_FALSE(outcome.status.ok());
  EXPECT_EQ(outcome.status.error().code, ExitCode::output_error);
  EXPECT_NE(outcome.status.error().message.find("Permission denied"), std::string::npos);
  ASSERT_TRUE(outcome.report);
  EXPECT_EQ(world.dumps.size(), 1u);  // the first failure ends the dump: no trace, no second path
}

TEST(CompareDumpCode, AFolderUnderAFileIsRefusedBeforeMeasuring) {
  const std::string file = fake::make_temp_file("compare-dump-file", "report.json");
  FakeWorld world;
  const SessionOutcome outcome = compare_paths(dump_options({"eager"}, file + "/dump"), world.runtime());
  ASSERT_FALSE(outcome.status.ok());
  EXPECT_EQ(outcome.status.error().code, ExitCode::output_error);
  EXPECT_EQ(world.calls, 0);
  EXPECT_TRUE(world.opens.empty());  // not even the model was opened
}

TEST(CompareDumpCode, WithoutTheFlagNothingIsDumped) {
  FakeWorld world;
  const SessionOutcome outcome = compare_paths(dump_options({"eager", "compile"}, ""), world.runtime());
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error().message;
  EXPECT_FALSE(outcome.report->code_dump);
  EXPECT_TRUE(world.dumps.empty());
  EXPECT_FALSE(world.opens.at(0).dump_code);  // Dynamo's graphs are kept only for a dump
}

TEST(CompareDumpCode, AnEarlierDumpIsReplacedAndAFolderOfSomethingElseIsRefused) {
  const std::string dir = fake::make_temp_dir("compare-dump-again") + "/dump";
  FakeWorld world;
  ASSERT_TRUE(compare_paths(dump_options({"eager"}, dir), world.runtime()).status.ok());
  // a file only the earlier dump wrote (a trace log, a picture drawn then) is not left to this one
  std::ofstream(dir + "/eager/graph.svg") << "<svg/>";
  const SessionOutcome again = compare_paths(dump_options({"eager"}, dir), world.runtime());
  ASSERT_TRUE(again.status.ok()) << again.status.error().message;
  EXPECT_FALSE(std::filesystem::exists(dir + "/eager/graph.svg"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/eager/graph.py"));
  // a path's folder that holds something else: refused, exit 8, with the report kept
  const std::string other = fake::make_temp_dir("compare-dump-other") + "/dump";
  std::filesystem::create_directories(other + "/eager");
  std::ofstream(other + "/eager/notes.txt") << "mine";
  const SessionOutcome refused = compare_paths(dump_options({"eager"}, other), world.runtime());
  ASSERT_FALSE(refused.status.ok());
  EXPECT_EQ(refused.status.error().code, ExitCode::output_error);
  EXPECT_NE(refused.status.error().message.find("is no earlier dump"), std::string::npos) << refused.status.error().message;
  EXPECT_TRUE(refused.report);
  EXPECT_TRUE(std::filesystem::exists(other + "/eager/notes.txt"));
}

}  // namespace
}  // namespace ohprof
