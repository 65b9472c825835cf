// The fake CUPTI: see fake_cupti.hpp. Behaves as CUDA 13 CUPTI does where the collector depends on it:
// buffers come from the client's request callback and go back through the completion callback on
// another thread; cuptiActivityGetNextRecord walks records by their kind's struct size; the dropped count
// resets on read; pushes and pops of external correlation ids form a stack.
#include "fake_cupti.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

namespace fake_cupti {
namespace {

struct State {
  std::mutex mutex;
  // process-wide
  CUpti_TimestampCallbackFunc timestamp_callback = nullptr;
  int timestamp_registrations = 0;
  long call_counter = 0;
  long timestamp_registered_at = -1;
  long first_enable_at = -1;
  CUpti_BuffersCallbackRequestFunc request = nullptr;
  CUpti_BuffersCallbackCompleteFunc complete = nullptr;
  std::map<CUpti_ActivityAttribute, std::uint64_t> attributes;  // cuptiActivitySetAttribute, as integers
  long zeroed_attribute_at = -1;
  // reset() clears these
  std::map<std::string, CUptiResult> failures;
  std::map<CUpti_ActivityKind, CUptiResult> enable_failures;
  bool held = false;
  std::string holder;
  std::size_t dropped = 0;
  // What cuptiGetVersion reports: a CUPTI without the defects the collector acts on (13.1 Update 1), so
  // that no test's collector is refused for being a later session of the test process.
  std::uint32_t version = 130101;
  std::vector<std::vector<std::uint8_t>> at_flush;
  std::vector<std::string> calls;
  std::vector<std::uint64_t> pushed;
  std::vector<CUpti_ExternalCorrelationKind> pushed_kinds;
  std::vector<std::uint64_t> stack;
  int depth = 0;
  std::vector<std::uint32_t> flush_flags;
  std::set<CUpti_ActivityKind> enabled;
  std::vector<CUpti_ActivityKind> ever_enabled;
  // cuptiActivityEnableRuntimeApi / cuptiActivityEnableDriverApi(cbid, 0) after the kind was enabled:
  // those calls leave no record (enabling the kind again switches them all back on, as the header says)
  std::set<std::pair<CUpti_ActivityKind, CUpti_CallbackId>> api_off;
  bool subscribed = false;
  std::string subscriber_name;
  std::size_t buffers_requested = 0;
  std::size_t misaligned = 0;
  std::size_t unzeroed = 0;
  std::set<std::string> callbacks_inside;
};

State& state() {
  static auto* s = new State;
  return *s;
}

// Counts a requested buffer that is not all zeros although the client said its buffers come zeroed
// (CUPTI would then hand back records with stale bytes in their unused fields).
void check_zeroed(const std::uint8_t* buffer, std::size_t size) {
  std::lock_guard lock(state().mutex);
  const auto it = state().attributes.find(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER);
  if (buffer == nullptr || it == state().attributes.end() || it->second == 0) return;
  if (std::any_of(buffer, buffer + size, [](std::uint8_t b) { return b != 0; })) ++state().unzeroed;
}

// A buffer requested and handed back empty on the calling thread.
void empty_round_trip() {
  CUpti_BuffersCallbackRequestFunc request = nullptr;
  CUpti_BuffersCallbackCompleteFunc complete = nullptr;
  {
    std::lock_guard lock(state().mutex);
    request = state().request;
    complete = state().complete;
  }
  if (request == nullptr || complete == nullptr) return;
  std::uint8_t* buffer = nullptr;
  std::size_t size = 0;
  std::size_t max_records = 0;
  request(&buffer, &size, &max_records);
  check_zeroed(buffer, size);
  {
    std::lock_guard lock(state().mutex);
    ++state().buffers_requested;
  }
  if (buffer != nullptr) complete(nullptr, 0, buffer, size, 0);
}

// Logs the call; returns the scripted failure for it, or CUPTI_SUCCESS.
CUptiResult enter(const char* function) {
  bool round_trip = false;
  CUptiResult result = CUPTI_SUCCESS;
  {
    std::lock_guard lock(state().mutex);
    ++state().call_counter;
    state().calls.emplace_back(function);
    const auto it = state().failures.find(function);
    if (it != state().failures.end()) result = it->second;
    round_trip = state().callbacks_inside.count(function) != 0;
  }
  if (round_trip) empty_round_trip();
  return result;
}

std::deque<std::string>& interned() {
  static auto* names = new std::deque<std::string>;
  return *names;
}

// Hands `bytes` to the client as CUPTI does: ask for a buffer, fill it, return it on another thread.
void deliver(const std::vector<std::uint8_t>& bytes) {
  CUpti_BuffersCallbackRequestFunc request = nullptr;
  CUpti_BuffersCallbackCompleteFunc complete = nullptr;
  {
    std::lock_guard lock(state().mutex);
    request = state().request;
    complete = state().complete;
  }
  if (request == nullptr || complete == nullptr) return;
  std::thread cupti_thread([&] {
    std::uint8_t* buffer = nullptr;
    std::size_t size = 0;
    std::size_t max_records = 0;
    request(&buffer, &size, &max_records);
    check_zeroed(buffer, size);
    {
      std::lock_guard lock(state().mutex);
      ++state().buffers_requested;
      if (reinterpret_cast<std::uintptr_t>(buffer) % 8 != 0) ++state().misaligned;
    }
    if (buffer == nullptr || size < bytes.size()) return;  // CUPTI would drop these records
    std::memcpy(buffer, bytes.data(), bytes.size());
    complete(nullptr, 0, buffer, size, bytes.size());
  });
  cupti_thread.join();
}

std::size_t record_size(CUpti_ActivityKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY: return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMSET: return sizeof(CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
    case CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API: return sizeof(CUpti_ActivityAPI);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: return sizeof(CUpti_ActivitySynchronization2);
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: return sizeof(CUpti_ActivityExternalCorrelation);
    case CUPTI_ACTIVITY_KIND_OVERHEAD: return sizeof(CUpti_ActivityOverhead3);
    default: return 0;
  }
}

}  // namespace

bool api_record_switched_off(const CUpti_Activity* record) {
  if (record->kind != CUPTI_ACTIVITY_KIND_RUNTIME && record->kind != CUPTI_ACTIVITY_KIND_DRIVER) return false;
  const auto* api = reinterpret_cast<const CUpti_ActivityAPI*>(record);
  std::lock_guard lock(state().mutex);
  return state().api_off.contains({record->kind, api->cbid});
}

std::vector<std::pair<CUpti_ActivityKind, CUpti_CallbackId>> switched_off_apis() {
  std::lock_guard lock(state().mutex);
  return {state().api_off.begin(), state().api_off.end()};
}

namespace {
void foreign_request(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = nullptr;
  *size = 0;
  *max_records = 0;
}
void foreign_complete(CUcontext, uint32_t, uint8_t*, size_t, size_t) {}
}  // namespace

void register_foreign_callbacks() {
  std::lock_guard lock(state().mutex);
  state().request = foreign_request;
  state().complete = foreign_complete;
}

void reset() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.failures.clear();
  s.enable_failures.clear();
  s.held = false;
  s.holder.clear();
  s.dropped = 0;
  s.version = 130101;
  s.at_flush.clear();
  s.calls.clear();
  s.pushed.clear();
  s.pushed_kinds.clear();
  s.stack.clear();
  s.depth = 0;
  s.flush_flags.clear();
  s.enabled.clear();
  s.ever_enabled.clear();
  s.api_off.clear();
  s.subscribed = false;
  s.subscriber_name.clear();
  s.buffers_requested = 0;
  s.misaligned = 0;
  s.unzeroed = 0;
  s.callbacks_inside.clear();
}

