#include "cli_harness.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace ohprof::testing {

std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream buffer;
  buffer << file.rdbuf();
  return buffer.str();
}

std::string make_temp_dir(const std::string& tag) {
  std::string pattern = (std::filesystem::temp_directory_path() / ("ohprof-" + tag + "-XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

namespace {

pid_t spawn(const std::vector<std::string>& args, const std::string& out_path, const std::string& err_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> argv;
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return rc == 0 ? pid : -1;
}

int wait_exit_code(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

CommandOutput run_ohprof_and_interrupt(const std::vector<std::string>& args, const ReadyWhen& ready_when,
                                       int timeout_s, int signal) {
  const std::string dir = make_temp_dir("cli");
  std::vector<std::string> full{OHPROF_BINARY};
  full.insert(full.end(), args.begin(), args.end());
  CommandOutput output;
  const pid_t pid = spawn(full, dir + "/out", dir + "/err");
  if (pid > 0) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
    bool ready = false;
    while (std::chrono::steady_clock::now() < deadline) {
      if (read_file(dir + "/err").find(ready_when.stderr_text) != std::string::npos &&
          (ready_when.file_exists.empty() || std::filesystem::exists(ready_when.file_exists))) {
        ready = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (ready) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    kill(pid, ready ? signal : SIGKILL);
    const int code = wait_exit_code(pid);
    output.exit_code = ready ? code : -1;
  }
  output.out = read_file(dir + "/out");
  output.err = read_file(dir + "/err");
  std::filesystem::remove_all(dir);
  return output;
}

CommandOutput run_program(const std::vector<std::string>& args) {
  const std::string dir = make_temp_dir("cli");
  const std::string out_path = dir + "/out";
  const std::string err_path = dir + "/err";
  CommandOutput output;
  const pid_t pid = spawn(args, out_path, err_path);
  if (pid > 0) output.exit_code = wait_exit_code(pid);
  output.out = read_file(out_path);
  output.err = read_file(err_path);
  std::filesystem::remove_all(dir);
  return output;
}

CommandOutput run_ohprof(const std::vector<std::string>& args) {
  std::vector<std::string> full{OHPROF_BINARY};
  full.insert(full.end(), args.begin(), args.end());
  return run_program(full);
}

}  // namespace ohprof::testing
