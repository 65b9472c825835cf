#include "ohprof/trace/trace_export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <string_view>
#include <unordered_map>

#include "ohprof/trace/gzip_file.hpp"
#include "ohprof_tags.hpp"

namespace ohprof {

std::vector<WindowSplitTracks> build_split_tracks(const Timeline& timeline) {
  const WindowAttribution attribution(timeline);
  std::vector<WindowTracks> tracks = window_tracks(attribution);
  std::vector<WindowSplitTracks> result;
  result.reserve(attribution.windows.size());
  for (std::size_t w = 0; w < attribution.windows.size(); ++w) {
    const IterationWindow& window = attribution.windows[w];
    result.push_back(WindowSplitTracks{window.index, window.start_ns, window.end_ns, std::move(tracks[w].gpu),
                                       std::move(tracks[w].streams), std::move(tracks[w].queue)});
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

// JSON string contents: quotes, backslashes and control characters escaped (names are copied as the
// collector or the trace had them).
std::string json_escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out += c;
        }
    }
  }
  return out;
}

// Writes events to the output as they are made, through a small buffer, a comma between two.
class EventWriter {
 public:
  explicit EventWriter(GzipOutputFile& output) : m_output(output) {}
  ~EventWriter() { flush(); }
  EventWriter(const EventWriter&) = delete;
  EventWriter& operator=(const EventWriter&) = delete;

  // Text outside the events (the document's head and tail).
  void raw(std::string_view text) {
    m_text += text;
    if (m_text.size() >= 64 * 1024) flush();
  }

  void event(std::string_view json) {
    if (m_any) m_text += ",\n";
    m_any = true;
    raw(json);
  }

  void metadata(std::int64_t pid, const char* what, std::int64_t tid, const std::string& args) {
    event(fmt::format(R"({{"ph": "M", "name": "{}", "pid": {}, "tid": {}, "args": {}}})", what, pid, tid, args));
  }

  void name(std::int64_t pid, const char* what, std::int64_t tid, std::string_view name) {
    metadata(pid, what, tid, fmt::format(R"({{"name": "{}"}})", json_escaped(name)));
  }

  void slice(const char* cat, std::string_view name, std::int64_t pid, std::int64_t tid, std::int64_t start_ns,
             std::int64_t end_ns, const std::string& args) {
    event(fmt::format(R"({{"ph": "X", "cat": "{}", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {}}})",
                      cat, json_escaped(name), pid, tid, us_text(start_ns), us_text(end_ns - start_ns), args));
  }

  // A counter track sample ("C" event): `value` from t_ns on.
  void counter(std::int64_t pid, const char* name, std::int64_t t_ns, std::int64_t value) {
    event(fmt::format(R"({{"ph": "C", "cat": "ohprof", "name": "{}", "pid": {}, "ts": {}, "args": {{"pending ops": {}}}}})",
                      name, pid, us_text(t_ns), value));
  }

  void flush() {
    m_output.write(m_text);
    m_text.clear();
  }

 private:
  GzipOutputFile& m_output;
  std::string m_text;
  bool m_any = false;
};

// An iteration's numbers; where its path's queue is open (device ops without a launch call), also the least
// its host-bound time can be (host_bound_ns, and the slices, are the most: docs/metrics.md).
std::string split_args(const IterationBreakdown& it) {
  const DeviceSplit& g = it.gpu;
  const HostStates& h = it.host_states;
  return fmt::format(
      R"({{"busy_ns": {}, "host_bound_ns": {}, "device_wait_ns": {}, "queue_max": {}, "own_ops": {}, "own_busy_ns": {}, "carried_out_ns": {}, "host_blocking_ns": {}, "host_launch_ns": {}, "host_other_api_ns": {}, "host_framework_ns": {}{}}})",
      g.busy_ns, g.host_bound_ns, g.device_wait_ns, g.queue_max, g.own_ops, g.own_busy_ns, g.carried_out_ns,
      h.blocking_ns, h.launch_ns, h.other_api_ns, h.framework_ns,
      it.host_bound_least_ns ? fmt::format(R"(, "host_bound_least_ns": {})", *it.host_bound_least_ns) : std::string());
}

