// `ohprof diff` as a session (session.hpp, diff_report_files; docs/diff.md) on real reports: two
// measurements of the same compare run on this project's CPU machine (test/data/diff/SOURCES.md), and
// copies of them changed in one respect each (samples 20% slower, other inputs, too few samples, cut
// short), plus sweeps whose points' reports are those reports.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <istream>

#include <nlohmann/json.hpp>

#include "ohprof/session/session.hpp"
#include "ohprof/trace/gzip_file.hpp"

namespace ohprof {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const std::string kDataDir = std::string(OHPROF_SOURCE_DIR) + "/test/data/diff";
const std::string kBase = kDataDir + "/tiny-mlp-b1.json.gz";
const std::string kRemeasured = kDataDir + "/tiny-mlp-b1-run2.json.gz";

fs::path temp_dir() {
  const fs::path dir = fs::temp_directory_path() / ("ohprof-diff-session-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

json read_json(const std::string& path) {
  auto buffer = GzipInputBuffer::open(path);
  EXPECT_TRUE(buffer.ok());
  std::istream in(buffer->get());
  return json::parse(in);
}

std::string write_json(const json& j, const std::string& name) {
  const fs::path path = temp_dir() / name;
  fs::create_directories(path.parent_path());
  std::ofstream(path) << j.dump();
  return path.string();
}

// The report with every path's samples multiplied by `factor` (rounded to whole nanoseconds).
json scaled(json report, double factor) {
  for (json& path : report["paths"]) {
    for (json& sample : path["samples_ns"]) sample = static_cast<std::int64_t>(std::llround(factor * sample.get<double>()));
  }
  return report;
}

DiffFilesOutcome diff(const std::string& base, const std::string& next, DiffConfig config = {}) {
  config.resamples = 2000;
  return diff_report_files(DiffOptions{base, next, config});
}

TEST(DiffSession, TwoMeasurementsOfTheSameRunAreNoRegression) {
  const DiffFilesOutcome out = diff(kBase, kRemeasured);
  ASSERT_TRUE(out.status.ok()) << out.status.error().message;
  ASSERT_TRUE(out.diff.has_value());
  ASSERT_EQ(out.diff->paths.size(), 5u);  // the five paths asked for; the variants are not diffed
  for (const PathDiff& p : out.diff->paths) {
    EXPECT_EQ(p.base_count, 10000u) << p.name;
    EXPECT_NE(p.verdict, DiffVerdict::slower) << p.name;
    EXPECT_NE(p.verdict, DiffVerdict::unknown) << p.name;
    EXPECT_FALSE(p.split.empty()) << p.name;
  }
  EXPECT_EQ(out.diff->outcome(), DiffOutcome::no_regression);
}

TEST(DiffSession, SamplesMadeTwentyPercentSlowerAreARegression) {
  const std::string slower = write_json(scaled(read_json(kBase), 1.2), "slower.json");
  const DiffFilesOutcome out = diff(kBase, slower);
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.error().code, ExitCode::regression_found);
  EXPECT_EQ(out.status.error().message.rfind("regression: aoti +20.0% [", 0), 0u) << out.status.error().message;
  EXPECT_EQ(out.status.error().message.find('\n'), std::string::npos);
  ASSERT_TRUE(out.diff.has_value());
  for (const PathDiff& p : out.diff->paths) {
    EXPECT_EQ(p.verdict, DiffVerdict::slower) << p.name;
    EXPECT_NEAR(*p.ratio, 1.2, 1e-3) << p.name;
  }
  // and the other way round, faster
  const DiffFilesOutcome back = diff(slower, kBase);
  EXPECT_TRUE(back.status.ok());
  EXPECT_EQ(back.diff->paths[0].verdict, DiffVerdict::faster);
}

TEST(DiffSession, OtherInputsMakeTheReportsIncomparable) {
  json other = read_json(kRemeasured);
  other["config"]["inputs"] = {"[4, 16]:float32"};
  const DiffFilesOutcome out = diff(kBase, write_json(other, "other-inputs.json"));
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.error().code, ExitCode::incomparable_reports);
  EXPECT_EQ(out.status.error().message,
            "the reports cannot be compared: inputs is '[1, 16]:float32' in the base and '[4, 16]:float32' in the new "
            "report; diff reports of the same kind, model, inputs and device (--force diffs them anyway)");
  DiffConfig force;
  force.force = true;
  EXPECT_TRUE(diff(kBase, write_json(other, "other-inputs.json"), force).status.ok());
}

TEST(DiffSession, ReportsWithTooFewSamplesCannotBeJudged) {
  json few = read_json(kRemeasured);
  for (json& path : few["paths"]) path["samples_ns"] = std::vector<std::int64_t>{4000, 4100, 4200};
  const DiffFilesOutcome out = diff(kBase, write_json(few, "few.json"));
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.error().code, ExitCode::incomparable_reports);
  EXPECT_EQ(out.status.error().message,
            "no path could be judged: 5 with fewer than 10 samples on a side (measure more iterations: --runs, --min-runs)");
  ASSERT_TRUE(out.diff.has_value());
  EXPECT_EQ(out.diff->judged(), 0u);
}

