#include "ohprof/model/cold_start.hpp"

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

const char* to_string(CompileCache cache) {
  switch (cache) {
    case CompileCache::none: return "none";
    case CompileCache::cold: return "cold";
    case CompileCache::warm: return "warm";
    case CompileCache::artifacts: return "artifacts";
  }
  return "none";
}

std::optional<CompileCache> parse_compile_cache(const std::string& text) { return parse_enum<CompileCache>(text); }

const char* to_string(ColdStartOrder order) {
  switch (order) {
    case ColdStartOrder::faster: return "faster";
    case ColdStartOrder::slower: return "slower";
    case ColdStartOrder::too_few: return "too-few";
    case ColdStartOrder::overlapping: break;
  }
  return "overlapping";
}

}  // namespace ohprof
