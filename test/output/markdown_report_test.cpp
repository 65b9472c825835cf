// The Markdown printer (output/markdown_report.hpp; docs/reports.md, "Markdown"): well-formed GFM
// tables (every row as many cells as its header, escaped pipes), each section where its data is, and
// the numbers the typed reports hold. How GitHub renders it is checked by test/tools/markdown_check.py.
#include "ohprof/output/markdown_report.hpp"
#include "ohprof/output/html_report.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ohprof/analysis/sweep.hpp"
#include "ohprof/output/report_text.hpp"
#include "ohprof/output/sweep_report.hpp"
#include "sample_breakdown.hpp"

namespace ohprof {
namespace {

// The cells of a table row: split at pipes that are not escaped.
std::size_t cells(const std::string& line) {
  std::size_t pipes = 0;
  for (std::size_t i = 0; i < line.size(); ++i) pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\') ? 1 : 0;
  return pipes - 1;
}

// Every table in `md`: a header, an alignment row, rows of the same width; a blank line before it.
void expect_well_formed_tables(const std::string& md) {
  std::istringstream in(md);
  std::string line, previous = "\n";
  std::size_t width = 0;
  int tables = 0;
  bool in_table = false;
  while (std::getline(in, line)) {
    const bool row = !line.empty() && line.front() == '|';
    if (row && !in_table) {
      EXPECT_TRUE(previous.empty()) << "a table must follow a blank line: '" << previous << "' before '" << line << "'";
      width = cells(line);
      in_table = true;
      ++tables;
      std::string align;
      ASSERT_TRUE(std::getline(in, align));
      EXPECT_EQ(cells(align), width) << align;
      EXPECT_NE(align.find("---"), std::string::npos) << align;
    } else if (row) {
      EXPECT_EQ(cells(line), width) << line;
    } else {
      in_table = false;
    }
    previous = line;
  }
  EXPECT_GT(tables, 0) << md;
}


Report compare_report() {
  Report r;
  r.kind = ReportKind::compare;
  r.context = make_base_context({"ohprof", "compare", "--paths", "aoti|odd,compile"});
  r.context.device = DeviceDescription{DeviceKind::cpu, -1, "Test CPU"};
  r.config.inputs = {"[1, 16]:float32"};
  r.artifacts = ArtifactSummary{};
  r.artifacts->model = "tiny_models:tiny_mlp";
  PathResult aoti = test::measured_path("aoti", {3000, 4000, 5000});
  aoti.breakdown = test::cpu_breakdown();
  r.paths.push_back(aoti);
  PathResult compile = test::measured_path("compile", {30000, 40000});
  compile.split_unavailable_reason = "no collector";
  r.paths.push_back(compile);
  r.paths.push_back(test::measured_path("compile/no-guards", {20000}));
  r.paths.back().role = PathRole::variant;
  r.ratios = {PathRatio{"aoti", "compile", 8.75, 0.5, 7.5, 10.0, true}};
  GapExplanation e;
  e.slower = "compile";
  e.faster = "aoti";
  e.measured = true;
  e.gap = Estimate{31000, 300};
  e.residual = Estimate{-1000, 200};
  e.missing = {"the split of compile"};
  r.explanations = {e};
  r.warnings = {{WarningCode::outliers, "path compile: 2 outliers"}};
  r.stop_reason = StopReason{StopCode::converged};
  return r;
}

TEST(MarkdownCell, EscapesPipesAndJoinsLines) {
  EXPECT_EQ(markdown_cell("a|b"), "a\\|b");
  EXPECT_EQ(markdown_cell("one\ntwo"), "one two");
}

TEST(MarkdownText, EscapesWhatWouldStartMarkupButNotUnderscoresInsideWords) {
  EXPECT_EQ(md_text("<img src=x> *bold* [link] a & b `x` ~~s~~ \\"),
            "\\<img src=x\\> \\*bold\\* \\[link\\] a \\& b \\`x\\` \\~\\~s\\~\\~ \\\\");
  EXPECT_EQ(md_text("nccl_data _x_"), "nccl_data \\_x\\_");
}

TEST(FormatMarkdown, HostileNamesAndContextStayText) {
  Report r = compare_report();
  r.context.hostname = "<img src=x onerror=alert(1)> | *bold*";
  r.paths[0].name = "a``b";
  r.ratios.clear();
  r.explanations.clear();
  const std::string md = format_markdown(r);
  EXPECT_NE(md.find("| host | \\<img src=x onerror=alert(1)\\> \\| \\*bold\\*, 0 intra-op threads |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| ```a``b``` |"), std::string::npos) << md;  // a fence longer than the name's run of backticks
  expect_well_formed_tables(md);
}

// --inputs: the title says the inputs are the user's, from which file; random inputs say nothing.
TEST(FormatMarkdown, TheTitleNamesTheUsersInputsFile) {
  Report r = compare_report();
  r.config.inputs_file = "data/__x__/inputs.pt";  // only the name shows, as code: no Markdown from the path
  EXPECT_EQ(format_markdown(r).rfind(
                "### ohprof compare: `tiny_models:tiny_mlp` at [1, 16]:float32 (your inputs, `inputs.pt`) on cpu (Test CPU)\n", 0),
            0u)
      << format_markdown(r);
}

TEST(FormatMarkdown, ACompareReportHasItsHeadlineTableVerdictsExplanationAndContext) {
  const std::string md = format_markdown(compare_report());
  expect_well_formed_tables(md);
  EXPECT_EQ(md.rfind("### ohprof compare: `tiny_models:tiny_mlp` at [1, 16]:float32 on cpu (Test CPU)\n", 0), 0u) << md;
  // the headline: the explanation's answer, then the ratio
  EXPECT_NE(md.find("> **compile is 31.00 us ± 300 ns slower than aoti"), std::string::npos) << md;
  EXPECT_NE(md.find("- aoti ran 8.75 times faster than compile (95% interval 7.50 to 10.00)\n"), std::string::npos) << md;
  // the paths asked for, not the variant; aoti's split from cpu_breakdown (busy 75%, dispatch 25%)
  EXPECT_NE(md.find("| `aoti` | 4.000 us | 4.000 us ± 1.000 us | 3 | 75.0% | 25.0% | 0.0% | **compute-bound** |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `compile` | 35.00 us |"), std::string::npos) << md;
  EXPECT_NE(md.find("| no split: no collector |"), std::string::npos) << md;
  EXPECT_EQ(md.find("no-guards"), std::string::npos) << md;
  EXPECT_NE(md.find("host-bound (dispatch)"), std::string::npos) << md;  // a CPU run's host-bound is dispatch
  EXPECT_NE(md.find("- `aoti`: **compute-bound**: "), std::string::npos) << md;
  EXPECT_NE(md.find("#### why compile is slower than aoti\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| gap | 31.00 us ± 300 ns | median compile - median aoti, timing pass |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("- missing: the split of compile\n"), std::string::npos) << md;
  EXPECT_NE(md.find("- `outliers`: path compile: 2 outliers\n"), std::string::npos) << md;
  // the context, collapsed; the command's pipe escaped inside its cell
  EXPECT_NE(md.find("<details><summary>Context</summary>"), std::string::npos) << md;
  EXPECT_NE(md.find("| command | `ohprof compare --paths aoti\\|odd,compile` |"), std::string::npos) << md;
  EXPECT_NE(md.find("| stopped | converged |"), std::string::npos) << md;
  EXPECT_NE(md.find("</details>\n"), std::string::npos) << md;
}

// docs/metrics.md, "Deployment summary": the table says what its memory columns are, in a note under it; the
// fresh peak's part only where a path has one.
TEST(FormatMarkdown, TheDeploymentTableSaysWhatItsMemoryColumnsAre) {
  Report r = compare_report();
  DeploymentSummary d;
  DeploymentRow aoti;
  aoti.path = "aoti";
  aoti.latency_ns = 4000;
  aoti.build_retained_bytes = 651'000;
  aoti.fresh_peak_bytes = 542'000'000;
  DeploymentRow compile;
  compile.path = "compile";
  compile.latency_ns = 35000;
  compile.build_retained_bytes = 3'810'000;
  d.rows = {aoti, compile};
  r.deployment = d;
  std::string md = format_markdown(r);
  expect_well_formed_tables(md);
  EXPECT_NE(md.find("| path | latency | calls/s | cold start | warm start | build memory | calls peak | fresh peak |"),
            std::string::npos) << md;
  EXPECT_NE(md.find("| `aoti` | 4.000 us | - | - | - | +651 kB | - | 542 MB |"), std::string::npos) << md;
  EXPECT_NE(md.find("Memory columns: build memory and calls peak: growth of the measuring process's resident set, the "
                    "paths built in turn in that process (a path pays for the modules it was the first to load); fresh "
                    "peak: the resident set's high-water mark of a fresh process of that path alone."),
            std::string::npos) << md;
  r.deployment->rows[0].fresh_peak_bytes.reset();
  md = format_markdown(r);
  EXPECT_EQ(md.find("fresh peak"), std::string::npos) << md;
  EXPECT_NE(md.find("Memory columns: build memory and calls peak:"), std::string::npos) << md;
}

// A path whose kernels do not record themselves: its busy share is at least, its dispatch share at most, the
// figure, and the note says what the signs mean; a path whose kernels record themselves keeps plain shares.
TEST(FormatMarkdown, ThePathTableWritesTheSharesOfAPathWhoseKernelsDoNotRecordThemselvesAsBounds) {
  Report r = compare_report();
  const std::string plain = format_markdown(r);
  EXPECT_EQ(plain.find("≥"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("do not record themselves and their time is in the dispatch share"), std::string::npos) << plain;
  r.paths[1].breakdown = test::cpu_breakdown();
  r.paths[1].breakdown->verdict.kernels_unrecorded = true;
  r.paths[1].breakdown->verdict.verdict = Verdict::unknown;
  const std::string md = format_markdown(r);
  expect_well_formed_tables(md);
  EXPECT_NE(md.find("| `aoti` | 4.000 us | 4.000 us ± 1.000 us | 3 | 75.0% | 25.0% | 0.0% | **compute-bound** |\n"),
            std::string::npos) << md;
  EXPECT_NE(md.find("| ≥75.0% | ≤25.0% | 0.0% | **unknown** |\n"), std::string::npos) << md;
  EXPECT_NE(md.find(" ≥ and ≤: bounds, where a path's kernels do not record themselves and their time is in the "
                    "dispatch share."), std::string::npos) << md;
  const std::string page = format_html(r);
  EXPECT_NE(page.find(">≥75.0%<"), std::string::npos);
  EXPECT_NE(page.find(">≤25.0%<"), std::string::npos);
}

// A share the verdict says cannot be read is "unknown" in the path table (Markdown and HTML), as in the text table.
TEST(FormatMarkdown, ThePathTableWritesSharesTheVerdictCannotReadAsUnknown) {
  Report r = compare_report();
  r.paths[0].breakdown->verdict.verdict = Verdict::unknown;
  r.paths[0].breakdown->verdict.reason = VerdictReason::no_launches;
  std::string md = format_markdown(r);
  expect_well_formed_tables(md);
  EXPECT_NE(md.find("| 75.0% | unknown | unknown | **unknown** |\n"), std::string::npos) << md;
  r.paths[0].breakdown = test::gpu_breakdown();  // a GPU split has a host-state table; an unreadable one has none
  r.paths[0].breakdown->verdict.verdict = Verdict::unknown;
  r.paths[0].breakdown->verdict.reason = VerdictReason::dominant_share;
  ASSERT_NE(format_markdown(r).find("| framework |"), std::string::npos);
  r.paths[0].breakdown->verdict.reason = VerdictReason::unread_device_events;
  md = format_markdown(r);
  EXPECT_EQ(md.find("| framework |"), std::string::npos) << md;
  EXPECT_NE(md.find("| unknown | unknown | unknown | **unknown** |\n"), std::string::npos) << md;
  EXPECT_NE(format_html(r).find("<td class=\"r\">unknown</td><td class=\"r\">unknown</td><td class=\"r\">unknown</td>"),
            std::string::npos) << format_html(r);
}

TEST(FormatMarkdown, TheWhatIfLedgerIsOneRowPerSettingWithWhatTheUserWrites) {
  Report r = compare_report();
  EXPECT_EQ(format_markdown(r).find("What each compile setting buys"), std::string::npos);  // no --what-if
  WhatIfLedger ledger;
  ledger.base_measured = true;
  WhatIfEntry guards;
  guards.setting = CompileSetting::skip_guards;
  guards.path = "compile/no-guards";
  guards.saved = Estimate{15000, 100};
  guards.significant = true;
  guards.outputs_match = true;
  WhatIfEntry graphs;
  graphs.setting = CompileSetting::cuda_graphs;
  graphs.not_applicable = "CUDA graphs need a CUDA device";
  ledger.entries = {guards, graphs};
  r.what_if = ledger;
  const std::string md = format_markdown(r);
  EXPECT_NE(md.find("\n**What each compile setting buys**\n\nEach setting changed alone from `compile`, measured in the "
                    "same rounds; saved = median `compile` − median"),
            std::string::npos) << md;
  // compile's median is 35 us (30 and 40): 15 us is 42.9% of it
  EXPECT_NE(md.find("| setting | what you write | against compile |\n| --- | --- | --- |\n"
                    "| `skip-guards` | `torch.compiler.set_stance(\"default\", skip_guard_eval_unsafe=True)` | saves "
                    "15.00 us per call (95% interval 14.80 us to 15.20 us; 42.9% of compile's 35.00 us); outputs match; "
                    "no compile of its own |\n"
                    "| `cuda-graphs` | `torch.compile(mode=\"reduce-overhead\")` | not applicable: CUDA graphs need a "
                    "CUDA device |\n"),
            std::string::npos) << md;
}

// compare --threads and --cold-start: a table of the figures the table's lines print, each path's limit, and a
// table of the cold-start states.
TEST(FormatMarkdown, ConcurrentCallersAndColdStartsAreTablesOfWhatTheTablePrints) {
  Report r = compare_report();
  EXPECT_EQ(format_markdown(r).find("Concurrent callers"), std::string::npos);  // neither flag
  EXPECT_EQ(format_markdown(r).find("Cold start"), std::string::npos);
  PathConcurrency c = test::two_callers();
  ThreadsPoint& two = c.points[1];
  two.round_ns = {1'000'000, 3'000'000};  // 7.2 ms on a CPU over 4 ms: 1.80 CPUs; 1.24 / (2 x 4): waiting 15.5%
  two.on_cpu_ns = 7'200'000;
  two.waited_ns = 1'240'000;
  r.paths[0].concurrency = c;
  PathConcurrency failed;
  failed.unavailable = "a call failed on a new thread";
  r.paths[1].concurrency = failed;
  PathColdStart cold;
  cold.processes = 2;
  ColdStartState start;
  start.cache = CompileCache::none;
  start.unavailable = "a fresh process cannot rebuild the model object: pickling it failed";
  cold.states = {start};
  r.paths[1].cold_start = cold;
  const std::string md = format_markdown(r);
  expect_well_formed_tables(md);
  // aoti's timing median is 4 us (3, 4 and 5 us)
  EXPECT_NE(md.find("| path | callers | calls/s | p50 | p99 | against 1 caller | caller threads |\n"
                    "| --- | ---: | ---: | ---: | ---: | --- | --- |\n"
                    "| `aoti` | 1 | 22.9k | 40.70 us | 325.7 us | on the measuring thread: median 4.000 us |  |\n"
                    "| `aoti` | 2 | 36.6k | 40.70 us | 325.7 us | x1.60 of 1 caller (95% interval 1.18 to 2.01) | "
                    "caller threads on 1.80 CPUs, waiting 15.5% |\n"),
            std::string::npos) << md;
  EXPECT_NE(md.find("- `aoti`: limit: the cores (2 callers x 1 intra-op thread on 2 cores); the runner holds 2 model "
                    "instances\n- `compile`: unavailable: a call failed on a new thread\n"),
            std::string::npos) << md;
  // the same words as the table's lines
  const std::vector<std::string> lines = concurrency_lines(c, 4000);
  EXPECT_NE(lines[1].find("x1.60 of 1 caller (95% interval 1.18 to 2.01)  caller threads on 1.80 CPUs, waiting 15.5%"),
            std::string::npos);
  EXPECT_EQ(lines[2], "limit: the cores (2 callers x 1 intra-op thread on 2 cores); the runner holds 2 model instances");
  EXPECT_NE(md.find("\n**Cold start**\n\n2 fresh processes per state; each figure is its own median over them"),
            std::string::npos) << md;
  EXPECT_NE(md.find("| `compile` | start | not measured: a fresh process cannot rebuild the model object: pickling it "
                    "failed |\n"),
            std::string::npos) << md;
}

TEST(FormatMarkdown, ARunWithoutSplitOrExplanationHasNeitherSection) {
  Report r = compare_report();
  r.kind = ReportKind::run;
  r.artifacts.reset();
  r.ratios.clear();
  r.explanations.clear();
  r.warnings.clear();
  r.paths.resize(2);
  r.paths[0].breakdown.reset();
  const std::string md = format_markdown(r);
  expect_well_formed_tables(md);
  EXPECT_EQ(md.find("Verdicts"), std::string::npos) << md;
  EXPECT_EQ(md.find("####"), std::string::npos) << md;
  EXPECT_EQ(md.find("Warnings"), std::string::npos) << md;
  EXPECT_EQ(md.find("| stopped |"), std::string::npos) << md;
}

// A fixture of test/data/sweep (made by make_sample_sweep.py) read as the sweep reads its own points, and
// analysed.
SweepReport sweep_fixture(const std::string& name) {
  const std::string file = std::string(OHPROF_SOURCE_DIR) + "/test/data/sweep/" + name + ".json";
  std::ifstream in(file);
  const nlohmann::json sample = nlohmann::json::parse(in);
  SweepReport report;
  report.config.model = sample["config"]["model"];
  report.config.inputs = sample["config"]["inputs"].get<std::vector<std::string>>();
  report.config.axis.values = sample["config"]["axis"]["values"].get<std::vector<std::int64_t>>();
  report.config.paths = sample["config"]["paths"].get<std::vector<std::string>>();
  report.config.kernel_profile = sample["config"]["kernel_profile"];
  auto points = read_resumable_points(file, report.config);
  EXPECT_TRUE(points.ok()) << points.error().message;
  if (points.ok()) report.points = *points;
  report.stop = SweepStop::complete;
  return analyze_sweep(report);
}

TEST(FormatSweepMarkdown, EachPointsLatenciesAndRatiosAndTheFits) {
  const SweepReport report = sweep_fixture("sample_sweep");
  ASSERT_FALSE(report.points.empty());
  const std::string md = format_sweep_markdown(report);
  expect_well_formed_tables(md);
  // the sweep's document (sweep_document.cpp): the title, the pairs, the table, its note, the fits
  EXPECT_NE(md.find(" on cpu\n\n- `compile` / `aoti`: no crossover in the range (12 points)\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| 2048 | failed: export failed: out of memory (fake) |  |  |  |  |  |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("|\n\nLatency: median ± se per call; ratios with their 95% interval, `*` where it reaches 0.95..1.05 "
                    "(docs/sweep.md).\n\n**Fit** time = c + k × batch (95% intervals)\n\n- `aoti`: c = "),
            std::string::npos)
      << md;
  EXPECT_EQ(md.rfind("### ohprof sweep: `tiny_models:tiny_mlp` over batch at [1, 16]:float32", 0), 0u) << md;
  EXPECT_NE(md.find("| batch | aoti latency | compile latency | eager latency |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 2048 | failed: "), std::string::npos) << md;  // the failed point keeps its row
  EXPECT_NE(md.find("**Fit** time = c + k × batch"), std::string::npos) << md;
  for (const auto& fit : report.analysis.fits) EXPECT_NE(md.find("- `" + fit.path + "`: "), std::string::npos) << fit.path;
}

// sweep --inputs: the title says the inputs are the user's, from which file.
TEST(FormatSweepMarkdown, TheTitleNamesTheUsersInputsFile) {
  SweepReport report = sweep_fixture("sample_sweep");
  report.config.inputs_file = "/tmp/ohprof-api-x/in*puts.pt";
  const std::string md = format_sweep_markdown(report);
  EXPECT_EQ(md.rfind("### ohprof sweep: `tiny_models:tiny_mlp` over batch at [1, 16]:float32 (your inputs, `in*puts.pt`) on", 0),
            0u)
      << md;
}

// A crossover is where every later ratio's interval reaches the band: the paths may be that close, which is
// not shown to be (docs/sweep.md, "Crossover"); the headline says the former.
TEST(FormatSweepMarkdown, ACrossoverIsWhereTheIntervalsReachTheBandNotWhereThePathsAreClose) {
  const SweepReport report = sweep_fixture("sample_sweep_crossover");
  ASSERT_FALSE(report.points.empty());
  const std::string md = format_sweep_markdown(report);
  EXPECT_NE(md.find("- `compile` / `aoti`: every ratio's 95% interval reaches 0.95..1.05 from batch **32768** on\n"),
            std::string::npos) << md;
  EXPECT_EQ(md.find("of each other"), std::string::npos) << md;
}

TEST(FormatDiffMarkdown, TheOutcomeEachPathAndTheSplit) {
  DiffResult d;
  d.base_file = "base.json";
  d.new_file = "new.json";
  PathDiff p = test::slower_compile_diff();
  p.new_count = 100;
  d.paths = {p};
  std::string md = format_diff_markdown(d);
  expect_well_formed_tables(md);
  EXPECT_NE(md.find("**Regression**: compile +20.0% [+15.0%, +25.0%] slower beyond 10%.\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| `compile` | 30.00 us | 36.00 us | +20.0% | +15.0% … +25.0% | 100/100 | **SLOWER** |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| path | wall | busy |\n"), std::string::npos) << md;  // no device-wait column: no time in it
  d.incomparable = {{"model", "a:f", "b:f"}};
  md = format_diff_markdown(d);
  EXPECT_NE(md.find("**Incomparable**"), std::string::npos) << md;
}

// The outcomes without a path table, whole: the layout the diff's document gives (document.hpp), one
// blank line before each block.
TEST(FormatDiffMarkdown, IncomparableAndUnknownAreWholeDocuments) {
  DiffResult d;
  d.base_file = "base.json";
  d.new_file = "new.json";
  d.incomparable = {{"model", "a:f", "b:f"}, {"device", "cpu", "cuda"}};
  EXPECT_EQ(format_diff_markdown(d),
            "### ohprof diff: `new.json` against `base.json`\n\n"
            "**Incomparable**: the reports differ in\n\n"
            "- model: `a:f` in the base, `b:f` in the new report\n"
            "- device: `cpu` in the base, `cuda` in the new report\n");
  d.incomparable.clear();
  d.warnings = {{WarningCode::stopped_early, "stopped after 3 of 9 points"}};
  EXPECT_EQ(format_diff_markdown(d),
            "### ohprof diff: `new.json` against `base.json`\n\n"
            "**Unknown**: no path could be judged: the reports have no paths.\n\n"
            "**Warnings**\n\n"
            "- `" + std::string(to_string(WarningCode::stopped_early)) + "`: stopped after 3 of 9 points\n");
}

// --relative-to in the note; the deployment figures' block, its failing verdict strongly.
TEST(FormatDiffMarkdown, RelativeToAndDeploymentFigures) {
  DiffResult d;
  d.base_file = "base.json";
  d.new_file = "new.json";
  d.config.relative_to = "aoti";
  PathDiff p = test::slower_compile_diff();
  d.paths = {p};
  DeploymentDiff x;
  x.path = "aoti";
  x.threads = 2;
  x.base_value = 66500;
  x.new_value = 50000;
  x.base_count = 9;
  x.new_count = 9;
  x.ratio = 50000.0 / 66500;
  x.verdict = DiffVerdict::slower;
  x.reason = DiffReason::above_threshold;
  d.deployment = {x};
  const std::string md = format_diff_markdown(d);
  expect_well_formed_tables(md);
  EXPECT_NE(md.find("\n\nChange: new median / base median − 1, each path over `aoti` in its own report; bootstrap "
                    "interval ("),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("\n\n**Deployment figures**, base → new (throughput: the difference of the rates against its error; "
                    "starts and fresh peaks: the rank rule of the cold start; then the threshold; docs/diff.md)\n\n"
                    "| path | figure | base | new | change | n base/new | verdict |\n"
                    "| --- | --- | ---: | ---: | ---: | ---: | --- |\n"
                    "| `aoti` | calls/s at 2 callers | "),
            std::string::npos)
      << md;
  EXPECT_NE(md.find(" | -24.8% | 9/9 | **SLOWER** |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("**Regression**: compile +20.0% [+15.0%, +25.0%], aoti calls/s at 2 callers -24.8% ("), std::string::npos)
      << md;
}

}  // namespace
}  // namespace ohprof
