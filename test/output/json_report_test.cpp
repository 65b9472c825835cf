#include "ohprof/output/json_report.hpp"

#include <gtest/gtest.h>

#include "ohprof/analysis/breakdown.hpp"
#include <nlohmann/json.hpp>

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

TEST(ReportToJson, DateIsIso8601Utc) {
  const nlohmann::json json = report_to_json(sample_report());
  const std::string date = json["context"]["date"];
  ASSERT_EQ(date.size(), 20u);
  EXPECT_EQ(date[4], '-');
  EXPECT_EQ(date[10], 'T');
  EXPECT_EQ(date.back(), 'Z');
}

// One iteration [0,100]: launch [0,10] -> kernel [20,50] on stream 3, a kernel without launch [60,70].
// busy 30 + 10 = 40; head 20; gap [50,60] = 10 is "other" (its op has no launch); tail 30.
PathBreakdown sample_breakdown() {
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}};
  LaunchCall launch;
  launch.start_ns = 0;
  launch.end_ns = 10;
  launch.correlation = 1;
  timeline.launches = {launch};
  DeviceOp a;
  a.start_ns = 20;
  a.end_ns = 50;
  a.stream = 3;
  a.correlation = 1;
  a.name = "gemm";
  DeviceOp b = a;
  b.start_ns = 60;
  b.end_ns = 70;
  b.correlation = 99;
  b.name = "relu";
  timeline.ops = {a, b};
  timeline.counters.dropped_records = 2;
  return analyze_timeline(timeline);
}

TEST(ReportToJson, EmitsTheDeviceSplitWhenAvailable) {
  Report report = sample_report();
  report.paths[0].split_unavailable_reason.clear();
  report.paths[0].breakdown = sample_breakdown();
  const nlohmann::json json = report_to_json(report);
  const auto& split = json["paths"][0]["split"];
  EXPECT_EQ(split["available"], true);
  const auto& it = split["iterations"][0];
  EXPECT_EQ(it["wall_ns"], 100);
  EXPECT_EQ(it["gpu"]["busy_ns"], 40);
  EXPECT_EQ(it["gpu"]["head_ns"], 20);
  EXPECT_EQ(it["gpu"]["host_bound_ns"], 0);
  EXPECT_EQ(it["gpu"]["other_ns"], 10);
  EXPECT_EQ(it["gpu"]["tail_ns"], 30);
  // The identities can be recomputed from the JSON.
  EXPECT_EQ(it["gpu"]["busy_ns"].get<std::int64_t>() + it["gpu"]["idle_ns"].get<std::int64_t>(),
            it["wall_ns"].get<std::int64_t>());
  EXPECT_EQ(it["streams"][0]["stream"], 3);
  EXPECT_EQ(it["dispatch_ns"], 10);     // last launch ends at 10
  EXPECT_EQ(it["launch_api_ns"], 10);
  EXPECT_EQ(it["framework_ns"], 0);
  EXPECT_EQ(it["queue_delays_ns"], (std::vector<std::int64_t>{10}));  // 20 - 10
  EXPECT_EQ(split["summary"]["gpu"]["busy_ns"]["median"], 40.0);
  EXPECT_EQ(split["summary"]["dispatch_ns"]["count"], 1);
  EXPECT_EQ(split["counters"]["collection"]["dropped_records"], 2);
  EXPECT_EQ(split["counters"]["analysis"]["ops_without_launch"], 1);
  EXPECT_EQ(split["kernels"][0]["name"], "gemm");  // 30 ns total, the largest
  EXPECT_EQ(split["kernels"][0]["total_ns"], 30);
  EXPECT_EQ(split["verdict"]["verdict"], "compute-bound");  // dispatch 10 < busy 40, host-bound 0
  EXPECT_TRUE(json["kernel_diffs"].is_array());
}

TEST(ReportToJson, AbsentDispatchIsNullNotZero) {
  Timeline timeline;
  timeline.iterations = {{0, 0, 100}};
  DeviceOp op;
  op.start_ns = 10;
  op.end_ns = 20;
  timeline.ops = {op};
  Report report = sample_report();
  report.paths[0].breakdown = analyze_timeline(timeline);
  const nlohmann::json json = report_to_json(report);
  const auto& it = json["paths"][0]["split"]["iterations"][0];
  EXPECT_TRUE(it["dispatch_ns"].is_null());
  EXPECT_TRUE(it["framework_ns"].is_null());
  EXPECT_EQ(json["paths"][0]["split"]["summary"]["dispatch_ns"]["count"], 0);
}

TEST(ReportToJson, EmitsKernelSetDiffs) {
  Report report = sample_report();
  const PathBreakdown a = sample_breakdown();
  report.kernel_diffs.push_back(diff_kernel_sets(a, PathBreakdown{}, "aoti", "compile"));
  const nlohmann::json json = report_to_json(report);
  const auto& diff = json["kernel_diffs"][0];
  EXPECT_EQ(diff["path_a"], "aoti");
  EXPECT_EQ(diff["same_set"], false);
  ASSERT_EQ(diff["only_a"].size(), 2u);  // gemm and relu, sorted by kind then name
  EXPECT_EQ(diff["only_a"][0]["name"], "gemm");
  EXPECT_EQ(diff["only_a"][0]["count_per_iteration_a"], 1.0);
  EXPECT_EQ(diff["only_b"].size(), 0u);
}

TEST(ReportToJson, WarningsCarryTheirStableCodeAndText) {
  Report report;
  report.warnings = {Warning{WarningCode::outliers, "3 of 50 iterations are statistical outliers"},
                     Warning{WarningCode::ops_without_launch, "2 of 9 GPU operations have no launch call"}};
  const nlohmann::json out = report_to_json(report);
  EXPECT_EQ(kReportSchemaVersion, 2);  // warnings became objects in version 2 (docs/report-schema.md)
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
