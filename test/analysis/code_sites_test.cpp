// Where a kernel is in generated code (analysis/code_sites.hpp, docs/code-dump.md): on excerpts of the
// code torch 2.14.1 generated for the tiny MLP (an AOTI CPU package built with kernel profiling: its
// kernel.cpp and wrapper.cpp, lines kept as they are), torch.compile's Python wrapper and a Triton
// kernel's, with every expected line counted by hand in the excerpt.
#include "ohprof/analysis/code_sites.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

// kernel.cpp lines 1-11: the definition on line 5 spans two lines, the recording handle is line 10.
const std::string kKernelCpp = R"(// Triton kernels are embedded as comments in /tmp/torchinductor_root/cq/cq5k.wrapper.cpp

#include <torch/csrc/inductor/aoti_runtime/utils.h>
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  cpp_fused_relu_0(float* in_out_ptr0,
                       float* out_ptr0)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    torch::aot_inductor::RAIIAtenRecordFunctionHandle record_graph_0_cpp_fused_relu_0_("graph_0_cpp_fused_relu_0", nullptr);
    {
)";

// wrapper.cpp lines 722-735 then 919-950, as 1-24 here: declarations on 2 (spanning 3) and 4, the
// kernels' pointers on 7-8, the shim recorded on 11 and 20 and called on 12 and 21, the kernels called
// on 16 and 24.
const std::string kWrapperCpp = R"(
extern "C"  void  cpp_fused_relu_0(float* in_out_ptr0,
                       float* out_ptr0);
extern "C"  void  cpp_fused_mul_1(float* in_out_ptr0);
class AOTInductorModelKernels : public AOTInductorModelKernelsBase {
  public:
    void* cpp_fused_mul_1{nullptr};
    void* cpp_fused_relu_0{nullptr};
};
    {
    RAIIAtenRecordFunctionHandle record_aoti_torch_cpu_addmm_out_("aoti_torch_cpu_addmm_out", nullptr);
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cpu_addmm_out(buf0, fc1_bias, arg4_1, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(fc1_weight, 2, int_array_2, int_array_3, 0L)), 1L, 1L));
    }
    RAIIAtenTensorHandle buf2(buf2_handle);
    {
    cpp_fused_relu_0((float*)(buf1.data_ptr()), (float*)(buf2.data_ptr()));
    }
    // Topologically Sorted Source Nodes: [relu, linear_1], Original ATen: [aten.relu, aten.t, aten.addmm]
    {
    RAIIAtenRecordFunctionHandle record_aoti_torch_cpu_addmm_out_("aoti_torch_cpu_addmm_out", nullptr);
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cpu_addmm_out(buf3, buf2, buf1, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(fc2_weight, 2, int_array_8, int_array_9, 0L)), 1L, 1L));
    }
    {
    cpp_fused_mul_1((float*)(buf4.data_ptr()));)";

const std::vector<SourceFile> kPackage{{"code/cq5k.wrapper.cpp", kWrapperCpp}, {"code/cxg4.kernel.cpp", kKernelCpp}};

TEST(LocateKernel, AnAotiKernelIsDefinedInKernelCppAndCalledFromTheWrapper) {
  const KernelSites sites = locate_kernel(kPackage, "graph_0_cpp_fused_relu_0");
  EXPECT_EQ(sites.defined_at, (SourceSite{"code/cxg4.kernel.cpp", 5}));
  EXPECT_EQ(sites.recorded_at, (SourceSite{"code/cxg4.kernel.cpp", 10}));
  EXPECT_EQ(sites.calls, (std::vector<SourceSite>{{"code/cq5k.wrapper.cpp", 16}}));  // not its declaration (2)
}

TEST(LocateKernel, AShimCallHasItsRecordingAndCallSitesButNoDefinition) {
  const KernelSites sites = locate_kernel(kPackage, "aoti_torch_cpu_addmm_out");
  EXPECT_FALSE(sites.defined_at);
  EXPECT_EQ(sites.recorded_at, (SourceSite{"code/cq5k.wrapper.cpp", 11}));
  EXPECT_EQ(sites.calls, (std::vector<SourceSite>{{"code/cq5k.wrapper.cpp", 12}, {"code/cq5k.wrapper.cpp", 21}}));
}

