#include "ohprof/session/checkpoint.hpp"
#include "ohprof/output/report_output.hpp"
#include "report_file_test.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace ohprof {
namespace {

using nlohmann::json;

class CheckpointTest : public testing::ReportFileTest {
 protected:
  [[nodiscard]] json read_report() const { return json::parse(file_text()); }
};

Report report_with_samples(std::vector<std::int64_t> samples) {
  Report report;
  report.kind = ReportKind::run;
  PathResult path;
  path.name = "aoti";
  path.wall_ns = std::move(samples);
  path.wall = summarize_ns(path.wall_ns);
  path.stop_reason = StopReason{StopCode::runs_reached};
  report.paths.push_back(path);
  return report;
}

// A clock the test moves by hand; `write_cost_ns` is added while a checkpoint is being written (the
// snapshot advances it), so the test controls how long writing "takes".
struct FakeClock {
  std::int64_t now = 1'000;
  std::function<std::int64_t()> function() {
    return [this] { return now; };
  }
};

std::function<Report()> snapshot_of(Report report, FakeClock* clock = nullptr, std::int64_t write_cost_ns = 0) {
  return [report = std::move(report), clock, write_cost_ns] {
    if (clock != nullptr) clock->now += write_cost_ns;
    return report;
  };
}

TEST_F(CheckpointTest, CheckpointIsDueOnlyAfterTheIntervalSinceTheLastOne) {
  FakeClock clock;
  ReportCheckpoint checkpoint(report_path(), clock.function(), /*min_interval_ns=*/500, /*max_share=*/0.01);
  EXPECT_FALSE(checkpoint.due());
  clock.now = 1'499;
  EXPECT_FALSE(checkpoint.due());
  clock.now = 1'500;
  EXPECT_TRUE(checkpoint.due());
  clock.now = 1'600;
  checkpoint.write(snapshot_of(report_with_samples({10}), &clock, 3));  // ends at 1'603
  EXPECT_EQ(checkpoint.gap_ns(), 500);  // 3 ns of writing: 99 x 3 < 500
  clock.now = 2'102;
  EXPECT_FALSE(checkpoint.due());  // counted from the end of the write, not from the last due()
  clock.now = 2'103;
  EXPECT_TRUE(checkpoint.due());
  EXPECT_EQ(checkpoint.written(), 1);
}

// Worked by hand: a write that takes 20 ns with max_share 1% must be followed by 20 x 99 = 1980 ns
// without one, so that 20 / (20 + 1980) = 1%.
TEST_F(CheckpointTest, SlowCheckpointsAreSpacedToKeepTheirShareOfTheRun) {
  FakeClock clock;
  ReportCheckpoint checkpoint(report_path(), clock.function(), /*min_interval_ns=*/500, /*max_share=*/0.01);
  clock.now = 2'000;
  checkpoint.write(snapshot_of(report_with_samples({10, 20}), &clock, 20));  // 2'000 to 2'020
  EXPECT_EQ(checkpoint.gap_ns(), 1'980);
  clock.now = 2'020 + 1'979;
  EXPECT_FALSE(checkpoint.due());
  clock.now = 2'020 + 1'980;
  EXPECT_TRUE(checkpoint.due());
  // A faster write brings the gap back down, never below the minimum interval.
  checkpoint.write(snapshot_of(report_with_samples({10}), &clock, 1));
  EXPECT_EQ(checkpoint.gap_ns(), 500);
}

TEST_F(CheckpointTest, CheckpointWritesTheWholeReportMarkedInProgress) {
  ReportCheckpoint checkpoint(report_path());
  checkpoint.write(snapshot_of(report_with_samples({30, 10, 20})));
  const json first = read_report();
  EXPECT_EQ(first["stop_reason"], "in progress");
  EXPECT_EQ(first["paths"][0]["samples_ns"], json::array({30, 10, 20}));
  EXPECT_EQ(first["paths"][0]["wall_ns"]["median"], 20);
  EXPECT_EQ(first["paths"][0]["stop_reason"], "runs reached");  // only the top level is marked

  // The next checkpoint replaces the file, and the final report (written as usual) replaces that.
  checkpoint.write(snapshot_of(report_with_samples({30, 10, 20, 40})));
  EXPECT_EQ(read_report()["paths"][0]["samples_ns"].size(), 4u);
  ASSERT_TRUE(emit_report(report_with_samples({1, 2}), ReportExports{report_path(), "", "", ""}, /*quiet=*/true).ok());
  const json final_report = read_report();
  EXPECT_EQ(final_report["stop_reason"], "");
  EXPECT_EQ(final_report["paths"][0]["samples_ns"], json::array({1, 2}));
  EXPECT_EQ(checkpoint.written(), 2);
}

TEST_F(CheckpointTest, NoCheckpointsWithoutAReportFile) {
  for (const std::string destination : {"", "-"}) {
    FakeClock clock;
    ReportCheckpoint checkpoint(destination, clock.function(), 1);
    clock.now += 1'000'000'000;
    EXPECT_FALSE(checkpoint.due()) << destination;
    bool snapshot_made = false;
    checkpoint.write([&] {  // "-" must not print a report mid-run, and no snapshot is made for nothing
      snapshot_made = true;
      return report_with_samples({1});
    });
    EXPECT_FALSE(snapshot_made) << destination;
    EXPECT_EQ(checkpoint.written(), 0) << destination;
  }
}

TEST_F(CheckpointTest, AFailedCheckpointIsNotFatalAndNotCounted) {
  ReportCheckpoint checkpoint((m_dir / "missing-folder" / "report.json").string());
  checkpoint.write(snapshot_of(report_with_samples({1})));
  EXPECT_EQ(checkpoint.written(), 0);
  EXPECT_FALSE(std::filesystem::exists(m_dir / "missing-folder"));
}

}  // namespace
}  // namespace ohprof
