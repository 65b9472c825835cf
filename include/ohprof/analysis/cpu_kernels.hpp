#pragma once
// What counts as a CPU "kernel" among the RecordFunction ranges of a CPU run, and which of the kernels
// named in a model's generated code the collector saw. Pure functions over plain structs: the LibTorch
// side (recording, reading a package) is in cpu_activity_collector.hpp. Definitions: docs/cpu-collector.md.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ohprof/base/enum_text.hpp"
#include "ohprof/model/timeline.hpp"

namespace ohprof {

enum class CpuEventScope { function, user };  // at::RecordScope::FUNCTION / USER_SCOPE

// One at::RecordFunction range as the collector recorded it.
struct CpuEvent {
  std::string name;
  std::int64_t start_ns = 0;   // monotonic clock (clock.hpp)
  std::int64_t end_ns = 0;
  std::int64_t thread_id = 0;  // OS thread id (gettid)
  std::int64_t iteration = -1; // measured iteration current when it started; -1: none
  std::int32_t depth = 0;      // recorded ranges open on the same thread when it started (0: outermost)
  std::int64_t parent = -1;    // index of the enclosing recorded range in the same vector; -1: none
  CpuEventScope scope = CpuEventScope::function;
};

// How a range is classified (docs/cpu-collector.md, "What counts as a kernel").
#define OHPROF_CPU_EVENT_CLASS_VALUES(X)                                                                                     \
  X(generated, "generated")      /* an Inductor-generated kernel recording itself: "graph_<n>_cpp_fused_..." (or "cpp_fused_...") */ \
  X(extern_call, "extern_call")  /* an AOTI C-shim call to an ATen kernel: "aoti_torch_cpu_..." */                                   \
  X(op, "op")                    /* an operator "<namespace>::<name>" that computes (aten::addmm, aten::copy_, ...) */               \
  X(bookkeeping, "bookkeeping")  /* an operator that only allocates or makes a view (aten::empty, aten::view, ...) */                \
  X(region, "region")            /* anything else: USER_SCOPE ranges, framework annotations ("Torch-Compiled Region: 0/0") */
OHPROF_ENUM_CLASS(CpuEventClass, OHPROF_CPU_EVENT_CLASS_VALUES)
CpuEventClass classify_cpu_event(std::string_view name, CpuEventScope scope);

// True for generated, extern_call and op.
bool is_kernel_class(CpuEventClass value);

// The kernels of a run: every range of a kernel class that has no enclosing range of a kernel class on
// its thread (the outermost computing range; what it calls is part of it). Returned as DeviceOps with
// kind kernel, device 0, stream = thread id, correlation 0, name as recorded; in event order.
std::vector<DeviceOp> select_cpu_kernels(const std::vector<CpuEvent>& events);

// "graph_3_cpp_fused_relu_0" -> "cpp_fused_relu_0"; other names unchanged.
std::string strip_graph_prefix(std::string_view name);

// The name under which two paths' kernels are compared (kernel-set diffs): the graph prefix stripped
// (each compiled graph numbers its kernels), and an AOTI C-shim call named after the ATen operator it
// runs: "aoti_torch_cpu_addmm_out" -> "aten::addmm", "aoti_torch_cuda_mm_out" -> "aten::mm".
// Other names (aten::..., triton_..., CUDA kernels) unchanged.
std::string canonical_kernel_name(std::string_view name);

// The kernels named in a model's generated code.
struct GeneratedKernels {
  // Inductor-generated CPU kernels (identifiers "cpp_fused_..."), sorted, unique.
  std::vector<std::string> generated;
  // AOTI C-shim functions the wrapper calls to run ATen kernels ("aoti_torch_cpu_addmm_out"), sorted,
  // unique. Only AOTI's C++ wrapper names them; the Python wrapper of torch.compile calls ATen ops.
  std::vector<std::string> extern_calls;
  // The code makes its kernels record themselves (built with cpp.enable_kernel_profile=True).
  bool records_kernels = false;
  std::vector<std::string> files;  // the files scanned (package entry names), for the report
};

// Scans generated source text (an AOTI wrapper.cpp / kernel.cpp, or torch.compile's output code) and
// adds what it names to `into` (kept sorted and unique).
void scan_generated_code(std::string_view source, GeneratedKernels& into);

// Which kernels named in the code the collector saw. Generated kernels match recorded names after
// strip_graph_prefix; extern calls match recorded names exactly.
struct KernelAttribution {
  std::vector<std::string> seen;          // named in the code and recorded at least once (sorted)
  std::vector<std::string> unattributed;  // named in the code, never recorded (sorted)
  // Recorded kernel names (select_cpu_kernels) that the code does not name, e.g. ATen operators
  // the shim calls run through the dispatcher (sorted, unique). Not an error.
  std::vector<std::string> not_in_code;
  bool records_kernels = false;  // copied from GeneratedKernels
  // Every kernel named in the code was seen: the busy time covers the generated code.
  [[nodiscard]] bool complete() const { return unattributed.empty(); }
};
KernelAttribution attribute_kernels(const GeneratedKernels& code, const std::vector<CpuEvent>& events);

// Dynamo's own RecordFunction ranges in the measured iterations first..last (docs/metrics.md, "Layers",
// the second view): per iteration (CpuEvent::iteration), the summed time of its "TorchDynamo Cache
// Lookup" ranges and of its outermost "Torch-Compiled Region..." ranges. Iterations with neither are
// absent.
struct DynamoRangeTimes {
  std::int64_t cache_lookup_ns = 0;
  std::int64_t compiled_region_ns = 0;
};
std::map<std::int64_t, DynamoRangeTimes> dynamo_range_times(const std::vector<CpuEvent>& events,
                                                            std::int64_t first_iteration, std::int64_t last_iteration);

}  // namespace ohprof
