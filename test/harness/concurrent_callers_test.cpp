// run_burst (docs/metrics.md, "Concurrent callers"): threads, counts, the common start, failures, Ctrl-C.
#include "ohprof/harness/concurrent_callers.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "ohprof/base/interrupt.hpp"

namespace ohprof {
namespace {

// A caller whose call advances the shared fake clock by `step` (under a lock: one clock for all).
struct CountingCaller final : ThreadCaller {
  std::atomic<int> begins{0}, calls{0}, ends{0};
  std::thread::id thread;
  int fail_on = -1;
  bool interrupt_on_first = false;
  void begin() override {
    ++begins;
    thread = std::this_thread::get_id();
  }
  Status call() override {
    const int n = calls++;
    if (interrupt_on_first && n == 0) request_interrupt();
    if (n == fail_on) return make_error(ExitCode::model_error, "boom");
    return ok_status();
  }
  void end() override { ++ends; }
};

struct FakeClock {
  std::mutex mutex;
  std::int64_t now = 0;
  std::int64_t operator()() {
    const std::lock_guard lock(mutex);
    return now += 10;  // every read 10 ns later
  }
};

TEST(RunBurst, EachCallerOnItsOwnThreadMakesItsCalls) {
  CountingCaller a, b, c;
  FakeClock clock;
  const Burst burst = run_burst({&a, &b, &c}, 7, [&] { return clock(); });
  ASSERT_TRUE(burst.status.ok());
  EXPECT_FALSE(burst.interrupted);
  std::set<std::thread::id> threads;
  for (CountingCaller* caller : {&a, &b, &c}) {
    EXPECT_EQ(caller->begins, 1);
    EXPECT_EQ(caller->calls, 7);
    EXPECT_EQ(caller->ends, 1);
    threads.insert(caller->thread);
  }
  EXPECT_EQ(threads.size(), 3u);
  EXPECT_FALSE(threads.count(std::this_thread::get_id()));
  ASSERT_EQ(burst.latency_ns.size(), 3u);
  for (const auto& thread : burst.latency_ns) {
    EXPECT_EQ(thread.size(), 7u);
    for (const std::int64_t ns : thread) EXPECT_GT(ns, 0);
  }
  // The start is one read of the clock after all have begun; the clock reads 10 ns apart each, and a
  // thread reads it 1 + 2 per call times: 3 threads x (1 + 14) reads after the start's.
  EXPECT_EQ(burst.elapsed_ns, 3 * 15 * 10);
}

// A run delay per thread (thread_local): each call of a WaitingCaller adds its own wait on its own thread,
// and the reader, called on each caller's thread, sees that thread's only.
thread_local SchedStat t_sched{5'000, 1'000};

struct WaitingCaller final : ThreadCaller {
  std::int64_t wait = 0;
  int calls = 0;
  Status call() override {
    ++calls;
    t_sched.run_delay_ns += wait;
    t_sched.on_cpu_ns += 2 * wait;
    return ok_status();
  }
};

TEST(RunBurst, EachThreadsWaitForACpuIsReadOnItsOwnThreadAroundItsCalls) {
  WaitingCaller a, b;
  a.wait = 3;
  b.wait = 50;
  FakeClock clock;
  int reads = 0;
  std::mutex mutex;
  const Burst burst = run_burst({&a, &b}, 7, [&] { return clock(); }, [&]() -> std::optional<SchedStat> {
    const std::lock_guard lock(mutex);
    ++reads;
    return t_sched;
  });
  ASSERT_TRUE(burst.status.ok());
  ASSERT_EQ(burst.sched.size(), 2u);
  EXPECT_EQ(burst.sched[0], std::optional<SchedStat>(SchedStat{7 * 6, 7 * 3}));
  EXPECT_EQ(burst.sched[1], std::optional<SchedStat>(SchedStat{7 * 100, 7 * 50}));
  EXPECT_EQ(reads, 4);  // before the first call and after the last, on each thread
  // without a reader, or where a read fails, no figure
  EXPECT_EQ(run_burst({&a}, 2, [&] { return clock(); }).sched, (std::vector<std::optional<SchedStat>>{std::nullopt}));
  EXPECT_EQ(run_burst({&a}, 2, [&] { return clock(); }, [] { return std::optional<SchedStat>(); }).sched,
            (std::vector<std::optional<SchedStat>>{std::nullopt}));
}

TEST(RunBurst, AFailingCallStopsItsThreadAndIsTheBurstsStatus) {
  CountingCaller a, b;
  b.fail_on = 2;
  FakeClock clock;
  const Burst burst = run_burst({&a, &b}, 5, [&] { return clock(); });
  ASSERT_FALSE(burst.status.ok());
  EXPECT_EQ(burst.status.error().message, "boom");
  EXPECT_EQ(a.calls, 5);
  EXPECT_EQ(b.calls, 3);
  EXPECT_EQ(burst.latency_ns[1].size(), 2u);  // the failed call is not a sample
  EXPECT_EQ(b.ends, 1);
}

TEST(RunBurst, CtrlCStopsEveryThreadAfterItsCall) {
  CountingCaller a;
  a.interrupt_on_first = true;
  FakeClock clock;
  const Burst burst = run_burst({&a}, 100, [&] { return clock(); });
  clear_interrupt();
  EXPECT_TRUE(burst.interrupted);
  EXPECT_EQ(burst.status.error().code, ExitCode::interrupted);
  EXPECT_EQ(a.calls, 1);
  EXPECT_EQ(a.ends, 1);
}

TEST(RunBurst, NoCallersNoThreads) {
  const Burst burst = run_burst({}, 5, [] { return std::int64_t{0}; });
  EXPECT_TRUE(burst.status.ok());
  EXPECT_EQ(burst.elapsed_ns, 0);
}

}  // namespace
}  // namespace ohprof
