#pragma once
// Measures several paths in interleaved rounds so that machine drift (frequency, temperature, other
// processes) hits all of them alike: each round runs every path for a block of `block` consecutive
// iterations, in an order rotated by one each round (round r starts with path r mod P). Warm-up runs
// per path first. Stops adaptively and says why.
// Knows nothing about models: a path is a function that runs one iteration.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/error.hpp"
#include "ohprof/base/run_queue.hpp"
#include "ohprof/harness/measurement_loop.hpp"
#include "ohprof/model/run_queue.hpp"
#include "ohprof/model/stop_reason.hpp"
#include "ohprof/model/stopping.hpp"
#include "ohprof/base/stats.hpp"

namespace ohprof {

struct InterleavedPath {
  std::string name;
  IterationFunction iteration;
  std::vector<IterationObserver*> observers;
  // Called outside the timed region before / after each of this path's iterations (e.g. to take and
  // give back Python's GIL).
  std::function<void()> enter;
  std::function<void()> leave;
};

struct InterleavedPathResult {
  std::vector<std::int64_t> warmup_ns;
  std::vector<IterationWindow> iterations;
  std::vector<int> rounds;  // the round of each measured iteration (same length as iterations), from 0
  RunningStats running;  // of the measured wall times, for the stopping rule
  // How long the measuring thread waited for a CPU during this path's blocks of measured iterations: the
  // growth of its run delay from right before each block's first iteration to right after its last, and the
  // blocks' spans (the clock read just outside those reads), summed (docs/metrics.md, "Waiting for a
  // core"); nullopt without a reader or where a read failed.
  std::optional<PathRunQueue> run_queue;
  [[nodiscard]] std::vector<std::int64_t> wall_ns() const;
};

struct InterleavedResult {
  std::vector<InterleavedPathResult> paths;  // same order as the input paths
  int rounds = 0;
  bool interrupted = false;
  // converged (every path met min runs, min time and max rse), max runs reached or time limit (with
  // the unmet criteria of each path, "aoti: runs 3 < 10, rse 2.10% > 1.00%; eager: ..."), interrupted,
  // error, or no paths.
  StopReason stop_reason;
};

// Relative standard error of the mean: stddev / (mean * sqrt(count)); infinite (unmet) for fewer than
// two samples, 0 for a mean of 0.
double relative_standard_error(std::size_t count, double mean, double stddev);
double relative_standard_error(const SampleSummary& summary);

// Why a path has not met the stopping criteria yet ("" when it has). O(1): the loop checks every path
// before every round, and sorting thousands of samples there would evict the caches the next timed
// iteration runs in.
std::string unmet_criteria(const AdaptiveStopping& stopping, const RunningStats& wall_ns);

// `clock_ns` is injectable for tests; `on_round` is called after each round (e.g. to rewrite the report);
// `schedstat`, when given, reads the measuring thread's scheduler figures (base/run_queue.hpp) around
// each block of measured iterations, inside the block's two clock reads.
Status run_interleaved(const std::vector<InterleavedPath>& paths, const AdaptiveStopping& stopping,
                       InterleavedResult& result, const std::function<std::int64_t()>& clock_ns,
                       const std::function<void(const InterleavedResult&)>& on_round = {},
                       const std::function<std::optional<SchedStat>()>& schedstat = {});

}  // namespace ohprof