void fail(const std::string& function, CUptiResult code) {
  std::lock_guard lock(state().mutex);
  state().failures[function] = code;
}

void fail_enable_of(CUpti_ActivityKind kind, CUptiResult code) {
  std::lock_guard lock(state().mutex);
  state().enable_failures[kind] = code;
}

void hold_cupti(const std::string& holder) {
  std::lock_guard lock(state().mutex);
  state().held = true;
  state().holder = holder;
}

void set_dropped_records(std::size_t dropped) {
  std::lock_guard lock(state().mutex);
  state().dropped = dropped;
}

void set_version(std::uint32_t version) {
  std::lock_guard lock(state().mutex);
  state().version = version;
}

Buffer& Buffer::add_unknown_kind() {
  CUpti_ActivityAPI record{};
  record.kind = static_cast<CUpti_ActivityKind>(0x7ffffff0);
  return add(record);
}

void call_buffer_callbacks_inside(const std::string& function) {
  std::lock_guard lock(state().mutex);
  state().callbacks_inside.insert(function);
}

void deliver_at_flush(const Buffer& buffer) {
  std::lock_guard lock(state().mutex);
  state().at_flush.push_back(buffer.bytes());
}

void deliver_now(const Buffer& buffer) { deliver(buffer.bytes()); }

