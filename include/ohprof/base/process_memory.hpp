#pragma once
// The resident memory of this process, from Linux's /proc (docs/metrics.md, "Memory"): the resident set
// now (VmRSS) and its high-water mark (VmHWM), which writing "5" to /proc/self/clear_refs resets to the
// resident set of that moment (Linux 4.0 and later), so a peak can be measured over one phase.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ohprof {

struct ProcessMemory {
  std::int64_t rss_bytes = 0;       // VmRSS
  std::int64_t peak_rss_bytes = 0;  // VmHWM: the largest resident set since the start or the last reset
};

// The two fields of a /proc/<pid>/status text ("VmHWM:	  123456 kB"); nullopt when either is missing.
std::optional<ProcessMemory> parse_proc_status(std::string_view status);

// This process's, now; nullopt where /proc/self/status cannot be read (not Linux).
std::optional<ProcessMemory> read_process_memory();

// Resets the high-water mark to the current resident set; false when the kernel refuses (then a peak
// read later is the process's peak since its start, not the phase's).
bool reset_peak_rss();

// The most the process held during a phase above what it held at its start (`before`, read after the
// reset; `after`, read at its end): max(after's VmHWM, after's VmRSS, before's VmRSS) - before's VmRSS.
// The kernel's resident-set counters are approximate (per-CPU), and it raises its high-water mark when
// memory is unmapped, not when an allocator hands pages back with madvise, so VmHWM can end a little below
// `before`; the process did hold `before`, so a phase's peak is never negative (docs/metrics.md, "Memory").
std::int64_t peak_above_start(const ProcessMemory& before, const ProcessMemory& after);

// For a process that reads traces and measures nothing (analyze): glibc's malloc keeps the memory it frees
// for the next allocation, in its heap, instead of giving large blocks back to the kernel, so a vector
// that grows reuses pages already touched rather than faulting in fresh ones (docs/analyze.md, "Speed and
// memory"). Not for run or compare, whose models' allocations it would change. No effect without glibc.
void reuse_freed_memory();

// "12.3 MB", "640 kB", "-1.50 MB": bytes in decimal units, three significant digits.
std::string format_bytes(std::int64_t bytes);

}  // namespace ohprof
