// The CUPTI activity collector. The only file of ohprof that includes cupti.h; everything it hands out
// is a plain struct from timeline.hpp. What is collected and how it is attributed: docs/cupti.md.
#include "ohprof/collectors/cupti_collector.hpp"

#include <fmt/core.h>

#ifdef OHPROF_HAVE_CUPTI
#include <cupti.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ohprof/base/clock.hpp"
#include "ohprof/model/launch_apis.hpp"
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

constexpr CUpti_ExternalCorrelationKind kIterationTagKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2;

// ---- external correlation ids: (session << 48) | (warm-up bit) | iteration index ------------------
// The session (one per collector in this process) keeps records of an earlier collector that arrive
// late from being taken for this one's.
constexpr int kSessionShift = 48;
constexpr std::uint64_t kWarmupBit = std::uint64_t{1} << 47;
constexpr std::uint64_t kIndexMask = kWarmupBit - 1;

std::uint64_t encode_tag(std::uint64_t session, std::int64_t index, bool warmup) {
  return (session << kSessionShift) | (warmup ? kWarmupBit : 0) |
         (static_cast<std::uint64_t>(index) & kIndexMask);
}

// ---- which API calls launch device work, decided by callback id: the shared table ---------------
// (model/launch_apis.hpp; each entry is checked against cupti_*_cbid.h by the compiler here).
struct ApiClass {
  std::optional<LaunchKind> launch;  // empty: not a launch API
  const char* name = nullptr;        // enumerator name, nullptr when not in the lists
};

ApiClass classify_runtime(std::uint32_t cbid) {
  switch (cbid) {
#define OHPROF_RUNTIME_CASE(name, kind) \
  case CUPTI_RUNTIME_TRACE_CBID_##name:  \
    return ApiClass{LaunchKind::kind, #name};
    OHPROF_CUDA_RUNTIME_LAUNCH_APIS(OHPROF_RUNTIME_CASE)
#undef OHPROF_RUNTIME_CASE
    default:
      return ApiClass{};
  }
}

ApiClass classify_driver(std::uint32_t cbid) {
  switch (cbid) {
#define OHPROF_DRIVER_CASE(name, kind) \
  case CUPTI_DRIVER_TRACE_CBID_##name:  \
    return ApiClass{LaunchKind::kind, #name};
    OHPROF_CUDA_DRIVER_LAUNCH_APIS(OHPROF_DRIVER_CASE)
#undef OHPROF_DRIVER_CASE
    default:
      return ApiClass{};
  }
}

// Launches outside any public API function (libraries' internal launches) come as records of kind
// INTERNAL_LAUNCH_API, CUpti_ActivityAPI without a cbid: each one is a kernel launch (cupti_activity.h).
constexpr const char* kInternalLaunchName = "internal launch";

ApiClass classify(CUpti_ActivityKind kind, std::uint32_t cbid) {
  if (kind == CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API) return ApiClass{LaunchKind::kernel, kInternalLaunchName};
  return kind == CUPTI_ACTIVITY_KIND_RUNTIME ? classify_runtime(cbid) : classify_driver(cbid);
}

// Runtime callback names carry the version they appeared in ("cudaLaunchKernel_v7000"); drop it.
std::string runtime_api_name(std::string_view name) {
  const auto pos = name.rfind("_v");
  if (pos != std::string_view::npos && pos + 2 < name.size() &&
      std::all_of(name.begin() + static_cast<std::ptrdiff_t>(pos) + 2, name.end(),
                  [](char c) { return c >= '0' && c <= '9'; })) {
    name = name.substr(0, pos);
  }
  return std::string(name);
}

std::string api_name(CUpti_ActivityKind kind, std::uint32_t cbid, const char* listed_name) {
  const bool runtime = kind == CUPTI_ACTIVITY_KIND_RUNTIME;
  const char* name = listed_name;
  if (name == nullptr) {
    const CUpti_CallbackDomain domain = runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
    if (cuptiGetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS || name == nullptr) {
      return fmt::format("{} API {}", runtime ? "runtime" : "driver", cbid);
    }
  }
  return runtime ? runtime_api_name(name) : std::string(name);
}

std::string result_text(CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) == CUPTI_SUCCESS && text != nullptr) return text;
  return fmt::format("CUPTI error {}", static_cast<int>(result));
}

