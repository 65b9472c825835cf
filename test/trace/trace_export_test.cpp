// --export-trace: the split tracks (hand-checked segments; on the real traces, segment sums equal the
// analysis's numbers) and the written trace (valid JSON, the input's events unchanged, readable again).
#include "ohprof/trace/trace_export.hpp"

#include <gtest/gtest.h>

#include "ohprof/analysis/breakdown.hpp"
#include <unistd.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <utility>
#include <nlohmann/json.hpp>

#include "trace_text.hpp"

namespace ohprof {
namespace {

using Kind = SplitSegmentKind;

DeviceOp op(std::int64_t start, std::int64_t end, std::uint64_t correlation, std::int64_t stream = 7) {
  DeviceOp o;
  o.start_ns = start;
  o.end_ns = end;
  o.correlation = correlation;
  o.stream = stream;
  o.name = "k";
  return o;
}

LaunchCall launch(std::int64_t start, std::int64_t end, std::uint64_t correlation) {
  LaunchCall call;
  call.start_ns = start;
  call.end_ns = end;
  call.correlation = correlation;
  return call;
}

std::vector<std::tuple<Kind, std::int64_t, std::int64_t>> flat(const SplitTrack& track) {
  std::vector<std::tuple<Kind, std::int64_t, std::int64_t>> out;
  for (const auto& s : track.segments) out.emplace_back(s.kind, s.start_ns, s.end_ns);
  return out;
}

TEST(BuildSplitTracks, HandCase) {
  // Window [0, 100). Stream 7: op A [10, 20) launched [5, 8) (pending from 8); op B [30, 40) launched
  // [25, 28) (pending from 28); op C [50, 60) launched [15, 18) (pending from 18: queued behind B).
  // Stream 9: op D [55, 70) launched [52, 54).
  // All streams: [0,8) host-bound, [8,10) device-wait, [10,20) busy, [20,28) device-wait (C pending),
  // [28,30) device-wait, [30,40) busy, [40,50) device-wait (C), [50,70) busy, [70,100) host-bound.
  Timeline t;
  t.iterations.push_back(IterationWindow{0, 0, 100});
  t.launches = {launch(5, 8, 1), launch(25, 28, 2), launch(15, 18, 3), launch(52, 54, 4)};
  t.ops = {op(10, 20, 1), op(30, 40, 2), op(50, 60, 3), op(55, 70, 4, 9)};
  const auto tracks = build_split_tracks(t);
  ASSERT_EQ(tracks.size(), 1u);
  using V = std::vector<std::tuple<Kind, std::int64_t, std::int64_t>>;
  EXPECT_EQ(flat(tracks[0].gpu), (V{{Kind::host_bound, 0, 8},
                                    {Kind::device_wait, 8, 10},
                                    {Kind::busy, 10, 20},
                                    {Kind::device_wait, 20, 30},
                                    {Kind::busy, 30, 40},
                                    {Kind::device_wait, 40, 50},
                                    {Kind::busy, 50, 70},
                                    {Kind::host_bound, 70, 100}}));
  ASSERT_EQ(tracks[0].streams.size(), 2u);
  EXPECT_EQ(tracks[0].streams[0].stream->stream, 7);
  // Stream 9: D pending from 54: [0,54) host-bound, [54,55) device-wait, [55,70) busy, [70,100) host-bound.
  EXPECT_EQ(flat(tracks[0].streams[1]), (V{{Kind::host_bound, 0, 54},
                                           {Kind::device_wait, 54, 55},
                                           {Kind::busy, 55, 70},
                                           {Kind::host_bound, 70, 100}}));
  // The queue: 0; A at 8 -> 1; C at 18 -> 2; A ends at 20 -> 1; B at 28 -> 2; B ends 40 -> 1; D at 54 -> 2;
  // C ends 60 -> 1; D ends 70 -> 0.
  std::vector<std::pair<std::int64_t, std::int64_t>> queue;
  for (const auto& q : tracks[0].queue) queue.emplace_back(q.t_ns, q.depth);
  EXPECT_EQ(queue, (std::vector<std::pair<std::int64_t, std::int64_t>>{
                       {0, 0}, {8, 1}, {18, 2}, {20, 1}, {28, 2}, {40, 1}, {54, 2}, {60, 1}, {70, 0}}));
}

TEST(BuildSplitTracks, AWindowThatLaunchesNothingSeesTheWorkThatRanInIt) {
  // Windows [0, 50) and [50, 100). An op launched [60, 61) and run [70, 80), both in the second window:
  // the first is host-bound throughout.
  Timeline t;
  t.iterations = {IterationWindow{1, 0, 50}, IterationWindow{2, 50, 100}};
  t.launches = {launch(60, 61, 1)};
  t.ops = {op(70, 80, 1)};
  const auto tracks = build_split_tracks(t);
  ASSERT_EQ(tracks.size(), 2u);
  using V = std::vector<std::tuple<Kind, std::int64_t, std::int64_t>>;
  EXPECT_EQ(flat(tracks[0].gpu), (V{{Kind::host_bound, 0, 50}}));
  EXPECT_EQ(flat(tracks[0].streams[0]), (V{{Kind::host_bound, 0, 50}}));
  EXPECT_EQ(flat(tracks[1].gpu),
            (V{{Kind::host_bound, 50, 61}, {Kind::device_wait, 61, 70}, {Kind::busy, 70, 80}, {Kind::host_bound, 80, 100}}));
  // The same op launched in window 1 ([10, 11)) still runs in window 2: its busy time is window 2's.
  t.launches = {launch(10, 11, 1)};
  const auto carried = build_split_tracks(t);
  EXPECT_EQ(flat(carried[0].gpu), (V{{Kind::host_bound, 0, 11}, {Kind::device_wait, 11, 50}}));
  EXPECT_EQ(flat(carried[1].gpu), (V{{Kind::device_wait, 50, 70}, {Kind::busy, 70, 80}, {Kind::host_bound, 80, 100}}));
}

// ---- on the real traces ---------------------------------------------------------------------------

std::string trace_path(const std::string& file) {
  const char* env = std::getenv("OHPROF_TRACES_DIR");
  return (std::filesystem::path(env != nullptr && *env != '\0' ? env : OHPROF_TRACES_DIR) / file).string();
}

const std::vector<std::string> kTraces = {"benchmark_result_493459_1694039959_trace.json.gz", "nccl_data.json.gz",
                                          "triton_example.json.gz", "queue_full_training.json.gz",
                                          "sampled_rank-0.json.gz", "rocm_mi250_minitoy.json.gz"};

void expect_track_matches(const SplitTrack& track, const DeviceSplit& split, std::int64_t lo, std::int64_t hi,
                          const std::string& where) {
  std::map<Kind, std::int64_t> sum;
  std::int64_t cursor = lo;
  for (const auto& segment : track.segments) {
    EXPECT_EQ(segment.start_ns, cursor) << where << ": segments must tile the window";
    EXPECT_GT(segment.end_ns, segment.start_ns) << where;
    sum[segment.kind] += segment.end_ns - segment.start_ns;
    cursor = segment.end_ns;
  }
  if (hi > lo) EXPECT_EQ(cursor, hi) << where;
  EXPECT_EQ(sum[Kind::busy], split.busy_ns) << where;
  EXPECT_EQ(sum[Kind::device_wait], split.device_wait_ns) << where;
  EXPECT_EQ(sum[Kind::host_bound], split.host_bound_ns) << where;
}

TEST(BuildSplitTracks, SegmentsAddUpToTheAnalysisOnRealTraces) {
  for (const auto& file : kTraces) {
    auto trace = read_kineto_trace(trace_path(file));
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    const PathBreakdown split = analyze_timeline(trace->timeline);
    const auto tracks = build_split_tracks(trace->timeline);
    ASSERT_EQ(tracks.size(), split.iterations.size()) << file;
    for (std::size_t w = 0; w < tracks.size(); ++w) {
      const auto& it = split.iterations[w];
      const std::string where = file + " window " + std::to_string(it.index);
      EXPECT_EQ(tracks[w].index, it.index);
      expect_track_matches(tracks[w].gpu, it.gpu, it.start_ns, it.end_ns, where);
      ASSERT_EQ(tracks[w].streams.size(), it.streams.size()) << where;
      for (std::size_t s = 0; s < it.streams.size(); ++s) {
        EXPECT_EQ(*tracks[w].streams[s].stream, it.streams[s].key);
        expect_track_matches(tracks[w].streams[s], it.streams[s].split, it.start_ns, it.end_ns,
                             where + " stream " + std::to_string(it.streams[s].key.stream));
      }
    }
  }
}

// ---- the written trace ------------------------------------------------------------------------------

std::string temp_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("ohprof-export-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

nlohmann::json load_json(const std::string& path) {
  return nlohmann::json::parse(gunzip(path));  // gunzip reads plain files as they are, too
}

TEST(ExportTraceWithSplit, KeepsEveryInputEventAndAddsTheTracks) {
  for (const std::string out_name : {"nccl_split.json.gz", "triton_split.json"}) {
    const std::string input = trace_path(out_name[0] == 'n' ? "nccl_data.json.gz" : "triton_example.json.gz");
    auto trace = read_kineto_trace(input);
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    const PathBreakdown split = analyze_timeline(trace->timeline);
    const std::string output = temp_path(out_name);
    const Status status = export_trace_with_split(input, output, *trace, split);
    ASSERT_TRUE(status.ok()) << status.error().message;

    const nlohmann::json original = load_json(input);
    const nlohmann::json written = load_json(output);  // throws (fails the test) if not valid JSON
    const std::int64_t pid = trace->max_numeric_pid + 1;
    nlohmann::json kept = nlohmann::json::array();
    std::map<std::string, std::int64_t> ns_by_name;
    std::size_t added = 0;
    for (const auto& event : written["traceEvents"]) {
      if (event.contains("pid") && event["pid"].is_number_integer() && event["pid"].get<std::int64_t>() == pid) {
        ++added;
        if (event.value("cat", "") == "ohprof" && event["tid"] == 1) {
          // ts/dur are written with three decimals: exact nanoseconds.
          const std::string dur = event["dur"].dump();
          ns_by_name[event["name"]] += *microseconds_text_to_ns(dur);
        }
        continue;
      }
      kept.push_back(event);
    }
    EXPECT_EQ(kept, original["traceEvents"]) << out_name << ": the input's events must come back unchanged";
    EXPECT_GT(added, 0u);
    // Every other top-level field is unchanged.
    for (const auto& [key, value] : original.items()) {
      if (key != "traceEvents") EXPECT_EQ(written[key], value) << key;
    }
    // The all-streams track adds up to the split summed over iterations.
    std::int64_t busy = 0;
    std::int64_t host_bound = 0;
    for (const auto& it : split.iterations) {
      busy += it.gpu.busy_ns;
      host_bound += it.gpu.host_bound_ns;
    }
    EXPECT_EQ(ns_by_name["busy"], busy) << out_name;
    EXPECT_EQ(ns_by_name["host-bound"], host_bound) << out_name;

    // The written trace reads back to the same records, without warnings about the added events.
    auto again = read_kineto_trace(output);
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(again->timeline.ops.size(), trace->timeline.ops.size());
    EXPECT_EQ(again->timeline.launches.size(), trace->timeline.launches.size());
    EXPECT_EQ(again->timeline.counters.skipped_events, 0u);
    EXPECT_EQ(again->stats.compressed, out_name.size() > 3 && out_name.substr(out_name.size() - 3) == ".gz");
  }
}

// docs/analyze.md, "The device": the added process and its tracks name the device by its noun: "GPU" for a
// CUDA trace, "device" for an MTIA one.
TEST(ExportTraceWithSplit, NamesTheTracksByTheDevicesNoun) {
  for (const auto& [file, noun] : {std::pair<std::string, std::string>{"nccl_data.json.gz", "GPU"},
                                   std::pair<std::string, std::string>{"mtia_inference.json.gz", "device"}}) {
    const std::string input = trace_path(file);
    auto trace = read_kineto_trace(input);
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    const std::string output = temp_path("noun_" + file);
    ASSERT_TRUE(export_trace_with_split(input, output, *trace, analyze_timeline(trace->timeline)).ok());
    const std::int64_t pid = trace->max_numeric_pid + 1;
    std::string process;
    std::map<std::int64_t, std::string> names;  // tid -> thread name, of the added process
    const nlohmann::json written = load_json(output);
    for (const auto& event : written["traceEvents"]) {
      if (!event.contains("pid") || !event["pid"].is_number_integer() || event["pid"].get<std::int64_t>() != pid) continue;
      if (event.value("ph", "") != "M") continue;
      if (event["name"] == "process_name") process = event["args"]["name"].get<std::string>();
      if (event["name"] == "thread_name") names[event["tid"].get<std::int64_t>()] = event["args"]["name"].get<std::string>();
    }
    EXPECT_EQ(process, "ohprof: " + noun + " time split") << file;
    EXPECT_EQ(names[0], "iterations") << file;
    EXPECT_EQ(names[1], noun + " (all streams)") << file;
    ASSERT_GT(names.size(), 2u) << file;  // the iterations, all streams, one track per stream
    EXPECT_EQ(names.rbegin()->second.rfind(noun + " ", 0), 0u) << file << ": " << names.rbegin()->second;
  }
}

TEST(ExportTraceWithSplit, EmptyEventArrayAndBareArrayTraces) {
  // Hand-made inputs: the events array first in the object, and a bare array of events.
  const std::string events =
      R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 1, "dur": 1, "args": {"correlation": 1}},
         {"ph": "X", "cat": "kernel", "name": "k [\"]", "ts": 3, "dur": 2, "args": {"device": 0, "stream": 7, "correlation": 1}})";
  for (const std::string text : {R"({"traceEvents": [)" + events + R"(], "other": ["x", {"traceEvents": []}]})",
                                 "[" + events + "]"}) {
    const std::string input = temp_path("hand.json");
    std::ofstream(input) << text;
    auto trace = read_kineto_trace(input);
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    const std::string output = temp_path("hand_split.json");
    ASSERT_TRUE(export_trace_with_split(input, output, *trace, analyze_timeline(trace->timeline)).ok());
    const nlohmann::json written = load_json(output);
    const nlohmann::json& list = written.is_array() ? written : written["traceEvents"];
    EXPECT_GT(list.size(), 2u);
    if (written.is_object()) EXPECT_EQ(written["other"], nlohmann::json::parse(R"(["x", {"traceEvents": []}])"));
  }
}

TEST(ExportTraceWithSplit, UnwritableOutputIsAnOutputError) {
  const std::string input = trace_path("triton_example.json.gz");
  auto trace = read_kineto_trace(input);
  ASSERT_TRUE(trace.ok());
  const Status status =
      export_trace_with_split(input, "/nonexistent/dir/out.json.gz", *trace, analyze_timeline(trace->timeline));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::output_error);
}

