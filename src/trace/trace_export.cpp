#include "ohprof/trace/trace_export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <limits>
#include <unordered_map>

#include "ohprof/trace/gzip_file.hpp"

namespace ohprof {

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

namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

// ---- the segments: the analysis's attribution and gap rule (docs/metrics.md), as intervals ----------

struct OpRef {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  StreamKey stream;
  std::optional<std::int64_t> launch_start_ns;
};

// Tiles [lo, hi) with head, busy, gap and tail segments for `ops` sorted by (start, end).
SplitTrack tile_window(const std::vector<const OpRef*>& ops, std::int64_t lo, std::int64_t hi) {
  SplitTrack track;
  auto& out = track.segments;
  const auto emit = [&](SplitSegmentKind kind, std::int64_t start, std::int64_t end) {
    if (end > start) out.push_back(SplitSegment{kind, start, end});
  };
  bool have = false;
  std::int64_t busy_start = 0;
  std::int64_t busy_end = 0;
  std::size_t gap_index = kNone;  // the segment of the gap before the current busy interval
  for (const OpRef* op : ops) {
    const std::int64_t start = std::max(op->start_ns, lo);
    const std::int64_t end = std::min(op->end_ns, hi);
    if (end <= start) continue;
    const bool launched_after = op->launch_start_ns.has_value();
    if (!have) {
      have = true;
      emit(SplitSegmentKind::head, lo, start);
      busy_start = start;
      busy_end = end;
    } else if (start > busy_end) {
      emit(SplitSegmentKind::busy, busy_start, busy_end);
      const bool host_bound = launched_after && *op->launch_start_ns >= busy_end;
      out.push_back(SplitSegment{host_bound ? SplitSegmentKind::host_bound : SplitSegmentKind::other, busy_end, start});
      gap_index = out.size() - 1;
      busy_start = start;
      busy_end = end;
    } else {
      // Another op starting exactly where the interval after a gap starts must also have been
      // launched after the gap for the gap to be host-bound.
      if (gap_index != kNone && start == busy_start && out[gap_index].end_ns == busy_start &&
          !(launched_after && *op->launch_start_ns >= out[gap_index].start_ns)) {
        out[gap_index].kind = SplitSegmentKind::other;
      }
      busy_end = std::max(busy_end, end);
    }
  }
  if (have) {
    emit(SplitSegmentKind::busy, busy_start, busy_end);
    emit(SplitSegmentKind::tail, busy_end, hi);
  } else {
    emit(SplitSegmentKind::head, lo, hi);
  }
  return track;
}

}  // namespace

std::vector<WindowSplitTracks> build_split_tracks(const Timeline& timeline) {
  // Windows: valid ones, stably sorted by start (docs/metrics.md, "Which records are used").
  std::vector<IterationWindow> windows;
  for (const auto& window : timeline.iterations) {
    if (window.end_ns >= window.start_ns) windows.push_back(window);
  }
  std::stable_sort(windows.begin(), windows.end(),
                   [](const IterationWindow& a, const IterationWindow& b) { return a.start_ns < b.start_ns; });
  const auto by_time = [&](std::int64_t t) -> std::size_t {
    auto it = std::upper_bound(windows.begin(), windows.end(), t,
                               [](std::int64_t value, const IterationWindow& w) { return value < w.start_ns; });
    if (it == windows.begin()) return kNone;
    --it;
    return t < it->end_ns ? static_cast<std::size_t>(it - windows.begin()) : kNone;
  };
  const auto by_index = [&](std::int64_t index) -> std::size_t {
    for (std::size_t w = 0; w < windows.size(); ++w) {
      if (windows[w].index == index) return w;
    }
    return kNone;
  };

  // Launch calls: their window, and the one ops join to per correlation (earliest start, then first).
  std::unordered_map<std::uint64_t, std::size_t> launch_of;
  launch_of.reserve(timeline.launches.size());
  std::vector<std::size_t> launch_window(timeline.launches.size(), kNone);
  for (std::size_t l = 0; l < timeline.launches.size(); ++l) {
    const LaunchCall& call = timeline.launches[l];
    launch_window[l] = call.iteration ? by_index(*call.iteration) : by_time(call.start_ns);
    const auto [it, inserted] = launch_of.emplace(call.correlation, l);
    if (!inserted && call.start_ns < timeline.launches[it->second].start_ns) it->second = l;
  }

  // Timed ops attributed to a window.
  std::vector<OpRef> refs;
  std::vector<std::size_t> ref_window;
  refs.reserve(timeline.ops.size());
  for (const DeviceOp& op : timeline.ops) {
    if ((op.start_ns == 0 && op.end_ns == 0) || op.end_ns < op.start_ns) continue;
    OpRef ref{op.start_ns, op.end_ns, StreamKey{op.device, op.stream}, std::nullopt};
    std::size_t window = kNone;
    if (const auto found = launch_of.find(op.correlation); found != launch_of.end()) {
      ref.launch_start_ns = timeline.launches[found->second].start_ns;
      window = launch_window[found->second];
    } else {
      window = by_time(op.start_ns);
    }
    if (window == kNone) continue;
    refs.push_back(ref);
    ref_window.push_back(window);
  }

  std::vector<StreamKey> streams;
  for (const OpRef& ref : refs) streams.push_back(ref.stream);
  std::sort(streams.begin(), streams.end());
  streams.erase(std::unique(streams.begin(), streams.end()), streams.end());

  std::vector<std::vector<const OpRef*>> per_window(windows.size());
  for (std::size_t r = 0; r < refs.size(); ++r) per_window[ref_window[r]].push_back(&refs[r]);

  std::vector<WindowSplitTracks> result;
  result.reserve(windows.size());
  for (std::size_t w = 0; w < windows.size(); ++w) {
    auto& ops = per_window[w];
    std::sort(ops.begin(), ops.end(), [](const OpRef* a, const OpRef* b) {
      return a->start_ns != b->start_ns ? a->start_ns < b->start_ns : a->end_ns < b->end_ns;
    });
    WindowSplitTracks tracks;
    tracks.index = windows[w].index;
    tracks.start_ns = windows[w].start_ns;
    tracks.end_ns = windows[w].end_ns;
    tracks.gpu = tile_window(ops, tracks.start_ns, tracks.end_ns);
    for (const StreamKey& key : streams) {
      std::vector<const OpRef*> mine;
      for (const OpRef* op : ops) {
        if (op->stream == key) mine.push_back(op);
      }
      SplitTrack track = tile_window(mine, tracks.start_ns, tracks.end_ns);
      track.stream = key;
      tracks.streams.push_back(std::move(track));
    }
    result.push_back(std::move(tracks));
  }
  return result;
}

