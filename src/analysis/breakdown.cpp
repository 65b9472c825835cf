#include "ohprof/analysis/breakdown.hpp"

#include "ohprof/analysis/cpu_kernels.hpp"

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

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

// Iteration windows with end >= start, sorted by (start, position in the timeline).
class WindowIndex {
 public:
  WindowIndex(const std::vector<IterationWindow>& windows, AnalysisCounters& counters) {
    for (const auto& window : windows) {
      if (window.end_ns < window.start_ns) {
        ++counters.invalid_windows;
        continue;
      }
      m_windows.push_back(window);
    }
    std::stable_sort(m_windows.begin(), m_windows.end(),
                     [](const IterationWindow& a, const IterationWindow& b) { return a.start_ns < b.start_ns; });
    m_by_index.reserve(m_windows.size());
    for (std::size_t pos = 0; pos < m_windows.size(); ++pos) m_by_index.emplace(m_windows[pos].index, pos);
  }

  [[nodiscard]] const std::vector<IterationWindow>& windows() const { return m_windows; }

  // The window with the greatest start <= t, if t < its end (windows are half-open [start, end)).
  [[nodiscard]] std::size_t by_time(std::int64_t t) const {
    auto it = std::upper_bound(m_windows.begin(), m_windows.end(), t,
                               [](std::int64_t value, const IterationWindow& w) { return value < w.start_ns; });
    if (it == m_windows.begin()) return kNone;
    --it;
    if (t >= it->end_ns) return kNone;
    return static_cast<std::size_t>(it - m_windows.begin());
  }

  // The first window (in start order) whose IterationWindow::index is `index`.
  [[nodiscard]] std::size_t by_index(std::int64_t index) const {
    const auto it = m_by_index.find(index);
    return it == m_by_index.end() ? kNone : it->second;
  }

 private:
  std::vector<IterationWindow> m_windows;
  std::unordered_map<std::int64_t, std::size_t> m_by_index;  // emplace keeps the first
};

struct TimedOp {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  StreamKey stream;
  // Start of the op's launch call; empty when the op has no launch call in the data.
  std::optional<std::int64_t> launch_start_ns;
};

bool by_start(const TimedOp& a, const TimedOp& b) {
  return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns < b.end_ns;
}

// Busy/idle split of `ops` (sorted by start) in the window [window_start, window_end].
BusySplit split_window(const std::vector<const TimedOp*>& ops, std::int64_t window_start, std::int64_t window_end) {
  BusySplit split;
  split.ops = ops.size();
  const std::int64_t wall = window_end - window_start;

  // Union of the clipped intervals, classifying each gap by the ops that start the next interval.
  bool have_interval = false;
  std::int64_t current_start = 0;
  std::int64_t current_end = 0;
  std::int64_t busy = 0;
  bool gap_pending = false;      // the current interval was preceded by a gap not yet classified
  std::int64_t gap_ns = 0;
  std::int64_t gap_begin = 0;    // end of the busy interval before the gap
  bool gap_host_bound = false;
  const auto close_gap = [&] {
    if (!gap_pending) return;
    (gap_host_bound ? split.idle.host_bound_ns : split.idle.other_ns) += gap_ns;
    gap_pending = false;
  };
  const auto launched_after_gap = [&](const TimedOp& op) {
    return op.launch_start_ns.has_value() && *op.launch_start_ns >= gap_begin;
  };

  // Union of the unclipped intervals, for the spill.
  bool have_raw = false;
  std::int64_t raw_start = 0;
  std::int64_t raw_end = 0;
  std::int64_t raw_total = 0;

  for (const TimedOp* op : ops) {
    if (op->end_ns > op->start_ns) {
      if (!have_raw) {
        have_raw = true;
        raw_start = op->start_ns;
        raw_end = op->end_ns;
      } else if (op->start_ns > raw_end) {
        raw_total += raw_end - raw_start;
        raw_start = op->start_ns;
        raw_end = op->end_ns;
      } else {
        raw_end = std::max(raw_end, op->end_ns);
      }
    }

    const std::int64_t start = std::max(op->start_ns, window_start);
    const std::int64_t end = std::min(op->end_ns, window_end);
    if (end <= start) continue;  // zero length, or wholly outside the window
    if (!have_interval) {
      have_interval = true;
      split.idle.head_ns = start - window_start;
      current_start = start;
      current_end = end;
    } else if (start > current_end) {
      close_gap();
      busy += current_end - current_start;
      gap_pending = true;
      gap_ns = start - current_end;
      gap_begin = current_end;
      gap_host_bound = launched_after_gap(*op);
      current_start = start;
      current_end = end;
    } else {
      if (gap_pending && start == current_start) gap_host_bound = gap_host_bound && launched_after_gap(*op);
      current_end = std::max(current_end, end);
    }
  }
  close_gap();
  if (have_interval) {
    busy += current_end - current_start;
    split.idle.tail_ns = window_end - current_end;
  } else {
    split.idle.head_ns = wall;
  }
  if (have_raw) raw_total += raw_end - raw_start;

  split.busy_ns = busy;
  split.idle_ns = wall - busy;
  split.spill_ns = raw_total - busy;
  return split;
}

