#include "ohprof/analysis/breakdown.hpp"

#include "ohprof/analysis/cpu_kernels.hpp"
#include "ohprof/analysis/window_split.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

namespace ohprof {

namespace {

// A function object, not a function pointer, so that std::sort inlines it.
struct ByStart {
  bool operator()(const AttributedOp* a, const AttributedOp* b) const {
    return a->start_ns != b->start_ns ? a->start_ns < b->start_ns : a->end_ns < b->end_ns;
  }
};

}  // namespace

const char* to_string(SplitSegmentKind kind) {
  switch (kind) {
    case SplitSegmentKind::head: return "head";
    case SplitSegmentKind::busy: return "busy";
    case SplitSegmentKind::host_bound: return "host-bound gap";
    case SplitSegmentKind::other: return "other gap";
    case SplitSegmentKind::tail: return "tail";
  }
  return "unknown";
}

WindowAttribution::WindowAttribution(const Timeline& timeline) {
  counters.ops_total = timeline.ops.size();
  counters.launches_total = timeline.launches.size();

  // Windows with end >= start, sorted by (start, position in the timeline).
  for (const auto& window : timeline.iterations) {
    if (window.end_ns < window.start_ns) {
      ++counters.invalid_windows;
      continue;
    }
    windows.push_back(window);
  }
  std::stable_sort(windows.begin(), windows.end(),
                   [](const IterationWindow& a, const IterationWindow& b) { return a.start_ns < b.start_ns; });
  const std::size_t window_count = windows.size();
  std::unordered_map<std::int64_t, std::size_t> window_by_index;  // emplace keeps the first in start order
  window_by_index.reserve(window_count);
  for (std::size_t w = 0; w < window_count; ++w) window_by_index.emplace(windows[w].index, w);
  // The window with the greatest start <= t, if t < its end (windows are half-open [start, end)).
  const auto by_time = [&](std::int64_t t) -> std::size_t {
    auto it = std::upper_bound(windows.begin(), windows.end(), t,
                               [](std::int64_t value, const IterationWindow& w) { return value < w.start_ns; });
    if (it == windows.begin()) return kNoIndex;
    --it;
    return t < it->end_ns ? static_cast<std::size_t>(it - windows.begin()) : kNoIndex;
  };

  // Launch calls: their window, and the canonical call per correlation (earliest start, then first).
  launch_window.assign(timeline.launches.size(), kNoIndex);
  window_launches.resize(window_count);
  std::unordered_map<std::uint64_t, std::size_t> launch_by_correlation;
  launch_by_correlation.reserve(timeline.launches.size());
  for (std::size_t l = 0; l < timeline.launches.size(); ++l) {
    const LaunchCall& launch = timeline.launches[l];
    std::size_t pos = kNoIndex;
    if (launch.iteration) {
      const auto found = window_by_index.find(*launch.iteration);
      if (found != window_by_index.end()) pos = found->second;
    } else {
      pos = by_time(launch.start_ns);
    }
    launch_window[l] = pos;
    if (pos == kNoIndex) {
      ++counters.launches_outside_iterations;
    } else {
      window_launches[pos].push_back(l);
    }
    const auto [it, inserted] = launch_by_correlation.emplace(launch.correlation, l);
    if (!inserted) {
      ++counters.duplicate_launch_correlations;
      if (launch.start_ns < timeline.launches[it->second].start_ns) it->second = l;
    }
  }

  // Device ops: drop untimed ones, attribute the rest to a window (their launch call's, else by time).
  ops.reserve(timeline.ops.size());
  std::vector<std::size_t> op_window;  // per entry of `ops`
  op_window.reserve(timeline.ops.size());
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
    AttributedOp entry{op.start_ns, op.end_ns, StreamKey{op.device, op.stream}, std::nullopt, kNoIndex, i};
    std::size_t pos = kNoIndex;
    const auto found = launch_by_correlation.find(op.correlation);
    if (found != launch_by_correlation.end()) {
      entry.launch = found->second;
      entry.launch_start_ns = timeline.launches[found->second].start_ns;
      pos = launch_window[found->second];
    } else {
      if (timeline.ops_have_launches) ++counters.ops_without_launch;
      pos = by_time(op.start_ns);
    }
    if (pos == kNoIndex) {
      ++counters.ops_outside_iterations;
      continue;
    }
    ++window_op_counts[pos];
    ops.push_back(entry);
    op_window.push_back(pos);
  }

  for (const AttributedOp& op : ops) streams.push_back(op.stream);
  std::sort(streams.begin(), streams.end());
  streams.erase(std::unique(streams.begin(), streams.end()), streams.end());

