// analyze_traces and merge_report_files (`ohprof analyze TRACE...`, `ohprof merge`; docs/ranks.md) on the
// real pair of rank traces of test/data/traces: the inputs (files, directories, globs, each once), the
// workers (any number gives the same report), traces that fail, two traces of one rank, the rank reports,
// and the merge of parts, in any grouping, giving the report of the whole. The view's numbers are checked
// against the independent reference test/tools/ranks_reference.py (CTest ranks_reference_matches_the_binary).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <istream>

#include <nlohmann/json.hpp>

#include "fake_runtime.hpp"
#include "ohprof/base/interrupt.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/output/ranks_report.hpp"
#include "ohprof/session/session.hpp"
#include "ohprof/trace/gzip_file.hpp"

namespace ohprof {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string traces_dir() { return OHPROF_TRACES_DIR; }
std::string rank_trace(int r) { return traces_dir() + "/sampled_rank-" + std::to_string(r) + ".json.gz"; }

RanksOutcome analyze(std::vector<std::string> inputs, int jobs = 2, std::int64_t first_position = 0,
                     const std::string& rank_reports = "", bool each_rank = false) {
  return analyze_traces(
      AnalyzeRanksOptions{std::move(inputs), jobs, first_position, rank_reports, each_rank, {"ohprof", "analyze"}});
}

// The report's JSON without its context (argv, date, host differ between runs).
json without_context(const RanksReport& report) {
  json j = ranks_report_to_json(report);
  j.erase("context");
  return j;
}

std::string write_json(const std::string& dir, const std::string& name, const json& j) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << j.dump(2);
  return path;
}

TEST(AnalyzeTraces, TheRealPairGivesTwoRanksAndTwoSteps) {
  const RanksOutcome out = analyze({rank_trace(0), rank_trace(1)});
  ASSERT_TRUE(out.status.ok()) << out.status.error().message;
  ASSERT_TRUE(out.report);
  const RanksReport& r = *out.report;
  ASSERT_EQ(r.ranks.size(), 2u);
  EXPECT_EQ(r.ranks[0].rank, 0);
  EXPECT_EQ(r.ranks[1].rank, 1);
  EXPECT_EQ(r.ranks[1].world_size, 128);
  EXPECT_EQ(r.ranks[0].rank_from, RankSource::distributed_info);
  ASSERT_EQ(r.view.steps.size(), 2u);
  EXPECT_EQ(r.view.steps[0].step, 551);
  EXPECT_EQ(r.view.steps[0].collectives_matched, 5u);
  EXPECT_EQ(r.view.steps[0].collectives_unmatched, 0u);
  ASSERT_TRUE(r.view.steps[0].straggler);
  EXPECT_EQ(r.view.steps[0].straggler->rank, 1);
  EXPECT_TRUE(r.failed.empty());
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.context.device.type, DeviceKind::cuda);
}

// Eight traces of eight ranks (copies of the pair with distributedInfo.rank rewritten): one worker, two
// and eight give the same report, in any input order.
TEST(AnalyzeTraces, AnyNumberOfWorkersGivesTheSameReport) {
  const std::string dir = fake::make_temp_dir("ranks-workers");
  std::vector<std::string> traces;
  for (int r = 0; r < 8; ++r) {
    auto buffer = GzipInputBuffer::open(rank_trace(r % 2));
    ASSERT_TRUE(buffer.ok());
    std::istream in(buffer->get());
    json trace = json::parse(in);
    trace["distributedInfo"]["rank"] = r;
    traces.push_back(dir + "/rank" + std::to_string(r) + ".json");
    std::ofstream(traces.back()) << trace.dump();
  }
  const RanksOutcome one = analyze(traces, 1);
  ASSERT_TRUE(one.status.ok()) << one.status.error().message;
  EXPECT_EQ(one.report->ranks.size(), 8u);
  std::vector<std::string> reversed(traces.rbegin(), traces.rend());
  EXPECT_EQ(without_context(*analyze(reversed, 2).report), without_context(*one.report));
  EXPECT_EQ(without_context(*analyze(traces, 8).report), without_context(*one.report));
}

TEST(AnalyzeTraces, ADirectoryAndAGlobNameTheirTracesOnceEach) {
  const std::string dir = fake::make_temp_dir("ranks-dir");
  for (int r : {0, 1}) fs::copy_file(rank_trace(r), dir + "/rank" + std::to_string(r) + ".json.gz");
  std::ofstream(dir + "/notes.txt") << "not a trace";
  fs::create_directory(dir + "/sub");
  auto listed = expand_trace_inputs({dir});
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(*listed, (std::vector<std::string>{dir + "/rank0.json.gz", dir + "/rank1.json.gz"}));
  auto globbed = expand_trace_inputs({dir + "/rank*.json.gz", dir + "/rank0.json.gz", dir});
  ASSERT_TRUE(globbed.ok());
  EXPECT_EQ(*globbed, *listed);  // each file once, in the order first named
  EXPECT_FALSE(names_one_trace({dir}));
  EXPECT_FALSE(names_one_trace({dir + "/rank*.json.gz"}));
  EXPECT_TRUE(names_one_trace({dir + "/rank0.json.gz"}));
  EXPECT_TRUE(names_one_trace({dir + "/missing.json"}));  // fails as a missing trace, not as a pattern
  const RanksOutcome out = analyze({dir});
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(out.report->ranks.size(), 2u);

  auto no_match = expand_trace_inputs({dir + "/*.nothing"});
  ASSERT_FALSE(no_match.ok());
  EXPECT_EQ(no_match.error().code, ExitCode::usage_error);
  EXPECT_NE(no_match.error().message.find("matches no file"), std::string::npos);
  auto empty = expand_trace_inputs({dir + "/sub"});
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("has no trace"), std::string::npos);
}

