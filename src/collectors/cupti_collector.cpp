// The CUPTI activity collector's life cycle: claiming CUPTI, enabling the activity kinds, tagging the
// iterations, and at the end flushing, reading the buffers (cupti_records.cpp) and joining the records
// (cupti_join.cpp). With cupti_records.cpp, the only file of ohprof that includes cupti.h. What is
// collected and how it is attributed: docs/cupti.md.
#include "ohprof/collectors/cupti_collector.hpp"

#include <fmt/core.h>

#ifdef OHPROF_HAVE_CUPTI
#include <cupti.h>
#include <dlfcn.h>

#include <optional>
#include <utility>

#include "cupti_common.hpp"
#include "ohprof/base/clock.hpp"
#include "ohprof/collectors/cupti_buffers.hpp"
#include "ohprof/collectors/cupti_records.hpp"
#endif

namespace ohprof {

std::optional<Warning> cupti_version_warning(std::uint32_t version) {
  if (version >= kCuptiSyncRecordsFixed) return std::nullopt;
  return Warning{WarningCode::cupti_version_old,
                 fmt::format("CUPTI API version {} is older than CUDA 13.0 Update 1 ({}), which records "
                             "cudaDeviceSynchronize and cuCtxSynchronize as synchronisations and fixes a deadlock "
                             "in cuptiActivityDisable and a crash in cuptiActivityFlushAll: device-wait may miss "
                             "those syncs; use the CUPTI of torch's CUDA 13 wheel or a newer toolkit",
                             version, kCuptiSyncRecordsFixed)};
}

std::optional<Error> graph_correlation_refusal(std::uint32_t version, std::uint64_t session,
                                               std::uint64_t graph_launches, std::uint64_t graph_ops) {
  if (version >= kCuptiGraphCorrelationFixed || session <= 1 || graph_launches + graph_ops == 0) return std::nullopt;
  return make_error(ExitCode::device_unavailable,
                    fmt::format("CUPTI API version {} gives CUDA graph launches wrong correlation ids in every "
                                "tracing session of a process after the first (fixed in CUDA 13.1 Update 1, {}), "
                                "and this was session {} with {} graph launch(es): its splits are refused; trace "
                                "it in a process of its own (one ohprof compare, not a sweep's later point), or "
                                "use a newer CUPTI",
                                version, kCuptiGraphCorrelationFixed, session, graph_launches));
}

#ifndef OHPROF_HAVE_CUPTI

struct CuptiCollector::State {};

Result<std::unique_ptr<CuptiCollector>> CuptiCollector::create(const CuptiOptions& options) {
  if (!options.device_present) return make_error(ExitCode::device_unavailable, "no CUDA device");
  return make_error(ExitCode::device_unavailable, "built without CUPTI (OHPROF_WITH_CUPTI=OFF)");
}
CuptiCollector::CuptiCollector(std::unique_ptr<State> state) : m_state(std::move(state)) {}
CuptiCollector::~CuptiCollector() = default;
void CuptiCollector::on_iteration_begin(std::int64_t /*index*/, bool /*warmup*/) {}
void CuptiCollector::on_iteration_end(std::int64_t /*index*/, bool /*warmup*/) {}
Result<CuptiCollection> CuptiCollector::finish(const std::vector<IterationWindow>& /*iterations*/) {
  return make_error(ExitCode::device_unavailable, "built without CUPTI (OHPROF_WITH_CUPTI=OFF)");
}
std::string cupti_version_text() { return "none"; }
std::string cupti_library_path() { return "none"; }
bool cupti_built_in() { return false; }

#else  // OHPROF_HAVE_CUPTI

namespace {

// ---- the activity kinds we enable; never CUPTI_ACTIVITY_KIND_KERNEL (it serialises kernels) --------
struct EnabledKind {
  CUpti_ActivityKind kind;
  const char* name;
};
constexpr EnabledKind kEnabledKinds[] = {
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "CONCURRENT_KERNEL"},
    {CUPTI_ACTIVITY_KIND_MEMCPY, "MEMCPY"},
    {CUPTI_ACTIVITY_KIND_MEMSET, "MEMSET"},
    {CUPTI_ACTIVITY_KIND_RUNTIME, "RUNTIME"},
    {CUPTI_ACTIVITY_KIND_DRIVER, "DRIVER"},
    {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "SYNCHRONIZATION"},
    {CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, "EXTERNAL_CORRELATION"},
    {CUPTI_ACTIVITY_KIND_OVERHEAD, "OVERHEAD"},
};

// API calls that are neither launches, copies, memsets nor syncs, made around every launch: their records
// would only add host time the split has no use for, and tracing them costs the host time that is being
// measured. Switched off per call after RUNTIME and DRIVER are enabled (cupti_activity.h: enabling the kind
// afterwards would switch them on again). Kineto switches off the first and the driver's first three; CUDA
// 13's <<<>>> launch calls the three __cuda* functions, and Triton's launcher cuPointerGetAttribute per
// argument (docs/cupti.md, "Calls not traced").
constexpr CUpti_CallbackId kQuietRuntimeCalls[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020,
    CUPTI_RUNTIME_TRACE_CBID___cudaPushCallConfiguration_v13000,
    CUPTI_RUNTIME_TRACE_CBID___cudaPopCallConfiguration_v13000,
    CUPTI_RUNTIME_TRACE_CBID___cudaGetKernel_v13000,
};
constexpr CUpti_CallbackId kQuietDriverCalls[] = {
    CUPTI_DRIVER_TRACE_CBID_cuKernelGetAttribute,
    CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState,
    CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent,
    CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute,
};

Error tracing_unavailable(CUptiResult result, const std::string& step) {
  return make_error(ExitCode::device_unavailable,
                    fmt::format("tracing unavailable: {} ({})", cupti_result_text(result), step));
}

// ---- process-wide state: CUPTI's callbacks are plain functions without user data --------------
// (the buffers are the pool's: process_buffer_pool). Touched only by the collector that holds the pool.
struct ProcessState {
  bool timestamp_callback_registered = false;
  std::uint64_t next_session = 1;
};

ProcessState& process_state() {
  static ProcessState state;
  return state;
}

std::uint64_t CUPTIAPI monotonic_timestamp() { return static_cast<std::uint64_t>(monotonic_now_ns()); }

void CUPTIAPI on_buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  ActivityBuffer ready = process_buffer_pool().request(*size);  // none: CUPTI drops records and counts them
  *buffer = ready.release();
  *max_records = 0;
}

