// What a Kineto trace event means (kineto_events.hpp): the categories, the API names, the microseconds,
// and the timeline each event adds to.
#include "kineto_events.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "ohprof/base/format.hpp"
#include "ohprof/base/saturating.hpp"
#include "ohprof/base/sorting.hpp"
#include "ohprof/model/launch_apis.hpp"
#include "ohprof_tags.hpp"

namespace ohprof {

using namespace std::string_view_literals;

// ---- numbers --------------------------------------------------------------------------------


std::optional<std::int64_t> microseconds_text_to_ns(std::string_view text) {
  std::size_t i = 0;
  const bool negative = i < text.size() && text[i] == '-';
  if (negative) ++i;
  // Significant digits (integer then fraction part) and the power of ten they are scaled by.
  std::array<char, 64> digits{};
  std::size_t count = 0;
  std::int64_t scale = 3;  // microseconds -> nanoseconds
  bool truncated_nonzero = false;  // digits beyond the buffer that are not zero (only matters far right)
  bool any_digit = false;
  const auto take = [&](char c, bool fraction) {
    any_digit = true;
    if (count == 0 && c == '0') {  // leading zeros carry no value
      if (fraction) --scale;
      return;
    }
    if (count < digits.size()) {
      digits[count++] = c;
      if (fraction) --scale;
    } else {
      if (!fraction) ++scale;  // an integer digit beyond the buffer still multiplies by ten
      if (c != '0') truncated_nonzero = true;
    }
  };
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') take(text[i++], false);
  if (!any_digit) return std::nullopt;
  if (i < text.size() && text[i] == '.') {
    ++i;
    const std::size_t first = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') take(text[i++], true);
    if (i == first) return std::nullopt;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exponent_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exponent_negative = text[i++] == '-';
    const std::size_t first = i;
    std::int64_t exponent = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (exponent < 100000) exponent = exponent * 10 + (text[i] - '0');
      ++i;
    }
    if (i == first) return std::nullopt;
    scale += exponent_negative ? -exponent : exponent;
  }
  if (i != text.size()) return std::nullopt;

  // value = digits * 10^scale, rounded to an integer.
  __extension__ typedef unsigned __int128 u128;
  const u128 limit = negative ? u128(std::numeric_limits<std::int64_t>::max()) + 1
                              : u128(std::numeric_limits<std::int64_t>::max());
  std::int64_t keep = static_cast<std::int64_t>(count);
  if (scale < 0) keep += scale;  // digits left of the decimal point after scaling
  u128 value = 0;
  for (std::int64_t k = 0; k < keep && k < static_cast<std::int64_t>(count); ++k) {
    value = value * 10 + static_cast<unsigned>(digits[static_cast<std::size_t>(k)] - '0');
    if (value > limit) return std::nullopt;
  }
  if (scale >= 0) {
    for (std::int64_t k = 0; k < scale; ++k) {
      if (value == 0) break;
      value *= 10;
      if (value > limit) return std::nullopt;
    }
  } else if (keep >= 0 && keep < static_cast<std::int64_t>(count)) {
    // Round half away from zero on the first dropped digit.
    if (digits[static_cast<std::size_t>(keep)] >= '5') ++value;
    if (value > limit) return std::nullopt;
  }
  (void)truncated_nonzero;  // only digits past the 64th significant one: below any rounding position
  if (negative) return value == limit ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(value);
  return static_cast<std::int64_t>(value);
}

// ---- API names ------------------------------------------------------------------------------

namespace {

// "cudaLaunchKernel_ptsz" -> "cudaLaunchKernel"; "cudaMemcpyAsync_v3020" -> "cudaMemcpyAsync";
// "hipLaunchKernel_spt" -> "hipLaunchKernel" (HIP's per-thread default stream variants).
std::string_view api_base_name(std::string_view name) {
  // "cudaMemcpy_ptds_v7000", "cuMemcpyHtoD_v2_ptds": the suffixes come in either order
  for (std::size_t before = 0; before != name.size();) {
    before = name.size();
    for (std::string_view suffix : {"_ptsz"sv, "_ptds"sv, "_spt"sv}) {
      if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix) {
        name.remove_suffix(suffix.size());
      }
    }
    std::size_t end = name.size();
    while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
    if (end < name.size() && end >= 2 && name[end - 1] == 'v' && name[end - 2] == '_') name = name.substr(0, end - 2);
  }
  return name;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
}

}  // namespace

