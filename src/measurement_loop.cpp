#include "ohprof/measurement_loop.hpp"

#include "ohprof/clock.hpp"
#include "ohprof/interrupt.hpp"

namespace ohprof {

std::vector<std::int64_t> LoopResult::wall_ns() const { return wall_times(iterations); }

Status run_measurement_loop(const LoopConfig& config, const IterationFunction& iteration,
                            const std::vector<IterationObserver*>& observers, LoopResult& result) {
  result = LoopResult{};
  for (int i = 0; i < config.warmup; ++i) {
    if (interrupt_requested()) break;
    for (auto* observer : observers) observer->on_iteration_begin(i, true);
    const std::int64_t start = monotonic_now_ns();
    Status status = iteration();
    const std::int64_t end = monotonic_now_ns();
    for (auto* observer : observers) observer->on_iteration_end(i, true);
    if (!status.ok()) return status.error().with_context("warm-up iteration " + std::to_string(i));
    result.warmup_ns.push_back(end - start);
  }
  for (auto* observer : observers) observer->on_measurement_begin();
  Status outcome = ok_status();
  for (int i = 0; i < config.runs; ++i) {
    if (interrupt_requested()) break;
    for (auto* observer : observers) observer->on_iteration_begin(i, false);
    const std::int64_t start = monotonic_now_ns();
    Status status = iteration();
    const std::int64_t end = monotonic_now_ns();
    for (auto* observer : observers) observer->on_iteration_end(i, false);
    if (!status.ok()) {
      outcome = status.error().with_context("iteration " + std::to_string(i));
      break;
    }
    result.iterations.push_back(IterationWindow{i, start, end});
  }
  for (auto* observer : observers) observer->on_measurement_end();
  result.interrupted = interrupt_requested();
  if (result.interrupted) {
    result.stop_reason = "interrupted";
  } else if (!outcome.ok()) {
    result.stop_reason = "error";
  } else {
    result.stop_reason = "runs reached";
  }
  return outcome;
}

}  // namespace ohprof
