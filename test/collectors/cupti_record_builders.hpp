#pragma once
// Activity records as CUPTI fills them (the toolkit's CUDA 13 structs), for the tests that hand them to
// the collector or to its record reader through the fake CUPTI (test/collectors/fake_cupti).
#include <cupti.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "fake_cupti.hpp"

namespace ohprof::cupti_test {

// ---- record builders: the toolkit's structs, fields as CUPTI fills them --------------------------
inline CUpti_ActivityAPI api(CUpti_ActivityKind kind, CUpti_CallbackId cbid, std::uint64_t start, std::uint64_t end,
                             std::uint32_t thread, std::uint32_t correlation) {
  CUpti_ActivityAPI r{};
  r.kind = kind;
  r.cbid = cbid;
  r.start = start;
  r.end = end;
  r.processId = 4242;
  r.threadId = thread;
  r.correlationId = correlation;
  return r;
}
inline CUpti_ActivityAPI runtime(CUpti_CallbackId cbid, std::uint64_t start, std::uint64_t end, std::uint32_t thread,
                                 std::uint32_t correlation) {
  return api(CUPTI_ACTIVITY_KIND_RUNTIME, cbid, start, end, thread, correlation);
}
inline CUpti_ActivityAPI driver(CUpti_CallbackId cbid, std::uint64_t start, std::uint64_t end, std::uint32_t thread,
                                std::uint32_t correlation) {
  return api(CUPTI_ACTIVITY_KIND_DRIVER, cbid, start, end, thread, correlation);
}

inline CUpti_ActivityKernel10 kernel(const std::string& name, std::uint64_t start, std::uint64_t end, std::uint32_t device,
                                     std::uint32_t stream, std::uint32_t correlation, std::uint32_t graph_id = 0) {
  auto r = fake_cupti::device_record<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, start, end,
                                                             device, stream, correlation, graph_id);
  r.completed = end;
  r.gridX = 64;
  r.gridY = 1;
  r.gridZ = 1;
  r.blockX = 256;
  r.blockY = 1;
  r.blockZ = 1;
  r.name = fake_cupti::intern(name);
  r.graphNodeId = graph_id != 0 ? 1000 + correlation : 0;
  return r;
}

inline CUpti_ActivityMemcpy6 copy(CUpti_ActivityMemcpyKind direction, std::uint64_t bytes, std::uint64_t start,
                                  std::uint64_t end, std::uint32_t stream, std::uint32_t correlation) {
  auto r = fake_cupti::device_record<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY, start, end, 0, stream,
                                                            correlation);
  r.copyKind = static_cast<std::uint8_t>(direction);
  r.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  r.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
  r.bytes = bytes;
  return r;
}

inline CUpti_ActivityMemset4 fill(std::uint64_t bytes, std::uint64_t start, std::uint64_t end, std::uint32_t stream,
                                  std::uint32_t correlation) {
  auto r = fake_cupti::device_record<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET, start, end, 0, stream,
                                                            correlation);
  r.value = 0;
  r.bytes = bytes;
  r.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  return r;
}

inline CUpti_ActivitySynchronization2 sync(CUpti_ActivitySynchronizationType type, std::uint64_t start, std::uint64_t end,
                                           std::uint32_t correlation) {
  CUpti_ActivitySynchronization2 r{};
  r.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
  r.type = type;
  r.start = start;
  r.end = end;
  r.correlationId = correlation;
  r.contextId = 1;
  r.streamId = 7;
  return r;
}

inline CUpti_ActivityExternalCorrelation tag(std::uint64_t external_id, std::uint32_t correlation,
                                             CUpti_ExternalCorrelationKind kind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2) {
  CUpti_ActivityExternalCorrelation r{};
  r.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
  r.externalKind = kind;
  r.externalId = external_id;
  r.correlationId = correlation;
  return r;
}

inline CUpti_ActivityOverhead3 overhead(CUpti_ActivityOverheadKind kind, std::uint64_t start, std::uint64_t end) {
  CUpti_ActivityOverhead3 r{};
  r.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
  r.overheadKind = kind;
  r.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  r.objectId.pt.processId = 4242;
  r.objectId.pt.threadId = 77;
  r.start = start;
  r.end = end;
  // CUPTI allocates this and the client must free it: tools/sanitize's leak check fails if it does not.
  r.overheadData = std::malloc(16);
  return r;
}

}  // namespace ohprof::cupti_test
