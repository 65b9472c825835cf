#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "commands.hpp"

namespace ohprof {
namespace {

constexpr const char* kMeasuringBinary = "ohprof-measure";

std::filesystem::path this_executable_dir() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path() : self.parent_path();
}

}  // namespace

Status delegate_to_measuring_binary(const Invocation& invocation, const std::string& command) {
  const std::filesystem::path dir = this_executable_dir();
  const std::filesystem::path candidates[] = {dir / kMeasuringBinary, dir / ".." / "libexec" / "ohprof" / kMeasuringBinary};
  std::vector<char*> argv;
  for (const auto& arg : invocation.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  for (const auto& candidate : candidates) {
    if (::access(candidate.c_str(), X_OK) != 0) continue;
    std::fflush(nullptr);
    ::execv(candidate.c_str(), argv.data());
    return make_error(ExitCode::internal_error,
                      fmt::format("could not execute {}: {}", candidate.string(), std::strerror(errno)));
  }
  return make_error(ExitCode::usage_error,
                    fmt::format("'ohprof {}' runs models with LibTorch, which this build does not have ({} is not "
                                "beside {} nor in ../libexec/ohprof); rebuild with -DOHPROF_WITH_TORCH=ON "
                                "(tools/build)",
                                command, kMeasuringBinary, dir.string()));
}

}  // namespace ohprof
