// Command-line behaviour that needs no model: usage errors and their exit codes.
#include <gtest/gtest.h>

#include "cli_harness.hpp"
#include "ohprof/base/exit_codes.hpp"

namespace ohprof {
namespace {

using testing::run_ohprof;

using testing::code;
using testing::line_count;

TEST(Cli, HelpListsSubcommandsAndExitsZero) {
  const auto result = run_ohprof({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("run"), std::string::npos);
}

TEST(Cli, VersionPrintsVersionAndWhatInflatesGzip) {
  const auto result = run_ohprof({"--version"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("0."), std::string::npos) << result.out;
  const bool isal = result.out.find("; gzip: ISA-L 2.") != std::string::npos;
  const bool zlib = result.out.find("; gzip: zlib 1.") != std::string::npos;
  EXPECT_TRUE(isal != zlib) << result.out;
}

TEST(Cli, NoSubcommandIsAUsageError) {
  const auto result = run_ohprof({});
  EXPECT_EQ(result.exit_code, code(ExitCode::usage_error));
}

TEST(Cli, UnknownFlagIsAUsageError) {
  const auto result = run_ohprof({"run", "--aoti", "x.pt2", "--bogus"});
  EXPECT_EQ(result.exit_code, code(ExitCode::usage_error));
  EXPECT_NE(result.err.find("--bogus"), std::string::npos) << result.err;
}

TEST(Cli, StrayArgumentIsAUsageError) {
  const auto result = run_ohprof({"run", "--aoti", "x.pt2", "stray"});
  EXPECT_EQ(result.exit_code, code(ExitCode::usage_error));
}

TEST(Cli, RunWithoutPackageIsAUsageError) {
  const auto result = run_ohprof({"run"});
  EXPECT_EQ(result.exit_code, code(ExitCode::usage_error));
  EXPECT_NE(result.err.find("--aoti"), std::string::npos) << result.err;
}

#if OHPROF_WITH_TORCH_BUILD
TEST(Cli, MissingPackageFileIsFileNotFoundInOneLine) {
  const auto result = run_ohprof({"run", "--aoti", "/nonexistent/model.pt2"});
  EXPECT_EQ(result.exit_code, code(ExitCode::file_not_found));
  EXPECT_NE(result.err.find("/nonexistent/model.pt2"), std::string::npos) << result.err;
  EXPECT_EQ(line_count(result.err), 1u) << result.err;
}

TEST(Cli, BadInputSpecIsAUsageError) {
  const auto result = run_ohprof({"run", "--aoti", "/nonexistent/model.pt2", "--input", "1,a"});
  EXPECT_EQ(result.exit_code, code(ExitCode::usage_error));
  EXPECT_NE(result.err.find("'a' is not a dimension"), std::string::npos) << result.err;
}

TEST(Cli, BadDeviceIsAUsageError) {
  const auto result = run_ohprof({"run", "--aoti", "/nonexistent/model.pt2", "--device", "gpu"});
  EXPECT_EQ(result.exit_code, code(ExitCode::usage_error));
  EXPECT_NE(result.err.find("--device 'gpu'"), std::string::npos) << result.err;
}

TEST(Cli, ZeroRunsIsAUsageError) {
  const auto result = run_ohprof({"run", "--aoti", "/nonexistent/model.pt2", "--runs", "0"});
  EXPECT_EQ(result.exit_code, code(ExitCode::usage_error));
}

TEST(Cli, FileThatIsNotAZipIsAnInvalidPackage) {
  const auto result = run_ohprof({"run", "--aoti", OHPROF_SOURCE_DIR "/README.md"});
  EXPECT_EQ(result.exit_code, code(ExitCode::invalid_package)) << result.err;
  EXPECT_NE(result.err.find("not an AOTInductor package"), std::string::npos) << result.err;
  EXPECT_EQ(line_count(result.err), 1u) << result.err;
}
#endif

}  // namespace
}  // namespace ohprof
