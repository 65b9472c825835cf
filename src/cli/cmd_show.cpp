// `ohprof show REPORT`: a report that run, compare, sweep, analyze, merge or diff wrote, shown again (its table,
// Markdown or page) without measuring again (docs/usage.md, "ohprof show").
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/output/diff_report.hpp"
#include "ohprof/output/ranks_report.hpp"
#include "ohprof/output/sweep_report.hpp"

namespace ohprof {
namespace {

struct ShowFlags {
  std::string report;
  ReportExports exports;
  bool quiet = false;
};

Status show(const ShowFlags& flags, const Invocation& invocation) {
  const ReportExports& exports = flags.exports;
  OHPROF_RETURN_IF_ERROR(check_report_exports(exports));
  console::start("show", flags.quiet);
  ShowOutcome outcome = read_report_file(ShowOptions{flags.report, invocation.argv});
  if (outcome.report) return emit_report(*outcome.report, exports, flags.quiet, true);
  if (outcome.sweep) {
    if (!exports.html.empty()) {
      return make_error(ExitCode::usage_error,
                        "a sweep report's page is drawn by matplotlib in Python: `python -m ohprof._sweep_plot "
                        "REPORT.json PAGE.html` draws it again (pip install 'ohprof[plot]'); show writes its table and "
                        "--export-markdown");
    }
    return emit_sweep(*outcome.sweep, exports.markdown, flags.quiet, true);
  }
  if (outcome.ranks) return emit_ranks_report(*outcome.ranks, exports, flags.quiet);
  if (outcome.diff) return emit_diff(*outcome.diff, exports, flags.quiet);
  return outcome.status;
}

}  // namespace

Subcommand add_show_command(CLI::App& parent, const Invocation& invocation) {
  auto flags = std::make_shared<ShowFlags>();
  CLI::App* app = parent.add_subcommand(
      "show", "Show a report that run, compare, sweep, analyze, merge or diff wrote (--export-json) again: its table, "
              "Markdown or page, without measuring again");
  app->add_option("report", flags->report, "The JSON report (.json, .json.gz)")->required();
  add_export_options(app, flags->exports, nullptr,
                     "Write one self-contained HTML page of the report to FILE (run, compare, analyze, ranks and diff reports)");
  app->add_flag("--quiet", flags->quiet, "Do not print the table");
  return Subcommand{app, [flags, &invocation] { return show(*flags, invocation); }};
}

}  // namespace ohprof
