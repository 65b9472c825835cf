#pragma once
// `ohprof diff BASE NEW` (docs/diff.md): two reports of the same model read back, path by path.
// Plain data: what the reader keeps of each report (ReportDigest), the settings, and what the analysis
// derives (DiffResult, src/analysis/diff.cpp).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/enum_text.hpp"
#include "ohprof/model/bound.hpp"
#include "ohprof/model/cold_start.hpp"
#include "ohprof/model/report.hpp"
#include "ohprof/model/warning.hpp"

namespace ohprof {

inline constexpr int kDiffSchemaVersion = 1;

// The kind of report read: the JSON's `kind` ("run", "compare", "analyze", "sweep").
#define OHPROF_DIGEST_KIND_VALUES(X) \
  X(run, "run")                      \
  X(compare, "compare")              \
  X(analyze, "analyze")              \
  X(sweep, "sweep")
OHPROF_ENUM_CLASS(DigestKind, OHPROF_DIGEST_KIND_VALUES)
std::optional<DigestKind> parse_digest_kind(const std::string& text);

// One path's split, as sums over the split pass's iterations (`split.summary.totals`).
struct SplitTotals {
  std::int64_t iterations = 0;
  std::int64_t wall_ns = 0;
  std::int64_t busy_ns = 0;
  std::int64_t host_bound_ns = 0;
  std::int64_t device_wait_ns = 0;
  // The host-bound time by host state (they add up to host_bound_ns).
  std::int64_t blocking_ns = 0;
  std::int64_t launch_ns = 0;
  std::int64_t other_api_ns = 0;
  std::int64_t harness_ns = 0;
  std::int64_t framework_ns = 0;
  // Some of its kernels do not record themselves (the verdict's kernels_unrecorded: a CPU split without
  // --kernel-profile): their time is in host_bound (as framework, the time in no runtime call), so busy
  // is a lower bound and those two upper bounds.
  bool kernels_unrecorded = false;
  // Device ops without a launch call leave when they were queued unknown (the verdict's host_bound_share_least
  // is set; docs/metrics.md, "Ops without a launch call"): host_bound and its host states are upper bounds,
  // device_wait a lower one.
  bool queue_unknown = false;  // (the bound of ComponentChange's host-bound, host states and device-wait)
};

// The split's components, in the diff's order: each ComponentChange's name (the diff report's `component`) and the
// SplitTotals field it is the per-iteration mean of. One list for the analysis that makes the changes
// (split_changes) and the reader of a diff report (diff_from_json).
struct SplitComponent {
  const char* name;
  std::int64_t SplitTotals::*field;
};
inline constexpr std::array<SplitComponent, 9> kSplitComponents{{{"wall", &SplitTotals::wall_ns},
                                                                 {"busy", &SplitTotals::busy_ns},
                                                                 {"host_bound", &SplitTotals::host_bound_ns},
                                                                 {"device_wait", &SplitTotals::device_wait_ns},
                                                                 {"blocking", &SplitTotals::blocking_ns},
                                                                 {"launch", &SplitTotals::launch_ns},
                                                                 {"other_api", &SplitTotals::other_api_ns},
                                                                 {"harness", &SplitTotals::harness_ns},
                                                                 {"framework", &SplitTotals::framework_ns}}};

// compare --threads: one of a path's points (`concurrency.points`).
struct DigestThroughput {
  int threads = 0;
  double calls_per_s = 0;
  double calls_per_s_se = 0;
  std::size_t rounds = 0;  // its round_ns count
};

// compare --cold-start: one cache state of a path, its processes' totals (`cold_start.states[].samples`;
// none when every process failed) and the peaks of those that read their memory (`peak_rss_bytes`).
struct DigestStart {
  CompileCache cache = CompileCache::none;
  std::vector<std::int64_t> totals_ns;
  std::vector<std::int64_t> peaks_bytes;
};

// What makes a path's figures in one report not a measure of the path it names (docs/diff.md, "Figures that are
// not the path's"), in the order the first that holds is taken.
#define OHPROF_DIGEST_FLAW_VALUES(X)                                                                                \
  X(outputs_differ, "outputs_differ")  /* its output check failed against the reference path */                     \
  X(ran_uncompiled, "ran_uncompiled")  /* a Dynamo path whose probe after the timing pass ran uncompiled code */     \
  X(samples_pooled, "samples_pooled")  /* its samples mix the programs before and after a compile inside them */
OHPROF_ENUM_CLASS(DigestFlaw, OHPROF_DIGEST_FLAW_VALUES)
// The first DigestFlaw that holds for a path of a run or compare report: its output check failed, ran_uncompiled
// (its execution check's probe), or its execution check pooled the samples across a compile. None otherwise.
std::optional<DigestFlaw> digest_flaw(const PathResult& path);

// What the diff uses of one path of a report.
struct DigestPath {
  std::string name;
  std::optional<DigestFlaw> flaw;      // none: its figures measure the path it names, as far as the report says
  std::optional<std::int64_t> point;   // sweep: the axis value of the point it was measured at
  std::vector<std::int64_t> samples_ns;  // the measured iterations' wall times (empty: none kept)
  std::optional<double> median_ns;      // the report's own wall_ns.median (a sweep point without its report)
  std::optional<SplitTotals> split;     // absent: no split in the report
  std::vector<DigestThroughput> throughput;  // compare --threads: its measured points, fewest callers first
  std::vector<DigestStart> starts;           // compare --cold-start: its states
  std::optional<PathRunQueue> run_queue;     // run, compare: its wait for a CPU (docs/metrics.md, "Waiting for a core")
};

// What the diff uses of one report: its identity (what must match for two reports to be compared),
// its context (what is only warned about), and its paths.
struct ReportDigest {
  std::string file;                 // as given on the command line
  DigestKind kind = DigestKind::run;
  int schema_version = 0;           // schema_version (run, compare, analyze) or sweep_schema_version
  // identity
  std::string model;                // compare/sweep: the module:factory (or the program); run: the package; analyze: ""
  std::vector<std::string> inputs;  // the input specs ("[1, 16]:float32"); analyze: none
  std::string axis;                 // sweep: the axis name ("batch"); "" otherwise
  DeviceKind device_type = DeviceKind::cpu;
  std::string device_name;
  // context
  std::string ohprof_version;
  std::string torch_version;
  std::string cuda_version;
  std::string hostname;
  int cpu_threads = 0;
  std::string compile_source;       // compare/sweep: "module" / "exported_program"; "" otherwise
  std::vector<DigestPath> paths;    // role "path" only (variants are not diffed); sweep: each point's paths
  std::vector<std::string> notes;   // what the reader could not use (a sweep point's missing report)
  std::string unknown_values;       // texts this ohprof does not know, read as defaults: "phase 'x', ..."; "" when none
  // run, compare, sweep: where the inputs' values came from: "random (seed 0)" or "--inputs file (digest
  // ...)"; analyze: ""
  std::string inputs_values;
};

// `ohprof diff`'s settings (docs/diff.md, "The statistics").
struct DiffConfig {
  double threshold = 0.10;        // the relative change of the median that counts (0.10: 10%)
  double alpha = 0.05;            // the interval's level: a (1 - alpha) interval
  int resamples = 10000;          // bootstrap resamples (100 .. kMaxDiffResamples)
  std::uint64_t seed = 0;
  std::string relative_to;        // a path: each path's change is against this path's, per report ("" : none)
  bool force = false;             // diff incomparable reports anyway (the reasons become warnings)
};

// The fewest samples either side needs for a verdict (docs/diff.md).
inline constexpr std::size_t kMinDiffSamples = 10;
// The most bootstrap resamples a diff draws (each is a double kept until the quantiles are taken).
inline constexpr int kMaxDiffResamples = 10'000'000;

// larger and smaller: a fresh process's peak memory (DeployMeasure::fresh_peak), where the others say time.
#define OHPROF_DIFF_VERDICT_VALUES(X) \
  X(faster, "faster")                 \
  X(slower, "slower")                 \
  X(no_change, "no_change")           \
  X(unknown, "unknown")               \
  X(larger, "larger")                 \
  X(smaller, "smaller")
OHPROF_ENUM_CLASS(DiffVerdict, OHPROF_DIFF_VERDICT_VALUES)
// The verdicts that fail the gate: slower, larger.
bool is_worse(DiffVerdict verdict);

// Why a path got its verdict.
#define OHPROF_DIFF_REASON_VALUES(X)                                                                                                    \
  X(above_threshold, "above_threshold")      /* faster / slower (a peak: smaller / larger): no change excluded, past the threshold */   \
  X(below_threshold, "below_threshold")      /* no_change: the interval excludes no change, but the change is within the threshold */   \
  X(not_significant, "not_significant")      /* no_change: the interval includes no change */                                           \
  X(no_samples, "no_samples")                /* unknown: a side has no samples (a sweep point without its report) */                    \
  X(too_few_samples, "too_few_samples")      /* unknown: fewer than kMinDiffSamples on a side */                                        \
  X(reference_path, "reference_path")        /* unknown: the --relative-to path itself */                                               \
  X(reference_missing, "reference_missing")  /* unknown: the --relative-to path lacks samples at this point */                          \
  X(only_in_base, "only_in_base")            /* unknown: the path (or the deployment figure) is not in the new report */                \
  X(only_in_new, "only_in_new")              /* unknown: the path (or the deployment figure) is not in the base report */               \
  X(callers_differ, "callers_differ")        /* unknown: throughput measured at no common number of callers */          \
  X(flawed, "flawed")                        /* unknown: a side's figures are not the path's (PathDiff::base_flaw, new_flaw) */ \
  X(reference_flawed, "reference_flawed")    /* unknown: the --relative-to path's figures in a report are not its own (its row: flawed) */
OHPROF_ENUM_CLASS(DiffReason, OHPROF_DIFF_REASON_VALUES)

// A split component's per-iteration mean in each report (totals / iterations).
struct ComponentChange {
  const char* component = "";  // "wall", "busy", "host_bound", "device_wait", "blocking", "launch", ...
  double base_ns = 0;
  double new_ns = 0;
  Bound base_bound = Bound::exact;  // SplitTotals::kernels_unrecorded (model/bound.hpp)
  Bound new_bound = Bound::exact;
};

// One path (at one point, for sweeps) in both reports.
struct PathDiff {
  std::string name;
  std::optional<std::int64_t> point;
  std::size_t base_count = 0;             // samples in each report
  std::size_t new_count = 0;
  std::optional<double> base_median_ns;
  std::optional<double> new_median_ns;
  // new median / base median (with --relative-to: each over the reference's median in its report):
  // the point estimate and the bootstrap interval. Absent when unknown.
  std::optional<double> ratio;
  std::optional<double> low;
  std::optional<double> high;
  DiffVerdict verdict = DiffVerdict::unknown;
  DiffReason reason = DiffReason::too_few_samples;
  std::optional<DigestFlaw> base_flaw;    // flawed: what each side's figures are, where they are not the path's
  std::optional<DigestFlaw> new_flaw;
  std::vector<ComponentChange> split;     // both reports have a split; empty otherwise
};

// compare: a deployment figure of one path in both reports (docs/diff.md, "Deployment figures").
#define OHPROF_DEPLOY_MEASURE_VALUES(X)                                                                      \
  X(throughput, "throughput")  /* compare --threads: calls per second at the most callers both measured */   \
  X(start, "start")            /* compare --cold-start: a cache state's median total */                      \
  X(fresh_peak, "fresh_peak")  /* compare --cold-start: a cache state's median peak resident set (VmHWM) */
OHPROF_ENUM_CLASS(DeployMeasure, OHPROF_DEPLOY_MEASURE_VALUES)

struct DeploymentDiff {
  std::string path;
  DeployMeasure measure = DeployMeasure::throughput;
  int threads = 0;                          // throughput: the most callers both reports measured (0: none common)
  CompileCache cache = CompileCache::none;  // start, fresh_peak: the cache state
  std::optional<double> base_value;         // calls/s, the median total (ns), or the median peak (bytes)
  std::optional<double> new_value;
  std::size_t base_count = 0;               // rounds, processes, or processes that read their peak
  std::size_t new_count = 0;
  // The figure's new value over its base value: calls/s (below 1: fewer calls, worse), the median
  // start (above 1: slower), or the median peak (above 1: larger). Absent when a side has no figure.
  std::optional<double> ratio;
  DiffVerdict verdict = DiffVerdict::unknown;
  DiffReason reason = DiffReason::no_samples;
};

// What incomparabilities() compares: each Incomparability's field.
inline constexpr std::array<const char*, 7> kIncomparableFields{"kind", "schema_version", "model", "inputs",
                                                                "axis", "device",         "relative_to"};

// Why two reports cannot be compared.
struct Incomparability {
  const char* field = "";  // one of kIncomparableFields
  std::string base;
  std::string new_value;
};

// What the diff concludes as a whole (and the exit code it ends with, docs/exit-codes.md).
#define OHPROF_DIFF_OUTCOME_VALUES(X)                                                                                                \
  X(no_regression, "no_regression")    /* no path slower, no figure worse (0) */                                                     \
  X(regression, "regression")          /* a path slower, or a figure worse, beyond the threshold (13) */                            \
  X(incomparable, "incomparable")      /* the reports differ in kind, schema, model, inputs, axis or device, without --force (14) */ \
  X(nothing_judged, "nothing_judged")  /* no path has enough samples in both reports for a verdict (14) */
OHPROF_ENUM_CLASS(DiffOutcome, OHPROF_DIFF_OUTCOME_VALUES)

struct DiffResult {
  std::string base_file;
  std::string new_file;
  DigestKind kind = DigestKind::run;
  DiffConfig config;
  std::vector<Incomparability> incomparable;  // empty: comparable (with --force they are warnings)
  std::vector<PathDiff> paths;                // in the base report's order, then the new report's others
  std::vector<DeploymentDiff> deployment;     // compare: the paths of both reports, throughput then each state's start and fresh peak
  std::vector<Warning> warnings;              // context differences, and the readers' notes
  [[nodiscard]] bool regression() const;      // a path, or a deployment figure, is worse (is_worse)
  [[nodiscard]] std::size_t judged() const;   // paths and deployment figures with a verdict other than unknown
  [[nodiscard]] DiffOutcome outcome() const;  // incomparable, then nothing_judged, then regression
};

}  // namespace ohprof
