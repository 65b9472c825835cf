// Real GPU timelines through the CUPTI collector's real code. No GPU is available to CI, so the three
// A100 traces of test/data/traces (recorded by PyTorch's profiler, which builds them from CUPTI records)
// are turned back into the CUDA 13 CUPTI records they came from:
//   - each launch call (cudaLaunchKernel, cudaLaunchKernelExC, cudaMemcpyAsync, cudaMemsetAsync,
//     cuLaunchKernel) becomes a RUNTIME or DRIVER API record with its callback id, preceded by the
//     EXTERNAL_CORRELATION record that CUPTI writes for an API call made while an iteration's id is
//     pushed (the iteration = the ProfilerStep window the call starts in; calls before the first window
//     carry a warm-up iteration's id, calls after the last carry none);
//   - each kernel, copy and fill becomes a CONCURRENT_KERNEL / MEMCPY / MEMSET record;
//   - each host synchronisation becomes a SYNCHRONIZATION record and its API record.
// The records are shuffled and cut into buffers of uneven size, some delivered while "running" and the
// rest at the final flush, as CUPTI delivers them. The collector's Timeline must then hold exactly the
// trace's records, and the analysis of it must give, window by window, the numbers that
// test/tools/trace_reference.py computed independently from the trace JSON (trace_reference_numbers.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

#include "fake_cupti.hpp"
#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/collectors/cupti_collector.hpp"
#include "ohprof/trace/kineto_reader.hpp"
#include "ohprof/harness/measurement_loop.hpp"
#include "trace_reference_numbers.hpp"

namespace ohprof {
namespace {

using trace_reference::expect_breakdown_matches;
using trace_reference::kExpected;
using trace_reference::read_or_fail;
using trace_reference::trace_test_name;
using trace_reference::TraceExpect;

// ---- from trace records to CUPTI records -----------------------------------------------------------

struct ApiId {
  CUpti_ActivityKind kind;
  CUpti_CallbackId cbid;
};

// The callback id of every API name the three traces use to launch or wait. An unknown name fails the
// test, so a trace that needs another entry says so.
std::optional<ApiId> api_id(std::string_view name) {
  static const std::map<std::string_view, ApiId> kIds = {
      {"cudaLaunchKernel", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000}},
      {"cudaLaunchKernelExC", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060}},
      {"cudaMemcpyAsync", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020}},
      {"cudaMemsetAsync", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020}},
      {"cuLaunchKernel", {CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel}},
      {"cudaDeviceSynchronize", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020}},
      {"cudaStreamSynchronize", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020}},
      {"cudaEventSynchronize", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020}},
  };
  const auto it = kIds.find(name);
  if (it == kIds.end()) return std::nullopt;
  return it->second;
}

CUpti_ActivitySynchronizationType sync_type(std::string_view name) {
  if (name == "cudaDeviceSynchronize") return CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
  if (name == "cudaStreamSynchronize") return CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
  return CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE;
}

// Kineto names a copy "Memcpy HtoD (Pageable -> Device)"; CUPTI's record has the direction as a kind.
std::optional<std::pair<CUpti_ActivityMemcpyKind, std::string>> copy_direction(std::string_view name) {
  static const std::pair<const char*, CUpti_ActivityMemcpyKind> kKinds[] = {
      {"HtoD", CUPTI_ACTIVITY_MEMCPY_KIND_HTOD}, {"DtoH", CUPTI_ACTIVITY_MEMCPY_KIND_DTOH},
      {"DtoD", CUPTI_ACTIVITY_MEMCPY_KIND_DTOD}, {"HtoH", CUPTI_ACTIVITY_MEMCPY_KIND_HTOH},
      {"PtoP", CUPTI_ACTIVITY_MEMCPY_KIND_PTOP}};
  for (const auto& [text, kind] : kKinds) {
    if (name.find(std::string(" ") + text + " ") != std::string_view::npos) return std::make_pair(kind, std::string(text));
  }
  return std::nullopt;
}

// One CUPTI record of any kind, as bytes, so that all kinds can be shuffled together.
struct AnyRecord {
  std::vector<std::uint8_t> bytes;
  template <typename Record>
  static AnyRecord of(const Record& record) {
    fake_cupti::Buffer one;
    one.add(record);
    return AnyRecord{one.bytes()};
  }
};

// The record of `op`, with the fields CUPTI's kernel, memcpy and memset records share.
template <typename Record>
Record device_record(CUpti_ActivityKind kind, const DeviceOp& op) {
  return fake_cupti::device_record<Record>(kind, static_cast<std::uint64_t>(op.start_ns),
                                           static_cast<std::uint64_t>(op.end_ns), static_cast<std::uint32_t>(op.device),
                                           static_cast<std::uint32_t>(op.stream),
                                           static_cast<std::uint32_t>(op.correlation), op.graph_id);
}