// The runtime/driver calls that put work on a device: CUDA's from the table the live collector uses
// (model/launch_apis.hpp), then ROCm's HIP counterparts (Kineto records HIP calls with category
// cuda_runtime too; HIP has no separate driver API: its module-level calls, hipModuleLaunchKernel and
// hipDrvLaunchKernelEx, stand for cuLaunchKernel / cuLaunchKernelEx) and Intel's, by name.
std::optional<LaunchKind> launch_kind_of_api(std::string_view name) {
  const std::string_view base = api_base_name(name);
  static const std::unordered_map<std::string_view, LaunchKind> kCuda = [] {
    std::unordered_map<std::string_view, LaunchKind> out;
    for (const std::span<const LaunchApi> table : kCudaLaunchApiTables) {
      for (const LaunchApi& api : table) out.emplace(api_base_name(api.name), api.kind);
    }
    return out;
  }();
  if (const auto found = kCuda.find(base); found != kCuda.end()) return found->second;
  static constexpr std::array kKernelLaunches = {
      // HIP (ROCm)
      "hipLaunchKernel"sv, "hipLaunchKernelExC"sv, "hipModuleLaunchKernel"sv, "hipDrvLaunchKernelEx"sv,
      "hipExtLaunchKernel"sv, "hipExtModuleLaunchKernel"sv, "hipHccModuleLaunchKernel"sv,
      "hipLaunchByPtr"sv, "hipLaunchCooperativeKernel"sv, "hipModuleLaunchCooperativeKernel"sv,
      "hipLaunchCooperativeKernelMultiDevice"sv, "hipModuleLaunchCooperativeKernelMultiDevice"sv,
      "hipExtLaunchMultiKernelMultiDevice"sv,
      // Intel XPU: the SYCL runtime's enqueues, Unified Runtime and its older Plugin Interface, as
      // Kineto's XPUPTI plugin lists them (category xpu_runtime)
      "urEnqueueKernelLaunch"sv, "urEnqueueKernelLaunchExp"sv, "urEnqueueKernelLaunchCustomExp"sv,
      "urEnqueueCooperativeKernelLaunchExp"sv, "urEnqueueKernelLaunchWithArgsExp"sv, "piEnqueueKernelLaunch"sv,
      "piextEnqueueKernelLaunchCustom"sv, "piextEnqueueCooperativeKernelLaunch"sv};
  static constexpr std::array kXpuCopies = {"urEnqueueUSMMemcpy"sv, "urEnqueueUSMMemcpy2D"sv,
                                            "piextUSMEnqueueMemcpy"sv, "piextUSMEnqueueMemcpy2D"sv};
  static constexpr std::array kXpuFills = {"urEnqueueUSMFill"sv, "urEnqueueUSMFill2D"sv, "piextUSMEnqueueFill"sv,
                                           "piextUSMEnqueueFill2D"sv, "piextUSMEnqueueMemset"sv,
                                           "piextUSMEnqueueMemset2D"sv};
  static constexpr std::array kGraphLaunches = {"hipGraphLaunch"sv};
  static constexpr std::array kMemcpyPrefixes = {"cudaMemcpy"sv, "cuMemcpy"sv, "hipMemcpy"sv};
  static constexpr std::array kMemsetPrefixes = {"cudaMemset"sv, "cuMemset"sv, "hipMemset"sv};
  if (std::find(kKernelLaunches.begin(), kKernelLaunches.end(), base) != kKernelLaunches.end()) {
    return LaunchKind::kernel;
  }
  if (std::find(kGraphLaunches.begin(), kGraphLaunches.end(), base) != kGraphLaunches.end()) {
    return LaunchKind::graph;
  }
  if (std::find(kXpuCopies.begin(), kXpuCopies.end(), base) != kXpuCopies.end()) return LaunchKind::memcpy;
  if (std::find(kXpuFills.begin(), kXpuFills.end(), base) != kXpuFills.end()) return LaunchKind::memset;
  for (std::string_view prefix : kMemcpyPrefixes) {
    if (starts_with(base, prefix)) return LaunchKind::memcpy;
  }
  for (std::string_view prefix : kMemsetPrefixes) {
    if (starts_with(base, prefix)) return LaunchKind::memset;
  }
  return std::nullopt;
}

bool is_sync_api(std::string_view name) {
  const std::string_view base = api_base_name(name);
  static constexpr std::array kSyncs = {"cudaDeviceSynchronize"sv, "cudaStreamSynchronize"sv,
                                        "cudaEventSynchronize"sv,  "cuCtxSynchronize"sv,
                                        "cuStreamSynchronize"sv,   "cuEventSynchronize"sv,
                                        "hipDeviceSynchronize"sv,  "hipStreamSynchronize"sv,
                                        "hipEventSynchronize"sv,   "hipCtxSynchronize"sv,
                                        "urQueueFinish"sv,         "urEventWait"sv,
                                        "piQueueFinish"sv,         "piEventsWait"sv};
  return std::find(kSyncs.begin(), kSyncs.end(), base) != kSyncs.end();
}

