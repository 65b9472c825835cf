#include "ohprof/harness/interleaved_loop.hpp"

#include <gtest/gtest.h>

#include "ohprof/base/interrupt.hpp"

namespace ohprof {
namespace {

// A fake clock: each path's iteration advances it by that path's cost; reading it costs nothing.
struct FakeClock {
  std::int64_t now = 1'000;
  std::int64_t read() const { return now; }
};

InterleavedPath fixed_cost_path(const std::string& name, FakeClock& clock, std::int64_t cost_ns,
                                std::vector<std::string>* order = nullptr) {
  InterleavedPath path;
  path.name = name;
  path.iteration = [&clock, cost_ns, order, name]() -> Status {
    clock.now += cost_ns;
    if (order) order->push_back(name);
    return ok_status();
  };
  return path;
}

TEST(InterleavedLoop, RotatesTheOrderEachRoundAfterPerPathWarmup) {
  FakeClock clock;
  std::vector<std::string> order;
  std::vector<InterleavedPath> paths{fixed_cost_path("a", clock, 100, &order), fixed_cost_path("b", clock, 200, &order),
                                     fixed_cost_path("c", clock, 300, &order)};
  AdaptiveStopping stopping;
  stopping.block = 1;  // one iteration per path per round
  stopping.warmup = 1;
  stopping.min_runs = 3;
  stopping.max_runs = 3;
  stopping.min_time_s = 0;
  InterleavedResult result;
  ASSERT_TRUE(run_interleaved(paths, stopping, result, [&] { return clock.read(); }).ok());
  // Warm-up a, b, c; then rounds abc, bca, cab.
  const std::vector<std::string> expected{"a", "b", "c", "a", "b", "c", "b", "c", "a", "c", "a", "b"};
  EXPECT_EQ(order, expected);
  EXPECT_EQ(result.rounds, 3);
  ASSERT_EQ(result.paths.size(), 3u);
  EXPECT_EQ(result.paths[1].warmup_ns, std::vector<std::int64_t>{200});
  EXPECT_EQ(result.paths[2].wall_ns(), (std::vector<std::int64_t>{300, 300, 300}));
  // Constant times have zero spread, so all criteria hold once min_runs is reached.
  EXPECT_EQ(result.stop_reason, StopReason{StopCode::converged});
}

// A fake run delay: each iteration of a path adds that path's wait (warm-up iterations too, which must not
// count); the reader reports it. Blocks of 2, 5 runs each: a waits 7 ns per iteration, b 0.
TEST(InterleavedLoop, SumsEachPathsRunQueueWaitOverItsMeasuredBlocksOnly) {
  FakeClock clock;
  std::int64_t delay = 50;
  int reads = 0;
  const auto waiting = [&](const std::string& name, std::int64_t wait) {
    InterleavedPath path = fixed_cost_path(name, clock, 100);
    auto inner = path.iteration;
    path.iteration = [inner, &delay, wait] {
      delay += wait;
      return inner();
    };
    return path;
  };
  AdaptiveStopping stopping;
  stopping.warmup = 3;
  stopping.min_runs = 5;
  stopping.max_runs = 5;
  stopping.min_time_s = 0;
  stopping.block = 2;
  InterleavedResult result;
  ASSERT_TRUE(run_interleaved({waiting("a", 7), waiting("b", 0)}, stopping, result, [&] { return clock.read(); }, {},
                              [&]() -> std::optional<SchedStat> {
                                ++reads;
                                return SchedStat{0, delay};
                              })
                  .ok());
  // not the 3 warm-ups' 21; the blocks' spans: the fake clock moves only in calls
  EXPECT_EQ(result.paths[0].run_queue, (std::optional<PathRunQueue>(PathRunQueue{5 * 7, 5 * 100})));
  EXPECT_EQ(result.paths[1].run_queue, (std::optional<PathRunQueue>(PathRunQueue{0, 5 * 100})));
  EXPECT_EQ(reads, 2 * 6);  // before and after each of the 6 blocks (3 rounds of 2 paths), none inside one

  // without a reader: no figure; a read that fails: none for that path
  InterleavedResult unread;
  ASSERT_TRUE(run_interleaved({waiting("a", 7)}, stopping, unread, [&] { return clock.read(); }).ok());
  EXPECT_FALSE(unread.paths[0].run_queue.has_value());
  int calls = 0;
  InterleavedResult failed;
  ASSERT_TRUE(run_interleaved({waiting("a", 7), waiting("b", 1)}, stopping, failed, [&] { return clock.read(); }, {},
                              [&]() -> std::optional<SchedStat> {
                                if (++calls == 2) return std::nullopt;  // after a's first block
                                return SchedStat{0, delay};
                              })
                  .ok());
  EXPECT_FALSE(failed.paths[0].run_queue.has_value());
  EXPECT_EQ(failed.paths[1].run_queue, (std::optional<PathRunQueue>(PathRunQueue{5, 5 * 100})));

  // An iteration that fails inside a block: the block's wait and span both cover it (its 7 ns and 100 ns with
  // the first iteration's), as the reads bracket the whole block.
  InterleavedPath breaking = waiting("c", 7);
  int made = 0;
  auto works = breaking.iteration;
  breaking.iteration = [works, &made]() -> Status {
    const Status status = works();
    return ++made == 2 ? make_error(ExitCode::model_error, "boom") : status;
  };
  AdaptiveStopping plain = stopping;
  plain.warmup = 0;
  InterleavedResult broken;
  EXPECT_FALSE(run_interleaved({breaking}, plain, broken, [&] { return clock.read(); }, {},
                               [&]() -> std::optional<SchedStat> { return SchedStat{0, delay}; })
                   .ok());
  EXPECT_EQ(broken.paths[0].iterations.size(), 1u);
  EXPECT_EQ(broken.paths[0].run_queue, (std::optional<PathRunQueue>(PathRunQueue{2 * 7, 2 * 100})));
}

TEST(InterleavedLoop, BlocksRunConsecutiveIterationsOfOnePathAndStopAtMaxRuns) {
  FakeClock clock;
  std::vector<std::string> order;
  std::vector<InterleavedPath> paths{fixed_cost_path("a", clock, 100, &order), fixed_cost_path("b", clock, 200, &order)};
  AdaptiveStopping stopping;
  stopping.warmup = 1;
  stopping.min_runs = 5;
  stopping.max_runs = 5;
  stopping.min_time_s = 0;
  stopping.block = 2;
  InterleavedResult result;
  ASSERT_TRUE(run_interleaved(paths, stopping, result, [&] { return clock.read(); }).ok());
  // Warm-up a, b; rounds aa bb, bb aa, a b (the last block cut at max_runs 5).
  const std::vector<std::string> expected{"a", "b", "a", "a", "b", "b", "b", "b", "a", "a", "a", "b"};
  EXPECT_EQ(order, expected);
  EXPECT_EQ(result.rounds, 3);
  EXPECT_EQ(result.paths[0].wall_ns().size(), 5u);
  EXPECT_EQ(result.paths[1].wall_ns().size(), 5u);
  // Each measured iteration's round, as the order above: a in rounds 0, 0, 1, 1, 2.
  EXPECT_EQ(result.paths[0].rounds, (std::vector<int>{0, 0, 1, 1, 2}));
  EXPECT_EQ(result.paths[1].rounds, (std::vector<int>{0, 0, 1, 1, 2}));
}

TEST(InterleavedLoop, TimeLimitSaysWhichCriterionIsUnmet) {
  FakeClock clock;
  // Alternating 1000/3000 ns: mean 2000, stddev ~1000: rse = 0.5/sqrt(n) never reaches 1e-6.
  InterleavedPath noisy;
  noisy.name = "noisy";
  int calls = 0;
  noisy.iteration = [&]() -> Status {
    clock.now += (calls++ % 2 == 0) ? 1000 : 3000;
    return ok_status();
  };
  AdaptiveStopping stopping;
  stopping.block = 1;  // one iteration per path per round
  stopping.warmup = 0;
  stopping.min_runs = 2;
  stopping.min_time_s = 0;
  stopping.max_rse = 1e-6;
  stopping.time_limit_s = 20e-6;  // 20 us of fake time: 10 iterations
  InterleavedResult result;
  ASSERT_TRUE(run_interleaved({noisy}, stopping, result, [&] { return clock.read(); }).ok());
  EXPECT_EQ(result.paths[0].iterations.size(), 10u);
  EXPECT_EQ(result.stop_reason.code, StopCode::time_limit);
  EXPECT_EQ(result.stop_reason.unmet.rfind("noisy: rse ", 0), 0u) << result.stop_reason.unmet;
}

TEST(InterleavedLoop, MinTimeKeepsMeasuringFastPaths) {
  FakeClock clock;
  std::vector<InterleavedPath> paths{fixed_cost_path("fast", clock, 1'000)};
  AdaptiveStopping stopping;
  stopping.block = 1;  // one iteration per path per round
  stopping.warmup = 0;
  stopping.min_runs = 1;
  stopping.min_time_s = 10e-6;  // 10 iterations of 1 us
  InterleavedResult result;
  ASSERT_TRUE(run_interleaved(paths, stopping, result, [&] { return clock.read(); }).ok());
  EXPECT_EQ(result.paths[0].iterations.size(), 10u);
  EXPECT_EQ(result.stop_reason, StopReason{StopCode::converged});
}

TEST(InterleavedLoop, MaxRunsStopsAndListsWhatWasUnmet) {
  FakeClock clock;
  std::vector<InterleavedPath> paths{fixed_cost_path("a", clock, 1'000)};
  AdaptiveStopping stopping;
  stopping.block = 1;  // one iteration per path per round
  stopping.warmup = 0;
  stopping.min_runs = 1;
  stopping.max_runs = 4;
  stopping.min_time_s = 1.0;
  InterleavedResult result;
  ASSERT_TRUE(run_interleaved(paths, stopping, result, [&] { return clock.read(); }).ok());
  EXPECT_EQ(result.paths[0].iterations.size(), 4u);
  EXPECT_EQ(result.stop_reason, (StopReason{StopCode::max_runs_reached, "a: time 4e-06 s < 1 s"}));
}

TEST(InterleavedLoop, AnErrorKeepsEarlierIterationsAndNamesThePath) {
  FakeClock clock;
  InterleavedPath failing;
  failing.name = "compile";
  int calls = 0;
  failing.iteration = [&]() -> Status {
    clock.now += 10;
    if (++calls == 3) return make_error(ExitCode::model_error, "boom");
    return ok_status();
  };
  AdaptiveStopping stopping;
  stopping.block = 1;  // one iteration per path per round
  stopping.warmup = 0;
  stopping.min_runs = 10;
  InterleavedResult result;
  Status status = run_interleaved({failing}, stopping, result, [&] { return clock.read(); });
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "path compile, iteration 2: boom");
  EXPECT_EQ(result.paths[0].iterations.size(), 2u);
  EXPECT_EQ(result.stop_reason, StopReason{StopCode::error});
}

TEST(InterleavedLoop, AWarmUpErrorSaysItWasAWarmUp) {
  FakeClock clock;
  InterleavedPath failing;
  failing.name = "eager";
  int calls = 0;
  failing.iteration = [&]() -> Status {
    clock.now += 10;
    if (++calls == 2) return make_error(ExitCode::model_error, "boom");
    return ok_status();
  };
  AdaptiveStopping stopping;
  stopping.block = 1;  // one iteration per path per round
  stopping.warmup = 3;
  InterleavedResult result;
  Status status = run_interleaved({failing}, stopping, result, [&] { return clock.read(); });
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "path eager, warm-up iteration 1: boom");
  EXPECT_EQ(result.paths[0].warmup_ns.size(), 1u);
  EXPECT_TRUE(result.paths[0].iterations.empty());
  EXPECT_EQ(result.stop_reason, StopReason{StopCode::error});
}

TEST(InterleavedLoop, InterruptStopsBetweenRounds) {
  clear_interrupt();
  FakeClock clock;
  InterleavedPath path = fixed_cost_path("a", clock, 10);
  int calls = 0;
  auto inner = path.iteration;
  path.iteration = [&, inner]() -> Status {
    if (++calls == 5) request_interrupt();
    return inner();
  };
  AdaptiveStopping stopping;
  stopping.block = 1;  // one iteration per path per round
  stopping.warmup = 0;
  stopping.min_runs = 100;
  InterleavedResult result;
  ASSERT_TRUE(run_interleaved({path}, stopping, result, [&] { return clock.read(); }).ok());
  clear_interrupt();
  EXPECT_TRUE(result.interrupted);
  EXPECT_EQ(result.stop_reason, StopReason{StopCode::interrupted});
  EXPECT_EQ(result.paths[0].iterations.size(), 5u);
}

TEST(InterleavedLoop, EnterAndLeaveWrapEachIterationOutsideTheTimer) {
  FakeClock clock;
  std::vector<std::string> events;
  InterleavedPath path = fixed_cost_path("a", clock, 50);
  path.enter = [&] { events.push_back("enter"); clock.now += 7; };
  path.leave = [&] { events.push_back("leave"); clock.now += 7; };
  AdaptiveStopping stopping;
  stopping.block = 1;  // one iteration per path per round
  stopping.warmup = 1;
  stopping.min_runs = 2;
  stopping.max_runs = 2;
  stopping.min_time_s = 0;
  InterleavedResult result;
  ASSERT_TRUE(run_interleaved({path}, stopping, result, [&] { return clock.read(); }).ok());
  EXPECT_EQ(events.size(), 6u);  // 1 warm-up + 2 measured, each entered and left
  EXPECT_EQ(result.paths[0].wall_ns(), (std::vector<std::int64_t>{50, 50}));  // hooks not timed
}

TEST(RelativeStandardError, MatchesDefinition) {
  SampleSummary s;
  s.count = 4;
  s.mean = 10;
  s.stddev = 2;
  EXPECT_DOUBLE_EQ(relative_standard_error(s), 2.0 / (10.0 * 2.0));
}

}  // namespace
}  // namespace ohprof
