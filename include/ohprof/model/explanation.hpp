#pragma once
// Why one path beats another (docs/metrics.md, "Layers" and "Explanation"): the layers of host work a
// path runs on every call, each peeled by a variant of the path that runs without it, and the
// explanation of a wall-time gap between two paths in those layers. Plain data; the variants a path
// has are defined here once, for the session (which builds them), the Python side (which knows the
// same names, test/tools/python_boundary_check.py) and the analysis (which subtracts them).
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/enum_text.hpp"
#include "ohprof/base/stats.hpp"

namespace ohprof {

// Where a path's callable came from.
#define OHPROF_PATH_SOURCE_VALUES(X)                                                                                           \
  X(module, "module")                      /* the user's nn.Module (--model, the default --compile-source) */                  \
  X(exported_program, "exported_program")  /* the torch.export program's module() (--exported, or --compile-source program) */ \
  X(aoti_package, "aoti_package")          /* the AOTInductor package */
OHPROF_ENUM_CLASS(PathSource, OHPROF_PATH_SOURCE_VALUES)
std::optional<PathSource> parse_path_source(const std::string& text);  // to_string's inverse

// A path the user asked for, a variant ohprof measures to peel one layer off one of them, or a path
// measured only for compare --what-if's ledger (model/what_if.hpp).
#define OHPROF_PATH_ROLE_VALUES(X) \
  X(path, "path")                  \
  X(variant, "variant")            \
  X(what_if, "what-if")
OHPROF_ENUM_CLASS(PathRole, OHPROF_PATH_ROLE_VALUES)

// One layer of host work, peeled by the difference of two variants that differ by it alone.
#define OHPROF_HOST_LAYER_VALUES(X)                                                                                                                        \
  X(guards, "guards")                /* Dynamo's guard evaluation (path - path/no-guards) */                                                               \
  X(dynamo, "dynamo")                /* the rest of Dynamo's entry: OptimizedModule and eval-frame wrappers, the cache lookup, the transformed bytecode */ \
                                     /* (path/no-guards - path/graph) */                                                                                   \
  X(aot_wrapper, "aot_wrapper")      /* AOTAutograd's runtime wrapper (path/graph - path/inductor) */                                                      \
  X(inductor_call, "inductor_call")  /* Inductor's CompiledFxGraph.__call__ (path/inductor - path/call) */                                                 \
  X(python_loader, "python_loader")  /* torch._inductor.aoti_load_package's Python model (aoti:python - aoti) */
OHPROF_ENUM_CLASS(HostLayer, OHPROF_HOST_LAYER_VALUES)
const char* layer_label(HostLayer layer);  // "guards", "Dynamo entry", "AOTAutograd wrapper", ...

// One step of a path's peel chain: `upper` runs the layer, `lower` the same without it.
struct PeelStep {
  HostLayer layer = HostLayer::guards;
  std::string upper;
  std::string lower;
};

// The peel chain of a path, top down: compile modes without CUDA graphs peel guards, Dynamo, the
// AOTAutograd wrapper and Inductor's graph call down to `<path>/call`, the generated wrapper's call();
// compile:reduce-overhead peels guards and Dynamo down to `<path>/graph`; aoti:python peels its Python
// loader down to aoti. Other paths (aoti, eager) have none: they are their own floor.
std::vector<PeelStep> peel_chain(const std::string& path);
// The bottom of the chain: the last step's lower path, or the path itself.
std::string chain_floor(const std::string& path);

// What a floor runs around the kernels.
#define OHPROF_FLOOR_KIND_VALUES(X)                                                                                 \
  X(python_wrapper, "python_wrapper")  /* Inductor's generated Python wrapper, call() (and its kernel launchers) */ \
  X(cpp_wrapper, "cpp_wrapper")        /* Inductor's cpp_wrapper module, through its Python entry */                \
  X(cuda_graph, "cuda_graph")          /* AOTAutograd's function replaying a CUDA graph (reduce-overhead) */        \
  X(cpp_runner, "cpp_runner")          /* AOTI's C++ runner (LibTorch's AOTIModelPackageLoader) */                  \
  X(eager_dispatch, "eager_dispatch")  /* eager PyTorch: the module's Python forward and per-op dispatch */
OHPROF_ENUM_CLASS(FloorKind, OHPROF_FLOOR_KIND_VALUES)
const char* floor_label(FloorKind kind);  // "Inductor's Python wrapper", ...
std::optional<FloorKind> floor_kind(const std::string& floor_path);

// An estimate with its standard error (docs/metrics.md, "Spread of a difference").
// Which part of a path's time its verdict found dominant: kernels (compute-bound), host work (host-bound),
// or neither (mixed, device-wait-bound).
#define OHPROF_DOMINANT_VALUES(X) \
  X(kernels, "kernels")           \
  X(host, "host")                 \
  X(neither, "neither")
OHPROF_ENUM_CLASS(Dominant, OHPROF_DOMINANT_VALUES)

struct Estimate {
  double value_ns = 0;
  double se_ns = 0;
};

// Significance, one rule everywhere (docs/metrics.md, "Significance"): an estimate's 95% interval is
// value ± kZ95 · se; it is significant when that interval excludes zero, and "within noise" otherwise, in
// every sentence, table and page. An estimate without a standard error (se 0) is significant when non-zero.
inline constexpr double kZ95 = 1.96;  // two-sided 95%, normal
bool significant(const Estimate& e);
double interval_low(const Estimate& e);   // value - kZ95 · se
double interval_high(const Estimate& e);  // value + kZ95 · se

// One peeled layer of one side of a gap.
struct LayerEstimate {
  HostLayer layer = HostLayer::guards;
  std::string path;   // the path whose chain it belongs to
  std::string upper;  // the two variants it is the difference of
  std::string lower;
  Estimate estimate;  // median(upper) - median(lower), timing pass
  int sign = 1;       // +1: a layer of the slower path (adds to the gap); -1: of the faster path
  // The two variants ran different kernel sets (split pass); unknown without both splits, or where a kernel
  // does not record itself (the diff then holds the recorded ops alone).
  std::optional<bool> kernels_differ;
};

// A compiled path's own Dynamo ranges in the split pass, as the CPU collector records them: the second
// view of its guard and Dynamo-entry layers (docs/metrics.md, "Layers").
struct DynamoRanges {
  std::size_t iterations = 0;       // split-pass iterations with the ranges
  SampleSummary cache_lookup_ns;    // per iteration: the "TorchDynamo Cache Lookup" ranges
  SampleSummary outside_region_ns;  // per iteration: wall - the outermost "Torch-Compiled Region" ranges
};

// That view beside the variants' layers, for one path of a gap.
struct DynamoRangeCheck {
  std::string path;
  Estimate cache_lookup;                     // median and se of DynamoRanges::cache_lookup_ns
  std::optional<Estimate> guards;            // the path's guards layer
  Estimate outside_region;                   // median and se of DynamoRanges::outside_region_ns
  std::optional<Estimate> guards_and_dynamo; // its guards + Dynamo entry layers
  // The views disagree (docs/metrics.md, "Layers"): a layer holds more than the range that holds what it
  // peels, beyond noise and by at least kLayersExceedRatio (layers_exceed_range).
  bool guards_exceed_lookup = false;    // guards against cache_lookup
  bool layers_exceed_outside = false;   // guards_and_dynamo against outside_region
};

// How much more than its range a layer must hold for the views to disagree: the views differ by what each
// counts that the other does not (docs/metrics.md, "Layers"), up to 19% on the walkthrough's models.
inline constexpr double kLayersExceedRatio = 1.25;

// A faster path measured in the same run, and how much of the gap it closes.
struct GapRemedy {
  std::string path;
  Estimate saved;           // median(slower) - median(path)
  double share_of_gap = 0;  // saved / gap
};

// Why `slower` took longer than `faster` (docs/metrics.md, "Explanation").
struct GapExplanation {
  std::string slower;
  std::string faster;
  bool measured = false;            // both paths have samples (else only `missing` says anything)
  Estimate gap;                     // median(slower) - median(faster), timing pass
  bool within_noise = false;        // !significant(gap): its 95% interval contains zero
  std::optional<Estimate> kernels;  // median busy(slower) - median busy(faster), split pass
  std::optional<bool> kernels_same; // the two ran the same kernel set
  // The faster path's split verdict (docs/metrics.md, "Verdict"): its busy share of the summed wall time,
  // and which part its verdict found dominant; the answer says it when the gap is within noise.
  std::optional<double> faster_kernel_share;
  std::optional<Dominant> faster_dominant;
  std::vector<LayerEstimate> layers;          // the slower path's chain (+), then the faster's (-)
  std::string floor_slower;                   // the chains' floors
  std::string floor_faster;
  std::optional<FloorKind> floor_kind_slower;
  std::optional<FloorKind> floor_kind_faster;
  Estimate floor_gap;  // median(floor_slower) - median(floor_faster) = gap - sum(sign * layers); 0 for one floor
  // host(floor_slower) - host(floor_faster), host = median wall (timing pass) - median busy (split pass)
  std::optional<Estimate> wrapper;
  std::optional<Estimate> residual;      // gap - kernels - sum(sign * layers) - wrapper
  std::optional<double> residual_share;  // residual / gap
  std::vector<GapRemedy> remedies;   // other measured paths faster than `slower`, fastest first
  std::vector<DynamoRangeCheck> dynamo_ranges;  // the second view, for each side that has the ranges
  std::vector<std::string> missing;  // why a layer or a term is absent (its time is then in no term)
};

}  // namespace ohprof
