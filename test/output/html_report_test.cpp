// The HTML page (output/html_report.hpp; docs/reports.md, "HTML"): each picture's parts come from the
// fields they draw (a bar's width is its share of the summed wall time, a column's height its share of
// the tallest iteration, a histogram holds every drawn sample), text is escaped, nothing is fetched or
// run. How a browser lays it out is checked by test/tools/html_report_check.py in headless Chromium.
#include "ohprof/output/html_report.hpp"

#include <gtest/gtest.h>

#include <regex>

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
  r.ratios = {PathRatio{"aoti", "<compile>", 8.75, 0.5}};
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

TEST(FormatHtml, TextIsEscapedAndThePageIsStatic) {
  const std::string html = format_html(compare_report());
  EXPECT_EQ(html.find("<compile>"), std::string::npos);
  EXPECT_NE(html.find("<code>&lt;compile&gt;</code>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
  EXPECT_EQ(html.rfind("<!doctype html>", 0), 0u);
  EXPECT_NE(html.find("<details>\n<summary>Context</summary>"), std::string::npos);
}

TEST(FormatHtml, AnAnalyzeReportDrawsEachIterationsSplit) {
  Report r;
  r.kind = ReportKind::analyze;
  r.context = make_base_context({"ohprof", "analyze", "t.json"});
  r.trace = TraceSource{};
  r.trace->path = "t.json";
  PathResult p = test::measured_path("t", {10'000});
  p.breakdown = test::gpu_breakdown();
  r.paths.push_back(p);
  const std::string html = format_html(r);
  // gpu_breakdown's iteration of 10 us: busy 6, blocking 0.5, launch 1, other API 0.3, framework 1.2,
  // device-wait 1 (harness 0: not drawn), each a share of the 200-pixel column of the tallest iteration
  EXPECT_EQ(attributes(html, "ohprof-iter-seg", "data-part"),
            (std::vector<std::string>{"busy", "blocking", "launch", "other_api", "framework", "device_wait"}));
  EXPECT_EQ(attributes(html, "ohprof-iter-seg", "height"),
            (std::vector<std::string>{"120.00", "10.00", "20.00", "6.00", "24.00", "20.00"}));
  EXPECT_EQ(attributes(html, "ohprof-iter-seg", "data-iteration"), std::vector<std::string>(6, "4"));
  // the kernel table: gpu_breakdown's two kernels
  EXPECT_NE(html.find("<code>gemm</code>"), std::string::npos);
  EXPECT_NE(html.find("<code>HtoD</code>"), std::string::npos);
}

}  // namespace
}  // namespace ohprof
