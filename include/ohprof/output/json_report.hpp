#pragma once
// The JSON printer: formats a Report (docs/report-schema.md). Times are integers in nanoseconds,
// statistics are numbers in nanoseconds, ratios are plain numbers.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "ohprof/base/error.hpp"
#include "ohprof/model/report.hpp"

namespace ohprof {

nlohmann::json summary_to_json(const SampleSummary& summary);
nlohmann::json report_to_json(const Report& report);

// Writes the report atomically to `path` ("-" for stdout).
Status write_json_report(const Report& report, const std::string& path);

}  // namespace ohprof
