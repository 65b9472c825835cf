#include "ohprof/model/timeline.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

LaunchCall launch(std::uint64_t correlation, std::int64_t start, std::optional<std::int64_t> iteration) {
  LaunchCall call;
  call.correlation = correlation;
  call.start_ns = start;
  call.end_ns = start + 5;
  call.iteration = iteration;
  return call;
}

DeviceOp op(std::uint64_t correlation, std::int64_t start) {
  DeviceOp o;
  o.correlation = correlation;
  o.start_ns = start;
  o.end_ns = start + 10;
  return o;
}

TEST(SelectIterations, KeepsOnePathsIterationsAndTheirWork) {
  // Path 0 ran iterations 0..1 in [0,100) and [200,300); path 1 ran its iteration 0 in [100,200).
  const std::int64_t p1 = kIterationsPerPath;
  Timeline all;
  all.iterations = {{0, 0, 100}, {p1, 100, 200}, {1, 200, 300}};
  all.launches = {launch(1, 10, 0), launch(2, 110, p1), launch(3, 210, 1), launch(4, 150, std::nullopt)};
  all.ops = {op(1, 20), op(2, 120), op(3, 220), op(4, 160), op(99, 170) /* no launch, inside path 1 */,
             op(98, 250) /* no launch, inside path 0 */};
  all.syncs = {SyncCall{90, 95, 0, "sync0"}, SyncCall{190, 195, 0, "sync1"}};
  all.counters.dropped_records = 7;

  const Timeline path1 = select_iterations(all, p1, p1 + kIterationsPerPath - 1);
  ASSERT_EQ(path1.iterations.size(), 1u);
  EXPECT_EQ(path1.iterations[0].index, 0);
  EXPECT_EQ(path1.iterations[0].start_ns, 100);
  ASSERT_EQ(path1.launches.size(), 2u);  // tagged correlation 2, and untagged 4 by its start time
  EXPECT_EQ(path1.launches[0].correlation, 2u);
  EXPECT_EQ(*path1.launches[0].iteration, 0);
  EXPECT_FALSE(path1.launches[1].iteration.has_value());
  ASSERT_EQ(path1.ops.size(), 3u);
  EXPECT_EQ(path1.ops[0].correlation, 2u);
  EXPECT_EQ(path1.ops[1].correlation, 4u);
  EXPECT_EQ(path1.ops[2].correlation, 99u);
  ASSERT_EQ(path1.syncs.size(), 1u);
  EXPECT_EQ(path1.syncs[0].name, "sync1");
  EXPECT_EQ(path1.counters.dropped_records, 7u);

  const Timeline path0 = select_iterations(all, 0, kIterationsPerPath - 1);
  ASSERT_EQ(path0.iterations.size(), 2u);
  EXPECT_EQ(path0.launches.size(), 2u);
  ASSERT_EQ(path0.ops.size(), 3u);  // correlations 1 and 3, and the launch-less op at 250
  EXPECT_EQ(path0.ops[2].correlation, 98u);
}

TEST(EventCounts, NamedWithTheirCountsAndRangesOnlyTold) {
  EXPECT_EQ(event_counts_text({}), "");
  EXPECT_EQ(event_counts_text({{"mtia_ccp_events", 25814}, {"hpu_op", 3}}), "'mtia_ccp_events' x25814, 'hpu_op' x3");
  EXPECT_TRUE(only_profiler_ranges({{"cuda_profiler_range", 77}}));
  EXPECT_FALSE(only_profiler_ranges({{"cuda_profiler_range", 77}, {"Kernel", 1}}));
  EXPECT_FALSE(only_profiler_ranges({}));
}

// docs/metrics.md, "Blocking launch calls": a copy API is synchronous when its name lacks "Async",
// except an XPU enqueue, which returns before its copy is done whatever its name.
TEST(SynchronousCopyApi, AsyncInTheNameOrAnXpuEnqueueIsAsynchronous) {
  EXPECT_TRUE(synchronous_copy_api("cudaMemcpy"));
  EXPECT_TRUE(synchronous_copy_api("cuMemcpyDtoH_v2"));
  EXPECT_TRUE(synchronous_copy_api("hipMemcpyWithStream"));
  EXPECT_FALSE(synchronous_copy_api("cudaMemcpyAsync_v3020"));
  EXPECT_FALSE(synchronous_copy_api("enqueueCommand memcpyHtoDAsync"));
  EXPECT_FALSE(synchronous_copy_api("urEnqueueUSMMemcpy"));
  EXPECT_FALSE(synchronous_copy_api("piextUSMEnqueueMemcpy2D"));
}

}  // namespace
}  // namespace ohprof
