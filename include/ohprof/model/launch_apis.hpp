#pragma once
// The CUDA runtime and driver calls that put work on a device, one table for both readers of them: the
// live CUPTI collector classifies its API records by callback id (each X(name, kind) names an enumerator
// CUPTI_RUNTIME_TRACE_CBID_<name> / CUPTI_DRIVER_TRACE_CBID_<name>, so the compiler checks every entry
// against the toolkit's headers: src/collectors/cupti_collector.cpp), and the trace reader classifies a
// profiler trace's calls by name (src/trace/kineto_events.cpp, launch_kind_of_api, which adds ROCm's and
// Intel's names). test/trace/kineto_reader_test.cpp checks that the two agree on every entry.
// Synchronisations are not here: CUPTI reports them as records of their own.
#include <array>
#include <span>
#include <string_view>

#include "ohprof/model/timeline.hpp"

// X(name, kind): `name` as CUPTI's callback enumerators spell it (runtime names carry the version they
// appeared in, "_v7000"; per-thread default-stream variants end in _ptsz / _ptds), `kind` a LaunchKind.
#define OHPROF_CUDA_RUNTIME_LAUNCH_APIS(X) \
  X(cudaLaunch_v3020, kernel) X(cudaLaunch_ptsz_v7000, kernel) X(cudaLaunchKernel_v7000, kernel) \
  X(cudaLaunchKernel_ptsz_v7000, kernel) X(cudaLaunchCooperativeKernel_v9000, kernel) \
  X(cudaLaunchCooperativeKernel_ptsz_v9000, kernel) X(cudaLaunchCooperativeKernelMultiDevice_v9000, kernel) \
  X(cudaLaunchKernelExC_v11060, kernel) X(cudaLaunchKernelExC_ptsz_v11060, kernel) \
  X(__cudaLaunchKernel_v13000, kernel) X(__cudaLaunchKernel_ptsz_v13000, kernel) \
  X(cudaGraphLaunch_v10000, graph) X(cudaGraphLaunch_ptsz_v10000, graph) X(cudaMemcpy_v3020, memcpy) \
  X(cudaMemcpy2D_v3020, memcpy) X(cudaMemcpyToArray_v3020, memcpy) X(cudaMemcpy2DToArray_v3020, memcpy) \
  X(cudaMemcpyFromArray_v3020, memcpy) X(cudaMemcpy2DFromArray_v3020, memcpy) \
  X(cudaMemcpyArrayToArray_v3020, memcpy) X(cudaMemcpy2DArrayToArray_v3020, memcpy) \
  X(cudaMemcpyToSymbol_v3020, memcpy) X(cudaMemcpyFromSymbol_v3020, memcpy) X(cudaMemcpyAsync_v3020, memcpy) \
  X(cudaMemcpyToArrayAsync_v3020, memcpy) X(cudaMemcpyFromArrayAsync_v3020, memcpy) \
  X(cudaMemcpy2DAsync_v3020, memcpy) X(cudaMemcpy2DToArrayAsync_v3020, memcpy) \
  X(cudaMemcpy2DFromArrayAsync_v3020, memcpy) X(cudaMemcpyToSymbolAsync_v3020, memcpy) \
  X(cudaMemcpyFromSymbolAsync_v3020, memcpy) X(cudaMemcpy3D_v3020, memcpy) X(cudaMemcpy3DAsync_v3020, memcpy) \
  X(cudaMemcpyPeer_v4000, memcpy) X(cudaMemcpyPeerAsync_v4000, memcpy) X(cudaMemcpy3DPeer_v4000, memcpy) \
  X(cudaMemcpy3DPeerAsync_v4000, memcpy) X(cudaMemcpy_ptds_v7000, memcpy) X(cudaMemcpy2D_ptds_v7000, memcpy) \
  X(cudaMemcpyToArray_ptds_v7000, memcpy) X(cudaMemcpy2DToArray_ptds_v7000, memcpy) \
  X(cudaMemcpyFromArray_ptds_v7000, memcpy) X(cudaMemcpy2DFromArray_ptds_v7000, memcpy) \
  X(cudaMemcpyArrayToArray_ptds_v7000, memcpy) X(cudaMemcpy2DArrayToArray_ptds_v7000, memcpy) \
  X(cudaMemcpyToSymbol_ptds_v7000, memcpy) X(cudaMemcpyFromSymbol_ptds_v7000, memcpy) \
  X(cudaMemcpyAsync_ptsz_v7000, memcpy) X(cudaMemcpyToArrayAsync_ptsz_v7000, memcpy) \
  X(cudaMemcpyFromArrayAsync_ptsz_v7000, memcpy) X(cudaMemcpy2DAsync_ptsz_v7000, memcpy) \
  X(cudaMemcpy2DToArrayAsync_ptsz_v7000, memcpy) X(cudaMemcpy2DFromArrayAsync_ptsz_v7000, memcpy) \
  X(cudaMemcpyToSymbolAsync_ptsz_v7000, memcpy) X(cudaMemcpyFromSymbolAsync_ptsz_v7000, memcpy) \
  X(cudaMemcpy3D_ptds_v7000, memcpy) X(cudaMemcpy3DAsync_ptsz_v7000, memcpy) \
  X(cudaMemcpy3DPeer_ptds_v7000, memcpy) X(cudaMemcpy3DPeerAsync_ptsz_v7000, memcpy) \
  X(cudaMemcpyBatchAsync_v12080, memcpy) X(cudaMemcpyBatchAsync_ptsz_v12080, memcpy) \
  X(cudaMemcpy3DBatchAsync_v12080, memcpy) X(cudaMemcpy3DBatchAsync_ptsz_v12080, memcpy) \
  X(cudaMemcpyBatchAsync_v13000, memcpy) X(cudaMemcpyBatchAsync_ptsz_v13000, memcpy) \
  X(cudaMemcpy3DBatchAsync_v13000, memcpy) X(cudaMemcpy3DBatchAsync_ptsz_v13000, memcpy) \
  X(cudaMemset_v3020, memset) X(cudaMemset2D_v3020, memset) X(cudaMemsetAsync_v3020, memset) \
  X(cudaMemset2DAsync_v3020, memset) X(cudaMemset3D_v3020, memset) X(cudaMemset3DAsync_v3020, memset) \
  X(cudaMemset_ptds_v7000, memset) X(cudaMemset2D_ptds_v7000, memset) X(cudaMemsetAsync_ptsz_v7000, memset) \
  X(cudaMemset2DAsync_ptsz_v7000, memset) X(cudaMemset3D_ptds_v7000, memset) \
  X(cudaMemset3DAsync_ptsz_v7000, memset)

