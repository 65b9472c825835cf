// report_from_json (src/output/report_from_json.cpp), report_to_json's inverse, on two kinds of evidence:
// a report with every part set to something other than its default, whose JSON must come back key for key
// (a field the reader forgot comes back as its default, and differs); and real reports an earlier ohprof
// wrote (test/data/reports/SOURCES.md), every key of which must read back to the value in the file, less
// the prose the writer makes anew from the numbers.
#include "ohprof/output/json_report.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <istream>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "ohprof/output/report_text.hpp"
#include "ohprof/trace/gzip_file.hpp"
#include "sample_breakdown.hpp"

namespace ohprof {
namespace {

using nlohmann::json;

Estimate estimate(double value, double se) { return Estimate{value, se}; }

// Every part of a compare report set, each enum off its default.
Report full_report() {
  Report r;
  r.kind = ReportKind::compare;
  r.context = make_base_context({"ohprof", "compare", "--threads", "1,2"});
  r.context.device = DeviceDescription{DeviceKind::cuda, 0, "Test GPU"};
  r.context.torch_version = "2.14.1";
  r.context.hostname = "box";
  r.context.cpu_threads = 2;
  r.config.warmup = 3;
  r.config.runs = 7;
  r.config.seed = 11;
  r.config.inputs = {"[1, 16]:float32", "[2]:int64"};
  r.config.inputs_file = "data/inputs.pt";
  r.config.inputs_file_digest = "0123456789abcdef";
  CompareConfig c;
  c.paths = {"aoti", "compile"};
  c.stopping = AdaptiveStopping{3, 12, 900, 0.25, 0.02, std::numeric_limits<double>::infinity(), 4};
  c.check_outputs = CheckMode::strict;
  c.compile_source = PathSource::exported_program;
  c.explain = false;
  c.explain_pairs = {{"compile", "aoti"}};
  c.threads = {1, 2};
  c.cold_start = 3;
  c.what_if = true;
  r.config.compare = c;
  r.artifacts = ArtifactSummary{"m:f", "m.pt2.ep", "m.pt2", true, 123, 456, "export failed once", {"aoti:python"},
                               "a compiler with only a static libstdc++"};

  PathResult aoti = test::measured_path("aoti", {300, 100, 200}, "m.pt2");
  aoti.source = PathSource::aoti_package;
  aoti.load_ns = 42;
  aoti.warmup_ns = {900, 800};
  aoti.wall_rounds = {0, 0, 1};
  aoti.stop_reason = StopReason(StopCode::max_runs_reached, "aoti: time 0.1 s < 0.5 s");
  aoti.breakdown = test::gpu_breakdown();
  PathBreakdown& b = *aoti.breakdown;  // what the hand-built split leaves at its defaults, set
  for (StreamSplit& stream : b.iterations[0].streams) {
    stream.key.device = 1;
    stream.split.communication_ns = 30;
  }
  for (StreamSummary& stream : b.summary.streams) {
    stream.key.device = 1;
    stream.totals.communication_ns = 30;
  }
  b.iterations[0].gpu.communication_ns = b.summary.totals.gpu.communication_ns = 60;
  b.iterations[0].host_states.harness_ns = b.summary.totals.host_states.harness_ns = 70;
  b.iterations[0].dispatch_ns = 77;
  b.iterations[0].host_bound_least_ns = 1200;
  b.summary.totals.full_queue_iterations = 1;
  b.collectives = {CollectiveOp{2, StreamKey{1, 9}, 1, "nccl:all_reduce", 1000, 250}};
  b.verdict.unread_device_events = {{"mtia_op", 4}};
  b.verdict.host_state = HostState::launch;
  b.verdict.waited_stream = StreamKey{1, 7};
  b.verdict.communication_share = 0.006;
  b.verdict.full_queue_iterations = 1;
  b.verdict.whole_recording_window = true;
  b.verdict.kernels_unrecorded = true;
  b.verdict.busy_headroom = 2.5;
  b.verdict.host_bound_headroom = 1.5;
  b.verdict.device_wait_headroom = 1.25;
  b.collection_counters = CollectionCounters{2, 3, 4, 5};
  b.analysis_counters = AnalysisCounters{5, 1, 2, 3, 4, 6, 7, 8, 9};
  aoti.split_collector = CollectorKind::cupti;
  aoti.output_check = PathOutputCheck{"eager", true, 0.5, 0.25, 1e-5, 1e-3, "within tolerance"};
  aoti.collector_cost = CollectorCost{CollectorKind::cupti, 20, 150, 180, 1.2};
  aoti.kernel_attribution = KernelAttributionSummary{true, {"k1"}, {"k2"}, {"aten::mm"}};
  aoti.dynamo_ranges = DynamoRanges{3, test::one(40), test::one(60)};
  ExecutionCheck check;
  check.facts.dynamo = true;
  check.facts.graphs = 2;
  check.facts.graph_breaks = {GraphBreak{"print", 3}};
  check.facts.cuda_graphs_expected = true;
  check.facts.device = "cuda:0";
  check.facts.cuda_graph_skip_reason = "dynamic shapes";
  check.facts.unobserved = "nothing";
  check.facts.fx_cache_hits = 4;
  check.facts.fx_cache_misses = 1;
  check.measured_compiles = {MeasuredCompile{MeasuredPass::split, 5,
                                             CompileEvent{CompileEventKind::cuda_graph_recording, "0/1", 0, 900, "new shape"}}};
  check.excluded_iterations = 1;
  check.excluded_samples_ns = {5000};
  check.pooled = true;
  check.cuda_graphs = CudaGraphUse::not_replayed;
  check.compiled_call = CompiledCall::no_frame;
  check.compiled_call_unknown = ProbeUnknown::probe_failed;  // both set: each read back on its own
  check.compiled_call_error = "the probe's call: RuntimeError: x";
  aoti.execution = check;
  aoti.memory = PathMemory{1000, 2000, 3000, 3, PathDeviceMemory{10, 20, 30, 40, 50, 60, 70}};
  aoti.run_queue = PathRunQueue{41'200, 98'100'000};
  PathConcurrency threads;
  threads.points = {ThreadsPoint{1, 50, {1000, 1100}, {20, 21}, 4.5e4, 300, 20, 25, 1, 1, 1, false},
                    ThreadsPoint{2, 50, {900, 950}, {30, 31}, 8.5e4, 400, 30, 35, 1.9, 1.7, 2.1, true, 456, 123,
                                 {200, 256}, {60, 63}}};  // on_cpu_ns, waited_ns and per round; the first has none (null)
  threads.holds_gil = true;
  threads.host_share = 0.75;
  threads.runner_instances = 2;
  threads.context = ConcurrencyContext{2, 1, true};
  threads.limit = ConcurrencyLimit::device;
  threads.caller_slowdown = 4.25;
  threads.host_share_se = 0.01;
  threads.scaling_within_noise = true;  // each flag read back on its own: a reader that swaps two keys fails
  threads.host_share_within_noise = false;
  threads.host_share_missing = true;
  threads.cores_had_room = true;
  threads.unavailable = "one caller failed";
  aoti.concurrency = threads;
  PathColdStart cold;
  cold.processes = 3;
  ColdStartState state;
  state.cache = CompileCache::warm;
  state.samples = {ColdStartSample{1, 10, 20, 30, 40, 50, 150, 4242, true, 0.001, "close"}};
  state.median = ColdStartPhases{10, 20, 30, 40, 50, 150};
  state.min_total_ns = 140;
  state.max_total_ns = 160;
  state.against_cold = ColdStartOrder::too_few;
  state.speedup_vs_cold = 1.5;
  state.failed = "one process failed";
  state.unavailable = "no cache";
  cold.states = {state};
  aoti.cold_start = cold;
  aoti.slower_paths = {PathRatio{"aoti", "compile", 3.1, 0.2, 2.9, 3.3, true}};
  r.paths.push_back(aoti);

  PathResult variant = test::measured_path("compile/no-guards", {800, 700}, "m.pt2", PathRole::variant);
  variant.split_unavailable_reason = "no collector";
  variant.stop_reason = StopReason(StopCode::time_limit, "compile/no-guards: rse 2% > 1%");
  r.paths.push_back(variant);

  r.kernel_diffs = {KernelSetDiff{"aoti", "compile", {KernelDiffRow{DeviceOpKind::memcpy, "copy", 1, 2, 3, 4}},
                                  {KernelDiffRow{DeviceOpKind::kernel, "a", 1, 0, 5, 0}},
                                  {KernelDiffRow{DeviceOpKind::memset, "b", 0, 1, 0, 6}}}};
  r.kernel_diffs[0].partial = true;
  r.ratios = {PathRatio{"aoti", "compile", 1.5, 0.1, 1.3, 1.7, true}};
  GapExplanation e;
  e.slower = "compile";
  e.faster = "aoti";
  e.measured = true;
  e.gap = estimate(500, 20);
  e.within_noise = true;
  e.kernels = estimate(10, 2);
  e.kernels_same = true;
  e.faster_kernel_share = 0.3;
  e.faster_dominant = Dominant::host;
  e.layers = {LayerEstimate{HostLayer::aot_wrapper, "compile", "compile/graph", "compile/inductor", estimate(100, 5), -1, true}};
  e.floor_slower = "compile/call";
  e.floor_faster = "aoti";
  e.floor_kind_slower = FloorKind::python_wrapper;
  e.floor_kind_faster = FloorKind::cpp_runner;
  e.floor_gap = estimate(200, 8);
  e.wrapper = estimate(150, 6);
  e.residual = estimate(50, 4);
  e.residual_share = 0.1;
  e.remedies = {GapRemedy{"compile:reduce-overhead", estimate(300, 9), 0.6}};
  e.dynamo_ranges = {DynamoRangeCheck{"compile", estimate(1, 1), estimate(2, 1), estimate(3, 1), estimate(4, 1), true, true}};
  e.missing = {"compile/call"};
  r.explanations = {e};
  WhatIfLedger ledger;
  ledger.base = "compile:cpp-wrapper";
  ledger.base_measured = true;
  ledger.base_ready_ns = 99;
  ledger.base_fx_cache_hits = 1;
  ledger.base_fx_cache_misses = 2;
  ledger.base_cache_lookup_ns = 2.5e5;
  WhatIfEntry entry;
  entry.setting = CompileSetting::cuda_graphs;
  entry.path = "compile:reduce-overhead";
  entry.not_applicable = "not on a GPU";
  entry.unavailable = "failed";
  entry.saved = estimate(120, 10);
  entry.significant = true;
  entry.negligible = true;
  entry.beyond_guards = true;
  entry.outputs_match = false;
  entry.max_abs_diff = 0.5;
  entry.ready_ns = 1234;
  entry.extra_run_peak_bytes = 64;
  entry.graph_pool_bytes = 128;
  entry.fx_cache_hits = 3;
  entry.fx_cache_misses = 4;
  ledger.entries = {entry};
  WhatIfAgain again;
  again.path = "compile:again";
  again.moved = estimate(-40, 5);
  again.significant = true;
  WhatIfAgain failed;
  failed.path = "compile:again-2";
  failed.unavailable = "its build failed: no compiler";
  ledger.again = {again, failed};
  ledger.placement = PlacementBand{PlacementRule::prediction, 2, 28.28, 12.706, -20, 440.1, -460.1, 420.1, true};
  r.what_if = ledger;
  DeploymentSummary d;
  d.rows = {DeploymentRow{"aoti", 150.0, 2, 8.5e4, 2e9, 1e9, 1000, 3000, 10, 70, 0.75, true, true, true}};
  d.criteria = {CriterionLeaders{DeployCriterion::warm_start, {"aoti"}, "compile", {"eager"}, true}};
  d.choice = {"aoti"};
  d.candidates = 2;
  d.left_out = {"eager"};
  d.not_measured = {"aoti:python"};
  d.not_measured_cause = NotMeasuredCause::no_package;  // not the default, so that reading it back is checked
  r.deployment = d;
  r.stop_reason = StopReason(StopCode::in_progress);
  r.code_dump = CodeDump{"dump", {"a.py"}, {"note"}};
  r.interrupted = true;
  r.warnings = {{WarningCode::outliers, "3 outliers"}, {WarningCode::cold_start_outputs_differ, "differs"}};
  return r;
}

// An analyze report: the trace's source and its distributed facts.
Report analyze_report() {
  Report r;
  r.kind = ReportKind::analyze;
  r.context = make_base_context({"ohprof", "analyze", "t.json.gz"});
  r.context.device = DeviceDescription{DeviceKind::accelerator, 1, "MTIA"};
  r.trace = TraceSource{"t.json.gz", "kineto", true, 10, 20, 30, 25, 4, {{"", 1}, {"cpu_op", 3}}, 1,
                        IterationSource::whole_trace, 77, DistributedInfo{3, 8, "nccl"}};
  PathResult p = test::measured_path("trace", {500});
  p.stop_reason = StopReason(StopCode::end_of_trace);
  p.breakdown = test::cpu_breakdown();
  p.split_collector = CollectorKind::trace;
  r.paths.push_back(p);
  r.stop_reason = StopReason(StopCode::end_of_trace);
  return r;
}

// report_from_json refuses `bad` with a message holding `says`.
void refused(const json& bad, const std::string& says) {
  try {
    report_from_json(bad);
    ADD_FAILURE() << "read: " << says;
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

TEST(ReportFromJson, ACompareReportWithEveryPartSetReadsBackKeyForKey) {
  const json written = report_to_json(full_report());
  const json again = report_to_json(report_from_json(written));
  EXPECT_TRUE(again == written) << json::diff(written, again).dump(1);
}

TEST(ReportFromJson, AnAnalyzeAndARunReportReadBackKeyForKey) {
  const json analyze = report_to_json(analyze_report());
  const json analyze_again = report_to_json(report_from_json(analyze));
  EXPECT_TRUE(analyze_again == analyze) << json::diff(analyze, analyze_again).dump(1);
  Report run;
  run.context = make_base_context({"ohprof", "run"});
  run.config.runs = 3;
  run.config.inputs = {"[4]:float32"};
  run.paths.push_back(test::measured_path("aoti", {1, 2, 3}, "m.pt2"));
  const json written = report_to_json(run);
  const json again = report_to_json(report_from_json(written));
  EXPECT_TRUE(again == written) << json::diff(written, again).dump(1);
}

TEST(ReportFromJson, ReadsTheTypedStateNotJustItsText) {
  const Report r = report_from_json(report_to_json(full_report()));
  EXPECT_EQ(r.kind, ReportKind::compare);
  ASSERT_EQ(r.paths.size(), 2u);
  EXPECT_EQ(r.paths[0].stop_reason, StopReason(StopCode::max_runs_reached, "aoti: time 0.1 s < 0.5 s"));
  EXPECT_EQ(r.paths[0].wall_rounds, (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(r.paths[1].role, PathRole::variant);
  EXPECT_EQ(r.paths[1].stop_reason.code, StopCode::time_limit);
  EXPECT_EQ(r.stop_reason.code, StopCode::in_progress);
  ASSERT_TRUE(r.config.compare.has_value());
  EXPECT_EQ(r.config.compare->stopping.warmup, 3);  // config.warmup
  EXPECT_TRUE(std::isinf(r.config.compare->stopping.time_limit_s));  // written as null
  ASSERT_TRUE(r.paths[0].execution.has_value());
  EXPECT_TRUE(r.paths[0].execution->facts.cuda_graphs_expected);
  EXPECT_EQ(r.paths[0].execution->measured_compiles[0].event.end_ns, 900);  // its duration
  EXPECT_EQ(r.paths[0].execution->compiled_call, CompiledCall::no_frame);
  EXPECT_EQ(r.paths[0].execution->compiled_call_unknown, ProbeUnknown::probe_failed);
  EXPECT_EQ(r.paths[0].execution->compiled_call_error, "the probe's call: RuntimeError: x");
  EXPECT_TRUE(r.paths[0].concurrency->scaling_within_noise);
  EXPECT_FALSE(r.paths[0].concurrency->host_share_within_noise);
  EXPECT_TRUE(r.paths[0].concurrency->host_share_missing);
  EXPECT_TRUE(r.paths[0].concurrency->cores_had_room);
  EXPECT_EQ(r.paths[0].concurrency->points[1].on_cpu_ns, std::optional<std::int64_t>(456));
  EXPECT_EQ(r.paths[0].concurrency->points[1].waited_ns, std::optional<std::int64_t>(123));
  EXPECT_FALSE(r.paths[0].concurrency->points[0].waited_ns.has_value());
  EXPECT_EQ(r.paths[0].concurrency->points[1].waited_round_ns, (std::vector<std::int64_t>{60, 63}));
  EXPECT_TRUE(r.paths[0].concurrency->points[0].on_cpu_round_ns.empty());
  EXPECT_EQ(r.paths[0].run_queue, (PathRunQueue{41'200, 98'100'000}));
  EXPECT_FALSE(r.paths[1].run_queue.has_value());
  EXPECT_EQ(r.explanations[0].faster_dominant, Dominant::host);
  ASSERT_TRUE(r.deployment.has_value() && r.artifacts.has_value());
  EXPECT_EQ(r.deployment->not_measured_cause, NotMeasuredCause::no_package);
  EXPECT_EQ(r.artifacts->aoti_error, "a compiler with only a static libstdc++");
  // A report from before 2026-12-07 has no cause: torch.export's failure, the only one then.
  json older = report_to_json(full_report());
  older["deployment"].erase("not_measured_cause");
  EXPECT_EQ(report_from_json(older).deployment->not_measured_cause, NotMeasuredCause::export_failed);
  ASSERT_EQ(r.paths[0].slower_paths.size(), 1u);
  EXPECT_EQ(r.paths[0].slower_paths[0].slower, "compile");
  EXPECT_EQ(r.paths[0].slower_paths[0].high, 3.3);
  EXPECT_TRUE(r.deployment->rows[0].ran_uncompiled);
  EXPECT_TRUE(r.what_if->entries[0].significant);
  ASSERT_EQ(r.what_if->again.size(), 2u);
  ASSERT_TRUE(r.what_if->again[0].moved.has_value());
  EXPECT_EQ(r.what_if->again[0].moved->value_ns, -40.0);
  EXPECT_TRUE(r.what_if->again[0].significant);  // made again from moved
  EXPECT_EQ(r.what_if->again[1].unavailable, "its build failed: no compiler");
  EXPECT_EQ(r.what_if->placement.rule, PlacementRule::prediction);
  EXPECT_EQ(r.what_if->placement.builds, 2);
  EXPECT_EQ(r.what_if->placement.low_ns, -460.1);
  EXPECT_EQ(r.what_if->placement.high_ns, 420.1);
  EXPECT_TRUE(r.what_if->placement.from_again);
  EXPECT_EQ(r.warnings[1].code, WarningCode::cold_start_outputs_differ);
}

TEST(ReportFromJson, AKeyAReportPredatesReadsAsItsDefaultAndAWrongOneIsRefused) {
  json j = report_to_json(full_report());
  j["paths"][0].erase("concurrency");
  j["paths"][0].erase("memory");
  j["paths"][0].erase("run_queue");
  j["config"]["compare"].erase("threads");
  j.erase("deployment");
  j["what_if"].erase("again");
  j["what_if"].erase("rebuilds");
  j["what_if"].erase("placement");
  j["paths"][0]["split"]["summary"]["totals"].erase("full_queue_iterations");
  j["paths"][0].erase("sample_rounds");
  j["paths"][0]["execution"].erase("compiled_call");
  j["paths"][0]["execution"].erase("compiled_call_unknown");
  j["paths"][0]["execution"].erase("compiled_call_error");
  j["explanations"][0]["dynamo_ranges"][0].erase("guards_exceed_lookup");
  j["explanations"][0]["dynamo_ranges"][0].erase("layers_exceed_outside");
  ASSERT_EQ(j["config"]["compare"]["cold_start_min_orders"], 40);  // a report written now
  j["config"]["compare"].erase("cold_start_min_orders");
  j["config"].erase("inputs_file");
  j["config"]["inputs_file_digest"] = nullptr;  // null: random inputs, as absent
  const Report r = report_from_json(j);
  EXPECT_EQ(r.config.inputs_file, "");  // before 2026-12-07: not recorded, read as random inputs
  EXPECT_EQ(r.config.inputs_file_digest, "");
  EXPECT_EQ(r.config.compare->cold_start_min_orders, 20);  // written under the rule before 2026-12-06
  EXPECT_EQ(report_to_json(r)["config"]["compare"]["cold_start_min_orders"], 20);  // and written again as such
  EXPECT_FALSE(r.paths[0].execution->compiled_call.has_value());  // not probed
  EXPECT_FALSE(r.paths[0].execution->compiled_call_unknown.has_value());
  EXPECT_TRUE(r.paths[0].execution->compiled_call_error.empty());
  EXPECT_FALSE(r.explanations[0].dynamo_ranges[0].guards_exceed_lookup);  // older reports: the views not judged
  EXPECT_FALSE(r.explanations[0].dynamo_ranges[0].layers_exceed_outside);
  EXPECT_TRUE(r.paths[0].wall_rounds.empty());  // samples not paired by round
  EXPECT_FALSE(r.paths[0].run_queue.has_value());  // before 2026-12-07: the wait not measured
  ASSERT_TRUE(r.what_if.has_value());
  ASSERT_EQ(r.what_if->again.size(), 1u);
  EXPECT_FALSE(r.what_if->again[0].moved.has_value());
  EXPECT_EQ(r.what_if->again[0].unavailable, "not in this report (its ohprof predates the A/A check)");
  EXPECT_EQ(r.what_if->placement.rule, PlacementRule::absent);
  EXPECT_FALSE(report_to_json(r)["what_if"].contains("again"));  // written again as it was read
  EXPECT_FALSE(report_to_json(r)["what_if"].contains("placement"));
  EXPECT_FALSE(r.paths[0].concurrency.has_value());
  EXPECT_FALSE(r.paths[0].memory.has_value());
  EXPECT_TRUE(r.config.compare->threads.empty());
  EXPECT_FALSE(r.deployment.has_value());
  EXPECT_EQ(r.paths[0].breakdown->summary.totals.full_queue_iterations, 0u);

  json bad = report_to_json(full_report());
  bad["paths"][0]["split"]["verdict"]["verdict"] = "slow";
  refused(bad, "verdict 'slow' is none of unknown, host-bound");
  bad = report_to_json(full_report());
  bad["paths"][0]["stop_reason"] = "tired";
  refused(bad, "stop_reason 'tired'");
  bad = report_to_json(full_report());
  bad["paths"][0].erase("samples_ns");
  refused(bad, "samples_ns");
  bad = report_to_json(full_report());
  bad["paths"][0]["load_ns"] = "soon";
  refused(bad, "'load_ns': type must be number, but is string");
  bad = report_to_json(full_report());
  bad["paths"][0]["sample_rounds"] = json::array({0, 1});
  refused(bad, "paths[aoti].sample_rounds has 2 entries for 3 samples_ns");
  bad["paths"][0]["sample_rounds"] = json::array({0, -1, 1});
  refused(bad, "paths[aoti].sample_rounds holds a negative round");
  refused(json::array(), "not a JSON object");
}

// A report of 2026-12-05's ohprof: one rebuild (`again` an object) and a floor on |saved|, read as a band
// [-floor, floor] under that rule.
TEST(ReportFromJson, AnOlderLedgersOneRebuildAndFloorReadAsTheirOwnRule) {
  json j = report_to_json(full_report());
  j["what_if"]["again"] = {{"path", "compile:again"}, {"unavailable", nullptr},
                           {"moved", {{"value_ns", -40.0}, {"se_ns", 5.0}, {"significant", true}}},
                           {"moved_low_ns", -49.8}, {"moved_high_ns", -30.2}};
  j["what_if"].erase("rebuilds");
  j["what_if"].erase("placement");
  j["what_if"]["placement_floor_ns"] = 441.06;
  j["what_if"]["floor_from_again"] = true;
  const Report r = report_from_json(j);
  ASSERT_EQ(r.what_if->again.size(), 1u);
  EXPECT_EQ(r.what_if->again[0].moved->value_ns, -40.0);
  const PlacementBand& band = r.what_if->placement;
  EXPECT_EQ(band.rule, PlacementRule::floor);
  EXPECT_EQ(band.low_ns, -441.06);
  EXPECT_EQ(band.high_ns, 441.06);
  EXPECT_TRUE(band.from_again);
  // Written again, it keeps its own layout: what its rule was, not this ohprof's band.
  const json rewritten = report_to_json(r)["what_if"];
  EXPECT_EQ(rewritten["again"], j["what_if"]["again"]);
  EXPECT_EQ(rewritten["placement_floor_ns"], 441.06);
  EXPECT_EQ(rewritten["floor_from_again"], true);
  EXPECT_FALSE(rewritten.contains("placement"));
  EXPECT_FALSE(rewritten.contains("rebuilds"));
  EXPECT_NE(what_if_placement_text(*r.what_if).find("beyond 441 ns per call either way (the rule of the ohprof that "
                                                     "wrote this report"),
            std::string::npos)
      << what_if_placement_text(*r.what_if);
}

TEST(ReportFromJson, AContainerOfTheWrongTypeIsRefusedByNameAndNullReadsAsTheDefault) {
  json bad = report_to_json(full_report());
  bad["paths"][0]["memory"] = 5;  // an object's key: read before as an empty object
  refused(bad, "'memory': type must be object, but is number");
  bad = report_to_json(full_report());
  bad["ratios"] = json::object();  // a list's key
  refused(bad, "'ratios': type must be array, but is object");
  bad = report_to_json(full_report());
  bad["warnings"] = "none";
  refused(bad, "'warnings': type must be array, but is string");
  bad = report_to_json(full_report());
  bad["paths"][0]["split"]["kernels"] = json::array({7});  // an element of a list of objects
  refused(bad, "type must be object, but is number");

  json nulls = report_to_json(full_report());
  ASSERT_FALSE(nulls["paths"][0]["split"]["iterations"][0]["streams"].empty());
  nulls["paths"][0]["split"]["iterations"][0]["streams"][0]["waited_ns"] = nullptr;
  nulls["context"]["device"]["index"] = nullptr;
  nulls["context"]["cpu_threads"] = nullptr;
  const Report r = report_from_json(nulls);
  EXPECT_EQ(r.paths[0].breakdown->iterations[0].streams[0].waited_ns, 0);
  EXPECT_EQ(r.context.device.index, -1);
  EXPECT_EQ(r.context.cpu_threads, 0);
}

TEST(ReportFromJson, APathWithoutAWallSummaryHasNoMedianNotZero) {
  json j = report_to_json(full_report());
  j["paths"][0].erase("wall_ns");
  const Report r = report_from_json(j);
  EXPECT_TRUE(std::isnan(r.paths[0].wall.median));
  EXPECT_EQ(r.paths[0].wall.count, 0u);
}

// A later ohprof may add an enum value, a warning code or a stop reason without a schema bump
// (docs/report-schema.md): given a list, the reader lists them and reads their fields as defaults, except
// where the field says what was measured.
TEST(ReportFromJson, ALaterOhprofsTextsAreListedAndReadAsDefaultsWhenTheCallerAsks) {
  json later = report_to_json(full_report());
  later["paths"][0]["split"]["verdict"]["verdict"] = "new-verdict";
  later["paths"][0]["stop_reason"] = "a new reason";
  later["warnings"][0]["code"] = "new-code";
  const std::size_t warnings = later["warnings"].size();
  EXPECT_THROW(report_from_json(later), std::runtime_error);  // strict without a list

  std::vector<UnknownText> unknown;
  const Report r = report_from_json(later, &unknown);
  ASSERT_EQ(unknown.size(), 3u);
  // Each under its place, so a user can find it.
  EXPECT_EQ(unknown_texts_text(unknown),
            "paths[aoti].stop_reason 'a new reason', paths[aoti].split.verdict.verdict 'new-verdict', warnings 'new-code'");
  EXPECT_EQ(r.paths[0].breakdown->verdict.verdict, Verdict{});
  EXPECT_EQ(r.paths[0].stop_reason, StopReason());
  EXPECT_EQ(r.warnings.size(), warnings - 1);
  EXPECT_EQ(r.paths[1].stop_reason.code, StopCode::time_limit);  // the known ones as before

  for (const auto& [where, key] : std::vector<std::pair<json::json_pointer, std::string>>{
           {json::json_pointer("/paths/1/role"), "role"},
           {json::json_pointer("/config/compare/compile_source"), "compile_source"},
           {json::json_pointer("/context/device/type"), "device type"},
           {json::json_pointer("/paths/0/cold_start/states/0/cache"), "cache"},
           {json::json_pointer("/kind"), "kind"}}) {
    json identity = report_to_json(full_report());
    identity[where] = "new-in-v9";
    std::vector<UnknownText> listed;
    try {
      report_from_json(identity, &listed);
      ADD_FAILURE() << key << " was read";
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(key + " 'new-in-v9' is none of"), std::string::npos) << e.what();
    }
  }
}

// A refusal inside a tolerant read (a strict field) leaves no scope or place behind: the next read on the
// thread is strict again, and its texts are placed from the top.
TEST(ReportFromJson, AfterARefusalTheNextReadIsStrictAndPlacesFromTheTop) {
  json refused = report_to_json(full_report());
  refused["paths"][0]["cold_start"]["states"][0]["cache"] = "new-in-v9";  // thrown inside paths[aoti].cold_start
  std::vector<UnknownText> listed;
  EXPECT_THROW(report_from_json(refused, &listed), std::runtime_error);

  json later = report_to_json(full_report());
  later["warnings"][0]["code"] = "new-code";
  EXPECT_THROW(report_from_json(later), std::runtime_error);  // no list left in force
  std::vector<UnknownText> unknown;
  report_from_json(later, &unknown);
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0].key, "warnings");  // no place left over from the refused read
}

TEST(StopReasonFromText, IsStopReasonTextsInverse) {
  for (std::size_t i = 0; i < enum_texts(StopCode{}).size(); ++i) {
    const auto code = static_cast<StopCode>(i);
    const StopReason reason = code == StopCode::max_runs_reached || code == StopCode::time_limit
                                  ? StopReason(code, "aoti: time 0.1 s < 0.5 s; eager: rse 2% > 1% (sic)")
                                  : StopReason(code);
    EXPECT_EQ(stop_reason_from_text(stop_reason_text(reason)), reason) << to_string(code);
  }
  EXPECT_EQ(stop_reason_from_text("max runs reached"), StopReason(StopCode::max_runs_reached));
  EXPECT_EQ(stop_reason_from_text("Converged"), std::nullopt);
  EXPECT_EQ(stop_reason_from_text("time limit (unmet: x"), std::nullopt);
}

// Each key of `original` has the same value in `again` (which may have keys `original` predates), except
// the prose the writer makes from the numbers (its wording may have changed since).
void expect_same_values(const json& original, const json& again, const std::string& where, int& compared) {
  if (original.is_object()) {
    ASSERT_TRUE(again.is_object()) << where;
    for (const auto& [key, value] : original.items()) {
      if (key == "suggestion" || key == "answer" || key == "text") continue;
      ASSERT_TRUE(again.contains(key)) << where << "." << key;
      expect_same_values(value, again.at(key), where + "." + key, compared);
    }
  } else if (original.is_array()) {
    ASSERT_TRUE(again.is_array()) << where;
    ASSERT_EQ(original.size(), again.size()) << where;
    for (std::size_t i = 0; i < original.size(); ++i) {
      expect_same_values(original[i], again[i], where + "[" + std::to_string(i) + "]", compared);
    }
  } else {
    ++compared;
    EXPECT_EQ(original, again) << where;
  }
}

json read_gzip_json(const std::string& path) {
  auto buffer = GzipInputBuffer::open(path);
  EXPECT_TRUE(buffer.ok()) << path;
  std::istream in(buffer->get());
  return json::parse(in);
}

TEST(ReportFromJson, RealReportsOfAnEarlierOhprofReadBackToEveryValueTheyHold) {
  const std::string dir = std::string(OHPROF_SOURCE_DIR) + "/test/data/";
  for (const std::string file : {"reports/cpu-deploy-resnet18-2026-12-04.json.gz", "diff/tiny-mlp-b1.json.gz"}) {
    SCOPED_TRACE(file);
    const json original = read_gzip_json(dir + file);
    const json again = report_to_json(report_from_json(original));
    int compared = 0;
    expect_same_values(original, again, "", compared);
    EXPECT_GT(compared, 10000);  // the samples, splits and iterations, not just a few keys
  }
}


}  // namespace
}  // namespace ohprof
