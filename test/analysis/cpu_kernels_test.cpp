// What counts as a CPU kernel, and which kernels of the generated code were seen: hand-built event
// trees whose answer is worked out by hand in each test.
#include "ohprof/analysis/cpu_kernels.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace ohprof {
namespace {

CpuEvent event(std::string name, std::int64_t start, std::int64_t end, std::int64_t parent = -1,
               std::int64_t thread = 1, CpuEventScope scope = CpuEventScope::function) {
  CpuEvent e;
  e.name = std::move(name);
  e.start_ns = start;
  e.end_ns = end;
  e.parent = parent;
  e.thread_id = thread;
  e.scope = scope;
  return e;
}

std::vector<std::string> names_of(const std::vector<DeviceOp>& ops) {
  std::vector<std::string> names;
  for (const auto& op : ops) names.push_back(op.name);
  return names;
}

TEST(ClassifyCpuEvent, NamesFromRealRuns) {
  EXPECT_EQ(classify_cpu_event("graph_0_cpp_fused_relu_0", CpuEventScope::function), CpuEventClass::generated);
  EXPECT_EQ(classify_cpu_event("graph_12_cpp_fused_mul_1", CpuEventScope::function), CpuEventClass::generated);
  EXPECT_EQ(classify_cpu_event("cpp_fused_mul_1", CpuEventScope::function), CpuEventClass::generated);
  EXPECT_EQ(classify_cpu_event("aoti_torch_cpu_addmm_out", CpuEventScope::function), CpuEventClass::extern_call);
  EXPECT_EQ(classify_cpu_event("aten::addmm", CpuEventScope::function), CpuEventClass::op);
  EXPECT_EQ(classify_cpu_event("aten::mkldnn_convolution", CpuEventScope::function), CpuEventClass::op);
  EXPECT_EQ(classify_cpu_event("aten::copy_", CpuEventScope::function), CpuEventClass::op);
  EXPECT_EQ(classify_cpu_event("torchvision::nms", CpuEventScope::function), CpuEventClass::op);
  EXPECT_EQ(classify_cpu_event("aten::expand", CpuEventScope::function), CpuEventClass::bookkeeping);
  EXPECT_EQ(classify_cpu_event("aten::empty", CpuEventScope::function), CpuEventClass::bookkeeping);
  EXPECT_EQ(classify_cpu_event("aten::view.dtype", CpuEventScope::function), CpuEventClass::bookkeeping);
  EXPECT_EQ(classify_cpu_event("aten::empty_strided", CpuEventScope::function), CpuEventClass::bookkeeping);
  // Framework annotations Dynamo records at FUNCTION scope are not operators.
  EXPECT_EQ(classify_cpu_event("Torch-Compiled Region: 0/0", CpuEventScope::function), CpuEventClass::region);
  EXPECT_EQ(classify_cpu_event("TorchDynamo Cache Lookup", CpuEventScope::function), CpuEventClass::region);
  EXPECT_EQ(classify_cpu_event("## Call CompiledFxGraph abc ##", CpuEventScope::function), CpuEventClass::region);
  EXPECT_EQ(classify_cpu_event("::x", CpuEventScope::function), CpuEventClass::region);
  EXPECT_EQ(classify_cpu_event("graph_x_cpp_fused", CpuEventScope::function), CpuEventClass::region);
  // USER_SCOPE is never a kernel, whatever its name.
  EXPECT_EQ(classify_cpu_event("aten::addmm", CpuEventScope::user), CpuEventClass::region);
}

TEST(SelectCpuKernels, OutermostComputingRangePerThread) {
  // Thread 1, an AOTI package with kernel profiling:
  //   [0] aoti_torch_cpu_addmm_out 0-100          kernel (extern call)
  //   [1]   aten::expand 5-10                      inside a kernel
  //   [2]     aten::as_strided 6-7                 inside a kernel
  //   [3]   aten::copy_ 12-20                      inside a kernel, not outermost
  //   [4] graph_0_cpp_fused_relu_0 110-130         kernel
  // Thread 2, torch.compile:
  //   [5] Torch-Compiled Region: 0/0 0-500         region, not a kernel
  //   [6]   aten::addmm 10-100                     kernel (outermost computing range)
  //   [7]     aten::copy_ 20-30                    inside a kernel
  //   [8]   aten::reshape 200-300                  bookkeeping
  //   [9]     aten::clone 210-290                  kernel: its bookkeeping parent does not compute
  //   [10]      aten::copy_ 220-280                inside a kernel
  //   [11]  aten::empty 310-320                    bookkeeping
  //   [12]  user span 400-450 (USER_SCOPE)         region
  //   [13]    graph_0_cpp_fused_mul_1 410-420      kernel
  const std::vector<CpuEvent> events = {
      event("aoti_torch_cpu_addmm_out", 0, 100),
      event("aten::expand", 5, 10, 0),
      event("aten::as_strided", 6, 7, 1),
      event("aten::copy_", 12, 20, 0),
      event("graph_0_cpp_fused_relu_0", 110, 130),
      event("Torch-Compiled Region: 0/0", 0, 500, -1, 2),
      event("aten::addmm", 10, 100, 5, 2),
      event("aten::copy_", 20, 30, 6, 2),
      event("aten::reshape", 200, 300, 5, 2),
      event("aten::clone", 210, 290, 8, 2),
      event("aten::copy_", 220, 280, 9, 2),
      event("aten::empty", 310, 320, 5, 2),
      event("user span", 400, 450, 5, 2, CpuEventScope::user),
      event("graph_0_cpp_fused_mul_1", 410, 420, 12, 2),
  };
  const auto ops = select_cpu_kernels(events);
  EXPECT_EQ(names_of(ops), (std::vector<std::string>{"aoti_torch_cpu_addmm_out", "graph_0_cpp_fused_relu_0",
                                                     "aten::addmm", "aten::clone", "graph_0_cpp_fused_mul_1"}));
  ASSERT_EQ(ops.size(), 5u);
  EXPECT_EQ(ops[0].stream, 1);
  EXPECT_EQ(ops[2].stream, 2);
  EXPECT_EQ(ops[3].start_ns, 210);
  EXPECT_EQ(ops[3].end_ns, 290);
  for (const auto& op : ops) {
    EXPECT_EQ(op.kind, DeviceOpKind::kernel);
    EXPECT_EQ(op.device, 0);
    EXPECT_EQ(op.correlation, 0u);
  }
}

TEST(SelectCpuKernels, ParentsListedAfterChildrenAndBrokenChains) {
  // [0] aten::copy_ inside [2] (a kernel) -> not outermost; [1] aten::mul whose parent index is out of
  // range (its parent was not recorded) -> outermost; [2] aten::addmm -> kernel.
  const std::vector<CpuEvent> events = {
      event("aten::copy_", 5, 6, 2),
      event("aten::mul", 50, 60, 99),
      event("aten::addmm", 0, 10),
  };
  EXPECT_EQ(names_of(select_cpu_kernels(events)), (std::vector<std::string>{"aten::mul", "aten::addmm"}));
}

TEST(StripGraphPrefix, OnlyTheInductorPrefix) {
  EXPECT_EQ(strip_graph_prefix("graph_0_cpp_fused_relu_0"), "cpp_fused_relu_0");
  EXPECT_EQ(strip_graph_prefix("graph_17_cpp_fused_mul_1"), "cpp_fused_mul_1");
  EXPECT_EQ(strip_graph_prefix("cpp_fused_mul_1"), "cpp_fused_mul_1");
  EXPECT_EQ(strip_graph_prefix("graph__x"), "graph__x");
  EXPECT_EQ(strip_graph_prefix("graph_3"), "graph_3");
  EXPECT_EQ(strip_graph_prefix("aten::addmm"), "aten::addmm");
}

// Lines in the shape of a real AOTI CPU wrapper built with cpp.enable_kernel_profile (torch 2.14).
constexpr const char* kProfiledWrapper = R"(
extern "C"  void  cpp_fused_relu_0(float* in_out_ptr0,
                       float* out_ptr0);
extern "C"  void  cpp_fused_mul_1(float* in_out_ptr0);
    void* cpp_fused_mul_1{nullptr};
    RAIIAtenRecordFunctionHandle record_aoti_torch_cpu_addmm_out_("aoti_torch_cpu_addmm_out", nullptr);
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cpu_addmm_out(buf0, fc1_bias, arg4_1, 1L, 1L));
    cpp_fused_relu_0((float*)(buf1.data_ptr()), (float*)(buf2.data_ptr()));
    torch::aot_inductor::RAIIAtenRecordFunctionHandle record_graph_0_cpp_fused_relu_0_("graph_0_cpp_fused_relu_0", nullptr);
    aoti_torch_cpu_declared_only;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cpu_convolution (buf5, x));
)";

