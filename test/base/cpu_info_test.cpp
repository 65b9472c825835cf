#include "ohprof/base/cpu_info.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace ohprof {
namespace {

// /proc/cpuinfo read independently of the code under test.
std::string cpuinfo_field(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
    if (name != key) continue;
    std::string value = line.substr(colon + 1);
    const auto first = value.find_first_not_of(" \t");
    return first == std::string::npos ? std::string() : value.substr(first);
  }
  return {};
}

std::set<std::string> cpuinfo_flags() {
  std::set<std::string> flags;
  std::istringstream words(cpuinfo_field("flags"));
  for (std::string word; words >> word;) flags.insert(word);
  return flags;
}

TEST(CpuModelName, IsTheModelNameLineOfProcCpuinfo) {
  const std::string expected = cpuinfo_field("model name");
  const std::string name = cpu_model_name();
  if (expected.empty()) {
    EXPECT_EQ(name, "unknown CPU");  // e.g. an Arm host, whose /proc/cpuinfo has no "model name"
  } else {
    EXPECT_EQ(name, expected);
  }
}

TEST(CpuModelName, IsOneCleanLine) {
  // it goes into the report's context and the table header
  const std::string name = cpu_model_name();
  ASSERT_FALSE(name.empty());
  EXPECT_EQ(name.find('\n'), std::string::npos);
  EXPECT_NE(name.front(), ' ');
  EXPECT_NE(name.front(), ':');
}

TEST(CpuSupportsIsaToken, UnknownTokensCountAsSupported) {
  // a package built for an ISA ohprof does not know about is not refused
  EXPECT_TRUE(cpu_supports_isa_token("NEON"));
  EXPECT_TRUE(cpu_supports_isa_token("SOME_FUTURE_ISA"));
  EXPECT_TRUE(cpu_supports_isa_token(""));
  EXPECT_TRUE(cpu_supports_isa_token("avx2_but_lowercase_and_unknown"));
}

#if defined(__x86_64__) || defined(__i386__)
// The known tokens agree with the kernel's view of this CPU (its flags line), not just with themselves.
TEST(CpuSupportsIsaToken, KnownTokensAgreeWithTheKernelsCpuFlags) {
  const auto flags = cpuinfo_flags();
  ASSERT_FALSE(flags.empty()) << "no flags line in /proc/cpuinfo";
  const auto has = [&](const char* flag) { return flags.count(flag) > 0; };
  EXPECT_EQ(cpu_supports_isa_token("AVX2"), has("avx2"));
  // AOTInductor's AVX512 needs F, BW, VL and DQ together
  EXPECT_EQ(cpu_supports_isa_token("AVX512"), has("avx512f") && has("avx512bw") && has("avx512vl") && has("avx512dq"));
  EXPECT_EQ(cpu_supports_isa_token("AVX512_VNNI"), has("avx512_vnni"));
  EXPECT_EQ(cpu_supports_isa_token("AVX512_BF16"), has("avx512_bf16"));
  EXPECT_EQ(cpu_supports_isa_token("AMX"), has("amx_tile"));
  EXPECT_EQ(cpu_supports_isa_token("AMX_TILE"), has("amx_tile"));
}
#endif

}  // namespace
}  // namespace ohprof
