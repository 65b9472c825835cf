#pragma once
// The table printer: formats a Report for people (stdout). Knows nothing about how it was measured.
#include <string>

#include "ohprof/base/format.hpp"  // format_duration, for the printers
#include "ohprof/model/report.hpp"

namespace ohprof {

// One block per path: wall time median, mean ± σ, min … max, relative noise, n.
std::string format_run_table(const Report& report);

}  // namespace ohprof
