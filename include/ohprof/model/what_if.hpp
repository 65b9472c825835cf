#pragma once
// compare --what-if: what each compile setting a user can change in their own deployment buys, measured
// against the compiled path it changes, in the same interleaved rounds (docs/metrics.md, "What-if ledger").
// Plain data; which path measures each setting is defined here once (what_if_settings).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/enum_text.hpp"
#include "ohprof/model/explanation.hpp"

namespace ohprof {

// The compiled path every setting is measured against: torch.compile's default mode.
inline constexpr const char* kWhatIfBase = "compile";

// The A/A check: the base's own settings compiled again, in a fresh Inductor cache, so that its code, weights
// and buffers are its own. Its difference from the base is placement alone (docs/metrics.md, "What-if ledger").
inline constexpr const char* kWhatIfAgain = "compile:again";

// A significant effect of a separately compiled setting below the placement floor is "negligible": separately
// compiled paths move by where their code and buffers land in memory, which one run's interval does not cover
// (docs/metrics.md, "What-if ledger"). The floor is the larger of this share of the base's median and
// kWhatIfAgainFactor times what the A/A check moved.
inline constexpr double kWhatIfNegligibleShare = 0.01;
// If placement alone moves each build by an independent normal amount, a setting's saving S = X − Y and the A/A
// check's M = X − Z (X the base's, Y the setting's, Z the rebuild's) are normal with correlation 1/2, so S/M
// follows a Cauchy law of location 1/2 and scale √3/2, and |S| ≤ c·|M| with probability 95% for this c, the
// root of (atan((c − 1/2)/(√3/2)) + atan((c + 1/2)/(√3/2)))/π = 0.95.
inline constexpr double kWhatIfAgainFactor = 11.026429597816165;

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
  bool negligible = false;        // significant, compiled on its own, and |saved| < WhatIfLedger::placement_floor_ns
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

// The A/A check's line: the base against itself compiled again (kWhatIfAgain).
struct WhatIfAgain {
  std::string path = kWhatIfAgain;
  std::string unavailable;        // why it has no figure (its build failed; no samples; the base's)
  std::optional<Estimate> moved;  // median(base) − median(again), timing pass: placement alone
  bool significant = false;       // moved's 95% interval excludes zero
};

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
  WhatIfAgain again;
  // What a separately compiled setting's significant effect must reach to be named: max(kWhatIfNegligibleShare ·
  // median(base), kWhatIfAgainFactor · |again.moved|); 0 when the base has no samples.
  double placement_floor_ns = 0;
  bool floor_from_again = false;  // the A/A check's term set the floor (it exceeds the share)
};

}  // namespace ohprof
