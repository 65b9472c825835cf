// `ohprof diff`'s reader, JSON and table (output/diff_report.hpp; docs/diff.md, docs/report-schema.md
// "The diff report"). The reader reads what the report printer writes: reports are made with
// report_to_json here and read back.
#include "ohprof/output/diff_report.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ohprof/output/json_report.hpp"
#include "ohprof/output/markdown_report.hpp"
#include "sample_breakdown.hpp"

namespace ohprof {
namespace {

using nlohmann::json;


Report compare_report() {
  Report r;
  r.kind = ReportKind::compare;
  r.context = make_base_context({"ohprof", "compare"});
  r.context.device = DeviceDescription{DeviceKind::cpu, -1, "Test CPU"};
  r.context.torch_version = "2.14.1";
  r.context.hostname = "box";
  r.context.cpu_threads = 2;
  r.config.inputs = {"[1, 16]:float32"};
  r.config.compare = CompareConfig{};
  r.config.compare->compile_source = PathSource::module;
  r.artifacts = ArtifactSummary{};
  r.artifacts->model = "tiny_models:tiny_mlp";
  PathResult aoti = test::measured_path("aoti", {300, 100, 200}, "m.pt2");
  aoti.breakdown = test::cpu_breakdown();
  aoti.split_collector = CollectorKind::record_function;
  r.paths.push_back(aoti);
  r.paths.push_back(test::measured_path("compile", {900, 1000}, "m.pt2"));
  r.paths.push_back(test::measured_path("compile/no-guards", {800}, "m.pt2", PathRole::variant));
  r.stop_reason = StopReason{StopCode::converged};
  return r;
}

Result<ParsedDigest> parse(const json& j) {
  std::istringstream in(j.dump());
  return parse_report_digest(in, "r.json");
}

TEST(ParseReportDigest, ReadsWhatTheReportPrinterWrites) {
  auto parsed = parse(report_to_json(compare_report()));
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  const ReportDigest& d = parsed->digest;
  EXPECT_EQ(d.file, "r.json");
  EXPECT_EQ(d.kind, DigestKind::compare);
  EXPECT_EQ(d.schema_version, kReportSchemaVersion);
  EXPECT_EQ(d.model, "tiny_models:tiny_mlp");
  EXPECT_EQ(d.inputs, (std::vector<std::string>{"[1, 16]:float32"}));
  EXPECT_EQ(d.device_type, DeviceKind::cpu);
  EXPECT_EQ(d.device_name, "Test CPU");
  EXPECT_EQ(d.torch_version, "2.14.1");
  EXPECT_EQ(d.hostname, "box");
  EXPECT_EQ(d.cpu_threads, 2);
  EXPECT_EQ(d.compile_source, "module");
  // the variant is not diffed
  ASSERT_EQ(d.paths.size(), 2u);
  EXPECT_EQ(d.paths[0].name, "aoti");
  EXPECT_EQ(d.paths[0].samples_ns, (std::vector<std::int64_t>{300, 100, 200}));
  EXPECT_EQ(d.paths[0].median_ns, 200.0);
  EXPECT_FALSE(d.paths[0].point.has_value());
  // cpu_breakdown: one iteration of 10 us, busy 7.5 us, host-bound 2.5 us, all framework
  ASSERT_TRUE(d.paths[0].split.has_value());
  EXPECT_EQ(d.paths[0].split->iterations, 1);
  EXPECT_EQ(d.paths[0].split->wall_ns, 10'000);
  EXPECT_EQ(d.paths[0].split->busy_ns, 7500);
  EXPECT_EQ(d.paths[0].split->host_bound_ns, 2500);
  EXPECT_EQ(d.paths[0].split->framework_ns, 2500);
  EXPECT_EQ(d.paths[0].split->launch_ns, 0);
  EXPECT_FALSE(d.paths[0].split->kernels_unrecorded);
  EXPECT_FALSE(d.paths[1].split.has_value());
  // a path whose kernels do not record themselves (its verdict says so): its split totals say so too
  Report unrecorded = compare_report();
  unrecorded.paths[0].breakdown->verdict.kernels_unrecorded = true;
  auto bounds = parse(report_to_json(unrecorded));
  ASSERT_TRUE(bounds.ok()) << bounds.error().message;
  EXPECT_TRUE(bounds->digest.paths[0].split->kernels_unrecorded);
  EXPECT_TRUE(d.notes.empty());
}

// Each flaw read from the report's own fields, the first that holds in the documented order.
TEST(ParseReportDigest, APathWhoseFiguresAreNotThePathsCarriesItsFlaw) {
  const auto flaw_of = [](const Report& r) {
    auto parsed = parse(report_to_json(r));
    EXPECT_TRUE(parsed.ok()) << parsed.error().message;
    return parsed->digest.paths[0].flaw;
  };
  Report r = compare_report();
  EXPECT_FALSE(flaw_of(r).has_value());
  r.paths[0].execution = ExecutionCheck{};
  r.paths[0].execution->pooled = true;
  EXPECT_EQ(flaw_of(r), DigestFlaw::samples_pooled);
  r.paths[0].execution->compiled_call = CompiledCall::no_graph;
  EXPECT_EQ(flaw_of(r), DigestFlaw::ran_uncompiled);
  r.paths[0].execution->compiled_call = CompiledCall::compiled;
  EXPECT_EQ(flaw_of(r), DigestFlaw::samples_pooled);
  r.paths[0].output_check = PathOutputCheck{"eager", false};
  EXPECT_EQ(flaw_of(r), DigestFlaw::outputs_differ);
  r.paths[0].output_check->passed = true;
  r.paths[0].execution->pooled = false;
  EXPECT_FALSE(flaw_of(r).has_value());
}

TEST(ParseReportDigest, ARunIsIdentifiedByItsPackageAndAnAnalyzeByNothing) {
  Report run = compare_report();
  run.kind = ReportKind::run;
  run.artifacts.reset();
  run.config.compare.reset();
  auto parsed = parse(report_to_json(run));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->digest.model, "m.pt2");
  Report analyze = run;
  analyze.kind = ReportKind::analyze;
  parsed = parse(report_to_json(analyze));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->digest.model, "");
  EXPECT_TRUE(parsed->digest.inputs.empty());
}

// Where the inputs' values came from, read from the config: random with its seed, or an --inputs file's
// digest (what diff warns about when the two differ); an analyze report has none.
TEST(ParseReportDigest, TheInputsValuesAreTheSeedOrTheFilesDigest) {
  Report r = compare_report();
  r.config.seed = 3;
  auto parsed = parse(report_to_json(r));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->digest.inputs_values, "random (seed 3)");
  r.config.inputs_file = "in.pt";
  r.config.inputs_file_digest = "0123456789abcdef";
  parsed = parse(report_to_json(r));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->digest.inputs_values, "--inputs file (digest 0123456789abcdef)");
  Report analyze = compare_report();
  analyze.kind = ReportKind::analyze;
  parsed = parse(report_to_json(analyze));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->digest.inputs_values, "");
  // a sweep that recorded its file but not the digest (its first form, 2026-12-07) is not called random
  std::ifstream in(std::string(OHPROF_SOURCE_DIR) + "/test/data/sweep/sample_sweep.json");
  json sweep = json::parse(in);
  sweep["config"]["inputs_file"] = "old.pt";
  auto old = parse(sweep);
  ASSERT_TRUE(old.ok()) << old.error().message;
  EXPECT_EQ(old->digest.inputs_values, "--inputs file old.pt (digest not recorded)");
}

