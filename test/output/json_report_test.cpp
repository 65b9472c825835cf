#include "ohprof/output/json_report.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/output/report_text.hpp"
#include "sample_breakdown.hpp"

namespace ohprof {
namespace {

Report sample_report() {
  Report report;
  report.context = make_base_context({"ohprof", "run", "--aoti", "m.pt2"});
  report.context.device = DeviceDescription{DeviceKind::cpu, -1, "Test CPU"};
  report.config.warmup = 1;
  report.config.runs = 3;
  report.config.inputs = {"[4, 16]:float32"};
  PathResult path;
  path.name = "aoti";
  path.artifact = "m.pt2";
  path.load_ns = 42;
  path.warmup_ns = {500};
  path.wall_ns = {100, 300, 200};
  path.wall = summarize_ns(path.wall_ns);
  path.stop_reason = StopReason{StopCode::runs_reached};
  path.split_unavailable_reason = "no collector";
  report.paths.push_back(path);
  return report;
}

TEST(ReportToJson, HasSchemaContextAndSamples) {
  const nlohmann::json json = report_to_json(sample_report());
  EXPECT_EQ(json["schema_version"], kReportSchemaVersion);
  EXPECT_EQ(json["kind"], "run");
  for (const char* key : {"ohprof_version", "git_sha", "torch_version", "cuda_version", "cupti_version",
                          "device", "argv", "date", "hostname"}) {
    EXPECT_TRUE(json["context"].contains(key)) << key;
  }
  EXPECT_EQ(json["context"]["argv"][2], "--aoti");
  EXPECT_EQ(json["context"]["device"]["name"], "Test CPU");
  const auto& path = json["paths"][0];
  EXPECT_EQ(path["samples_ns"], (std::vector<std::int64_t>{100, 300, 200}));
  EXPECT_EQ(path["wall_ns"]["median"], 200.0);
  EXPECT_EQ(path["wall_ns"]["count"], 3);
  EXPECT_EQ(path["load_ns"], 42);
  EXPECT_EQ(path["split"]["available"], false);
  EXPECT_EQ(path["split"]["reason"], "no collector");
  EXPECT_EQ(json["config"]["inputs"][0], "[4, 16]:float32");
}

TEST(ContextFromJson, IsContextToJsonsInverseAndReadsAnAbsentKeyAsEmpty) {
  RunContext c;
  c.ohprof_version = "0.1.0";
  c.git_sha = "abc123";
  c.torch_version = "2.14.1";
  c.cuda_version = "13.0";
  c.cupti_version = "130001";
  c.cupti_library = "/x/libcupti.so.13";
  c.inflate_library = "zlib 1.3.1";
  c.device = DeviceDescription{DeviceKind::accelerator, 2, "MI250"};
  c.argv = {"ohprof", "analyze", "t.json"};
  c.date_utc = "2026-12-04T22:00:00Z";
  c.hostname = "h";
  c.cpu_threads = 16;
  const nlohmann::json written = context_to_json(c);
  EXPECT_EQ(context_to_json(context_from_json(written)), written);
  nlohmann::json older = written;  // a report from before these keys were written
  older.erase("cupti_library");
  older.erase("inflate_library");
  older.erase("git_sha");
  const RunContext read = context_from_json(older);
  EXPECT_EQ(read.cupti_library, "");
  EXPECT_EQ(read.inflate_library, "");
  EXPECT_EQ(read.git_sha, "");
  EXPECT_EQ(read.device.name, "MI250");
  nlohmann::json unknown = written;
  unknown["device"]["type"] = "tpu";
  try {
    (void)context_from_json(unknown);
    ADD_FAILURE() << "an unknown device type was read";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "device type 'tpu' is none of cpu, cuda, accelerator, xpu");
  }
}

TEST(ReportToJson, DateIsIso8601Utc) {
  const nlohmann::json json = report_to_json(sample_report());
  const std::string date = json["context"]["date"];
  ASSERT_EQ(date.size(), 20u);
  EXPECT_EQ(date[4], '-');
  EXPECT_EQ(date[10], 'T');
  EXPECT_EQ(date.back(), 'Z');
}

std::set<std::string> keys_of(const nlohmann::json& object) {
  std::set<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.insert(key);
  return keys;
}

const std::set<std::string> kDeviceSplitKeys = {"busy_ns",   "idle_ns",     "host_bound_ns",   "device_wait_ns",
                                                "queue_ns",  "queue_mean",  "queue_max",       "communication_ns",
                                                "ops",       "own_ops",     "own_busy_ns",     "carried_out_ns"};
const std::set<std::string> kSummaryStatKeys = {"count", "mean",           "stddev", "median", "min",
                                                "max",   "relative_noise", "mad",    "outliers"};

nlohmann::json split_json(const PathBreakdown& breakdown) {
  Report report = sample_report();
  report.context.device.type = DeviceKind::cuda;  // a GPU's split: the sentence calls it "GPU" (device_noun)
  report.paths[0].split_unavailable_reason.clear();
  report.paths[0].breakdown = breakdown;
  return report_to_json(report)["paths"][0]["split"];
}

TEST(ReportToJson, EachIterationHasExactlyTheFieldsOfDocsMetrics) {
  const nlohmann::json split = split_json(test::gpu_breakdown());
  EXPECT_EQ(split["available"], true);
  const auto& it = split["iterations"][0];
  EXPECT_EQ(keys_of(it),
            (std::set<std::string>{"index", "round", "start_ns", "end_ns", "wall_ns", "gpu", "device_queue_max", "host_states", "streams",
                                   "launch_api_ns", "launch_exposed_ns", "launch_hidden_ns", "blocking_ns",
                                   "blocking_calls", "other_api_ns", "dispatch_ns", "launches", "graph_launches",
                                   "gpu_ops", "queue_delays_ns", "queue_delays_clipped", "host_bound_least_ns"}));
  EXPECT_EQ(keys_of(it["gpu"]), kDeviceSplitKeys);
  std::set<std::string> stream_keys = kDeviceSplitKeys;
  stream_keys.insert({"device", "stream", "waited_ns"});
  EXPECT_EQ(keys_of(it["streams"][0]), stream_keys);
  EXPECT_EQ(keys_of(it["host_states"]),
            (std::set<std::string>{"blocking_ns", "launch_ns", "other_api_ns", "harness_ns", "framework_ns"}));

  EXPECT_EQ(it["index"], 4);
  EXPECT_TRUE(it["round"].is_null());  // not measured in rounds
  EXPECT_EQ(it["start_ns"], 1000);
  EXPECT_EQ(it["wall_ns"], 10'000);
  const auto& gpu = it["gpu"];
  EXPECT_EQ(gpu["busy_ns"], 6000);
  EXPECT_EQ(gpu["idle_ns"], 4000);
  EXPECT_EQ(gpu["host_bound_ns"], 3000);
  EXPECT_EQ(gpu["device_wait_ns"], 1000);
  EXPECT_EQ(gpu["queue_ns"], 25'000);
  EXPECT_EQ(gpu["queue_mean"], 2.5);  // queue_ns / wall_ns
  EXPECT_EQ(gpu["queue_max"], 7);
  EXPECT_EQ(gpu["ops"], 5);
  EXPECT_EQ(gpu["own_ops"], 4);
  EXPECT_EQ(gpu["own_busy_ns"], 5000);
  EXPECT_EQ(gpu["carried_out_ns"], 500);
  // The identities can be recomputed from the JSON.
  EXPECT_EQ(gpu["busy_ns"].get<std::int64_t>() + gpu["host_bound_ns"].get<std::int64_t>() +
                gpu["device_wait_ns"].get<std::int64_t>(),
            it["wall_ns"].get<std::int64_t>());
  const auto& states = it["host_states"];
  EXPECT_EQ(states["blocking_ns"].get<std::int64_t>() + states["launch_ns"].get<std::int64_t>() +
                states["other_api_ns"].get<std::int64_t>() + states["harness_ns"].get<std::int64_t>() +
                states["framework_ns"].get<std::int64_t>(),
            gpu["host_bound_ns"].get<std::int64_t>());
  EXPECT_EQ(states["launch_ns"], 1000);
  const auto& stream = it["streams"][1];
  EXPECT_EQ(stream["device"], 0);
  EXPECT_EQ(stream["stream"], 13);
  EXPECT_EQ(stream["busy_ns"], 1500);
  EXPECT_EQ(stream["queue_mean"], 0.5);
  EXPECT_EQ(stream["waited_ns"], 200);
  EXPECT_EQ(it["launch_api_ns"], 2000);
  EXPECT_EQ(it["launch_exposed_ns"], 1000);
  EXPECT_EQ(it["launch_hidden_ns"], 1000);
  EXPECT_EQ(it["blocking_ns"], 600);
  EXPECT_EQ(it["blocking_calls"], 2);
  EXPECT_EQ(it["other_api_ns"], 400);
  EXPECT_TRUE(it["dispatch_ns"].is_null());  // a GPU timeline
  EXPECT_EQ(it["launches"], 4);
  EXPECT_EQ(it["graph_launches"], 1);
  EXPECT_EQ(it["gpu_ops"], 4);
  EXPECT_EQ(it["queue_delays_ns"], (std::vector<std::int64_t>{10, 0, 30}));
  EXPECT_EQ(it["queue_delays_clipped"], 1);
  EXPECT_TRUE(it["host_bound_least_ns"].is_null());  // the queue is not open
}

TEST(ReportToJson, TheSummaryHasTheStatisticsAndTheTotals) {
  const nlohmann::json split = split_json(test::gpu_breakdown());
  const auto& summary = split["summary"];
  EXPECT_EQ(keys_of(summary),
            (std::set<std::string>{"cpu_kernels", "wall_ns", "gpu", "streams", "host_blocking_ns", "host_launch_ns", "host_harness_ns",
                                   "host_other_api_ns", "host_framework_ns", "launch_api_ns", "launch_exposed_ns",
                                   "launch_hidden_ns", "blocking_ns", "other_api_ns", "dispatch_ns", "launches",
                                   "graph_launches", "gpu_ops", "queue_delay_ns", "queue_delays_clipped", "totals"}));
  EXPECT_EQ(summary["cpu_kernels"], false);
  EXPECT_EQ(keys_of(summary["gpu"]),
            (std::set<std::string>{"busy_ns", "idle_ns", "host_bound_ns", "device_wait_ns", "queue_mean", "queue_max",
                                   "own_busy_ns", "carried_out_ns"}));
  EXPECT_EQ(keys_of(summary["gpu"]["busy_ns"]), kSummaryStatKeys);
  EXPECT_EQ(summary["gpu"]["busy_ns"]["median"], 6000.0);
  EXPECT_EQ(summary["gpu"]["queue_mean"]["median"], 2.5);
  EXPECT_EQ(summary["host_framework_ns"]["median"], 1200.0);
  EXPECT_EQ(summary["launch_exposed_ns"]["median"], 1000.0);
  EXPECT_EQ(summary["dispatch_ns"]["count"], 0);  // a GPU timeline
  EXPECT_EQ(summary["queue_delay_ns"]["count"], 3);
  EXPECT_EQ(summary["queue_delays_clipped"], 1);

  const auto& stream = summary["streams"][0];
  EXPECT_EQ(keys_of(stream), (std::set<std::string>{"device", "stream", "split", "totals", "waited_ns"}));
  EXPECT_EQ(stream["stream"], 7);
  EXPECT_EQ(stream["split"]["device_wait_ns"]["median"], 800.0);
  EXPECT_EQ(stream["totals"]["busy_ns"], 5000);
  EXPECT_EQ(stream["totals"]["idle_ns"], 5000);  // summed wall - summed busy
  EXPECT_EQ(stream["waited_ns"], 1000);

  const auto& totals = summary["totals"];
  EXPECT_EQ(keys_of(totals),
            (std::set<std::string>{"iterations", "wall_ns", "gpu", "host_states", "launch_api_ns", "launch_exposed_ns",
                                   "launch_hidden_ns", "blocking_ns", "blocking_calls", "other_api_ns", "dispatch_ns",
                                   "device_queue_max", "full_queue_iterations"}));
  EXPECT_EQ(keys_of(totals["gpu"]),
            (std::set<std::string>{"busy_ns", "idle_ns", "host_bound_ns", "device_wait_ns", "queue_ns", "queue_max",
                                   "communication_ns", "own_busy_ns", "carried_out_ns"}));
  EXPECT_EQ(totals["iterations"], 1);
  EXPECT_EQ(totals["wall_ns"], 10'000);
  EXPECT_EQ(totals["gpu"]["busy_ns"].get<std::int64_t>() + totals["gpu"]["host_bound_ns"].get<std::int64_t>() +
                totals["gpu"]["device_wait_ns"].get<std::int64_t>(),
            totals["wall_ns"].get<std::int64_t>());
  EXPECT_EQ(totals["gpu"]["queue_ns"], 25'000);
  EXPECT_EQ(totals["host_states"]["other_api_ns"], 300);
  EXPECT_EQ(totals["blocking_calls"], 2);
  EXPECT_TRUE(totals["dispatch_ns"].is_null());  // a GPU timeline
  EXPECT_EQ(totals["full_queue_iterations"], 0);
}

TEST(ReportToJson, TheVerdictCarriesItsEvidenceAndTheSameTextAsTheTable) {
  const PathBreakdown breakdown = test::gpu_breakdown();
  const nlohmann::json split = split_json(breakdown);
  const auto& verdict = split["verdict"];
  EXPECT_EQ(keys_of(verdict),
            (std::set<std::string>{"verdict", "reason", "first", "second", "busy_share", "host_bound_share",
                                   "device_wait_share", "host_state", "host_state_share", "waited_stream",
                                   "waited_stream_share", "queue_delay_median_ns", "full_queue_iterations",
                                   "queue_max", "blocking_share", "communication_share", "launches_per_iteration",
                                   "graph_launches_per_iteration", "cpu_kernels", "whole_recording_window",
                                   "kernels_unrecorded", "busy_headroom", "host_bound_headroom", "device_wait_headroom",
                                   "host_headroom_negligible", "ops_queue_unknown", "host_bound_share_least",
                                   "device_wait_share_most", "unread_device_events", "suggestion"}));
  EXPECT_EQ(verdict["verdict"], "compute-bound");
  EXPECT_EQ(verdict["reason"], "dominant_share");
  EXPECT_EQ(verdict["first"], "busy");
  EXPECT_EQ(verdict["second"], "host_bound");
  EXPECT_EQ(verdict["busy_share"], 0.6);
  EXPECT_EQ(verdict["host_state"], "framework");
  EXPECT_EQ(verdict["host_state_share"], 0.4);
  EXPECT_EQ(verdict["waited_stream"], (nlohmann::json{{"device", 0}, {"stream", 7}}));
  EXPECT_EQ(verdict["queue_max"], 7);
  EXPECT_EQ(verdict["blocking_share"], 0.06);
  EXPECT_EQ(verdict["launches_per_iteration"], 4.0);
  EXPECT_EQ(verdict["cpu_kernels"], false);
  EXPECT_EQ(verdict["suggestion"], verdict_text(breakdown.verdict, DeviceKind::cuda, 1));
  EXPECT_NE(verdict["suggestion"].get<std::string>().find("6.0% of wall in blocking calls"), std::string::npos);

  PathBreakdown none;  // no iterations: no host state, no waited stream
  const nlohmann::json unknown = split_json(none)["verdict"];
  EXPECT_EQ(unknown["verdict"], "unknown");
  EXPECT_EQ(unknown["reason"], "no_iterations");
  EXPECT_TRUE(unknown["host_state"].is_null());
  EXPECT_TRUE(unknown["waited_stream"].is_null());
}

TEST(ReportToJson, TheOldFieldsAreGone) {
  const std::string text = split_json(test::gpu_breakdown()).dump();
  for (const char* old : {"\"head_ns\"", "\"tail_ns\"", "\"other_ns\"", "\"spill_ns\"", "\"rule\"",
                          "\"framework_ns\":{"}) {
    EXPECT_EQ(text.find(old), std::string::npos) << old;
  }
}

TEST(ReportToJson, CpuRunsHaveDispatchAndTheirTotals) {
  const nlohmann::json split = split_json(test::cpu_breakdown());
  const auto& it = split["iterations"][0];
  EXPECT_EQ(it["dispatch_ns"], 2500);
  EXPECT_EQ(it["gpu"]["device_wait_ns"], 0);
  EXPECT_EQ(split["summary"]["cpu_kernels"], true);
  EXPECT_EQ(split["summary"]["dispatch_ns"]["count"], 1);
  EXPECT_EQ(split["summary"]["totals"]["dispatch_ns"], 2500);
  EXPECT_EQ(split["verdict"]["cpu_kernels"], true);
  EXPECT_EQ(split["counters"]["analysis"]["ops_total"], 4);
}

TEST(ReportToJson, CountersAndKernelsStayAsTheyWere) {
  const nlohmann::json split = split_json(test::gpu_breakdown());
  EXPECT_EQ(split["counters"]["collection"]["dropped_records"], 2);
  EXPECT_EQ(split["counters"]["analysis"]["ops_without_launch"], 1);
  EXPECT_EQ(split["kernels"][0]["name"], "gemm");
  EXPECT_EQ(split["kernels"][0]["total_ns"], 4500);
  EXPECT_EQ(split["kernels"][1]["kind"], "memcpy");
}

TEST(ReportToJson, EmitsKernelSetDiffs) {
  Report report = sample_report();
  const PathBreakdown a = test::gpu_breakdown();
  report.kernel_diffs.push_back(diff_kernel_sets(a, PathBreakdown{}, "aoti", "compile"));
  const nlohmann::json json = report_to_json(report);
  const auto& diff = json["kernel_diffs"][0];
  EXPECT_EQ(diff["path_a"], "aoti");
  EXPECT_EQ(diff["same_set"], false);
  ASSERT_EQ(diff["only_a"].size(), 2u);  // gemm and HtoD, sorted by kind then name
  EXPECT_EQ(diff["only_a"][0]["name"], "gemm");
  EXPECT_EQ(diff["only_a"][0]["count_per_iteration_a"], 3.0);
  EXPECT_EQ(diff["only_b"].size(), 0u);
}

TEST(ReportToJson, WarningsCarryTheirStableCodeAndText) {
  Report report;
  report.warnings = {Warning{WarningCode::outliers, "3 of 50 iterations are statistical outliers"},
                     Warning{WarningCode::ops_without_launch, "2 of 9 GPU operations have no launch call"}};
  const nlohmann::json out = report_to_json(report);
  EXPECT_EQ(kReportSchemaVersion, 4);  // warnings objects since 2, the new split in 3, variants among the paths in 4 (docs/report-schema.md)
  ASSERT_EQ(out["warnings"].size(), 2u);
  EXPECT_EQ(out["warnings"][0]["code"], "outliers");
  EXPECT_EQ(out["warnings"][0]["message"], "3 of 50 iterations are statistical outliers");
  EXPECT_EQ(out["warnings"][1]["code"], "ops-without-launch");
}

TEST(ReportToJson, TypedStateIsWrittenAsItsStableNames) {
  Report report;
  report.kind = ReportKind::compare;
  report.stop_reason = StopReason{StopCode::max_runs_reached, "aoti: runs 3 < 10"};
  report.context.device.type = DeviceKind::cuda;
  PathResult& path = report.paths.emplace_back();
  path.stop_reason = StopReason{StopCode::converged};
  path.split_collector = CollectorKind::record_function;
  const nlohmann::json out = report_to_json(report);
  EXPECT_EQ(out["kind"], "compare");
  EXPECT_EQ(out["stop_reason"], "max runs reached (unmet: aoti: runs 3 < 10)");
  EXPECT_EQ(out["context"]["device"]["type"], "cuda");
  EXPECT_EQ(out["paths"][0]["stop_reason"], "converged");
  EXPECT_EQ(out["paths"][0]["split_collector"], "record_function");
}

}  // namespace
}  // namespace ohprof
