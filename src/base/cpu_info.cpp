#include "ohprof/base/cpu_info.hpp"

#include <sched.h>

#include <fstream>
#include <thread>

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

int available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int count = CPU_COUNT(&set);
    if (count > 0) return count;
  }
  return static_cast<int>(std::thread::hardware_concurrency());
}

namespace {

// Whether /proc/cpuinfo's "flags" line lists `flag`.
bool cpuinfo_has_flag(std::string_view flag) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    const std::string padded = " " + line.substr(line.find(':') + 1) + " ";
    return padded.find(" " + std::string(flag) + " ") != std::string::npos;
  }
  return false;
}

}  // namespace

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
  if (token == "AMX" || token == "AMX_TILE") return cpuinfo_has_flag("amx_tile");  // not every compiler's builtin knows it
#endif
  (void)token;
  return true;
}

}  // namespace ohprof
