// compare --threads: several callers of each loaded path at once (docs/metrics.md, "Concurrent callers").
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ohprof/analysis/concurrency.hpp"
#include "ohprof/base/clock.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/base/format.hpp"
#include "ohprof/base/interrupt.hpp"
#include "ohprof/base/run_queue.hpp"
#include "ohprof/output/report_output.hpp"
#include "session_steps.hpp"

namespace ohprof {
namespace {

// One path's callers and what its bursts measured, per thread count.
struct ThreadsTarget {
  std::size_t path = 0;
  PathRunner* runner = nullptr;
  std::vector<std::unique_ptr<ThreadCaller>> callers;
  std::int64_t calls = 0;
  std::vector<std::vector<std::int64_t>> round_ns;    // per count
  std::vector<std::vector<std::int64_t>> latency_ns;  // per count
  std::vector<std::vector<std::optional<SchedStat>>> sched;  // per count, per round: the callers' time on a CPU
                                                             // and waiting, summed over them
  std::string failed;                                 // "" : still measured
};

std::vector<ThreadCaller*> first_callers(const ThreadsTarget& target, int count) {
  std::vector<ThreadCaller*> callers;
  for (int t = 0; t < count; ++t) callers.push_back(target.callers[static_cast<std::size_t>(t)].get());
  return callers;
}

}  // namespace

void measure_threads(Report& report, const std::vector<PathRunner*>& runners, const std::vector<int>& counts,
                     const ConcurrencyContext& context, const std::function<std::size_t()>& compile_events) {
  if (counts.empty()) return;
  const int most = *std::max_element(counts.begin(), counts.end());
  std::vector<ThreadsTarget> targets;
  for (std::size_t i = 0; i < report.paths.size() && i < runners.size(); ++i) {
    PathResult& path = report.paths[i];
    if (path.role != PathRole::path) continue;
    PathConcurrency concurrency;
    concurrency.holds_gil = runners[i]->holds_gil();
    concurrency.runner_instances = runners[i]->runner_instances();
    concurrency.context = context;
    // a share that is a range (ops without a launch call, docs/metrics.md) is not read as one figure
    if (path.breakdown && path.breakdown->verdict.verdict != Verdict::unknown &&
        !path.breakdown->verdict.queue_open()) {
      concurrency.host_share = path.breakdown->verdict.host_bound_share;
      std::vector<std::int64_t> host_bound, wall;
      for (const IterationBreakdown& it : path.breakdown->iterations) {
        host_bound.push_back(it.gpu.host_bound_ns);
        wall.push_back(it.wall_ns);
      }
      concurrency.host_share_se = share_of_sums_se(host_bound, wall);
    }
    ThreadsTarget target{i, runners[i], {}, calls_per_round(path.wall.median), {}, {}, {}, ""};
    for (int t = 0; t < most && target.failed.empty(); ++t) {
      auto caller = runners[i]->thread_caller();
      if (caller.ok()) {
        target.callers.push_back(std::move(*caller));
      } else {
        target.failed = caller.error().message;
      }
    }
    target.round_ns.assign(counts.size(), {});
    target.latency_ns.assign(counts.size(), {});
    target.sched.assign(counts.size(), {});
    if (!target.failed.empty()) concurrency.unavailable = target.failed;
    path.concurrency = std::move(concurrency);
    if (target.failed.empty()) targets.push_back(std::move(target));
  }
  console::progress(fmt::format("measuring {} caller(s) at once: {} rounds", fmt::join(counts, ", "), kThreadRounds));
  const std::size_t events_before = compile_events();
  bool interrupted = false;
  // Round -1 warms every (count, path) up (a new thread's first calls) and is not kept.
  for (int round = -1; round < kThreadRounds && !interrupted; ++round) {
    for (std::size_t c = 0; c < counts.size() && !interrupted; ++c) {
      for (std::size_t k = 0; k < targets.size() && !interrupted; ++k) {
        ThreadsTarget& target = targets[(k + static_cast<std::size_t>(std::max(round, 0))) % targets.size()];
        if (!target.failed.empty()) continue;
        const std::int64_t calls = round < 0 ? std::min(target.calls, kThreadRoundMinCalls) : target.calls;
        Burst burst = run_burst(first_callers(target, counts[c]), calls, monotonic_now_ns, this_thread_schedstat);
        if (burst.interrupted) {
          interrupted = true;
          break;
        }
        if (!burst.status.ok()) {
          target.failed = burst.status.error().message;
          continue;
        }
        if (round < 0) continue;
        target.round_ns[c].push_back(burst.elapsed_ns);
        const auto stride = static_cast<std::size_t>(latency_stride(calls));
        for (const auto& thread : burst.latency_ns) {
          for (std::size_t i = 0; i < thread.size(); i += stride) target.latency_ns[c].push_back(thread[i]);
        }
        std::optional<SchedStat> round_sched = SchedStat{};
        for (const auto& grown : burst.sched) add_growth(round_sched, grown);
        target.sched[c].push_back(round_sched);
      }
    }
  }
  const std::size_t compiled = compile_events() - events_before;
  for (ThreadsTarget& target : targets) {
    PathResult& path = report.paths[target.path];
    PathConcurrency& concurrency = *path.concurrency;
    if (interrupted) target.failed = "interrupted";
    if (!target.failed.empty()) {
      concurrency.unavailable = target.failed;
      continue;
    }
    for (std::size_t c = 0; c < counts.size(); ++c) {
      concurrency.points.push_back(threads_point(counts[c], target.calls, std::move(target.round_ns[c]),
                                                 std::move(target.latency_ns[c]), target.sched[c]));
    }
    scale_against_one(concurrency.points);
    concurrency.caller_slowdown = one_caller_slowdown(concurrency.points.front(), path.wall);
    concurrency.limit = concurrency_limit(concurrency);  // reads caller_slowdown
    concurrency.scaling_within_noise = concurrency.limit == ConcurrencyLimit::unknown && scaling_within_noise(concurrency);
    concurrency.host_share_within_noise =
        concurrency.limit == ConcurrencyLimit::unknown && gil_share_within_noise(concurrency);
    concurrency.host_share_missing = concurrency.limit == ConcurrencyLimit::unknown && gil_share_missing(concurrency);
    concurrency.cores_had_room = cores_had_room(concurrency);
  }
  // The callers hold inputs and (Python) objects: give them back before the report is written.
  targets.clear();
  report.interrupted = report.interrupted || interrupted;
  for (const PathResult& path : report.paths) {
    if (path.concurrency && !path.concurrency->unavailable.empty() && path.concurrency->unavailable != "interrupted") {
      add_warning(report, Warning{WarningCode::threads_incomplete,
                                  fmt::format("--threads: path {} was not measured with several callers: {}", path.name,
                                              path.concurrency->unavailable)});
    }
  }
  std::vector<std::string> slower;
  for (const PathResult& path : report.paths) {
    if (!path.concurrency || !path.concurrency->caller_slowdown) continue;
    slower.push_back(fmt::format("{} {:.1f}x (p50 {} against {})", path.name, *path.concurrency->caller_slowdown,
                                 format_duration(path.concurrency->points.front().p50_ns),
                                 format_duration(path.wall.median)));
  }
  if (!slower.empty()) {
    // The likely cause where it applies (docs/metrics.md, "Slower on a caller thread"): two OpenMP teams, the
    // measuring thread's and one caller's, already outnumber the cores.
    const std::string cause =
        !context.cuda && context.cores > 0 && 2 * context.intra_op_threads > context.cores
            ? fmt::format(": with {} intra-op threads, each caller thread has an OpenMP team of its own, and once the "
                          "process holds more OpenMP threads than its {} cores their idle workers sleep and every "
                          "parallel region wakes them. A serving process usually gives each caller one intra-op "
                          "thread: rerun with OMP_NUM_THREADS=1 to measure that",
                          context.intra_op_threads, context.cores)
            : std::string();
    add_warning(report, Warning{WarningCode::threads_callers_slower,
                                fmt::format("--threads: a call on a caller thread took longer than on the measuring "
                                            "thread: {}; the threads figures (calls/s, latency, scaling) include that "
                                            "cost{}",
                                            fmt::join(slower, ", "), cause)});
  }
  if (compiled > 0) {
    add_warning(report, Warning{WarningCode::threads_incomplete,
                                fmt::format("--threads: {} compile event(s) happened while the callers ran (a new "
                                            "thread's call recompiled?); the threads figures include that time",
                                            compiled)});
  }
}

}  // namespace ohprof
