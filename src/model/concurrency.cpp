#include "ohprof/model/concurrency.hpp"

namespace ohprof {

const char* to_string(ConcurrencyLimit limit) {
  switch (limit) {
    case ConcurrencyLimit::none: return "none";
    case ConcurrencyLimit::gil: return "gil";
    case ConcurrencyLimit::cores: return "cores";
    case ConcurrencyLimit::device: return "device";
    case ConcurrencyLimit::unknown: break;
  }
  return "unknown";
}

}  // namespace ohprof
