#include "ohprof/report_output.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace ohprof {
namespace {

using nlohmann::json;

class ReportOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() /
            ("ohprof-report-output-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(m_dir);
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }

  [[nodiscard]] json read_report() const {
    std::ifstream file(report_path());
    std::stringstream text;
    text << file.rdbuf();
    return json::parse(text.str());
  }
  [[nodiscard]] std::string report_path() const { return (m_dir / "report.json").string(); }

  std::filesystem::path m_dir;
};

Report report_with_samples(std::vector<std::int64_t> samples) {
  Report report;
  report.kind = "run";
  PathResult path;
  path.name = "aoti";
  path.wall_ns = std::move(samples);
  path.wall = summarize_ns(path.wall_ns);
  path.stop_reason = "runs reached";
  report.paths.push_back(path);
  return report;
}

TEST_F(ReportOutputTest, CheckpointIsDueOnlyAfterTheIntervalSinceTheLastOne) {
  ReportCheckpoint checkpoint(report_path(), /*now_ns=*/1'000, /*interval_ns=*/500);
  EXPECT_FALSE(checkpoint.due(1'000));
  EXPECT_FALSE(checkpoint.due(1'499));
  EXPECT_TRUE(checkpoint.due(1'500));
  checkpoint.write(report_with_samples({10}), 1'600);
  EXPECT_FALSE(checkpoint.due(2'099));  // counted from the write, not from the last due()
  EXPECT_TRUE(checkpoint.due(2'100));
  EXPECT_EQ(checkpoint.written(), 1);
}

TEST_F(ReportOutputTest, CheckpointWritesTheWholeReportMarkedInProgress) {
  ReportCheckpoint checkpoint(report_path(), 0);
  checkpoint.write(report_with_samples({30, 10, 20}), 5);
  const json first = read_report();
  EXPECT_EQ(first["stop_reason"], "in progress");
  EXPECT_EQ(first["paths"][0]["samples_ns"], json::array({30, 10, 20}));
  EXPECT_EQ(first["paths"][0]["wall_ns"]["median"], 20);
  EXPECT_EQ(first["paths"][0]["stop_reason"], "runs reached");  // only the top level is marked

  // The next checkpoint replaces the file, and the final report (written as usual) replaces that.
  checkpoint.write(report_with_samples({30, 10, 20, 40}), 6);
  EXPECT_EQ(read_report()["paths"][0]["samples_ns"].size(), 4u);
  ASSERT_TRUE(emit_report(report_with_samples({1, 2}), report_path(), /*quiet=*/true).ok());
  const json final_report = read_report();
  EXPECT_EQ(final_report["stop_reason"], "");
  EXPECT_EQ(final_report["paths"][0]["samples_ns"], json::array({1, 2}));
  EXPECT_EQ(checkpoint.written(), 2);
}

TEST_F(ReportOutputTest, NoCheckpointsWithoutAReportFile) {
  for (const std::string destination : {"", "-"}) {
    ReportCheckpoint checkpoint(destination, 0, 1);
    EXPECT_FALSE(checkpoint.due(1'000'000'000)) << destination;
    checkpoint.write(report_with_samples({1}), 1'000'000'000);  // "-" must not print a report mid-run
    EXPECT_EQ(checkpoint.written(), 0) << destination;
  }
}

TEST_F(ReportOutputTest, AFailedCheckpointIsNotFatalAndNotCounted) {
  ReportCheckpoint checkpoint((m_dir / "missing-folder" / "report.json").string(), 0);
  checkpoint.write(report_with_samples({1}), 1);
  EXPECT_EQ(checkpoint.written(), 0);
  EXPECT_FALSE(std::filesystem::exists(m_dir / "missing-folder"));
}

TEST_F(ReportOutputTest, WarningsArePrintedAndRecordedInOrder) {
  Report report;
  testing::internal::CaptureStderr();
  add_warning(report, "first thing");
  add_warning(report, "second thing");
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(report.warnings, (std::vector<std::string>{"first thing", "second thing"}));
  EXPECT_LT(printed.find("first thing"), printed.find("second thing"));
}

}  // namespace
}  // namespace ohprof
