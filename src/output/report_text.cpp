#include "ohprof/output/report_text.hpp"

namespace ohprof {

std::string stop_reason_text(const StopReason& reason) {
  switch (reason.code) {
    case StopCode::none: return "";
    case StopCode::runs_reached: return "runs reached";
    case StopCode::converged: return "converged";
    case StopCode::max_runs_reached: return "max runs reached (unmet: " + reason.unmet + ")";
    case StopCode::time_limit: return "time limit (unmet: " + reason.unmet + ")";
    case StopCode::interrupted: return "interrupted";
    case StopCode::error: return "error";
    case StopCode::no_paths: return "no paths";
    case StopCode::end_of_trace: return "end of trace";
    case StopCode::in_progress: return "in progress";
  }
  return "";
}

}  // namespace ohprof
