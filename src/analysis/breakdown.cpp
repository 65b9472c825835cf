#include "ohprof/analysis/breakdown.hpp"

#include "ohprof/analysis/cpu_kernels.hpp"
#include "ohprof/analysis/window_split.hpp"
#include "ohprof/base/saturating.hpp"
#include "ohprof/base/sorting.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <limits>
#include <map>
#include <numeric>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>


namespace ohprof {

namespace {

// A function object, not a function pointer, so that std::sort inlines it.
struct ByStart {
  bool operator()(const AttributedOp* a, const AttributedOp* b) const {
    return a->start_ns != b->start_ns ? a->start_ns < b->start_ns : a->end_ns < b->end_ns;
  }
};

// 100 * part >= percent * whole, in 128 bits: a trace's times may lie near int64's limit (a timestamp of
// 2e18 ns read from a damaged trace), where the products would overflow.
bool at_least_percent(std::int64_t part, std::int64_t whole, std::int64_t percent) {
  __extension__ typedef __int128 i128;
  return i128{100} * part >= i128{percent} * whole;
}

}  // namespace

// A least-significant-digit radix sort of each time's offset from the earliest, 11 bits a pass,
// skipping the passes whose digit is the same for every event. A trace's timeline holds hundreds of
// thousands of events; std::sort's comparisons took 3 % of `ohprof analyze` (docs/analyze.md).
void sort_by_time(std::vector<TimelineEvent>& events) {
  if (events.size() < 2) return;
  const auto [lowest, highest] = std::minmax_element(
      events.begin(), events.end(), [](const TimelineEvent& x, const TimelineEvent& y) { return x.t < y.t; });
  const std::int64_t base = lowest->t;
  const std::uint64_t span = static_cast<std::uint64_t>(highest->t) - static_cast<std::uint64_t>(base);
  if (span == 0) return;
  constexpr unsigned kBits = 11;
  constexpr std::size_t kBuckets = std::size_t{1} << kBits;
  const auto offset = [base](const TimelineEvent& e) {
    return static_cast<std::uint64_t>(e.t) - static_cast<std::uint64_t>(base);  // modulo 2^64: exact
  };
  std::vector<TimelineEvent> scratch(events.size());
  std::vector<std::size_t> start(kBuckets);
  for (unsigned shift = 0; shift < 64 && (span >> shift) != 0; shift += kBits) {
    std::fill(start.begin(), start.end(), 0);
    for (const TimelineEvent& e : events) ++start[(offset(e) >> shift) & (kBuckets - 1)];
    if (*std::max_element(start.begin(), start.end()) == events.size()) continue;  // one digit for all
    std::size_t sum = 0;
    for (std::size_t& count : start) sum += std::exchange(count, sum);
    for (const TimelineEvent& e : events) scratch[start[(offset(e) >> shift) & (kBuckets - 1)]++] = e;
    events.swap(scratch);
  }
}

WindowAttribution::WindowAttribution(const Timeline& timeline, UnlinkedPending unlinked) {
  counters.ops_total = timeline.ops.size();
  counters.launches_total = timeline.launches.size();
  constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

  // Windows with end >= start, sorted by (start, end, position in the timeline).
  for (const auto& window : timeline.iterations) {
    std::int64_t length = 0;  // a window longer than int64 nanoseconds (a damaged trace's) is not one either
    if (window.end_ns < window.start_ns || __builtin_sub_overflow(window.end_ns, window.start_ns, &length)) {
      ++counters.invalid_windows;
      continue;
    }
    windows.push_back(window);
  }
  std::stable_sort(windows.begin(), windows.end(), [](const IterationWindow& a, const IterationWindow& b) {
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns < b.end_ns;
  });
  const std::size_t window_count = windows.size();
  std::unordered_map<std::int64_t, std::size_t> window_by_index;  // emplace keeps the first in start order
  window_by_index.reserve(window_count);
  for (std::size_t w = 0; w < window_count; ++w) window_by_index.emplace(windows[w].index, w);

  // Launch calls: their window, and the canonical call per correlation (earliest start, then first).
  launch_window.assign(timeline.launches.size(), kNoIndex);
  window_launches.resize(window_count);
  std::uint64_t lowest_launch_correlation = std::numeric_limits<std::uint64_t>::max();
  for (std::size_t l = 0; l < timeline.launches.size(); ++l) {
    const LaunchCall& launch = timeline.launches[l];
    lowest_launch_correlation = std::min(lowest_launch_correlation, launch.correlation);
    std::size_t pos = kNoIndex;
    if (launch.iteration) {
      const auto found = window_by_index.find(*launch.iteration);
      if (found != window_by_index.end()) pos = found->second;
    } else {
      pos = window_at(launch.start_ns);
    }
    launch_window[l] = pos;
    if (pos == kNoIndex) {
      ++counters.launches_outside_iterations;
    } else {
      window_launches[pos].push_back(l);
    }
  }
  // The canonical call of each correlation: (correlation, call) pairs sorted by correlation, ties in
  // call order (correlations count up in launch order, so they come nearly sorted), then each
  // correlation's run reduced to its earliest call, the first of equal starts.
  std::vector<std::pair<std::uint64_t, std::size_t>> launch_by_correlation;
  launch_by_correlation.reserve(timeline.launches.size());
  for (std::size_t l = 0; l < timeline.launches.size(); ++l) launch_by_correlation.emplace_back(timeline.launches[l].correlation, l);
  stable_sort_runs(launch_by_correlation.begin(), launch_by_correlation.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < launch_by_correlation.size(); ++i) {
      if (kept > 0 && launch_by_correlation[kept - 1].first == launch_by_correlation[i].first) {
        ++counters.duplicate_launch_correlations;
        std::size_t& canonical = launch_by_correlation[kept - 1].second;
        if (timeline.launches[launch_by_correlation[i].second].start_ns < timeline.launches[canonical].start_ns) {
          canonical = launch_by_correlation[i].second;
        }
        continue;
      }
      launch_by_correlation[kept++] = launch_by_correlation[i];
    }
    launch_by_correlation.resize(kept);
  }
  const auto launch_of = [&](std::uint64_t correlation) -> std::size_t {
    const auto found = std::lower_bound(launch_by_correlation.begin(), launch_by_correlation.end(), correlation,
                                        [](const auto& entry, std::uint64_t c) { return entry.first < c; });
    return found != launch_by_correlation.end() && found->first == correlation ? found->second : kNoIndex;
  };

