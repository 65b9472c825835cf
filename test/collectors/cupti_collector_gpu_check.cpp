// The CUPTI collector on a real GPU (CTest label "gpu"; tools/gpu-check runs it first). No GoogleTest,
// so it also builds where only a toolkit is present. Exit: 0 all checks passed, 1 a check failed,
// 2 a CUDA call failed, 77 no CUDA device (CTest: skipped).
//
// Each measured iteration launches, on one stream: a kernel through the runtime (cudaLaunchKernel), the
// same kernel through the driver (cuLaunchKernel, as AOTInductor does, and cuLaunchKernelEx, as
// Triton's launcher does), a memset, a
// device-to-host copy, a CUDA graph of three kernels (cudaGraphLaunch), then cudaStreamSynchronize.
// The kernel is PTX loaded at run time, so nothing here needs nvcc. The checks are what the analysis
// relies on: every launch attributed to its iteration, every op joined to its launch, graph kernels
// sharing the graph launch's correlation (a non-zero graph id where CUPTI knows the graph: one captured
// before CUPTI started may have 0, reported, not a failure), and CUPTI's timestamps on ohprof's
// clock (every op inside its iteration's window). The graph is captured before CUPTI is first used, as
// torch.compile's reduce-overhead path captures its graphs before ohprof's split pass begins.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ohprof/base/clock.hpp"
#include "ohprof/collectors/cupti_collector.hpp"
#include "ohprof/harness/measurement_loop.hpp"

namespace {

constexpr char kPtx[] = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry ohprof_noop()
{
  ret;
}
)";

int g_failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "PASS" : "FAIL", what.c_str());
  if (!ok) ++g_failures;
}

// A check made once per iteration: reported once, with the number of iterations that failed it and the
// first failure's detail.
struct PerIterationCheck {
  int failed = 0;
  std::string first_detail;
};
std::map<std::string, PerIterationCheck> g_per_iteration;
std::vector<std::string> g_per_iteration_order;
// CUPTI's GPU-to-CPU clock conversion is interpolated: ordering checks allow this much, and the largest
// violation seen is printed.
constexpr std::int64_t kClockSlackNs = 5'000;
std::int64_t g_clock_worst_ns = 0;
std::int64_t g_graph_kernels_without_id = 0;

void check_each(bool ok, const std::string& what, const std::string& detail) {
  if (g_per_iteration.count(what) == 0) g_per_iteration_order.push_back(what);
  auto& entry = g_per_iteration[what];
  if (!ok && entry.failed++ == 0) entry.first_detail = detail;
}

