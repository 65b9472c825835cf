#pragma once
// The JSON printer: formats a Report (docs/report-schema.md). Times are integers in nanoseconds,
// statistics are numbers in nanoseconds, ratios are plain numbers.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "ohprof/base/error.hpp"
#include "ohprof/model/report.hpp"

namespace ohprof {

nlohmann::json summary_to_json(const SampleSummary& summary);
// summary_to_json's inverse (throws nlohmann's exceptions on a malformed object; a null number reads as NaN).
SampleSummary summary_from_json(const nlohmann::json& j);
nlohmann::json optional_number(const std::optional<double>& value);  // null when unset
nlohmann::json optional_integer(const std::optional<std::int64_t>& value);  // null when unset
nlohmann::json optional_text(const std::string& text);  // null when empty
nlohmann::json report_to_json(const Report& report);
// A text a report holds that this ohprof does not know: a later ohprof's enum value, warning code or stop
// reason, under its place in the report ("paths[aoti].stop_reason", "warnings"; json_read.hpp).
struct UnknownText {
  std::string key;
  std::string text;
};
// "phase 'link', warnings 'new-code'": the list for a one-line message.
std::string unknown_texts_text(const std::vector<UnknownText>& unknown);
// report_to_json's inverse, for run, compare and analyze reports (src/output/report_from_json.cpp;
// docs/report-schema.md, "How reports are read back"). A key the report lacks (written by an ohprof before
// the key existed) reads as its field's default; kind, context, config.inputs, paths and each path's name
// and samples_ns are required. Throws (std::runtime_error, nlohmann's exceptions) on a key of the wrong
// type or a missing required key. A text that is none of this ohprof's throws when `unknown` is null;
// otherwise it is listed there and its field keeps its default (a warning of an unknown code is left out),
// except in the fields that say what was measured (kind, context.device.type, a path's role,
// compile_source, a cold-start state's cache) and the report's own stop_reason (a checkpoint's), which
// throw either way. The schema version is the caller's
// to check. What the JSON does not hold reads as empty: a path's first_iteration_ops, a measured
// compile's clock (its start is 0, its end its duration).
Report report_from_json(const nlohmann::json& j, std::vector<UnknownText>* unknown = nullptr);
nlohmann::json context_to_json(const RunContext& context);
// context_to_json's inverse. A key absent from the object (a report written before that key existed)
// reads as empty (0 threads, device index -1); a key of the wrong type or an unknown device type throws
// (nlohmann's exceptions, std::runtime_error).
RunContext context_from_json(const nlohmann::json& j);
nlohmann::json warnings_to_json(const std::vector<Warning>& warnings);
// warnings_to_json's inverse; throws (std::runtime_error, or nlohmann's) on a malformed entry, and on an unknown
// code unless report_from_json was given a list for unknown texts (then the warning is left out and listed).
std::vector<Warning> warnings_from_json(const nlohmann::json& list);
// One collective of a path's split (`split.collectives[]`), and a trace's distributedInfo (null when absent).
nlohmann::json collective_to_json(const CollectiveOp& op);
// collective_to_json's inverse (every key required; a negative ordinal throws std::runtime_error).
CollectiveOp collective_from_json(const nlohmann::json& j);
nlohmann::json distributed_to_json(const std::optional<DistributedInfo>& info);

// A path's kernels joined to its generated code: the dump's `<path>/kernels.json` (docs/code-dump.md).
nlohmann::json kernel_listing_to_json(const PathResult& path, const KernelListing& listing);

// A report's JSON as written to a file: indented by 2, a newline at the end; bytes that are not UTF-8 (a
// kernel name from a corrupt trace) become U+FFFD rather than failing.
std::string dump_report(const nlohmann::json& report);

// Writes the report atomically to `path` ("-" for stdout).
Status write_json_report(const Report& report, const std::string& path);

}  // namespace ohprof
