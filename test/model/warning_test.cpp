#include "ohprof/model/warning.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace ohprof {
namespace {

TEST(WarningCode, EachCodeHasAStableKebabCaseNameOfItsOwn) {
  std::set<std::string> names;
  for (WarningCode code : all_warning_codes()) {
    const std::string name = to_string(code);
    EXPECT_TRUE(std::regex_match(name, std::regex("[a-z]+(-[a-z]+)*"))) << name;
    EXPECT_TRUE(names.insert(name).second) << name << " twice";
  }
  EXPECT_EQ(names.size(), all_warning_codes().size());
  EXPECT_EQ(names.count("unknown"), 0u);
  // Scripts filter on these: a rename breaks them.
  EXPECT_STREQ(to_string(WarningCode::slow_first_run), "slow-first-run");
  EXPECT_STREQ(to_string(WarningCode::outputs_differ), "outputs-differ");
  EXPECT_STREQ(to_string(WarningCode::ops_without_launch), "ops-without-launch");
}

TEST(WarningCode, EveryCodeIsDocumentedInTheReportSchema) {
  std::ifstream file(OHPROF_SOURCE_DIR "/docs/report-schema.md");
  ASSERT_TRUE(file) << "docs/report-schema.md not found";
  std::stringstream text;
  text << file.rdbuf();
  for (WarningCode code : all_warning_codes()) {
    EXPECT_NE(text.str().find(std::string("`") + to_string(code) + "`"), std::string::npos)
        << to_string(code) << " is not in docs/report-schema.md";
  }
}

}  // namespace
}  // namespace ohprof