Error tracing_unavailable(CUptiResult result, const std::string& step) {
  return make_error(ExitCode::device_unavailable,
                    fmt::format("tracing unavailable: {} ({})", result_text(result), step));
}

const char* memcpy_direction(std::uint8_t copy_kind) {
  switch (copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return "HtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return "AtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA: return "AtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD: return "AtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return "DtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "PtoP";
    default: return "unknown";
  }
}

const char* sync_type_name(CUpti_ActivitySynchronizationType type) {
  switch (type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE: return "event synchronize";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT: return "stream wait event";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE: return "stream synchronize";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE: return "context synchronize";
    default: return "synchronize";
  }
}

std::string overhead_name(CUpti_ActivityOverheadKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER: return "driver compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH: return "cupti buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION: return "cupti instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE: return "cupti resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING: return "runtime triggered module loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING: return "lazy function loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL: return "command buffer full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST: return "activity buffer request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT: return "uvm activity init";
    default: return fmt::format("overhead {}", static_cast<int>(kind));
  }
}

std::int64_t ns(std::uint64_t timestamp) { return static_cast<std::int64_t>(timestamp); }

// ---- process-wide state: CUPTI's callbacks are plain functions without user data --------------
struct FreeDeleter {
  void operator()(std::uint8_t* p) const { std::free(p); }
};
using BufferPtr = std::unique_ptr<std::uint8_t, FreeDeleter>;

struct CompletedBuffer {
  BufferPtr data;
  std::size_t valid_bytes = 0;
};

struct ProcessState {
  std::mutex mutex;
  bool timestamp_callback_registered = false;
  bool collector_alive = false;
  bool accepting = false;  // a collector wants completed buffers
  std::size_t buffer_bytes = std::size_t{8} << 20;
  std::uint64_t next_session = 1;
  std::vector<CompletedBuffer> completed;
  // Buffers of buffer_bytes zeroed before the run (CUPTI is told they come zeroed, so it does not zero
  // each one on the thread that needs it, inside an iteration), and how many had to be zeroed in the run.
  std::vector<BufferPtr> prepared;
  std::size_t prepared_bytes = 0;  // their size
  std::uint64_t zeroed_in_run = 0;
};

ProcessState& process_state() {
  // Never destroyed: CUPTI may call back during process exit.
  static auto* state = new ProcessState;
  return *state;
}

std::uint64_t CUPTIAPI monotonic_timestamp() { return static_cast<std::uint64_t>(monotonic_now_ns()); }

// A zeroed buffer of `bytes` (a multiple of 8), pages touched; null when memory is short.
BufferPtr zeroed_buffer(std::size_t bytes) {
  BufferPtr buffer(static_cast<std::uint8_t*>(std::aligned_alloc(8, bytes)));
  if (buffer) std::memset(buffer.get(), 0, bytes);
  return buffer;
}

void CUPTIAPI on_buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  std::size_t bytes = 0;
  BufferPtr ready;
  {
    std::lock_guard lock(process_state().mutex);
    bytes = process_state().buffer_bytes;
    if (!process_state().prepared.empty()) {
      ready = std::move(process_state().prepared.back());
      process_state().prepared.pop_back();
    } else {
      ++process_state().zeroed_in_run;
    }
  }
  if (!ready) ready = zeroed_buffer(bytes);
  *size = ready ? bytes : 0;  // no buffer: CUPTI drops records and counts them
  *buffer = ready.release();
  *max_records = 0;
}

// Runs on CUPTI's thread: queue the buffer, nothing else.
void CUPTIAPI on_buffer_completed(CUcontext /*context*/, std::uint32_t /*stream*/, std::uint8_t* buffer,
                                  std::size_t /*size*/, std::size_t valid_bytes) {
  BufferPtr owned(buffer);
  std::lock_guard lock(process_state().mutex);
  if (process_state().accepting) process_state().completed.push_back(CompletedBuffer{std::move(owned), valid_bytes});
}

void CUPTIAPI ignore_callback(void* /*userdata*/, CUpti_CallbackDomain /*domain*/, CUpti_CallbackId /*cbid*/,
                              const void* /*data*/) {}