// What an MTIA device event is, by its name (docs/analyze.md, "What is read"): Kineto files the whole
// category as on-device work; its event records and waits are the device's markers, not work.
MtiaDeviceEvent mtia_device_event(std::string_view name) {
  if (name == "dma_request"sv) return MtiaDeviceEvent::copy;
  if (name == "event_record"sv || name == "event_wait"sv) return MtiaDeviceEvent::marker;
  return MtiaDeviceEvent::kernel;
}

// What an MTIA runtime call is, by its name: the calls that enqueue work, those that wait for it, other
// runtime calls, and the runtime's stages that wrap these (gif_merge, predictor_executor::run ...).
MtiaRuntimeCall mtia_runtime_call(std::string_view name) {
  if (starts_with(name, "runFunction"sv)) return MtiaRuntimeCall::kernel_launch;
  if (starts_with(name, "enqueueCommand memcpy"sv)) return MtiaRuntimeCall::copy_launch;
  if (name == "synchronize"sv || name == "synchronizeStream"sv) return MtiaRuntimeCall::sync;
  if (starts_with(name, "enqueueCommand"sv) || name == "recordEvent"sv) return MtiaRuntimeCall::api;
  return MtiaRuntimeCall::stage;
}

// ---- events ---------------------------------------------------------------------------------

namespace {

enum class Category {
  none, kernel, memcpy, memset, runtime, xpu_runtime, annotation, flow, mtia_device, mtia_runtime, known_unused,
  device_unread, unknown
};

Category classify_category(std::string_view cat) {
  if (is(cat, "kernel")) return Category::kernel;
  if (is(cat, "gpu_memcpy")) return Category::memcpy;
  if (is(cat, "gpu_memset")) return Category::memset;
  if (is(cat, "cuda_runtime") || is(cat, "cuda_driver")) return Category::runtime;
  if (is(cat, "xpu_runtime")) return Category::xpu_runtime;
  if (is(cat, "user_annotation")) return Category::annotation;
  if (is(cat, "cpu_op") || is(cat, "async_cpu_to_gpu") || is(cat, "python_function")) {
    return Category::known_unused;  // the most frequent of the list below, first
  }
  if (is(cat, "ac2g")) return Category::flow;
  // MTIA (Meta's accelerator): its device events and its runtime's calls (docs/analyze.md, "What is read").
  if (is(cat, "mtia_ccp_events")) return Category::mtia_device;
  if (is(cat, "mtia_runtime")) return Category::mtia_runtime;
  // An older PyTorch's (1.8-1.10) names of the same categories.
  if (is(cat, "Kernel")) return Category::kernel;
  if (is(cat, "Memcpy")) return Category::memcpy;
  if (is(cat, "Memset")) return Category::memset;
  if (is(cat, "Runtime")) return Category::runtime;
  // Device-side work in categories the split does not read (docs/analyze.md, "What is read"): CUPTI
  // range-profiler ranges (no per-kernel timestamps) and Habana's device ops.
  static constexpr std::array kDeviceUnread = {"cuda_profiler_range"sv, "hpu_op"sv};
  for (std::string_view unread : kDeviceUnread) {
    if (cat == unread) return Category::device_unread;
  }
  // Categories Kineto and PyTorch write that carry nothing the split needs (libkineto's
  // ActivityType names, the flow-event categories and the profiler's own span).
  static constexpr std::array kKnown = {
      "cpu_op"sv,          "gpu_user_annotation"sv, "external_correlation"sv, "cpu_instant_event"sv,
      "python_function"sv, "overhead"sv,            "cuda_sync"sv,            "cuda_event"sv,
      "glow_runtime"sv,    "Operator"sv,            "mtia_insight"sv,         "mtia_counters"sv,
      "xpu_driver"sv,      "collective_comm"sv,     "privateuse1_runtime"sv,  "privateuse1_driver"sv,
      "mlu_user_annotation"sv, "ac2g"sv,            "fwdbwd"sv,               "async_cpu_to_gpu"sv,
      "Trace"sv,           "Driver"sv,          "ohprof"sv /* tracks added by --export-trace */};
  for (std::string_view known : kKnown) {
    if (cat == known) return Category::known_unused;
  }
  return Category::unknown;
}

constexpr std::size_t kMaxExampleReasons = 5;

}  // namespace

// What each element of traceEvents means: the records of the timeline, the counts of what was ignored or
// skipped, and the examples the warnings quote.
class KinetoEvents::Meaning {
 public:
  explicit Meaning(KinetoTrace& trace) : m_trace(trace) {}

  // A point on a thread's timeline and a value: an ac2g flow's finish and its id, or an MTIA op without
  // a correlation and its index in timeline.ops.
  struct FlowEnd {
    std::int64_t pid = -1;
    std::int64_t tid = -1;
    std::int64_t ts_ns = 0;
    std::size_t value = 0;
  };

