// compare's deployment summary (docs/metrics.md, "Deployment summary"): rows, leaders and the choice, each
// worked out by hand.
#include "ohprof/analysis/deployment.hpp"

#include <gtest/gtest.h>

#include "ohprof/analysis/cold_start.hpp"
#include "ohprof/analysis/concurrency.hpp"
#include "ohprof/base/stats.hpp"

namespace ohprof {
namespace {

PathResult path(const std::string& name, std::vector<std::int64_t> samples) {
  PathResult p;
  p.name = name;
  p.wall_ns = std::move(samples);
  p.wall = summarize_ns(p.wall_ns);
  return p;
}

// One caller, then `threads` callers at `calls_per_s` ± `se`.
void add_threads(PathResult& p, int threads, double calls_per_s, double se) {
  PathConcurrency c;
  c.points.push_back(ThreadsPoint{});
  c.points.back().threads = 1;
  c.points.push_back(ThreadsPoint{});
  c.points.back().threads = threads;
  c.points.back().calls_per_s = calls_per_s;
  c.points.back().calls_per_s_se = se;
  p.concurrency = c;
}

ColdStartState state(CompileCache cache, std::vector<std::int64_t> totals) {
  ColdStartState s;
  s.cache = cache;
  for (const std::int64_t total : totals) {
    ColdStartSample sample;
    sample.total_ns = total;
    s.samples.push_back(sample);
  }
  summarize_cold_start(s);
  return s;
}

// Latency: aoti median 1000 (MAD 100), eager 1050 (MAD 100): 50 ± 117.5 within noise; compile 5000.
std::vector<PathResult> three_paths() {
  PathResult aoti = path("aoti", {800, 900, 1000, 1100, 1200});
  PathResult eager = path("eager", {850, 950, 1050, 1150, 1250});
  PathResult compile = path("compile", {4800, 4900, 5000, 5100, 5200});
  add_threads(aoti, 2, 2000, 10);
  add_threads(eager, 2, 900, 10);
  add_threads(compile, 2, 1000, 10);
  aoti.cold_start = PathColdStart{4, {state(CompileCache::none, {1'200'000'000, 1'300'000'000, 1'250'000'000, 1'250'000'000})}};
  eager.cold_start = PathColdStart{4, {state(CompileCache::none, {3'000'000'000, 3'100'000'000, 3'200'000'000, 3'100'000'000})}};
  compile.cold_start = PathColdStart{4, {state(CompileCache::cold, {14'000'000'000, 15'000'000'000, 16'000'000'000, 15'000'000'000}),
                                         state(CompileCache::warm, {5'000'000'000, 5'100'000'000, 5'200'000'000, 5'100'000'000})}};
  aoti.memory = PathMemory{};
  aoti.memory->build_retained_bytes = 1'000'000;
  aoti.memory->run_peak_bytes = 4096;
  aoti.memory->device = PathDeviceMemory{};
  aoti.memory->device->build_used_bytes = 44'700'000;
  aoti.memory->device->graph_pool_bytes = 2'097'152;
  return {aoti, eager, compile};
}

TEST(DeploymentSummary, OnePathLeadingEveryCriterionIsTheChoice) {
  std::vector<PathResult> paths = three_paths();
  PathResult variant = path("compile/no-guards", {10, 20, 30});
  variant.role = PathRole::variant;
  paths.push_back(variant);
  PathResult what_if = path("compile:cpp-wrapper", {10, 20, 30});
  what_if.role = PathRole::what_if;
  paths.push_back(what_if);
  const DeploymentSummary s = deployment_summary(paths);
  ASSERT_EQ(s.rows.size(), 3u);  // the paths asked for only
  EXPECT_EQ(s.rows[0].path, "aoti");
  EXPECT_EQ(s.rows[0].latency_ns, std::optional<double>(1000));
  EXPECT_EQ(s.rows[0].threads, 2);
  EXPECT_EQ(s.rows[0].calls_per_s, std::optional<double>(2000));
  EXPECT_EQ(s.rows[0].cold_start_ns, std::optional<double>(1'250'000'000));  // "none" stands for cold and warm
  EXPECT_EQ(s.rows[0].warm_start_ns, std::optional<double>(1'250'000'000));
  EXPECT_EQ(s.rows[0].build_retained_bytes, std::optional<std::int64_t>(1'000'000));
  EXPECT_EQ(s.rows[0].run_peak_bytes, std::optional<std::int64_t>(4096));
  EXPECT_EQ(s.rows[0].device_build_bytes, std::optional<std::int64_t>(44'700'000));
  EXPECT_EQ(s.rows[0].graph_pool_bytes, std::optional<std::int64_t>(2'097'152));
  EXPECT_FALSE(s.rows[1].device_build_bytes.has_value());  // no memory.device: not a CUDA run
  EXPECT_FALSE(s.rows[0].host_share.has_value());  // no split
  EXPECT_EQ(s.rows[2].cold_start_ns, std::optional<double>(15'000'000'000));
  EXPECT_EQ(s.rows[2].warm_start_ns, std::optional<double>(5'100'000'000));
  ASSERT_EQ(s.criteria.size(), 4u);
  EXPECT_EQ(s.criteria[0].criterion, DeployCriterion::latency);
  EXPECT_EQ(s.criteria[0].leaders, (std::vector<std::string>{"aoti", "eager"}));  // 50 ns within noise
  EXPECT_EQ(s.criteria[0].next, "compile");
  // 2000 against 1000 ± hypot(10, 10): significant; compile (1000) is next, above eager (900).
  EXPECT_EQ(s.criteria[1].criterion, DeployCriterion::throughput);
  EXPECT_EQ(s.criteria[1].leaders, (std::vector<std::string>{"aoti"}));
  EXPECT_EQ(s.criteria[1].next, "compile");
  // Cold: aoti's 4 totals all below eager's 4: C(8, 4) = 70 orders, so the order is named.
  EXPECT_EQ(s.criteria[2].criterion, DeployCriterion::cold_start);
  EXPECT_EQ(s.criteria[2].leaders, (std::vector<std::string>{"aoti"}));
  EXPECT_EQ(s.criteria[2].next, "eager");
  EXPECT_FALSE(s.criteria[2].too_few);
  EXPECT_EQ(s.criteria[3].leaders, (std::vector<std::string>{"aoti"}));
  EXPECT_EQ(s.choice, (std::vector<std::string>{"aoti"}));
  EXPECT_TRUE(s.left_out.empty());
  for (const CriterionLeaders& c : s.criteria) EXPECT_TRUE(c.without.empty()) << to_string(c.criterion);
}

// Throughput from the rounds (test/analysis/concurrency_test.cpp, ThroughputDifference): aoti 1250 calls/s,
// eager 1024, 226 ± 31.93 by the independent form, but the per-round differences swing (paired se 182.82):
// eager is within noise of aoti and leads with it; with eager's rounds' drift shared instead, it is not.
// The host share is the verdict's host-bound share, where the verdict says it can be read.
TEST(DeploymentSummary, TheHostShareOnlyWhereTheVerdictCanReadIt) {
  std::vector<PathResult> paths = three_paths();
  PathBreakdown split;
  split.summary.totals.iterations = 3;
  split.verdict.host_bound_share = 0.9;
  split.verdict.reason = VerdictReason::dominant_share;
  paths[0].breakdown = split;
  EXPECT_EQ(deployment_summary(paths).rows[0].host_share, std::optional<double>(0.9));
  for (const VerdictReason unread :
       {VerdictReason::no_launches, VerdictReason::unread_device_events, VerdictReason::launches_without_ops}) {
    paths[0].breakdown->verdict.reason = unread;
    EXPECT_FALSE(deployment_summary(paths).rows[0].host_share.has_value()) << to_string(unread);
  }
}

TEST(DeploymentSummary, ThroughputLeadersArePairedByRound) {
  std::vector<PathResult> paths = three_paths();
  const auto set_top = [](PathResult& p, std::vector<std::int64_t> round_ns) {
    p.concurrency->points.back() = threads_point(2, 5, std::move(round_ns), {});
  };
  set_top(paths[0], {8'000'000, 7'812'500, 8'000'000, 6'250'000, 10'000'000});
  set_top(paths[1], {12'500'000, 8'000'000, 10'000'000, 9'765'625, 9'765'625});
  set_top(paths[2], {20'000'000, 20'000'000, 20'000'000, 20'000'000, 20'000'000});  // compile 500 calls/s
  DeploymentSummary s = deployment_summary(paths);
  EXPECT_EQ(s.criteria[1].criterion, DeployCriterion::throughput);
  EXPECT_EQ(s.criteria[1].leaders, (std::vector<std::string>{"aoti", "eager"}));
  EXPECT_EQ(s.criteria[1].next, "compile");
  set_top(paths[1], {10'000'000, 9'765'625, 10'000'000, 10'000'000, 9'765'625});
  s = deployment_summary(paths);
  EXPECT_EQ(s.criteria[1].leaders, (std::vector<std::string>{"aoti"}));
  EXPECT_EQ(s.criteria[1].next, "eager");
}

TEST(DeploymentSummary, APathWithoutAFigureIsNamedAndCannotBeTheChoice) {
  std::vector<PathResult> paths = three_paths();
  paths[0].concurrency->unavailable = "its callers failed";  // aoti: no throughput
  const DeploymentSummary s = deployment_summary(paths);
  EXPECT_EQ(s.criteria[1].leaders, (std::vector<std::string>{"compile"}));
  EXPECT_EQ(s.criteria[1].without, (std::vector<std::string>{"aoti"}));
  EXPECT_FALSE(s.rows[0].calls_per_s.has_value());
  EXPECT_TRUE(s.choice.empty());
}

TEST(DeploymentSummary, LeadersThatDifferLeaveTheChoiceOpen) {
  std::vector<PathResult> paths = three_paths();
  // eager now starts fastest: 4 totals all below aoti's.
  paths[1].cold_start = PathColdStart{4, {state(CompileCache::none, {500'000'000, 600'000'000, 700'000'000, 600'000'000})}};
  const DeploymentSummary s = deployment_summary(paths);
  EXPECT_EQ(s.criteria[2].leaders, (std::vector<std::string>{"eager"}));
  EXPECT_EQ(s.criteria[2].next, "aoti");
  EXPECT_EQ(s.criteria[1].leaders, (std::vector<std::string>{"aoti"}));
  EXPECT_TRUE(s.choice.empty());
}

TEST(DeploymentSummary, TooFewProcessesToOrderCountAsLeadersAndSaySo) {
  std::vector<PathResult> paths = three_paths();
  // 2 processes each: C(4, 2) = 6 < 40 orders, even with both of eager's above both of aoti's.
  paths[0].cold_start = PathColdStart{2, {state(CompileCache::none, {1'200'000'000, 1'300'000'000})}};
  paths[1].cold_start = PathColdStart{2, {state(CompileCache::none, {3'000'000'000, 3'100'000'000})}};
  paths[2].cold_start.reset();
  const DeploymentSummary s = deployment_summary(paths);
  ASSERT_EQ(s.criteria.size(), 4u);
  EXPECT_EQ(s.criteria[2].leaders, (std::vector<std::string>{"aoti", "eager"}));
  EXPECT_TRUE(s.criteria[2].too_few);
  EXPECT_EQ(s.criteria[2].next, "");
}

TEST(DeploymentSummary, APathWhoseOutputsDifferIsLeftOutAndOnlyLatencyWithoutTheOtherPasses) {
  PathResult fast = path("compile:cpp-wrapper", {100, 110, 120});
  fast.output_check = PathOutputCheck{};
  fast.output_check->passed = false;
  const DeploymentSummary s = deployment_summary({path("eager", {1000, 1100, 1200}), fast});
  ASSERT_EQ(s.rows.size(), 2u);
  EXPECT_TRUE(s.rows[1].outputs_differ);
  EXPECT_EQ(s.left_out, (std::vector<std::string>{"compile:cpp-wrapper"}));
  ASSERT_EQ(s.criteria.size(), 1u);  // no --threads, no --cold-start
  EXPECT_EQ(s.criteria[0].leaders, (std::vector<std::string>{"eager"}));
  EXPECT_EQ(s.criteria[0].next, "");
  EXPECT_EQ(s.candidates, 1u);
  EXPECT_TRUE(s.choice.empty());  // one path weighed: nothing to choose between
  EXPECT_TRUE(deployment_summary({path("eager", {})}).criteria.empty());  // nothing measured: no criterion
  EXPECT_STREQ(to_string(DeployCriterion::warm_start), "warm-start");
}

// Each process of the path's cold (or none) state read `peaks` (bytes, in order), then the state is summarised anew.
void set_peaks(PathResult& p, std::vector<std::int64_t> peaks) {
  ColdStartState& state = p.cold_start->states.front();
  for (std::size_t i = 0; i < state.samples.size(); ++i) {
    state.samples[i].peak_rss_bytes = i < peaks.size() ? std::optional<std::int64_t>(peaks[i]) : std::nullopt;
  }
  summarize_cold_start(state);
}

// The fresh peak is a criterion like the starts: the lowest median peak of the cold (or none) state, and a path
// leads too unless all its peaks lie above all of the best's with at least 40 orders.
TEST(DeploymentSummary, TheFreshPeakIsOrderedByTheRankRuleOfTheStarts) {
  std::vector<PathResult> paths = three_paths();
  set_peaks(paths[0], {542'000'000, 542'100'000, 542'050'000, 542'150'000});  // aoti: median 542.075 MB
  set_peaks(paths[1], {600'000'000, 601'000'000, 602'000'000, 603'000'000});  // eager: every one above aoti's
  set_peaks(paths[2], {809'000'000, 808'800'000, 809'100'000, 808'900'000});  // compile, cold
  DeploymentSummary s = deployment_summary(paths);
  EXPECT_EQ(s.rows[0].fresh_peak_bytes, std::optional<double>(542'075'000));
  ASSERT_EQ(s.criteria.size(), 5u);
  EXPECT_EQ(s.criteria[4].criterion, DeployCriterion::fresh_peak);
  EXPECT_EQ(s.criteria[4].leaders, (std::vector<std::string>{"aoti"}));
  EXPECT_EQ(s.criteria[4].next, "eager");  // median 601.5 MB, below compile's 808.95 MB
  EXPECT_FALSE(s.criteria[4].too_few);
  EXPECT_FALSE(s.criteria[4].negligible);
  EXPECT_EQ(s.choice, (std::vector<std::string>{"aoti"}));  // it leads the four others too
  EXPECT_STREQ(to_string(DeployCriterion::fresh_peak), "fresh-peak");

  // eager's peaks straddle aoti's range (one at 542.1 MB): not told apart, both lead, and aoti stays the choice
  set_peaks(paths[1], {542'100'000, 601'000'000, 602'000'000, 603'000'000});
  s = deployment_summary(paths);
  EXPECT_EQ(s.criteria[4].leaders, (std::vector<std::string>{"aoti", "eager"}));
  EXPECT_EQ(s.criteria[4].next, "compile");
  EXPECT_FALSE(s.criteria[4].too_few);
  EXPECT_FALSE(s.criteria[4].negligible);
  EXPECT_EQ(s.choice, (std::vector<std::string>{"aoti"}));

  // every eager peak above every aoti peak, but its median 547.35 MB within 1% of aoti's 542.075 MB (547.50 MB):
  // one figure, both lead; at 547.55 MB (1.0097 times aoti's) eager is told apart
  set_peaks(paths[1], {547'300'000, 547'400'000, 547'350'000, 547'350'000});
  s = deployment_summary(paths);
  EXPECT_EQ(s.criteria[4].leaders, (std::vector<std::string>{"aoti", "eager"}));
  EXPECT_TRUE(s.criteria[4].negligible);
  set_peaks(paths[1], {547'500'000, 547'600'000, 547'550'000, 547'550'000});
  s = deployment_summary(paths);
  EXPECT_EQ(s.criteria[4].leaders, (std::vector<std::string>{"aoti"}));
  EXPECT_FALSE(s.criteria[4].negligible);

  // every eager peak below every aoti peak: eager alone leads memory, aoti the rest: the choice depends
  set_peaks(paths[1], {500'000'000, 501'000'000, 502'000'000, 503'000'000});
  s = deployment_summary(paths);
  EXPECT_EQ(s.criteria[4].leaders, (std::vector<std::string>{"eager"}));
  EXPECT_EQ(s.criteria[4].next, "aoti");
  EXPECT_TRUE(s.choice.empty());

  // 3 readings against 4 (one eager process could not read its memory): 35 orders, too few against each other path,
  // so every path leads with the best, and the criterion says so
  set_peaks(paths[1], {500'000'000, 501'000'000, 502'000'000});
  s = deployment_summary(paths);
  EXPECT_EQ(s.criteria[4].leaders, (std::vector<std::string>{"eager", "aoti", "compile"}));
  EXPECT_TRUE(s.criteria[4].too_few);

  // a path whose processes read nothing has no figure for it, and cannot be the choice
  set_peaks(paths[1], {});
  s = deployment_summary(paths);
  EXPECT_EQ(s.criteria[4].without, (std::vector<std::string>{"eager"}));
  EXPECT_EQ(s.criteria[4].leaders, (std::vector<std::string>{"aoti"}));
  EXPECT_EQ(s.choice, (std::vector<std::string>{"aoti"}));  // aoti leads the rest too; eager could not have been it
  // without any reading: no such criterion (reports before 2026-12-07)
  EXPECT_EQ(deployment_summary(three_paths()).criteria.size(), 4u);
}

// A path that ran uncompiled code (its execution check's probe) is left out like one whose outputs differ:
// the fastest here (100 ns) leads nothing, and eager is the one path weighed.
TEST(DeploymentSummary, APathThatRanUncompiledIsLeftOut) {
  PathResult fast = path("compile", {100, 110, 120});
  fast.execution = ExecutionCheck{};
  fast.execution->facts.dynamo = true;
  fast.execution->compiled_call = CompiledCall::guards_missed;
  PathResult slow = path("compile:cpp-wrapper", {2000, 2100, 2200});
  slow.execution = ExecutionCheck{};
  slow.execution->facts.dynamo = true;
  slow.execution->compiled_call = CompiledCall::compiled;
  const DeploymentSummary s = deployment_summary({path("eager", {1000, 1100, 1200}), fast, slow});
  ASSERT_EQ(s.rows.size(), 3u);
  EXPECT_TRUE(s.rows[1].ran_uncompiled);
  EXPECT_FALSE(s.rows[1].outputs_differ);
  EXPECT_FALSE(s.rows[2].ran_uncompiled);
  EXPECT_EQ(s.left_out, (std::vector<std::string>{"compile"}));
  EXPECT_EQ(s.candidates, 2u);
  ASSERT_EQ(s.criteria.size(), 1u);
  EXPECT_EQ(s.criteria[0].leaders, (std::vector<std::string>{"eager"}));
  EXPECT_EQ(s.choice, (std::vector<std::string>{"eager"}));
}

}  // namespace
}  // namespace ohprof
