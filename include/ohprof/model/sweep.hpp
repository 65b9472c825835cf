#pragma once
// `ohprof sweep`: one input dimension scaled over a list of values, `compare` measured at each
// (docs/sweep.md). Plain data: the axis, each point's summary of its compare report, and what the
// analysis derives from them (src/analysis/sweep.cpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/enum_text.hpp"
#include "ohprof/base/error.hpp"
#include "ohprof/base/stats.hpp"
#include "ohprof/model/stopping.hpp"
#include "ohprof/model/input_spec.hpp"
#include "ohprof/model/report.hpp"

namespace ohprof {

inline constexpr int kSweepSchemaVersion = 1;

// What is scaled: the first dimension of every input (`--batch`), or one dimension of the inputs named
// (`--dim I[,J...]:D=`: a sequence length shared by the token ids and their attention mask).
struct SweepAxis {
  enum class Kind { batch, dim };
  Kind kind = Kind::batch;
  std::vector<int> inputs;  // dim: the inputs' indices, sorted, each once; batch: empty (every input)
  int dim = 0;
  std::vector<std::int64_t> values;  // sorted, each once
  friend bool operator==(const SweepAxis&, const SweepAxis&) = default;
};
const char* to_string(SweepAxis::Kind kind);  // "batch", "dim"
// "batch", "input0.dim1", or "input0+1.dim1" (several inputs): the table's column title and the JSON's axis.name.
std::string axis_name(const SweepAxis& axis);
// "batch-64", "input0-dim1-64", "input0+1-dim1-64": the point's report file name, without ".json".
std::string point_file_stem(const SweepAxis& axis, std::int64_t value);
// The inputs with the axis set to `value`; an error naming the input when it has no such dimension.
// `--batch` leaves zero-dimensional inputs as they are (an error when every input is one).
Result<std::vector<InputSpec>> apply_axis(const std::vector<InputSpec>& inputs, const SweepAxis& axis, std::int64_t value);

#define OHPROF_POINT_STATUS_VALUES(X) \
  X(measured, "measured")             \
  X(failed, "failed")                 \
  X(interrupted, "interrupted")       \
  X(not_measured, "not_measured")
OHPROF_ENUM_CLASS(PointStatus, OHPROF_POINT_STATUS_VALUES)
std::optional<PointStatus> parse_point_status(const std::string& text);

// What the analysis derives per path and point (docs/sweep.md, "What it computes").
struct SweepPathFigures {
  double latency_ns = 0;
  double latency_se_ns = 0;
  double throughput_per_s = 0;
  double throughput_se_per_s = 0;
  // This path's median over the baseline's at this point, with its se and 95% interval (what the
  // picture draws); none for the baseline itself.
  struct BaselineRatio {
    double ratio = 0, se = 0, low = 0, high = 0;
  };
  std::optional<BaselineRatio> to_baseline;
};

// One path at one point, from the point's compare report.
struct SweepPathPoint {
  std::string name;
  SampleSummary wall_ns;                   // the interleaved pass (paths[i].wall_ns of the compare report)
  std::optional<double> busy_ns;           // split: median busy time per iteration
  std::optional<double> host_ns;           // split: median host-bound time per iteration
  std::optional<double> collector_ratio;   // split pass / interleaved pass, medians
  std::optional<bool> outputs_match;       // null: not checked
  // The median of the path's samples of each interleaved round (index = round; null: none in that round),
  // so that two paths' ratio pairs by round (docs/sweep.md, "Pairs"); empty where the point's report had
  // no rounds (a sweep before 2026-12-06).
  std::vector<std::optional<double>> round_medians_ns;
  // Some of the path's CPU kernels do not record themselves (its verdict's kernels_unrecorded): their time
  // is in host_ns, then an upper bound, and not in busy_ns, then a lower one.
  bool kernels_unrecorded = false;
  SweepPathFigures figures;                // derived (analyze_sweep); zero at points not measured
  // Device ops without a launch call leave when they were queued unknown (the verdict's host_bound_share_least
  // is set, docs/metrics.md): host_ns is then an upper bound; busy_ns is exact. Absent before 2026-12-06: false.
  bool queue_open = false;
};

// A pair's ratio at one point.
struct SweepRatio {
  std::string slower;  // oriented once for the whole sweep (analysis.pairs)
  std::string faster;
  double ratio = 0;
  double se = 0;
  double low = 0;
  double high = 0;
  bool within = false;  // the interval reaches [1 - tolerance, 1 + tolerance]
};

// One measurement of a point (`--passes`: the sweep measures every point that many times, and keeps the
// least disturbed; docs/sweep.md, "Passes").
struct SweepPass {
  int pass = 1;                     // from 1
  std::string report_path;          // its compare report; "" without one
  std::vector<std::pair<std::string, double>> medians_ns;  // each path's median, in path order
  double score_ns = 0;              // geometric mean of the medians (pass_score)
};

struct SweepPoint {
  std::int64_t value = 0;
  std::vector<std::string> inputs;  // "[64, 16]:float32"
  PointStatus status = PointStatus::not_measured;
  std::string reason;               // failed / interrupted / not_measured
  int exit_code = 0;                // failed: the code the point's compare ended with
  std::string report_path;          // the point's compare report; "" without one
  double elapsed_s = 0;
  bool artifacts_cached = false;
  StopReason stop_reason;           // of the point's interleaved measurement (the chosen pass's)
  std::vector<SweepPathPoint> paths;  // the chosen pass's
  std::vector<SweepPass> passes;      // every pass measured, in order
  int chosen_pass = 0;                // the pass `paths` come from (least_disturbed_pass); 0: none
  std::vector<Warning> warnings;      // the chosen pass's compare warnings (a failed point's, but the failure)
  // Derived (analyze_sweep): each pair's ratio.
  std::vector<SweepRatio> ratios;
};

struct SweepPair {
  std::string slower;
  std::string faster;
  std::size_t points = 0;                       // points where both were measured
  std::optional<std::int64_t> crossover;        // value; none in the range
  std::optional<std::size_t> crossover_index;   // among the pair's points
};

#define OHPROF_FIT_STATUS_VALUES(X)   \
  X(fitted, "fitted")                 \
  X(not_linear, "not_linear")         \
  X(too_few_points, "too_few_points")
OHPROF_ENUM_CLASS(FitStatus, OHPROF_FIT_STATUS_VALUES)

struct LeftOutPoint {
  std::int64_t value = 0;
  double relative_residual = 0;  // against the final fit
};

// time(x) = c + k x over the points where it fits (docs/sweep.md, "Fit").
struct SweepFit {
  std::string path;
  FitStatus status = FitStatus::too_few_points;
  std::optional<double> fixed_ns, fixed_low_ns, fixed_high_ns;
  std::optional<double> per_item_ns, per_item_low_ns, per_item_high_ns;
  std::vector<std::int64_t> points_used;
  std::vector<LeftOutPoint> points_left_out;
  std::optional<double> max_relative_residual;  // of the points used
  std::optional<std::int64_t> smallest;         // the smallest measured value
  std::optional<double> host_at_smallest_ns;
  std::optional<double> busy_at_smallest_ns;
  std::optional<double> fixed_minus_host_ns;
  bool host_upper_bound = false;  // the smallest point's kernels_unrecorded or queue_open: host_at_smallest_ns is at most,
                                  // and fixed_minus_host_ns at least, what they say
};

struct SweepAnalysis {
  std::string baseline;  // fastest at the first measured point; "" with none
  std::vector<SweepPair> pairs;
  std::vector<SweepFit> fits;  // one per path, in path order
};

struct SweepConfig {
  std::string model;
  std::vector<std::string> inputs;  // the shapes the axis is applied to
  SweepAxis axis;
  std::vector<std::string> paths;
  DeviceKind device = DeviceKind::cpu;
  PathSource compile_source = PathSource::module;
  bool kernel_profile = false;
  AdaptiveStopping stopping;  // each point's compare
  double sweep_time_limit_s = 0;
  int passes = 1;
  CheckMode check_outputs = CheckMode::warn;
  std::uint64_t seed = 0;
  double tolerance = 0.05;
  double fit_tolerance = 0.10;
  std::string inputs_file;  // --inputs: the user's tensors, resized at each point ("" : random ones of `inputs`)
  std::string inputs_file_digest;  // its values' (python/ohprof/_paths.py values_digest): what --resume compares
};

// running: written while the sweep goes on; error: an error that every point would meet ended it.
#define OHPROF_SWEEP_STOP_VALUES(X)       \
  X(running, "running")                   \
  X(complete, "complete")                 \
  X(interrupted, "interrupted")           \
  X(sweep_time_limit, "sweep_time_limit") \
  X(error, "error")
OHPROF_ENUM_CLASS(SweepStop, OHPROF_SWEEP_STOP_VALUES)
std::optional<SweepStop> parse_sweep_stop(const std::string& text);

struct SweepReport {
  RunContext context;
  SweepConfig config;
  std::vector<SweepPoint> points;  // in axis order
  SweepAnalysis analysis;
  SweepStop stop = SweepStop::running;
  std::vector<Warning> warnings;  // the sweep's own: failed points, the page
};

}  // namespace ohprof