  // One object of traceEvents, read.
  void add(const PendingEvent& event) {
    m_event = &event;
    finish_event();
  }
  // An entry of traceEvents that is not an object (an array or a scalar).
  void add_non_object() {
    ++m_trace.stats.events;
    ++m_trace.stats.invalid;
    ++m_trace.timeline.counters.skipped_events;
    note_skip(fmt::format("entry {} of traceEvents is not an object", m_trace.stats.events));
  }

  // --- results ---
  KinetoTrace& trace() { return m_trace; }
  [[nodiscard]] const std::vector<std::string>& skip_examples() const { return m_skip_examples; }
  [[nodiscard]] const std::map<std::string, std::uint64_t>& unknown_categories() const { return m_unknown; }
  [[nodiscard]] const std::vector<EventCount>& ignored_categories() const { return m_ignored; }
  [[nodiscard]] const std::vector<EventCount>& unread_device_categories() const { return m_unread_device; }
  [[nodiscard]] bool read_accelerator_ops() const { return m_accelerator_ops; }

  // Gives each MTIA device op without a correlation the id of the ac2g flow that finishes on it (same
  // pid, tid and start); before the ops are sorted. Returns how many got one.
  std::size_t link_flows() {
    if (m_uncorrelated.empty()) return 0;
    const auto key = [](const FlowEnd& f) { return std::tuple(f.pid, f.tid, f.ts_ns); };
    std::sort(m_flow_ends.begin(), m_flow_ends.end(), [&](const FlowEnd& a, const FlowEnd& b) { return key(a) < key(b); });
    std::size_t linked = 0;
    for (const FlowEnd& op : m_uncorrelated) {
      auto it = std::lower_bound(m_flow_ends.begin(), m_flow_ends.end(), op,
                                 [&](const FlowEnd& a, const FlowEnd& b) { return key(a) < key(b); });
      if (it != m_flow_ends.end() && key(*it) == key(op)) {
        m_trace.timeline.ops[op.value].correlation = static_cast<std::uint64_t>(it->value);
        ++linked;
      }
    }
    return linked;
  }

 private:
  void note_skip(std::string reason) {
    if (m_skip_examples.size() < kMaxExampleReasons) m_skip_examples.push_back(std::move(reason));
  }

  void skip_invalid(std::string_view what) {
    ++m_trace.stats.invalid;
    ++m_trace.timeline.counters.skipped_events;
    if (m_skip_examples.size() < kMaxExampleReasons) {
      note_skip(fmt::format("event {} ({} '{}'): {}", m_trace.stats.events, m_event->has_cat ? m_event->cat : "?",
                            m_event->has_name ? m_event->name : "?", what));
    }
  }

  void extend_span(std::int64_t start, std::int64_t end) {
    if (!m_have_span) {
      m_trace.recorded_start_ns = start;
      m_trace.recorded_end_ns = end;
      m_have_span = true;
      return;
    }
    m_trace.recorded_start_ns = std::min(m_trace.recorded_start_ns, start);
    m_trace.recorded_end_ns = std::max(m_trace.recorded_end_ns, end);
  }

  // Required timing of a complete ('X') event: ts and a non-negative dur.
  bool timing(std::int64_t& start, std::int64_t& end) {
    if (!is(m_event->ph, "X")) {
      skip_invalid(fmt::format("phase '{}' where a complete event ('X') is expected", m_event->ph));
      return false;
    }
    const auto ts = as_ns(m_event->ts);
    const auto dur = as_ns(m_event->dur);
    if (!ts) {
      skip_invalid(m_event->ts.present() ? "'ts' is not a number of microseconds" : "missing 'ts'");
      return false;
    }
    if (!dur || *dur < 0) {
      skip_invalid(!m_event->dur.present() ? "missing 'dur'" : "'dur' is not a non-negative number of microseconds");
      return false;
    }
    if (__builtin_add_overflow(*ts, *dur, &end)) {
      skip_invalid("'ts' + 'dur' is past int64 nanoseconds");
      return false;
    }
    start = *ts;
    return true;
  }

  bool required_id(const NumberField& field, std::string_view name, std::int64_t& out) {
    const auto value = as_integer(field);
    if (!value || *value < 0) {
      skip_invalid(field.present() ? fmt::format("'args.{}' is not a non-negative integer", name)
                                   : fmt::format("missing 'args.{}'", name));
      return false;
    }
    out = *value;
    return true;
  }

