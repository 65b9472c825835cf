// The cross-rank view (analysis/ranks.hpp, docs/ranks.md "The cross-rank view, step by step") on digests
// whose answers are worked out by hand in the comments. The view of the real pair of rank traces is
// checked against the independent reference test/tools/ranks_reference.py (CTest
// ranks_reference_matches_the_binary).
#include "ohprof/analysis/ranks.hpp"
#include "ohprof/base/stats.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace ohprof {
namespace {

RankStep step(std::int64_t number, std::int64_t wall, std::int64_t busy, std::int64_t host_bound, std::int64_t device_wait,
              std::int64_t communication) {
  return RankStep{number, wall, busy, host_bound, device_wait, communication};
}

CollectiveOp collective(std::int64_t number, std::int64_t stream, std::size_t ordinal, const std::string& name,
                        std::int64_t duration, std::int32_t device = 0) {
  return CollectiveOp{number, StreamKey{device, stream}, ordinal, name, 1000 * static_cast<std::int64_t>(ordinal), duration};
}

RankDigest rank(std::int64_t number, std::vector<RankStep> steps, std::vector<CollectiveOp> collectives = {}) {
  RankDigest d;
  d.rank = number;
  d.trace = "rank" + std::to_string(number) + ".json";
  d.steps = std::move(steps);
  d.collectives = std::move(collectives);
  return d;
}

const RankInStep& in_step(const StepView& s, std::int64_t r) {
  return *std::find_if(s.ranks.begin(), s.ranks.end(), [&](const RankInStep& x) { return x.rank == r; });
}

// Three ranks, one step. Stream 7 has two collectives everywhere ("ar", matched); stream 9 has one on
// ranks 0 and 1 only, with different names (unmatched: 2 kernels).
//   (7,0): durations 10, 4, 6 -> shortest 4 -> waits 6, 0, 2
//   (7,1): durations 20, 25, 15 -> shortest 15 -> waits 5, 10, 0
//   waits: r0 11, r1 10, r2 2; collective time r0 10+20+5 = 35, r1 4+25+6 = 35, r2 6+15 = 21
//   active = wall - wait: r0 100-11 = 89, r1 100-10 = 90, r2 110-2 = 108
//   compute = busy - communication: r0 60-20 = 40, r1 70-15 = 55, r2 50-10 = 40
//   straggler r2 (108); median active of 89, 90, 108 = 90; excess 18, share 0.2
//   its components over the medians: compute 40 - 40 = 0; host-bound 40 - 30 = 10; device-wait 20 - 10 = 10:
//   host-bound and device-wait tie at 10, host-bound comes first
std::vector<RankDigest> three_ranks() {
  return {rank(0, {step(1, 100, 60, 30, 10, 20)},
               {collective(1, 7, 0, "ar", 10), collective(1, 7, 1, "ar", 20), collective(1, 9, 0, "x", 5)}),
          rank(1, {step(1, 100, 70, 20, 10, 15)},
               {collective(1, 7, 0, "ar", 4, 1), collective(1, 7, 1, "ar", 25, 1), collective(1, 9, 0, "y", 6, 1)}),
          rank(2, {step(1, 110, 50, 40, 20, 10)}, {collective(1, 7, 0, "ar", 6, 2), collective(1, 7, 1, "ar", 15, 2)})};
}

TEST(CrossRankView, MatchesCollectivesByStreamAndOrdinalAndEstimatesEachRanksWait) {
  const CrossRankView view = cross_rank_view(three_ranks());
  ASSERT_EQ(view.steps.size(), 1u);
  const StepView& s = view.steps[0];
  EXPECT_EQ(s.step, 1);
  EXPECT_TRUE(s.missing_ranks.empty());
  EXPECT_EQ(s.collectives_matched, 2u);
  EXPECT_EQ(s.collectives_unmatched, 2u);
  EXPECT_EQ(in_step(s, 0).collective_wait_ns, 11);
  EXPECT_EQ(in_step(s, 1).collective_wait_ns, 10);
  EXPECT_EQ(in_step(s, 2).collective_wait_ns, 2);
  EXPECT_EQ(in_step(s, 0).collective_ns, 35);
  EXPECT_EQ(in_step(s, 1).collective_ns, 35);
  EXPECT_EQ(in_step(s, 2).collective_ns, 21);
  EXPECT_EQ(in_step(s, 0).active_ns, 89);
  EXPECT_EQ(in_step(s, 1).compute_ns, 55);
  EXPECT_EQ(s.wall_min_ns, 100);
  EXPECT_EQ(s.wall_max_ns, 110);
  EXPECT_DOUBLE_EQ(s.wall_median_ns, 100);
}

TEST(CrossRankView, TheStragglerIsTheMostActiveRankAndItsCauseTheComponentFurthestAboveTheMedian) {
  const StepView s = cross_rank_view(three_ranks()).steps[0];
  ASSERT_TRUE(s.straggler);
  EXPECT_EQ(s.straggler->rank, 2);
  EXPECT_EQ(s.straggler->active_ns, 108);
  EXPECT_DOUBLE_EQ(s.straggler->median_active_ns, 90);
  EXPECT_DOUBLE_EQ(s.straggler->excess_ns, 18);
  EXPECT_DOUBLE_EQ(s.straggler->excess_share, 0.2);
  EXPECT_EQ(s.straggler->cause, StragglerCause::host_bound);
  EXPECT_DOUBLE_EQ(s.straggler->cause_excess_ns, 10);
}

// Rank 0 has steps 1 and 2, rank 1 only step 1: step 2 is compared over rank 0 alone (no straggler, its
// collective neither matched nor unmatched) and says rank 1 is missing. Per-rank totals add each rank's steps.
TEST(CrossRankView, AStepSomeRanksLackIsKeptWithTheMissingRanksNamed) {
  const std::vector<RankDigest> ranks{
      rank(0, {step(1, 100, 50, 40, 10, 0), step(2, 120, 60, 50, 10, 5)}, {collective(2, 7, 0, "ar", 5)}),
      rank(1, {step(1, 90, 40, 40, 10, 0)})};
  const CrossRankView view = cross_rank_view(ranks);
  ASSERT_EQ(view.steps.size(), 2u);
  EXPECT_TRUE(view.steps[0].missing_ranks.empty());
  const StepView& two = view.steps[1];
  EXPECT_EQ(two.missing_ranks, std::vector<std::int64_t>{1});
  ASSERT_EQ(two.ranks.size(), 1u);
  EXPECT_FALSE(two.straggler);
  EXPECT_EQ(two.collectives_matched, 0u);
  EXPECT_EQ(two.collectives_unmatched, 0u);
  EXPECT_EQ(two.ranks[0].collective_ns, 5);
  ASSERT_EQ(view.ranks.size(), 2u);
  EXPECT_EQ(view.ranks[0].steps, 2u);
  EXPECT_EQ(view.ranks[0].wall_ns, 220);
  EXPECT_EQ(view.ranks[0].compute_ns, 50 + 55);
  EXPECT_EQ(view.ranks[1].steps, 1u);
  // step 1: no collectives, active = wall: rank 0 (100) over rank 1 (90); median of two 95, excess 5;
  // components: compute 50 vs 40 (median 45, +5), host-bound 40 vs 40 (0), device-wait 10 vs 10 (0)
  ASSERT_TRUE(view.steps[0].straggler);
  EXPECT_EQ(view.steps[0].straggler->rank, 0);
  EXPECT_DOUBLE_EQ(view.steps[0].straggler->median_active_ns, 95);
  EXPECT_DOUBLE_EQ(view.steps[0].straggler->excess_ns, 5);
  EXPECT_EQ(view.steps[0].straggler->cause, StragglerCause::compute);
  EXPECT_DOUBLE_EQ(view.steps[0].straggler->cause_excess_ns, 5);
  EXPECT_EQ(view.ranks[0].slowest_steps, 1u);
  EXPECT_EQ(view.ranks[1].slowest_steps, 0u);
}

// Equal active time: the lower rank is the slowest; its excess over the median is 0, so the ranks are
// level (no straggler, no cause), and it exceeds no component's median (no largest part).
TEST(CrossRankView, TiesGoToTheLowerRankAndAreLevel) {
  const std::vector<RankDigest> ranks{rank(3, {step(5, 100, 50, 30, 20, 0)}), rank(5, {step(5, 100, 50, 30, 20, 0)})};
  const CrossRankView view = cross_rank_view(ranks);
  const StepView& s = view.steps[0];
  ASSERT_TRUE(s.straggler);
  EXPECT_EQ(s.straggler->rank, 3);
  EXPECT_DOUBLE_EQ(s.straggler->excess_ns, 0);
  EXPECT_EQ(s.straggler->cause, StragglerCause::level);
  EXPECT_FALSE(s.straggler->named());
  EXPECT_EQ(s.straggler->largest, StragglerCause::unknown);
  EXPECT_DOUBLE_EQ(s.straggler->cause_excess_ns, 0);
  EXPECT_EQ(view.ranks[0].slowest_steps, 0u);
}

// The floor and the cause rule (docs/ranks.md, "The straggler"), ranks 0 and 1 without collectives
// (active = wall), rank 0 the slowest of each step:
//   step 10: walls 1200/1000, median 1100, excess 100 (9.1%); compute 910/500 (median 705, +205),
//            host-bound 0/300 (-150), device-wait 290/200 (+45): +205 > 2 x 100 -> offsetting
//   step 11: walls 1180/1000, median 1090, excess 90 (8.3%); each part 60 more on rank 0, so +30 over
//            its median: the largest (compute, first of the tie) is under 90 / 2 -> unknown
//   step 12: walls 1100/1000, median 1050, excess 50: 4.76% of the median, under 5% -> level
//   step 13: walls 1050/950, median 1000, excess 50: 5% exactly, not under -> compute, +50 = the excess
// The same cases are in test/tools/ranks_reference.py (case "g, h, i, j").
TEST(CrossRankView, ACauseIsNamedOnlyBeyondTheFloorAndWhenItAccountsForTheExcess) {
  const std::vector<RankDigest> ranks{
      rank(0, {step(10, 1200, 910, 0, 290, 0), step(11, 1180, 560, 340, 280, 0), step(12, 1100, 600, 300, 200, 0),
               step(13, 1050, 550, 300, 200, 0)}),
      rank(1, {step(10, 1000, 500, 300, 200, 0), step(11, 1000, 500, 280, 220, 0), step(12, 1000, 500, 300, 200, 0),
               step(13, 950, 450, 300, 200, 0)})};
  const CrossRankView view = cross_rank_view(ranks);
  ASSERT_EQ(view.steps.size(), 4u);
  for (const StepView& s : view.steps) {
    ASSERT_TRUE(s.straggler);
    EXPECT_EQ(s.straggler->rank, 0);
    EXPECT_EQ(s.straggler->largest, StragglerCause::compute) << s.step;
  }
  EXPECT_EQ(view.steps[0].straggler->cause, StragglerCause::offsetting);
  EXPECT_DOUBLE_EQ(view.steps[0].straggler->cause_excess_ns, 205);
  EXPECT_DOUBLE_EQ(view.steps[0].straggler->excess_ns, 100);
  EXPECT_EQ(view.steps[1].straggler->cause, StragglerCause::unknown);
  EXPECT_DOUBLE_EQ(view.steps[1].straggler->cause_excess_ns, 30);
  EXPECT_EQ(view.steps[2].straggler->cause, StragglerCause::level);
  EXPECT_DOUBLE_EQ(view.steps[2].straggler->excess_ns, 50);
  EXPECT_EQ(view.steps[3].straggler->cause, StragglerCause::compute);
  EXPECT_DOUBLE_EQ(view.steps[3].straggler->excess_share, 0.05);
  EXPECT_DOUBLE_EQ(view.steps[3].straggler->cause_excess_ns, 50);
  EXPECT_EQ(view.ranks[0].slowest_steps, 3u);  // steps 10, 11 and 13: not the level one
  EXPECT_EQ(view.ranks[1].slowest_steps, 0u);
}

// A present rank whose split is open (ops without a launch call: its host-bound and device-wait are bounds) leaves
// no part's excess known: step 13 above with rank 1 open is not level (5%), and its cause is queue_open. The same
// case is the reference's "m".
TEST(CrossRankView, ARankWhoseQueueIsOpenLeavesTheCauseUnknown) {
  std::vector<RankDigest> ranks{rank(0, {step(13, 1050, 550, 300, 200, 0)}), rank(1, {step(13, 950, 450, 300, 200, 0)})};
  ranks[1].queue_open = true;
  const CrossRankView view = cross_rank_view(ranks);
  const StepStraggler& g = *view.steps[0].straggler;
  EXPECT_EQ(g.rank, 0);
  EXPECT_EQ(g.cause, StragglerCause::queue_open);
  EXPECT_TRUE(g.named());
  EXPECT_EQ(g.largest, StragglerCause::compute);
  EXPECT_EQ(view.ranks[0].slowest_steps, 1u);
  ranks[1].queue_open = false;
  EXPECT_EQ(cross_rank_view(ranks).steps[0].straggler->cause, StragglerCause::compute);
}

// The cause rule's bounds are inclusive: walls 1200/1000, median 1100, excess 100 in both steps.
//   step 20: compute 900/500 (median 700, +200 = exactly twice), host-bound 0/300, device-wait 300/200 -> compute
//   step 21: compute 600/500 and host-bound 400/300 (+50 each = exactly half; compute first), device-wait 200/200
//            -> compute
// A median of 0 has no share: active 0/0/500 (step 22) is a straggler, not level (+500 over 0).
TEST(CrossRankView, TheCauseBoundsAreInclusiveAndAZeroMedianIsNotLevel) {
  const std::vector<RankDigest> ranks{rank(0, {step(20, 1200, 900, 0, 300, 0), step(21, 1200, 600, 400, 200, 0)}),
                                      rank(1, {step(20, 1000, 500, 300, 200, 0), step(21, 1000, 500, 300, 200, 0)})};
  const CrossRankView view = cross_rank_view(ranks);
  EXPECT_EQ(view.steps[0].straggler->cause, StragglerCause::compute);
  EXPECT_DOUBLE_EQ(view.steps[0].straggler->cause_excess_ns, 200);
  EXPECT_EQ(view.steps[1].straggler->cause, StragglerCause::compute);
  EXPECT_DOUBLE_EQ(view.steps[1].straggler->cause_excess_ns, 50);
  const std::vector<RankDigest> zero{rank(0, {step(22, 0, 0, 0, 0, 0)}), rank(1, {step(22, 0, 0, 0, 0, 0)}),
                                     rank(2, {step(22, 500, 500, 0, 0, 0)})};
  const StepStraggler g = *cross_rank_view(zero).steps[0].straggler;
  EXPECT_EQ(g.rank, 2);
  EXPECT_DOUBLE_EQ(g.excess_share, 0);
  EXPECT_EQ(g.cause, StragglerCause::compute);  // +500 compute = the excess
}

// The straggler is ahead only because it waited less (durations 30 vs 20: rank 0 waited 10): active 90
// and 100, median 95, excess 5; compute (20), host-bound, device-wait are the same on both: unknown.
TEST(CrossRankView, AStragglerThatWaitedLessButDidNoMoreHasAnUnknownCause) {
  const std::vector<RankDigest> ranks{rank(0, {step(1, 100, 50, 30, 20, 30)}, {collective(1, 7, 0, "ar", 30)}),
                                      rank(1, {step(1, 100, 50, 30, 20, 30)}, {collective(1, 7, 0, "ar", 20)})};
  const StepView s = cross_rank_view(ranks).steps[0];
  EXPECT_EQ(in_step(s, 0).collective_wait_ns, 10);
  EXPECT_EQ(in_step(s, 1).collective_wait_ns, 0);
  ASSERT_TRUE(s.straggler);
  EXPECT_EQ(s.straggler->rank, 1);
  EXPECT_DOUBLE_EQ(s.straggler->excess_ns, 5);
  EXPECT_EQ(s.straggler->cause, StragglerCause::unknown);
}

// A collective that one present rank lacks at a (stream, ordinal) is unmatched on every rank that has it;
// one whose name differs too. With four ranks the median is the mean of the two middle values.
TEST(CrossRankView, EvenCountsTakeTheMeanOfTheTwoMiddleValues) {
  const std::vector<RankDigest> ranks{rank(0, {step(0, 10, 0, 10, 0, 0)}), rank(1, {step(0, 20, 0, 20, 0, 0)}),
                                      rank(2, {step(0, 40, 0, 40, 0, 0)}), rank(3, {step(0, 80, 0, 80, 0, 0)})};
  const StepView s = cross_rank_view(ranks).steps[0];
  EXPECT_DOUBLE_EQ(s.wall_median_ns, 30);
  ASSERT_TRUE(s.straggler);
  EXPECT_EQ(s.straggler->rank, 3);
  EXPECT_DOUBLE_EQ(s.straggler->excess_ns, 50);
  EXPECT_EQ(s.straggler->cause, StragglerCause::host_bound);
  EXPECT_DOUBLE_EQ(s.straggler->cause_excess_ns, 50);
  EXPECT_DOUBLE_EQ(quantile(std::vector<double>{}, 0.5), 0);  // the median the view uses (base/stats.hpp)
  EXPECT_DOUBLE_EQ(quantile(std::vector<double>{3, 1, 2}, 0.5), 2);
}

// One rank has the same stream id on two of its devices: its second collective at (7, 0) cannot be told
// from the first, so it is unmatched (with the other rank's one there: 3 kernels, no pair); its time
// still counts in the rank's collective time.
TEST(CrossRankView, ACollectiveWhosePlaceIsTakenIsUnmatched) {
  const std::vector<RankDigest> ranks{
      rank(0, {step(1, 100, 50, 30, 20, 30)}, {collective(1, 7, 0, "ar", 10, 0), collective(1, 7, 0, "ar", 12, 1)}),
      rank(1, {step(1, 100, 50, 30, 20, 30)}, {collective(1, 7, 0, "ar", 10)})};
  const StepView s = cross_rank_view(ranks).steps[0];
  EXPECT_EQ(s.collectives_matched, 1u);  // the first one of rank 0 and rank 1's
  EXPECT_EQ(s.collectives_unmatched, 1u);
  EXPECT_EQ(in_step(s, 0).collective_ns, 22);
}

// A trace that repeats a step number: the step is its first window, and a warning says so.
TEST(CrossRankView, ARepeatedStepIsItsFirstWindow) {
  const std::vector<RankDigest> ranks{rank(0, {step(3, 100, 50, 30, 20, 0), step(3, 999, 0, 999, 0, 0)}),
                                      rank(1, {step(3, 100, 50, 30, 20, 0)})};
  const CrossRankView view = cross_rank_view(ranks);
  ASSERT_EQ(view.steps.size(), 1u);
  EXPECT_EQ(in_step(view.steps[0], 0).split.wall_ns, 100);
  EXPECT_EQ(view.ranks[0].steps, 1u);
  const auto warnings = cross_rank_warnings(ranks, view);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, WarningCode::ranks_steps_differ);
  EXPECT_NE(warnings[0].message.find("has step 3 more than once"), std::string::npos) << warnings[0].message;
}

