// The CPU activity collector on real AOTI CPU packages of the tiny MLP (fixtures export_tiny_cpu_package
// and export_tiny_cpu_kp_package): what it records, per iteration, and what it reports when the package
// was built without kernel profiling. The tiny MLP is fc1 -> relu -> fc2 -> * 0.5: Inductor makes two
// fused kernels (the relu and the mul, each called once per call) and two extern addmm calls.
#include "ohprof/collectors/cpu_activity_collector.hpp"

#include <ATen/record_function.h>  // only to check LibTorch's callback list directly
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "ohprof/runtimes/aoti_package.hpp"
#include "ohprof/runtimes/aoti_runner.hpp"
#include "ohprof/base/clock.hpp"

namespace ohprof {
namespace {

std::unique_ptr<AotiRunner> load(const std::string& package) {
  AotiLoadOptions options;
  options.package_path = package;
  auto runner = AotiRunner::load(options);
  EXPECT_TRUE(runner.ok()) << (runner.ok() ? "" : runner.error().message);
  return runner.ok() ? std::move(runner.value()) : nullptr;
}

struct Measured {
  LoopResult loop;
  CpuCollection collection;
};

Measured measure(AotiRunner& runner, int warmup, int runs) {
  auto collector = CpuActivityCollector::create();
  EXPECT_TRUE(collector.ok()) << (collector.ok() ? "" : collector.error().message);
  Measured out;
  if (!collector.ok()) return out;
  const Status status = run_measurement_loop({.warmup = warmup, .runs = runs}, [&] { return runner.run_once(); },
                                             {collector->get()}, out.loop);
  EXPECT_TRUE(status.ok());
  auto collection = (*collector)->finish(out.loop.iterations);
  EXPECT_TRUE(collection.ok()) << (collection.ok() ? "" : collection.error().message);
  if (collection.ok()) out.collection = std::move(collection.value());
  return out;
}

class CpuCollectorOnPackage : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(OHPROF_TINY_KP_PACKAGE))
        << "the fixture export_tiny_cpu_kp_package did not produce " << OHPROF_TINY_KP_PACKAGE;
    ASSERT_TRUE(std::filesystem::exists(OHPROF_TINY_PACKAGE))
        << "the fixture export_tiny_cpu_package did not produce " << OHPROF_TINY_PACKAGE;
  }
};

TEST_F(CpuCollectorOnPackage, ListsTheKernelsOfTheGeneratedCode) {
  auto profiled = list_package_kernels(OHPROF_TINY_KP_PACKAGE);
  ASSERT_TRUE(profiled.ok()) << profiled.error().message;
  EXPECT_TRUE(profiled->records_kernels);
  ASSERT_EQ(profiled->generated.size(), 2u);
  EXPECT_NE(profiled->generated[0].find("mul"), std::string::npos);   // cpp_fused_mul_<n>
  EXPECT_NE(profiled->generated[1].find("relu"), std::string::npos);  // cpp_fused_relu_<n>
  EXPECT_EQ(profiled->extern_calls, (std::vector<std::string>{"aoti_torch_cpu_addmm_out"}));
  EXPECT_FALSE(profiled->files.empty());

  auto plain = list_package_kernels(OHPROF_TINY_PACKAGE);
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_FALSE(plain->records_kernels);
  EXPECT_EQ(plain->generated, profiled->generated);
  EXPECT_EQ(plain->extern_calls, profiled->extern_calls);
}

