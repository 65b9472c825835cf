#pragma once
// Runs the real ohprof binary as a user would and captures what it printed and its exit code.
#include <csignal>
#include <string>
#include <vector>

#include "ohprof/base/exit_codes.hpp"

namespace ohprof::testing {

struct CommandOutput {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs OHPROF_BINARY with `args` (not including the program name).
CommandOutput run_ohprof(const std::vector<std::string>& args);

// Runs any program (args[0] is looked up on PATH).
CommandOutput run_program(const std::vector<std::string>& args);

// When to signal a running ohprof: once its stderr contains `stderr_text` and, if `file_exists` is
// not empty, that file exists (e.g. the report's first checkpoint, written only after measuring began).
struct ReadyWhen {
  std::string stderr_text;
  std::string file_exists;
};

// Starts ohprof, waits until it is ready, sends `signal` (SIGINT by default), and waits for it to exit.
// Fails (exit_code -1) when it is not ready within `timeout_s` seconds.
CommandOutput run_ohprof_and_interrupt(const std::vector<std::string>& args, const ReadyWhen& ready, int timeout_s,
                                       int signal = SIGINT);

std::string read_file(const std::string& path);

inline int code(ExitCode c) { return to_int(c); }

// Lines in a program's output: an error must be exactly one.
inline std::size_t line_count(const std::string& text) {
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}
std::string make_temp_dir(const std::string& tag);

}  // namespace ohprof::testing
