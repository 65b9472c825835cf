#include "ohprof/base/run_queue.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <charconv>

namespace ohprof {

std::optional<SchedStat> parse_schedstat(std::string_view text) {
  std::int64_t fields[3] = {0, 0, 0};
  const char* at = text.data();
  const char* const end = text.data() + text.size();
  for (std::int64_t& field : fields) {
    while (at < end && *at == ' ') ++at;
    const auto [next, error] = std::from_chars(at, end, field);
    if (error != std::errc() || next == at || field < 0) return std::nullopt;
    at = next;
  }
  while (at < end && (*at == ' ' || *at == '\n')) ++at;
  if (at != end) return std::nullopt;
  // A thread that runs has arrived on a CPU at least once; "0 0 0" is what a kernel that keeps no
  // scheduler statistics (sched_info off) prints.
  if (fields[2] == 0) return std::nullopt;
  return SchedStat{fields[0], fields[1]};
}

std::optional<SchedStat> schedstat_growth(const std::optional<SchedStat>& before, const std::optional<SchedStat>& after) {
  if (!before || !after || after->on_cpu_ns < before->on_cpu_ns || after->run_delay_ns < before->run_delay_ns) {
    return std::nullopt;
  }
  return SchedStat{after->on_cpu_ns - before->on_cpu_ns, after->run_delay_ns - before->run_delay_ns};
}

std::optional<SchedStat> this_thread_schedstat() { return ThreadSchedStat().read(); }

ThreadSchedStat::ThreadSchedStat() : m_fd(::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)) {}

ThreadSchedStat::~ThreadSchedStat() {
  if (m_fd >= 0) ::close(m_fd);
}

std::optional<SchedStat> ThreadSchedStat::read() const {
  if (m_fd < 0) return std::nullopt;
  std::array<char, 128> buffer{};
  // the kernel makes the text again on each read from offset 0
  const ssize_t got = ::pread(m_fd, buffer.data(), buffer.size(), 0);
  if (got <= 0) return std::nullopt;
  return parse_schedstat(std::string_view(buffer.data(), static_cast<std::size_t>(got)));
}

}  // namespace ohprof
