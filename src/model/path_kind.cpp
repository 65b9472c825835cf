#include "ohprof/model/path_kind.hpp"

#include <algorithm>

namespace ohprof {

const std::vector<PathKindInfo>& path_kinds() {
  //                                          kind                                   name                           export compiled wrapper
  static const std::vector<PathKindInfo> kinds{{PathKind::aoti,                         "aoti",                               true,  false, false},
                                               {PathKind::aoti_python,                  "aoti:python",                        true,  false, false},
                                               {PathKind::eager,                        "eager",                              false, false, false},
                                               {PathKind::compile,                      "compile",                            false, true,  true},
                                               {PathKind::compile_reduce_overhead,      "compile:reduce-overhead",            false, true,  false},
                                               {PathKind::compile_max_autotune_no_cudagraphs, "compile:max-autotune-no-cudagraphs", false, true, true},
                                               {PathKind::compile_cpp_wrapper,          "compile:cpp-wrapper",                false, true,  true},
                                               {PathKind::compile_no_module_guards,     "compile:no-module-guards",           false, true,  true},
                                               {PathKind::compile_again,                "compile:again",                      false, true,  true},
                                               {PathKind::compile_again_2,              "compile:again-2",                    false, true,  true}};
  return kinds;
}

std::optional<PathKind> parse_path_kind(std::string_view name) {
  for (const PathKindInfo& k : path_kinds()) {
    if (name == k.name) return k.kind;
  }
  return std::nullopt;
}

const PathKindInfo& path_kind_info(PathKind kind) {
  const auto& kinds = path_kinds();
  return *std::find_if(kinds.begin(), kinds.end(), [&](const PathKindInfo& k) { return k.kind == kind; });
}

const char* to_string(PathKind kind) { return path_kind_info(kind).name; }

}  // namespace ohprof