// Lines in the shape of torch.compile's Python wrapper.
constexpr const char* kPythonWrapper = R"(
cpp_fused_add_0 = async_compile.cpp_pybinding(['float*', 'float*'], r'''
extern "C"  void  kernel(float* in_out_ptr0)
''')
        cpp_fused_add_0(buf0, arg1_1)
        extern_kernels.addmm(arg2_1, buf0, buf1, alpha=1, beta=1, out=buf2)
)";

TEST(ScanGeneratedCode, AotiWrapperWithKernelProfiling) {
  GeneratedKernels kernels;
  scan_generated_code(kProfiledWrapper, kernels);
  EXPECT_EQ(kernels.generated, (std::vector<std::string>{"cpp_fused_mul_1", "cpp_fused_relu_0"}));
  EXPECT_EQ(kernels.extern_calls, (std::vector<std::string>{"aoti_torch_cpu_addmm_out", "aoti_torch_cpu_convolution"}));
  EXPECT_TRUE(kernels.records_kernels);
}

TEST(ScanGeneratedCode, AccumulatesAcrossFilesAndPythonWrappers) {
  GeneratedKernels kernels;
  scan_generated_code("extern \"C\" void cpp_fused_relu_0(float* a) { }", kernels);
  EXPECT_FALSE(kernels.records_kernels);
  scan_generated_code(kPythonWrapper, kernels);
  scan_generated_code("cpp_fused_relu_0(x);", kernels);
  EXPECT_EQ(kernels.generated, (std::vector<std::string>{"cpp_fused_add_0", "cpp_fused_relu_0"}));
  EXPECT_TRUE(kernels.extern_calls.empty());
  EXPECT_FALSE(kernels.records_kernels);
  scan_generated_code("RECORD_FUNCTION(\"graph_0_cpp_fused_add_0\", c10::ArrayRef<c10::IValue>({}));", kernels);
  EXPECT_TRUE(kernels.records_kernels);
  EXPECT_EQ(kernels.generated.size(), 2u);  // the recorded name is not a second kernel
}

