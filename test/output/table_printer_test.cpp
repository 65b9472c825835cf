#include "ohprof/output/table_printer.hpp"

#include <gtest/gtest.h>

#include "ohprof/analysis/breakdown.hpp"

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

TEST(FormatRunTable, ShowsTheDeviceSplitVerdictAndCounters) {
  // One iteration [0, 10 us]: ten launches [1000i, 1000i + 100] each followed by a 100 ns kernel at
  // [1000i + 200, 1000i + 300]. busy 1 us (10% of wall); dispatch 9.1 us -> overhead-bound.
  Timeline timeline;
  timeline.iterations = {{0, 0, 10'000}};
  for (std::int64_t i = 0; i < 10; ++i) {
    LaunchCall launch;
    launch.start_ns = 1000 * i;
    launch.end_ns = 1000 * i + 100;
    launch.correlation = static_cast<std::uint64_t>(i + 1);
    timeline.launches.push_back(launch);
    DeviceOp op;
    op.start_ns = 1000 * i + 200;
    op.end_ns = 1000 * i + 300;
    op.correlation = launch.correlation;
    op.name = "triton_poi_fused_add_0";
    timeline.ops.push_back(op);
  }
  timeline.counters.dropped_records = 4;
  Report report;
  PathResult path;
  path.name = "compile";
  path.wall_ns = {10'000};
  path.wall = summarize_ns(path.wall_ns);
  path.stop_reason = StopReason{StopCode::runs_reached};
  path.breakdown = analyze_timeline(timeline);
  report.paths.push_back(path);
  report.kernel_diffs.push_back(diff_kernel_sets(*path.breakdown, *path.breakdown, "compile", "compile"));
  const std::string table = format_run_table(report);
  EXPECT_NE(table.find("GPU busy:      1.000 us ± 0 ns  (10.0% of wall)"), std::string::npos) << table;
  EXPECT_NE(table.find("dispatch:      9.100 us"), std::string::npos) << table;
  // Launch API 10 x 100 ns = 1 us, framework 9.1 - 1 = 8.1 us.
  EXPECT_NE(table.find("(launch API 1.000 us, framework 8.100 us)"), std::string::npos) << table;
  EXPECT_NE(table.find("launches:      10 per iteration (0 graph), 10 device ops"), std::string::npos) << table;
  EXPECT_NE(table.find("4 dropped"), std::string::npos) << table;
  EXPECT_NE(table.find("verdict:       overhead-bound: "), std::string::npos) << table;
  EXPECT_NE(table.find("triton_poi_fused_add_0"), std::string::npos) << table;
  EXPECT_NE(table.find("kernels compile vs compile: the same 1 kernels"), std::string::npos) << table;
}

TEST(FormatRunTable, SaysDispatchIsUnavailableWithoutLaunchCalls) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}};
  DeviceOp op;
  op.start_ns = 10;
  op.end_ns = 20;
  timeline.ops = {op};
  Report report;
  PathResult path;
  path.name = "cpu";
  path.breakdown = analyze_timeline(timeline);
  report.paths.push_back(path);
  const std::string table = format_run_table(report);
  EXPECT_NE(table.find("dispatch:      n/a (no launch calls)"), std::string::npos) << table;
  EXPECT_NE(table.find("1 without launch"), std::string::npos) << table;
}

}  // namespace
}  // namespace ohprof
