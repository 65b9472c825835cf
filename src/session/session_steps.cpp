#include "session_steps.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "ohprof/model/path_kind.hpp"
#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/analysis/code_sites.hpp"
#include "ohprof/analysis/counter_warnings.hpp"
#include "ohprof/analysis/cpu_kernels.hpp"
#include "ohprof/analysis/path_stats.hpp"
#include "ohprof/base/atomic_file.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/output/report_output.hpp"
#include "ohprof/trace/trace_export.hpp"

namespace ohprof {

namespace {

bool runs_a_package(PathKind kind) { return kind == PathKind::aoti || kind == PathKind::aoti_python; }

// An AOTI path's package code on the CPU collector: which of its kernels were recorded. `aoti` (the package
// run by the C++ loader) keeps it in the report, with its warning; nullopt when the code cannot be read
// (for `aoti`, a kernel-attribution-failed warning).
std::optional<KernelAttributionSummary> package_attribution(Report& report, PathResult& path, PathKind kind,
                                                            const SplitCollection& collection, const Runtime& runtime,
                                                            std::int64_t first_iteration, std::int64_t last_iteration) {
  auto attribution = runtime.attribute_package_kernels(path.artifact, collection.cpu_events, first_iteration,
                                                       last_iteration);
  if (kind != PathKind::aoti) return attribution.ok() ? std::optional(attribution->summary) : std::nullopt;
  if (!attribution.ok()) {
    add_warning(report, Warning{WarningCode::kernel_attribution_failed, "kernel attribution: " + attribution.error().message});
    return std::nullopt;
  }
  path.kernel_attribution = attribution->summary;
  if (attribution->warning) add_warning(report, *attribution->warning);
  return attribution->summary;
}

// Whether some of a CPU path's kernels do not record themselves, so that the RecordFunction collector cannot
// see them (docs/metrics.md, "Verdict"). An AOTI package's code says whether it was built with
// cpp.enable_kernel_profile and which of its kernels were never recorded (a profiled package's unrecorded
// kernels did not run); torch.compile's Inductor kernels record themselves only when compiled with
// --kernel-profile, which also decides when the package's code cannot be read; eager's ATen operators
// always do.
bool kernels_unrecorded(PathKind kind, const std::optional<KernelAttributionSummary>& attribution, bool kernel_profile) {
  if (runs_a_package(kind) && attribution) return !attribution->records_kernels && !attribution->unattributed.empty();
  return (runs_a_package(kind) || path_kind_info(kind).compiled) && !kernel_profile;
}

}  // namespace

void attach_split(Report& report, PathResult& path, const SplitCollection& collection, Timeline timeline,
                  const std::vector<std::int64_t>& split_wall_ns, const Runtime& runtime, bool kernel_profile,
                  std::int64_t first_iteration, std::int64_t last_iteration) {
  const std::string_view base = std::string_view(path.name).substr(0, path.name.find('/'));  // a variant's path
  const std::optional<PathKind> kind = parse_path_kind(base);
  if (collection.collector == CollectorKind::record_function && kind) {
    const auto attribution =
        runs_a_package(*kind)
            ? package_attribution(report, path, *kind, collection, runtime, first_iteration, last_iteration)
            : std::nullopt;
    // A compiled path Dynamo made no graph of runs no Inductor kernel: its ops are eager's, which record themselves.
    const bool no_graph = path.execution && uncompiled_by(*path.execution) == UncompiledBy::no_graph;
    timeline.kernels_unrecorded = !no_graph && kernels_unrecorded(*kind, attribution, kernel_profile);
  }
  path.breakdown = analyze_timeline(timeline);
  path.first_iteration_ops = first_iteration_sequence(timeline);
  path.split_collector = collection.collector;
  path.collector_cost = make_collector_cost(collection.collector, path.wall_ns, split_wall_ns);
  for (auto& warning : counter_warnings(path.breakdown->analysis_counters, false)) add_warning(report, std::move(warning));
  if (collection.collector != CollectorKind::record_function) return;
  if (const auto ranges = dynamo_range_times(collection.cpu_events, first_iteration, last_iteration); !ranges.empty()) {
    std::vector<std::int64_t> lookup;
    std::vector<std::int64_t> outside;
    for (const auto& iteration : path.breakdown->iterations) {
      const auto found = ranges.find(first_iteration + iteration.index);
      if (found == ranges.end()) continue;
      lookup.push_back(found->second.cache_lookup_ns);
      outside.push_back(iteration.wall_ns - found->second.compiled_region_ns);
    }
    if (!lookup.empty()) path.dynamo_ranges = DynamoRanges{lookup.size(), summarize_ns(lookup), summarize_ns(outside)};
  }
}

Status export_split_timeline(const Report& report, const std::vector<std::string>& path_names, const Timeline& timeline,
                             const std::string& path) {
  TimelineTraceNames names;
  const std::string subject = report.artifacts ? (report.artifacts->model.empty() ? report.artifacts->exported_program
                                                                                  : report.artifacts->model)
                                               : (report.paths.empty() ? std::string() : report.paths.front().artifact);
  names.process = fmt::format("ohprof {} ({})", to_string(report.kind), subject);
  if (report.context.device.type == DeviceKind::cuda) names.device_name = report.context.device.name;
  names.paths = path_names;
  Status written = export_timeline_trace(timeline, names, report.context.device.type, path);
  if (!written.ok()) return written.error().with_context("--export-trace");
  console::progress("wrote the split pass's timeline to " + path);
  return ok_status();
}

Status no_trace_to_export(Report& report, const std::string& path, const std::string& reason) {
  const std::string what = fmt::format("--export-trace: '{}' was not written: the split pass recorded no timeline ({})",
                                       path, reason);
  if (report.interrupted) {
    add_warning(report, Warning{WarningCode::trace_not_written, what});
    return ok_status();
  }
  return make_error(ExitCode::output_error, what + "; the other reports were written; the split pass needs a collector "
                                                   "(without --no-cupti) and a measurement that finished");
}

void add_sample_hints(Report& report, bool name_the_path) {
  // One outliers warning for all the paths of a compare, each with its count (not one line per path).
  std::vector<std::string> counts;
  for (const auto& path : report.paths) {
    if (auto hint = slow_first_run_hint(path)) add_warning(report, std::move(*hint));
    if (path.wall.outliers == 0) continue;
    if (name_the_path) {
      counts.push_back(fmt::format("{} {} of {}", path.name, path.wall.outliers, path.wall.count));
    } else {
      add_warning(report, Warning{WarningCode::outliers,
                                  fmt::format("{} of {} iterations are statistical outliers; close other programs, "
                                              "pin CPU frequency or raise --warmup/--runs",
                                              path.wall.outliers, path.wall.count)});
    }
  }
  if (auto busy = busy_cores_hint(report.paths)) add_warning(report, std::move(*busy));
  if (!counts.empty()) {
    add_warning(report, Warning{WarningCode::outliers,
                                fmt::format("iterations that are statistical outliers: {}; close other programs or "
                                            "raise --warmup",
                                            fmt::join(counts, ", "))});
  }
}

SessionOutcome measured_outcome(Report report, const Status& measured, const Status& trace, const Status& dump) {
  if (!measured.ok()) {
    report.warnings.push_back(Warning{WarningCode::stopped_early, "stopped early: " + measured.error().message});
    return {std::move(report), measured};
  }
  if (!trace.ok()) return {std::move(report), trace};
  if (!dump.ok()) return {std::move(report), dump};
  return {std::move(report)};
}

Status no_split(Report& report, const std::string& reason, const std::string& export_trace) {
  for (PathResult& path : report.paths) path.split_unavailable_reason = reason;
  return export_trace.empty() ? ok_status() : no_trace_to_export(report, export_trace, reason);
}

}  // namespace ohprof