  // The recording's start: the earliest record of any kind.
  std::int64_t recording_start = kNever;
  for (const auto& op : timeline.ops) {
    if ((op.start_ns != 0 || op.end_ns != 0) && op.end_ns >= op.start_ns) recording_start = std::min(recording_start, op.start_ns);
  }
  for (const auto& call : timeline.launches) recording_start = std::min(recording_start, call.start_ns);
  for (const auto& call : timeline.syncs) recording_start = std::min(recording_start, call.start_ns);
  for (const auto& call : timeline.api_calls) recording_start = std::min(recording_start, call.start_ns);

  // The earliest an op without a launch call can have been launched, by its correlation: correlations count
  // up in the order the launch calls begin, so its call began no earlier than every call of a lower
  // correlation. latest_start_upto[i]: the latest start of the (canonical) calls launch_by_correlation[0..i].
  std::vector<std::int64_t> latest_start_upto;
  if (unlinked == UnlinkedPending::earliest) {
    latest_start_upto.reserve(launch_by_correlation.size());
    for (const auto& [correlation, call] : launch_by_correlation) {
      const std::int64_t start = timeline.launches[call].start_ns;
      latest_start_upto.push_back(latest_start_upto.empty() ? start : std::max(latest_start_upto.back(), start));
    }
  }
  const auto earliest_launch = [&](std::uint64_t correlation) -> std::int64_t {
    if (correlation == 0) return recording_start;
    const auto above = std::lower_bound(launch_by_correlation.begin(), launch_by_correlation.end(), correlation,
                                        [](const auto& entry, std::uint64_t c) { return entry.first < c; });
    if (above == launch_by_correlation.begin()) return recording_start;
    return latest_start_upto[static_cast<std::size_t>(above - launch_by_correlation.begin()) - 1];
  };

  // Device ops: drop untimed ones; join the rest to their launch call and own window.
  ops.reserve(timeline.ops.size());
  launch_first_op_ns.assign(timeline.launches.size(), kNever);
  std::vector<std::size_t> window_op_counts(window_count, 0);
  for (std::size_t i = 0; i < timeline.ops.size(); ++i) {
    const DeviceOp& op = timeline.ops[i];
    if (op.start_ns == 0 && op.end_ns == 0) {
      ++counters.ops_without_timestamps;
      continue;
    }
    if (op.end_ns < op.start_ns) {
      ++counters.ops_invalid_interval;
      continue;
    }
    AttributedOp entry;
    entry.start_ns = op.start_ns;
    entry.end_ns = op.end_ns;
    entry.pending_ns = op.start_ns;
    entry.stream = StreamKey{op.device, op.stream};
    entry.source = i;
    if (const std::size_t canonical = launch_of(op.correlation); canonical != kNoIndex) {
      const LaunchCall& launch = timeline.launches[canonical];
      entry.launch = canonical;
      entry.pending_ns = std::min(launch.end_ns, op.start_ns);
      entry.window = launch_window[canonical];
      launch_first_op_ns[canonical] = std::min(launch_first_op_ns[canonical], op.start_ns);
    } else {
      if (timeline.ops_have_launches) ++counters.ops_without_launch;
      // Launched before the recording began: correlations count up in launch order.
      if (op.correlation > 0 && op.correlation < lowest_launch_correlation && !timeline.launches.empty()) {
        entry.pending_ns = std::min(recording_start, op.start_ns);
      } else if (timeline.ops_have_launches) {
        ++ops_queue_unknown;
        // The earliest it can have been launched: the latest start of the calls with a lower correlation
        // (correlations count up in launch order), else (no correlation, or none lower) the recording's start.
        if (unlinked == UnlinkedPending::earliest) entry.pending_ns = std::min(earliest_launch(op.correlation), op.start_ns);
      }
      entry.window = window_at(op.start_ns);
    }
    if (entry.window == kNoIndex) {
      ++counters.ops_outside_iterations;
    } else {
      ++window_op_counts[entry.window];
    }
    ops.push_back(entry);
  }

  launch_blocking.assign(timeline.launches.size(), false);
  for (std::size_t l = 0; l < timeline.launches.size(); ++l) {
    const LaunchCall& launch = timeline.launches[l];
    const bool copy_or_fill = launch.kind == LaunchKind::memcpy || launch.kind == LaunchKind::memset;
    launch_blocking[l] = (launch.kind == LaunchKind::memcpy && launch.synchronous) ||
                         (copy_or_fill && launch.end_ns > launch_first_op_ns[l]);
  }

  m_prefix_end.resize(window_count);
  for (std::size_t w = 0; w < window_count; ++w) {
    m_prefix_end[w] = w == 0 ? windows[w].end_ns : std::max(m_prefix_end[w - 1], windows[w].end_ns);
  }