// Runs on CUPTI's thread: queue the buffer, nothing else.
void CUPTIAPI on_buffer_completed(CUcontext /*context*/, std::uint32_t /*stream*/, std::uint8_t* buffer,
                                  std::size_t /*size*/, std::size_t valid_bytes) {
  process_buffer_pool().complete(ActivityBuffer(buffer), valid_bytes);
}

void CUPTIAPI ignore_callback(void* /*userdata*/, CUpti_CallbackDomain /*domain*/, CUpti_CallbackId /*cbid*/,
                              const void* /*data*/) {}

}  // namespace

struct CuptiCollector::State {
  CUpti_SubscriberHandle subscriber = nullptr;
  std::vector<CUpti_ActivityKind> enabled;
  std::uint64_t session = 0;
  std::uint32_t version = 0;         // cuptiGetVersion's
  std::size_t prepared_buffers = 0;  // CuptiOptions::prepared_buffers, for the warning
  bool finished = false;
  std::optional<Error> loop_error;  // the first push/pop failure; finish() reports it
  std::vector<std::uint64_t> pushed;  // tags this collector pushed and has not popped yet

  // Stops recording and forces out whatever CUPTI still holds; releases CUPTI. Returns the first error.
  std::optional<Error> stop() {
    std::optional<Error> first;
    // Without our subscription, CUPTI's activity state may be another tool's: touch nothing.
    if (subscriber == nullptr && enabled.empty()) return first;
    for (auto it = enabled.rbegin(); it != enabled.rend(); ++it) {
      const CUptiResult status = cuptiActivityDisable(*it);
      if (status != CUPTI_SUCCESS && !first) first = tracing_unavailable(status, "disabling activity");
    }
    enabled.clear();
    if (const CUptiResult status = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        status != CUPTI_SUCCESS && !first) {
      first = tracing_unavailable(status, "forced flush of the activity buffers");
    }
    if (subscriber != nullptr) {
      (void)cuptiUnsubscribe(subscriber);
      subscriber = nullptr;
    }
    return first;
  }
};