  // Group by window (counting sort), then sort each group by (start, end).
  m_window_begin.assign(window_count + 1, 0);
  for (std::size_t w = 0; w < window_count; ++w) m_window_begin[w + 1] = m_window_begin[w] + window_op_counts[w];
  m_by_window.resize(ops.size());
  {
    std::vector<std::size_t> fill(m_window_begin.begin(), m_window_begin.end() - 1);
    for (std::size_t t = 0; t < ops.size(); ++t) m_by_window[fill[op_window[t]]++] = &ops[t];
  }
  for (std::size_t w = 0; w < window_count; ++w) {
    std::sort(m_by_window.begin() + static_cast<std::ptrdiff_t>(m_window_begin[w]),
              m_by_window.begin() + static_cast<std::ptrdiff_t>(m_window_begin[w + 1]), ByStart{});
  }

  // Group by (window, stream): a stable counting sort of the sorted groups keeps each one sorted.
  const std::size_t stream_count = streams.size();
  std::vector<std::size_t> group(m_by_window.size());
  m_stream_begin.assign(window_count * stream_count + 1, 0);
  for (std::size_t w = 0; w < window_count; ++w) {
    for (std::size_t k = m_window_begin[w]; k < m_window_begin[w + 1]; ++k) {
      const auto s = static_cast<std::size_t>(std::lower_bound(streams.begin(), streams.end(), m_by_window[k]->stream) -
                                              streams.begin());
      group[k] = w * stream_count + s;
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

std::span<const AttributedOp* const> WindowAttribution::ops_of(std::size_t window) const {
  return {m_by_window.data() + m_window_begin[window], m_window_begin[window + 1] - m_window_begin[window]};
}

std::span<const AttributedOp* const> WindowAttribution::ops_of(std::size_t window, std::size_t stream) const {
  const std::size_t g = window * streams.size() + stream;
  return {m_by_stream.data() + m_stream_begin[g], m_stream_begin[g + 1] - m_stream_begin[g]};
}

std::vector<SplitSegment> tile_window(std::span<const AttributedOp* const> ops, std::int64_t window_start,
                                      std::int64_t window_end) {
  std::vector<SplitSegment> segments;
  tile_window(ops, window_start, window_end, [&](const SplitSegment& segment) { segments.push_back(segment); });
  return segments;
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

// Busy/idle split of `ops` (sorted by (start, end)) in the window: the sums of its segments.
BusySplit split_window(std::span<const AttributedOp* const> ops, std::int64_t window_start, std::int64_t window_end) {
  BusySplit split;
  split.ops = ops.size();
  tile_window(ops, window_start, window_end, [&](const SplitSegment& segment) {
    const std::int64_t length = segment.end_ns - segment.start_ns;
    switch (segment.kind) {
      case SplitSegmentKind::head: split.idle.head_ns += length; break;
      case SplitSegmentKind::busy: split.busy_ns += length; break;
      case SplitSegmentKind::host_bound: split.idle.host_bound_ns += length; break;
      case SplitSegmentKind::other: split.idle.other_ns += length; break;
      case SplitSegmentKind::tail: split.idle.tail_ns += length; break;
    }
  });
  split.idle_ns = (window_end - window_start) - split.busy_ns;
  split.spill_ns =
      union_length(ops, [](const AttributedOp* op) { return std::pair{op->start_ns, op->end_ns}; }) - split.busy_ns;
  return split;
}

BusySplitSummary summarize_splits(const std::vector<const BusySplit*>& splits) {
  std::vector<std::int64_t> busy, idle, head, host_bound, other, tail, spill;
  for (const BusySplit* s : splits) {
    busy.push_back(s->busy_ns);
    idle.push_back(s->idle_ns);
    head.push_back(s->idle.head_ns);
    host_bound.push_back(s->idle.host_bound_ns);
    other.push_back(s->idle.other_ns);
    tail.push_back(s->idle.tail_ns);
    spill.push_back(s->spill_ns);
  }
  BusySplitSummary summary;
  summary.busy_ns = summarize_ns(busy);
  summary.idle_ns = summarize_ns(idle);
  summary.head_ns = summarize_ns(head);
  summary.host_bound_ns = summarize_ns(host_bound);
  summary.other_ns = summarize_ns(other);
  summary.tail_ns = summarize_ns(tail);
  summary.spill_ns = summarize_ns(spill);
  return summary;
}

SampleSummary summarize_counts(const std::vector<std::size_t>& counts) {
  std::vector<double> values(counts.begin(), counts.end());
  return summarize(values);
}

BreakdownSummary summarize_iterations(const std::vector<IterationBreakdown>& iterations) {
  BreakdownSummary summary;
  std::vector<std::int64_t> wall, dispatch, launch_api, framework, delays;
  std::vector<std::size_t> launches, graph_launches, gpu_ops;
  std::vector<const BusySplit*> gpu;
  for (const auto& it : iterations) {
    wall.push_back(it.wall_ns);
    gpu.push_back(&it.gpu);
    if (it.dispatch_ns) dispatch.push_back(*it.dispatch_ns);
    launch_api.push_back(it.launch_api_ns);
    if (it.framework_ns) framework.push_back(*it.framework_ns);
    launches.push_back(it.launches);
    graph_launches.push_back(it.graph_launches);
    gpu_ops.push_back(it.gpu_ops);
    delays.insert(delays.end(), it.queue_delays_ns.begin(), it.queue_delays_ns.end());
    summary.queue_delays_clipped += it.queue_delays_clipped;
  }
  summary.wall_ns = summarize_ns(wall);
  summary.gpu = summarize_splits(gpu);
  summary.dispatch_ns = summarize_ns(dispatch);
  summary.launch_api_ns = summarize_ns(launch_api);
  summary.framework_ns = summarize_ns(framework);
  summary.launches = summarize_counts(launches);
  summary.graph_launches = summarize_counts(graph_launches);
  summary.gpu_ops = summarize_counts(gpu_ops);
  summary.queue_delay_ns = summarize_ns(delays);
  if (!iterations.empty()) {
    const auto& streams = iterations.front().streams;
    for (std::size_t s = 0; s < streams.size(); ++s) {
      std::vector<const BusySplit*> per_stream;
      per_stream.reserve(iterations.size());
      for (const auto& it : iterations) per_stream.push_back(&it.streams[s].split);
      summary.streams.push_back(StreamSummary{streams[s].key, summarize_splits(per_stream)});
    }
  }
  return summary;
}

using KernelKey = std::pair<int, std::string>;  // (DeviceOpKind, name)

}  // namespace

PathBreakdown analyze_timeline(const Timeline& timeline) {
  PathBreakdown result;
  result.collection_counters = timeline.counters;
  const WindowAttribution attribution(timeline);
  result.analysis_counters = attribution.counters;
  const auto& windows = attribution.windows;
  const std::size_t window_count = windows.size();

  // Per launch call: the start of its first timed op (ops only join launch calls of a window).
  std::vector<std::int64_t> first_op_start(timeline.launches.size(), std::numeric_limits<std::int64_t>::max());
  for (const AttributedOp& op : attribution.ops) {
    if (op.launch != kNoIndex) first_op_start[op.launch] = std::min(first_op_start[op.launch], op.start_ns);
  }

  result.iterations.reserve(window_count);
  for (std::size_t w = 0; w < window_count; ++w) {
    const IterationWindow& window = windows[w];
    IterationBreakdown it;
    it.index = window.index;
    it.start_ns = window.start_ns;
    it.end_ns = window.end_ns;
    it.wall_ns = window.end_ns - window.start_ns;

    const auto ops = attribution.ops_of(w);
    it.gpu = split_window(ops, window.start_ns, window.end_ns);
    it.gpu_ops = ops.size();
    it.streams.reserve(attribution.streams.size());
    for (std::size_t s = 0; s < attribution.streams.size(); ++s) {
      it.streams.push_back(
          StreamSplit{attribution.streams[s], split_window(attribution.ops_of(w, s), window.start_ns, window.end_ns)});
    }

    // Host side.
    const auto& launches = attribution.window_launches[w];
    it.launches = launches.size();
    if (!launches.empty()) {
      std::int64_t last_end = std::numeric_limits<std::int64_t>::min();
      std::vector<std::pair<std::int64_t, std::int64_t>> intervals;
      intervals.reserve(launches.size());
      for (std::size_t l : launches) {
        const LaunchCall& launch = timeline.launches[l];
        if (launch.kind == LaunchKind::graph) ++it.graph_launches;
        last_end = std::max(last_end, launch.end_ns);
        intervals.emplace_back(launch.start_ns, launch.end_ns);
        if (first_op_start[l] != std::numeric_limits<std::int64_t>::max()) {
          const std::int64_t delay = first_op_start[l] - launch.end_ns;
          if (delay < 0) ++it.queue_delays_clipped;
          it.queue_delays_ns.push_back(std::max<std::int64_t>(delay, 0));
        }
      }
      const std::int64_t dispatch_end = std::clamp(last_end, window.start_ns, window.end_ns);
      it.dispatch_ns = dispatch_end - window.start_ns;
      std::sort(intervals.begin(), intervals.end());
      it.launch_api_ns = union_length(
          intervals, [](const std::pair<std::int64_t, std::int64_t>& i) { return i; }, window.start_ns, window.end_ns);
      it.framework_ns = *it.dispatch_ns - it.launch_api_ns;
    } else if (!timeline.ops_have_launches) {
      // CPU runs: the host runs the kernels itself; dispatch is the rest of the wall time (all of it
      // framework: there is no launch API), and queue delays do not exist.
      it.dispatch_ns = it.gpu.idle_ns;
      it.launch_api_ns = 0;
      it.framework_ns = it.gpu.idle_ns;
    }
    result.iterations.push_back(std::move(it));
  }

  // Per-kernel table over the ops attributed to iterations (names viewed, not copied, per op).
  std::unordered_map<std::string_view, std::size_t> kernel_rows[3];  // per DeviceOpKind
  for (const AttributedOp& attributed : attribution.ops) {
    const DeviceOp& op = timeline.ops[attributed.source];
    auto& rows = kernel_rows[static_cast<std::size_t>(op.kind) % 3];
    const auto [row, inserted] = rows.emplace(std::string_view(op.name), result.kernels.size());
    if (inserted) {
      result.kernels.emplace_back();
      result.kernels.back().kind = op.kind;
      result.kernels.back().name = op.name;
    }
    KernelStat& stat = result.kernels[row->second];
    ++stat.count;
    stat.total_ns += op.end_ns - op.start_ns;
  }
  for (KernelStat& stat : result.kernels) {
    stat.mean_ns = static_cast<double>(stat.total_ns) / static_cast<double>(stat.count);
    stat.count_per_iteration =
        window_count == 0 ? 0.0 : static_cast<double>(stat.count) / static_cast<double>(window_count);
  }
  std::sort(result.kernels.begin(), result.kernels.end(), [](const KernelStat& a, const KernelStat& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.name < b.name;
  });

  result.summary = summarize_iterations(result.iterations);
  result.summary.cpu_kernels = !timeline.ops_have_launches;
  result.verdict = decide_verdict(result.summary);
  return result;
}

PathVerdict decide_verdict(const BreakdownSummary& summary) {
  PathVerdict out;
  if (summary.wall_ns.count == 0) {
    out.suggestion = "no iterations were analysed";
    return out;
  }
  const BusySplitSummary& gpu = summary.gpu;
  if (gpu.busy_ns.max <= 0) {
    out.suggestion = "no device work was recorded inside the iterations";
    return out;
  }
  const double busy = gpu.busy_ns.median;
  const double host_bound = gpu.host_bound_ns.median;
  const bool dispatch_rule = summary.dispatch_ns.count > 0 && summary.dispatch_ns.median >= busy;
  const bool host_bound_rule = host_bound > 0 && host_bound >= busy && host_bound >= gpu.head_ns.median &&
                               host_bound >= gpu.other_ns.median && host_bound >= gpu.tail_ns.median;
  const double wall = summary.wall_ns.median;
  const double busy_percent = wall > 0 ? 100.0 * busy / wall : 0.0;
  if (dispatch_rule || host_bound_rule) {
    out.verdict = Verdict::overhead_bound;
    out.rule = dispatch_rule ? VerdictRule::dispatch_exceeds_busy : VerdictRule::host_bound_largest;
    if (summary.cpu_kernels) {
      out.suggestion = fmt::format(
          "CPU kernels busy {:.1f}% of wall; the rest is host work around them (Python wrapper, guards, "
          "allocation, operator dispatch): AOTInductor's C++ wrapper (or compile:cpp-wrapper) removes most of "
          "it; a larger batch amortizes it",
          busy_percent);
    } else if (summary.graph_launches.median > 0) {
      out.suggestion = fmt::format(
          "GPU busy {:.1f}% of wall even with CUDA graphs: a larger batch amortizes the per-call host "
          "overhead; AOTInductor removes the Python-side guards and wrappers",
          busy_percent);
    } else if (summary.launches.median <= 1) {
      out.suggestion = fmt::format(
          "GPU busy {:.1f}% of wall with {:g} launch per iteration, so the host time is framework overhead "
          "around it: AOTInductor removes the Python-side guards and wrappers; a larger batch amortizes it",
          busy_percent, summary.launches.median);
    } else {
      out.suggestion = fmt::format(
          "GPU busy {:.1f}% of wall, {:g} launches per iteration: CUDA graphs (torch.compile "
          "mode=\"reduce-overhead\") replay them in one launch; AOTInductor removes Python dispatch; a larger "
          "batch amortizes the overhead",
          busy_percent, summary.launches.median);
    }
    return out;
  }
  out.verdict = Verdict::compute_bound;
  out.rule = VerdictRule::compute;
  if (summary.cpu_kernels) {
    out.suggestion = fmt::format(
        "CPU kernels busy {:.1f}% of wall: speed up the kernels (torch.compile mode=\"max-autotune\", more "
        "threads, lower precision), not the dispatch",
        busy_percent);
    return out;
  }
  out.suggestion = fmt::format(
      "GPU busy {:.1f}% of wall and host overhead hidden behind GPU work: speed up the kernels "
      "(torch.compile mode=\"max-autotune\", lower precision), not the dispatch",
      busy_percent);
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