// ---- a live run's timeline as a trace (run/compare --export-trace) ---------------------------------

void expect_same_totals(const BreakdownTotals& a, const BreakdownTotals& b, const std::string& where) {
  EXPECT_EQ(a.iterations, b.iterations) << where;
  EXPECT_EQ(a.wall_ns, b.wall_ns) << where;
  EXPECT_EQ(a.gpu.busy_ns, b.gpu.busy_ns) << where;
  EXPECT_EQ(a.gpu.host_bound_ns, b.gpu.host_bound_ns) << where;
  EXPECT_EQ(a.gpu.device_wait_ns, b.gpu.device_wait_ns) << where;
  EXPECT_EQ(a.gpu.queue_ns, b.gpu.queue_ns) << where;
  EXPECT_EQ(a.gpu.queue_max, b.gpu.queue_max) << where;
  EXPECT_EQ(a.gpu.communication_ns, b.gpu.communication_ns) << where;
  EXPECT_EQ(a.gpu.own_busy_ns, b.gpu.own_busy_ns) << where;
  EXPECT_EQ(a.host_states.blocking_ns, b.host_states.blocking_ns) << where;
  EXPECT_EQ(a.host_states.launch_ns, b.host_states.launch_ns) << where;
  EXPECT_EQ(a.host_states.other_api_ns, b.host_states.other_api_ns) << where;
  EXPECT_EQ(a.host_states.harness_ns, b.host_states.harness_ns) << where;
  EXPECT_EQ(a.host_states.framework_ns, b.host_states.framework_ns) << where;
  EXPECT_EQ(a.launch_api_ns, b.launch_api_ns) << where;
  EXPECT_EQ(a.blocking_ns, b.blocking_ns) << where;
  EXPECT_EQ(a.blocking_calls, b.blocking_calls) << where;
  EXPECT_EQ(a.other_api_ns, b.other_api_ns) << where;
  EXPECT_EQ(a.dispatch_ns, b.dispatch_ns) << where;
  EXPECT_EQ(a.device_queue_max, b.device_queue_max) << where;
}

