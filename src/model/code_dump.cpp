#include "ohprof/model/code_dump.hpp"

namespace ohprof {

std::string dump_folder_name(const std::string& path) {
  std::string folder = path;
  for (char& c : folder) {
    if (c == ':' || c == '/') c = '_';
  }
  return folder;
}

}  // namespace ohprof