// Which measured iteration (position in `windows`) a host call starting at `start` belongs to.
std::optional<std::size_t> window_of(const std::vector<IterationWindow>& windows, std::int64_t start) {
  for (std::size_t i = 0; i < windows.size(); ++i) {
    if (windows[i].start_ns <= start && start < windows[i].end_ns) return i;
  }
  return std::nullopt;
}

struct Replay {
  std::vector<AnyRecord> records;
  std::size_t warmup_tagged = 0;  // records the collector must leave out as warm-up
  std::vector<std::string> problems;
};

Replay records_of(const Timeline& trace, const std::vector<std::uint64_t>& measured_ids, std::uint64_t warmup_id) {
  Replay out;
  const std::int64_t first_window_start = trace.iterations.empty() ? 0 : trace.iterations.front().start_ns;
  // The external id CUPTI would have attached to a host call starting at `start`, if any.
  auto tag_of = [&](std::int64_t start) -> std::optional<std::uint64_t> {
    if (auto w = window_of(trace.iterations, start)) return measured_ids.at(*w);
    if (start < first_window_start) return warmup_id;
    return std::nullopt;
  };
  auto add_api = [&](std::string_view name, std::int64_t start, std::int64_t end, std::int64_t thread,
                     std::uint32_t correlation) -> bool {
    const auto id = api_id(name);
    if (!id) {
      out.problems.push_back("no callback id for " + std::string(name));
      return false;
    }
    const auto tag = tag_of(start);
    if (tag) {
      CUpti_ActivityExternalCorrelation ext{};
      ext.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
      ext.externalKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2;
      ext.externalId = *tag;
      ext.correlationId = correlation;
      out.records.push_back(AnyRecord::of(ext));
    }
    CUpti_ActivityAPI api{};
    api.kind = id->kind;
    api.cbid = id->cbid;
    api.start = static_cast<std::uint64_t>(start);
    api.end = static_cast<std::uint64_t>(end);
    api.processId = 1;
    api.threadId = static_cast<std::uint32_t>(thread);
    api.correlationId = correlation;
    out.records.push_back(AnyRecord::of(api));
    return tag == warmup_id;
  };

  std::map<std::uint64_t, bool> warmup_correlation;  // launch correlation -> tagged as warm-up
  for (const LaunchCall& call : trace.launches) {
    const bool warmup = add_api(call.name, call.start_ns, call.end_ns, call.thread_id,
                                static_cast<std::uint32_t>(call.correlation));
    warmup_correlation[call.correlation] = warmup;
    if (warmup) ++out.warmup_tagged;
  }
  for (const DeviceOp& op : trace.ops) {
    if (warmup_correlation[op.correlation]) ++out.warmup_tagged;
    switch (op.kind) {
      case DeviceOpKind::kernel: {
        auto k = device_record<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, op);
        k.completed = k.end;
        k.name = fake_cupti::intern(op.name);
        out.records.push_back(AnyRecord::of(k));
        break;
      }
      case DeviceOpKind::memcpy: {
        const auto direction = copy_direction(op.name);
        if (!direction) out.problems.push_back("no copy direction in '" + op.name + "'");
        auto m = device_record<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY, op);
        m.copyKind = static_cast<std::uint8_t>(direction ? direction->first : CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN);
        m.bytes = op.bytes;
        out.records.push_back(AnyRecord::of(m));
        break;
      }
      case DeviceOpKind::memset: {
        auto m = device_record<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET, op);
        m.bytes = op.bytes;
        m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        out.records.push_back(AnyRecord::of(m));
        break;
      }
    }
  }
  // Synchronisations: CUPTI correlates the SYNCHRONIZATION record with the API call that waited. The
  // traces' sync calls carry no correlation of their own: give them ids above every launch's.
  std::uint32_t next_correlation = 1u << 30;
  for (const SyncCall& call : trace.syncs) {
    const std::uint32_t correlation = next_correlation++;
    if (add_api(call.name, call.start_ns, call.end_ns, call.thread_id, correlation)) ++out.warmup_tagged;
    CUpti_ActivitySynchronization2 s{};
    s.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    s.type = sync_type(call.name);
    s.start = static_cast<std::uint64_t>(call.start_ns);
    s.end = static_cast<std::uint64_t>(call.end_ns);
    s.correlationId = correlation;
    s.contextId = 1;
    out.records.push_back(AnyRecord::of(s));
  }
  return out;
}

