// `ohprof show REPORT` (docs/usage.md, "ohprof show"): a report file read back as the command that wrote it
// holds it, for its table, Markdown or page again without measuring again.
#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <istream>

#include <nlohmann/json.hpp>

#include "ohprof/base/console.hpp"
#include "ohprof/output/diff_report.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/model/sweep.hpp"
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
  if (kind == "ranks") {
    // The job's report is made from its ranks' digests, merged again as `ohprof merge` does; its status (15 for a
    // failed trace, or an interrupted job) was the writing command's exit, not show's: the table says it. The
    // context is the file's, not this command's.
    RanksOutcome merged = merge_reports({NamedReport{j, file}}, options.argv);
    out.ranks = std::move(merged.report);
    if (!out.ranks) {
      out.status = merged.status;
      return out;
    }
    try {
      if (j.contains("context")) out.ranks->context = context_from_json(j.at("context"));
    } catch (const std::exception& e) {
      out.ranks.reset();
      out.status = make_error(ExitCode::usage_error, fmt::format("'{}' could not be read as ohprof's ranks report ({}); give "
                                                                 "a whole report written by --export-json",
                                                                 file, e.what()));
    }
    return out;
  }
  if (kind != "run" && kind != "compare" && kind != "analyze" && kind != "sweep" && kind != "diff") {
    out.status = make_error(ExitCode::usage_error,
                            fmt::format("'{}' is not an ohprof report ({}); give a file written by --export-json", file,
                                        kind.empty() ? "it has no \"kind\"" : fmt::format("its kind is \"{}\"", kind)));
    return out;
  }
  {  // a version above this ohprof's: keys it does not know would read as defaults, and the table would be wrong
    const std::string key = kind == "sweep" ? "sweep_schema_version" : kind == "diff" ? "diff_schema_version" : "schema_version";
    const int known = kind == "sweep" ? kSweepSchemaVersion : kind == "diff" ? kDiffSchemaVersion : kReportSchemaVersion;
    const auto version = j.find(key);
    if (version == j.end() || !version->is_number_integer()) {
      out.status = make_error(ExitCode::usage_error,
                              fmt::format("'{}' has no {}: it is not a whole report; give a file written by --export-json",
                                          file, key));
      return out;
    }
    if (version->get<std::int64_t>() > known) {
      out.status = make_error(ExitCode::usage_error,
                              fmt::format("'{}' has {} {} and this ohprof reads up to {}; read it with the ohprof that "
                                          "wrote it, or a later one",
                                          file, key, version->dump(), known));
      return out;
    }
  }
  try {
    if (kind == "sweep") {
      out.sweep = sweep_from_json(j);
    } else if (kind == "diff") {  // the diff's exit (13 for a regression) was the diff command's, not show's
      out.diff = diff_from_json(j, &out.unknown);
    } else {
      out.report = report_from_json(j, &out.unknown);
    }
  } catch (const std::exception& e) {
    out.report.reset();
    out.sweep.reset();
    out.diff.reset();
    out.status = make_error(ExitCode::usage_error,
                            fmt::format("'{}' could not be read as ohprof's {} report ({}); give a whole report written by "
                                        "--export-json",
                                        file, kind, e.what()));
  }
  if (!out.unknown.empty() && (out.report || out.sweep || out.diff)) {
    console::warning(fmt::format("'{}' holds texts this ohprof does not know (a later ohprof's?): {}; they are left out",
                                 file, unknown_texts_text(out.unknown)));
  }
  const auto in_progress = [](const StopReason& reason) { return reason.code == StopCode::in_progress; };
  if (out.report && (in_progress(out.report->stop_reason) ||
                     std::any_of(out.report->paths.begin(), out.report->paths.end(),
                                 [&](const PathResult& path) { return in_progress(path.stop_reason); }))) {
    console::warning(fmt::format("'{}' is a checkpoint: the command that wrote it was still measuring when it stopped "
                                 "(killed, or still running); it holds what was measured until then",
                                 file));
  }
  return out;
}

}  // namespace ohprof
