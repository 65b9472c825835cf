// `ohprof run`: one AOTI package, a timing pass without any activity collector, then a split pass with
// one (docs/metrics.md, "The split pass and its cost").
#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "ohprof/model/path_kind.hpp"
#include "ohprof/analysis/execution_check.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/harness/nvtx_ranges.hpp"
#include "ohprof/output/report_output.hpp"
#include "ohprof/session/session.hpp"
#include "session_steps.hpp"

namespace ohprof {

SessionOutcome measure_path(const MeasureOptions& options, const Runtime& runtime) {
  if (options.warmup < 0) return {std::nullopt, make_error(ExitCode::usage_error, "--warmup must be 0 or more")};
  if (options.runs < 1) return {std::nullopt, make_error(ExitCode::usage_error, "--runs must be at least 1")};
  if (!options.dump_code_dir.empty()) {
    if (Status dir = check_dump_dir(options.dump_code_dir); !dir.ok()) return {std::nullopt, dir};
  }
  if (options.split_runs < 0) {
    return {std::nullopt, make_error(ExitCode::usage_error, "--split-runs must be 0 (default) or more")};
  }
  AotiLoadOptions load_options;
  load_options.package_path = options.aoti_package;
  load_options.seed = options.seed;
  load_options.device = options.device;
  load_options.inputs = options.inputs;
  std::string inputs_digest;  // --inputs: the file's, for the report
  if (!options.inputs_file.empty()) {
    if (!runtime.load_inputs_file) {
      return {std::nullopt, make_error(ExitCode::usage_error, "this ohprof cannot read --inputs files (built without Python)")};
    }
    auto loaded = runtime.load_inputs_file(options.inputs_file);
    if (!loaded.ok()) return {std::nullopt, loaded.error()};
    load_options.inputs = loaded->specs;
    load_options.tensors = loaded->tensors;
    inputs_digest = loaded->digest;
  }
  Report report;
  report.kind = ReportKind::run;
  report.config.warmup = options.warmup;
  report.config.runs = options.runs;
  report.config.seed = options.seed;
  report.config.inputs_file = options.inputs_file;
  report.config.inputs_file_digest = inputs_digest;
  for (const auto& spec : options.inputs) report.config.inputs.push_back(input_spec_text(spec));
  if (!std::filesystem::exists(options.aoti_package)) {
    return {std::nullopt, make_error(ExitCode::file_not_found,
                                     fmt::format("AOTI package '{}' does not exist; check the path, or export one "
                                                 "with torch._inductor.aoti_compile_and_package",
                                                 options.aoti_package))};
  }

  report.context = make_base_context(options.argv);
  const TorchRuntimeInfo torch_info = runtime.torch_info();
  report.context.torch_version = torch_info.torch_version;
  report.context.cpu_threads = torch_info.intra_op_threads;

  auto runner = runtime.load_aoti(load_options);
  if (!runner.ok()) {
    return {std::nullopt, runner.error().with_context(fmt::format("loading AOTI package '{}'", options.aoti_package))};
  }
  AotiRunner& model = **runner;
  report.context.device = model.device();
  report.config.inputs.clear();
  for (const auto& spec : model.inputs()) report.config.inputs.push_back(input_spec_text(spec));
  for (const auto& warning : model.warnings()) add_warning(report, warning);

  PathResult path;
  path.name = to_string(PathKind::aoti);
  path.source = PathSource::aoti_package;
  path.artifact = options.aoti_package;
  path.load_ns = model.build_ns();
  NvtxRanges nvtx(path.name);
  console::progress(fmt::format("measuring {} on {}: {} warm-up + {} measured iterations", path.name,
                                to_string(report.context.device.type), options.warmup, options.runs));
  // Pass 1: the headline wall times, with no activity collector (NVTX ranges only, ~ns each): compare's
  // timing pass with one path and a fixed count (its errors name no path: "iteration 3: ...").
  // The execution check: LibTorch's C++ loader runs the package's compiled code and nothing else (no
  // Dynamo, nothing compiles while measured); what is left to say is where the outputs are.
  const ExecutionFacts facts = model.execution_facts();
  const auto fill = [&](PathResult& into, const InterleavedResult& measured) {
    const InterleavedPathResult& one = measured.paths.front();
    into.warmup_ns = one.warmup_ns;
    into.wall_ns = one.wall_ns();
    into.wall = summarize_ns(into.wall_ns);
    into.run_queue = one.run_queue;
    // A fixed count ends when its iterations are measured, unless an error or Ctrl-C ended it first.
    const StopCode code = measured.stop_reason.code;
    into.stop_reason = code == StopCode::error || code == StopCode::interrupted ? measured.stop_reason
                                                                                : StopReason{StopCode::runs_reached};
    into.execution = check_timing_pass(facts, {}, into.wall_ns.size());
  };
  InterleavedPath timed;
  timed.iteration = [&] { return model.run_once(); };
  timed.observers = {&nvtx};
  InterleavedResult measured;
  Status loop_status = measure_timing_pass(
      {timed}, AdaptiveStopping::fixed(options.warmup, options.runs, INFINITY, 1), options.checkpoint_path,
      [&](const InterleavedResult& so_far) {
        Report partial = report;
        fill(partial.paths.emplace_back(path), so_far);
        return partial;
      },
      measured);
  fill(path, measured);
  report.interrupted = measured.interrupted;

  // Pass 2: the same iterations with the activity collector on, for the device-time split: compare's
  // split pass with one path.
  report.paths.push_back(std::move(path));
  Status trace_status = ok_status();  // --export-trace's
  if (loop_status.ok() && !measured.interrupted) {
    SplitPassOptions split;
    split.device = report.context.device.type;
    split.no_cupti = options.no_cupti;
    split.runs = options.split_runs > 0 ? options.split_runs : std::min(options.runs, 100);
    split.export_trace = options.export_trace;
    InterleavedPath one;
    one.name = report.paths.back().name;
    one.iteration = [&] { return model.run_once(); };
    one.observers = {&nvtx};
    std::vector<std::vector<IterationWindow>> split_windows;
    trace_status = measure_split_pass(report, {one}, split, runtime, split_windows);
  } else {
    console::progress(std::string("device split unavailable: ") + kSplitStoppedReason);
    trace_status = no_split(report, kSplitStoppedReason, options.export_trace);
  }
  // After measuring, never inside it (docs/code-dump.md).
  Status dump_status = ok_status();
  if (!options.dump_code_dir.empty() && !report.paths.back().wall_ns.empty() && !report.interrupted) {
    dump_status = dump_code(report, {PathDumpSource{report.paths.size() - 1, options.aoti_package, false}}, nullptr,
                            options.dump_code_dir, runtime);
  }

  // A failure before the first measured iteration leaves nothing to report.
  if (!loop_status.ok() && report.paths.back().wall_ns.empty()) return {std::nullopt, loop_status};
  if (loop_status.ok()) add_sample_hints(report, /*name_the_path=*/false);
  return measured_outcome(std::move(report), loop_status, trace_status, dump_status);
}

}  // namespace ohprof
