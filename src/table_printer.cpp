#include "ohprof/table_printer.hpp"

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

std::string format_run_table(const Report& report) {
  std::string out;
  const auto& device = report.context.device;
  out += fmt::format("device: {}{}{}\n", device.type,
                     device.index >= 0 ? fmt::format(":{}", device.index) : std::string(),
                     device.name.empty() ? std::string() : " (" + device.name + ")");
  for (const auto& path : report.paths) {
    const SampleSummary& wall = path.wall;
    out += fmt::format("\npath {}  ({})\n", path.name, path.artifact);
    out += fmt::format("  load:          {}\n", format_duration(static_cast<double>(path.load_ns)));
    if (wall.count == 0) {
      out += "  wall time:     no measured iterations\n";
      continue;
    }
    out += fmt::format("  wall median:   {}\n", format_duration(wall.median));
    out += fmt::format("  wall mean:     {} ± {}\n", format_duration(wall.mean), format_duration(wall.stddev));
    out += fmt::format("  range:         {} … {}\n", format_duration(wall.min), format_duration(wall.max));
    out += fmt::format("  noise:         {:.1f}% (σ/mean)   outliers: {}   n = {}{}\n",
                       wall.relative_noise * 100.0, wall.outliers, wall.count,
                       path.stop_reason == "runs reached" ? std::string() : "  (" + path.stop_reason + ")");
    if (!path.split_unavailable_reason.empty()) {
      out += fmt::format("  device split:  unavailable: {}\n", path.split_unavailable_reason);
    }
  }
  return out;
}

}  // namespace ohprof