#define OHPROF_CUDA_DRIVER_LAUNCH_APIS(X) \
  X(cuLaunch, kernel) X(cuLaunchGrid, kernel) X(cuLaunchGridAsync, kernel) X(cuLaunchKernel, kernel) \
  X(cuLaunchKernel_ptsz, kernel) X(cuLaunchKernelEx, kernel) X(cuLaunchKernelEx_ptsz, kernel) \
  X(cuLaunchCooperativeKernel, kernel) X(cuLaunchCooperativeKernel_ptsz, kernel) \
  X(cuLaunchCooperativeKernelMultiDevice, kernel) X(cuGraphLaunch, graph) X(cuGraphLaunch_ptsz, graph) \
  X(cuMemcpyHtoD, memcpy) X(cuMemcpyDtoH, memcpy) X(cuMemcpyDtoD, memcpy) X(cuMemcpyDtoA, memcpy) \
  X(cuMemcpyAtoD, memcpy) X(cuMemcpyHtoA, memcpy) X(cuMemcpyAtoH, memcpy) X(cuMemcpyAtoA, memcpy) \
  X(cuMemcpy2D, memcpy) X(cuMemcpy2DUnaligned, memcpy) X(cuMemcpy3D, memcpy) X(cuMemcpyHtoDAsync, memcpy) \
  X(cuMemcpyDtoHAsync, memcpy) X(cuMemcpyDtoDAsync, memcpy) X(cuMemcpyHtoAAsync, memcpy) \
  X(cuMemcpyAtoHAsync, memcpy) X(cuMemcpy2DAsync, memcpy) X(cuMemcpy3DAsync, memcpy) X(cuMemcpy_v2, memcpy) \
  X(cuMemcpyHtoD_v2, memcpy) X(cuMemcpyHtoDAsync_v2, memcpy) X(cuMemcpyDtoH_v2, memcpy) \
  X(cuMemcpyDtoHAsync_v2, memcpy) X(cuMemcpyDtoD_v2, memcpy) X(cuMemcpyDtoDAsync_v2, memcpy) \
  X(cuMemcpyAtoH_v2, memcpy) X(cuMemcpyAtoHAsync_v2, memcpy) X(cuMemcpyAtoD_v2, memcpy) \
  X(cuMemcpyDtoA_v2, memcpy) X(cuMemcpyAtoA_v2, memcpy) X(cuMemcpy2D_v2, memcpy) \
  X(cuMemcpy2DUnaligned_v2, memcpy) X(cuMemcpy2DAsync_v2, memcpy) X(cuMemcpy3D_v2, memcpy) \
  X(cuMemcpy3DAsync_v2, memcpy) X(cuMemcpyHtoA_v2, memcpy) X(cuMemcpyHtoAAsync_v2, memcpy) \
  X(cuMemcpy, memcpy) X(cuMemcpyAsync, memcpy) X(cuMemcpyPeer, memcpy) X(cuMemcpyPeerAsync, memcpy) \
  X(cuMemcpy3DPeer, memcpy) X(cuMemcpy3DPeerAsync, memcpy) X(cuMemcpyHtoD_v2_ptds, memcpy) \
  X(cuMemcpyDtoH_v2_ptds, memcpy) X(cuMemcpyDtoD_v2_ptds, memcpy) X(cuMemcpyDtoA_v2_ptds, memcpy) \
  X(cuMemcpyAtoD_v2_ptds, memcpy) X(cuMemcpyHtoA_v2_ptds, memcpy) X(cuMemcpyAtoH_v2_ptds, memcpy) \
  X(cuMemcpyAtoA_v2_ptds, memcpy) X(cuMemcpy2D_v2_ptds, memcpy) X(cuMemcpy2DUnaligned_v2_ptds, memcpy) \
  X(cuMemcpy3D_v2_ptds, memcpy) X(cuMemcpy_ptds, memcpy) X(cuMemcpyPeer_ptds, memcpy) \
  X(cuMemcpy3DPeer_ptds, memcpy) X(cuMemcpyAsync_ptsz, memcpy) X(cuMemcpyHtoAAsync_v2_ptsz, memcpy) \
  X(cuMemcpyAtoHAsync_v2_ptsz, memcpy) X(cuMemcpyHtoDAsync_v2_ptsz, memcpy) \
  X(cuMemcpyDtoHAsync_v2_ptsz, memcpy) X(cuMemcpyDtoDAsync_v2_ptsz, memcpy) \
  X(cuMemcpy2DAsync_v2_ptsz, memcpy) X(cuMemcpy3DAsync_v2_ptsz, memcpy) X(cuMemcpyPeerAsync_ptsz, memcpy) \
  X(cuMemcpy3DPeerAsync_ptsz, memcpy) X(cuMemcpyBatchAsync, memcpy) X(cuMemcpyBatchAsync_ptsz, memcpy) \
  X(cuMemcpy3DBatchAsync, memcpy) X(cuMemcpy3DBatchAsync_ptsz, memcpy) X(cuMemcpyBatchAsync_v2, memcpy) \
  X(cuMemcpyBatchAsync_v2_ptsz, memcpy) X(cuMemcpy3DBatchAsync_v2, memcpy) \
  X(cuMemcpy3DBatchAsync_v2_ptsz, memcpy) X(cuMemsetD8, memset) X(cuMemsetD16, memset) X(cuMemsetD32, memset) \
  X(cuMemsetD2D8, memset) X(cuMemsetD2D16, memset) X(cuMemsetD2D32, memset) X(cuMemsetD8Async, memset) \
  X(cuMemsetD16Async, memset) X(cuMemsetD32Async, memset) X(cuMemsetD2D8Async, memset) \
  X(cuMemsetD2D16Async, memset) X(cuMemsetD2D32Async, memset) X(cuMemsetD8_v2, memset) \
  X(cuMemsetD16_v2, memset) X(cuMemsetD32_v2, memset) X(cuMemsetD2D8_v2, memset) X(cuMemsetD2D16_v2, memset) \
  X(cuMemsetD2D32_v2, memset) X(cuMemsetD8_v2_ptds, memset) X(cuMemsetD16_v2_ptds, memset) \
  X(cuMemsetD32_v2_ptds, memset) X(cuMemsetD2D8_v2_ptds, memset) X(cuMemsetD2D16_v2_ptds, memset) \
  X(cuMemsetD2D32_v2_ptds, memset) X(cuMemsetD8Async_ptsz, memset) X(cuMemsetD16Async_ptsz, memset) \
  X(cuMemsetD32Async_ptsz, memset) X(cuMemsetD2D8Async_ptsz, memset) X(cuMemsetD2D16Async_ptsz, memset) \
  X(cuMemsetD2D32Async_ptsz, memset)

namespace ohprof {

struct LaunchApi {
  std::string_view name;  // as in the tables above
  LaunchKind kind;
};

#define OHPROF_LAUNCH_API_ENTRY(name, kind) LaunchApi{#name, LaunchKind::kind},
inline constexpr LaunchApi kCudaRuntimeLaunchApis[] = {OHPROF_CUDA_RUNTIME_LAUNCH_APIS(OHPROF_LAUNCH_API_ENTRY)};
inline constexpr LaunchApi kCudaDriverLaunchApis[] = {OHPROF_CUDA_DRIVER_LAUNCH_APIS(OHPROF_LAUNCH_API_ENTRY)};
#undef OHPROF_LAUNCH_API_ENTRY

// Both tables, runtime first.
inline constexpr std::array<std::span<const LaunchApi>, 2> kCudaLaunchApiTables{
    std::span<const LaunchApi>(kCudaRuntimeLaunchApis), std::span<const LaunchApi>(kCudaDriverLaunchApis)};

}  // namespace ohprof
