// `ohprof compare`: one model through several deployment paths in one process, interleaved
// (docs/metrics.md, "Interleaving", "Stopping", "Output check").
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ohprof/model/path_kind.hpp"
#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/analysis/deployment.hpp"
#include "ohprof/analysis/execution_check.hpp"
#include "ohprof/analysis/explanation.hpp"
#include "ohprof/analysis/path_stats.hpp"
#include "ohprof/analysis/what_if.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/base/cpu_info.hpp"
#include "ohprof/base/interrupt.hpp"
#include "ohprof/base/process_memory.hpp"
#include "ohprof/harness/nvtx_ranges.hpp"
#include "ohprof/output/report_output.hpp"
#include "ohprof/output/report_text.hpp"
#include "ohprof/session/session.hpp"
#include "session_steps.hpp"

namespace ohprof {
namespace {

std::string default_cache_dir() {
  if (const char* dir = std::getenv("OHPROF_CACHE"); dir != nullptr && dir[0] != '\0') {
    return std::string(dir) + "/artifacts";
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] != '\0') {
    return std::string(xdg) + "/ohprof/artifacts";
  }
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr ? home : "/tmp") + "/.cache/ohprof/artifacts";
}

// The explanations of the measured report (docs/metrics.md, "Explanation"): the pairs asked for, or each
// path against the fastest.
void explain_gaps(Report& report, const CompareOptions& options, const std::map<std::string, std::string>& unavailable) {
  // The paths whose Inductor kernels do not record themselves (their verdicts' kernels_unrecorded) leave the
  // kernel and wrapper terms unknown: explain_gap reads that from each side.
  ExplainContext context;
  context.unavailable = unavailable;
  if (options.explain_pairs.empty()) {
    report.explanations = explain_against_fastest(report.paths, context);
    return;
  }
  for (const auto& [slower, faster] : options.explain_pairs) {
    report.explanations.push_back(explain_gap(report.paths, slower, faster, context));
  }
}

}  // namespace

Status validate_compare_options(const CompareOptions& o) {
  const AdaptiveStopping& s = o.stopping;
  if (s.warmup < 0) return make_error(ExitCode::usage_error, "--warmup must be 0 or more");
  if (s.min_runs < 1) return make_error(ExitCode::usage_error, "--min-runs must be at least 1");
  if (s.max_runs < s.min_runs) return make_error(ExitCode::usage_error, "--max-runs must be at least --min-runs");
  if (s.min_time_s < 0 || s.time_limit_s <= 0) {
    return make_error(ExitCode::usage_error, "--min-time must be 0 or more and --time-limit positive (seconds)");
  }
  if (s.max_rse <= 0) return make_error(ExitCode::usage_error, "--max-rse must be positive (0.01 is 1%)");
  if (s.block < 1) return make_error(ExitCode::usage_error, "--block must be at least 1");
  if (!o.model.empty() && !o.exported.empty()) {
    return make_error(ExitCode::usage_error, "give --model or --exported, not both");
  }
  if (!o.dump_code_dir.empty()) {
    OHPROF_RETURN_IF_ERROR(check_dump_dir(o.dump_code_dir));
  }
  for (const int count : o.threads) {
    if (count < 1 || count > kMaxThreads) {
      return make_error(ExitCode::usage_error, fmt::format("--threads counts must be 1 to {}; {} is not", kMaxThreads, count));
    }
  }
  if (o.cold_start < 0 || o.cold_start > kMaxColdStarts) {
    return make_error(ExitCode::usage_error,
                      fmt::format("--cold-start takes 1 to {} processes per path; {} is not", kMaxColdStarts, o.cold_start));
  }
  if (!o.aoti.empty() && o.exported.empty()) {
    return make_error(ExitCode::usage_error, "--aoti needs --exported (the program the package was built from)");
  }
  for (const auto& [slower, faster] : o.explain_pairs) {
    for (const auto* name : {&slower, &faster}) {
      if (std::find(o.paths.begin(), o.paths.end(), *name) == o.paths.end()) {
        return make_error(ExitCode::usage_error,
                          fmt::format("--explain names path '{}', which is not in --paths; add it there", *name));
      }
    }
    if (slower == faster) return make_error(ExitCode::usage_error, "--explain pairs two different paths (A:B)");
  }
  if (o.compile_source == PathSource::module && !o.exported.empty()) {
    return make_error(ExitCode::usage_error,
                      "--compile-source module needs --model (the module to compile); with --exported use "
                      "--compile-source program");
  }
  for (const auto* file : {&o.exported, &o.aoti}) {
    if (!file->empty() && !std::filesystem::exists(*file)) {
      return make_error(ExitCode::file_not_found, fmt::format("'{}' does not exist; check the path", *file));
    }
  }
  return ok_status();
}

