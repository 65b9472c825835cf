// `ohprof sweep`: compare_paths at each value of one input dimension (docs/sweep.md).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "ohprof/analysis/explanation.hpp"  // round_medians
#include "ohprof/analysis/sweep.hpp"
#include "ohprof/base/clock.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/base/interrupt.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/output/sweep_report.hpp"
#include "ohprof/session/session.hpp"
#include "session_steps.hpp"

namespace ohprof {
namespace {

namespace fs = std::filesystem;

Status validate(const SweepOptions& o) {
  if (!o.compare.exported.empty() || !o.compare.aoti.empty()) {
    return make_error(ExitCode::usage_error,
                      "sweep exports the model again at every point; give --model (and --input), not --exported or --aoti");
  }
  if (!o.compare.model.empty() && o.compare.inputs.empty() && o.compare.inputs_file.empty()) {
    return make_error(ExitCode::usage_error,
                      "sweep scales the inputs' shapes; give --input SHAPE[:DTYPE] per model input, or --inputs FILE, for --model");
  }
  if (o.axis.values.size() < 2 || o.axis.values.front() < 1) {
    return make_error(ExitCode::usage_error, "a sweep needs at least two positive values (--batch or --dim)");
  }
  if (o.tolerance < 0 || o.tolerance >= 1) return make_error(ExitCode::usage_error, "--tolerance must be in [0, 1) (0.05 = 5%)");
  if (!(o.fit_tolerance > 0)) return make_error(ExitCode::usage_error, "--fit-tolerance must be positive (0.1 = 10%)");
  if (o.passes < 1) return make_error(ExitCode::usage_error, "--passes must be at least 1");
  if (!(o.sweep_time_limit_s > 0)) return make_error(ExitCode::usage_error, "--sweep-time-limit must be positive (seconds)");
  if (o.report_path == "-") {
    return make_error(ExitCode::usage_error, "sweep rewrites its report after every point: give --export-json a file, not '-'");
  }
  if (o.resume && o.report_path.empty()) {
    return make_error(ExitCode::usage_error, "--resume needs --export-json, the report of the sweep to resume");
  }
  if (!o.plot_path.empty() && o.report_path.empty()) {
    return make_error(ExitCode::usage_error, "--export-html (--plot) draws the written report: give --export-json too");
  }
  if (!o.plot_path.empty() && fs::path(o.plot_path).lexically_normal() == fs::path(o.report_path).lexically_normal()) {
    return make_error(ExitCode::usage_error, "--export-html (--plot) and --export-json name the same file; give the page another name");
  }
  return validate_compare_options(o.compare);  // the stopping rule's flags, the same for every point
}

// Errors that do not depend on the point's shape: every point would meet them, so the sweep stops.
bool ends_the_sweep(ExitCode code) {
  return code == ExitCode::usage_error || code == ExitCode::file_not_found || code == ExitCode::device_unavailable ||
         code == ExitCode::model_not_found || code == ExitCode::internal_error || code == ExitCode::environment_error;
}

// What the sweep keeps of one point's compare report.
std::vector<SweepPathPoint> summarize_point(const Report& report) {
  std::vector<SweepPathPoint> out;
  for (const auto& path : report.paths) {
    if (path.role != PathRole::path) continue;
    SweepPathPoint p;
    p.name = path.name;
    p.wall_ns = path.wall;
    p.round_medians_ns = round_medians(path.wall_ns, path.wall_rounds);
    if (path.breakdown && path.breakdown->summary.wall_ns.count > 0) {
      p.busy_ns = path.breakdown->summary.gpu.busy_ns.median;
      p.host_ns = path.breakdown->summary.gpu.host_bound_ns.median;
      p.kernels_unrecorded = path.breakdown->verdict.kernels_unrecorded;
      p.queue_open = path.breakdown->verdict.queue_open();
    }
    if (path.collector_cost) p.collector_ratio = path.collector_cost->ratio;
    if (path.output_check) p.outputs_match = path.output_check->passed;
    out.push_back(std::move(p));
  }
  return out;
}

// "sweep.json" -> "sweep.points" (beside it): where each point's compare report goes.
fs::path points_folder(const std::string& report_path) {
  fs::path p(report_path);
  return p.parent_path() / (p.stem().string() + ".points");
}

// 59m 12s, 42 s: the time left, for the progress lines.
std::string time_text(double seconds) {
  const auto whole = static_cast<long long>(seconds);
  if (whole >= 60) return fmt::format("{}m {:02}s", whole / 60, whole % 60);
  return fmt::format("{} s", whole);
}

}  // namespace

SweepOutcome sweep_paths(const SweepOptions& given, const Runtime& runtime) {
  SweepOptions options = given;  // the axis's values sorted, each once
  std::sort(options.axis.values.begin(), options.axis.values.end());
  options.axis.values.erase(std::unique(options.axis.values.begin(), options.axis.values.end()), options.axis.values.end());
  if (Status valid = validate(options); !valid.ok()) return {std::nullopt, valid};
  if (!runtime.open_model) {
    return {std::nullopt, make_error(ExitCode::usage_error,
                                     "this ohprof was built without LibTorch and Python "
                                     "(OHPROF_WITH_TORCH=OFF); rebuild with it to sweep")};
  }
  CompareOptions base = options.compare;
  apply_default_model(base);
  // The shapes the axis is applied to: the --input specs, or those of the --inputs file's tensors, which
  // each point resizes (docs/sweep.md, "Your own inputs").
  std::vector<InputSpec> base_shapes = base.inputs;
  std::string inputs_digest;
  if (!base.inputs_file.empty()) {
    if (!runtime.inputs_file_specs) {
      return {std::nullopt, make_error(ExitCode::usage_error, "this ohprof cannot read --inputs files; give --input shapes")};
    }
    auto specs = runtime.inputs_file_specs(base.inputs_file);
    if (!specs.ok()) return {std::nullopt, specs.error()};
    base_shapes = std::move(specs->specs);
    inputs_digest = specs->digest;
  }
  std::map<std::int64_t, std::vector<InputSpec>> shapes;  // each point's inputs
  for (std::int64_t value : options.axis.values) {
    auto applied = apply_axis(base_shapes, options.axis, value);
    if (!applied.ok()) return {std::nullopt, applied.error()};
    if (!base.inputs_file.empty()) {  // a saved size 0 has no slice to repeat
      for (std::size_t i = 0; i < base_shapes.size(); ++i) {
        for (std::size_t d = 0; d < base_shapes[i].shape.size(); ++d) {
          if (base_shapes[i].shape[d] == 0 && (*applied)[i].shape[d] != 0) {
            return {std::nullopt, make_error(ExitCode::usage_error,
                                             fmt::format("--inputs '{}': input {} has size 0 in dimension {}, which the "
                                                         "sweep cannot fill; save at least one slice",
                                                         base.inputs_file, i, d))};
          }
        }
      }
    }
    shapes[value] = std::move(*applied);
  }
  const TorchRuntimeInfo torch_info = runtime.torch_info();
  auto device = resolve_compare_device(base.device, torch_info);
  if (!device.ok()) return {std::nullopt, device.error()};

  SweepReport report;
  report.context = make_base_context(options.argv);
  report.context.torch_version = torch_info.torch_version;
  report.context.cpu_threads = torch_info.intra_op_threads;
  report.context.device = DeviceDescription{*device, *device == DeviceKind::cuda ? 0 : -1, ""};
  SweepConfig& config = report.config;
  config.model = base.model;
  for (const auto& spec : base_shapes) config.inputs.push_back(input_spec_text(spec));
  config.inputs_file = base.inputs_file;
  config.inputs_file_digest = inputs_digest;
  config.axis = options.axis;
  config.paths = base.paths;
  config.device = *device;
  config.compile_source = base.compile_source.value_or(PathSource::module);
  config.kernel_profile = base.kernel_profile;
  config.stopping = base.stopping;
  config.sweep_time_limit_s = options.sweep_time_limit_s;
  config.passes = options.passes;
  config.check_outputs = base.check_outputs;
  config.seed = base.seed;
  config.tolerance = options.tolerance;
  config.fit_tolerance = options.fit_tolerance;
  const std::string axis = axis_name(options.axis);

  // The points: those a resumed report measured are kept as they were.
  std::map<std::int64_t, SweepPoint> resumed;
  if (options.resume) {
    if (!fs::exists(options.report_path)) {
      console::progress(fmt::format("--resume: '{}' does not exist yet; measuring every point", options.report_path));
    } else {
      auto points = read_resumable_points(options.report_path, config);
      if (!points.ok()) return {std::nullopt, points.error()};
      std::vector<std::string> dropped;
      for (auto& point : *points) {
        if (!shapes.contains(point.value)) {
          if (point.status == PointStatus::measured) dropped.push_back(std::to_string(point.value));
        } else if (point.status == PointStatus::measured && !point.passes.empty()) {
          resumed[point.value] = std::move(point);
        }
      }
      console::progress(fmt::format("--resume: {} of {} points already measured in '{}'", resumed.size(),
                                    options.axis.values.size(), options.report_path));
      if (!dropped.empty()) {
        Warning warning{WarningCode::sweep_point_failed,
                        fmt::format("--resume: the report's measured {} {} {} not asked for this time and left out of "
                                    "it (their compare reports stay in the points folder); add them to the values to keep them",
                                    axis, fmt::join(dropped, ", "), dropped.size() == 1 ? "is" : "are")};
        console::warning(warning.message);
        report.warnings.push_back(std::move(warning));
      }
    }
  }
  for (std::int64_t value : options.axis.values) {
    if (auto found = resumed.find(value); found != resumed.end()) {
      report.points.push_back(std::move(found->second));
      continue;
    }
    SweepPoint point;
    point.value = value;
    for (const auto& spec : shapes[value]) point.inputs.push_back(input_spec_text(spec));
    point.reason = "not reached";
    report.points.push_back(std::move(point));
  }

  fs::path folder;
  if (!options.report_path.empty()) {
    folder = points_folder(options.report_path);
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) {
      return {std::nullopt, make_error(ExitCode::output_error, fmt::format("cannot make the folder '{}' for the points' "
                                                                           "reports: {}; check --export-json",
                                                                           folder.string(), ec.message()))};
    }
  }
  // The report as it stands, after every point ("running" until the end), so an interrupted or killed
  // sweep keeps its points.
  const auto write_out = [&]() -> Status {
    report = analyze_sweep(std::move(report));
    if (options.report_path.empty()) return ok_status();
    return write_sweep_report(report, options.report_path);
  };
  // The end: the stop, the report, then the page once.
  const auto finish = [&](SweepStop stop, Status status) -> SweepOutcome {
    console::set_context("");
    report.stop = stop;
    if (Status written = write_out(); !written.ok()) return {std::move(report), written};
    const bool any = std::any_of(report.points.begin(), report.points.end(),
                                 [](const SweepPoint& p) { return p.status == PointStatus::measured; });
    if (!options.plot_path.empty() && any && runtime.render_sweep_page) {
      console::progress("drawing the page " + options.plot_path);
      if (Status page = runtime.render_sweep_page(options.report_path, options.plot_path); !page.ok()) {
        Warning warning{WarningCode::sweep_page_not_written, "the sweep's page was not written: " + page.error().message};
        console::warning(warning.message);
        report.warnings.push_back(std::move(warning));
        if (Status written = write_out(); !written.ok()) return {std::move(report), written};
      }
    }
    return {std::move(report), status};
  };