  // Streams: those of ops pending in, or launched by, a window.
  std::vector<bool> listed(ops.size(), false);
  for (std::size_t k = 0; k < ops.size(); ++k) {
    const AttributedOp& op = ops[k];
    listed[k] = op.window != kNoIndex;
    for_each_window_overlapping(op.pending_ns, op.end_ns, [&](std::size_t) { listed[k] = true; });
  }
  for (std::size_t k = 0; k < ops.size(); ++k) {
    if (listed[k]) streams.push_back(ops[k].stream);
  }
  std::sort(streams.begin(), streams.end());
  streams.erase(std::unique(streams.begin(), streams.end()), streams.end());
  const std::size_t stream_count = streams.size();
  for (AttributedOp& op : ops) {
    const auto at = std::lower_bound(streams.begin(), streams.end(), op.stream);
    op.stream_index = at != streams.end() && *at == op.stream ? static_cast<std::size_t>(at - streams.begin()) : kNoIndex;
  }
  for (const StreamKey& key : streams) devices.push_back(key.device);
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());  // streams are sorted by device
  for (const StreamKey& key : streams) {
    stream_device.push_back(
        static_cast<std::size_t>(std::lower_bound(devices.begin(), devices.end(), key.device) - devices.begin()));
  }

  // The ops that ran in each window, all streams and per stream.
  ran_in_window.assign(window_count, 0);
  ran_in_window_stream.assign(window_count * stream_count, 0);
  for (const AttributedOp& op : ops) {
    for_each_window_overlapping(op.start_ns, op.end_ns, [&](std::size_t w) {
      ++ran_in_window[w];
      if (op.stream_index != kNoIndex) ++ran_in_window_stream[w * stream_count + op.stream_index];
    });
  }

  // The walk's events. Ops on no listed stream are never pending inside a window: they change nothing there.
  using Kind = TimelineEvent::Kind;
  const auto add = [&](std::int64_t start, std::int64_t end, Kind kind, std::size_t stream = 0) {
    if (end <= start) return;
    events.push_back(TimelineEvent{start, kind, +1, static_cast<std::uint32_t>(stream)});
    events.push_back(TimelineEvent{end, kind, -1, static_cast<std::uint32_t>(stream)});
  };
  // At most two per interval added below: reserved at once, so that growing never copies them (the
  // pages of the part not used are never touched).
  events.reserve(2 * (3 * ops.size() + timeline.launches.size() + timeline.syncs.size() + timeline.api_calls.size() +
                      window_count));
  for (const AttributedOp& op : ops) {
    if (op.stream_index == kNoIndex) continue;
    add(op.pending_ns, op.end_ns, Kind::pending, op.stream_index);
    add(op.start_ns, op.end_ns, Kind::running, op.stream_index);
    if (timeline.ops[op.source].communication) add(op.start_ns, op.end_ns, Kind::communication, op.stream_index);
  }
  std::vector<std::int64_t> launching_threads;
  for (const auto& call : timeline.launches) launching_threads.push_back(call.thread_id);
  std::sort(launching_threads.begin(), launching_threads.end());
  launching_threads.erase(std::unique(launching_threads.begin(), launching_threads.end()), launching_threads.end());
  const auto launching = [&](std::int64_t thread) {
    return std::binary_search(launching_threads.begin(), launching_threads.end(), thread);
  };
  for (std::size_t l = 0; l < timeline.launches.size(); ++l) {
    const LaunchCall& call = timeline.launches[l];
    const bool kernel = call.kind == LaunchKind::kernel || call.kind == LaunchKind::graph;
    const Kind kind = launch_blocking[l]                                      ? Kind::blocking
                      : kernel && call.end_ns - call.start_ns > kSlowLaunchNs ? Kind::slow_launch
                                                                              : Kind::launch;
    add(call.start_ns, call.end_ns, kind);
  }
  for (const auto& call : timeline.syncs) {
    if (call.harness) {
      if (launching(call.thread_id)) add(call.start_ns, call.end_ns, Kind::harness);
      continue;
    }
    add(call.start_ns, call.end_ns, launching(call.thread_id) ? Kind::blocking : Kind::blocking_elsewhere);
  }
  for (const auto& call : timeline.api_calls) {
    add(call.start_ns, call.end_ns, launching(call.thread_id) ? Kind::api : Kind::api_elsewhere);
  }
  for (std::size_t w = 0; w < window_count; ++w) {
    events.push_back(TimelineEvent{windows[w].start_ns, Kind::window, +1, static_cast<std::uint32_t>(w)});
    events.push_back(TimelineEvent{windows[w].end_ns, Kind::window, -1, static_cast<std::uint32_t>(w)});
  }
  sort_by_time(events);

  // Own ops grouped by window (counting sort), then each group sorted by (start, end).
  m_window_begin.assign(window_count + 1, 0);
  for (std::size_t w = 0; w < window_count; ++w) m_window_begin[w + 1] = m_window_begin[w] + window_op_counts[w];
  m_by_window.resize(m_window_begin[window_count]);
  {
    std::vector<std::size_t> fill(m_window_begin.begin(), m_window_begin.end() - 1);
    for (const AttributedOp& op : ops) {
      if (op.window != kNoIndex) m_by_window[fill[op.window]++] = &op;
    }
  }
  for (std::size_t w = 0; w < window_count; ++w) {
    std::sort(m_by_window.begin() + static_cast<std::ptrdiff_t>(m_window_begin[w]),
              m_by_window.begin() + static_cast<std::ptrdiff_t>(m_window_begin[w + 1]), ByStart{});
  }

  // Grouped by (window, stream): a stable counting sort of the sorted groups keeps each one sorted.
  std::vector<std::size_t> group(m_by_window.size());
  m_stream_begin.assign(window_count * stream_count + 1, 0);
  for (std::size_t w = 0; w < window_count; ++w) {
    for (std::size_t k = m_window_begin[w]; k < m_window_begin[w + 1]; ++k) {
      group[k] = w * stream_count + m_by_window[k]->stream_index;
      ++m_stream_begin[group[k] + 1];
    }
  }
  for (std::size_t g = 0; g + 1 < m_stream_begin.size(); ++g) m_stream_begin[g + 1] += m_stream_begin[g];
  m_by_stream.resize(m_by_window.size());
  {
    std::vector<std::size_t> fill(m_stream_begin.begin(), m_stream_begin.end() - 1);
    for (std::size_t k = 0; k < m_by_window.size(); ++k) m_by_stream[fill[group[k]]++] = m_by_window[k];
  }
}

std::size_t WindowAttribution::window_at(std::int64_t t) const {
  auto it = std::upper_bound(windows.begin(), windows.end(), t,
                             [](std::int64_t value, const IterationWindow& w) { return value < w.start_ns; });
  if (it == windows.begin()) return kNoIndex;
  --it;
  return t < it->end_ns ? static_cast<std::size_t>(it - windows.begin()) : kNoIndex;
}

std::span<const AttributedOp* const> WindowAttribution::own_ops(std::size_t window) const {
  return {m_by_window.data() + m_window_begin[window], m_window_begin[window + 1] - m_window_begin[window]};
}

std::span<const AttributedOp* const> WindowAttribution::own_ops(std::size_t window, std::size_t stream) const {
  const std::size_t g = window * streams.size() + stream;
  return {m_by_stream.data() + m_stream_begin[g], m_stream_begin[g + 1] - m_stream_begin[g]};
}

