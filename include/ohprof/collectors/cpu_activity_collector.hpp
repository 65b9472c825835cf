#pragma once
// The CPU activity collector: records the at::RecordFunction ranges (ATen operators, AOTI shim calls,
// Inductor kernels built with cpp.enable_kernel_profile) that run during a measurement, on every thread,
// and turns them into the plain Timeline of a CPU run: DeviceOps are the CPU kernels (cpu_kernels.hpp),
// stream = OS thread id, no LaunchCalls. src/collectors/cpu_activity_collector.cpp is the only file that includes
// ATen/record_function.h. Definitions, nesting, threads and cost: docs/cpu-collector.md.
//
// Use (one collector per path; several may be alive, e.g. one among the observers of each path of an
// interleaved `compare`):
//   auto collector = CpuActivityCollector::create();
//   if (!collector.ok()) -> CPU split unavailable, reason = collector.error().message
//   run_measurement_loop(config, fn, {collector->get()}, loop);    // it is an IterationObserver
//   auto collection = (*collector)->finish(loop.iterations);        // Timeline + raw events
//   auto code = list_package_kernels(package_path);                 // AOTI: kernels in the generated code
//                                                                   // (runtimes/aoti_package.hpp)
//   auto attribution = attribute_kernels(*code, collection->events);
//   if (!attribution.complete()) -> report attribution.unattributed: those kernels' time is in
//                                   "dispatch", not in "busy" (typically: built without kernel profiling)
//
// Its own cost (report it beside the results): run the same loop twice, once with only the harness and
// once with the collector among the observers, and report median wall with / median wall without
// (the order alternated or repeated if the machine is noisy). measure_cpu_event_cost() gives the added
// cost of one recorded range; events_per_iteration * that is the expected slowdown per iteration.
//
// One global callback is registered while any collector is between on_measurement_begin and
// on_measurement_end (the harness calls them after warm-up: warm-up is not recorded). A range is recorded
// by the collector whose measured iteration is running when it starts (on_iteration_begin to
// on_iteration_end, on any thread); ranges that start outside every measured iteration are not recorded.
// Iterations of different collectors must not run at the same time.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ohprof/analysis/cpu_kernels.hpp"
#include "ohprof/model/code_dump.hpp"
#include "ohprof/base/error.hpp"
#include "ohprof/harness/measurement_loop.hpp"
#include "ohprof/model/timeline.hpp"

namespace ohprof {

struct CpuCollectorOptions {
  // Also record USER_SCOPE ranges (torch.profiler.record_function and the like). They are never
  // kernels, but they show where framework time goes.
  bool record_user_scopes = true;
};

struct CpuCollection {
  // ops: the CPU kernels (select_cpu_kernels) of every recorded range; iterations: as given to finish();
  // counters.dropped_records = unclosed + unmatched_ends. No launches or syncs on the CPU.
  Timeline timeline;
  std::vector<CpuEvent> events;  // every recorded range, sorted by thread id, then start order
  std::uint64_t unclosed = 0;        // ranges still open at finish() (not recorded)
  std::uint64_t unmatched_ends = 0;  // end callbacks during its iterations whose start was not recorded
  std::size_t threads = 0;           // threads that recorded at least one range
};

class CpuActivityCollector final : public IterationObserver {
 public:
  // Fails (ExitCode::internal_error) when 16 collectors are already alive in this process.
  // Defined only in builds with LibTorch (OHPROF_WITH_TORCH, library ohprof_collectors).
  static Result<std::unique_ptr<CpuActivityCollector>> create(const CpuCollectorOptions& options = {});

  ~CpuActivityCollector() override;  // ends its measurement if still on, frees its ranges
  CpuActivityCollector(const CpuActivityCollector&) = delete;
  CpuActivityCollector& operator=(const CpuActivityCollector&) = delete;

  void on_measurement_begin() override;  // registers the global callback (the first collector to begin)
  void on_iteration_begin(std::int64_t index, bool warmup) override;  // measured: record, tagged `index`
  void on_iteration_end(std::int64_t index, bool warmup) override;
  void on_measurement_end() override;  // removes the callback (the last collector to end)

  // Call once, after the loop. `iterations` (the loop's measured windows) are copied into the Timeline.
  Result<CpuCollection> finish(const std::vector<IterationWindow>& iterations);

  struct State;  // defined in src/collectors/cpu_activity_collector.cpp

 private:
  explicit CpuActivityCollector(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
};

// Added cost of one recorded range on the calling thread: the time of `ranges` empty RecordFunction
// ranges with the collector's callback registered and recording, minus the same without any callback,
// divided by `ranges`. Fails while a collector is measuring.
struct CpuEventCost {
  double per_range_ns = 0;                 // with the collector's callback - without any callback
  double empty_callback_per_range_ns = 0;  // with a callback that does nothing - without: LibTorch's share
  double without_per_range_ns = 0;         // no callback: the dispatcher's check alone
  std::int64_t ranges = 0;                 // ranges timed per variant (best of 3 rounds each)
};
Result<CpuEventCost> measure_cpu_event_cost(std::int64_t ranges = 200000);

}  // namespace ohprof
