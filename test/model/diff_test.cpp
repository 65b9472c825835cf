// The diff's names and its outcome (model/diff.hpp, docs/diff.md "The verdict").
#include "ohprof/model/diff.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

PathDiff path_with(DiffVerdict verdict) {
  PathDiff p;
  p.verdict = verdict;
  return p;
}

TEST(DiffNames, KindsRoundTripAndUnknownKindsAreRejected) {
  for (DigestKind kind : {DigestKind::run, DigestKind::compare, DigestKind::analyze, DigestKind::sweep}) {
    EXPECT_EQ(parse_digest_kind(to_string(kind)), kind);
  }
  EXPECT_EQ(parse_digest_kind("diff"), std::nullopt);
  EXPECT_EQ(parse_digest_kind(""), std::nullopt);
}

TEST(DiffNames, TheJsonNamesOfVerdictsReasonsAndOutcomes) {
  EXPECT_STREQ(to_string(DiffVerdict::no_change), "no_change");
  EXPECT_STREQ(to_string(DiffVerdict::slower), "slower");
  EXPECT_STREQ(to_string(DiffReason::below_threshold), "below_threshold");
  EXPECT_STREQ(to_string(DiffReason::only_in_new), "only_in_new");
  EXPECT_STREQ(to_string(DiffOutcome::nothing_judged), "nothing_judged");
}

TEST(DiffOutcome, IncomparableComesFirstUnlessForced) {
  DiffResult r;
  r.paths = {path_with(DiffVerdict::slower)};
  r.incomparable = {{"model", "a:f", "b:f"}};
  EXPECT_EQ(r.outcome(), DiffOutcome::incomparable);
  r.config.force = true;
  EXPECT_EQ(r.outcome(), DiffOutcome::regression);
}

TEST(DiffOutcome, NothingJudgedWhenEveryPathIsUnknown) {
  DiffResult r;
  EXPECT_EQ(r.outcome(), DiffOutcome::nothing_judged);  // no paths at all
  r.paths = {path_with(DiffVerdict::unknown), path_with(DiffVerdict::unknown)};
  EXPECT_EQ(r.judged(), 0u);
  EXPECT_EQ(r.outcome(), DiffOutcome::nothing_judged);
}

TEST(DiffOutcome, OneSlowerPathIsARegressionWhateverTheOthers) {
  DiffResult r;
  r.paths = {path_with(DiffVerdict::faster), path_with(DiffVerdict::unknown), path_with(DiffVerdict::no_change)};
  EXPECT_EQ(r.judged(), 2u);
  EXPECT_FALSE(r.regression());
  EXPECT_EQ(r.outcome(), DiffOutcome::no_regression);
  r.paths.push_back(path_with(DiffVerdict::slower));
  EXPECT_TRUE(r.regression());
  EXPECT_EQ(r.outcome(), DiffOutcome::regression);
}

}  // namespace
}  // namespace ohprof