TEST(DiffSession, UnreadableReportsAreRefused) {
  const DiffFilesOutcome missing = diff(kBase, "/nonexistent/report.json");
  EXPECT_EQ(missing.status.error().code, ExitCode::file_not_found);
  EXPECT_EQ(missing.status.error().message, "cannot read report '/nonexistent/report.json'; check the path");
  EXPECT_FALSE(missing.diff.has_value());

  // a gzip file cut in half
  std::ifstream in(kBase, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const fs::path cut = temp_dir() / "cut.json.gz";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  const DiffFilesOutcome truncated = diff(kBase, cut.string());
  EXPECT_EQ(truncated.status.error().code, ExitCode::usage_error);

  DiffConfig bad;
  bad.alpha = 0;
  EXPECT_EQ(diff(kBase, kRemeasured, bad).status.error().code, ExitCode::usage_error);
  bad = DiffConfig{};
  bad.resamples = kMaxDiffResamples + 1;
  EXPECT_EQ(diff_report_files(DiffOptions{kBase, kRemeasured, bad}).status.error().code, ExitCode::usage_error);
}

// A later ohprof's report (a value added without a schema bump): diffed, the texts it does not know said;
// refused only where diff uses them (a path's role).
TEST(DiffSession, ALaterOhprofsUnknownTextsAreSaidAndRefusedOnlyWhereDiffUsesThem) {
  json later = read_json(kRemeasured);
  later["paths"][0]["stop_reason"] = "a reason of a later ohprof";
  if (!later["warnings"].empty()) later["warnings"][0]["code"] = "new-code";
  const DiffFilesOutcome out = diff(kBase, write_json(later, "later.json"));
  ASSERT_TRUE(out.status.ok()) << out.status.error().message;
  ASSERT_EQ(out.diff->paths.size(), 5u);
  std::vector<std::string> said;
  for (const Warning& w : out.diff->warnings) {
    if (w.code == WarningCode::report_values_unknown) said.push_back(w.message);
  }
  ASSERT_EQ(said.size(), 1u);
  const std::string first_path = later["paths"][0]["name"];
  EXPECT_NE(said[0].find("does not know paths[" + first_path + "].stop_reason 'a reason of a later ohprof'"), std::string::npos)
      << said[0];
  EXPECT_NE(said[0].find("which diff does not use"), std::string::npos) << said[0];

  later["paths"][0]["role"] = "new-role";
  const DiffFilesOutcome used = diff(kBase, write_json(later, "later-role.json"));
  ASSERT_FALSE(used.status.ok());
  EXPECT_EQ(used.status.error().code, ExitCode::usage_error);
  EXPECT_NE(used.status.error().message.find("role 'new-role' is none of"), std::string::npos)
      << used.status.error().message;
}

TEST(DiffSession, ARelativeToPathOfNeitherReportIsAUsageErrorListingThePaths) {
  DiffConfig config;
  config.relative_to = "aot";
  const DiffFilesOutcome out = diff(kBase, kRemeasured, config);
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.error().code, ExitCode::usage_error);
  EXPECT_EQ(out.status.error().message,
            "--relative-to aot: neither report has that path; give one of aoti, aoti:python, compile, "
            "compile:cpp-wrapper, eager");
}