namespace {

void extend(SplitTrack& track, SplitSegmentKind kind, std::int64_t start, std::int64_t end) {
  if (!track.segments.empty() && track.segments.back().kind == kind && track.segments.back().end_ns == start) {
    track.segments.back().end_ns = end;
  } else {
    track.segments.push_back(SplitSegment{kind, start, end});
  }
}

}  // namespace

std::vector<WindowTracks> window_tracks(const WindowAttribution& attribution) {
  std::vector<WindowTracks> result(attribution.windows.size());
  for (WindowTracks& tracks : result) {
    for (const StreamKey& key : attribution.streams) tracks.streams.push_back(SplitTrack{key, {}});
  }
  walk_windows(attribution, [&](std::size_t w, std::int64_t start, std::int64_t end, const TimelineState& state) {
    WindowTracks& tracks = result[w];
    extend(tracks.gpu, state.device(), start, end);
    if (tracks.queue.empty() || tracks.queue.back().depth != state.pending) {
      tracks.queue.push_back(QueueSample{start, state.pending});
    }
    for (std::size_t s = 0; s < tracks.streams.size(); ++s) extend(tracks.streams[s], state.stream_device(s), start, end);
  });
  return result;
}

namespace {

// Length of the union of the intervals of `items` (sorted by start) clipped to [lo, hi];
// interval(item) is its [start, end).
template <typename Items, typename Interval>
std::int64_t union_length(const Items& items, Interval interval,
                          std::int64_t lo = std::numeric_limits<std::int64_t>::min(),
                          std::int64_t hi = std::numeric_limits<std::int64_t>::max()) {
  std::int64_t total = 0;
  bool have = false;
  std::int64_t current_start = 0;
  std::int64_t current_end = 0;
  for (const auto& item : items) {
    const auto [raw_start, raw_end] = interval(item);
    const std::int64_t start = std::max(raw_start, lo);
    const std::int64_t end = std::min(raw_end, hi);
    if (end <= start) continue;
    if (!have) {
      have = true;
      current_start = start;
      current_end = end;
    } else if (start > current_end) {
      total += current_end - current_start;
      current_start = start;
      current_end = end;
    } else {
      current_end = std::max(current_end, end);
    }
  }
  if (have) total += current_end - current_start;
  return total;
}

// The own-work diagnostics of a window's own ops (sorted by (start, end)).
void own_work(DeviceSplit& split, std::span<const AttributedOp* const> own, std::int64_t lo, std::int64_t hi) {
  const auto interval = [](const AttributedOp* op) { return std::pair{op->start_ns, op->end_ns}; };
  split.own_ops = own.size();
  split.own_busy_ns = union_length(own, interval, lo, hi);
  split.carried_out_ns = union_length(own, interval) - split.own_busy_ns;
}

// One stretch of the walk added to a split.
void add_stretch(DeviceSplit& split, SplitSegmentKind kind, std::int64_t length, std::int64_t pending) {
  switch (kind) {
    case SplitSegmentKind::busy: split.busy_ns += length; break;
    case SplitSegmentKind::device_wait: split.device_wait_ns += length; break;
    case SplitSegmentKind::host_bound: split.host_bound_ns += length; break;
  }
  accumulate(split.queue_ns, saturating_mul(pending, length));
  split.queue_max = std::max(split.queue_max, pending);
}


DeviceSplitSummary summarize_splits(const std::vector<const DeviceSplit*>& splits, const std::vector<std::int64_t>& walls) {
  std::vector<std::int64_t> busy, idle, host_bound, device_wait, own_busy, carried_out;
  std::vector<double> mean, max;
  for (std::size_t k = 0; k < splits.size(); ++k) {
    const DeviceSplit* s = splits[k];
    busy.push_back(s->busy_ns);
    idle.push_back(s->idle_ns);
    host_bound.push_back(s->host_bound_ns);
    device_wait.push_back(s->device_wait_ns);
    own_busy.push_back(s->own_busy_ns);
    carried_out.push_back(s->carried_out_ns);
    mean.push_back(queue_mean(*s, walls[k]));
    max.push_back(static_cast<double>(s->queue_max));
  }
  DeviceSplitSummary summary;
  summary.busy_ns = summarize_ns(busy);
  summary.idle_ns = summarize_ns(idle);
  summary.host_bound_ns = summarize_ns(host_bound);
  summary.device_wait_ns = summarize_ns(device_wait);
  summary.queue_mean = summarize(mean);
  summary.queue_max = summarize(max);
  summary.own_busy_ns = summarize_ns(own_busy);
  summary.carried_out_ns = summarize_ns(carried_out);
  return summary;
}

// Saturating (saturating.hpp): many windows of a damaged trace's lengths could pass int64.
void add_totals(DeviceSplitTotals& totals, const DeviceSplit& split) {
  accumulate(totals.busy_ns, split.busy_ns);
  accumulate(totals.host_bound_ns, split.host_bound_ns);
  accumulate(totals.device_wait_ns, split.device_wait_ns);
  accumulate(totals.queue_ns, split.queue_ns);
  totals.queue_max = std::max(totals.queue_max, split.queue_max);
  accumulate(totals.communication_ns, split.communication_ns);
  accumulate(totals.own_busy_ns, split.own_busy_ns);
  accumulate(totals.carried_out_ns, split.carried_out_ns);
}

SampleSummary summarize_counts(const std::vector<std::size_t>& counts) {
  std::vector<double> values(counts.begin(), counts.end());
  return summarize(values);
}

BreakdownSummary summarize_iterations(const std::vector<IterationBreakdown>& iterations) {
  BreakdownSummary summary;
  BreakdownTotals& totals = summary.totals;
  std::vector<std::int64_t> wall, dispatch, launch_api, exposed, hidden, blocking, other_api, delays;
  std::vector<std::int64_t> host_blocking, host_launch, host_other, host_harness, host_framework;
  std::vector<std::size_t> launches, graph_launches, gpu_ops;
  std::vector<const DeviceSplit*> gpu;
  for (const auto& it : iterations) {
    wall.push_back(it.wall_ns);
    gpu.push_back(&it.gpu);
    if (it.dispatch_ns) dispatch.push_back(*it.dispatch_ns);
    launch_api.push_back(it.launch_api_ns);
    exposed.push_back(it.launch_exposed_ns);
    hidden.push_back(it.launch_hidden_ns);
    blocking.push_back(it.blocking_ns);
    other_api.push_back(it.other_api_ns);
    host_blocking.push_back(it.host_states.blocking_ns);
    host_launch.push_back(it.host_states.launch_ns);
    host_other.push_back(it.host_states.other_api_ns);
    host_harness.push_back(it.host_states.harness_ns);
    host_framework.push_back(it.host_states.framework_ns);
    launches.push_back(it.launches);
    graph_launches.push_back(it.graph_launches);
    gpu_ops.push_back(it.gpu.own_ops);
    delays.insert(delays.end(), it.queue_delays_ns.begin(), it.queue_delays_ns.end());
    summary.queue_delays_clipped += it.queue_delays_clipped;

    ++totals.iterations;
    accumulate(totals.wall_ns, it.wall_ns);
    add_totals(totals.gpu, it.gpu);
    accumulate(totals.host_states.blocking_ns, it.host_states.blocking_ns);
    accumulate(totals.host_states.launch_ns, it.host_states.launch_ns);
    accumulate(totals.host_states.other_api_ns, it.host_states.other_api_ns);
    accumulate(totals.host_states.harness_ns, it.host_states.harness_ns);
    accumulate(totals.host_states.framework_ns, it.host_states.framework_ns);
    accumulate(totals.launch_api_ns, it.launch_api_ns);
    accumulate(totals.launch_exposed_ns, it.launch_exposed_ns);
    accumulate(totals.launch_hidden_ns, it.launch_hidden_ns);
    accumulate(totals.blocking_ns, it.blocking_ns);
    totals.blocking_calls += it.blocking_calls;
    accumulate(totals.other_api_ns, it.other_api_ns);
    accumulate(totals.dispatch_ns, it.dispatch_ns.value_or(0));
    totals.device_queue_max = std::max(totals.device_queue_max, it.device_queue_max);
    if (it.device_queue_max >= kFullLaunchQueue) ++totals.full_queue_iterations;
  }
  summary.wall_ns = summarize_ns(wall);
  summary.gpu = summarize_splits(gpu, wall);
  summary.host_blocking_ns = summarize_ns(host_blocking);
  summary.host_launch_ns = summarize_ns(host_launch);
  summary.host_other_api_ns = summarize_ns(host_other);
  summary.host_harness_ns = summarize_ns(host_harness);
  summary.host_framework_ns = summarize_ns(host_framework);
  summary.launch_api_ns = summarize_ns(launch_api);
  summary.launch_exposed_ns = summarize_ns(exposed);
  summary.launch_hidden_ns = summarize_ns(hidden);
  summary.blocking_ns = summarize_ns(blocking);
  summary.other_api_ns = summarize_ns(other_api);
  summary.dispatch_ns = summarize_ns(dispatch);
  summary.launches = summarize_counts(launches);
  summary.graph_launches = summarize_counts(graph_launches);
  summary.gpu_ops = summarize_counts(gpu_ops);
  summary.queue_delay_ns = summarize_ns(delays);
  if (!iterations.empty()) {
    const auto& streams = iterations.front().streams;
    for (std::size_t s = 0; s < streams.size(); ++s) {
      std::vector<const DeviceSplit*> per_stream;
      per_stream.reserve(iterations.size());
      StreamSummary stream{streams[s].key, {}, {}, 0};
      for (const auto& it : iterations) {
        per_stream.push_back(&it.streams[s].split);
        add_totals(stream.totals, it.streams[s].split);
        stream.waited_ns += it.streams[s].waited_ns;
      }
      stream.split = summarize_splits(per_stream, wall);
      summary.streams.push_back(std::move(stream));
    }
  }
  return summary;
}

using KernelKey = std::pair<int, std::string>;  // (DeviceOpKind, name)

}  // namespace

