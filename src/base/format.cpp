#include "ohprof/base/format.hpp"

#include <cmath>

#include <fmt/format.h>

namespace ohprof {

std::string format_duration(double nanoseconds) {
  const double magnitude = std::fabs(nanoseconds);
  const auto scaled = [&](double divisor, const char* unit) {
    const double value = nanoseconds / divisor;
    const double abs_value = std::fabs(value);
    const int decimals = abs_value >= 100 ? 1 : abs_value >= 10 ? 2 : 3;
    return fmt::format("{:.{}f} {}", value, decimals, unit);
  };
  if (magnitude < 1e3) return fmt::format("{:.0f} ns", nanoseconds);
  if (magnitude < 1e6) return scaled(1e3, "us");
  if (magnitude < 1e9) return scaled(1e6, "ms");
  return scaled(1e9, "s");
}

}  // namespace ohprof
