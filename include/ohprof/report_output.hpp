#pragma once
// What every measuring command does with its report at the end, and with a warning on the way.
#include <cstdint>
#include <string>

#include "ohprof/error.hpp"
#include "ohprof/report.hpp"

namespace ohprof {

// Prints the warning on stderr (console::warning) and records it in the report's `warnings`.
void add_warning(Report& report, const std::string& message);

// The table on stdout (unless `quiet`, or the JSON itself goes to stdout with `--export-json -`),
// then the JSON report when `export_json` names a file or "-".
Status emit_report(const Report& report, const std::string& export_json, bool quiet);

// The top-level stop_reason of a checkpoint: a report written while its run was still measuring.
inline constexpr const char* kCheckpointStopReason = "in progress";

// A checkpoint's split of a path, while the split pass had not run or finished.
inline constexpr const char* kSplitPendingReason = "the split pass had not finished when this checkpoint was written";

// Rewrites a measuring command's report now and then while it measures, so a run that is killed
// (SIGKILL, out of memory, a crash inside the model) still leaves what it had measured; Ctrl-C needs
// no checkpoint, the run stops and writes its report itself. Writes are atomic (atomic_file.hpp), so
// the file on disk is always a whole report: the last checkpoint, then the final report.
class ReportCheckpoint {
 public:
  static constexpr std::int64_t kDefaultIntervalNs = 1'000'000'000;

  // `export_json` is the --export-json value: "" (no report) and "-" (stdout) get no checkpoints.
  // The first checkpoint is due `interval_ns` after `now_ns`.
  ReportCheckpoint(std::string export_json, std::int64_t now_ns, std::int64_t interval_ns = kDefaultIntervalNs);

  // True when the report goes to a file and `interval_ns` have passed since the last checkpoint.
  [[nodiscard]] bool due(std::int64_t now_ns) const;

  // Writes `report` with its top-level stop_reason set to kCheckpointStopReason, due or not (a
  // command writes one unconditionally between its timing pass and its split pass). A write that
  // fails is not an error here: the final write of the same file reports it.
  void write(Report report, std::int64_t now_ns);

  [[nodiscard]] int written() const { return m_written; }

 private:
  std::string m_export_json;
  bool m_to_file;  // not "" (no report) or "-" (stdout)
  std::int64_t m_interval_ns;
  std::int64_t m_last_ns;
  int m_written = 0;
};

}  // namespace ohprof
