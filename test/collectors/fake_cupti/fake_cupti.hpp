#pragma once
// A fake CUPTI for tests (libohprof_fake_cupti.so). It exports the CUPTI functions that
// src/collectors/cupti_collector.cpp calls, with the toolkit's own declarations (cupti.h), so the collector's real
// code runs without a GPU. Anything else the collector called would fail to link. The test scripts it
// through this control API: which calls fail and with what, who holds CUPTI, how many records were
// dropped, and the buffers of real CUDA 13 record structs handed to the completion callback.
#include <cupti.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fake_cupti {

// Forgets scripted failures, buffers, logs and the subscriber. Keeps what CUPTI keeps for the whole
// process: the registered timestamp and buffer callbacks.
void reset();

// Every later call of `function` (e.g. "cuptiActivityEnable") returns `code`, until reset().
void fail(const std::string& function, CUptiResult code);
// cuptiActivityEnable fails for this kind only.
void fail_enable_of(CUpti_ActivityKind kind, CUptiResult code);
// cuptiSubscribe_v2 returns CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED and writes `holder`
// (may be empty) into oldSubscriberName, as CUDA 13 CUPTI does.
void hold_cupti(const std::string& holder);
// Another CUPTI user (torch's profiler) registers its own buffer callbacks: CUPTI keeps only the last
// registration, so buffers go to that user until the collector registers again.
void register_foreign_callbacks();
// What the next cuptiActivityGetNumDroppedRecords reports (then 0 again: the count resets on read).
void set_dropped_records(std::size_t dropped);
// What cuptiGetVersion reports (130101, 13.1 Update 1, after reset(): no defect the collector acts on).
void set_version(std::uint32_t version);

// Records laid out back to back as CUPTI lays them out (each record is 8-byte aligned).
class Buffer {
 public:
  template <typename Record>
  Buffer& add(const Record& record) {
    static_assert(sizeof(Record) % 8 == 0, "CUPTI records are 8-byte aligned");
    const std::size_t offset = m_bytes.size();
    m_bytes.resize(offset + sizeof(Record));
    std::memcpy(m_bytes.data() + offset, &record, sizeof(Record));
    return *this;
  }
  // Records already laid out (e.g. records built one by one and shuffled); the caller keeps the layout.
  static Buffer from_bytes(std::vector<std::uint8_t> bytes) {
    Buffer buffer;
    buffer.m_bytes = std::move(bytes);
    return buffer;
  }
  // A record header of a kind CUPTI's iterator does not know (cuptiActivityGetNextRecord then fails).
  Buffer& add_unknown_kind();
  [[nodiscard]] const std::vector<std::uint8_t>& bytes() const { return m_bytes; }

 private:
  std::vector<std::uint8_t> m_bytes;
};

// From now on, every call of `function` asks for a buffer and hands it back empty, on the calling
// thread, before returning (CUPTI may call the buffer callbacks from inside any of its functions).
void call_buffer_callbacks_inside(const std::string& function);

// Delivered through the completion callback, from another thread, at the next cuptiActivityFlushAll.
void deliver_at_flush(const Buffer& buffer);
// Delivered now, from another thread (as CUPTI does when a buffer fills during the run).
void deliver_now(const Buffer& buffer);

// A kernel, memcpy or memset record with the fields the three structs share (same names in each), in
// context 1; the caller fills the rest.
template <typename Record>
Record device_record(CUpti_ActivityKind kind, std::uint64_t start, std::uint64_t end, std::uint32_t device,
                     std::uint32_t stream, std::uint32_t correlation, std::uint32_t graph_id = 0) {
  Record r{};
  r.kind = kind;
  r.start = start;
  r.end = end;
  r.deviceId = device;
  r.contextId = 1;
  r.streamId = stream;
  r.correlationId = correlation;
  r.graphId = graph_id;
  return r;
}

// A kernel name that lives as long as the process (CUPTI owns the names it hands out).
const char* intern(const std::string& name);

// ---- what the collector did -----------------------------------------------------------------
std::vector<std::string> calls();                 // function names in call order since reset()
std::vector<std::uint64_t> pushed_ids();           // external ids pushed (CUSTOM2) since reset()
std::vector<CUpti_ExternalCorrelationKind> pushed_kinds();
std::vector<std::uint32_t> flush_flags();          // cuptiActivityFlushAll flags since reset()
std::vector<CUpti_ActivityKind> enabled_kinds();   // kinds enabled now
std::vector<CUpti_ActivityKind> ever_enabled();    // kinds enabled since reset()
// The (RUNTIME or DRIVER, cbid) pairs whose records are switched off now (cuptiActivityEnable*Api(cbid, 0)
// after the kind was enabled); cuptiActivityGetNextRecord skips their records, as CUPTI never writes them.
std::vector<std::pair<CUpti_ActivityKind, CUpti_CallbackId>> switched_off_apis();
bool api_record_switched_off(const CUpti_Activity* record);
int correlation_stack_depth();                     // pushes minus pops since reset()
bool subscribed();                                 // a subscriber is registered now
std::string subscriber_name();                     // the name it gave
std::size_t buffers_requested();                   // buffer requests since reset()
std::size_t misaligned_buffers();                  // requested buffers not 8-byte aligned
std::size_t unzeroed_buffers();                    // requested buffers not all zeros, once the client set
                                                   // CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER
// What cuptiActivitySetAttribute last set for `attribute` (its bytes as an integer); process-wide.
std::optional<std::uint64_t> attribute(CUpti_ActivityAttribute attribute);

// Process-wide, never reset: the order CUPTI saw these in.
int timestamp_callback_registrations();
bool timestamp_callback_registered_before_first_enable();
bool zeroed_attribute_set_before_first_enable();
// Calls the registered timestamp callback (0 when none).
std::uint64_t call_timestamp_callback();

}  // namespace fake_cupti
