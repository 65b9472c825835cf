#pragma once
// A report file's JSON, for the commands that read reports back (`show`, `merge`; private to the session
// layer; `diff` reads its digest from the stream instead, src/session/diff.cpp).
#include <string>

#include <nlohmann/json.hpp>

#include "ohprof/base/error.hpp"

namespace ohprof {

// The JSON of the report at `file` (plain or gzip). Errors: file_not_found "cannot read report 'F'; check
// the path"; usage_error "'F' is not a JSON report (why); give a file written by --export-json".
Result<nlohmann::json> read_report_json(const std::string& file);

}  // namespace ohprof
