// compare --cold-start's figures (docs/metrics.md, "Cold start"), each computed by hand.
#include "ohprof/analysis/cold_start.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <utility>

namespace ohprof {
namespace {

ColdStartSample total(std::int64_t ns) {
  ColdStartSample s;
  s.total_ns = ns;
  return s;
}

TEST(ColdStartPhases, SplitTheTimestampsAndLeaveOhprofsOwnWorkOut) {
  // spawn 1000, main 1050, torch 3050, tool 3150 (100 ns of ohprof's reading), loaded 3400, first 4400
  // with 700 ns of compile inside the first call.
  const PhaseResult r = cold_start_phases(ColdStartTimes{1000, 1050, 3050, 3150, 3400, 4400, 700});
  ASSERT_TRUE(r.sample) << r.error;
  EXPECT_EQ(r.sample->process_ns, 50);
  EXPECT_EQ(r.sample->import_ns, 2000);
  EXPECT_EQ(r.sample->load_ns, 250);
  EXPECT_EQ(r.sample->compile_ns, 700);
  EXPECT_EQ(r.sample->first_call_ns, 300);
  EXPECT_EQ(r.sample->total_ns, 4400 - 1000 - 100);  // first − spawn − (tool − torch)
}

TEST(ColdStartPhases, OhprofsCompileLogInsideTheLoadIsNotCounted) {
  // as above, with 50 ns of the 250 ns load spent installing ohprof's compile log
  const PhaseResult r = cold_start_phases(ColdStartTimes{1000, 1050, 3050, 3150, 3400, 4400, 700, 50});
  ASSERT_TRUE(r.sample) << r.error;
  EXPECT_EQ(r.sample->load_ns, 200);
  EXPECT_EQ(r.sample->total_ns, 4400 - 1000 - 100 - 50);
  EXPECT_FALSE(cold_start_phases(ColdStartTimes{1000, 1050, 3050, 3150, 3400, 4400, 700, 251}).sample);
}

TEST(ColdStartPhases, TimestampsOutOfOrderOrACompileLongerThanTheCallAreErrors) {
  EXPECT_FALSE(cold_start_phases(ColdStartTimes{1000, 900, 3050, 3150, 3400, 4400, 0}).sample);  // another clock
  const PhaseResult late = cold_start_phases(ColdStartTimes{1000, 1050, 3050, 3150, 3400, 4400, 1001});
  EXPECT_FALSE(late.sample);
  EXPECT_NE(late.error.find("outside its first call"), std::string::npos);
  EXPECT_FALSE(cold_start_phases(ColdStartTimes{1000, 1050, 3050, 3150, 3400, 4400, -1}).sample);
}

TEST(SummarizeColdStart, EachPhaseIsItsOwnMedian) {
  ColdStartState state;
  for (auto [process, compile] : {std::pair{10, 500}, std::pair{30, 100}, std::pair{20, 300}}) {
    ColdStartSample s;
    s.process_ns = process;
    s.compile_ns = compile;
    s.total_ns = process + compile;
    state.samples.push_back(s);
  }
  summarize_cold_start(state);
  ASSERT_TRUE(state.median);
  EXPECT_DOUBLE_EQ(state.median->process_ns, 20);
  EXPECT_DOUBLE_EQ(state.median->compile_ns, 300);
  EXPECT_DOUBLE_EQ(state.median->total_ns, 320);  // of {510, 130, 320}: not 20 + 300
  EXPECT_DOUBLE_EQ(state.min_total_ns, 130);
  EXPECT_DOUBLE_EQ(state.max_total_ns, 510);
  state.samples.push_back(total(1000));  // four: the mean of the middle two totals, 320 and 510
  summarize_cold_start(state);
  EXPECT_DOUBLE_EQ(state.median->total_ns, 415);
  state.samples.clear();
  summarize_cold_start(state);
  EXPECT_FALSE(state.median);
}

// docs/metrics.md, "Fresh-process memory": the medians over the samples that read their memory; null when none did.
TEST(SummarizeColdStart, MemoryIsTheMedianOfTheSamplesThatReadIt) {
  ColdStartState state;
  for (const auto& [rss, peak] : {std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>{300, 900},
                                  {100, 700}, {std::nullopt, std::nullopt}, {200, 1000}}) {
    ColdStartSample s = total(1);
    s.rss_bytes = rss;
    s.peak_rss_bytes = peak;
    state.samples.push_back(s);
  }
  summarize_cold_start(state);
  ASSERT_TRUE(state.median);
  EXPECT_EQ(state.median->rss_bytes, 200.0);        // of {300, 100, 200}: the sample without a reading left out
  EXPECT_EQ(state.median->peak_rss_bytes, 900.0);   // of {900, 700, 1000}
  state.samples.pop_back();                           // {300, 100}: the mean of the two
  summarize_cold_start(state);
  EXPECT_EQ(state.median->rss_bytes, 200.0);
  EXPECT_EQ(state.median->peak_rss_bytes, 800.0);
  for (ColdStartSample& s : state.samples) s.rss_bytes = s.peak_rss_bytes = std::nullopt;
  summarize_cold_start(state);
  ASSERT_TRUE(state.median);  // the times still have their medians
  EXPECT_FALSE(state.median->rss_bytes);
  EXPECT_FALSE(state.median->peak_rss_bytes);
}

TEST(OrderAgainst, FasterOnlyWhenEveryStartIsBelowEveryColdOne) {
  // 4 and 4 processes: C(8, 4) = 70 orders, either named by chance 2 in 70
  const std::vector<ColdStartSample> cold{total(100), total(120), total(110), total(105)};
  EXPECT_EQ(order_against({total(50), total(99), total(60), total(70)}, cold), ColdStartOrder::faster);
  EXPECT_EQ(order_against({total(50), total(100), total(60), total(70)}, cold), ColdStartOrder::overlapping);  // a tie
  EXPECT_EQ(order_against({total(121), total(130), total(140), total(125)}, cold), ColdStartOrder::slower);
  EXPECT_EQ(order_against({total(121), total(130)}, cold), ColdStartOrder::too_few);  // C(6, 2) = 15
  EXPECT_EQ(order_against({total(90), total(115)}, cold), ColdStartOrder::overlapping);
  // 3 and 3: C(6, 3) = 20, either order by chance 2 in 20 = 0.10: too few (kColdStartOrderCombinations = 40);
  // 3 and 4: 35, too few; 3 and 5: 56, named; 2 and 2: 6; 1 and 3: 4; 2 and 5: 21; 2 and 8: 45, named
  EXPECT_EQ(order_against({total(1), total(2), total(3)}, {total(10), total(11), total(12)}), ColdStartOrder::too_few);
  EXPECT_EQ(order_against({total(1), total(2), total(3)}, {total(10), total(11), total(12), total(13)}),
            ColdStartOrder::too_few);
  EXPECT_EQ(order_against({total(1), total(2), total(3)}, {total(10), total(11), total(12), total(13), total(14)}),
            ColdStartOrder::faster);
  EXPECT_EQ(order_against({total(1), total(2)}, {total(10), total(11)}), ColdStartOrder::too_few);
  EXPECT_EQ(order_against({total(20)}, {total(10), total(11), total(12)}), ColdStartOrder::too_few);
  EXPECT_EQ(order_against({total(1), total(2)}, {total(10), total(11), total(12), total(13), total(14)}),
            ColdStartOrder::too_few);
  EXPECT_EQ(order_against({total(1), total(2)}, {total(10), total(11), total(12), total(13), total(14), total(15),
                                                 total(16), total(17)}),
            ColdStartOrder::faster);
  EXPECT_EQ(order_against({total(1), total(20)}, {total(10), total(11)}), ColdStartOrder::overlapping);
  EXPECT_FALSE(order_against({}, cold));
  EXPECT_FALSE(order_against({total(1)}, {}));
}

TEST(SummarizePathColdStart, WarmAndArtifactsStandAgainstColdWithTheRatioOfMedians) {
  PathColdStart path;
  path.processes = 4;
  ColdStartState cold{CompileCache::cold, {total(900), total(1000), total(1100), total(1000)}};
  ColdStartState warm{CompileCache::warm, {total(240), total(250), total(260), total(250)}};
  ColdStartState artifacts{CompileCache::artifacts, {total(950), total(800), total(1200), total(950)}};
  ColdStartState never{CompileCache::artifacts};
  never.unavailable = "no artifacts";
  path.states = {cold, warm, artifacts, never};
  summarize_path_cold_start(path);
  EXPECT_FALSE(path.states[0].against_cold);
  EXPECT_EQ(path.states[1].against_cold, ColdStartOrder::faster);
  EXPECT_DOUBLE_EQ(path.states[1].speedup_vs_cold, 1000.0 / 250.0);
  EXPECT_EQ(path.states[2].against_cold, ColdStartOrder::overlapping);
  EXPECT_DOUBLE_EQ(path.states[2].speedup_vs_cold, 1000.0 / 950.0);
  EXPECT_FALSE(path.states[3].against_cold);
  EXPECT_DOUBLE_EQ(path.states[3].speedup_vs_cold, 0);

  PathColdStart eager;  // no cold state: nothing to stand against
  eager.states = {ColdStartState{CompileCache::none, {total(5)}}};
  summarize_path_cold_start(eager);
  EXPECT_FALSE(eager.states[0].against_cold);
  EXPECT_DOUBLE_EQ(eager.states[0].median->total_ns, 5);
}

}  // namespace
}  // namespace ohprof
