#include "model_flags.hpp"

#include "commands.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace ohprof {
namespace {

Result<std::vector<std::string>> parse_paths(const std::string& text) {
  const std::vector<std::string>& known = known_compare_paths();
  std::vector<std::string> paths;
  for (const std::string& name : comma_items(text)) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return make_error(ExitCode::usage_error, fmt::format("unknown path '{}' in --paths; use a comma-separated list of {}",
                                                           name, fmt::join(known, ", ")));
    }
    if (std::find(paths.begin(), paths.end(), name) != paths.end()) {
      return make_error(ExitCode::usage_error, fmt::format("path '{}' is listed twice in --paths", name));
    }
    paths.push_back(name);
  }
  return paths;
}

Result<CheckMode> parse_check_mode(const std::string& text) {
  for (CheckMode mode : {CheckMode::warn, CheckMode::strict, CheckMode::off}) {
    if (text == to_string(mode)) return mode;
  }
  return make_error(ExitCode::usage_error, "--check-outputs must be warn, strict or off");
}

Result<std::optional<PathSource>> parse_compile_source(const std::string& text) {
  if (text.empty()) return std::optional<PathSource>();
  if (text == "module") return std::optional<PathSource>(PathSource::module);
  if (text == "program") return std::optional<PathSource>(PathSource::exported_program);
  return make_error(ExitCode::usage_error, "--compile-source must be module or program");
}

}  // namespace

std::vector<std::string> split_items(const std::string& text, char separator) {
  std::vector<std::string> items;
  std::size_t pos = 0;
  while (true) {
    const std::size_t found = text.find(separator, pos);
    items.push_back(text.substr(pos, found == std::string::npos ? std::string::npos : found - pos));
    if (found == std::string::npos) return items;
    pos = found + 1;
  }
}

std::vector<std::string> comma_items(const std::string& text) { return split_items(text, ','); }

void add_model_flags(CLI::App* app, ModelFlags& flags, bool exported, const std::string& time_limit_help) {
  app->add_option("--model", flags.model, "Model as module:factory (default torchvision.models:resnet18)");
  app->add_option("--input", flags.inputs, "Input SHAPE[:DTYPE], once per model input (default 1,3,224,224)")
      ->take_all();
  if (exported) {
    app->add_option("--exported", flags.exported, "A saved torch.export program (.pt2) instead of --model");
    app->add_option("--aoti", flags.aoti, "A prebuilt AOTI package of the --exported program");
  }
  app->add_option("--paths", flags.paths,
                  "Comma-separated paths: aoti (LibTorch's C++ loader), aoti:python (aoti_load_package), compile, "
                  "compile:reduce-overhead, compile:max-autotune-no-cudagraphs, compile:cpp-wrapper, "
                  "compile:no-module-guards, compile:again and compile:again-2 (compile built again: the A/A check), "
                  "eager")
      ->capture_default_str();
  app->add_option("--compile-source", flags.compile_source,
                  "Where eager and compile start: module (the --model's nn.Module, as users compile it; the "
                  "default with --model) or program (the exported program's module(), the graph AOTI was built "
                  "from; the only choice with --exported)");
  app->add_option("--device", flags.device, "auto, cpu or cuda (auto: CUDA when present)")->capture_default_str();
  app->add_option("--warmup", flags.warmup, "Warm-up iterations per path")->capture_default_str();
  app->add_option("--min-runs", flags.min_runs, "Measured iterations per path, at least")->capture_default_str();
  app->add_option("--max-runs", flags.max_runs, "Measured iterations per path, at most")->capture_default_str();
  app->add_option("--min-time", flags.min_time_s, "Measured seconds per path, at least")->capture_default_str();
  app->add_option("--max-rse", flags.max_rse,
                  "Stop when each path's relative standard error of the mean is at most this (0.01 = 1%)")
      ->capture_default_str();
  app->add_option("--time-limit", flags.time_limit_s, time_limit_help)->capture_default_str();
  app->add_option("--block", flags.block,
                  "Consecutive iterations of one path in each interleaved round (1: strict alternation, whose "
                  "cold caches slow a small model's calls)")
      ->capture_default_str();
  app->add_option("--check-outputs", flags.check_outputs,
                  "warn: a loud warning when a path's outputs differ from eager's; strict: an error (exit 10); off")
      ->capture_default_str();
  app->add_option("--cache-dir", flags.cache_dir, "Where exported programs and AOTI packages are kept "
                                                   "(default ~/.cache/ohprof/artifacts)");
  app->add_option("--seed", flags.seed, "Seed for the random inputs")->capture_default_str();
  app->add_flag("--kernel-profile", flags.kernel_profile,
                "Compile CPU kernels with cpp.enable_kernel_profile (for the CPU split)");
  app->add_flag("--quiet", flags.quiet, "Do not print the table or progress");
  app->add_flag("--no-cupti", flags.no_cupti,
                "Do not use CUPTI (NVTX ranges and host timing only; for runs under Nsight Systems)");
  add_python_option(app, flags.python);
}

Result<CompareOptions> parse_model_flags(const ModelFlags& flags) {
  CompareOptions options;
  OHPROF_ASSIGN_OR_RETURN(options.compile_source, parse_compile_source(flags.compile_source));
  OHPROF_ASSIGN_OR_RETURN(options.check_outputs, parse_check_mode(flags.check_outputs));
  OHPROF_ASSIGN_OR_RETURN(options.paths, parse_paths(flags.paths));
  OHPROF_ASSIGN_OR_RETURN(options.device, parse_device_request(flags.device));
  OHPROF_ASSIGN_OR_RETURN(options.inputs, parse_input_specs(flags.inputs));
  options.model = flags.model;
  options.exported = flags.exported;
  options.aoti = flags.aoti;
  options.stopping = AdaptiveStopping{flags.warmup, flags.min_runs, flags.max_runs, flags.min_time_s, flags.max_rse,
                                      flags.time_limit_s, flags.block};
  options.cache_dir = flags.cache_dir;
  options.seed = flags.seed;
  options.kernel_profile = flags.kernel_profile;
  options.no_cupti = flags.no_cupti;
  return options;
}

}  // namespace ohprof
