#include "ohprof/output/report_text.hpp"

#include <gtest/gtest.h>

#include "ohprof/base/format.hpp"
#include "sample_breakdown.hpp"

namespace ohprof {
namespace {

TEST(StopReasonText, EachCodeHasTheTextTheReportAlwaysHad) {
  EXPECT_EQ(stop_reason_text(StopReason{}), "");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::runs_reached}), "runs reached");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::converged}), "converged");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::max_runs_reached, "aoti: runs 3 < 10"}),
            "max runs reached (unmet: aoti: runs 3 < 10)");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::time_limit, "a: rse 2.00% > 1.00%; b: runs 1 < 10"}),
            "time limit (unmet: a: rse 2.00% > 1.00%; b: runs 1 < 10)");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::interrupted}), "interrupted");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::error}), "error");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::no_paths}), "no paths");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::end_of_trace}), "end of trace");
  EXPECT_EQ(stop_reason_text(StopReason{StopCode::in_progress}), "in progress");
}

// A verdict with the given shares, the first two ranked as given (docs/metrics.md, "Verdict").
PathVerdict verdict(Verdict kind, double busy, double host_bound, double device_wait, TimeShare first,
                    TimeShare second) {
  PathVerdict v;
  v.verdict = kind;
  v.reason = kind == Verdict::mixed ? VerdictReason::close_shares : VerdictReason::dominant_share;
  v.busy_share = busy;
  v.host_bound_share = host_bound;
  v.device_wait_share = device_wait;
  v.first = first;
  v.second = second;
  v.launches_per_iteration = 1259;
  v.queue_delay_median_ns = 1956;
  // Headroom (docs/metrics.md) of the shares, W = 1
  const auto headroom = [](double part) { return part < 1 ? std::optional<double>(1 / (1 - part)) : std::nullopt; };
  v.busy_headroom = headroom(busy);
  v.host_bound_headroom = headroom(host_bound);
  v.device_wait_headroom = headroom(device_wait);
  v.host_headroom_negligible = 100 < 105 * (1 - host_bound);
  return v;
}

constexpr const char* kComputeAdvice =
    "Speed up the kernels (torch.compile mode=\"max-autotune\", lower precision); host changes will not help";
constexpr const char* kKernelAdvice = "Speed up the kernels (torch.compile mode=\"max-autotune\", lower precision)";
constexpr const char* kCpuHostAdvice =
    "the host work around the kernels (Python wrapper, guards, allocation, operator dispatch) is the cost: AOTInductor's "
    "C++ wrapper (or compile:cpp-wrapper), a larger batch";

TEST(VerdictText, ComputeBoundQuotesTheSharesTheFullQueueAndTheBlockingTime) {
  PathVerdict v = verdict(Verdict::compute_bound, 0.963, 0.001, 0.036, TimeShare::busy, TimeShare::device_wait);
  v.full_queue_iterations = 5;
  v.queue_max = 1291;
  v.blocking_share = 0.392;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 6),
            std::string("GPU busy 96.3% of wall (host-bound 0.1%, device-wait 3.6%); the launch queue was full in 5 of "
                        "6 iterations (max 1291 ops pending): the host runs ahead and launch calls block on the queue, "
                        "so their time is hidden, not overhead; the host spent 39.2% of wall in blocking calls. ") +
                kComputeAdvice);
}

TEST(VerdictText, ComputeBoundLeavesOutANotFullQueueAndLittleBlockingTime) {
  // host-bound 4%: 1 / 0.96 = 1.042, under 1.05, so host changes will not help
  PathVerdict v = verdict(Verdict::compute_bound, 0.89, 0.04, 0.07, TimeShare::busy, TimeShare::device_wait);
  v.queue_max = 999;
  v.blocking_share = 0.049;  // under 5%: not worth a mention
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 3),
            std::string("GPU busy 89.0% of wall (host-bound 4.0%, device-wait 7.0%). ") + kComputeAdvice);
}

TEST(VerdictText, ComputeBoundOnTheCpuSaysCpuKernelsAndDispatch) {
  PathVerdict v = verdict(Verdict::compute_bound, 0.765, 0.235, 0, TimeShare::busy, TimeShare::host_bound);
  v.cpu_kernels = true;
  v.host_state = HostState::framework;
  v.host_state_share = 1;
  // dispatch 23.5%: 1 / 0.765 = 1.307, so the host's advice follows with its bound
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 100), std::string("CPU kernels busy 76.5% of wall (dispatch 23.5%). ") + kKernelAdvice +
                                      ". Removing the dispatch time could still make it faster, at most 1.31x; for the dispatch part, " +
                                      kCpuHostAdvice);
  EXPECT_EQ(headroom_text(v), "at most 4.26x with faster kernels, at most 1.31x without the dispatch time");
}

// A remedy the advice names that the same run measured slower is cited after the advice (docs/metrics.md,
// "Remedies measured slower"); one the advice does not name, or none, adds nothing.
TEST(VerdictText, ARemedyMeasuredSlowerIsCitedAfterTheAdvice) {
  PathVerdict v = verdict(Verdict::compute_bound, 0.846, 0.154, 0, TimeShare::busy, TimeShare::host_bound);
  v.cpu_kernels = true;
  v.host_state = HostState::framework;
  v.host_state_share = 1;
  const PathRatio compile{"eager", "compile", 3.1, 0.1, 2.9, 3.3, true};
  const PathRatio cpp{"eager", "compile:cpp-wrapper", 1.5, 0.1, 1.2, 1.8, true};
  const PathRatio other{"eager", "someone-else", 2.0, 0.1, 1.8, 2.2, true};
  const std::string plain = verdict_text(v, DeviceKind::cuda, 100, PathKind::eager);
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 100, PathKind::eager, {other}), plain);
  // The kernel advice names torch.compile; the host advice on the CPU compile:cpp-wrapper.
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 100, PathKind::eager, {compile, other, cpp}),
            plain + ". Measured slower than eager in this run, of the remedies named: compile 3.10 times (95% interval "
                    "2.90 to 3.30); compile:cpp-wrapper 1.50 times (95% interval 1.20 to 1.80)");
  // Host changes will not help: only the kernel advice is given, and only its remedies cited: torch.compile
  // with max-autotune (compile, compile:max-autotune-no-cudagraphs), not the other modes, nor the AOTI
  // package, which the host advice names.
  v.host_headroom_negligible = true;
  const PathRatio aoti_slower{"eager", "aoti", 1.5, 0.1, 1.2, 1.8, true};
  const PathRatio graphs{"eager", "compile:reduce-overhead", 1.5, 0.1, 1.2, 1.8, true};
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 100, PathKind::eager, {aoti_slower, cpp, graphs}), verdict_text(v, DeviceKind::cuda, 100, PathKind::eager));
  EXPECT_NE(verdict_text(v, DeviceKind::cuda, 100, PathKind::eager, {aoti_slower, compile}).find("remedies named: compile 3.10 times"),
            std::string::npos);
  // A torch.compile path is told of max-autotune, not of itself.
  const PathRatio autotune{"compile", "compile:max-autotune-no-cudagraphs", 1.2, 0.1, 1.1, 1.3, true};
  const PathRatio eager{"compile", "eager", 1.1, 0.1, 1.05, 1.15, true};
  EXPECT_NE(verdict_text(v, DeviceKind::cuda, 100, PathKind::compile, {eager, autotune})
                .find(": compile:max-autotune-no-cudagraphs 1.20 times"),
            std::string::npos);
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 100, PathKind::compile, {eager}), verdict_text(v, DeviceKind::cuda, 100, PathKind::compile));
  // aoti's own host advice names no path; aoti:python's names aoti.
  PathVerdict host = verdict(Verdict::host_bound, 0.3, 0.7, 0, TimeShare::host_bound, TimeShare::busy);
  host.cpu_kernels = true;
  host.host_state = HostState::framework;
  const PathRatio aoti{"aoti:python", "aoti", 1.2, 0.1, 1.1, 1.3, true};
  EXPECT_NE(verdict_text(host, DeviceKind::cuda, 100, PathKind::aoti_python, {aoti}).find("remedies named: aoti 1.20 times"), std::string::npos);
  const PathRatio python{"aoti", "aoti:python", 1.2, 0.1, 1.1, 1.3, true};
  EXPECT_EQ(verdict_text(host, DeviceKind::cuda, 100, PathKind::aoti, {python}), verdict_text(host, DeviceKind::cuda, 100, PathKind::aoti));
  // A verdict that names no remedy (unknown) cites none.
  EXPECT_EQ(verdict_text(PathVerdict{}, DeviceKind::cuda, 100, PathKind::eager, {compile}), verdict_text(PathVerdict{}, DeviceKind::cuda, 100, PathKind::eager));
}

TEST(VerdictText, ComputeBoundWithLargeHostHeadroomGivesBothPiecesOfAdvice) {
  // The training trace of issue 26: busy 57.6%, host-bound 40.1%, device-wait 2.3% (by hand: 1 / 0.424 =
  // 2.358, 1 / 0.599 = 1.669, 1 / 0.977 = 1.024).
  PathVerdict v = verdict(Verdict::compute_bound, 0.576, 0.401, 0.023, TimeShare::busy, TimeShare::host_bound);
  v.host_state = HostState::launch;
  v.host_state_share = 0.7;
  const std::string text = verdict_text(v, DeviceKind::cuda, 10);
  EXPECT_EQ(text.find("host changes will not help"), std::string::npos) << text;
  EXPECT_NE(text.find(". Removing the host-bound time could still make it faster, at most 1.67x; for the host-bound part, launch calls are on the "
                      "critical path: CUDA graphs"),
            std::string::npos) << text;
  EXPECT_EQ(headroom_text(v),
            "at most 2.36x with faster kernels, at most 1.67x without the host-bound time, at most 1.02x without the device-wait");
  PathVerdict none;  // unknown: nothing judged, no bound given
  none.busy_headroom = 1.5;
  EXPECT_EQ(headroom_text(none), "");
  v.busy_headroom.reset();
  EXPECT_EQ(headroom_text(v).rfind("unbounded with faster kernels, at most 1.67x without", 0), 0u);
}

TEST(VerdictText, HostBoundInLaunchCallsAdvisesCudaGraphs) {
  PathVerdict v = verdict(Verdict::host_bound, 0.3, 0.65, 0.05, TimeShare::host_bound, TimeShare::busy);
  v.host_state = HostState::launch;
  v.host_state_share = 0.6;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 3),
            "GPU waiting for the host (nothing queued) 65.0% of wall (busy 30.0%, device-wait 5.0%); the launching "
            "threads were in launch calls for 60.0% of that time (1259 launches per iteration, 0 graph). Launch calls "
            "are on the critical path: CUDA graphs (HIP graphs on ROCm; torch.compile mode=\"reduce-overhead\", or an "
            "AOTInductor package captured in a graph) replay them as one, and fusion (torch.compile) makes fewer");
}

TEST(VerdictText, HostBoundInTheFrameworkAdvisesAotInductorAndSaysWhenGraphsAreInUse) {
  PathVerdict v = verdict(Verdict::host_bound, 0.224, 0.733, 0.043, TimeShare::host_bound, TimeShare::busy);
  v.host_state = HostState::framework;
  v.host_state_share = 0.943;
  const std::string text = verdict_text(v, DeviceKind::cuda, 3);
  EXPECT_EQ(text,
            "GPU waiting for the host (nothing queued) 73.3% of wall (busy 22.4%, device-wait 4.3%); the launching "
            "threads were in no runtime call (framework, Python, data loading) for 94.3% of that time (1259 launches "
            "per iteration, 0 graph). The host between calls is the cost: AOTInductor's C++ wrapper removes the "
            "Python-side guards and wrappers, torch.compile removes eager dispatch, a larger batch amortizes it");
  v.graph_launches_per_iteration = 1;
  v.launches_per_iteration = 1;
  EXPECT_NE(verdict_text(v, DeviceKind::cuda, 3).find("(1 launch per iteration, 1 graph)"), std::string::npos);
  EXPECT_NE(verdict_text(v, DeviceKind::cuda, 3).find("a larger batch amortizes it (graph launches present: CUDA graphs are already "
                                    "in use)"),
            std::string::npos);
  // another device's graphs are not CUDA's
  EXPECT_NE(verdict_text(v, DeviceKind::xpu, 3).find("a larger batch amortizes it (graph launches present: graphs are already "
                                                     "in use)"),
            std::string::npos);
}

