// `ohprof diff BASE.json NEW.json`: two reports of the same model, path by path, as a CI gate
// (docs/diff.md).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <charconv>

#include "commands.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/output/diff_report.hpp"

namespace ohprof {
namespace {

struct DiffFlags {
  std::string base_path;
  std::string new_path;
  std::string threshold = "10%";
  double alpha = 0.05;
  int resamples = 10000;
  std::uint64_t seed = 0;
  std::string relative_to;
  bool force = false;
  ReportExports exports;
  bool quiet = false;
};

Status diff(const DiffFlags& flags) {
  const ReportExports& exports = flags.exports;
  OHPROF_RETURN_IF_ERROR(check_report_exports(exports));
  console::start("diff", flags.quiet);
  const auto threshold = parse_fraction(flags.threshold);
  if (!threshold) {
    return make_error(ExitCode::usage_error,
                      fmt::format("--threshold '{}': give a percentage (5%) or a fraction (0.05)", flags.threshold));
  }
  DiffOptions options;
  options.base_path = flags.base_path;
  options.new_path = flags.new_path;
  options.config.threshold = *threshold;
  options.config.alpha = flags.alpha;
  options.config.resamples = flags.resamples;
  options.config.seed = flags.seed;
  options.config.relative_to = flags.relative_to;
  options.config.force = flags.force;
  DiffFilesOutcome outcome = diff_report_files(options);
  if (!outcome.diff) return outcome.status;
  Status written = emit_diff(*outcome.diff, exports, flags.quiet);
  if (!written.ok()) return written;
  return outcome.status;
}

}  // namespace

// "5%" -> 0.05, "0.05" -> 0.05; none for anything else (or a negative value).
std::optional<double> parse_fraction(const std::string& text) {
  std::string number = text;
  const bool percent = !number.empty() && number.back() == '%';
  if (percent) number.pop_back();
  double value = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (number.empty() || ec != std::errc() || end != number.data() + number.size() || value < 0) return std::nullopt;
  return percent ? value / 100 : value;
}

Subcommand add_diff_command(CLI::App& parent, const Invocation&) {
  auto flags = std::make_shared<DiffFlags>();
  CLI::App* app = parent.add_subcommand(
      "diff", "Compare two reports of the same model path by path: the change of each median with an interval, "
              "and a verdict (exit 13 when a path is slower or a deployment figure worse, 14 when the reports cannot be "
              "compared)");
  app->add_option("base", flags->base_path, "The base report (--export-json of run, compare, analyze or sweep)")->required();
  app->add_option("new", flags->new_path, "The new report, of the same kind, model, inputs and device")->required();
  app->add_option("--threshold", flags->threshold,
                  "The relative change of a median that counts as slower or faster (5%, 0.05)")
      ->capture_default_str();
  app->add_option("--alpha", flags->alpha, "1 - the interval's level: 0.05 gives 95% intervals")->capture_default_str();
  app->add_option("--resamples", flags->resamples, "Bootstrap resamples per path")->capture_default_str();
  app->add_option("--seed", flags->seed, "The bootstrap's seed (the same seed gives the same intervals)")
      ->capture_default_str();
  app->add_option("--relative-to", flags->relative_to,
                  "Judge each path's time over this path's in its own report (cancels a machine's drift between "
                  "the two runs; compare and sweep reports)");
  app->add_flag("--force", flags->force, "Diff reports that differ in model, inputs, device or schema (warned)");
  add_export_options(app, flags->exports, "Write the diff as JSON to FILE ('-' for stdout)",
                     "Write one self-contained HTML page of the diff to FILE: the verdict, each path's change and "
                     "interval, the split's and the deployment figures' changes");
  app->add_flag("--quiet", flags->quiet, "Do not print the table");
  return Subcommand{app, [flags] { return diff(*flags); }};
}

}  // namespace ohprof
