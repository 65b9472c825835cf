#pragma once
// What a measurement produced: plain data that printers (table, JSON, ...) format.
// The JSON form is documented in docs/report-schema.md; bump kReportSchemaVersion on any
// incompatible change.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/enum_text.hpp"
#include "ohprof/model/run_queue.hpp"
#include "ohprof/model/stopping.hpp"
#include "ohprof/model/breakdown.hpp"
#include "ohprof/model/code_dump.hpp"
#include "ohprof/model/cold_start.hpp"
#include "ohprof/model/deployment.hpp"
#include "ohprof/model/what_if.hpp"
#include "ohprof/model/concurrency.hpp"
#include "ohprof/model/distributed.hpp"
#include "ohprof/model/execution_check.hpp"
#include "ohprof/model/explanation.hpp"
#include "ohprof/model/stop_reason.hpp"
#include "ohprof/model/warning.hpp"
#include "ohprof/base/stats.hpp"

namespace ohprof {

inline constexpr int kReportSchemaVersion = 4;

// Which command made the report; its JSON `kind`.
#define OHPROF_REPORT_KIND_VALUES(X) \
  X(run, "run")                      \
  X(compare, "compare")              \
  X(analyze, "analyze")
OHPROF_ENUM_CLASS(ReportKind, OHPROF_REPORT_KIND_VALUES)

// accelerator: an analysed trace's device that is not a CUDA or ROCm GPU nor an Intel XPU (MTIA, one whose
// events ohprof does not read; docs/analyze.md). xpu: an analysed trace's Intel GPU (its launch calls are
// the xpu_runtime's).
#define OHPROF_DEVICE_KIND_VALUES(X) \
  X(cpu, "cpu")                      \
  X(cuda, "cuda")                    \
  X(accelerator, "accelerator")      \
  X(xpu, "xpu")
OHPROF_ENUM_CLASS(DeviceKind, OHPROF_DEVICE_KIND_VALUES)

// What the split's labels, sentences and exported tracks call the device whose timeline they split
// (docs/analyze.md, "The device"): "GPU" for a CUDA or ROCm GPU and an Intel XPU; "device" for another
// accelerator (MTIA), and for `cpu`, where no device was found (a trace without device work; a CPU run's
// split names its CPU kernels itself).
constexpr const char* device_noun(DeviceKind device) {
  switch (device) {
    case DeviceKind::cuda:
    case DeviceKind::xpu: return "GPU";
    case DeviceKind::cpu:
    case DeviceKind::accelerator: return "device";
  }
  return "device";
}

// What recorded a path's device split.
#define OHPROF_COLLECTOR_KIND_VALUES(X) \
  X(none, "")                           \
  X(cupti, "cupti")                     \
  X(record_function, "record_function") \
  X(trace, "trace")
OHPROF_ENUM_CLASS(CollectorKind, OHPROF_COLLECTOR_KIND_VALUES)


struct DeviceDescription {
  DeviceKind type = DeviceKind::cpu;
  int index = -1;            // CUDA device index, -1 for the CPU
  std::string name;          // "NVIDIA H200", or the CPU model
};

struct RunContext {
  std::string ohprof_version;
  std::string git_sha;
  std::string torch_version;   // "none" when built without LibTorch
  std::string cuda_version;    // CUDA toolkit ohprof was built with, "none" without
  std::string cupti_version;   // CUPTI API version, "none" without
  std::string cupti_library;   // the libcupti file the process loaded, "none" without (docs/cupti.md)
  std::string inflate_library;  // what this ohprof inflates gzip traces with: "ISA-L 2.30.0", "zlib 1.3.1"
  DeviceDescription device;
  std::vector<std::string> argv;
  std::string date_utc;        // ISO 8601, e.g. 2026-11-30T07:00:00Z
  std::string hostname;
  int cpu_threads = 0;         // intra-op threads LibTorch used
};

// `compare --check-outputs`: what a path whose outputs differ from the reference's does to the run.
#define OHPROF_CHECK_MODE_VALUES(X) \
  X(warn, "warn")                   \
  X(strict, "strict")               \
  X(off, "off")
OHPROF_ENUM_CLASS(CheckMode, OHPROF_CHECK_MODE_VALUES)

// `compare`: the paths asked for and the adaptive stopping rule (docs/metrics.md, "Stopping").
struct CompareConfig {
  std::vector<std::string> paths;
  AdaptiveStopping stopping;  // as asked (its warmup is also RunConfig::warmup, the JSON's config.warmup)
  CheckMode check_outputs = CheckMode::warn;
  PathSource compile_source = PathSource::module;  // where eager and torch.compile start
  bool explain = true;                             // variants measured and gaps explained
  std::vector<std::pair<std::string, std::string>> explain_pairs;  // --explain (slower, faster); empty: against the fastest
  std::vector<int> threads;  // --threads: the counts of concurrent callers, 1 first; empty: not measured
  int cold_start = 0;        // --cold-start: fresh processes per path and cache state; 0: not measured
  bool what_if = false;      // --what-if: the compile settings' ledger (what_if.hpp)
  // The rank rule's fewest orders its cold-start figures were judged under (kColdStartOrderCombinations; a report
  // read back without the key: 20, the rule before 2026-12-06).
  int cold_start_min_orders = static_cast<int>(kColdStartOrderCombinations);
};

struct RunConfig {
  int warmup = 0;                   // per path
  int runs = 0;                     // `run`: measured iterations; `compare`: see `compare`
  std::uint64_t seed = 0;
  std::vector<std::string> inputs;  // "[1, 3, 224, 224]:float32"
  std::optional<CompareConfig> compare;
  // --inputs FILE: the user's tensors instead of seeded random ones ("" : random), and the first 16 hex
  // digits of the SHA-256 of its values (python/ohprof/_paths.py values_digest)
  std::string inputs_file;
  std::string inputs_file_digest;
};

// `compare`: a path's outputs against the reference path's (docs/metrics.md, "Output check").
struct PathOutputCheck {
  std::string reference;              // the path compared against ("eager", or the first path)
  bool passed = false;                // every element within atol + rtol * |reference|
  std::optional<double> max_abs_diff;
  std::optional<double> max_rel_diff;
  double atol = 0;
  double rtol = 0;
  std::string detail;                 // why it failed
};

// `compare`: how much faster one path ran than another (hyperfine's "a ran 1.42 ± 0.04 times faster
// than b"): ratio of median wall times, with first-order propagated robust spread (docs/metrics.md, "Ratios").
struct PathRatio {
  std::string faster;
  std::string slower;
  double ratio = 0;   // median(slower) / median(faster)
  double stddev = 0;  // the ratio's spread from the samples' robust spreads (ratio_of_medians)
  // 95% interval: 1 + the gap's 95% interval / median(faster), so the ratio is within noise exactly
  // when the gap is (docs/metrics.md, "Significance")
  double low = 0;
  double high = 0;
  bool significant = false;  // low > 1 (or high < 1)
};

// `compare`: where the model's artifacts came from and what building them cost.
struct ArtifactSummary {
  std::string model;                    // module:factory, when given
  std::string exported_program;         // the torch.export program every path was built from
  std::string aoti_package;
  bool cached = false;                  // reused from the artifact cache
  std::optional<std::int64_t> export_ns;        // torch.export, when done in this run
  std::optional<std::int64_t> aoti_compile_ns;  // AOTInductor compile and package, when done in this run
  std::string export_error;               // why torch.export failed ("" : it did not, or was not needed)
  std::vector<std::string> not_measured;  // asked paths that needed the export or the package, not measured
  // Why no AOTI package was built although the program was ("" : one was, or none was needed): the
  // compiler Inductor uses would make one LibTorch does not load (docs/usage.md, "When no AOTI package can
  // be built").
  std::string aoti_error;
  // --inputs: its values' digest, carried from the session to RunConfig::inputs_file_digest (not written
  // with the artifacts); "" : random inputs
  std::string inputs_file_digest;
};

// The device-time split comes from a second, instrumented pass (the headline wall times are measured
// without any activity collector). What the collector cost (docs/metrics.md, "Collector cost").
struct CollectorCost {
  CollectorKind collector = CollectorKind::none;
  std::size_t runs = 0;                 // iterations of the instrumented pass
  double wall_median_without_ns = 0;    // median of samples_ns (the uninstrumented pass)
  double wall_median_with_ns = 0;       // median wall time of the instrumented pass
  double ratio = 0;                     // with / without
};

// CPU runs of an AOTI package: which kernels named in its generated code the collector saw
// (docs/cpu-collector.md, "Attribution").
struct KernelAttributionSummary {
  bool records_kernels = false;            // the package was built with cpp.enable_kernel_profile
  std::vector<std::string> seen;           // named in the code and recorded
  std::vector<std::string> unattributed;   // named in the code, never recorded: their time is dispatch
  std::vector<std::string> not_in_code;    // recorded kernels the code does not name (ATen ops it calls)
};

// compare on a CUDA device: one reading of the device's memory (docs/metrics.md, "Device memory"), from
// PyTorch's CUDA caching allocator, which LibTorch and Python's torch share in the process, and from the
// driver.
struct DeviceMemoryReading {
  std::int64_t allocated_bytes = 0;       // held by tensors (the allocator's "allocated_bytes.all.current")
  std::int64_t reserved_bytes = 0;        // held by the allocator: allocated, cached, and its private pools
  std::int64_t peak_allocated_bytes = 0;  // the most allocated since the peak was last reset
  std::optional<std::int64_t> private_pool_bytes;  // reserved in private pools (the CUDA-graph pools); null: no snapshot
  std::optional<std::int64_t> used_bytes;  // the CUDA runtime's total − free (cudaMemGetInfo): memory outside the allocator too
  friend bool operator==(const DeviceMemoryReading&, const DeviceMemoryReading&) = default;
};

// The device memory a path took, from readings around its build and its memory-pass calls.
struct PathDeviceMemory {
  std::int64_t build_allocated_bytes = 0;       // allocated after the build − before it
  std::int64_t build_reserved_bytes = 0;        // reserved after − before
  std::optional<std::int64_t> build_used_bytes;  // the CUDA runtime's used after − before
  std::int64_t build_peak_allocated_bytes = 0;  // peak allocated over the build − allocated before it
  std::optional<std::int64_t> run_peak_allocated_bytes;  // peak allocated over the memory pass − allocated before it
  std::optional<std::int64_t> run_reserved_bytes;        // reserved after the memory pass − before it
  // A path expected to replay CUDA graphs (reduce-overhead): the private pools' reserved bytes after its
  // memory pass. Every CUDA-graph path of the process shares the pool (one per device).
  std::optional<std::int64_t> graph_pool_bytes;
  friend bool operator==(const PathDeviceMemory&, const PathDeviceMemory&) = default;
};

// One deployment path (aoti, compile, eager, ...) measured under the run's config.
// compare: the host memory a path took (docs/metrics.md, "Memory"): the process's resident set (VmRSS)
// and its high-water mark (VmHWM, reset before each phase). Measured around the path's build and in a
// memory pass of kMemoryCalls calls after the timed passes, so no timed call reads /proc.
struct PathMemory {
  std::int64_t build_retained_bytes = 0;          // VmRSS after the build − VmRSS before it
  std::optional<std::int64_t> build_peak_bytes;   // VmHWM over the build − VmRSS before it
  std::optional<std::int64_t> run_peak_bytes;     // VmHWM over the memory pass's calls − VmRSS before them
  std::int64_t run_calls = 0;                     // calls in the memory pass
  std::optional<PathDeviceMemory> device;         // on a CUDA device whose allocator could be read
  friend bool operator==(const PathMemory&, const PathMemory&) = default;
};
inline constexpr std::int64_t kMemoryCalls = 3;

struct PathResult {
  std::string name;                   // "aoti", or a variant "compile/no-guards"
  PathRole role = PathRole::path;     // asked for, or a variant measured to peel a layer (explanation.hpp)
  std::optional<PathSource> source;   // where its callable came from (compare)
  std::string artifact;               // what was loaded (package path)
  std::int64_t load_ns = 0;           // time to load / build the path before the first call
  std::vector<std::int64_t> warmup_ns;  // warm-up iteration wall times, not in the statistics
  std::vector<std::int64_t> wall_ns;    // measured iteration wall times
  // compare: the interleaved round (from 0) each of wall_ns was measured in, same length; empty where the
  // samples were not measured in rounds (run, analyze). Pairs two paths' samples by round
  // (docs/metrics.md, "Spread of a difference").
  std::vector<int> wall_rounds;
  SampleSummary wall;                 // summary of wall_ns
  StopReason stop_reason;             // why measurement stopped
  std::string split_unavailable_reason;  // why no device-time split exists, when none does
  std::optional<PathBreakdown> breakdown;  // the device-time split (breakdown.hpp), when one exists
  std::optional<PathOutputCheck> output_check;  // compare: outputs against the reference path
  std::optional<CollectorCost> collector_cost;  // when a split was measured
  CollectorKind split_collector = CollectorKind::none;  // what recorded the split
  std::optional<KernelAttributionSummary> kernel_attribution;  // CPU runs of the aoti path
  std::optional<DynamoRanges> dynamo_ranges;  // compare, CPU collector: Dynamo's ranges in the split pass
  std::optional<ExecutionCheck> execution;    // compare: what the path ran while measured (execution_check.hpp)
  std::optional<PathMemory> memory;           // compare: the host memory it took (above); null: not measured
  std::optional<PathConcurrency> concurrency;  // compare --threads: several callers at once (concurrency.hpp)
  std::optional<PathColdStart> cold_start;     // compare --cold-start: fresh processes (cold_start.hpp)
  // compare: the other paths asked for that ran slower than this one beyond noise (faster = this path),
  // in path order: the evidence its verdict's advice cites against a remedy it names (docs/metrics.md, "Advice").
  std::vector<PathRatio> slower_paths;
  // The first analysed iteration's kernels, copies and fills by start (canonical names): --dump-code's
  // call sequence (kernels.json, index.html); not in the report's JSON.
  std::vector<std::string> first_iteration_ops;
  std::optional<PathRunQueue> run_queue;  // run, compare: null where the run delay could not be read
};

// How `analyze` found a trace's iterations: its ProfilerStep annotations, or none (the whole trace is
// one window).
#define OHPROF_ITERATION_SOURCE_VALUES(X) \
  X(profiler_steps, "ProfilerStep")         \
  X(whole_trace, "whole trace")
OHPROF_ENUM_CLASS(IterationSource, OHPROF_ITERATION_SOURCE_VALUES)

// Where an `ohprof analyze` report's data came from: a profiler trace file, not a live run
// (docs/analyze.md, "The report"). Absent for live runs.
struct TraceSource {
  std::string path;                  // the trace file as given on the command line
  std::string format = "kineto";     // a PyTorch-profiler (Kineto) Chrome trace
  bool compressed = false;           // gzip
  std::uint64_t file_bytes = 0;      // size on disk
  std::uint64_t json_bytes = 0;      // size of the (uncompressed) JSON
  std::uint64_t events = 0;          // entries of traceEvents
  std::uint64_t events_kept = 0;     // became GPU ops, launch/sync calls or iteration windows
  std::uint64_t events_ignored = 0;  // categories the split does not use (cpu_op, python_function, ...)
  std::vector<EventCount> events_ignored_by_category;  // those by category, sorted ("" for none)
  std::uint64_t events_skipped = 0;  // unusable (missing fields, unknown category): warned about
  IterationSource iterations_from = IterationSource::profiler_steps;
  std::int64_t read_ns = 0;          // ohprof's time to read and parse the file
  std::optional<DistributedInfo> distributed;  // the trace's distributedInfo, when it has one (docs/ranks.md)
};

struct Report {
  ReportKind kind = ReportKind::run;
  std::optional<TraceSource> trace;  // set when the data came from a trace file (`analyze`)
  RunContext context;
  RunConfig config;
  std::vector<PathResult> paths;
  std::vector<KernelSetDiff> kernel_diffs;  // kernel-set diffs between paths (compare / analyze)
  std::optional<ArtifactSummary> artifacts;  // compare
  std::vector<PathRatio> ratios;             // compare: the fastest path against each other path
  std::vector<GapExplanation> explanations;  // compare: why each path is slower than the fastest
  StopReason stop_reason;                    // compare: why measurement stopped (all paths together)
  std::optional<CodeDump> code_dump;         // --dump-code: where the generated code went (docs/code-dump.md)
  std::optional<WhatIfLedger> what_if;       // compare --what-if: what each compile setting buys (what_if.hpp)
  std::optional<DeploymentSummary> deployment;  // compare: which path to deploy (deployment.hpp)
  bool interrupted = false;
  std::vector<Warning> warnings;
};

// The path's execution check says it ran uncompiled code (execution_check.hpp, ran_uncompiled); false
// without a check.
bool ran_uncompiled(const PathResult& path);

// Context fields that are the same for every report of this build and process
// (version, sha, CUDA/CUPTI versions, argv, date, hostname). The device and torch
// fields are filled by the path that ran.
RunContext make_base_context(const std::vector<std::string>& argv);

// "2026-11-30T07:00:00Z" for the current time.
std::string utc_timestamp_now();

}  // namespace ohprof
