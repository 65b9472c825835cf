#pragma once
// The harness: warm-up iterations, then measured iterations, each timed on the monotonic clock from
// just before the call to the end of device synchronisation. Observers (NVTX ranges, activity
// collectors) are told where each iteration begins and ends. Knows nothing about models.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ohprof/base/error.hpp"
#include "ohprof/model/stop_reason.hpp"
#include "ohprof/model/timeline.hpp"

namespace ohprof {

class IterationObserver {
 public:
  virtual ~IterationObserver() = default;
  virtual void on_measurement_begin() {}
  virtual void on_iteration_begin(std::int64_t /*index*/, bool /*warmup*/) {}
  virtual void on_iteration_end(std::int64_t /*index*/, bool /*warmup*/) {}
  virtual void on_measurement_end() {}
};

struct LoopConfig {
  int warmup = 10;
  int runs = 50;
};

struct LoopResult {
  std::vector<std::int64_t> warmup_ns;
  std::vector<IterationWindow> iterations;  // measured iterations, index 0..n-1, monotonic ns
  StopReason stop_reason;                   // runs reached, interrupted or error
  bool interrupted = false;
  [[nodiscard]] std::vector<std::int64_t> wall_ns() const;
};

// One iteration: run the model once and wait for the device. Returns an error to stop the loop.
using IterationFunction = std::function<Status()>;

// Runs the loop (the interleaved loop of interleaved_loop.hpp with one path and a fixed number of runs).
// On an error from `iteration` the loop stops; the error ("iteration 3: ...", "warm-up iteration 1: ...")
// is returned together with what was measured before it (left in `result`), so nothing measured is lost.
// `on_progress`, when given, is called after every measured iteration, outside the timed region, with
// the warm-up times and the iterations measured so far (e.g. to checkpoint the report; it should
// return quickly).
using LoopProgress =
    std::function<void(const std::vector<std::int64_t>& warmup_ns, const std::vector<IterationWindow>& measured)>;
Status run_measurement_loop(const LoopConfig& config, const IterationFunction& iteration,
                            const std::vector<IterationObserver*>& observers, LoopResult& result,
                            const LoopProgress& on_progress = {});

}  // namespace ohprof
