// The sweep's axis and names (model/sweep.hpp).
#include "ohprof/model/sweep.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

TEST(SweepAxis, NamesAndFileStems) {
  SweepAxis batch;
  EXPECT_EQ(axis_name(batch), "batch");
  EXPECT_EQ(point_file_stem(batch, 64), "batch-64");
  SweepAxis dim{SweepAxis::Kind::dim, {1}, 2, {8}};
  EXPECT_EQ(axis_name(dim), "input1.dim2");
  EXPECT_EQ(point_file_stem(dim, 8), "input1-dim2-8");
  SweepAxis shared{SweepAxis::Kind::dim, {0, 1}, 1, {8}};
  EXPECT_EQ(axis_name(shared), "input0+1.dim1");
  EXPECT_EQ(point_file_stem(shared, 8), "input0+1-dim1-8");
}

TEST(SweepAxis, BatchSetsTheFirstDimensionOfEveryInput) {
  const std::vector<InputSpec> inputs{{{1, 16}, DType::float32}, {{1, 4, 4}, DType::int64}};
  auto out = apply_axis(inputs, SweepAxis{}, 32);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0], (InputSpec{{32, 16}, DType::float32}));
  EXPECT_EQ((*out)[1], (InputSpec{{32, 4, 4}, DType::int64}));
}

TEST(SweepAxis, DimSetsOneInputsDimensionOnly) {
  const std::vector<InputSpec> inputs{{{1, 16}, DType::float32}, {{1, 4, 4}, DType::int64}};
  auto out = apply_axis(inputs, SweepAxis{SweepAxis::Kind::dim, {1}, 2, {}}, 9);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0], inputs[0]);
  EXPECT_EQ((*out)[1], (InputSpec{{1, 4, 9}, DType::int64}));
}

// Token ids [1, 12] and their attention mask [1, 12] share the sequence length; a third input is left alone.
TEST(SweepAxis, DimSetsTheSameDimensionOfEveryInputItNames) {
  const std::vector<InputSpec> inputs{{{1, 12}, DType::int64}, {{1, 12}, DType::int64}, {{1, 12}, DType::int64}};
  auto out = apply_axis(inputs, SweepAxis{SweepAxis::Kind::dim, {0, 2}, 1, {}}, 48);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0], (InputSpec{{1, 48}, DType::int64}));
  EXPECT_EQ((*out)[1], inputs[1]);
  EXPECT_EQ((*out)[2], (InputSpec{{1, 48}, DType::int64}));
  auto past_the_end = apply_axis(inputs, SweepAxis{SweepAxis::Kind::dim, {0, 3}, 1, {}}, 48);
  ASSERT_FALSE(past_the_end.ok());
  EXPECT_EQ(past_the_end.error().message, "--dim names input 3, but the model has 3 inputs (counted from 0)");
}

TEST(SweepAxis, AMissingInputOrDimensionIsAUsageErrorThatSaysWhy) {
  const std::vector<InputSpec> inputs{{{1, 16}, DType::float32}};
  auto no_input = apply_axis(inputs, SweepAxis{SweepAxis::Kind::dim, {1}, 0, {}}, 2);
  ASSERT_FALSE(no_input.ok());
  EXPECT_EQ(no_input.error().code, ExitCode::usage_error);
  EXPECT_EQ(no_input.error().message, "--dim names input 1, but the model has 1 input (counted from 0)");
  auto no_dim = apply_axis(inputs, SweepAxis{SweepAxis::Kind::dim, {0}, 2, {}}, 2);
  ASSERT_FALSE(no_dim.ok());
  EXPECT_EQ(no_dim.error().message, "input 0 has shape [1, 16]: it has no dimension 2 to sweep (counted from 0)");
  const std::vector<InputSpec> scalar{{{}, DType::float32}};
  auto only_scalars = apply_axis(scalar, SweepAxis{}, 2);
  ASSERT_FALSE(only_scalars.ok());
  EXPECT_EQ(only_scalars.error().code, ExitCode::usage_error);
  EXPECT_EQ(only_scalars.error().message,
            "every input is zero-dimensional ([]), so --batch has no dimension to sweep: give the inputs a batch "
            "dimension, or sweep another axis with --dim");
  auto none = apply_axis({}, SweepAxis{}, 2);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message, "the model has no inputs, so there is nothing to sweep");
  auto scalar_dim = apply_axis(scalar, SweepAxis{SweepAxis::Kind::dim, {0}, 0, {}}, 2);
  ASSERT_FALSE(scalar_dim.ok());
  EXPECT_EQ(scalar_dim.error().message, "input 0 has shape []: it has no dimension 0 to sweep (counted from 0)");
}

TEST(SweepAxis, BatchLeavesAZeroDimensionalInputAsItIs) {
  // a model called as f(x, scale) with scale = torch.tensor(3.0): the batch is x's first dimension only
  const std::vector<InputSpec> inputs{{{4, 16}, DType::float32}, {{}, DType::float32}};
  auto out = apply_axis(inputs, SweepAxis{}, 64);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0], (InputSpec{{64, 16}, DType::float32}));
  EXPECT_EQ((*out)[1], (InputSpec{{}, DType::float32}));
}

TEST(SweepAxis, StatusAndStopNamesRoundTrip) {
  for (PointStatus s : {PointStatus::measured, PointStatus::failed, PointStatus::interrupted, PointStatus::not_measured}) {
    EXPECT_EQ(parse_point_status(to_string(s)), s);
  }
  EXPECT_EQ(parse_point_status("done"), std::nullopt);
  for (SweepStop s : {SweepStop::complete, SweepStop::interrupted, SweepStop::sweep_time_limit}) {
    EXPECT_EQ(parse_sweep_stop(to_string(s)), s);
  }
  EXPECT_STREQ(to_string(FitStatus::not_linear), "not_linear");
}

}  // namespace
}  // namespace ohprof
