#pragma once
// The JSON keys of the report's plain structs, each list once, for report_to_json (json_report.cpp) and
// report_from_json (report_from_json.cpp) both (json_fields.hpp says how a member is written and read).
// What a writer adds beside a list (a derived figure such as queue_mean or idle_ns) it writes itself.
// Private to src/output.
#include <tuple>

#include "ohprof/model/report.hpp"
#include "json_fields.hpp"

namespace ohprof::report_fields {

using json_fields::field;

inline constexpr auto kHostStates =
    std::tuple{field("blocking_ns", &HostStates::blocking_ns), field("launch_ns", &HostStates::launch_ns),
               field("other_api_ns", &HostStates::other_api_ns), field("harness_ns", &HostStates::harness_ns),
               field("framework_ns", &HostStates::framework_ns)};

// A window's or a stream's split; its writer adds queue_mean (docs/metrics.md).
inline constexpr auto kDeviceSplit = std::tuple{
    field("busy_ns", &DeviceSplit::busy_ns),           field("idle_ns", &DeviceSplit::idle_ns),
    field("host_bound_ns", &DeviceSplit::host_bound_ns), field("device_wait_ns", &DeviceSplit::device_wait_ns),
    field("queue_ns", &DeviceSplit::queue_ns),         field("queue_max", &DeviceSplit::queue_max),
    field("communication_ns", &DeviceSplit::communication_ns), field("ops", &DeviceSplit::ops),
    field("own_ops", &DeviceSplit::own_ops),           field("own_busy_ns", &DeviceSplit::own_busy_ns),
    field("carried_out_ns", &DeviceSplit::carried_out_ns)};

// Sums over the iterations; its writer adds idle_ns (wall - busy).
inline constexpr auto kDeviceSplitTotals = std::tuple{
    field("busy_ns", &DeviceSplitTotals::busy_ns),
    field("host_bound_ns", &DeviceSplitTotals::host_bound_ns),
    field("device_wait_ns", &DeviceSplitTotals::device_wait_ns),
    field("queue_ns", &DeviceSplitTotals::queue_ns),
    field("queue_max", &DeviceSplitTotals::queue_max),
    field("communication_ns", &DeviceSplitTotals::communication_ns),
    field("own_busy_ns", &DeviceSplitTotals::own_busy_ns),
    field("carried_out_ns", &DeviceSplitTotals::carried_out_ns)};

inline constexpr auto kCollectionCounters =
    std::tuple{field("dropped_records", &CollectionCounters::dropped_records),
               field("ops_without_timestamps", &CollectionCounters::ops_without_timestamps),
               field("ops_without_launch", &CollectionCounters::ops_without_launch),
               field("skipped_events", &CollectionCounters::skipped_events)};

inline constexpr auto kAnalysisCounters =
    std::tuple{field("ops_total", &AnalysisCounters::ops_total),
               field("ops_without_timestamps", &AnalysisCounters::ops_without_timestamps),
               field("ops_invalid_interval", &AnalysisCounters::ops_invalid_interval),
               field("ops_without_launch", &AnalysisCounters::ops_without_launch),
               field("ops_outside_iterations", &AnalysisCounters::ops_outside_iterations),
               field("launches_total", &AnalysisCounters::launches_total),
               field("launches_outside_iterations", &AnalysisCounters::launches_outside_iterations),
               field("duplicate_launch_correlations", &AnalysisCounters::duplicate_launch_correlations),
               field("invalid_windows", &AnalysisCounters::invalid_windows)};

inline constexpr auto kKernelStat =
    std::tuple{field("kind", &KernelStat::kind),         field("name", &KernelStat::name),
               field("count", &KernelStat::count),       field("total_ns", &KernelStat::total_ns),
               field("mean_ns", &KernelStat::mean_ns),   field("median_ns", &KernelStat::median_ns),
               field("count_per_iteration", &KernelStat::count_per_iteration)};

inline constexpr auto kKernelDiffRow =
    std::tuple{field("kind", &KernelDiffRow::kind),
               field("name", &KernelDiffRow::name),
               field("count_per_iteration_a", &KernelDiffRow::count_per_iteration_a),
               field("count_per_iteration_b", &KernelDiffRow::count_per_iteration_b),
               field("mean_ns_a", &KernelDiffRow::mean_ns_a),
               field("mean_ns_b", &KernelDiffRow::mean_ns_b)};

inline constexpr auto kOutputCheck =
    std::tuple{field("reference", &PathOutputCheck::reference),       field("passed", &PathOutputCheck::passed),
               field("max_abs_diff", &PathOutputCheck::max_abs_diff), field("max_rel_diff", &PathOutputCheck::max_rel_diff),
               field("atol", &PathOutputCheck::atol),                 field("rtol", &PathOutputCheck::rtol),
               field("detail", &PathOutputCheck::detail)};

inline constexpr auto kCollectorCost =
    std::tuple{field("collector", &CollectorCost::collector), field("runs", &CollectorCost::runs),
               field("wall_median_without_ns", &CollectorCost::wall_median_without_ns),
               field("wall_median_with_ns", &CollectorCost::wall_median_with_ns),
               field("ratio", &CollectorCost::ratio)};

inline constexpr auto kRunQueue =
    std::tuple{field("waited_ns", &PathRunQueue::waited_ns), field("span_ns", &PathRunQueue::span_ns)};

inline constexpr auto kThreadsPoint =
    std::tuple{field("threads", &ThreadsPoint::threads),       field("calls_per_round", &ThreadsPoint::calls_per_round),
               field("round_ns", &ThreadsPoint::round_ns),     field("calls_per_s", &ThreadsPoint::calls_per_s),
               field("calls_per_s_se", &ThreadsPoint::calls_per_s_se), field("p50_ns", &ThreadsPoint::p50_ns),
               field("p99_ns", &ThreadsPoint::p99_ns),         field("scaling", &ThreadsPoint::scaling),
               field("scaling_low", &ThreadsPoint::scaling_low), field("scaling_high", &ThreadsPoint::scaling_high),
               field("scales", &ThreadsPoint::scales),         field("latency_ns", &ThreadsPoint::latency_ns),
               field("on_cpu_ns", &ThreadsPoint::on_cpu_ns), field("waited_ns", &ThreadsPoint::waited_ns),
               field("on_cpu_round_ns", &ThreadsPoint::on_cpu_round_ns),
               field("waited_round_ns", &ThreadsPoint::waited_round_ns)};

// A fresh process's phases; its writer adds output_detail (null when empty).
inline constexpr auto kColdStartSample =
    std::tuple{field("round", &ColdStartSample::round),           field("pid", &ColdStartSample::pid),
               field("process_ns", &ColdStartSample::process_ns), field("import_ns", &ColdStartSample::import_ns),
               field("load_ns", &ColdStartSample::load_ns),       field("compile_ns", &ColdStartSample::compile_ns),
               field("first_call_ns", &ColdStartSample::first_call_ns), field("total_ns", &ColdStartSample::total_ns),
               field("output_matches", &ColdStartSample::output_matches),
               field("max_abs_diff", &ColdStartSample::max_abs_diff),
               field("rss_bytes", &ColdStartSample::rss_bytes),   field("peak_rss_bytes", &ColdStartSample::peak_rss_bytes)};

inline constexpr auto kColdStartPhases =
    std::tuple{field("process_ns", &ColdStartPhases::process_ns), field("import_ns", &ColdStartPhases::import_ns),
               field("load_ns", &ColdStartPhases::load_ns),       field("compile_ns", &ColdStartPhases::compile_ns),
               field("first_call_ns", &ColdStartPhases::first_call_ns), field("total_ns", &ColdStartPhases::total_ns),
               field("rss_bytes", &ColdStartPhases::rss_bytes),   field("peak_rss_bytes", &ColdStartPhases::peak_rss_bytes)};

inline constexpr auto kDeviceMemory =
    std::tuple{field("build_allocated_bytes", &PathDeviceMemory::build_allocated_bytes),
               field("build_reserved_bytes", &PathDeviceMemory::build_reserved_bytes),
               field("build_used_bytes", &PathDeviceMemory::build_used_bytes),
               field("build_peak_allocated_bytes", &PathDeviceMemory::build_peak_allocated_bytes),
               field("run_peak_allocated_bytes", &PathDeviceMemory::run_peak_allocated_bytes),
               field("run_reserved_bytes", &PathDeviceMemory::run_reserved_bytes),
               field("graph_pool_bytes", &PathDeviceMemory::graph_pool_bytes)};

inline constexpr auto kDeploymentRow =
    std::tuple{field("path", &DeploymentRow::path),             field("latency_ns", &DeploymentRow::latency_ns),
               field("threads", &DeploymentRow::threads),       field("calls_per_s", &DeploymentRow::calls_per_s),
               field("cold_start_ns", &DeploymentRow::cold_start_ns), field("warm_start_ns", &DeploymentRow::warm_start_ns),
               field("build_retained_bytes", &DeploymentRow::build_retained_bytes),
               field("run_peak_bytes", &DeploymentRow::run_peak_bytes),
               field("device_build_bytes", &DeploymentRow::device_build_bytes),
               field("graph_pool_bytes", &DeploymentRow::graph_pool_bytes),
               field("host_share", &DeploymentRow::host_share),
               field("host_share_at_most", &DeploymentRow::host_share_at_most),
               field("outputs_differ", &DeploymentRow::outputs_differ),
               field("ran_uncompiled", &DeploymentRow::ran_uncompiled),
               field("fresh_peak_bytes", &DeploymentRow::fresh_peak_bytes)};

// The what-if ledger's placement band (docs/metrics.md, "What-if ledger"); its rule is not written: a band read
// from JSON under this list is this ohprof's (PlacementRule::prediction).
inline constexpr auto kPlacementBand =
    std::tuple{field("builds", &PlacementBand::builds),       field("spread_ns", &PlacementBand::spread_ns),
               field("t", &PlacementBand::t),                 field("center_ns", &PlacementBand::center_ns),
               field("half_width_ns", &PlacementBand::half_width_ns), field("low_ns", &PlacementBand::low_ns),
               field("high_ns", &PlacementBand::high_ns),     field("from_again", &PlacementBand::from_again)};

// A path's verdict and the numbers that decided it; its writer adds waited_stream, unread_device_events
// and the suggestion.
inline constexpr auto kVerdict = std::tuple{
    field("verdict", &PathVerdict::verdict),
    field("reason", &PathVerdict::reason),
    field("first", &PathVerdict::first),
    field("second", &PathVerdict::second),
    field("busy_share", &PathVerdict::busy_share),
    field("host_bound_share", &PathVerdict::host_bound_share),
    field("device_wait_share", &PathVerdict::device_wait_share),
    field("host_state", &PathVerdict::host_state),
    field("host_state_share", &PathVerdict::host_state_share),
    field("waited_stream_share", &PathVerdict::waited_stream_share),
    field("queue_delay_median_ns", &PathVerdict::queue_delay_median_ns),
    field("full_queue_iterations", &PathVerdict::full_queue_iterations),
    field("queue_max", &PathVerdict::queue_max),
    field("blocking_share", &PathVerdict::blocking_share),
    field("communication_share", &PathVerdict::communication_share),
    field("launches_per_iteration", &PathVerdict::launches_per_iteration),
    field("graph_launches_per_iteration", &PathVerdict::graph_launches_per_iteration),
    field("cpu_kernels", &PathVerdict::cpu_kernels),
    field("whole_recording_window", &PathVerdict::whole_recording_window),
    field("kernels_unrecorded", &PathVerdict::kernels_unrecorded),
    field("busy_headroom", &PathVerdict::busy_headroom),
    field("host_bound_headroom", &PathVerdict::host_bound_headroom),
    field("device_wait_headroom", &PathVerdict::device_wait_headroom),
    field("host_headroom_negligible", &PathVerdict::host_headroom_negligible),
    field("ops_queue_unknown", &PathVerdict::ops_queue_unknown),
    field("host_bound_share_least", &PathVerdict::host_bound_share_least),
    field("device_wait_share_most", &PathVerdict::device_wait_share_most)};

// An estimate with its standard error; its writer adds significant (docs/metrics.md, "Significance").
inline constexpr auto kEstimate = std::tuple{field("value_ns", &Estimate::value_ns), field("se_ns", &Estimate::se_ns)};

}  // namespace ohprof::report_fields
