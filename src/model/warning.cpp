#include "ohprof/model/warning.hpp"

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

const char* to_string(WarningCode code) {
  switch (code) {
    case WarningCode::ops_without_launch: return "ops-without-launch";
    case WarningCode::step_cut_at_recording_end: return "step-cut-at-recording-end";
    case WarningCode::trace_events_unusable: return "trace-events-unusable";
    case WarningCode::trace_categories_unknown: return "trace-categories-unknown";
    case WarningCode::device_events_unread: return "device-events-unread";
    case WarningCode::ops_outside_iterations: return "ops-outside-iterations";
    case WarningCode::duplicate_launch_correlations: return "duplicate-launch-correlations";
    case WarningCode::ops_invalid_interval: return "ops-invalid-interval";
    case WarningCode::cupti_buffer_unreadable: return "cupti-buffer-unreadable";
    case WarningCode::cupti_buffers_zeroed_in_run: return "cupti-buffers-zeroed-in-run";
    case WarningCode::cupti_version_old: return "cupti-version-old";
    case WarningCode::record_function_ranges_unpaired: return "record-function-ranges-unpaired";
    case WarningCode::kernels_unattributed: return "kernels-unattributed";
    case WarningCode::kernel_attribution_failed: return "kernel-attribution-failed";
    case WarningCode::package_inputs_unrecorded: return "package-inputs-unrecorded";
    case WarningCode::slow_first_run: return "slow-first-run";
    case WarningCode::outliers: return "outliers";
    case WarningCode::criteria_unmet: return "criteria-unmet";
    case WarningCode::stopped_early: return "stopped-early";
    case WarningCode::outputs_differ: return "outputs-differ";
    case WarningCode::sweep_point_failed: return "sweep-point-failed";
    case WarningCode::sweep_page_not_written: return "sweep-page-not-written";
    case WarningCode::diff_context_differs: return "diff-context-differs";
    case WarningCode::diff_incomparable_forced: return "diff-incomparable-forced";
    case WarningCode::diff_path_unmatched: return "diff-path-unmatched";
    case WarningCode::diff_report_incomplete: return "diff-report-incomplete";
    case WarningCode::trace_not_written: return "trace-not-written";
    case WarningCode::rank_from_position: return "rank-from-position";
    case WarningCode::ranks_steps_differ: return "ranks-steps-differ";
    case WarningCode::ranks_collectives_unmatched: return "ranks-collectives-unmatched";
    case WarningCode::ranks_job_differs: return "ranks-job-differs";
    case WarningCode::trace_failed: return "trace-failed";
    case WarningCode::code_dump_incomplete: return "code-dump-incomplete";
    case WarningCode::paths_not_measured: return "paths-not-measured";
    case WarningCode::compiled_while_measuring: return "compiled-while-measuring";
    case WarningCode::graph_breaks: return "graph-breaks";
    case WarningCode::cuda_graphs_not_replayed: return "cuda-graphs-not-replayed";
    case WarningCode::path_device_differs: return "path-device-differs";
    case WarningCode::threads_incomplete: return "threads-incomplete";
    case WarningCode::cold_start_incomplete: return "cold-start-incomplete";
    case WarningCode::cold_start_outputs_differ: break;
  }
  return "cold-start-outputs-differ";  // and past the last value: a name of the enum's own (parse_enum)
}

std::vector<WarningCode> all_warning_codes() {
  std::vector<WarningCode> codes;
  for (int c = 0; c <= static_cast<int>(WarningCode::cold_start_outputs_differ); ++c) codes.push_back(static_cast<WarningCode>(c));
  return codes;
}

std::optional<WarningCode> parse_warning_code(const std::string& text) { return parse_enum<WarningCode>(text); }

}  // namespace ohprof
