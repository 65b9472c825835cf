#include "ohprof/output/report_output.hpp"

#include <fmt/core.h>


#include "ohprof/base/console.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/output/table_printer.hpp"

namespace ohprof {

void add_warning(Report& report, Warning warning) {
  console::warning(warning.message);
  report.warnings.push_back(std::move(warning));
}

Status emit_report(const Report& report, const std::string& export_json, bool quiet) {
  if (!quiet && export_json != "-") fmt::print("{}", format_run_table(report));
  if (!export_json.empty()) return write_json_report(report, export_json);
  return ok_status();
}

}  // namespace ohprof
