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

std::string dump_folder_name(const std::string& path) {
  std::string folder = path;
  for (char& c : folder) {
    if (c == ':' || c == '/') c = '_';
  }
  return folder;
}

}  // namespace ohprof
