#pragma once
// The analysis: splits each iteration's wall time on the device timeline into busy, host-bound and
// device-wait time, reads the launch queue and what the host was doing, from the plain records of a
// Timeline. Pure functions, no vendor types, integer nanoseconds.
// Every quantity is defined in docs/metrics.md, with the JSON field it is reported in.
//
// Typical use (a live run, `ohprof analyze`):
//   PathBreakdown split = analyze_timeline(timeline);
//   path_result.breakdown = std::move(split);
// and, for two paths, diff_kernel_sets(a, b) says which kernels both ran and which only one did.
#include <string>

#include "ohprof/model/breakdown.hpp"
#include "ohprof/model/timeline.hpp"

namespace ohprof {

// Analyses one path's timeline. Never fails: records it cannot use are counted in analysis_counters.
// O(n log n) in the number of ops and launch calls.
PathBreakdown analyze_timeline(const Timeline& timeline);

// What the verdict needs beyond the summary (docs/metrics.md, "Verdict").
struct VerdictContext {
  bool no_launches = false;             // a GPU timeline whose timed ops all lack their launch call
  bool whole_recording_window = false;  // Timeline::whole_recording_window
  std::vector<EventCount> unread_device_events;  // Timeline::unread_device_events
  bool kernels_unrecorded = false;               // Timeline::kernels_unrecorded
  // Device launch calls in the data (Timeline::launches) with no device op read at all (Timeline::ops empty):
  // ops read outside the windows are read all the same (no_device_work there is right).
  bool launches_without_ops = false;
  // Timed ops whose queued time is unknown (WindowAttribution::ops_queue_unknown), and the summed host-bound
  // time with each of them pending from the earliest its launch can have been (the least it can be).
  std::size_t ops_queue_unknown = 0;
  std::int64_t host_bound_least_ns = 0;
};

// The verdict from a summary (analyze_timeline already fills PathBreakdown::verdict with it).
PathVerdict decide_verdict(const BreakdownSummary& summary, const VerdictContext& context = {});

// Kernel-set difference of two paths, by (kind, name).
KernelSetDiff diff_kernel_sets(const PathBreakdown& a, const PathBreakdown& b, std::string path_a = "a",
                               std::string path_b = "b");

}  // namespace ohprof