TEST(AttributeKernels, SeenUnattributedAndNotInCode) {
  GeneratedKernels code;
  code.generated = {"cpp_fused_a_0", "cpp_fused_b_1"};
  code.extern_calls = {"aoti_torch_cpu_addmm_out"};
  code.records_kernels = true;
  const std::vector<CpuEvent> events = {
      event("aoti_torch_cpu_addmm_out", 0, 10),
      event("aten::copy_", 2, 3, 0),      // inside the extern call: not a kernel of its own
      event("graph_0_cpp_fused_a_0", 20, 30),
      event("graph_0_cpp_fused_a_0", 40, 50),
      event("aten::mul", 60, 70),         // outermost, not named in the code
  };
  const KernelAttribution a = attribute_kernels(code, events);
  EXPECT_EQ(a.seen, (std::vector<std::string>{"aoti_torch_cpu_addmm_out", "cpp_fused_a_0"}));
  EXPECT_EQ(a.unattributed, (std::vector<std::string>{"cpp_fused_b_1"}));
  EXPECT_EQ(a.not_in_code, (std::vector<std::string>{"aten::mul"}));
  EXPECT_TRUE(a.records_kernels);
  EXPECT_FALSE(a.complete());
}

TEST(AttributeKernels, NothingRecordedMeansEverythingUnattributed) {
  GeneratedKernels code;
  code.generated = {"cpp_fused_a_0"};
  code.extern_calls = {"aoti_torch_cpu_addmm_out"};
  const KernelAttribution a = attribute_kernels(code, {event("aten::copy_", 0, 1)});
  EXPECT_TRUE(a.seen.empty());
  EXPECT_EQ(a.unattributed, (std::vector<std::string>{"aoti_torch_cpu_addmm_out", "cpp_fused_a_0"}));
  EXPECT_EQ(a.not_in_code, (std::vector<std::string>{"aten::copy_"}));
  EXPECT_FALSE(a.complete());
}

