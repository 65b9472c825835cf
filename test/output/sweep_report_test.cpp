// The sweep report (output/sweep_report.hpp; docs/report-schema.md, "The sweep report"): its fields,
// the round trip --resume relies on, the refusals, and the table. The fixture
// test/data/sweep/sample_sweep.json was made by test/data/sweep/make_sample_sweep.py, a separate
// implementation of docs/sweep.md: analysing its points here must give its derived numbers.
#include "ohprof/output/sweep_report.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "ohprof/analysis/sweep.hpp"
#include "sweep_text.hpp"  // src/output, the layer's private header

namespace ohprof {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string temp_path(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("ohprof-sweep-report-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return (dir / name).string();
}

SweepConfig tiny_config() {
  SweepConfig c;
  c.model = "tiny_models:tiny_mlp";
  c.inputs = {"[1, 16]:float32"};
  c.axis.values = {1, 2, 4};
  c.paths = {"aoti", "compile"};
  c.kernel_profile = true;
  return c;
}

SweepPathPoint path_point(const std::string& name, double median) {
  SweepPathPoint p;
  p.name = name;
  p.wall_ns.count = 100;
  p.wall_ns.median = median;
  p.wall_ns.mean = median + 1;
  p.wall_ns.mad = median / 100;
  p.wall_ns.min = median - 5;
  p.wall_ns.max = median * 3;
  p.wall_ns.stddev = 2;
  p.wall_ns.relative_noise = 0.01;
  p.wall_ns.outliers = 3;
  p.busy_ns = median / 4;
  p.host_ns = median / 2;
  p.collector_ratio = 1.5;
  p.outputs_match = true;
  return p;
}

SweepReport tiny_report() {
  SweepReport r;
  r.config = tiny_config();
  for (std::int64_t v : {1, 2, 4}) {
    SweepPoint p;
    p.value = v;
    p.inputs = {"[" + std::to_string(v) + ", 16]:float32"};
    p.status = PointStatus::measured;
    p.report_path = "s.points/batch-" + std::to_string(v) + ".json";
    p.elapsed_s = 2.5;
    p.stop_reason = StopReason(StopCode::time_limit, "aoti: 9 runs < 10");
    p.warnings = {Warning{WarningCode::outliers, "path aoti: 3 of 100 iterations are statistical outliers"}};
    p.paths = {path_point("aoti", 1000.0 * static_cast<double>(v)), path_point("compile", 9000.0 + 1000.0 * static_cast<double>(v))};
    p.passes = {SweepPass{1, p.report_path, {{"compile", p.paths[1].wall_ns.median}, {"aoti", p.paths[0].wall_ns.median}}, 1},
                SweepPass{2, "", {{"compile", 1}, {"aoti", 2}}, 0.5}};
    p.chosen_pass = 1;
    r.points.push_back(p);
  }
  r.points[1].status = PointStatus::failed;
  r.points[1].reason = "export failed: out of memory";
  r.points[1].exit_code = 9;
  r.points[1].paths.clear();
  r.points[1].report_path.clear();
  r.points[1].passes.clear();
  r.points[1].chosen_pass = 0;
  return analyze_sweep(r);
}

TEST(SweepReportJson, HasTheDocumentedFields) {
  const json j = sweep_to_json(tiny_report());
  EXPECT_EQ(j.at("kind"), "sweep");
  EXPECT_EQ(j.at("sweep_schema_version"), kSweepSchemaVersion);
  for (const char* key : {"context", "config", "points", "analysis", "stop", "warnings"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j.at("config").at("axis"), (json{{"kind", "batch"}, {"input", nullptr}, {"inputs", nullptr}, {"dim", 0}, {"name", "batch"}, {"values", {1, 2, 4}}}));
  const json& p0 = j.at("points").at(0);
  EXPECT_EQ(p0.at("status"), "measured");
  EXPECT_EQ(p0.at("paths").at(1).at("latency_ns"), 10000.0);
  EXPECT_EQ(p0.at("paths").at(1).at("throughput_per_s"), 1e5);
  EXPECT_EQ(p0.at("ratios").at(0).at("slower"), "compile");
  EXPECT_EQ(p0.at("ratios").at(0).at("ratio"), 10.0);
  EXPECT_EQ(p0.at("paths").at(1).at("to_baseline").at("ratio"), 10.0);
  EXPECT_TRUE(p0.at("paths").at(0).at("to_baseline").is_null());
  EXPECT_EQ(p0.at("stop_reason"), (json{{"code", "time_limit"}, {"unmet", "aoti: 9 runs < 10"},
                                         {"text", "time limit (unmet: aoti: 9 runs < 10)"}}));
  EXPECT_EQ(p0.at("passes").at(0).at("medians_ns").at(0), (json{{"name", "compile"}, {"median_ns", 10000.0}}));
  EXPECT_EQ(p0.at("warnings").at(0).at("code"), "outliers");
  EXPECT_EQ(j.at("stop"), "running");
  const json& p1 = j.at("points").at(1);
  EXPECT_EQ(p1.at("status"), "failed");
  EXPECT_EQ(p1.at("exit_code"), 9);
  EXPECT_TRUE(p1.at("report").is_null());
  EXPECT_TRUE(p1.at("ratios").empty());
  const json& fit = j.at("analysis").at("fits").at(0);
  EXPECT_EQ(fit.at("path"), "aoti");
  EXPECT_EQ(fit.at("status"), "too_few_points");  // batch 2 failed: two points
  EXPECT_EQ(fit.at("points_used"), (json{1, 4}));
  EXPECT_TRUE(fit.at("fixed_ns").is_null());
  EXPECT_EQ(fit.at("host_at_smallest_ns"), 500.0);
  EXPECT_EQ(j.at("analysis").at("baseline"), "aoti");
  EXPECT_TRUE(j.at("analysis").at("pairs").at(0).at("crossover").is_null());
}

// sweep --inputs: the file and its digest are in the config (null without one, and in a report written
// before the fields); --resume compares the digest, the content, not the name.
TEST(SweepReportJson, TheInputsFileIsWrittenAndResumeComparesItsContent) {
  SweepReport report = tiny_report();
  const std::string random_file = temp_path("random-inputs.json");
  ASSERT_TRUE(write_sweep_report(report, random_file).ok());
  std::ifstream random_in(random_file);
  const json random_written = json::parse(random_in);
  EXPECT_TRUE(random_written.at("config").at("inputs_file").is_null());
  EXPECT_TRUE(random_written.at("config").at("inputs_file_digest").is_null());
  report.config.inputs_file = "/data/inputs.pt";
  report.config.inputs_file_digest = "aaaa";
  const std::string file = temp_path("inputs-file.json");
  ASSERT_TRUE(write_sweep_report(report, file).ok());
  std::ifstream in(file);
  json written = json::parse(in);
  EXPECT_EQ(written.at("config").at("inputs_file"), "/data/inputs.pt");
  EXPECT_EQ(written.at("config").at("inputs_file_digest"), "aaaa");
  EXPECT_TRUE(read_resumable_points(file, report.config).ok());
  SweepConfig moved = report.config;  // the same content under another name (./inputs.pt, a copy) resumes
  moved.inputs_file = "./inputs.pt";
  EXPECT_TRUE(read_resumable_points(file, moved).ok());
  SweepConfig other = report.config;  // other values saved under the same name do not
  other.inputs_file_digest = "bbbb";
  auto refused = read_resumable_points(file, other);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ExitCode::usage_error);
  EXPECT_NE(refused.error().message.find("inputs_file_digest \"aaaa\", this sweep has \"bbbb\""), std::string::npos)
      << refused.error().message;
  SweepConfig random = report.config;  // random inputs of the same shapes are another sweep too
  random.inputs_file.clear();
  random.inputs_file_digest.clear();
  EXPECT_FALSE(read_resumable_points(file, random).ok());
  // a report written before the fields reads as random inputs
  written.at("config").erase("inputs_file");
  written.at("config").erase("inputs_file_digest");
  const std::string older = temp_path("older.json");
  std::ofstream(older) << written.dump();
  EXPECT_TRUE(read_resumable_points(older, random).ok());
}

TEST(SweepReportJson, ResumeReadsBackWhatWasWritten) {
  const SweepReport report = tiny_report();
  const std::string file = temp_path("roundtrip.json");
  ASSERT_TRUE(write_sweep_report(report, file).ok());
  auto points = read_resumable_points(file, report.config);
  ASSERT_TRUE(points.ok()) << points.error().message;
  ASSERT_EQ(points->size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const SweepPoint& a = report.points[i];
    const SweepPoint& b = (*points)[i];
    EXPECT_EQ(a.value, b.value);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.reason, b.reason);
    EXPECT_EQ(a.exit_code, b.exit_code);
    EXPECT_EQ(a.report_path, b.report_path);
    EXPECT_EQ(a.inputs, b.inputs);
    EXPECT_EQ(a.chosen_pass, b.chosen_pass);
    EXPECT_EQ(a.stop_reason, b.stop_reason);
    EXPECT_EQ(a.warnings, b.warnings);
    ASSERT_EQ(a.passes.size(), b.passes.size());
    for (std::size_t k = 0; k < a.passes.size(); ++k) {
      EXPECT_EQ(a.passes[k].pass, b.passes[k].pass);
      EXPECT_EQ(a.passes[k].report_path, b.passes[k].report_path);
      EXPECT_EQ(a.passes[k].medians_ns, b.passes[k].medians_ns);  // in their order, not sorted
      EXPECT_EQ(a.passes[k].score_ns, b.passes[k].score_ns);
    }
    ASSERT_EQ(a.paths.size(), b.paths.size());
    for (std::size_t k = 0; k < a.paths.size(); ++k) {
      EXPECT_EQ(a.paths[k].name, b.paths[k].name);
      EXPECT_EQ(a.paths[k].wall_ns.median, b.paths[k].wall_ns.median);
      EXPECT_EQ(a.paths[k].wall_ns.mad, b.paths[k].wall_ns.mad);
      EXPECT_EQ(a.paths[k].wall_ns.count, b.paths[k].wall_ns.count);
      EXPECT_EQ(a.paths[k].wall_ns.outliers, b.paths[k].wall_ns.outliers);
      EXPECT_EQ(a.paths[k].host_ns, b.paths[k].host_ns);
      EXPECT_EQ(a.paths[k].busy_ns, b.paths[k].busy_ns);
      EXPECT_EQ(a.paths[k].collector_ratio, b.paths[k].collector_ratio);
      EXPECT_EQ(a.paths[k].outputs_match, b.paths[k].outputs_match);
    }
  }
  // Other values may be resumed (a resumed sweep may add values).
  SweepConfig more = report.config;
  more.axis.values = {1, 2, 4, 8};
  EXPECT_TRUE(read_resumable_points(file, more).ok());
}

TEST(SweepReportJson, ResumeRefusesAnotherSweepNamingTheSetting) {
  const SweepReport report = tiny_report();
  const std::string file = temp_path("other.json");
  ASSERT_TRUE(write_sweep_report(report, file).ok());
  SweepConfig other = report.config;
  other.paths = {"aoti", "eager"};
  auto refused = read_resumable_points(file, other);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ExitCode::usage_error);
  EXPECT_NE(refused.error().message.find("was made with paths [\"aoti\",\"compile\"], this sweep has [\"aoti\",\"eager\"]"),
            std::string::npos)
      << refused.error().message;
  other = report.config;
  other.axis = SweepAxis{SweepAxis::Kind::dim, {0}, 1, {1, 2}};
  refused = read_resumable_points(file, other);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("was made with axis"), std::string::npos);
  other = report.config;
  other.kernel_profile = false;
  EXPECT_FALSE(read_resumable_points(file, other).ok());
}

