#pragma once
// How long a thread has run on a CPU and how long it has waited for one (ready to run while another task
// held every CPU it may use), from Linux's /proc/<pid>/task/<tid>/schedstat: its first two fields, in ns
// (Documentation/scheduler/sched-stats.rst). docs/metrics.md, "Waiting for a core".
#include <cstdint>
#include <optional>
#include <string_view>

namespace ohprof {

struct SchedStat {
  std::int64_t on_cpu_ns = 0;     // time spent running
  std::int64_t run_delay_ns = 0;  // time spent ready to run, waiting for a CPU
  friend bool operator==(const SchedStat&, const SchedStat&) = default;
};

// A schedstat text ("<on-CPU ns> <run-delay ns> <timeslices>\n"); nullopt when it is not three unsigned
// integers, or its timeslices are 0 (a kernel that keeps no statistics prints "0 0 0").
std::optional<SchedStat> parse_schedstat(std::string_view text);

// The growth from `before` to `after`; nullopt when either is missing or a field went down.
std::optional<SchedStat> schedstat_growth(const std::optional<SchedStat>& before, const std::optional<SchedStat>& after);

// The calling thread's figures now (opens, reads and closes the file: for a thread read a few times).
std::optional<SchedStat> this_thread_schedstat();

// The figures of the thread that constructs it, read again on each read() from the file opened at
// construction (wherever read() is called from). read() gives nullopt where the file does not exist or
// cannot be read (not Linux, or a kernel without CONFIG_SCHED_INFO).
class ThreadSchedStat {
 public:
  ThreadSchedStat();
  ~ThreadSchedStat();
  ThreadSchedStat(const ThreadSchedStat&) = delete;
  ThreadSchedStat& operator=(const ThreadSchedStat&) = delete;
  [[nodiscard]] std::optional<SchedStat> read() const;

 private:
  int m_fd = -1;
};

}  // namespace ohprof
