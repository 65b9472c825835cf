#include "ohprof/base/run_queue.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace ohprof {
namespace {

TEST(RunQueue, ParsesTheRunDelayOfASchedstatText) {
  EXPECT_EQ(parse_schedstat_run_delay("540163627 422771 37\n"), std::optional<std::int64_t>(422771));
  EXPECT_EQ(parse_schedstat_run_delay("0 0 1"), std::optional<std::int64_t>(0));
  EXPECT_FALSE(parse_schedstat_run_delay("540163627 422771\n").has_value());
  EXPECT_FALSE(parse_schedstat_run_delay("540163627 -4 37\n").has_value());
  EXPECT_FALSE(parse_schedstat_run_delay("540163627 42x 37\n").has_value());
  EXPECT_FALSE(parse_schedstat_run_delay("1 2 3 4\n").has_value());
  EXPECT_FALSE(parse_schedstat_run_delay("").has_value());
}

void spin_for(std::chrono::milliseconds span) {
  const auto until = std::chrono::steady_clock::now() + span;
  while (std::chrono::steady_clock::now() < until) {
  }
}

bool pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof(set), &set) == 0;
}

// Two threads spinning on one CPU take turns: each waits on the run queue while the other runs, so the
// measured thread's run delay grows by a good part of the span (about half; a third is asked). That it
// is the run delay that grows, and not the time on the CPU, is what tells the second field from the first.
TEST(RunQueue, AThreadThatSharesItsCpuWithAnotherWaitsForIt) {
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
  int cpu = 0;
  while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &allowed)) ++cpu;
  std::optional<std::int64_t> before;
  std::optional<std::int64_t> after;
  std::atomic<bool> started{false};
  std::atomic<bool> gave_up{false};
  std::thread measured([&] {
    if (!pin_to(cpu)) {
      gave_up = true;
      return;
    }
    const ThreadRunDelay delay;
    started = true;
    before = delay.read();
    spin_for(std::chrono::milliseconds(300));
    after = delay.read();
  });
  std::thread rival([&] {
    if (!pin_to(cpu)) return;
    while (!started && !gave_up) {
    }
    spin_for(std::chrono::milliseconds(300));
  });
  measured.join();
  rival.join();
  if (gave_up) GTEST_SKIP() << "cannot pin a thread to one CPU here";
  if (!before || !after) GTEST_SKIP() << "/proc/thread-self/schedstat cannot be read here";
  EXPECT_GT(*after - *before, 100'000'000) << "run delay grew by " << (*after - *before) << " ns";
}

}  // namespace
}  // namespace ohprof
