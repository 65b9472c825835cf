#pragma once
// A fake Runtime for the session tests (test/session/*_test.cpp): the vendor adapters' interfaces
// (include/ohprof/runtimes/*.hpp, include/ohprof/collectors/split_collector.hpp) played by scripts, so
// that measure_path and compare_paths run without LibTorch, CPython or a collector, and every number
// they report follows from the script by hand.
//
// One FakeWorld per test: it holds the scripts (what each fake does) and the logs (what the session
// asked of them, in order), and `runtime()` hands the session std::functions that point into it. The
// world must outlive the session call.
//
// Times: the session measures on the real monotonic clock (it offers no clock to inject), so a fake
// iteration that must take time spins on that clock for the scripted duration; one that need not
// returns at once. The split pass's Timeline is built by hand from the windows the session gives
// finish(): per iteration, at fixed offsets from the window start, one launch call and one kernel per
// scripted kernel name (kLaunchOffsetNs, ...), so the split of an iteration is known exactly whatever
// the real durations were.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "ohprof/model/report.hpp"
#include "ohprof/model/stop_reason.hpp"
#include "ohprof/model/warning.hpp"
#include "ohprof/session/runtime.hpp"
#include "ohprof/session/session.hpp"

namespace ohprof {

// What the fakes' tensors are: the name of the path whose first call made them. (The real bundle is
// LibTorch's, src/runtimes/torch_tensors.hpp; this test binary links no runtime.)
struct TensorBundle {
  std::string made_by;
};

namespace fake {

// The hand-built split of one iteration with kernels k = 0, 1, ... (window start S):
//   launch call k: [S + kLaunchOffsetNs + k * kKernelStepNs, ... + kLaunchNs]
//   kernel k:      [S + kKernelOffsetNs + k * kKernelStepNs, ... + kKernelNs] on stream kStream
// e.g. one kernel: busy 20 us, device-wait 7 us (the kernel pending from its launch's return at 3 us
// until it starts at 10 us), host-bound wall - 27 us, launch API 2 us (exposed), queue delay 7 us;
// two kernels: busy 40 us, device-wait 14 us, host-bound wall - 54 us (3 us of it between kernel 0's
// end at 30 us and launch 1's return at 33 us), launch API 4 us. Iterations must last at least 30 us per kernel for nothing to spill.
inline constexpr std::int64_t kLaunchOffsetNs = 1'000;
inline constexpr std::int64_t kLaunchNs = 2'000;
inline constexpr std::int64_t kKernelOffsetNs = 10'000;
inline constexpr std::int64_t kKernelNs = 20'000;
inline constexpr std::int64_t kKernelStepNs = 30'000;
inline constexpr std::int64_t kStream = 7;

// One fake path runner (the AOTI package's, or a Python path's).
struct RunnerScript {
  std::int64_t build_ns = 0;
  // How long call n of run_once takes (n counts this runner's calls from 0: warm-ups and both passes).
  // Empty: every call returns at once.
  std::function<std::int64_t(int call)> duration_ns;
  int fail_on_call = -1;  // this call (same numbering) returns a model_error "boom at call n"
  std::optional<Error> build_error;  // Python paths: make_python_path fails with this
  PathSource source = PathSource::module;  // what source() says
  // Calls (same numbering) inside which the framework "compiles": each logs a dynamo-compile event
  // (compile id "0/<call>", reason "fake guard <call>") spanning the call, in FakeWorld::compile_events.
  std::set<int> compile_on_calls;
  ExecutionFacts facts;  // what execution_facts() says
  // What compiled_call() says: a result, or why there is none (with its error); neither: no probe, as a
  // path without one.
  std::optional<CompiledCall> compiled_call;
  std::optional<ProbeUnknown> probe_unknown;
  std::string probe_error;
  // compare --threads: each thread caller's call spins this long (a Python path's holding the fake GIL,
  // FakeThreads::gil, so that its callers take turns); thread_caller() fails with `thread_caller_error`.
  std::int64_t thread_call_ns = 0;
  std::optional<Error> thread_caller_error;
  // On the fake CUDA device (FakeWorld::device_memory): bytes the build allocates and keeps (and, only
  // for a while during it, `device_build_transient`), bytes it takes outside the allocator (an AOTI
  // package's constants), bytes each call allocates and frees, and the private (CUDA-graph) pool bytes
  // its first call reserves.
  std::int64_t device_build_bytes = 0;
  std::int64_t device_build_transient = 0;
  std::int64_t device_outside_bytes = 0;
  std::int64_t device_call_bytes = 0;
  std::int64_t device_pool_bytes = 0;
};

// A fake CUDA device's caching allocator and driver (Runtime::read_device_memory), changed by the fake
// runners as their scripts say.
struct FakeDeviceMemory {
  DeviceMemoryReading state{0, 0, 0, 0, 0};  // private_pool_bytes and used_bytes always set
  bool fail = false;                         // every reading is null (the allocator cannot be read)
  std::vector<std::pair<int, bool>> reads;  // (index, reset_peak) of each read_device_memory call
  void allocate(std::int64_t bytes);        // allocated, reserved (the cache grows to fit) and used
  void free(std::int64_t bytes);            // allocated only: the allocator keeps the memory
};

// What the fake thread callers did (shared by the threads of compare --threads, hence its mutex).
struct FakeThreads {
  std::mutex mutex;
  std::mutex gil;                                   // the Python paths' callers hold it while they spin
  std::map<std::string, int> callers;               // thread_caller() calls per path
  std::map<std::string, int> calls;                 // call() calls per path
  std::map<std::string, int> begins;                // begin() calls per path
  std::map<std::string, int> ends;
  std::map<std::string, std::set<std::thread::id>> threads;  // the threads that called, per path
};

// The split collector.
struct CollectorScript {
  bool available = true;  // false: observer() is null
  std::string unavailable_reason = "fake: no activity collector on this machine";
  CollectorKind kind = CollectorKind::cupti;  // kind() and SplitCollection::collector
  std::vector<Warning> warnings;  // SplitCollection::warnings
  std::optional<Error> finish_error;  // finish() fails with this
  // The kernels every iteration of path p runs (the window's index / kIterationsPerPath; `run` has path
  // 0 only); paths past the end run the last entry's.
  std::vector<std::vector<std::string>> kernels_per_path = {{"gemm"}};
  std::vector<CpuEvent> cpu_events;  // SplitCollection::cpu_events
};

struct ObserverEvent {
  enum class Kind { measurement_begin, iteration_begin, iteration_end, measurement_end };
  Kind kind;
  std::int64_t index = -1;
  bool warmup = false;
  int runner_calls = 0;  // FakeWorld::calls when it happened
};

struct CheckCall {
  std::string reference_name;
  std::string reference_made_by;
  std::string outputs_made_by;
};

struct AttributionCall {
  std::string package_path;
  std::size_t events = 0;
  std::int64_t first_iteration = 0;
  std::int64_t last_iteration = 0;
};

class FakeWorld {
 public:
  // --- scripts ---
  TorchRuntimeInfo torch{"2.9.0+fake", false, 0, 3};
  std::string cupti_version = "fake-cupti-13";
  std::string cupti_library = "/fake/libcupti.so.13";
  // the AOTI runner (load_aoti)
  RunnerScript aoti;
  DeviceDescription aoti_device{DeviceKind::cpu, -1, "Fake CPU 9000"};
  std::vector<InputSpec> aoti_inputs{InputSpec{{4, 16}, DType::float32}};
  std::vector<Warning> aoti_warnings;
  std::optional<Error> load_error;
  // the model session (open_model); `with_python = false` leaves Runtime::open_model empty
  bool with_python = true;
  std::optional<Error> open_error;
  // when set and it returns an error, open_model fails with it (per call: `sweep` opens once a point)
  std::function<std::optional<Error>(const ModelSessionOptions&)> open_fails;
  // sweep --inputs (Runtime::inputs_file_specs): the file's tensors and digest, or an error; each call's
  // path is logged; `with_inputs_files = false` leaves the Runtime without it
  std::vector<InputSpec> file_specs{InputSpec{{3, 16}, DType::float32}, InputSpec{{3, 5}, DType::int64}};
  std::string file_digest = "d1g3st";
  bool with_inputs_files = true;
  std::optional<Error> file_error;
  std::vector<std::string> file_reads;
  // the sweep's page (render_sweep_page): set `with_page` for the Runtime to have one; `page_error`
  // makes every call fail
  bool with_page = false;
  std::optional<Error> page_error;
  ArtifactSummary artifacts{"", "/fake/model.ep.pt2", "/fake/model.aoti.pt2", true, std::nullopt, std::nullopt};
  std::vector<InputSpec> input_specs{InputSpec{{4, 16}, DType::float32}};
  std::map<std::string, RunnerScript> python;  // by path name; a name not here gets a default script
  std::set<std::string> outputs_differ;        // paths whose output check fails
  // --dump-code's Python side (ModelSession::dump_code / trace_compile): per path name, the files it
  // writes into the path's folder (name relative to it, text) and lists as generated code; its notes; an
  // error instead. Paths not here write graph.py only.
  std::map<std::string, std::vector<SourceFile>> dumped_code;
  std::vector<std::string> dump_notes;     // every dump_code call's notes
  std::optional<Error> dump_error;         // every dump_code call fails with this
  // Runtime::read_device_memory: set for it to exist (a CUDA build); the runners change it
  std::optional<FakeDeviceMemory> device_memory;
  // the collector and the kernel attribution
  CollectorScript collector;
  Result<PackageAttribution> attribution = PackageAttribution{};

