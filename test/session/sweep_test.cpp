// sweep_paths (`ohprof sweep`, docs/sweep.md) on a fake Runtime (fake_runtime.hpp): a compare per
// point at the point's shapes, a point that fails and the sweep going on, no valid point, the report
// and the page after every point, --resume, Ctrl-C and the sweep's time limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "fake_runtime.hpp"
#include "ohprof/base/interrupt.hpp"
#include "ohprof/session/session.hpp"

namespace ohprof {
namespace {

using fake::FakeWorld;
namespace fs = std::filesystem;

// The batch of the model session opened last (the point being measured).
std::int64_t current_batch(const FakeWorld& world) { return world.opens.back().inputs.at(0).shape.at(0); }

// aoti takes 20 us + 0.1 us per sample, compile 60 us + 0.1 us per sample (spun on the real clock).
void script_paths(FakeWorld& world) {
  world.aoti.duration_ns = [&world](int) { return 20'000 + 100 * current_batch(world); };
  world.python["compile"].duration_ns = [&world](int) { return 60'000 + 100 * current_batch(world); };
}

SweepOptions options_for(const std::string& dir, std::vector<std::int64_t> values) {
  SweepOptions o;
  o.compare.model = "tiny_models:tiny_mlp";
  o.compare.inputs = {InputSpec{{1, 16}, DType::float32}};
  o.compare.paths = {"aoti", "compile"};
  o.compare.stopping.warmup = 1;
  o.compare.stopping.min_runs = 5;
  o.compare.stopping.max_runs = 5;
  o.compare.stopping.min_time_s = 0;
  o.compare.stopping.max_rse = 1e9;
  o.compare.stopping.time_limit_s = 60;
  o.compare.stopping.block = 1;
  o.compare.cache_dir = "/fake/cache";
  o.axis.values = std::move(values);
  o.report_path = dir.empty() ? "" : dir + "/sweep.json";
  o.plot_path = dir.empty() ? "" : dir + "/sweep.html";
  o.argv = {"ohprof", "sweep"};
  return o;
}

std::vector<Warning> warnings_of(const SweepReport& report, WarningCode code) {
  std::vector<Warning> out;
  for (const auto& w : report.warnings) {
    if (w.code == code) out.push_back(w);
  }
  return out;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

TEST(SweepPaths, EachPointIsACompareAtItsShapesAndTheReportIsWrittenAfterEach) {
  FakeWorld world;
  world.with_page = true;
  script_paths(world);
  const std::string dir = fake::make_temp_dir("sweep-all");
  const SweepOutcome out = sweep_paths(options_for(dir, {16, 1, 4, 4}), world.runtime());
  ASSERT_TRUE(out.status.ok()) << out.status.error().message;
  ASSERT_TRUE(out.report);
  // Sorted values, each once; one model session per point at its shape, explanation off.
  ASSERT_EQ(world.opens.size(), 3u);
  EXPECT_EQ(world.opens[0].inputs, (std::vector<InputSpec>{{{1, 16}, DType::float32}}));
  EXPECT_EQ(world.opens[1].inputs, (std::vector<InputSpec>{{{4, 16}, DType::float32}}));
  EXPECT_EQ(world.opens[2].inputs, (std::vector<InputSpec>{{{16, 16}, DType::float32}}));
  EXPECT_EQ(std::count(world.built.begin(), world.built.end(), "compile/no-guards"), 0);

  const SweepReport& r = *out.report;
  ASSERT_EQ(r.points.size(), 3u);
  for (const auto& p : r.points) {
    EXPECT_EQ(p.status, PointStatus::measured) << p.value << ": " << p.reason;
    ASSERT_EQ(p.paths.size(), 2u);
    EXPECT_EQ(p.paths[0].wall_ns.count, 5u);
    EXPECT_TRUE(p.paths[0].host_ns.has_value());  // the fake collector's split
    EXPECT_TRUE(fs::exists(dir + "/" + p.report_path)) << p.report_path;
  }
  EXPECT_EQ(r.points[1].inputs, (std::vector<std::string>{"[4, 16]:float32"}));
  EXPECT_EQ(r.points[2].report_path, "sweep.points/batch-16.json");
  EXPECT_EQ(read_json(dir + "/sweep.points/batch-4.json").at("kind"), "compare");
  EXPECT_EQ(r.stop, SweepStop::complete);
  EXPECT_EQ(r.analysis.baseline, "aoti");
  ASSERT_EQ(r.analysis.pairs.size(), 1u);
  EXPECT_EQ(r.analysis.pairs[0].slower, "compile");
  ASSERT_EQ(r.analysis.fits.size(), 2u);
  EXPECT_EQ(r.config.axis.values, (std::vector<std::int64_t>{1, 4, 16}));
  // The report as written is the returned one; the page was drawn after each point.
  const nlohmann::json written = read_json(dir + "/sweep.json");
  EXPECT_EQ(written.at("kind"), "sweep");
  EXPECT_EQ(written.at("points").size(), 3u);
  EXPECT_EQ(written.at("points").at(2).at("status"), "measured");
  EXPECT_EQ(world.pages.size(), 1u);  // once, at the end
  EXPECT_EQ(world.pages.back(), (std::pair<std::string, std::string>{dir + "/sweep.json", dir + "/sweep.html"}));
}

TEST(SweepPaths, AFailingPointEndsWithItsReasonAndTheSweepGoesOn) {
  FakeWorld world;
  script_paths(world);
  world.open_fails = [](const ModelSessionOptions& o) -> std::optional<Error> {
    if (o.inputs.at(0).shape.at(0) == 4) return Error{ExitCode::input_mismatch, "torch.export rejected [4, 16]"};
    return std::nullopt;
  };
  const std::string dir = fake::make_temp_dir("sweep-fail");
  const SweepOutcome out = sweep_paths(options_for(dir, {1, 4, 16}), world.runtime());
  ASSERT_TRUE(out.status.ok()) << out.status.error().message;
  const SweepReport& r = *out.report;
  EXPECT_EQ(r.points[0].status, PointStatus::measured);
  EXPECT_EQ(r.points[1].status, PointStatus::failed);
  EXPECT_EQ(r.points[1].reason, "torch.export rejected [4, 16]");
  EXPECT_EQ(r.points[1].exit_code, 6);
  EXPECT_TRUE(r.points[1].paths.empty());
  EXPECT_EQ(r.points[1].report_path, "");  // compare made no report
  EXPECT_EQ(r.points[2].status, PointStatus::measured);
  const std::vector<Warning> failures = warnings_of(r, WarningCode::sweep_point_failed);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].message, "batch 4 failed: torch.export rejected [4, 16]; the sweep goes on");
  EXPECT_EQ(r.analysis.pairs.at(0).points, 2u);
}

TEST(SweepPaths, AnErrorEveryPointWouldMeetEndsTheSweepWithItsOwnCode) {
  FakeWorld world;
  world.open_fails = [](const ModelSessionOptions&) -> std::optional<Error> {
    return Error{ExitCode::model_not_found, "no module named 'tiny_modles'"};
  };
  const std::string dir = fake::make_temp_dir("sweep-stop");
  const SweepOutcome out = sweep_paths(options_for(dir, {1, 4, 16}), world.runtime());
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.error().code, ExitCode::model_not_found);
  EXPECT_EQ(world.opens.size(), 1u);  // not once per point
  ASSERT_TRUE(out.report);
  EXPECT_EQ(out.report->stop, SweepStop::error);
  EXPECT_EQ(out.report->points[0].status, PointStatus::failed);
  EXPECT_EQ(out.report->points[2].reason, "the sweep stopped at batch 1: no module named 'tiny_modles'");
  EXPECT_EQ(read_json(dir + "/sweep.json").at("stop"), "error");
}

TEST(SweepPaths, EachPointKeepsItsOwnCompareWarnings) {
  FakeWorld world;
  script_paths(world);
  world.outputs_differ = {"compile"};
  const SweepOutcome out = sweep_paths(options_for(fake::make_temp_dir("sweep-warn"), {1, 4}), world.runtime());
  ASSERT_TRUE(out.status.ok());
  for (const auto& p : out.report->points) {
    const bool differ = std::any_of(p.warnings.begin(), p.warnings.end(), [](const Warning& w) {
      return w.code == WarningCode::outputs_differ && w.message.find("OUTPUTS DIFFER: path compile") != std::string::npos;
    });
    EXPECT_TRUE(differ) << p.value;
    EXPECT_EQ(p.paths[1].outputs_match, false);
  }
  EXPECT_TRUE(warnings_of(*out.report, WarningCode::outputs_differ).empty());  // the point's, not the sweep's
}

TEST(SweepPaths, NoValidPointIsAnErrorWithItsOwnCodeAndTheReportIsStillWritten) {
  FakeWorld world;
  world.open_fails = [](const ModelSessionOptions&) -> std::optional<Error> {
    return Error{ExitCode::model_error, "out of memory"};
  };
  const std::string dir = fake::make_temp_dir("sweep-none");
  const SweepOutcome out = sweep_paths(options_for(dir, {1, 2}), world.runtime());
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.error().code, ExitCode::no_valid_point);
  EXPECT_EQ(out.status.error().message, "no point of the sweep could be measured; batch 1: out of memory");
  ASSERT_TRUE(out.report);
  EXPECT_EQ(read_json(dir + "/sweep.json").at("points").at(1).at("status"), "failed");
}

TEST(SweepPaths, ResumeMeasuresOnlyTheMissingPoints) {
  const std::string dir = fake::make_temp_dir("sweep-resume");
  double first_median = 0;
  {
    FakeWorld world;
    script_paths(world);
    const SweepOutcome out = sweep_paths(options_for(dir, {1, 4}), world.runtime());
    ASSERT_TRUE(out.status.ok());
    first_median = out.report->points[0].paths[0].wall_ns.median;
  }
  FakeWorld world;
  script_paths(world);
  SweepOptions o = options_for(dir, {1, 4, 16});
  o.resume = true;
  const SweepOutcome out = sweep_paths(o, world.runtime());
  ASSERT_TRUE(out.status.ok()) << out.status.error().message;
  ASSERT_EQ(world.opens.size(), 1u);  // batch 16 only
  EXPECT_EQ(world.opens[0].inputs.at(0).shape.at(0), 16);
  ASSERT_EQ(out.report->points.size(), 3u);
  EXPECT_EQ(out.report->points[0].paths[0].wall_ns.median, first_median);  // kept as written
  EXPECT_EQ(out.report->points[2].status, PointStatus::measured);
  // Once more: nothing left to measure.
  FakeWorld idle;
  EXPECT_TRUE(sweep_paths(o, idle.runtime()).status.ok());
  EXPECT_TRUE(idle.opens.empty());
}

TEST(SweepPaths, PassesMeasureEveryPointAgainBackwardsAndKeepTheLeastDisturbed) {
  FakeWorld world;
  // Pass 2 (the model sessions opened after the first three) runs on a machine ten times as slow, except
  // at batch 4, where pass 1 was the slow one. (Twice as slow was not enough: the durations are spun on
  // the real clock, and a loaded CI machine once stretched the fast pass's spins past the slow one's.)
  const auto slow = [&world] {
    const bool second = world.opens.size() > 3;
    return current_batch(world) == 4 ? !second : second;
  };
  world.aoti.duration_ns = [&world, slow](int) { return (slow() ? 10 : 1) * (20'000 + 100 * current_batch(world)); };
  world.python["compile"].duration_ns = [&world, slow](int) { return (slow() ? 10 : 1) * (60'000 + 100 * current_batch(world)); };
  const std::string dir = fake::make_temp_dir("sweep-passes");
  SweepOptions o = options_for(dir, {1, 4, 16});
  o.passes = 2;
  const SweepOutcome out = sweep_paths(o, world.runtime());
  ASSERT_TRUE(out.status.ok()) << out.status.error().message;
  ASSERT_EQ(world.opens.size(), 6u);
  std::vector<std::int64_t> order;
  for (const auto& open : world.opens) order.push_back(open.inputs.at(0).shape.at(0));
  EXPECT_EQ(order, (std::vector<std::int64_t>{1, 4, 16, 16, 4, 1}));
  const SweepReport& r = *out.report;
  EXPECT_EQ(r.config.passes, 2);
  for (const auto& p : r.points) {
    ASSERT_EQ(p.passes.size(), 2u) << p.value;
    EXPECT_EQ(p.passes[1].pass, 2);
    EXPECT_EQ(p.chosen_pass, p.value == 4 ? 2 : 1) << p.value;
    const SweepPass& kept = p.passes[static_cast<std::size_t>(p.chosen_pass - 1)];
    EXPECT_EQ(p.paths[0].wall_ns.median, kept.medians_ns[0].second);
    EXPECT_EQ(p.report_path, kept.report_path);
    EXPECT_TRUE(fs::exists(dir + "/" + p.passes[1].report_path));
  }
  EXPECT_EQ(r.points[1].report_path, "sweep.points/batch-4.pass2.json");
  // Resuming with a third pass measures each point once more, forwards.
  FakeWorld more;
  o.passes = 3;
  o.resume = true;
  const SweepOutcome third = sweep_paths(o, more.runtime());
  ASSERT_TRUE(third.status.ok());
  EXPECT_EQ(more.opens.size(), 3u);
  EXPECT_EQ(third.report->points[0].passes.size(), 3u);
}

TEST(SweepPaths, ResumeWithFewerValuesSaysWhichPointsItLeavesOut) {
  const std::string dir = fake::make_temp_dir("sweep-resume-fewer");
  {
    FakeWorld world;
    ASSERT_TRUE(sweep_paths(options_for(dir, {1, 4, 16}), world.runtime()).status.ok());
  }
  FakeWorld world;
  SweepOptions o = options_for(dir, {1, 4});
  o.resume = true;
  const SweepOutcome out = sweep_paths(o, world.runtime());
  ASSERT_TRUE(out.status.ok());
  EXPECT_TRUE(world.opens.empty());
  ASSERT_EQ(out.report->points.size(), 2u);
  const std::vector<Warning> dropped = warnings_of(*out.report, WarningCode::sweep_point_failed);
  ASSERT_EQ(dropped.size(), 1u);
  EXPECT_NE(dropped[0].message.find("the report's measured batch 16 is not asked for this time"), std::string::npos)
      << dropped[0].message;
}

// Random inputs: another --seed is other values, so --resume refuses it as it refuses another file's values.
TEST(SweepPaths, ResumeRefusesAnotherSeedOfRandomInputs) {
  const std::string dir = fake::make_temp_dir("sweep-resume-seed");
  {
    FakeWorld world;
    ASSERT_TRUE(sweep_paths(options_for(dir, {1, 4}), world.runtime()).status.ok());
  }
  FakeWorld world;
  SweepOptions o = options_for(dir, {1, 4});
  o.resume = true;
  o.compare.seed = 5;
  const SweepOutcome out = sweep_paths(o, world.runtime());
  ASSERT_FALSE(out.status.ok());
  EXPECT_NE(out.status.error().message.find("was made with seed 0, this sweep has 5"), std::string::npos)
      << out.status.error().message;
  EXPECT_TRUE(world.opens.empty());
}

TEST(SweepPaths, ResumeRefusesAReportOfAnotherSweep) {
  const std::string dir = fake::make_temp_dir("sweep-resume-other");
  {
    FakeWorld world;
    ASSERT_TRUE(sweep_paths(options_for(dir, {1, 4}), world.runtime()).status.ok());
  }
  FakeWorld world;
  SweepOptions o = options_for(dir, {1, 4});
  o.resume = true;
  o.compare.paths = {"aoti", "eager"};
  const SweepOutcome out = sweep_paths(o, world.runtime());
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.error().code, ExitCode::usage_error);
  EXPECT_TRUE(world.opens.empty());
}

TEST(SweepPaths, CtrlCKeepsTheFinishedPointsAndMarksTheRest) {
  FakeWorld world;
  // Ctrl-C during batch 4's measurement (its third aoti call).
  int calls_at_4 = 0;
  world.aoti.duration_ns = [&world, &calls_at_4](int) {
    if (current_batch(world) == 4 && ++calls_at_4 == 3) request_interrupt();
    return std::int64_t{20'000};
  };
  const std::string dir = fake::make_temp_dir("sweep-interrupt");
  const SweepOutcome out = sweep_paths(options_for(dir, {1, 4, 16}), world.runtime());
  clear_interrupt();
  ASSERT_TRUE(out.status.ok());
  const SweepReport& r = *out.report;
  EXPECT_EQ(r.stop, SweepStop::interrupted);
  EXPECT_EQ(r.points[0].status, PointStatus::measured);
  EXPECT_EQ(r.points[1].status, PointStatus::interrupted);
  EXPECT_EQ(r.points[1].reason, "interrupted while measuring; --resume measures it again");
  EXPECT_TRUE(fs::exists(dir + "/sweep.points/batch-4.json"));  // what it had measured of that point
  EXPECT_EQ(r.points[2].status, PointStatus::not_measured);
  EXPECT_EQ(r.points[2].reason, "interrupted before this point; --resume measures it");
  EXPECT_EQ(world.opens.size(), 2u);
  const nlohmann::json written = read_json(dir + "/sweep.json");
  EXPECT_EQ(written.at("stop"), "interrupted");
  EXPECT_EQ(written.at("points").at(0).at("status"), "measured");
}

TEST(SweepPaths, TheSweepsTimeLimitLeavesTheRestNotMeasured) {
  FakeWorld world;
  script_paths(world);
  SweepOptions o = options_for("", {1, 4, 16});
  o.sweep_time_limit_s = 0.0005;  // 0.5 ms: left before the first point, spent by its end (11 iterations of 80 us)
  const SweepOutcome out = sweep_paths(o, world.runtime());
  ASSERT_TRUE(out.status.ok()) << out.status.error().message;
  const SweepReport& r = *out.report;
  EXPECT_EQ(r.stop, SweepStop::sweep_time_limit);
  EXPECT_EQ(world.opens.size(), 1u);
  EXPECT_EQ(r.points[0].status, PointStatus::measured);
  EXPECT_EQ(r.points[1].status, PointStatus::not_measured);
  EXPECT_NE(r.points[1].reason.find("--sweep-time-limit"), std::string::npos);
}

TEST(SweepPaths, APageThatCannotBeDrawnIsOneWarningAndTheReportStands) {
  FakeWorld world;
  world.with_page = true;
  world.page_error = Error{ExitCode::output_error, "No module named 'matplotlib'"};
  const std::string dir = fake::make_temp_dir("sweep-page");
  const SweepOutcome out = sweep_paths(options_for(dir, {1, 4}), world.runtime());
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(world.pages.size(), 1u);  // not tried again
  ASSERT_EQ(warnings_of(*out.report, WarningCode::sweep_page_not_written).size(), 1u);
  EXPECT_EQ(warnings_of(*out.report, WarningCode::sweep_page_not_written)[0].message,
            "the sweep's page was not written: No module named 'matplotlib'");
  bool written = false;
  const nlohmann::json report = read_json(dir + "/sweep.json");
  for (const auto& w : report.at("warnings")) written = written || w.at("code") == "sweep-page-not-written";
  EXPECT_TRUE(written);
}

// sweep --inputs FILE (docs/sweep.md, "Your own inputs"): the axis is applied to the file's tensors
// (positional, then keyword ones), and each point opens the model on the file with its shapes.
TEST(SweepPaths, TheUsersInputsFileIsResizedAtEachPoint) {
  FakeWorld world;
  const std::string dir = fake::make_temp_dir("sweep-inputs-file");
  SweepOptions o = options_for(dir, {1, 8});
  o.compare.inputs.clear();
  o.compare.inputs_file = "/data/inputs.pt";
  const SweepOutcome out = sweep_paths(o, world.runtime());
  ASSERT_TRUE(out.status.ok()) << out.status.error().message;
  EXPECT_EQ(world.file_reads, (std::vector<std::string>{"/data/inputs.pt"}));
  ASSERT_EQ(world.opens.size(), 2u);
  for (const auto& open : world.opens) {
    EXPECT_EQ(open.inputs_file, "/data/inputs.pt");
    EXPECT_TRUE(open.inputs.empty());
  }
  using Shapes = std::vector<std::vector<std::int64_t>>;
  EXPECT_EQ(world.opens[0].inputs_file_shapes, (Shapes{{1, 16}, {1, 5}}));
  EXPECT_EQ(world.opens[1].inputs_file_shapes, (Shapes{{8, 16}, {8, 5}}));
  const SweepReport& r = *out.report;
  EXPECT_EQ(r.config.inputs, (std::vector<std::string>{"[3, 16]:float32", "[3, 5]:int64"}));
  EXPECT_EQ(r.config.inputs_file, "/data/inputs.pt");
  EXPECT_EQ(r.config.inputs_file_digest, "d1g3st");
  EXPECT_EQ(r.points[1].inputs, (std::vector<std::string>{"[8, 16]:float32", "[8, 5]:int64"}));
  EXPECT_EQ(read_json(dir + "/sweep.json").at("config").at("inputs_file"), "/data/inputs.pt");

  // --dim names input 1 of that list (a keyword tensor, say); the others stay as saved.
  FakeWorld dim_world;
  SweepOptions d = options_for("", {2, 7});
  d.compare.inputs.clear();
  d.compare.inputs_file = "/data/inputs.pt";
  d.axis = SweepAxis{SweepAxis::Kind::dim, {1}, 1, {2, 7}};
  ASSERT_TRUE(sweep_paths(d, dim_world.runtime()).status.ok());
  ASSERT_EQ(dim_world.opens.size(), 2u);
  EXPECT_EQ(dim_world.opens[1].inputs_file_shapes, (Shapes{{3, 16}, {3, 7}}));

  // A random-input sweep's report has no file.
  FakeWorld random_world;
  const SweepOutcome random = sweep_paths(options_for("", {1, 2}), random_world.runtime());
  ASSERT_TRUE(random.report);
  EXPECT_EQ(random.report->config.inputs_file, "");
  EXPECT_TRUE(random_world.file_reads.empty());
  ASSERT_FALSE(random_world.opens.empty());
  EXPECT_TRUE(random_world.opens[0].inputs_file_shapes.empty());
}

// --resume compares the file's content: the points of other values saved under the same name are not kept.
TEST(SweepPaths, ResumeRefusesTheSameInputsFileWithOtherContent) {
  const std::string dir = fake::make_temp_dir("sweep-resume-content");
  SweepOptions o = options_for(dir, {1, 4});
  o.compare.inputs.clear();
  o.compare.inputs_file = "/data/inputs.pt";
  {
    FakeWorld world;
    ASSERT_TRUE(sweep_paths(o, world.runtime()).status.ok());
  }
  o.resume = true;
  FakeWorld same;
  const SweepOutcome kept = sweep_paths(o, same.runtime());
  ASSERT_TRUE(kept.status.ok()) << kept.status.error().message;
  EXPECT_TRUE(same.opens.empty());  // both points kept
  FakeWorld changed;
  changed.file_digest = "0ther";
  const SweepOutcome refused = sweep_paths(o, changed.runtime());
  ASSERT_FALSE(refused.status.ok());
  EXPECT_EQ(refused.status.error().code, ExitCode::usage_error);
  EXPECT_NE(refused.status.error().message.find("inputs_file_digest \"d1g3st\", this sweep has \"0ther\""), std::string::npos)
      << refused.status.error().message;
  EXPECT_TRUE(changed.opens.empty());
}

TEST(SweepPaths, AnInputsFileTheSweepCannotUseEndsItBeforeAnyPoint) {
  const auto error_of = [](FakeWorld& world, std::int64_t first) {
    SweepOptions o = options_for("", {first, 4});
    o.compare.inputs.clear();
    o.compare.inputs_file = "/data/inputs.pt";
    const SweepOutcome out = sweep_paths(o, world.runtime());
    EXPECT_TRUE(world.opens.empty());
    return out.status.ok() ? Error{ExitCode::success, "ok"} : out.status.error();
  };
  FakeWorld unreadable;
  unreadable.file_error = Error{ExitCode::input_mismatch, "--inputs '/data/inputs.pt' holds a int; save a tensor"};
  EXPECT_EQ(error_of(unreadable, 1).code, ExitCode::input_mismatch);
  FakeWorld empty;  // a saved batch of 0 has no row to repeat
  empty.file_specs = {InputSpec{{0, 16}, DType::float32}};
  const Error error = error_of(empty, 1);
  EXPECT_EQ(error.code, ExitCode::usage_error);
  EXPECT_EQ(error.message,
            "--inputs '/data/inputs.pt': input 0 has size 0 in dimension 0, which the sweep cannot fill; save at least one slice");
  FakeWorld scalar;  // every tensor zero-dimensional: --batch has nothing to set
  scalar.file_specs = {InputSpec{{}, DType::float32}};
  EXPECT_EQ(error_of(scalar, 1).code, ExitCode::usage_error);
  FakeWorld unable;  // a build that cannot read such files says so
  unable.with_inputs_files = false;
  EXPECT_EQ(error_of(unable, 1).message, "this ohprof cannot read --inputs files; give --input shapes");
}

TEST(SweepPaths, UsageErrorsComeBeforeAnyModelIsOpened) {
  const auto error_of = [](SweepOptions o) {
    FakeWorld world;
    const SweepOutcome out = sweep_paths(o, world.runtime());
    EXPECT_TRUE(world.opens.empty());
    EXPECT_FALSE(out.report.has_value());
    return out.status.ok() ? std::string("ok") : out.status.error().message;
  };
  SweepOptions o = options_for("", {1, 4});
  o.compare.exported = "/x.pt2";
  EXPECT_EQ(error_of(o), "sweep exports the model again at every point; give --model (and --input), not --exported or --aoti");
  o = options_for("", {1, 4});
  o.compare.inputs.clear();
  EXPECT_EQ(error_of(o),
            "sweep scales the inputs' shapes; give --input SHAPE[:DTYPE] per model input, or --inputs FILE, for --model");
  EXPECT_EQ(error_of(options_for("", {4})), "a sweep needs at least two positive values (--batch or --dim)");
  o = options_for("", {1, 4});
  o.resume = true;
  EXPECT_EQ(error_of(o), "--resume needs --export-json, the report of the sweep to resume");
  o = options_for("", {1, 4});
  o.axis = SweepAxis{SweepAxis::Kind::dim, {2}, 0, {1, 4}};
  EXPECT_EQ(error_of(o), "--dim names input 2, but the model has 1 input (counted from 0)");
  o = options_for("", {1, 4});
  o.report_path = "-";
  EXPECT_EQ(error_of(o), "sweep rewrites its report after every point: give --export-json a file, not '-'");
  o = options_for("", {1, 4});
  o.tolerance = -0.1;
  EXPECT_EQ(error_of(o), "--tolerance must be in [0, 1) (0.05 = 5%)");
  o = options_for("/tmp/x", {1, 4});
  o.plot_path = o.report_path;
  EXPECT_EQ(error_of(o), "--export-html (--plot) and --export-json name the same file; give the page another name");
  o = options_for("", {1, 4});
  o.plot_path = "/tmp/sweep.html";
  EXPECT_EQ(error_of(o), "--export-html (--plot) draws the written report: give --export-json too");
  // compare's own checks, once for all points
  o = options_for("", {1, 4});
  o.compare.stopping.min_runs = 0;
  EXPECT_EQ(error_of(o), "--min-runs must be at least 1");
  o = options_for("", {1, 4});
  o.compare.device = DeviceRequest{DeviceRequest::Kind::cuda, 0};
  EXPECT_EQ(error_of(o), "--device cuda but no CUDA device is available here; use --device cpu");
}

}  // namespace
}  // namespace ohprof
