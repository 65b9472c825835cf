// `ohprof diff` as a user runs it (docs/diff.md, docs/exit-codes.md): the torch-free front, the exit
// codes 0 / 13 / 14 / 2 / 3 with their one-line messages, --export-json, and --threshold's parser. The
// reports are test/data/diff's two real measurements of one compare run (SOURCES.md there) and copies
// of one of them with its samples made 20% slower.
#include <gtest/gtest.h>

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
