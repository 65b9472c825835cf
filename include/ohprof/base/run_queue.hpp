#pragma once
// How long a thread has waited for a CPU: the time it was ready to run but another task held every CPU it
// may use, from Linux's /proc/<pid>/task/<tid>/schedstat (its second field, the scheduler's run delay in
// ns; Documentation/scheduler/sched-stats.rst). docs/metrics.md, "Waiting for a core".
#include <cstdint>
#include <optional>
#include <string_view>

namespace ohprof {

// The run delay of a schedstat text ("<on-CPU ns> <run-delay ns> <timeslices>\n"); nullopt when it is not
// three unsigned integers.
std::optional<std::int64_t> parse_schedstat_run_delay(std::string_view text);

// The calling thread's run delay, read again on each read() from the file opened at construction (the
// thread that constructs it is the one measured, wherever read() is called from). read() gives nullopt
// where the file does not exist or cannot be read (not Linux, or a kernel without CONFIG_SCHED_INFO).
class ThreadRunDelay {
 public:
  ThreadRunDelay();
  ~ThreadRunDelay();
  ThreadRunDelay(const ThreadRunDelay&) = delete;
  ThreadRunDelay& operator=(const ThreadRunDelay&) = delete;
  [[nodiscard]] std::optional<std::int64_t> read() const;

 private:
  int m_fd = -1;
};

}  // namespace ohprof
