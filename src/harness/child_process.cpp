#include "ohprof/harness/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <thread>

#include <fmt/format.h>

#include "ohprof/base/interrupt.hpp"

extern char** environ;

namespace ohprof {
namespace {

constexpr auto kPoll = std::chrono::milliseconds(5);

std::vector<std::string> child_environment(const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::map<std::string, std::string> set(overrides.begin(), overrides.end());
  std::vector<std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const std::string key = text.substr(0, text.find('='));
    if (set.count(key) == 0) env.push_back(text);
  }
  for (const auto& [key, value] : set) env.push_back(key + "=" + value);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

Result<ChildExit> run_child(const ChildLaunch& launch, const std::function<std::int64_t()>& now) {
  if (launch.argv.empty()) return make_error(ExitCode::internal_error, "run_child: no command");
  std::vector<std::string> args = launch.argv;
  std::vector<std::string> env = child_environment(launch.env);
  std::vector<char*> argv = pointers(args);
  std::vector<char*> envp = pointers(env);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, launch.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  // The child starts with default SIGINT handling (Ctrl-C reaches it through the terminal's process group).
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  ChildExit exit;
  pid_t pid = 0;
  exit.spawn_ns = now();
  const int spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    return make_error(ExitCode::environment_error,
                      fmt::format("cannot start '{}': {}", launch.argv[0], std::strerror(spawned)));
  }
  exit.pid = pid;
  const std::int64_t limit_ns = launch.time_limit_s > 0 ? static_cast<std::int64_t>(launch.time_limit_s * 1e9) : 0;
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      return make_error(ExitCode::internal_error, fmt::format("waiting for process {}: {}", pid, std::strerror(errno)));
    }
    const bool stop = interrupt_requested();
    const bool late = limit_ns > 0 && now() - exit.spawn_ns > limit_ns;
    if (stop || late) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      exit.interrupted = stop;
      exit.timed_out = !stop;
      break;
    }
    std::this_thread::sleep_for(kPoll);
  }
  exit.end_ns = now();
  exit.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
  return exit;
}

std::string last_line_of(const std::string& path, std::size_t limit) {
  std::ifstream in(path);
  std::string line;
  std::string last;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  }
  if (last.size() > limit) last = last.substr(0, limit) + "…";
  return last;
}

}  // namespace ohprof
