#include "ohprof/table_printer.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

TEST(FormatDuration, PicksUnitBySize) {
  EXPECT_EQ(format_duration(812), "812 ns");
  EXPECT_EQ(format_duration(12'345), "12.35 us");
  EXPECT_EQ(format_duration(1'840'000), "1.840 ms");
  EXPECT_EQ(format_duration(123'400'000), "123.4 ms");
  EXPECT_EQ(format_duration(2'031'000'000), "2.031 s");
}

TEST(FormatRunTable, ShowsEachStatisticOfEachPath) {
  Report report;
  report.context.device = DeviceDescription{"cpu", -1, "Test CPU"};
  PathResult path;
  path.name = "aoti";
  path.artifact = "m.pt2";
  path.load_ns = 5'000'000;
  path.wall_ns = {1'000'000, 2'000'000, 3'000'000};
  path.wall = summarize_ns(path.wall_ns);
  path.stop_reason = "runs reached";
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
  path.stop_reason = "interrupted";
  report.paths.push_back(path);
  EXPECT_NE(format_run_table(report).find("(interrupted)"), std::string::npos);
}

}  // namespace
}  // namespace ohprof
