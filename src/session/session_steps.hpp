#pragma once
// Steps that `run` and `compare` share (private to the session layer).
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "ohprof/collectors/split_collector.hpp"
#include "ohprof/base/error.hpp"
#include "ohprof/harness/interleaved_loop.hpp"
#include "ohprof/harness/path_runner.hpp"
#include "ohprof/model/device_request.hpp"
#include "ohprof/model/input_spec.hpp"
#include "ohprof/model/report.hpp"
#include "ohprof/session/runtime.hpp"
#include "ohprof/session/session.hpp"

namespace ohprof {

// A path's split when the measurement stopped before the split pass.
// The model `compare` and `sweep` measure when none is given, and its input.
inline constexpr const char* kDefaultModel = "torchvision.models:resnet18";
inline const InputSpec kDefaultInput{{1, 3, 224, 224}, DType::float32};

// compare's checks of its options (usage errors, missing files), before any model is opened; `sweep`
// makes them once for all its points.
struct CompareOptions;
Status validate_compare_options(const CompareOptions& options);
// The device compare measures on: cuda (cuda:0 only) when asked for or, with auto, when present.
Result<DeviceKind> resolve_compare_device(const DeviceRequest& request, const TorchRuntimeInfo& torch_info);
// With neither --model nor --exported: the default model, and its input when none is given.
void apply_default_model(CompareOptions& options);

// The timing pass (docs/metrics.md, "Interleaving", "Stopping"), `run`'s and `compare`'s (timing_pass.cpp):
// `paths` interleaved under `stopping`, with NVTX ranges only, into `measured` (what was measured stays
// there after an error or Ctrl-C too). With a report file (`checkpoint_path`, --export-json) the report
// that `report_of` makes from what was measured so far is rewritten as a checkpoint (checkpoint.hpp):
// about once a second while measuring, each path's stop_reason in progress, and once when the pass ended
// well, before the split pass; every path's split pending. Returns the loop's status.
Status measure_timing_pass(const std::vector<InterleavedPath>& paths, const AdaptiveStopping& stopping,
                           const std::string& checkpoint_path,
                           const std::function<Report(const InterleavedResult&)>& report_of,
                           InterleavedResult& measured);

// Warm-up iterations of the split pass, under tracing, before it counts: CUPTI instruments kernels
// lazily, and a CUDA graph captured before tracing started is instrumented at its first replay, so the
// first traced iterations are slower (docs/cupti.md, "Warm-up under tracing").
inline constexpr int kSplitWarmups = 3;

inline constexpr const char* kSplitStoppedReason = "measurement stopped before the split pass";

// The split pass (docs/metrics.md, "The split pass and its cost"), `run`'s and `compare`'s (split_pass.cpp): every path of
// `paths` (report.paths' order) again, interleaved, kSplitWarmups then exactly `runs` iterations each
// (AdaptiveStopping::fixed), with one activity collector for all of them (path p's iteration i tagged
// p * kIterationsPerPath + i). The collection is split per path and analysed into report.paths
// (attach_split); kernel sets are diffed against the first path; each path's collector cost is the
// ratio of this pass's median wall time to the timing pass's. A collector that is unavailable, a pass
// that fails, or a collection that cannot be read leaves every path's split_unavailable_reason set.
// `split_windows` gets each path's measured windows (for the execution check). Returns --export-trace's
// status (ok without it).
struct SplitPassOptions {
  DeviceKind device = DeviceKind::cpu;
  bool no_cupti = false;
  int runs = 100;
  double time_limit_s = std::numeric_limits<double>::infinity();
  int block = 10;
  std::string export_trace;  // --export-trace FILE; "" none
  bool kernel_profile = false;  // compare --kernel-profile: Inductor's CPU kernels record themselves
};
Status measure_split_pass(Report& report, const std::vector<InterleavedPath>& paths, const SplitPassOptions& options,
                          const Runtime& runtime, std::vector<std::vector<IterationWindow>>& split_windows);

// Analyses the split pass's records of one path (`timeline`, its iterations first..last of the
// collection) into `path`: the breakdown, the collector and its cost against the timing pass, and, for
// an AOTI package on the CPU collector, which kernels of its generated code were seen; raises the
// warnings the analysis counters call for.
// --export-trace (run, compare): the split pass's timeline as a Chrome trace (trace_export.hpp), its
// host process named for the command and model, its iterations for the report's paths. Errors:
// output_error.
Status export_split_timeline(const Report& report, const std::vector<std::string>& path_names, const Timeline& timeline,
                             const std::string& path);
// --export-trace when the split pass did not run: an output_error saying why no trace was written; after
// Ctrl-C (`report.interrupted`) a trace-not-written warning instead, so that the exit code stays 130.
Status no_trace_to_export(Report& report, const std::string& path, const std::string& reason);
// No split for any path of the report, and why: each path's split_unavailable_reason, then --export-trace's
// status (no_trace_to_export; ok without one).
Status no_split(Report& report, const std::string& reason, const std::string& export_trace);

// `kernel_profile`: compare built its compiled paths with --kernel-profile, so that Inductor's CPU kernels
// record themselves (kernels_unrecorded sets the timeline's flag before the analysis).
void attach_split(Report& report, PathResult& path, const SplitCollection& collection, Timeline timeline,
                  const std::vector<std::int64_t>& split_wall_ns, const Runtime& runtime, bool kernel_profile,
                  std::int64_t first_iteration, std::int64_t last_iteration);

// How `run` and `compare` end (the status precedence): a measurement that failed keeps what it measured,
// with a stopped-early warning, and its error is the one reported; else --export-trace's error, then
// --dump-code's; else the report alone.
SessionOutcome measured_outcome(Report report, const Status& measured, const Status& trace, const Status& dump);

// hyperfine's hints from the samples: a slow first run, outliers; and the cores-busy warning (path_stats.hpp).
// `compare` names the path in each.
void add_sample_hints(Report& report, bool name_the_path);

// --dump-code DIR, after measuring (docs/code-dump.md). For each source, DIR/<folder>/ (dump_folder_name
// of the path's name): the AOTI package's generated code (`package` set), the Python side's graph, code
// and compile trace (`python` set: ModelSession::dump_code and, for compiled paths, trace_compile), and
// kernels.json (the split's kernels joined to their places in that code, the first iteration's call
// sequence); then DIR/index.html, all paths side by side. The dump is recorded in report.code_dump. What
// cannot be had (no split, a package this build cannot read, a piece the Python side could not make) is
// a note there and a code-dump-incomplete warning; output_error when DIR cannot be written.
struct PathDumpSource {
  std::size_t path = 0;  // index into report.paths
  std::string package;   // the AOTI package whose code to copy; "" : none
  bool python = false;   // the Python side dumps the path's graph (and code, and trace)
};
Status dump_code(Report& report, const std::vector<PathDumpSource>& sources, ModelSession* python,
                 const std::string& dir, const Runtime& runtime);
// compare --threads (docs/metrics.md, "Concurrent callers"), after every timed pass: for each asked path
// (role path) `runners[i]` of report.paths[i], the largest count's callers, made once; a warm-up burst of
// each (count, path), then kThreadRounds rounds, each a burst of every (count, path), the paths' order
// rotated by one each round. Fills report.paths[i].concurrency; a path whose callers cannot be made or
// fail has `unavailable` set, the others go on. `compile_events` counts the session's compile events, to
// warn when the pass compiled.
void measure_threads(Report& report, const std::vector<PathRunner*>& runners, const std::vector<int>& counts,
                     const ConcurrencyContext& context, const std::function<std::size_t()>& compile_events);

// Before measuring: output_error when --dump-code DIR (or a folder above it) is a file, so that a dump
// that could never be written does not wait for the whole measurement to say so.
Status check_dump_dir(const std::string& dir);

// compare --cold-start N (docs/metrics.md, "Cold start"), after every other pass: for each asked path (role
// path), N fresh processes per cache state (none; cold, warm and artifacts for a torch.compile path;
// cold and warm for aoti:python), each started with `setup.command` and its own Inductor cache folder
// under `work_dir`, in rounds: every (path, state) once a round, their order rotated by one each round. A
// path with a warm state first gets one unkept "fill" process that fills its warm cache folder and saves
// its portable artifacts. Fills
// report.paths[i].cold_start; a state whose process fails keeps its first failure and starts no more.
inline constexpr double kColdStartProcessLimitS = 1800;
void measure_cold_start(Report& report, const ColdStartSetup& setup, int processes, const std::string& work_dir);
// A path whose fresh process starts from the model's module (eager, torch.compile), not from the AOTI package;
// and whether the report asks one (ModelSession::cold_start_setup's `with_module`).
bool starts_from_module(const std::string& path);
bool cold_start_needs_module(const Report& report);
// A fresh folder for the processes' files and caches (the caller removes it); "" when none can be made.
std::string make_cold_start_dir();

}  // namespace ohprof