// ---- records as parsed from the buffers, before the join ---------------------------------------
struct ApiRecord {
  CUpti_ActivityKind kind = CUPTI_ACTIVITY_KIND_RUNTIME;
  std::uint32_t cbid = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::uint32_t thread_id = 0;
  std::uint32_t correlation = 0;
};

struct SyncRecord {
  CUpti_ActivitySynchronizationType type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::uint32_t correlation = 0;
};

struct ParsedRecords {
  std::vector<DeviceOp> ops;
  std::vector<ApiRecord> apis;
  std::vector<SyncRecord> syncs;
  std::unordered_map<std::uint32_t, std::uint64_t> tags;  // correlation -> external id (CUSTOM2)
  std::vector<CuptiOverhead> overheads;
  std::vector<Warning> warnings;
  std::uint64_t ops_without_timestamps = 0;
};

// Kernel, memcpy and memset records share these fields (same names in each CUPTI struct).
template <typename Record>
DeviceOp device_op(DeviceOpKind kind, const Record& r) {
  DeviceOp op;
  op.kind = kind;
  op.start_ns = ns(r.start);
  op.end_ns = ns(r.end);
  op.device = static_cast<std::int32_t>(r.deviceId);
  op.stream = r.streamId;
  op.correlation = r.correlationId;
  op.graph_id = r.graphId;
  return op;
}

DeviceOp kernel_op(const CUpti_ActivityKernel10& k) {
  DeviceOp op = device_op(DeviceOpKind::kernel, k);
  op.name = k.name != nullptr ? k.name : "";
  op.communication = communication_kernel(op.name);
  return op;
}

DeviceOp memcpy_op(const CUpti_ActivityMemcpy6& m) {
  DeviceOp op = device_op(DeviceOpKind::memcpy, m);
  op.bytes = m.bytes;
  op.name = memcpy_direction(m.copyKind);
  return op;
}

DeviceOp memset_op(const CUpti_ActivityMemset4& m) {
  DeviceOp op = device_op(DeviceOpKind::memset, m);
  op.bytes = m.bytes;
  op.name = "Memset";
  return op;
}

void parse_record(const CUpti_Activity* record, ParsedRecords& out) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      out.ops.push_back(kernel_op(*reinterpret_cast<const CUpti_ActivityKernel10*>(record)));
      break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      out.ops.push_back(memcpy_op(*reinterpret_cast<const CUpti_ActivityMemcpy6*>(record)));
      break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
      out.ops.push_back(memset_op(*reinterpret_cast<const CUpti_ActivityMemset4*>(record)));
      break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
    case CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API: {
      const auto& api = *reinterpret_cast<const CUpti_ActivityAPI*>(record);
      out.apis.push_back(ApiRecord{record->kind, api.cbid, ns(api.start), ns(api.end), api.threadId,
                                   api.correlationId});
      break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
      const auto& sync = *reinterpret_cast<const CUpti_ActivitySynchronization2*>(record);
      // start == end == 0: CUPTI could not collect the timestamps; the join takes the API record's.
      out.syncs.push_back(SyncRecord{sync.type, ns(sync.start), ns(sync.end), sync.correlationId});
      break;
    }
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
      const auto& ext = *reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
      if (ext.externalKind == kIterationTagKind) out.tags[ext.correlationId] = ext.externalId;
      break;
    }
    case CUPTI_ACTIVITY_KIND_OVERHEAD: {
      const auto& overhead = *reinterpret_cast<const CUpti_ActivityOverhead3*>(record);
      out.overheads.push_back(CuptiOverhead{overhead_name(overhead.overheadKind), ns(overhead.start), ns(overhead.end)});
      std::free(overhead.overheadData);  // CUPTI allocated it; the client frees it (cupti_activity.h)
      break;
    }
    default:
      break;  // a kind we did not enable
  }
}

void parse_buffer(std::uint8_t* buffer, std::size_t valid_bytes, ParsedRecords& out) {
  CUpti_Activity* record = nullptr;
  for (;;) {
    const CUptiResult status = cuptiActivityGetNextRecord(buffer, valid_bytes, &record);
    if (status == CUPTI_ERROR_MAX_LIMIT_REACHED) return;
    if (status != CUPTI_SUCCESS) {
      out.warnings.push_back(Warning{WarningCode::cupti_buffer_unreadable,
                                     fmt::format("an activity buffer could not be read to its end: {}", result_text(status))});
      return;
    }
    parse_record(record, out);
  }
}

