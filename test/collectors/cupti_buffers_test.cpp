// The activity buffer pool (src/collectors/cupti_buffers.cpp), on its own: what CUPTI's buffer callbacks
// get and give back, without CUPTI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include "ohprof/collectors/cupti_buffers.hpp"

namespace ohprof {
namespace {

bool all_zero(const ActivityBuffer& buffer, std::size_t bytes) {
  return std::all_of(buffer.get(), buffer.get() + bytes, [](std::uint8_t b) { return b == 0; });
}

// A buffer as CUPTI hands it back: written to.
ActivityBuffer written(ActivityBufferPool& pool, std::uint8_t value) {
  std::size_t bytes = 0;
  ActivityBuffer buffer = pool.request(bytes);
  buffer.get()[0] = value;
  return buffer;
}

TEST(CuptiBuffers, SizesAreRoundedUpToEightBytesAndAtLeast64KiB) {
  ActivityBufferPool pool;
  pool.prepare(100001, 0);
  EXPECT_EQ(pool.buffer_bytes(), 100008u);
  pool.prepare(10, 0);
  EXPECT_EQ(pool.buffer_bytes(), 65536u);
}

TEST(CuptiBuffers, PreparedBuffersComeFirstZeroedAndOnlyTheOnesBeyondThemAreCounted) {
  ActivityBufferPool pool;
  pool.prepare(65536, 2);
  EXPECT_EQ(pool.prepared(), 2u);
  for (int i = 0; i < 3; ++i) {
    std::size_t bytes = 0;
    ActivityBuffer buffer = pool.request(bytes);
    ASSERT_TRUE(buffer);
    EXPECT_EQ(bytes, 65536u);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buffer.get()) % 8, 0u);
    EXPECT_TRUE(all_zero(buffer, bytes));
    pool.complete(std::move(buffer), 0);  // not accepting: freed
  }
  EXPECT_EQ(pool.prepared(), 0u);
  EXPECT_EQ(pool.take().zeroed_in_run, 1u);  // the third
}

TEST(CuptiBuffers, APrepareOfAnotherSizeReplacesTheBuffersAndOfTheSameSizeTopsThemUp) {
  ActivityBufferPool pool;
  pool.prepare(65536, 3);
  EXPECT_EQ(pool.prepared(), 3u);
  pool.prepare(131072, 1);
  EXPECT_EQ(pool.prepared(), 1u);
  pool.prepare(131072, 2);
  EXPECT_EQ(pool.prepared(), 2u);
  pool.prepare(131072, 1);  // never fewer than there are
  EXPECT_EQ(pool.prepared(), 2u);
  std::size_t bytes = 0;
  EXPECT_TRUE(pool.request(bytes));
  EXPECT_EQ(bytes, 131072u);
}

TEST(CuptiBuffers, CompletedBuffersAreKeptOnlyWhileAcceptingInTheOrderCompleted) {
  ActivityBufferPool pool;
  pool.prepare(65536, 4);
  pool.complete(written(pool, 1), 10);  // before accept(): another collector's, or none's
  pool.accept();
  pool.complete(written(pool, 2), 20);
  pool.complete(written(pool, 3), 30);
  ActivityBufferPool::Taken taken = pool.take();
  ASSERT_EQ(taken.buffers.size(), 2u);
  EXPECT_EQ(taken.buffers[0].data.get()[0], 2);
  EXPECT_EQ(taken.buffers[0].valid_bytes, 20u);
  EXPECT_EQ(taken.buffers[1].data.get()[0], 3);
  EXPECT_EQ(taken.zeroed_in_run, 0u);
  pool.complete(written(pool, 4), 40);  // after take(): no longer accepting
  EXPECT_TRUE(pool.take().buffers.empty());
}

TEST(CuptiBuffers, DiscardAndPrepareDropWhatWasKept) {
  ActivityBufferPool pool;
  pool.prepare(65536, 0);
  pool.accept();
  pool.complete(written(pool, 1), 10);
  pool.discard();
  pool.complete(written(pool, 2), 10);
  EXPECT_TRUE(pool.take().buffers.empty());
  pool.accept();
  pool.complete(written(pool, 3), 10);
  pool.prepare(65536, 0);  // a new collection starts clean, its count of zeroed buffers too
  const ActivityBufferPool::Taken taken = pool.take();
  EXPECT_TRUE(taken.buffers.empty());
  EXPECT_EQ(taken.zeroed_in_run, 0u);
}

TEST(CuptiBuffers, OneCollectorHoldsThePoolAtATime) {
  ActivityBufferPool pool;
  EXPECT_TRUE(pool.claim());
  EXPECT_FALSE(pool.claim());
  pool.release();
  EXPECT_TRUE(pool.claim());
}

TEST(CuptiBuffers, BuffersCompletedFromManyThreadsAreAllKept) {
  ActivityBufferPool pool;
  pool.prepare(65536, 0);
  pool.accept();
  constexpr int kThreads = 4;
  constexpr int kEach = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&pool, t] {
      for (int i = 0; i < kEach; ++i) pool.complete(written(pool, static_cast<std::uint8_t>(t)), 8);
    });
  }
  for (auto& thread : threads) thread.join();
  const ActivityBufferPool::Taken taken = pool.take();
  EXPECT_EQ(taken.buffers.size(), static_cast<std::size_t>(kThreads * kEach));
  EXPECT_EQ(taken.zeroed_in_run, static_cast<std::uint64_t>(kThreads * kEach));
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(std::count_if(taken.buffers.begin(), taken.buffers.end(),
                            [t](const CompletedBuffer& b) { return b.data.get()[0] == t; }),
              kEach);
  }
}

}  // namespace
}  // namespace ohprof