TEST(AnalyzeTraces, ATraceThatFailsIsListedAndTheOthersAreAnalysed) {
  const std::string dir = fake::make_temp_dir("ranks-fail");
  const std::string truncated = dir + "/truncated.json";
  std::ofstream(truncated) << R"({"traceEvents": [{"ph": "X")";
  const RanksOutcome out = analyze({rank_trace(0), truncated, dir + "/missing.json", rank_trace(1)});
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.error().code, ExitCode::traces_failed);
  EXPECT_NE(out.status.error().message.find("2 of 4 traces could not be analysed"), std::string::npos)
      << out.status.error().message;
  ASSERT_TRUE(out.report);
  EXPECT_EQ(out.report->ranks.size(), 2u);
  ASSERT_EQ(out.report->failed.size(), 2u);
  EXPECT_EQ(out.report->failed[0].trace, truncated);
  EXPECT_EQ(out.report->failed[0].code, ExitCode::invalid_trace);
  EXPECT_EQ(out.report->failed[1].code, ExitCode::file_not_found);
  EXPECT_EQ(out.report->warnings.at(0).code, WarningCode::trace_failed);
}

TEST(AnalyzeTraces, TwoTracesOfOneRankAreAnErrorNamingBoth) {
  const std::string dir = fake::make_temp_dir("ranks-dup");
  fs::copy_file(rank_trace(0), dir + "/copy.json.gz");
  const RanksOutcome out = analyze({rank_trace(0), dir + "/copy.json.gz"});
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.error().code, ExitCode::usage_error);
  EXPECT_FALSE(out.report);
  const std::string& message = out.status.error().message;
  EXPECT_NE(message.find(rank_trace(0)), std::string::npos) << message;
  EXPECT_NE(message.find(dir + "/copy.json.gz"), std::string::npos) << message;
  EXPECT_NE(message.find("are both rank 0"), std::string::npos) << message;
}

// A trace without distributedInfo.rank gets its position plus --first-position (triton_example and
// rocm_mi250_minitoy have no distributedInfo).
TEST(AnalyzeTraces, ATraceWithoutARankIsRankedByItsPosition) {
  const RanksOutcome out = analyze({traces_dir() + "/triton_example.json.gz", traces_dir() + "/rocm_mi250_minitoy.json.gz"},
                                   2, 10);
  ASSERT_TRUE(out.status.ok()) << out.status.error().message;
  ASSERT_EQ(out.report->ranks.size(), 2u);
  EXPECT_EQ(out.report->ranks[0].rank, 10);
  EXPECT_EQ(out.report->ranks[1].rank, 11);
  EXPECT_EQ(out.report->ranks[1].rank_from, RankSource::position);
  EXPECT_EQ(out.report->warnings.at(0).code, WarningCode::rank_from_position);
  EXPECT_FALSE(out.report->world_size);  // neither trace says
  EXPECT_FALSE(out.report->backend);
  EXPECT_TRUE(ranks_report_to_json(*out.report).at("job").at("world_size").is_null());
}

TEST(AnalyzeTraces, RankReportsAreEachRanksOneTraceReport) {
  const std::string dir = fake::make_temp_dir("ranks-reports") + "/per-rank";
  const RanksOutcome out = analyze({rank_trace(0), rank_trace(1)}, 2, 0, dir);
  ASSERT_TRUE(out.status.ok());
  for (int r : {0, 1}) {
    std::ifstream in(dir + "/rank-" + std::to_string(r) + ".json");
    ASSERT_TRUE(in) << r;
    const json report = json::parse(in);
    EXPECT_EQ(report.at("kind"), "analyze");
    EXPECT_EQ(report.at("trace").at("distributed").at("rank"), r);
  }
}

TEST(AnalyzeTraces, EachRanksTableIsKeptOnlyWhenAskedForInRankOrder) {
  EXPECT_TRUE(analyze({rank_trace(1), rank_trace(0)}).rank_tables.empty());
  const RanksOutcome out = analyze({rank_trace(1), rank_trace(0)}, 2, 0, "", true);
  ASSERT_EQ(out.rank_tables.size(), 2u);
  EXPECT_NE(out.rank_tables[0].find("path sampled_rank-0"), std::string::npos);
  EXPECT_NE(out.rank_tables[1].find("path sampled_rank-1"), std::string::npos);
}

