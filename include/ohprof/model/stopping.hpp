#pragma once
// The adaptive stopping rule of the measuring commands (docs/metrics.md, "Stopping"): one type, declared
// here, that `compare`'s and `sweep`'s options and reports hold and the interleaved loop obeys.
#include <limits>

namespace ohprof {

struct AdaptiveStopping {
  int warmup = 5;               // per path, before any measured round
  int min_runs = 10;            // per path
  int max_runs = 1000;          // per path
  double min_time_s = 0.5;      // measured time per path
  double max_rse = 0.01;        // relative standard error of the mean: stddev / (mean * sqrt(n))
  double time_limit_s = 120.0;  // whole measurement, warm-up included
  // Consecutive iterations of one path per round. One iteration each follows another path's and runs
  // in caches that path filled: a small model's call then takes far longer than in a user's loop
  // (docs/metrics.md, "Interleaving").
  int block = 10;
  friend bool operator==(const AdaptiveStopping&, const AdaptiveStopping&) = default;

  // Exactly `runs` measured iterations per path after `warmup`: no time or noise criterion, only the
  // time limit (infinite by default). The split pass counts its iterations so (docs/metrics.md, "Two passes").
  static AdaptiveStopping fixed(int warmup, int runs, double time_limit_s = std::numeric_limits<double>::infinity(),
                                int block = 10) {
    return AdaptiveStopping{warmup, runs, runs, 0.0, std::numeric_limits<double>::infinity(), time_limit_s, block};
  }
};

}  // namespace ohprof