TEST(VerdictText, HostBoundInOtherApiCallsAdvisesWarmUp) {
  PathVerdict v = verdict(Verdict::host_bound, 0.1, 0.85, 0.05, TimeShare::host_bound, TimeShare::busy);
  v.host_state = HostState::other_api;
  v.host_state_share = 0.7;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 3),
            "GPU waiting for the host (nothing queued) 85.0% of wall (busy 10.0%, device-wait 5.0%); the launching "
            "threads were in other runtime API calls (allocation, initialisation, code loading) for 70.0% of that "
            "time. Allocation, initialisation and code loading (a launch call over 100 us loads its kernel): warm up "
            "longer, keep allocations out of the step (the caching allocator, static shapes)");
}

TEST(VerdictText, HostBoundInTheHarnessSyncSaysThePathIsAtItsLimit) {
  PathVerdict v = verdict(Verdict::host_bound, 0.3, 0.7, 0, TimeShare::host_bound, TimeShare::busy);
  v.host_state = HostState::harness;
  v.host_state_share = 0.9;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 3),
            "GPU waiting for the host (nothing queued) 70.0% of wall (busy 30.0%, device-wait 0.0%); the launching "
            "threads were in ohprof's own end-of-iteration sync (the measurement, not the model) for 90.0% of that "
            "time. The only host time left is the measurement's own sync returning after each call: the path is as "
            "fast as one synchronous call can be; a larger batch, or more work per synchronisation, amortizes it");
}

TEST(VerdictText, WithoutStepsTheVerdictSaysSoFirst) {
  PathVerdict v = verdict(Verdict::host_bound, 0.2, 0.8, 0, TimeShare::host_bound, TimeShare::busy);
  v.whole_recording_window = true;
  v.host_state = HostState::framework;
  v.host_state_share = 0.95;
  const std::string text = verdict_text(v, DeviceKind::cuda, 1);
  EXPECT_EQ(text.find("no ProfilerStep marks iterations, so this is one window over the whole recording, start-up "
                      "included: GPU waiting for the host (nothing queued) 80.0% of wall"),
            0u)
      << text;
  // With no window at all there is nothing to prefix.
  PathVerdict none;
  none.whole_recording_window = true;
  EXPECT_EQ(verdict_text(none, DeviceKind::cuda, 0), "no iteration was analysed, so there is nothing to judge");
}

TEST(VerdictText, ComputeBoundWithCollectivesSaysHowMuchOfTheBusyTimeTheyAre) {
  PathVerdict v = verdict(Verdict::compute_bound, 0.9, 0.05, 0.05, TimeShare::busy, TimeShare::host_bound);
  v.communication_share = 0.35;
  const std::string text = verdict_text(v, DeviceKind::cuda, 6);
  EXPECT_NE(text.find("; a collective (NCCL) was running in 35.0% of the busy time, which includes waiting for the "
                      "other ranks: overlapping communication with compute or making it smaller (gradient bucketing, "
                      "compression) shortens that part. Speed up the kernels"),
            std::string::npos)
      << text;
}

TEST(VerdictText, HostBoundInBlockingCallsAdvisesRemovingSyncs) {
  PathVerdict v = verdict(Verdict::host_bound, 0.2, 0.8, 0, TimeShare::host_bound, TimeShare::busy);
  v.host_state = HostState::blocking;
  v.host_state_share = 0.55;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 3),
            "GPU waiting for the host (nothing queued) 80.0% of wall (busy 20.0%, device-wait 0.0%); the launching "
            "threads were in blocking calls (synchronisations, blocking copies) for 55.0% of that time. "
            "Synchronisations that find the device idle: remove .item(), .cpu() and blocking copies from the step, "
            "use non_blocking=True copies from pinned memory");
}

TEST(VerdictText, HostBoundOnTheCpuIsTheHostWorkAroundTheKernels) {
  PathVerdict v = verdict(Verdict::host_bound, 0.3, 0.7, 0, TimeShare::host_bound, TimeShare::busy);
  v.cpu_kernels = true;
  v.host_state = HostState::framework;
  v.host_state_share = 1;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 100),
            "dispatch 70.0% of wall (busy 30.0%). The host work around the kernels (Python wrapper, guards, "
            "allocation, operator dispatch) is the cost: AOTInductor's C++ wrapper (or compile:cpp-wrapper), a larger "
            "batch");
}

// The AOTI paths and compile:cpp-wrapper are not told to use the wrapper they have: aoti is AOTInductor's
// C++ runner, aoti:python calls it through Python, compile:cpp-wrapper already has Inductor's C++ wrapper.
// The other paths, a variant and a trace's path (no kind) keep the general advice.
TEST(VerdictText, TheAotiPathsAreNotToldToUseTheWrapperTheyHave) {
  PathVerdict cpu = verdict(Verdict::host_bound, 0.3, 0.7, 0, TimeShare::host_bound, TimeShare::busy);
  cpu.cpu_kernels = true;
  cpu.host_state = HostState::framework;
  cpu.host_state_share = 1;
  EXPECT_EQ(verdict_text(cpu, DeviceKind::cuda, 100, PathKind::aoti),
            "dispatch 70.0% of wall (busy 30.0%). The host work around the kernels (allocation, operator dispatch) is "
            "the cost: the path is already AOTInductor's C++ runner, with no Python on its call path; a larger batch "
            "amortizes it");
  EXPECT_NE(verdict_text(cpu, DeviceKind::cuda, 100, PathKind::aoti_python).find("calling the package from C++ (the aoti path) drops "
                                                               "the Python loader"),
            std::string::npos);
  EXPECT_NE(verdict_text(cpu, DeviceKind::cuda, 100, PathKind::compile_cpp_wrapper).find("AOTInductor's C++ wrapper also drops Dynamo's "
                                                                       "guards"),
            std::string::npos);
  for (const auto kind : {std::optional<PathKind>{}, std::optional<PathKind>{PathKind::compile},
                          std::optional<PathKind>{PathKind::eager}}) {
    EXPECT_EQ(verdict_text(cpu, DeviceKind::cuda, 100, kind), verdict_text(cpu, DeviceKind::cuda, 100)) << (kind ? to_string(*kind) : "none");
  }
  for (const auto kind : {PathKind::aoti, PathKind::aoti_python, PathKind::compile_cpp_wrapper}) {
    EXPECT_EQ(verdict_text(cpu, DeviceKind::cuda, 100, kind).find("(or compile:cpp-wrapper)"), std::string::npos) << to_string(kind);
  }
  // On a GPU, the host in no runtime call: the same three, and the general advice for the rest.
  PathVerdict gpu = verdict(Verdict::host_bound, 0.224, 0.733, 0.043, TimeShare::host_bound, TimeShare::busy);
  gpu.host_state = HostState::framework;
  gpu.host_state_share = 0.943;
  const std::string aoti = verdict_text(gpu, DeviceKind::cuda, 3, PathKind::aoti);
  EXPECT_NE(aoti.find(". The host between calls is the cost: the path is already AOTInductor's C++ runner, with no "
                      "Python on its call path; a larger batch amortizes it"),
            std::string::npos)
      << aoti;
  EXPECT_EQ(aoti.find("removes the Python-side guards"), std::string::npos) << aoti;
  EXPECT_NE(verdict_text(gpu, DeviceKind::cuda, 3, PathKind::aoti_python).find("drops the Python loader around its runner"),
            std::string::npos);
  EXPECT_EQ(verdict_text(gpu, DeviceKind::cuda, 3, PathKind::compile_reduce_overhead), verdict_text(gpu, DeviceKind::cuda, 3));
  // The mixed verdict's host part and the compute-bound verdict's host headroom carry the same advice.
  PathVerdict mixed = verdict(Verdict::mixed, 0.48, 0.42, 0.10, TimeShare::busy, TimeShare::host_bound);
  mixed.cpu_kernels = true;
  mixed.host_state = HostState::framework;
  EXPECT_NE(verdict_text(mixed, DeviceKind::cuda, 3, PathKind::aoti).find("the path is already AOTInductor's C++ runner"),
            std::string::npos);
  PathVerdict compute = verdict(Verdict::compute_bound, 0.7, 0.3, 0, TimeShare::busy, TimeShare::host_bound);
  compute.cpu_kernels = true;
  EXPECT_NE(verdict_text(compute, DeviceKind::cuda, 3, PathKind::aoti).find("the path is already AOTInductor's C++ runner"),
            std::string::npos);
}

// docs/metrics.md, "Advice": launch-bound advice names the graph capture of the trace's device, not CUDA's on
// an Intel GPU or another accelerator.
TEST(VerdictText, LaunchBoundAdviceNamesTheDevicesOwnGraphs) {
  PathVerdict v = verdict(Verdict::host_bound, 0.2, 0.75, 0.05, TimeShare::host_bound, TimeShare::busy);
  v.host_state = HostState::launch;
  v.host_state_share = 0.6;
  const std::string cuda = verdict_text(v, DeviceKind::cuda, 3);
  EXPECT_NE(cuda.find("Launch calls are on the critical path: CUDA graphs (HIP graphs on ROCm; torch.compile "
                      "mode=\"reduce-overhead\", or an AOTInductor package captured in a graph) replay them as one, "
                      "and fusion (torch.compile) makes fewer"),
            std::string::npos) << cuda;
  const std::string xpu = verdict_text(v, DeviceKind::xpu, 3);
  EXPECT_NE(xpu.find("Launch calls are on the critical path: XPU graphs (torch.xpu.XPUGraph, where the installed torch "
                     "has it) replay them as one, and fusion (torch.compile) makes fewer"),
            std::string::npos) << xpu;
  const std::string other = verdict_text(v, DeviceKind::accelerator, 3);
  EXPECT_NE(other.find("Launch calls are on the critical path: a captured graph replays them as one, where the "
                       "device's runtime offers one, and fusion (torch.compile) makes fewer"),
            std::string::npos) << other;
  for (const std::string& text : {xpu, other}) EXPECT_EQ(text.find("CUDA"), std::string::npos) << text;
  // graph launches already present, on another accelerator: graphs, not CUDA's
  v.host_state = HostState::framework;
  v.graph_launches_per_iteration = 1;
  EXPECT_NE(verdict_text(v, DeviceKind::accelerator, 3).find("(graph launches present: graphs are already in use)"),
            std::string::npos);
  // a mixed verdict's host part (share_advice) and a compute-bound one's host part name the device's graphs too
  PathVerdict mixed = verdict(Verdict::mixed, 0.48, 0.42, 0.10, TimeShare::busy, TimeShare::host_bound);
  mixed.host_state = HostState::launch;
  mixed.host_state_share = 0.6;
  const std::string mixed_xpu = verdict_text(mixed, DeviceKind::xpu, 3);
  EXPECT_NE(mixed_xpu.find("launch calls are on the critical path: XPU graphs"), std::string::npos) << mixed_xpu;
  EXPECT_EQ(mixed_xpu.find("CUDA"), std::string::npos) << mixed_xpu;
  PathVerdict compute = verdict(Verdict::compute_bound, 0.70, 0.25, 0.05, TimeShare::busy, TimeShare::host_bound);
  compute.host_state = HostState::launch;
  compute.host_state_share = 0.6;
  const std::string compute_other = verdict_text(compute, DeviceKind::accelerator, 3);
  EXPECT_NE(compute_other.find("a captured graph replays them as one, where the device's runtime offers one"),
            std::string::npos) << compute_other;
  EXPECT_EQ(compute_other.find("CUDA"), std::string::npos) << compute_other;
}

