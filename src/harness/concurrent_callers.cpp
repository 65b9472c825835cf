#include "ohprof/harness/concurrent_callers.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "ohprof/base/interrupt.hpp"

namespace ohprof {

Burst run_burst(const std::vector<ThreadCaller*>& callers, std::int64_t calls,
                const std::function<std::int64_t()>& clock_ns,
                const std::function<std::optional<SchedStat>()>& schedstat) {
  Burst burst;
  const std::size_t n = callers.size();
  burst.latency_ns.assign(n, {});
  burst.sched.assign(n, std::nullopt);
  if (n == 0) return burst;
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t ready = 0;
  bool go = false;
  std::int64_t start_ns = 0;
  std::vector<std::int64_t> last_end(n, 0);
  std::vector<Status> failures(n, ok_status());
  std::atomic<bool> interrupted{false};
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (std::size_t t = 0; t < n; ++t) {
    threads.emplace_back([&, t] {
      ThreadCaller& caller = *callers[t];
      caller.begin();
      {
        std::unique_lock lock(mutex);
        if (++ready == n) {
          start_ns = clock_ns();
          go = true;
          changed.notify_all();
        }
        changed.wait(lock, [&] { return go; });
      }
      std::vector<std::int64_t>& latency = burst.latency_ns[t];
      latency.reserve(static_cast<std::size_t>(std::max<std::int64_t>(calls, 0)));
      const std::optional<SchedStat> sched_before = schedstat ? schedstat() : std::nullopt;
      std::int64_t end = clock_ns();
      for (std::int64_t i = 0; i < calls; ++i) {
        if (interrupt_requested()) {
          interrupted = true;
          break;
        }
        const std::int64_t begin = clock_ns();
        Status status = caller.call();
        end = clock_ns();
        if (!status.ok()) {
          failures[t] = std::move(status);
          break;
        }
        latency.push_back(end - begin);
      }
      last_end[t] = end;
      if (sched_before) burst.sched[t] = schedstat_growth(sched_before, schedstat());
      caller.end();
    });
  }
  for (auto& thread : threads) thread.join();
  burst.elapsed_ns = *std::max_element(last_end.begin(), last_end.end()) - start_ns;
  for (Status& failure : failures) {
    if (!failure.ok()) {
      burst.status = std::move(failure);
      break;
    }
  }
  burst.interrupted = interrupted;
  if (burst.status.ok() && burst.interrupted) burst.status = make_error(ExitCode::interrupted, "interrupted");
  return burst;
}

}  // namespace ohprof
