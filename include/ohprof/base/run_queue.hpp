#pragma once
// How long a thread has run on a CPU and how long it has waited for one (ready to run while another task
// held every CPU it may use). docs/metrics.md, "Waiting for a core".
// - The wait is the scheduler's run delay: the second field of Linux's /proc/thread-self/schedstat, in ns
//   (Documentation/scheduler/sched-stats.rst). The kernel adds to it when the thread gets a CPU, so a
//   thread that reads its own is up to date.
// - The time on a CPU is the thread's CPU-time clock (CLOCK_THREAD_CPUTIME_ID, or the clock
//   pthread_getcpuclockid gives), which the kernel brings up to date when it is read. The schedstat's own
//   first field is not: for a running thread it lags by up to a timer tick.
#include <cstdint>
#include <optional>
#include <string_view>

#include <time.h>

namespace ohprof {

struct SchedStat {
  std::int64_t on_cpu_ns = 0;     // time spent running
  std::int64_t run_delay_ns = 0;  // time spent ready to run, waiting for a CPU
  friend bool operator==(const SchedStat&, const SchedStat&) = default;
};

// The run delay of a schedstat text ("<on-CPU ns> <run-delay ns> <timeslices>\n"); nullopt when it is not
// three unsigned integers, or its timeslices are 0 (a kernel that keeps no statistics prints "0 0 0").
std::optional<std::int64_t> parse_schedstat_run_delay(std::string_view text);

// The growth from `before` to `after`; nullopt when either is missing or a field went down.
std::optional<SchedStat> schedstat_growth(const std::optional<SchedStat>& before, const std::optional<SchedStat>& after);

// Adds `growth` to `sum`; a missing growth makes the sum missing too (it would be a part of the truth).
void add_growth(std::optional<SchedStat>& sum, const std::optional<SchedStat>& growth);

// The calling thread's figures now (opens, reads and closes the file: for a thread read a few times).
std::optional<SchedStat> this_thread_schedstat();

// The figures of the thread that constructs it, from the file and the clock it opened then (wherever
// read() is called from). read() gives nullopt where either cannot be read (not Linux, or a kernel
// without CONFIG_SCHED_INFO).
class ThreadSchedStat {
 public:
  ThreadSchedStat();
  ~ThreadSchedStat();
  ThreadSchedStat(const ThreadSchedStat&) = delete;
  ThreadSchedStat& operator=(const ThreadSchedStat&) = delete;
  [[nodiscard]] std::optional<SchedStat> read() const;

 private:
  int m_fd = -1;
  clockid_t m_clock{};
  bool m_clock_ok = false;
};

}  // namespace ohprof
