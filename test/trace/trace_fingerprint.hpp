#pragma once
// A trace reading as text, every field the reader fills: two readings agree when their fingerprints are
// equal. Used where the window and the general parser are compared (kineto_reader_test.cpp, the fuzz
// target).
#include <fmt/format.h>

#include <string>

#include "ohprof/trace/kineto_reader.hpp"

namespace ohprof {

// Everything a read gives, as text: two readings agree when their fingerprints are equal.
inline std::string fingerprint(const Result<KinetoTrace>& read) {
  if (!read.ok()) return fmt::format("error {} {}", static_cast<int>(read.error().code), read.error().message);
  const KinetoTrace& t = *read;
  std::string out;
  const auto line = [&](const auto&... parts) {
    ((out += fmt::format("{} ", parts)), ...);
    out += '\n';
  };
  const Timeline& tl = t.timeline;
  for (const DeviceOp& op : tl.ops) {
    line("op", static_cast<int>(op.kind), op.start_ns, op.end_ns, op.device, op.stream, op.correlation, op.graph_id,
         op.bytes, op.name, op.communication);
  }
  for (const LaunchCall& c : tl.launches) {
    line("launch", static_cast<int>(c.kind), c.start_ns, c.end_ns, c.thread_id, c.correlation, c.synchronous,
         c.iteration.value_or(-1), c.name);
  }
  for (const SyncCall& c : tl.syncs) line("sync", c.start_ns, c.end_ns, c.thread_id, c.name, c.harness);
  for (const ApiCall& c : tl.api_calls) line("api", c.start_ns, c.end_ns, c.thread_id, c.name);
  for (const IterationWindow& w : tl.iterations) line("window", w.index, w.start_ns, w.end_ns);
  for (const EventCount& e : tl.unread_device_events) line("unread", e.category, e.events);
  line("timeline", tl.ops_have_launches, tl.whole_recording_window, tl.counters.dropped_records,
       tl.counters.ops_without_timestamps, tl.counters.ops_without_launch, tl.counters.skipped_events);
  for (const Warning& w : t.warnings) line("warning", to_string(w.code), w.message);
  line("trace", t.iterations_from_profiler_steps, t.device_name, t.device_index, t.accelerator_ops,
       t.recorded_start_ns, t.recorded_end_ns, t.max_numeric_pid);
  if (t.distributed) {
    line("distributed", t.distributed->rank.value_or(-1), t.distributed->world_size.value_or(-1), t.distributed->backend);
  }
  const KinetoReadStats& s = t.stats;
  line("stats", s.events, s.kept, s.ignored, s.unknown_category, s.invalid, s.json_bytes, s.file_bytes, s.compressed);
  for (const EventCount& e : s.ignored_by_category) line("ignored", e.category, e.events);
  return out;
}

}  // namespace ohprof
