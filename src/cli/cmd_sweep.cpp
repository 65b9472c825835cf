// `ohprof sweep`: compare at each value of one input dimension (docs/sweep.md).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>

#include "commands.hpp"
#include "model_flags.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/output/sweep_report.hpp"

namespace ohprof {
namespace {

struct SweepFlags {
  ModelFlags model;
  std::string inputs_file;
  std::string batch;
  std::string dim;
  double sweep_time_limit_s = 3600;
  int passes = 1;
  double tolerance = 0.05;
  double fit_tolerance = 0.10;
  ReportExports exports;  // its page is `plot` (--export-html, --plot)
  std::string plot;
  bool no_plot = false;
  bool resume = false;
};

std::optional<std::int64_t> parse_int(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

// "1,2,8..64" -> 1, 2, 8, 16, 32, 64: positive integers, A..B doubling from A up to B; sorted, each once.
Result<std::vector<std::int64_t>> parse_sweep_values(const std::string& flag, const std::string& text) {
  std::vector<std::int64_t> values;
  const auto bad = [&](const std::string& item) {
    return make_error(ExitCode::usage_error,
                      fmt::format("{} '{}': '{}' is not a positive integer or A..B (A, 2A, 4A, ... up to B)", flag, text, item));
  };
  for (const std::string& item : comma_items(text)) {
    const std::size_t dots = item.find("..");
    if (dots == std::string::npos) {
      const auto value = parse_int(item);
      if (!value || *value < 1) return bad(item);
      values.push_back(*value);
      continue;
    }
    const auto from = parse_int(std::string_view(item).substr(0, dots));
    const auto to = parse_int(std::string_view(item).substr(dots + 2));
    if (!from || !to || *from < 1 || *to < *from) return bad(item);
    for (std::int64_t v = *from;; v *= 2) {
      values.push_back(v);
      if (v > *to / 2) break;  // the next doubling passes B (or would overflow)
    }
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

// --batch LIST or --dim I:D=LIST.
Result<SweepAxis> parse_sweep_axis(const std::string& batch, const std::string& dim) {
  if (batch.empty() == dim.empty()) {
    return make_error(ExitCode::usage_error,
                      "give the axis to sweep: --batch V1,V2,... or --dim INPUT[,INPUT...]:DIM=V1,V2,... (one of them)");
  }
  SweepAxis axis;
  if (!batch.empty()) {
    OHPROF_ASSIGN_OR_RETURN(axis.values, parse_sweep_values("--batch", batch));
    return axis;
  }
  const std::size_t eq = dim.find('=');
  const std::size_t colon = dim.find(':');
  std::vector<int> inputs;  // "0,1" before the colon: every input named
  bool inputs_ok = colon < eq && colon > 0;
  if (inputs_ok) {
    for (const std::string& item : comma_items(dim.substr(0, colon))) {
      const auto input = parse_int(item);
      if (!input || *input < 0 || *input > 1'000'000) {
        inputs_ok = false;
        break;
      }
      inputs.push_back(static_cast<int>(*input));
    }
  }
  const auto d = colon < eq && eq != std::string::npos ? parse_int(std::string_view(dim).substr(colon + 1, eq - colon - 1)) : std::nullopt;
  if (!inputs_ok || inputs.empty() || !d || *d < 0) {
    return make_error(ExitCode::usage_error,
                      fmt::format("--dim '{}' is not INPUT[,INPUT...]:DIM=V1,V2,... (inputs and dimension counted from 0, "
                                  "e.g. 0:1=16,32, or 0,1:1=16,32 for two inputs that share the dimension)",
                                  dim));
  }
  OHPROF_ASSIGN_OR_RETURN(auto values, parse_sweep_values("--dim", dim.substr(eq + 1)));
  std::sort(inputs.begin(), inputs.end());
  inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
  axis.kind = SweepAxis::Kind::dim;
  axis.inputs = std::move(inputs);
  axis.dim = static_cast<int>(*d);
  axis.values = values;
  return axis;
}

namespace {

Status sweep(const SweepFlags& flags, const Invocation& invocation) {
  OHPROF_ASSIGN_OR_RETURN(auto parsed, parse_model_flags(flags.model));
  OHPROF_RETURN_IF_ERROR(check_inputs_file(flags.inputs_file, !parsed.inputs.empty()));
  parsed.inputs_file = flags.inputs_file;
  OHPROF_ASSIGN_OR_RETURN(auto axis, parse_sweep_axis(flags.batch, flags.dim));
  if (flags.no_plot && !flags.plot.empty()) return make_error(ExitCode::usage_error, "give --export-html (or --plot) or --no-plot, not both");
  OHPROF_RETURN_IF_ERROR(check_report_exports(flags.exports));
  if (invocation.runtime == nullptr) return delegate_to_measuring_python(invocation, "sweep", flags.model.python);
  console::start("sweep", flags.model.quiet);
  SweepOptions options;
  options.compare = std::move(parsed);
  options.axis = axis;
  options.sweep_time_limit_s = flags.sweep_time_limit_s;
  options.passes = flags.passes;
  options.tolerance = flags.tolerance;
  options.fit_tolerance = flags.fit_tolerance;
  options.report_path = flags.exports.json;
  if (!flags.no_plot) {
    options.plot_path = !flags.plot.empty() || flags.exports.json.empty() || flags.exports.json == "-"
                            ? flags.plot
                            : std::filesystem::path(flags.exports.json).replace_extension(".html").string();
  }
  options.resume = flags.resume;
  options.argv = invocation.argv;
  SweepOutcome outcome = sweep_paths(options, *invocation.runtime);
  if (!outcome.report) return outcome.status;
  Status emitted = emit_sweep(*outcome.report, flags.exports.markdown, flags.model.quiet);
  // the sweep's own error first: the Markdown of a failed sweep matters less
  return outcome.status.ok() ? emitted : outcome.status;
}

}  // namespace

Subcommand add_sweep_command(CLI::App& parent, const Invocation& invocation) {
  auto flags = std::make_shared<SweepFlags>();
  CLI::App* app = parent.add_subcommand(
      "sweep", "Scale one input dimension (the batch, or any axis) and measure every path at each value, as compare "
               "does: where the paths' ratio reaches 1, and each path's fixed per-call cost (docs/sweep.md)");
  add_model_flags(app, flags->model, /*exported=*/false, "Seconds of measurement per point, at most");
  add_inputs_file_option(app, flags->inputs_file,
                         "Your own inputs instead of random ones (a torch.save'd tensor, tuple, or (tuple, dict of "
                         "keyword inputs)), resized at each point along the swept dimension: index i takes the "
                         "saved index i mod its size (docs/sweep.md)");
  app->add_option("--batch", flags->batch,
                  "Values of the first dimension of every input (a zero-dimensional one is left as it is), "
                  "comma-separated; A..B is A, 2A, 4A, ... up to B (e.g. 1..4096)");
  app->add_option("--dim", flags->dim,
                  "INPUT[,INPUT...]:DIM=V1,V2,...: values of one dimension of the inputs named (all from 0; "
                  "several inputs share it, e.g. token ids and their attention mask: 0,1:1=32,64)");
  app->add_option("--sweep-time-limit", flags->sweep_time_limit_s,
                  "Seconds for the whole sweep: a point starts only while time is left and its measurement gets at most "
                  "what is left (building and the split pass come on top); points not started are reported as not measured")
      ->capture_default_str();
  app->add_option("--passes", flags->passes,
                  "Measure every point this many times (forwards, backwards, ...) and keep each point's least "
                  "disturbed pass: on a machine whose speed drifts between points")
      ->capture_default_str();
  app->add_option("--tolerance", flags->tolerance,
                  "The crossover's band: a ratio whose 95% interval reaches [1 - t, 1 + t] counts as converged (0: "
                  "the interval must include 1)")
      ->capture_default_str();
  app->add_option("--fit-tolerance", flags->fit_tolerance,
                  "The fit time = c + k x leaves out points its line misses by more than this (0.1 = 10%)")
      ->capture_default_str();
  add_export_options(app, flags->exports,
                     "Write the sweep report to FILE, rewritten after every point; each point's compare report goes "
                     "to FILE's name with .points/",
                     /*html_help=*/nullptr);
  // --export-html, as every other command calls its page; --plot, its first name, stays an alias
  app->add_option("--export-html,--plot", flags->plot,
                  "Write the page (HTML, self-contained) to FILE (default: the report's name with .html)");
  app->add_flag("--no-plot", flags->no_plot, "Do not draw the page");
  app->add_flag("--resume", flags->resume,
                "Keep the points the --export-json report has measured and measure only the others");
  return Subcommand{app, [flags, &invocation] { return sweep(*flags, invocation); }};
}

}  // namespace ohprof
