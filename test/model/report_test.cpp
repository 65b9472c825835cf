#include "ohprof/model/report.hpp"

#include <gtest/gtest.h>

#include <regex>

#include "ohprof/base/build_info.hpp"

namespace ohprof {
namespace {

TEST(UtcTimestampNow, IsIso8601InUtc) {
  EXPECT_TRUE(std::regex_match(utc_timestamp_now(), std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)")));
}

TEST(MakeBaseContext, FillsWhatEveryReportOfThisBuildShares) {
  const RunContext context = make_base_context({"ohprof", "analyze", "t.json"});
  EXPECT_EQ(context.ohprof_version, ohprof_version());
  EXPECT_EQ(context.git_sha, ohprof_git_sha());
  EXPECT_EQ(context.cuda_version, cuda_toolkit_version());
  // The path that runs fills these; until then they say nothing was there.
  EXPECT_EQ(context.torch_version, "none");
  EXPECT_EQ(context.cupti_version, "none");
  EXPECT_EQ(context.argv, (std::vector<std::string>{"ohprof", "analyze", "t.json"}));
  EXPECT_FALSE(context.hostname.empty());
  EXPECT_FALSE(context.date_utc.empty());
}

}  // namespace
}  // namespace ohprof
