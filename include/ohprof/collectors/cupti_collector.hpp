#pragma once
// The CUPTI activity collector: the only part of ohprof that talks to CUPTI. It records what the GPU ran
// during a measurement and turns CUPTI's records into the plain structs of timeline.hpp. Its pieces, each
// tested on its own: the buffers handed to CUPTI (cupti_buffers.hpp), reading CUPTI's records
// (cupti_records.hpp; src/collectors/cupti_records.cpp and this collector's src/collectors/cupti_collector.cpp are
// the only files that include cupti.h), the join into a Timeline (cupti_join.hpp), and the collector's
// life cycle here. Definitions: docs/cupti.md.
//
// Use (one path, one collector; at most one collector alive per process):
//   auto collector = CuptiCollector::create({.device_present = true});
//   if (!collector.ok()) -> GPU split unavailable, reason = collector.error().message
//   run_measurement_loop(config, fn, {&nvtx, collector->get()}, loop);   // it is an IterationObserver
//   <synchronise the device (cudaDeviceSynchronize)>
//   auto collection = (*collector)->finish(loop.iterations);            // Timeline or why not
//
// Each iteration is tagged with a CUPTI external correlation id (kind CUSTOM2; PyTorch's profiler uses
// CUSTOM0/1), so every kernel, copy and fill is attributed to its iteration through its launch call,
// whichever API launched it (runtime, driver or a CUDA graph launch); sync and other API calls carry
// the tag themselves. Warm-up iterations are tagged too and their records are left out of the Timeline.
// The last sync call of each measured iteration is the harness's own (run_once() ends with
// cudaDeviceSynchronize inside the tag): it is marked SyncCall::harness.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/error.hpp"
#include "ohprof/collectors/cupti_join.hpp"
#include "ohprof/harness/measurement_loop.hpp"
#include "ohprof/model/timeline.hpp"
#include "ohprof/model/warning.hpp"

namespace ohprof {

struct CuptiOptions {
  // Whether the caller found a CUDA device (cudaGetDeviceCount > 0). The collector never calls the
  // CUDA runtime itself; without a device it reports "no CUDA device" and touches nothing.
  bool device_present = false;
  // Size of each activity buffer handed to CUPTI (rounded up to 8 bytes, at least 64 KiB).
  std::size_t buffer_bytes = std::size_t{8} << 20;
  // Buffers allocated and zeroed by create(), before the run: CUPTI is told its buffers come zeroed, so
  // it does not zero them itself on the thread that fills them. A run that needs more gets them zeroed
  // on demand (a stall inside an iteration), counted in CuptiCollection::buffers_zeroed_in_run.
  std::size_t prepared_buffers = 4;
};

class CuptiCollector final : public IterationObserver {
 public:
  // Claims CUPTI for this process and enables activity recording. Errors (ExitCode::device_unavailable),
  // whose message is the reason the GPU split is unavailable:
  //   "no CUDA device"
  //   "built without CUPTI (OHPROF_WITH_CUPTI=OFF)"
  //   "another tool holds CUPTI (<holder>); ..." when CUPTI reports a second subscriber
  //   "tracing unavailable: <CUPTI's result string>" for any other CUPTI error.
  static Result<std::unique_ptr<CuptiCollector>> create(const CuptiOptions& options);

  ~CuptiCollector() override;  // disables activity, forces a flush, frees buffers, releases CUPTI
  CuptiCollector(const CuptiCollector&) = delete;
  CuptiCollector& operator=(const CuptiCollector&) = delete;

  // IterationObserver: push / pop the iteration's external correlation id.
  void on_iteration_begin(std::int64_t index, bool warmup) override;
  void on_iteration_end(std::int64_t index, bool warmup) override;

  // Call once, after the loop and after the caller synchronised the device. Flushes CUPTI, stops
  // recording, parses every buffer and joins the records. `iterations` (the loop's measured windows)
  // are copied into Timeline::iterations. An error means the data cannot be trusted ("tracing
  // unavailable: ..."), e.g. a push/pop failed during the loop.
  Result<CuptiCollection> finish(const std::vector<IterationWindow>& iterations);

 private:
  struct State;  // defined in src/collectors/cupti_collector.cpp
  explicit CuptiCollector(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
};

// CUPTI's version for the report context: the library's API version as cuptiGetVersion reports it
// (e.g. "130001"), or "none" when built without CUPTI or when CUPTI cannot be loaded.
std::string cupti_version_text();
// The file of the libcupti this process loaded (dladdr of its cuptiGetVersion), for the report context:
// the wheel's and the toolkit's can differ (docs/cupti.md, "Which libcupti"); "none" without CUPTI.
std::string cupti_library_path();

// True when this build contains the CUPTI collector (OHPROF_WITH_CUPTI=ON).
bool cupti_built_in();

// CUPTI API versions (cuptiGetVersion; from CUDA 13 they read 13yyzz: toolkit 13.yy, CUPTI update zz)
// whose fixes the collector relies on (docs/cupti.md, "CUPTI versions").
// 13.0 Update 1: SYNCHRONIZATION records for cudaDeviceSynchronize and cuCtxSynchronize, no deadlock in
// cuptiActivityDisable(CONCURRENT_KERNEL), no crash in cuptiActivityFlushAll.
inline constexpr std::uint32_t kCuptiSyncRecordsFixed = 130001;
// 13.1 Update 1: correct correlation ids for cudaGraphLaunch and its kernels in every tracing session
// of a process after the first.
inline constexpr std::uint32_t kCuptiGraphCorrelationFixed = 130101;

// The warning a collection made with CUPTI `version` carries (cupti-version-old), or none.
std::optional<Warning> cupti_version_warning(std::uint32_t version);
// Whether a collection is refused: on a CUPTI before kCuptiGraphCorrelationFixed, a session after the
// process's first (`session` counts from 1) that launched CUDA graphs (`graph_launches` launch calls of
// kind graph, counted once per correlation id; `graph_ops` device ops with a graph id) has wrong
// correlation ids for that work, which may then be attributed to any iteration of any path traced in
// the session: the whole collection is refused. The error (device_unavailable) is the reason each of its
// paths' split is unavailable, and says what to do.
std::optional<Error> graph_correlation_refusal(std::uint32_t version, std::uint64_t session,
                                               std::uint64_t graph_launches, std::uint64_t graph_ops);

}  // namespace ohprof
