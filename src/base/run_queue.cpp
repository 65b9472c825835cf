#include "ohprof/base/run_queue.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <array>
#include <charconv>

namespace ohprof {

std::optional<std::int64_t> parse_schedstat_run_delay(std::string_view text) {
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
  return fields[1];
}

std::optional<SchedStat> schedstat_growth(const std::optional<SchedStat>& before, const std::optional<SchedStat>& after) {
  if (!before || !after || after->on_cpu_ns < before->on_cpu_ns || after->run_delay_ns < before->run_delay_ns) {
    return std::nullopt;
  }
  return SchedStat{after->on_cpu_ns - before->on_cpu_ns, after->run_delay_ns - before->run_delay_ns};
}

void add_growth(std::optional<SchedStat>& sum, const std::optional<SchedStat>& growth) {
  if (sum && growth) {
    sum->on_cpu_ns += growth->on_cpu_ns;
    sum->run_delay_ns += growth->run_delay_ns;
  } else {
    sum.reset();
  }
}

namespace {

std::optional<std::int64_t> read_run_delay(int fd) {
  if (fd < 0) return std::nullopt;
  std::array<char, 128> buffer{};
  // the kernel makes the text again on each read from offset 0
  const ssize_t got = ::pread(fd, buffer.data(), buffer.size(), 0);
  if (got <= 0) return std::nullopt;
  return parse_schedstat_run_delay(std::string_view(buffer.data(), static_cast<std::size_t>(got)));
}

std::optional<std::int64_t> read_cpu_clock(clockid_t clock) {
  timespec now{};
  if (::clock_gettime(clock, &now) != 0) return std::nullopt;
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

}  // namespace

std::optional<SchedStat> this_thread_schedstat() { return ThreadSchedStat().read(); }

ThreadSchedStat::ThreadSchedStat()
    : m_fd(::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)),
      m_clock_ok(::pthread_getcpuclockid(::pthread_self(), &m_clock) == 0) {}

ThreadSchedStat::~ThreadSchedStat() {
  if (m_fd >= 0) ::close(m_fd);
}

std::optional<SchedStat> ThreadSchedStat::read() const {
  if (!m_clock_ok) return std::nullopt;
  const std::optional<std::int64_t> on_cpu = read_cpu_clock(m_clock);
  const std::optional<std::int64_t> delay = read_run_delay(m_fd);
  if (!on_cpu || !delay) return std::nullopt;
  return SchedStat{*on_cpu, *delay};
}

}  // namespace ohprof