Result<std::unique_ptr<CuptiCollector>> CuptiCollector::create(const CuptiOptions& options) {
  if (!options.device_present) return make_error(ExitCode::device_unavailable, "no CUDA device");
  // CUPTI may call the buffer callbacks from inside any of its functions: the pool takes its lock only
  // for its own bookkeeping, never across a CUPTI call. Holding the pool keeps a second create() out.
  ActivityBufferPool& pool = process_buffer_pool();
  if (!pool.claim()) return make_error(ExitCode::internal_error, "a CUPTI collector is already active in this process");
  ProcessState& process = process_state();
  // Zeroed here, before the run (CUPTI is not recording yet).
  pool.prepare(options.buffer_bytes, options.prepared_buffers);
  auto state = std::make_unique<State>();
  state->prepared_buffers = options.prepared_buffers;
  auto fail = [&](Error error) -> Error {
    (void)state->stop();
    pool.discard();
    pool.release();
    return error;
  };

  std::uint32_t version = 0;
  if (const CUptiResult status = cuptiGetVersion(&version); status != CUPTI_SUCCESS) {
    return fail(tracing_unavailable(status, "cuptiGetVersion"));
  }
  state->version = version;

  char holder[2 * CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN] = {};
  CUpti_SubscriberParams params{};
  params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
  params.subscriberName = "ohprof";
  params.oldSubscriberName = holder;
  params.oldSubscriberSize = sizeof(holder);
  const CUptiResult subscribed = cuptiSubscribe_v2(&state->subscriber, ignore_callback, nullptr, &params);
  if (subscribed != CUPTI_SUCCESS) state->subscriber = nullptr;
  if (subscribed == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    holder[sizeof(holder) - 1] = '\0';
    const std::string who = holder[0] != '\0' ? fmt::format("CUPTI reports '{}'", holder)
                                              : "for example Nsight Systems or PyTorch's profiler";
    return fail(make_error(ExitCode::device_unavailable,
                           fmt::format("another tool holds CUPTI ({}); ohprof cannot trace the GPU in this "
                                       "process. Under Nsight Systems run ohprof with --no-cupti; otherwise "
                                       "stop the other profiler",
                                       who)));
  }
  if (subscribed != CUPTI_SUCCESS) return fail(tracing_unavailable(subscribed, "cuptiSubscribe_v2"));

  // Once per process, before any activity kind is enabled.
  if (!process.timestamp_callback_registered) {
    if (const CUptiResult status = cuptiActivityRegisterTimestampCallback(monotonic_timestamp); status != CUPTI_SUCCESS) {
      return fail(tracing_unavailable(status, "cuptiActivityRegisterTimestampCallback"));
    }
    process.timestamp_callback_registered = true;
  }
  // Every buffer ohprof hands CUPTI is zeroed already: spare CUPTI zeroing it on the recording thread.
  // Without this attribute (an older CUPTI) CUPTI zeroes them again, which costs time but loses nothing.
  std::uint8_t zeroed = 1;
  std::size_t zeroed_size = sizeof(zeroed);
  (void)cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &zeroed_size, &zeroed);
  // The buffer callbacks at every start: another CUPTI user in the process (torch's profiler, Kineto)
  // registers its own, and CUPTI keeps only the last, so a collector that trusted an earlier
  // registration would get no buffers at all. (The timestamp callback stays once per process.)
  if (const CUptiResult status = cuptiActivityRegisterCallbacks(on_buffer_requested, on_buffer_completed);
      status != CUPTI_SUCCESS) {
    return fail(tracing_unavailable(status, "cuptiActivityRegisterCallbacks"));
  }
  pool.accept();
  for (const EnabledKind& kind : kEnabledKinds) {
    if (const CUptiResult status = cuptiActivityEnable(kind.kind); status != CUPTI_SUCCESS) {
      return fail(tracing_unavailable(status, fmt::format("enabling {} activity", kind.name)));
    }
    state->enabled.push_back(kind.kind);
  }
  // Internal launches: where CUPTI cannot trace them (an error), their kernels have no launch record
  // and are counted as ops without a launch, as before.
  if (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API) == CUPTI_SUCCESS) {
    state->enabled.push_back(CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API);
  }
  // A call that cannot be switched off is still traced: more records, nothing wrong.
  for (const CUpti_CallbackId cbid : kQuietRuntimeCalls) (void)cuptiActivityEnableRuntimeApi(cbid, 0);
  for (const CUpti_CallbackId cbid : kQuietDriverCalls) (void)cuptiActivityEnableDriverApi(cbid, 0);
  std::size_t stale_dropped = 0;  // the count resets on read: start counting from here
  (void)cuptiActivityGetNumDroppedRecords(nullptr, 0, &stale_dropped);

  state->session = process.next_session++;
  return std::unique_ptr<CuptiCollector>(new CuptiCollector(std::move(state)));
}

CuptiCollector::CuptiCollector(std::unique_ptr<State> state) : m_state(std::move(state)) {}

CuptiCollector::~CuptiCollector() {
  if (!m_state) return;
  if (!m_state->finished) {
    (void)m_state->stop();
    process_buffer_pool().discard();
  }
  process_buffer_pool().release();
}