const char* intern(const std::string& name) {
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  interned().push_back(name);
  return interned().back().c_str();
}

std::vector<std::string> calls() {
  std::lock_guard lock(state().mutex);
  return state().calls;
}
std::vector<std::uint64_t> pushed_ids() {
  std::lock_guard lock(state().mutex);
  return state().pushed;
}
std::vector<CUpti_ExternalCorrelationKind> pushed_kinds() {
  std::lock_guard lock(state().mutex);
  return state().pushed_kinds;
}
std::vector<std::uint32_t> flush_flags() {
  std::lock_guard lock(state().mutex);
  return state().flush_flags;
}
std::vector<CUpti_ActivityKind> enabled_kinds() {
  std::lock_guard lock(state().mutex);
  return {state().enabled.begin(), state().enabled.end()};
}
std::vector<CUpti_ActivityKind> ever_enabled() {
  std::lock_guard lock(state().mutex);
  return state().ever_enabled;
}
int correlation_stack_depth() {
  std::lock_guard lock(state().mutex);
  return state().depth;
}
bool subscribed() {
  std::lock_guard lock(state().mutex);
  return state().subscribed;
}
std::string subscriber_name() {
  std::lock_guard lock(state().mutex);
  return state().subscriber_name;
}
std::size_t buffers_requested() {
  std::lock_guard lock(state().mutex);
  return state().buffers_requested;
}
std::size_t misaligned_buffers() {
  std::lock_guard lock(state().mutex);
  return state().misaligned;
}
std::size_t unzeroed_buffers() {
  std::lock_guard lock(state().mutex);
  return state().unzeroed;
}
std::optional<std::uint64_t> attribute(CUpti_ActivityAttribute attribute) {
  std::lock_guard lock(state().mutex);
  const auto it = state().attributes.find(attribute);
  if (it == state().attributes.end()) return std::nullopt;
  return it->second;
}
bool zeroed_attribute_set_before_first_enable() {
  std::lock_guard lock(state().mutex);
  return state().zeroed_attribute_at >= 0 &&
         (state().first_enable_at < 0 || state().zeroed_attribute_at < state().first_enable_at);
}
int timestamp_callback_registrations() {
  std::lock_guard lock(state().mutex);
  return state().timestamp_registrations;
}
bool timestamp_callback_registered_before_first_enable() {
  std::lock_guard lock(state().mutex);
  return state().timestamp_registered_at >= 0 &&
         (state().first_enable_at < 0 || state().timestamp_registered_at < state().first_enable_at);
}
std::uint64_t call_timestamp_callback() {
  CUpti_TimestampCallbackFunc callback = nullptr;
  {
    std::lock_guard lock(state().mutex);
    callback = state().timestamp_callback;
  }
  return callback != nullptr ? callback() : 0;
}

}  // namespace fake_cupti

// ---- the CUPTI functions, with the toolkit's declarations -----------------------------------------
using fake_cupti::enter;
using fake_cupti::state;

extern "C" {

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t* version) {
  if (const CUptiResult r = enter("cuptiGetVersion"); r != CUPTI_SUCCESS) return r;
  std::lock_guard lock(state().mutex);
  *version = state().version;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult result, const char** str) {
  switch (result) {
    case CUPTI_SUCCESS: *str = "CUPTI_SUCCESS"; return CUPTI_SUCCESS;
    case CUPTI_ERROR_INVALID_PARAMETER: *str = "CUPTI_ERROR_INVALID_PARAMETER"; return CUPTI_SUCCESS;
    case CUPTI_ERROR_NOT_INITIALIZED: *str = "CUPTI_ERROR_NOT_INITIALIZED"; return CUPTI_SUCCESS;
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: *str = "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"; return CUPTI_SUCCESS;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      *str = "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED";
      return CUPTI_SUCCESS;
    case CUPTI_ERROR_INVALID_KIND: *str = "CUPTI_ERROR_INVALID_KIND"; return CUPTI_SUCCESS;
    case CUPTI_ERROR_UNKNOWN: *str = "CUPTI_ERROR_UNKNOWN"; return CUPTI_SUCCESS;
    default: *str = nullptr; return CUPTI_ERROR_INVALID_PARAMETER;
  }
}

CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid, const char** name) {
  // The names CUDA 13 CUPTI returns (checked against libcupti 130001) for the ids the tests use.
  struct Entry {
    CUpti_CallbackDomain domain;
    uint32_t cbid;
    const char* name;
  };
  static const Entry kNames[] = {
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, "cudaStreamSynchronize_v3020"},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, "cudaDeviceSynchronize_v3020"},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020, "cudaEventSynchronize_v3020"},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020, "cudaGetDevice_v3020"},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32, "cuStreamWriteValue32"},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, "cuCtxSynchronize"},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, "cudaMalloc_v3020"},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020, "cudaEventQuery_v3020"},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020, "cudaEventRecord_v3020"},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020, "cudaStreamWaitEvent_v3020"},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020, "cudaGetDeviceCount_v3020"},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, "cuMemAlloc_v2"},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, "cuStreamSynchronize"},
  };
  enter("cuptiGetCallbackName");
  for (const Entry& entry : kNames) {
    if (entry.domain == domain && entry.cbid == cbid) {
      *name = entry.name;
      return CUPTI_SUCCESS;
    }
  }
  *name = nullptr;
  return CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiSubscribe_v2(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc /*callback*/,
                                       void* /*userdata*/, CUpti_SubscriberParams* params) {
  if (const CUptiResult r = enter("cuptiSubscribe_v2"); r != CUPTI_SUCCESS) return r;
  std::lock_guard lock(state().mutex);
  if (params == nullptr || params->structSize != CUpti_SubscriberParams_STRUCT_SIZE) return CUPTI_ERROR_INVALID_PARAMETER;
  if (state().held || state().subscribed) {
    if (params->oldSubscriberName != nullptr && params->oldSubscriberSize > 0) {
      const std::string& holder = state().held ? state().holder : state().subscriber_name;
      const std::size_t n = std::min(holder.size(), params->oldSubscriberSize - 1);
      std::memcpy(params->oldSubscriberName, holder.data(), n);
      params->oldSubscriberName[n] = '\0';
    }
    return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  }
  state().subscribed = true;
  state().subscriber_name = params->subscriberName != nullptr ? params->subscriberName : "";
  *subscriber = reinterpret_cast<CUpti_SubscriberHandle>(&state());
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle subscriber) {
  if (const CUptiResult r = enter("cuptiUnsubscribe"); r != CUPTI_SUCCESS) return r;
  std::lock_guard lock(state().mutex);
  if (subscriber == nullptr || !state().subscribed) return CUPTI_ERROR_INVALID_PARAMETER;
  state().subscribed = false;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc callback) {
  if (const CUptiResult r = enter("cuptiActivityRegisterTimestampCallback"); r != CUPTI_SUCCESS) return r;
  std::lock_guard lock(state().mutex);
  state().timestamp_callback = callback;
  ++state().timestamp_registrations;
  state().timestamp_registered_at = state().call_counter;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                                    CUpti_BuffersCallbackCompleteFunc complete) {
  if (const CUptiResult r = enter("cuptiActivityRegisterCallbacks"); r != CUPTI_SUCCESS) return r;
  if (request == nullptr || complete == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  std::lock_guard lock(state().mutex);
  state().request = request;
  state().complete = complete;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivitySetAttribute(CUpti_ActivityAttribute attr, size_t* valueSize, void* value) {
  if (const CUptiResult r = enter("cuptiActivitySetAttribute"); r != CUPTI_SUCCESS) return r;
  if (valueSize == nullptr || value == nullptr || *valueSize == 0 || *valueSize > sizeof(std::uint64_t)) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  std::uint64_t number = 0;  // little-endian: the value's bytes as an integer of its size
  std::memcpy(&number, value, *valueSize);
  std::lock_guard lock(state().mutex);
  state().attributes[attr] = number;
  if (attr == CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER && state().zeroed_attribute_at < 0) {
    state().zeroed_attribute_at = state().call_counter;
  }
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind) {
  if (const CUptiResult r = enter("cuptiActivityEnable"); r != CUPTI_SUCCESS) return r;
  std::lock_guard lock(state().mutex);
  if (state().first_enable_at < 0) state().first_enable_at = state().call_counter;
  if (const auto it = state().enable_failures.find(kind); it != state().enable_failures.end()) return it->second;
  state().enabled.insert(kind);
  state().ever_enabled.push_back(kind);
  std::erase_if(state().api_off, [kind](const auto& off) { return off.first == kind; });
  return CUPTI_SUCCESS;
}

static CUptiResult enable_api(const char* function, CUpti_ActivityKind kind, CUpti_CallbackId cbid, uint8_t enable) {
  if (const CUptiResult r = enter(function); r != CUPTI_SUCCESS) return r;
  std::lock_guard lock(state().mutex);
  if (enable != 0) {
    state().api_off.erase({kind, cbid});
  } else {
    state().api_off.insert({kind, cbid});
  }
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnableRuntimeApi(CUpti_CallbackId cbid, uint8_t enable) {
  return enable_api("cuptiActivityEnableRuntimeApi", CUPTI_ACTIVITY_KIND_RUNTIME, cbid, enable);
}

CUptiResult CUPTIAPI cuptiActivityEnableDriverApi(CUpti_CallbackId cbid, uint8_t enable) {
  return enable_api("cuptiActivityEnableDriverApi", CUPTI_ACTIVITY_KIND_DRIVER, cbid, enable);
}

CUptiResult CUPTIAPI cuptiActivityDisable(CUpti_ActivityKind kind) {
  if (const CUptiResult r = enter("cuptiActivityDisable"); r != CUPTI_SUCCESS) return r;
  std::lock_guard lock(state().mutex);
  state().enabled.erase(kind);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext /*context*/, uint32_t /*stream*/, size_t* dropped) {
  if (const CUptiResult r = enter("cuptiActivityGetNumDroppedRecords"); r != CUPTI_SUCCESS) return r;
  if (dropped == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  std::lock_guard lock(state().mutex);
  *dropped = state().dropped;
  state().dropped = 0;  // resets on read
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityPushExternalCorrelationId(CUpti_ExternalCorrelationKind kind, uint64_t id) {
  if (const CUptiResult r = enter("cuptiActivityPushExternalCorrelationId"); r != CUPTI_SUCCESS) return r;
  std::lock_guard lock(state().mutex);
  state().pushed.push_back(id);
  state().pushed_kinds.push_back(kind);
  state().stack.push_back(id);
  ++state().depth;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityPopExternalCorrelationId(CUpti_ExternalCorrelationKind /*kind*/, uint64_t* last) {
  if (const CUptiResult r = enter("cuptiActivityPopExternalCorrelationId"); r != CUPTI_SUCCESS) return r;
  std::lock_guard lock(state().mutex);
  if (state().stack.empty()) return CUPTI_ERROR_QUEUE_EMPTY;
  if (last != nullptr) *last = state().stack.back();
  state().stack.pop_back();
  --state().depth;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t flag) {
  if (const CUptiResult r = enter("cuptiActivityFlushAll"); r != CUPTI_SUCCESS) return r;
  std::vector<std::vector<std::uint8_t>> buffers;
  {
    std::lock_guard lock(state().mutex);
    state().flush_flags.push_back(flag);
    buffers.swap(state().at_flush);
  }
  for (const auto& bytes : buffers) fake_cupti::deliver(bytes);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t* buffer, size_t valid_bytes, CUpti_Activity** record) {
  // Not logged: called once per record.
  if (buffer == nullptr || record == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  std::size_t offset = 0;
  if (*record != nullptr) {
    const std::size_t size = fake_cupti::record_size((*record)->kind);
    offset = static_cast<std::size_t>(reinterpret_cast<uint8_t*>(*record) - buffer) + size;
  }
  if (offset >= valid_bytes) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  while (true) {
    auto* next = reinterpret_cast<CUpti_Activity*>(buffer + offset);
    const std::size_t size = fake_cupti::record_size(next->kind);
    if (size == 0 || offset + size > valid_bytes) return CUPTI_ERROR_INVALID_KIND;
    if (fake_cupti::api_record_switched_off(next)) {  // CUPTI would not have written it
      offset += size;
      if (offset >= valid_bytes) return CUPTI_ERROR_MAX_LIMIT_REACHED;
      continue;
    }
    *record = next;
    return CUPTI_SUCCESS;
  }
}

}  // extern "C"
