#pragma once
// Plain records of what happened on the host and the device during a measurement.
// Producers: the CUPTI collector (live GPU runs), the RecordFunction collector (live CPU runs) and the
// Kineto trace reader (`ohprof analyze`). Consumer: the analysis (breakdown.hpp), which never sees a
// vendor type. All times are nanoseconds on one clock (CLOCK_MONOTONIC for live runs; the trace's own
// clock for traces, kept exact to the nanosecond).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

#define OHPROF_DEVICE_OP_KIND_VALUES(X) \
  X(kernel, "kernel")                   \
  X(memcpy, "memcpy")                   \
  X(memset, "memset")
OHPROF_ENUM_CLASS(DeviceOpKind, OHPROF_DEVICE_OP_KIND_VALUES)

// One unit of work that ran on the device (a GPU kernel, copy or fill; or a CPU kernel for CPU runs).
struct DeviceOp {
  DeviceOpKind kind = DeviceOpKind::kernel;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int32_t device = 0;
  std::int64_t stream = 0;            // CUDA stream id; for CPU runs the thread id
  std::uint64_t correlation = 0;      // equals the correlation of the launch call that enqueued it
  std::uint32_t graph_id = 0;         // non-zero when the op ran as a node of a CUDA graph
  std::uint64_t bytes = 0;            // memcpy / memset size, 0 for kernels
  std::string name;                   // kernel name, or memcpy direction ("HtoD", ...)
  // A collective's kernel (NCCL, RCCL); the producer sets it with communication_kernel(name).
  bool communication = false;
};

// For a kernel's name: true for a collective communication kernel, whose name starts with "nccl" (NCCL's
// and RCCL's device kernels: ncclKernel_AllReduce_..., ncclDevKernel_...), demangled as a trace writes it or
// mangled as CUPTI gives it (_Z<length>nccl..., _ZN<length>nccl...). Both producers use it.
inline bool communication_kernel(std::string_view name) {
  if (name.substr(0, 2) == "_Z") {
    name.remove_prefix(name.substr(0, 3) == "_ZN" ? 3 : 2);
    while (!name.empty() && name.front() >= '0' && name.front() <= '9') name.remove_prefix(1);
  }
  return name.substr(0, 4) == "nccl";
}

enum class LaunchKind { kernel, graph, memcpy, memset, other };

// For a copy API's name (cudaMemcpy, cudaMemcpyAsync_v3020, cuMemcpyDtoH_v2, hipMemcpyWithStream): true
// when the call is synchronous, i.e. its name does not say "Async"; an XPU enqueue (urEnqueueUSMMemcpy,
// piextUSMEnqueueMemcpy) returns before its copy is done whatever its name. Both producers (the trace
// reader, the CUPTI collector) set LaunchCall::synchronous with it.
inline bool synchronous_copy_api(std::string_view name) {
  if (name.substr(0, 9) == "urEnqueue" || name.substr(0, 15) == "piextUSMEnqueue") return false;
  return name.find("Async") == std::string_view::npos;
}

// One host API call that enqueued device work (cudaLaunchKernel, cuLaunchKernel, cudaGraphLaunch, ...).
struct LaunchCall {
  LaunchKind kind = LaunchKind::kernel;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t thread_id = 0;
  std::uint64_t correlation = 0;
  // A copy that does not return before it is done (cudaMemcpy, cuMemcpyDtoH_v2, hipMemcpyWithStream: a
  // copy API without "Async" in its name); the producer sets it (docs/metrics.md, "Blocking launch calls").
  bool synchronous = false;
  // The iteration this call belongs to, when the producer knows it (live runs tag iterations with an
  // external correlation id). When empty, the analysis assigns it by the call's start time.
  std::optional<std::int64_t> iteration;
  std::string name;
};

// A host synchronisation call (cudaDeviceSynchronize, cudaStreamSynchronize, ...).
struct SyncCall {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t thread_id = 0;
  std::string name;
  // Live runs: the harness's own end-of-iteration synchronisation, not the model's. The analysis
  // leaves it out of the host-side numbers (docs/metrics.md, "Host side").
  bool harness = false;
};

// Any other host API call of the device runtime or driver: neither a launch nor a synchronisation
// (allocation, initialisation, module loading, event records and queries, stream queries, ...).
struct ApiCall {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t thread_id = 0;
  std::string name;
};

// One measured iteration as the harness (or a ProfilerStep annotation) bounded it.
struct IterationWindow {
  std::int64_t index = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

// What a collector or reader could not deliver; reported, never silent.
struct CollectionCounters {
  std::uint64_t dropped_records = 0;         // the collector lost records (buffers full)
  std::uint64_t ops_without_timestamps = 0;  // device ops whose start/end were lost (start == end == 0)
  std::uint64_t ops_without_launch = 0;      // device ops whose launch call is not in the data
  std::uint64_t skipped_events = 0;          // trace events skipped (unknown category, missing fields)
};

// How many events of one trace category.
struct EventCount {
  std::string category;
  std::uint64_t events = 0;
  friend bool operator==(const EventCount&, const EventCount&) = default;
};

struct Timeline {
  // False for CPU runs: the ops are CPU kernels that the calling thread ran itself, so there are no
  // launch calls and an op without one is expected, not a gap in the data.
  bool ops_have_launches = true;
  std::vector<DeviceOp> ops;
  std::vector<LaunchCall> launches;
  std::vector<SyncCall> syncs;
  std::vector<ApiCall> api_calls;
  std::vector<IterationWindow> iterations;
  // True when the one window is the whole recording because it marks no iterations (a trace without
  // ProfilerStep annotations): start-up may then dominate it (docs/metrics.md, "Verdict").
  bool whole_recording_window = false;
  CollectionCounters counters;
  // Device-side events of categories the reader does not turn into ops (CUPTI range-profiler ranges,
  // Habana's, MTIA events of unknown names; docs/analyze.md, "What is read"), by category: with no busy
  // time, the device's time is unknown, not zero.
  std::vector<EventCount> unread_device_events;
  // Known to the session, not the collector: some of the kernels the path runs do not record themselves
  // (on the CPU, Inductor's generated kernels without cpp.enable_kernel_profile), so their time is not an
  // op and counts as host time (docs/metrics.md, "Verdict").
  bool kernels_unrecorded = false;
};

}  // namespace ohprof

namespace ohprof {

// The part of `all` that belongs to the iterations with index in [first, last]: those windows, the
// launch calls attributed to them (by their `iteration`, else by start time inside a selected window),
// the device ops those calls launched (ops without a launch call: by start time), and the sync and
// other API calls that start inside the windows. Indices (windows and launch iterations) are shifted by -first.
// Counters are copied unchanged: they describe the whole collection.
// `compare` tags path p's iteration i as p * kIterationsPerPath + i and splits the collection with this.
Timeline select_iterations(const Timeline& all, std::int64_t first, std::int64_t last);

inline constexpr std::int64_t kIterationsPerPath = std::int64_t{1} << 32;

// end_ns - start_ns of each window, in order.
std::vector<std::int64_t> wall_times(const std::vector<IterationWindow>& windows);

// "'mtia_ccp_events' x25814, 'hpu_op' x3": event counts as the device-events-unread warning and the
// unknown verdict both name them.
std::string event_counts_text(const std::vector<EventCount>& counts);
// Whether the only unread device events are CUPTI range-profiler ranges (kernels with no timestamps).
bool only_profiler_ranges(const std::vector<EventCount>& unread);

}  // namespace ohprof
