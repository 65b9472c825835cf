#pragma once
// One child process, started, waited for and timed (compare --cold-start, docs/metrics.md "Cold start").
// POSIX only: posix_spawn with the parent's environment plus overrides, stdin from /dev/null, stdout and
// stderr into one log file.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ohprof/base/error.hpp"

namespace ohprof {

struct ChildLaunch {
  std::vector<std::string> argv;                            // argv[0] is looked up on PATH
  std::vector<std::pair<std::string, std::string>> env;     // set in the child, over the parent's
  std::string log_path;                                     // its stdout and stderr (truncated first)
  double time_limit_s = 0;                                  // killed after this long; 0: no limit
};

struct ChildExit {
  std::int64_t spawn_ns = 0;   // the clock just before the process was started
  std::int64_t end_ns = 0;     // the clock once its end was seen (polled every few milliseconds)
  std::int64_t pid = 0;
  int exit_code = 0;           // its exit status; 128 + the signal when a signal ended it
  bool interrupted = false;    // Ctrl-C (interrupt_requested()) while it ran: it was killed
  bool timed_out = false;      // it ran past time_limit_s and was killed
};

// Starts the process and waits for it. Errors: it could not be started (argv[0] not found, the log
// not writable).
Result<ChildExit> run_child(const ChildLaunch& launch, const std::function<std::int64_t()>& now);

// The last non-empty line of a text file ("" when there is none), at most `limit` characters of it.
std::string last_line_of(const std::string& path, std::size_t limit = 400);

}  // namespace ohprof
