// read_report_file (`ohprof show`, docs/usage.md "ohprof show"): a report file read back whole, as the
// command that wrote it holds it (the analyze report of a real trace, gzip too; a sweep report; the ranks
// report of a real pair of traces, merged again; a diff report), and the files it refuses with their exit codes.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "fake_runtime.hpp"
#include "ohprof/output/diff_report.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/output/ranks_report.hpp"
#include "ohprof/model/sweep.hpp"
#include "ohprof/output/sweep_report.hpp"
#include "ohprof/session/session.hpp"

namespace ohprof {
namespace {

using json = nlohmann::json;

const std::string& dir() {
  static const std::string made = fake::make_temp_dir("show");
  return made;
}

std::string write(const std::string& name, const std::string& text) {
  const std::string path = dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

ShowOutcome show(const std::string& path) { return read_report_file(ShowOptions{path, {"ohprof", "show", path}}); }

Report analyzed(const std::string& trace) {
  SessionOutcome outcome = analyze_trace(AnalyzeOptions{std::string(OHPROF_TRACES_DIR) + "/" + trace, "", {"ohprof", "analyze"}});
  EXPECT_TRUE(outcome.report.has_value());
  return *outcome.report;
}

void refused_later(const std::string& path, const std::string& key, int known) {
  const ShowOutcome shown = show(path);
  EXPECT_FALSE(shown.report || shown.sweep || shown.ranks || shown.diff);
  ASSERT_FALSE(shown.status.ok());
  EXPECT_EQ(shown.status.error().code, ExitCode::usage_error);
  EXPECT_NE(shown.status.error().message.find("' has " + key + " " + std::to_string(known + 1) +
                                              " and this ohprof reads up to " + std::to_string(known) +
                                              "; read it with the ohprof that wrote it, or a later one"),
            std::string::npos)
      << shown.status.error().message;
}

TEST(ShowReport, AnAnalyzeReportOfARealTraceReadsBackAsWritten) {
  const json written = report_to_json(analyzed("nccl_data.json.gz"));
  const ShowOutcome shown = show(write("analyze.json", written.dump()));
  ASSERT_TRUE(shown.status.ok()) << shown.status.error().message;
  ASSERT_TRUE(shown.report.has_value());
  EXPECT_FALSE(shown.sweep || shown.ranks);
  EXPECT_TRUE(report_to_json(*shown.report) == written);
  EXPECT_TRUE(shown.unknown.empty());
}

TEST(ShowReport, AGzipReportIsReadAsAPlainOne) {
  const json written = report_to_json(analyzed("triton_example.json.gz"));
  const std::string plain = write("plain.json", written.dump());
  const std::string gz = dir() + "/packed.json.gz";
  ASSERT_EQ(std::system(("gzip -c '" + plain + "' > '" + gz + "'").c_str()), 0);
  const ShowOutcome shown = show(gz);
  ASSERT_TRUE(shown.report.has_value()) << shown.status.error().message;
  EXPECT_TRUE(report_to_json(*shown.report) == written);
}

TEST(ShowReport, ASweepReportIsASweep) {
  const std::string fixture = std::string(OHPROF_SOURCE_DIR) + "/test/data/sweep/sample_sweep.json";
  const ShowOutcome shown = show(fixture);
  ASSERT_TRUE(shown.status.ok()) << shown.status.error().message;
  ASSERT_TRUE(shown.sweep.has_value());
  EXPECT_FALSE(shown.report || shown.ranks);
  std::ifstream in(fixture);
  EXPECT_EQ(format_sweep_table(*shown.sweep), format_sweep_table(sweep_from_json(json::parse(in))));
}

TEST(ShowReport, ARanksReportIsMergedAgainToTheSameRanks) {
  const std::string traces = OHPROF_TRACES_DIR;
  RanksOutcome job = analyze_traces(AnalyzeRanksOptions{
      {traces + "/sampled_rank-0.json.gz", traces + "/sampled_rank-1.json.gz"}, 1, 0, "", false, {"ohprof", "analyze"}});
  ASSERT_TRUE(job.report.has_value());
  json written = ranks_report_to_json(*job.report);
  const ShowOutcome shown = show(write("ranks.json", written.dump()));
  ASSERT_TRUE(shown.status.ok()) << shown.status.error().message;
  ASSERT_TRUE(shown.ranks.has_value());
  const json again = ranks_report_to_json(*shown.ranks);
  EXPECT_TRUE(again == written) << json::diff(written, again).dump(1);  // its context too: the file's, not show's
  EXPECT_EQ(format_ranks_table(*shown.ranks), format_ranks_table(*job.report));
}

// A diff of two real reports (a regression, which made `diff` exit 13) shows with exit 0 as the diff printed it.
TEST(ShowReport, ADiffReportIsTheDiffAsItWasMade) {
  const std::string reports = std::string(OHPROF_SOURCE_DIR) + "/test/data/diff/";
  DiffOptions options{reports + "tiny-mlp-b1.json.gz", reports + "tiny-mlp-b1-run2.json.gz", {}};
  options.config.threshold = 0.01;
  DiffFilesOutcome made = diff_report_files(options);
  ASSERT_TRUE(made.diff.has_value());
  ASSERT_EQ(made.diff->outcome(), DiffOutcome::regression);
  const json written = diff_to_json(*made.diff);
  const ShowOutcome shown = show(write("diff.json", written.dump()));
  ASSERT_TRUE(shown.status.ok()) << shown.status.error().message;
  ASSERT_TRUE(shown.diff.has_value());
  EXPECT_FALSE(shown.report || shown.sweep || shown.ranks);
  EXPECT_EQ(diff_to_json(*shown.diff), written);
  EXPECT_EQ(format_diff_table(*shown.diff), format_diff_table(*made.diff));
  json later = written;
  later["diff_schema_version"] = kDiffSchemaVersion + 1;
  refused_later(write("later-diff.json", later.dump()), "diff_schema_version", kDiffSchemaVersion);
}

// A job with a trace that failed made `analyze` exit 15; the report it wrote shows with exit 0, the failure in it.
TEST(ShowReport, ARanksReportWithAFailedTraceShowsWithoutFailing) {
  const std::string traces = OHPROF_TRACES_DIR;
  RanksOutcome job = analyze_traces(AnalyzeRanksOptions{
      {traces + "/sampled_rank-0.json.gz", traces + "/SOURCES.md"}, 1, 0, "", false, {"ohprof", "analyze"}});
  ASSERT_TRUE(job.report.has_value());
  ASSERT_FALSE(job.status.ok());
  ASSERT_EQ(job.report->failed.size(), 1u);
  const ShowOutcome shown = show(write("failed.json", ranks_report_to_json(*job.report).dump()));
  EXPECT_TRUE(shown.status.ok()) << shown.status.error().message;
  ASSERT_TRUE(shown.ranks.has_value());
  EXPECT_EQ(shown.ranks->failed.size(), 1u);
  EXPECT_EQ(format_ranks_table(*shown.ranks), format_ranks_table(*job.report));
}

TEST(ShowReport, AReportOfALaterSchemaIsRefused) {
  json later = report_to_json(analyzed("triton_example.json.gz"));
  later["schema_version"] = kReportSchemaVersion + 1;
  refused_later(write("later-schema.json", later.dump()), "schema_version", kReportSchemaVersion);
  std::ifstream in(std::string(OHPROF_SOURCE_DIR) + "/test/data/sweep/sample_sweep.json");
  json sweep = json::parse(in);
  sweep["sweep_schema_version"] = kSweepSchemaVersion + 1;
  refused_later(write("later-sweep.json", sweep.dump()), "sweep_schema_version", kSweepSchemaVersion);
}

TEST(ShowReport, ALaterOhprofsTextIsListedAndLeftOut) {
  json written = report_to_json(analyzed("triton_example.json.gz"));
  ASSERT_FALSE(written["warnings"].empty());
  written["warnings"][0]["code"] = "a-later-warning";
  const ShowOutcome shown = show(write("later.json", written.dump()));
  ASSERT_TRUE(shown.report.has_value()) << shown.status.error().message;
  ASSERT_EQ(shown.unknown.size(), 1u);
  EXPECT_EQ(shown.unknown[0].text, "a-later-warning");
  EXPECT_EQ(shown.report->warnings.size(), written["warnings"].size() - 1);
}

void refused(const std::string& path, ExitCode code, const std::string& says) {
  const ShowOutcome shown = show(path);
  EXPECT_FALSE(shown.report || shown.sweep || shown.ranks || shown.diff);
  ASSERT_FALSE(shown.status.ok());
  EXPECT_EQ(shown.status.error().code, code);
  EXPECT_NE(shown.status.error().message.find(says), std::string::npos) << shown.status.error().message;
}

TEST(ShowReport, WhatItCannotReadIsOneLineAndItsCode) {
  refused(dir() + "/missing.json", ExitCode::file_not_found, "cannot read report '" + dir() + "/missing.json'; check the path");
  refused(write("text.json", "not json"), ExitCode::usage_error, "is not a JSON report");
  refused(write("list.json", "[1, 2]"), ExitCode::usage_error, "is not an ohprof report (it has no \"kind\")");
  refused(write("other.json", R"({"kind": "thing"})"), ExitCode::usage_error, "its kind is \"thing\"");
  refused(write("bad-diff.json", R"({"kind": "diff"})"), ExitCode::usage_error,
          "has no diff_schema_version: it is not a whole report");
  refused(write("cut-diff.json", R"({"kind": "diff", "diff_schema_version": 1})"), ExitCode::usage_error,
          "could not be read as ohprof's diff report (");
  json no_paths = report_to_json(analyzed("triton_example.json.gz"));
  no_paths.erase("paths");
  refused(write("no-paths.json", no_paths.dump()), ExitCode::usage_error,
          "could not be read as ohprof's analyze report (");
  refused(write("bad-sweep.json", R"({"kind": "sweep"})"), ExitCode::usage_error,
          "has no sweep_schema_version: it is not a whole report");
  refused(write("no-version.json", R"({"kind": "run"})"), ExitCode::usage_error, "has no schema_version");
  refused(write("cut-sweep.json", R"({"kind": "sweep", "sweep_schema_version": 1})"), ExitCode::usage_error,
          "could not be read as ohprof's sweep report");
}

}  // namespace
}  // namespace ohprof
