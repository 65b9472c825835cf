// End to end: `ohprof sweep` on the tiny CPU MLP, through the real binary: the report, each point's
// compare report and the page; the independent reference recomputing the report's numbers; a shape
// the model rejects; Ctrl-C and --resume.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

#include "cli_harness.hpp"
#include "ohprof/base/exit_codes.hpp"

namespace ohprof {
namespace {

using nlohmann::json;
using testing::code;
using testing::make_temp_dir;
using testing::read_file;
using testing::run_ohprof;
namespace fs = std::filesystem;

class SweepE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_cache = make_temp_dir("sweep-cache");
    ::setenv("PYTHONPATH", OHPROF_SOURCE_DIR "/examples/models", 1);  // tiny_models for --model
  }
  static void TearDownTestSuite() { fs::remove_all(s_cache); }
  void SetUp() override { m_dir = make_temp_dir("sweep"); }
  void TearDown() override { fs::remove_all(m_dir); }
  // A quick sweep of the tiny MLP: few fixed iterations (these tests check behaviour, not speed).
  std::vector<std::string> sweep(std::vector<std::string> extra) const {
    std::vector<std::string> args{"sweep", "--model", "tiny_models:tiny_mlp", "--input", "1,16", "--device", "cpu",
                                  "--paths", "aoti,compile", "--warmup", "1", "--min-runs", "20", "--max-runs", "20",
                                  "--min-time", "0", "--cache-dir", s_cache};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  static std::string s_cache;
  std::string m_dir;
};
std::string SweepE2E::s_cache;

TEST_F(SweepE2E, WritesTheReportEachPointsCompareReportAndThePage) {
  const std::string report_path = m_dir + "/s.json";
  const auto result = run_ohprof(sweep({"--batch", "1,4,16", "--export-json", report_path}));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("latency per call (median ± se)"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("fit: time = c + k × batch"), std::string::npos) << result.out;
  EXPECT_NE(result.err.find("[batch 4: point 2 of 3, "), std::string::npos) << result.err;
  const json report = json::parse(read_file(report_path));
  EXPECT_EQ(report["kind"], "sweep");
  ASSERT_EQ(report["points"].size(), 3u);
  for (const auto& point : report["points"]) {
    EXPECT_EQ(point["status"], "measured") << point["reason"];
    const json compare = json::parse(read_file(m_dir + "/" + point["report"].get<std::string>()));
    EXPECT_EQ(compare["kind"], "compare");
    EXPECT_EQ(compare["config"]["inputs"][0], point["inputs"][0]);
    EXPECT_EQ(compare["paths"][0]["wall_ns"]["median"], point["paths"][0]["wall_ns"]["median"]);
  }
  EXPECT_EQ(report["points"][2]["inputs"][0], "[16, 16]:float32");
  EXPECT_EQ(report["analysis"]["fits"].size(), 2u);
  // The page, beside the report.
  const std::string page = read_file(m_dir + "/s.html");
  EXPECT_NE(page.find("ohprof-latency-aoti"), std::string::npos);
  EXPECT_NE(page.find("ohprof-ratio-compile"), std::string::npos);
  // The independent reference recomputes every derived number of the real report.
  const auto reference = testing::run_program(
      {"python3", OHPROF_SOURCE_DIR "/test/tools/sweep_reference.py", "--check", report_path});
  EXPECT_EQ(reference.exit_code, 0) << reference.out << reference.err;
}

TEST_F(SweepE2E, AShapeTheModelRejectsFailsThatPointAndTheSweepGoesOn) {
  // The MLP's first layer takes 16 features: [1, 17] is rejected, [1, 16] runs.
  const std::string report_path = m_dir + "/dim.json";
  const auto result = run_ohprof(sweep({"--dim", "0:1=16,17", "--export-json", report_path, "--no-plot", "--quiet"}));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("input0.dim1 17 failed: "), std::string::npos) << result.err;
  const json report = json::parse(read_file(report_path));
  EXPECT_EQ(report["config"]["axis"]["name"], "input0.dim1");
  EXPECT_EQ(report["points"][0]["status"], "measured");
  EXPECT_EQ(report["points"][1]["status"], "failed");
  EXPECT_NE(report["points"][1]["exit_code"], 0);
  EXPECT_FALSE(report["points"][1]["reason"].get<std::string>().empty());
  EXPECT_EQ(report["points"][1]["reason"].get<std::string>().find('\n'), std::string::npos);
  EXPECT_FALSE(fs::exists(m_dir + "/dim.html"));
}

TEST_F(SweepE2E, BatchLeavesAZeroDimensionalInputAsItIs) {
  // f(x, scale) with scale a scalar: --batch sets x's first dimension and passes scale as it is, through the
  // AOTI package (which records "[]:float32") and eager.
  const std::string report_path = m_dir + "/scalar.json";
  std::vector<std::string> args{"sweep", "--model", "tiny_models:two_inputs", "--input", "1,16", "--input", "[]:float32",
                                "--device", "cpu", "--paths", "aoti,eager", "--warmup", "1", "--min-runs", "20",
                                "--max-runs", "20", "--min-time", "0", "--cache-dir", s_cache,
                                "--batch", "1,2", "--export-json", report_path, "--no-plot", "--quiet"};
  const auto result = run_ohprof(args);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json report = json::parse(read_file(report_path));
  ASSERT_EQ(report["points"].size(), 2u);
  for (const auto& point : report["points"]) EXPECT_EQ(point["status"], "measured") << point["reason"];
  EXPECT_EQ(report["points"][1]["inputs"][0], "[2, 16]:float32");
  EXPECT_EQ(report["points"][1]["inputs"][1], "[]:float32");
}