Result<DeviceKind> resolve_compare_device(const DeviceRequest& request, const TorchRuntimeInfo& torch_info) {
  if (request.kind == DeviceRequest::Kind::cuda) {
    if (!torch_info.cuda_available) {
      return make_error(ExitCode::device_unavailable, "--device cuda but no CUDA device is available here; use --device cpu");
    }
    if (request.index != 0) {
      return make_error(ExitCode::usage_error, "compare runs on cuda:0; choose the GPU with CUDA_VISIBLE_DEVICES");
    }
    return DeviceKind::cuda;
  }
  if (request.kind == DeviceRequest::Kind::automatic && torch_info.cuda_available) return DeviceKind::cuda;
  return DeviceKind::cpu;
}

// Why the AOTI paths of a compare could not be measured (when they could not): torch.export's failure comes
// first, as no package is tried without a program.
static NotMeasuredCause not_measured_cause(const ArtifactSummary& artifacts) {
  return artifacts.export_error.empty() ? NotMeasuredCause::no_package : NotMeasuredCause::export_failed;
}

// The paths that run what torch.export captured: without an exported program they cannot be measured.
static bool needs_export(const std::string& path) {
  const std::optional<PathKind> kind = parse_path_kind(path);
  return kind && path_kind_info(*kind).exported;
}

void apply_default_model(CompareOptions& options) {
  if (!options.model.empty() || !options.exported.empty()) return;
  options.model = kDefaultModel;
  if (options.inputs.empty() && options.inputs_file.empty()) options.inputs = {kDefaultInput};
}

const std::vector<std::string>& known_compare_paths() {
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> names;
    for (const PathKindInfo& kind : path_kinds()) names.emplace_back(kind.name);
    return names;
  }();
  return paths;
}