TEST(SweepReportJson, ResumeRefusesWhatIsNotASweepReport) {
  const std::string compare = temp_path("compare.json");
  std::ofstream(compare) << R"({"schema_version": 4, "kind": "compare"})";
  auto refused = read_resumable_points(compare, tiny_config());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ExitCode::usage_error);
  EXPECT_NE(refused.error().message.find("is not a sweep report (its kind is not \"sweep\")"), std::string::npos);
  const std::string garbage = temp_path("garbage.json");
  std::ofstream(garbage) << "{ not json";
  refused = read_resumable_points(garbage, tiny_config());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("not JSON"), std::string::npos);
  EXPECT_EQ(read_resumable_points(temp_path("absent.json"), tiny_config()).error().code, ExitCode::file_not_found);
  json later = sweep_to_json(tiny_report());
  later["sweep_schema_version"] = 2;
  const std::string newer = temp_path("newer.json");
  std::ofstream(newer) << later.dump();
  refused = read_resumable_points(newer, tiny_config());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("is not a sweep report (sweep_schema_version 2 is not 1)"), std::string::npos)
      << refused.error().message;
}

TEST(SweepReportJson, FromJsonIsToJsonsInverse) {
  SweepReport report = tiny_report();
  report.context.ohprof_version = "0.1.0";
  report.context.device = DeviceDescription{DeviceKind::cuda, 0, "NVIDIA H200"};
  report.context.argv = {"ohprof", "sweep", "--batch", "1,2,4"};
  report.context.cpu_threads = 8;
  report.config.axis = SweepAxis{SweepAxis::Kind::dim, {0, 2}, 1, {1, 2, 4}};
  report.config.inputs_file = "/data/inputs.pt";
  report.config.device = DeviceKind::cuda;
  report.config.compile_source = PathSource::exported_program;
  report.config.check_outputs = CheckMode::strict;
  report.config.seed = 7;
  // --time-limit inf, --sweep-time-limit inf, --max-rse inf: written as null, read back as infinity
  report.config.stopping.time_limit_s = std::numeric_limits<double>::infinity();
  report.config.stopping.max_rse = std::numeric_limits<double>::infinity();
  report.config.sweep_time_limit_s = std::numeric_limits<double>::infinity();
  report.stop = SweepStop::sweep_time_limit;
  report.warnings = {Warning{WarningCode::sweep_point_failed, "batch 2 failed: export failed; the sweep goes on"}};
  report.points[0].paths[1].kernels_unrecorded = true;
  report.points[0].paths[0].queue_open = true;
  report.analysis.fits[0].host_upper_bound = true;  // read back as written, not recomputed
  // As a file holds it: the infinities are nulls there.
  const json written = json::parse(sweep_to_json(report).dump());
  EXPECT_TRUE(written.at("config").at("sweep_time_limit_s").is_null());
  const SweepReport read = sweep_from_json(written);
  EXPECT_EQ(json::parse(sweep_to_json(read).dump()), written);
  EXPECT_EQ(read.config.axis.inputs, (std::vector<int>{0, 2}));
  EXPECT_EQ(written.at("config").at("axis").at("input"), 0);  // the first, as one-input sweeps wrote it
  EXPECT_EQ(written.at("config").at("axis").at("name"), "input0+2.dim1");
  // a report written before "inputs" (one input, "input" alone) reads as that one input
  json older = written;
  older.at("config").at("axis").erase("inputs");
  EXPECT_EQ(sweep_from_json(older).config.axis.inputs, (std::vector<int>{0}));
  // Not only through the JSON: the typed fields themselves.
  EXPECT_EQ(read.config.axis, report.config.axis);
  EXPECT_EQ(read.config.stopping, report.config.stopping);
  EXPECT_EQ(read.config.sweep_time_limit_s, std::numeric_limits<double>::infinity());
  EXPECT_EQ(read.context.device.type, DeviceKind::cuda);
  EXPECT_EQ(read.points[0].ratios.size(), report.points[0].ratios.size());
  ASSERT_TRUE(read.points[0].paths[1].figures.to_baseline);
  EXPECT_EQ(read.points[0].paths[1].figures.to_baseline->ratio, report.points[0].paths[1].figures.to_baseline->ratio);
  EXPECT_EQ(read.analysis.fits.size(), report.analysis.fits.size());
  EXPECT_TRUE(read.points[0].paths[1].kernels_unrecorded);
  EXPECT_FALSE(read.points[0].paths[0].kernels_unrecorded);
  EXPECT_TRUE(read.points[0].paths[0].queue_open);
  EXPECT_FALSE(read.points[0].paths[1].queue_open);
  EXPECT_TRUE(read.analysis.fits[0].host_upper_bound);
}