// ---- writing the trace back ---------------------------------------------------------------------

namespace {

// Integer nanoseconds as the trace's microseconds, exactly: 1234567 -> "1234.567".
std::string us_text(std::int64_t ns) {
  const bool negative = ns < 0;
  const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
  return fmt::format("{}{}.{:03d}", negative ? "-" : "", magnitude / 1000, magnitude % 1000);
}

// Writes the added events to the output as they are made, through a small buffer.
class EventWriter {
 public:
  EventWriter(std::int64_t pid, GzipOutputFile& output) : m_pid(pid), m_output(output) {}
  ~EventWriter() { flush(); }
  EventWriter(const EventWriter&) = delete;
  EventWriter& operator=(const EventWriter&) = delete;

  void metadata(const char* what, std::int64_t tid, const std::string& args) {
    separator();
    fmt::format_to(std::back_inserter(m_text), R"({{"ph": "M", "name": "{}", "pid": {}, "tid": {}, "args": {}}})", what,
                   m_pid, tid, args);
  }

  void slice(std::int64_t tid, const char* name, std::int64_t start_ns, std::int64_t end_ns, const std::string& args) {
    separator();
    fmt::format_to(std::back_inserter(m_text),
                   R"({{"ph": "X", "cat": "ohprof", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {}}})",
                   name, m_pid, tid, us_text(start_ns), us_text(end_ns - start_ns), args);
  }

  void flush() {
    m_output.write(m_text);
    m_text.clear();
  }