  // --- logs ---
  int calls = 0;                                   // run_once calls of every runner together
  std::map<std::string, int> calls_by_path;        // run_once calls per runner name
  std::map<std::string, int> enters;               // enter() calls per runner name
  std::map<std::string, int> probes;               // compiled_call() probes per runner name
  std::vector<std::string> built;                  // runner names, in the order they were made
  std::vector<AotiLoadOptions> loads;
  std::vector<ModelSessionOptions> opens;
  std::vector<std::pair<std::string, std::string>> pages;  // (report, page) of each render_sweep_page call
  std::vector<SplitCollectorOptions> collector_starts;
  std::vector<ObserverEvent> observed;             // what the collector's observer was told
  std::vector<std::vector<IterationWindow>> finished;  // the iterations given to each finish()
  std::vector<CheckCall> checks;
  std::vector<CompileEvent> compile_events;        // what ModelSession::compile_events() returns
  // ... and as many more events once any thread caller has called (compare --threads)
  int compile_events_during_threads = 0;
  // compare --cold-start: ModelSession::cold_start_setup hands out test/session/fake_cold_start_child.py,
  // which appends "PATH CACHE CACHE_DIR PID" to `launches` for each process, sleeps `compile_ms` in a
  // compile path's first call unless its cache folder (or artifacts file) was filled, and fails or
  // reports a differing output for the paths named.
  struct ColdStartScript {
    std::string launches;                 // the log file (the test's)
    std::set<std::string> fail;           // paths whose every process fails
    std::set<std::string> differ;         // paths whose first output differs from the reference
    std::set<std::string> no_memory;      // paths whose processes cannot read their memory
    int compile_ms = 300;
    std::string artifacts_unavailable;    // what cold_start_setup says of the portable artifacts
    std::string module_unavailable;       // and of a model object that cannot be pickled
    std::optional<Error> setup_error;     // cold_start_setup fails with this
  } cold_start;
  std::vector<std::string> cold_start_dirs;  // each cold_start_setup call's folder
  std::vector<bool> cold_start_with_module;  // and whether a path that starts from the module was asked
  std::vector<AttributionCall> attributions;
  // "dump_code <path>" / "trace_compile <path>" with the run_once calls made by then
  std::vector<std::pair<std::string, int>> dumps;
  std::shared_ptr<FakeThreads> threads = std::make_shared<FakeThreads>();

