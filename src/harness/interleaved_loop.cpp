#include "ohprof/harness/interleaved_loop.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

#include "ohprof/base/interrupt.hpp"

namespace ohprof {

std::vector<std::int64_t> InterleavedPathResult::wall_ns() const { return wall_times(iterations); }

double relative_standard_error(std::size_t count, double mean, double stddev) {
  if (count < 2) return INFINITY;
  if (mean == 0) return 0;
  return stddev / (mean * std::sqrt(static_cast<double>(count)));
}

double relative_standard_error(const SampleSummary& summary) {
  return relative_standard_error(summary.count, summary.mean, summary.stddev);
}

std::string unmet_criteria(const AdaptiveStopping& stopping, const RunningStats& wall_ns) {
  std::vector<std::string> unmet;
  if (static_cast<int>(wall_ns.count()) < stopping.min_runs) {
    unmet.push_back(fmt::format("runs {} < {}", wall_ns.count(), stopping.min_runs));
  }
  const double total_s = wall_ns.sum() * 1e-9;
  if (total_s < stopping.min_time_s) {
    unmet.push_back(fmt::format("time {:.3g} s < {:.3g} s", total_s, stopping.min_time_s));
  }
  const double rse = relative_standard_error(wall_ns.count(), wall_ns.mean(), wall_ns.stddev());
  if (!(rse <= stopping.max_rse)) {
    unmet.push_back(std::isinf(rse) ? std::string("rse undefined")
                                    : fmt::format("rse {:.2f}% > {:.2f}%", rse * 100, stopping.max_rse * 100));
  }
  std::string text;
  for (const auto& item : unmet) text += (text.empty() ? "" : ", ") + item;
  return text;
}

namespace {

// Runs one timed iteration of `path`, with its enter/leave hooks and observers around the timer.
Status timed_iteration(const InterleavedPath& path, std::int64_t index, bool warmup,
                       const std::function<std::int64_t()>& clock_ns, IterationWindow& window) {
  if (path.enter) path.enter();
  for (auto* observer : path.observers) observer->on_iteration_begin(index, warmup);
  const std::int64_t start = clock_ns();
  Status status = path.iteration();
  const std::int64_t end = clock_ns();
  for (auto* observer : path.observers) observer->on_iteration_end(index, warmup);
  if (path.leave) path.leave();
  window = IterationWindow{index, start, end};
  if (!status.ok()) {
    // "path compile, warm-up iteration 2"; a nameless path (run's timing pass, run_measurement_loop's) is not named.
    return status.error().with_context(fmt::format("{}{}iteration {}", path.name.empty() ? "" : "path " + path.name + ", ",
                                                   warmup ? "warm-up " : "", index));
  }
  return ok_status();
}

}  // namespace

Status run_interleaved(const std::vector<InterleavedPath>& paths, const AdaptiveStopping& stopping,
                       InterleavedResult& result, const std::function<std::int64_t()>& clock_ns,
                       const std::function<void(const InterleavedResult&)>& on_round,
                       const std::function<std::optional<SchedStat>()>& schedstat) {
  result = InterleavedResult{};
  result.paths.resize(paths.size());
  if (schedstat) {
    for (auto& path : result.paths) path.run_queue = PathRunQueue{};
  }
  if (paths.empty()) {
    result.stop_reason = StopReason{StopCode::no_paths};
    return ok_status();
  }
  const std::int64_t started = clock_ns();
  const auto elapsed_s = [&] { return static_cast<double>(clock_ns() - started) * 1e-9; };

  for (std::size_t p = 0; p < paths.size(); ++p) {
    for (int i = 0; i < stopping.warmup && !interrupt_requested(); ++i) {
      IterationWindow window;
      if (Status s = timed_iteration(paths[p], i, true, clock_ns, window); !s.ok()) {
        result.stop_reason = StopReason{StopCode::error};
        return s;
      }
      result.paths[p].warmup_ns.push_back(window.end_ns - window.start_ns);
    }
  }
  for (const auto& path : paths) {
    for (auto* observer : path.observers) observer->on_measurement_begin();
  }

  Status outcome = ok_status();
  const std::size_t count = paths.size();
  while (true) {
    if (interrupt_requested()) {
      result.interrupted = true;
      result.stop_reason = StopReason{StopCode::interrupted};
      break;
    }
    bool all_met = true;
    bool all_at_max = true;
    std::string unmet_text;
    for (std::size_t p = 0; p < count; ++p) {
      const RunningStats& running = result.paths[p].running;
      const std::string unmet = unmet_criteria(stopping, running);
      if (!unmet.empty()) {
        all_met = false;
        unmet_text += (unmet_text.empty() ? "" : "; ") + paths[p].name + ": " + unmet;
      }
      if (static_cast<int>(running.count()) < stopping.max_runs) all_at_max = false;
    }
    if (all_met) {
      result.stop_reason = StopReason{StopCode::converged};
      break;
    }
    if (all_at_max) {
      result.stop_reason = StopReason{StopCode::max_runs_reached, unmet_text};
      break;
    }
    if (elapsed_s() >= stopping.time_limit_s) {
      result.stop_reason = StopReason{StopCode::time_limit, unmet_text};
      break;
    }
    const int round = result.rounds;
    const int block = std::max(1, stopping.block);
    bool cut = false;  // the time limit or Ctrl-C came during the round
    for (std::size_t k = 0; k < count && outcome.ok() && !cut; ++k) {
      const std::size_t p = (static_cast<std::size_t>(round) + k) % count;
      auto& measured = result.paths[p].iterations;
      const std::size_t measured_before = measured.size();
      // the clock outside the scheduler's figures, so that the span holds all the wait they count
      const std::int64_t block_start = clock_ns();
      const std::optional<SchedStat> sched_before = schedstat ? schedstat() : std::nullopt;
      for (int b = 0; b < block && outcome.ok() && static_cast<int>(measured.size()) < stopping.max_runs; ++b) {
        // A round of slow iterations can take long: the time limit and Ctrl-C end it after the current
        // iteration (the rest of the round is skipped; the check before the next round says why).
        if ((b > 0 || k > 0) && (interrupt_requested() || elapsed_s() >= stopping.time_limit_s)) {
          cut = true;
          break;
        }
        IterationWindow window;
        outcome = timed_iteration(paths[p], static_cast<std::int64_t>(measured.size()), false, clock_ns, window);
        if (outcome.ok()) {
          measured.push_back(window);
          result.paths[p].rounds.push_back(round);
          result.paths[p].running.add(static_cast<double>(window.end_ns - window.start_ns));
        }
      }
      // The wait over the block's span (failed iterations included, as both cover them); a block that measured
      // nothing (cut before its first iteration, or whose first failed) adds nothing to either.
      auto& queue = result.paths[p].run_queue;
      if (queue && measured.size() > measured_before) {
        const std::optional<SchedStat> grown = schedstat_growth(sched_before, schedstat());
        const std::int64_t block_end = clock_ns();
        if (grown) {
          queue->waited_ns += grown->run_delay_ns;
          queue->span_ns += block_end - block_start;
        } else {
          queue.reset();  // a read failed: the path's figure would be a part of the truth
        }
      }
    }
    ++result.rounds;
    if (!outcome.ok()) {
      result.stop_reason = StopReason{StopCode::error};
      break;
    }
    if (on_round) on_round(result);
  }
  for (auto it = paths.rbegin(); it != paths.rend(); ++it) {
    for (auto* observer : it->observers) observer->on_measurement_end();
  }
  return outcome;
}

}  // namespace ohprof
