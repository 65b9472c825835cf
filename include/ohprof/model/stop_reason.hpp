#pragma once
#include <optional>
#include <string>
#include <utility>

namespace ohprof {

// Why a measurement stopped (docs/metrics.md, "Stopping"). The JSON's `stop_reason` is its text
// (output/report_text.hpp).
enum class StopCode {
  none,              // not stopped (yet), or not measured
  runs_reached,      // run: the --runs iterations were measured
  converged,         // compare: every path met min runs, min time and max rse
  max_runs_reached,  // compare: --max-runs before the criteria were met (`unmet` says which)
  time_limit,        // compare: --time-limit before the criteria were met (`unmet` says which)
  interrupted,       // Ctrl-C
  error,             // an iteration failed
  no_paths,          // nothing to measure
  end_of_trace,      // analyze: every window of the trace
  in_progress,       // a checkpoint: the run was still measuring
};
struct StopReason {
  StopReason() = default;
  explicit StopReason(StopCode c, std::string unmet_criteria = {}) : code(c), unmet(std::move(unmet_criteria)) {}
  StopCode code = StopCode::none;
  std::string unmet;  // max_runs_reached, time_limit: "aoti: 9 runs < 10; ..." (interleaved_loop.hpp)
  friend bool operator==(const StopReason&, const StopReason&) = default;
};

// "none", "runs_reached", "converged", ...: the enumerator's name (the sweep report stores it).
const char* to_string(StopCode code);
std::optional<StopCode> parse_stop_code(const std::string& text);

}  // namespace ohprof
