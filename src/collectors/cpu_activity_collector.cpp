// The only translation unit that includes ATen/record_function.h. LibTorch exceptions are turned into
// Errors here.
#include "ohprof/collectors/cpu_activity_collector.hpp"

#include <ATen/record_function.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <filesystem>
#include <functional>
#include <limits>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <sys/syscall.h>
#include <unistd.h>

#include "ohprof/base/clock.hpp"

namespace ohprof {
namespace {

// Collectors alive at once (one per path of `compare`); a slot tags the ranges of one collector.
constexpr int kMaxCollectors = 16;
constexpr int kNoSlot = -1;
constexpr std::uint64_t kNoParent = std::numeric_limits<std::uint64_t>::max();

// A range whose start callback ran and whose end callback has not yet.
struct OpenRange {
  const void* record = nullptr;  // the at::RecordFunction, to pair the end callback with its start
  std::int64_t start_ns = 0;
  std::int64_t iteration = -1;
  std::uint64_t seq = 0;  // per thread, in start order
  std::uint64_t parent_seq = kNoParent;
  std::uint32_t name = 0;
  std::int32_t slot = kNoSlot;
  CpuEventScope scope = CpuEventScope::function;
};

struct ClosedRange {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t iteration = -1;
  std::uint64_t seq = 0;
  std::uint64_t parent_seq = kNoParent;
  std::uint32_t name = 0;
  std::int32_t slot = kNoSlot;
  std::int32_t depth = 0;
  CpuEventScope scope = CpuEventScope::function;
};

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

// One per thread that ever recorded, owned by the registry and never freed (an end callback may run
// late on a worker thread). Only its thread appends; finish() takes its collector's ranges out. The
// mutex is uncontended while measuring; it makes the hand-over to finish() safe.
struct ThreadBuffer {
  std::mutex mutex;
  std::int64_t thread_id = 0;
  std::vector<OpenRange> open;
  std::vector<ClosedRange> closed;  // ranges of every slot, in end order
  std::vector<std::string> names;   // interned names (a thread sees few distinct ones)
  std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> name_ids;
  std::uint64_t next_seq = 0;
  std::array<std::uint64_t, kMaxCollectors> unmatched_ends{};