  // The Runtime the session gets: every member set (open_model only with `with_python`).
  Runtime runtime();

  // The observer's iteration_begin events (index, warmup), in order.
  [[nodiscard]] std::vector<std::pair<std::int64_t, bool>> iteration_begins() const;
};

// The Timeline the fake collector's finish() returns for these windows (see the offsets above).
Timeline fake_timeline(const std::vector<IterationWindow>& windows,
                       const std::vector<std::vector<std::string>>& kernels_per_path);

// Spins on the monotonic clock for `ns` nanoseconds.
void spin_for_ns(std::int64_t ns);

// A fresh empty folder under the system's temporary folder.
std::string make_temp_dir(const std::string& tag);
// An existing file (the fake AOTI package: the session checks that it exists, the fakes never read it).
std::string make_temp_file(const std::string& tag, const std::string& name);
std::string read_text(const std::string& path);

// The report's warnings: their messages and their codes, in order; whether one contains `part` (any
// code), and whether one of code `code` contains `part`.
std::vector<std::string> warning_texts(const Report& report);
std::vector<WarningCode> warning_codes(const Report& report);
bool has_warning_containing(const Report& report, const std::string& part);
bool has_warning(const Report& report, WarningCode code, const std::string& part);

}  // namespace fake

// How gtest prints the typed state in failure messages (found by argument-dependent lookup).
inline void PrintTo(WarningCode code, std::ostream* os) { *os << to_string(code); }
inline void PrintTo(const Warning& warning, std::ostream* os) {
  *os << "{" << to_string(warning.code) << ", \"" << warning.message << "\"}";
}
void PrintTo(const StopReason& reason, std::ostream* os);  // its text (output/report_text.hpp)
inline void PrintTo(ReportKind kind, std::ostream* os) { *os << to_string(kind); }
inline void PrintTo(DeviceKind kind, std::ostream* os) { *os << to_string(kind); }
inline void PrintTo(CollectorKind kind, std::ostream* os) { *os << "\"" << to_string(kind) << "\""; }
inline void PrintTo(IterationSource source, std::ostream* os) { *os << to_string(source); }
}  // namespace ohprof