TEST(SweepReportJson, FromJsonRefusesNamingWhatIsWrong) {
  const json good = sweep_to_json(tiny_report());
  const auto refusal = [](const json& j) -> std::string {
    try {
      (void)sweep_from_json(j);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(refusal(good), "");
  json bad = good;
  bad["points"][0]["status"] = "skipped";
  EXPECT_EQ(refusal(bad), "point status 'skipped' is none of measured, failed, interrupted, not_measured");
  bad = good;
  bad["stop"] = "paused";
  EXPECT_EQ(refusal(bad), "sweep stop 'paused' is none of running, complete, interrupted, sweep_time_limit, error");
  bad = good;
  bad["kind"] = "compare";
  EXPECT_EQ(refusal(bad), "its kind is not \"sweep\"");
  bad = good;
  bad["analysis"].erase("fits");
  EXPECT_NE(refusal(bad).find("fits"), std::string::npos) << refusal(bad);
}

// The fixture's config, as a SweepConfig (the fields --resume compares).
SweepConfig sample_config(const json& c) {
  SweepConfig out;
  out.model = c.at("model");
  out.inputs = c.at("inputs").get<std::vector<std::string>>();
  out.axis.values = c.at("axis").at("values").get<std::vector<std::int64_t>>();
  out.paths = c.at("paths").get<std::vector<std::string>>();
  out.kernel_profile = c.at("kernel_profile");
  out.tolerance = c.at("tolerance");
  out.fit_tolerance = c.at("fit_tolerance");
  return out;
}

void expect_close(const json& want, double got, const std::string& where, double rel = 1e-9) {
  ASSERT_TRUE(want.is_number()) << where << ": " << want.dump();
  EXPECT_NEAR(got, want.get<double>(), rel * std::max(1.0, std::abs(want.get<double>()))) << where;
}

class SweepFixture : public ::testing::TestWithParam<const char*> {};
INSTANTIATE_TEST_SUITE_P(BothFixtures, SweepFixture, ::testing::Values("sample_sweep", "sample_sweep_crossover"));

// A sweep report that another implementation wrote (make_sample_sweep.py, before the context had
// cupti_library and inflate_library) reads back to the same JSON: every field read, every derived text
// the same.
TEST_P(SweepFixture, ReadsBackToTheSameJson) {
  const std::string file = std::string(OHPROF_SOURCE_DIR) + "/test/data/sweep/" + GetParam() + ".json";
  std::ifstream in(file);
  const json written = json::parse(in);
  json again = sweep_to_json(sweep_from_json(written));
  for (const char* key : {"cupti_library", "inflate_library"}) {
    EXPECT_EQ(again.at("context").at(key), "") << key;  // absent in the file: read as empty
    again.at("context").erase(key);
  }
  EXPECT_EQ(again, written) << json::diff(written, again).dump(1);
}

TEST_P(SweepFixture, AnalysingItsPointsGivesItsNumbers) {
  const std::string file = std::string(OHPROF_SOURCE_DIR) + "/test/data/sweep/" + GetParam() + ".json";
  std::ifstream in(file);
  ASSERT_TRUE(in) << file;
  const json sample = json::parse(in);
  SweepReport report;
  report.config = sample_config(sample.at("config"));
  auto points = read_resumable_points(file, report.config);
  ASSERT_TRUE(points.ok()) << points.error().message;
  report.points = *points;
  const json mine = sweep_to_json(analyze_sweep(report));
  ASSERT_EQ(mine.at("points").size(), sample.at("points").size());
  for (std::size_t i = 0; i < sample.at("points").size(); ++i) {
    const json& want = sample.at("points").at(i);
    const json& got = mine.at("points").at(i);
    for (std::size_t k = 0; k < want.at("paths").size(); ++k) {
      for (const char* key : {"latency_ns", "latency_se_ns", "throughput_per_s", "throughput_se_per_s"}) {
        expect_close(want.at("paths").at(k).at(key), got.at("paths").at(k).at(key).get<double>(),
                     "points[" + std::to_string(i) + "]." + key);
      }
      const json& wb = want.at("paths").at(k).at("to_baseline");
      const json& gb = got.at("paths").at(k).at("to_baseline");
      ASSERT_EQ(wb.is_null(), gb.is_null()) << i;
      if (!wb.is_null()) {
        for (const char* key : {"ratio", "se", "low", "high"}) expect_close(wb.at(key), gb.at(key).get<double>(), key);
      }
    }
    ASSERT_EQ(got.at("ratios").size(), want.at("ratios").size()) << i;
    for (std::size_t k = 0; k < want.at("ratios").size(); ++k) {
      EXPECT_EQ(got.at("ratios").at(k).at("slower"), want.at("ratios").at(k).at("slower"));
      EXPECT_EQ(got.at("ratios").at(k).at("within"), want.at("ratios").at(k).at("within"));
      for (const char* key : {"ratio", "se", "low", "high"}) {
        expect_close(want.at("ratios").at(k).at(key), got.at("ratios").at(k).at(key).get<double>(), key);
      }
    }
  }
  const json& want = sample.at("analysis");
  const json& got = mine.at("analysis");
  EXPECT_EQ(got.at("baseline"), want.at("baseline"));
  EXPECT_EQ(got.at("pairs"), want.at("pairs"));
  ASSERT_EQ(got.at("fits").size(), want.at("fits").size());
  for (std::size_t f = 0; f < want.at("fits").size(); ++f) {
    const json& w = want.at("fits").at(f);
    const json& g = got.at("fits").at(f);
    EXPECT_EQ(g.at("status"), w.at("status"));
    EXPECT_EQ(g.at("points_used"), w.at("points_used"));
    ASSERT_EQ(g.at("points_left_out").size(), w.at("points_left_out").size());
    for (std::size_t k = 0; k < w.at("points_left_out").size(); ++k) {
      EXPECT_EQ(g.at("points_left_out").at(k).at("value"), w.at("points_left_out").at(k).at("value"));
      expect_close(w.at("points_left_out").at(k).at("relative_residual"),
                   g.at("points_left_out").at(k).at("relative_residual").get<double>(), "relative_residual");
    }
    for (const char* key : {"fixed_ns", "per_item_ns", "max_relative_residual", "fixed_minus_host_ns"}) {
      expect_close(w.at(key), g.at(key).get<double>(), std::string("fits.") + key);
    }
    // Interval bounds: the fixture's t quantiles are rounded like ohprof's table.
    for (const char* key : {"fixed_low_ns", "fixed_high_ns", "per_item_low_ns", "per_item_high_ns"}) {
      expect_close(w.at(key), g.at(key).get<double>(), std::string("fits.") + key, 1e-6);
    }
  }
}

TEST(SweepTable, SaysEachPointsNumbersAndTheConclusions) {
  const std::string table = format_sweep_table(tiny_report());
  EXPECT_NE(table.find("batch 1 … 4 (2 of 3 points measured), paths aoti, compile"), std::string::npos) << table;
  EXPECT_NE(table.find("2     failed: export failed: out of memory"), std::string::npos) << table;
  EXPECT_NE(table.find("compile/aoti"), std::string::npos);
  // 10000 / 1000 at batch 1, se = 10 sqrt(2) 0.18582% = 0.02628: [9.948, 10.05] to 3 digits.
  EXPECT_NE(table.find("10 [9.95, 10.1]"), std::string::npos) << table;
  EXPECT_NE(table.find("compile/aoti: none in the range"), std::string::npos) << table;
  EXPECT_NE(table.find("aoti: too few points (a fit needs 3)"), std::string::npos) << table;
  EXPECT_NE(table.find("split pass: host / busy per call (medians)\n"), std::string::npos) << table;
}

TEST(SweepTable, NamesTheUsersInputsFileAndOnlyThen) {
  SweepReport r = tiny_report();
  EXPECT_EQ(format_sweep_table(r).find("inputs: "), std::string::npos);
  r.config.inputs_file = "data/inputs.pt";
  const std::string table = format_sweep_table(r);
  EXPECT_NE(table.find("\ninputs: yours, from data/inputs.pt ([1, 16]:float32), resized at each point by repeating the saved "
                       "slices\n"),
            std::string::npos)
      << table;
}

// Kernels that do not record themselves are in the host time (docs/sweep.md): each figure is a bound.
TEST(SweepTable, HostAndBusyAreBoundsWhereAPathsKernelsDoNotRecordThemselves) {
  SweepReport r = tiny_report();
  r.points[0].paths[1].kernels_unrecorded = true;  // compile at batch 1: host 5000, busy 2500
  const std::string table = format_sweep_table(r);
  EXPECT_NE(table.find("split pass: host / busy per call (medians; ≤ and ≥: bounds, where a path's kernels do not "
                       "record themselves and their time is in the host's, or device ops without a launch call leave "
                       "when they were queued unknown)"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("≤5.000 us / ≥2.500 us"), std::string::npos) << table;
  EXPECT_NE(table.find("500 ns / 250 ns"), std::string::npos) << table;  // aoti at batch 1: its own figures
  r.points[0].paths[0].queue_open = true;  // an open queue: host at most, busy exact
  EXPECT_NE(format_sweep_table(r).find("≤500 ns / 250 ns"), std::string::npos) << format_sweep_table(r);
  r.points[0].paths[0].queue_open = false;
  SweepFit fit;
  fit.status = FitStatus::fitted;
  fit.fixed_ns = fit.fixed_low_ns = fit.fixed_high_ns = 9000;
  fit.per_item_ns = fit.per_item_low_ns = fit.per_item_high_ns = 1000;
  fit.points_used = {1, 2, 4};
  fit.smallest = 1;
  fit.host_at_smallest_ns = 8000;
  fit.fixed_minus_host_ns = 1000;
  EXPECT_NE(fit_text(fit, "batch").find("; split host time at batch 1: 8.000 us (c − host 1.000 us)"), std::string::npos)
      << fit_text(fit, "batch");
  fit.host_upper_bound = true;
  EXPECT_NE(fit_text(fit, "batch").find("; split host time at batch 1: at most 8.000 us, as the path's kernels do not "
                                        "record themselves or device ops without a launch call leave its queue open "
                                        "(c − host at least 1.000 us)"),
            std::string::npos)
      << fit_text(fit, "batch");
  EXPECT_NE(fit_text(fit, "batch").find("per item over batch 1 … 4; 3 points"), std::string::npos) << fit_text(fit, "batch");
  // the fit left the smallest point out: no c − host there, and the line says what c describes
  fit.host_upper_bound = false;
  fit.points_used = {2, 4, 8};
  fit.fixed_minus_host_ns.reset();
  EXPECT_NE(fit_text(fit, "batch").find("per item over batch 2 … 8; 3 points; split host time at batch 1: 8.000 us, "
                                        "outside the fit (c describes batch 2 … 8, not batch 1)"),
            std::string::npos)
      << fit_text(fit, "batch");
}

}  // namespace
}  // namespace ohprof