namespace {

// The collectives' kernels whose start lies in a window, with their ordinals (docs/ranks.md, "The rank
// digest"): sorted by (step, stream, start, end), input order for ties. A window whose index an earlier
// window has (a repeated ProfilerStep#N) gives none: a step is its first window.
std::vector<CollectiveOp> collectives_in_windows(const Timeline& timeline, const WindowAttribution& attribution) {
  struct Found {
    CollectiveOp op;
    std::int64_t end_ns = 0;
  };
  std::vector<bool> first_of_its_index(attribution.windows.size(), true);
  {
    std::unordered_set<std::int64_t> seen;
    for (std::size_t w = 0; w < attribution.windows.size(); ++w) first_of_its_index[w] = seen.insert(attribution.windows[w].index).second;
  }
  std::vector<Found> found;
  for (const AttributedOp& attributed : attribution.ops) {
    const DeviceOp& op = timeline.ops[attributed.source];
    if (!op.communication) continue;
    const std::size_t w = attribution.window_at(op.start_ns);
    if (w == kNoIndex || !first_of_its_index[w]) continue;
    found.push_back(Found{CollectiveOp{attribution.windows[w].index, attributed.stream, 0, op.name, op.start_ns,
                                       op.end_ns - op.start_ns},
                          op.end_ns});
  }
  std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
    if (a.op.step != b.op.step) return a.op.step < b.op.step;
    if (a.op.stream != b.op.stream) return a.op.stream < b.op.stream;
    if (a.op.start_ns != b.op.start_ns) return a.op.start_ns < b.op.start_ns;
    return a.end_ns < b.end_ns;
  });
  std::vector<CollectiveOp> out;
  out.reserve(found.size());
  for (Found& f : found) {
    const bool same_group = !out.empty() && out.back().step == f.op.step && out.back().stream == f.op.stream;
    f.op.ordinal = same_group ? out.back().ordinal + 1 : 0;
    out.push_back(std::move(f.op));
  }
  return out;
}

}  // namespace

