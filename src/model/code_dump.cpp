#include "ohprof/model/code_dump.hpp"

namespace ohprof {

const char* to_string(KernelOrigin origin) {
  switch (origin) {
    case KernelOrigin::generated: return "generated";
    case KernelOrigin::extern_call: return "extern_call";
    case KernelOrigin::not_in_code: return "not_in_code";
  }
  return "not_in_code";
}

}  // namespace ohprof