  void finish_event() {
    ++m_trace.stats.events;
    const bool is_profiler_step =
        m_event->has_cat && is(m_event->cat, "user_annotation") && starts_with(m_event->name, "ProfilerStep#"sv);
    if (!is_profiler_step && !is(m_event->ph, "M")) {  // metadata carries no time (MTIA's is at ts 0)
      if (const auto ts = as_ns(m_event->ts)) {
        const auto dur = is(m_event->ph, "X") ? as_ns(m_event->dur) : std::nullopt;
        extend_span(*ts, saturating_add(*ts, dur && *dur > 0 ? *dur : 0));
      }
    }
    if (const auto pid = as_integer(m_event->pid)) m_trace.max_numeric_pid = std::max(m_trace.max_numeric_pid, *pid);
    if (!m_event->has_cat) {  // metadata ('M'), instant markers and other uncategorised events
      ignore("");
      return;
    }
    switch (classify_category(m_event->cat)) {
      case Category::kernel: return add_device_op(DeviceOpKind::kernel);
      case Category::memcpy: return add_device_op(DeviceOpKind::memcpy);
      case Category::memset: return add_device_op(DeviceOpKind::memset);
      case Category::runtime: return add_api_call(Runtime::cuda);
      case Category::xpu_runtime: return add_api_call(Runtime::xpu);
      case Category::flow: return add_flow();
      case Category::mtia_device: return add_mtia_device_event();
      case Category::mtia_runtime: return add_api_call(Runtime::mtia);
      case Category::annotation:
        if (is_profiler_step) return add_profiler_step();
        ignore(m_event->cat);
        return;
      case Category::device_unread:
        ++count_of(m_unread_device, m_event->cat);
        ignore(m_event->cat);
        return;
      case Category::unknown:
        ++m_trace.stats.unknown_category;
        ++m_trace.timeline.counters.skipped_events;
        if (std::string cat(m_event->cat); m_unknown.size() < kMaxExampleReasons || m_unknown.count(cat) != 0) {
          ++m_unknown[cat];
        }
        return;
      case Category::known_unused:
      case Category::none:
        ignore(m_event->cat);
        return;
    }
  }

  // An ignored event, counted by its category ("" for none): few categories, the last one hit first.
  void ignore(std::string_view cat) {
    ++m_trace.stats.ignored;
    ++count_of(m_ignored, cat);
  }

  static std::uint64_t& count_of(std::vector<EventCount>& counts, std::string_view cat) {
    // The length and the first byte tell most categories apart without a call to memcmp.
    const auto same = [cat](const std::string& known) {
      return known.size() == cat.size() && (cat.empty() || (known[0] == cat[0] && known == cat));
    };
    if (!counts.empty() && same(counts.back().category)) return counts.back().events;
    for (auto it = counts.begin(); it != counts.end(); ++it) {
      if (same(it->category)) {
        std::iter_swap(it, counts.end() - 1);  // the next event is most likely of the same category
        return counts.back().events;
      }
    }
    counts.push_back(EventCount{std::string(cat), 0});
    return counts.back().events;
  }

  // `device_from_pid`: MTIA's device events name their device by their pid, not args.device.
  void add_device_op(DeviceOpKind kind, bool device_from_pid = false) {
    DeviceOp op;
    op.kind = kind;
    std::int64_t stream = 0;
    std::int64_t device = 0;
    if (!timing(op.start_ns, op.end_ns)) return;
    if (!required_id(m_event->stream, "stream", stream)) return;
    if (!required_id(device_from_pid && !m_event->device.present() ? m_event->pid : m_event->device,
                     device_from_pid && !m_event->device.present() ? "pid"sv : "device"sv, device)) {
      return;
    }
    if (device > std::numeric_limits<std::int32_t>::max()) {
      skip_invalid("'args.device' is out of range");
      return;
    }
    op.stream = stream;
    op.device = static_cast<std::int32_t>(device);
    // A missing or malformed correlation leaves 0: the op is kept and counted as having no launch.
    if (const auto correlation = as_integer(m_event->correlation); correlation && *correlation > 0) {
      op.correlation = static_cast<std::uint64_t>(*correlation);
    }
    if (const auto graph = as_integer(m_event->graph_id); graph && *graph > 0 &&
                                                          *graph <= std::numeric_limits<std::uint32_t>::max()) {
      op.graph_id = static_cast<std::uint32_t>(*graph);
    }
    if (const auto bytes = as_integer(m_event->bytes); bytes && *bytes > 0) op.bytes = static_cast<std::uint64_t>(*bytes);
    if (const auto size = as_integer(m_event->size); device_from_pid && size && *size > 0) {
      op.bytes = static_cast<std::uint64_t>(*size);
    }
    op.name = m_event->name;
    op.communication = op.kind == DeviceOpKind::kernel && communication_kernel(op.name);
    if (as_integer(m_event->ohprof_cpu_kernel) == 1) m_trace.timeline.ops_have_launches = false;
    if (op.correlation == 0 && device_from_pid) {  // linked later by the ac2g flow that ends on it
      m_uncorrelated.push_back(FlowEnd{as_integer(m_event->pid).value_or(-1), as_integer(m_event->tid).value_or(-1),
                                       op.start_ns, m_trace.timeline.ops.size()});
    }
    m_trace.timeline.ops.push_back(std::move(op));
    ++m_trace.stats.kept;
  }

