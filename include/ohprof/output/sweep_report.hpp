#pragma once
// The sweep report (docs/report-schema.md, "The sweep report") and its table (docs/sweep.md, "Outputs").
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ohprof/base/error.hpp"
#include "ohprof/model/sweep.hpp"

namespace ohprof {

nlohmann::json sweep_to_json(const SweepReport& report);
// sweep_to_json's inverse (what is derived as text, the axis's name or a stop reason's text, is not read
// back; a number written as null, NaN or infinity, reads as infinity where it is a limit, else NaN):
// `--resume` and `diff` read a sweep report through it, whatever its sweep_schema_version (--resume
// refuses another version; diff calls it incomparable). Throws std::runtime_error ("its kind is not
// \"sweep\"", an unknown enum text) or nlohmann's exceptions (a key missing or of the wrong type).
SweepReport sweep_from_json(const nlohmann::json& j);
// Writes the report atomically to `path` (a file; the sweep rewrites it after every point).
Status write_sweep_report(const SweepReport& report, const std::string& path);

// --resume: the points of the sweep report at `path`, as written. An error (usage, exit 2) naming the
// first setting that differs when that report was made with another model, inputs, axis, paths,
// device, compile source or kernel-profile setting than `expected`; file_not_found / invalid_trace-like
// errors (exit 3 / 2) when it cannot be read.
Result<std::vector<SweepPoint>> read_resumable_points(const std::string& path, const SweepConfig& expected);

// The table for people: per point, each path's latency, throughput and split, each pair's ratio; then
// the crossovers and the fits.
std::string format_sweep_table(const SweepReport& report);

// The end of `ohprof sweep`: the table on stdout (unless `quiet` or the Markdown goes there), then the
// Markdown when `markdown` names a file or "-" (docs/reports.md). The JSON and the page are written
// while the sweep runs. `print_warnings`: the report's warnings on stderr first (a report read back).
Status emit_sweep(const SweepReport& report, const std::string& markdown, bool quiet, bool print_warnings = false);

}  // namespace ohprof