TEST(AnalyzeTraces, AfterCtrlCNoNewTraceIsStartedAndTheReportSaysSo) {
  request_interrupt();
  const RanksOutcome out = analyze({rank_trace(0), rank_trace(1)});
  clear_interrupt();
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.error().code, ExitCode::interrupted);
  ASSERT_TRUE(out.report);
  EXPECT_TRUE(out.report->interrupted);
  EXPECT_TRUE(out.report->ranks.empty());
}

// The merge of parts, grouped and ordered any way, is the report of one analyze over all the traces: six
// traces, two that fail in the middle, two ranked by their position (no distributedInfo), each part
// made as the Dask runner makes it (`--ranks --first-position I`).
TEST(MergeReportFiles, MergingPartsInAnyGroupingGivesTheWholeJobsReport) {
  const std::string dir = fake::make_temp_dir("ranks-merge");
  const std::string broken = dir + "/broken.json";
  std::ofstream(broken) << R"({"traceEvents": [)";
  const std::vector<std::string> traces{rank_trace(0), broken, traces_dir() + "/triton_example.json.gz", dir + "/missing.json",
                                        traces_dir() + "/rocm_mi250_minitoy.json.gz", rank_trace(1)};
  // positions 2 and 4 are the rank-less traces' ranks: distinct from 0 and 1
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < traces.size(); ++i) {
    const RanksOutcome part = analyze({traces[i]}, 1, static_cast<std::int64_t>(i));
    ASSERT_TRUE(part.report) << traces[i];
    parts.push_back(write_json(dir, "part" + std::to_string(i) + ".json", ranks_report_to_json(*part.report)));
  }
  const RanksOutcome all = analyze(traces);
  EXPECT_EQ(all.status.error().code, ExitCode::traces_failed);
  ASSERT_EQ(all.report->ranks.size(), 4u);
  ASSERT_EQ(all.report->failed.size(), 2u);
  EXPECT_EQ(all.report->failed[0].position, 1);
  EXPECT_EQ(all.report->failed[1].position, 3);
  const json whole = without_context(*all.report);

  const auto merge = [&](std::vector<std::string> files) {
    return merge_report_files(MergeOptions{std::move(files), {"ohprof", "merge"}});
  };
  const RanksOutcome flat = merge(parts);
  EXPECT_EQ(flat.status.error().code, ExitCode::traces_failed);
  EXPECT_EQ(without_context(*flat.report), whole);
  const std::vector<std::string> reversed(parts.rbegin(), parts.rend());
  EXPECT_EQ(without_context(*merge(reversed).report), whole);
  const std::string left = write_json(dir, "left.json", ranks_report_to_json(*merge({parts[0], parts[1], parts[2]}).report));
  const std::string right = write_json(dir, "right.json", ranks_report_to_json(*merge({parts[3], parts[4], parts[5]}).report));
  EXPECT_EQ(without_context(*merge({right, left}).report), whole);
  const std::string inner = write_json(dir, "inner.json", ranks_report_to_json(*merge({parts[1], parts[2]}).report));
  EXPECT_EQ(without_context(*merge({parts[0], inner, parts[3], parts[4], parts[5]}).report), whole);
}

TEST(MergeReportFiles, ReadsOneTraceReportsAndRefusesARankTwice) {
  const std::string dir = fake::make_temp_dir("ranks-merge-one");
  AnalyzeOptions one{rank_trace(1), "", {"ohprof", "analyze"}};
  SessionOutcome single = analyze_trace(one);
  ASSERT_TRUE(single.report);
  const std::string a1 = dir + "/a1.json";
  std::ofstream(a1) << report_to_json(*single.report).dump();
  const std::string p0 = write_json(dir, "p0.json", ranks_report_to_json(*analyze({rank_trace(0)}).report));
  const RanksOutcome merged = merge_report_files(MergeOptions{{p0, a1}, {"ohprof", "merge"}});
  ASSERT_TRUE(merged.status.ok()) << merged.status.error().message;
  EXPECT_EQ(without_context(*merged.report), without_context(*analyze({rank_trace(0), rank_trace(1)}).report));

  const RanksOutcome twice = merge_report_files(MergeOptions{{a1, p0, a1}, {"ohprof", "merge"}});
  EXPECT_EQ(twice.status.error().code, ExitCode::usage_error);
  EXPECT_NE(twice.status.error().message.find("are both rank 1"), std::string::npos) << twice.status.error().message;
  const RanksOutcome missing = merge_report_files(MergeOptions{{dir + "/none.json"}, {"ohprof", "merge"}});
  EXPECT_EQ(missing.status.error().code, ExitCode::file_not_found);
  std::ofstream(dir + "/text.json") << "{not json";
  const RanksOutcome not_json = merge_report_files(MergeOptions{{dir + "/text.json"}, {"ohprof", "merge"}});
  EXPECT_EQ(not_json.status.error().code, ExitCode::usage_error);
  EXPECT_NE(not_json.status.error().message.find("is not a JSON report"), std::string::npos);
}

}  // namespace
}  // namespace ohprof