  // An ac2g flow event: its finish ('f') lies on the device event its start's runtime call enqueued.
  // Kept only to link MTIA's device events, which carry no correlation of their own.
  void add_flow() {
    ignore(m_event->cat);
    if (!is(m_event->ph, "f")) return;
    const auto id = as_integer(m_event->id);
    const auto ts = as_ns(m_event->ts);
    if (!id || *id <= 0 || !ts) return;
    m_flow_ends.push_back(FlowEnd{as_integer(m_event->pid).value_or(-1), as_integer(m_event->tid).value_or(-1), *ts,
                                  static_cast<std::size_t>(*id)});
  }

  void add_mtia_device_event() {
    switch (mtia_device_event(m_event->has_name ? m_event->name : ""sv)) {
      case MtiaDeviceEvent::kernel:
        m_accelerator_ops = true;
        return add_device_op(DeviceOpKind::kernel, true);
      case MtiaDeviceEvent::copy:
        m_accelerator_ops = true;
        return add_device_op(DeviceOpKind::memcpy, true);
      case MtiaDeviceEvent::marker: ignore(m_event->cat); return;
    }
  }

  // Whose runtime a call is: cuda_runtime / cuda_driver (CUDA's, HIP's, an older PyTorch's Runtime), xpu_runtime,
  // mtia_runtime.
  enum class Runtime { cuda, xpu, mtia };

  // A runtime or driver call: CUDA's, HIP's, XPU's, an older PyTorch's (by launch_kind_of_api and
  // is_sync_api), or MTIA's (by mtia_runtime_call, whose stages are not read).
  void add_api_call(Runtime runtime) {
    KinetoTrace::Runtimes& called = m_trace.runtimes;
    (runtime == Runtime::cuda ? called.cuda : runtime == Runtime::xpu ? called.xpu : called.mtia) = true;
    const bool mtia = runtime == Runtime::mtia;
    // ohprof's own traces say what each call is (the collector knew it by its callback id, not its name)
    const std::optional<OhprofCall> tagged = mtia ? std::nullopt : ohprof_call_of(as_integer(m_event->ohprof_call));
    std::optional<LaunchKind> named;
    bool named_sync = false;
    if (mtia) {
      const MtiaRuntimeCall what = mtia_runtime_call(m_event->has_name ? m_event->name : ""sv);
      if (what == MtiaRuntimeCall::stage) {
        ignore(m_event->cat);
        return;
      }
      if (what == MtiaRuntimeCall::kernel_launch) named = LaunchKind::kernel;
      if (what == MtiaRuntimeCall::copy_launch) named = LaunchKind::memcpy;
      named_sync = what == MtiaRuntimeCall::sync;
    } else if (m_event->has_name) {
      // A trace's calls are mostly the same few names in a row: the last one's meaning is kept.
      if (!m_api_name_read || m_event->name != m_api_name) {
        m_api_name.assign(m_event->name);
        m_api_kind = launch_kind_of_api(m_event->name);
        m_api_sync = !m_api_kind && is_sync_api(m_event->name);
        m_api_name_read = true;
      }
      named = m_api_kind;
      named_sync = m_api_sync;
    }
    const bool launch = tagged ? tagged->launch.has_value() : named.has_value();
    const LaunchKind kind = tagged ? tagged->launch.value_or(LaunchKind::other) : named.value_or(LaunchKind::other);
    const bool sync = tagged ? tagged->sync : named_sync;
    std::int64_t start = 0;
    std::int64_t end = 0;
    if (!timing(start, end)) return;
    const std::int64_t thread = as_integer(m_event->tid).value_or(0);
    if (!launch && !sync) {
      m_trace.timeline.api_calls.push_back(ApiCall{start, end, thread, std::string(m_event->name)});
      ++m_trace.stats.kept;
      return;
    }
    if (sync) {
      m_trace.timeline.syncs.push_back(SyncCall{start, end, thread, std::string(m_event->name), tagged && tagged->harness});
      ++m_trace.stats.kept;
      return;
    }
    std::int64_t correlation = 0;
    if (!required_id(m_event->correlation, "correlation", correlation)) return;
    LaunchCall call;
    call.kind = kind;
    call.start_ns = start;
    call.end_ns = end;
    call.thread_id = thread;
    call.correlation = static_cast<std::uint64_t>(correlation);
    call.name = m_event->name;
    call.synchronous = tagged ? tagged->synchronous : call.kind == LaunchKind::memcpy && synchronous_copy_api(call.name);
    call.iteration = as_integer(m_event->ohprof_iteration);
    m_trace.timeline.launches.push_back(std::move(call));
    ++m_trace.stats.kept;
  }

