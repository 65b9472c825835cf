// `ohprof diff` as a user runs it (docs/diff.md, docs/exit-codes.md): the torch-free front, the exit
// codes 0 / 13 / 14 / 2 / 3 with their one-line messages, --export-json, and --threshold's parser. The
// reports are test/data/diff's two real measurements of one compare run (SOURCES.md there) and copies
// of one of them with its samples made 20% slower.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <istream>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"
#include "commands.hpp"
#include "ohprof/trace/gzip_file.hpp"

namespace ohprof {
namespace {

using nlohmann::json;
using testing::code;
using testing::line_count;
using testing::run_ohprof;

const std::string kBase = std::string(OHPROF_SOURCE_DIR) + "/test/data/diff/tiny-mlp-b1.json.gz";
const std::string kRemeasured = std::string(OHPROF_SOURCE_DIR) + "/test/data/diff/tiny-mlp-b1-run2.json.gz";

json read_report(const std::string& path) {
  auto buffer = GzipInputBuffer::open(path);
  EXPECT_TRUE(buffer.ok());
  std::istream in(buffer->get());
  return json::parse(in);
}

// kBase with every sample multiplied by `factor`, written into the test's folder.
std::string scaled_copy(double factor) {
  json report = read_report(kBase);
  for (json& path : report["paths"]) {
    for (json& s : path["samples_ns"]) s = static_cast<std::int64_t>(std::llround(factor * s.get<double>()));
  }
  const std::string path = testing::make_temp_dir("diff-cli") + "/scaled.json";
  std::ofstream(path) << report.dump();
  return path;
}

TEST(DiffThreshold, PercentagesAndFractions) {
  EXPECT_EQ(parse_fraction("5%"), 0.05);
  EXPECT_EQ(parse_fraction("0.05"), 0.05);
  EXPECT_EQ(parse_fraction("0%"), 0.0);
  EXPECT_EQ(parse_fraction("12.5%"), 0.125);
  for (const char* bad : {"", "%", "abc", "5 %", "-5%", "5%%", "0.1x"}) EXPECT_EQ(parse_fraction(bad), std::nullopt) << bad;
}

TEST(DiffCli, TheSameRunReMeasuredExitsZero) {
  const auto result = run_ohprof({"diff", kBase, kRemeasured});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("verdict: no regression: none of 5 judged paths slower beyond 10%"), std::string::npos)
      << result.out;
}

TEST(DiffCli, SamplesMadeTwentyPercentSlowerExitWithTheRegressionCode) {
  const auto result = run_ohprof({"diff", kBase, scaled_copy(1.2)});
  EXPECT_EQ(result.exit_code, code(ExitCode::regression_found)) << result.err;
  EXPECT_EQ(line_count(result.err), 1u) << result.err;
  EXPECT_EQ(result.err.rfind("ohprof diff: error: regression: aoti +20.0% [", 0), 0u) << result.err;
  EXPECT_NE(result.out.find("verdict: REGRESSION: "), std::string::npos) << result.out;
  // a threshold above the change lets it pass
  EXPECT_EQ(run_ohprof({"diff", kBase, scaled_copy(1.2), "--threshold", "25%"}).exit_code, 0);
}

// A compare run with --threads 1,2 and --cold-start (docs/results/cpu-deploy-2026-12-04.md): its deployment
// figures against themselves, and against a copy with fewer calls per second and slower cold starts.
const std::string kDeploy = std::string(OHPROF_SOURCE_DIR) + "/docs/results/cpu-deploy-tiny-mlp-2026-12-04.json.gz";

TEST(DiffCli, DeploymentFiguresAreDiffedByTheirOwnNoiseRules) {
  // The record started 3 processes per state: 3 against 3 is 20 orders, too few to order (40 are needed since
  // 2026-12-06), so each state gets a fourth process, a copy of its first, here.
  const std::string folder = testing::make_temp_dir("diff-cli-deploy");
  json base = read_report(kDeploy);
  for (json& path : base["paths"]) {
    if (!path.contains("cold_start") || path["cold_start"].is_null()) continue;
    for (json& state : path["cold_start"]["states"]) {
      if (state["samples"].empty()) continue;
      json fourth = state["samples"][0];
      fourth["round"] = 3;
      state["samples"].push_back(fourth);
    }
  }
  const std::string base_path = folder + "/base.json";
  std::ofstream(base_path) << base.dump();
  {
    const auto record = run_ohprof({"diff", kDeploy, kDeploy});
    EXPECT_EQ(record.exit_code, 0) << record.err;
    EXPECT_NE(record.out.find("unknown: too few processes to order (--cold-start=4 or more)"), std::string::npos)
        << record.out;
  }
  const auto same = run_ohprof({"diff", base_path, base_path});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(same.out.find("deployment figures, base -> new"), std::string::npos) << same.out;
  EXPECT_NE(same.out.find("calls/s at 2 callers"), std::string::npos) << same.out;
  EXPECT_NE(same.out.find("start (warm cache)"), std::string::npos) << same.out;
  EXPECT_EQ(same.out.find("none cache"), std::string::npos) << same.out;  // aoti and eager have no compile cache: "start"
  // 3 paths' latency, 3 throughputs, and 5 start states (aoti none, compile cold/warm/artifacts, eager none)
  EXPECT_NE(same.out.find("verdict: no regression: none of 11 judged (3 paths, 8 deployment figures) slower beyond 10%"),
            std::string::npos) << same.out;

  json edited = base;
  for (json& path : edited["paths"]) {
    if (path["name"] == "aoti") path["concurrency"]["points"].back()["calls_per_s"] = 0.7 * path["concurrency"]["points"].back()["calls_per_s"].get<double>();
    if (path["name"] != "compile") continue;
    for (json& state : path["cold_start"]["states"]) {
      if (state["cache"] != "cold") continue;
      for (json& sample : state["samples"]) sample["total_ns"] = 2 * sample["total_ns"].get<std::int64_t>();
    }
  }
  std::ofstream(folder + "/slower.json") << edited.dump();
  const auto slower = run_ohprof({"diff", base_path, folder + "/slower.json", "--export-json", folder + "/diff.json"});
  EXPECT_EQ(slower.exit_code, code(ExitCode::regression_found)) << slower.err;
  EXPECT_EQ(line_count(slower.err), 1u) << slower.err;
  EXPECT_NE(slower.err.find("aoti calls/s at 2 callers -30.0% (66.5k -> 46.5k)"), std::string::npos) << slower.err;
  EXPECT_NE(slower.err.find("compile start (cold cache) +100.0%"), std::string::npos) << slower.err;
  const json diff = json::parse(std::ifstream(folder + "/diff.json"));
  ASSERT_EQ(diff["deployment"].size(), 8u) << diff["deployment"].dump();
  const json& aoti = diff["deployment"][0];
  EXPECT_EQ(aoti["path"], "aoti");
  EXPECT_EQ(aoti["measure"], "throughput");
  EXPECT_EQ(aoti["threads"], 2);
  EXPECT_NEAR(aoti["ratio"].get<double>(), 0.7, 1e-9);
  EXPECT_EQ(aoti["verdict"], "slower");
  EXPECT_EQ(aoti["base_count"], 9);
  const json& cold = diff["deployment"][3];
  EXPECT_EQ(cold["path"], "compile");
  EXPECT_EQ(cold["cache"], "cold");
  EXPECT_NEAR(cold["ratio"].get<double>(), 2.0, 1e-9);
  EXPECT_EQ(cold["verdict"], "slower");
  EXPECT_EQ(diff["outcome"], "regression");
}

// A compare run whose fresh processes read their memory (docs/results/cpu-deploy-2026-12-07.md, 4 processes per
// state): each state's fresh peak is diffed beside its start, against itself and against a copy whose cold compile
// processes peaked 25% higher and whose aoti processes 20% lower.
const std::string kDeployPeaks = std::string(OHPROF_SOURCE_DIR) + "/docs/results/cpu-deploy-tiny-mlp-2026-12-07.json.gz";

TEST(DiffCli, FreshPeaksAreDiffedByTheRankRuleAndALargerOneIsARegression) {
  const auto same = run_ohprof({"diff", kDeployPeaks, kDeployPeaks});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(same.out.find("  compile fresh peak (cold cache)      809 MB   809 MB   +0.0%  4/4        no significant change\n"),
            std::string::npos) << same.out;
  // 3 paths' latency, 3 throughputs, 5 start states and their 5 peaks
  EXPECT_NE(same.out.find("verdict: no regression: none of 16 judged (3 paths, 13 deployment figures) slower or larger "
                          "beyond 10%"),
            std::string::npos) << same.out;

  const std::string folder = testing::make_temp_dir("diff-cli-peaks");
  json edited = read_report(kDeployPeaks);
  for (json& path : edited["paths"]) {
    if (!path.contains("cold_start") || path["cold_start"].is_null()) continue;
    for (json& state : path["cold_start"]["states"]) {
      const double scale = path["name"] == "aoti" ? 0.8 : path["name"] == "compile" && state["cache"] == "cold" ? 1.25 : 1;
      for (json& sample : state["samples"]) {
        sample["peak_rss_bytes"] = std::llround(scale * sample["peak_rss_bytes"].get<double>());
      }
    }
  }
  std::ofstream(folder + "/larger.json") << edited.dump();
  const auto larger = run_ohprof({"diff", kDeployPeaks, folder + "/larger.json", "--export-json", folder + "/diff.json"});
  EXPECT_EQ(larger.exit_code, code(ExitCode::regression_found)) << larger.err;
  EXPECT_EQ(line_count(larger.err), 1u) << larger.err;
  EXPECT_NE(larger.err.find("regression: compile fresh peak (cold cache) +25.0% (809 MB -> 1.01 GB) larger than the base"),
            std::string::npos) << larger.err;
  EXPECT_NE(larger.out.find("verdict: REGRESSION: compile fresh peak (cold cache) +25.0% (809 MB -> 1.01 GB) larger beyond "
                            "10% (1 of 16 judged: 3 paths, 13 deployment figures)\n"),
            std::string::npos) << larger.out;
  EXPECT_NE(larger.out.find("  aoti    fresh peak                   542 MB   434 MB   -20.0% 4/4        smaller\n"),
            std::string::npos) << larger.out;
  const json diff = json::parse(std::ifstream(folder + "/diff.json"));
  ASSERT_EQ(diff["deployment"].size(), 13u) << diff["deployment"].dump();
  const json& aoti = diff["deployment"][2];  // aoti: throughput, start, then its peak
  EXPECT_EQ(aoti["measure"], "fresh_peak");
  EXPECT_EQ(aoti["cache"], "none");
  EXPECT_EQ(aoti["verdict"], "smaller");
  EXPECT_EQ(aoti["base_count"], 4);
  const json& cold = diff["deployment"][5];  // compile: throughput, cold start, cold peak
  EXPECT_EQ(cold["measure"], "fresh_peak");
  EXPECT_EQ(cold["cache"], "cold");
  EXPECT_NEAR(cold["ratio"].get<double>(), 1.25, 1e-6);
  EXPECT_EQ(cold["verdict"], "larger");
  EXPECT_EQ(diff["deployment"][7]["verdict"], "no_change");  // the warm peak did not move
  EXPECT_EQ(diff["outcome"], "regression");
}

// The same code measured twice on 2026-12-07, 2 h 40 min apart (docs/results/cpu-deploy-diff-2026-12-07.md): every
// start grew beyond 10% (import torch, on this VM), no fresh peak moved by 1%.
TEST(DiffCli, TwoRunsOfTheSameCodeMoveTheirStartsNotTheirPeaks) {
  const std::string folder = testing::make_temp_dir("diff-cli-rerun");
  const auto result = run_ohprof({"diff", kDeployPeaks,
                                  std::string(OHPROF_SOURCE_DIR) + "/docs/results/cpu-deploy-tiny-mlp-2026-12-07-rerun.json.gz",
                                  "--export-json", folder + "/diff.json"});
  EXPECT_EQ(result.exit_code, code(ExitCode::regression_found)) << result.err;
  EXPECT_NE(result.out.find("(5 of 16 judged: 3 paths, 13 deployment figures)"), std::string::npos) << result.out;
  const json diff = json::parse(std::ifstream(folder + "/diff.json"));
  std::size_t peaks = 0;
  for (const json& d : diff["deployment"]) {
    if (d["measure"] == "start") EXPECT_EQ(d["verdict"], "slower") << d.dump();
    if (d["measure"] != "fresh_peak") continue;
    ++peaks;
    EXPECT_EQ(d["verdict"], "no_change") << d.dump();
    EXPECT_LT(std::abs(d["ratio"].get<double>() - 1), 0.01) << d.dump();
  }
  EXPECT_EQ(peaks, 5u);
}

TEST(DiffCli, ReportsOfAnotherModelExitWithTheIncomparableCode) {
  json other = read_report(kRemeasured);
  other["artifacts"]["model"] = "my_models:big_mlp";
  const std::string path = testing::make_temp_dir("diff-cli") + "/other.json";
  std::ofstream(path) << other.dump();
  const auto result = run_ohprof({"diff", kBase, path});
  EXPECT_EQ(result.exit_code, code(ExitCode::incomparable_reports)) << result.err;
  EXPECT_EQ(result.err,
            "ohprof diff: error: the reports cannot be compared: model is 'tiny_models:tiny_mlp' in the base and "
            "'my_models:big_mlp' in the new report; diff reports of the same kind, model, inputs and device "
            "(--force diffs them anyway)\n");
  EXPECT_EQ(run_ohprof({"diff", kBase, path, "--force"}).exit_code, 0);
}

TEST(DiffCli, BadInputIsOneLineWithItsCode) {
  auto result = run_ohprof({"diff", kBase, "/nonexistent/new.json"});
  EXPECT_EQ(result.exit_code, code(ExitCode::file_not_found));
  EXPECT_EQ(result.err, "ohprof diff: error: cannot read report '/nonexistent/new.json'; check the path\n");
  result = run_ohprof({"diff", kBase, kRemeasured, "--threshold", "ten"});
  EXPECT_EQ(result.exit_code, code(ExitCode::usage_error));
  EXPECT_EQ(result.err, "ohprof diff: error: --threshold 'ten': give a percentage (5%) or a fraction (0.05)\n");
  result = run_ohprof({"diff", kBase});
  EXPECT_EQ(result.exit_code, code(ExitCode::usage_error));
  EXPECT_EQ(line_count(result.err), 1u) << result.err;
  const std::string not_a_report = std::string(OHPROF_SOURCE_DIR) + "/test/data/diff/SOURCES.md";
  result = run_ohprof({"diff", not_a_report, kBase});
  EXPECT_EQ(result.exit_code, code(ExitCode::usage_error));
  EXPECT_EQ(result.err.rfind("ohprof diff: error: '" + not_a_report + "' is not an ohprof report (not JSON: ", 0), 0u)
      << result.err;
}

TEST(DiffCli, ExportJsonWritesTheDiffAndDashPutsItOnStdoutAlone) {
  const std::string path = testing::make_temp_dir("diff-cli") + "/diff.json";
  auto result = run_ohprof({"diff", kBase, scaled_copy(1.2), "--export-json", path, "--quiet"});
  EXPECT_EQ(result.exit_code, code(ExitCode::regression_found));
  EXPECT_EQ(result.out, "");
  const json diff = json::parse(testing::read_file(path));
  EXPECT_EQ(diff["kind"], "diff");
  EXPECT_EQ(diff["outcome"], "regression");
  EXPECT_EQ(diff["paths"].size(), 5u);
  result = run_ohprof({"diff", kBase, kRemeasured, "--export-json", "-"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(json::parse(result.out)["outcome"], "no_regression");
}

}  // namespace
}  // namespace ohprof
