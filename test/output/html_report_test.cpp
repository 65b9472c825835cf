// The HTML page (output/html_report.hpp; docs/reports.md, "HTML"): each picture's parts come from the
// fields they draw (a bar's width is its share of the summed wall time, a column's height its share of
// the tallest iteration, a histogram holds every drawn sample), text is escaped, nothing is fetched or
// run. How a browser lays it out is checked by test/tools/html_report_check.py in headless Chromium.
#include "ohprof/output/html_report.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "sample_breakdown.hpp"

namespace ohprof {
namespace {


Report compare_report() {
  Report r;
  r.kind = ReportKind::compare;
  r.context = make_base_context({"ohprof", "compare"});
  r.context.device = DeviceDescription{DeviceKind::cpu, -1, "Test CPU"};
  r.config.inputs = {"[1, 16]:float32"};
  r.artifacts = ArtifactSummary{};
  r.artifacts->model = "tiny_models:tiny_mlp";
  std::vector<std::int64_t> samples;
  for (int i = 0; i < 20; ++i) samples.push_back(3000 + 100 * i);
  PathResult aoti = test::measured_path("aoti", samples);
  aoti.breakdown = test::cpu_breakdown();
  r.paths.push_back(aoti);
  r.paths.push_back(test::measured_path("<compile>", {30000, 40000}));
  r.ratios = {PathRatio{"aoti", "<compile>", 8.75, 0.5, 7.5, 10.0, true}};
  return r;
}

// The attribute `name` of every element of class `cls` (in document order).
std::vector<std::string> attributes(const std::string& html, const std::string& cls, const std::string& name) {
  std::vector<std::string> out;
  const std::regex element("<[a-z]+ class=\"" + cls + "\"[^>]*>");
  const std::regex attribute(" " + name + "=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), element); it != std::sregex_iterator(); ++it) {
    std::smatch m;
    const std::string tag = it->str();
    if (std::regex_search(tag, m, attribute)) out.push_back(m[1]);
  }
  return out;
}

TEST(FormatHtml, TheSplitBarsWidthsAreTheShares) {
  const std::string html = format_html(compare_report());
  // cpu_breakdown: busy 7.5 us and dispatch 2.5 us of a 10 us iteration, on a 560-pixel bar
  EXPECT_EQ(attributes(html, "ohprof-seg", "data-part"), (std::vector<std::string>{"busy", "dispatch"}));
  EXPECT_EQ(attributes(html, "ohprof-seg", "width"), (std::vector<std::string>{"420.00", "140.00"}));
  EXPECT_NE(html.find("<title>aoti: busy (CPU kernels) 75.0% (7.500 us per iteration)</title>"), std::string::npos);
  EXPECT_NE(html.find("10.00 us per iteration"), std::string::npos);
  // the path without a split has no bar
  EXPECT_EQ(attributes(html, "ohprof-seg", "data-path"), (std::vector<std::string>{"aoti", "aoti"}));
  // nor a path whose verdict says its shares cannot be read (a bar would draw unread busy time as host-bound)
  for (const VerdictReason unread :
       {VerdictReason::no_launches, VerdictReason::unread_device_events, VerdictReason::launches_without_ops}) {
    Report r = compare_report();
    r.paths[0].breakdown->verdict.reason = unread;
    EXPECT_TRUE(attributes(format_html(r), "ohprof-seg", "data-path").empty()) << to_string(unread);
  }
}

// A CPU path whose Inductor kernels do not record themselves: its dispatch part holds them, and its legend
// and title say so (docs/metrics.md, "Verdict"); the other paths keep the plain dispatch.
TEST(FormatHtml, ADispatchThatHoldsUnrecordedKernelsIsNamedSo) {
  Report r = compare_report();
  PathResult compile = test::measured_path("compile", {30000, 40000});
  compile.breakdown = test::cpu_breakdown();
  compile.breakdown->verdict.kernels_unrecorded = true;
  r.paths.push_back(compile);
  const std::string html = format_html(r);
  EXPECT_EQ(attributes(html, "ohprof-seg", "data-part"), (std::vector<std::string>{"busy", "dispatch", "busy", "dispatch"}));
  EXPECT_EQ(attributes(html, "ohprof-seg", "fill"), (std::vector<std::string>{"#4e79a7", "#f28e2b", "#4e79a7", "#9c755f"}));
  EXPECT_NE(html.find("<title>compile: dispatch, with the Inductor kernels that do not record themselves (at most this "
                      "much host work) 25.0% (2.500 us per iteration)</title>"),
            std::string::npos);
  EXPECT_NE(html.find("</i>dispatch (host work around the kernels)</span><span class=\"ohprof-legend\" "
                      "data-part=\"dispatch\"><i style=\"background:#9c755f\"></i>dispatch, with the Inductor kernels"),
            std::string::npos) << html;
}

TEST(FormatHtml, AHistogramHoldsEverySampleUpToItsQuantile) {
  const std::string html = format_html(compare_report());
  // 20 samples: 2 * ceil(sqrt(20)) = 10 bins up to the maximum (fewer than 100 samples: nothing left out)
  const std::regex bar("<rect class=\"ohprof-hist-bar\"[^>]*><title>[^<]*: ([0-9]+) iterations</title>");
  std::size_t drawn = 0, bars = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), bar); it != std::sregex_iterator(); ++it) {
    drawn += std::stoul((*it)[1]);
    ++bars;
  }
  EXPECT_EQ(drawn, 20u);
  EXPECT_EQ(bars, 10u);
  EXPECT_EQ(attributes(html, "ohprof-hist", "data-path"), (std::vector<std::string>{"aoti"}));  // 2 samples: none
  EXPECT_NE(html.find("<title>median 3.950 us</title>"), std::string::npos);
}

