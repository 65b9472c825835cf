#pragma once
// The libraries an ELF shared object or executable names as needed (its dynamic section's DT_NEEDED
// entries), read from its bytes: enough to tell whether it links libstdc++.so or carries a C++ runtime of
// its own (docs/design/python-extension.md, "One C++ runtime"). 64-bit little-endian ELF only.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ohprof {

// The DT_NEEDED names in file order; empty when it has a dynamic section that needs nothing; nullopt when
// the bytes are not a 64-bit little-endian ELF image with section headers and a dynamic section, or a
// header or a section read lies outside them.
std::optional<std::vector<std::string>> elf_needed_libraries(std::string_view image);

// Whether `needed` names a libstdc++ (libstdc++.so, libstdc++.so.6, ...).
bool names_libstdcxx(const std::vector<std::string>& needed);

}  // namespace ohprof
