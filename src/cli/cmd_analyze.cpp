// `ohprof analyze TRACE.json[.gz]`: the device-time split of a trace PyTorch's profiler already wrote
// (docs/analyze.md).
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "ohprof/base/console.hpp"

namespace ohprof {
namespace {

struct AnalyzeFlags {
  std::string trace_path;
  std::string export_json;
  std::string export_markdown;
  std::string export_html;
  std::string export_trace;
  bool quiet = false;
};

Status analyze(const AnalyzeFlags& flags, const Invocation& invocation) {
  const ReportExports exports{flags.export_json, flags.export_markdown, flags.export_html, flags.export_trace};
  if (Status checked = check_report_exports(exports); !checked.ok()) return checked;
  console::start("analyze", flags.quiet);
  return emit_outcome(analyze_trace(AnalyzeOptions{flags.trace_path, flags.export_trace, invocation.argv}), exports,
                      flags.quiet);
}

}  // namespace

Subcommand add_analyze_command(CLI::App& parent, const Invocation& invocation) {
  auto flags = std::make_shared<AnalyzeFlags>();
  CLI::App* app = parent.add_subcommand(
      "analyze", "Split the GPU time of a PyTorch-profiler (Kineto) trace: busy, host-bound gaps, other idle time");
  app->add_option("trace", flags->trace_path, "Kineto Chrome-trace JSON file, plain or gzip (.json, .json.gz)")
      ->required();
  app->add_option("--export-json", flags->export_json, "Write the JSON report to FILE ('-' for stdout)");
  add_markdown_option(app, flags->export_markdown);
  add_html_option(app, flags->export_html);
  app->add_option("--export-trace", flags->export_trace,
                  "Write the trace back with ohprof's split as extra tracks (gzip when FILE ends in .gz)");
  app->add_flag("--quiet", flags->quiet, "Do not print the table");
  return Subcommand{app, [flags, &invocation] { return analyze(*flags, invocation); }};
}

}  // namespace ohprof