// The timeline written as a trace and read back by the Kineto reader.
Timeline round_trip(const Timeline& timeline, const std::string& name, const TimelineTraceNames& names = {}) {
  const std::string path = temp_path(name);
  const Status written =
      export_timeline_trace(timeline, names, timeline.ops_have_launches ? DeviceKind::cuda : DeviceKind::cpu, path);
  EXPECT_TRUE(written.ok()) << written.error().message;
  auto read = read_kineto_trace(path);
  if (!read.ok()) {
    ADD_FAILURE() << read.error().message;
    return Timeline{};
  }
  EXPECT_TRUE(read->warnings.empty() || read->warnings.front().code == WarningCode::ops_without_launch)
      << read->warnings.front().message;
  return read->timeline;
}

TEST(ExportTimelineTrace, TheRealTracesTimelinesComeBackWithTheSameSplit) {
  // Each real trace read into a timeline (what a collector would have produced), written as ohprof's own
  // trace and read again: the same split, totals and every iteration.
  for (const auto& file : kTraces) {
    auto trace = read_kineto_trace(trace_path(file));
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    const Timeline again = round_trip(trace->timeline, "roundtrip-" + file);
    EXPECT_EQ(again.ops.size(), trace->timeline.ops.size()) << file;
    EXPECT_EQ(again.launches.size(), trace->timeline.launches.size()) << file;
    EXPECT_EQ(again.syncs.size(), trace->timeline.syncs.size()) << file;
    EXPECT_EQ(again.api_calls.size(), trace->timeline.api_calls.size()) << file;
    const PathBreakdown before = analyze_timeline(trace->timeline);
    const PathBreakdown after = analyze_timeline(again);
    expect_same_totals(before.summary.totals, after.summary.totals, file);
    ASSERT_EQ(before.iterations.size(), after.iterations.size()) << file;
    for (std::size_t i = 0; i < before.iterations.size(); ++i) {
      EXPECT_EQ(before.iterations[i].gpu.busy_ns, after.iterations[i].gpu.busy_ns) << file << " " << i;
      EXPECT_EQ(before.iterations[i].gpu.host_bound_ns, after.iterations[i].gpu.host_bound_ns) << file << " " << i;
      EXPECT_EQ(before.iterations[i].gpu.device_wait_ns, after.iterations[i].gpu.device_wait_ns) << file << " " << i;
    }
    EXPECT_EQ(before.kernels.size(), after.kernels.size()) << file;
  }
}

