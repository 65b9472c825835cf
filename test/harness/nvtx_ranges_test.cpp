#include "ohprof/harness/nvtx_ranges.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "ohprof/harness/measurement_loop.hpp"

namespace ohprof {
namespace {

// No profiler is attached to the tests (nsys sets NVTX_INJECTION64_PATH when it is): the ranges must
// then cost nothing but a call, whether or not the build has NVTX3.

TEST(NvtxRanges, IsAnObserverOfTheMeasurementLoopThatChangesNothing) {
  NvtxRanges ranges("aoti");
  int calls = 0;
  LoopResult result;
  const Status status =
      run_measurement_loop(LoopConfig{3, 5}, [&] { ++calls; return ok_status(); }, {&ranges}, result);
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(calls, 8);
  EXPECT_EQ(result.warmup_ns.size(), 3u);
  ASSERT_EQ(result.iterations.size(), 5u);
  EXPECT_EQ(result.stop_reason, StopReason{StopCode::runs_reached});
  for (std::size_t i = 0; i < result.iterations.size(); ++i) {
    EXPECT_EQ(result.iterations[i].index, static_cast<std::int64_t>(i));
  }
}

TEST(NvtxRanges, KeepsRangesBalancedWhenAnIterationFails) {
  // the loop closes the failed iteration's range and never begins the measurement
  NvtxRanges ranges("failing");
  LoopResult result;
  int calls = 0;
  const Status status = run_measurement_loop(
      LoopConfig{1, 4},
      [&]() -> Status {
        if (++calls == 3) return make_error(ExitCode::model_error, "boom");
        return ok_status();
      },
      {&ranges}, result);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "iteration 1: boom");
  EXPECT_EQ(result.iterations.size(), 1u);
}

TEST(NvtxRanges, ManyPathsEachWithItsOwnCategory) {
  // compare runs several paths in one process, one NvtxRanges (category) each; names are any text
  std::vector<std::unique_ptr<NvtxRanges>> paths;
  const std::vector<std::string> names{"aoti", "compile", "eager", "", "path with spaces and \u00fcn\u00efcode",
                                       std::string(4096, 'p')};
  for (const std::string& name : names) {
    paths.push_back(std::make_unique<NvtxRanges>(name));
  }
  for (int round = 0; round < 3; ++round) {
    for (auto& ranges : paths) {
      ranges->on_iteration_begin(round, true);
      ranges->on_iteration_end(round, true);
    }
  }
  for (auto& ranges : paths) ranges->on_measurement_begin();
  for (std::int64_t i = 0; i < 100; ++i) {
    for (auto& ranges : paths) {
      ranges->on_iteration_begin(i, false);
      ranges->on_iteration_end(i, false);
    }
  }
  for (auto& ranges : paths) ranges->on_measurement_end();
  paths.clear();  // destroyed after use: nothing to release
  SUCCEED();
}

TEST(NvtxRanges, UnbalancedCallsAreHarmless) {
  // an observer may see an end without a begin (an error between the two): no tool, no effect
  NvtxRanges ranges("unbalanced");
  ranges.on_iteration_end(0, false);
  ranges.on_measurement_end();
  ranges.on_measurement_end();
  ranges.on_measurement_begin();
  ranges.on_iteration_begin(0, false);
  // left open: the process ends with open ranges
  SUCCEED();
}

TEST(NvtxRanges, UsableFromSeveralThreads) {
  // the first use registers the domain and its strings; later instances share them
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      NvtxRanges ranges("thread " + std::to_string(t));
      ranges.on_measurement_begin();
      for (std::int64_t i = 0; i < 1000; ++i) {
        ranges.on_iteration_begin(i, false);
        ranges.on_iteration_end(i, false);
      }
      ranges.on_measurement_end();
    });
  }
  for (auto& thread : threads) thread.join();
  SUCCEED();
}

}  // namespace
}  // namespace ohprof