TEST(LocateKernel, AKernelThatDoesNotRecordItselfIsStillFoundByItsName) {
  // cpp_fused_mul_1's definition is not in the kernel.cpp excerpt: only its call remains
  const KernelSites sites = locate_kernel(kPackage, "graph_0_cpp_fused_mul_1");
  EXPECT_FALSE(sites.defined_at);
  EXPECT_FALSE(sites.recorded_at);
  EXPECT_EQ(sites.calls, (std::vector<SourceSite>{{"code/cq5k.wrapper.cpp", 24}}));
  EXPECT_TRUE(locate_kernel(kPackage, "aten::addmm").calls.empty());
}

// torch.compile's Python wrapper (lines as in its output code): the kernel is bound on line 1, records
// itself on line 4 inside its C++ source, and is called on line 8; a Triton kernel is bound on 10,
// defined on 12 and launched on 15.
TEST(LocateKernel, TorchCompilesPythonWrapperBindsCallsAndLaunchesKernels) {
  const std::vector<SourceFile> code{{"code/output_code.py", R"(cpp_fused_relu_0 = async_compile.cpp_pybinding(['float*', 'float*'], r'''
extern "C"  void  kernel(float* in_out_ptr0, float* out_ptr0)
{
    RECORD_FUNCTION("graph_4_cpp_fused_relu_0", c10::ArrayRef<c10::IValue>({}));
}
''')
def call(args):
    cpp_fused_relu_0(buf1, buf2)

triton_poi_fused_relu_0 = async_compile.triton('triton_poi_fused_relu_0', '''
@triton.jit
def triton_poi_fused_relu_0(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    pass
''')
        triton_poi_fused_relu_0.run(buf0, 512, stream=stream0)
)"}};
  const KernelSites cpp = locate_kernel(code, "graph_4_cpp_fused_relu_0");
  EXPECT_EQ(cpp.defined_at, (SourceSite{"code/output_code.py", 1}));
  EXPECT_EQ(cpp.recorded_at, (SourceSite{"code/output_code.py", 4}));
  EXPECT_EQ(cpp.calls, (std::vector<SourceSite>{{"code/output_code.py", 8}}));
  const KernelSites triton = locate_kernel(code, "triton_poi_fused_relu_0");
  EXPECT_EQ(triton.defined_at, (SourceSite{"code/output_code.py", 10}));
  EXPECT_EQ(triton.calls, (std::vector<SourceSite>{{"code/output_code.py", 15}}));
}

// torch.compile's Runner.call for the tiny MLP (torch 2.14.1, output code lines 103-123 as 1-21): the
// ATen operator recorded as aten::addmm is called as extern_kernels.addmm on lines 7 and 16; the comments
// above them (6, 15) name aten.addmm too and are no calls.
TEST(LocateKernel, AnAtenOperatorIsFoundAtTheExternKernelCallsOfThePythonWrapper) {
  const std::vector<SourceFile> code{{"code/output_code.py", R"(    def call(self, args):
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1 = args
        args.clear()
        assert_size_stride_grouped((arg1_1, arg2_1, arg0_1), ((32, ), (8, 16), (32, 16)), ((1, ), (16, 1), (16, 1)), 'input')
        buf0 = empty_strided_cpu((8, 32), (32, 1), torch.float32)
        # Topologically Sorted Source Nodes: [linear], Original ATen: [aten.t, aten.addmm]
        extern_kernels.addmm(arg1_1, arg2_1, reinterpret_tensor(arg0_1, (16, 32), (1, 16), 0), alpha=1, beta=1, out=buf0)
        del arg0_1
        del arg1_1
        del arg2_1
        buf1 = buf0; del buf0  # reuse
        assert_size_stride_grouped((arg4_1, arg3_1), ((8, ), (8, 32)), ((1, ), (32, 1)), 'input')
        cpp_fused_relu_0(buf1)
        buf2 = empty_strided_cpu((8, 8), (8, 1), torch.float32)
        # Topologically Sorted Source Nodes: [relu, linear_1], Original ATen: [aten.relu, aten.t, aten.addmm]
        extern_kernels.addmm(arg4_1, buf1, reinterpret_tensor(arg3_1, (32, 8), (1, 32), 0), alpha=1, beta=1, out=buf2)
        del arg3_1
        del arg4_1
        del buf1
        buf3 = buf2; del buf2  # reuse
        cpp_fused_mul_1(buf3)
)"}};
  const KernelSites addmm = locate_kernel(code, "aten::addmm");
  EXPECT_FALSE(addmm.defined_at);
  EXPECT_FALSE(addmm.recorded_at);
  EXPECT_EQ(addmm.calls, (std::vector<SourceSite>{{"code/output_code.py", 7}, {"code/output_code.py", 16}}));
  // torch.ops.aten.OP.overload( is the other spelling; an operator of another name is not matched, nor a
  // string naming the overload (ResNet-18's output code, line 1390, checks a buffer's metadata so).
  const std::vector<SourceFile> ops{
      {"code/output_code.py",
       "        buf5 = torch.ops.aten.convolution.default(buf4, w)\n"
       "        buf6 = torch.ops.aten.convolution_backward.default(buf5)\n"
       "        assert_tensor_metadata(buf2, (1, 64, 112, 112), (802816, 1, 7168, 64), torch.float32, "
       "'torch.ops.aten.convolution.default')\n"}};
  EXPECT_EQ(locate_kernel(ops, "aten::convolution").calls, (std::vector<SourceSite>{{"code/output_code.py", 1}}));
  EXPECT_TRUE(locate_kernel(code, "aten::mm").calls.empty());
}

TEST(ListKernels, JoinsTheSplitsKernelsToTheirPlacesAndCosts) {
  PathBreakdown b;
  b.kernels = {{DeviceOpKind::kernel, "aoti_torch_cpu_addmm_out", 20, 40000, 2000, 2},
               {DeviceOpKind::kernel, "graph_0_cpp_fused_relu_0", 10, 5000, 500, 1},
               {DeviceOpKind::kernel, "aten::copy_", 10, 1000, 100, 1}};
  const std::vector<SourceFile> files{kPackage[0], kPackage[1],
                                      {"code/more.kernel.cpp", "extern \"C\"  void  cpp_fused_mul_1(float* in_out_ptr0)\n{\n}\n"}};
  const KernelListing listing = list_kernels(files, b);
  ASSERT_EQ(listing.kernels.size(), 3u);
  const KernelListingRow& addmm = listing.kernels[0];
  EXPECT_EQ(addmm.canonical, "aten::addmm");
  EXPECT_EQ(addmm.origin, KernelOrigin::extern_call);
  EXPECT_DOUBLE_EQ(addmm.ns_per_iteration, 4000);
  EXPECT_EQ(addmm.calls.size(), 2u);
  const KernelListingRow& relu = listing.kernels[1];
  EXPECT_EQ(relu.canonical, "cpp_fused_relu_0");
  EXPECT_EQ(relu.origin, KernelOrigin::generated);
  EXPECT_EQ(relu.defined_at, (SourceSite{"code/cxg4.kernel.cpp", 5}));
  EXPECT_DOUBLE_EQ(relu.ns_per_iteration, 500);
  EXPECT_EQ(listing.kernels[2].origin, KernelOrigin::not_in_code);
  // defined in the code (more.kernel.cpp), never recorded
  EXPECT_EQ(listing.in_code_not_recorded, std::vector<std::string>{"cpp_fused_mul_1"});
}

// --- the index's join and the call sequence ---------------------------------------------------------

KernelListingRow row(std::string name, std::string canonical, double count, double mean_ns,
                     std::optional<SourceSite> defined = std::nullopt, std::vector<SourceSite> calls = {}) {
  KernelListingRow r;
  r.name = std::move(name);
  r.canonical = std::move(canonical);
  r.count_per_iteration = count;
  r.mean_ns = mean_ns;
  r.median_ns = mean_ns - 100;  // a median other than the mean, to tell them apart
  r.ns_per_iteration = count * mean_ns;
  r.defined_at = std::move(defined);
  r.calls = std::move(calls);
  return r;
}

PathCodeDump dumped(std::string name, std::vector<KernelListingRow> kernels, bool costs_known = true) {
  PathCodeDump p;
  p.path = std::move(name);
  p.folder = dump_folder_name(p.path);
  p.listing.kernels = std::move(kernels);
  p.costs_known = costs_known;
  return p;
}

TEST(JoinKernelListings, SumsAPathsRowsOfOneNameAndOrdersByTheMostTimeAnyPathSpends) {
  // aoti records addmm twice under two names (a shim call and an ATen op); compile once.
  const std::vector<PathCodeDump> paths{
      dumped("aoti", {row("aoti_torch_cpu_addmm_out", "aten::addmm", 2, 1000, std::nullopt, {{"code/w.cpp", 12}}),
                      row("graph_0_cpp_fused_relu_0", "cpp_fused_relu_0", 1, 5000, SourceSite{"code/k.cpp", 5}),
                      row("aten::addmm", "aten::addmm", 1, 4000)}),
      dumped("compile", {row("aten::addmm", "aten::addmm", 3, 1000, std::nullopt, {{"code/output_code.py", 109}})})};
  const std::vector<KernelJoinRow> rows = join_kernel_listings(paths);
  ASSERT_EQ(rows.size(), 2u);
  // addmm: aoti 2 x 1000 + 1 x 4000 = 6000 ns in 3 calls (mean 2000); compile 3000 ns; relu 5000 ns: addmm first
  EXPECT_EQ(rows[0].canonical, "aten::addmm");
  EXPECT_DOUBLE_EQ(rows[0].cells[0].count_per_iteration, 3);
  EXPECT_DOUBLE_EQ(rows[0].cells[0].ns_per_iteration, 6000);
  EXPECT_DOUBLE_EQ(rows[0].cells[0].mean_ns, 2000);
  // the median per call is that of the path's row with the most calls: 2 x (median 900) beats 1 x (3900)
  EXPECT_DOUBLE_EQ(rows[0].cells[0].median_ns, 900);
  EXPECT_EQ(rows[0].cells[0].site, (SourceSite{"code/w.cpp", 12}));  // the first row's first call
  EXPECT_DOUBLE_EQ(rows[0].cells[1].mean_ns, 1000);
  EXPECT_FALSE(rows[0].only);
  EXPECT_EQ(rows[1].canonical, "cpp_fused_relu_0");
  EXPECT_EQ(rows[1].cells[1].present, false);
  EXPECT_EQ(rows[1].cells[0].site, (SourceSite{"code/k.cpp", 5}));
  EXPECT_EQ(rows[1].only, std::optional<std::size_t>{0});
}

TEST(JoinKernelListings, APathWithoutASplitMarksNothingAsOnlyAnothers) {
  // eager without a split lists no kernels: aoti's are not "only aoti" for it
  const std::vector<PathCodeDump> two{dumped("aoti", {row("k", "k", 1, 10)}), dumped("eager", {}, false)};
  EXPECT_FALSE(join_kernel_listings(two).at(0).only);
  // one path alone: nothing is "only" it
  EXPECT_FALSE(join_kernel_listings({dumped("aoti", {row("k", "k", 1, 10)})}).at(0).only);
}

TEST(FirstIterationSequence, TheFirstWindowsOpsByStartThenEnd) {
  Timeline t;
  t.iterations = {{0, 1000, 2000}, {1, 2000, 3000}};
  const auto op = [](std::string name, std::int64_t start, std::int64_t end) {
    DeviceOp o;
    o.name = std::move(name);
    o.start_ns = start;
    o.end_ns = end;
    return o;
  };
  t.ops = {op("graph_0_cpp_fused_mul_1", 1500, 1600),  // recorded out of order
           op("aoti_torch_cpu_addmm_out", 1100, 1300),
           op("late", 2000, 2100),                     // starts in the second window
           op("early", 900, 1050),                     // starts before the first
           op("b_tie", 1400, 1450), op("a_tie", 1400, 1420),  // one start: the shorter first
           op("straddles", 1900, 2300)};               // starts in the first, ends in the second: counted
  EXPECT_EQ(first_iteration_sequence(t), (std::vector<std::string>{"aten::addmm", "a_tie", "b_tie", "cpp_fused_mul_1",
                                                                   "straddles"}));
  EXPECT_TRUE(first_iteration_sequence(Timeline{}).empty());
}

}  // namespace
}  // namespace ohprof