TEST(DiffSession, ReportsWithANonPositiveSampleOrATwiceListedPathAreRefused) {
  json zero = read_json(kRemeasured);
  zero["paths"][0]["samples_ns"][7] = 0;
  DiffFilesOutcome out = diff(kBase, write_json(zero, "zero.json"));
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.error().code, ExitCode::usage_error);
  EXPECT_NE(out.status.error().message.find("path 'aoti' has a sample of 0 ns; wall times are positive"), std::string::npos)
      << out.status.error().message;
  json twice = read_json(kRemeasured);
  twice["paths"][1]["name"] = "aoti";
  out = diff(kBase, write_json(twice, "twice.json"));
  ASSERT_FALSE(out.status.ok());
  EXPECT_NE(out.status.error().message.find("path 'aoti' is listed twice"), std::string::npos) << out.status.error().message;
}

// A sweep of two points whose point reports are the given compare reports (written beside it).
std::string sweep_of(const std::string& name, const json& point1, const json& point64) {
  json sweep = read_json(std::string(OHPROF_SOURCE_DIR) + "/test/data/sweep/sample_sweep.json");
  json points = json::array();
  for (json point : sweep["points"]) {
    const std::int64_t value = point["value"];
    if (value != 1 && value != 64) continue;
    point["report"] = name + ".points/batch-" + std::to_string(value) + ".json";
    points.push_back(point);
  }
  sweep["points"] = points;
  write_json(point1, name + ".points/batch-1.json");
  write_json(point64, name + ".points/batch-64.json");
  return write_json(sweep, name + ".json");
}

TEST(DiffSession, ASweepIsDiffedPointByPointFromItsPointReports) {
  const json base = read_json(kBase);
  const std::string a = sweep_of("sweep-a", base, base);
  const std::string b = sweep_of("sweep-b", base, scaled(base, 1.3));
  const DiffFilesOutcome out = diff(a, b);
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.error().code, ExitCode::regression_found);
  ASSERT_TRUE(out.diff.has_value());
  ASSERT_EQ(out.diff->paths.size(), 10u);  // 2 points x the point reports' 5 paths
  for (const PathDiff& p : out.diff->paths) {
    ASSERT_TRUE(p.point.has_value());
    EXPECT_EQ(p.base_count, 10000u);
    EXPECT_EQ(p.verdict, *p.point == 64 ? DiffVerdict::slower : DiffVerdict::no_change) << p.name << " @ " << *p.point;
  }
}

TEST(DiffSession, APointReportThatIsACheckpointIsNoted) {
  json checkpoint = read_json(kBase);
  checkpoint["stop_reason"] = "in progress";
  const std::string a = sweep_of("sweep-d", read_json(kBase), checkpoint);
  const DiffFilesOutcome out = diff(a, a);
  std::vector<std::string> notes;
  for (const Warning& w : out.diff->warnings) {
    if (w.code == WarningCode::diff_report_incomplete) notes.push_back(w.message);
  }
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[0].find("batch 64: a checkpoint written while measuring, not a finished report"), std::string::npos) << notes[0];
}

TEST(DiffSession, ASweepPointWhoseReportIsMissingKeepsItsMediansAndIsNoted) {
  const json base = read_json(kBase);
  const std::string a = sweep_of("sweep-c", base, base);
  fs::remove(temp_dir() / "sweep-c.points/batch-64.json");
  const DiffFilesOutcome out = diff(a, a);
  ASSERT_TRUE(out.status.ok()) << out.status.error().message;
  std::size_t incomplete = 0;
  for (const Warning& w : out.diff->warnings) incomplete += w.code == WarningCode::diff_report_incomplete ? 1 : 0;
  EXPECT_EQ(incomplete, 2u);  // the same note from each side
  for (const PathDiff& p : out.diff->paths) {
    if (*p.point == 64) {
      EXPECT_EQ(p.base_count, 0u);
      EXPECT_TRUE(p.base_median_ns.has_value());
      EXPECT_EQ(p.verdict, DiffVerdict::unknown);
      EXPECT_EQ(p.reason, DiffReason::no_samples);
    }
  }
}

}  // namespace
}  // namespace ohprof
