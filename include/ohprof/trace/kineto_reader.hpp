#pragma once
// Reads a PyTorch-profiler (Kineto) Chrome-trace JSON file, plain or gzip-compressed, into the plain
// Timeline records the analysis uses (timeline.hpp). The file is parsed as a stream (SAX): memory is
// bounded by the records kept (GPU operations, launch and sync calls, ProfilerStep windows), not by the
// file's size. What is read, how iterations are found and which warnings exist: docs/analyze.md.
//
// Timestamps: the trace's `ts`/`dur` are microseconds written as decimal text, with up to three
// decimals in nanosecond-resolution traces. They are converted from their text to integer nanoseconds
// without floating point, so 123456.789 us is exactly 123456789 ns.
#include <cstdint>
#include <optional>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "ohprof/base/error.hpp"
#include "ohprof/model/distributed.hpp"
#include "ohprof/model/report.hpp"
#include "ohprof/model/timeline.hpp"
#include "ohprof/model/warning.hpp"

namespace ohprof {

// How the trace's events were used. Every entry of `traceEvents` lands in exactly one of
// kept, ignored or (counters.skipped_events) skipped.
struct KinetoReadStats {
  std::uint64_t events = 0;          // entries of traceEvents
  std::uint64_t kept = 0;            // became a DeviceOp, LaunchCall, SyncCall or IterationWindow
  std::uint64_t ignored = 0;         // known but unused here: cpu_op, python_function, flows, metadata, ...
  std::uint64_t unknown_category = 0;  // skipped: a category Kineto does not write (also in skipped_events)
  std::uint64_t invalid = 0;           // skipped: an event ohprof needs with a field missing or malformed
  std::uint64_t json_bytes = 0;      // size of the (uncompressed) JSON text
  std::uint64_t file_bytes = 0;      // size of the file as stored
  bool compressed = false;           // the file was gzip
  std::vector<EventCount> ignored_by_category;  // the ignored events by category, sorted ("" for none)
};

struct KinetoTrace {
  Timeline timeline;                     // ops, launches, syncs and windows sorted by start time
  bool iterations_from_profiler_steps = false;  // false: one window spans all CUDA activity
  std::vector<Warning> warnings;         // skipped events, missing launches, clipped steps
  std::string device_name;               // deviceProperties name of the GPU the ops ran on ("" if unknown)
  std::int32_t device_index = -1;        // that GPU's index; -1 when ops ran on several GPUs or none known
  bool accelerator_ops = false;          // the ops are another accelerator's (MTIA's), not CUDA's or ROCm's
  // Which runtimes' calls (launches, syncs or any other) the trace holds: what says the device where the ops
  // do not (trace_device_kind).
  struct Runtimes {
    bool cuda = false;  // cuda_runtime / cuda_driver (CUDA's and ROCm's HIP calls)
    bool xpu = false;   // xpu_runtime (Intel's)
    bool mtia = false;  // mtia_runtime
  } runtimes;
  std::int64_t recorded_start_ns = 0;    // earliest timestamp in the trace (ProfilerStep windows excluded)
  std::int64_t recorded_end_ns = 0;      // latest event end in the trace (ProfilerStep windows excluded)
  std::int64_t max_numeric_pid = 0;      // largest integer `pid` seen, so an exporter can pick an unused one
  // The root's `distributedInfo` object (rank, world_size, backend), when the trace has one.
  std::optional<DistributedInfo> distributed;
  KinetoReadStats stats;
};

// The device a trace ran on, as a report names it (docs/analyze.md, "The device"): cpu with no device work
// (nor a launch or an unread device event), or when the ops are ohprof's CPU kernels; accelerator when the
// ops are MTIA's, when MTIA's runtime is the only one called, or when the only device events are ones ohprof
// does not read; xpu when the xpu_runtime is called and CUDA's is not; cuda otherwise (CUDA's and ROCm's, as
// PyTorch names both).
DeviceKind trace_device_kind(const KinetoTrace& trace);

// How the JSON is tokenized. `window` (the default) reads each event of the usual shape whole from the
// parser's buffer in one pass, and anything else through the general streaming parser; `general` reads
// everything through the general parser. Both give the same trace and the same errors (the tests and the
// fuzz target compare them); `general` is there to check that, and to time the difference.
enum class JsonReading { window, general };

// Reads and parses a trace file. Errors: file_not_found (cannot open), invalid_trace (truncated or
// corrupt gzip, not JSON, no traceEvents). A trace with no GPU operations is read (its verdict says
// "no device work").
Result<KinetoTrace> read_kineto_trace(const std::string& path, JsonReading reading = JsonReading::window);

// Parses trace JSON from any stream buffer; `label` names the source in error messages.
Result<KinetoTrace> parse_kineto_trace(std::streambuf& input, const std::string& label,
                                       JsonReading reading = JsonReading::window);

// Parses trace JSON held in memory (tests, small inputs).
Result<KinetoTrace> parse_kineto_trace_text(std::string_view json, const std::string& label = "<text>",
                                            JsonReading reading = JsonReading::window);

// Converts a decimal number of microseconds as written in JSON ("17", "123456.789", "-2.5",
// "1.5e3") to integer nanoseconds, without floating point. Exact to three decimals; further decimals
// are rounded to the nearest nanosecond, halves away from zero. nullopt when the text is not a JSON
// number or the result does not fit in 64 bits.
std::optional<std::int64_t> microseconds_text_to_ns(std::string_view text);

// The launch kind of a CUDA runtime/driver API name (cudaLaunchKernel, cuLaunchKernelEx,
// cudaGraphLaunch, cudaMemcpyAsync, cudaMemsetAsync, ...; "_ptsz"/"_ptds" and "_v<N>" suffixes are
// ignored); nullopt when the call does not enqueue device work.
std::optional<LaunchKind> launch_kind_of_api(std::string_view name);

// True for host calls that wait for the device (cudaDeviceSynchronize, cudaStreamSynchronize,
// cudaEventSynchronize and their driver-API forms).
bool is_sync_api(std::string_view name);

// An MTIA device event (category mtia_ccp_events) by its name (docs/analyze.md, "What is read"): a copy
// (dma_request), an event record or wait (event_record, event_wait: no work), or else a kernel (Kineto
// files the category as on-device kernels; they are named by their operator, "aten::mul.out-dtype_Float",
// or by the job, "pe_exe", "remote", "merge").
enum class MtiaDeviceEvent { kernel, copy, marker };
MtiaDeviceEvent mtia_device_event(std::string_view name);

// An MTIA runtime call (category mtia_runtime) by its name: runFunction... launches a kernel,
// "enqueueCommand memcpy..." a copy; synchronize and synchronizeStream wait; other enqueueCommand calls
// and recordEvent are other runtime calls; anything else is a stage of the runtime that wraps these
// calls (gif_merge, predictor_executor::run ...), not read.
enum class MtiaRuntimeCall { kernel_launch, copy_launch, sync, api, stage };
MtiaRuntimeCall mtia_runtime_call(std::string_view name);

}  // namespace ohprof