  void add_profiler_step() {
    const std::string_view digits = m_event->name.substr("ProfilerStep#"sv.size());
    std::int64_t index = 0;
    bool valid = !digits.empty() && digits.size() <= 18;
    for (char c : digits) {
      if (c < '0' || c > '9') valid = false;
      if (valid) index = index * 10 + (c - '0');
    }
    if (!valid) {
      skip_invalid("the step number after 'ProfilerStep#' is not an integer");
      return;
    }
    IterationWindow window;
    window.index = index;
    if (!timing(window.start_ns, window.end_ns)) return;
    m_trace.timeline.iterations.push_back(window);
    ++m_trace.stats.kept;
  }

  KinetoTrace& m_trace;
  const PendingEvent* m_event = nullptr;  // the event being added
  // The last runtime call's name, and what launch_kind_of_api and is_sync_api said of it.
  std::string m_api_name;
  bool m_api_name_read = false;
  std::optional<LaunchKind> m_api_kind;
  bool m_api_sync = false;
  bool m_have_span = false;
  std::vector<std::string> m_skip_examples;
  std::map<std::string, std::uint64_t> m_unknown;
  std::vector<EventCount> m_ignored;        // ignored events by category
  std::vector<EventCount> m_unread_device;  // of those, the device-side ones the split does not read
  bool m_accelerator_ops = false;
  std::vector<FlowEnd> m_flow_ends;
  std::vector<FlowEnd> m_uncorrelated;
};

namespace {

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out += separator;
    out += part;
  }
  return out;
}

