// `ohprof analyze TRACE.json[.gz]`: the device-time split of a trace PyTorch's profiler already wrote
// (docs/analyze.md).
#include <filesystem>

#include "ohprof/base/process_memory.hpp"
#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/analysis/counter_warnings.hpp"
#include "ohprof/base/clock.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/output/report_output.hpp"
#include "ohprof/session/session.hpp"
#include "ohprof/trace/kineto_reader.hpp"
#include "ohprof/trace/trace_export.hpp"
#include "analyze_report.hpp"

namespace ohprof {
namespace {

// "traces/nccl_data.json.gz" -> "nccl_data".
std::string path_name_of(const std::string& trace_path) {
  std::string name = std::filesystem::path(trace_path).filename().string();
  for (const char* suffix : {".gz", ".json"}) {
    const std::string s = suffix;
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      name.resize(name.size() - s.size());
    }
  }
  return name.empty() ? "trace" : name;
}

}  // namespace

Result<AnalyzedTrace> read_and_analyze_trace(const std::string& trace_path, const std::vector<std::string>& argv) {
  const std::int64_t read_start = monotonic_now_ns();
  OHPROF_ASSIGN_OR_RETURN(auto read, read_kineto_trace(trace_path));
  AnalyzedTrace out{Report{}, std::move(read)};
  const KinetoTrace& trace = out.trace;
  PathBreakdown split = analyze_timeline(trace.timeline);
  const std::int64_t read_end = monotonic_now_ns();

  Report& report = out.report;
  report.kind = ReportKind::analyze;
  report.context = make_base_context(argv);
  const Timeline& t = trace.timeline;
  report.context.device.type = trace_device_kind(trace);
  const bool cpu = report.context.device.type == DeviceKind::cpu;
  report.context.device.index = cpu ? -1 : trace.device_index;
  report.context.device.name = t.ops.empty() && cpu ? std::string() : trace.device_name;

  TraceSource source;
  source.path = trace_path;
  source.compressed = trace.stats.compressed;
  source.file_bytes = trace.stats.file_bytes;
  source.json_bytes = trace.stats.json_bytes;
  source.events = trace.stats.events;
  source.events_kept = trace.stats.kept;
  source.events_ignored = trace.stats.ignored;
  source.events_ignored_by_category = trace.stats.ignored_by_category;
  source.events_skipped = trace.timeline.counters.skipped_events;
  source.iterations_from =
      trace.iterations_from_profiler_steps ? IterationSource::profiler_steps : IterationSource::whole_trace;
  source.read_ns = read_end - read_start;
  source.distributed = trace.distributed;
  report.trace = source;

  PathResult path;
  path.name = path_name_of(trace_path);
  path.artifact = trace_path;
  path.load_ns = source.read_ns;
  for (const auto& iteration : split.iterations) path.wall_ns.push_back(iteration.wall_ns);
  path.wall = summarize_ns(path.wall_ns);
  path.stop_reason = StopReason{StopCode::end_of_trace};
  path.split_collector = CollectorKind::trace;
  report.config.runs = static_cast<int>(path.wall_ns.size());

  for (const auto& warning : trace.warnings) report.warnings.push_back(warning);
  for (auto& warning : counter_warnings(split.analysis_counters, trace.iterations_from_profiler_steps)) {
    report.warnings.push_back(std::move(warning));
  }
  path.breakdown = std::move(split);
  report.paths.push_back(std::move(path));
  return out;
}

SessionOutcome analyze_trace(const AnalyzeOptions& options) {
  reuse_freed_memory();  // a reading process: no model's allocations to change
  if (!options.export_trace.empty() && options.export_trace == options.trace_path) {
    return {std::nullopt,
            make_error(ExitCode::usage_error, "--export-trace must name a new file, not the trace being analysed")};
  }
  auto analyzed = read_and_analyze_trace(options.trace_path, options.argv);
  if (!analyzed.ok()) return {std::nullopt, analyzed.error()};
  Report& report = analyzed->report;
  for (const Warning& warning : report.warnings) console::warning(warning.message);
  Status exported = ok_status();
  if (!options.export_trace.empty()) {
    exported = export_trace_with_split(options.trace_path, options.export_trace, analyzed->trace,
                                       *report.paths[0].breakdown);
  }
  return {std::move(report), exported};
}

}  // namespace ohprof
