// `ohprof diff BASE NEW` (docs/diff.md): read both reports (a sweep's point reports too), diff them, and
// say what the exit code is.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <istream>

#include "ohprof/analysis/diff.hpp"
#include "ohprof/output/diff_report.hpp"
#include "ohprof/session/session.hpp"
#include "ohprof/trace/gzip_file.hpp"

namespace ohprof {
namespace {

// One report file, plain or gzip.
Result<ParsedDigest> read_one(const std::string& path, const std::string& shown_as) {
  if (!std::filesystem::is_regular_file(path)) {
    return make_error(ExitCode::file_not_found, fmt::format("cannot read report '{}'; check the path", shown_as));
  }
  OHPROF_ASSIGN_OR_RETURN(auto buffer, GzipInputBuffer::open(path));
  std::istream in(buffer.get());
  auto parsed = parse_report_digest(in, shown_as);
  if (buffer->error()) {
    return make_error(ExitCode::usage_error,
                      fmt::format("'{}' could not be read to its end ({}); give the whole report", shown_as,
                                  buffer->error()->message));
  }
  return parsed;
}

// A sweep report, with each measured point's paths taken from its point report (samples and split);
// a point report that cannot be read leaves that point's medians, with a note.
Result<ReportDigest> read_report(const std::string& path) {
  OHPROF_ASSIGN_OR_RETURN(auto parsed, read_one(path, path));
  ReportDigest digest = std::move(parsed.digest);
  if (digest.kind != DigestKind::sweep) return digest;
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  for (const SweepPointReport& point : parsed.sweep_point_reports) {
    const std::string file = (folder / point.report).string();
    auto report = read_one(file, file);
    std::string problem;
    if (!report.ok()) {
      problem = report.error().message;
    } else if (report->digest.kind != DigestKind::compare) {
      problem = fmt::format("'{}' is a {} report, not the point's compare report", file, to_string(report->digest.kind));
    }
    if (!problem.empty()) {
      digest.notes.push_back(fmt::format("{} {}: {}; its paths have medians but no samples", digest.axis, point.value, problem));
      continue;
    }
    std::erase_if(digest.paths, [&](const DigestPath& p) { return p.point == point.value; });
    for (const std::string& note : report->digest.notes) digest.notes.push_back(fmt::format("{} {}: {}", digest.axis, point.value, note));
    if (!report->digest.unknown_values.empty()) {  // a point report's texts this ohprof does not know: said
      digest.unknown_values += fmt::format("{}{} {}: {}", digest.unknown_values.empty() ? "" : "; ", digest.axis,
                                           point.value, report->digest.unknown_values);
    }
    for (DigestPath& p : report->digest.paths) {
      p.point = point.value;
      digest.paths.push_back(std::move(p));
    }
  }
  // the points in axis order, each point's paths in their report's order
  std::stable_sort(digest.paths.begin(), digest.paths.end(),
                   [](const DigestPath& a, const DigestPath& b) { return a.point.value_or(0) < b.point.value_or(0); });
  return digest;
}

Status validate(const DiffConfig& config) {
  if (!(config.threshold >= 0 && config.threshold < 10)) {
    return make_error(ExitCode::usage_error, fmt::format("--threshold {:g}%: give a relative change from 0 to under 1000%, "
                                                         "such as 5% or 0.05", 100 * config.threshold));
  }
  if (!(config.alpha > 0 && config.alpha < 1)) {
    return make_error(ExitCode::usage_error, fmt::format("--alpha {}: give a level between 0 and 1, such as 0.05", config.alpha));
  }
  if (config.resamples < 100 || config.resamples > kMaxDiffResamples) {
    return make_error(ExitCode::usage_error, fmt::format("--resamples {}: give 100 to {} (the default is 10000)",
                                                         config.resamples, kMaxDiffResamples));
  }
  return ok_status();
}

// --relative-to names a path of neither report: a typing mistake, not two incomparable reports.
Status check_relative_to(const std::string& reference, const ReportDigest& base, const ReportDigest& new_report) {
  if (reference.empty()) return ok_status();
  std::vector<std::string> names;
  for (const ReportDigest* d : {&base, &new_report}) {
    for (const DigestPath& p : d->paths) {
      if (p.name == reference) return ok_status();
      if (std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
    }
  }
  return make_error(ExitCode::usage_error, fmt::format("--relative-to {}: neither report has that path; give one of {}",
                                                       reference, fmt::join(names, ", ")));
}

Status status_of(const DiffResult& diff) {
  switch (diff.outcome()) {
    case DiffOutcome::no_regression: return ok_status();
    case DiffOutcome::regression:
      return make_error(ExitCode::regression_found,
                        fmt::format("regression: {} than the base beyond the {:.3g}% threshold; see the table "
                                    "(re-measure the base to see this machine's drift, docs/diff.md)",
                                    worse_figures_text(diff), 100 * diff.config.threshold));
    case DiffOutcome::incomparable: {
      const Incomparability& first = diff.incomparable.front();
      return make_error(ExitCode::incomparable_reports,
                        fmt::format("the reports cannot be compared: {} is '{}' in the base and '{}' in the new report; "
                                    "diff reports of the same kind, model, inputs and device (--force diffs them anyway)",
                                    first.field, first.base, first.new_value));
    }
    case DiffOutcome::nothing_judged:
      return make_error(ExitCode::incomparable_reports, nothing_judged_text(diff));
  }
  return ok_status();
}

}  // namespace

DiffFilesOutcome diff_report_files(const DiffOptions& options) {
  if (Status valid = validate(options.config); !valid.ok()) return {std::nullopt, valid};
  auto base = read_report(options.base_path);
  if (!base.ok()) return {std::nullopt, base.error()};
  auto new_report = read_report(options.new_path);
  if (!new_report.ok()) return {std::nullopt, new_report.error()};
  if (Status reference = check_relative_to(options.config.relative_to, *base, *new_report); !reference.ok()) {
    return {std::nullopt, reference};
  }
  DiffResult diff = diff_reports(*base, *new_report, options.config);
  Status status = status_of(diff);
  return {std::move(diff), std::move(status)};
}

}  // namespace ohprof
