#include "ohprof/base/process_memory.hpp"

#include <fmt/format.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ohprof {
namespace {

// The value of "<key>:   <n> kB" in bytes, or nullopt.
std::optional<std::int64_t> kilobytes_field(std::string_view status, std::string_view key) {
  std::size_t at = 0;
  while (at < status.size()) {
    const std::size_t end = std::min(status.find('\n', at), status.size());
    const std::string_view line = status.substr(at, end - at);
    at = end + 1;
    if (line.size() <= key.size() || line.substr(0, key.size()) != key || line[key.size()] != ':') continue;
    std::string_view rest = line.substr(key.size() + 1);
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    std::int64_t value = 0;
    std::size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9' && digits < 15) {
      value = value * 10 + (rest[digits] - '0');
      ++digits;
    }
    if (digits == 0 || rest.substr(digits) != " kB") return std::nullopt;
    return value * 1024;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ProcessMemory> parse_proc_status(std::string_view status) {
  const auto rss = kilobytes_field(status, "VmRSS");
  const auto hwm = kilobytes_field(status, "VmHWM");
  if (!rss || !hwm) return std::nullopt;
  return ProcessMemory{*rss, *hwm};
}

std::optional<ProcessMemory> read_process_memory() {
  std::ifstream file("/proc/self/status");
  if (!file) return std::nullopt;
  std::stringstream text;
  text << file.rdbuf();
  return parse_proc_status(text.str());
}

std::int64_t peak_above_start(const ProcessMemory& before, const ProcessMemory& after) {
  return std::max({after.peak_rss_bytes, after.rss_bytes, before.rss_bytes}) - before.rss_bytes;
}

bool reset_peak_rss() {
  std::ofstream file("/proc/self/clear_refs");
  if (!file) return false;
  file << "5";
  file.flush();
  return static_cast<bool>(file);
}

std::string format_bytes(std::int64_t bytes) {
  const double magnitude = std::fabs(static_cast<double>(bytes));
  const char* unit = "B";
  double value = static_cast<double>(bytes);
  if (magnitude >= 1e9) {
    unit = "GB";
    value /= 1e9;
  } else if (magnitude >= 1e6) {
    unit = "MB";
    value /= 1e6;
  } else if (magnitude >= 1e3) {
    unit = "kB";
    value /= 1e3;
  }
  if (*unit == 'B') return fmt::format("{} B", bytes);
  const double shown = std::fabs(value);
  return fmt::format("{:.{}f} {}", value, shown >= 100 ? 0 : shown >= 10 ? 1 : 2, unit);
}

void reuse_freed_memory() {
#if defined(__GLIBC__)
  constexpr int kLargest = 32 << 20;  // glibc's largest mmap threshold on 64-bit: blocks below it come from the heap
  mallopt(M_MMAP_THRESHOLD, kLargest);
  mallopt(M_TRIM_THRESHOLD, 2 * kLargest);  // what free memory the heap's top keeps rather than returns
  mallopt(M_TOP_PAD, kLargest);             // how far the heap grows at once (address space; pages come when touched)
#endif
}

}  // namespace ohprof
