#pragma once
// The flags `compare` and `sweep` share: the model, its paths and how each measurement stops. Parsed
// once here into CompareOptions (each flag's text is checked before the measuring binary is started).
#include <string>
#include <vector>

#include "ohprof/base/error.hpp"
#include "ohprof/session/session.hpp"

namespace CLI {
class App;
}

namespace ohprof {

struct ModelFlags {
  std::string model;
  std::vector<std::string> inputs;
  std::string exported;
  std::string aoti;
  std::string paths = "aoti,aoti:python,compile,eager";
  std::string device = "auto";
  int warmup = 5;
  int min_runs = 10;
  int max_runs = 10000;
  double min_time_s = 0.5;
  double max_rse = 0.01;
  double time_limit_s = 120;
  int block = AdaptiveStopping{}.block;
  std::string check_outputs = "warn";
  std::string cache_dir;
  std::uint64_t seed = 0;
  bool kernel_profile = false;
  bool quiet = false;
  bool no_cupti = false;
  std::string compile_source;  // "" : the default (module with --model, program with --exported)
  std::string python;          // --python: the interpreter that measures (the front's choice)
};

// Registers the flags; `exported` adds --exported and --aoti (compare), `time_limit_help` says what
// --time-limit bounds.
void add_model_flags(CLI::App* app, ModelFlags& flags, bool exported, const std::string& time_limit_help);

// The options every flag above gives (explain and checkpoint settings left at their defaults).
Result<CompareOptions> parse_model_flags(const ModelFlags& flags);

// "a,b,,c" -> a, b, "", c: the items of a comma-separated flag value, empty ones kept (they are errors).
std::vector<std::string> comma_items(const std::string& text);
// The same with another separator (PATH's ':').
std::vector<std::string> split_items(const std::string& text, char separator);

}  // namespace ohprof
