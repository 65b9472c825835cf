// compare --threads (docs/metrics.md, "Concurrent callers"): the callers' shares of their time with their spread.
#include "ohprof/model/concurrency.hpp"

#include "ohprof/base/stats.hpp"

namespace ohprof {

namespace {

// A share of the callers' time (part_r over N · round_ns[r]) with its standard error over the rounds.
std::optional<Estimate> callers_share(const ThreadsPoint& point, const std::vector<std::int64_t>& part) {
  if (point.threads <= 0 || point.round_ns.size() < 2 || part.size() != point.round_ns.size()) return std::nullopt;
  std::vector<std::int64_t> whole;
  double sum_part = 0;
  double sum_whole = 0;
  for (std::size_t r = 0; r < part.size(); ++r) {
    whole.push_back(point.threads * point.round_ns[r]);
    sum_part += static_cast<double>(part[r]);
    sum_whole += static_cast<double>(whole.back());
  }
  const std::optional<double> se = share_of_sums_se(part, whole);
  if (!se) return std::nullopt;
  return Estimate{sum_part / sum_whole, *se};
}

}  // namespace

std::optional<Estimate> wait_share_estimate(const ThreadsPoint& point) {
  if (point.on_cpu_round_ns.size() != point.waited_round_ns.size()) return std::nullopt;
  return callers_share(point, point.waited_round_ns);
}

std::optional<Estimate> blocked_share_estimate(const ThreadsPoint& point) {
  if (point.on_cpu_round_ns.size() != point.waited_round_ns.size() || point.on_cpu_round_ns.size() != point.round_ns.size()) {
    return std::nullopt;
  }
  std::vector<std::int64_t> asleep;
  for (std::size_t r = 0; r < point.round_ns.size(); ++r) {
    asleep.push_back(point.threads * point.round_ns[r] - point.on_cpu_round_ns[r] - point.waited_round_ns[r]);
  }
  return callers_share(point, asleep);
}

}  // namespace ohprof