TEST_F(CpuCollectorOnPackage, SeesEveryGeneratedKernelOnceAnIterationWithKernelProfiling) {
  auto runner = load(OHPROF_TINY_KP_PACKAGE);
  ASSERT_NE(runner, nullptr);
  constexpr int kRuns = 6;
  const Measured m = measure(*runner, 3, kRuns);
  ASSERT_EQ(m.loop.iterations.size(), static_cast<std::size_t>(kRuns));
  auto code = list_package_kernels(OHPROF_TINY_KP_PACKAGE);
  ASSERT_TRUE(code.ok());

  const KernelAttribution attribution = attribute_kernels(*code, m.collection.events);
  EXPECT_TRUE(attribution.complete()) << "unattributed: " << attribution.unattributed.size();
  EXPECT_TRUE(attribution.not_in_code.empty());

  // Kernels (outermost computing ranges) per (iteration, name): each fused kernel once, the extern
  // addmm twice (fc1, fc2), nothing else.
  std::map<std::pair<std::int64_t, std::string>, int> per_iteration;
  const auto& windows = m.loop.iterations;
  for (const auto& op : m.collection.timeline.ops) {
    const auto window = std::find_if(windows.begin(), windows.end(), [&](const IterationWindow& w) {
      return op.start_ns >= w.start_ns && op.end_ns <= w.end_ns;
    });
    ASSERT_NE(window, windows.end()) << op.name << " lies outside every iteration";
    ++per_iteration[{window->index, strip_graph_prefix(op.name)}];
  }
  for (const auto& window : windows) {
    for (const auto& name : code->generated) {
      EXPECT_EQ((per_iteration[{window.index, name}]), 1) << name << " in iteration " << window.index;
    }
    EXPECT_EQ((per_iteration[{window.index, "aoti_torch_cpu_addmm_out"}]), 2) << "iteration " << window.index;
  }
  EXPECT_EQ(m.collection.timeline.ops.size(), static_cast<std::size_t>(kRuns) * 4);
  // The generated kernels are recorded under Inductor's graph prefix.
  for (const auto& op : m.collection.timeline.ops) {
    if (op.name.find("cpp_fused_") != std::string::npos) EXPECT_TRUE(op.name.starts_with("graph_")) << op.name;
  }
  EXPECT_EQ(m.collection.timeline.iterations.size(), windows.size());
  EXPECT_EQ(m.collection.unclosed, 0u);
  EXPECT_EQ(m.collection.unmatched_ends, 0u);
  EXPECT_EQ(m.collection.timeline.counters.dropped_records, 0u);
}

TEST_F(CpuCollectorOnPackage, EventsCarryTheIterationTheyRanInAndWarmUpIsNotRecorded) {
  auto runner = load(OHPROF_TINY_KP_PACKAGE);
  ASSERT_NE(runner, nullptr);
  constexpr int kRuns = 5;
  const Measured m = measure(*runner, 4, kRuns);
  ASSERT_EQ(m.loop.iterations.size(), static_cast<std::size_t>(kRuns));
  const auto& events = m.collection.events;
  ASSERT_FALSE(events.empty());
  std::map<std::int64_t, std::size_t> count;
  for (const auto& e : events) {
    ASSERT_GE(e.iteration, 0) << e.name;
    ASSERT_LT(e.iteration, kRuns) << e.name;
    const IterationWindow& w = m.loop.iterations[static_cast<std::size_t>(e.iteration)];
    ASSERT_EQ(w.index, e.iteration);
    EXPECT_GE(e.start_ns, w.start_ns) << e.name;
    EXPECT_LE(e.end_ns, w.end_ns) << e.name;
    EXPECT_LE(e.start_ns, e.end_ns) << e.name;
    ++count[e.iteration];
  }
  // Same model, same inputs: every iteration records the same number of ranges, and the 4 warm-up
  // calls add none.
  ASSERT_EQ(count.size(), static_cast<std::size_t>(kRuns));
  for (const auto& [iteration, n] : count) EXPECT_EQ(n, count.begin()->second) << "iteration " << iteration;
  EXPECT_EQ(events.size(), count.begin()->second * kRuns);
  // Nesting: a child lies within its parent, one level deeper, on the same thread.
  for (const auto& e : events) {
    if (e.parent < 0) {
      EXPECT_EQ(e.depth, 0) << e.name;
      continue;
    }
    const CpuEvent& p = events[static_cast<std::size_t>(e.parent)];
    EXPECT_EQ(e.depth, p.depth + 1) << e.name;
    EXPECT_EQ(e.thread_id, p.thread_id);
    EXPECT_GE(e.start_ns, p.start_ns);
    EXPECT_LE(e.end_ns, p.end_ns);
  }
}

