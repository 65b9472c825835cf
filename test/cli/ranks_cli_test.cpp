// `ohprof analyze TRACE...` and `ohprof merge` as a user runs them (docs/ranks.md, docs/exit-codes.md):
// the exit codes with their one-line messages, the flags that only one mode takes, and a merge of the
// parts' report files equal to the whole job's, through the real binary.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace ohprof {
namespace {

using nlohmann::json;
using testing::code;
using testing::line_count;
using testing::run_ohprof;

const std::string kTraces = std::string(OHPROF_SOURCE_DIR) + "/test/data/traces";
std::string rank_trace(int r) { return kTraces + "/sampled_rank-" + std::to_string(r) + ".json.gz"; }

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

TEST(RanksCli, TheMergeOfEachRanksReportIsTheJobsReport) {
  const std::string dir = testing::make_temp_dir("ranks-cli");
  for (int r : {0, 1}) {
    const auto out = run_ohprof({"analyze", "--ranks", rank_trace(r), "--quiet", "--export-json",
                                 dir + "/part" + std::to_string(r) + ".json"});
    ASSERT_EQ(out.exit_code, 0) << out.err;
  }
  const auto merged = run_ohprof({"merge", dir + "/part0.json", dir + "/part1.json", "--export-json", dir + "/merged.json"});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_NE(merged.out.find("job: 2 ranks of a job of 128 (nccl), 2 traces"), std::string::npos) << merged.out;
  const auto whole = run_ohprof({"analyze", rank_trace(0), rank_trace(1), "--quiet", "--export-json", dir + "/whole.json"});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  json a = read_json(dir + "/merged.json");
  json b = read_json(dir + "/whole.json");
  a.erase("context");
  b.erase("context");
  EXPECT_EQ(a, b);
}

TEST(RanksCli, EachRankPrintsEveryRanksOwnTableFirst) {
  const auto out = run_ohprof({"analyze", rank_trace(1), rank_trace(0), "--each-rank"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const auto first = out.out.find("path sampled_rank-0");
  const auto second = out.out.find("path sampled_rank-1");
  const auto job = out.out.find("job: 2 ranks");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(second, std::string::npos);
  ASSERT_NE(job, std::string::npos);
  EXPECT_LT(first, second);
  EXPECT_LT(second, job);
  EXPECT_EQ(run_ohprof({"analyze", rank_trace(0), rank_trace(1), "--each-rank", "--quiet"}).out, "");
}

TEST(RanksCli, SomeTracesFailingIsExit15WithOneLine) {
  const auto out = run_ohprof({"analyze", rank_trace(0), kTraces + "/SOURCES.md", "--quiet"});
  EXPECT_EQ(out.exit_code, code(ExitCode::traces_failed)) << out.err;
  EXPECT_NE(out.err.find("error: 1 of 2 traces could not be analysed"), std::string::npos) << out.err;
}

TEST(RanksCli, FlagsOfTheOtherModeAreUsageErrors) {
  const auto trace_export = run_ohprof({"analyze", rank_trace(0), rank_trace(1), "--export-trace", "x.json"});
  EXPECT_EQ(trace_export.exit_code, code(ExitCode::usage_error));
  EXPECT_NE(trace_export.err.find("--export-trace works on one trace"), std::string::npos) << trace_export.err;
  EXPECT_EQ(line_count(trace_export.err), 1u);
  const auto jobs = run_ohprof({"analyze", rank_trace(0), "--jobs", "2"});
  EXPECT_EQ(jobs.exit_code, code(ExitCode::usage_error));
  EXPECT_NE(jobs.err.find("--jobs is for the ranks of a job"), std::string::npos) << jobs.err;
  const auto zero = run_ohprof({"analyze", rank_trace(0), rank_trace(1), "--jobs", "0"});
  EXPECT_EQ(zero.exit_code, code(ExitCode::usage_error));
}

TEST(RanksCli, MergeErrorsAreOneLineWithTheirCodes) {
  const auto missing = run_ohprof({"merge", "/nonexistent/part.json"});
  EXPECT_EQ(missing.exit_code, code(ExitCode::file_not_found));
  EXPECT_EQ(line_count(missing.err), 1u);
  const auto compare = run_ohprof({"merge", std::string(OHPROF_SOURCE_DIR) + "/test/data/diff/tiny-mlp-b1.json.gz"});
  EXPECT_EQ(compare.exit_code, code(ExitCode::usage_error));
  EXPECT_NE(compare.err.find("its kind is \"compare\""), std::string::npos) << compare.err;
  const auto none = run_ohprof({"merge"});
  EXPECT_EQ(none.exit_code, code(ExitCode::usage_error));
}

}  // namespace
}  // namespace ohprof
