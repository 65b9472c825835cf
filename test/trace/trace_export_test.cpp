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
#include <nlohmann/json.hpp>

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
  gzFile file = gzopen(path.c_str(), "rb");  // reads plain files as they are, too
  EXPECT_NE(file, nullptr);
  std::string text;
  char buffer[65536];
  int n = 0;
  while ((n = gzread(file, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(n));
  gzclose(file);
  return nlohmann::json::parse(text);
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

}  // namespace
}  // namespace ohprof
