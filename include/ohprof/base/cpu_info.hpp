#pragma once
// Facts about the host CPU, for the report's context and for checking an AOTI package's vector ISA.
#include <string>
#include <string_view>

namespace ohprof {

std::string cpu_model_name();  // from /proc/cpuinfo, "unknown CPU" when unreadable

// CPUs this process may run on (its affinity mask; std::thread::hardware_concurrency when unreadable).
int available_cpus();

// Whether this CPU supports an ISA token as AOTInductor writes it in AOTI_CPU_ISA
// ("AVX2", "AVX512", "AVX512_VNNI", "AMX", ...). Unknown tokens count as supported.
bool cpu_supports_isa_token(std::string_view token);

}  // namespace ohprof
