// `ohprof show REPORT` (docs/usage.md, "ohprof show"): a report file read back as the command that wrote it
// holds it, for its table, Markdown or page again without measuring again.
#include <fmt/format.h>

#include <exception>
#include <filesystem>
#include <istream>

#include <nlohmann/json.hpp>

#include "ohprof/output/json_report.hpp"
#include "ohprof/output/sweep_report.hpp"
#include "ohprof/session/session.hpp"
#include "ohprof/trace/gzip_file.hpp"
#include "report_file.hpp"

namespace ohprof {

Result<nlohmann::json> read_report_json(const std::string& file) {
  std::error_code missing;
  if (!std::filesystem::is_regular_file(file, missing)) {
    return make_error(ExitCode::file_not_found, fmt::format("cannot read report '{}'; check the path", file));
  }
  OHPROF_ASSIGN_OR_RETURN(auto buffer, GzipInputBuffer::open(file));
  std::istream in(buffer.get());
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    const std::string why = buffer->error() ? buffer->error()->message : e.what();
    return make_error(ExitCode::usage_error,
                      fmt::format("'{}' is not a JSON report ({}); give a file written by --export-json", file, why));
  }
}

ShowOutcome read_report_file(const ShowOptions& options) {
  const std::string& file = options.report_path;
  ShowOutcome out;
  auto read = read_report_json(file);
  if (!read.ok()) {
    out.status = read.error();
    return out;
  }
  const nlohmann::json& j = *read;
  const auto kind_field = j.is_object() ? j.find("kind") : j.end();
  const std::string kind = j.is_object() && kind_field != j.end() && kind_field->is_string() ? kind_field->get<std::string>() : "";
  if (kind == "ranks") {  // the job's report is made from its ranks' digests: merged again, as `ohprof merge` does
    RanksOutcome merged = merge_report_files(MergeOptions{{file}, options.argv});
    out.ranks = std::move(merged.report);
    out.status = merged.status;
    return out;
  }
  if (kind == "diff") {
    out.status = make_error(ExitCode::usage_error,
                            fmt::format("'{}' is a diff report, which show does not read; run `ohprof diff BASE NEW` "
                                        "again for its table",
                                        file));
    return out;
  }
  if (kind != "run" && kind != "compare" && kind != "analyze" && kind != "sweep") {
    out.status = make_error(ExitCode::usage_error,
                            fmt::format("'{}' is not an ohprof report ({}); give a file written by --export-json", file,
                                        kind.empty() ? "it has no \"kind\"" : fmt::format("its kind is \"{}\"", kind)));
    return out;
  }
  try {
    if (kind == "sweep") {
      out.sweep = sweep_from_json(j);
    } else {
      out.report = report_from_json(j, &out.unknown);
    }
  } catch (const std::exception& e) {
    out.report.reset();
    out.sweep.reset();
    out.status = make_error(ExitCode::usage_error,
                            fmt::format("'{}' could not be read as ohprof's {} report ({}); give a whole report written by "
                                        "--export-json",
                                        file, kind, e.what()));
  }
  return out;
}

}  // namespace ohprof
