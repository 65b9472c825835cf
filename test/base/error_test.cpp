#include "ohprof/base/error.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace ohprof {
namespace {

TEST(Error, DefaultsToInternalError) {
  // an Error nobody classified is a bug (exit 1), never success
  EXPECT_EQ(Error{}.code, ExitCode::internal_error);
}

TEST(Error, MakeErrorKeepsCodeAndMessage) {
  const Error e = make_error(ExitCode::invalid_trace, "trace.json: no events");
  EXPECT_EQ(e.code, ExitCode::invalid_trace);
  EXPECT_EQ(e.message, "trace.json: no events");
}

TEST(Error, WithContextPrefixesColonSpaceAndKeepsTheCode) {
  const Error inner = make_error(ExitCode::invalid_package, "no model.so in the archive");
  const Error outer = inner.with_context("loading AOTI package 'x.pt2'");
  EXPECT_EQ(outer.message, "loading AOTI package 'x.pt2': no model.so in the archive");
  EXPECT_EQ(outer.code, ExitCode::invalid_package);
  // the original is a value and stays as it was
  EXPECT_EQ(inner.message, "no model.so in the archive");
}

TEST(Error, ContextsNestOutermostFirst) {
  const Error e = make_error(ExitCode::file_not_found, "No such file or directory")
                      .with_context("opening 'a.json'")
                      .with_context("path 'eager'");
  EXPECT_EQ(e.message, "path 'eager': opening 'a.json': No such file or directory");
  EXPECT_EQ(e.code, ExitCode::file_not_found);
}

TEST(FirstLine, KeepsASingleLineAsItIs) {
  EXPECT_EQ(first_line("CUDA error: out of memory"), "CUDA error: out of memory");
  EXPECT_EQ(first_line(""), "");
}

TEST(FirstLine, DropsTheBacktraceAfterTheFirstNewline) {
  const std::string libtorch =
      "Expected all tensors to be on the same device\n"
      "Exception raised from check at /pytorch/aten/src/ATen/native/TensorCompare.cpp:42\n"
      "frame #0: c10::Error::Error(...) + 0x98\n";
  EXPECT_EQ(first_line(libtorch), "Expected all tensors to be on the same device");
  EXPECT_EQ(first_line("message\n"), "message");
  EXPECT_EQ(first_line("\nsecond line"), "");
}

TEST(FirstLine, KeepsExactly300Characters) {
  const std::string line(300, 'x');
  EXPECT_EQ(first_line(line), line);
  EXPECT_EQ(first_line(line + "\nmore"), line);
}

TEST(FirstLine, CutsALongerLineTo300CharactersAndSaysSo) {
  const std::string long_line = std::string(300, 'a') + std::string(200, 'b');
  const std::string cut = first_line(long_line);
  EXPECT_EQ(cut, std::string(300, 'a') + "...");
  EXPECT_EQ(first_line(std::string(301, 'a')), std::string(300, 'a') + "...");
  // the limit applies to the first line, not to the whole text
  EXPECT_EQ(first_line(long_line + "\n" + std::string(10, 'c')), cut);
}

TEST(FirstLine, ErrorsBuiltFromItStayOneLine) {
  const std::string vendor = "RuntimeError: " + std::string(1000, 'z') + "\nTraceback (most recent call last):\n  ...";
  const Error e = make_error(ExitCode::model_error, first_line(vendor)).with_context("iteration 3");
  EXPECT_EQ(e.message.find('\n'), std::string::npos);
  EXPECT_EQ(e.message.rfind("iteration 3: RuntimeError: ", 0), 0u);
  EXPECT_LE(e.message.size(), std::string("iteration 3: ").size() + 300 + 3);
}

TEST(Result, HoldsAValueOrAnError) {
  Result<int> good = 42;
  ASSERT_TRUE(good.ok());
  EXPECT_TRUE(static_cast<bool>(good));
  EXPECT_EQ(good.value(), 42);
  EXPECT_EQ(*good, 42);

  Result<int> bad = make_error(ExitCode::usage_error, "--runs must be positive");
  ASSERT_FALSE(bad.ok());
  EXPECT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(bad.error().code, ExitCode::usage_error);
  EXPECT_EQ(bad.error().message, "--runs must be positive");
}

TEST(Result, ValueCanBeMovedOutAndAccessedThroughArrow) {
  Result<std::string> text = std::string("report.json");
  EXPECT_EQ(text->size(), 11u);
  Result<std::unique_ptr<int>> owned = std::make_unique<int>(7);
  std::unique_ptr<int> taken = std::move(owned).value();
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(*taken, 7);
}

TEST(Status, OkOrError) {
  EXPECT_TRUE(ok_status().ok());
  const Status failed = make_error(ExitCode::output_error, "disk full");
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().code, ExitCode::output_error);
}

}  // namespace
}  // namespace ohprof