 private:
  void separator() {
    if (m_any) m_text += ",\n";
    m_any = true;
    if (m_text.size() >= 64 * 1024) flush();
  }
  std::int64_t m_pid;
  GzipOutputFile& m_output;
  std::string m_text;
  bool m_any = false;
};

std::string split_args(const BusySplit& split) {
  return fmt::format(
      R"({{"busy_ns": {}, "idle_ns": {}, "head_ns": {}, "host_bound_ns": {}, "other_ns": {}, "tail_ns": {}, "spill_ns": {}, "ops": {}}})",
      split.busy_ns, split.idle_ns, split.idle.head_ns, split.idle.host_bound_ns, split.idle.other_ns,
      split.idle.tail_ns, split.spill_ns, split.ops);
}

// Writes the added events, without a leading comma.
void write_split_events(const KinetoTrace& trace, const PathBreakdown& split, GzipOutputFile& output) {
  const std::int64_t pid = trace.max_numeric_pid + 1;
  EventWriter writer(pid, output);
  const std::vector<WindowSplitTracks> windows = build_split_tracks(trace.timeline);
  std::vector<StreamKey> streams;
  if (!windows.empty()) {
    for (const auto& track : windows.front().streams) streams.push_back(*track.stream);
  }
  constexpr std::int64_t kIterationTid = 0;
  constexpr std::int64_t kGpuTid = 1;
  writer.metadata("process_name", 0, R"({"name": "ohprof: GPU time split"})");
  writer.metadata("process_sort_index", 0, R"({"sort_index": -1})");
  writer.metadata("thread_name", kIterationTid, R"({"name": "iterations"})");
  writer.metadata("thread_sort_index", kIterationTid, R"({"sort_index": 0})");
  writer.metadata("thread_name", kGpuTid, R"J({"name": "GPU (all streams)"})J");
  writer.metadata("thread_sort_index", kGpuTid, R"({"sort_index": 1})");
  for (std::size_t s = 0; s < streams.size(); ++s) {
    const auto tid = static_cast<std::int64_t>(2 + s);
    writer.metadata("thread_name", tid,
                    fmt::format(R"({{"name": "GPU {} stream {}"}})", streams[s].device, streams[s].stream));
    writer.metadata("thread_sort_index", tid, fmt::format(R"({{"sort_index": {}}})", tid));
  }
  for (std::size_t w = 0; w < windows.size(); ++w) {
    const WindowSplitTracks& window = windows[w];
    std::string args = "{}";
    if (w < split.iterations.size()) args = split_args(split.iterations[w].gpu);
    writer.slice(kIterationTid, window.index >= 0 ? "iteration" : "window", window.start_ns, window.end_ns, args);
    for (const auto& segment : window.gpu.segments) {
      writer.slice(kGpuTid, to_string(segment.kind), segment.start_ns, segment.end_ns, "{}");
    }
    for (std::size_t s = 0; s < window.streams.size(); ++s) {
      for (const auto& segment : window.streams[s].segments) {
        writer.slice(static_cast<std::int64_t>(2 + s), to_string(segment.kind), segment.start_ns, segment.end_ns, "{}");
      }
    }
  }
}

// Streams the input to the output, calling `write_extra` (events without a leading comma) at the end
// of the traceEvents array. A small scanner follows strings and nesting to find that array's ']'.
template <typename WriteExtra>
Status copy_with_events(GzipInputBuffer& input, GzipOutputFile& output, const WriteExtra& write_extra,
                        const std::string& input_path) {
  constexpr std::size_t kChunk = 256 * 1024;
  std::string buffer(kChunk, '\0');
  std::size_t depth = 0;
  std::size_t events_depth = 0;  // depth inside the traceEvents array while scanning it
  bool inserted = false;
  bool events_nonempty = false;
  bool in_string = false;
  bool escape = false;
  std::string string_text;  // the current string at depth 1 (object keys), first bytes only
  std::string last_string;
  std::string last_key;
  constexpr std::size_t kKeyLimit = 16;
  while (true) {
    const std::streamsize got = input.sgetn(buffer.data(), static_cast<std::streamsize>(kChunk));
    if (got <= 0) break;
    const auto n = static_cast<std::size_t>(got);
    std::size_t flushed = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const char c = buffer[i];
      if (in_string) {
        if (escape) {
          escape = false;
        } else if (c == '\\') {
          escape = true;
        } else if (c == '"') {
          in_string = false;
          if (depth == 1) last_string = string_text;
        } else if (depth == 1 && string_text.size() <= kKeyLimit) {
          string_text += c;
        }
        continue;
      }
      const bool space = c == ' ' || c == '\n' || c == '\r' || c == '\t';
      if (!inserted && events_depth != 0 && depth == events_depth && !space && c != ']') events_nonempty = true;
      switch (c) {
        case '"':
          in_string = true;
          string_text.clear();
          break;
        case ':':
          if (depth == 1) last_key = last_string;
          break;
        case '[':
          ++depth;
          if (!inserted && events_depth == 0 && (depth == 1 || (depth == 2 && last_key == "traceEvents"))) {
            events_depth = depth;
          }
          break;
        case '{':
          ++depth;
          break;
        case ']':
          if (!inserted && events_depth != 0 && depth == events_depth) {
            output.write(std::string_view(buffer).substr(flushed, i - flushed));
            output.write(events_nonempty ? ",\n" : "\n");
            write_extra();
            output.write("\n");
            flushed = i;
            inserted = true;
          }
          --depth;
          break;
        case '}':
          --depth;
          break;
        default:
          break;
      }
    }
    output.write(std::string_view(buffer).substr(flushed, n - flushed));
  }
  if (input.error()) return *input.error();
  if (!inserted) {
    return make_error(ExitCode::invalid_trace,
                      fmt::format("'{}': no traceEvents array found when writing the trace back (did the file change?)",
                                  input_path));
  }
  return ok_status();
}

}  // namespace

Status export_trace_with_split(const std::string& input_path, const std::string& output_path, const KinetoTrace& trace,
                               const PathBreakdown& split) {
  auto input = GzipInputBuffer::open(input_path);
  if (!input.ok()) return input.error();
  auto output = GzipOutputFile::create(output_path);
  if (!output.ok()) return output.error();
  GzipOutputFile& out = **output;
  const auto write_extra = [&] { write_split_events(trace, split, out); };
  if (Status copied = copy_with_events(**input, out, write_extra, input_path); !copied.ok()) return copied;
  return (*output)->commit();
}

}  // namespace ohprof
