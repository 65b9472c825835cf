#pragma once
// CUPTI's activity records as plain structs: what reading an activity buffer gives
// (src/collectors/cupti_records.cpp, the piece that knows CUPTI's record layouts) and what the join reads
// (cupti_join.hpp). Nothing here includes cupti.h; the callback ids are resolved while reading, into a
// launch kind from the shared table (model/launch_apis.hpp) and a name. Definitions: docs/cupti.md.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ohprof/model/timeline.hpp"
#include "ohprof/model/warning.hpp"

namespace ohprof {

// Which API a host call record belongs to. An internal launch is a library's launch outside any public
// API function (CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API): a kernel launch without a callback id.
enum class ApiDomain : std::uint8_t { runtime, driver, internal };

// One CUDA runtime or driver call (CUpti_ActivityAPI).
struct ApiRecord {
  ApiDomain domain = ApiDomain::runtime;
  std::optional<LaunchKind> launch;  // from the shared table; empty: not a listed launch, copy or fill
  std::uint32_t name = 0;            // index into ActivityRecords::api_names
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::uint32_t thread_id = 0;
  std::uint32_t correlation = 0;
};

// One synchronisation (CUpti_ActivitySynchronization2). start == end == 0: CUPTI lost the timestamps.
struct SyncRecord {
  // cudaStreamWaitEvent: a stream waits on the device, the host does not block (its API record stays an
  // API call).
  bool stream_wait = false;
  const char* type_name = "synchronize";  // "stream synchronize", "event synchronize", ... (static text)
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::uint32_t correlation = 0;
};

// Time CUPTI itself spent (CUPTI_ACTIVITY_KIND_OVERHEAD): buffer flushes, instrumentation, lazy
// function loading... Kept whole-run (not per iteration): the analysis may intersect them with windows.
struct CuptiOverhead {
  std::string kind;  // "cupti buffer flush", "cupti instrumentation", "lazy function loading", ...
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

// Every record of a collection, in the order read (CUPTI does not order records across buffers).
struct ActivityRecords {
  std::vector<DeviceOp> ops;  // kernels, copies and fills; correlation is the launch's id
  std::vector<ApiRecord> apis;
  std::vector<SyncRecord> syncs;
  std::unordered_map<std::uint32_t, std::uint64_t> tags;  // correlation id -> ohprof's iteration tag
  std::vector<CuptiOverhead> overheads;
  std::vector<Warning> warnings;  // e.g. a buffer that could not be read to its end
  // The API calls' names, each made once ("cudaLaunchKernel": runtime names without their version).
  std::vector<std::string> api_names;
  std::unordered_map<std::uint64_t, std::uint32_t> api_name_of;  // (domain << 32 | callback id) -> index
};

// Reads every record of one completed activity buffer (`valid_bytes` of it) into `out`: kernels,
// copies, fills, runtime, driver and internal-launch calls, synchronisations, ohprof's iteration tags
// (external correlation kind CUSTOM2) and CUPTI's overheads; other kinds are skipped. A buffer that cannot
// be read to its end keeps what came before and adds a cupti-buffer-unreadable warning. Defined only
// in a build with CUPTI.
void read_activity_buffer(std::uint8_t* buffer, std::size_t valid_bytes, ActivityRecords& out);

// ---- ohprof's iteration tags: (session << 48) | (warm-up bit) | iteration index ------------------
// Each iteration's external correlation id. The session (one per collector in this process) keeps
// records of an earlier collector that arrive late from being taken for this one's.
inline constexpr int kTagSessionShift = 48;
inline constexpr std::uint64_t kTagWarmupBit = std::uint64_t{1} << 47;
inline constexpr std::uint64_t kTagIndexMask = kTagWarmupBit - 1;

constexpr std::uint64_t encode_iteration_tag(std::uint64_t session, std::int64_t index, bool warmup) {
  return (session << kTagSessionShift) | (warmup ? kTagWarmupBit : 0) |
         (static_cast<std::uint64_t>(index) & kTagIndexMask);
}

// Where a correlation id's tag puts a record of collector session `session`.
struct TagPlace {
  enum class Kind : std::uint8_t { measured, warmup, untagged, other_session } kind = Kind::untagged;
  std::int64_t index = 0;  // the iteration, for measured and warmup
};
TagPlace place_of(const ActivityRecords& records, std::uint32_t correlation, std::uint64_t session);

}  // namespace ohprof