// After parsing: order the records, link ops to launches, choose the iteration windows, and turn
// what was skipped into warnings.
Status finish_trace(KinetoTrace& trace, KinetoEvents::Meaning& sax, const std::map<std::int64_t, std::string>& device_names) {
  Timeline& timeline = trace.timeline;
  sax.link_flows();
  trace.accelerator_ops = sax.read_accelerator_ops();
  const auto by_start = [](const auto& a, const auto& b) {
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns < b.end_ns;
  };
  // Kineto writes them nearly in order: a stable sort that is cheap on runs.
  stable_sort_runs(timeline.ops.begin(), timeline.ops.end(), by_start);
  stable_sort_runs(timeline.launches.begin(), timeline.launches.end(), by_start);
  stable_sort_runs(timeline.syncs.begin(), timeline.syncs.end(), by_start);
  stable_sort_runs(timeline.api_calls.begin(), timeline.api_calls.end(), by_start);
  stable_sort_runs(timeline.iterations.begin(), timeline.iterations.end(), by_start);

  // Devices: the report names one GPU when all ops ran on one.
  const std::int32_t first_device = timeline.ops.empty() ? -1 : timeline.ops.front().device;
  const bool one_device = std::all_of(timeline.ops.begin(), timeline.ops.end(),
                                      [&](const DeviceOp& op) { return op.device == first_device; });
  trace.device_index = one_device && !timeline.ops.empty() ? first_device : -1;
  if (one_device) {
    if (auto it = device_names.find(first_device); it != device_names.end()) trace.device_name = it->second;
  }
  // No op to say which device: a trace whose deviceProperties name one device ran on that one (MTIA's).
  if (timeline.ops.empty() && device_names.size() == 1) {
    trace.device_index = static_cast<std::int32_t>(device_names.begin()->first);
    trace.device_name = device_names.begin()->second;
  }

  // Linking: an op whose correlation matches no launch call in the trace (CPU kernels, in ohprof's own
  // trace of a CPU run, have none to match).
  std::vector<std::uint64_t> launched;  // sorted: correlations mostly count up already
  launched.reserve(timeline.launches.size());
  for (const LaunchCall& call : timeline.launches) launched.push_back(call.correlation);
  if (!std::is_sorted(launched.begin(), launched.end())) std::sort(launched.begin(), launched.end());
  std::uint64_t without_launch = 0;
  for (const DeviceOp& op : timeline.ops) {
    if (timeline.ops_have_launches &&
        (op.correlation == 0 || !std::binary_search(launched.begin(), launched.end(), op.correlation))) {
      ++without_launch;
    }
  }
  timeline.counters.ops_without_launch = without_launch;
  if (without_launch > 0) {
    trace.warnings.push_back(Warning{
        WarningCode::ops_without_launch,
        trace.accelerator_ops
            ? fmt::format("{} of {} device operations have no launch call in the trace (no mtia_runtime launch with "
                          "their correlation, nor an ac2g flow from one); they count as device time but cannot be "
                          "attributed to a launch",
                          without_launch, timeline.ops.size())
            : fmt::format("{} of {} GPU operations have no launch call in the trace (no {} launch "
                          "with their args.correlation); they count as GPU time but cannot be attributed to a launch",
                          without_launch, timeline.ops.size(),
                          trace.runtimes.xpu && !trace.runtimes.cuda ? "xpu_runtime" : "cuda_runtime/cuda_driver")});
  }

  // Iterations.
  if (timeline.iterations.empty()) {
    // One window over all CUDA activity (ops, launch and sync calls); with none, over the recording.
    trace.iterations_from_profiler_steps = false;
    timeline.whole_recording_window = true;
    std::optional<IterationWindow> whole;
    const auto include = [&](std::int64_t start, std::int64_t end) {
      if (!whole) whole = IterationWindow{0, start, end};
      whole->start_ns = std::min(whole->start_ns, start);
      whole->end_ns = std::max(whole->end_ns, end);
    };
    for (const auto& op : timeline.ops) include(op.start_ns, op.end_ns);
    for (const auto& call : timeline.launches) include(call.start_ns, call.end_ns);
    for (const auto& call : timeline.syncs) include(call.start_ns, call.end_ns);
    if (!whole && trace.stats.events > 0 && trace.recorded_end_ns >= trace.recorded_start_ns) {
      include(trace.recorded_start_ns, trace.recorded_end_ns);
    }
    if (whole) timeline.iterations.push_back(*whole);
  } else {
    trace.iterations_from_profiler_steps = true;
    for (IterationWindow& window : timeline.iterations) {
      if (window.end_ns > trace.recorded_end_ns) {
        trace.warnings.push_back(Warning{
            WarningCode::step_cut_at_recording_end,
            fmt::format("ProfilerStep#{} ends {} after the last event of the trace; its window is cut at the end of "
                        "the recording",
                        window.index, format_duration(static_cast<double>(window.end_ns - trace.recorded_end_ns)))});
        window.end_ns = std::max(window.start_ns, trace.recorded_end_ns);
      }
    }
  }

  // Skipped events.
  if (trace.stats.invalid > 0) {
    trace.warnings.push_back(Warning{
        WarningCode::trace_events_unusable,
        fmt::format("skipped {} trace event{} that ohprof needs but could not use ({}{})", trace.stats.invalid,
                    trace.stats.invalid == 1 ? "" : "s", join(sax.skip_examples(), "; "),
                    trace.stats.invalid > sax.skip_examples().size() ? "; ..." : "")});
  }
  if (trace.stats.unknown_category > 0) {
    std::vector<std::string> names;
    for (const auto& [name, count] : sax.unknown_categories()) names.push_back(fmt::format("'{}' x{}", name, count));
    trace.warnings.push_back(Warning{
        WarningCode::trace_categories_unknown,
        fmt::format("skipped {} trace event{} of categories Kineto does not write: {}", trace.stats.unknown_category,
                    trace.stats.unknown_category == 1 ? "" : "s", join(names, ", "))});
  }
  // Ignored events by category, and the device-side ones among them: device work that is there but
  // unread, which the verdict then calls unknown (docs/analyze.md, "What is read").
  const auto by_category = [](std::vector<EventCount> counts) {
    std::sort(counts.begin(), counts.end(), [](const EventCount& a, const EventCount& b) { return a.category < b.category; });
    return counts;
  };
  trace.stats.ignored_by_category = by_category(sax.ignored_categories());
  timeline.unread_device_events = by_category(sax.unread_device_categories());
  if (!timeline.unread_device_events.empty()) {
    std::uint64_t total = 0;
    for (const EventCount& c : timeline.unread_device_events) total += c.events;
    const std::string names = event_counts_text(timeline.unread_device_events);
    trace.warnings.push_back(Warning{
        WarningCode::device_events_unread,
        only_profiler_ranges(timeline.unread_device_events)
            ? fmt::format("the kernels were recorded only as CUPTI range-profiler ranges ({}), which carry no kernel "
                          "timestamps: the device's time cannot be split. Record with torch.profiler's activity tracing "
                          "(ProfilerActivity.CUDA) instead",
                          names)
            : fmt::format("{} device event{} of categories ohprof does not read ({}): the device's time in them is "
                          "unknown, not zero",
                          total, total == 1 ? "" : "s", names)});
  }
  return ok_status();
}

}  // namespace

KinetoEvents::KinetoEvents(KinetoTrace& trace) : m_meaning(std::make_unique<Meaning>(trace)) {}
KinetoEvents::~KinetoEvents() = default;
void KinetoEvents::add(const PendingEvent& event) { m_meaning->add(event); }
void KinetoEvents::add_non_object() { m_meaning->add_non_object(); }
Status KinetoEvents::finish(const std::map<std::int64_t, std::string>& device_names) {
  return finish_trace(m_meaning->trace(), *m_meaning, device_names);
}

}  // namespace ohprof
