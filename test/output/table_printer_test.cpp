#include "ohprof/output/table_printer.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/output/markdown_report.hpp"
#include "ohprof/output/report_text.hpp"
#include "sample_breakdown.hpp"

namespace ohprof {
namespace {

TEST(FormatRunTable, ShowsEachStatisticOfEachPath) {
  Report report;
  report.context.device = DeviceDescription{DeviceKind::cpu, -1, "Test CPU"};
  PathResult path;
  path.name = "aoti";
  path.artifact = "m.pt2";
  path.load_ns = 5'000'000;
  path.wall_ns = {1'000'000, 2'000'000, 3'000'000};
  path.wall = summarize_ns(path.wall_ns);
  path.stop_reason = StopReason{StopCode::runs_reached};
  report.paths.push_back(path);
  const std::string table = format_run_table(report);
  EXPECT_NE(table.find("device: cpu (Test CPU)"), std::string::npos) << table;
  EXPECT_NE(table.find("path aoti  (m.pt2)"), std::string::npos) << table;
  EXPECT_NE(table.find("wall median:   2.000 ms"), std::string::npos) << table;
  EXPECT_NE(table.find("wall mean:     2.000 ms ± 1.000 ms"), std::string::npos) << table;
  EXPECT_NE(table.find("range:         1.000 ms … 3.000 ms"), std::string::npos) << table;
  EXPECT_NE(table.find("noise:         50.0% (σ/mean)"), std::string::npos) << table;
  EXPECT_NE(table.find("n = 3"), std::string::npos) << table;
}

TEST(FormatRunTable, SaysWhyMeasurementStoppedEarly) {
  Report report;
  PathResult path;
  path.name = "aoti";
  path.wall_ns = {10, 20};
  path.wall = summarize_ns(path.wall_ns);
  path.stop_reason = StopReason{StopCode::interrupted};
  report.paths.push_back(path);
  EXPECT_NE(format_run_table(report).find("(interrupted)"), std::string::npos);
}

Report report_with(const PathBreakdown& breakdown) {
  Report report;
  report.context.device.type = DeviceKind::cuda;  // a GPU's split: the labels call it "GPU" (device_noun)
  PathResult path;
  path.name = "compile";
  path.wall_ns = {10'000};
  path.wall = summarize_ns(path.wall_ns);
  path.stop_reason = StopReason{StopCode::runs_reached};
  path.breakdown = breakdown;
  report.paths.push_back(path);
  return report;
}

// A kernel-set diff of paths whose CPU kernels do not record themselves says what its rows are and concludes
// nothing; a complete one that finds the same set says so.
TEST(FormatRunTable, APartialKernelDiffSaysItHoldsRecordedOpsOnly) {
  Report report = report_with(test::gpu_breakdown());
  report.kernel_diffs.push_back(
      diff_kernel_sets(*report.paths[0].breakdown, *report.paths[0].breakdown, "aoti", "compile"));
  report.kernel_diffs.back().partial = true;
  std::string table = format_run_table(report);
  EXPECT_NE(table.find("kernels aoti vs compile: recorded ops only, not the kernel sets (CPU kernels record "
                       "themselves only with --kernel-profile): 2 in both, 0 only in aoti, 0 only in compile\n"),
            std::string::npos) << table;
  EXPECT_EQ(table.find("host overhead or kernel speed"), std::string::npos) << table;
  report.kernel_diffs.back().partial = false;
  table = format_run_table(report);
  EXPECT_NE(table.find("kernels aoti vs compile: the same 2 kernels; a time difference is host overhead or kernel speed"),
            std::string::npos) << table;
}

TEST(FormatRunTable, ShowsTheGpuSplitWithSharesOfTheSummedWall) {
  // test::gpu_breakdown: wall 10 us; busy 6, host-bound 3 (blocking 0.5, launch 1, other API 0.3,
  // framework 1.2), device-wait 1 us.
  Report report = report_with(test::gpu_breakdown());
  report.kernel_diffs.push_back(
      diff_kernel_sets(*report.paths[0].breakdown, *report.paths[0].breakdown, "compile", "compile"));
  const std::string table = format_run_table(report);
  EXPECT_NE(table.find("device split:  median ± σ over 1 iterations; % of their summed wall time"), std::string::npos)
      << table;
  EXPECT_NE(table.find("    GPU busy:      6.000 us ± 0 ns          60.0%  (an op running)\n"), std::string::npos)
      << table;
  EXPECT_NE(table.find("    host-bound:    3.000 us ± 0 ns          30.0%  (nothing queued"), std::string::npos)
      << table;
  EXPECT_NE(table.find("      blocking:    500 ns ± 0 ns             5.0%"), std::string::npos) << table;
  EXPECT_NE(table.find("      launch:      1.000 us ± 0 ns          10.0%"), std::string::npos) << table;
  EXPECT_NE(table.find("      other API:   300 ns ± 0 ns             3.0%"), std::string::npos) << table;
  EXPECT_NE(table.find("      framework:   1.200 us ± 0 ns          12.0%"), std::string::npos) << table;
  EXPECT_NE(table.find("    device-wait:   1.000 us ± 0 ns          10.0%  (work queued"), std::string::npos) << table;
  EXPECT_NE(table.find("launch queue:  mean 2.5 ± 0.0 ops pending, max 7; full (>= 1000 on one device) in 0 of 1 iterations"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("host side:     launch API 2.000 us (exposed 1.000 us, hidden 1.000 us), blocking 600 ns "
                       "(2 calls in all), other API 400 ns"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("launches:      4 per iteration (1 graph), 4 device ops; queue delay median 10 ns (1 negative, "
                       "clipped to 0)"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("own work:      5.000 us of busy from the window's own launches; 500 ns of them ran outside it "
                       "(carried out)"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("stream 0:7:    busy 5.000 us (50.0%)  host-bound 4.200 us (42.0%)  device-wait 800 ns (8.0%)  "
                       "work pending in 100.0% of the device-wait"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("stream 0:13:   busy 1.500 us (15.0%)"), std::string::npos) << table;
  EXPECT_NE(table.find("work pending in 20.0% of the device-wait\n"), std::string::npos) << table;
  EXPECT_NE(table.find("2 dropped"), std::string::npos) << table;
  EXPECT_NE(table.find("    verdict:       compute-bound: " + verdict_text(test::gpu_breakdown().verdict, DeviceKind::cuda, 1) + "\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("gemm"), std::string::npos) << table;
  EXPECT_NE(table.find("kernels compile vs compile: the same 2 kernels"), std::string::npos) << table;
  EXPECT_EQ(table.find("dispatch:"), std::string::npos) << table;  // GPU: no dispatch line
}

// No op's launch call: busy is read; host-bound and device-wait are not told apart, so no line gives them a share.
TEST(FormatRunTable, WithoutLaunchCallsOnlyTheBusyTimeIsSplit) {
  PathBreakdown b = test::gpu_breakdown();
  b.verdict.verdict = Verdict::unknown;
  b.verdict.reason = VerdictReason::no_launches;
  const std::string table = format_run_table(report_with(b));
  EXPECT_NE(table.find("    GPU busy:      6.000 us ± 0 ns          60.0%  (an op running)\n"
                       "    host-bound, device-wait: unknown (no device op has its launch call in the data)\n"
                       "    launches:      4 per iteration (1 graph), 4 device ops"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("    host-bound:    "), std::string::npos) << table;
  EXPECT_EQ(table.find("    device-wait:   "), std::string::npos) << table;
  EXPECT_EQ(table.find("framework:"), std::string::npos) << table;
}

// The verdict's advice reads the path's kind in run and compare reports (advice_path_kind): the table, the
// JSON's suggestion and the Markdown give the aoti path its own advice; analyze, whose path names are file
// names, gives the general one even to a trace named "aoti".
TEST(VerdictAdvice, EveryPrinterGivesTheAotiPathItsOwnAdviceButNotInAnalyze) {
  PathBreakdown b = test::cpu_breakdown();
  b.verdict.verdict = Verdict::host_bound;
  b.verdict.busy_share = 0.25;
  b.verdict.host_bound_share = 0.75;
  b.verdict.first = TimeShare::host_bound;
  b.verdict.second = TimeShare::busy;
  Report report = report_with(b);
  report.paths[0].name = "aoti";
  const std::string own = "the path is already AOTInductor's C++ runner";
  const std::string general = "AOTInductor's C++ wrapper (or compile:cpp-wrapper)";
  for (const ReportKind kind : {ReportKind::run, ReportKind::compare, ReportKind::analyze}) {
    SCOPED_TRACE(to_string(kind));
    report.kind = kind;
    const std::string& want = kind == ReportKind::analyze ? general : own;
    const std::string& not_want = kind == ReportKind::analyze ? own : general;
    const std::string table = format_run_table(report);
    const std::string suggestion = report_to_json(report)["paths"][0]["split"]["verdict"]["suggestion"];
    const std::string markdown = format_markdown(report);
    for (const std::string* text : {&table, &suggestion, &markdown}) {
      EXPECT_NE(text->find(want), std::string::npos) << *text;
      EXPECT_EQ(text->find(not_want), std::string::npos) << *text;
    }
  }
}

TEST(FormatRunTable, CpuRunsShowBusyAndDispatchOnly) {
  const std::string table = format_run_table(report_with(test::cpu_breakdown()));
  EXPECT_NE(table.find("    CPU busy:      7.500 us ± 0 ns          75.0%  (kernels)\n"), std::string::npos) << table;
  EXPECT_NE(table.find("    dispatch:      2.500 us ± 0 ns          25.0%  (host work around the kernels)\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("    kernels:       4 per iteration\n"), std::string::npos) << table;
  EXPECT_NE(table.find("verdict:       compute-bound: CPU kernels busy 75.0% of wall (dispatch 25.0%). Speed up"),
            std::string::npos)
      << table;
  for (const char* absent : {"host-bound", "device-wait", "launch queue", "framework:", "host side", "own work",
                             "stream -1"}) {
    EXPECT_EQ(table.find(absent), std::string::npos) << absent << "\n" << table;
  }
}

TEST(FormatRunTable, SaysWhenThereIsNoIterationToSplit) {
  PathBreakdown empty;
  const std::string table = format_run_table(report_with(empty));
  EXPECT_NE(table.find("device split:  no iteration windows to split"), std::string::npos) << table;
  EXPECT_NE(table.find("verdict:       unknown: no iteration was analysed"), std::string::npos) << table;
}

}  // namespace
}  // namespace ohprof
