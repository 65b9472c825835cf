// The torch-free front: it loads no LibTorch, CPython or CUDA library, and hands run and compare to
// ohprof-measure, or says in one line that this build has none.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "cli_harness.hpp"
#include "ohprof/base/exit_codes.hpp"

namespace ohprof {
namespace {

using testing::code;
using testing::line_count;
using testing::run_program;

// The shared objects the dynamic loader opened for a command of the front (LD_DEBUG=libs writes one
// "calling init: <path>" line per library initialised).
std::string libraries_loaded(const std::vector<std::string>& args) {
  std::vector<std::string> command{"env", "LD_DEBUG=libs", OHPROF_BINARY};
  command.insert(command.end(), args.begin(), args.end());
  const auto result = run_program(command);
  std::string libraries;
  std::size_t pos = 0;
  while ((pos = result.err.find("calling init: ", pos)) != std::string::npos) {
    const std::size_t end = result.err.find('\n', pos);
    libraries += result.err.substr(pos + 14, end - pos - 14) + "\n";
    pos = end;
  }
  return libraries;
}

TEST(Front, AnalyzeLoadsNoTorchPythonOrCudaLibrary) {
  const std::string loaded =
      libraries_loaded({"analyze", std::string(OHPROF_SOURCE_DIR) + "/test/data/traces/triton_example.json.gz", "--quiet"});
  ASSERT_NE(loaded.find("libc.so"), std::string::npos) << "LD_DEBUG output not understood:\n" << loaded;
  for (const char* vendor : {"libtorch", "libc10", "libpython", "libcuda", "libcupti", "libnvrtc", "libcudnn"}) {
    EXPECT_EQ(loaded.find(vendor), std::string::npos) << vendor << " loaded:\n" << loaded;
  }
}

TEST(Front, VersionLoadsNoTorch) {
  const std::string loaded = libraries_loaded({"--version"});
  EXPECT_EQ(loaded.find("libtorch"), std::string::npos) << loaded;
}

#if OHPROF_WITH_TORCH_BUILD
TEST(Front, RunIsHandedToTheMeasuringBinary) {
  // The package does not exist: the error comes from the session in ohprof-measure.
  const auto result = testing::run_ohprof({"run", "--aoti", "/nonexistent/model.pt2"});
  EXPECT_EQ(result.exit_code, code(ExitCode::file_not_found)) << result.err;
  EXPECT_NE(result.err.find("AOTI package '/nonexistent/model.pt2' does not exist"), std::string::npos) << result.err;
  EXPECT_EQ(line_count(result.err), 1u) << result.err;
}
#endif

TEST(Front, WithoutTheMeasuringBinaryRunAndCompareSaySoInOneLine) {
  // The front alone in a folder of its own, as a build without LibTorch has it.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ohprof-front-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(OHPROF_BINARY, dir / "ohprof", std::filesystem::copy_options::overwrite_existing);
  const std::string front = (dir / "ohprof").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{front, "run", "--aoti", "m.pt2"}, std::vector<std::string>{front, "compare"}}) {
    const auto result = run_program(args);
    EXPECT_EQ(result.exit_code, code(ExitCode::usage_error)) << result.err;
    EXPECT_NE(result.err.find("runs models with LibTorch, which this build does not have"), std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("ohprof-measure"), std::string::npos) << result.err;
    EXPECT_EQ(line_count(result.err), 1u) << result.err;
  }
  // Usage errors are still found by the front itself, before any delegation.
  const auto usage = run_program({front, "compare", "--paths", "nope"});
  EXPECT_EQ(usage.exit_code, code(ExitCode::usage_error));
  EXPECT_NE(usage.err.find("unknown path 'nope'"), std::string::npos) << usage.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ohprof
