#pragma once
// The libraries an ELF shared object or executable names as needed (its dynamic section's DT_NEEDED
// entries) and the std:: symbols it defines, read from its bytes: enough to tell whether it links
// libstdc++.so or carries a C++ runtime of its own (docs/design/python-extension.md, "One C++ runtime").
// 64-bit little-endian ELF only.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ohprof {

// The DT_NEEDED names in file order; empty when it has a dynamic section that needs nothing; nullopt when
// the bytes are not a 64-bit little-endian ELF image with section headers and a dynamic section, or a
// header or a section read lies outside them.
std::optional<std::vector<std::string>> elf_needed_libraries(std::string_view image);

// How many symbols of namespace std (by their mangled names: std::..., std::string's and the iostreams'
// abbreviations) the image's dynamic symbol table defines (a section index other than SHN_UNDEF): 0 for a
// library that uses libstdc++.so, thousands for one that carries a static libstdc++. nullopt when the bytes
// are not a 64-bit little-endian ELF image with section headers and a dynamic symbol table, or a header,
// a symbol or a name read lies outside them.
std::optional<std::size_t> elf_std_definitions(std::string_view image);

// Whether `needed` names a libstdc++ (libstdc++.so, libstdc++.so.6, ...).
bool names_libstdcxx(const std::vector<std::string>& needed);

// Whether `needed` names a shared C++ runtime: a libstdc++, or LLVM's libc++ (libc++.so.1, ...), whose
// library defines weak std:: symbols of its own (std::__1) yet carries no runtime.
bool names_shared_cxx_runtime(const std::vector<std::string>& needed);

}  // namespace ohprof