TEST(AttributeKernels, CompleteWhenEveryNamedKernelWasSeen) {
  GeneratedKernels code;
  code.generated = {"cpp_fused_a_0"};
  const KernelAttribution a = attribute_kernels(code, {event("graph_4_cpp_fused_a_0", 0, 1)});
  EXPECT_TRUE(a.complete());
  EXPECT_EQ(a.seen, (std::vector<std::string>{"cpp_fused_a_0"}));
}

}  // namespace
}  // namespace ohprof

namespace ohprof {
namespace {

TEST(CanonicalKernelName, StripsGraphPrefixAndNamesShimCallsAfterTheirOperator) {
  EXPECT_EQ(canonical_kernel_name("graph_0_cpp_fused_relu_0"), "cpp_fused_relu_0");
  EXPECT_EQ(canonical_kernel_name("graph_12_cpp_fused_mul_1"), "cpp_fused_mul_1");
  EXPECT_EQ(canonical_kernel_name("aoti_torch_cpu_addmm_out"), "aten::addmm");
  EXPECT_EQ(canonical_kernel_name("aoti_torch_cuda_mm_out"), "aten::mm");
  EXPECT_EQ(canonical_kernel_name("aoti_torch_cpu_convolution"), "aten::convolution");
  EXPECT_EQ(canonical_kernel_name("aten::addmm"), "aten::addmm");
  EXPECT_EQ(canonical_kernel_name("triton_poi_fused_add_cos_sin_0"), "triton_poi_fused_add_cos_sin_0");
}

// Dynamo's ranges per iteration, by hand. Iteration 7 (tagged, as the collector numbers them):
//   [0] TorchDynamo Cache Lookup 0-300           cache lookup 300
//   [1] Torch-Compiled Region: 0/0 400-2400      region 2000
//   [2]   Torch-Compiled Region: 1/0 500-900     nested in [1]: not counted again
//   [3]   aten::addmm 1000-1500                  neither
// Iteration 8: [4] lookup 0-100, [5] lookup 150-200 (two lookups: 150), [6] region 300-800 (500).
// Iteration 3 (outside first..last = 7..8): [7] a lookup that is not counted.
TEST(DynamoRangeTimes, SumsTheLookupsAndTheOutermostRegionsOfEachIteration) {
  std::vector<CpuEvent> events = {
      event("TorchDynamo Cache Lookup", 0, 300),        event("Torch-Compiled Region: 0/0", 400, 2400),
      event("Torch-Compiled Region: 1/0", 500, 900, 1), event("aten::addmm", 1000, 1500, 1),
      event("TorchDynamo Cache Lookup", 0, 100),        event("TorchDynamo Cache Lookup", 150, 200),
      event("Torch-Compiled Region: 0/0", 300, 800),    event("TorchDynamo Cache Lookup", 0, 999)};
  for (std::size_t i = 0; i < events.size(); ++i) events[i].iteration = i < 4 ? 7 : i < 7 ? 8 : 3;
  const auto times = dynamo_range_times(events, 7, 8);
  ASSERT_EQ(times.size(), 2u);
  EXPECT_EQ(times.at(7).cache_lookup_ns, 300);
  EXPECT_EQ(times.at(7).compiled_region_ns, 2000);
  EXPECT_EQ(times.at(8).cache_lookup_ns, 150);
  EXPECT_EQ(times.at(8).compiled_region_ns, 500);
  EXPECT_TRUE(dynamo_range_times(events, 10, 20).empty());
}

}  // namespace
}  // namespace ohprof