PathBreakdown analyze_timeline(const Timeline& timeline) {
  PathBreakdown result;
  result.collection_counters = timeline.counters;
  const WindowAttribution attribution(timeline);
  result.analysis_counters = attribution.counters;
  const auto& windows = attribution.windows;
  const std::size_t window_count = windows.size();
  const std::size_t stream_count = attribution.streams.size();

  result.iterations.resize(window_count);
  for (std::size_t w = 0; w < window_count; ++w) {
    const IterationWindow& window = windows[w];
    IterationBreakdown& it = result.iterations[w];
    it.index = window.index;
    it.start_ns = window.start_ns;
    it.end_ns = window.end_ns;
    it.wall_ns = window.end_ns - window.start_ns;
    it.gpu.ops = attribution.ran_in_window[w];
    own_work(it.gpu, attribution.own_ops(w), window.start_ns, window.end_ns);
    it.streams.reserve(stream_count);
    for (std::size_t s = 0; s < stream_count; ++s) {
      StreamSplit stream{attribution.streams[s], {}, 0};
      own_work(stream.split, attribution.own_ops(w, s), window.start_ns, window.end_ns);
      stream.split.ops = attribution.ran_in_window_stream[w * stream_count + s];
      it.streams.push_back(stream);
    }
  }

  // The device timeline and the host, stretch by stretch.
  std::vector<std::int64_t> device_pending(attribution.devices.size(), 0);
  walk_windows(attribution, [&](std::size_t w, std::int64_t start, std::int64_t end, const TimelineState& state) {
    IterationBreakdown& it = result.iterations[w];
    const std::int64_t length = end - start;
    const SplitSegmentKind device = state.device();
    add_stretch(it.gpu, device, length, state.pending);
    if (state.communication > 0) it.gpu.communication_ns += length;
    if (device == SplitSegmentKind::host_bound) {
      switch (state.host()) {
        case HostState::blocking: it.host_states.blocking_ns += length; break;
        case HostState::launch: it.host_states.launch_ns += length; break;
        case HostState::other_api: it.host_states.other_api_ns += length; break;
        case HostState::harness: it.host_states.harness_ns += length; break;
        case HostState::framework: it.host_states.framework_ns += length; break;
      }
    }
    std::fill(device_pending.begin(), device_pending.end(), 0);
    for (std::size_t s = 0; s < stream_count; ++s) {
      StreamSplit& stream = it.streams[s];
      add_stretch(stream.split, state.stream_device(s), length, state.stream_pending[s]);
      if (state.stream_communication[s] > 0) stream.split.communication_ns += length;
      if (device == SplitSegmentKind::device_wait && state.stream_pending[s] > 0) stream.waited_ns += length;
      device_pending[attribution.stream_device[s]] += state.stream_pending[s];
    }
    for (const std::int64_t pending : device_pending) it.device_queue_max = std::max(it.device_queue_max, pending);
    if (state.in_launch()) {
      it.launch_api_ns += length;
      if (state.pending == 0) it.launch_exposed_ns += length;
    }
    if (state.blocking + state.blocking_elsewhere > 0) it.blocking_ns += length;
    if (state.api + state.api_elsewhere > 0) it.other_api_ns += length;
  });

  for (std::size_t w = 0; w < window_count; ++w) {
    IterationBreakdown& it = result.iterations[w];
    it.gpu.idle_ns = it.wall_ns - it.gpu.busy_ns;
    for (StreamSplit& stream : it.streams) stream.split.idle_ns = it.wall_ns - stream.split.busy_ns;
    it.launch_hidden_ns = it.launch_api_ns - it.launch_exposed_ns;
    if (!timeline.ops_have_launches) it.dispatch_ns = it.gpu.idle_ns;

    const auto& launches = attribution.window_launches[w];
    it.launches = launches.size();
    for (std::size_t l : launches) {
      const LaunchCall& launch = timeline.launches[l];
      if (launch.kind == LaunchKind::graph) ++it.graph_launches;
      if (attribution.launch_first_op_ns[l] != std::numeric_limits<std::int64_t>::max()) {
        const std::int64_t delay = attribution.launch_first_op_ns[l] - launch.end_ns;
        if (delay < 0) ++it.queue_delays_clipped;
        it.queue_delays_ns.push_back(std::max<std::int64_t>(delay, 0));
      }
    }
  }
  // Blocking calls, in every window that contains their start.
  const auto count_blocking = [&](std::int64_t start) {
    attribution.for_each_window_overlapping(start, start + 1, [&](std::size_t w) { ++result.iterations[w].blocking_calls; });
  };
  for (std::size_t l = 0; l < timeline.launches.size(); ++l) {
    if (attribution.launch_blocking[l]) count_blocking(timeline.launches[l].start_ns);
  }
  for (const SyncCall& call : timeline.syncs) {
    if (!call.harness) count_blocking(call.start_ns);
  }

  // Per-kernel table over the ops launched by the iterations (names viewed, not copied, per op).
  std::unordered_map<std::string_view, std::size_t> kernel_rows[3];  // per DeviceOpKind
  std::vector<std::vector<double>> kernel_durations;                 // per row: each call's end - start
  for (const AttributedOp& attributed : attribution.ops) {
    if (attributed.window == kNoIndex) continue;
    const DeviceOp& op = timeline.ops[attributed.source];
    auto& rows = kernel_rows[static_cast<std::size_t>(op.kind) % 3];
    const auto [row, inserted] = rows.emplace(std::string_view(op.name), result.kernels.size());
    if (inserted) {
      result.kernels.emplace_back();
      result.kernels.back().kind = op.kind;
      result.kernels.back().name = op.name;
      kernel_durations.emplace_back();
    }
    KernelStat& stat = result.kernels[row->second];
    ++stat.count;
    stat.total_ns += op.end_ns - op.start_ns;
    kernel_durations[row->second].push_back(static_cast<double>(op.end_ns - op.start_ns));
  }
  for (std::size_t k = 0; k < result.kernels.size(); ++k) {
    KernelStat& stat = result.kernels[k];
    stat.mean_ns = static_cast<double>(stat.total_ns) / static_cast<double>(stat.count);
    stat.median_ns = quantile(kernel_durations[k], 0.5);
    stat.count_per_iteration =
        window_count == 0 ? 0.0 : static_cast<double>(stat.count) / static_cast<double>(window_count);
  }
  std::sort(result.kernels.begin(), result.kernels.end(), [](const KernelStat& a, const KernelStat& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.name < b.name;
  });

  result.collectives = collectives_in_windows(timeline, attribution);
  result.summary = summarize_iterations(result.iterations);
  result.summary.cpu_kernels = !timeline.ops_have_launches;
  const std::size_t timed = attribution.ops.size();
  const bool no_launches = timeline.ops_have_launches && timed > 0 && attribution.counters.ops_without_launch == timed;
  VerdictContext context{no_launches, timeline.whole_recording_window, timeline.unread_device_events,
                         timeline.kernels_unrecorded, timeline.ops.empty() && !timeline.launches.empty()};
  context.ops_queue_unknown = attribution.ops_queue_unknown;
  context.host_bound_least_ns = result.summary.totals.gpu.host_bound_ns;
  if (attribution.ops_queue_unknown > 0 && !no_launches) {
    // The other end of the bounds (docs/metrics.md, "Ops without a launch call"): the same windows with each such
    // op pending from the earliest its launch can have been. Pending earlier only turns host-bound time into
    // device-wait time, so this is the least host-bound time.
    // Each iteration's least too (IterationBreakdown::host_bound_least_ns); the total is their sum.
    const WindowAttribution earliest(timeline, UnlinkedPending::earliest);
    std::vector<std::int64_t> least(result.iterations.size(), 0);
    walk_windows(earliest, [&](std::size_t w, std::int64_t start, std::int64_t end, const TimelineState& state) {
      if (state.device() == SplitSegmentKind::host_bound) accumulate(least[w], end - start);
    });
    std::int64_t total = 0;
    for (std::size_t w = 0; w < result.iterations.size(); ++w) {
      IterationBreakdown& it = result.iterations[w];
      it.host_bound_least_ns = std::min(least[w], it.gpu.host_bound_ns);
      accumulate(total, *it.host_bound_least_ns);
    }
    context.host_bound_least_ns = total;  // each iteration's at most its own host-bound time: at most the total's
    // nothing could move (the verdict's bounds are then exact): no iteration has a range either
    if (context.host_bound_least_ns == result.summary.totals.gpu.host_bound_ns) {
      for (IterationBreakdown& it : result.iterations) it.host_bound_least_ns.reset();
    }
  }
  result.verdict = decide_verdict(result.summary, context);
  return result;
}

