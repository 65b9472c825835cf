// The only translation unit that opens an AOTI package's archive (LibTorch's PyTorchStreamReader).
// LibTorch exceptions are turned into Errors here.
#include "ohprof/runtimes/aoti_package.hpp"

#include <caffe2/serialize/inline_container.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <utility>

#include "ohprof/base/elf.hpp"

namespace ohprof {
namespace {

// The package's entries under data/aotinductor/ that `keep` accepts (by entry name), with their bytes;
// `context` starts every error.
Result<std::vector<std::pair<std::string, std::string>>> read_package_entries(
    const std::string& package_path, const std::string& context, const std::function<bool(const std::string&)>& keep) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(package_path, ec)) {
    return make_error(ExitCode::file_not_found, context + "no such file");
  }
  std::vector<std::pair<std::string, std::string>> entries;
  try {
    caffe2::serialize::PyTorchStreamReader reader(package_path);
    for (const std::string& name : reader.getAllRecords()) {
      if (!name.starts_with("data/aotinductor/") || !keep(name)) continue;
      auto [data, size] = reader.getRecord(name);
      entries.emplace_back(name, std::string(static_cast<const char*>(data.get()), size));
    }
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return make_error(ExitCode::invalid_package, context + "not a readable package archive: " + first_line(what));
  }
  std::sort(entries.begin(), entries.end());
  return entries;
}

}  // namespace

Result<GeneratedKernels> list_package_kernels(const std::string& package_path) {
  const std::string context = "listing the kernels of AOTI package '" + package_path + "': ";
  const auto cpp = [](const std::string& name) { return name.ends_with(".cpp"); };
  OHPROF_ASSIGN_OR_RETURN(auto entries, read_package_entries(package_path, context, cpp));
  GeneratedKernels kernels;
  for (const auto& [name, text] : entries) {
    scan_generated_code(text, kernels);
    kernels.files.push_back(name);
  }
  if (kernels.files.empty()) {
    return make_error(ExitCode::invalid_package,
                      context + "no generated C++ code under data/aotinductor/ (not an AOTI CPU package?)");
  }
  return kernels;
}

Result<std::vector<OwnRuntimeLibrary>> package_libraries_with_own_runtime(const std::string& package_path) {
  const std::string context = "reading the libraries of AOTI package '" + package_path + "': ";
  const auto so = [](const std::string& name) { return name.ends_with(".so"); };
  OHPROF_ASSIGN_OR_RETURN(auto entries, read_package_entries(package_path, context, so));
  std::vector<OwnRuntimeLibrary> own;
  for (const auto& [name, bytes] : entries) {
    const auto needed = elf_needed_libraries(bytes);
    if (!needed || names_shared_cxx_runtime(*needed)) continue;
    const auto defined = elf_std_definitions(bytes);
    if (defined && *defined > 0) own.push_back(OwnRuntimeLibrary{std::filesystem::path(name).filename().string(), *defined});
  }
  return own;
}

Result<std::vector<SourceFile>> read_package_sources(const std::string& package_path) {
  const std::string context = "reading the generated code of AOTI package '" + package_path + "': ";
  const auto not_so = [](const std::string& name) { return !name.ends_with(".so"); };
  OHPROF_ASSIGN_OR_RETURN(auto entries, read_package_entries(package_path, context, not_so));
  std::vector<SourceFile> files;
  for (auto& [name, bytes] : entries) {
    files.push_back(SourceFile{std::filesystem::path(name).filename().string(), std::move(bytes)});
  }
  if (files.empty()) return make_error(ExitCode::invalid_package, context + "nothing under data/aotinductor/");
  return files;
}

Result<PackageAttribution> attribute_package_kernels(const std::string& package_path, const std::vector<CpuEvent>& events,
                                                     std::int64_t first_iteration, std::int64_t last_iteration) {
  OHPROF_ASSIGN_OR_RETURN(auto code, list_package_kernels(package_path));
  std::vector<CpuEvent> selected;
  for (const auto& event : events) {
    if (event.iteration >= first_iteration && event.iteration <= last_iteration) selected.push_back(event);
  }
  const KernelAttribution attribution = attribute_kernels(code, selected);
  PackageAttribution out;
  out.summary = KernelAttributionSummary{attribution.records_kernels, attribution.seen, attribution.unattributed,
                                         attribution.not_in_code};
  if (!attribution.complete()) {
    out.warning = Warning{
        WarningCode::kernels_unattributed,
        std::to_string(attribution.unattributed.size()) + " of " +
            std::to_string(attribution.seen.size() + attribution.unattributed.size()) +
            " kernels named in the package's generated code were never recorded" +
            (attribution.records_kernels ? "" : " (it was built without cpp.enable_kernel_profile)") +
            "; their time counts as dispatch, not busy: re-export with --kernel-profile (compare) or "
            "examples/export_model.py --kernel-profile"};
  }
  return out;
}

}  // namespace ohprof