TEST(CrossRankView, NoRanksGiveNoSteps) {
  const CrossRankView view = cross_rank_view({});
  EXPECT_TRUE(view.steps.empty());
  EXPECT_TRUE(view.ranks.empty());
}

TEST(CrossRankWarnings, SayWhatDoesNotLineUp) {
  std::vector<RankDigest> ranks = three_ranks();
  ranks[1].rank_from = RankSource::position;
  ranks[0].world_size = 8;
  ranks[2].world_size = 16;
  ranks[2].steps.push_back(step(2, 10, 0, 10, 0, 0));
  const CrossRankView view = cross_rank_view(ranks);
  std::vector<WarningCode> codes;
  for (const Warning& w : cross_rank_warnings(ranks, view)) codes.push_back(w.code);
  EXPECT_EQ(codes, (std::vector<WarningCode>{WarningCode::rank_from_position, WarningCode::ranks_job_differs,
                                             WarningCode::ranks_steps_differ, WarningCode::ranks_collectives_unmatched}));
  const auto warnings = cross_rank_warnings(ranks, view);
  EXPECT_NE(warnings[0].message.find("'rank1.json' has no distributedInfo.rank; it is rank 1"), std::string::npos);
  EXPECT_NE(warnings[2].message.find("step 2 on ranks 0, 1"), std::string::npos) << warnings[2].message;
  EXPECT_NE(warnings[3].message.find("2 collective kernels in 1 step"), std::string::npos) << warnings[3].message;
  EXPECT_TRUE(cross_rank_warnings(three_ranks(), cross_rank_view(three_ranks())).size() == 1);  // only the unmatched
}

}  // namespace
}  // namespace ohprof
