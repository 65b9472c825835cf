#include "ohprof/model/input_spec.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

TEST(ParseInputSpec, CommaSeparatedShapeDefaultsToFloat32) {
  auto spec = parse_input_spec("1,3,224,224");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->shape, (std::vector<std::int64_t>{1, 3, 224, 224}));
  EXPECT_EQ(spec->dtype, DType::float32);
}

TEST(ParseInputSpec, XSeparatedShapeWithDtype) {
  auto spec = parse_input_spec("8x128:int64");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->shape, (std::vector<std::int64_t>{8, 128}));
  EXPECT_EQ(spec->dtype, DType::int64);
}

TEST(ParseInputSpec, BracketsAndAliasesAccepted) {
  auto spec = parse_input_spec("[2, 4]:bf16");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->shape, (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(spec->dtype, DType::bfloat16);
}

TEST(ParseInputSpec, EmptyBracketsAreAZeroDimensionalTensor) {
  for (const char* text : {"[]", "[ ]:int64", "[]:float32"}) {
    auto spec = parse_input_spec(text);
    ASSERT_TRUE(spec.ok()) << text << ": " << spec.error().message;
    EXPECT_TRUE(spec->shape.empty()) << text;
  }
  EXPECT_EQ(parse_input_spec("[ ]:int64")->dtype, DType::int64);
  // The text ohprof writes for it reads back to it.
  const InputSpec scalar{{}, DType::float64};
  EXPECT_EQ(input_spec_text(scalar), "[]:float64");
  EXPECT_EQ(*parse_input_spec(input_spec_text(scalar)), scalar);
  // A bare empty shape is still refused, and the message says how to write a scalar.
  auto empty = parse_input_spec(":float32");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("write [] for a zero-dimensional tensor"), std::string::npos);
}

TEST(ParseRecordedInputs, EachInOrderWithScalarsInBothSpellings) {
  auto specs = parse_recorded_inputs("1x3x8x8:float16;;8:int64;[]:float32;:bool");
  ASSERT_TRUE(specs.ok()) << specs.error().message;
  const std::vector<InputSpec> want{{{1, 3, 8, 8}, DType::float16},
                                    {{8}, DType::int64},
                                    {{}, DType::float32},
                                    {{}, DType::boolean}};
  EXPECT_EQ(*specs, want);
  EXPECT_TRUE(parse_recorded_inputs("")->empty());
  EXPECT_FALSE(parse_recorded_inputs("4,4:float32;4,0").ok());
}

TEST(ParseInputSpec, RejectsBadInputWithUsageError) {
  for (const char* bad : {"", "1,,3", "1,a", "0,3", "-1,3", "1,3:float17", "1,3,"}) {
    auto spec = parse_input_spec(bad);
    ASSERT_FALSE(spec.ok()) << bad;
    EXPECT_EQ(spec.error().code, ExitCode::usage_error) << bad;
    EXPECT_NE(spec.error().message.find("SHAPE[:DTYPE]"), std::string::npos) << bad;
  }
}

TEST(ParseInputSpecs, EachInOrderAndTheFirstBadOneIsTheError) {
  auto specs = parse_input_specs({"4,16", "2x3:int64"});
  ASSERT_TRUE(specs.ok());
  ASSERT_EQ(specs->size(), 2u);
  EXPECT_EQ((*specs)[0], (InputSpec{{4, 16}, DType::float32}));
  EXPECT_EQ((*specs)[1], (InputSpec{{2, 3}, DType::int64}));
  EXPECT_TRUE(parse_input_specs({})->empty());
  auto bad = parse_input_specs({"4,16", "2,x", "1:nope"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ExitCode::usage_error);
  EXPECT_NE(bad.error().message.find("'2,x'"), std::string::npos) << bad.error().message;
}

TEST(DtypeSpellings, EveryNameAndAliasParsesToItsDtype) {
  const auto spellings = dtype_spellings();
  EXPECT_EQ(spellings.size(), 18u);  // 9 names, 9 aliases
  for (const auto& [spelling, dtype] : spellings) {
    auto parsed = parse_dtype(spelling);
    ASSERT_TRUE(parsed.ok()) << spelling;
    EXPECT_EQ(*parsed, dtype) << spelling;
  }
}

TEST(InputSpecText, RoundTrips) {
  auto spec = parse_input_spec("1x3:float16");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(input_spec_text(*spec), "[1, 3]:float16");
  auto again = parse_input_spec(input_spec_text(*spec));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->shape, spec->shape);
  EXPECT_EQ(again->dtype, spec->dtype);
}

TEST(ParseDtype, EveryCanonicalNameRoundTrips) {
  for (DType dtype : {DType::float32, DType::float16, DType::bfloat16, DType::float64, DType::int64,
                      DType::int32, DType::int8, DType::uint8, DType::boolean}) {
    auto parsed = parse_dtype(dtype_name(dtype));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, dtype);
  }
}

}  // namespace
}  // namespace ohprof
