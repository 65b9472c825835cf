// End to end: `ohprof run --aoti` on a tiny CPU package exported by examples/export_model.py
// (the CTest fixture export_tiny_cpu_package), checked through its JSON report and exit codes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cli_harness.hpp"
#include "ohprof/base/exit_codes.hpp"

namespace ohprof {
namespace {

using nlohmann::json;
using testing::make_temp_dir;
using testing::read_file;
using testing::run_ohprof;
using testing::run_program;

using testing::code;
using testing::line_count;

class RunE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(OHPROF_TINY_PACKAGE))
        << "the fixture export_tiny_cpu_package did not produce " << OHPROF_TINY_PACKAGE;
    m_dir = make_temp_dir("e2e");
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }

  // Copies the tiny package, rewriting its AOTI metadata with a Python snippet applied to the dict `m`.
  std::string rewritten_package(const std::string& name, const std::string& edit) {
    const std::string target = m_dir + "/" + name;
    const std::string script =
        "import json, sys, zipfile\n"
        "src, dst = sys.argv[1], sys.argv[2]\n"
        "with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, 'w') as zout:\n"
        "    for item in zin.infolist():\n"
        "        data = zin.read(item.filename)\n"
        "        if item.filename.endswith('wrapper_metadata.json'):\n"
        "            m = json.loads(data)\n"
        "            " + edit + "\n"
        "            data = json.dumps(m).encode()\n"
        "        zout.writestr(item, data)\n";
    const auto result = run_program({OHPROF_PYTHON, "-c", script, OHPROF_TINY_PACKAGE, target});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return target;
  }

  std::string m_dir;
};

