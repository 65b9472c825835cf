#pragma once
// The session layer: what each command does, as functions with options in and a report out. The
// command-line layer only turns flags into these options, calls one of them and hands the report to
// the printers (output/report_output.hpp).
//
//   measure_path:  `ohprof run`: one AOTI package, a timing pass, then a split pass with the activity
//                  collector, with checkpoints, kernel attribution and hints (docs/metrics.md).
//   compare_paths: `ohprof compare`: several deployment paths of one model, interleaved.
//   sweep_paths:   `ohprof sweep`: compare_paths at each value of one input dimension, and what
//                  the curves say (docs/sweep.md).
//   analyze_trace: `ohprof analyze`: the split of a PyTorch-profiler trace (docs/analyze.md).
//   diff_report_files: `ohprof diff`: two reports of the same model, path by path (docs/diff.md).
//   analyze_traces: `ohprof analyze TRACE...`: the ranks of a distributed job, in parallel, and the
//                  cross-rank view (docs/ranks.md).
//   merge_report_files: `ohprof merge`: the ranks reports of parts of a job as the report of the whole.
//   read_report_file: `ohprof show`: a report file read back, for its table, Markdown or page again.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/error.hpp"
#include "ohprof/harness/interleaved_loop.hpp"
#include "ohprof/model/device_request.hpp"
#include "ohprof/model/diff.hpp"
#include "ohprof/model/input_spec.hpp"
#include "ohprof/model/ranks.hpp"
#include "ohprof/model/report.hpp"
#include "ohprof/model/sweep.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/session/runtime.hpp"

