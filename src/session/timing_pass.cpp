// The timing pass of `run` and `compare`, with its checkpoints (session_steps.hpp).
#include "ohprof/base/clock.hpp"
#include "ohprof/base/run_queue.hpp"
#include "ohprof/session/checkpoint.hpp"
#include "session_steps.hpp"

namespace ohprof {

Status measure_timing_pass(const std::vector<InterleavedPath>& paths, const AdaptiveStopping& stopping,
                           const std::string& checkpoint_path,
                           const std::function<Report(const InterleavedResult&)>& report_of,
                           InterleavedResult& measured) {
  ReportCheckpoint checkpoint(checkpoint_path);
  const auto write_checkpoint = [&](const InterleavedResult& so_far, bool timing_done) {
    checkpoint.write([&] {
      Report partial = report_of(so_far);
      for (auto& path : partial.paths) {
        if (!timing_done) path.stop_reason = kCheckpointStopReason;
        path.split_unavailable_reason = kSplitPendingReason;
      }
      return partial;
    });
  };
  const ThreadSchedStat sched;  // this thread's: the one that calls every path's iterations
  Status status = run_interleaved(
      paths, stopping, measured, monotonic_now_ns,
      [&](const InterleavedResult& partial) {
        if (checkpoint.due()) write_checkpoint(partial, false);
      },
      [&] { return sched.read(); });
  if (status.ok() && !measured.interrupted) write_checkpoint(measured, true);
  return status;
}

}  // namespace ohprof
