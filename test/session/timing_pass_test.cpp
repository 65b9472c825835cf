// The timing pass of run and compare (src/session/timing_pass.cpp): the interleaved loop, and the
// checkpoints it writes of the report as it stands (docs/report-schema.md, "Checkpoints").
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <thread>

#include "ohprof/session/checkpoint.hpp"
#include "report_file_test.hpp"
#include "session_steps.hpp"

namespace ohprof {
namespace {

using nlohmann::json;

class TimingPassTest : public testing::ReportFileTest {
 protected:
  // The report as compare makes it from what was measured: one path per measured path, its samples.
  static Report report_of(const InterleavedResult& so_far) {
    Report report;
    report.kind = ReportKind::compare;
    for (std::size_t i = 0; i < so_far.paths.size(); ++i) {
      PathResult& path = report.paths.emplace_back();
      path.name = i == 0 ? "aoti" : "eager";
      path.wall_ns = so_far.paths[i].wall_ns();
      path.wall = summarize_ns(path.wall_ns);
      path.stop_reason = so_far.stop_reason;
    }
    return report;
  }
};

InterleavedPath path_of(std::function<Status()> iteration) {
  InterleavedPath path;
  path.iteration = std::move(iteration);
  return path;
}

TEST_F(TimingPassTest, ACheckpointWhileMeasuringHasEveryPathInProgressWithItsSamplesSoFar) {
  // The first round takes longer than the checkpoints' interval (1 s), so one is due after it; the
  // second round's first iteration reads the file as that checkpoint left it.
  std::string during;
  int calls = 0;
  const InterleavedPath slow = path_of([&] {
    if (++calls == 1) std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    if (calls == 2) during = file_text();
    return ok_status();
  });
  const InterleavedPath quick = path_of([] { return ok_status(); });
  InterleavedResult measured;
  const Status status = measure_timing_pass({slow, quick}, AdaptiveStopping::fixed(0, 3, INFINITY, 1), report_path(),
                                            report_of, measured);
  ASSERT_TRUE(status.ok()) << status.error().message;
  ASSERT_FALSE(during.empty()) << "no checkpoint was written after the first round";
  const json checkpoint = json::parse(during);
  EXPECT_EQ(checkpoint.at("stop_reason"), "in progress");
  for (const json& path : checkpoint.at("paths")) {
    EXPECT_EQ(path.at("stop_reason"), "in progress");
    EXPECT_EQ(path.at("samples_ns").size(), 1u);  // one round measured
    EXPECT_EQ(path.at("split").at("reason"), kSplitPendingReason);
  }
}

TEST_F(TimingPassTest, APassThatEndsWellLeavesACheckpointWithEachPathsOwnStopReasonAndTheSplitPending) {
  InterleavedResult measured;
  const InterleavedPath one = path_of([] { return ok_status(); });
  const Status status =
      measure_timing_pass({one, one}, AdaptiveStopping::fixed(1, 4, INFINITY, 2), report_path(), report_of, measured);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(measured.paths[0].iterations.size(), 4u);
  EXPECT_EQ(measured.paths[1].warmup_ns.size(), 1u);
  const json last = json::parse(file_text());
  EXPECT_EQ(last.at("stop_reason"), "in progress");  // the final report replaces it
  ASSERT_EQ(last.at("paths").size(), 2u);
  for (const json& path : last.at("paths")) {
    EXPECT_EQ(path.at("stop_reason"), "converged");
    EXPECT_EQ(path.at("samples_ns").size(), 4u);
    EXPECT_EQ(path.at("split").at("available"), false);
    EXPECT_EQ(path.at("split").at("reason"), kSplitPendingReason);
  }
}

TEST_F(TimingPassTest, APassThatFailedWritesNoLastCheckpointAndKeepsWhatItMeasured) {
  int calls = 0;
  const InterleavedPath failing = path_of([&] {
    return ++calls == 3 ? make_error(ExitCode::internal_error, "out of memory") : ok_status();
  });
  InterleavedResult measured;
  const Status status =
      measure_timing_pass({failing}, AdaptiveStopping::fixed(0, 10, INFINITY, 1), report_path(), report_of, measured);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "iteration 2: out of memory");
  EXPECT_EQ(measured.stop_reason.code, StopCode::error);
  EXPECT_EQ(measured.paths[0].iterations.size(), 2u);
  EXPECT_FALSE(std::filesystem::exists(report_path()));
}

TEST_F(TimingPassTest, WithoutAReportFileNoCheckpointIsWritten) {
  InterleavedResult measured;
  const InterleavedPath one = path_of([] { return ok_status(); });
  int made = 0;
  const Status status = measure_timing_pass({one}, AdaptiveStopping::fixed(0, 2, INFINITY, 1), "-",
                                            [&](const InterleavedResult& so_far) {
                                              ++made;
                                              return report_of(so_far);
                                            },
                                            measured);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(made, 0);  // not even made: stdout gets the final report only
}

}  // namespace
}  // namespace ohprof
