// `ohprof merge REPORT...`: the ranks reports of parts of a job as the report of the whole (docs/ranks.md,
// "Merging").
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/output/ranks_report.hpp"

namespace ohprof {
namespace {

struct MergeFlags {
  std::vector<std::string> reports;
  ReportExports exports;
  bool quiet = false;
};

Status merge(const MergeFlags& flags, const Invocation& invocation) {
  const ReportExports& exports = flags.exports;
  OHPROF_RETURN_IF_ERROR(check_report_exports(exports));
  console::start("merge", flags.quiet);
  RanksOutcome outcome = merge_report_files(MergeOptions{flags.reports, invocation.argv});
  if (!outcome.report) return outcome.status;
  OHPROF_RETURN_IF_ERROR(emit_ranks_report(*outcome.report, exports, flags.quiet));
  return outcome.status;
}

}  // namespace

Subcommand add_merge_command(CLI::App& parent, const Invocation& invocation) {
  auto flags = std::make_shared<MergeFlags>();
  CLI::App* app = parent.add_subcommand(
      "merge", "Merge the reports of parts of a distributed job (analyze's, merge's) into the report of the whole");
  app->add_option("reports", flags->reports,
                  "Reports of `ohprof analyze TRACE...`, `ohprof merge` or `ohprof analyze TRACE` (.json, .json.gz)")
      ->required();
  add_export_options(app, flags->exports, "Write the merged JSON report to FILE ('-' for stdout)");
  app->add_flag("--quiet", flags->quiet, "Do not print the table");
  return Subcommand{app, [flags, &invocation] { return merge(*flags, invocation); }};
}

}  // namespace ohprof
