#include "ohprof/harness/measurement_loop.hpp"

#include <gtest/gtest.h>

#include "ohprof/base/interrupt.hpp"

namespace ohprof {
namespace {

struct RecordingObserver : IterationObserver {
  std::vector<std::string> events;
  void on_measurement_begin() override { events.push_back("measure{"); }
  void on_iteration_begin(std::int64_t i, bool warmup) override {
    events.push_back((warmup ? "w" : "i") + std::to_string(i) + "{");
  }
  void on_iteration_end(std::int64_t i, bool warmup) override {
    events.push_back("}" + std::string(warmup ? "w" : "i") + std::to_string(i));
  }
  void on_measurement_end() override { events.push_back("}measure"); }
};

TEST(MeasurementLoop, RunsWarmupThenMeasuredIterationsInOrder) {
  RecordingObserver observer;
  int calls = 0;
  LoopResult result;
  Status status = run_measurement_loop(LoopConfig{2, 3}, [&] { ++calls; return ok_status(); }, {&observer}, result);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(result.warmup_ns.size(), 2u);
  ASSERT_EQ(result.iterations.size(), 3u);
  EXPECT_EQ(result.stop_reason, StopReason{StopCode::runs_reached});
  const std::vector<std::string> expected{"w0{", "}w0", "w1{", "}w1", "measure{", "i0{", "}i0",
                                          "i1{", "}i1", "i2{", "}i2", "}measure"};
  EXPECT_EQ(observer.events, expected);
  for (std::size_t i = 0; i < result.iterations.size(); ++i) {
    EXPECT_EQ(result.iterations[i].index, static_cast<std::int64_t>(i));
    EXPECT_LE(result.iterations[i].start_ns, result.iterations[i].end_ns);
    if (i > 0) EXPECT_GE(result.iterations[i].start_ns, result.iterations[i - 1].end_ns);
  }
  EXPECT_EQ(result.wall_ns().size(), 3u);
}

TEST(MeasurementLoop, KeepsIterationsMeasuredBeforeAnError) {
  int calls = 0;
  LoopResult result;
  Status status = run_measurement_loop(
      LoopConfig{0, 10},
      [&]() -> Status {
        if (++calls == 4) return make_error(ExitCode::model_error, "boom");
        return ok_status();
      },
      {}, result);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::model_error);
  EXPECT_EQ(status.error().message, "iteration 3: boom");
  EXPECT_EQ(result.iterations.size(), 3u);
  EXPECT_EQ(result.stop_reason, StopReason{StopCode::error});
}

TEST(MeasurementLoop, AWarmUpErrorStopsBeforeMeasuring) {
  int calls = 0;
  RecordingObserver observer;
  LoopResult result;
  Status status = run_measurement_loop(
      LoopConfig{3, 10},
      [&]() -> Status {
        if (++calls == 2) return make_error(ExitCode::model_error, "boom");
        return ok_status();
      },
      {&observer}, result);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "warm-up iteration 1: boom");
  EXPECT_EQ(result.warmup_ns.size(), 1u);
  EXPECT_TRUE(result.iterations.empty());
  EXPECT_EQ(result.stop_reason, StopReason{StopCode::error});
  // The failed warm-up iteration is still closed for the observers; the measurement never began.
  EXPECT_EQ(observer.events, (std::vector<std::string>{"w0{", "}w0", "w1{", "}w1"}));
}

TEST(MeasurementLoop, StopsWhenInterruptedAndSaysSo) {
  clear_interrupt();
  int calls = 0;
  LoopResult result;
  Status status = run_measurement_loop(
      LoopConfig{1, 10},
      [&] {
        if (++calls == 3) request_interrupt();
        return ok_status();
      },
      {}, result);
  clear_interrupt();
  ASSERT_TRUE(status.ok());
  EXPECT_TRUE(result.interrupted);
  EXPECT_EQ(result.stop_reason, StopReason{StopCode::interrupted});
  EXPECT_EQ(result.iterations.size(), 2u);  // the 1 warm-up + 2 measured calls before the stop
}

TEST(MeasurementLoop, ReportsProgressAfterEachMeasuredIterationOnly) {
  std::vector<std::size_t> seen_counts;
  std::vector<IterationWindow> last_seen;
  int calls = 0;
  LoopResult result;
  Status status = run_measurement_loop(
      LoopConfig{2, 4}, [&] { ++calls; return ok_status(); }, {}, result,
      [&](const std::vector<std::int64_t>& warmup_ns, const std::vector<IterationWindow>& measured) {
        EXPECT_EQ(warmup_ns.size(), 2u);
        EXPECT_EQ(static_cast<std::size_t>(calls), 2 + measured.size());  // called right after the iteration
        seen_counts.push_back(measured.size());
        last_seen = measured;
      });
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(seen_counts, (std::vector<std::size_t>{1, 2, 3, 4}));  // none during the 2 warm-ups
  ASSERT_EQ(last_seen.size(), result.iterations.size());
  for (std::size_t i = 0; i < last_seen.size(); ++i) {
    EXPECT_EQ(last_seen[i].start_ns, result.iterations[i].start_ns);
    EXPECT_EQ(last_seen[i].end_ns, result.iterations[i].end_ns);
  }
}

TEST(MeasurementLoop, WallTimeIsEndMinusStart) {
  LoopResult result;
  result.iterations = {{0, 100, 250}, {1, 300, 301}};
  EXPECT_EQ(result.wall_ns(), (std::vector<std::int64_t>{150, 1}));
}

}  // namespace
}  // namespace ohprof
