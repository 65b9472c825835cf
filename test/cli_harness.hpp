#pragma once
// Runs the real ohprof binary as a user would and captures what it printed and its exit code.
#include <string>
#include <vector>

#include "ohprof/exit_codes.hpp"

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

// Starts ohprof, waits until its stderr contains `ready_text`, sends SIGINT, and waits for it to exit.
// Fails (exit_code -1) when the text does not appear within `timeout_s` seconds.
CommandOutput run_ohprof_and_interrupt(const std::vector<std::string>& args, const std::string& ready_text,
                                       int timeout_s);

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