// sweep --inputs: the user's x and a keyword scale of 3 rows, resized at each batch by repeating the rows
// (docs/sweep.md, "Your own inputs"); the package is built at each point's shape, the outputs match eager's.
TEST_F(SweepE2E, TheUsersInputsFileIsResizedAtEachBatch) {
  const std::string inputs = m_dir + "/inputs.pt";
  ASSERT_EQ(testing::run_program({OHPROF_PYTHON, "-c",
                                  "import sys, torch; torch.save(((torch.randn(3, 16),), {'scale': torch.rand(3, 1)}), "
                                  "sys.argv[1])",
                                  inputs})
                .exit_code,
            0);
  const std::string report_path = m_dir + "/mine.json";
  std::vector<std::string> args{"sweep", "--model", "tiny_models:two_inputs", "--inputs", inputs, "--device", "cpu",
                                "--paths", "aoti,eager", "--warmup", "1", "--min-runs", "20", "--max-runs", "20",
                                "--min-time", "0", "--cache-dir", s_cache, "--check-outputs", "strict",
                                "--batch", "2,5", "--export-json", report_path, "--no-plot"};
  const auto result = run_ohprof(args);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("inputs: yours, from " + inputs + " ([3, 16]:float32, [3, 1]:float32)"), std::string::npos)
      << result.out;
  const json report = json::parse(read_file(report_path));
  EXPECT_EQ(report["config"]["inputs_file"], inputs);
  EXPECT_EQ(report["config"]["inputs"], json({"[3, 16]:float32", "[3, 1]:float32"}));
  ASSERT_EQ(report["points"].size(), 2u);
  for (const auto& point : report["points"]) {
    EXPECT_EQ(point["status"], "measured") << point["reason"];
    const json compare = json::parse(read_file(m_dir + "/" + point["report"].get<std::string>()));
    EXPECT_EQ(compare["config"]["inputs"], point["inputs"]);
    for (const auto& path : compare["paths"]) {
      if (path["name"] != "eager") EXPECT_TRUE(path["output_check"]["passed"].get<bool>()) << path["name"];
    }
  }
  EXPECT_EQ(report["points"][1]["inputs"], json({"[5, 16]:float32", "[5, 1]:float32"}));
  // --input and --inputs together, and a missing file, are refused before anything is measured
  std::vector<std::string> both = args;
  both.insert(both.begin() + 3, {"--input", "1,16"});
  EXPECT_EQ(run_ohprof(both).exit_code, code(ExitCode::usage_error));
  std::vector<std::string> missing = args;
  missing[4] = m_dir + "/nope.pt";
  const auto absent = run_ohprof(missing);
  EXPECT_EQ(absent.exit_code, code(ExitCode::file_not_found)) << absent.err;
  EXPECT_NE(absent.err.find("--inputs file '" + m_dir + "/nope.pt' does not exist"), std::string::npos) << absent.err;
}

TEST_F(SweepE2E, NoValidPointIsExitTwelve) {
  const std::string report_path = m_dir + "/none.json";
  const auto result = run_ohprof(sweep({"--dim", "0:1=15,17", "--export-json", report_path, "--quiet"}));
  EXPECT_EQ(result.exit_code, code(ExitCode::no_valid_point)) << result.err;
  EXPECT_NE(result.err.find("ohprof sweep: error: no point of the sweep could be measured; input0.dim1 15: "),
            std::string::npos)
      << result.err;
  EXPECT_EQ(json::parse(read_file(report_path))["points"].size(), 2u);
}

TEST_F(SweepE2E, CtrlCKeepsTheFinishedPointsAndResumeMeasuresOnlyTheRest) {
  const std::string report_path = m_dir + "/r.json";
  const auto interrupted = testing::run_ohprof_and_interrupt(
      sweep({"--batch", "1,2,4", "--export-json", report_path, "--no-plot"}),
      {"[batch 2: point 2 of 3", report_path}, 300);
  ASSERT_EQ(interrupted.exit_code, code(ExitCode::interrupted)) << interrupted.err;
  const json before = json::parse(read_file(report_path));
  EXPECT_EQ(before["stop"], "interrupted");
  EXPECT_EQ(before["points"][0]["status"], "measured");
  EXPECT_EQ(before["points"][1]["status"], "interrupted");
  EXPECT_EQ(before["points"][2]["status"], "not_measured");

  const auto resumed = run_ohprof(sweep({"--batch", "1,2,4", "--export-json", report_path, "--no-plot", "--resume"}));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("--resume: 1 of 3 points already measured"), std::string::npos) << resumed.err;
  EXPECT_EQ(resumed.err.find("[batch 1:"), std::string::npos) << resumed.err;  // batch 1 not measured again
  const json after = json::parse(read_file(report_path));
  EXPECT_EQ(after["stop"], "complete");
  for (const auto& point : after["points"]) EXPECT_EQ(point["status"], "measured");
  EXPECT_EQ(after["points"][0]["paths"], before["points"][0]["paths"]);  // kept as it was
}

}  // namespace
}  // namespace ohprof