namespace {

// The verdict of three shares alone (docs/metrics.md, "Verdict": dominant_share or close_shares): the largest
// (ties: busy, host-bound, device-wait) decides when it is at least kDominantSharePercent of the wall and
// kShareLeadPercent ahead of the second.
Verdict share_verdict(std::int64_t busy, std::int64_t host_bound, std::int64_t device_wait, std::int64_t wall) {
  std::array<std::pair<TimeShare, std::int64_t>, 3> ranked = {
      {{TimeShare::busy, busy}, {TimeShare::host_bound, host_bound}, {TimeShare::device_wait, device_wait}}};
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  const bool dominates = at_least_percent(ranked[0].second, wall, kDominantSharePercent) &&
                         at_least_percent(ranked[0].second - ranked[1].second, wall, kShareLeadPercent);
  if (!dominates) return Verdict::mixed;
  return ranked[0].first == TimeShare::busy         ? Verdict::compute_bound
         : ranked[0].first == TimeShare::host_bound ? Verdict::host_bound
                                                    : Verdict::device_wait_bound;
}

}  // namespace

PathVerdict decide_verdict(const BreakdownSummary& summary, const VerdictContext& context) {
  PathVerdict out;
  const BreakdownTotals& totals = summary.totals;
  out.cpu_kernels = summary.cpu_kernels;
  const auto share = [&](std::int64_t value) {
    return totals.wall_ns > 0 ? static_cast<double>(value) / static_cast<double>(totals.wall_ns) : 0.0;
  };
  out.busy_share = share(totals.gpu.busy_ns);
  out.host_bound_share = share(totals.gpu.host_bound_ns);
  out.device_wait_share = share(totals.gpu.device_wait_ns);
  out.blocking_share = share(totals.blocking_ns);
  out.communication_share = totals.gpu.busy_ns > 0 ? static_cast<double>(totals.gpu.communication_ns) /
                                                         static_cast<double>(totals.gpu.busy_ns)
                                                   : 0.0;
  out.full_queue_iterations = totals.full_queue_iterations;
  out.queue_max = totals.device_queue_max;
  out.whole_recording_window = context.whole_recording_window;
  out.kernels_unrecorded = context.kernels_unrecorded;
  out.queue_delay_median_ns = summary.queue_delay_ns.median;
  out.launches_per_iteration = summary.launches.median;
  out.graph_launches_per_iteration = summary.graph_launches.median;
  const auto headroom = [&](std::int64_t part) -> std::optional<double> {
    if (totals.wall_ns <= 0 || part >= totals.wall_ns) return std::nullopt;
    return static_cast<double>(totals.wall_ns) / static_cast<double>(totals.wall_ns - part);
  };
  // Ops whose queued time is unknown: host-bound lies in [least, host_bound_ns], device-wait in
  // [device_wait_ns, device_wait_ns + host_bound_ns - least]; busy is exact.
  out.ops_queue_unknown = context.ops_queue_unknown;
  const std::int64_t shiftable =
      context.ops_queue_unknown > 0 ? std::max<std::int64_t>(0, totals.gpu.host_bound_ns - context.host_bound_least_ns) : 0;
  if (shiftable > 0) {
    out.host_bound_share_least = share(totals.gpu.host_bound_ns - shiftable);
    out.device_wait_share_most = share(totals.gpu.device_wait_ns + shiftable);
  }
  out.busy_headroom = headroom(totals.gpu.busy_ns);
  out.host_bound_headroom = headroom(totals.gpu.host_bound_ns);
  out.device_wait_headroom = headroom(totals.gpu.device_wait_ns + shiftable);  // Amdahl's bound: the most it can be
  out.host_headroom_negligible =
      !at_least_percent(totals.wall_ns, totals.wall_ns - totals.gpu.host_bound_ns, kNegligibleHeadroomPercent);

  // The host state with the most host-bound time (ties in declaration order).
  const HostStates& states = totals.host_states;
  if (totals.gpu.host_bound_ns > 0) {
    const std::pair<HostState, std::int64_t> candidates[] = {{HostState::blocking, states.blocking_ns},
                                                             {HostState::launch, states.launch_ns},
                                                             {HostState::other_api, states.other_api_ns},
                                                             {HostState::harness, states.harness_ns},
                                                             {HostState::framework, states.framework_ns}};
    const auto* best = &candidates[0];
    for (const auto& c : candidates) {
      if (c.second > best->second) best = &c;
    }
    out.host_state = best->first;
    out.host_state_share = static_cast<double>(best->second) / static_cast<double>(totals.gpu.host_bound_ns);
  }
  // The stream waited on most (ties: the smaller key; summary.streams is sorted).
  if (totals.gpu.device_wait_ns > 0) {
    const StreamSummary* best = nullptr;
    for (const auto& stream : summary.streams) {
      if (best == nullptr || stream.waited_ns > best->waited_ns) best = &stream;
    }
    if (best != nullptr) {
      out.waited_stream = best->key;
      out.waited_stream_share = static_cast<double>(best->waited_ns) / static_cast<double>(totals.gpu.device_wait_ns);
    }
  }

  // The largest and second-largest share (ties in the order busy, host-bound, device-wait).
  std::array<std::pair<TimeShare, std::int64_t>, 3> ranked = {{{TimeShare::busy, totals.gpu.busy_ns},
                                                               {TimeShare::host_bound, totals.gpu.host_bound_ns},
                                                               {TimeShare::device_wait, totals.gpu.device_wait_ns}}};
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  out.first = ranked[0].first;
  out.second = ranked[1].first;

  // Device work the reader could not read is unknown, not absent: before "no iterations" (a trace without
  // steps whose only device records are unread has no window) and "no device work".
  if (totals.gpu.busy_ns == 0 && !context.unread_device_events.empty()) {
    out.reason = VerdictReason::unread_device_events;
    out.unread_device_events = context.unread_device_events;
    return out;
  }
  if (totals.iterations == 0) {
    out.reason = VerdictReason::no_iterations;
    return out;
  }
  // The verdict of the shares alone (dominant_share or close_shares), as measured.
  const Verdict by_shares =
      share_verdict(totals.gpu.busy_ns, totals.gpu.host_bound_ns, totals.gpu.device_wait_ns, totals.wall_ns);
  // Kernels that do not record themselves count as dispatch: busy is a lower bound and dispatch an upper
  // one, so only a busy share that already dominates decides (compute-bound); host-bound and mixed are not
  // known, and with none recorded the kernels are not absent (no_device_work).
  if (context.kernels_unrecorded && by_shares != Verdict::compute_bound) {
    out.reason = VerdictReason::kernels_unrecorded;
    return out;
  }
  // Launch calls with no device op read (activity records lost, or a device kind not read): the device ran work
  // whose time is unknown, not zero.
  if (totals.gpu.busy_ns == 0 && context.launches_without_ops && !summary.cpu_kernels) {
    out.reason = VerdictReason::launches_without_ops;
    return out;
  }
  if (totals.gpu.busy_ns == 0) {
    out.reason = VerdictReason::no_device_work;
    return out;
  }
  if (context.no_launches) {
    out.reason = VerdictReason::no_launches;
    return out;
  }
  if (context.whole_recording_window && out.first == TimeShare::host_bound && out.host_state == HostState::other_api) {
    out.reason = VerdictReason::startup_without_steps;
    return out;
  }
  // Under bounds the verdict must be the same wherever in them the split lies: with t of the host-bound time moved
  // to device-wait, host-bound's lead only shrinks and device-wait's only grows as t grows, and busy's lead is
  // largest where the two are closest; so the ends and the point(s) where they meet decide for every t.
  if (shiftable > 0) {
    const auto classify = [&](std::int64_t t) {
      return share_verdict(totals.gpu.busy_ns, totals.gpu.host_bound_ns - t, totals.gpu.device_wait_ns + t, totals.wall_ns);
    };
    const std::int64_t meet = std::clamp<std::int64_t>((totals.gpu.host_bound_ns - totals.gpu.device_wait_ns) / 2, 0, shiftable);
    const bool same = classify(shiftable) == by_shares && classify(meet) == by_shares &&
                      classify(std::min(meet + 1, shiftable)) == by_shares;
    if (!same) {
      out.reason = VerdictReason::queue_unknown;
      return out;
    }
  }
  out.verdict = by_shares;
  out.reason = by_shares == Verdict::mixed ? VerdictReason::close_shares : VerdictReason::dominant_share;
  return out;
}

