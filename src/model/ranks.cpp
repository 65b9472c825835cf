#include "ohprof/model/ranks.hpp"

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

std::optional<RankSource> parse_rank_source(const std::string& text) { return parse_enum<RankSource>(text); }

}  // namespace ohprof
