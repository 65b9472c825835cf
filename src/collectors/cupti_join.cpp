// The join of CUPTI's records into a Timeline (include/ohprof/collectors/cupti_join.hpp, docs/cupti.md).
#include "ohprof/collectors/cupti_join.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace ohprof {

TagPlace place_of(const ActivityRecords& records, std::uint32_t correlation, std::uint64_t session) {
  const auto it = records.tags.find(correlation);
  if (it == records.tags.end()) return {};
  const std::uint64_t tag = it->second;
  if ((tag >> kTagSessionShift) != session) return {TagPlace::Kind::other_session, 0};
  const auto index = static_cast<std::int64_t>(tag & kTagIndexMask);
  return {(tag & kTagWarmupBit) != 0 ? TagPlace::Kind::warmup : TagPlace::Kind::measured, index};
}

CuptiCollection join_records(ActivityRecords& records, std::uint64_t session, std::uint64_t dropped,
                             const std::vector<IterationWindow>& iterations) {
  CuptiCollection out;
  Timeline& timeline = out.timeline;
  timeline.iterations = iterations;
  timeline.counters.dropped_records = dropped;
  const auto name_of = [&](const ApiRecord& api) { return records.api_names.at(api.name); };
  // Where a record goes: nowhere (another session's), counted (a warm-up's), or kept.
  const auto kept = [&](std::uint32_t correlation, TagPlace& where) {
    where = place_of(records, correlation, session);
    if (where.kind == TagPlace::Kind::warmup) ++out.warmup_records;
    return where.kind == TagPlace::Kind::measured || where.kind == TagPlace::Kind::untagged;
  };

  // Launch calls: one per correlation id. Should a launch API appear twice under one id (a driver
  // call made inside a runtime call), the outer call (earliest start) is the launch.
  std::unordered_map<std::uint32_t, std::size_t> launch_of;  // correlation -> index in records.apis
  std::unordered_map<std::uint32_t, std::size_t> api_of;     // correlation -> any API record
  for (std::size_t i = 0; i < records.apis.size(); ++i) {
    const ApiRecord& api = records.apis[i];
    // The outer call (earliest start, then longest) when a call made others under its correlation id.
    if (auto [it, inserted] = api_of.emplace(api.correlation, i); !inserted) {
      const ApiRecord& other = records.apis[it->second];
      if (std::tie(api.start_ns, other.end_ns) < std::tie(other.start_ns, api.end_ns)) it->second = i;
    }
    if (!api.launch) continue;
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
      if (api.domain == ApiDomain::runtime && (api.start_ns != 0 || api.end_ns != 0)) {
        runtime_launches[api.thread_id].emplace_back(api.start_ns, api.end_ns);
      }
    }
    for (auto& [thread, calls] : runtime_launches) std::sort(calls.begin(), calls.end());
    for (auto it = launch_of.begin(); it != launch_of.end();) {
      const ApiRecord& api = records.apis[it->second];
      bool inner = false;
      const bool timed = api.start_ns != 0 || api.end_ns != 0;
      if (api.domain != ApiDomain::runtime && timed && with_ops.count(it->first) == 0) {
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

  TagPlace where;
  for (const auto& [correlation, index] : launch_of) {
    if (!kept(correlation, where)) continue;
    const ApiRecord& api = records.apis[index];
    LaunchCall call;
    call.kind = api.launch.value_or(LaunchKind::other);
    call.start_ns = api.start_ns;
    call.end_ns = api.end_ns;
    call.thread_id = api.thread_id;
    call.correlation = correlation;
    if (where.kind == TagPlace::Kind::measured) call.iteration = where.index;
    call.name = name_of(api);
    call.synchronous = call.kind == LaunchKind::memcpy && synchronous_copy_api(call.name);
    timeline.launches.push_back(std::move(call));
  }

  for (DeviceOp& op : records.ops) {
    const auto correlation = static_cast<std::uint32_t>(op.correlation);
    if (!kept(correlation, where)) continue;
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
    if (sync.stream_wait) continue;
    sync_correlations.insert(sync.correlation);
    if (!kept(sync.correlation, where)) continue;
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
      call.name = name_of(record);
    } else {
      call.name = sync.type_name;
    }
    timeline.syncs.push_back(std::move(call));
    sync_iteration.push_back(where.kind == TagPlace::Kind::measured ? std::optional<std::int64_t>(where.index)
                                                                    : std::nullopt);
  }

  // The harness's own end-of-iteration synchronisation: every measured iteration's run_once() ends with
  // torch::cuda::synchronize (cudaDeviceSynchronize) inside the iteration's tag, so it is the iteration's
  // last sync call (the latest start; then the latest end). An iteration without a sync call marks none.
  std::unordered_map<std::int64_t, std::size_t> last_sync;  // measured iteration -> index in timeline.syncs
  for (std::size_t i = 0; i < timeline.syncs.size(); ++i) {
    if (!sync_iteration[i]) continue;
    auto [it, inserted] = last_sync.emplace(*sync_iteration[i], i);
    const SyncCall& latest = timeline.syncs[it->second];
    const SyncCall& call = timeline.syncs[i];
    if (!inserted && std::tie(call.start_ns, call.end_ns) > std::tie(latest.start_ns, latest.end_ns)) it->second = i;
  }
  for (const auto& [iteration, index] : last_sync) timeline.syncs[index].harness = true;

  // Every other API call: neither a launch (nor a call made inside one) nor a synchronisation's API
  // record. One per correlation id, the outer call (api_of), attributed like the launches.
  for (const auto& [correlation, index] : api_of) {
    if (launch_of.count(correlation) != 0 || sync_correlations.count(correlation) != 0 ||
        inner_launches.count(correlation) != 0) {
      continue;
    }
    if (!kept(correlation, where)) continue;
    const ApiRecord& api = records.apis[index];
    timeline.api_calls.push_back(ApiCall{api.start_ns, api.end_ns, api.thread_id, name_of(api)});
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

GraphWork graph_work(const ActivityRecords& records) {
  std::unordered_set<std::uint32_t> launch_ids;  // a runtime graph launch and its driver call share one
  for (const ApiRecord& api : records.apis) {
    if (api.launch == LaunchKind::graph) launch_ids.insert(api.correlation);
  }
  GraphWork work;
  work.launches = launch_ids.size();
  work.ops = static_cast<std::uint64_t>(
      std::count_if(records.ops.begin(), records.ops.end(), [](const DeviceOp& op) { return op.graph_id != 0; }));
  return work;
}

}  // namespace ohprof
