#include "ohprof/model/timeline.hpp"

#include <algorithm>
#include <unordered_set>

#include <fmt/format.h>

namespace ohprof {

std::string event_counts_text(const std::vector<EventCount>& counts) {
  std::string text;
  for (const EventCount& c : counts) text += fmt::format("{}'{}' x{}", text.empty() ? "" : ", ", c.category, c.events);
  return text;
}

bool only_profiler_ranges(const std::vector<EventCount>& unread) {
  return unread.size() == 1 && unread[0].category == "cuda_profiler_range";
}

std::vector<std::int64_t> wall_times(const std::vector<IterationWindow>& windows) {
  std::vector<std::int64_t> walls;
  walls.reserve(windows.size());
  for (const auto& window : windows) walls.push_back(window.end_ns - window.start_ns);
  return walls;
}

Timeline select_iterations(const Timeline& all, std::int64_t first, std::int64_t last) {
  Timeline out;
  out.ops_have_launches = all.ops_have_launches;
  out.whole_recording_window = all.whole_recording_window;
  out.counters = all.counters;
  for (const auto& window : all.iterations) {
    if (window.index < first || window.index > last) continue;
    out.iterations.push_back(IterationWindow{window.index - first, window.start_ns, window.end_ns});
  }
  const auto inside = [&](std::int64_t t) {
    return std::any_of(out.iterations.begin(), out.iterations.end(),
                       [t](const IterationWindow& w) { return t >= w.start_ns && t < w.end_ns; });
  };
  std::unordered_set<std::uint64_t> correlations;
  std::unordered_set<std::uint64_t> all_correlations;
  for (const auto& launch : all.launches) {
    all_correlations.insert(launch.correlation);
    const bool selected = launch.iteration ? (*launch.iteration >= first && *launch.iteration <= last)
                                           : inside(launch.start_ns);
    if (!selected) continue;
    LaunchCall copy = launch;
    if (copy.iteration) *copy.iteration -= first;
    out.launches.push_back(std::move(copy));
    correlations.insert(launch.correlation);
  }
  for (const auto& op : all.ops) {
    const bool selected = correlations.count(op.correlation) != 0 ||
                          (all_correlations.count(op.correlation) == 0 && inside(op.start_ns));
    if (selected) out.ops.push_back(op);
  }
  for (const auto& sync : all.syncs) {
    if (inside(sync.start_ns)) out.syncs.push_back(sync);
  }
  for (const auto& call : all.api_calls) {
    if (inside(call.start_ns)) out.api_calls.push_back(call);
  }
  return out;
}

}  // namespace ohprof
