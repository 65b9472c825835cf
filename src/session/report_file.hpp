#pragma once
// Report files read back, for the commands that read them (`show`, `merge`; private to the session layer;
// `diff` reads its digest from the stream instead, src/session/diff.cpp).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ohprof/base/error.hpp"
#include "ohprof/session/session.hpp"

namespace ohprof {

// The JSON of the report at `file` (plain or gzip). Errors: file_not_found "cannot read report 'F'; check
// the path"; usage_error "'F' is not a JSON report (why); give a file written by --export-json".
Result<nlohmann::json> read_report_json(const std::string& file);

// `ohprof merge`'s work on reports already read (src/session/ranks.cpp): each a ranks or one-trace analyze
// report and the file it came from, merged into the report of the whole job; `argv` is its context's.
struct NamedReport {
  const nlohmann::json& json;
  const std::string& file;
};
RanksOutcome merge_reports(const std::vector<NamedReport>& reports, const std::vector<std::string>& argv);

}  // namespace ohprof
