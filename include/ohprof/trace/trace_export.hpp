#pragma once
// `ohprof analyze --export-trace`: writes the input trace back, unchanged, with ohprof's split added as
// extra tracks, so that the host-bound gaps can be seen in Perfetto / chrome://tracing
// (docs/analyze.md, "Seeing the split in Perfetto").
//
// The extra tracks belong to one added process, "ohprof: GPU time split" (the device's noun: device_noun):
//   - "iterations": one slice per iteration window, its split in the slice's args;
//   - "GPU (all streams)": the window tiled into busy, device-wait and host-bound slices;
//   - "GPU <device> stream <stream>": the same for every stream;
//   - "launch queue": a counter track of the number of ops pending (docs/metrics.md, "The launch queue").
// The slices are the analysis's own segments (ohprof/analysis/window_split.hpp): per window and track,
// the slices of each kind add up to the numbers in the report.
#include <cstdint>
#include <string>
#include <vector>

#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/analysis/window_split.hpp"
#include "ohprof/base/error.hpp"
#include "ohprof/trace/kineto_reader.hpp"
#include "ohprof/model/timeline.hpp"

namespace ohprof {

struct WindowSplitTracks {
  std::int64_t index = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  SplitTrack gpu;                   // all streams
  std::vector<SplitTrack> streams;  // sorted by (device, stream); the same streams as the analysis lists
  std::vector<QueueSample> queue;   // launch-queue depth at each change
};

// The segments of every analysed window: the analysis's attribution and tiling (window_split.hpp).
std::vector<WindowSplitTracks> build_split_tracks(const Timeline& timeline);

// Copies the trace at `input_path` (plain or gzip) to `output_path` (gzip when it ends in ".gz"),
// adding the split tracks to its traceEvents. `trace` is what read_kineto_trace read from the same
// file; `split` is analyze_timeline's result for it. Errors: file_not_found / invalid_trace (the input
// changed or cannot be read again), output_error.
Status export_trace_with_split(const std::string& input_path, const std::string& output_path, const KinetoTrace& trace,
                               const PathBreakdown& split);

// `run` and `compare` with --export-trace (docs/reports.md, "Trace"): what the collector recorded in the
// split pass, as a Chrome trace that Perfetto's UI and chrome://tracing open and that read_kineto_trace
// reads back to the same timeline: the iterations as ProfilerStep#<index> slices (args: the path and its
// iteration), every runtime call on its host thread (a launch with a flow to each op it launched), each
// op on its device's stream, and the split's tracks as analyze's export writes them. Calls carry an
// "ohprof_call" tag and CPU kernels an "ohprof_cpu_kernel" one, so that what the collector knew by
// callback id comes back (ohprof_tags.hpp). Gzip when `output_path` ends in ".gz". Errors: output_error.
struct TimelineTraceNames {
  std::string process;               // the host process's name: "ohprof compare (tiny_models:tiny_mlp)"
  std::string device_name;           // the GPU's name, for deviceProperties ("" on the CPU)
  std::vector<std::string> paths;    // by path index: a window's index / kIterationsPerPath
};
// `device`: the run's (RunContext::device), whose noun (device_noun) names the device's processes and the split's
// tracks; no default, so that no caller names a GPU "device" by omission.
Status export_timeline_trace(const Timeline& timeline, const TimelineTraceNames& names, DeviceKind device,
                             const std::string& output_path);

}  // namespace ohprof
