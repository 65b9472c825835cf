#pragma once
// What every measuring command does with its report at the end, and with a warning on the way.
#include <functional>
#include <string>
#include <vector>

#include "ohprof/base/error.hpp"
#include "ohprof/model/report.hpp"

namespace ohprof {

// Prints the warning on stderr (console::warning) and records it in the report's `warnings`.
void add_warning(Report& report, Warning warning);

// Where a command writes its report besides the table: `--export-json` and `--export-markdown`
// ("" : not written; "-" : stdout, and then no table; at most one of them "-").
struct ReportExports {
  std::string json;
  std::string markdown;
  std::string html;  // --export-html (run, compare, analyze): a file, never stdout
  std::string trace;  // --export-trace (run, compare): written by the session; here only checked
};
// Usage error when --export-json and --export-markdown both name stdout, --export-html does, or two of
// them name the same file.
Status check_report_exports(const ReportExports& exports);

// What a report kind can be written as, each made only when asked for: the table for people, the JSON,
// the Markdown and the HTML page. A form a kind lacks is left empty, and its command offers no flag for it.
struct ReportForms {
  std::function<std::string()> table;
  std::function<std::string()> json;
  std::function<std::string()> markdown;
  std::function<std::string()> html;
};
// The one emitter of every command: the report's warnings on stderr (`print_warnings`: those a session
// did not print as they came), the table on stdout (unless `quiet`, or a report goes to stdout), then
// the JSON, the Markdown and the HTML where `exports` names them, each written atomically. The JSON
// first: it holds every number, and a page that cannot be written must not lose it.
Status emit_forms(const ReportForms& forms, const ReportExports& exports, bool quiet,
                  const std::vector<Warning>& print_warnings = {});

// A run, compare or analyze report: emit_forms with its table, JSON, Markdown and HTML.
Status emit_report(const Report& report, const ReportExports& exports, bool quiet);

}  // namespace ohprof