  std::uint32_t intern(std::string_view name) {
    const auto found = name_ids.find(name);
    if (found != name_ids.end()) return found->second;
    const auto id = static_cast<std::uint32_t>(names.size());
    names.emplace_back(name);
    name_ids.emplace(names.back(), id);
    return id;
  }
};

// Process-wide: at::RecordFunction callbacks are plain function pointers. A range is recorded only
// while a collector's measured iteration runs (`active`), and is tagged with that collector's slot.
struct Registry {
  std::mutex mutex;                                    // guards everything below but the atomics
  std::vector<std::unique_ptr<ThreadBuffer>> threads;  // never shrinks
  std::array<bool, kMaxCollectors> slot_used{};
  int measuring = 0;  // collectors between on_measurement_begin and on_measurement_end
  at::CallbackHandle handle = at::INVALID_CALLBACK_HANDLE;
  std::atomic<std::int32_t> active{kNoSlot};
  std::atomic<std::int64_t> iteration{-1};
};

Registry& registry() {
  static auto* instance = new Registry();  // never destroyed: callbacks may fire during exit
  return *instance;
}

thread_local ThreadBuffer* t_buffer = nullptr;

ThreadBuffer& this_thread_buffer(Registry& reg) {
  if (t_buffer == nullptr) {
    auto buffer = std::make_unique<ThreadBuffer>();
    buffer->thread_id = static_cast<std::int64_t>(::syscall(SYS_gettid));
    buffer->closed.reserve(std::size_t{1} << 12);
    std::lock_guard lock(reg.mutex);
    reg.threads.push_back(std::move(buffer));
    t_buffer = reg.threads.back().get();
  }
  return *t_buffer;
}

std::unique_ptr<at::ObserverContext> on_range_start(const at::RecordFunction& record) {
  Registry& reg = registry();
  const std::int32_t slot = reg.active.load(std::memory_order_acquire);
  if (slot == kNoSlot) return nullptr;
  ThreadBuffer& buffer = this_thread_buffer(reg);
  std::lock_guard lock(buffer.mutex);
  OpenRange range;
  range.record = &record;
  range.iteration = reg.iteration.load(std::memory_order_relaxed);
  range.name = buffer.intern(record.name());
  range.seq = buffer.next_seq++;
  range.parent_seq = buffer.open.empty() ? kNoParent : buffer.open.back().seq;
  range.slot = slot;
  range.scope = record.scope() == at::RecordScope::USER_SCOPE ? CpuEventScope::user : CpuEventScope::function;
  buffer.open.push_back(range);
  buffer.open.back().start_ns = monotonic_now_ns();  // last: the bookkeeping above is not in the range
  return nullptr;
}

void on_range_end(const at::RecordFunction& record, at::ObserverContext* /*context*/) {
  const std::int64_t now = monotonic_now_ns();  // first: the bookkeeping below is not in the range
  ThreadBuffer* buffer = t_buffer;
  if (buffer == nullptr) return;  // this thread never recorded a start
  std::lock_guard lock(buffer->mutex);
  auto& open = buffer->open;
  // Ranges end in reverse order of their starts on a thread; search down in case one never ended.
  std::size_t i = open.size();
  while (i > 0 && open[i - 1].record != &record) --i;
  if (i == 0) {
    // Its start was not recorded: it began before an iteration, or on another thread (async).
    const std::int32_t slot = registry().active.load(std::memory_order_relaxed);
    if (slot != kNoSlot) ++buffer->unmatched_ends[static_cast<std::size_t>(slot)];
    return;
  }
  const OpenRange& range = open[i - 1];
  ClosedRange closed;
  closed.start_ns = range.start_ns;
  closed.end_ns = now;
  closed.iteration = range.iteration;
  closed.seq = range.seq;
  closed.parent_seq = range.parent_seq;
  closed.name = range.name;
  closed.slot = range.slot;
  closed.depth = static_cast<std::int32_t>(i - 1);
  closed.scope = range.scope;
  buffer->closed.push_back(closed);
  open.resize(i - 1);  // ranges above it never ended: dropped with it (reported as unclosed)
}

// A callback pair that does nothing: what LibTorch's RecordFunction machinery costs by itself.
std::unique_ptr<at::ObserverContext> on_range_start_empty(const at::RecordFunction& /*record*/) { return nullptr; }
void on_range_end_empty(const at::RecordFunction& /*record*/, at::ObserverContext* /*context*/) {}

Result<int> claim_slot() {
  Registry& reg = registry();
  std::lock_guard lock(reg.mutex);
  for (int slot = 0; slot < kMaxCollectors; ++slot) {
    if (!reg.slot_used[static_cast<std::size_t>(slot)]) {
      reg.slot_used[static_cast<std::size_t>(slot)] = true;
      return slot;
    }
  }
  return make_error(ExitCode::internal_error, "too many CPU activity collectors alive (at most " +
                                                  std::to_string(kMaxCollectors) + " in a process)");
}

void release_slot(int slot) {
  Registry& reg = registry();
  std::lock_guard lock(reg.mutex);
  reg.slot_used[static_cast<std::size_t>(slot)] = false;
}

// The first collector to start measuring registers the callback; the last to stop removes it.
Status begin_measuring(bool user_scopes) {
  Registry& reg = registry();
  std::lock_guard lock(reg.mutex);
  if (reg.measuring == 0) {
    try {
      std::unordered_set<at::RecordScope, std::hash<at::RecordScope>> scopes{at::RecordScope::FUNCTION};
      if (user_scopes) scopes.insert(at::RecordScope::USER_SCOPE);
      reg.handle = at::addGlobalCallback(at::RecordFunctionCallback(&on_range_start, &on_range_end)
                                             .needsInputs(false)
                                             .needsOutputs(false)
                                             .scopes(scopes));
    } catch (const std::exception& e) {
      const std::string what = e.what();
      return make_error(ExitCode::internal_error,
                        "registering the RecordFunction callback failed: " + first_line(what));
    }
  }
  ++reg.measuring;
  return ok_status();
}

void end_measuring() {
  Registry& reg = registry();
  std::lock_guard lock(reg.mutex);
  if (reg.measuring <= 0) return;
  if (--reg.measuring == 0 && reg.handle != at::INVALID_CALLBACK_HANDLE) {
    try {
      at::removeCallback(reg.handle);
    } catch (const std::exception&) {  // nothing to do: no collector is in an iteration any more
    }
    reg.handle = at::INVALID_CALLBACK_HANDLE;
  }
}

struct Harvest {
  std::vector<CpuEvent> events;
  std::uint64_t unclosed = 0;
  std::uint64_t unmatched_ends = 0;
  std::size_t threads = 0;
};

// Takes every range of `slot` out of the thread buffers (open ones are dropped and counted).
// Events come out sorted by thread id, then start order; parents index into the result.
Harvest harvest(int slot) {
  Registry& reg = registry();
  Harvest out;
  std::vector<ThreadBuffer*> buffers;
  {
    std::lock_guard lock(reg.mutex);
    for (auto& buffer : reg.threads) buffers.push_back(buffer.get());
  }
  std::stable_sort(buffers.begin(), buffers.end(),
                   [](const ThreadBuffer* a, const ThreadBuffer* b) { return a->thread_id < b->thread_id; });
  for (ThreadBuffer* buffer : buffers) {
    std::lock_guard lock(buffer->mutex);
    out.unmatched_ends += std::exchange(buffer->unmatched_ends[static_cast<std::size_t>(slot)], 0);
    const auto open_end = std::remove_if(buffer->open.begin(), buffer->open.end(),
                                         [slot](const OpenRange& r) { return r.slot == slot; });
    out.unclosed += static_cast<std::uint64_t>(buffer->open.end() - open_end);
    buffer->open.erase(open_end, buffer->open.end());

    auto mine_begin = std::stable_partition(buffer->closed.begin(), buffer->closed.end(),
                                            [slot](const ClosedRange& r) { return r.slot != slot; });
    if (mine_begin == buffer->closed.end()) continue;
    std::vector<ClosedRange> mine(std::make_move_iterator(mine_begin), std::make_move_iterator(buffer->closed.end()));
    buffer->closed.erase(mine_begin, buffer->closed.end());
    if (buffer->closed.empty() && buffer->open.empty()) buffer->closed.shrink_to_fit();
    ++out.threads;
    std::sort(mine.begin(), mine.end(), [](const ClosedRange& a, const ClosedRange& b) { return a.seq < b.seq; });
    const std::size_t base = out.events.size();
    for (const auto& range : mine) {
      CpuEvent event;
      event.name = buffer->names[range.name];
      event.start_ns = range.start_ns;
      event.end_ns = range.end_ns;
      event.thread_id = buffer->thread_id;
      event.iteration = range.iteration;
      event.depth = range.depth;
      event.scope = range.scope;
      if (range.parent_seq != kNoParent) {
        const auto found = std::lower_bound(mine.begin(), mine.end(), range.parent_seq,
                                            [](const ClosedRange& r, std::uint64_t seq) { return r.seq < seq; });
        if (found != mine.end() && found->seq == range.parent_seq) {
          event.parent = static_cast<std::int64_t>(base + static_cast<std::size_t>(found - mine.begin()));
        }
      }
      out.events.push_back(std::move(event));
    }
  }
  return out;
}

}  // namespace

struct CpuActivityCollector::State {
  CpuCollectorOptions options;
  int slot = kNoSlot;
  bool measuring = false;
  bool finished = false;
  std::string begin_error;  // LibTorch refused the callback
};

CpuActivityCollector::CpuActivityCollector(std::unique_ptr<State> state) : m_state(std::move(state)) {}

Result<std::unique_ptr<CpuActivityCollector>> CpuActivityCollector::create(const CpuCollectorOptions& options) {
  OHPROF_ASSIGN_OR_RETURN(auto slot, claim_slot());
  auto state = std::make_unique<State>();
  state->options = options;
  state->slot = slot;
  return std::unique_ptr<CpuActivityCollector>(new CpuActivityCollector(std::move(state)));
}

CpuActivityCollector::~CpuActivityCollector() {
  if (m_state->measuring) on_measurement_end();
  if (!m_state->finished) (void)harvest(m_state->slot);  // frees its ranges
  release_slot(m_state->slot);
}

void CpuActivityCollector::on_measurement_begin() {
  if (m_state->measuring || m_state->finished) return;
  Status status = begin_measuring(m_state->options.record_user_scopes);
  if (!status.ok()) {
    m_state->begin_error = status.error().message;
    return;
  }
  m_state->measuring = true;
}

void CpuActivityCollector::on_iteration_begin(std::int64_t index, bool warmup) {
  if (warmup || !m_state->measuring) return;
  Registry& reg = registry();
  reg.iteration.store(index, std::memory_order_relaxed);
  reg.active.store(m_state->slot, std::memory_order_release);
}

void CpuActivityCollector::on_iteration_end(std::int64_t /*index*/, bool warmup) {
  if (warmup || !m_state->measuring) return;
  Registry& reg = registry();
  std::int32_t mine = m_state->slot;
  reg.active.compare_exchange_strong(mine, kNoSlot, std::memory_order_acq_rel);
  reg.iteration.store(-1, std::memory_order_relaxed);
}

void CpuActivityCollector::on_measurement_end() {
  if (!m_state->measuring) return;
  Registry& reg = registry();
  std::int32_t mine = m_state->slot;
  reg.active.compare_exchange_strong(mine, kNoSlot, std::memory_order_acq_rel);
  end_measuring();
  m_state->measuring = false;
}

Result<CpuCollection> CpuActivityCollector::finish(const std::vector<IterationWindow>& iterations) {
  if (m_state->measuring) on_measurement_end();
  if (!m_state->begin_error.empty()) return make_error(ExitCode::internal_error, m_state->begin_error);
  if (m_state->finished) return make_error(ExitCode::internal_error, "CpuActivityCollector::finish called twice");
  m_state->finished = true;
  Harvest harvested = harvest(m_state->slot);
  CpuCollection collection;
  collection.events = std::move(harvested.events);
  collection.unclosed = harvested.unclosed;
  collection.unmatched_ends = harvested.unmatched_ends;
  collection.threads = harvested.threads;
  collection.timeline.ops_have_launches = false;
  collection.timeline.ops = select_cpu_kernels(collection.events);
  collection.timeline.iterations = iterations;
  collection.timeline.counters.dropped_records = collection.unclosed + collection.unmatched_ends;
  return collection;
}

Result<CpuEventCost> measure_cpu_event_cost(std::int64_t ranges) {
  if (ranges <= 0) return make_error(ExitCode::usage_error, "measure_cpu_event_cost: ranges must be positive");
  {
    Registry& reg = registry();
    std::lock_guard lock(reg.mutex);
    if (reg.measuring > 0) {
      return make_error(ExitCode::internal_error, "measure_cpu_event_cost: a CPU activity collector is measuring");
    }
  }
  OHPROF_ASSIGN_OR_RETURN(auto slot, claim_slot());
  auto time_ranges = [ranges] {
    const std::int64_t start = monotonic_now_ns();
    for (std::int64_t i = 0; i < ranges; ++i) {
      // What the dispatcher does for every operator: a RecordFunction only when a callback wants one.
      auto step = at::getStepCallbacksUnlessEmpty(at::RecordScope::FUNCTION);
      if (step) {
        at::RecordFunction guard(std::move(*step));
        guard.before("ohprof::cost");
      }
    }
    return monotonic_now_ns() - start;
  };
  std::int64_t best_without = std::numeric_limits<std::int64_t>::max();
  std::int64_t best_empty = std::numeric_limits<std::int64_t>::max();
  std::int64_t best_with = std::numeric_limits<std::int64_t>::max();
  Status status = ok_status();
  Registry& reg = registry();
  for (int round = 0; round < 3 && status.ok(); ++round) {
    best_without = std::min(best_without, time_ranges());
    try {
      const at::CallbackHandle empty = at::addGlobalCallback(
          at::RecordFunctionCallback(&on_range_start_empty, &on_range_end_empty)
              .needsInputs(false)
              .scopes({at::RecordScope::FUNCTION}));
      best_empty = std::min(best_empty, time_ranges());
      at::removeCallback(empty);
    } catch (const std::exception& e) {
      const std::string what = e.what();
      status = make_error(ExitCode::internal_error,
                          "registering a RecordFunction callback failed: " + first_line(what));
      break;
    }
    status = begin_measuring(false);
    if (!status.ok()) break;
    reg.iteration.store(0, std::memory_order_relaxed);
    reg.active.store(slot, std::memory_order_release);
    best_with = std::min(best_with, time_ranges());
    reg.active.store(kNoSlot, std::memory_order_release);
    reg.iteration.store(-1, std::memory_order_relaxed);
    end_measuring();
    (void)harvest(slot);  // discarded
  }
  release_slot(slot);
  if (!status.ok()) return status.error();
  CpuEventCost cost;
  cost.ranges = ranges;
  cost.without_per_range_ns = static_cast<double>(best_without) / static_cast<double>(ranges);
  cost.empty_callback_per_range_ns = static_cast<double>(best_empty - best_without) / static_cast<double>(ranges);
  cost.per_range_ns = static_cast<double>(best_with - best_without) / static_cast<double>(ranges);
  return cost;
}

}  // namespace ohprof
