#pragma once
// Text for the report's typed state, made once here for every printer (table, JSON, warnings).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ohprof/model/bound.hpp"
#include "ohprof/model/path_kind.hpp"
#include "ohprof/model/report.hpp"

namespace ohprof {

// A figure as printed with its bound's sign (model/bound.hpp): "≥" before one that is at least, "≤" before one
// that is at most, nothing before an exact one.
std::string with_bound(Bound bound, std::string_view figure);
// A verdict's share of the wall as printed: with its bound's sign where the path's kernels do not record
// themselves ("≥17.2%" busy, "≤82.8%" dispatch); as a range where ops without a launch call leave host-bound
// and device-wait open (docs/metrics.md, "Ops without a launch call": "0.1–42.3%"); else "42.3%".
std::string split_share_text(const PathVerdict& verdict, TimeShare share);
// Why a path's host-bound and device-wait are ranges (PathVerdict::queue_open): "22224 device ops have no
// launch call in the data, so when they were queued is not known".
std::string queue_unknown_clause(const PathVerdict& verdict);

// "runs reached", "converged", "max runs reached (unmet: ...)", "time limit (unmet: ...)",
// "interrupted", "error", "no paths", "end of trace", "in progress"; "" for none.
std::string stop_reason_text(const StopReason& reason);
// stop_reason_text's inverse (a report read back); none for a text it never writes. "max runs reached" and
// "time limit" without their "(unmet: ...)" read with no unmet criteria.
std::optional<StopReason> stop_reason_from_text(std::string_view text);

// The verdict's advice (docs/metrics.md, "Verdict" -> "Advice"), one line quoting the numbers that
// decided it: the JSON's `split.verdict.suggestion`, and the table's verdict line after "<verdict>: ".
// `iterations` is the number of analysed iterations (BreakdownTotals::iterations), quoted with the
// full-queue count. `path` is the path's kind (advice_path_kind): the AOTI paths and compile:cpp-wrapper are
// not told to use the AOTInductor C++ wrapper they already have (docs/metrics.md, "Advice"). `slower` are
// the paths measured slower than this one (PathResult::slower_paths): those among the remedies the advice
// names are cited after it, with their ratios. `device` is the report's device (RunContext::device), which
// the sentence calls by its noun (device_noun); no default, so that no caller says "GPU" by omission.
std::string verdict_text(const PathVerdict& verdict, DeviceKind device, std::size_t iterations,
                         std::optional<PathKind> path = std::nullopt, const std::vector<PathRatio>& slower = {});
// The kind verdict_text reads for a path of `report`: parse_path_kind of its name in a run or compare
// report; none for a variant and for analyze's traces (whose names are file names, "aoti.json" too).
std::optional<PathKind> advice_path_kind(const Report& report, const PathResult& path);
// verdict_text of a path of `report` that has a split: its iterations, advice_path_kind, its slower paths and
// the report's device (device_noun). "" for a path without a split. Every printer's verdict sentence is this one.
std::string path_verdict_text(const Report& report, const PathResult& path);

// The most each remedy could gain on this timeline, by Amdahl's bound (docs/metrics.md, "Headroom"):
// "at most 2.36x with faster kernels, at most 1.67x without the host-bound time, at most 1.02x without the
// device-wait" ("unbounded" for a part that is all of the wall time);
// CPU runs name the dispatch time and leave device-wait out. "" for an unknown verdict.
std::string headroom_text(const PathVerdict& verdict);
// The same with what it is: "... (Amdahl's bound on this timeline)"; "" for an unknown verdict. The
// table's `headroom:` line, and the sentence after the verdict in the Markdown and HTML reports.
std::string headroom_line(const PathVerdict& verdict);

// What a path ran while measured (docs/metrics.md, "Execution check"), one line: "Dynamo, 2 graphs, 1 graph
// break; compiled inside 1 measured iteration, its first 4 timing samples left out; CUDA graphs not
// applicable; outputs on cpu", or "no Dynamo; no compile while measured; outputs on cpu".
std::string execution_text(const ExecutionCheck& check);
// A compile's FX-graph cache lookups (ExecutionFacts): "compiled from Inductor's FX-graph cache (1 hit)",
// "Inductor generated its code (1 FX-graph cache miss)", "Inductor's FX-graph cache: 1 hit, 2 misses";
// "" when not known or none.
std::string fx_cache_text(std::optional<std::int64_t> hits, std::optional<std::int64_t> misses);
// "in this process: build +52.4 MB retained (peak +80.1 MB), calls peak +1.20 MB over 3": docs/metrics.md,
// "Memory".
std::string memory_text(const PathMemory& memory);
// "build +5.00 kB allocated, +8.00 kB reserved, +8.00 kB used (allocated peak +8.00 kB); calls peak +700 B
// allocated, +0 B reserved over 3; graph pool 4.10 kB": docs/metrics.md, "Device memory".
std::string device_memory_text(const PathDeviceMemory& device, std::int64_t run_calls);
// compare --threads (docs/metrics.md, "Concurrent callers"): "24.1k" calls per second; the limit in words;
// one line per thread count (the 1-caller line with the timing pass's median on the measuring thread,
// `timing_median_ns`, when positive), then the limit's.
std::string rate_text(double per_s);
std::string concurrency_limit_text(const PathConcurrency& concurrency);
std::vector<std::string> concurrency_lines(const PathConcurrency& concurrency, double timing_median_ns);
// One count's figures as concurrency_lines writes them (the reports' table puts each in a cell): `measuring` only
// for 1 caller with a positive timing median, `vs_one` only for more callers, `cpus` where both were read.
struct ThreadsPointText {
  std::string rate;       // calls per second, "36.6k"
  std::string p50;        // "40.70 us"
  std::string p99;
  std::string measuring;  // "on the measuring thread: median 9.574 us; 4.3x slower on a caller thread"
  std::string vs_one;     // "x1.60 of 1 caller (95% interval 1.18 to 2.01)"
  std::string cpus;       // "caller threads on 1.80 CPUs, waiting 15.5%"
};
ThreadsPointText threads_point_text(const PathConcurrency& concurrency, const ThreadsPoint& point,
                                    double timing_median_ns);
// The limit line after "limit: ": concurrency_limit_text, the runner's model instances, and a qualifier.
std::string concurrency_limit_line(const PathConcurrency& concurrency);
// compare --cold-start (docs/metrics.md, "Cold start"): a header line, then one line per cache state:
// "cold cache   9.80 s = 40 ms process + 1.90 s import + 310 ms load + 7.20 s compile + 350 ms first call
// (range 9.61 s … 10.2 s); outputs match", the warm and artifacts states with how they stand against cold.
std::vector<std::string> cold_start_lines(const PathColdStart& cold_start);
// Its pieces: the header line; a state's name ("start", "cold cache"); and what follows the name.
std::string cold_start_header(const PathColdStart& cold_start);
std::string cold_start_state_label(const ColdStartState& state);
std::string cold_start_state_text(const ColdStartState& state);
// What the deployment summary's memory columns are (docs/metrics.md, "Memory", "Fresh-process memory"), one
// sentence: the in-process differences, and the fresh processes' peak where --cold-start read one.
std::string deployment_memory_note(const DeploymentSummary& summary);

// compare --what-if (docs/metrics.md, "What-if ledger"): one line per setting, "skip-guards   saves 2.23 us
// per call (95% interval 2.10 us to 2.36 us; 4.9% of compile's 45.1 us); outputs match; no compile of its
// own", "within noise: ..." when the interval contains zero, "not applicable: ..." or "not measured: ...";
// then the A/A check's lines, one per rebuild ("built again", "built again-2"), and the placement band's line
// (kWhatIfPlacementLabel). `base_median_ns`: the base path's median wall time (0: not
// quoted).
std::vector<std::string> what_if_lines(const WhatIfLedger& ledger, double base_median_ns);
// One entry's sentence of those lines (after the setting's name): the Markdown and HTML reports' too.
std::string what_if_entry_text(const WhatIfEntry& entry, const WhatIfLedger& ledger, double base_median_ns);
// An A/A check's line: its label ("built again", "built again-2", from its path) and what that rebuild of the
// base moved.
std::string what_if_again_label(const WhatIfAgain& again);
std::string what_if_again_text(const WhatIfAgain& again, const WhatIfLedger& ledger, double base_median_ns);
// The placement band's line: what a setting compiled on its own must save or cost to be named, and from what.
inline constexpr const char* kWhatIfPlacementLabel = "placement";
std::string what_if_placement_text(const WhatIfLedger& ledger);
// The base's median wall time in `report` (0 when it has no samples or there is no ledger).
double what_if_base_median(const Report& report);

// compare's deployment summary (docs/metrics.md, "Deployment summary"): the recommendation in one sentence,
// naming the numbers that decided it: "deploy aoti: it leads every criterion measured: per-call latency 6.33
// us (next eager 22.7 us); ...", or "the choice depends on what you value: per-call latency: aoti 6.33 us
// (next ...); cold start: eager 3.25 s (next ...)", then what was not measured and what was left out.
std::string deployment_text(const DeploymentSummary& summary);
// The cells of one row of its table, after the path's name: latency, calls/s, cold start, warm start, build
// memory, calls' peak, host share ("-" where not measured); and the header of those columns.
std::vector<std::string> deployment_header(const DeploymentSummary& summary);
std::vector<std::string> deployment_cells(const DeploymentSummary& summary, const DeploymentRow& row);

// "26.00 us ± 300 ns": an estimate and its standard error.
std::string estimate_text(const Estimate& estimate);

// One ratio of the summary, with its 95% interval (docs/metrics.md, "Significance"): "aoti ran 1.36
// times faster than compile (95% interval 1.21 to 1.52)", or, when the interval contains one, "aoti and
// compile are within noise: ratio 1.36 (95% interval 0.84 to 1.88 contains 1)".
std::string ratio_text(const PathRatio& ratio);
// The same, in a report whose paths are `paths`: a side that ran uncompiled code (the execution check's
// probe) is named after it, "; compile ran uncompiled code (execution check)".
std::string ratio_text(const PathRatio& ratio, const std::vector<PathResult>& paths);

// The wrapper term's name: "Inductor's Python wrapper vs AOTI's C++ runner" (the floors' kinds, or
// their path names where a floor is not a known kind).
std::string wrapper_label(const GapExplanation& explanation);

// The explanation's answer in one line (docs/metrics.md, "Explanation"): the JSON's
// `explanations[].answer` and the first line of the table's block, e.g. "compile is 26.1 us ± 0.3 us
// slower than aoti: kernels the same (0.1 us); guards 1.5 us, Dynamo entry 17.6 us, ...; residual 0.4 us".
std::string explanation_text(const GapExplanation& explanation);

// "why compile is slower than aoti" ("against" when the gap is within noise): the block's title.
std::string explanation_title(const GapExplanation& explanation);

// The explanation's terms in order (gap, kernels, each layer, the wrappers, the residual), each with
// its label, estimate and how it was measured: the rows of the table's block and of the Markdown's.
struct ExplanationTerm {
  std::string label;
  Estimate estimate;
  std::string how;
};
std::vector<ExplanationTerm> explanation_terms(const GapExplanation& explanation);
// The lines after the terms: Dynamo's ranges as a second view, each remedy ("closes it: ..."), each
// missing term ("missing: ...").
std::vector<std::string> explanation_notes(const GapExplanation& explanation);

// "the same 18 kernels; a time difference is host overhead or kernel speed", or "16 in both, 2 only
// in eager, 0 only in aoti".
std::string kernel_diff_headline(const KernelSetDiff& diff);

}  // namespace ohprof