TEST(VerdictText, DeviceWaitBoundNamesTheStreamAndTheQueueDelay) {
  PathVerdict v = verdict(Verdict::device_wait_bound, 0.3, 0.08, 0.62, TimeShare::device_wait, TimeShare::busy);
  v.waited_stream = StreamKey{0, 7};
  v.waited_stream_share = 0.8;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 3),
            "GPU waiting on the GPU (work queued, none running) 62.0% of wall (busy 30.0%, host-bound 8.0%); stream "
            "0:7 had work pending for 80.0% of that time; median queue delay 1.956 us. The device waits on the device: "
            "overlap communication with compute, check cross-stream event waits");
}

TEST(VerdictText, MixedGivesBothSharesAndTheAdviceOfEach) {
  PathVerdict v = verdict(Verdict::mixed, 0.48, 0.42, 0.10, TimeShare::busy, TimeShare::host_bound);
  v.host_state = HostState::launch;
  v.host_state_share = 0.6;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 3),
            "no share dominates: GPU busy 48.0% and host-bound 42.0% of wall (device-wait 10.0%; a verdict needs 50% "
            "and a lead of 10 points). For the busy part, speed up the kernels (torch.compile mode=\"max-autotune\", "
            "lower precision); for the host-bound part (60.0% of it in launch calls; 1259 launches per iteration, 0 "
            "graph), launch calls are on the critical path: CUDA graphs (HIP graphs on ROCm; torch.compile "
            "mode=\"reduce-overhead\", or an AOTInductor package captured in a graph) replay them as one, and fusion "
            "(torch.compile) makes fewer");
  PathVerdict wait = verdict(Verdict::mixed, 0.35, 0.2, 0.45, TimeShare::device_wait, TimeShare::busy);
  wait.waited_stream = StreamKey{1, 40};
  wait.waited_stream_share = 0.5;
  const std::string text = verdict_text(wait, DeviceKind::cuda, 3);
  EXPECT_EQ(text.find("no share dominates: GPU waiting on the GPU (work queued, none running) 45.0% and busy 35.0% of "
                      "wall (host-bound 20.0%; "),
            0u)
      << text;
  EXPECT_NE(text.find("For the device-wait part (stream 1:40 had work pending for 50.0% of that time; median queue "
                      "delay 1.956 us), overlap communication with compute"),
            std::string::npos)
      << text;
}

TEST(VerdictText, MixedOnTheCpuLeavesOutDeviceWait) {
  PathVerdict v = verdict(Verdict::mixed, 0.55, 0.45, 0, TimeShare::busy, TimeShare::host_bound);
  v.cpu_kernels = true;
  v.host_state = HostState::framework;
  v.host_state_share = 1;
  const std::string text = verdict_text(v, DeviceKind::cuda, 10);
  EXPECT_EQ(text.find("no share dominates: CPU kernels busy 55.0% and dispatch 45.0% of wall (a verdict needs 50%"), 0u)
      << text;
  EXPECT_EQ(text.find("device-wait"), std::string::npos) << text;
  EXPECT_NE(text.find("for the dispatch part, the host work around the kernels"), std::string::npos) << text;
}

TEST(VerdictText, UnknownSaysWhatIsMissing) {
  PathVerdict v;
  v.reason = VerdictReason::no_iterations;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 0), "no iteration was analysed, so there is nothing to judge");
  v.reason = VerdictReason::no_device_work;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 1),
            "no device op ran in any window (a trace without device events, or a model that never reached the "
            "device): there is no device work to judge");
  v.reason = VerdictReason::no_launches;
  v.busy_share = 0.016;
  v.host_bound_share = 0.984;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 1),
            "GPU busy 1.6% of wall, but no device op has its launch call in the data (an accelerator runtime ohprof "
            "does not know, or launch records lost), so the rest of the wall time cannot be told apart into "
            "host-bound and device-wait: both unknown. Record the runtime's API calls with the device activity (the "
            "profiler's cuda_runtime / cuda_driver events)");
  v.reason = VerdictReason::startup_without_steps;
  v.busy_share = 0.1;
  v.host_bound_share = 0.85;
  v.device_wait_share = 0.05;
  v.host_state = HostState::other_api;
  v.host_state_share = 0.7;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 1),
            "no ProfilerStep marks iterations, and the one window is start-up, not steady state: GPU waiting for the "
            "host (nothing queued) 85.0% of wall (busy 10.0%, device-wait 5.0%); the launching threads were in other "
            "runtime API calls (allocation, initialisation, code loading) for 70.0% of that time. Record steps: "
            "torch.profiler.profile(schedule=...) and prof.step() add ProfilerStep annotations");
}

// docs/analyze.md, "The device": the sentence calls the device by the report's noun: a GPU for CUDA, ROCm and
// XPU, "device" for another accelerator (an MTIA trace), never "GPU" there.
TEST(VerdictText, NamesTheDeviceByTheReportsNoun) {
  EXPECT_STREQ(device_noun(DeviceKind::cuda), "GPU");
  EXPECT_STREQ(device_noun(DeviceKind::xpu), "GPU");
  EXPECT_STREQ(device_noun(DeviceKind::accelerator), "device");
  EXPECT_STREQ(device_noun(DeviceKind::cpu), "device");  // no device found: a trace without device work
  PathVerdict v = verdict(Verdict::device_wait_bound, 0.30, 0.08, 0.62, TimeShare::device_wait, TimeShare::busy);
  const std::string accelerator = verdict_text(v, DeviceKind::accelerator, 10, std::nullopt, {});
  EXPECT_EQ(accelerator.find("device waiting on the device (work queued, none running) 62.0% of wall"), 0u) << accelerator;
  EXPECT_EQ(accelerator.find("GPU"), std::string::npos) << accelerator;
  const std::string xpu = verdict_text(v, DeviceKind::xpu, 10, std::nullopt, {});
  EXPECT_EQ(xpu.find("GPU waiting on the GPU (work queued, none running) 62.0% of wall"), 0u) << xpu;
  v = verdict(Verdict::host_bound, 0.30, 0.65, 0.05, TimeShare::host_bound, TimeShare::busy);
  const std::string host = verdict_text(v, DeviceKind::accelerator, 10, std::nullopt, {});
  EXPECT_EQ(host.find("device waiting for the host (nothing queued) 65.0% of wall"), 0u) << host;
  v.verdict = Verdict::unknown;
  v.reason = VerdictReason::no_launches;
  const std::string unknown = verdict_text(v, DeviceKind::accelerator, 1, std::nullopt, {});
  EXPECT_EQ(unknown.find("device busy 30.0% of wall, but no device op has its launch call"), 0u) << unknown;
  // what to record names the device's own profiler activity and runtime events, not CUDA's
  EXPECT_NE(unknown.find("(the profiler's mtia_runtime for MTIA, or the device runtime's events)"), std::string::npos)
      << unknown;
  EXPECT_NE(verdict_text(v, DeviceKind::xpu, 1).find("(the profiler's xpu_runtime events)"), std::string::npos);
  EXPECT_NE(verdict_text(v, DeviceKind::cuda, 1).find("(the profiler's cuda_runtime / cuda_driver events)"), std::string::npos);
  v.reason = VerdictReason::launches_without_ops;
  EXPECT_NE(verdict_text(v, DeviceKind::xpu, 1).find("(torch.profiler's ProfilerActivity.XPU;"), std::string::npos);
  EXPECT_NE(verdict_text(v, DeviceKind::accelerator, 1).find("(torch.profiler's ProfilerActivity.MTIA for MTIA, or the "
                                                            "device's own;"),
            std::string::npos);
  EXPECT_NE(verdict_text(v, DeviceKind::cuda, 1).find("(torch.profiler's ProfilerActivity.CUDA;"), std::string::npos);
  for (const DeviceKind device : {DeviceKind::xpu, DeviceKind::accelerator}) {
    EXPECT_EQ(verdict_text(v, device, 1).find("CUDA"), std::string::npos) << verdict_text(v, device, 1);
  }
  v.reason = VerdictReason::unread_device_events;
  v.unread_device_events = {EventCount{"hpu_op", 12}};
  EXPECT_EQ(verdict_text(v, DeviceKind::accelerator, 1),
            "the trace holds device work in categories ohprof does not read ('hpu_op' x12), so the device's time is "
            "unknown, not zero; ohprof reads CUDA, ROCm and XPU timelines (kernel, gpu_memcpy, gpu_memset) and MTIA's "
            "(mtia_ccp_events)");
}

// docs/metrics.md, "Ops without a launch call": host-bound and device-wait are ranges in the sentence, which
// says why; the verdict that differs within them is unknown, with the ranges and what to record.
TEST(VerdictText, OpsWithoutALaunchCallGiveRangesAndAnUnknownWhereTheVerdictDiffers) {
  PathVerdict v = verdict(Verdict::compute_bound, 0.577, 0.423, 0.0, TimeShare::busy, TimeShare::host_bound);
  v.ops_queue_unknown = 22224;
  v.host_bound_share_least = 0.001;
  v.device_wait_share_most = 0.422;
  const std::string start =
      "GPU busy 57.7% of wall (host-bound 0.1–42.3%, device-wait 0.0–42.2%; ranges: 22224 device ops have no "
      "launch call in the data, so when they were queued is not known). Speed up";
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 1).substr(0, start.size()), start);
  EXPECT_EQ(split_share_text(v, TimeShare::host_bound), "0.1–42.3%");
  EXPECT_EQ(split_share_text(v, TimeShare::device_wait), "0.0–42.2%");
  EXPECT_EQ(split_share_text(v, TimeShare::busy), "57.7%");
  v.verdict = Verdict::unknown;
  v.reason = VerdictReason::queue_unknown;
  v.ops_queue_unknown = 1;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 1),
            "1 device op has no launch call in the data, so when it was queued is not known: host-bound is 0.1–42.3% of "
            "wall and device-wait 0.0–42.2% (GPU busy 57.7%), and the verdict differs within those ranges. Record the "
            "runtime's launch calls with the device activity (a collector's dropped-records count says whether records "
            "were lost)");
  EXPECT_EQ(headroom_line(v), "");
}

