// `ohprof analyze TRACE...` and `ohprof merge` (docs/ranks.md): the ranks of a distributed job, each
// trace read and analysed by one worker of a pool and kept as its digest only, then the cross-rank view
// computed from the digests; and the merge of the reports of parts of a job.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <glob.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <istream>
#include <mutex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "ohprof/base/process_memory.hpp"
#include "ohprof/analysis/ranks.hpp"
#include "ohprof/base/atomic_file.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/base/interrupt.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/output/ranks_report.hpp"
#include "ohprof/output/table_printer.hpp"
#include "ohprof/session/session.hpp"
#include "report_file.hpp"
#include "ohprof/trace/gzip_file.hpp"
#include "analyze_report.hpp"

namespace ohprof {
namespace {

namespace fs = std::filesystem;

bool is_trace_name(const std::string& name) {
  const auto ends_with = [&](std::string_view suffix) {
    return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends_with(".json") || ends_with(".json.gz");
}

bool has_glob_characters(const std::string& text) { return text.find_first_of("*?[") != std::string::npos; }

// The files a glob pattern matches, sorted by name.
Result<std::vector<std::string>> glob_files(const std::string& pattern) {
  glob_t matches{};
  const int rc = ::glob(pattern.c_str(), 0, nullptr, &matches);
  std::vector<std::string> out;
  if (rc == 0) {
    for (std::size_t i = 0; i < matches.gl_pathc; ++i) {
      if (!fs::is_directory(matches.gl_pathv[i])) out.emplace_back(matches.gl_pathv[i]);
    }
  }
  ::globfree(&matches);
  if (out.empty()) {
    return make_error(ExitCode::usage_error,
                      fmt::format("'{}' matches no file; check the pattern (quote it so that the shell leaves it to ohprof)",
                                  pattern));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A directory's traces (*.json, *.json.gz; not its subdirectories), sorted by name.
Result<std::vector<std::string>> directory_traces(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (it->is_regular_file() && is_trace_name(it->path().filename().string())) {
      out.push_back((fs::path(dir) / it->path().filename()).string());
    }
  }
  if (error) {
    return make_error(ExitCode::file_not_found, fmt::format("cannot list directory '{}': {}", dir, error.message()));
  }
  if (out.empty()) {
    return make_error(ExitCode::usage_error,
                      fmt::format("directory '{}' has no trace (no file ending in .json or .json.gz)", dir));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// What one worker made of one trace.
struct TraceResult {
  std::optional<RankDigest> digest;
  std::string table;  // each_rank: the one-trace table
  std::optional<FailedTrace> failed;
  std::optional<Error> write_error;  // its rank report could not be written
};

TraceResult analyze_one_or_throw(const std::string& path, std::int64_t position, const AnalyzeRanksOptions& options) {
  TraceResult out;
  nlohmann::json report;
  {  // the trace's records are not kept past this block
    auto analyzed = read_and_analyze_trace(path, options.argv);
    if (!analyzed.ok()) {
      out.failed = FailedTrace{path, position, analyzed.error().code, analyzed.error().message};
      return out;
    }
    // The digest is taken from the report's JSON, as `ohprof merge` takes it from a report file: one reading.
    report = report_to_json(analyzed->report);
    if (options.each_rank) out.table = format_run_table(analyzed->report);
  }
  auto digest = rank_digest_from_report(report, path, position);
  if (!digest.ok()) {
    out.failed = FailedTrace{path, position, digest.error().code, digest.error().message};
    return out;
  }
  if (!options.rank_reports_dir.empty()) {
    const std::string file = (fs::path(options.rank_reports_dir) / fmt::format("rank-{}.json", digest->rank)).string();
    if (Status written = write_file_atomically(file, dump_report(report)); !written.ok()) out.write_error = written.error();
  }
  out.digest = std::move(*digest);
  return out;
}

// A worker's one trace: whatever goes wrong in it (out of memory on a huge trace, a library's exception)
// fails that trace, never the job.
TraceResult analyze_one(const std::string& path, std::int64_t position, const AnalyzeRanksOptions& options) {
  try {
    return analyze_one_or_throw(path, position, options);
  } catch (const std::bad_alloc&) {
    TraceResult out;
    out.failed = FailedTrace{path, position, ExitCode::internal_error,
                             fmt::format("out of memory while analysing '{}'; give fewer --jobs", path)};
    return out;
  } catch (const std::exception& e) {
    TraceResult out;
    out.failed = FailedTrace{path, position, ExitCode::internal_error,
                             fmt::format("'{}' could not be analysed: {}", path, e.what())};
    return out;
  }
}

// Two digests of one rank: the error naming both.
Status check_unique_ranks(const std::vector<std::pair<RankDigest, std::string>>& ranks) {
  for (std::size_t i = 1; i < ranks.size(); ++i) {
    if (ranks[i].first.rank != ranks[i - 1].first.rank) continue;
    const auto where = [](const std::pair<RankDigest, std::string>& r) {
      return r.second == r.first.trace ? fmt::format("'{}'", r.first.trace)
                                       : fmt::format("'{}' (trace '{}')", r.second, r.first.trace);
    };
    return make_error(ExitCode::usage_error,
                      fmt::format("{} and {} are both rank {} (by {}); give each rank's trace once", where(ranks[i - 1]),
                                  where(ranks[i]), ranks[i].first.rank,
                                  ranks[i].first.rank_from == ranks[i - 1].first.rank_from
                                      ? to_string(ranks[i].first.rank_from)
                                      : "distributedInfo and position"));
  }
  return ok_status();
}

// The report of these digests (each with where it came from, for the duplicate check) and failed traces:
// sorted by rank, the view, the job's warnings. Usage error for a rank given twice.
Result<RanksReport> finish_report(std::vector<std::pair<RankDigest, std::string>> ranks, std::vector<FailedTrace> failed,
                                  bool interrupted, const std::vector<std::string>& argv) {
  std::stable_sort(ranks.begin(), ranks.end(), [](const auto& a, const auto& b) { return a.first.rank < b.first.rank; });
  OHPROF_RETURN_IF_ERROR(check_unique_ranks(ranks));
  RanksReport report;
  report.context = make_base_context(argv);
  for (auto& [digest, source] : ranks) report.ranks.push_back(std::move(digest));
  // by position, so that merging the parts in any order gives the one order of the whole job
  std::stable_sort(failed.begin(), failed.end(), [](const FailedTrace& a, const FailedTrace& b) { return a.position < b.position; });
  report.failed = std::move(failed);
  report.interrupted = interrupted;
  // What the ranks say of the job, when they all say the same.
  if (!report.ranks.empty()) {
    const RankDigest& first = report.ranks.front();
    const auto all = [&](auto same) { return std::all_of(report.ranks.begin(), report.ranks.end(), same); };
    if (first.world_size && all([&](const RankDigest& d) { return d.world_size == first.world_size; })) {
      report.world_size = first.world_size;
    }
    if (!first.backend.empty() && all([&](const RankDigest& d) { return d.backend == first.backend; })) {
      report.backend = first.backend;
    }
  }
  // The context's device: the ranks' when they agree (a job's ranks run on one kind of GPU).
  report.context.device.type = DeviceKind::cpu;
  report.context.device.index = -1;
  if (!report.ranks.empty()) {
    const RankDigest& first = report.ranks.front();
    const bool same = std::all_of(report.ranks.begin(), report.ranks.end(), [&](const RankDigest& d) {
      return d.device_type == first.device_type && d.device == first.device;
    });
    report.context.device.type = first.device_type;
    report.context.device.name = same ? first.device : "";
  }
  report.view = cross_rank_view(report.ranks);
  for (const FailedTrace& f : report.failed) report.warnings.push_back(Warning{WarningCode::trace_failed, f.message});
  for (Warning& w : cross_rank_warnings(report.ranks, report.view)) report.warnings.push_back(std::move(w));
  for (const RankDigest& d : report.ranks) {
    for (const Warning& w : d.warnings) report.warnings.push_back(Warning{w.code, fmt::format("rank {}: {}", d.rank, w.message)});
  }
  return report;
}

// The exit status of a finished report: interrupted, some traces failed, or fine.
Status report_status(const RanksReport& report, bool this_process_interrupted) {
  const std::size_t traces = report.ranks.size() + report.failed.size();
  if (this_process_interrupted) {
    return make_error(ExitCode::interrupted, fmt::format("interrupted: {} of the traces analysed; the report has them",
                                                         report.ranks.size()));
  }
  if (!report.failed.empty()) {
    return make_error(ExitCode::traces_failed,
                      fmt::format("{} of {} traces could not be analysed (the report lists them in 'failed'): {}{}",
                                  report.failed.size(), traces, report.failed.front().message,
                                  report.failed.size() > 1 ? fmt::format("; and {} more", report.failed.size() - 1) : ""));
  }
  if (report.interrupted) {
    return make_error(ExitCode::traces_failed,
                      "a part of the job was interrupted before all its traces were analysed; the report has those that were");
  }
  return ok_status();
}

}  // namespace

bool names_one_trace(const std::vector<std::string>& inputs) {
  if (inputs.size() != 1) return false;
  std::error_code error;
  if (fs::is_directory(inputs[0], error)) return false;
  return fs::exists(inputs[0], error) || !has_glob_characters(inputs[0]);
}

Result<std::vector<std::string>> expand_trace_inputs(const std::vector<std::string>& inputs) {
  std::vector<std::string> out;
  std::set<std::string> seen;  // canonical paths
  const auto add = [&](const std::string& path) {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(path, error);
    if (seen.insert(error ? path : canonical.string()).second) out.push_back(path);
  };
  for (const std::string& input : inputs) {
    std::error_code error;
    if (fs::is_directory(input, error)) {
      OHPROF_ASSIGN_OR_RETURN(auto files, directory_traces(input));
      for (const std::string& f : files) add(f);
    } else if (!fs::exists(input, error) && has_glob_characters(input)) {
      OHPROF_ASSIGN_OR_RETURN(auto files, glob_files(input));
      for (const std::string& f : files) add(f);
    } else {
      add(input);  // a file; a missing one fails like any unreadable trace, with its reason
    }
  }
  return out;
}

RanksOutcome analyze_traces(const AnalyzeRanksOptions& options) {
  reuse_freed_memory();  // a reading process: no model's allocations to change
  auto expanded = expand_trace_inputs(options.inputs);
  if (!expanded.ok()) return {std::nullopt, {}, expanded.error()};
  const std::vector<std::string>& traces = *expanded;
  if (!options.rank_reports_dir.empty()) {
    std::error_code error;
    fs::create_directories(options.rank_reports_dir, error);
    if (error) {
      return {std::nullopt, {}, make_error(ExitCode::output_error, fmt::format("cannot create --rank-reports directory '{}': {}",
                                                                               options.rank_reports_dir, error.message()))};
    }
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers = std::min<std::size_t>(traces.size(), options.jobs > 0 ? static_cast<std::size_t>(options.jobs) : cores);
  std::vector<std::optional<TraceResult>> results(traces.size());
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::mutex progress_mutex;
  const auto work = [&] {
    while (!interrupt_requested()) {
      const std::size_t i = next.fetch_add(1);
      if (i >= traces.size()) return;
      results[i] = analyze_one(traces[i], options.first_position + static_cast<std::int64_t>(i), options);
      const std::size_t finished = done.fetch_add(1) + 1;
      const std::lock_guard<std::mutex> lock(progress_mutex);
      console::progress(results[i]->digest
                            ? fmt::format("[{}/{}] {}: rank {}", finished, traces.size(), traces[i], results[i]->digest->rank)
                            : fmt::format("[{}/{}] {}: failed", finished, traces.size(), traces[i]));
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();

  std::vector<std::pair<RankDigest, std::string>> digests;
  std::vector<std::pair<std::int64_t, std::string>> tables;  // (rank, table)
  std::vector<FailedTrace> failed;
  std::optional<Error> write_error;
  bool unfinished = false;
  for (std::size_t i = 0; i < traces.size(); ++i) {
    if (!results[i]) {
      unfinished = true;
      continue;
    }
    if (results[i]->digest && options.each_rank) tables.emplace_back(results[i]->digest->rank, std::move(results[i]->table));
    if (results[i]->digest) digests.emplace_back(std::move(*results[i]->digest), traces[i]);
    if (results[i]->failed) failed.push_back(std::move(*results[i]->failed));
    if (results[i]->write_error && !write_error) write_error = results[i]->write_error;
  }
  auto report = finish_report(std::move(digests), std::move(failed), unfinished, options.argv);
  if (!report.ok()) return {std::nullopt, {}, report.error()};
  std::stable_sort(tables.begin(), tables.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> rank_tables;
  for (auto& [rank, table] : tables) rank_tables.push_back(std::move(table));
  Status status = report_status(*report, unfinished);
  if (write_error) {
    if (status.ok()) {
      status = *write_error;
    } else {
      console::warning(write_error->message);  // the other error is the exit's; this one is not lost
    }
  }
  return {std::move(*report), std::move(rank_tables), status};
}

RanksOutcome merge_reports(const std::vector<NamedReport>& reports, const std::vector<std::string>& argv) {
  std::vector<std::pair<RankDigest, std::string>> digests;
  std::vector<FailedTrace> failed;
  bool interrupted = false;
  for (const NamedReport& named : reports) {
    auto parts = parse_ranks_parts(named.json, named.file);
    if (!parts.ok()) return {std::nullopt, {}, parts.error()};
    for (RankDigest& d : parts->ranks) digests.emplace_back(std::move(d), named.file);
    for (FailedTrace& f : parts->failed) failed.push_back(std::move(f));
    interrupted = interrupted || parts->interrupted;
  }
  auto report = finish_report(std::move(digests), std::move(failed), interrupted, argv);
  if (!report.ok()) return {std::nullopt, {}, report.error()};
  Status status = report_status(*report, false);
  return {std::move(*report), {}, status};
}

RanksOutcome merge_report_files(const MergeOptions& options) {
  std::vector<nlohmann::json> jsons;
  for (const std::string& file : options.reports) {
    auto json = read_report_json(file);
    if (!json.ok()) return {std::nullopt, {}, json.error()};
    jsons.push_back(std::move(*json));
  }
  std::vector<NamedReport> reports;
  for (std::size_t i = 0; i < jsons.size(); ++i) reports.push_back({jsons[i], options.reports[i]});
  return merge_reports(reports, options.argv);
}

}  // namespace ohprof
