// libFuzzer target: arbitrary bytes through the trace reader and the analysis. Whatever the input, the
// reader returns a trace or an error, the same through the window as through the general parser
// (JsonReading), and the analysis's identities hold; a crash, a sanitizer report, a difference between
// the readings (or with the input read in place from chunks of 1 to 61 bytes) or a broken identity is a
// finding. Build and run with tools/fuzz.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/trace/kineto_reader.hpp"
#include "../trace/trace_fingerprint.hpp"
#include "../trace/trace_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto trace = ohprof::parse_kineto_trace_text(text, "fuzz");
  if (ohprof::fingerprint(trace) !=
      ohprof::fingerprint(ohprof::parse_kineto_trace_text(text, "fuzz", ohprof::JsonReading::general))) {
    std::abort();
  }
  const std::string copy(text);
  ohprof::LendingChunks lent(copy, 1 + size % 61);
  auto in_place = ohprof::parse_kineto_trace(lent, "fuzz");
  if (in_place.ok()) in_place->stats.json_bytes = in_place->stats.file_bytes = size;
  if (ohprof::fingerprint(in_place) != ohprof::fingerprint(trace)) std::abort();
  if (!trace.ok()) return 0;
  const ohprof::PathBreakdown split = ohprof::analyze_timeline(trace->timeline);
  for (const auto& it : split.iterations) {
    const auto& gpu = it.gpu;
    if (gpu.busy_ns + gpu.idle_ns != it.wall_ns) std::abort();
    if (gpu.busy_ns + gpu.host_bound_ns + gpu.device_wait_ns != it.wall_ns) std::abort();
    const auto& h = it.host_states;
    if (h.blocking_ns + h.launch_ns + h.other_api_ns + h.framework_ns != gpu.host_bound_ns) std::abort();
  }
  return 0;
}
