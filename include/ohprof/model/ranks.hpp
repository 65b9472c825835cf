#pragma once
// Many ranks of one distributed job (docs/ranks.md): what each rank's analysis contributes (its digest,
// small), the cross-rank view per step that analysis/ranks.hpp computes from the digests alone, and
// the report `ohprof analyze TRACE...` and `ohprof merge` write (docs/report-schema.md, "The ranks
// report"). Plain data, integer nanoseconds where they are measured.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/enum_text.hpp"
#include "ohprof/base/exit_codes.hpp"
#include "ohprof/model/breakdown.hpp"
#include "ohprof/model/distributed.hpp"
#include "ohprof/model/report.hpp"
#include "ohprof/model/warning.hpp"

namespace ohprof {

// Where a rank's number came from: the trace's distributedInfo, or its position among the inputs.
#define OHPROF_RANK_SOURCE_VALUES(X)     \
  X(distributed_info, "distributedInfo") \
  X(position, "position")
OHPROF_ENUM_CLASS(RankSource, OHPROF_RANK_SOURCE_VALUES)
std::optional<RankSource> parse_rank_source(const std::string& text);

// One iteration window of one rank: its split on all streams (docs/metrics.md).
struct RankStep {
  std::int64_t step = 0;  // the window's index (ProfilerStep#N; 0 for a trace without steps)
  std::int64_t wall_ns = 0;
  std::int64_t busy_ns = 0;
  std::int64_t host_bound_ns = 0;
  std::int64_t device_wait_ns = 0;
  std::int64_t communication_ns = 0;  // busy time with a collective running
  // Where the rank's queue is open (RankDigest::queue_open): the least its host-bound time can be
  // (IterationBreakdown::host_bound_least_ns; host_bound_ns is the most). Absent before 2026-12-07.
  std::optional<std::int64_t> host_bound_least_ns;
  friend bool operator==(const RankStep&, const RankStep&) = default;
};

// What the cross-rank view uses of one rank (docs/ranks.md, "The rank digest").
struct RankDigest {
  std::int64_t rank = 0;
  RankSource rank_from = RankSource::distributed_info;
  std::optional<std::int64_t> world_size;
  std::string backend;
  std::string trace;   // the trace file, as given
  DeviceKind device_type = DeviceKind::cuda;  // cpu: the trace has no device work
  std::string device;  // its GPU's name, "" when not known
  std::vector<RankStep> steps;              // by step
  std::vector<CollectiveOp> collectives;    // by (step, stream, ordinal)
  Verdict verdict = Verdict::unknown;
  VerdictReason verdict_reason = VerdictReason::no_iterations;
  double busy_share = 0;
  double host_bound_share = 0;
  double device_wait_share = 0;
  std::vector<Warning> warnings;  // the rank's own (its trace's and its analysis')
  // Its verdict's host_bound_share_least is set: device ops without a launch call leave when they were queued
  // unknown, so its host-bound figures are at most and its device-wait at least what they say (docs/metrics.md,
  // "Ops without a launch call"). Absent in a digest written before 2026-12-06: false.
  bool queue_open = false;
  friend bool operator==(const RankDigest&, const RankDigest&) = default;
};

// One present rank in one step (docs/ranks.md, "The cross-rank view, step by step").
struct RankInStep {
  std::int64_t rank = 0;
  RankStep split;                       // the digest's numbers
  std::int64_t compute_ns = 0;          // busy - communication
  std::int64_t collective_ns = 0;       // sum of its collectives' durations in the step
  std::int64_t collective_wait_ns = 0;  // over its matched collectives: duration - the shortest's
  std::int64_t active_ns = 0;           // wall - collective wait
  bool queue_open = false;              // the digest's: its host-bound and device-wait are bounds
};

// Why a step's slowest rank was slowest (docs/ranks.md, "The straggler"): the component (compute,
// host-bound, device-wait) it exceeds that component's median by the most, when that accounts for the
// excess; `offsetting` when the largest component exceeds the median by more than twice the excess (the
// others fall short by more than the excess: no one part is the cause); `unknown` when none accounts for
// half of it; `queue_open` when a present rank's split is open (its host-bound and device-wait are bounds, so
// no part's excess is known); `level` when the step's ranks are level (the excess under kStragglerMinExcessShare of the
// median): no rank is the straggler and no cause is named.
#define OHPROF_STRAGGLER_CAUSE_VALUES(X) \
  X(compute, "compute")                  \
  X(host_bound, "host_bound")            \
  X(device_wait, "device_wait")          \
  X(offsetting, "offsetting")            \
  X(queue_open, "queue_open")            \
  X(unknown, "unknown")                  \
  X(level, "level")
OHPROF_ENUM_CLASS(StragglerCause, OHPROF_STRAGGLER_CAUSE_VALUES)

// A step's ranks are level when the slowest one's active time exceeds the median by less than this share
// of the median. One step gives each rank one sample and so no noise of its own; this floor is the
// documented least excess called a straggler (docs/ranks.md).
inline constexpr double kStragglerMinExcessShare = 0.05;
// A component is named the cause when its excess over its median lies in [kCauseMinOfExcess, kCauseMaxOfExcess]
// times the straggler's excess: it accounts for at least half, and the rest do not offset more than all of it.
inline constexpr double kCauseMinOfExcess = 0.5;
inline constexpr double kCauseMaxOfExcess = 2.0;

// The slowest rank of a step with two present ranks or more: the straggler unless the ranks are level.
struct StepStraggler {
  std::int64_t rank = 0;
  std::int64_t active_ns = 0;
  double median_active_ns = 0;  // over the present ranks
  double excess_ns = 0;         // active - median
  double excess_share = 0;      // excess / median (0 when the median is 0)
  StragglerCause cause = StragglerCause::unknown;
  // the largest of its components' excesses over their medians (0 when it exceeds none); the cause's
  // excess when a cause is named
  double cause_excess_ns = 0;
  StragglerCause largest = StragglerCause::unknown;  // that component (unknown when it exceeds none)
  // a straggler: not level (the others waited for it beyond the floor)
  bool named() const { return cause != StragglerCause::level; }
};

struct StepView {
  std::int64_t step = 0;
  std::vector<RankInStep> ranks;            // the present ranks, by rank
  std::vector<std::int64_t> missing_ranks;  // the job's other ranks, ascending
  std::int64_t wall_min_ns = 0;
  std::int64_t wall_max_ns = 0;
  double wall_median_ns = 0;
  std::size_t collectives_matched = 0;    // matched (stream, ordinal) pairs
  std::size_t collectives_unmatched = 0;  // collective kernels of present ranks in no matched pair
  std::optional<StepStraggler> straggler;  // the slowest rank, with two present ranks or more
};

// One rank's sums over the steps it is present in.
struct RankTotals {
  std::int64_t rank = 0;
  std::size_t steps = 0;
  std::int64_t wall_ns = 0;
  std::int64_t busy_ns = 0;
  std::int64_t host_bound_ns = 0;
  std::int64_t device_wait_ns = 0;
  std::int64_t communication_ns = 0;
  std::int64_t compute_ns = 0;
  std::int64_t collective_ns = 0;
  std::int64_t collective_wait_ns = 0;
  std::int64_t active_ns = 0;
  std::size_t slowest_steps = 0;  // steps it was the straggler of (not level)
};

struct CrossRankView {
  std::vector<StepView> steps;    // by step
  std::vector<RankTotals> ranks;  // by rank: ranks[i] is the view's digests[i]
};

// A trace of the job that could not be analysed (docs/ranks.md, "Inputs").
struct FailedTrace {
  std::string trace;  // the file, as given
  std::int64_t position = 0;  // its position among the job's traces (docs/ranks.md, "Inputs")
  ExitCode code = ExitCode::invalid_trace;
  std::string message;  // the one-line error
  friend bool operator==(const FailedTrace&, const FailedTrace&) = default;
};

// `ohprof analyze TRACE...` and `ohprof merge`: JSON kind "ranks".
struct RanksReport {
  RunContext context;
  std::vector<RankDigest> ranks;    // by rank, each rank once
  std::vector<FailedTrace> failed;  // by position
  // What every rank says of the job (unset when they disagree or none says).
  std::optional<std::int64_t> world_size;
  std::optional<std::string> backend;
  CrossRankView view;
  bool interrupted = false;
  std::vector<Warning> warnings;    // the job's: ranks from positions, steps that differ, unmatched collectives
};

}  // namespace ohprof
