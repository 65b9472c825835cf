#pragma once
// compare --cold-start: each path from a fresh process to its first correct result (docs/metrics.md,
// "Cold start").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

// The Inductor cache folder a process starts with: torch.compile paths (cold, warm, artifacts) and
// aoti:python (cold, warm: aoti_load_package's CPU vector-ISA probe is cached there) read it; the AOTI C++
// loader and eager read nothing there and start with `none`.
#define OHPROF_COMPILE_CACHE_VALUES(X)                                                                                 \
  X(none, "none")            /* nothing to cache */                                                                    \
  X(cold, "cold")            /* an empty Inductor cache folder (TORCHINDUCTOR_CACHE_DIR, TRITON_CACHE_DIR below it) */ \
  X(warm, "warm")            /* the folder a first, unkept process of the same path filled */                          \
  X(artifacts, "artifacts")  /* an empty folder, and the portable cache artifacts that first process saved */          \
                             /* (torch.compiler.save_cache_artifacts), loaded before the first call */
OHPROF_ENUM_CLASS(CompileCache, OHPROF_COMPILE_CACHE_VALUES)
std::optional<CompileCache> parse_compile_cache(const std::string& text);

// One fresh process, on CLOCK_MONOTONIC: the parent's clock before it started the process, and the
// child's at each step. The phases (docs/metrics.md, "Cold start"):
//   process     = main − spawn          (exec, the interpreter's start)
//   import      = torch − main          (import torch)
//   load        = loaded − tool − hook  (the model's code and weights, the package, torch.compile's wrapper,
//                                         the cache artifacts; hook: ohprof installing its compile log)
//   compile     = compile events inside the first call (Dynamo, AOTAutograd, Inductor)
//   first call  = first − loaded − compile
//   total       = the sum of the five = first − spawn − (tool − torch) − hook
// tool − torch and hook are ohprof's own work in the child (its module, the inputs and the reference;
// its compile log): not counted.
struct ColdStartSample {
  int round = 0;                          // the round the process ran in (0-based)
  std::int64_t process_ns = 0;
  std::int64_t import_ns = 0;
  std::int64_t load_ns = 0;
  std::int64_t compile_ns = 0;
  std::int64_t first_call_ns = 0;
  std::int64_t total_ns = 0;
  std::int64_t pid = 0;                   // the child's process id
  // Its first output against the reference (eager in the measuring process), as the output check
  // defines it (docs/metrics.md, "Output check").
  bool output_matches = false;
  std::optional<double> max_abs_diff;
  std::string output_detail;              // why it differs ("" : it matches)
  // The process's resident set (VmRSS) and its high-water mark (VmHWM) once its first call returned, before
  // its output check (docs/metrics.md, "Cold start", "Fresh-process memory"); null where it could not read them.
  std::optional<std::int64_t> rss_bytes;
  std::optional<std::int64_t> peak_rss_bytes;
  friend bool operator==(const ColdStartSample&, const ColdStartSample&) = default;
};

// The medians of a state's samples, phase by phase (each its own median: they need not add up to the
// total's).
struct ColdStartPhases {
  double process_ns = 0;
  double import_ns = 0;
  double load_ns = 0;
  double compile_ns = 0;
  double first_call_ns = 0;
  double total_ns = 0;
  // The medians of the samples' rss_bytes and peak_rss_bytes, over the samples that have them (null: none has).
  std::optional<double> rss_bytes;
  std::optional<double> peak_rss_bytes;
  friend bool operator==(const ColdStartPhases&, const ColdStartPhases&) = default;
};

// How a warm or artifacts state's totals stand against the cold state's, by rank (docs/metrics.md,
// "Cold start"): faster when every one of its totals is below every cold total, slower when every one
// is above, otherwise overlapping (within noise). With n and m processes each order happens by chance
// with probability 1 / C(n+m, n) when the states do not differ, and either is named, so one is named by chance
// with probability 2 / C(n+m, n): below C(n+m, n) = 40 (that chance above 0.05; 4 and 4 give 70, 3 and 4 only
// 35) an order is too_few, not a finding.
#define OHPROF_COLD_START_ORDER_VALUES(X) \
  X(faster, "faster")                     \
  X(slower, "slower")                     \
  X(overlapping, "overlapping")           \
  X(too_few, "too-few")
OHPROF_ENUM_CLASS(ColdStartOrder, OHPROF_COLD_START_ORDER_VALUES)
inline constexpr double kColdStartOrderCombinations = 40;
// Fresh processes per path and cache state for --cold-start without a value: the fewest whose two states allow
// kColdStartOrderCombinations orders (C(8, 4) = 70; 3 and 3 give 20).
inline constexpr int kColdStartDefaultProcesses = 4;

struct ColdStartState {
  CompileCache cache = CompileCache::none;
  std::vector<ColdStartSample> samples;   // in the order they ran
  std::optional<ColdStartPhases> median;  // null: no process of this state finished
  double min_total_ns = 0;
  double max_total_ns = 0;
  std::optional<ColdStartOrder> against_cold;  // warm and artifacts states, when both have samples
  double speedup_vs_cold = 0;             // median cold total / its median total (0: not compared)
  std::string failed;                     // why a process of this state failed ("" : none did)
  std::string unavailable;                // why this state was not measured ("" : it was)
  friend bool operator==(const ColdStartState&, const ColdStartState&) = default;
};

struct PathColdStart {
  int processes = 0;                      // processes per state (--cold-start N)
  std::vector<ColdStartState> states;     // none; or cold, warm, artifacts
  friend bool operator==(const PathColdStart&, const PathColdStart&) = default;
};

}  // namespace ohprof
