// `ohprof compare`: one model through several deployment paths in one process, interleaved.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "commands.hpp"
#include "model_flags.hpp"
#include "ohprof/model/cold_start.hpp"
#include "ohprof/base/console.hpp"

namespace ohprof {
namespace {

struct CompareFlags {
  ModelFlags model;
  ReportExports exports;
  std::string dump_code;
  bool no_explain = false;
  std::string explain;  // "A:B,C:D"; "" : each path against the fastest
  std::string inputs_file;
  std::string threads;  // "1,2,4"; "" : not measured
  int cold_start = 0;   // --cold-start[=N]: fresh processes per path and cache state; 0: not measured
  bool what_if = false;
};

// "1,2,4" -> {1, 2, 4}; the range is compare's to check (validate_compare_options).
Result<std::vector<int>> parse_thread_counts(const std::string& text) {
  std::vector<int> counts;
  if (text.empty()) return counts;
  for (const std::string& item : comma_items(text)) {
    std::size_t used = 0;
    int value = 0;
    try {
      value = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size()) {
      return make_error(ExitCode::usage_error,
                        fmt::format("--threads '{}': give counts of callers, comma-separated (e.g. 1,2,4)", text));
    }
    counts.push_back(value);
  }
  return counts;
}

// "compile:aoti,eager:aoti" -> (compile, aoti), (eager, aoti). Path names contain ':' themselves
// (compile:cpp-wrapper), so a pair splits at the ':' that leaves two known path names.
Result<std::vector<std::pair<std::string, std::string>>> parse_explain_pairs(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> pairs;
  if (text.empty()) return pairs;
  const std::vector<std::string>& known = known_compare_paths();
  const auto is_known = [&](const std::string& name) { return std::find(known.begin(), known.end(), name) != known.end(); };
  for (const std::string& pair : comma_items(text)) {
    bool found = false;
    for (std::size_t colon = pair.find(':'); colon != std::string::npos; colon = pair.find(':', colon + 1)) {
      if (is_known(pair.substr(0, colon)) && is_known(pair.substr(colon + 1))) {
        pairs.emplace_back(pair.substr(0, colon), pair.substr(colon + 1));
        found = true;
        break;
      }
    }
    if (!found) {
      return make_error(ExitCode::usage_error,
                        fmt::format("--explain '{}' is not SLOWER:FASTER of two paths ({})", pair, fmt::join(known, ", ")));
    }
  }
  return pairs;
}

Status compare(const CompareFlags& flags, const Invocation& invocation) {
  const ReportExports& exports = flags.exports;
  OHPROF_RETURN_IF_ERROR(check_report_exports(exports));
  OHPROF_ASSIGN_OR_RETURN(CompareOptions options, parse_model_flags(flags.model));
  OHPROF_RETURN_IF_ERROR(check_inputs_file(flags.inputs_file, !options.inputs.empty()));
  options.inputs_file = flags.inputs_file;
  options.explain = !flags.no_explain;
  OHPROF_ASSIGN_OR_RETURN(options.explain_pairs, parse_explain_pairs(flags.explain));
  if (flags.no_explain && !options.explain_pairs.empty()) {
    return make_error(ExitCode::usage_error, "give --explain or --no-explain, not both");
  }
  OHPROF_ASSIGN_OR_RETURN(options.threads, parse_thread_counts(flags.threads));
  options.cold_start = flags.cold_start;
  options.what_if = flags.what_if;
  if (invocation.runtime == nullptr) return delegate_to_measuring_python(invocation, "compare", flags.model.python);
  console::start("compare", flags.model.quiet);
  options.checkpoint_path = flags.exports.json;
  options.export_trace = flags.exports.trace;
  options.dump_code_dir = flags.dump_code;
  options.argv = invocation.argv;
  return emit_outcome(compare_paths(options, *invocation.runtime), exports, flags.model.quiet);
}

}  // namespace

Subcommand add_compare_command(CLI::App& parent, const Invocation& invocation) {
  auto flags = std::make_shared<CompareFlags>();
  CLI::App* app = parent.add_subcommand(
      "compare", "Run one model through several deployment paths (aoti, torch.compile modes, eager) in one "
                 "process and compare them; with no model, the bundled ResNet-18 at [1, 3, 224, 224]");
  add_model_flags(app, flags->model, /*exported=*/true, "Seconds for the whole measurement, at most");
  add_inputs_file_option(app, flags->inputs_file);
  app->add_option("--explain", flags->explain,
                  "Pairs to explain, SLOWER:FASTER comma-separated (e.g. compile:aoti); default: each path against "
                  "the fastest");
  app->add_flag("--no-explain", flags->no_explain,
                "Do not measure the variants that peel each path's layers of host work, nor explain the gaps");
  app->add_option("--threads", flags->threads,
                  "After the timed passes, call each path from N threads at once, for each N comma-separated "
                  "(e.g. 1,2,4; 1 is always measured): throughput, p50 and p99 latency, scaling and the limit hit");
  app->add_flag("--cold-start{" + std::to_string(kColdStartDefaultProcesses) + "}", flags->cold_start,
                fmt::format("Last, start each path N times (--cold-start=N; {} without a value) in fresh processes: the "
                            "time from nothing to its first checked result, in process, import, load, compile and first "
                            "call; torch.compile paths with a cold, a warm and a portable-artifacts cache (docs/metrics.md, "
                            "\"Cold start\")",
                            kColdStartDefaultProcesses));
  app->add_flag("--what-if", flags->what_if,
                "Measure what each compile setting buys against the compile path, in the same rounds: guards "
                "skipped, guards on nn.Module attributes dropped, the C++ wrapper, CUDA graphs, autotuning; and "
                "the compile path built twice more (the A/A check of placement) (docs/metrics.md, \"What-if ledger\")");
  add_export_options(app, flags->exports, kReportJsonHelp, kReportHtmlHelp, kSplitTraceHelp);
  app->add_option("--dump-code", flags->dump_code,
                  "After measuring, write each path's graph, generated code, compile trace and kernels (with their "
                  "places in the code and their cost) to DIR, and DIR/index.html over all paths (docs/code-dump.md)");
  return Subcommand{app, [flags, &invocation] { return compare(*flags, invocation); }};
}

}  // namespace ohprof
