// Real GPU timelines through the CUPTI collector's real code. No GPU is available to CI, so the CUDA
// traces of test/data/traces (recorded by PyTorch's profiler, which builds them from CUPTI records) are
// turned back into the CUDA 13 CUPTI records they came from:
//   - each launch call (cudaLaunchKernel, cudaLaunchKernelExC, cudaMemcpyAsync, cudaMemsetAsync,
//     cudaGraphLaunch, cuLaunchKernel) becomes a RUNTIME or DRIVER API record with its callback id,
//     preceded by the EXTERNAL_CORRELATION record that CUPTI writes for an API call made while an
//     iteration's id is pushed (the iteration = the ProfilerStep window the call starts in; calls
//     outside every window carry none, so that the work they launched, which runs in the windows, is
//     kept: the split is by time);
//   - each kernel, copy and fill becomes a CONCURRENT_KERNEL / MEMCPY / MEMSET record;
//   - each host synchronisation becomes a SYNCHRONIZATION record and its API record; each window gets
//     one more, zero-length, just before its end: the harness's own end-of-iteration synchronisation,
//     which the collector marks `harness` (the last sync of the iteration) and the analysis leaves out;
//   - every other runtime/driver call of the trace (an API call) becomes a RUNTIME API record (of one
//     callback id that is neither a launch nor a sync: the analysis does not read API call names).
// The records are shuffled and cut into buffers of uneven size, some delivered while "running" and the
// rest at the final flush, as CUPTI delivers them. The collector's Timeline must then hold exactly the
// trace's records, and the analysis of it must give, window by window, the numbers that
// test/tools/trace_reference.py computed independently from the trace JSON (trace_reference_numbers.hpp).
// The ROCm trace (HIP has no CUPTI) and the trace without device events are left out.
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

using trace_reference::Compare;
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

// The callback id of every API name the CUDA traces use to launch or wait. An unknown name fails the
// test, so a trace that needs another entry says so.
std::optional<ApiId> api_id(std::string_view name) {
  static const std::map<std::string_view, ApiId> kIds = {
      {"cudaLaunchKernel", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000}},
      {"cudaLaunchKernelExC", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060}},
      {"cudaMemcpyAsync", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020}},
      {"cudaMemsetAsync", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020}},
      {"cudaGraphLaunch", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000}},
      {"cuLaunchKernel", {CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel}},
      {"cudaDeviceSynchronize", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020}},
      {"cudaStreamSynchronize", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020}},
      {"cudaEventSynchronize", {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020}},
  };
  const auto it = kIds.find(name);
  if (it == kIds.end()) return std::nullopt;
  return it->second;
}

// The callback id every API call (neither a launch nor a sync) of a trace is replayed with: one the
// collector does not switch off (docs/cupti.md, "Calls not traced").
constexpr ApiId kOtherApi{CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020};

// The traces that can be replayed: recorded through CUPTI, with device work (not ROCm's or MTIA's).
std::vector<TraceExpect> cuda_traces() {
  std::vector<TraceExpect> out;
  for (const TraceExpect& t : kExpected) {
    if (t.file != "rocm_mi250_minitoy.json.gz" && t.file.rfind("mtia_", 0) != 0 && t.ops > 0) out.push_back(t);
  }
  return out;
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

// Which measured iteration (position in `windows`) a host call starting at `start` belongs to, by
// docs/metrics.md's rule: the last window in (start, end) order (ties: input order) with
// start_ns <= start, provided start < its end_ns.
std::optional<std::size_t> window_of(const std::vector<IterationWindow>& windows, std::int64_t start) {
  std::vector<std::size_t> order(windows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(windows[a].start_ns, windows[a].end_ns) < std::tie(windows[b].start_ns, windows[b].end_ns);
  });
  std::optional<std::size_t> last;
  for (const std::size_t i : order) {
    if (windows[i].start_ns > start) break;
    last = i;
  }
  if (last && start < windows[*last].end_ns) return last;
  return std::nullopt;
}

struct Replay {
  std::vector<AnyRecord> records;
  std::vector<std::string> problems;
};

// The harness's synchronisation of window w: zero-length, just before the window's end.
std::int64_t harness_sync_ns(const IterationWindow& w) { return w.end_ns > w.start_ns ? w.end_ns - 1 : w.start_ns; }

