#include "ohprof/base/run_queue.hpp"

#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <string>
#include <chrono>
#include <thread>

namespace ohprof {
namespace {

TEST(RunQueue, ParsesTheRunDelayOfASchedstatText) {
  EXPECT_EQ(parse_schedstat_run_delay("540163627 422771 37\n"), std::optional<std::int64_t>(422771));
  EXPECT_EQ(parse_schedstat_run_delay("0 0 1"), std::optional<std::int64_t>(0));
  EXPECT_FALSE(parse_schedstat_run_delay("0 0 0\n").has_value());  // a kernel that keeps no statistics
  EXPECT_FALSE(parse_schedstat_run_delay("540163627 422771\n").has_value());
  EXPECT_FALSE(parse_schedstat_run_delay("540163627 -4 37\n").has_value());
  EXPECT_FALSE(parse_schedstat_run_delay("540163627 42x 37\n").has_value());
  EXPECT_FALSE(parse_schedstat_run_delay("1 2 3 4\n").has_value());
  EXPECT_FALSE(parse_schedstat_run_delay("").has_value());
}

TEST(RunQueue, GrowthIsAfterLessBeforeAndNothingWhenAFieldWentDown) {
  EXPECT_EQ(schedstat_growth(SchedStat{100, 10}, SchedStat{350, 15}), (SchedStat{250, 5}));
  EXPECT_FALSE(schedstat_growth(SchedStat{100, 10}, SchedStat{90, 15}).has_value());
  EXPECT_FALSE(schedstat_growth(SchedStat{100, 10}, SchedStat{150, 5}).has_value());
  EXPECT_FALSE(schedstat_growth(std::nullopt, SchedStat{150, 15}).has_value());
  EXPECT_FALSE(schedstat_growth(SchedStat{100, 10}, std::nullopt).has_value());
}

TEST(RunQueue, AddingGrowthsSumsThemUntilOneIsMissing) {
  std::optional<SchedStat> sum = SchedStat{};
  add_growth(sum, SchedStat{250, 5});
  add_growth(sum, SchedStat{50, 7});
  EXPECT_EQ(sum, std::optional<SchedStat>(SchedStat{300, 12}));
  add_growth(sum, std::nullopt);
  EXPECT_FALSE(sum.has_value());
  add_growth(sum, SchedStat{1, 1});
  EXPECT_FALSE(sum.has_value());  // stays missing
}

// Whether this machine's kernel keeps the figure: the file is there and says more than "0 0 0".
bool kernel_keeps_schedstat() {
  std::ifstream in("/proc/thread-self/schedstat");
  std::string text;
  std::getline(in, text);
  return in.good() && text != "0 0 0";
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
// measured thread's run delay grows by a good part of the span (about half; a third is asked), and so does
// its time on the CPU; the two add up to about the span (the thread is never asleep; a hypervisor's stolen
// time may be in neither).
// A thread alone on its CPU would show a run delay near 0: it is the turn-taking that tells the wait from
// the time on the CPU.
TEST(RunQueue, AThreadThatSharesItsCpuWithAnotherWaitsForIt) {
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
  int cpu = 0;
  while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &allowed)) ++cpu;
  std::optional<SchedStat> before;
  std::optional<SchedStat> after;
  std::atomic<bool> started{false};
  std::atomic<bool> gave_up{false};
  std::thread measured([&] {
    if (!pin_to(cpu)) {
      gave_up = true;
      return;
    }
    const ThreadSchedStat delay;
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
  if (!kernel_keeps_schedstat()) GTEST_SKIP() << "this kernel keeps no /proc/thread-self/schedstat";
  ASSERT_TRUE(before.has_value() && after.has_value()) << "the file is there, but its run delay was not read";
  const std::optional<SchedStat> grown = schedstat_growth(before, after);
  ASSERT_TRUE(grown.has_value());
  EXPECT_GT(grown->run_delay_ns, 100'000'000) << "run delay grew by " << grown->run_delay_ns << " ns";
  EXPECT_GT(grown->on_cpu_ns, 100'000'000) << "time on the CPU grew by " << grown->on_cpu_ns << " ns";
  EXPECT_LT(grown->on_cpu_ns + grown->run_delay_ns, 450'000'000);
  EXPECT_EQ(this_thread_schedstat().has_value(), true);
}

}  // namespace
}  // namespace ohprof
