#pragma once
// Reports are written atomically: to a temporary file beside the target, then renamed over it,
// so a reader never sees half a report and an earlier report survives a failed write.
#include <string>
#include <string_view>

#include "ohprof/base/error.hpp"

namespace ohprof {

// Writes `contents` to `path` atomically; "-" writes to stdout.
Status write_file_atomically(const std::string& path, std::string_view contents);

}  // namespace ohprof