TEST(ExportTimelineTrace, WhatTheCollectorKnewByCallbackIdComesBack) {
  // A launch whose name the reader would not take for one (CUPTI's "internal launch"), a synchronous
  // copy, the harness's own sync, a call named like a sync that is not one, iterations tagged on launches.
  Timeline t;
  t.iterations = {{0, 0, 10'000}, {1, 10'000, 20'000}};
  LaunchCall internal = launch(100, 200, 1);
  internal.name = "internal launch";
  internal.iteration = 0;
  LaunchCall copy = launch(10'100, 12'000, 2);
  copy.kind = LaunchKind::memcpy;
  copy.synchronous = true;
  copy.name = "cuMemcpyDtoH_v2";
  copy.iteration = 1;
  t.launches = {internal, copy};
  DeviceOp k = op(300, 2'000, 1);
  k.graph_id = 5;
  DeviceOp c = op(10'200, 11'900, 2);
  c.kind = DeviceOpKind::memcpy;
  c.bytes = 4096;
  c.name = "DtoH";
  t.ops = {k, c};
  t.syncs = {SyncCall{8'000, 9'900, 0, "cudaDeviceSynchronize", /*harness=*/true},
             SyncCall{18'000, 19'000, 0, "cudaStreamSynchronize", false}};
  t.api_calls = {ApiCall{13'000, 13'500, 0, "cudaStreamSynchronize_lookalike"}};
  const Timeline again = round_trip(t, "tags.json");
  ASSERT_EQ(again.launches.size(), 2u);
  EXPECT_EQ(again.launches[0].kind, LaunchKind::kernel);
  EXPECT_EQ(again.launches[0].name, "internal launch");
  EXPECT_EQ(again.launches[0].iteration, 0);
  EXPECT_EQ(again.launches[1].kind, LaunchKind::memcpy);
  EXPECT_TRUE(again.launches[1].synchronous);
  EXPECT_EQ(again.launches[1].iteration, 1);
  ASSERT_EQ(again.syncs.size(), 2u);
  EXPECT_TRUE(again.syncs[0].harness);
  EXPECT_FALSE(again.syncs[1].harness);
  ASSERT_EQ(again.api_calls.size(), 1u);
  ASSERT_EQ(again.ops.size(), 2u);
  EXPECT_EQ(again.ops[0].graph_id, 5u);
  EXPECT_EQ(again.ops[1].bytes, 4096u);
  EXPECT_EQ(again.ops[1].kind, DeviceOpKind::memcpy);
  EXPECT_TRUE(again.ops_have_launches);
  const PathBreakdown before = analyze_timeline(t);
  const PathBreakdown after = analyze_timeline(again);
  EXPECT_GT(before.summary.totals.host_states.harness_ns, 0);
  expect_same_totals(before.summary.totals, after.summary.totals, "tags");
}

TEST(ExportTimelineTrace, ACpuRunsKernelsComeBackAsCpuKernels) {
  Timeline t;
  t.ops_have_launches = false;
  t.iterations = {{0, 0, 10'000}, {1, 10'000, 20'000}};
  t.ops = {op(1'000, 6'000, 0, 1234), op(12'000, 19'000, 0, 1234)};
  const Timeline again = round_trip(t, "cpu.json.gz");
  EXPECT_FALSE(again.ops_have_launches);
  const PathBreakdown before = analyze_timeline(t);
  const PathBreakdown after = analyze_timeline(again);
  EXPECT_TRUE(after.summary.cpu_kernels);
  expect_same_totals(before.summary.totals, after.summary.totals, "cpu");
  EXPECT_EQ(after.summary.totals.dispatch_ns, 8'000);  // 20 us of wall, 12 us of kernels
}

TEST(ExportTimelineTrace, ACompareRunsPathsKeepTheirIterationsAndNames) {
  // compare tags path p's iteration i as p * kIterationsPerPath + i; each path's split comes back.
  Timeline t;
  t.iterations = {{0, 0, 10'000}, {1, 10'000, 20'000}, {kIterationsPerPath, 20'000, 30'000}};
  t.launches = {launch(100, 200, 1), launch(10'100, 10'200, 2), launch(20'100, 20'300, 3)};
  t.ops = {op(300, 5'000, 1), op(10'300, 18'000, 2), op(20'400, 21'000, 3)};
  TimelineTraceNames names;
  names.process = "ohprof compare (tiny_models:tiny_mlp)";
  names.paths = {"aoti", "compile"};
  const std::string path = temp_path("compare.json");
  ASSERT_TRUE(export_timeline_trace(t, names, DeviceKind::cuda, path).ok());
  const nlohmann::json written = load_json(path);
  std::map<std::string, std::string> step_path;
  std::set<std::string> processes;  // the run's device named by its noun (device_noun)
  std::size_t flows_out = 0, flows_in = 0;
  for (const auto& e : written["traceEvents"]) {
    if (e.value("ph", "") == "M" && e["name"] == "process_name") processes.insert(e["args"]["name"].get<std::string>());
    if (e.value("cat", "") == "user_annotation") step_path[e["name"]] = e["args"]["path"];
    if (e.value("ph", "") == "s") ++flows_out;
    if (e.value("ph", "") == "f") ++flows_in;
  }
  EXPECT_EQ(step_path.at("ProfilerStep#0"), "aoti");
  EXPECT_EQ(step_path.at("ProfilerStep#4294967296"), "compile");
  EXPECT_TRUE(processes.count("GPU 0")) << written.dump();
  EXPECT_TRUE(processes.count("ohprof: GPU time split")) << written.dump();
  EXPECT_EQ(flows_out, 3u);  // a flow from each launch to its op
  EXPECT_EQ(flows_in, 3u);
  auto read = read_kineto_trace(path);
  ASSERT_TRUE(read.ok());
  for (std::int64_t p = 0; p < 2; ++p) {
    const std::int64_t first = p * kIterationsPerPath;
    const PathBreakdown before = analyze_timeline(select_iterations(t, first, first + kIterationsPerPath - 1));
    const PathBreakdown after = analyze_timeline(select_iterations(read->timeline, first, first + kIterationsPerPath - 1));
    expect_same_totals(before.summary.totals, after.summary.totals, "path " + std::to_string(p));
  }
}

TEST(ExportTimelineTrace, NamesWithQuotesBackslashesAndControlCharactersStayValidJson) {
  Timeline t;
  t.iterations = {{0, 0, 1'000}};
  LaunchCall call = launch(10, 20, 1);
  call.name = "cuda\"Launch\\\n\x01";
  t.launches = {call};
  DeviceOp k = op(30, 40, 1);
  k.name = "void f<\"x\">(int)\t";
  t.ops = {k};
  TimelineTraceNames names;
  names.process = "ohprof run (\"odd\" \\ model)";
  names.paths = {"a\"b"};
  const std::string path = temp_path("escapes.json");
  ASSERT_TRUE(export_timeline_trace(t, names, DeviceKind::cuda, path).ok());
  EXPECT_TRUE(load_json(path).contains("traceEvents"));  // throws, failing the test, when it is not JSON
  auto read = read_kineto_trace(path);
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_EQ(read->timeline.launches.size(), 1u);
  EXPECT_EQ(read->timeline.launches[0].name, call.name);
  EXPECT_EQ(read->timeline.ops[0].name, k.name);
  // graph ops share their launch's correlation: each gets its own arrow
  t.ops = {op(30, 40, 1), op(41, 50, 1)};
  ASSERT_TRUE(export_timeline_trace(t, names, DeviceKind::cuda, path).ok());
  std::set<std::uint64_t> ids;
  const nlohmann::json graph = load_json(path);
  for (const auto& e : graph["traceEvents"]) {
    if (e.value("ph", "") == "f") ids.insert(e["id"].get<std::uint64_t>());
  }
  EXPECT_EQ(ids.size(), 2u);
}

TEST(ExportTimelineTrace, AnUnwritableFileIsAnOutputError) {
  const Status status = export_timeline_trace(Timeline{}, {}, DeviceKind::cpu, "/nonexistent/dir/t.json");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::output_error);
}

}  // namespace
}  // namespace ohprof
