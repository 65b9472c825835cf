#include "ohprof/cpu_info.hpp"

#include <fstream>

namespace ohprof {

std::string cpu_model_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}

bool cpu_supports_isa_token(std::string_view token) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (token == "AVX2") return __builtin_cpu_supports("avx2");
  if (token == "AVX512") {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  }
  if (token == "AVX512_VNNI") return __builtin_cpu_supports("avx512vnni");
  if (token == "AVX512_BF16") return __builtin_cpu_supports("avx512bf16");
  if (token == "AMX" || token == "AMX_TILE") return __builtin_cpu_supports("amx-tile");
#endif
  (void)token;
  return true;
}

}  // namespace ohprof