// Where an external correlation id puts a record.
struct Attribution {
  enum class Kind { measured, warmup, untagged, other_session } kind = Kind::untagged;
  std::int64_t index = 0;
};

Attribution attribute(const ParsedRecords& records, std::uint32_t correlation, std::uint64_t session) {
  const auto it = records.tags.find(correlation);
  if (it == records.tags.end()) return {};
  const std::uint64_t tag = it->second;
  if ((tag >> kSessionShift) != session) return {Attribution::Kind::other_session, 0};
  const auto index = static_cast<std::int64_t>(tag & kIndexMask);
  return {(tag & kWarmupBit) != 0 ? Attribution::Kind::warmup : Attribution::Kind::measured, index};
}

CuptiCollection join(ParsedRecords& records, std::uint64_t session, std::uint64_t dropped,
                     const std::vector<IterationWindow>& iterations) {
  CuptiCollection out;
  Timeline& timeline = out.timeline;
  timeline.iterations = iterations;
  timeline.counters.dropped_records = dropped;

  // Launch calls: one per correlation id. Should a launch API appear twice under one id (a driver
  // call made inside a runtime call), the outer call (earliest start) is the launch.
  std::unordered_map<std::uint32_t, std::size_t> launch_of;  // correlation -> index in records.apis
  std::unordered_map<std::uint32_t, std::size_t> api_of;     // correlation -> any API record
  for (std::size_t i = 0; i < records.apis.size(); ++i) {
    const ApiRecord& api = records.apis[i];
    // The outer call (earliest start, then longest) when a call made others under its correlation id.
    if (auto [it, inserted] = api_of.emplace(api.correlation, i); !inserted) {
      const ApiRecord& kept = records.apis[it->second];
      if (std::tie(api.start_ns, kept.end_ns) < std::tie(kept.start_ns, api.end_ns)) it->second = i;
    }
    const ApiClass cls = classify(api.kind, api.cbid);
    if (!cls.launch) continue;
    auto [it, inserted] = launch_of.emplace(api.correlation, i);
    if (!inserted && api.start_ns < records.apis[it->second].start_ns) it->second = i;
  }
  // An API call outside the lists that still enqueued device work is a launch of kind `other`.
  for (const DeviceOp& op : records.ops) {
    const auto correlation = static_cast<std::uint32_t>(op.correlation);
    if (launch_of.count(correlation) == 0) {
      if (auto it = api_of.find(correlation); it != api_of.end()) launch_of.emplace(correlation, it->second);
    }
  }
  // A driver launch that a runtime launch made itself may get a correlation id of its own: then no op
  // carries the driver call's id (the kernel carries the runtime call's), and it lies inside the runtime
  // call on the same thread. It is the same launch, counted once: the runtime call (and not an API call).
  std::unordered_set<std::uint32_t> inner_launches;
  {
    std::unordered_set<std::uint32_t> with_ops;
    for (const DeviceOp& op : records.ops) with_ops.insert(static_cast<std::uint32_t>(op.correlation));
    std::unordered_map<std::uint32_t, std::vector<std::pair<std::int64_t, std::int64_t>>> runtime_launches;  // by thread
    for (const auto& [correlation, index] : launch_of) {
      const ApiRecord& api = records.apis[index];
      if (api.kind == CUPTI_ACTIVITY_KIND_RUNTIME && (api.start_ns != 0 || api.end_ns != 0)) {
        runtime_launches[api.thread_id].emplace_back(api.start_ns, api.end_ns);
      }
    }
    for (auto& [thread, calls] : runtime_launches) std::sort(calls.begin(), calls.end());
    for (auto it = launch_of.begin(); it != launch_of.end();) {
      const ApiRecord& api = records.apis[it->second];
      bool inner = false;
      const bool timed = api.start_ns != 0 || api.end_ns != 0;
      if (api.kind != CUPTI_ACTIVITY_KIND_RUNTIME && timed && with_ops.count(it->first) == 0) {
        if (const auto calls = runtime_launches.find(api.thread_id); calls != runtime_launches.end()) {
          // Runtime launches on one thread do not overlap: the last one to start before this call.
          const auto after = std::upper_bound(calls->second.begin(), calls->second.end(),
                                              std::pair{api.start_ns, std::numeric_limits<std::int64_t>::max()});
          inner = after != calls->second.begin() && std::prev(after)->second >= api.end_ns;
        }
      }
      if (inner) inner_launches.insert(it->first);
      it = inner ? launch_of.erase(it) : std::next(it);
    }
  }

  for (const auto& [correlation, index] : launch_of) {
    const ApiRecord& api = records.apis[index];
    const Attribution where = attribute(records, correlation, session);
    if (where.kind == Attribution::Kind::other_session) continue;
    if (where.kind == Attribution::Kind::warmup) {
      ++out.warmup_records;
      continue;
    }
    const ApiClass cls = classify(api.kind, api.cbid);
    LaunchCall call;
    call.kind = cls.launch.value_or(LaunchKind::other);
    call.start_ns = api.start_ns;
    call.end_ns = api.end_ns;
    call.thread_id = api.thread_id;
    call.correlation = correlation;
    if (where.kind == Attribution::Kind::measured) call.iteration = where.index;
    call.name = api_name(api.kind, api.cbid, cls.name);
    call.synchronous = call.kind == LaunchKind::memcpy && synchronous_copy_api(call.name);
    timeline.launches.push_back(std::move(call));
  }

  for (DeviceOp& op : records.ops) {
    const auto correlation = static_cast<std::uint32_t>(op.correlation);
    const Attribution where = attribute(records, correlation, session);
    if (where.kind == Attribution::Kind::other_session) continue;
    if (where.kind == Attribution::Kind::warmup) {
      ++out.warmup_records;
      continue;
    }
    if (op.start_ns == 0 && op.end_ns == 0) {
      ++timeline.counters.ops_without_timestamps;
      continue;
    }
    if (launch_of.count(correlation) == 0) ++timeline.counters.ops_without_launch;
    timeline.ops.push_back(std::move(op));
  }

  // Host synchronisations. Their API records (the call and any call made inside it, same correlation
  // id) are the sync, not other API calls.
  std::unordered_set<std::uint32_t> sync_correlations;
  // The measured iteration of each SyncCall, for the harness mark below (parallel to timeline.syncs).
  std::vector<std::optional<std::int64_t>> sync_iteration;
  for (const SyncRecord& sync : records.syncs) {
    // cudaStreamWaitEvent makes a stream wait on the device; the host does not block. Its API record
    // stays an ApiCall.
    if (sync.type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT) continue;
    sync_correlations.insert(sync.correlation);
    const Attribution where = attribute(records, sync.correlation, session);
    if (where.kind == Attribution::Kind::other_session) continue;
    if (where.kind == Attribution::Kind::warmup) {
      ++out.warmup_records;
      continue;
    }
    const auto api = api_of.find(sync.correlation);
    const bool timed = sync.start_ns != 0 || sync.end_ns != 0;
    // Timestamps lost (start == end == 0): the host-side call's own times, from its API record, when
    // there is one; without either the call is of no use.
    if (!timed && api == api_of.end()) continue;
    SyncCall call;
    call.start_ns = timed ? sync.start_ns : records.apis[api->second].start_ns;
    call.end_ns = timed ? sync.end_ns : records.apis[api->second].end_ns;
    if (api != api_of.end()) {
      const ApiRecord& record = records.apis[api->second];
      call.thread_id = record.thread_id;
      const ApiClass cls =
          classify(record.kind, record.cbid);
      call.name = api_name(record.kind, record.cbid, cls.name);
    } else {
      call.name = sync_type_name(sync.type);
    }
    timeline.syncs.push_back(std::move(call));
    sync_iteration.push_back(where.kind == Attribution::Kind::measured ? std::optional<std::int64_t>(where.index)
                                                                       : std::nullopt);
  }

  // The harness's own end-of-iteration synchronisation: every measured iteration's run_once() ends with
  // torch::cuda::synchronize (cudaDeviceSynchronize) inside the iteration's tag, so it is the iteration's
  // last sync call (the latest start; then the latest end). An iteration without a sync call marks none.
  std::unordered_map<std::int64_t, std::size_t> last_sync;  // measured iteration -> index in timeline.syncs
  for (std::size_t i = 0; i < timeline.syncs.size(); ++i) {
    if (!sync_iteration[i]) continue;
    auto [it, inserted] = last_sync.emplace(*sync_iteration[i], i);
    const SyncCall& kept = timeline.syncs[it->second];
    const SyncCall& call = timeline.syncs[i];
    if (!inserted && std::tie(call.start_ns, call.end_ns) > std::tie(kept.start_ns, kept.end_ns)) it->second = i;
  }
  for (const auto& [iteration, index] : last_sync) timeline.syncs[index].harness = true;

  // Every other API call: neither a launch (nor a call made inside one) nor a synchronisation's API
  // record. One per correlation id, the outer call (api_of), attributed like the launches.
  for (const auto& [correlation, index] : api_of) {
    if (launch_of.count(correlation) != 0 || sync_correlations.count(correlation) != 0 ||
        inner_launches.count(correlation) != 0) {
      continue;
    }
    const Attribution where = attribute(records, correlation, session);
    if (where.kind == Attribution::Kind::other_session) continue;
    if (where.kind == Attribution::Kind::warmup) {
      ++out.warmup_records;
      continue;
    }
    const ApiRecord& api = records.apis[index];
    const ApiClass cls = classify(api.kind, api.cbid);
    timeline.api_calls.push_back(ApiCall{api.start_ns, api.end_ns, api.thread_id, api_name(api.kind, api.cbid, cls.name)});
  }

  std::sort(timeline.ops.begin(), timeline.ops.end(), [](const DeviceOp& a, const DeviceOp& b) {
    return std::tie(a.start_ns, a.end_ns, a.stream, a.correlation) < std::tie(b.start_ns, b.end_ns, b.stream, b.correlation);
  });
  std::sort(timeline.launches.begin(), timeline.launches.end(), [](const LaunchCall& a, const LaunchCall& b) {
    return std::tie(a.start_ns, a.correlation) < std::tie(b.start_ns, b.correlation);
  });
  std::sort(timeline.syncs.begin(), timeline.syncs.end(), [](const SyncCall& a, const SyncCall& b) {
    return std::tie(a.start_ns, a.end_ns) < std::tie(b.start_ns, b.end_ns);
  });
  std::sort(timeline.api_calls.begin(), timeline.api_calls.end(), [](const ApiCall& a, const ApiCall& b) {
    return std::tie(a.start_ns, a.end_ns, a.thread_id, a.name) < std::tie(b.start_ns, b.end_ns, b.thread_id, b.name);
  });
  std::sort(records.overheads.begin(), records.overheads.end(),
            [](const CuptiOverhead& a, const CuptiOverhead& b) { return a.start_ns < b.start_ns; });
  out.overheads = std::move(records.overheads);
  out.warnings = std::move(records.warnings);
  return out;
}

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
  // CUPTI may call the buffer callbacks from inside any of its functions, and they take the process
  // mutex: hold it only to read or change the process state, never across a CUPTI call. The `alive`
  // flag, taken first, keeps a second create() out meanwhile.
  ProcessState& process = process_state();
  std::size_t buffers_to_prepare = 0;
  std::size_t buffer_bytes = 0;
  bool timestamp_registered = false;
  {
    std::lock_guard lock(process.mutex);
    if (process.collector_alive) {
      return make_error(ExitCode::internal_error, "a CUPTI collector is already active in this process");
    }
    process.collector_alive = true;
    timestamp_registered = process.timestamp_callback_registered;
    process.buffer_bytes = (std::max<std::size_t>(options.buffer_bytes, 64 * 1024) + 7) / 8 * 8;
    process.completed.clear();
    process.zeroed_in_run = 0;
    // Buffers of another size (an earlier collector's options) are of no use now.
    if (process.prepared_bytes != process.buffer_bytes) process.prepared.clear();
    process.prepared_bytes = buffer_bytes = process.buffer_bytes;
    buffers_to_prepare = options.prepared_buffers - std::min(options.prepared_buffers, process.prepared.size());
  }
  // Zeroed here, before the run, with no lock held (CUPTI is not recording yet).
  std::vector<BufferPtr> fresh;
  for (std::size_t i = 0; i < buffers_to_prepare; ++i) {
    if (BufferPtr buffer = zeroed_buffer(buffer_bytes)) fresh.push_back(std::move(buffer));
  }
  {
    std::lock_guard lock(process.mutex);
    for (BufferPtr& buffer : fresh) process.prepared.push_back(std::move(buffer));
  }
  auto state = std::make_unique<State>();
  state->prepared_buffers = options.prepared_buffers;
  auto fail = [&](Error error) -> Error {
    (void)state->stop();
    std::lock_guard lock(process.mutex);
    process.accepting = false;
    process.completed.clear();
    process.collector_alive = false;
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
  if (!timestamp_registered) {
    if (const CUptiResult status = cuptiActivityRegisterTimestampCallback(monotonic_timestamp); status != CUPTI_SUCCESS) {
      return fail(tracing_unavailable(status, "cuptiActivityRegisterTimestampCallback"));
    }
    std::lock_guard lock(process.mutex);
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
  {
    std::lock_guard lock(process.mutex);
    process.accepting = true;
  }
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

  std::lock_guard lock(process.mutex);
  state->session = process.next_session++;
  return std::unique_ptr<CuptiCollector>(new CuptiCollector(std::move(state)));
}

CuptiCollector::CuptiCollector(std::unique_ptr<State> state) : m_state(std::move(state)) {}

CuptiCollector::~CuptiCollector() {
  if (!m_state) return;
  if (!m_state->finished) {
    (void)m_state->stop();
    std::lock_guard lock(process_state().mutex);
    process_state().accepting = false;
    process_state().completed.clear();
  }
  std::lock_guard lock(process_state().mutex);
  process_state().collector_alive = false;
}

void CuptiCollector::on_iteration_begin(std::int64_t index, bool warmup) {
  if (m_state->finished || m_state->loop_error) return;
  const std::uint64_t tag = encode_tag(m_state->session, index, warmup);
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

  std::vector<CompletedBuffer> buffers;
  std::uint64_t zeroed_in_run = 0;
  {
    std::lock_guard lock(process_state().mutex);
    process_state().accepting = false;
    buffers.swap(process_state().completed);
    zeroed_in_run = process_state().zeroed_in_run;
  }
  if (m_state->loop_error) return *m_state->loop_error;
  if (error) return *error;

  // Record order across buffers is not guaranteed: parse everything, then join.
  ParsedRecords records;
  for (CompletedBuffer& buffer : buffers) parse_buffer(buffer.data.get(), buffer.valid_bytes, records);
  buffers.clear();
  // What this CUPTI is known to get wrong (docs/cupti.md, "CUPTI versions"). Graph work is counted in
  // every record delivered, untagged ones included: a wrong correlation id may have moved it anywhere.
  std::unordered_set<std::uint32_t> graph_launch_ids;  // a runtime graph launch and its driver call share one
  for (const ApiRecord& api : records.apis) {
    if (classify(api.kind, api.cbid).launch == LaunchKind::graph) graph_launch_ids.insert(api.correlation);
  }
  const auto graph_launches = static_cast<std::uint64_t>(graph_launch_ids.size());
  const auto graph_ops = static_cast<std::uint64_t>(
      std::count_if(records.ops.begin(), records.ops.end(), [](const DeviceOp& op) { return op.graph_id != 0; }));
  if (auto refusal = graph_correlation_refusal(m_state->version, m_state->session, graph_launches, graph_ops)) {
    return *refusal;
  }
  CuptiCollection collection = join(records, m_state->session, dropped, iterations);
  if (auto warning = cupti_version_warning(m_state->version)) collection.warnings.push_back(*warning);
  collection.buffers_zeroed_in_run = zeroed_in_run;
  if (zeroed_in_run > 0) {
    collection.warnings.push_back(Warning{
        WarningCode::cupti_buffers_zeroed_in_run,
        fmt::format("CUPTI needed {} more activity buffer(s) than the {} prepared before the run; each was "
                    "allocated and zeroed on the thread that asked for it, a stall inside an iteration",
                    zeroed_in_run, m_state->prepared_buffers)});
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