TEST(FormatHtml, AnOutlierDoesNotSqueezeTheHistogramIntoItsFirstBar) {
  Report r = compare_report();
  // 29 samples of 30..32.8 us and one of 24 ms: median 31.45 us, MAD 750 ns, so the bars stop at
  // 31.45 us + 5 * 1.4826 * 750 ns = 37.01 us and the 24 ms call is counted, not drawn.
  std::vector<std::int64_t> samples;
  for (int i = 0; i < 29; ++i) samples.push_back(30'000 + 100 * i);
  samples.push_back(24'000'000);
  r.paths[0] = test::measured_path("aoti", samples);
  const std::string html = format_html(r);
  EXPECT_NE(html.find("30 iterations; 1 beyond 37.01 us (median + 5 σ) not drawn"), std::string::npos) << html;
  const std::regex bar("<rect class=\"ohprof-hist-bar\"[^>]*><title>[^<]*: ([0-9]+) iterations</title>");
  std::size_t drawn = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), bar); it != std::sregex_iterator(); ++it) {
    drawn += std::stoul((*it)[1]);
  }
  EXPECT_EQ(drawn, 29u);
}

TEST(FormatHtml, TheWhatIfLedgerIsATableOfSettings) {
  Report r = compare_report();
  EXPECT_EQ(format_html(r).find("What each compile setting buys"), std::string::npos);  // no --what-if
  WhatIfLedger ledger;
  WhatIfEntry autotune;
  autotune.setting = CompileSetting::autotune;
  autotune.unavailable = "its build failed: <no compiler>";
  ledger.entries = {autotune};
  r.what_if = ledger;
  const std::string html = format_html(r);
  EXPECT_NE(html.find("<h2>What each compile setting buys</h2>"), std::string::npos);
  EXPECT_NE(html.find("ohprof-what-if"), std::string::npos);
  EXPECT_NE(html.find("torch.compile(mode=&quot;max-autotune-no-cudagraphs&quot;)"), std::string::npos) << html;
  EXPECT_NE(html.find("not measured: its build failed: &lt;no compiler&gt;"), std::string::npos) << html;
}

