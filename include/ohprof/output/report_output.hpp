#pragma once
// What every measuring command does with its report at the end, and with a warning on the way.
#include <string>

#include "ohprof/base/error.hpp"
#include "ohprof/model/report.hpp"

namespace ohprof {

// Prints the warning on stderr (console::warning) and records it in the report's `warnings`.
void add_warning(Report& report, Warning warning);

// The table on stdout (unless `quiet`, or the JSON itself goes to stdout with `--export-json -`),
// then the JSON report when `export_json` names a file or "-".
Status emit_report(const Report& report, const std::string& export_json, bool quiet);

}  // namespace ohprof
