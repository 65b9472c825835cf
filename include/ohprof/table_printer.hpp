#pragma once
// The table printer: formats a Report for people (stdout). Knows nothing about how it was measured.
#include <string>

#include "ohprof/report.hpp"

namespace ohprof {

// "812 ns", "12.3 us", "1.84 ms", "2.031 s": three or four significant digits, unit chosen by size.
std::string format_duration(double nanoseconds);

// One block per path: wall time median, mean ± σ, min … max, relative noise, n.
std::string format_run_table(const Report& report);

}  // namespace ohprof
