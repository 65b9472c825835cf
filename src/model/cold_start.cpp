#include "ohprof/model/cold_start.hpp"

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
