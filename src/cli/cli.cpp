#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <vector>

#include "commands.hpp"
#include "ohprof/base/build_info.hpp"
#include "ohprof/base/interrupt.hpp"
#include "ohprof/output/report_output.hpp"

namespace ohprof {

Status emit_outcome(SessionOutcome outcome, const ReportExports& exports, bool quiet) {
  if (!outcome.report) return outcome.status;
  Status written = emit_report(*outcome.report, exports, quiet || !outcome.print_table);
  if (!outcome.status.ok()) return outcome.status;
  return written;
}

void add_export_options(CLI::App* app, ReportExports& exports, const char* json_help, const char* html_help,
                        const char* trace_help) {
  if (json_help != nullptr) app->add_option("--export-json", exports.json, json_help);
  app->add_option("--export-markdown", exports.markdown,
                  "Write a GitHub-flavoured Markdown summary to FILE, for a pull request ('-' for stdout)");
  if (html_help != nullptr) app->add_option("--export-html", exports.html, html_help);
  if (trace_help != nullptr) app->add_option("--export-trace", exports.trace, trace_help);
}

void add_inputs_file_option(CLI::App* app, std::string& file, const char* help) {
  app->add_option("--inputs", file,
                  help != nullptr ? help
                                  : "Your own inputs instead of random ones: a file written by torch.save(x) or "
                                    "torch.save((x, y, ...)), used by every path as given (moved to --device)");
}

Status check_inputs_file(const std::string& file, bool has_input_specs) {
  if (file.empty()) return ok_status();
  if (has_input_specs) return make_error(ExitCode::usage_error, "give --input SHAPE or --inputs FILE, not both");
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) {
    return make_error(ExitCode::file_not_found,
                      fmt::format("--inputs file '{}' does not exist; save your inputs with torch.save((x, ...), FILE)", file));
  }
  return ok_status();
}

void add_python_option(CLI::App* app, std::string& python) {
  app->add_option("--python", python,
                  "The Python to measure in: one with torch and ohprof installed (default: $OHPROF_PYTHON, else "
                  "the environment ohprof was installed into)");
}

int run_cli(int argc, char** argv, const Runtime* runtime, std::string* error_out) {
  // The line on stderr; with error_out, only the message (the API raises it with the exit code).
  const auto report_error = [&](const std::string& prefix, const std::string& message) {
    if (error_out != nullptr) {
      *error_out = message;
    } else {
      fmt::print(stderr, "{}{}\n", prefix, message);
    }
  };
  Invocation invocation;
  invocation.argv.assign(argv, argv + argc);
  invocation.runtime = runtime;

  CLI::App app{"ohprof: measure where a PyTorch model's time goes, per deployment path"};
  app.set_version_flag("--version", std::string(ohprof_version()) + " (" + ohprof_git_sha() + "; gzip: " +
                                        inflate_library() + ")");
  app.require_subcommand(1);

  std::vector<Subcommand> subcommands;
  subcommands.push_back(add_run_command(app, invocation));
  subcommands.push_back(add_compare_command(app, invocation));
  subcommands.push_back(add_sweep_command(app, invocation));
  subcommands.push_back(add_analyze_command(app, invocation));
  subcommands.push_back(add_diff_command(app, invocation));
  subcommands.push_back(add_merge_command(app, invocation));
  subcommands.push_back(add_show_command(app, invocation));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    report_error("ohprof: error: ", fmt::format("{}; run 'ohprof --help' or 'ohprof <command> --help' for usage", e.what()));
    return to_int(ExitCode::usage_error);
  }

  clear_interrupt();  // a process may run several commands (the Python API): each starts uninterrupted
  install_interrupt_handler();
  for (const Subcommand& sub : subcommands) {
    if (sub.app == nullptr || !sub.app->parsed()) continue;
    try {
      Status status = sub.run();
      if (!status.ok()) {
        report_error(fmt::format("ohprof {}: error: ", sub.app->get_name()), status.error().message);
        return to_int(status.error().code);
      }
      return to_int(interrupt_requested() ? ExitCode::interrupted : ExitCode::success);
    } catch (const std::exception& e) {
      report_error(fmt::format("ohprof {}: internal error: ", sub.app->get_name()), e.what());
      return to_int(ExitCode::internal_error);
    }
  }
  return to_int(ExitCode::usage_error);
}

}  // namespace ohprof
