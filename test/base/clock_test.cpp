#include "ohprof/base/clock.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <ctime>
#include <thread>

namespace ohprof {
namespace {

std::int64_t clock_monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

// The header's promise: CLOCK_MONOTONIC in nanoseconds, so ohprof's stamps compare with CUPTI's and
// RecordFunction's. A reading taken between two direct CLOCK_MONOTONIC readings must lie between them
// (a different clock, such as CLOCK_REALTIME, or a different unit would not).
TEST(MonotonicNow, IsClockMonotonicInNanoseconds) {
  for (int i = 0; i < 1000; ++i) {
    const std::int64_t before = clock_monotonic_ns();
    const std::int64_t now = monotonic_now_ns();
    const std::int64_t after = clock_monotonic_ns();
    ASSERT_LE(before, now);
    ASSERT_LE(now, after);
  }
}

TEST(MonotonicNow, NeverGoesBackwards) {
  std::int64_t previous = monotonic_now_ns();
  for (int i = 0; i < 100'000; ++i) {
    const std::int64_t now = monotonic_now_ns();
    ASSERT_GE(now, previous);
    previous = now;
  }
}

// Nanoseconds, not a coarser unit: a sleep of 2 ms (which lasts at least that long) advances it by
// at least 2'000'000. Only a lower bound, which holds however slow the machine is.
TEST(MonotonicNow, CountsNanoseconds) {
  const std::int64_t before = monotonic_now_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const std::int64_t after = monotonic_now_ns();
  EXPECT_GE(after - before, 2'000'000);
}

}  // namespace
}  // namespace ohprof