// docs/metrics.md, "Verdict": CPU kernels that do not record themselves. The dispatch share is an upper
// bound, so the verdict is unknown and its headroom keeps only the dispatch part's bound; a compute-bound
// verdict stands, with the same headroom line.
TEST(VerdictText, UnrecordedKernelsGiveTheSharesAsBoundsAndTheRemedy) {
  PathVerdict v;
  v.reason = VerdictReason::kernels_unrecorded;
  v.cpu_kernels = true;
  v.kernels_unrecorded = true;
  v.busy_share = 0.139;
  v.host_bound_share = 0.861;
  v.busy_headroom = 1.16;
  v.host_bound_headroom = 7.19;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 100),
            "this path's Inductor kernels were built without cpp.enable_kernel_profile, so they do not record "
            "themselves and their time counts as dispatch: dispatch 86.1% of wall is at most the host's share and busy "
            "13.9% at least the kernels', so the shares decide no verdict. Measure with --kernel-profile (compare; a "
            "package of your own: examples/export_model.py --kernel-profile)");
  const std::string headroom =
      "at most 7.19x without the dispatch time (which holds the kernels that do not record themselves); with faster "
      "kernels unknown (Amdahl's bound on this timeline)";
  EXPECT_EQ(headroom_line(v), headroom);
  v.verdict = Verdict::compute_bound;
  v.reason = VerdictReason::dominant_share;
  v.busy_share = 0.816;
  v.host_bound_share = 0.184;
  v.host_bound_headroom = 1.23;
  v.host_headroom_negligible = false;
  EXPECT_EQ(verdict_text(v, DeviceKind::cuda, 100),
            "CPU kernels busy 81.6% of wall (dispatch 18.4%); busy at least that: this path's Inductor kernels do not "
            "record themselves and count as dispatch. Speed up the kernels (torch.compile mode=\"max-autotune\", lower "
            "precision). Removing the dispatch time could still make it faster, at most 1.23x; for the dispatch part, the host work around "
            "the kernels (Python wrapper, guards, allocation, operator dispatch) is the cost: AOTInductor's C++ "
            "wrapper (or compile:cpp-wrapper), a larger batch");
  EXPECT_EQ(headroom_line(v), "at most 1.23x without the dispatch time (which holds the kernels that do not record "
                              "themselves); with faster kernels unknown (Amdahl's bound on this timeline)");
  v.host_bound_headroom = 7.19;
  EXPECT_EQ(headroom_line(v), headroom);
  // without the flag, an unknown verdict has no headroom line, a known one all its parts
  v.kernels_unrecorded = false;
  EXPECT_EQ(headroom_line(v), "at most 1.16x with faster kernels, at most 7.19x without the dispatch time (Amdahl's "
                              "bound on this timeline)");
  v.verdict = Verdict::unknown;
  v.reason = VerdictReason::no_device_work;
  EXPECT_EQ(headroom_line(v), "");
}

// --- explanations ------------------------------------------------------------------------------------