namespace {

// Several kernels of one path can share a canonical name (one per compiled graph): counts add up and
// the mean is weighted by count.
void add_to_side(double& count_per_iteration, double& mean_ns, const KernelStat& stat) {
  const double total = count_per_iteration + stat.count_per_iteration;
  mean_ns = total > 0 ? (mean_ns * count_per_iteration + stat.mean_ns * stat.count_per_iteration) / total : stat.mean_ns;
  count_per_iteration = total;
}

}  // namespace

KernelSetDiff diff_kernel_sets(const PathBreakdown& a, const PathBreakdown& b, std::string path_a,
                               std::string path_b) {
  KernelSetDiff diff;
  diff.path_a = std::move(path_a);
  diff.path_b = std::move(path_b);
  diff.partial = a.verdict.kernels_unrecorded || b.verdict.kernels_unrecorded;
  std::map<KernelKey, KernelDiffRow> rows;
  std::map<KernelKey, int> present;  // bit 1: in A, bit 2: in B
  for (const auto& stat : a.kernels) {
    const KernelKey key{static_cast<int>(stat.kind), canonical_kernel_name(stat.name)};
    KernelDiffRow& row = rows[key];
    add_to_side(row.count_per_iteration_a, row.mean_ns_a, stat);
    present[key] |= 1;
  }
  for (const auto& stat : b.kernels) {
    const KernelKey key{static_cast<int>(stat.kind), canonical_kernel_name(stat.name)};
    KernelDiffRow& row = rows[key];
    add_to_side(row.count_per_iteration_b, row.mean_ns_b, stat);
    present[key] |= 2;
  }
  for (auto& [key, row] : rows) {
    row.kind = static_cast<DeviceOpKind>(key.first);
    row.name = key.second;
    const int bits = present[key];
    (bits == 3 ? diff.both : bits == 1 ? diff.only_a : diff.only_b).push_back(std::move(row));
  }
  return diff;
}

}  // namespace ohprof
