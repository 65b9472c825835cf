#pragma once
// compare --what-if: what each compile setting a user can change in their own deployment buys, measured
// against the compiled path it changes, in the same interleaved rounds (docs/metrics.md, "What-if ledger").
// Plain data; which path measures each setting is defined here once (what_if_settings).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/enum_text.hpp"
#include "ohprof/model/explanation.hpp"

namespace ohprof {

// The compiled path every setting is measured against: torch.compile's default mode.
inline constexpr const char* kWhatIfBase = "compile";

// The A/A check: the base's own settings compiled again, each time in a fresh Inductor cache, so that each
// build's code, weights and buffers are its own. Their differences from the base are placement alone
// (docs/metrics.md, "What-if ledger"). Built in this order, after every setting's path.
inline constexpr std::array<const char*, 2> kWhatIfRebuilds{"compile:again", "compile:again-2"};

// A significant effect of a separately compiled setting inside the placement band is "negligible": separately
// compiled paths move by where their code and buffers land in memory, which one run's interval does not cover
// (docs/metrics.md, "What-if ledger"). The band always covers at least ± this share of the base's median.
inline constexpr double kWhatIfNegligibleShare = 0.01;

// One setting, changed alone from the base path.
#define OHPROF_COMPILE_SETTING_VALUES(X)                                                                                                            \
  X(skip_guards, "skip-guards")                /* torch.compiler.set_stance("default", skip_guard_eval_unsafe=True) around each call */             \
  X(skip_module_guards, "skip-module-guards")  /* torch.compile(options={"guard_filter_fn": torch.compiler.skip_guard_on_all_nn_modules_unsafe}) */ \
  X(cpp_wrapper, "cpp-wrapper")                /* torch._inductor.config.cpp_wrapper = True */                                                      \
  X(cuda_graphs, "cuda-graphs")                /* mode="reduce-overhead" */                                                                         \
  X(autotune, "autotune")                      /* mode="max-autotune-no-cudagraphs" */
OHPROF_ENUM_CLASS(CompileSetting, OHPROF_COMPILE_SETTING_VALUES)
const char* setting_label(CompileSetting setting);  // what the user writes: "set_stance(skip_guard_eval_unsafe=True)", ...

// A setting and the path that measures it ("compile/no-guards", "compile:no-module-guards", ...).
struct WhatIfSetting {
  CompileSetting setting = CompileSetting::skip_guards;
  std::string path;
};
// Every setting, in the ledger's order, with its path.
const std::vector<WhatIfSetting>& what_if_settings();
// Whether the setting's path compiles on its own (its ready-in time and memory are its cost), or runs the
// base's compile with something changed around the call (guard evaluation skipped: no cost of its own).
bool what_if_compiles(CompileSetting setting);

// One setting's line of the ledger. `saved`, `outputs_match` and the costs are set only when the setting
// applies and both it and the base were measured.
struct WhatIfEntry {
  CompileSetting setting = CompileSetting::skip_guards;
  std::string path;             // the path that measured it
  std::string not_applicable;   // why the device or the torch in use does not offer it ("" : it does)
  std::string unavailable;      // why it applies but was not measured (its build failed; no samples)
  std::optional<Estimate> saved;  // median(base) − median(path), timing pass; > 0: the setting is faster
  bool significant = false;       // saved's 95% interval excludes zero (docs/metrics.md, "Significance")
  bool negligible = false;        // significant, compiled on its own, and saved inside WhatIfLedger::placement
  // A guard setting (skip-guards, skip-module-guards) whose saving's 95% interval lies above all of the
  // base's guard evaluation (WhatIfLedger::base_cache_lookup_ns): not all of it is the setting's
  // (docs/metrics.md, "What-if ledger").
  bool beyond_guards = false;
  std::optional<bool> outputs_match;     // the path's output check against the reference (eager)
  std::optional<double> max_abs_diff;    // from that check
  // Its cost, for a setting that compiles on its own (what_if_compiles): its ready-in time in this
  // process (PathResult::load_ns: compile and first call, after the paths built before it), and its
  // memory-pass peak growth less the base's (PathMemory::run_peak_bytes).
  std::optional<std::int64_t> ready_ns;
  std::optional<std::int64_t> extra_run_peak_bytes;
  // On a CUDA device: the private (CUDA-graph) pool its memory pass left reserved
  // (PathDeviceMemory::graph_pool_bytes), set for a path expected to replay CUDA graphs.
  std::optional<std::int64_t> graph_pool_bytes;
  // Its compile's FX-graph cache lookups (ExecutionFacts): a ready-in time from the cache is a load, not
  // a compile.
  std::optional<std::int64_t> fx_cache_hits;
  std::optional<std::int64_t> fx_cache_misses;
};

// One line of the A/A check: the base against one of its rebuilds (kWhatIfRebuilds).
struct WhatIfAgain {
  std::string path;               // its path, "compile:again", ...
  std::string unavailable;        // why it has no figure (its build failed; no samples; the base's)
  std::optional<Estimate> moved;  // median(base) − median(rebuild), timing pass: placement alone
  bool significant = false;       // moved's 95% interval excludes zero
};

// Where a separately compiled setting's saving lands, 95% of the time, when the setting changes nothing: a
// further build's placement and this run's noise on its median (docs/metrics.md, "What-if ledger"). The base
// and its measured rebuilds are n = builds draws of one build's median; a setting that changes nothing is one
// more draw, so it falls within Student's prediction interval
// mean ± t(n−1) · s · √(1 + 1/n) of them, and its saving, median(base) − its median, within
// center_ns ± half_width_ns, center_ns = median(base) − mean. The band, [low_ns, high_ns], is that interval
// widened where needed to ± kWhatIfNegligibleShare · median(base); with no measured rebuild it is that alone.
enum class PlacementRule {
  prediction,  // this ohprof's: the prediction interval above
  floor,       // read from an older report: |saved| < max(1% of median(base), 11.03 · |moved| of one rebuild), ±low/high
  absent,      // read from a report older than the A/A check: no band recorded
};
struct PlacementBand {
  PlacementRule rule = PlacementRule::prediction;
  int builds = 0;            // n: the base and its measured rebuilds (0: the base has no samples)
  double spread_ns = 0;      // s: the sample standard deviation of their medians (n ≥ 2)
  double t = 0;              // student_t_975(n − 1) (n ≥ 2)
  double center_ns = 0;      // median(base) − the mean of the n medians
  double half_width_ns = 0;  // t · s · √(1 + 1/n)
  double low_ns = 0;
  double high_ns = 0;
  bool from_again = false;   // the rebuilds' interval set an edge (it reaches past the share on that side)
};

// Whether the rebuilds' own interval, center_ns ± half_width_ns (builds ≥ 2), holds a saving: inside the band
// because of the rebuilds, not only because of the share.
bool rebuilds_hold(const PlacementBand& band, double saved_ns);
// Whether the share set the band's low (high) edge in place of the rebuilds' interval, which it reaches past
// there (builds ≥ 2).
bool low_edge_widened(const PlacementBand& band);
bool high_edge_widened(const PlacementBand& band);

// The ledger of one compare run.
struct WhatIfLedger {
  std::string base = kWhatIfBase;
  bool base_measured = false;  // the base path has samples (else no entry has `saved`)
  std::int64_t base_ready_ns = 0;  // the base's ready-in time (PathResult::load_ns)
  std::optional<std::int64_t> base_fx_cache_hits;    // and its compile's FX-graph cache lookups
  std::optional<std::int64_t> base_fx_cache_misses;
  // The median of the base's "TorchDynamo Cache Lookup" ranges per call (DynamoRanges, split pass; CPU
  // collector only): its cache lookup with every guard it evaluates, which bounds what a guard setting saves.
  std::optional<double> base_cache_lookup_ns;
  std::vector<WhatIfEntry> entries;  // what_if_settings()'s order
  std::vector<WhatIfAgain> again;    // the A/A check, one line per rebuild, kWhatIfRebuilds' order
  PlacementBand placement;           // what a separately compiled setting's effect must leave to be named
};

}  // namespace ohprof