TEST(FormatHtml, ConcurrentCallersAndColdStartsHaveTheirTables) {
  Report r = compare_report();
  EXPECT_EQ(format_html(r).find("Concurrent callers"), std::string::npos);
  PathConcurrency c;
  c.context = ConcurrencyContext{2, 1, false};
  ThreadsPoint one;
  one.threads = 1;
  one.calls_per_s = 1000;
  ThreadsPoint two = one;
  two.threads = 2;
  two.calls_per_s = 900;
  two.scaling = 0.9;
  two.scaling_low = 0.85;
  two.scaling_high = 0.95;
  c.points = {one, two};
  c.holds_gil = true;
  c.limit = ConcurrencyLimit::gil;
  r.paths[1].concurrency = c;
  PathColdStart cold;
  cold.processes = 1;
  ColdStartState state;
  state.cache = CompileCache::cold;
  state.failed = "RuntimeError: <boom>";
  cold.states = {state};
  r.paths[1].cold_start = cold;
  const std::string html = format_html(r);
  EXPECT_NE(html.find("<h2>Concurrent callers</h2>"), std::string::npos) << html;
  EXPECT_NE(html.find("ohprof-threads"), std::string::npos);
  EXPECT_NE(html.find("x0.90 of 1 caller (fewer calls than 1 caller: 95% interval 0.85 to 0.95)"), std::string::npos);
  EXPECT_NE(html.find(": limit: the GIL (its calls run Python under it)"), std::string::npos) << html;
  EXPECT_NE(html.find("<h2>Cold start</h2>"), std::string::npos);
  EXPECT_NE(html.find("ohprof-cold-start"), std::string::npos);
  EXPECT_NE(html.find("failed: RuntimeError: &lt;boom&gt;"), std::string::npos) << html;
}

