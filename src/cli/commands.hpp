#pragma once
// Subcommands: one file each (src/cmd_<name>.cpp). Each registers its flags on the parent app and
// returns the function main() calls when that subcommand was chosen.
#include <functional>
#include <string>
#include <vector>

#include "ohprof/base/error.hpp"

namespace CLI {
class App;
}

namespace ohprof {

struct Subcommand {
  CLI::App* app = nullptr;
  std::function<Status()> run;
};

// argv as the user typed it, for the report's context block.
struct Invocation {
  std::vector<std::string> argv;
};

Subcommand add_run_command(CLI::App& parent, const Invocation& invocation);
Subcommand add_compare_command(CLI::App& parent, const Invocation& invocation);
Subcommand add_analyze_command(CLI::App& parent, const Invocation& invocation);

}  // namespace ohprof
