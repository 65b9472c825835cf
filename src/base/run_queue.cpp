#include "ohprof/base/run_queue.hpp"

#include <fcntl.h>
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
  return fields[1];
}

ThreadRunDelay::ThreadRunDelay() : m_fd(::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)) {}

ThreadRunDelay::~ThreadRunDelay() {
  if (m_fd >= 0) ::close(m_fd);
}

std::optional<std::int64_t> ThreadRunDelay::read() const {
  if (m_fd < 0) return std::nullopt;
  std::array<char, 128> buffer{};
  // the kernel makes the text again on each read from offset 0
  const ssize_t got = ::pread(m_fd, buffer.data(), buffer.size(), 0);
  if (got <= 0) return std::nullopt;
  return parse_schedstat_run_delay(std::string_view(buffer.data(), static_cast<std::size_t>(got)));
}

}  // namespace ohprof