TEST_F(RunE2E, MeasuresTheRequestedIterationsAndWritesAReport) {
  const std::string report_path = m_dir + "/report.json";
  const auto result = run_ohprof({"run", "--aoti", OHPROF_TINY_PACKAGE, "--device", "cpu", "--warmup", "2",
                                  "--runs", "7", "--export-json", report_path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("path aoti"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("wall median:"), std::string::npos) << result.out;

  const json report = json::parse(read_file(report_path));
  EXPECT_EQ(report["schema_version"], 4);
  EXPECT_EQ(report["kind"], "run");
  const json& context = report["context"];
  EXPECT_EQ(context["device"]["type"], "cpu");
  EXPECT_FALSE(context["device"]["name"].get<std::string>().empty());
  EXPECT_EQ(context["torch_version"].get<std::string>().rfind("2.", 0), 0u) << context["torch_version"];
  EXPECT_FALSE(context["git_sha"].get<std::string>().empty());
  EXPECT_FALSE(context["ohprof_version"].get<std::string>().empty());
  EXPECT_FALSE(context["date"].get<std::string>().empty());
  EXPECT_GT(context["cpu_threads"].get<int>(), 0);
  EXPECT_EQ(context["argv"][1], "run");
  EXPECT_EQ(report["config"]["inputs"], json::array({"[4, 16]:float32"}));  // read from the package

  const json& path = report["paths"][0];
  EXPECT_EQ(path["name"], "aoti");
  EXPECT_GT(path["load_ns"].get<std::int64_t>(), 0);
  ASSERT_EQ(path["warmup_ns"].size(), 2u);
  ASSERT_EQ(path["samples_ns"].size(), 7u);
  std::int64_t min_sample = INT64_MAX, max_sample = 0;
  for (const auto& sample : path["samples_ns"]) {
    const auto ns = sample.get<std::int64_t>();
    EXPECT_GT(ns, 0);
    min_sample = std::min(min_sample, ns);
    max_sample = std::max(max_sample, ns);
  }
  const json& wall = path["wall_ns"];
  EXPECT_EQ(wall["count"], 7);
  EXPECT_EQ(wall["min"].get<double>(), static_cast<double>(min_sample));
  EXPECT_EQ(wall["max"].get<double>(), static_cast<double>(max_sample));
  EXPECT_GE(wall["median"].get<double>(), wall["min"].get<double>());
  EXPECT_LE(wall["median"].get<double>(), wall["max"].get<double>());
  EXPECT_EQ(path["stop_reason"], "runs reached");
  EXPECT_FALSE(report["interrupted"].get<bool>());
}

// The identities of docs/metrics.md, on every measured iteration of a real split.
void expect_split_identities(const json& split) {
  ASSERT_TRUE(split["available"].get<bool>()) << split.dump();
  ASSERT_FALSE(split["iterations"].empty());
  for (const auto& it : split["iterations"]) {
    const json& gpu = it["gpu"];
    const auto wall = it["wall_ns"].get<std::int64_t>();
    EXPECT_EQ(gpu["busy_ns"].get<std::int64_t>() + gpu["idle_ns"].get<std::int64_t>(), wall);
    EXPECT_EQ(gpu["host_bound_ns"].get<std::int64_t>() + gpu["device_wait_ns"].get<std::int64_t>(),
              gpu["idle_ns"].get<std::int64_t>());
    // CPU: nothing is queued, so all idle time is host-bound, and dispatch is wall - busy.
    EXPECT_EQ(gpu["device_wait_ns"].get<std::int64_t>(), 0);
    EXPECT_EQ(it["dispatch_ns"].get<std::int64_t>(), gpu["idle_ns"].get<std::int64_t>());
  }
}

TEST_F(RunE2E, CpuSplitAttributesEveryKernelOfAKernelProfiledPackage) {
  const std::string report_path = m_dir + "/kp.json";
  const auto result = run_ohprof({"run", "--aoti", OHPROF_TINY_KP_PACKAGE, "--warmup", "1", "--runs", "5",
                                  "--quiet", "--export-json", report_path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json path = json::parse(read_file(report_path))["paths"][0];
  EXPECT_EQ(path["split_collector"], "record_function");
  expect_split_identities(path["split"]);
  EXPECT_TRUE(path["split"]["summary"]["cpu_kernels"].get<bool>());
  EXPECT_GT(path["split"]["summary"]["gpu"]["busy_ns"]["median"].get<double>(), 0.0);
  EXPECT_EQ(path["split"]["iterations"].size(), 5u);
  // The tiny MLP's generated code names two fused kernels and the addmm shim call; all are seen.
  const json& attribution = path["kernel_attribution"];
  EXPECT_TRUE(attribution["records_kernels"].get<bool>());
  EXPECT_TRUE(attribution["unattributed"].empty()) << attribution.dump();
  EXPECT_EQ(attribution["seen"], json::array({"aoti_torch_cpu_addmm_out", "cpp_fused_mul_1", "cpp_fused_relu_0"}));
  EXPECT_EQ(path["collector_cost"]["collector"], "record_function");
  EXPECT_EQ(path["collector_cost"]["runs"], 5);
  EXPECT_GT(path["collector_cost"]["ratio"].get<double>(), 0.0);
}

// --dump-code (docs/code-dump.md) on the kernel-profiled tiny package: every kernel of the split is in
// kernels.json with its measured cost, and each place it names is checked against the dumped file's
// own line: a definition line holds `extern "C"` and the name, a recording line the recorded name as a
// literal, a call line the name followed by '('.
TEST_F(RunE2E, DumpCodeWritesThePackagesCodeAndWhereEachMeasuredKernelIs) {
  const std::string report_path = m_dir + "/dump.json";
  const std::string dir = m_dir + "/code";
  const auto result = run_ohprof({"run", "--aoti", OHPROF_TINY_KP_PACKAGE, "--warmup", "1", "--runs", "5", "--quiet",
                                  "--export-json", report_path, "--dump-code", dir});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json report = json::parse(read_file(report_path));
  ASSERT_TRUE(report["code_dump"].is_object());
  EXPECT_TRUE(report["code_dump"]["notes"].empty()) << report["code_dump"].dump();
  for (const auto& file : report["code_dump"]["files"]) {
    EXPECT_TRUE(std::filesystem::exists(dir + "/" + file.get<std::string>())) << file;
    EXPECT_FALSE(file.get<std::string>().ends_with(".so"));
  }
  const json kernels = json::parse(read_file(dir + "/aoti/kernels.json"));
  const json& split_kernels = report["paths"][0]["split"]["kernels"];
  ASSERT_EQ(kernels["kernels"].size(), split_kernels.size());
  const auto line_of = [&](const json& site) {
    std::istringstream in(read_file(dir + "/aoti/" + site["file"].get<std::string>()));
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
      if (n == site["line"].get<std::size_t>()) return line;
    }
    return std::string();
  };
  std::set<std::string> generated;
  for (std::size_t i = 0; i < split_kernels.size(); ++i) {
    const json& k = kernels["kernels"][i];
    EXPECT_EQ(k["name"], split_kernels[i]["name"]);
    EXPECT_DOUBLE_EQ(k["mean_ns"].get<double>(), split_kernels[i]["mean_ns"].get<double>());
    const std::string name = k["name"].get<std::string>();
    const std::string canonical_name = k["canonical"].get<std::string>();
    const std::string stripped = name.substr(name.find("cpp_fused_") == std::string::npos ? 0 : name.find("cpp_fused_"));
    if (k["origin"] == "generated") {
      generated.insert(stripped);
      const std::string definition = line_of(k["defined_at"]);
      EXPECT_NE(definition.find("extern \"C\""), std::string::npos) << definition;
      EXPECT_NE(definition.find(stripped + "("), std::string::npos) << definition;
    }
    if (!k["recorded_at"].is_null()) {
      EXPECT_NE(line_of(k["recorded_at"]).find("\"" + name + "\""), std::string::npos) << name;
    }
    for (const json& call : k["calls"]) EXPECT_NE(line_of(call).find(stripped + "("), std::string::npos) << name;
    if (name == "aoti_torch_cpu_addmm_out") {
      EXPECT_EQ(k["origin"], "extern_call");
      EXPECT_EQ(canonical_name, "aten::addmm");
      EXPECT_EQ(k["calls"].size(), 2u);  // the MLP's two linear layers
    }
  }
  // the tiny MLP's two fused kernels are defined, recorded and called once each
  EXPECT_EQ(generated, (std::set<std::string>{"cpp_fused_mul_1", "cpp_fused_relu_0"}));
  EXPECT_TRUE(kernels["in_code_not_recorded"].empty());
}

TEST_F(RunE2E, ALiveCpuRunsTraceOpensInTheKinetoReaderAndRoundTripsItsSplit) {
  // The live run's split pass written with --export-trace, then read by `ohprof analyze`: the same
  // split, every total and every iteration (docs/reports.md, "Trace").
  const std::string report_path = m_dir + "/run.json";
  const std::string trace_path = m_dir + "/run-trace.json.gz";
  const std::string analysis_path = m_dir + "/analysis.json";
  auto result = run_ohprof({"run", "--aoti", OHPROF_TINY_KP_PACKAGE, "--warmup", "1", "--runs", "6", "--quiet",
                            "--export-json", report_path, "--export-trace", trace_path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  result = run_ohprof({"analyze", trace_path, "--quiet", "--export-json", analysis_path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "") << "the reader warned about ohprof's own trace";
  const json live = json::parse(read_file(report_path))["paths"][0]["split"];
  const json analysis = json::parse(read_file(analysis_path));
  EXPECT_EQ(analysis["context"]["device"]["type"], "cpu");
  const json read = analysis["paths"][0]["split"];
  EXPECT_TRUE(read["summary"]["cpu_kernels"].get<bool>());
  EXPECT_EQ(read["summary"]["totals"], live["summary"]["totals"]);
  ASSERT_EQ(read["iterations"].size(), live["iterations"].size());
  for (std::size_t i = 0; i < live["iterations"].size(); ++i) {
    EXPECT_EQ(read["iterations"][i]["gpu"], live["iterations"][i]["gpu"]) << i;
    EXPECT_EQ(read["iterations"][i]["wall_ns"], live["iterations"][i]["wall_ns"]) << i;
  }
  EXPECT_EQ(read["kernels"], live["kernels"]);
}

TEST_F(RunE2E, PackageWithoutKernelProfilingIsReportedAsNotAttributed) {
  const std::string report_path = m_dir + "/plain.json";
  const auto result = run_ohprof({"run", "--aoti", OHPROF_TINY_PACKAGE, "--warmup", "1", "--runs", "3",
                                  "--quiet", "--export-json", report_path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("were never recorded (it was built without cpp.enable_kernel_profile)"), std::string::npos)
      << result.err;
  const json path = json::parse(read_file(report_path))["paths"][0];
  const json& attribution = path["kernel_attribution"];
  EXPECT_FALSE(attribution["records_kernels"].get<bool>());
  EXPECT_TRUE(attribution["seen"].empty());
  EXPECT_EQ(attribution["unattributed"],
            json::array({"aoti_torch_cpu_addmm_out", "cpp_fused_mul_1", "cpp_fused_relu_0"}));
  expect_split_identities(path["split"]);
}

TEST_F(RunE2E, JsonToStdoutPrintsOnlyJson) {
  const auto result = run_ohprof({"run", "--aoti", OHPROF_TINY_PACKAGE, "--warmup", "0", "--runs", "2",
                                  "--export-json", "-"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json report = json::parse(result.out);  // throws (fails the test) if a table is mixed in
  EXPECT_EQ(report["paths"][0]["samples_ns"].size(), 2u);
}

TEST_F(RunE2E, MatchingInputsAreAccepted) {
  const auto result = run_ohprof({"run", "--aoti", OHPROF_TINY_PACKAGE, "--input", "4x16:float32",
                                  "--warmup", "0", "--runs", "1", "--quiet"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
}

TEST_F(RunE2E, OwnInputsFromAFileRunThePackageOrAreAnInputMismatch) {
  const std::string inputs = m_dir + "/inputs.pt";
  const std::string wrong = m_dir + "/wrong.pt";
  const auto saved = run_program({OHPROF_PYTHON, "-c",
                                  "import sys, torch\n"
                                  "torch.save(torch.randn(4, 16), sys.argv[1])\n"
                                  "torch.save((torch.randn(4, 17),), sys.argv[2])\n",
                                  inputs, wrong});
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  const std::string report_path = m_dir + "/report.json";
  const auto result = run_ohprof({"run", "--aoti", OHPROF_TINY_PACKAGE, "--inputs", inputs, "--warmup", "1", "--runs",
                                  "3", "--quiet", "--export-json", report_path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto report = nlohmann::json::parse(read_file(report_path));
  EXPECT_EQ(report["config"]["inputs"], nlohmann::json::array({"[4, 16]:float32"}));
  EXPECT_EQ(report["config"]["inputs_file"], inputs);
  EXPECT_EQ(report["config"]["inputs_file_digest"].get<std::string>().size(), 16u);  // compare's test recomputes it
  EXPECT_EQ(report["paths"][0]["samples_ns"].size(), 3u);
  const auto mismatch = run_ohprof({"run", "--aoti", OHPROF_TINY_PACKAGE, "--inputs", wrong, "--runs", "1"});
  EXPECT_EQ(mismatch.exit_code, code(ExitCode::input_mismatch)) << mismatch.err;
  EXPECT_NE(mismatch.err.find("the inputs [4, 17]:float32 do not match"), std::string::npos) << mismatch.err;
  EXPECT_EQ(line_count(mismatch.err), 1u) << mismatch.err;
}

TEST_F(RunE2E, WrongInputCountShapeOrDtypeIsAnInputMismatch) {
  const std::vector<std::vector<std::string>> wrong = {
      {"--input", "4,16", "--input", "4,16"},  // count
      {"--input", "4,17"},                      // shape
      {"--input", "4,16,1"},                    // rank
      {"--input", "4,16:float64"},              // dtype
  };
  for (const auto& inputs : wrong) {
    std::vector<std::string> args{"run", "--aoti", OHPROF_TINY_PACKAGE, "--runs", "1"};
    args.insert(args.end(), inputs.begin(), inputs.end());
    const auto result = run_ohprof(args);
    EXPECT_EQ(result.exit_code, code(ExitCode::input_mismatch)) << inputs[1] << ": " << result.err;
    EXPECT_NE(result.err.find("[4, 16]:float32"), std::string::npos) << result.err;
    EXPECT_EQ(line_count(result.err), 1u) << result.err;
  }
}

TEST_F(RunE2E, PackageWithoutRecordedInputsIsCheckedByAotiItself) {
  const std::string package = rewritten_package("plain.pt2", "m.pop('ohprof.inputs')");
  const auto no_inputs = run_ohprof({"run", "--aoti", package, "--runs", "1"});
  EXPECT_EQ(no_inputs.exit_code, code(ExitCode::input_mismatch)) << no_inputs.err;
  EXPECT_NE(no_inputs.err.find("pass one --input"), std::string::npos) << no_inputs.err;

  const auto good = run_ohprof({"run", "--aoti", package, "--input", "4,16", "--runs", "2", "--quiet"});
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_NE(good.err.find("runtime input checks are on"), std::string::npos) << good.err;

  const auto bad_shape = run_ohprof({"run", "--aoti", package, "--input", "4,17", "--runs", "1"});
  EXPECT_EQ(bad_shape.exit_code, code(ExitCode::input_mismatch)) << bad_shape.err;
  EXPECT_NE(bad_shape.err.find("expected: 16, but got: 17"), std::string::npos) << bad_shape.err;
  EXPECT_EQ(line_count(bad_shape.err), 1u) << bad_shape.err;  // AOTI's own stderr print is swallowed

  const auto bad_count = run_ohprof({"run", "--aoti", package, "--input", "4,16", "--input", "2", "--runs", "1"});
  EXPECT_EQ(bad_count.exit_code, code(ExitCode::input_mismatch)) << bad_count.err;
}

TEST_F(RunE2E, CudaPackageWithoutCudaIsDeviceUnavailable) {
  const std::string package = rewritten_package("cuda.pt2", "m['AOTI_DEVICE_KEY'] = 'cuda'");
  const auto result = run_ohprof({"run", "--aoti", package});
  EXPECT_EQ(result.exit_code, code(ExitCode::device_unavailable)) << result.err;
  EXPECT_NE(result.err.find("compiled for CUDA"), std::string::npos) << result.err;
  EXPECT_EQ(line_count(result.err), 1u) << result.err;
}

TEST_F(RunE2E, CpuPackageOnCudaRequestIsDeviceUnavailable) {
  const auto result = run_ohprof({"run", "--aoti", OHPROF_TINY_PACKAGE, "--device", "cuda"});
  EXPECT_EQ(result.exit_code, code(ExitCode::device_unavailable)) << result.err;
  EXPECT_EQ(line_count(result.err), 1u) << result.err;
}

TEST_F(RunE2E, ExportedProgramIsNotAnAotiPackage) {
  const auto result = run_ohprof({"run", "--aoti", OHPROF_TINY_PROGRAM});
  EXPECT_EQ(result.exit_code, code(ExitCode::invalid_package)) << result.err;
  EXPECT_NE(result.err.find("aoti_compile_and_package"), std::string::npos) << result.err;
  EXPECT_EQ(line_count(result.err), 1u) << result.err;
}

// A package linked with a static libstdc++ (Inductor's compiler is g++ plus -static-libstdc++ at every link,
// as a compiler with only a static libstdc++ links): LibTorch does not load it (std::bad_cast), and the one
// line says why, naming the library, and what to do (docs/design/python-extension.md, "One C++ runtime").
// The tiny package of the fixture, linked as usual, loads (every other test here).
TEST_F(RunE2E, APackageWithItsOwnCxxRuntimeIsNamedAsSuch) {
  const std::string compiler = m_dir + "/static-g++";
  {
    std::ofstream script(compiler);
    script << "#!/bin/sh\n"
              "link=1\n"
              "for a in \"$@\"; do case \"$a\" in -c|-E|-S|c++-header) link=0;; esac; done\n"
              "[ $link = 1 ] && exec g++ \"$@\" -static-libstdc++\n"
              "exec g++ \"$@\"\n";
  }
  std::filesystem::permissions(compiler, std::filesystem::perms::owner_all);
  const std::string package = m_dir + "/own-runtime.pt2";
  const auto built = run_program(
      {"/usr/bin/env", "CXX=" + compiler, "TORCHINDUCTOR_CACHE_DIR=" + m_dir + "/inductor", OHPROF_PYTHON, "-c",
       "import sys, torch\n"
       "sys.path.insert(0, sys.argv[2])\n"
       "import tiny_models\n"
       "program = torch.export.export(tiny_models.tiny_mlp().eval(), (torch.randn(4, 16),))\n"
       "torch._inductor.aoti_compile_and_package(program, package_path=sys.argv[1])\n",
       package, OHPROF_SOURCE_DIR "/examples/models"});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  const auto result = run_ohprof({"run", "--aoti", package, "--input", "4,16", "--device", "cpu", "--runs", "3"});
  EXPECT_EQ(result.exit_code, code(ExitCode::invalid_package)) << result.err;
  // ohprof's one error line (LibTorch's runtime writes its own "Error: std::bad_cast" to stderr before it)
  const std::size_t line = result.err.find("ohprof run: error: ");
  ASSERT_NE(line, std::string::npos) << result.err;
  EXPECT_EQ(result.err.find('\n', line), result.err.size() - 1) << result.err;
  EXPECT_NE(result.err.find("LibTorch could not load it: "), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(".wrapper.so needs no libstdc++.so and defines "), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find(" std:: symbols itself: it was linked with a static libstdc++"), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("build the package again with CXX set to a compiler with a shared libstdc++"),
            std::string::npos) << result.err;
}

// Signalled once the report's first checkpoint exists, that is once at least one iteration was measured.
TEST_F(RunE2E, InterruptedRunStillWritesWhatItMeasured) {
  const std::string report_path = m_dir + "/interrupted.json";
  const auto result = testing::run_ohprof_and_interrupt(
      {"run", "--aoti", OHPROF_TINY_PACKAGE, "--warmup", "0", "--runs", "100000000", "--export-json", report_path},
      {"measured iterations", report_path}, 120);
  ASSERT_EQ(result.exit_code, code(ExitCode::interrupted)) << result.err;
  const json report = json::parse(read_file(report_path));
  EXPECT_TRUE(report["interrupted"].get<bool>());
  EXPECT_EQ(report["stop_reason"], "");  // the final report, not a checkpoint
  EXPECT_EQ(report["paths"][0]["stop_reason"], "interrupted");
  EXPECT_GT(report["paths"][0]["samples_ns"].size(), 0u);
  EXPECT_EQ(report["paths"][0]["wall_ns"]["count"], report["paths"][0]["samples_ns"].size());
}

// SIGKILL leaves no chance to write: what is on disk is the last checkpoint, a whole report.
TEST_F(RunE2E, KilledRunLeavesItsLastCheckpoint) {
  const std::string report_path = m_dir + "/killed.json";
  const auto result = testing::run_ohprof_and_interrupt(
      {"run", "--aoti", OHPROF_TINY_PACKAGE, "--warmup", "2", "--runs", "100000000", "--export-json", report_path},
      {"measured iterations", report_path}, 120, SIGKILL);
  ASSERT_EQ(result.exit_code, 128 + SIGKILL) << result.err;
  const json report = json::parse(read_file(report_path));
  EXPECT_EQ(report["stop_reason"], "in progress");
  EXPECT_FALSE(report["interrupted"].get<bool>());
  const json& path = report["paths"][0];
  EXPECT_EQ(path["stop_reason"], "in progress");
  EXPECT_EQ(path["warmup_ns"].size(), 2u);
  ASSERT_GT(path["samples_ns"].size(), 0u);
  EXPECT_EQ(path["wall_ns"]["count"], path["samples_ns"].size());
  EXPECT_EQ(path["split"]["reason"], "the split pass had not finished when this checkpoint was written");
  for (const auto& sample : path["samples_ns"]) EXPECT_GT(sample.get<std::int64_t>(), 0);
}

// Killed in the split pass: the checkpoint written between the passes holds the whole timing pass.
TEST_F(RunE2E, KilledInTheSplitPassLeavesTheWholeTimingPass) {
  const std::string report_path = m_dir + "/killed-in-split.json";
  const auto result = testing::run_ohprof_and_interrupt(
      {"run", "--aoti", OHPROF_TINY_PACKAGE, "--warmup", "1", "--runs", "7", "--split-runs", "100000000",
       "--export-json", report_path},
      {"measuring the device split", report_path}, 120, SIGKILL);
  ASSERT_EQ(result.exit_code, 128 + SIGKILL) << result.err;
  const json report = json::parse(read_file(report_path));
  EXPECT_EQ(report["stop_reason"], "in progress");
  const json& path = report["paths"][0];
  EXPECT_EQ(path["stop_reason"], "runs reached");
  EXPECT_EQ(path["samples_ns"].size(), 7u);
  EXPECT_EQ(path["split"]["reason"], "the split pass had not finished when this checkpoint was written");
}

TEST_F(RunE2E, UnwritableReportIsAnOutputErrorAfterMeasuring) {
  const auto result = run_ohprof({"run", "--aoti", OHPROF_TINY_PACKAGE, "--runs", "1", "--quiet",
                                  "--export-json", m_dir + "/missing-folder/report.json"});
  EXPECT_EQ(result.exit_code, code(ExitCode::output_error)) << result.err;
  EXPECT_NE(result.err.find("missing-folder"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace ohprof