TEST_F(CpuCollectorOnPackage, PackageWithoutKernelProfilingIsReportedAsNotAttributed) {
  auto runner = load(OHPROF_TINY_PACKAGE);
  ASSERT_NE(runner, nullptr);
  const Measured m = measure(*runner, 2, 4);
  auto code = list_package_kernels(OHPROF_TINY_PACKAGE);
  ASSERT_TRUE(code.ok());
  const KernelAttribution attribution = attribute_kernels(*code, m.collection.events);
  EXPECT_FALSE(attribution.records_kernels);
  EXPECT_FALSE(attribution.complete());
  std::vector<std::string> expected = code->generated;
  expected.insert(expected.end(), code->extern_calls.begin(), code->extern_calls.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(attribution.unattributed, expected);
  EXPECT_TRUE(attribution.seen.empty());
  for (const auto& e : m.collection.events) {
    EXPECT_NE(classify_cpu_event(e.name, e.scope), CpuEventClass::generated) << e.name;
    EXPECT_NE(classify_cpu_event(e.name, e.scope), CpuEventClass::extern_call) << e.name;
  }
}

// Asks LibTorch, at each iteration, whether a global RecordFunction callback is registered.
struct CallbackProbe final : IterationObserver {
  std::vector<std::pair<bool, bool>> seen;  // (warmup, registered)
  void on_iteration_begin(std::int64_t /*index*/, bool warmup) override {
    seen.emplace_back(warmup, at::hasGlobalCallbacks());
  }
};

TEST_F(CpuCollectorOnPackage, CallbackIsRegisteredOnlyWhileMeasuring) {
  auto runner = load(OHPROF_TINY_KP_PACKAGE);
  ASSERT_NE(runner, nullptr);
  ASSERT_FALSE(at::hasGlobalCallbacks());
  auto collector = CpuActivityCollector::create();
  ASSERT_TRUE(collector.ok());
  EXPECT_FALSE(at::hasGlobalCallbacks());  // not at creation
  CallbackProbe probe;
  LoopResult loop;
  ASSERT_TRUE(run_measurement_loop({.warmup = 2, .runs = 2}, [&] { return runner->run_once(); },
                                   {collector->get(), &probe}, loop).ok());
  EXPECT_EQ(probe.seen, (std::vector<std::pair<bool, bool>>{{true, false}, {true, false}, {false, true}, {false, true}}));
  EXPECT_FALSE(at::hasGlobalCallbacks());  // removed at on_measurement_end
  ASSERT_TRUE((*collector)->finish(loop.iterations).ok());
}

TEST_F(CpuCollectorOnPackage, NothingIsRecordedAfterMeasurementEnd) {
  auto runner = load(OHPROF_TINY_KP_PACKAGE);
  ASSERT_NE(runner, nullptr);
  auto collector = CpuActivityCollector::create();
  ASSERT_TRUE(collector.ok());
  LoopResult loop;
  ASSERT_TRUE(run_measurement_loop({.warmup = 1, .runs = 3}, [&] { return runner->run_once(); },
                                   {collector->get()}, loop).ok());
  const std::int64_t ended = monotonic_now_ns();
  EXPECT_FALSE(at::hasGlobalCallbacks());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(runner->run_once().ok());  // callbacks removed: not recorded
  auto collection = (*collector)->finish(loop.iterations);
  ASSERT_TRUE(collection.ok());
  ASSERT_FALSE(collection->events.empty());
  std::set<std::int64_t> iterations;
  for (const auto& e : collection->events) {
    EXPECT_LE(e.end_ns, ended) << e.name;
    iterations.insert(e.iteration);
  }
  EXPECT_EQ(iterations, (std::set<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(collection->timeline.ops.size(), 3u * 4u);

  // finish() twice is an error, not a second copy of the data.
  EXPECT_FALSE((*collector)->finish(loop.iterations).ok());
}

TEST_F(CpuCollectorOnPackage, RangesFromConcurrentThreadsAreKeptPerThread) {
  // Each iteration runs the package from 3 threads at once (the loader's run() is thread-safe), 2 calls
  // each: every thread records its own 2 x 4 kernels per iteration, each range closes on its thread.
  auto runner = load(OHPROF_TINY_KP_PACKAGE);
  ASSERT_NE(runner, nullptr);
  constexpr int kThreads = 3;
  constexpr int kCallsPerThread = 2;
  constexpr int kRuns = 3;
  auto collector = CpuActivityCollector::create();
  ASSERT_TRUE(collector.ok());
  LoopResult loop;
  const Status status = run_measurement_loop(
      {.warmup = 1, .runs = kRuns},
      [&]() -> Status {
        std::vector<std::thread> threads;
        std::vector<int> failures(kThreads, 0);
        for (int t = 0; t < kThreads; ++t) {
          threads.emplace_back([&, t] {
            for (int c = 0; c < kCallsPerThread; ++c) failures[t] += runner->run_once().ok() ? 0 : 1;
          });
        }
        for (auto& thread : threads) thread.join();
        for (int f : failures) {
          if (f != 0) return make_error(ExitCode::model_error, "a concurrent call failed");
        }
        return ok_status();
      },
      {collector->get()}, loop);
  ASSERT_TRUE(status.ok()) << status.error().message;
  auto collection = (*collector)->finish(loop.iterations);
  ASSERT_TRUE(collection.ok());
  EXPECT_EQ(collection->unclosed, 0u);
  EXPECT_EQ(collection->unmatched_ends, 0u);
  // New std::threads every iteration: kThreads * kRuns recording threads (ids may be reused by the OS).
  std::map<std::pair<std::int64_t, std::int64_t>, int> kernels;  // (iteration, thread) -> kernels
  std::map<std::size_t, std::int64_t> iteration_of_event;
  for (std::size_t i = 0; i < collection->events.size(); ++i) {
    const CpuEvent& e = collection->events[i];
    if (e.parent >= 0) {
      EXPECT_EQ(collection->events[static_cast<std::size_t>(e.parent)].thread_id, e.thread_id);
    }
    if (is_kernel_class(classify_cpu_event(e.name, e.scope)) && e.depth == 0) ++kernels[{e.iteration, e.thread_id}];
  }
  std::map<std::int64_t, int> threads_per_iteration;
  for (const auto& [key, n] : kernels) {
    EXPECT_EQ(n, kCallsPerThread * 4) << "iteration " << key.first << " thread " << key.second;
    ++threads_per_iteration[key.first];
  }
  ASSERT_EQ(threads_per_iteration.size(), static_cast<std::size_t>(kRuns));
  for (const auto& [iteration, n] : threads_per_iteration) EXPECT_EQ(n, kThreads) << "iteration " << iteration;
  EXPECT_EQ(collection->timeline.ops.size(), static_cast<std::size_t>(kThreads * kCallsPerThread * 4 * kRuns));
}

TEST_F(CpuCollectorOnPackage, InterleavedCollectorsEachRecordOnlyTheirOwnIterations) {
  // Two paths measured in alternation, as `compare` does: collector A observes the kernel-profiled
  // package, collector B the plain one. A range belongs to the collector whose iteration runs.
  auto profiled = load(OHPROF_TINY_KP_PACKAGE);
  auto plain = load(OHPROF_TINY_PACKAGE);
  ASSERT_NE(profiled, nullptr);
  ASSERT_NE(plain, nullptr);
  auto a = CpuActivityCollector::create();
  auto b = CpuActivityCollector::create();
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  constexpr int kRuns = 3;
  std::vector<IterationWindow> windows_a;
  std::vector<IterationWindow> windows_b;
  (*a)->on_measurement_begin();
  (*b)->on_measurement_begin();
  for (int i = 0; i < kRuns; ++i) {
    (*a)->on_iteration_begin(i, false);
    const std::int64_t a_start = monotonic_now_ns();
    ASSERT_TRUE(profiled->run_once().ok());
    windows_a.push_back({i, a_start, monotonic_now_ns()});
    (*a)->on_iteration_end(i, false);
    ASSERT_TRUE(plain->run_once().ok());  // between iterations of both: recorded by neither
    (*b)->on_iteration_begin(i, false);
    const std::int64_t b_start = monotonic_now_ns();
    ASSERT_TRUE(plain->run_once().ok());
    windows_b.push_back({i, b_start, monotonic_now_ns()});
    (*b)->on_iteration_end(i, false);
  }
  (*b)->on_measurement_end();
  EXPECT_TRUE(at::hasGlobalCallbacks());  // A still measures
  (*a)->on_measurement_end();
  EXPECT_FALSE(at::hasGlobalCallbacks());
  auto from_a = (*a)->finish(windows_a);
  auto from_b = (*b)->finish(windows_b);
  ASSERT_TRUE(from_a.ok());
  ASSERT_TRUE(from_b.ok());
  EXPECT_EQ(from_a->timeline.ops.size(), static_cast<std::size_t>(kRuns) * 4);  // 2 fused + 2 addmm
  for (const auto& e : from_a->events) {
    const IterationWindow& w = windows_a.at(static_cast<std::size_t>(e.iteration));
    EXPECT_GE(e.start_ns, w.start_ns) << e.name;
    EXPECT_LE(e.end_ns, w.end_ns) << e.name;
  }
  ASSERT_FALSE(from_b->events.empty());
  std::map<std::int64_t, std::size_t> per_iteration_b;
  for (const auto& e : from_b->events) {
    EXPECT_NE(classify_cpu_event(e.name, e.scope), CpuEventClass::generated) << e.name;
    const IterationWindow& w = windows_b.at(static_cast<std::size_t>(e.iteration));
    EXPECT_GE(e.start_ns, w.start_ns) << e.name;
    EXPECT_LE(e.end_ns, w.end_ns) << e.name;
    ++per_iteration_b[e.iteration];
  }
  ASSERT_EQ(per_iteration_b.size(), static_cast<std::size_t>(kRuns));
  // One plain call per B iteration recorded, not the extra call between iterations.
  for (const auto& [iteration, n] : per_iteration_b) EXPECT_EQ(n, per_iteration_b.begin()->second);
}

TEST(CpuActivityCollector, CostMeasurementRefusedWhileMeasuring) {
  auto collector = CpuActivityCollector::create();
  ASSERT_TRUE(collector.ok());
  (*collector)->on_measurement_begin();
  EXPECT_FALSE(measure_cpu_event_cost(1000).ok());
  (*collector)->on_measurement_end();
  EXPECT_TRUE(measure_cpu_event_cost(1000).ok());
}

TEST(CpuActivityCollector, AtMostSixteenAlive) {
  std::vector<std::unique_ptr<CpuActivityCollector>> alive;
  for (int i = 0; i < 16; ++i) {
    auto collector = CpuActivityCollector::create();
    ASSERT_TRUE(collector.ok()) << i;
    alive.push_back(std::move(collector.value()));
  }
  auto extra = CpuActivityCollector::create();
  ASSERT_FALSE(extra.ok());
  EXPECT_NE(extra.error().message.find("too many CPU activity collectors"), std::string::npos);
  alive.pop_back();
  EXPECT_TRUE(CpuActivityCollector::create().ok());
}

TEST(CpuActivityCollector, FinishWithoutMeasurementGivesAnEmptyTimeline) {
  auto collector = CpuActivityCollector::create();
  ASSERT_TRUE(collector.ok());
  const std::vector<IterationWindow> windows = {{0, 10, 20}};
  auto collection = (*collector)->finish(windows);
  ASSERT_TRUE(collection.ok());
  EXPECT_TRUE(collection->events.empty());
  EXPECT_TRUE(collection->timeline.ops.empty());
  EXPECT_EQ(collection->timeline.iterations.size(), 1u);
}

TEST(CpuActivityCollector, RecordedRangeCostsMoreThanNoCallback) {
  auto cost = measure_cpu_event_cost(20000);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_EQ(cost->ranges, 20000);
  EXPECT_GT(cost->per_range_ns, 0.0);
  EXPECT_GE(cost->without_per_range_ns, 0.0);
}

TEST(ListPackageKernels, ErrorsAreValues) {
  auto missing = list_package_kernels("/nonexistent/model.pt2");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ExitCode::file_not_found);

  const std::string not_zip = (std::filesystem::temp_directory_path() / "ohprof-cpu-collector-not-a-zip.pt2").string();
  std::ofstream(not_zip) << "this is not a zip archive";
  auto bad = list_package_kernels(not_zip);
  std::filesystem::remove(not_zip);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ExitCode::invalid_package);
  EXPECT_NE(bad.error().message.find("not a readable package archive"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace ohprof
