#include "ohprof/base/process_memory.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include <unistd.h>

#include <cstring>
#include <memory>

namespace ohprof {
namespace {

TEST(ProcessMemory, ParsesVmRssAndVmHwmInKilobytes) {
  const std::string status =
      "Name:\tohprof\nVmPeak:\t  999999 kB\nVmHWM:\t   13448 kB\nVmRSS:\t    2048 kB\nThreads:\t4\n";
  const auto memory = parse_proc_status(status);
  ASSERT_TRUE(memory.has_value());
  EXPECT_EQ(memory->rss_bytes, 2048 * 1024);
  EXPECT_EQ(memory->peak_rss_bytes, 13448 * 1024);
  EXPECT_FALSE(parse_proc_status("VmRSS:\t 2048 kB\n").has_value());            // no VmHWM
  EXPECT_FALSE(parse_proc_status("VmRSS:\t 2048 MB\nVmHWM:\t 1 kB\n").has_value());  // not kB
  EXPECT_FALSE(parse_proc_status("VmRSSx:\t 2048 kB\nVmHWM:\t 1 kB\n").has_value());  // another key
}

// The reset works where the project runs (Linux): a 64 MB buffer touched after the reset raises the
// peak by about its size over the resident set before it.
TEST(ProcessMemory, APeakAfterAResetIsThePhasesOwn) {
  if (!reset_peak_rss()) GTEST_SKIP() << "/proc/self/clear_refs is not writable here";
  const auto before = read_process_memory();
  ASSERT_TRUE(before.has_value());
  EXPECT_LE(before->peak_rss_bytes - before->rss_bytes, 4 << 20);  // the reset brought the peak down
  constexpr std::size_t kSize = 64u << 20;
  {
    auto buffer = std::make_unique<char[]>(kSize);
    std::memset(buffer.get(), 1, kSize);
    volatile char sink = buffer[kSize - 1];
    (void)sink;
  }
  const auto after = read_process_memory();
  ASSERT_TRUE(after.has_value());
  EXPECT_GE(after->peak_rss_bytes - before->rss_bytes, static_cast<std::int64_t>(kSize) * 9 / 10);
}

// A high-water mark that ended below the start (pages handed back with madvise do not raise it): the
// phase's peak is 0, not negative (ResNet-18's eager calls once read VmHWM 156 kB below VmRSS before).
TEST(ProcessMemory, APhasesPeakIsNeverBelowItsStart) {
  EXPECT_EQ(peak_above_start(ProcessMemory{1000, 1000}, ProcessMemory{1200, 1500}), 500);  // the mark
  EXPECT_EQ(peak_above_start(ProcessMemory{1000, 1000}, ProcessMemory{1300, 1200}), 300);  // the resident set
  EXPECT_EQ(peak_above_start(ProcessMemory{1000, 1000}, ProcessMemory{800, 844}), 0);      // below the start
}

TEST(ProcessMemory, BytesAreFormattedInDecimalUnitsWithThreeDigits) {
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(999), "999 B");
  EXPECT_EQ(format_bytes(1'500), "1.50 kB");
  EXPECT_EQ(format_bytes(52'400'000), "52.4 MB");
  EXPECT_EQ(format_bytes(123'456'789), "123 MB");
  EXPECT_EQ(format_bytes(-1'200'000), "-1.20 MB");
  EXPECT_EQ(format_bytes(2'500'000'000), "2.50 GB");
}

}  // namespace
// A block of 20 MB, which glibc would map on its own (above its 128 kB default threshold), comes from the
// heap once reuse_freed_memory has run: below the program break. (Each test runs in its own process.)
TEST(ProcessMemory, AfterReuseFreedMemoryALargeBlockComesFromTheHeap) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define OHPROF_MALLOC_REPLACED 1
#endif
#endif
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(OHPROF_MALLOC_REPLACED)
  reuse_freed_memory();
  constexpr std::size_t kBlock = 20U << 20;
  void* block = std::malloc(kBlock);
  ASSERT_NE(block, nullptr);
  EXPECT_LE(static_cast<char*>(block) + kBlock, static_cast<char*>(sbrk(0)));
  std::free(block);
#else
  GTEST_SKIP() << "glibc's own malloc only";
#endif
}

}  // namespace ohprof