TEST(FormatHtml, TextIsEscapedAndThePageIsStatic) {
  const std::string html = format_html(compare_report());
  EXPECT_EQ(html.find("<compile>"), std::string::npos);
  EXPECT_NE(html.find("<code>&lt;compile&gt;</code>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
  EXPECT_EQ(html.rfind("<!doctype html>", 0), 0u);
  EXPECT_NE(html.find("<details>\n<summary>Context</summary>"), std::string::npos);
}

// The diff's page is the document its Markdown is (document.hpp): the same outcome, table and note,
// marked up as HTML, every text escaped, and static.
TEST(FormatDiffHtml, TheSameDocumentAsTheMarkdown) {
  DiffResult d;
  d.base_file = "base <1>.json";
  d.new_file = "new.json";
  PathDiff p = test::slower_compile_diff();
  p.new_count = 100;
  d.paths = {p};
  const std::string html = format_diff_html(d);
  EXPECT_EQ(html.rfind("<!doctype html>", 0), 0u) << html;
  EXPECT_NE(html.find("<title>ohprof diff: new.json against base &lt;1&gt;.json</title>"), std::string::npos) << html;
  EXPECT_NE(html.find("<h1>ohprof diff: new.json against base &lt;1&gt;.json</h1>"), std::string::npos) << html;
  EXPECT_NE(html.find("<p><strong>Regression</strong>: compile +20.0% [+15.0%, +25.0%] slower beyond 10%.</p>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<table class=\"ohprof-diff-paths\">"), std::string::npos) << html;
  EXPECT_NE(html.find("<tr><td><code>compile</code></td><td class=\"r\">30.00 us</td><td class=\"r\">36.00 us</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<td><strong>SLOWER</strong></td></tr>"), std::string::npos) << html;
  EXPECT_NE(html.find("<p>Change: new median / base median − 1; bootstrap interval"), std::string::npos) << html;
  EXPECT_NE(html.find("<table class=\"ohprof-diff-split\">"), std::string::npos) << html;
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("**"), std::string::npos) << "Markdown leaked into the page";
  EXPECT_TRUE(html.ends_with("</body>\n</html>\n"));
}

// An analyze report of t.json, one path "t" with gpu_breakdown's split.
Report analyze_report() {
  Report r;
  r.kind = ReportKind::analyze;
  r.context = make_base_context({"ohprof", "analyze", "t.json"});
  r.trace = TraceSource{};
  r.trace->path = "t.json";
  PathResult p = test::measured_path("t", {10'000});
  p.breakdown = test::gpu_breakdown();
  r.paths.push_back(p);
  return r;
}

TEST(FormatHtml, AnAnalyzeReportDrawsEachIterationsSplit) {
  const Report r = analyze_report();
  const std::string html = format_html(r);
  // gpu_breakdown's iteration of 10 us: busy 6, blocking 0.5, launch 1, other API 0.3, framework 1.2,
  // device-wait 1 (harness 0: not drawn), each a share of the 200-pixel column of the tallest iteration
  EXPECT_EQ(attributes(html, "ohprof-iter-seg", "data-part"),
            (std::vector<std::string>{"busy", "blocking", "launch", "other_api", "framework", "device_wait"}));
  EXPECT_EQ(attributes(html, "ohprof-iter-seg", "height"),
            (std::vector<std::string>{"120.00", "10.00", "20.00", "6.00", "24.00", "20.00"}));
  EXPECT_EQ(attributes(html, "ohprof-iter-seg", "data-iteration"), std::vector<std::string>(6, "4"));
  Report unread = r;
  unread.paths[0].breakdown->verdict.reason = VerdictReason::launches_without_ops;
  EXPECT_TRUE(attributes(format_html(unread), "ohprof-iter-seg", "data-part").empty());
  // the kernel table: gpu_breakdown's two kernels
  EXPECT_NE(html.find("<code>gemm</code>"), std::string::npos);
  EXPECT_NE(html.find("<code>HtoD</code>"), std::string::npos);
}

// An open queue (ops without a launch call): host-bound is a range, so the bar and each column draw busy,
// the least host-bound time, the rest of it striped (host-bound or device-wait), and device-wait at least;
// not the host states, which split the upper end (docs/metrics.md, "Ops without a launch call").
TEST(FormatHtml, AnOpenQueueDrawsTheLeastHostBoundAndAStripedRest) {
  Report r = analyze_report();
  // gpu_breakdown: wall 10 us, busy 6, host-bound 3 (at most), device-wait 1; at least 1.2 us host-bound
  PathBreakdown& b = *r.paths[0].breakdown;
  b.verdict.ops_queue_unknown = 40;
  b.verdict.host_bound_share_least = 0.12;
  b.verdict.device_wait_share_most = 0.28;
  b.iterations[0].host_bound_least_ns = 1200;
  const std::string html = format_html(r);
  const std::vector<std::string> parts{"busy", "host_bound", "host_bound_or_device_wait", "device_wait"};
  EXPECT_EQ(attributes(html, "ohprof-seg", "data-part"), parts);
  // on the 560-pixel bar: 60%, 12%, 18%, 10%
  EXPECT_EQ(attributes(html, "ohprof-seg", "width"), (std::vector<std::string>{"336.00", "67.20", "100.80", "56.00"}));
  EXPECT_EQ(attributes(html, "ohprof-seg", "fill"),
            (std::vector<std::string>{"#4e79a7", "#b6465f", "url(#ohprof-hatch-split)", "#76b7b2"}));
  EXPECT_NE(html.find("<pattern id=\"ohprof-hatch-split\""), std::string::npos);
  EXPECT_EQ(attributes(html, "ohprof-iter-seg", "data-part"), parts);
  // the 200-pixel column of the one iteration
  EXPECT_EQ(attributes(html, "ohprof-iter-seg", "height"), (std::vector<std::string>{"120.00", "24.00", "36.00", "20.00"}));
  EXPECT_NE(html.find("<pattern id=\"ohprof-hatch-iterations-0\""), std::string::npos);
  EXPECT_NE(html.find("Striped: time that is host-bound or device-wait, not known which, in <code>t</code> (40 device ops "
                      "have no launch call in the data"),
            std::string::npos);
  EXPECT_NE(html.find("host-bound or device-wait (device ops without a launch call"), std::string::npos);  // the legend
  // the host-state table: each state at most
  EXPECT_NE(html.find("<td class=\"r\">≤5.0%</td><td class=\"r\">≤10.0%</td><td class=\"r\">≤3.0%</td>"), std::string::npos)
      << html;
  EXPECT_NE(html.find("≤: at most, where device ops without a launch call"), std::string::npos);

  // a report written before 2026-12-07 has no iteration's least: the column draws all of host-bound striped
  r.paths[0].breakdown->iterations[0].host_bound_least_ns.reset();
  const std::string old = format_html(r);
  EXPECT_EQ(attributes(old, "ohprof-iter-seg", "data-part"),
            (std::vector<std::string>{"busy", "host_bound_or_device_wait", "device_wait"}));
  EXPECT_EQ(attributes(old, "ohprof-iter-seg", "height"), (std::vector<std::string>{"120.00", "60.00", "20.00"}));
}

// --dump-code's index (format_code_index): two paths by hand.
std::vector<PathCodeDump> dumped_paths() {
  PathCodeDump aoti;
  aoti.path = "aoti";
  aoti.folder = "aoti";
  aoti.graph_label = "the graph torch.export captured";
  aoti.files = {"code/k.kernel.cpp", "graph.dot", "graph.py", "graph.svg", "kernels.json"};
  aoti.costs_known = true;
  KernelListingRow addmm{DeviceOpKind::kernel, "aoti_torch_cpu_addmm_out", "aten::addmm", KernelOrigin::extern_call,
                         std::nullopt, SourceSite{"code/k.wrapper.cpp", 11}, {{"code/k.wrapper.cpp", 12}}, 2, 1500, 3000};
  KernelListingRow relu{DeviceOpKind::kernel, "graph_0_cpp_fused_relu_0", "cpp_fused_relu_0", KernelOrigin::generated,
                        SourceSite{"code/k.kernel.cpp", 5}, std::nullopt, {}, 1, 400, 400};
  aoti.listing.kernels = {addmm, relu};
  aoti.listing.call_sequence = {"aten::addmm", "cpp_fused_relu_0", "aten::addmm"};
  PathCodeDump compile;
  compile.path = "compile:reduce-overhead";
  compile.folder = "compile_reduce-overhead";
  compile.graph_label = "the FX graph Dynamo captured";
  compile.files = {"code/output_code.py", "graph.dot", "graph.py", "kernels.json"};  // no graph.svg
  compile.notes = {"graphviz is not installed <apt-get install graphviz>"};
  compile.costs_known = true;
  KernelListingRow extern_addmm{DeviceOpKind::kernel, "aten::addmm", "aten::addmm", KernelOrigin::extern_call,
                                std::nullopt, std::nullopt, {{"code/output_code.py", 109}, {"code/output_code.py", 118}}, 2, 2000, 4000};
  compile.listing.kernels = {extern_addmm};
  compile.listing.call_sequence = {"aten::addmm", "aten::addmm"};
  return {aoti, compile};
}

// The join of those paths (analysis/code_sites.hpp's join_kernel_listings, tested there), by hand.
std::vector<KernelJoinRow> joined(const std::vector<PathCodeDump>& paths) {
  const SourceSite aoti_site = paths[0].listing.kernels[0].recorded_at.value_or(SourceSite{});
  const SourceSite relu_site = paths[0].listing.kernels[1].defined_at.value_or(SourceSite{});
  KernelJoinRow addmm{"aten::addmm",
                      {{true, 2, 3000, 1500, aoti_site, 1400, 2},
                       {true, 2, 4000, 2000, SourceSite{"code/output_code.py", 109}, 1900, 2}},
                      std::nullopt};
  KernelJoinRow relu{"cpp_fused_relu_0", {{true, 1, 400, 400, relu_site, 400, 1}, {}}, std::size_t{0}};
  return {addmm, relu};
}

TEST(FormatCodeIndex, JoinsTheKernelsByCanonicalNameAndMarksThoseOnePathRuns) {
  const std::vector<PathCodeDump> paths = dumped_paths();
  const std::string html = format_code_index(compare_report(), paths, joined(paths));
  // aten::addmm on both (4 us per iteration on compile: first row), cpp_fused_relu_0 on aoti only
  const std::size_t addmm = html.find("<tr data-kernel=\"aten::addmm\">");
  const std::size_t relu = html.find("<tr data-kernel=\"cpp_fused_relu_0\" class=\"ohprof-only\">");
  ASSERT_NE(addmm, std::string::npos) << html;
  ASSERT_NE(relu, std::string::npos) << html;
  EXPECT_LT(addmm, relu);
  EXPECT_NE(html.find("<span class=\"ohprof-only-mark\">only aoti</span>"), std::string::npos);
  // each path's cell: count, the median per call, the source link
  EXPECT_NE(html.find("<td class=\"r\">2 &times;</td><td class=\"r\">1.400 us</td><td data-path=\"aoti\"><a href=\"aoti/code/k.wrapper.cpp\">code/k.wrapper.cpp:11</a></td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<a href=\"compile_reduce-overhead/code/output_code.py\">code/output_code.py:109</a>"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"aoti/code/k.kernel.cpp\">code/k.kernel.cpp:5</a>"), std::string::npos);
}

TEST(FormatCodeIndex, ShowsEachPathsGraphCallSequenceAndNotes) {
  const std::vector<PathCodeDump> paths = dumped_paths();
  const std::string html = format_code_index(compare_report(), paths, joined(paths));
  // a picture where graph.svg was written, a note where it was not
  EXPECT_NE(html.find("<img class=\"ohprof-graph\" src=\"aoti/graph.svg\""), std::string::npos);
  EXPECT_EQ(html.find("compile_reduce-overhead/graph.svg"), std::string::npos);
  EXPECT_NE(html.find("graphviz is not installed &lt;apt-get install graphviz&gt;"), std::string::npos);
  // the call sequences: three rows, the third on aoti only
  EXPECT_NE(html.find("<tr><td class=\"r\">3</td><td data-kernel=\"aten::addmm\""), std::string::npos) << html;
  const std::size_t third = html.find("<tr><td class=\"r\">3</td>");
  EXPECT_NE(html.find("<td></td></tr>", third), std::string::npos);
  // the same colour for the same name on both paths
  const std::regex cell("<td data-kernel=\"aten::addmm\" style=\"background:(hsl\\([^)]*\\))\">");
  std::set<std::string> colours;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), cell); it != std::sregex_iterator(); ++it) colours.insert((*it)[1]);
  EXPECT_EQ(colours.size(), 1u);
  // nothing fetched or run
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
}

TEST(FormatCodeIndex, LinksArePercentEncodedAndTextEscaped) {
  std::vector<PathCodeDump> paths = dumped_paths();
  paths[0].folder = "a b";
  paths[0].files.push_back("code/x#1?.cpp");
  paths[0].listing.kernels[1].defined_at = SourceSite{"code/x#1?.cpp", 3};
  const std::string html = format_code_index(compare_report(), paths, joined(paths));
  EXPECT_NE(html.find("<a href=\"a%20b/code/x%231%3F.cpp\">code/x#1?.cpp:3</a>"), std::string::npos) << html;
  EXPECT_NE(html.find("src=\"a%20b/graph.svg\""), std::string::npos);
}

}  // namespace
}  // namespace ohprof