// compile against aoti, the terms of test/analysis/explanation_test.cpp's hand-made case.
GapExplanation compile_gap() {
  GapExplanation e;
  e.slower = "compile";
  e.faster = "aoti";
  e.measured = true;
  e.gap = {26'000, 300};
  e.kernels = Estimate{100, 50};
  e.kernels_same = true;
  e.faster_kernel_share = 0.49;
  const HostLayer layers[] = {HostLayer::guards, HostLayer::dynamo, HostLayer::aot_wrapper, HostLayer::inductor_call};
  const double values[] = {2000, 17'000, 2000, 1400};
  for (int i = 0; i < 4; ++i) e.layers.push_back(LayerEstimate{layers[i], "compile", "", "", {values[i], 10}, 1, false});
  e.floor_slower = "compile/call";
  e.floor_faster = "aoti";
  e.floor_kind_slower = FloorKind::python_wrapper;
  e.floor_kind_faster = FloorKind::cpp_runner;
  e.wrapper = Estimate{3600, 40};
  e.residual = Estimate{-100, 200};
  return e;
}

TEST(ExplanationText, ReadsLikeTheExpertsAnswerWithEveryTerm) {
  EXPECT_EQ(explanation_text(compile_gap()),
            "compile is 26.00 us ± 300 ns slower than aoti: kernels the same (100 ns ± 50 ns); guards 2.000 us, "
            "Dynamo entry 17.00 us, AOTAutograd wrapper 2.000 us, Inductor graph call 1.400 us, Inductor's Python "
            "wrapper vs AOTI's C++ runner 3.600 us; within noise: residual");
}

// docs/metrics.md, "Explanation", remedies[]: a path saves time beyond noise or is named within noise, with no
// direction; the share of a gap is given only where the gap itself is beyond noise.
TEST(ExplanationText, ARemedyClosesTheGapOnlyBeyondNoise) {
  GapExplanation e = compile_gap();  // gap 26000 ± 300
  e.remedies = {GapRemedy{"compile:reduce-overhead", Estimate{13'000, 400}, 0.5},
                GapRemedy{"compile:cpp-wrapper", Estimate{1230, 900}, 1230.0 / 26'000}};
  const std::vector<std::string> notes = explanation_notes(e);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0], "closes it: compile:reduce-overhead runs 13.00 us ± 400 ns faster than compile (50% of the gap)");
  EXPECT_EQ(notes[1], "compile:cpp-wrapper against compile: 1.230 us ± 900 ns, within noise");
  e.within_noise = true;  // the gap is noise: nothing to close, the saving alone
  EXPECT_EQ(explanation_notes(e)[0], "compile:reduce-overhead runs 13.00 us ± 400 ns faster than compile");
}

// docs/metrics.md, "Layers": the second view's line and the answer say where the views disagree.
TEST(ExplanationText, ALayerHoldingMoreThanDynamosOwnRangeIsSaidToHoldOtherWork) {
  GapExplanation e = compile_gap();
  DynamoRangeCheck check{"compile", {1800, 10}, Estimate{2000, 10}, {15'000, 10}, Estimate{19'000, 14}};
  e.dynamo_ranges = {check};
  EXPECT_EQ(explanation_text(e), explanation_text(compile_gap()));  // the views agree: nothing added
  EXPECT_EQ(explanation_notes(e).front(),
            "second view: compile spends 1.800 us ± 10 ns in Dynamo's \"TorchDynamo Cache Lookup\" range (guards layer: "
            "2.000 us ± 10 ns) and 15.00 us ± 10 ns outside its \"Torch-Compiled Region\" (guards + Dynamo entry: 19.00 us "
            "± 14 ns); split pass");
  e.dynamo_ranges[0].layers_exceed_outside = true;  // 19000 / 15000 = x1.27
  EXPECT_EQ(explanation_text(e), explanation_text(compile_gap()) +
                                     ". compile's guards and Dynamo-entry layers hold more than Dynamo's own ranges hold "
                                     "(second view), so they hold work besides Dynamo's");
  EXPECT_EQ(explanation_notes(e).front(),
            "second view: compile spends 1.800 us ± 10 ns in Dynamo's \"TorchDynamo Cache Lookup\" range (guards layer: "
            "2.000 us ± 10 ns) and 15.00 us ± 10 ns outside its \"Torch-Compiled Region\" (guards + Dynamo entry: 19.00 us "
            "± 14 ns); split pass; the views DISAGREE: guards + Dynamo entry hold x1.27 the time outside the compiled "
            "region, beyond noise and beyond x1.25: those layers hold work besides Dynamo's (kernels, caches or code "
            "their variants run differently)");
  e.dynamo_ranges[0].layers_exceed_outside = false;
  e.dynamo_ranges[0].guards_exceed_lookup = true;  // 2000 / 1800 = x1.11 (the flag alone decides the text)
  EXPECT_EQ(explanation_text(e), explanation_text(compile_gap()) +
                                     ". compile's guards layer holds more than Dynamo's own ranges hold (second view), "
                                     "so it holds work besides Dynamo's");
  EXPECT_NE(explanation_notes(e).front().find("; the views DISAGREE: the guards layer holds x1.11 the lookup range, beyond"),
            std::string::npos);
  // Both: one clause each, joined; a range of zero has no ratio.
  e.dynamo_ranges[0].layers_exceed_outside = true;
  e.dynamo_ranges[0].outside_region = Estimate{0, 0};
  EXPECT_NE(explanation_notes(e).front().find("; the views DISAGREE: the guards layer holds x1.11 the lookup range, guards "
                                              "+ Dynamo entry hold more than the time outside the compiled region, beyond"),
            std::string::npos)
      << explanation_notes(e).front();
  EXPECT_NE(explanation_text(e).find(". compile's guards and Dynamo-entry layers hold more"), std::string::npos);
  // A flag without its estimate (a report edited by hand) adds nothing, and reads nothing that is not there.
  e.dynamo_ranges[0].guards.reset();
  e.dynamo_ranges[0].guards_and_dynamo.reset();
  EXPECT_EQ(explanation_notes(e).front().find("DISAGREE"), std::string::npos);
  EXPECT_EQ(explanation_text(e).find("Dynamo's own ranges"), std::string::npos);
  e.dynamo_ranges[0].guards = Estimate{2000, 10};
  e.dynamo_ranges[0].guards_and_dynamo = Estimate{19'000, 14};
  // A gap within noise names no layer: nothing is added to its answer.
  e.within_noise = true;
  EXPECT_EQ(explanation_text(e).find("Dynamo's own ranges"), std::string::npos);
}

// The rule (docs/metrics.md, "Significance"), by hand: significant when |value| > 1.96 se.
TEST(Significance, TheNinetyFivePercentIntervalMustExcludeZero) {
  EXPECT_TRUE(significant(Estimate{2000, 1000}));    // exactly two standard errors: 2000 > 1960
  EXPECT_FALSE(significant(Estimate{1960, 1000}));   // on the bound: the interval [0, 3920] touches zero
  EXPECT_FALSE(significant(Estimate{1900, 1000}));   // [-60, 3860] contains zero
  EXPECT_TRUE(significant(Estimate{-2500, 1000}));   // [-4460, -540]: significantly below zero
  EXPECT_TRUE(significant(Estimate{1, 0}));          // no spread: any non-zero value
  EXPECT_FALSE(significant(Estimate{0, 0}));
  EXPECT_DOUBLE_EQ(interval_low(Estimate{2000, 1000}), 40);
  EXPECT_DOUBLE_EQ(interval_high(Estimate{2000, 1000}), 3960);
}

TEST(ExplanationText, NamesOnlySignificantLayersAndListsTheRestWithinNoise) {
  // The demo's shape: layers whose standard error (1.8 ms) swamps most of them.
  GapExplanation e = compile_gap();
  e.gap = {16'860'000, 1'215'000};
  e.kernels = Estimate{14'290'000, 900'000};
  e.kernels_same = false;
  const double values[] = {-645'600, 2'407'000, -3'243'000, 5'092'000};
  for (int i = 0; i < 4; ++i) e.layers[i].estimate = {values[i], 1'800'000};
  e.wrapper = Estimate{1'000'000, 2'000'000};
  e.residual = Estimate{-2'000'000, 3'000'000};
  const std::string text = explanation_text(e);
  // 5.092 ms > 1.96 * 1.8 ms = 3.528 ms: the one layer named; -3.243 ms and the rest are not.
  EXPECT_EQ(text, "compile is 16.86 ms ± 1.215 ms slower than aoti: kernels differ (14.29 ms ± 900.0 us); Inductor "
                  "graph call 5.092 ms; within noise: guards, Dynamo entry, AOTAutograd wrapper, Inductor's Python "
                  "wrapper vs AOTI's C++ runner, residual");
}

TEST(ExplanationText, ALayerSignificantlyBelowZeroIsNamedAsSuchNotAsANegativeCost) {
  GapExplanation e = compile_gap();
  e.layers[2].estimate = {-3'243'000, 1'000'000};  // [-5.2 ms, -1.3 ms]
  e.layers[2].upper = "compile/graph";
  e.layers[2].lower = "compile/inductor";
  e.layers[2].kernels_differ = true;
  const std::string text = explanation_text(e);
  EXPECT_NE(text.find("AOTAutograd wrapper -3.243 ms (below zero: compile/inductor ran slower than compile/graph, "
                      "which runs more; they ran different kernel sets)"),
            std::string::npos) << text;
  e.layers[2].kernels_differ = false;
  EXPECT_NE(explanation_text(e).find("which runs more; caches, or a different code path)"), std::string::npos);
  e.layers[2].kernels_differ.reset();  // kernel sets not known (a partial diff, or no split)
  EXPECT_NE(explanation_text(e).find("which runs more; caches, a different code path, or different kernels (their "
                                     "kernel sets are not known))"),
            std::string::npos) << explanation_text(e);
}

TEST(ExplanationText, WhenNoLayerIsResolvedItSaysSoWithTheWidthReachedAndWhatWouldHelp) {
  GapExplanation e = compile_gap();
  for (auto& layer : e.layers) layer.estimate = {1000, 1000};  // each 95% interval: 1 us ± 1.96 us
  e.layers[1].estimate = {500, 2000};                           // the widest: ± 3.92 us
  const std::string text = explanation_text(e);
  EXPECT_NE(text.find("within noise: guards, Dynamo entry, AOTAutograd wrapper, Inductor graph call"), std::string::npos)
      << text;
  EXPECT_NE(text.find(". No layer is resolved: their 95% intervals reach ± 3.920 us. Measure longer (--time-limit), "
                      "interleave in blocks (--block), or use a quieter machine"),
            std::string::npos) << text;
  EXPECT_EQ(explanation_text(compile_gap()).find("No layer is resolved"), std::string::npos);
}

TEST(RatioText, AnIntervalThatContainsOneIsWithinNoise) {
  PathRatio r{"aoti", "compile", 1.36, 1.50, 1.21, 1.52, true};
  EXPECT_EQ(ratio_text(r), "aoti ran 1.36 times faster than compile (95% interval 1.21 to 1.52)");
  r.low = 0.84;
  r.high = 1.88;
  r.significant = false;
  EXPECT_EQ(ratio_text(r), "aoti and compile are within noise: ratio 1.36 (95% interval 0.84 to 1.88 contains 1)");
  // In a report: a side that ran uncompiled code is named after the ratio; the others are not.
  std::vector<PathResult> paths(2);
  paths[0].name = "aoti";
  paths[1].name = "compile";
  EXPECT_EQ(ratio_text(r, paths), ratio_text(r));
  paths[1].execution = ExecutionCheck{};
  paths[1].execution->facts.dynamo = true;
  paths[1].execution->compiled_call = CompiledCall::compiled;
  EXPECT_EQ(ratio_text(r, paths), ratio_text(r));
  paths[1].execution->compiled_call = CompiledCall::guards_missed;
  EXPECT_EQ(ratio_text(r, paths), ratio_text(r) + "; compile ran uncompiled code (execution check)");
}

TEST(ExplanationText, TheFasterSidesLayersAreNamedWithTheirPathAndSubtracted) {
  GapExplanation e = compile_gap();
  e.faster = "aoti:python";
  e.layers.push_back(LayerEstimate{HostLayer::python_loader, "aoti:python", "aoti:python", "aoti", {9900, 30}, -1, false});
  EXPECT_NE(explanation_text(e).find("aoti:python's Python loader 9.900 us (subtracted)"), std::string::npos)
      << explanation_text(e);
}

TEST(ExplanationText, WithinNoiseSaysSoAndWhetherKernelsDominate) {
  GapExplanation e = compile_gap();
  e.gap = {300'000, 400'000};
  e.within_noise = true;
  e.kernels_same = false;
  e.faster_kernel_share = 0.9;
  e.faster_dominant = Dominant::kernels;
  EXPECT_EQ(explanation_text(e),
            "compile and aoti are within noise: the gap is 300.0 us ± 400.0 us (its 95% interval contains zero); kernels "
            "differ (100 ns ± 50 ns); kernels dominate (90.0% of aoti's wall)");
  e.faster_kernel_share = 0.2;
  e.faster_dominant = Dominant::host;
  EXPECT_NE(explanation_text(e).find("host work dominates (kernels 20.0% of aoti's wall)"), std::string::npos);
  // The faster path's verdict decides, not the share read against one half: mixed (or device-wait-bound) is
  // neither, whatever side of 50% its busy share is on.
  e.faster_dominant = Dominant::neither;
  for (const double share : {0.502, 0.498, 0.54}) {
    e.faster_kernel_share = share;
    const std::string text = explanation_text(e);
    EXPECT_NE(text.find("; neither kernels nor host work dominates (kernels "), std::string::npos) << share;
    EXPECT_EQ(text.find("; kernels dominate ("), std::string::npos) << share;
    EXPECT_EQ(text.find("; host work dominates ("), std::string::npos) << share;
  }
  EXPECT_NE(explanation_text(e).find("(kernels 54.0% of aoti's wall; its verdict)"), std::string::npos);
  e.faster_dominant.reset();  // an unknown verdict (or an older report): nothing said
  EXPECT_EQ(explanation_text(e).find("dominate"), std::string::npos);
}

TEST(ExplanationText, ANegativeGapIsAMagnitudeFaster) {
  GapExplanation e = compile_gap();
  e.gap = {-6'300'000, 444'500};
  EXPECT_EQ(explanation_text(e).rfind("compile is 6.300 ms ± 444.5 us faster than aoti: ", 0), 0u) << explanation_text(e);
}

TEST(ExplanationText, UnknownTermsAreSaidToBeUnknown) {
  GapExplanation e = compile_gap();
  e.kernels.reset();
  e.residual.reset();
  e.wrapper.reset();
  e.floor_gap = {3600, 100};
  const std::string text = explanation_text(e);
  EXPECT_NE(text.find("kernels unknown"), std::string::npos) << text;
  EXPECT_NE(text.find("residual unknown"), std::string::npos) << text;
  EXPECT_EQ(text.find("C++ runner"), std::string::npos) << text;
  // What lies below the chains is still said, whole.
  EXPECT_NE(text.find("compile/call vs aoti 3.600 us (kernels and wrappers together)"), std::string::npos) << text;
  GapExplanation none;
  none.slower = "eager";
  none.faster = "aoti";
  none.missing = {"aoti has no measured iterations"};
  EXPECT_EQ(explanation_text(none), "eager against aoti: unknown (aoti has no measured iterations)");
  // A cut chain names the floor's path.
  e = compile_gap();
  e.floor_slower = "compile/graph";
  e.floor_kind_slower.reset();
  EXPECT_EQ(wrapper_label(e), "compile/graph's host work vs AOTI's C++ runner");
}

// The execution check's sentence (docs/metrics.md, "Execution check"): each clause from one field.
TEST(ExecutionText, EachClauseSaysOneFieldAndCountsAreSpelledForOneAndMany) {
  ExecutionCheck eager;
  eager.facts.device = "cpu";
  EXPECT_EQ(execution_text(eager), "no Dynamo; no compile while measured; outputs on cpu");

  ExecutionCheck compiled;
  compiled.facts.dynamo = true;
  compiled.facts.graphs = 1;
  compiled.facts.device = "cuda:0";
  EXPECT_EQ(execution_text(compiled),
            "Dynamo, 1 graph, no graph break; no compile while measured; CUDA graphs not applicable; outputs on cuda:0");
  compiled.facts.graphs = std::nullopt;
  compiled.facts.graph_breaks = {{"Call to `torch._dynamo.graph_break()`", 2}, {"data-dependent branch", 1}};
  compiled.facts.device.clear();
  EXPECT_EQ(execution_text(compiled),
            "Dynamo, graphs not known, 3 graph breaks; no compile while measured; CUDA graphs not applicable");

  // Two compiles in one timing iteration and one in the next count as two iterations; one sample left out.
  ExecutionCheck recompiled;
  recompiled.facts.dynamo = true;
  recompiled.facts.graphs = 2;
  recompiled.facts.graph_breaks = {{"x", 1}};
  CompileEvent event{CompileEventKind::dynamo_compile, "0/1", 10, 20, ""};
  recompiled.measured_compiles = {{MeasuredPass::timing, 0, event}, {MeasuredPass::timing, 0, event}};
  recompiled.excluded_iterations = 1;
  EXPECT_EQ(execution_text(recompiled), "Dynamo, 2 graphs, 1 graph break; compiled inside 1 measured iteration, its "
                                        "first timing sample left out; CUDA graphs not applicable");
  recompiled.measured_compiles.push_back({MeasuredPass::timing, 1, event});
  recompiled.excluded_iterations = 2;
  EXPECT_NE(execution_text(recompiled).find("compiled inside 2 measured iterations, its first 2 timing samples left out"),
            std::string::npos);
  // Too few samples after the compile: pooled, nothing left out.
  recompiled.excluded_iterations = 0;
  recompiled.pooled = true;
  EXPECT_NE(execution_text(recompiled).find("compiled inside 2 measured iterations, its timing samples pooled across "
                                            "the compile;"),
            std::string::npos);
  // A compile in the split pass only: named, nothing left out of the wall times.
  ExecutionCheck split_only;
  split_only.measured_compiles = {{MeasuredPass::split, 4, event}};
  EXPECT_EQ(execution_text(split_only),
            "no Dynamo; compiled inside 1 measured iteration, of the split pass only (the wall times hold none)");

  ExecutionCheck unobserved;
  unobserved.facts.dynamo = true;
  unobserved.facts.graphs = 1;
  unobserved.facts.unobserved = "torch._dynamo.callback missing";
  EXPECT_EQ(execution_text(unobserved), "Dynamo, 1 graph, no graph break; compiles not observed (torch._dynamo.callback "
                                        "missing); CUDA graphs not applicable");

  // The probe after the timing pass, or no graph at all: what the path ran instead, in capitals.
  ExecutionCheck probed = compiled;
  probed.facts.graphs = 1;
  probed.facts.graph_breaks.clear();
  probed.compiled_call = CompiledCall::compiled;
  EXPECT_EQ(execution_text(probed), "Dynamo, 1 graph, no graph break; no compile while measured; CUDA graphs not applicable");
  probed.compiled_call = CompiledCall::guards_missed;
  EXPECT_EQ(execution_text(probed), "Dynamo, 1 graph, no graph break; no compile while measured; RAN UNCOMPILED after the "
                                    "timing pass: a frame's guards matched none of its compiled entries; CUDA graphs not applicable");
  probed.compiled_call = CompiledCall::no_frame;
  EXPECT_NE(execution_text(probed).find("; RAN UNCOMPILED after the timing pass: Dynamo skipped its function (no compiled "
                                        "frame entered);"),
            std::string::npos);
  probed.compiled_call = CompiledCall::no_graph;
  EXPECT_NE(execution_text(probed).find("; RAN UNCOMPILED after the timing pass: no compiled graph ran (Dynamo made "
                                        "none, or its code is disabled);"),
            std::string::npos);
  // A probe that could not tell says so, and why.
  probed.compiled_call.reset();
  probed.compiled_call_unknown = ProbeUnknown::probe_failed;
  probed.compiled_call_error = "the probe's call raised: RuntimeError: boom";
  EXPECT_EQ(execution_text(probed), "Dynamo, 1 graph, no graph break; no compile while measured; whether it still ran "
                                    "compiled code after the timing pass: unknown (the probe's call raised: "
                                    "RuntimeError: boom); CUDA graphs not applicable");
  probed.compiled_call_error.clear();
  EXPECT_NE(execution_text(probed).find("unknown (the check failed);"), std::string::npos);
  probed.compiled_call_unknown = ProbeUnknown::not_probed;
  EXPECT_NE(execution_text(probed).find("; whether it still ran compiled code after the timing pass: unknown (the run "
                                        "stopped before the check);"),
            std::string::npos);
  probed.compiled_call_unknown = ProbeUnknown::no_hook;
  EXPECT_NE(execution_text(probed).find("unknown (this torch has no guard-complete hook to check it with)"), std::string::npos);
  probed.compiled_call_unknown = ProbeUnknown::limit_in_probe;
  EXPECT_NE(execution_text(probed).find("unknown (Dynamo hit its recompile limit inside the check's own call)"),
            std::string::npos);
  probed.compiled_call_unknown.reset();

  ExecutionCheck graphs;
  graphs.facts.dynamo = true;
  graphs.facts.graphs = 1;
  graphs.facts.cuda_graphs_expected = true;
  graphs.cuda_graphs = CudaGraphUse::replayed;
  EXPECT_NE(execution_text(graphs).find("; CUDA graphs replayed in every measured call"), std::string::npos);
  graphs.cuda_graphs = CudaGraphUse::not_replayed;
  EXPECT_NE(execution_text(graphs).find("; CUDA graphs NOT replayed in some measured calls"), std::string::npos);
  graphs.cuda_graphs = CudaGraphUse::skipped;
  graphs.facts.cuda_graph_skip_reason = "skipping cudagraphs due to mutated inputs";
  EXPECT_NE(execution_text(graphs).find("; CUDA graphs SKIPPED: skipping cudagraphs due to mutated inputs"),
            std::string::npos);
}

// The memory line (docs/metrics.md, "Memory"): signed sizes, "unknown" where a peak could not be reset.
TEST(MemoryText, SaysRetainedAndPeaksWithTheirSigns) {
  PathMemory m{52'400'000, 80'100'000, 1'200'000, 3};
  EXPECT_EQ(memory_text(m), "in this process: build +52.4 MB retained (peak +80.1 MB), calls peak +1.20 MB over 3");
  m.build_retained_bytes = -4'096;
  m.build_peak_bytes.reset();
  m.run_peak_bytes.reset();
  EXPECT_EQ(memory_text(m), "in this process: build -4.10 kB retained (peak unknown), calls peak unknown");
}

// The device memory line (docs/metrics.md, "Device memory").
TEST(MemoryText, DeviceMemorySaysTheAllocatorsAndTheRuntimesFigures) {
  PathDeviceMemory d;
  d.build_allocated_bytes = 5'000;
  d.build_reserved_bytes = 8'000;
  d.build_used_bytes = 8'000;
  d.build_peak_allocated_bytes = 8'000;
  d.run_peak_allocated_bytes = 700;
  d.run_reserved_bytes = 0;
  EXPECT_EQ(device_memory_text(d, 3), "build +5.00 kB allocated, +8.00 kB reserved, +8.00 kB used (allocated peak +8.00 kB); "
                                      "calls peak +700 B allocated, +0 B reserved over 3");
  d.build_used_bytes.reset();
  d.run_peak_allocated_bytes.reset();
  d.graph_pool_bytes = 4'096;
  EXPECT_EQ(device_memory_text(d, 0), "build +5.00 kB allocated, +8.00 kB reserved, used unknown (allocated peak +8.00 kB); "
                                      "calls unknown; graph pool 4.10 kB");
}


// The threads lines (docs/metrics.md, "Concurrent callers"): one per count, then the limit.
TEST(ConcurrencyLines, OneLinePerCountThenTheLimit) {
  PathConcurrency c = test::two_callers();
  EXPECT_EQ(concurrency_lines(c, 9'574),
            (std::vector<std::string>{
                "1 caller   22.9k calls/s  p50 40.70 us  p99 325.7 us  (on the measuring thread: median 9.574 us)",
                "2 callers  36.6k calls/s  p50 40.70 us  p99 325.7 us  x1.60 of 1 caller (95% interval 1.18 to 2.01)",
                "limit: the cores (2 callers x 1 intra-op thread on 2 cores); the runner holds 2 model instances"}));
  // The callers' time on a CPU and waiting, where it was read (docs/metrics.md, "Concurrent callers"): 2
  // callers over rounds of 1 and 3 ms ran 7.2 ms and waited 1.24 ms in all: on 7.2 / 4 = 1.80 CPUs, waiting
  // 1.24 / (2 x 4) = 15.5% of their time; one caller ran 3.96 of 4 ms, waiting 0. One figure alone: none.
  PathConcurrency waited = c;
  waited.points[0].round_ns = {1'000'000, 3'000'000};
  waited.points[0].on_cpu_ns = 3'960'000;
  waited.points[0].waited_ns = 0;
  waited.points[1].round_ns = {1'000'000, 3'000'000};
  waited.points[1].on_cpu_ns = 7'200'000;
  waited.points[1].waited_ns = 1'240'000;
  EXPECT_EQ(concurrency_lines(waited, 0)[0],
            "1 caller   22.9k calls/s  p50 40.70 us  p99 325.7 us  caller threads on 0.99 CPUs, waiting 0.0%");
  EXPECT_EQ(concurrency_lines(waited, 0)[1], "2 callers  36.6k calls/s  p50 40.70 us  p99 325.7 us  x1.60 of 1 caller "
                                             "(95% interval 1.18 to 2.01)  caller threads on 1.80 CPUs, waiting 15.5%");
  waited.context.intra_op_threads = 2;  // their workers' time is in neither figure, and the line says so
  EXPECT_NE(concurrency_lines(waited, 0)[1].find("waiting 15.5% (their OpenMP workers not counted)"), std::string::npos);
  waited.points[1].on_cpu_ns.reset();
  EXPECT_EQ(concurrency_lines(waited, 0)[1].find("CPUs"), std::string::npos);
  // A 1-caller point slower than the measuring thread (one_caller_slowdown): both lines say so.
  PathConcurrency slow = c;
  slow.caller_slowdown = 4.31;
  const std::vector<std::string> slow_lines = concurrency_lines(slow, 9'574);
  EXPECT_EQ(slow_lines[0], "1 caller   22.9k calls/s  p50 40.70 us  p99 325.7 us  (on the measuring thread: median "
                           "9.574 us; 4.3x slower on a caller thread)");
  // A report from before the limit rule read caller_slowdown: its limit is kept, and the line qualifies it.
  EXPECT_EQ(slow_lines[2], "limit: the cores (2 callers x 1 intra-op thread on 2 cores); the runner holds 2 model "
                           "instances; the scaling is against a slow 1-caller point, so it measures the caller threads' "
                           "own cost too (warning threads-callers-slower)");
  // Today's rule makes that limit unknown, and the line says why.
  slow.limit = ConcurrencyLimit::unknown;
  EXPECT_EQ(concurrency_lines(slow, 9'574)[2],
            "limit: unknown: the scaling is against a slow 1-caller point, so it measures the caller threads' own "
            "cost too (warning threads-callers-slower); the runner holds 2 model instances");
  c.points[1].scales = false;
  c.points[1].scaling_low = 0.9;
  EXPECT_NE(concurrency_lines(c, 0)[1].find("(within noise: 95% interval 0.90 to 2.01)"), std::string::npos);
  EXPECT_EQ(concurrency_lines(c, 0)[0].find("measuring thread"), std::string::npos);
  c.points[1].scaling = 0.4;
  c.points[1].scaling_low = 0.3;
  c.points[1].scaling_high = 0.5;
  EXPECT_NE(concurrency_lines(c, 0)[1].find("x0.40 of 1 caller (fewer calls than 1 caller: 95% interval 0.30 to 0.50)"),
            std::string::npos);
  c.limit = ConcurrencyLimit::gil;
  c.host_share = 0.818;
  c.runner_instances = 0;
  c.holds_gil = true;
  EXPECT_EQ(concurrency_lines(c, 0).back(), "limit: the GIL (its calls run Python under it; host-bound 81.8% of its wall time)");
  // A share within noise of 50%: 0.494 +- 1.96 * 0.004 = 48.6% to 50.2%.
  PathConcurrency near = c;
  near.limit = ConcurrencyLimit::unknown;
  near.host_share = 0.494;
  near.host_share_se = 0.004;
  near.host_share_within_noise = true;
  EXPECT_EQ(concurrency_lines(near, 0).back(),
            "limit: unknown: the GIL or not: host-bound 49.4% of its wall time (95% interval 48.6% to 50.2%), within "
            "noise of the 50% above which the GIL is named");
  // An unknown share where the cores could be the limit too (c's context: 2 callers x 1 thread on 2 cores).
  PathConcurrency missing = c;
  missing.limit = ConcurrencyLimit::unknown;
  missing.host_share.reset();
  missing.host_share_missing = true;
  EXPECT_EQ(concurrency_lines(missing, 0).back(),
            "limit: unknown: the GIL or the cores (2 callers x 1 intra-op thread on 2 cores): its host-bound share, "
            "which would tell them apart, is unknown (no split; its verdict unknown: on the CPU, --kernel-profile; or a "
            "range: device ops without a launch call)");
  missing.context.cuda = true;
  EXPECT_NE(concurrency_lines(missing, 0).back().find("limit: unknown: the GIL or the device: its host-bound share"),
            std::string::npos);
  // The limit read from the callers' schedstat (cores_had_room): 2 callers over rounds of 1 and 3 ms (8 ms of
  // callers' time) on a CPU 1.33 + 3.99 = 5.32 ms and waiting 0.03 + 0.05 = 0.08 ms: waiting 0.08 / 8 = 1.0%,
  // asleep 0.64 + 1.96 = 2.6 ms, 32.5%; each with residuals of ±0.01 ms over the rounds' 2 and 6 ms, so se =
  // sqrt(0.0002 / 2) / 4 = 0.25%, and the intervals reach 1.0 + 0.49 = 1.5% and 32.5 - 0.49 = 32.0%.
  PathConcurrency room = c;
  room.host_share.reset();
  room.cores_had_room = true;
  room.points[1].round_ns = {1'000'000, 3'000'000};
  room.points[1].on_cpu_ns = 5'320'000;
  room.points[1].waited_ns = 80'000;
  room.points[1].on_cpu_round_ns = {1'330'000, 3'990'000};
  room.points[1].waited_round_ns = {30'000, 50'000};
  EXPECT_EQ(concurrency_lines(room, 0).back(),
            "limit: the GIL (its calls run Python under it; its 2 callers took turns: asleep 32.5% of their time (95% "
            "interval from 32.0%), and waiting for a CPU 1.0% (95% interval to 1.5%), so not the cores)");
  // a report written before the round figures (rule 3 then read the values): the values, without interval ends
  PathConcurrency by_values = room;
  by_values.points[1].on_cpu_round_ns.clear();
  by_values.points[1].waited_round_ns.clear();
  EXPECT_EQ(concurrency_lines(by_values, 0).back(),
            "limit: the GIL (its calls run Python under it; its 2 callers took turns: asleep 32.5% of their time, and "
            "waiting for a CPU 1.0%, so not the cores)");
  room.limit = ConcurrencyLimit::unknown;  // a C++ path asleep 32.5%
  room.holds_gil = false;
  EXPECT_EQ(concurrency_lines(room, 0).back(),
            "limit: unknown: not the cores: its 2 callers waited for a CPU 1.0% of their time (95% interval to 1.5%) "
            "and were asleep 32.5% of it (95% interval from 32.0%), taking turns at something other than the GIL, which "
            "this path does not take");
  room.cores_had_room = false;  // the flag, not the figures, says which rule spoke
  EXPECT_EQ(concurrency_lines(room, 0).back(), "limit: unknown");
  // A gain within noise that could exceed a tenth: x1.30 (95% interval 0.85 to 1.75), and its limit unknown
  // before any share rule is read.
  PathConcurrency wide = near;
  wide.points[1].scaling = 1.3;
  wide.points[1].scaling_low = 0.85;
  wide.points[1].scaling_high = 1.75;
  wide.scaling_within_noise = true;
  const std::vector<std::string> wide_lines = concurrency_lines(wide, 0);
  EXPECT_NE(wide_lines[1].find("x1.30 of 1 caller (within noise: 95% interval 0.85 to 1.75)"), std::string::npos);
  EXPECT_EQ(wide_lines.back(),
            "limit: unknown: at 2 callers the gain is within noise, and its 95% interval reaches above x1.10 (to x1.75): "
            "whether more callers add calls is not known (a limit is named when it ends at x1.10 or below)");
  c.unavailable = "interrupted";
  EXPECT_EQ(concurrency_lines(c, 0), (std::vector<std::string>{"unavailable: interrupted"}));
  EXPECT_EQ(rate_text(950), "950");
  EXPECT_EQ(rate_text(1'234'567), "1.23M");
}

TEST(ColdStartLines, AHeaderThenOneLinePerCacheStateWithHowItStandsAgainstCold) {
  const auto sample = [](std::int64_t total, bool matches) {
    ColdStartSample s;
    s.total_ns = total;
    s.output_matches = matches;
    return s;
  };
  PathColdStart c;
  c.processes = 2;
  ColdStartState cold;
  cold.cache = CompileCache::cold;
  cold.samples = {sample(9'000'000'000, true), sample(11'000'000'000, true)};
  cold.median = ColdStartPhases{10e6, 1.5e9, 500e6, 7.9e9, 90e6, 10e9};
  cold.min_total_ns = 9e9;
  cold.max_total_ns = 11e9;
  ColdStartState warm = cold;
  warm.cache = CompileCache::warm;
  warm.samples = {sample(2'000'000'000, true), sample(3'000'000'000, false)};
  warm.median = ColdStartPhases{10e6, 1.5e9, 500e6, 400e6, 90e6, 2.5e9};
  warm.min_total_ns = 2e9;
  warm.max_total_ns = 3e9;
  warm.against_cold = ColdStartOrder::faster;
  warm.speedup_vs_cold = 4;
  ColdStartState artifacts;
  artifacts.cache = CompileCache::artifacts;
  artifacts.unavailable = "torch 2.5 has no torch.compiler.save_cache_artifacts";
  ColdStartState failed;
  failed.failed = "RuntimeError: out of memory";
  c.states = {cold, warm, artifacts, failed};
  const std::vector<std::string> lines = cold_start_lines(c);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], "2 fresh processes per state; each figure is its own median over them (the phases' need not add "
                      "up to the total's)");
  EXPECT_EQ(lines[1], "cold cache      " + format_duration(10e9) + " total; " + format_duration(10e6) + " process, " +
                          format_duration(1.5e9) + " import, " + format_duration(500e6) + " load, " +
                          format_duration(7.9e9) + " compile, " + format_duration(90e6) + " first call (range " +
                          format_duration(9e9) + " … " + format_duration(11e9) + ", n = 2); outputs match");
  EXPECT_NE(lines[2].find("; OUTPUTS DIFFER in 1 of 2; x4.00 faster than cold (every start below every cold one)"),
            std::string::npos) << lines[2];
  EXPECT_EQ(lines[3], "artifacts cache not measured: torch 2.5 has no torch.compiler.save_cache_artifacts");
  EXPECT_EQ(lines[4], "start           failed: RuntimeError: out of memory");
  // the processes' memory at their first result (docs/metrics.md, "Fresh-process memory"), where they read it
  cold.median->rss_bytes = 1.2e9;
  cold.median->peak_rss_bytes = 1.5e9;
  c.states = {cold};
  EXPECT_NE(cold_start_lines(c)[1].find("; outputs match; resident 1.20 GB at the first result, peak 1.50 GB"),
            std::string::npos) << cold_start_lines(c)[1];
  warm.against_cold = ColdStartOrder::overlapping;
  c.states = {warm};
  EXPECT_NE(cold_start_lines(c)[1].find("within noise of cold (x4.00; the ranges overlap)"), std::string::npos);
  EXPECT_STREQ(to_string(CompileCache::none), "none");
  EXPECT_STREQ(to_string(ColdStartOrder::slower), "slower");
  warm.against_cold = ColdStartOrder::too_few;
  c.states = {warm};
  EXPECT_NE(cold_start_lines(c)[1].find("x4.00 against cold, too few processes to tell (--cold-start=4 or more)"),
            std::string::npos);
  EXPECT_STREQ(to_string(ColdStartOrder::too_few), "too-few");
}

TEST(WhatIfLines, OneLinePerSettingWithItsIntervalOutputsAndCost) {
  WhatIfLedger ledger;
  ledger.base_measured = true;
  ledger.base_ready_ns = 2'000'000'000;
  ledger.base_fx_cache_hits = 0;
  ledger.base_fx_cache_misses = 1;
  WhatIfEntry guards;
  guards.setting = CompileSetting::skip_guards;
  guards.saved = Estimate{2000, 100};  // 95%: 1804 to 2196
  guards.significant = true;
  guards.outputs_match = true;
  WhatIfEntry modules;
  modules.setting = CompileSetting::skip_module_guards;
  modules.saved = Estimate{50, 100};  // 95%: -146 to 246: within noise
  modules.outputs_match = false;
  modules.max_abs_diff = 0.25;
  modules.ready_ns = 1'500'000'000;
  modules.fx_cache_hits = 1;
  modules.fx_cache_misses = 0;
  modules.extra_run_peak_bytes = 0;
  WhatIfEntry cpp;
  cpp.setting = CompileSetting::cpp_wrapper;
  cpp.saved = Estimate{-1000, 100};  // a cost of 1 us, 95%: 804 ns to 1196 ns
  cpp.significant = true;
  cpp.ready_ns = 9'000'000;
  cpp.fx_cache_hits = 0;
  cpp.fx_cache_misses = 1;
  cpp.extra_run_peak_bytes = 4096;  // in the JSON, not in the sentence: one reading each, no spread
  WhatIfEntry small;  // significant, but 150 ns is 0.375% of 40 us: below 1%
  small.setting = CompileSetting::autotune;
  small.saved = Estimate{-150, 50};  // 95%: -248 to -52
  small.significant = true;
  small.negligible = true;
  small.outputs_match = true;
  WhatIfEntry graphs;
  graphs.setting = CompileSetting::cuda_graphs;
  graphs.not_applicable = "CUDA graphs need a CUDA device";
  WhatIfEntry autotune;
  autotune.setting = CompileSetting::autotune;
  autotune.unavailable = "its build failed: boom";
  ledger.entries = {guards, modules, cpp, graphs, autotune, small};
  WhatIfAgain again;
  again.path = "compile:again";
  again.unavailable = "not built";
  WhatIfAgain again2 = again;
  again2.path = "compile:again-2";
  ledger.again = {again, again2};
  ledger.placement = PlacementBand{PlacementRule::prediction, 1, 0, 0, 0, 0, -400, 400, false};  // 1% of 40 us
  const std::vector<std::string> lines = what_if_lines(ledger, 40'000);
  ASSERT_EQ(lines.size(), 9u);
  EXPECT_EQ(lines[0], "skip-guards         saves 2.000 us per call (95% interval 1.804 us to 2.196 us; 5.0% of compile's "
                      "40.00 us); outputs match; no compile of its own");
  EXPECT_EQ(lines[1], "skip-module-guards  within noise: 50 ns per call (95% interval -146 ns to 246 ns contains zero); "
                      "OUTPUTS DIFFER (max abs diff 0.25); ready in 1.500 s, from Inductor's cache");
  EXPECT_EQ(lines[2], "cpp-wrapper         costs 1.000 us more per call (95% interval 804 ns to 1.196 us; 2.5% of "
                      "compile's 40.00 us); outputs not checked; ready in 9.000 ms, compiled");
  EXPECT_EQ(lines[3], "cuda-graphs         not applicable: CUDA graphs need a CUDA device");
  EXPECT_EQ(lines[4], "autotune            not measured: its build failed: boom");
  EXPECT_EQ(lines[5], "autotune            negligible: -150 ns per call (95% interval -248 ns to -52 ns; -0.4% of "
                      "compile's 40.00 us; below 1%, what a repeated run moves); outputs match");
  EXPECT_EQ(lines[6], "built again         not measured: not built");
  EXPECT_EQ(lines[7], "built again-2       not measured: not built");
  EXPECT_EQ(lines[8], "placement           a setting compiled on its own is named only outside -400 ns to 400 ns per call "
                      "(as saved: positive is faster; 1% of compile's median); no rebuild of compile was measured to "
                      "tell where a further build lands");
  // The rebuilds moved 600 ns (95%: 580.4 to 619.6 ns) and -200 ns: medians 40000, 39400, 40200, spread 416.33,
  // centre 133.33, half width 4.303 * 416.33 * sqrt(4/3) = 2068.6: the band -1935.3 to 2201.9 ns, and a
  // negligible line says so.
  WhatIfLedger aa = ledger;
  aa.again[0].unavailable.clear();
  aa.again[0].moved = Estimate{600, 10};
  aa.again[0].significant = true;
  aa.again[1].unavailable.clear();
  aa.again[1].moved = Estimate{-200, 150};  // 95%: -494 to 94: within noise
  aa.placement = PlacementBand{PlacementRule::prediction, 3, 416.33, 4.303, 133.33, 2068.6, 133.33 - 2068.6, 133.33 + 2068.6, true};
  aa.entries = {small};
  const std::vector<std::string> moved = what_if_lines(aa, 40'000);
  ASSERT_EQ(moved.size(), 4u);
  EXPECT_EQ(moved[0], "autotune       negligible: -150 ns per call (95% interval -248 ns to -52 ns; -0.4% of compile's "
                      "40.00 us; inside -1.935 us to 2.202 us, where a further build of compile lands 95% of the time); "
                      "outputs match");
  EXPECT_EQ(moved[1], "built again    moved 600 ns per call (95% interval 580 ns to 620 ns; 1.5% of compile's 40.00 us): "
                      "the same settings, placement alone");
  EXPECT_EQ(moved[2], "built again-2  within noise: -200 ns per call (95% interval -494 ns to 94 ns contains zero)");
  EXPECT_EQ(moved[3], "placement      a setting compiled on its own is named only outside -1.935 us to 2.202 us per call "
                      "(as saved: positive is faster): where a further build of compile lands 95% of the time, by its 3 "
                      "builds here (their medians' spread 416 ns: placement and this run's noise; Student's prediction "
                      "interval, t = 4.303)");
  // One edge widened to the share (1000 ns, past the rebuilds' high edge, -233.33 + 1004.03 = 770.70).
  aa.placement = PlacementBand{PlacementRule::prediction, 3, 202.07, 4.303, -233.33, 1004.03, -233.33 - 1004.03, 1000, true};
  EXPECT_EQ(what_if_placement_text(aa),
            "a setting compiled on its own is named only outside -1.237 us to 1.000 us per call (as saved: positive is "
            "faster): where a further build of compile lands 95% of the time, by its 3 builds here (their medians' "
            "spread 202 ns: placement and this run's noise; Student's prediction interval, t = 4.303), widened to 1% "
            "of compile's median on the high side");
  // A negligible saving on the widened side is inside because of the share, and says so; one the rebuilds' own
  // interval holds says theirs (base median 100 us: 1% is the 1000 ns edge).
  WhatIfEntry wide = small;
  wide.saved = Estimate{900, 20};
  EXPECT_NE(what_if_entry_text(wide, aa, 100'000).find("; below 1%, what a repeated run moves)"), std::string::npos)
      << what_if_entry_text(wide, aa, 100'000);
  wide.saved = Estimate{-900, 20};
  EXPECT_NE(what_if_entry_text(wide, aa, 100'000).find("; inside -1.237 us to 1.000 us, where a further build of compile"),
            std::string::npos)
      << what_if_entry_text(wide, aa, 100'000);
  // Both edges the share's.
  aa.placement = PlacementBand{PlacementRule::prediction, 3, 40.41, 4.303, -6.67, 200.81, -400, 400, false};
  EXPECT_EQ(what_if_placement_text(aa),
            "a setting compiled on its own is named only outside -400 ns to 400 ns per call (as saved: positive is "
            "faster; 1% of compile's median), which covers where a further build of compile lands 95% of the time, by "
            "its 3 builds here (their medians' spread 40 ns: placement and this run's noise; Student's prediction "
            "interval, t = 4.303)");
  aa.placement = PlacementBand{};  // the base has no samples
  EXPECT_EQ(what_if_placement_text(aa), "unknown: compile has no measured iterations");
  aa.placement = PlacementBand{};
  aa.placement.rule = PlacementRule::absent;
  EXPECT_EQ(what_if_placement_text(aa), "not in this report (its ohprof predates the A/A check)");
  // A guard setting that saves more than all of the base's guard evaluation takes.
  ledger.base_cache_lookup_ns = 1500;
  ledger.entries = {guards};
  ledger.entries[0].beyond_guards = true;
  EXPECT_EQ(what_if_lines(ledger, 40'000)[0],
            "skip-guards    saves 2.000 us per call (95% interval 1.804 us to 2.196 us; 5.0% of compile's 40.00 "
            "us), more than all of compile's guard evaluation takes (its \"TorchDynamo Cache Lookup\" range, 1.500 us "
            "in the split pass), so not all of it is guard evaluation; outputs match; no compile of its own");
}

TEST(FxCacheText, HitsMissesOrBoth) {
  EXPECT_EQ(fx_cache_text(1, 0), "compiled from Inductor's FX-graph cache (1 hit)");
  EXPECT_EQ(fx_cache_text(0, 2), "Inductor generated its code (2 FX-graph cache misses)");
  EXPECT_EQ(fx_cache_text(2, 1), "Inductor's FX-graph cache: 2 hits, 1 miss");
  EXPECT_EQ(fx_cache_text(0, 0), "");
  EXPECT_EQ(fx_cache_text(std::nullopt, 1), "");
}

TEST(DeploymentText, TheChoiceOrWhatItDependsOnWithTheNumbersThatDecidedIt) {
  DeploymentSummary s;
  DeploymentRow aoti;
  aoti.path = "aoti";
  aoti.latency_ns = 6330;
  aoti.threads = 2;
  aoti.calls_per_s = 240'000;
  aoti.cold_start_ns = 1.28e9;
  aoti.host_share = 0.892;
  aoti.build_retained_bytes = 2'500'000;
  DeploymentRow aoti_python = aoti;
  aoti_python.path = "aoti:python";
  aoti_python.latency_ns = 6400;
  DeploymentRow compile;
  compile.path = "compile";
  compile.latency_ns = 37'190;
  compile.threads = 2;
  compile.calls_per_s = 26'000;
  compile.cold_start_ns = 14.7e9;
  s.rows = {aoti, aoti_python, compile};
  s.candidates = 3;
  const auto leaders = [](DeployCriterion c, std::vector<std::string> paths, std::string next) {
    CriterionLeaders l;
    l.criterion = c;
    l.leaders = std::move(paths);
    l.next = std::move(next);
    return l;
  };
  s.criteria = {leaders(DeployCriterion::latency, {"aoti", "aoti:python"}, "compile"),
                leaders(DeployCriterion::throughput, {"aoti"}, "compile")};
  s.criteria[1].without = {"aoti:python"};  // its callers were not measured
  s.choice = {"aoti"};
  EXPECT_EQ(deployment_text(s),
            "deploy aoti: it leads every criterion measured: per-call latency: aoti 6.330 us and aoti:python 6.400 us, "
            "the others within noise of the first (next compile 37.19 us); throughput: aoti 240k calls/s at 2 callers (next compile "
            "26k calls/s at 2 callers; no figure: aoti:python); not measured: start-up and fresh peak (--cold-start)");
  // compile starts faster than aoti here (made up): the leaders differ, so the choice depends.
  s.rows[2].cold_start_ns = 1.0e9;
  s.criteria.push_back(leaders(DeployCriterion::cold_start, {"compile", "aoti"}, ""));
  s.criteria.back().too_few = true;
  s.choice.clear();
  s.left_out = {"compile:cpp-wrapper"};
  EXPECT_EQ(deployment_text(s),
            "the choice depends on what you value: per-call latency: aoti 6.330 us and aoti:python 6.400 us, the others "
            "within noise of the first (next compile 37.19 us); throughput: aoti 240k calls/s at 2 callers (next compile 26k calls/s "
            "at 2 callers; no figure: aoti:python); cold start: compile 1.000 s and aoti 1.280 s, not told apart (too few "
            "processes: --cold-start=4 or more); not measured: fresh peak (no fresh process read its memory); left out, their "
            "outputs differ: compile:cpp-wrapper");
  // A path that ran uncompiled code is left out with its own reason.
  DeploymentRow uncompiled;
  uncompiled.path = "compile:max-autotune-no-cudagraphs";
  uncompiled.ran_uncompiled = true;
  s.rows.push_back(uncompiled);
  s.left_out.push_back(uncompiled.path);
  const std::string tail = "; left out, their outputs differ: compile:cpp-wrapper; left out, as it ran uncompiled "
                           "code (execution check): compile:max-autotune-no-cudagraphs";
  EXPECT_EQ(deployment_text(s).substr(deployment_text(s).size() - tail.size()), tail);
  s.rows.pop_back();
  s.left_out.pop_back();
  // The fresh peak reads as a size, its tied leaders as the starts' (made up: aoti 542 MB, compile 809 MB).
  s.rows[0].fresh_peak_bytes = 542'075'000;
  s.rows[2].fresh_peak_bytes = 808'950'000;
  s.criteria.push_back(leaders(DeployCriterion::fresh_peak, {"aoti"}, "compile"));
  s.criteria.back().without = {"aoti:python"};
  const std::string peak = "; fresh peak: aoti 542 MB (next compile 809 MB; no figure: aoti:python); left out";
  EXPECT_NE(deployment_text(s).find(peak), std::string::npos) << deployment_text(s);
  s.criteria.back().leaders = {"aoti", "compile"};
  s.criteria.back().next.clear();
  s.criteria.back().without.clear();
  EXPECT_NE(deployment_text(s).find("; fresh peak: aoti 542 MB and compile 809 MB, not told apart (the ranges overlap); left out"),
            std::string::npos) << deployment_text(s);
  // apart by the rank rule but within the floor; too few readings (made up together: each reason is named)
  s.criteria.back().negligible = true;
  EXPECT_NE(deployment_text(s).find(", not told apart (within 1% of the first); left out"), std::string::npos) << deployment_text(s);
  s.criteria.back().too_few = true;
  s.criteria.back().next = "eager";
  EXPECT_NE(deployment_text(s).find(", not told apart (too few processes with a reading: --cold-start=4 or more; within 1% "
                                    "of the first; next eager); left out"),
            std::string::npos) << deployment_text(s);
  s.criteria.pop_back();
  // the starts measured but no process read its memory: said, not dropped
  EXPECT_NE(deployment_text(s).find("; not measured: fresh peak (no fresh process read its memory)"), std::string::npos)
      << deployment_text(s);
  s.rows[0].fresh_peak_bytes.reset();
  s.rows[2].fresh_peak_bytes.reset();
  s.not_measured = {"aoti:python"};  // (made up: it is also a row above)
  EXPECT_EQ(deployment_text(s).substr(deployment_text(s).size() - 106),
            "outputs differ: compile:cpp-wrapper; not weighed, as torch.export could not capture the model: aoti:python");
  s.not_measured_cause = NotMeasuredCause::no_package;  // the program exported, but no package built (a compiler)
  EXPECT_EQ(deployment_text(s).substr(deployment_text(s).size() - 101),
            "outputs differ: compile:cpp-wrapper; not weighed, as no AOTI package could be built here: aoti:python");
  s.not_measured.clear();
  s.choice = {"aoti", "aoti:python"};
  EXPECT_EQ(deployment_text(s).substr(0, 86),
            "deploy aoti or aoti:python: each leads every criterion measured (the best, or within n");
  s.candidates = 1;
  EXPECT_EQ(deployment_text(s).substr(0, 55), "one path weighed, nothing to choose between: per-call l");
  EXPECT_EQ(deployment_text(DeploymentSummary{}), "unknown: no path asked for has measured samples");
  EXPECT_EQ(deployment_header(s), (std::vector<std::string>{"latency", "calls/s at 2", "cold start", "warm start",
                                                            "build memory", "calls peak", "host share"}));
  EXPECT_EQ(deployment_cells(s, aoti), (std::vector<std::string>{"6.330 us", "240k", "1.280 s", "-", "+2.50 MB", "-", "89.2%"}));
  DeploymentRow bound = aoti;  // its kernels do not all record themselves: the share is an upper bound
  bound.host_share_at_most = true;
  EXPECT_EQ(deployment_cells(s, bound).back(), "≤89.2%");
  // On a CUDA device: the device memory column, and the graph pool's where a path replays graphs.
  s.rows[0].device_build_bytes = 44'700'000;
  EXPECT_EQ(deployment_header(s), (std::vector<std::string>{"latency", "calls/s at 2", "cold start", "warm start", "build memory",
                                                            "calls peak", "device memory", "host share"}));
  EXPECT_EQ(deployment_cells(s, s.rows[2]).at(6), "-");
  s.rows[2].graph_pool_bytes = 2'097'152;
  EXPECT_EQ(deployment_header(s).at(7), "graph pool");
  EXPECT_EQ(deployment_cells(s, s.rows[0]),
            (std::vector<std::string>{"6.330 us", "240k", "1.280 s", "-", "+2.50 MB", "-", "+44.7 MB", "-", "89.2%"}));
  EXPECT_EQ(deployment_cells(s, s.rows[2]).at(7), "2.10 MB");
  // --cold-start read the fresh processes' memory: their median peak, after the in-process figures
  s.rows[0].fresh_peak_bytes = 861'400'000.4;
  EXPECT_EQ(deployment_header(s).at(6), "fresh peak");
  EXPECT_EQ(deployment_cells(s, s.rows[0]).at(6), "861 MB");
  EXPECT_EQ(deployment_cells(s, s.rows[2]).at(6), "-");
  // the memory columns say what they are: the fresh peak's part only where a row has one
  EXPECT_EQ(deployment_memory_note(s),
            "build memory and calls peak: growth of the measuring process's resident set, the paths built in turn in "
            "that process (a path pays for the modules it was the first to load); device memory and graph pool: the "
            "CUDA caching allocator's, in the measuring process too; fresh peak: the resident set's high-water mark of "
            "a fresh process of that path alone");
  s.rows[0].fresh_peak_bytes.reset();
  EXPECT_EQ(deployment_memory_note(s).find("fresh peak"), std::string::npos);
  // this summary has CUDA's device columns: the note names them, before the fresh peak's part
  EXPECT_NE(deployment_memory_note(s).find("; device memory and graph pool: the CUDA caching allocator's, in the "
                                           "measuring process too"),
            std::string::npos) << deployment_memory_note(s);
}

}  // namespace
}  // namespace ohprof

namespace ohprof {
namespace {
// One sign for every printed bound: the path table's shares, the sweep's host / busy, the deployment summary's
// host share and the diff's split figures all write it through with_bound.
TEST(WithBound, TheSignOfEachBoundAndTheRuleForUnrecordedKernels) {
  EXPECT_EQ(with_bound(Bound::at_least, "12.5%"), "≥12.5%");
  EXPECT_EQ(with_bound(Bound::at_most, "4.216 us"), "≤4.216 us");
  EXPECT_EQ(with_bound(Bound::exact, "671 ns"), "671 ns");
  // kernels that do not record themselves count as host time: busy at least, host-bound at most
  EXPECT_EQ(busy_bound(true), Bound::at_least);
  EXPECT_EQ(host_time_bound(true), Bound::at_most);
  EXPECT_EQ(busy_bound(false), Bound::exact);
  EXPECT_EQ(host_time_bound(false), Bound::exact);
  EXPECT_STREQ(to_string(Bound::at_least), "at-least");
}
}  // namespace
}  // namespace ohprof