// Length of the union of [start, end) intervals clipped to [lo, hi]; `intervals` is sorted here.
std::int64_t clipped_union_length(std::vector<std::pair<std::int64_t, std::int64_t>>& intervals, std::int64_t lo,
                                  std::int64_t hi) {
  std::sort(intervals.begin(), intervals.end());
  std::int64_t total = 0;
  bool have = false;
  std::int64_t current_start = 0;
  std::int64_t current_end = 0;
  for (const auto& [raw_start, raw_end] : intervals) {
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

BusySplit idle_split_of_empty_window(std::int64_t wall) {
  BusySplit split;
  split.idle_ns = wall;
  split.idle.head_ns = wall;
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
  AnalysisCounters& counters = result.analysis_counters;
  result.collection_counters = timeline.counters;
  counters.ops_total = timeline.ops.size();
  counters.launches_total = timeline.launches.size();

  const WindowIndex index(timeline.iterations, counters);
  const auto& windows = index.windows();
  const std::size_t window_count = windows.size();

  // Launch calls: their window, and the canonical call per correlation (earliest start, then first).
  std::vector<std::size_t> launch_window(timeline.launches.size(), kNone);
  std::vector<std::vector<std::size_t>> window_launches(window_count);
  std::unordered_map<std::uint64_t, std::size_t> launch_by_correlation;
  launch_by_correlation.reserve(timeline.launches.size());
  for (std::size_t l = 0; l < timeline.launches.size(); ++l) {
    const LaunchCall& launch = timeline.launches[l];
    const std::size_t pos = launch.iteration ? index.by_index(*launch.iteration) : index.by_time(launch.start_ns);
    launch_window[l] = pos;
    if (pos == kNone) {
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

  // Device ops: drop untimed ones, attribute the rest to a window.
  std::vector<TimedOp> timed;
  std::vector<std::size_t> timed_window;
  std::vector<std::size_t> timed_source;  // index into timeline.ops
  timed.reserve(timeline.ops.size());
  std::vector<std::int64_t> first_op_start(timeline.launches.size(), std::numeric_limits<std::int64_t>::max());
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
    TimedOp entry{op.start_ns, op.end_ns, StreamKey{op.device, op.stream}, std::nullopt};
    std::size_t pos = kNone;
    const auto found = launch_by_correlation.find(op.correlation);
    if (found != launch_by_correlation.end()) {
      const std::size_t l = found->second;
      entry.launch_start_ns = timeline.launches[l].start_ns;
      pos = launch_window[l];
      if (pos != kNone) first_op_start[l] = std::min(first_op_start[l], op.start_ns);
    } else {
      if (timeline.ops_have_launches) ++counters.ops_without_launch;
      pos = index.by_time(op.start_ns);
    }
    if (pos == kNone) {
      ++counters.ops_outside_iterations;
      continue;
    }
    ++window_op_counts[pos];
    timed.push_back(entry);
    timed_window.push_back(pos);
    timed_source.push_back(i);
  }

  // Group the timed ops by window (counting sort), then sort each group by start.
  std::vector<std::size_t> group_begin(window_count + 1, 0);
  for (std::size_t w = 0; w < window_count; ++w) group_begin[w + 1] = group_begin[w] + window_op_counts[w];
  std::vector<const TimedOp*> grouped(timed.size());
  {
    std::vector<std::size_t> fill(group_begin.begin(), group_begin.end() - 1);
    for (std::size_t t = 0; t < timed.size(); ++t) grouped[fill[timed_window[t]]++] = &timed[t];
  }

  // Every stream that ran an op of any iteration.
  std::vector<StreamKey> stream_keys;
  for (const TimedOp& op : timed) stream_keys.push_back(op.stream);
  std::sort(stream_keys.begin(), stream_keys.end());
  stream_keys.erase(std::unique(stream_keys.begin(), stream_keys.end()), stream_keys.end());

  result.iterations.reserve(window_count);
  for (std::size_t w = 0; w < window_count; ++w) {
    const IterationWindow& window = windows[w];
    IterationBreakdown it;
    it.index = window.index;
    it.start_ns = window.start_ns;
    it.end_ns = window.end_ns;
    it.wall_ns = window.end_ns - window.start_ns;

    std::vector<const TimedOp*> ops(grouped.begin() + static_cast<std::ptrdiff_t>(group_begin[w]),
                                    grouped.begin() + static_cast<std::ptrdiff_t>(group_begin[w + 1]));
    std::sort(ops.begin(), ops.end(), [](const TimedOp* a, const TimedOp* b) { return by_start(*a, *b); });
    it.gpu = split_window(ops, window.start_ns, window.end_ns);
    it.gpu_ops = ops.size();

    // Per stream: a stable partition of the start-sorted ops keeps each stream's ops sorted.
    std::stable_sort(ops.begin(), ops.end(), [](const TimedOp* a, const TimedOp* b) { return a->stream < b->stream; });
    it.streams.reserve(stream_keys.size());
    std::size_t cursor = 0;
    for (const StreamKey& key : stream_keys) {
      std::size_t stop = cursor;
      while (stop < ops.size() && ops[stop]->stream == key) ++stop;
      if (stop == cursor) {
        it.streams.push_back(StreamSplit{key, idle_split_of_empty_window(it.wall_ns)});
      } else {
        const std::vector<const TimedOp*> stream_ops(ops.begin() + static_cast<std::ptrdiff_t>(cursor),
                                                     ops.begin() + static_cast<std::ptrdiff_t>(stop));
        it.streams.push_back(StreamSplit{key, split_window(stream_ops, window.start_ns, window.end_ns)});
      }
      cursor = stop;
    }

    // Host side.
    const auto& launches = window_launches[w];
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
      it.launch_api_ns = clipped_union_length(intervals, window.start_ns, window.end_ns);
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
  for (std::size_t t = 0; t < timed.size(); ++t) {
    const DeviceOp& op = timeline.ops[timed_source[t]];
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
