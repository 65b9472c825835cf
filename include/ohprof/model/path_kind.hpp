#pragma once
// The paths `compare` knows how to build (docs/usage.md, "Paths"), named once, with what each is: the
// facts that steer the session (which need torch.export, which are torch.compile, what a cold start
// caches), so that control flow never compares path names (docs/architecture.md).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ohprof {

enum class PathKind {
  aoti,                                // the AOTI package through LibTorch's C++ loader
  aoti_python,                         // the AOTI package through torch._inductor.aoti_load_package
  eager,                               // the model as it is
  compile,                             // torch.compile, default mode
  compile_reduce_overhead,             // mode="reduce-overhead": CUDA graphs on a GPU
  compile_max_autotune_no_cudagraphs,  // mode="max-autotune-no-cudagraphs"
  compile_cpp_wrapper,                 // Inductor's C++ wrapper (cpp_wrapper=True)
  compile_no_module_guards,            // the guard filter that skips the nn.Module guards
  compile_again,                       // the default mode compiled again in a fresh Inductor cache (an A/A check)
  compile_again_2,                     // and a second time, in another fresh cache (the A/A check's second rebuild)
};

// What a path kind is. `name` is its name on the command line and in reports.
struct PathKindInfo {
  PathKind kind;
  const char* name;
  bool exported;  // runs what torch.export captured: measured only when the export succeeded
  bool compiled;  // a torch.compile of the model: Dynamo's guards and an Inductor compile, its cache
  // The compiled graph is called through AOTAutograd's wrapper and Inductor's Python call (all compiled
  // paths but reduce-overhead, whose calls replay CUDA graphs instead).
  bool python_wrapper;
};

// Every kind, in the order `compare --paths` lists them.
const std::vector<PathKindInfo>& path_kinds();
// The kind of a path named `name`; none for a name compare does not build (a variant such as
// "compile/no-guards", a path of another tool's report).
std::optional<PathKind> parse_path_kind(std::string_view name);
const PathKindInfo& path_kind_info(PathKind kind);
const char* to_string(PathKind kind);

}  // namespace ohprof