// Shuffles the records (one iteration's records end up in several buffers, out of order) and cuts them
// into buffers of 1 to 2 * mean records.
std::vector<fake_cupti::Buffer> into_buffers(std::vector<AnyRecord> records, std::size_t mean_records) {
  std::mt19937 random(20261130);
  std::shuffle(records.begin(), records.end(), random);
  std::uniform_int_distribution<std::size_t> size(1, 2 * mean_records);
  std::vector<fake_cupti::Buffer> buffers;
  std::size_t next = 0;
  while (next < records.size()) {
    const std::size_t n = std::min(size(random), records.size() - next);
    std::vector<std::uint8_t> bytes;
    for (std::size_t i = next; i < next + n; ++i) {
      bytes.insert(bytes.end(), records[i].bytes.begin(), records[i].bytes.end());
    }
    buffers.push_back(fake_cupti::Buffer::from_bytes(std::move(bytes)));
    next += n;
  }
  return buffers;
}

// ---- comparing ------------------------------------------------------------------------------------

using OpKey = std::tuple<int, std::int64_t, std::int64_t, std::int32_t, std::int64_t, std::uint64_t, std::uint64_t,
                         std::string>;
OpKey key_of(const DeviceOp& op, bool collector_naming) {
  std::string name = op.name;
  if (op.kind == DeviceOpKind::memcpy && !collector_naming) name = copy_direction(op.name)->second;
  if (op.kind == DeviceOpKind::memset && !collector_naming) name = "Memset";
  return {static_cast<int>(op.kind), op.start_ns, op.end_ns, op.device, op.stream, op.correlation, op.bytes, name};
}

using LaunchKey = std::tuple<int, std::int64_t, std::int64_t, std::int64_t, std::uint64_t, std::string>;
LaunchKey key_of(const LaunchCall& call) {
  return {static_cast<int>(call.kind), call.start_ns, call.end_ns, call.thread_id, call.correlation, call.name};
}

class CuptiReplay : public ::testing::TestWithParam<TraceExpect> {
 protected:
  void SetUp() override { fake_cupti::reset(); }
  void TearDown() override { fake_cupti::reset(); }
};

