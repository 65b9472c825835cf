#pragma once
// Checkpoints: a measuring command's report, rewritten while it measures.
#include <cstdint>
#include <functional>
#include <string>

#include "ohprof/base/clock.hpp"
#include "ohprof/model/report.hpp"

namespace ohprof {

// The top-level stop_reason of a checkpoint: a report written while its run was still measuring.
inline const StopReason kCheckpointStopReason{StopCode::in_progress};

// A checkpoint's split of a path, while the split pass had not run or finished.
inline constexpr const char* kSplitPendingReason = "the split pass had not finished when this checkpoint was written";

// Rewrites a measuring command's report now and then while it measures, so a run that is killed
// (SIGKILL, out of memory, a crash inside the model) still leaves what it had measured; Ctrl-C needs
// no checkpoint, the run stops and writes its report itself. Writes are atomic (atomic_file.hpp), so
// the file on disk is always a whole report: the last checkpoint, then the final report.
//
// A checkpoint's cost grows with the samples it holds (about 0.35 us a sample on the 2-core build
// machine, test/bench/harness_bench.cpp), so the gap after one is at least `min_interval_ns` and at
// least (1 - max_share) / max_share times as long as writing it took: checkpoints take at most
// `max_share` of the run's time however many samples it gathers.
class ReportCheckpoint {
 public:
  static constexpr std::int64_t kDefaultIntervalNs = 1'000'000'000;
  static constexpr double kDefaultMaxShare = 0.01;

  // `export_json` is the --export-json value: "" (no report) and "-" (stdout) get no checkpoints.
  // The first checkpoint is due `min_interval_ns` after construction. `clock_ns` is injectable for tests.
  explicit ReportCheckpoint(std::string export_json, std::function<std::int64_t()> clock_ns = monotonic_now_ns,
                            std::int64_t min_interval_ns = kDefaultIntervalNs, double max_share = kDefaultMaxShare);

  // True when the report goes to a file and the gap since the last checkpoint has passed.
  [[nodiscard]] bool due() const;

  // Writes the report that `snapshot` makes, with its top-level stop_reason set to
  // kCheckpointStopReason, due or not (a command writes one unconditionally between its timing pass
  // and its split pass). Making the snapshot counts as part of the checkpoint's cost. A write that
  // fails is not an error here: the final write of the same file reports it.
  void write(const std::function<Report()>& snapshot);

  [[nodiscard]] int written() const { return m_written; }
  // The gap that must pass after the last checkpoint before the next is due.
  [[nodiscard]] std::int64_t gap_ns() const { return m_gap_ns; }

 private:
  std::string m_export_json;
  bool m_to_file;  // not "" (no report) or "-" (stdout)
  std::function<std::int64_t()> m_clock_ns;
  std::int64_t m_min_interval_ns;
  double m_max_share;
  std::int64_t m_last_end_ns;
  std::int64_t m_gap_ns;
  int m_written = 0;
};

}  // namespace ohprof
