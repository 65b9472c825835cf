#pragma once
// Subcommands: one file each (src/cli/cmd_<name>.cpp). Each registers its flags on the parent app and
// returns the function run_cli() calls when that subcommand was chosen. That function turns the flags
// into the session's options, calls the session and hands what it returns to emit_outcome.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/error.hpp"
#include "ohprof/output/report_output.hpp"
#include "ohprof/session/session.hpp"

namespace CLI {
class App;
}

namespace ohprof {

struct Subcommand {
  CLI::App* app = nullptr;
  std::function<Status()> run;
};

struct Invocation {
  std::vector<std::string> argv;  // as the user typed it, for the report's context block
  // The model runtimes and collectors, in the measuring extension (_ohprof_measure); null in the
  // torch-free front, which hands `run`, `compare` and `sweep` to it (delegate_to_measuring_python).
  const Runtime* runtime = nullptr;
};

Subcommand add_run_command(CLI::App& parent, const Invocation& invocation);
Subcommand add_compare_command(CLI::App& parent, const Invocation& invocation);
Subcommand add_analyze_command(CLI::App& parent, const Invocation& invocation);
Subcommand add_sweep_command(CLI::App& parent, const Invocation& invocation);
Subcommand add_diff_command(CLI::App& parent, const Invocation& invocation);
Subcommand add_merge_command(CLI::App& parent, const Invocation& invocation);
Subcommand add_show_command(CLI::App& parent, const Invocation& invocation);

// diff's --threshold: "5%" -> 0.05, "0.05" -> 0.05; none for other text or a negative value.
std::optional<double> parse_fraction(const std::string& text);

// sweep's axis flags (src/cli/cmd_sweep.cpp), for its tests: "1,2,8..64" -> 1, 2, 8, 16, 32, 64, sorted
// and each once; --batch LIST or --dim INPUT:DIM=LIST, exactly one.
Result<std::vector<std::int64_t>> parse_sweep_values(const std::string& flag, const std::string& text);
Result<SweepAxis> parse_sweep_axis(const std::string& batch, const std::string& dim);

// The whole command line: parse, run the chosen subcommand, report an error once; the exit code. With
// `error_out` (the Python API, python/ohprof/api.py), a failed command's one-line message is stored there
// instead of printed.
int run_cli(int argc, char** argv, const Runtime* runtime, std::string* error_out = nullptr);

// The table and the JSON report of what a session returned (when it returned one), then its status.
Status emit_outcome(SessionOutcome outcome, const ReportExports& exports, bool quiet);

// The export flags, one set for every command (docs/reports.md), in this order: --export-json FILE ('-' for
// stdout), --export-markdown FILE (the same on every command), --export-html FILE and, where the command
// has a timeline, --export-trace FILE. Each command says in the help texts what its JSON, page and trace
// hold: `json_help` nullptr means no --export-json (show, which reads a report), `html_help` nullptr leaves
// --export-html to the command (sweep's --export-html,--plot), `trace_help` nullptr means no --export-trace.
inline constexpr const char* kReportJsonHelp = "Write the JSON report to FILE ('-' for stdout)";
inline constexpr const char* kReportHtmlHelp =
    "Write one self-contained HTML page of the report to FILE: the tables, each path's split and wall-time "
    "distribution, the kernels";
// run's and compare's --export-trace.
inline constexpr const char* kSplitTraceHelp =
    "Write the split pass's timeline as a Chrome trace to FILE (gzip when it ends in .gz), for Perfetto or "
    "chrome://tracing, and ohprof analyze";
void add_export_options(CLI::App* app, ReportExports& exports, const char* json_help = kReportJsonHelp,
                        const char* html_help = kReportHtmlHelp, const char* trace_help = nullptr);

// The front's `run`, `compare` and `sweep`: replaces this process with the user's Python running ohprof's
// measuring side (python/ohprof/_measure.py, then the _ohprof_measure extension) on the same command line,
// so the user's signals and the exit code reach it unchanged. The Python: --python, else $OHPROF_PYTHON,
// else a developer build's venv (tools/build; the extension beside this executable), else the one of the
// environment ohprof was installed into (PREFIX/bin beside PREFIX/lib/pythonX.Y/site-packages/ohprof).
// Returns only when none can be executed, with an environment_error that says what to do.
Status delegate_to_measuring_python(const Invocation& invocation, const std::string& command,
                                    const std::string& python_flag);

// --inputs FILE on run and compare: the user's own inputs, a torch.save'd tensor or tuple of tensors
// (docs/usage.md, "Your own inputs"); checked by the front: not with --input (usage_error), and the file
// must exist (file_not_found). Its contents are read in Python (python/ohprof/_paths.py).
// --inputs FILE; `help` replaces the default text (what compare and run do with the file).
void add_inputs_file_option(CLI::App* app, std::string& file, const char* help = nullptr);
Status check_inputs_file(const std::string& file, bool has_input_specs);

// --python PATH on run, compare and sweep: the interpreter that measures (docs/usage.md, "Which Python").
void add_python_option(CLI::App* app, std::string& python);

}  // namespace ohprof