TEST(ParseReportDigest, ACheckpointOrAnInterruptedRunIsNoted) {
  Report r = compare_report();
  r.stop_reason = StopReason{StopCode::in_progress};
  r.interrupted = true;
  auto parsed = parse(report_to_json(r));
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed->digest.notes.size(), 2u);
  EXPECT_EQ(parsed->digest.notes[0], "a checkpoint written while measuring, not a finished report");
}

TEST(ParseReportDigest, ASweepGivesEachMeasuredPointsMediansAndItsPointReport) {
  std::ifstream in(std::string(OHPROF_SOURCE_DIR) + "/test/data/sweep/sample_sweep.json");
  auto parsed = parse_report_digest(in, "sample_sweep.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  const ReportDigest& d = parsed->digest;
  EXPECT_EQ(d.kind, DigestKind::sweep);
  EXPECT_EQ(d.axis, "batch");
  EXPECT_EQ(d.model, "tiny_models:tiny_mlp");
  // 13 points, 2048 failed: 12 measured with 3 paths each
  EXPECT_EQ(d.paths.size(), 36u);
  EXPECT_EQ(d.paths[0].point, 1);
  EXPECT_TRUE(d.paths[0].samples_ns.empty());
  EXPECT_TRUE(d.paths[0].median_ns.has_value());
  ASSERT_EQ(parsed->sweep_point_reports.size(), 12u);
  EXPECT_EQ(parsed->sweep_point_reports[1].value, 2);
  EXPECT_EQ(parsed->sweep_point_reports[1].report, "sample_sweep.points/batch-2.pass2.json");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].rfind("batch 2048 was not measured (failed", 0), 0u) << d.notes[0];
}