#define CUDA_OR_EXIT(call)                                                                      \
  do {                                                                                          \
    const cudaError_t status_ = (call);                                                         \
    if (status_ != cudaSuccess) {                                                               \
      std::printf("ERROR %s: %s\n", #call, cudaGetErrorString(status_));                        \
      return 2;                                                                                 \
    }                                                                                           \
  } while (0)

using LaunchExFn = CUresult(CUDAAPI*)(const CUlaunchConfig*, CUfunction, void**, void**);
using LaunchFn = CUresult(CUDAAPI*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                    unsigned, CUstream, void**, void**);
using KernelGetFunctionFn = CUresult(CUDAAPI*)(CUfunction*, CUkernel);

const char* kind_name(ohprof::LaunchKind kind) {
  switch (kind) {
    case ohprof::LaunchKind::kernel: return "kernel";
    case ohprof::LaunchKind::graph: return "graph";
    case ohprof::LaunchKind::memcpy: return "memcpy";
    case ohprof::LaunchKind::memset: return "memset";
    case ohprof::LaunchKind::other: return "other";
  }
  return "?";
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP no CUDA device\n");
    return 77;
  }
  CUDA_OR_EXIT(cudaSetDevice(0));
  CUDA_OR_EXIT(cudaFree(nullptr));  // create the context before tracing starts

  // The kernel, for the runtime (cudaKernel_t) and for the driver (CUfunction).
  cudaLibrary_t library = nullptr;
  CUDA_OR_EXIT(cudaLibraryLoadData(&library, kPtx, nullptr, nullptr, 0, nullptr, nullptr, 0));
  cudaKernel_t kernel = nullptr;
  CUDA_OR_EXIT(cudaLibraryGetKernel(&kernel, library, "ohprof_noop"));
  void* entry = nullptr;
  CUDA_OR_EXIT(cudaGetDriverEntryPointByVersion("cuLaunchKernel", &entry, 12000, cudaEnableDefault, nullptr));
  const auto cu_launch_kernel = reinterpret_cast<LaunchFn>(entry);
  CUDA_OR_EXIT(cudaGetDriverEntryPointByVersion("cuLaunchKernelEx", &entry, 12000, cudaEnableDefault, nullptr));
  const auto cu_launch_kernel_ex = reinterpret_cast<LaunchExFn>(entry);
  CUDA_OR_EXIT(cudaGetDriverEntryPointByVersion("cuKernelGetFunction", &entry, 12000, cudaEnableDefault, nullptr));
  const auto cu_kernel_get_function = reinterpret_cast<KernelGetFunctionFn>(entry);
  CUfunction function = nullptr;
  if (cu_kernel_get_function(&function, reinterpret_cast<CUkernel>(kernel)) != CUDA_SUCCESS) {
    std::printf("ERROR cuKernelGetFunction\n");
    return 2;
  }

  cudaStream_t stream = nullptr;
  CUDA_OR_EXIT(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  void* device_buffer = nullptr;
  void* host_buffer = nullptr;
  constexpr std::size_t kBytes = 4096;
  CUDA_OR_EXIT(cudaMalloc(&device_buffer, kBytes));
  CUDA_OR_EXIT(cudaMallocHost(&host_buffer, kBytes));

  // A graph of three driver launches, captured before tracing starts.
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t graph_exec = nullptr;
  CUDA_OR_EXIT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (int i = 0; i < 3; ++i) {
    cu_launch_kernel(function, 1, 1, 1, 32, 1, 1, 0, reinterpret_cast<CUstream>(stream), nullptr, nullptr);
  }
  CUDA_OR_EXIT(cudaStreamEndCapture(stream, &graph));
  CUDA_OR_EXIT(cudaGraphInstantiate(&graph_exec, graph, 0));

  auto one_iteration = [&]() -> ohprof::Status {
    bool ok = cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(1), dim3(32), nullptr, 0, stream) == cudaSuccess;
    ok &= cu_launch_kernel(function, 1, 1, 1, 32, 1, 1, 0, reinterpret_cast<CUstream>(stream), nullptr, nullptr) ==
          CUDA_SUCCESS;
    CUlaunchConfig config{};
    config.gridDimX = config.gridDimY = config.gridDimZ = 1;
    config.blockDimX = 32;
    config.blockDimY = config.blockDimZ = 1;
    config.hStream = reinterpret_cast<CUstream>(stream);
    ok &= cu_launch_kernel_ex(&config, function, nullptr, nullptr) == CUDA_SUCCESS;
    ok &= cudaMemsetAsync(device_buffer, 0, kBytes, stream) == cudaSuccess;
    ok &= cudaMemcpyAsync(host_buffer, device_buffer, kBytes, cudaMemcpyDeviceToHost, stream) == cudaSuccess;
    ok &= cudaGraphLaunch(graph_exec, stream) == cudaSuccess;
    ok &= cudaStreamSynchronize(stream) == cudaSuccess;
    if (!ok) return ohprof::make_error(ohprof::ExitCode::model_error, "a CUDA call failed in the iteration");
    return ohprof::ok_status();
  };

  // Untraced first: the host cost of an iteration without CUPTI, for comparison.
  constexpr int kWarmup = 3;
  constexpr int kRuns = 50;
  ohprof::LoopResult untraced;
  if (!ohprof::run_measurement_loop({kWarmup, kRuns}, one_iteration, {}, untraced).ok()) return 2;

  std::printf("CUPTI version %s\n", ohprof::cupti_version_text().c_str());
  auto collector = ohprof::CuptiCollector::create(ohprof::CuptiOptions{.device_present = true});
  if (!collector.ok()) {
    std::printf("FAIL collector unavailable: %s\n", collector.error().message.c_str());
    return 1;
  }
  ohprof::LoopResult loop;
  if (!ohprof::run_measurement_loop({kWarmup, kRuns}, one_iteration, {collector->get()}, loop).ok()) return 2;
  CUDA_OR_EXIT(cudaDeviceSynchronize());
  auto collection = (*collector)->finish(loop.iterations);
  if (!collection.ok()) {
    std::printf("FAIL finish: %s\n", collection.error().message.c_str());
    return 1;
  }
  const ohprof::Timeline& timeline = collection->timeline;

  auto median = [](std::vector<std::int64_t> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
  };
  std::printf("INFO median iteration wall: untraced %.1f us, traced %.1f us\n", median(untraced.wall_ns()) / 1e3,
              median(loop.wall_ns()) / 1e3);
  std::printf("INFO ops %zu, launches %zu, syncs %zu, warm-up records %llu, overheads %zu\n", timeline.ops.size(),
              timeline.launches.size(), timeline.syncs.size(),
              static_cast<unsigned long long>(collection->warmup_records), collection->overheads.size());
  for (const auto& warning : collection->warnings) std::printf("WARN %s %s\n", ohprof::to_string(warning.code), warning.message.c_str());
  const std::vector<std::int64_t> untraced_walls = untraced.wall_ns();
  const std::vector<std::int64_t> traced_walls = loop.wall_ns();
  std::printf("INFO max iteration wall: untraced %.1f us, traced %.1f us; buffers zeroed in the run %llu\n",
              *std::max_element(untraced_walls.begin(), untraced_walls.end()) / 1e3,
              *std::max_element(traced_walls.begin(), traced_walls.end()) / 1e3,
              static_cast<unsigned long long>(collection->buffers_zeroed_in_run));
  std::map<std::string, std::pair<int, std::int64_t>> overhead_by_kind;  // kind -> count, total ns
  for (const auto& overhead : collection->overheads) {
    auto& entry = overhead_by_kind[overhead.kind];
    ++entry.first;
    entry.second += overhead.end_ns - overhead.start_ns;
  }
  for (const auto& [kind, entry] : overhead_by_kind) {
    std::printf("INFO CUPTI overhead %s: %d record(s), %.1f us in all\n", kind.c_str(), entry.first, entry.second / 1e3);
  }

  // Iteration 0 in full, for the record.
  std::map<std::uint64_t, const ohprof::LaunchCall*> launch_of;
  for (const auto& launch : timeline.launches) launch_of[launch.correlation] = &launch;
  const auto& first = loop.iterations.at(0);
  for (const auto& launch : timeline.launches) {
    if (launch.iteration == 0) {
      std::printf("INFO it0 launch %-7s %-22s +%lld..+%lld ns c%llu t%lld\n", kind_name(launch.kind), launch.name.c_str(),
                  static_cast<long long>(launch.start_ns - first.start_ns),
                  static_cast<long long>(launch.end_ns - first.start_ns),
                  static_cast<unsigned long long>(launch.correlation), static_cast<long long>(launch.thread_id));
    }
  }
  for (const auto& op : timeline.ops) {
    const auto it = launch_of.find(op.correlation);
    if (it != launch_of.end() && it->second->iteration == 0) {
      std::printf("INFO it0 op %s +%lld..+%lld ns dev%d s%lld c%llu g%u b%llu\n", op.name.c_str(),
                  static_cast<long long>(op.start_ns - first.start_ns), static_cast<long long>(op.end_ns - first.start_ns),
                  op.device, static_cast<long long>(op.stream), static_cast<unsigned long long>(op.correlation), op.graph_id,
                  static_cast<unsigned long long>(op.bytes));
    }
  }
  for (const auto& sync : timeline.syncs) {
    if (sync.start_ns >= first.start_ns && sync.end_ns <= first.end_ns) {
      std::printf("INFO it0 sync %s +%lld..+%lld ns\n", sync.name.c_str(), static_cast<long long>(sync.start_ns - first.start_ns),
                  static_cast<long long>(sync.end_ns - first.start_ns));
    }
  }

  // ---- checks ----
  check(timeline.counters.dropped_records == 0, "no dropped records");
  check(timeline.counters.ops_without_timestamps == 0, "no ops without timestamps");
  check(timeline.counters.ops_without_launch == 0, "every op has its launch");
  check(collection->warmup_records == static_cast<std::uint64_t>(kWarmup) * (6 + 8 + 1),
        "warm-up records left out: 6 launches + 8 ops + 1 sync per warm-up iteration (got " +
            std::to_string(collection->warmup_records) + ")");
  bool all_launches_tagged = true;
  for (const auto& launch : timeline.launches) all_launches_tagged &= launch.iteration.has_value();
  check(all_launches_tagged, "every launch carries its iteration");

  for (const auto& window : loop.iterations) {
    const std::string at = "iteration " + std::to_string(window.index);
    std::multiset<std::string> launches;
    std::vector<const ohprof::LaunchCall*> mine;
    for (const auto& launch : timeline.launches) {
      if (launch.iteration == window.index) {
        launches.insert(std::string(kind_name(launch.kind)) + " " + launch.name);
        mine.push_back(&launch);
      }
    }
    const std::multiset<std::string> expected_launches = {"kernel cudaLaunchKernel", "kernel cuLaunchKernel",
                                                          "kernel cuLaunchKernelEx", "memset cudaMemsetAsync",
                                                          "memcpy cudaMemcpyAsync", "graph cudaGraphLaunch"};
    std::string seen;
    for (const auto& l : launches) seen += "[" + l + "] ";
    check_each(launches == expected_launches,
               "launches per iteration: cudaLaunchKernel, cuLaunchKernel, cuLaunchKernelEx, cudaMemsetAsync, "
               "cudaMemcpyAsync, cudaGraphLaunch",
               at + " saw " + seen);
    int ops = 0;
    int graph_ops = 0;
    bool inside = true;
    bool after_launch = true;
    bool ordered = true;
    bool graph_ids = true;  // only graph kernels carry a graph id
    for (const auto& op : timeline.ops) {
      const auto it = launch_of.find(op.correlation);
      if (it == launch_of.end() || it->second->iteration != window.index) continue;
      ++ops;
      // CUPTI converts GPU timestamps to the CPU clock by interpolation: allow kClockSlackNs, and keep the
      // largest violation to print.
      const std::int64_t outside = std::max(window.start_ns - op.start_ns, op.end_ns - window.end_ns);
      const std::int64_t early = it->second->start_ns - op.start_ns;
      g_clock_worst_ns = std::max({g_clock_worst_ns, outside, early});
      inside &= outside <= kClockSlackNs;
      after_launch &= early <= kClockSlackNs;
      ordered &= op.end_ns >= op.start_ns;
      if (it->second->kind == ohprof::LaunchKind::graph) {
        ++graph_ops;
        // A graph captured before CUPTI started may give its kernels graph id 0: reported, not a failure.
        g_graph_kernels_without_id += op.graph_id == 0;
      } else {
        graph_ids &= op.graph_id == 0;
      }
    }
    check_each(ops == 8, "eight ops joined to each iteration's launches", at + ": " + std::to_string(ops));
    check_each(graph_ops == 3, "three graph kernels share the graph launch's correlation",
               at + ": " + std::to_string(graph_ops));
    check_each(graph_ids, "only graph kernels carry a graph id", at);
    check_each(inside, "every op lies inside its iteration's window (CUPTI's clock is ohprof's, within 5 us)", at);
    check_each(after_launch, "every op starts after its launch call began (within 5 us)", at);
    check_each(ordered, "every op ends at or after its start", at);
    bool launches_inside = true;
    for (const auto* launch : mine) launches_inside &= launch->start_ns >= window.start_ns && launch->end_ns <= window.end_ns;
    check_each(launches_inside, "every launch call lies inside its iteration's window", at);
    int syncs = 0;
    for (const auto& sync : timeline.syncs) syncs += sync.start_ns >= window.start_ns && sync.end_ns <= window.end_ns;
    check_each(syncs == 1, "one synchronisation inside each iteration's window", at + ": " + std::to_string(syncs));
  }
  for (const auto& what : g_per_iteration_order) {
    const auto& entry = g_per_iteration[what];
    check(entry.failed == 0, what + (entry.failed == 0 ? "" : " — failed in " + std::to_string(entry.failed) + " of " +
                                                                 std::to_string(loop.iterations.size()) +
                                                                 " iterations, first: " + entry.first_detail));
  }

  std::printf("note: largest clock-order violation %lld ns (allowed %lld ns: CUPTI interpolates GPU timestamps)\n",
              static_cast<long long>(std::max<std::int64_t>(g_clock_worst_ns, 0)), static_cast<long long>(kClockSlackNs));
  std::printf("note: %lld graph kernel(s) with graph id 0 (the graph was captured before CUPTI started)\n",
              static_cast<long long>(g_graph_kernels_without_id));
  std::printf("%s: %d check(s) failed\n", g_failures == 0 ? "OK" : "FAILED", g_failures);
  return g_failures == 0 ? 0 : 1;
}
