#pragma once
// How long the measuring thread waited for a CPU while a path's timing-pass iterations ran (run, compare;
// docs/metrics.md, "Waiting for a core"): its run delay (/proc/thread-self/schedstat) over the path's
// blocks of measured iterations, against the blocks' spans. The interleaved loop measures it; reports
// carry it as paths[].run_queue.
#include <cstdint>
#include <optional>

namespace ohprof {

struct PathRunQueue {
  std::int64_t waited_ns = 0;  // the run delay's growth over the path's blocks of measured iterations
  std::int64_t span_ns = 0;    // the sum of those blocks' spans (their iterations and the loop between them)
  // The share of the blocks' time spent waiting: waited_ns / span_ns; nullopt when span_ns is 0.
  [[nodiscard]] std::optional<double> share() const {
    if (span_ns <= 0) return std::nullopt;
    return static_cast<double>(waited_ns) / static_cast<double>(span_ns);
  }
  friend bool operator==(const PathRunQueue&, const PathRunQueue&) = default;
};

}  // namespace ohprof
