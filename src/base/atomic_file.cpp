#include "ohprof/base/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <filesystem>
#include <fmt/format.h>
#include <unistd.h>

namespace ohprof {
namespace {

Error write_error(const std::string& path, const std::string& why) {
  return make_error(ExitCode::output_error,
                    fmt::format("cannot write report '{}': {}; check that the folder exists and is writable",
                                path, why));
}

bool write_all(int fd, std::string_view contents) {
  while (!contents.empty()) {
    const ssize_t written = ::write(fd, contents.data(), contents.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    contents.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

}  // namespace

Status write_file_atomically(const std::string& path, std::string_view contents) {
  if (path == "-") {
    if (!write_all(STDOUT_FILENO, contents)) return write_error(path, std::strerror(errno));
    return ok_status();
  }
  const std::filesystem::path target(path);
  const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : ".";
  std::string temp = (folder / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return write_error(path, std::strerror(errno));
  const bool written = write_all(fd, contents) && ::fsync(fd) == 0;
  const int saved_errno = errno;
  ::fchmod(fd, 0644);
  ::close(fd);
  if (!written) {
    ::unlink(temp.c_str());
    return write_error(path, std::strerror(saved_errno));
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    ::unlink(temp.c_str());
    return write_error(path, std::strerror(rename_errno));
  }
  return ok_status();
}

}  // namespace ohprof