// Writes the split's tracks as process `pid`, without a leading comma; `split` gives each window's
// numbers (args of its "iteration" slice), in window order; the tracks name the device by `device`'s noun
// (device_noun: "GPU", or "device").
void write_split_events(const Timeline& timeline, const std::vector<IterationBreakdown>& split, DeviceKind device,
                        std::int64_t pid, EventWriter& writer) {
  const char* noun = device_noun(device);
  const std::vector<WindowSplitTracks> windows = build_split_tracks(timeline);
  std::vector<StreamKey> streams;
  if (!windows.empty()) {
    for (const auto& track : windows.front().streams) streams.push_back(*track.stream);
  }
  constexpr std::int64_t kIterationTid = 0;
  constexpr std::int64_t kGpuTid = 1;
  writer.name(pid, "process_name", 0, fmt::format("ohprof: {} time split", noun));
  writer.metadata(pid, "process_sort_index", 0, R"({"sort_index": -1})");
  writer.metadata(pid, "thread_name", kIterationTid, R"({"name": "iterations"})");
  writer.metadata(pid, "thread_sort_index", kIterationTid, R"({"sort_index": 0})");
  writer.name(pid, "thread_name", kGpuTid, fmt::format("{} (all streams)", noun));
  writer.metadata(pid, "thread_sort_index", kGpuTid, R"({"sort_index": 1})");
  for (std::size_t s = 0; s < streams.size(); ++s) {
    const auto tid = static_cast<std::int64_t>(2 + s);
    writer.name(pid, "thread_name", tid, fmt::format("{} {} stream {}", noun, streams[s].device, streams[s].stream));
    writer.metadata(pid, "thread_sort_index", tid, fmt::format(R"({{"sort_index": {}}})", tid));
  }
  for (std::size_t w = 0; w < windows.size(); ++w) {
    const WindowSplitTracks& window = windows[w];
    std::string args = "{}";
    if (w < split.size()) args = split_args(split[w]);
    writer.slice("ohprof", window.index >= 0 ? "iteration" : "window", pid, kIterationTid, window.start_ns, window.end_ns, args);
    for (const auto& segment : window.gpu.segments) {
      writer.slice("ohprof", to_string(segment.kind), pid, kGpuTid, segment.start_ns, segment.end_ns, "{}");
    }
    for (const QueueSample& sample : window.queue) writer.counter(pid, "launch queue", sample.t_ns, sample.depth);
    if (!window.queue.empty()) writer.counter(pid, "launch queue", window.end_ns, 0);
    for (std::size_t s = 0; s < window.streams.size(); ++s) {
      for (const auto& segment : window.streams[s].segments) {
        writer.slice("ohprof", to_string(segment.kind), pid, static_cast<std::int64_t>(2 + s), segment.start_ns, segment.end_ns,
                     "{}");
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
  OHPROF_ASSIGN_OR_RETURN(auto input, GzipInputBuffer::open(input_path));
  OHPROF_ASSIGN_OR_RETURN(auto output, GzipOutputFile::create(output_path));
  GzipOutputFile& out = *output;
  const auto write_extra = [&] {
    EventWriter writer(out);
    write_split_events(trace.timeline, split.iterations, trace_device_kind(trace), trace.max_numeric_pid + 1, writer);
  };
  OHPROF_RETURN_IF_ERROR(copy_with_events(*input, out, write_extra, input_path));
  return output->commit();
}

// ---- a live run's timeline as a trace ----------------------------------------------------------

namespace {

const char* op_category(DeviceOpKind kind) {
  switch (kind) {
    case DeviceOpKind::kernel: return "kernel";
    case DeviceOpKind::memcpy: return "gpu_memcpy";
    case DeviceOpKind::memset: return "gpu_memset";
  }
  return "kernel";
}

// The trace's processes (never pid 0, which Perfetto takes for the kernel's): the iterations, the
// host's threads, the split's tracks, then one per device (its streams, or a CPU run's threads).
constexpr std::int64_t kIterationsPid = 1;
constexpr std::int64_t kHostPid = 2;
constexpr std::int64_t kSplitPid = 3;
constexpr std::int64_t kDevicePidBase = 100;

}  // namespace

Status export_timeline_trace(const Timeline& timeline, const TimelineTraceNames& names, DeviceKind device,
                             const std::string& output_path) {
  OHPROF_ASSIGN_OR_RETURN(auto output, GzipOutputFile::create(output_path));
  GzipOutputFile& out = *output;
  const PathBreakdown split = analyze_timeline(timeline);
  {
    EventWriter writer(out);
    writer.raw(R"({"schemaVersion": 1, "displayTimeUnit": "ns", "deviceProperties": [)");
    std::vector<std::int32_t> devices;
    for (const DeviceOp& op : timeline.ops) {
      if (std::find(devices.begin(), devices.end(), op.device) == devices.end()) devices.push_back(op.device);
    }
    std::sort(devices.begin(), devices.end());
    if (timeline.ops_have_launches) {
      for (std::size_t d = 0; d < devices.size(); ++d) {
        writer.raw(fmt::format(R"({}{{"id": {}, "name": "{}"}})", d == 0 ? "" : ", ", devices[d], json_escaped(names.device_name)));
      }
    }
    writer.raw("],\n\"traceEvents\": [\n");
    writer.name(kIterationsPid, "process_name", 0, names.process + ": iterations");
    writer.name(kHostPid, "process_name", 0, names.process);
    for (const std::int32_t d : devices) {
      writer.name(kDevicePidBase + d, "process_name", 0,
                  timeline.ops_have_launches ? fmt::format("{} {}", device_noun(device), d) : std::string("CPU kernels"));
    }
    // the iterations, as the profiler's steps (the reader's windows), with their path and iteration
    for (const IterationWindow& w : timeline.iterations) {
      const std::int64_t path = w.index / kIterationsPerPath;
      const std::string path_name = path >= 0 && static_cast<std::size_t>(path) < names.paths.size()
                                        ? names.paths[static_cast<std::size_t>(path)]
                                        : std::string();
      writer.slice("user_annotation", fmt::format("ProfilerStep#{}", w.index), kIterationsPid, 1, w.start_ns, w.end_ns,
                   fmt::format(R"({{"path": "{}", "iteration": {}}})", json_escaped(path_name), w.index % kIterationsPerPath));
    }
    for (const LaunchCall& call : timeline.launches) {
      const std::string iteration = call.iteration ? fmt::format(R"(, "ohprof_iteration": {})", *call.iteration) : "";
      writer.slice("cuda_runtime", call.name, kHostPid, call.thread_id, call.start_ns, call.end_ns,
                   fmt::format(R"({{"correlation": {}, "ohprof_call": {}{}}})", call.correlation,
                               static_cast<std::int64_t>(launch_tag(call)), iteration));
    }
    for (const SyncCall& call : timeline.syncs) {
      const auto tag = call.harness ? OhprofCallTag::harness_sync : OhprofCallTag::sync;
      writer.slice("cuda_runtime", call.name, kHostPid, call.thread_id, call.start_ns, call.end_ns,
                   fmt::format(R"({{"ohprof_call": {}}})", static_cast<std::int64_t>(tag)));
    }
    for (const ApiCall& call : timeline.api_calls) {
      writer.slice("cuda_runtime", call.name, kHostPid, call.thread_id, call.start_ns, call.end_ns,
                   fmt::format(R"({{"ohprof_call": {}}})", static_cast<std::int64_t>(OhprofCallTag::api_call)));
    }
    // each op on its stream, and an arrow from its launch call to it (an id per op: a graph's ops share
    // their launch's correlation)
    std::unordered_map<std::uint64_t, const LaunchCall*> launch_of;
    for (const LaunchCall& call : timeline.launches) launch_of.emplace(call.correlation, &call);
    std::uint64_t flow = 0;
    for (const DeviceOp& op : timeline.ops) {
      const std::int64_t pid = kDevicePidBase + op.device;
      writer.slice(op_category(op.kind), op.name, pid, op.stream, op.start_ns, op.end_ns,
                   fmt::format(R"({{"device": {}, "stream": {}, "correlation": {}, "graph id": {}, "bytes": {}{}}})", op.device,
                               op.stream, op.correlation, op.graph_id, op.bytes,
                               timeline.ops_have_launches ? "" : R"(, "ohprof_cpu_kernel": 1)"));
      const auto launch = op.correlation != 0 ? launch_of.find(op.correlation) : launch_of.end();
      if (launch == launch_of.end()) continue;
      ++flow;
      writer.event(fmt::format(R"({{"ph": "s", "cat": "ac2g", "name": "ac2g", "id": {}, "pid": {}, "tid": {}, "ts": {}}})", flow,
                               kHostPid, launch->second->thread_id, us_text(launch->second->start_ns)));
      writer.event(fmt::format(R"({{"ph": "f", "bp": "e", "cat": "ac2g", "name": "ac2g", "id": {}, "pid": {}, "tid": {}, "ts": {}}})",
                               flow, pid, op.stream, us_text(op.start_ns)));
    }
    write_split_events(timeline, split.iterations, device, kSplitPid, writer);
    writer.raw("\n]}\n");
  }
  return out.commit();
}

}  // namespace ohprof