namespace ohprof {

// What a session produced. A session that failed part-way still returns what it measured: `report`
// is then set together with the error in `status`, and the command writes the report before it
// reports the error.
struct SessionOutcome {
  std::optional<Report> report;
  Status status = ok_status();
  bool print_table = true;  // false: write the report file only (the warnings already said it all)
};

struct MeasureOptions {
  std::string aoti_package;
  std::vector<InputSpec> inputs;  // empty: those recorded in the package
  std::string inputs_file;        // --inputs: the user's torch.save'd tensors instead of random ones ("" : none)
  DeviceRequest device;
  int warmup = 10;
  int runs = 50;
  std::uint64_t seed = 0;
  int split_runs = 0;  // 0: min(runs, 100)
  bool no_cupti = false;
  std::string checkpoint_path;    // the --export-json value: checkpoints go there ("" / "-": none)
  std::string export_trace;       // the split pass's timeline as a Chrome trace ("" : none)
  std::string dump_code_dir;      // --dump-code: the package's code and kernel list, after measuring ("" : none)
  std::vector<std::string> argv;  // for the report's context
};
SessionOutcome measure_path(const MeasureOptions& options, const Runtime& runtime);

// The deployment paths `compare` knows, in the order --help lists them.
const std::vector<std::string>& known_compare_paths();

struct CompareOptions {
  std::string model;                  // module:factory; with `exported` empty and this empty: the default model
  std::vector<InputSpec> inputs;      // empty: the default model's, or those the exported program records
  std::string inputs_file;            // --inputs: the user's torch.save'd tensors, for every path ("" : none)
  std::string exported;
  std::string aoti;
  std::vector<std::string> paths;     // known_compare_paths() names, each once
  DeviceRequest device;
  AdaptiveStopping stopping;
  CheckMode check_outputs = CheckMode::warn;
  std::string cache_dir;              // "" : the default (~/.cache/ohprof/artifacts)
  std::uint64_t seed = 0;
  bool kernel_profile = false;
  bool no_cupti = false;
  // Where eager and torch.compile start; unset: the user's module with --model (or the default
  // model), the exported program's module() with --exported.
  std::optional<PathSource> compile_source;
  bool explain = true;  // measure the variants of each path and explain each gap (docs/metrics.md, "Explanation")
  // The pairs to explain, (slower, faster) by path name; empty: each path against the fastest.
  std::vector<std::pair<std::string, std::string>> explain_pairs;
  std::string checkpoint_path;
  std::string export_trace;           // the split pass's timeline, every path's iterations ("" : none)
  std::string dump_code_dir;          // --dump-code: every path's graph, code and kernel list, after measuring ("" : none)
  // --threads: counts of concurrent callers, measured after the timed passes (docs/metrics.md, "Concurrent
  // callers"); compare_paths sorts them, drops repeats and adds 1; empty: not measured.
  std::vector<int> threads;
  // --cold-start: fresh processes per path and compile-cache state, after every other pass (docs/metrics.md,
  // "Cold start"); 0: not measured.
  int cold_start = 0;
  // --what-if: measure each compile setting of what_if_settings() (model/what_if.hpp) against the
  // compile path, in the same interleaved rounds, adding the paths not asked for (docs/metrics.md,
  // "What-if ledger").
  bool what_if = false;
  std::vector<std::string> argv;
  // sweep --inputs: the shapes the `inputs_file`'s tensors are resized to at this point (docs/sweep.md,
  // "Your own inputs"); empty: as saved.
  std::vector<InputSpec> inputs_file_shapes;
};
inline constexpr int kMaxThreads = 256;
inline constexpr int kMaxColdStarts = 100;
SessionOutcome compare_paths(const CompareOptions& options, const Runtime& runtime);

// `ohprof sweep` (docs/sweep.md): `compare` at each value of one input dimension.
struct SweepOptions {
  // The model, paths and measurement of every point; `inputs` are the shapes the axis is applied to
  // (empty with no model: the default model's), `stopping.time_limit_s` bounds each point's
  // measurement. `explain` and `checkpoint_path` are set per point by the sweep.
  CompareOptions compare;
  SweepAxis axis;
  double sweep_time_limit_s = 3600;
  int passes = 1;                // measurements of each point; the least disturbed is kept
  double tolerance = 0.05;       // the crossover's band around 1
  double fit_tolerance = 0.10;   // the fit's largest relative residual
  std::string report_path;       // --export-json: rewritten after each point; "" : none
  std::string plot_path;         // the page (needs report_path); "" : none
  bool resume = false;           // keep the points report_path has measured
  std::vector<std::string> argv;
};
struct SweepOutcome {
  std::optional<SweepReport> report;  // set whenever the sweep started, with an error or not
  Status status = ok_status();
};
SweepOutcome sweep_paths(const SweepOptions& options, const Runtime& runtime);

struct AnalyzeOptions {
  std::string trace_path;
  std::string export_trace;  // "" : no trace export
  std::vector<std::string> argv;
};
SessionOutcome analyze_trace(const AnalyzeOptions& options);

// `ohprof analyze TRACE|DIR|GLOB...` as the ranks of one job (docs/ranks.md).
struct AnalyzeRanksOptions {
  std::vector<std::string> inputs;   // files, directories, globs
  int jobs = 0;                      // traces analysed at once; 0: one per core
  std::int64_t first_position = 0;   // the position of the first trace, for ranks taken from positions
  std::string rank_reports_dir;      // "" : none; else each rank's one-trace report, DIR/rank-<rank>.json
  bool each_rank = false;            // also keep each rank's one-trace table (RanksOutcome::rank_tables)
  std::vector<std::string> argv;
};
struct RanksOutcome {
  std::optional<RanksReport> report;  // set whenever the inputs named traces
  std::vector<std::string> rank_tables;  // each_rank: each analysed rank's `analyze TRACE` table, by rank
  // traces_failed (15) when some trace could not be analysed (a missing file among them), interrupted
  // (130), output_error (8) when a rank report could not be written; usage_error (2) for two traces of
  // one rank, a glob that matches nothing or a directory without traces (then no report).
  Status status = ok_status();
};
RanksOutcome analyze_traces(const AnalyzeRanksOptions& options);

// The traces the inputs name, in order, each once: a file as it is (a missing one too: it fails when
// read), a directory's *.json and *.json.gz files and a glob's matches sorted by name. Errors:
// usage_error for a glob that matches nothing or a directory without traces, file_not_found for a
// directory that cannot be listed.
Result<std::vector<std::string>> expand_trace_inputs(const std::vector<std::string>& inputs);

// True when the inputs are one file (not a directory, not a glob): `analyze` then makes its one-trace
// report; otherwise they are the ranks of a job.
bool names_one_trace(const std::vector<std::string>& inputs);

struct MergeOptions {
  std::vector<std::string> reports;  // ranks or one-trace analyze reports, plain or gzip
  std::vector<std::string> argv;
};
RanksOutcome merge_report_files(const MergeOptions& options);

struct DiffOptions {
  std::string base_path;  // run, compare, analyze or sweep reports (--export-json), plain or gzip
  std::string new_path;
  DiffConfig config;
};
struct DiffFilesOutcome {
  std::optional<DiffResult> diff;  // set whenever both reports were read
  // regression_found (13) or incomparable_reports (14) with one line saying why, when the diff says so;
  // file_not_found (3) or usage_error (2) when a report cannot be read or the settings are off.
  Status status = ok_status();
};
DiffFilesOutcome diff_report_files(const DiffOptions& options);

// `ohprof show REPORT` (docs/usage.md, "ohprof show"): one report file (plain or gzip) read back.
struct ShowOptions {
  std::string report_path;
  std::vector<std::string> argv;  // a ranks report is merged again, and records them
};
struct ShowOutcome {
  // One of the three is set when the file was read: a run, compare or analyze report; a sweep report; a
  // ranks report (the ranks of a job, or a merge), made again from its ranks as `ohprof merge` makes it.
  std::optional<Report> report;
  std::optional<SweepReport> sweep;
  std::optional<RanksReport> ranks;
  std::vector<UnknownText> unknown;  // a report's texts this ohprof does not know (a later ohprof's): left out
  // file_not_found (3): no such file; usage_error (2): not JSON, not an ohprof report, or a report that
  // cannot be read (a key missing or of the wrong type, a later schema version); a ranks report's merge status.
  Status status = ok_status();
  std::optional<DiffResult> diff;  // a diff report (`ohprof diff --export-json`), as the diff made it
};
ShowOutcome read_report_file(const ShowOptions& options);

}  // namespace ohprof