  const std::int64_t start_ns = monotonic_now_ns();
  const std::size_t total = report.points.size();
  const int passes = options.passes;
  bool out_of_time = false;
  // Pass p measures every point that has fewer than p passes; pass 1 in axis order, then alternately
  // backwards and forwards, so that a slow trend of the machine does not follow the axis.
  for (int pass = 1; pass <= passes && !out_of_time && !interrupt_requested(); ++pass) {
    for (std::size_t k = 0; k < total; ++k) {
      SweepPoint& point = report.points[pass % 2 == 1 ? k : total - 1 - k];
      if (static_cast<int>(point.passes.size()) >= pass) continue;
      if (pass > 1 && point.status != PointStatus::measured) continue;  // later passes re-measure measured points
      if (interrupt_requested()) {
        if (point.status != PointStatus::measured) point.reason = "interrupted before this point; --resume measures it";
        continue;
      }
      const double left_s = options.sweep_time_limit_s - static_cast<double>(monotonic_now_ns() - start_ns) / 1e9;
      if (left_s <= 0) {
        out_of_time = true;
        if (point.status != PointStatus::measured) {
          point.reason = fmt::format("the sweep's time limit ({} s, --sweep-time-limit) was reached before this point; "
                                     "--resume measures it", options.sweep_time_limit_s);
        }
        continue;
      }
      console::set_context(fmt::format("{} {}: {}point {} of {}, {} of the sweep left", axis, point.value,
                                       passes > 1 ? fmt::format("pass {} of {}, ", pass, passes) : std::string(),
                                       pass % 2 == 1 ? k + 1 : total - k, total, time_text(left_s)));
      CompareOptions o = base;
      o.dump_code_dir.clear();  // the sweep dumps no code (it has no --dump-code)
      if (o.inputs_file.empty()) {
        o.inputs = shapes[point.value];
      } else {
        o.inputs_file_shapes = shapes[point.value];
      }
      o.explain = false;
      o.explain_pairs.clear();
      o.stopping.time_limit_s = std::min(o.stopping.time_limit_s, left_s);
      o.argv = options.argv;
      std::string report_path;  // relative to the sweep report's folder
      if (!folder.empty()) {
        const std::string file =
            point_file_stem(options.axis, point.value) + (pass > 1 ? fmt::format(".pass{}", pass) : std::string()) + ".json";
        o.checkpoint_path = (folder / file).string();
        report_path = (fs::path(folder.filename()) / file).string();
      }
      const std::int64_t point_start = monotonic_now_ns();
      SessionOutcome outcome = compare_paths(o, runtime);
      const double elapsed_s = static_cast<double>(monotonic_now_ns() - point_start) / 1e9;
      if (outcome.report && !folder.empty()) {
        if (Status written = write_json_report(*outcome.report, o.checkpoint_path); !written.ok()) {
          console::warning(fmt::format("{} {}: its compare report was not written: {}", axis, point.value, written.error().message));
          report_path.clear();
        }
      } else {
        report_path.clear();
      }
      // The point's own warnings (its compare's, but the error that failed it, which is the reason).
      std::vector<Warning> warnings;
      if (outcome.report) {
        for (const auto& warning : outcome.report->warnings) {
          if (warning.code != WarningCode::stopped_early) warnings.push_back(warning);
        }
      }
      const bool interrupted = (outcome.report && outcome.report->interrupted) ||
                               (!outcome.status.ok() && outcome.status.error().code == ExitCode::interrupted);
      if (interrupted) {
        if (point.status != PointStatus::measured) {  // a later pass's interruption keeps the passes before
          point.status = PointStatus::interrupted;
          point.reason = "interrupted while measuring; --resume measures it again";
          point.report_path = report_path;
          point.warnings = std::move(warnings);
        }
      } else if (!outcome.status.ok()) {
        const Error& error = outcome.status.error();
        if (point.status != PointStatus::measured) {
          point.status = PointStatus::failed;
          point.reason = error.message;
          point.exit_code = to_int(error.code);
          point.report_path = report_path;
          point.warnings = std::move(warnings);
        }
        if (ends_the_sweep(error.code)) {
          for (auto& other : report.points) {
            if (other.status == PointStatus::not_measured) {
              other.reason = fmt::format("the sweep stopped at {} {}: {}", axis, point.value, error.message);
            }
          }
          return finish(SweepStop::error, error);
        }
        Warning warning{WarningCode::sweep_point_failed,
                        fmt::format("{} {} failed{}: {}; the sweep goes on", axis, point.value,
                                    pass > 1 ? fmt::format(" in pass {}", pass) : std::string(), error.message)};
        console::warning(warning.message);
        report.warnings.push_back(std::move(warning));
      } else {
        std::vector<SweepPathPoint> paths = summarize_point(*outcome.report);
        SweepPass measured{pass, report_path, {}, 0};
        for (const auto& path : paths) measured.medians_ns.emplace_back(path.name, path.wall_ns.median);
        measured.score_ns = pass_score(measured.medians_ns);
        point.passes.push_back(std::move(measured));
        if (least_disturbed_pass(point.passes) == point.passes.size() - 1) {
          point.status = PointStatus::measured;
          point.reason.clear();
          point.exit_code = 0;
          point.report_path = report_path;
          point.elapsed_s = elapsed_s;
          point.artifacts_cached = outcome.report->artifacts && outcome.report->artifacts->cached;
          point.stop_reason = outcome.report->stop_reason;
          point.paths = std::move(paths);
          point.warnings = std::move(warnings);
          point.chosen_pass = pass;
        }
        if (!outcome.report->context.device.name.empty()) report.context.device = outcome.report->context.device;
        report.context.cupti_version = outcome.report->context.cupti_version;
        report.context.cupti_library = outcome.report->context.cupti_library;
      }
      if (Status written = write_out(); !written.ok()) {
        console::set_context("");
        return {std::move(report), written};
      }
    }
  }
  const SweepStop stop = interrupt_requested() ? SweepStop::interrupted
                         : out_of_time         ? SweepStop::sweep_time_limit
                                               : SweepStop::complete;
  const bool any = std::any_of(report.points.begin(), report.points.end(),
                               [](const SweepPoint& p) { return p.status == PointStatus::measured; });
  if (!any && stop != SweepStop::interrupted) {
    const auto failed = std::find_if(report.points.begin(), report.points.end(),
                                     [](const SweepPoint& p) { return p.status == PointStatus::failed; });
    const std::string why = failed != report.points.end() ? fmt::format("; {} {}: {}", axis, failed->value, failed->reason)
                                                          : std::string("; raise --sweep-time-limit");
    return finish(stop, make_error(ExitCode::no_valid_point, fmt::format("no point of the sweep could be measured{}", why)));
  }
  return finish(stop, ok_status());
}

}  // namespace ohprof
