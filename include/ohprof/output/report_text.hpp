#pragma once
// Text for the report's typed state, made once here for every printer (table, JSON, warnings).
#include <cstddef>
#include <string>

#include "ohprof/model/report.hpp"

namespace ohprof {

// "runs reached", "converged", "max runs reached (unmet: ...)", "time limit (unmet: ...)",
// "interrupted", "error", "no paths", "end of trace", "in progress"; "" for none.
std::string stop_reason_text(const StopReason& reason);

// The verdict's advice (docs/metrics.md, "Verdict" -> "Advice"), one line quoting the numbers that
// decided it: the JSON's `split.verdict.suggestion`, and the table's verdict line after "<verdict>: ".
// `iterations` is the number of analysed iterations (BreakdownTotals::iterations), quoted with the
// full-queue count.
std::string verdict_text(const PathVerdict& verdict, std::size_t iterations);

}  // namespace ohprof
