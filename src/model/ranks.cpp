#include "ohprof/model/ranks.hpp"

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

const char* to_string(RankSource source) {
  switch (source) {
    case RankSource::distributed_info: return "distributedInfo";
    case RankSource::position: return "position";
  }
  return "position";
}

std::optional<RankSource> parse_rank_source(const std::string& text) { return parse_enum<RankSource>(text); }

const char* to_string(StragglerCause cause) {
  switch (cause) {
    case StragglerCause::compute: return "compute";
    case StragglerCause::host_bound: return "host_bound";
    case StragglerCause::device_wait: return "device_wait";
    case StragglerCause::unknown: return "unknown";
  }
  return "unknown";
}

}  // namespace ohprof