void CuptiCollector::on_iteration_begin(std::int64_t index, bool warmup) {
  if (m_state->finished || m_state->loop_error) return;
  const std::uint64_t tag = encode_iteration_tag(m_state->session, index, warmup);
  if (const CUptiResult status = cuptiActivityPushExternalCorrelationId(kIterationTagKind, tag); status != CUPTI_SUCCESS) {
    m_state->loop_error = tracing_unavailable(status, fmt::format("tagging {} iteration {}", warmup ? "warm-up" : "measured", index));
    return;
  }
  m_state->pushed.push_back(tag);
}

void CuptiCollector::on_iteration_end(std::int64_t index, bool warmup) {
  if (m_state->pushed.empty()) return;
  const std::uint64_t expected = m_state->pushed.back();
  m_state->pushed.pop_back();
  std::uint64_t popped = 0;
  const CUptiResult status = cuptiActivityPopExternalCorrelationId(kIterationTagKind, &popped);
  if (m_state->loop_error) return;
  if (status != CUPTI_SUCCESS) {
    m_state->loop_error = tracing_unavailable(status, fmt::format("untagging {} iteration {}", warmup ? "warm-up" : "measured", index));
  } else if (popped != expected) {
    m_state->loop_error = make_error(
        ExitCode::device_unavailable,
        fmt::format("tracing unavailable: another CUPTI user changed ohprof's iteration tags (expected {:#x}, got {:#x})",
                    expected, popped));
  }
}

Result<CuptiCollection> CuptiCollector::finish(const std::vector<IterationWindow>& iterations) {
  if (m_state->finished) return make_error(ExitCode::internal_error, "CuptiCollector::finish called twice");
  m_state->finished = true;
  // The caller synchronised the device: every record is complete. Deliver them, then stop.
  std::optional<Error> error;
  if (const CUptiResult status = cuptiActivityFlushAll(0); status != CUPTI_SUCCESS) {
    error = tracing_unavailable(status, "flushing the activity buffers");
  }
  std::optional<Error> stop_error = m_state->stop();
  if (!error) error = std::move(stop_error);
  std::size_t dropped = 0;
  if (const CUptiResult status = cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped);
      status != CUPTI_SUCCESS && !error) {
    error = tracing_unavailable(status, "reading the dropped-record count");
  }

  ActivityBufferPool::Taken taken = process_buffer_pool().take();
  if (m_state->loop_error) return *m_state->loop_error;
  if (error) return *error;

  // Record order across buffers is not guaranteed: read everything, then join.
  ActivityRecords records;
  for (CompletedBuffer& buffer : taken.buffers) read_activity_buffer(buffer.data.get(), buffer.valid_bytes, records);
  taken.buffers.clear();
  // What this CUPTI is known to get wrong (docs/cupti.md, "CUPTI versions"). Graph work is counted in
  // every record delivered, untagged ones included: a wrong correlation id may have moved it anywhere.
  const GraphWork graphs = graph_work(records);
  if (auto refusal = graph_correlation_refusal(m_state->version, m_state->session, graphs.launches, graphs.ops)) {
    return *refusal;
  }
  CuptiCollection collection = join_records(records, m_state->session, dropped, iterations);
  if (auto warning = cupti_version_warning(m_state->version)) collection.warnings.push_back(*warning);
  collection.buffers_zeroed_in_run = taken.zeroed_in_run;
  if (taken.zeroed_in_run > 0) {
    collection.warnings.push_back(Warning{
        WarningCode::cupti_buffers_zeroed_in_run,
        fmt::format("CUPTI needed {} more activity buffer(s) than the {} prepared before the run; each was "
                    "allocated and zeroed on the thread that asked for it, a stall inside an iteration",
                    taken.zeroed_in_run, m_state->prepared_buffers)});
  }
  return collection;
}

std::string cupti_version_text() {
  std::uint32_t version = 0;
  if (cuptiGetVersion(&version) != CUPTI_SUCCESS) return "none";
  return std::to_string(version);
}

std::string cupti_library_path() {
  // dlsym, not &cuptiGetVersion: in the executable the latter may be a PLT stub of its own.
  void* symbol = dlsym(RTLD_DEFAULT, "cuptiGetVersion");
  Dl_info info{};
  if (symbol == nullptr || dladdr(symbol, &info) == 0 || info.dli_fname == nullptr) return "none";
  return info.dli_fname;
}

bool cupti_built_in() { return true; }

#endif  // OHPROF_HAVE_CUPTI

}  // namespace ohprof
