#pragma once
// What every measuring command does with its report at the end, and with a warning on the way.
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

// A run, compare or analyze report: its table, JSON, Markdown and HTML (src/output/report_forms.hpp);
// `print_warnings`: its warnings on stderr first (a report read back, whose session printed them then).
Status emit_report(const Report& report, const ReportExports& exports, bool quiet, bool print_warnings = false);

}  // namespace ohprof
