// compare --threads (docs/metrics.md, "Concurrent callers"): the callers' shares of their time with their spread.
#include "ohprof/model/concurrency.hpp"

#include "ohprof/base/stats.hpp"

namespace ohprof {

namespace {

// A share of the callers' time, `value` (ThreadsPoint::wait_share or blocked_share), with its standard error over
// the rounds: share_of_sums_se of part_r over N · round_ns[r].
std::optional<Estimate> callers_share(const ThreadsPoint& point, const std::vector<std::int64_t>& part,
                                      std::optional<double> value) {
  if (!value || point.threads <= 0 || point.round_ns.size() < 2 || part.size() != point.round_ns.size()) return std::nullopt;
  std::vector<std::int64_t> whole;
  for (const std::int64_t ns : point.round_ns) whole.push_back(point.threads * ns);
  const std::optional<double> se = share_of_sums_se(part, whole);
  if (!se) return std::nullopt;
  return Estimate{*value, *se};
}

}  // namespace

std::optional<Estimate> wait_share_estimate(const ThreadsPoint& point) {
  if (point.on_cpu_round_ns.size() != point.waited_round_ns.size()) return std::nullopt;
  return callers_share(point, point.waited_round_ns, point.wait_share());
}

std::optional<Estimate> blocked_share_estimate(const ThreadsPoint& point) {
  if (point.on_cpu_round_ns.size() != point.waited_round_ns.size() || point.on_cpu_round_ns.size() != point.round_ns.size()) {
    return std::nullopt;
  }
  std::vector<std::int64_t> asleep;
  for (std::size_t r = 0; r < point.round_ns.size(); ++r) {
    asleep.push_back(point.threads * point.round_ns[r] - point.on_cpu_round_ns[r] - point.waited_round_ns[r]);
  }
  return callers_share(point, asleep, point.blocked_share());
}

}  // namespace ohprof
