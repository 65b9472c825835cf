#pragma once
// Text for the report's typed state, made once here for every printer (table, JSON, warnings).
#include <string>

#include "ohprof/model/report.hpp"

namespace ohprof {

// "runs reached", "converged", "max runs reached (unmet: ...)", "time limit (unmet: ...)",
// "interrupted", "error", "no paths", "end of trace", "in progress"; "" for none.
std::string stop_reason_text(const StopReason& reason);

}  // namespace ohprof