TEST_P(CuptiReplay, CollectorDeliversTheTraceAndTheAnalysisMatchesTheIndependentReference) {
  const TraceExpect& expected = GetParam();
  const KinetoTrace trace = read_or_fail(expected.file);
  const Timeline& recorded = trace.timeline;
  ASSERT_EQ(recorded.iterations.size(), expected.windows.size());
  ASSERT_FALSE(recorded.ops.empty());

  // The harness's side: one warm-up and one measured iteration per window, each tagged by the collector.
  // Buffers of 1 MiB, enough of them prepared for every buffer this test delivers (about 12).
  auto created = CuptiCollector::create(
      CuptiOptions{.device_present = true, .buffer_bytes = std::size_t{1} << 20, .prepared_buffers = 32});
  ASSERT_TRUE(created.ok()) << created.error().message;
  auto& collector = *created;
  LoopResult loop;
  const int measured = static_cast<int>(recorded.iterations.size());
  ASSERT_TRUE(run_measurement_loop(LoopConfig{1, measured}, [] { return ok_status(); }, {collector.get()}, loop).ok());
  const std::vector<std::uint64_t> pushed = fake_cupti::pushed_ids();
  ASSERT_EQ(pushed.size(), static_cast<std::size_t>(1 + measured));
  const std::vector<std::uint64_t> measured_ids(pushed.begin() + 1, pushed.end());

  // CUPTI's side: the trace as records, delivered in pieces, a third of them "during the run".
  Replay replay = records_of(recorded, measured_ids, pushed.front());
  ASSERT_TRUE(replay.problems.empty()) << replay.problems.front();
  const std::vector<fake_cupti::Buffer> buffers = into_buffers(replay.records, std::max<std::size_t>(1, replay.records.size() / 12));
  ASSERT_GT(buffers.size(), std::size_t{1});
  ASSERT_LE(buffers.size(), std::size_t{32});
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    if (i % 3 == 0) {
      fake_cupti::deliver_now(buffers[i]);
    } else {
      fake_cupti::deliver_at_flush(buffers[i]);
    }
  }
  // The windows are the trace's, numbered as the harness numbers its iterations (0..n-1).
  std::vector<IterationWindow> windows = recorded.iterations;
  for (std::size_t i = 0; i < windows.size(); ++i) windows[i].index = static_cast<std::int64_t>(i);
  auto collection = collector->finish(windows);
  ASSERT_TRUE(collection.ok()) << collection.error().message;
  const Timeline& collected = collection->timeline;

  // Every record came through, except what belongs to warm-up iterations.
  EXPECT_TRUE(collection->warnings.empty()) << collection->warnings.front().message;
  EXPECT_EQ(collection->buffers_zeroed_in_run, 0u);
  EXPECT_EQ(collection->warmup_records, replay.warmup_tagged);
  EXPECT_EQ(collected.counters.dropped_records, 0u);
  EXPECT_EQ(collected.counters.ops_without_timestamps, 0u);
  std::multiset<OpKey> want_ops;
  std::map<std::uint64_t, const LaunchCall*> launch_by_correlation;
  for (const LaunchCall& call : recorded.launches) launch_by_correlation[call.correlation] = &call;
  const std::int64_t first_start = recorded.iterations.front().start_ns;
  auto before_first_window = [&](std::uint64_t correlation) {
    const auto it = launch_by_correlation.find(correlation);
    return it != launch_by_correlation.end() && it->second->start_ns < first_start;
  };
  for (const DeviceOp& op : recorded.ops) {
    if (!before_first_window(op.correlation)) want_ops.insert(key_of(op, false));
  }
  std::multiset<OpKey> got_ops;
  for (const DeviceOp& op : collected.ops) got_ops.insert(key_of(op, true));
  EXPECT_EQ(got_ops.size(), want_ops.size());
  EXPECT_TRUE(got_ops == want_ops) << "the collected device ops differ from the trace's";

  std::multiset<LaunchKey> want_launches;
  std::map<std::uint64_t, std::optional<std::int64_t>> want_iteration;
  for (const LaunchCall& call : recorded.launches) {
    if (call.start_ns < first_start) continue;
    want_launches.insert(key_of(call));
    const auto w = window_of(recorded.iterations, call.start_ns);
    want_iteration[call.correlation] = w ? std::optional<std::int64_t>(static_cast<std::int64_t>(*w)) : std::nullopt;
  }
  std::multiset<LaunchKey> got_launches;
  std::size_t wrong_iteration = 0;
  std::string first_wrong;
  for (const LaunchCall& call : collected.launches) {
    got_launches.insert(key_of(call));
    if (call.iteration != want_iteration[call.correlation] && wrong_iteration++ == 0) {
      first_wrong = call.name + " correlation " + std::to_string(call.correlation);
    }
  }
  EXPECT_EQ(wrong_iteration, 0u) << "launch calls in the wrong iteration, the first: " << first_wrong;
  EXPECT_TRUE(got_launches == want_launches) << "the collected launch calls differ from the trace's";
  EXPECT_EQ(collected.counters.ops_without_launch, static_cast<std::uint64_t>(std::count_if(
                                                        recorded.ops.begin(), recorded.ops.end(), [&](const DeviceOp& op) {
                                                          return launch_by_correlation.count(op.correlation) == 0;
                                                        })));
  std::size_t want_syncs = 0;
  for (const SyncCall& call : recorded.syncs) want_syncs += call.start_ns >= first_start ? 1 : 0;
  EXPECT_EQ(collected.syncs.size(), want_syncs);

  // The analysis of what the collector delivered: the independent reference, window by window.
  const PathBreakdown split = analyze_timeline(collected);
  expect_breakdown_matches(split, expected, trace_reference::WindowNumbers::from_zero);

  // The host side (not in the reference script): the same as the analysis of the trace as read, where
  // launches are placed in windows by start time rather than by their external correlation id.
  Timeline as_read = recorded;
  as_read.iterations = windows;
  const PathBreakdown direct = analyze_timeline(as_read);
  ASSERT_EQ(direct.iterations.size(), split.iterations.size());
  for (std::size_t w = 0; w < split.iterations.size(); ++w) {
    const std::string where = expected.file + " window " + std::to_string(w);
    EXPECT_EQ(split.iterations[w].dispatch_ns, direct.iterations[w].dispatch_ns) << where;
    EXPECT_EQ(split.iterations[w].launch_api_ns, direct.iterations[w].launch_api_ns) << where;
    EXPECT_EQ(split.iterations[w].framework_ns, direct.iterations[w].framework_ns) << where;
    EXPECT_EQ(split.iterations[w].launches, direct.iterations[w].launches) << where;
    EXPECT_EQ(split.iterations[w].queue_delays_ns, direct.iterations[w].queue_delays_ns) << where;
  }
  EXPECT_EQ(split.kernels.size(), direct.kernels.size());
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, CuptiReplay, ::testing::ValuesIn(kExpected), trace_test_name);

}  // namespace
}  // namespace ohprof
