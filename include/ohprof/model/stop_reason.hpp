#pragma once
#include <optional>
#include <string>
#include <utility>

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

// Why a measurement stopped (docs/metrics.md, "Stopping"). The JSON's `stop_reason` is its text
// (output/report_text.hpp).
#define OHPROF_STOP_CODE_VALUES(X)                                                                                       \
  X(none, "none")                          /* not stopped (yet), or not measured */                                      \
  X(runs_reached, "runs_reached")          /* run: the --runs iterations were measured */                                \
  X(converged, "converged")                /* compare: every path met min runs, min time and max rse */                  \
  X(max_runs_reached, "max_runs_reached")  /* compare: --max-runs before the criteria were met (`unmet` says which) */   \
  X(time_limit, "time_limit")              /* compare: --time-limit before the criteria were met (`unmet` says which) */ \
  X(interrupted, "interrupted")            /* Ctrl-C */                                                                  \
  X(error, "error")                        /* an iteration failed */                                                     \
  X(no_paths, "no_paths")                  /* nothing to measure */                                                      \
  X(end_of_trace, "end_of_trace")          /* analyze: every window of the trace */                                      \
  X(in_progress, "in_progress")            /* a checkpoint: the run was still measuring */
OHPROF_ENUM_CLASS(StopCode, OHPROF_STOP_CODE_VALUES)
struct StopReason {
  StopReason() = default;
  explicit StopReason(StopCode c, std::string unmet_criteria = {}) : code(c), unmet(std::move(unmet_criteria)) {}
  StopCode code = StopCode::none;
  std::string unmet;  // max_runs_reached, time_limit: "aoti: 9 runs < 10; ..." (interleaved_loop.hpp)
  friend bool operator==(const StopReason&, const StopReason&) = default;
};

// to_string's inverse (the sweep report stores the text).
std::optional<StopCode> parse_stop_code(const std::string& text);

}  // namespace ohprof
