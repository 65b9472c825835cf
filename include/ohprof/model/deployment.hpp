#pragma once
// compare: which path to deploy (docs/metrics.md, "Deployment summary"): each path asked for with its
// per-call latency, its throughput with the most callers measured, its start from a fresh process, its
// memory and host share side by side, and which paths lead each criterion that was measured. Plain data;
// the sentence is made by the printers (output/report_text.hpp, deployment_text).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

// What a deployment may value, each from one measurement of compare.
#define OHPROF_DEPLOY_CRITERION_VALUES(X)                                                                           \
  X(latency, "latency")        /* median wall time per call, one caller (the timing pass) */                        \
  X(throughput, "throughput")  /* calls per second with the most callers --threads measured */                      \
  X(cold_start, "cold-start")  /* fresh process to first checked result, empty compile cache (--cold-start) */      \
  X(warm_start, "warm-start")  /* the same with the cache a first process filled (a host that has served before) */ \
  X(fresh_peak, "fresh-peak")  /* a fresh process's peak resident set, empty compile cache (--cold-start) */
OHPROF_ENUM_CLASS(DeployCriterion, OHPROF_DEPLOY_CRITERION_VALUES)

// Why asked paths were not measured (ArtifactSummary): the AOTI paths need the exported program and its
// package.
#define OHPROF_NOT_MEASURED_CAUSE_VALUES(X)                                                                    \
  X(export_failed, "export-failed") /* torch.export could not capture the model (export_error) */            \
  X(no_package, "no-package")       /* the program was exported, but no AOTI package built here (aoti_error) */
OHPROF_ENUM_CLASS(NotMeasuredCause, OHPROF_NOT_MEASURED_CAUSE_VALUES)

// One path asked for, its figures (null: not measured).
struct DeploymentRow {
  std::string path;
  std::optional<double> latency_ns;  // median wall time, timing pass
  int threads = 0;                   // the callers of calls_per_s (0: --threads not measured)
  std::optional<double> calls_per_s;
  std::optional<double> cold_start_ns;  // median total, cache "cold" (or "none": nothing to cache)
  std::optional<double> warm_start_ns;  // median total, cache "warm" (or "none")
  std::optional<std::int64_t> build_retained_bytes;  // PathMemory
  std::optional<std::int64_t> run_peak_bytes;
  std::optional<std::int64_t> device_build_bytes;  // PathDeviceMemory::build_used_bytes (CUDA)
  std::optional<std::int64_t> graph_pool_bytes;    // PathDeviceMemory::graph_pool_bytes (CUDA graphs)
  std::optional<double> host_share;  // the split's host-bound share of wall time
  bool host_share_at_most = false;   // an upper bound: some kernels do not record themselves (verdict)
  bool outputs_differ = false;       // its output check failed: left out of every criterion
  bool ran_uncompiled = false;       // its execution check's probe ran uncompiled code: left out likewise
  // The median high-water mark of the resident set of its fresh processes with the cold cache (or none:
  // nothing to cache), from --cold-start (ColdStartPhases::peak_rss_bytes): what a fresh process of this path
  // alone needed, not a difference, and not ordered by build order (docs/metrics.md, "Fresh-process memory").
  std::optional<double> fresh_peak_bytes;
};

// The paths that lead one criterion: the best, then those the measurement cannot tell from it.
struct CriterionLeaders {
  DeployCriterion criterion = DeployCriterion::latency;
  std::vector<std::string> leaders;  // best first; never empty
  std::string next;                  // the best of the other paths ("" : every path leads)
  std::vector<std::string> without;  // paths weighed elsewhere that have no figure for this criterion
  bool too_few = false;              // start-ups, fresh peaks: some path's processes too few to order (it counts as a leader)
  // fresh peak: some path's peaks all lie above the best's, but its median within kFreshPeakTiePercent of the
  // best's (it counts as a leader)
  bool negligible = false;
};

// Two fresh peaks whose medians differ by no more than this percent of the lower are one: a process's peak
// barely varies (a few hundred kB), so the rank rule alone would tell apart paths that a server's memory
// budget does not (docs/metrics.md, "Deployment summary").
inline constexpr double kFreshPeakTiePercent = 1;

struct DeploymentSummary {
  std::vector<DeploymentRow> rows;         // the paths asked for, in order
  std::vector<CriterionLeaders> criteria;  // the criteria measured for at least one path, in enum order
  std::vector<std::string> choice;         // the paths that lead every criterion (empty: it depends, or fewer than 2 paths)
  std::size_t candidates = 0;              // paths weighed: asked for, with outputs that match, compiled
  std::vector<std::string> left_out;       // paths whose outputs differ or that ran uncompiled (their rows say which)
  std::vector<std::string> not_measured;   // paths asked for that could not be measured (artifacts.not_measured)
  NotMeasuredCause not_measured_cause = NotMeasuredCause::export_failed;  // why, when not_measured is not empty
};

}  // namespace ohprof
