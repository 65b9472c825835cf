// `ohprof analyze TRACE.json[.gz]`: the device-time split of a trace PyTorch's profiler already wrote
// (docs/analyze.md); `ohprof analyze TRACE|DIR|GLOB...`: the ranks of a distributed job side by side
// (docs/ranks.md).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/output/ranks_report.hpp"

namespace ohprof {
namespace {

struct AnalyzeFlags {
  std::vector<std::string> traces;
  ReportExports exports;
  bool ranks = false;
  bool each_rank = false;
  int jobs = 0;
  std::int64_t first_position = 0;
  std::string rank_reports;
  bool quiet = false;
};

Status analyze_ranks(const AnalyzeFlags& flags, const Invocation& invocation) {
  if (!flags.exports.trace.empty()) {
    return make_error(ExitCode::usage_error,
                      "--export-trace works on one trace; for the ranks of a job, --rank-reports DIR writes each rank's "
                      "own report, and `ohprof analyze TRACE --export-trace FILE` writes one rank's trace");
  }
  const ReportExports& exports = flags.exports;
  OHPROF_RETURN_IF_ERROR(check_report_exports(exports));
  console::start("analyze", flags.quiet);
  RanksOutcome outcome = analyze_traces(AnalyzeRanksOptions{flags.traces, flags.jobs, flags.first_position,
                                                            flags.rank_reports, flags.each_rank, invocation.argv});
  if (!outcome.report) return outcome.status;
  if (!flags.quiet && exports.json != "-" && exports.markdown != "-") {
    for (const std::string& table : outcome.rank_tables) fmt::print("{}\n", table);
  }
  OHPROF_RETURN_IF_ERROR(emit_ranks_report(*outcome.report, exports, flags.quiet));
  return outcome.status;
}

Status analyze(const AnalyzeFlags& flags, const Invocation& invocation) {
  if (flags.ranks || !names_one_trace(flags.traces)) return analyze_ranks(flags, invocation);
  for (const auto& [flag, given] : {std::pair{"--jobs", flags.jobs != 0}, std::pair{"--first-position", flags.first_position != 0},
                                    std::pair{"--rank-reports", !flags.rank_reports.empty()},
                                    std::pair{"--each-rank", flags.each_rank}}) {
    if (given) {
      return make_error(ExitCode::usage_error,
                        fmt::format("{} is for the ranks of a job: give several traces, a directory or a glob, or --ranks", flag));
    }
  }
  const ReportExports& exports = flags.exports;
  OHPROF_RETURN_IF_ERROR(check_report_exports(exports));
  console::start("analyze", flags.quiet);
  return emit_outcome(analyze_trace(AnalyzeOptions{flags.traces.front(), exports.trace, invocation.argv}), exports,
                      flags.quiet);
}

}  // namespace

Subcommand add_analyze_command(CLI::App& parent, const Invocation& invocation) {
  auto flags = std::make_shared<AnalyzeFlags>();
  CLI::App* app = parent.add_subcommand(
      "analyze",
      "Split the device time (GPU, or MTIA) of a PyTorch-profiler (Kineto) trace: busy, host-bound gaps, other idle "
      "time; of several, the ranks of a job side by side");
  app->add_option("traces", flags->traces,
                  "Kineto Chrome-trace JSON file, plain or gzip (.json, .json.gz); several, a directory or a glob: the "
                  "ranks of one job (docs/ranks.md)")
      ->required();
  add_export_options(app, flags->exports, kReportJsonHelp, kReportHtmlHelp,
                     "Write the trace back with ohprof's split as extra tracks (gzip when FILE ends in .gz); one trace "
                     "only");
  app->add_flag("--ranks", flags->ranks, "Treat the traces as the ranks of one job even when there is one");
  app->add_option("--jobs", flags->jobs, "Ranks: traces analysed at once (default: one per core)")
      ->check(CLI::PositiveNumber);
  app->add_option("--first-position", flags->first_position,
                  "Ranks: the position of the first trace, the rank of a trace without distributedInfo.rank (default 0)")
      ->check(CLI::NonNegativeNumber);
  app->add_option("--rank-reports", flags->rank_reports, "Ranks: also write each rank's own report to DIR/rank-<rank>.json");
  app->add_flag("--each-rank", flags->each_rank, "Ranks: also print each rank's own table (as `analyze TRACE` prints it) first");
  app->add_flag("--quiet", flags->quiet, "Do not print the table");
  return Subcommand{app, [flags, &invocation] { return analyze(*flags, invocation); }};
}

}  // namespace ohprof
