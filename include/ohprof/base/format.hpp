#pragma once
// Numbers for people: every layer that writes a duration into a message uses this one format.
#include <string>

namespace ohprof {

// "812 ns", "12.3 us", "1.84 ms", "2.031 s": three or four significant digits, unit chosen by size.
std::string format_duration(double nanoseconds);

}  // namespace ohprof
