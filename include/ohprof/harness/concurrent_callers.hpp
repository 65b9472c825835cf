#pragma once
// Several threads calling one loaded path at once (docs/metrics.md, "Concurrent callers"). Knows nothing
// about models: a caller is an object that makes one call.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ohprof/base/error.hpp"
#include "ohprof/base/run_queue.hpp"

namespace ohprof {

// One thread's caller of a path, made by PathRunner::thread_caller with its own inputs. begin() and end()
// run on the calling thread, outside the timed calls, around each burst (a Python caller takes a
// thread state there, and every LibTorch caller enters inference mode, which is thread-local).
class ThreadCaller {
 public:
  virtual ~ThreadCaller() = default;
  virtual void begin() {}
  virtual Status call() = 0;  // one call on its inputs, device synchronised
  virtual void end() {}
};

struct Burst {
  std::int64_t elapsed_ns = 0;                        // the common start to the last call's end
  std::vector<std::vector<std::int64_t>> latency_ns;  // per thread, each call's wall time
  Status status = ok_status();                        // the first failure; interrupted after Ctrl-C
  bool interrupted = false;
  // per thread, how long it ran on a CPU and waited for one from before its first call to after its last
  // (docs/metrics.md, "Concurrent callers"); nullopt without a reader or where a read failed
  std::vector<std::optional<SchedStat>> sched;
};

// One thread per caller; each calls begin(), and once all have, they start together (the clock read
// once when the last is ready), each makes `calls` timed calls, then end(). A failing call stops its
// thread; Ctrl-C stops every thread after its current call. `clock_ns` is injectable for tests;
// `schedstat`, when given, is called on each caller's own thread (base/run_queue.hpp,
// this_thread_schedstat) right before its first call and right after its last.
Burst run_burst(const std::vector<ThreadCaller*>& callers, std::int64_t calls,
                const std::function<std::int64_t()>& clock_ns,
                const std::function<std::optional<SchedStat>()>& schedstat = {});

}  // namespace ohprof
