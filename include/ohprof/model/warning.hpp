#pragma once
// Warnings: what ohprof could not measure or use, and the hints the samples call for. Each has a
// stable code, the JSON's `warnings[].code` (docs/report-schema.md, "Warnings"; never renamed: scripts
// filter on them), and its one line of text, written where the warning is raised.
#include <optional>
#include <string>
#include <vector>

namespace ohprof {

enum class WarningCode {
  // reading a trace (docs/analyze.md)
  ops_without_launch,          // GPU ops whose correlation no launch call in the trace has
  step_cut_at_recording_end,   // a ProfilerStep ends after the trace's last event
  trace_events_unusable,       // events ohprof needs but could not use (missing fields)
  trace_categories_unknown,    // events of categories Kineto does not write
  device_events_unread,        // device-side events of categories ohprof does not read (MTIA, range profiler)
  // the analysis counters (docs/metrics.md, "Counters")
  ops_outside_iterations,
  duplicate_launch_correlations,
  ops_invalid_interval,
  // collectors (docs/cupti.md, docs/cpu-collector.md)
  cupti_buffer_unreadable,
  cupti_buffers_zeroed_in_run,
  cupti_version_old,           // a CUPTI before 13.0 Update 1, whose sync records and shutdown ohprof relies on
  record_function_ranges_unpaired,
  kernels_unattributed,        // kernels named in a CPU package's generated code never recorded
  kernel_attribution_failed,   // the package's generated code could not be read
  // runtimes
  package_inputs_unrecorded,   // the AOTI package records no input specs: its input checks stay on
  // measurement (docs/metrics.md)
  slow_first_run,
  outliers,
  criteria_unmet,              // compare stopped before its stopping criteria were met
  stopped_early,               // an error ended the measurement; the report keeps what was measured
  outputs_differ,              // compare: a path's outputs differ from the reference path's
  // sweep (docs/sweep.md)
  sweep_point_failed,          // a point's compare failed; the sweep went on
  sweep_page_not_written,      // the sweep's page could not be drawn; the report was written
  // diff (docs/diff.md)
  diff_context_differs,        // the two reports were made with another torch, ohprof, host, ...
  diff_incomparable_forced,    // --force: a reason the reports are not comparable, diffed anyway
  diff_path_unmatched,         // a path (or sweep point) is in one report only
  diff_report_incomplete,      // a report lacks something the diff would use (a sweep point's report)
  // reports
  trace_not_written,           // --export-trace after Ctrl-C before the split pass: no timeline to write
  // many ranks (docs/ranks.md)
  rank_from_position,          // a trace without distributedInfo.rank: its rank is its position
  ranks_steps_differ,          // a step some ranks have and others do not
  ranks_collectives_unmatched, // collectives of a step that do not line up across its ranks
  ranks_job_differs,           // the traces say different world sizes or backends
  trace_failed,                // a trace of the job could not be analysed; the others were
  // --dump-code (docs/code-dump.md)
  code_dump_incomplete,        // a piece of the dump could not be had (no split, a package not readable)
  // compare (docs/usage.md, "When torch.export fails")
  paths_not_measured,          // torch.export failed: the paths that need it were not measured, the others were
  // the execution check (docs/metrics.md, "Execution check")
  compiled_while_measuring,    // a Dynamo compile, autotuning or CUDA-graph recording inside a measured iteration
  graph_breaks,                // Dynamo broke an asked path's graph
  cuda_graphs_not_replayed,    // a reduce-overhead path skipped CUDA graphs, or some measured calls did not replay
  path_device_differs,         // a path's outputs came from another device than the one measured
  // compare --threads (docs/metrics.md, "Concurrent callers")
  threads_incomplete,          // a path's callers could not be made or failed, or the pass compiled
  // compare --cold-start (docs/metrics.md, "Cold start")
  cold_start_incomplete,       // a fresh process failed, or a cache state could not be measured
  cold_start_outputs_differ,   // a fresh process's first output differs from the reference
};

struct Warning {
  WarningCode code = WarningCode::stopped_early;
  std::string message;  // one line
  friend bool operator==(const Warning&, const Warning&) = default;
};

// "ops-without-launch", ...: the stable code.
const char* to_string(WarningCode code);
// Every code, in declaration order (for the documentation check).
std::vector<WarningCode> all_warning_codes();
std::optional<WarningCode> parse_warning_code(const std::string& text);  // to_string's inverse

}  // namespace ohprof