Replay records_of(const Timeline& trace, const std::vector<std::uint64_t>& measured_ids) {
  Replay out;
  // The external id CUPTI would have attached to a host call starting at `start`, if any.
  auto tag_of = [&](std::int64_t start) -> std::optional<std::uint64_t> {
    if (auto w = window_of(trace.iterations, start)) return measured_ids.at(*w);
    return std::nullopt;
  };
  auto add_api = [&](std::optional<ApiId> id, std::string_view name, std::int64_t start, std::int64_t end,
                     std::int64_t thread, std::uint32_t correlation) {
    if (!id) {
      out.problems.push_back("no callback id for " + std::string(name));
      return;
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
  };

  for (const LaunchCall& call : trace.launches) {
    add_api(api_id(call.name), call.name, call.start_ns, call.end_ns, call.thread_id,
            static_cast<std::uint32_t>(call.correlation));
  }
  for (const DeviceOp& op : trace.ops) {
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
  // traces' sync and API calls are given correlation ids of their own, above every launch's.
  std::uint32_t next_correlation = 1u << 30;
  auto add_sync = [&](const SyncCall& call) {
    const std::uint32_t correlation = next_correlation++;
    add_api(api_id(call.name), call.name, call.start_ns, call.end_ns, call.thread_id, correlation);
    CUpti_ActivitySynchronization2 s{};
    s.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    s.type = sync_type(call.name);
    s.start = static_cast<std::uint64_t>(call.start_ns);
    s.end = static_cast<std::uint64_t>(call.end_ns);
    s.correlationId = correlation;
    s.contextId = 1;
    out.records.push_back(AnyRecord::of(s));
  };
  for (const SyncCall& call : trace.syncs) add_sync(call);
  const std::int64_t main_thread = trace.launches.empty() ? 1 : trace.launches.front().thread_id;
  for (const IterationWindow& w : trace.iterations) {
    add_sync(SyncCall{harness_sync_ns(w), harness_sync_ns(w), main_thread, "cudaDeviceSynchronize", false});
  }
  for (const ApiCall& call : trace.api_calls) {
    add_api(kOtherApi, call.name, call.start_ns, call.end_ns, call.thread_id, next_correlation++);
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

// The communication flag too: the reader and the collector both set it from the kernel's name.
using OpKey = std::tuple<int, std::int64_t, std::int64_t, std::int32_t, std::int64_t, std::uint64_t, std::uint64_t,
                         std::string, bool>;
OpKey key_of(const DeviceOp& op, bool collector_naming) {
  std::string name = op.name;
  if (op.kind == DeviceOpKind::memcpy && !collector_naming) name = copy_direction(op.name)->second;
  if (op.kind == DeviceOpKind::memset && !collector_naming) name = "Memset";
  return {static_cast<int>(op.kind), op.start_ns, op.end_ns, op.device, op.stream, op.correlation, op.bytes, name,
          op.communication};
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
  // Buffers of 4 MiB, enough of them prepared for every buffer this test delivers (about 12; the
  // largest trace makes about 8 MB of records).
  auto created = CuptiCollector::create(
      CuptiOptions{.device_present = true, .buffer_bytes = std::size_t{4} << 20, .prepared_buffers = 32});
  ASSERT_TRUE(created.ok()) << created.error().message;
  auto& collector = *created;
  LoopResult loop;
  const int measured = static_cast<int>(recorded.iterations.size());
  ASSERT_TRUE(run_measurement_loop(LoopConfig{1, measured}, [] { return ok_status(); }, {collector.get()}, loop).ok());
  const std::vector<std::uint64_t> pushed = fake_cupti::pushed_ids();
  ASSERT_EQ(pushed.size(), static_cast<std::size_t>(1 + measured));
  const std::vector<std::uint64_t> measured_ids(pushed.begin() + 1, pushed.end());

  // CUPTI's side: the trace as records, delivered in pieces, a third of them "during the run".
  Replay replay = records_of(recorded, measured_ids);
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

  // Every record came through (nothing is tagged warm-up).
  EXPECT_TRUE(collection->warnings.empty()) << collection->warnings.front().message;
  EXPECT_EQ(collection->buffers_zeroed_in_run, 0u);
  EXPECT_EQ(collection->warmup_records, 0u);
  EXPECT_EQ(collected.counters.dropped_records, 0u);
  EXPECT_EQ(collected.counters.ops_without_timestamps, 0u);
  std::multiset<OpKey> want_ops;
  std::map<std::uint64_t, const LaunchCall*> launch_by_correlation;
  for (const LaunchCall& call : recorded.launches) launch_by_correlation[call.correlation] = &call;
  for (const DeviceOp& op : recorded.ops) want_ops.insert(key_of(op, false));
  std::multiset<OpKey> got_ops;
  for (const DeviceOp& op : collected.ops) got_ops.insert(key_of(op, true));
  EXPECT_EQ(got_ops.size(), want_ops.size());
  EXPECT_TRUE(got_ops == want_ops) << "the collected device ops differ from the trace's";
  const auto communication_ops = [](const Timeline& t) {
    return std::count_if(t.ops.begin(), t.ops.end(), [](const DeviceOp& op) { return op.communication; });
  };
  EXPECT_EQ(communication_ops(collected), communication_ops(recorded));

  std::multiset<LaunchKey> want_launches;
  std::map<std::uint64_t, std::optional<std::int64_t>> want_iteration;
  for (const LaunchCall& call : recorded.launches) {
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

  // The trace's syncs, not the harness's, and one harness sync per window (the last of its window).
  using CallKey = std::tuple<std::int64_t, std::int64_t, std::uint32_t>;  // CUPTI's thread ids are 32-bit
  std::multiset<CallKey> want_syncs;
  for (const SyncCall& call : recorded.syncs) {
    want_syncs.insert({call.start_ns, call.end_ns, static_cast<std::uint32_t>(call.thread_id)});
  }
  std::multiset<std::int64_t> want_harness;
  for (const IterationWindow& w : recorded.iterations) want_harness.insert(harness_sync_ns(w));
  std::multiset<CallKey> got_syncs;
  std::multiset<std::int64_t> got_harness;
  for (const SyncCall& call : collected.syncs) {
    if (call.harness) {
      got_harness.insert(call.start_ns);
    } else {
      got_syncs.insert({call.start_ns, call.end_ns, static_cast<std::uint32_t>(call.thread_id)});
    }
  }
  EXPECT_TRUE(got_syncs == want_syncs) << "the collected sync calls differ from the trace's (" << got_syncs.size()
                                       << " against " << want_syncs.size() << ")";
  EXPECT_TRUE(got_harness == want_harness) << "the harness syncs are not the last of each window (" << got_harness.size()
                                           << " marked, " << want_harness.size() << " windows)";
  // Every other runtime call, as an API call.
  std::multiset<CallKey> want_api;
  for (const ApiCall& call : recorded.api_calls) {
    want_api.insert({call.start_ns, call.end_ns, static_cast<std::uint32_t>(call.thread_id)});
  }
  std::multiset<CallKey> got_api;
  for (const ApiCall& call : collected.api_calls) {
    got_api.insert({call.start_ns, call.end_ns, static_cast<std::uint32_t>(call.thread_id)});
  }
  EXPECT_TRUE(got_api == want_api) << "the collected API calls differ from the trace's (" << got_api.size()
                                   << " against " << want_api.size() << ")";

  // The analysis of what the collector delivered: the independent reference, window by window, stream
  // by stream, the totals and the verdict (whole_recording_window is the trace reader's: the harness
  // always marks its iterations).
  Timeline as_collected = collected;
  as_collected.whole_recording_window = recorded.whole_recording_window;
  const PathBreakdown split = analyze_timeline(as_collected);
  expect_breakdown_matches(split, expected, trace_reference::WindowNumbers::from_zero, Compare::all);

  // What the reference pins only as a sum: the queue delays one by one, in the order of the analysis of
  // the trace as read (launches placed in windows by start time rather than by their external id).
  Timeline as_read = recorded;
  as_read.iterations = windows;
  const PathBreakdown direct = analyze_timeline(as_read);
  ASSERT_EQ(direct.iterations.size(), split.iterations.size());
  for (std::size_t w = 0; w < split.iterations.size(); ++w) {
    const std::string where = expected.file + " window " + std::to_string(w);
    EXPECT_EQ(split.iterations[w].queue_delays_ns, direct.iterations[w].queue_delays_ns) << where;
  }
  // The kernel table counts the same ops (its rows differ: the collector names a copy by its direction
  // alone, the trace by direction and memory kinds).
  const auto ops_in = [](const PathBreakdown& b) {
    std::size_t n = 0;
    for (const KernelStat& k : b.kernels) n += k.count;
    return n;
  };
  EXPECT_EQ(ops_in(split), ops_in(direct));
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, CuptiReplay, ::testing::ValuesIn(cuda_traces()), trace_test_name);

}  // namespace
}  // namespace ohprof
