// The names of the ranks report's enums (model/ranks.hpp): what the JSON writes and the merge reads back.
#include "ohprof/model/ranks.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

TEST(RankSource, NamesRoundTrip) {
  EXPECT_STREQ(to_string(RankSource::distributed_info), "distributedInfo");
  EXPECT_STREQ(to_string(RankSource::position), "position");
  for (RankSource s : {RankSource::distributed_info, RankSource::position}) EXPECT_EQ(parse_rank_source(to_string(s)), s);
  EXPECT_FALSE(parse_rank_source("rank"));
}

TEST(StragglerCause, NamesAreTheJsonsCauses) {
  EXPECT_STREQ(to_string(StragglerCause::compute), "compute");
  EXPECT_STREQ(to_string(StragglerCause::host_bound), "host_bound");
  EXPECT_STREQ(to_string(StragglerCause::device_wait), "device_wait");
  EXPECT_STREQ(to_string(StragglerCause::unknown), "unknown");
  EXPECT_STREQ(to_string(StragglerCause::offsetting), "offsetting");
  EXPECT_STREQ(to_string(StragglerCause::level), "level");
}

TEST(Verdict, NamesParseBack) {
  for (Verdict v : {Verdict::unknown, Verdict::host_bound, Verdict::device_wait_bound, Verdict::compute_bound, Verdict::mixed}) {
    EXPECT_EQ(parse_verdict(to_string(v)), v);
  }
  for (VerdictReason r : {VerdictReason::no_iterations, VerdictReason::no_device_work, VerdictReason::no_launches,
                          VerdictReason::startup_without_steps, VerdictReason::dominant_share, VerdictReason::close_shares}) {
    EXPECT_EQ(parse_verdict_reason(to_string(r)), r);
  }
  EXPECT_FALSE(parse_verdict("slow"));
  EXPECT_FALSE(parse_verdict_reason("because"));
}

}  // namespace
}  // namespace ohprof
