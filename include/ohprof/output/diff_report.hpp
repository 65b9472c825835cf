#pragma once
// `ohprof diff` (docs/diff.md): reading a report back as the digest the diff uses, the diff's JSON
// (docs/report-schema.md, "The diff report") and its table.
#include <istream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ohprof/base/error.hpp"
#include "ohprof/model/diff.hpp"
#include "ohprof/output/report_output.hpp"

namespace ohprof {

struct UnknownText;  // ohprof/output/json_report.hpp

// What the diff uses of a run, compare, analyze or sweep report (its JSON on `in`; `file` names it in
// messages). A sweep's paths come with their medians only; `sweep_point_reports` lists the point
// reports that hold their samples. Errors: usage_error "'F' is not an ohprof report (why); ...".
struct SweepPointReport {
  std::int64_t value = 0;
  std::string report;  // relative to the sweep report's folder, as written
};
struct ParsedDigest {
  ReportDigest digest;
  std::vector<SweepPointReport> sweep_point_reports;
};
Result<ParsedDigest> parse_report_digest(std::istream& in, const std::string& file);

nlohmann::json diff_to_json(const DiffResult& diff);
// A diff report's JSON read back (`ohprof show`): what diff_to_json wrote, or an earlier ohprof of the same
// diff_schema_version (a key it predates reads as its default: no deployment figures, no flaw, an exact bound).
// A warning code this ohprof does not know is left out and listed in `unknown` (where given). Throws
// (std::runtime_error, or nlohmann's errors) when a key is missing or of the wrong type, another text is none of
// ohprof's, or the outcome and judged count are not what the paths and figures give.
DiffResult diff_from_json(const nlohmann::json& j, std::vector<UnknownText>* unknown = nullptr);

// The table for people: each path's medians, change, interval and verdict; the split's changes; the
// overall verdict with the numbers that decided it.
std::string format_diff_table(const DiffResult& diff);

// The figures that fail the gate, with their changes and intervals (a deployment figure: both values), each group
// with its verdict: "compile +20.0% [+19.2%, +20.8%], eager ... slower; compile fresh peak (cold cache) +25.0%
// (809 MB -> 1.01 GB) larger": the verdict line's and the exit-13 error's evidence.
std::string worse_figures_text(const DiffResult& diff);
// Why no path could be judged, from the reasons the paths have ("3 paths have fewer than 10 samples on
// a side, 1 is in one report only"), and what to do: the nothing_judged outcome's line.
std::string nothing_judged_text(const DiffResult& diff);

// What `ohprof diff` does with its result: each warning on stderr, the table on stdout (unless `quiet`,
// or a report goes to stdout), then the JSON and the Markdown where `exports` names them.
Status emit_diff(const DiffResult& diff, const ReportExports& exports, bool quiet);

}  // namespace ohprof