SessionOutcome compare_paths(const CompareOptions& given, const Runtime& runtime) {
  CompareOptions options = given;  // less the paths that cannot be measured, once the session says which
  if (Status valid = validate_compare_options(options); !valid.ok()) return {std::nullopt, valid};
  if (!options.threads.empty()) {
    options.threads.push_back(1);
    std::sort(options.threads.begin(), options.threads.end());
    options.threads.erase(std::unique(options.threads.begin(), options.threads.end()), options.threads.end());
  }
  if (!runtime.open_model) {
    return {std::nullopt, make_error(ExitCode::usage_error,
                                     "this ohprof was built without LibTorch and Python "
                                     "(OHPROF_WITH_TORCH=OFF); rebuild with it to compare paths")};
  }
  const TorchRuntimeInfo torch_info = runtime.torch_info();
  auto resolved = resolve_compare_device(options.device, torch_info);
  if (!resolved.ok()) return {std::nullopt, resolved.error()};
  const DeviceKind device = *resolved;

  Report report;
  report.kind = ReportKind::compare;
  report.context = make_base_context(options.argv);
  report.context.torch_version = torch_info.torch_version;
  report.context.cpu_threads = torch_info.intra_op_threads;
  report.config.warmup = options.stopping.warmup;
  report.config.seed = options.seed;
  const bool exported_only = !options.exported.empty();
  const PathSource compile_source =
      options.compile_source.value_or(exported_only ? PathSource::exported_program : PathSource::module);
  report.config.compare = CompareConfig{options.paths,
                                        options.stopping,
                                        options.check_outputs,
                                        compile_source,
                                        options.explain,
                                        options.explain_pairs,
                                        options.threads,
                                        options.cold_start,
                                        options.what_if};

  CompareOptions defaulted = options;
  apply_default_model(defaulted);
  ModelSessionOptions session_options;
  session_options.model = defaulted.model;
  session_options.exported = options.exported;
  session_options.aoti = options.aoti;
  session_options.inputs = defaulted.inputs;
  session_options.inputs_file = options.inputs_file;
  for (const auto& spec : options.inputs_file_shapes) session_options.inputs_file_shapes.push_back(spec.shape);
  session_options.device = device;
  session_options.seed = options.seed;
  session_options.cache_dir = options.cache_dir.empty() ? default_cache_dir() : options.cache_dir;
  session_options.kernel_profile = options.kernel_profile;
  session_options.compile_source = compile_source;
  session_options.dump_code = !options.dump_code_dir.empty();
  session_options.export_needed = compile_source == PathSource::exported_program || !options.dump_code_dir.empty() ||
                                  std::any_of(options.paths.begin(), options.paths.end(), needs_export);
  console::progress(fmt::format("preparing {} on {} (export and compile on first use; cached after)",
                                session_options.model.empty() ? options.exported : session_options.model,
                                to_string(device)));
  auto session = runtime.open_model(session_options);
  if (!session.ok()) return {std::nullopt, session.error()};
  ArtifactSummary artifacts = (*session)->artifacts();
  artifacts.model = session_options.model;
  const bool export_failed = not_measured_cause(artifacts) == NotMeasuredCause::export_failed;
  if (export_failed || !artifacts.aoti_error.empty()) {
    // torch.export could not capture a model that runs eagerly, or no AOTI package can be built here:
    // measure the paths that need neither.
    std::vector<std::string> measurable;
    for (const std::string& name : options.paths) (needs_export(name) ? artifacts.not_measured : measurable).push_back(name);
    // The export's own reason comes first; the hint names the usual causes without claiming which it was.
    // The package's reason ends with what to do (the compiler to use).
    const std::string why =
        export_failed
            ? fmt::format(
                  "{}; if forward returns anything but tensors (or tuples, lists and dicts of them), wrap the model so "
                  "that it returns tensors only; if it branches on a tensor's value (.item(), an if on a tensor), use "
                  "torch.cond or move the branch out of forward; or export it yourself (torch.export.export, "
                  "strict=False where strict tracing fails) and pass --exported (in Python, pass the ExportedProgram "
                  "as the model)",
                  artifacts.export_error)
            : "no AOTI package was built: " + artifacts.aoti_error;
    if (measurable.empty()) {
      return {std::nullopt, make_error(export_failed ? ExitCode::input_mismatch : ExitCode::environment_error, why)};
    }
    if (!artifacts.not_measured.empty()) {
      add_warning(report, Warning{WarningCode::paths_not_measured,
                                  fmt::format("{} not measured: {}", fmt::join(artifacts.not_measured, " and "), why)});
    }
    std::erase_if(options.explain_pairs, [](const auto& pair) { return needs_export(pair.first) || needs_export(pair.second); });
    options.paths = std::move(measurable);
  }
  report.artifacts = artifacts;
  report.config.inputs_file = options.inputs_file;
  report.config.inputs_file_digest = artifacts.inputs_file_digest;
  const std::vector<InputSpec> session_specs = (*session)->input_specs();
  for (const auto& spec : session_specs) report.config.inputs.push_back(input_spec_text(spec));

  // Build every path: the AOTI package through LibTorch, the others in Python; then the variants that
  // peel their layers (model/explanation.hpp), after the paths they are variants of.
  const auto build = [&](const std::string& name) -> Result<std::unique_ptr<PathRunner>> {
    if (parse_path_kind(name) != PathKind::aoti) return (*session)->make_python_path(name);
    AotiLoadOptions load;
    load.package_path = artifacts.aoti_package;
    load.device = device == DeviceKind::cuda ? DeviceRequest{DeviceRequest::Kind::cuda, 0} : DeviceRequest{DeviceRequest::Kind::cpu, 0};
    load.inputs = session_specs;
    load.tensors = (*session)->inputs();
    if (!options.threads.empty()) load.runners = *std::max_element(options.threads.begin(), options.threads.end());
    auto runner = runtime.load_aoti(load);
    if (!runner.ok()) {
      return runner.error().with_context(fmt::format("loading AOTI package '{}'", load.package_path));
    }
    report.context.device = (*runner)->device();
    for (auto& warning : (*runner)->warnings()) add_warning(report, std::move(warning));
    return std::unique_ptr<PathRunner>(std::move(*runner));
  };
  // Each build's memory (docs/metrics.md, "Memory"): the resident set before and after it, and its
  // high-water mark over it (reset first).
  // On a CUDA device, the caching allocator's and the driver's readings around it too ("Device memory").
  std::vector<std::optional<PathMemory>> build_memory;
  const auto read_device = [&](bool reset_peak) -> std::optional<DeviceMemoryReading> {
    if (device != DeviceKind::cuda || !runtime.read_device_memory) return std::nullopt;
    return runtime.read_device_memory(0, reset_peak);
  };
  const auto measured_build = [&](const std::string& name) {
    const bool reset = reset_peak_rss();
    const std::optional<ProcessMemory> before = read_process_memory();
    const std::optional<DeviceMemoryReading> device_before = read_device(true);
    auto runner = build(name);
    const std::optional<DeviceMemoryReading> device_after = read_device(false);
    const std::optional<ProcessMemory> after = read_process_memory();
    std::optional<PathMemory> memory;
    if (runner.ok() && before && after) {
      memory = PathMemory{};
      memory->build_retained_bytes = after->rss_bytes - before->rss_bytes;
      if (reset) memory->build_peak_bytes = peak_above_start(*before, *after);
      if (device_before && device_after) {
        PathDeviceMemory& d = memory->device.emplace();
        d.build_allocated_bytes = device_after->allocated_bytes - device_before->allocated_bytes;
        d.build_reserved_bytes = device_after->reserved_bytes - device_before->reserved_bytes;
        if (device_before->used_bytes && device_after->used_bytes) {
          d.build_used_bytes = *device_after->used_bytes - *device_before->used_bytes;
        }
        d.build_peak_allocated_bytes = device_after->peak_allocated_bytes - device_before->allocated_bytes;
      }
    }
    if (runner.ok()) build_memory.push_back(memory);
    return runner;
  };
  std::vector<std::unique_ptr<PathRunner>> runners;
  std::vector<PathRole> roles;  // each runner's
  const auto built = [&](const std::string& name) {
    return std::any_of(runners.begin(), runners.end(), [&](const auto& runner) { return runner->name() == name; });
  };
  for (const auto& name : options.paths) {
    console::progress("building path " + name);
    auto runner = measured_build(name);
    if (!runner.ok()) return {std::nullopt, runner.error()};
    runners.push_back(std::move(*runner));
    roles.push_back(PathRole::path);
  }
  std::map<std::string, std::string> unavailable_variants;
  if (options.explain) {
    for (const auto& name : options.paths) {
      for (const PeelStep& step : peel_chain(name)) {
        if (built(step.lower)) continue;
        console::progress("building variant " + step.lower);
        auto runner = measured_build(step.lower);
        if (!runner.ok()) {
          // The chain ends here; the explanation says why (its time is then in no named layer).
          unavailable_variants[step.lower] = runner.error().message;
          console::progress(fmt::format("variant {} unavailable: {}", step.lower, runner.error().message));
          break;
        }
        runners.push_back(std::move(*runner));
        roles.push_back(PathRole::variant);
      }
    }
  }
  // --what-if: the base and each applicable setting's path, those not built yet (docs/metrics.md, "What-if
  // ledger"). A path the torch in use cannot build is "not applicable"; another failed build is named.
  WhatIfContext what_if_context;
  what_if_context.device = device;
  if (options.what_if) {
    std::vector<std::string> wanted{kWhatIfBase};
    for (const WhatIfSetting& setting : what_if_settings()) {
      if (what_if_not_applicable(setting.setting, device).empty()) wanted.push_back(setting.path);
    }
    // The A/A check, last: compiles of their own (each in a fresh cache) after the others.
    wanted.insert(wanted.end(), kWhatIfRebuilds.begin(), kWhatIfRebuilds.end());
    for (const std::string& name : wanted) {
      if (built(name)) continue;
      if (const auto failed = unavailable_variants.find(name); failed != unavailable_variants.end()) {
        what_if_context.failed[name] = failed->second;  // tried once, for the explanation: not again
        continue;
      }
      console::progress("building what-if path " + name);
      auto runner = measured_build(name);
      if (!runner.ok()) {
        auto& reasons = runner.error().code == ExitCode::environment_error ? what_if_context.not_offered
                                                                           : what_if_context.failed;
        reasons[name] = runner.error().message;
        console::progress(fmt::format("what-if path {} unavailable: {}", name, runner.error().message));
        if (name == kWhatIfBase) break;  // nothing to measure the settings against
        continue;
      }
      runners.push_back(std::move(*runner));
      roles.push_back(PathRole::what_if);
    }
  }
  if (report.context.device.name.empty()) {
    const bool cuda = device == DeviceKind::cuda;
    report.context.device = DeviceDescription{device, cuda ? 0 : -1, cuda ? "CUDA device" : ""};
  }

  for (std::size_t i = 0; i < runners.size(); ++i) {
    const auto& runner = runners[i];
    PathResult path;
    path.name = runner->name();
    path.role = roles[i];
    path.source = runner->source();
    path.artifact = *path.source == PathSource::aoti_package   ? artifacts.aoti_package
                    : *path.source == PathSource::module ? session_options.model
                                                         : artifacts.exported_program;
    path.load_ns = runner->build_ns();
    path.memory = build_memory[i];
    report.paths.push_back(std::move(path));
  }

  // Output check against eager (or the first path).
  bool mismatch = false;
  if (options.check_outputs != CheckMode::off && runners.size() > 1) {
    std::size_t reference = 0;
    for (std::size_t i = 0; i < runners.size(); ++i) {
      if (parse_path_kind(runners[i]->name()) == PathKind::eager) reference = i;
    }
    for (std::size_t i = 0; i < runners.size(); ++i) {
      if (i == reference) continue;
      const PathOutputCheck check = (*session)->check_outputs(runners[reference]->name(), *runners[reference]->first_outputs(),
                                                              *runners[i]->first_outputs());
      report.paths[i].output_check = check;
      if (!check.passed) {
        // --check-outputs strict is about the paths asked for; the ledger names a what-if path's mismatch.
        if (report.paths[i].role != PathRole::what_if) mismatch = true;
        add_warning(report, Warning{WarningCode::outputs_differ,
                                    fmt::format("OUTPUTS DIFFER: path {} does not match {} ({}); its timings compare "
                                                "different computations",
                                                runners[i]->name(), check.reference,
                                                check.detail.empty() ? "outside tolerance" : check.detail)});
      }
    }
  }
  if (mismatch && options.check_outputs == CheckMode::strict) {
    // The report is written without the table: the checks are in the warnings.
    return {std::move(report),
            make_error(ExitCode::output_mismatch,
                       "paths disagree on the outputs (--check-outputs strict); see the warnings above"),
            /*print_table=*/false};
  }

  // Pass 1: the headline wall times, interleaved, with NVTX ranges only.
  std::vector<std::unique_ptr<NvtxRanges>> nvtx;
  std::vector<InterleavedPath> paths;
  for (auto& runner : runners) {
    PathRunner* raw = runner.get();
    nvtx.push_back(std::make_unique<NvtxRanges>(raw->name()));
    paths.push_back(InterleavedPath{raw->name(), [raw] { return raw->run_once(); }, {nvtx.back().get()},
                                    [raw] { raw->enter(); }, [raw] { raw->leave(); }});
  }
  console::progress(fmt::format("measuring {} in interleaved rounds (at most {:.0f} s)", fmt::join(options.paths, ", "),
                                options.stopping.time_limit_s));

  // The execution check (docs/metrics.md, "Execution check"): what each path is known to run once built,
  // and the compile events inside its measured iterations; the timing-pass samples up to a path's last
  // such compile are left out of its figures.
  std::vector<ExecutionFacts> facts;
  for (const auto& runner : runners) facts.push_back(runner->execution_facts());
  const auto fill = [&](const InterleavedResult& measured) {
    const std::vector<CompileEvent> events = (*session)->compile_events();
    for (std::size_t i = 0; i < report.paths.size(); ++i) {
      PathResult& path = report.paths[i];
      path.warmup_ns = measured.paths[i].warmup_ns;
      const std::vector<std::int64_t> all = measured.paths[i].wall_ns();
      path.execution = check_timing_pass(
          facts[i], compiles_in_iterations(events, measured.paths[i].iterations, MeasuredPass::timing), all.size());
      path.wall_ns = kept_samples(all, *path.execution);
      const std::vector<int>& rounds = measured.paths[i].rounds;
      path.wall_rounds.assign(rounds.end() - static_cast<std::ptrdiff_t>(path.wall_ns.size()), rounds.end());
      path.execution->excluded_samples_ns.assign(all.begin(), all.end() - static_cast<std::ptrdiff_t>(path.wall_ns.size()));
      path.wall = summarize_ns(path.wall_ns);
      path.stop_reason = measured.stop_reason;
      path.run_queue = measured.paths[i].run_queue;
    }
    report.stop_reason = measured.stop_reason;
    report.interrupted = measured.interrupted;
    report.ratios = ratios_against_fastest(report.paths);
  };
  // Checkpoints: the report as it stands, rewritten about once a second while measuring and once
  // before the split pass, so a killed run still leaves its data.
  InterleavedResult measured;
  Status status = measure_timing_pass(paths, options.stopping, options.checkpoint_path,
                                      [&](const InterleavedResult& so_far) {
                                        fill(so_far);
                                        return report;
                                      },
                                      measured);
  fill(measured);
  Status trace_status = ok_status();  // --export-trace's
  if (status.ok() && !measured.interrupted) {
    // The execution check's probe: one more call of each Dynamo path, right after its timing pass, says
    // whether its calls still ran compiled code (docs/metrics.md, "Execution check").
    for (std::size_t i = 0; i < runners.size(); ++i) {
      if (report.paths[i].execution && report.paths[i].execution->facts.dynamo) {
        record_probe(*report.paths[i].execution, runners[i]->compiled_call());
      }
    }
    std::vector<std::vector<IterationWindow>> split_windows;
    std::size_t fewest = SIZE_MAX;
    for (const auto& path : report.paths) fewest = std::min(fewest, path.wall_ns.size());
    SplitPassOptions split;
    split.device = device;
    split.no_cupti = options.no_cupti;
    split.runs = static_cast<int>(std::clamp<std::size_t>(fewest, 1, 100));
    split.time_limit_s = options.stopping.time_limit_s;
    split.block = options.stopping.block;
    split.export_trace = options.export_trace;
    split.kernel_profile = options.kernel_profile;
    trace_status = measure_split_pass(report, paths, split, runtime, split_windows);
    const std::vector<CompileEvent> events = (*session)->compile_events();
    for (std::size_t i = 0; i < report.paths.size() && i < split_windows.size(); ++i) {
      add_split_pass(*report.paths[i].execution, compiles_in_iterations(events, split_windows[i], MeasuredPass::split));
    }
    // The memory pass, after every timed pass: each path's calls' peak over the resident set before them.
    if (!interrupt_requested()) {
      for (std::size_t i = 0; i < runners.size(); ++i) {
        std::optional<PathMemory>& memory = report.paths[i].memory;
        if (!memory) continue;
        runners[i]->enter();
        const bool reset = reset_peak_rss();
        const std::optional<ProcessMemory> before = read_process_memory();
        const std::optional<DeviceMemoryReading> device_before = memory->device ? read_device(true) : std::nullopt;
        bool ran = true;
        for (std::int64_t call = 0; call < kMemoryCalls && ran; ++call) ran = runners[i]->run_once().ok();
        const std::optional<DeviceMemoryReading> device_after = device_before ? read_device(false) : std::nullopt;
        const std::optional<ProcessMemory> after = read_process_memory();
        runners[i]->leave();
        if (ran && reset && before && after) {
          memory->run_peak_bytes = peak_above_start(*before, *after);
          memory->run_calls = kMemoryCalls;
        }
        if (ran && device_before && device_after) {
          PathDeviceMemory& d = *memory->device;
          d.run_peak_allocated_bytes = device_after->peak_allocated_bytes - device_before->allocated_bytes;
          d.run_reserved_bytes = device_after->reserved_bytes - device_before->reserved_bytes;
          const std::optional<ExecutionCheck>& check = report.paths[i].execution;
          if (check && check->facts.cuda_graphs_expected) d.graph_pool_bytes = device_after->private_pool_bytes;  // null: no snapshot
        }
      }
    }
    // --threads, last: several callers of each path at once.
    if (!options.threads.empty() && !interrupt_requested()) {
      std::vector<PathRunner*> raw;
      for (const auto& runner : runners) raw.push_back(runner.get());
      const ConcurrencyContext context{available_cpus(), torch_info.intra_op_threads, device == DeviceKind::cuda};
      measure_threads(report, raw, options.threads, context,
                      [&] {
                        // Dynamo giving up compiles nothing: not a compile that took the callers' time.
                        const std::vector<CompileEvent> events = (*session)->compile_events();
                        return static_cast<std::size_t>(std::count_if(events.begin(), events.end(),
                                                                      [](const CompileEvent& e) { return !gave_up(e); }));
                      });
    }
    // --cold-start, last: fresh processes of each path (they share this machine, not this process).
    if (options.cold_start > 0 && !interrupt_requested()) {
      const std::string work = make_cold_start_dir();
      auto setup = work.empty() ? Result<ColdStartSetup>(make_error(ExitCode::output_error, "no temporary folder could be made"))
                                : (*session)->cold_start_setup(work + "/spec", cold_start_needs_module(report));
      if (setup.ok()) {
        measure_cold_start(report, *setup, options.cold_start, work);
      } else {
        add_warning(report, Warning{WarningCode::cold_start_incomplete,
                                    "--cold-start: no fresh process was started: " + setup.error().message});
      }
      std::error_code ignored;
      if (!work.empty()) std::filesystem::remove_all(work, ignored);
    }
  } else {
    report.interrupted = report.interrupted || measured.interrupted;
    trace_status = no_split(report, kSplitStoppedReason, options.export_trace);
    // The run stopped before the probe: each Dynamo path's check says so, rather than nothing.
    for (PathResult& path : report.paths) {
      if (path.execution && path.execution->facts.dynamo) path.execution->compiled_call_unknown = ProbeUnknown::not_probed;
    }
  }
  // --dump-code, after every timed pass (the explanation's included), never inside one; not after Ctrl-C.
  const auto dump_after_measuring = [&]() -> Status {
    if (options.dump_code_dir.empty() || report.interrupted) return ok_status();
    std::vector<PathDumpSource> sources;
    for (std::size_t i = 0; i < report.paths.size(); ++i) {
      const PathResult& path = report.paths[i];
      if (path.role != PathRole::path) continue;
      const bool package = path.source == PathSource::aoti_package;
      sources.push_back(PathDumpSource{i, package ? artifacts.aoti_package : std::string(), true});
    }
    return dump_code(report, sources, session->get(), options.dump_code_dir, runtime);
  };
  std::vector<const ExecutionCheck*> checks;
  std::vector<std::string> dynamo_paths;
  for (const PathResult& path : report.paths) {
    if (!path.execution) continue;
    checks.push_back(&*path.execution);
    if (path.execution->facts.dynamo) dynamo_paths.push_back(path.name);
    for (auto& warning : execution_warnings(path.name, path.role == PathRole::path, *path.execution, to_string(device))) {
      add_warning(report, std::move(warning));
    }
  }
  if (auto warning = recompile_limit_outside_measured((*session)->compile_events(), checks, dynamo_paths)) {
    add_warning(report, std::move(*warning));
  }
  if (status.ok()) {
    if (measured.stop_reason.code != StopCode::converged && measured.stop_reason.code != StopCode::interrupted) {
      add_warning(report, Warning{WarningCode::criteria_unmet,
                                  fmt::format("stopped before the criteria were met: {}; raise --time-limit or "
                                              "--max-runs, or loosen --max-rse",
                                              stop_reason_text(measured.stop_reason))});
    }
    if (options.explain) explain_gaps(report, options, unavailable_variants);
    if (options.what_if) report.what_if = what_if_ledger(report.paths, what_if_context);
    for (PathResult& path : report.paths) {
      if (path.role == PathRole::path) path.slower_paths = slower_paths(report.paths, path);
    }
    report.deployment = deployment_summary(report.paths);
    if (report.artifacts) {
      report.deployment->not_measured = report.artifacts->not_measured;
      report.deployment->not_measured_cause = not_measured_cause(*report.artifacts);
    }
    add_sample_hints(report, /*name_the_path=*/true);
  }
  const Status dump_status = dump_after_measuring();
  return measured_outcome(std::move(report), status, trace_status, dump_status);
}

}  // namespace ohprof
