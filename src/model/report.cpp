#include "ohprof/model/report.hpp"

#include <array>
#include <ctime>
#include <unistd.h>

#include "ohprof/base/build_info.hpp"
#include "ohprof/base/enum_text.hpp"

namespace ohprof {

bool ran_uncompiled(const PathResult& path) { return path.execution && ran_uncompiled(*path.execution); }


std::string utc_timestamp_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

RunContext make_base_context(const std::vector<std::string>& argv) {
  RunContext context;
  context.ohprof_version = ohprof_version();
  context.git_sha = ohprof_git_sha();
  context.torch_version = "none";
  context.cuda_version = cuda_toolkit_version();
  context.cupti_version = "none";
  context.cupti_library = "none";
  context.inflate_library = inflate_library();
  context.argv = argv;
  context.date_utc = utc_timestamp_now();
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) == 0) context.hostname = host.data();
  return context;
}

std::optional<StopCode> parse_stop_code(const std::string& text) { return parse_enum<StopCode>(text); }

}  // namespace ohprof
