// `ohprof run --aoti PACKAGE.pt2`: measure one AOTInductor package.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

#include "ohprof/base/clock.hpp"
#include "commands.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/output/report_output.hpp"
#include "ohprof/harness/checkpoint.hpp"
#include "ohprof/analysis/path_stats.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/harness/measurement_loop.hpp"
#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/harness/nvtx_ranges.hpp"
#include "ohprof/collectors/split_collector.hpp"
#include "ohprof/output/table_printer.hpp"
#ifdef OHPROF_WITH_TORCH
#include "ohprof/runtimes/aoti_runner.hpp"
#endif

namespace ohprof {
namespace {

struct RunOptions {
  std::string aoti_package;
  std::vector<std::string> inputs;
  std::string device = "auto";
  int warmup = 10;
  int runs = 50;
  std::uint64_t seed = 0;
  std::string export_json;
  bool quiet = false;
  bool no_cupti = false;
  int split_runs = 0;
};


#ifdef OHPROF_WITH_TORCH
Status run_aoti(const RunOptions& options, const Invocation& invocation) {
  console::start("run", options.quiet);
  if (options.warmup < 0) return make_error(ExitCode::usage_error, "--warmup must be 0 or more");
  if (options.runs < 1) return make_error(ExitCode::usage_error, "--runs must be at least 1");
  if (options.split_runs < 0) return make_error(ExitCode::usage_error, "--split-runs must be 0 (default) or more");
  AotiLoadOptions load_options;
  load_options.package_path = options.aoti_package;
  load_options.seed = options.seed;
  auto device = parse_device_request(options.device);
  if (!device.ok()) return device.error();
  load_options.device = *device;
  Report report;
  report.kind = "run";
  report.config.warmup = options.warmup;
  report.config.runs = options.runs;
  report.config.seed = options.seed;
  for (const auto& text : options.inputs) {
    auto spec = parse_input_spec(text);
    if (!spec.ok()) return spec.error();
    load_options.inputs.push_back(*spec);
    report.config.inputs.push_back(input_spec_text(*spec));
  }
  if (!std::filesystem::exists(options.aoti_package)) {
    return make_error(ExitCode::file_not_found,
                      fmt::format("AOTI package '{}' does not exist; export one with "
                                  "examples/export_model.py or check the path",
                                  options.aoti_package));
  }

  report.context = make_base_context(invocation.argv);
  const TorchRuntimeInfo torch_info = torch_runtime_info();
  report.context.torch_version = torch_info.torch_version;
  report.context.cpu_threads = torch_info.intra_op_threads;

  auto runner = AotiRunner::load(load_options);
  if (!runner.ok()) return runner.error().with_context(fmt::format("loading AOTI package '{}'", options.aoti_package));
  report.context.device = (*runner)->device();
  report.config.inputs.clear();
  for (const auto& spec : (*runner)->inputs()) report.config.inputs.push_back(input_spec_text(spec));
  for (const auto& warning : (*runner)->warnings()) {
    add_warning(report, warning);
  }

  PathResult path;
  path.name = "aoti";
  path.artifact = options.aoti_package;
  path.load_ns = (*runner)->build_ns();
  NvtxRanges nvtx(path.name);
  LoopConfig loop_config{options.warmup, options.runs};
  LoopResult loop;
  AotiRunner& model = **runner;
  console::progress(fmt::format("measuring {} on {}: {} warm-up + {} measured iterations", path.name,
             report.context.device.type, options.warmup, options.runs));
  // Checkpoints: the report as it stands, rewritten about once a second while measuring and once
  // between the two passes, so a killed run still leaves its data.
  ReportCheckpoint checkpoint(options.export_json);
  const auto write_checkpoint = [&](const std::vector<std::int64_t>& warmup_ns,
                                    const std::vector<IterationWindow>& measured, const std::string& stop_reason) {
    checkpoint.write([&] {
      Report partial = report;
      PathResult& so_far = partial.paths.emplace_back(path);
      so_far.warmup_ns = warmup_ns;
      so_far.wall_ns = wall_times(measured);
      so_far.wall = summarize_ns(so_far.wall_ns);
      so_far.stop_reason = stop_reason;
      so_far.split_unavailable_reason = kSplitPendingReason;
      return partial;
    });
  };
  // Pass 1: the headline wall times, with no activity collector (NVTX ranges only, ~ns each).
  Status loop_status = run_measurement_loop(
      loop_config, [&] { return model.run_once(); }, {&nvtx}, loop,
      [&](const std::vector<std::int64_t>& warmup_ns, const std::vector<IterationWindow>& measured) {
        if (checkpoint.due()) write_checkpoint(warmup_ns, measured, kCheckpointStopReason);
      });
  path.warmup_ns = loop.warmup_ns;
  path.wall_ns = loop.wall_ns();
  path.wall = summarize_ns(path.wall_ns);
  path.stop_reason = loop.stop_reason;
  report.interrupted = loop.interrupted;

  // Pass 2: the same iterations with the activity collector on, for the device-time split.
  std::unique_ptr<SplitCollector> collector =
      SplitCollector::start(SplitCollectorOptions{report.context.device.type, options.no_cupti});
  if (collector->observer() == nullptr) {
    path.split_unavailable_reason = collector->unavailable_reason();
  } else if (loop_status.ok() && !loop.interrupted) {
    report.context.cupti_version = collector_cupti_version();
    const int split_runs = options.split_runs > 0 ? options.split_runs : std::min(options.runs, 100);
    write_checkpoint(loop.warmup_ns, loop.iterations, loop.stop_reason);
    console::progress(fmt::format("measuring the device split with {}: {} iterations",
                                  collector->collector_name(), split_runs));
    LoopResult split_loop;
    Status split_status = run_measurement_loop(LoopConfig{1, split_runs}, [&] { return model.run_once(); },
                                               {&nvtx, collector->observer()}, split_loop);
    // run_once() synchronised the device after every iteration.
    auto collection = collector->finish(split_loop.iterations);
    if (!split_status.ok()) {
      path.split_unavailable_reason = split_status.error().message;
    } else if (!collection.ok()) {
      path.split_unavailable_reason = collection.error().message;
    } else {
      path.breakdown = analyze_timeline(collection->timeline);
      path.split_collector = collection->collector;
      path.collector_cost = make_collector_cost(collector->collector_name(), path.wall_ns, split_loop.wall_ns());
      if (collection->collector == "record_function") {
        auto attribution = attribute_package_kernels(options.aoti_package, collection->cpu_events, 0, INT64_MAX);
        if (attribution.ok()) {
          path.kernel_attribution = attribution->summary;
          if (!attribution->warning.empty()) {
            add_warning(report, attribution->warning);
          }
        } else {
          add_warning(report, "kernel attribution: " + attribution.error().message);
        }
      }
      for (const auto& warning : collection->warnings) {
        add_warning(report, warning);
      }
    }
    report.interrupted = report.interrupted || split_loop.interrupted;
  } else {
    path.split_unavailable_reason = "measurement stopped before the split pass";
  }
  if (!path.split_unavailable_reason.empty()) {
    console::progress("device split unavailable: " + path.split_unavailable_reason);
  }
  report.paths.push_back(std::move(path));

  if (!loop_status.ok()) {
    // Keep what was measured before the failure.
    if (!report.paths.back().wall_ns.empty()) {
      report.warnings.push_back("stopped early: " + loop_status.error().message);
      (void)emit_report(report, options.export_json, options.quiet);
    }
    return loop_status;
  }
  if (const std::string hint = slow_first_run_hint(report.paths.back()); !hint.empty()) {
    add_warning(report, hint);
  }
  if (report.paths.back().wall.outliers > 0) {
    const auto& wall = report.paths.back().wall;
    const std::string hint = fmt::format(
        "{} of {} iterations are statistical outliers; close other programs, pin CPU frequency or "
        "raise --warmup/--runs",
        wall.outliers, wall.count);
    add_warning(report, hint);
  }
  return emit_report(report, options.export_json, options.quiet);
}
#endif

}  // namespace

Subcommand add_run_command(CLI::App& parent, const Invocation& invocation) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* app = parent.add_subcommand("run", "Measure one model package (wall time per iteration)");
  app->add_option("--aoti", options->aoti_package, "AOTInductor package (.pt2) to load with LibTorch")
      ->required();
  app->add_option("--input", options->inputs,
                  "Input SHAPE[:DTYPE], once per model input in order (e.g. 1,3,224,224:float32)")
      ->take_all();
  app->add_option("--device", options->device, "auto, cpu, cuda or cuda:N (auto: CUDA when present)")
      ->capture_default_str();
  app->add_option("--warmup", options->warmup, "Warm-up iterations, not measured")->capture_default_str();
  app->add_option("--runs", options->runs, "Measured iterations")->capture_default_str();
  app->add_option("--seed", options->seed, "Seed for the random inputs")->capture_default_str();
  app->add_option("--export-json", options->export_json, "Write the JSON report to FILE ('-' for stdout)");
  app->add_flag("--quiet", options->quiet, "Do not print the table");
  app->add_option("--split-runs", options->split_runs,
                  "Iterations of the instrumented pass for the device split (default: --runs, at most 100)");
  app->add_flag("--no-cupti", options->no_cupti,
                "Do not use CUPTI (NVTX ranges and host timing only; for runs under Nsight Systems)");
  Subcommand sub;
  sub.app = app;
#ifdef OHPROF_WITH_TORCH
  sub.run = [options, &invocation] { return run_aoti(*options, invocation); };
#else
  sub.run = [options] {  // the options must outlive parsing: CLI11 writes into them
    return make_error(ExitCode::usage_error,
                      "this ohprof was built without LibTorch (OHPROF_WITH_TORCH=OFF); rebuild with it to run models");
  };
#endif
  return sub;
}

}  // namespace ohprof
