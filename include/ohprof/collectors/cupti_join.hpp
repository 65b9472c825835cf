#pragma once
// The join: CUPTI's records of one collection (cupti_records.hpp) into a Timeline of plain structs,
// each record attributed to its iteration through the tag of its correlation id. Pure: no CUPTI call,
// no process state; src/collectors/cupti_join.cpp. What is joined and how: docs/cupti.md.
#include <cstdint>
#include <vector>

#include "ohprof/collectors/cupti_records.hpp"
#include "ohprof/model/timeline.hpp"
#include "ohprof/model/warning.hpp"

namespace ohprof {

struct CuptiCollection {
  Timeline timeline;                     // measured iterations only; counters filled
  std::vector<CuptiOverhead> overheads;  // CUPTI's own cost during the whole collection
  std::uint64_t warmup_records = 0;      // ops, launches, syncs and API calls of warm-up iterations (left out)
  std::uint64_t buffers_zeroed_in_run = 0;  // buffers beyond CuptiOptions::prepared_buffers (also a warning)
  std::vector<Warning> warnings;         // e.g. an unreadable buffer; also reflected in the counters
};

// The records of collector session `session` (records of other sessions are left out) into a
// collection whose Timeline::iterations are `iterations` and whose dropped-record count is `dropped`:
// - launch calls, one per correlation id: the outer call (the earliest start) when a launch API appears
//   twice under one id; an unlisted call that enqueued device work is a launch of kind `other`; a driver
//   launch inside a runtime launch on the same thread whose own id carries no work is the same launch
//   and is dropped;
// - device ops (without timestamps: counted, not kept; without a launch: counted and kept);
// - host synchronisations (not stream waits), with their API call's thread and name, or its times when
//   CUPTI lost theirs; the last one of each measured iteration is the harness's own;
// - every other API call, one per correlation id (the outer call).
// Warm-up records are counted, not kept; untagged records are kept without an iteration. Each list is
// sorted by start. The records' overheads and warnings move into the collection.
CuptiCollection join_records(ActivityRecords& records, std::uint64_t session, std::uint64_t dropped,
                             const std::vector<IterationWindow>& iterations);

// CUDA graph work among all the records (untagged and other sessions' included): graph launch calls,
// counted once per correlation id (a runtime graph launch and its driver call share one), and device
// ops with a graph id. What graph_correlation_refusal (cupti_collector.hpp) decides on.
struct GraphWork {
  std::uint64_t launches = 0;
  std::uint64_t ops = 0;
};
GraphWork graph_work(const ActivityRecords& records);

}  // namespace ohprof
