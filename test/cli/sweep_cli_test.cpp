// `ohprof sweep`'s flags: the axis values (parse_sweep_values, parse_sweep_axis) and the usage errors
// the torch-free front reports before it starts the measuring binary, each in one line with exit 2.
#include <gtest/gtest.h>

#include "cli_harness.hpp"
#include "commands.hpp"

namespace ohprof {
namespace {

using testing::code;
using testing::line_count;
using testing::run_ohprof;

TEST(SweepValues, ListsAndDoublingRangesSortedEachOnce) {
  auto v = parse_sweep_values("--batch", "1..4096");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->size(), 13u);
  EXPECT_EQ(v->front(), 1);
  EXPECT_EQ(v->back(), 4096);
  v = parse_sweep_values("--batch", "64,3,8..40,3");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, (std::vector<std::int64_t>{3, 8, 16, 32, 64}));
  v = parse_sweep_values("--batch", "1..9223372036854775807");  // stops before the doubling overflows
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->size(), 63u);
  EXPECT_EQ(v->back(), std::int64_t{1} << 62);
  v = parse_sweep_values("--batch", "3..3");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, (std::vector<std::int64_t>{3}));
}

TEST(SweepValues, WhatIsNotAPositiveIntegerIsAUsageErrorNamingTheItem) {
  for (const char* bad : {"0", "-2", "1,,4", "x", "4..2", "1..", "1.5", "2e3"}) {
    auto v = parse_sweep_values("--batch", bad);
    ASSERT_FALSE(v.ok()) << bad;
    EXPECT_EQ(v.error().code, ExitCode::usage_error);
    EXPECT_NE(v.error().message.find("is not a positive integer or A..B"), std::string::npos) << v.error().message;
  }
  EXPECT_EQ(parse_sweep_values("--batch", "1,x").error().message,
            "--batch '1,x': 'x' is not a positive integer or A..B (A, 2A, 4A, ... up to B)");
}

TEST(SweepAxisFlags, BatchOrDimExactlyOne) {
  auto batch = parse_sweep_axis("1,2", "");
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(batch->kind, SweepAxis::Kind::batch);
  auto dim = parse_sweep_axis("", "1:2=16..64");
  ASSERT_TRUE(dim.ok());
  EXPECT_EQ(dim->kind, SweepAxis::Kind::dim);
  EXPECT_EQ(dim->inputs, (std::vector<int>{1}));
  EXPECT_EQ(dim->dim, 2);
  EXPECT_EQ(dim->values, (std::vector<std::int64_t>{16, 32, 64}));
  EXPECT_FALSE(parse_sweep_axis("", "").ok());
  EXPECT_FALSE(parse_sweep_axis("1,2", "0:0=1,2").ok());
  for (const char* bad : {"1=2,3", "a:0=1,2", "0:b=1,2", "0:1", "-1:0=1,2", "0:1=x", ":1=2,3", "0,x:1=2,3", "0,-1:1=2,3"}) {
    EXPECT_FALSE(parse_sweep_axis("", bad).ok()) << bad;
  }
  EXPECT_EQ(parse_sweep_axis("", "0:1").error().message,
            "--dim '0:1' is not INPUT[,INPUT...]:DIM=V1,V2,... (inputs and dimension counted from 0, e.g. 0:1=16,32, or "
            "0,1:1=16,32 for two inputs that share the dimension)");
  // several inputs share the dimension (token ids and their mask): sorted, each once
  auto shared = parse_sweep_axis("", "2,0,2:1=32,64");
  ASSERT_TRUE(shared.ok()) << shared.error().message;
  EXPECT_EQ(shared->inputs, (std::vector<int>{0, 2}));
  EXPECT_EQ(shared->dim, 1);
  EXPECT_EQ(shared->values, (std::vector<std::int64_t>{32, 64}));
}

TEST(SweepFront, UsageErrorsAreOneLineWithExitTwo) {
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"sweep", "--model", "m:f", "--input", "1,16"}, "give the axis to sweep: --batch V1,V2,... or --dim INPUT[,INPUT...]:DIM=V1,V2,..."},
      {{"sweep", "--batch", "1,zero"}, "'zero' is not a positive integer"},
      {{"sweep", "--batch", "1,2", "--paths", "aoti,jit"}, "unknown path 'jit' in --paths"},
      {{"sweep", "--batch", "1,2", "--plot", "a.html", "--no-plot"}, "give --export-html (or --plot) or --no-plot, not both"},
      {{"sweep", "--batch", "1,2", "--export-html", "a.html", "--no-plot"}, "give --export-html (or --plot) or --no-plot, not both"},
  };
  for (const auto& c : cases) {
    const auto result = run_ohprof(c.args);
    EXPECT_EQ(result.exit_code, code(ExitCode::usage_error)) << c.message << "\n" << result.err;
    EXPECT_EQ(line_count(result.err), 1u) << result.err;
    EXPECT_NE(result.err.find(c.message), std::string::npos) << result.err;
  }
  // --exported is compare's, not sweep's (the sweep exports at every point).
  const auto exported = run_ohprof({"sweep", "--batch", "1,2", "--exported", "x.pt2"});
  EXPECT_EQ(exported.exit_code, code(ExitCode::usage_error));
  EXPECT_NE(exported.err.find("--exported"), std::string::npos) << exported.err;
}

TEST(SweepFront, HelpNamesTheAxisFlagsAndTheResume) {
  const auto result = run_ohprof({"sweep", "--help"});
  EXPECT_EQ(result.exit_code, 0);
  for (const char* flag : {"--batch", "--dim", "--sweep-time-limit", "--tolerance", "--fit-tolerance", "--resume", "--export-html", "--plot"}) {
    EXPECT_NE(result.out.find(flag), std::string::npos) << flag;
  }
}

}  // namespace
}  // namespace ohprof
