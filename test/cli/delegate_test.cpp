// The torch-free front: it loads no LibTorch, CPython or CUDA library, and hands run, compare and sweep
// to the user's Python (which imports the measuring extension), or says in one line that it found none.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

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
  // The package does not exist: the error comes from the session in the measuring extension.
  const auto result = testing::run_ohprof({"run", "--aoti", "/nonexistent/model.pt2"});
  EXPECT_EQ(result.exit_code, code(ExitCode::file_not_found)) << result.err;
  EXPECT_NE(result.err.find("AOTI package '/nonexistent/model.pt2' does not exist"), std::string::npos) << result.err;
  EXPECT_EQ(line_count(result.err), 1u) << result.err;
}
#endif

// A folder of its own for a copy of the front, removed afterwards.
struct FrontCopy {
  std::filesystem::path root;
  explicit FrontCopy(const std::string& name)
      : root(std::filesystem::temp_directory_path() / ("ohprof-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(root);
  }
  ~FrontCopy() { std::filesystem::remove_all(root); }
  std::string place(const std::filesystem::path& rel) const {
    std::filesystem::create_directories((root / rel).parent_path());
    std::filesystem::copy_file(OHPROF_BINARY, root / rel, std::filesystem::copy_options::overwrite_existing);
    return (root / rel).string();
  }
  void write(const std::filesystem::path& rel, const std::string& text, bool executable = false) const {
    std::filesystem::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
    if (executable) std::filesystem::permissions(root / rel, std::filesystem::perms::owner_all);
  }
};

// A stand-in Python that prints what it was started with: its arguments, then PYTHONPATH.
const char* kEchoPython = "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\necho \"PYTHONPATH=$PYTHONPATH\"\n";

TEST(Front, WithoutAMeasuringPythonRunCompareAndSweepSaySoInOneLine) {
  // The front alone in a folder of its own, as a build without LibTorch has it: no Python found.
  FrontCopy copy("front-alone");
  const std::string front = copy.place("ohprof");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"env", "-u", "OHPROF_PYTHON", front, "run", "--aoti", "m.pt2"},
        std::vector<std::string>{"env", "-u", "OHPROF_PYTHON", front, "compare"},
        std::vector<std::string>{"env", "-u", "OHPROF_PYTHON", front, "sweep", "--batch", "1,2"}}) {
    const auto result = run_program(args);
    EXPECT_EQ(result.exit_code, code(ExitCode::environment_error)) << result.err;
    EXPECT_NE(result.err.find("measures in a Python with torch and ohprof installed"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("--python or OHPROF_PYTHON"), std::string::npos) << result.err;
    EXPECT_EQ(line_count(result.err), 1u) << result.err;
  }
  // Usage errors are still found by the front itself, before any delegation.
  const auto usage = run_program({front, "compare", "--paths", "nope"});
  EXPECT_EQ(usage.exit_code, code(ExitCode::usage_error));
  EXPECT_NE(usage.err.find("unknown path 'nope'"), std::string::npos) << usage.err;
  // A --python that is not a program.
  const auto missing = run_program({front, "compare", "--python", "/nonexistent/python3"});
  EXPECT_EQ(missing.exit_code, code(ExitCode::environment_error)) << missing.err;
  EXPECT_NE(missing.err.find("'/nonexistent/python3'"), std::string::npos) << missing.err;
  EXPECT_EQ(line_count(missing.err), 1u) << missing.err;
}

TEST(Front, AnInstalledFrontRunsThePythonOfItsEnvironment) {
  // pip's layout: PREFIX/bin/ohprof, PREFIX/bin/python3.11, PREFIX/lib/python3.11/site-packages/ohprof/.
  FrontCopy copy("front-installed");
  const std::string front = copy.place("bin/ohprof");
  copy.write("lib/python3.11/site-packages/ohprof/_measure.py", "");
  copy.write("bin/python3.11", kEchoPython, true);
  const auto result = run_program({"env", "-u", "OHPROF_PYTHON", front, "compare", "--device", "cpu"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  // python -c BOOTSTRAP ohprof ARGS: the bootstrap imports ohprof._measure and calls main.
  EXPECT_EQ(result.out.rfind("-c\n", 0), 0u) << result.out;
  EXPECT_NE(result.out.find("from ohprof._measure import main"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\nohprof\ncompare\n--device\ncpu\n"), std::string::npos) << result.out;

  // --python wins over the environment's Python, and OHPROF_PYTHON over it too when no flag is given.
  copy.write("other/python", kEchoPython, true);
  const std::string other = (copy.root / "other" / "python").string();
  const auto flagged = run_program({"env", "-u", "OHPROF_PYTHON", front, "run", "--aoti", "m.pt2", "--python", other});
  EXPECT_EQ(flagged.exit_code, 0) << flagged.err;
  EXPECT_NE(flagged.out.find("\nohprof\nrun\n--aoti\nm.pt2\n--python\n"), std::string::npos) << flagged.out;
  const auto from_env = run_program({"env", "OHPROF_PYTHON=" + other, front, "sweep", "--batch", "1"});
  EXPECT_EQ(from_env.exit_code, 0) << from_env.err;
  EXPECT_NE(from_env.out.find("\nohprof\nsweep\n--batch\n1\n"), std::string::npos) << from_env.out;
}

}  // namespace
}  // namespace ohprof
