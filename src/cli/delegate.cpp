// The front's `run`, `compare` and `sweep`: the user's Python, running ohprof's measuring side
// (python/ohprof/_measure.py and the _ohprof_measure extension), replaces this process.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "commands.hpp"
#include "model_flags.hpp"

namespace ohprof {
namespace {

namespace fs = std::filesystem;

// The Python the front executes: imports ohprof._measure (one line and exit 16 when it cannot) and
// hands it the command line. `sys.argv` is then ['-c', 'ohprof', ARGS...].
constexpr const char* kBootstrap =
    "import sys\n"
    "try:\n"
    "    from ohprof._measure import main\n"
    "except ImportError as e:\n"
    "    sys.stderr.write('ohprof: error: Python ' + sys.executable + ' cannot import ohprof (' + str(e) + '); '\n"
    "                     'install ohprof there (pip install), or name the Python it is installed in with '\n"
    "                     '--python or OHPROF_PYTHON\\n')\n"
    "    raise SystemExit(16)\n"
    "main(sys.argv[1:])\n";

fs::path this_executable_dir() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path() : self.parent_path();
}

bool executable(const fs::path& path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

std::optional<fs::path> on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return std::nullopt;
  for (const std::string& dir : split_items(path, ':')) {
    if (!dir.empty() && executable(fs::path(dir) / name)) return fs::path(dir) / name;
  }
  return std::nullopt;
}

// An installed ohprof (pip, into a venv, conda env, --user or system prefix): the front is PREFIX/bin/ohprof
// and the package PREFIX/lib/pythonX.Y/{site,dist}-packages/ohprof. The interpreter: PREFIX/bin/pythonX.Y,
// python3 or python, else pythonX.Y on PATH (a --user install's bin has no Python).
std::optional<fs::path> installed_python(const fs::path& front_dir) {
  std::error_code error;
  const fs::path lib = front_dir / ".." / "lib";
  for (const auto& entry : fs::directory_iterator(lib, error)) {
    const std::string version = entry.path().filename().string();  // python3.11
    if (version.rfind("python3", 0) != 0) continue;
    for (const char* packages : {"site-packages", "dist-packages"}) {
      if (!fs::exists(entry.path() / packages / "ohprof" / "_measure.py", error)) continue;
      for (const std::string& name : {version, std::string("python3"), std::string("python")}) {
        if (executable(front_dir / name)) return front_dir / name;
      }
      if (auto found = on_path(version)) return found;
    }
  }
  return std::nullopt;
}

}  // namespace

Status delegate_to_measuring_python(const Invocation& invocation, const std::string& command,
                                    const std::string& python_flag) {
  const fs::path dir = this_executable_dir();
  // A developer's build (tools/build): the extension beside the front, the package in the checkout.
  const fs::path dev_extension = dir / "_ohprof_measure.so";
  const bool dev_layout = std::string(OHPROF_DEV_PYTHON).size() > 0 && fs::exists(dev_extension);

  fs::path python;
  const char* from_env = std::getenv("OHPROF_PYTHON");
  if (!python_flag.empty()) {
    python = python_flag;
  } else if (from_env != nullptr && from_env[0] != '\0') {
    python = from_env;
  } else if (dev_layout) {
    python = OHPROF_DEV_PYTHON;
  } else if (auto installed = installed_python(dir)) {
    python = *installed;
  } else {
    return make_error(ExitCode::environment_error,
                      fmt::format("'ohprof {}' measures in a Python with torch and ohprof installed, and none was found "
                                  "beside {}; install ohprof with pip into the environment that has torch, or name "
                                  "its Python with --python or OHPROF_PYTHON",
                                  command, dir.string()));
  }
  if (!executable(python)) {
    return make_error(ExitCode::environment_error,
                      fmt::format("the Python '{}' ohprof was told to measure in is not an executable file; give "
                                  "--python or OHPROF_PYTHON the path of a python with torch and ohprof",
                                  python.string()));
  }
  if (dev_layout) {
    const char* existing = std::getenv("PYTHONPATH");
    const std::string path = std::string(OHPROF_DEV_PYTHON_DIR) +
                             (existing != nullptr && existing[0] != '\0' ? std::string(":") + existing : "");
    ::setenv("PYTHONPATH", path.c_str(), 1);
    ::setenv("OHPROF_EXTENSION", dev_extension.c_str(), 0);
  }
  std::vector<std::string> args{python.string(), "-c", kBootstrap, "ohprof"};
  args.insert(args.end(), invocation.argv.begin() + (invocation.argv.empty() ? 0 : 1), invocation.argv.end());
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  ::execv(python.c_str(), argv.data());
  return make_error(ExitCode::environment_error,
                    fmt::format("could not start the Python '{}': {}", python.string(), std::strerror(errno)));
}

}  // namespace ohprof
