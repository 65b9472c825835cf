#include "ohprof/harness/measurement_loop.hpp"

#include <cmath>
#include <utility>

#include "ohprof/base/clock.hpp"
#include "ohprof/harness/interleaved_loop.hpp"

namespace ohprof {

std::vector<std::int64_t> LoopResult::wall_ns() const { return wall_times(iterations); }

Status run_measurement_loop(const LoopConfig& config, const IterationFunction& iteration,
                            const std::vector<IterationObserver*>& observers, LoopResult& result,
                            const LoopProgress& on_progress) {
  // A fixed number of runs is the interleaved loop with one path and no adaptive criterion.
  AdaptiveStopping fixed;
  fixed.warmup = config.warmup;
  fixed.min_runs = config.runs;
  fixed.max_runs = config.runs;
  fixed.min_time_s = 0;
  fixed.max_rse = INFINITY;
  fixed.time_limit_s = INFINITY;
  fixed.block = 1;  // one path: nothing to interleave with
  InterleavedResult interleaved;
  std::function<void(const InterleavedResult&)> on_round;
  if (on_progress) {
    on_round = [&on_progress](const InterleavedResult& partial) {
      on_progress(partial.paths.front().warmup_ns, partial.paths.front().iterations);
    };
  }
  Status status = run_interleaved({InterleavedPath{"", iteration, observers, {}, {}}}, fixed, interleaved,
                                  monotonic_now_ns, on_round);
  InterleavedPathResult& path = interleaved.paths.front();
  result = LoopResult{};
  result.warmup_ns = std::move(path.warmup_ns);
  result.iterations = std::move(path.iterations);
  result.interrupted = interleaved.interrupted;
  if (result.interrupted) {
    result.stop_reason = StopReason{StopCode::interrupted};
  } else if (!status.ok()) {
    result.stop_reason = StopReason{StopCode::error};
  } else {
    result.stop_reason = StopReason{StopCode::runs_reached};
  }
  return status;
}

}  // namespace ohprof
