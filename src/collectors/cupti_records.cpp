// Reading CUPTI's activity buffers into plain records (include/ohprof/collectors/cupti_records.hpp): the
// piece that knows CUPTI's record layouts and callback ids. docs/cupti.md, "What is collected".
#include "ohprof/collectors/cupti_records.hpp"

#ifdef OHPROF_HAVE_CUPTI
#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "cupti_common.hpp"
#include "ohprof/model/launch_apis.hpp"

namespace ohprof {

std::string cupti_result_text(CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) == CUPTI_SUCCESS && text != nullptr) return text;
  return fmt::format("CUPTI error {}", static_cast<int>(result));
}

namespace {

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

ApiClass classify(ApiDomain domain, std::uint32_t cbid) {
  switch (domain) {
    case ApiDomain::internal: return ApiClass{LaunchKind::kernel, kInternalLaunchName};
    case ApiDomain::runtime: return classify_runtime(cbid);
    case ApiDomain::driver: return classify_driver(cbid);
  }
  return ApiClass{};
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

std::string api_name(ApiDomain domain, std::uint32_t cbid, const char* listed_name) {
  const bool runtime = domain == ApiDomain::runtime;
  const char* name = listed_name;
  if (name == nullptr) {
    const CUpti_CallbackDomain cb_domain = runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
    if (cuptiGetCallbackName(cb_domain, cbid, &name) != CUPTI_SUCCESS || name == nullptr) {
      return fmt::format("{} API {}", runtime ? "runtime" : "driver", cbid);
    }
  }
  return runtime ? runtime_api_name(name) : std::string(name);
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

ApiDomain domain_of(CUpti_ActivityKind kind) {
  if (kind == CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API) return ApiDomain::internal;
  return kind == CUPTI_ACTIVITY_KIND_RUNTIME ? ApiDomain::runtime : ApiDomain::driver;
}

ApiRecord api_record(CUpti_ActivityKind kind, const CUpti_ActivityAPI& api, ActivityRecords& out) {
  ApiRecord record;
  record.domain = domain_of(kind);
  // An internal launch has no callback id: one class and one name for all of them.
  const std::uint32_t cbid = record.domain == ApiDomain::internal ? 0 : api.cbid;
  const ApiClass cls = classify(record.domain, cbid);
  record.launch = cls.launch;
  const std::uint64_t key = (static_cast<std::uint64_t>(record.domain) << 32) | cbid;
  auto [it, inserted] = out.api_name_of.emplace(key, static_cast<std::uint32_t>(out.api_names.size()));
  if (inserted) out.api_names.push_back(api_name(record.domain, cbid, cls.name));
  record.name = it->second;
  record.start_ns = ns(api.start);
  record.end_ns = ns(api.end);
  record.thread_id = api.threadId;
  record.correlation = api.correlationId;
  return record;
}

void read_record(const CUpti_Activity* record, ActivityRecords& out) {
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
    case CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API:
      out.apis.push_back(api_record(record->kind, *reinterpret_cast<const CUpti_ActivityAPI*>(record), out));
      break;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
      const auto& sync = *reinterpret_cast<const CUpti_ActivitySynchronization2*>(record);
      // start == end == 0: CUPTI could not collect the timestamps; the join takes the API record's.
      out.syncs.push_back(SyncRecord{sync.type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT,
                                     sync_type_name(sync.type), ns(sync.start), ns(sync.end), sync.correlationId});
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

}  // namespace

void read_activity_buffer(std::uint8_t* buffer, std::size_t valid_bytes, ActivityRecords& out) {
  CUpti_Activity* record = nullptr;
  for (;;) {
    const CUptiResult status = cuptiActivityGetNextRecord(buffer, valid_bytes, &record);
    if (status == CUPTI_ERROR_MAX_LIMIT_REACHED) return;
    if (status != CUPTI_SUCCESS) {
      out.warnings.push_back(Warning{WarningCode::cupti_buffer_unreadable,
                                     fmt::format("an activity buffer could not be read to its end: {}",
                                                 cupti_result_text(status))});
      return;
    }
    read_record(record, out);
  }
}

}  // namespace ohprof
#endif  // OHPROF_HAVE_CUPTI
