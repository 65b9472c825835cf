#pragma once
// What an AOTI package holds, read with LibTorch's own archive reader (the package is a zip): the
// kernels its generated code names, the files of that code, and which of those kernels a CPU run's
// collector saw. The only file that opens a package's archive is src/runtimes/aoti_package.cpp.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/analysis/cpu_kernels.hpp"
#include "ohprof/base/error.hpp"
#include "ohprof/model/code_dump.hpp"
#include "ohprof/model/report.hpp"
#include "ohprof/model/warning.hpp"

namespace ohprof {

// The kernels named in an AOTI package's generated code: the package (a zip) is read with LibTorch's
// own archive reader and every entry under data/aotinductor/<model>/ ending in .cpp is scanned
// (scan_generated_code). Errors: file_not_found (missing), invalid_package (not a readable archive, or
// no .cpp under data/aotinductor/). A CUDA package yields its wrapper's shim calls and no cpp_fused_.
Result<GeneratedKernels> list_package_kernels(const std::string& package_path);

// The files of an AOTI package's generated code (docs/code-dump.md): every entry under data/aotinductor/
// but the compiled library (*.so), named by its file name ("<hash>.wrapper.cpp", "<hash>.kernel.cpp",
// their metadata .json, a CUDA package's .cubin), with its bytes. Errors as list_package_kernels's.
Result<std::vector<SourceFile>> read_package_sources(const std::string& package_path);

// The compiled libraries of an AOTI package (entries under data/aotinductor/ ending in .so, by file name)
// that need no shared C++ runtime (libstdc++.so or libc++.so: names_shared_cxx_runtime) and define symbols of namespace std themselves
// (elf_std_definitions, how many): each was linked with a static libstdc++ and carries a C++ runtime of
// its own, which LibTorch does not load (docs/design/python-extension.md, "One C++ runtime"). Empty when
// each needs libstdc++.so or defines nothing of std (a C library), or when none reads as an ELF image.
// Errors as list_package_kernels's.
struct OwnRuntimeLibrary {
  std::string name;
  std::size_t std_definitions = 0;
};
Result<std::vector<OwnRuntimeLibrary>> package_libraries_with_own_runtime(const std::string& package_path);

// CPU runs of an AOTI package: which kernels named in the package's generated code the collector saw
// among the `events` of iterations first..last (docs/cpu-collector.md, "Attribution"), and, when some
// were never seen, the warning to print. Errors when the package cannot be read.
struct PackageAttribution {
  KernelAttributionSummary summary;
  std::optional<Warning> warning;  // absent when every kernel named in the code was seen
};
Result<PackageAttribution> attribute_package_kernels(const std::string& package_path, const std::vector<CpuEvent>& events,
                                                     std::int64_t first_iteration, std::int64_t last_iteration);

}  // namespace ohprof