// A sweep of another sweep_schema_version is read with its version, which diff then calls incomparable
// (--force diffs it anyway), and its infinite limits (written as null) are read.
TEST(ParseReportDigest, ASweepOfAnotherSchemaVersionKeepsItsVersion) {
  std::ifstream in(std::string(OHPROF_SOURCE_DIR) + "/test/data/sweep/sample_sweep.json");
  nlohmann::json sweep = nlohmann::json::parse(in);
  sweep["sweep_schema_version"] = 2;
  sweep["config"]["sweep_time_limit_s"] = nullptr;
  std::istringstream text(sweep.dump());
  auto parsed = parse_report_digest(text, "later.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(parsed->digest.schema_version, 2);
  EXPECT_EQ(parsed->digest.paths.size(), 36u);
}

TEST(ParseReportDigest, WhatIsNotAReportIsRefusedInOneLine) {
  std::istringstream not_json("{ nope");
  auto r = parse_report_digest(not_json, "x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::usage_error);
  EXPECT_EQ(r.error().message.rfind("'x.json' is not an ohprof report (not JSON: ", 0), 0u) << r.error().message;
  EXPECT_EQ(r.error().message.find('\n'), std::string::npos);

  r = parse(json{{"kind", "trace"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "'r.json' is not an ohprof report (kind 'trace' is none of run, compare, analyze, sweep); give two "
            "reports written by --export-json");

  json missing = report_to_json(compare_report());
  missing["paths"][0].erase("samples_ns");
  r = parse(missing);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("samples_ns"), std::string::npos) << r.error().message;
}

DiffResult sample_diff() {
  DiffResult d;
  d.base_file = "base.json";
  d.new_file = "new.json";
  d.kind = DigestKind::compare;
  const PathDiff slower = test::slower_compile_diff();
  PathDiff same;
  same.name = "aoti";
  same.base_count = same.new_count = 100;
  same.base_median_ns = 4000;
  same.new_median_ns = 4020;
  same.ratio = 1.005;
  same.low = 0.99;
  same.high = 1.02;
  same.verdict = DiffVerdict::no_change;
  same.reason = DiffReason::not_significant;
  PathDiff gone;
  gone.name = "eager";
  gone.base_count = 100;
  gone.base_median_ns = 20000;
  gone.reason = DiffReason::only_in_base;
  d.paths = {slower, same, gone};
  d.warnings = {{WarningCode::diff_path_unmatched, "eager is in the base report only; it is not diffed"}};
  return d;
}

TEST(DiffToJson, HasEveryPathsNumbersAndTheOutcome) {
  const json j = diff_to_json(sample_diff());
  EXPECT_EQ(j["kind"], "diff");
  EXPECT_EQ(j["diff_schema_version"], kDiffSchemaVersion);
  EXPECT_EQ(j["report_kind"], "compare");
  EXPECT_EQ(j["outcome"], "regression");
  EXPECT_EQ(j["judged"], 2);
  EXPECT_EQ(j["config"]["threshold"], 0.10);
  EXPECT_EQ(j["config"]["min_samples"], kMinDiffSamples);
  EXPECT_TRUE(j["config"]["relative_to"].is_null());
  ASSERT_EQ(j["paths"].size(), 3u);
  const json& p = j["paths"][0];
  EXPECT_EQ(p["name"], "compile");
  EXPECT_TRUE(p["point"].is_null());
  EXPECT_EQ(p["ratio"], 1.2);
  EXPECT_EQ(p["low"], 1.15);
  EXPECT_EQ(p["verdict"], "slower");
  EXPECT_EQ(p["reason"], "above_threshold");
  EXPECT_EQ(p["split"][0]["component"], "wall");
  EXPECT_EQ(p["split"][0]["change_ns"], 6000.0);
  EXPECT_TRUE(j["paths"][2]["ratio"].is_null());
  EXPECT_TRUE(j["paths"][2]["new_median_ns"].is_null());
  EXPECT_EQ(j["warnings"][0]["code"], "diff-path-unmatched");
}

TEST(FormatDiffTable, PrintsEachPathTheSplitAndTheVerdictWithItsNumbers) {
  const std::string table = format_diff_table(sample_diff());
  EXPECT_NE(table.find("ohprof diff (compare reports): base base.json, new new.json\n"), std::string::npos) << table;
  EXPECT_NE(table.find("95% interval by bootstrap (10000 resamples, seed 0); threshold 10%"), std::string::npos) << table;
  EXPECT_NE(table.find("  compile 30.00 us    36.00 us   +20.0% [+15.0%, +25.0%] 100/120    SLOWER\n"), std::string::npos)
      << table;
  EXPECT_NE(table.find("  aoti    4.000 us    4.020 us   +0.5%  [-1.0%, +2.0%]   100/100    no significant change\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("  eager   20.00 us    -          -      -                100/0      only in the base report\n"),
            std::string::npos)
      << table;
  // the split: only the components some path has time in (no device_wait column)
  EXPECT_NE(table.find("  path    wall                 busy\n"), std::string::npos) << table;
  EXPECT_NE(table.find("  compile 40.00 us -> 46.00 us 5.000 us -> 5.000 us\n"), std::string::npos) << table;
  EXPECT_NE(table.find("verdict: REGRESSION: compile +20.0% [+15.0%, +25.0%] slower beyond 10% (1 of 2 judged paths)\n"),
            std::string::npos)
      << table;
}

// A fresh peak (compare --cold-start) is a size: its values in bytes, LARGER where it fails the gate, and the
// verdict line names each group of figures with its own word.
TEST(FormatDiffTable, AFreshPeakIsASizeAndALargerOneIsNamedWithTheSlowerPaths) {
  DiffResult d = sample_diff();
  DeploymentDiff peak;
  peak.path = "compile";
  peak.measure = DeployMeasure::fresh_peak;
  peak.cache = CompileCache::cold;
  peak.base_value = 809e6;
  peak.new_value = 1011.25e6;
  peak.base_count = peak.new_count = 4;
  peak.ratio = 1.25;
  peak.verdict = DiffVerdict::larger;
  peak.reason = DiffReason::above_threshold;
  d.deployment = {peak};
  const std::string table = format_diff_table(d);
  EXPECT_NE(table.find("  compile fresh peak (cold cache) 809 MB 1.01 GB +25.0% 4/4        LARGER\n"), std::string::npos)
      << table;
  EXPECT_NE(table.find("verdict: REGRESSION: compile +20.0% [+15.0%, +25.0%] slower; compile fresh peak (cold cache) "
                       "+25.0% (809 MB -> 1.01 GB) larger beyond 10% (2 of 3 judged: 2 paths, 1 deployment figure)\n"),
            std::string::npos)
      << table;
  const json j = diff_to_json(d);
  EXPECT_EQ(j["deployment"][0]["measure"], "fresh_peak");
  EXPECT_EQ(j["deployment"][0]["cache"], "cold");
  EXPECT_TRUE(j["deployment"][0]["threads"].is_null());
  EXPECT_EQ(j["deployment"][0]["verdict"], "larger");
  EXPECT_EQ(j["outcome"], "regression");
  const std::string markdown = format_diff_markdown(d);
  EXPECT_NE(markdown.find("| `compile` | fresh peak (cold cache) | 809 MB | 1.01 GB | +25.0% | 4/4 | **LARGER** |"),
            std::string::npos) << markdown;
  // smaller, with the paths no slower: no regression, and the gain listed by its own word
  d.paths.resize(2);
  d.paths[0].verdict = DiffVerdict::no_change;
  d.paths[0].reason = DiffReason::not_significant;
  d.deployment[0].ratio = 0.75;
  d.deployment[0].new_value = 606.75e6;
  d.deployment[0].verdict = DiffVerdict::smaller;
  const std::string better = format_diff_table(d);
  EXPECT_NE(better.find("verdict: no regression: none of 3 judged (2 paths, 1 deployment figure) slower or larger beyond "
                        "10%; smaller: compile fresh peak (cold cache) -25.0%\n"),
            std::string::npos)
      << better;
  // one judged path: singular; with only peaks judged, the line says "larger" alone
  d.paths.resize(1);
  d.deployment[0].verdict = DiffVerdict::no_change;
  d.deployment[0].reason = DiffReason::below_threshold;
  EXPECT_NE(format_diff_table(d).find("none of 2 judged (1 path, 1 deployment figure) slower or larger beyond 10%\n"),
            std::string::npos) << format_diff_table(d);
  d.paths[0].verdict = DiffVerdict::unknown;
  d.paths[0].reason = DiffReason::too_few_samples;
  EXPECT_NE(format_diff_table(d).find("none of 1 judged (0 paths, 1 deployment figure) larger beyond 10%\n"),
            std::string::npos) << format_diff_table(d);
  // a side without a reading, and too few readings, say so in the peak's own words
  d.deployment[0].verdict = DiffVerdict::unknown;
  d.deployment[0].reason = DiffReason::no_samples;
  EXPECT_NE(format_diff_table(d).find("unknown: no peak on a side (no process finished, or none read its memory)"),
            std::string::npos);
  d.deployment[0].reason = DiffReason::too_few_samples;
  EXPECT_NE(format_diff_table(d).find("unknown: too few peaks to order (4 or more processes with a reading on each side)"),
            std::string::npos) << format_diff_table(d);
}

// A flawed path's row says what each side's figures are, in the table, the Markdown and the JSON; with nothing
// else judged, the outcome line counts it.
TEST(FormatDiffTable, AFlawedPathSaysWhatEachSidesFiguresAre) {
  DiffResult d = sample_diff();
  d.paths[0].verdict = DiffVerdict::unknown;
  d.paths[0].reason = DiffReason::flawed;
  d.paths[0].ratio.reset();
  d.paths[0].low.reset();
  d.paths[0].high.reset();
  d.paths[0].new_flaw = DigestFlaw::ran_uncompiled;
  const std::string table = format_diff_table(d);
  EXPECT_NE(table.find("unknown: in the new report it ran uncompiled code after its timing pass\n"), std::string::npos)
      << table;
  EXPECT_NE(format_diff_markdown(d).find("unknown: in the new report it ran uncompiled code after its timing pass"),
            std::string::npos);
  const json j = diff_to_json(d);
  EXPECT_EQ(j["paths"][0]["reason"], "flawed");
  EXPECT_TRUE(j["paths"][0]["base_flaw"].is_null());
  EXPECT_EQ(j["paths"][0]["new_flaw"], "ran_uncompiled");
  EXPECT_TRUE(j["paths"][1]["new_flaw"].is_null());
  d.paths[0].base_flaw = DigestFlaw::outputs_differ;
  d.paths[1] = d.paths[0];
  d.paths[1].name = "aoti";
  const std::string none = format_diff_table(d);
  EXPECT_NE(none.find("unknown: in the base report its outputs differ from the reference path's; in the new report it "
                      "ran uncompiled code after its timing pass"),
            std::string::npos) << none;
  EXPECT_NE(none.find("2 whose figures in a report are not the path's (outputs that differ, uncompiled code, or samples "
                      "across a compile)"),
            std::string::npos) << none;
}

// A split figure that is a bound carries its sign, in the table, the Markdown and the JSON, and the block's
// note says what the signs mean; a diff without bounds has no such note.
TEST(FormatDiffTable, ASplitFigureThatIsABoundCarriesItsSign) {
  DiffResult d = sample_diff();
  EXPECT_EQ(format_diff_table(d).find("≥"), std::string::npos);
  for (ComponentChange& c : d.paths[0].split) {
    if (std::string(c.component) == "busy") c.new_bound = Bound::at_least;
  }
  const std::string table = format_diff_table(d);
  EXPECT_NE(table.find("  compile 40.00 us -> 46.00 us 5.000 us -> ≥5.000 us\n"), std::string::npos) << table;
  EXPECT_NE(table.find("docs/diff.md; ≥ and ≤: bounds, where a report's kernels of that path do not record themselves "
                       "and their time is in the host-bound time, or where device ops without a launch call leave when "
                       "they were queued unknown (host-bound and its states at most, device-wait at least)):\n"),
            std::string::npos) << table;
  const std::string md = format_diff_markdown(d);
  EXPECT_NE(md.find("5.000 us → ≥5.000 us"), std::string::npos) << md;
  EXPECT_NE(md.find("≥ and ≤: bounds"), std::string::npos) << md;
  const json j = diff_to_json(d);
  EXPECT_EQ(j["paths"][0]["split"][1]["component"], "busy");
  EXPECT_EQ(j["paths"][0]["split"][1]["base_bound"], "exact");
  EXPECT_EQ(j["paths"][0]["split"][1]["new_bound"], "at-least");
}

TEST(FormatDiffTable, IncomparableReportsGetTheirReasonsAndNoRows) {
  DiffResult d = sample_diff();
  d.incomparable = {{"inputs", "[1, 16]:float32", "[4, 16]:float32"}};
  d.paths.clear();
  const std::string table = format_diff_table(d);
  EXPECT_EQ(table.find("path "), std::string::npos) << table;
  EXPECT_NE(table.find("verdict: incomparable: inputs: '[1, 16]:float32' in the base, '[4, 16]:float32' in the new "
                       "report (--force diffs them anyway)\n"),
            std::string::npos)
      << table;
}

// `ohprof show` of a diff report: diff_from_json reads back every field diff_to_json wrote (the JSON written again
// is the same, and so are the table and the Markdown drawn from it), and refuses a report whose own outcome is
// not what its paths give, or a text that is none of ohprof's, naming it.
TEST(DiffFromJson, ReadsBackWhatDiffToJsonWrote) {
  DiffResult d = sample_diff();
  d.config.relative_to = "eager";
  d.config.seed = 7;
  d.config.force = true;
  d.incomparable = {{"inputs", "[1, 16]:float32", "[4, 16]:float32"}};
  d.paths[1].point = 64;
  d.paths[1].base_flaw = DigestFlaw::ran_uncompiled;
  d.paths[0].split[1].new_bound = Bound::at_least;
  DeploymentDiff throughput;
  throughput.path = "aoti";
  throughput.threads = 4;
  throughput.base_value = 1000.5;
  throughput.new_value = 900.25;
  throughput.base_count = throughput.new_count = 5;
  throughput.ratio = 900.25 / 1000.5;
  throughput.verdict = DiffVerdict::unknown;
  throughput.reason = DiffReason::too_few_samples;
  DeploymentDiff peak;
  peak.path = "compile";
  peak.measure = DeployMeasure::fresh_peak;
  peak.cache = CompileCache::warm;
  peak.base_value = 809e6;
  peak.base_count = 4;
  peak.reason = DiffReason::only_in_base;
  d.deployment = {throughput, peak};
  const json written = diff_to_json(d);
  const DiffResult read = diff_from_json(written);
  EXPECT_EQ(diff_to_json(read), written);
  EXPECT_EQ(format_diff_table(read), format_diff_table(d));
  EXPECT_EQ(format_diff_markdown(read), format_diff_markdown(d));
  EXPECT_EQ(read.deployment[0].threads, 4);
  EXPECT_EQ(read.deployment[1].cache, CompileCache::warm);
  EXPECT_EQ(std::string(read.incomparable[0].field), "inputs");
  EXPECT_EQ(std::string(read.paths[0].split[1].component), "busy");

  const auto refusal = [](const json& j) {
    try {
      diff_from_json(j);
      return std::string("read");
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  };
  json edited = written;
  edited["outcome"] = "no_regression";
  EXPECT_EQ(refusal(edited),
            "its outcome 'no_regression' and judged 2 are not what its paths and figures give ('regression', 2)");
  edited = written;
  edited["paths"][0]["split"][0]["component"] = "gpu";
  EXPECT_EQ(refusal(edited).rfind("split component 'gpu' is none of wall, busy, host_bound", 0), 0u) << refusal(edited);
  edited = written;
  edited["paths"][0]["verdict"] = "worse";
  EXPECT_EQ(refusal(edited).rfind("verdict 'worse' is none of faster, slower", 0), 0u) << refusal(edited);
  edited = written;
  edited["deployment"][0].erase("base_count");
  EXPECT_NE(refusal(edited).find("base_count"), std::string::npos) << refusal(edited);
  EXPECT_EQ(refusal(json{{"kind", "compare"}}), "its kind is not \"diff\"");
  // a later ohprof's warning code: left out and listed where a list is given, refused where none is
  edited = written;
  edited["warnings"][0]["code"] = "later-warning";
  std::vector<UnknownText> unknown;
  EXPECT_TRUE(diff_from_json(edited, &unknown).warnings.empty());
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0].text, "later-warning");
  EXPECT_EQ(refusal(edited), "unknown warning code 'later-warning'");
}

// A diff written before the deployment figures (2026-12-04), the flaws and the split's bounds (2026-12-06), with
// the same diff_schema_version: those keys read as their defaults, as that ohprof printed it.
TEST(DiffFromJson, AnEarlierDiffReadsTheKeysItPredatesAsTheirDefaults) {
  DiffResult d = sample_diff();
  json earlier = diff_to_json(d);
  earlier.erase("deployment");
  for (json& path : earlier["paths"]) {
    path.erase("base_flaw");
    path.erase("new_flaw");
    for (json& component : path["split"]) {
      component.erase("base_bound");
      component.erase("new_bound");
    }
  }
  const DiffResult read = diff_from_json(earlier);
  EXPECT_TRUE(read.deployment.empty());
  EXPECT_FALSE(read.paths[0].base_flaw || read.paths[0].new_flaw);
  EXPECT_EQ(read.paths[0].split[0].base_bound, Bound::exact);
  EXPECT_EQ(format_diff_table(read), format_diff_table(d));
}

}  // namespace
}  // namespace ohprof
