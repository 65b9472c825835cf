#include "ohprof/trace/kineto_reader.hpp"
#include "ohprof_tags.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "ohprof/trace/gzip_file.hpp"
#include "json_stream.hpp"
#include "ohprof/base/format.hpp"
#include "ohprof/model/launch_apis.hpp"

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

// ---- the SAX handler ------------------------------------------------------------------------

namespace {

// text == literal, with the literal's length known to the compiler, so that the comparison is a few
// inlined instructions instead of a call to memcmp (keys and categories are compared millions of times).
template <std::size_t N>
bool is(std::string_view text, const char (&literal)[N]) {
  return text.size() == N - 1 && std::memcmp(text.data(), literal, N - 1) == 0;
}

enum class Category {
  none, kernel, memcpy, memset, runtime, annotation, flow, mtia_device, mtia_runtime, known_unused, device_unread, unknown
};

Category classify_category(std::string_view cat) {
  if (is(cat, "kernel")) return Category::kernel;
  if (is(cat, "gpu_memcpy")) return Category::memcpy;
  if (is(cat, "gpu_memset")) return Category::memset;
  if (is(cat, "cuda_runtime") || is(cat, "cuda_driver") || is(cat, "xpu_runtime")) return Category::runtime;
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

enum class EventKey { other, ph, cat, name, pid, tid, ts, dur, id, args };
enum class ArgKey { other, correlation, stream, device, bytes, size, graph_id, ohprof_call, ohprof_iteration, ohprof_cpu_kernel };
enum class RootKey { other, trace_events, device_properties, distributed_info };
enum class PropKey { other, id, name };
enum class DistKey { other, rank, world_size, backend };

// An event's keys that are read, the most frequent first. Each is at most seven bytes, so that with its
// closing quote it fits in one 64-bit word (match_event_key).
struct EventKeyName {
  std::string_view name;
  EventKey key;
};
constexpr std::array kEventKeys = {
    EventKeyName{"ph", EventKey::ph},   EventKeyName{"cat", EventKey::cat}, EventKeyName{"name", EventKey::name},
    EventKeyName{"pid", EventKey::pid}, EventKeyName{"tid", EventKey::tid}, EventKeyName{"ts", EventKey::ts},
    EventKeyName{"dur", EventKey::dur}, EventKeyName{"args", EventKey::args}, EventKeyName{"id", EventKey::id}};

EventKey classify_event_key(std::string_view key) {
  for (const EventKeyName& known : kEventKeys) {
    if (key == known.name) return known.key;
  }
  return EventKey::other;
}

// A key's bytes and its closing quote as a little-endian word, and the mask of those bytes.
struct PackedKey {
  std::uint64_t bytes = 0;
  std::uint64_t mask = 0;
};
constexpr PackedKey pack_key(std::string_view name) {
  PackedKey packed;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    const auto byte = static_cast<unsigned char>(i < name.size() ? name[i] : '"');
    packed.bytes |= static_cast<std::uint64_t>(byte) << (8 * i);
    packed.mask |= std::uint64_t{0xff} << (8 * i);
  }
  return packed;
}
constexpr auto kPackedEventKeys = [] {
  std::array<PackedKey, kEventKeys.size()> packed{};
  for (std::size_t i = 0; i < kEventKeys.size(); ++i) {
    packed[i] = pack_key(kEventKeys[i].name);
  }
  return packed;
}();
static_assert(std::all_of(kEventKeys.begin(), kEventKeys.end(), [](const EventKeyName& k) { return k.name.size() <= 7; }));

// The event key whose bytes and closing quote start at `at` (after the opening quote), read as one word
// when eight bytes are there; `after` is then the byte after the closing quote. Otherwise (another key,
// or fewer than eight bytes) EventKey::other with `after` unchanged. Kineto writes an event's keys in the
// order of kEventKeys, so the search starts at `next`, the entry after the last one matched, and wraps.
inline EventKey match_event_key(const char* at, const char* end, const char*& after, std::size_t& next) {
  if (end - at < 8) return EventKey::other;
  std::uint64_t word = 0;
  std::memcpy(&word, at, 8);
  if constexpr (std::endian::native == std::endian::little) {
    std::size_t i = next;
    for (std::size_t tried = 0; tried < kEventKeys.size(); ++tried) {
      if (i == kEventKeys.size()) i = 0;
      if ((word & kPackedEventKeys[i].mask) == kPackedEventKeys[i].bytes) {
        after = at + kEventKeys[i].name.size() + 1;
        next = i + 1;
        return kEventKeys[i].key;
      }
      ++i;
    }
  }
  return EventKey::other;
}

ArgKey classify_arg_key(std::string_view key) {
  switch (key.size()) {  // most args ("External id", "Input Dims", ...) are rejected by their length alone
    case 4:
      if (is(key, "size")) return ArgKey::size;  // an MTIA copy's bytes
      break;
    case 5:
      if (is(key, "bytes")) return ArgKey::bytes;
      break;
    case 6:
      if (is(key, "stream")) return ArgKey::stream;
      if (is(key, "device")) return ArgKey::device;
      break;
    case 8:
      if (is(key, "graph id")) return ArgKey::graph_id;
      break;
    case 11:
      if (is(key, "correlation")) return ArgKey::correlation;
      if (is(key, "ohprof_call")) return ArgKey::ohprof_call;
      break;
    case 16:
      if (is(key, "ohprof_iteration")) return ArgKey::ohprof_iteration;
      break;
    case 17:
      if (is(key, "ohprof_cpu_kernel")) return ArgKey::ohprof_cpu_kernel;
      break;
    default:
      break;
  }
  return ArgKey::other;
}

// A number as the SAX parser delivered it: an integer, or the text of a number with a fraction or
// exponent (kept so microseconds convert exactly).
struct NumberField {
  enum class State { absent, integer, text, not_a_number } state = State::absent;
  std::int64_t integer = 0;
  bool integer_overflow = false;  // an unsigned value above INT64_MAX
  std::string text;

  void reset() { state = State::absent; }
  [[nodiscard]] bool present() const { return state != State::absent; }
};

// An integer id (stream, device, correlation, ...): nullopt when absent or not an integer.
std::optional<std::int64_t> as_integer(const NumberField& field) {
  if (field.state == NumberField::State::integer && !field.integer_overflow) return field.integer;
  return std::nullopt;
}

std::optional<std::int64_t> as_ns(const NumberField& field) {
  switch (field.state) {
    case NumberField::State::integer: {
      if (field.integer_overflow) return std::nullopt;
      constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max() / 1000;
      if (field.integer > kMax || field.integer < -kMax) return std::nullopt;
      return field.integer * 1000;
    }
    case NumberField::State::text:
      return microseconds_text_to_ns(field.text);
    default:
      return std::nullopt;
  }
}

struct PendingEvent {
  // Views of the bytes read: in the parser's buffer while the event is read whole (fast_element: the
  // event is finished before the buffer moves), else of the copies below.
  std::string_view ph;
  std::string_view cat;
  std::string_view name;
  std::string ph_copy, cat_copy, name_copy;
  bool has_cat = false;
  bool has_name = false;
  NumberField ts, dur, pid, tid, id;
  NumberField correlation, stream, device, bytes, size, graph_id;
  // What ohprof's own traces (run/compare --export-trace, trace/trace_export.hpp) say of a record that
  // its name alone would not: the kind of a runtime call, a launch's iteration, a CPU kernel.
  NumberField ohprof_call, ohprof_iteration, ohprof_cpu_kernel;

  void reset() {
    ph = cat = name = {};  // a view may be of a buffer that has moved since
    has_cat = has_name = false;
    for (NumberField* field : {&ts, &dur, &pid, &tid, &id, &correlation, &stream, &device, &bytes, &size, &graph_id, &ohprof_call,
                               &ohprof_iteration, &ohprof_cpu_kernel}) {
      field->reset();
    }
  }
};

constexpr std::size_t kMaxExampleReasons = 5;

// A handler for parse_json_stream_with (JsonHandler's member functions, called directly, not virtually).
// It declines (key() returns false) every member whose value it would ignore: the parser then checks
// that value without reporting it.
class KinetoSax {
 public:
  KinetoSax(KinetoTrace& trace, JsonReading reading) : m_trace(trace), m_window(reading == JsonReading::window) {}

  // --- the JSON events ---
  void null() { on_scalar_non_number(); }
  void boolean(bool /*value*/) { on_scalar_non_number(); }
  void number_integer(std::int64_t value) {
    if (NumberField* field = number_target()) {
      field->state = NumberField::State::integer;
      field->integer = value;
      field->integer_overflow = false;
    }
    on_scalar();
  }
  void number_unsigned(std::uint64_t value) {
    if (NumberField* field = number_target()) {
      field->state = NumberField::State::integer;
      field->integer_overflow = value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
      field->integer = static_cast<std::int64_t>(value);
    }
    on_scalar();
  }
  void number_text(std::string_view text) {
    if (NumberField* field = number_target()) {
      field->state = NumberField::State::text;
      field->text.assign(text);
    }
    on_scalar();
  }
  void string(std::string_view value) {
    if (in_event_level()) {
      switch (m_event_key) {
        case EventKey::ph: m_event.ph = m_event.ph_copy.assign(value); break;
        case EventKey::cat:
          m_event.cat = m_event.cat_copy.assign(value);
          m_event.has_cat = true;
          break;
        case EventKey::name:
          m_event.name = m_event.name_copy.assign(value);
          m_event.has_name = true;
          break;
        default:
          if (NumberField* field = number_target()) field->state = NumberField::State::not_a_number;
          break;
      }
    } else if (in_property_level() && m_prop_key == PropKey::name) {
      m_prop_name.assign(value);
    } else if (in_distributed_level() && m_dist_key == DistKey::backend) {
      m_trace.distributed->backend.assign(value);
    } else if (NumberField* field = number_target()) {
      field->state = NumberField::State::not_a_number;
    }
    on_scalar();
  }
  void start_object() {
    on_container_value();
    ++m_depth;
    if (m_events_depth != 0 && m_depth == m_events_depth + 1) {
      m_in_event = true;
      m_event.reset();
      m_event_key = EventKey::other;
    } else if (m_in_event && m_depth == m_events_depth + 2 && m_event_key == EventKey::args) {
      m_in_args = true;
      m_arg_key = ArgKey::other;
    } else if (m_props_depth != 0 && m_depth == m_props_depth + 1) {
      m_in_prop = true;
      m_prop_id.reset();
      m_prop_name.clear();
      m_prop_key = PropKey::other;
    } else if (m_depth == 2 && m_root_key == RootKey::distributed_info && !m_trace.distributed) {
      m_in_dist = true;
      m_trace.distributed.emplace();
      m_dist_key = DistKey::other;
    } else if (m_depth == 1) {
      m_root_seen = true;
    }
  }

  void end_object() {
    if (m_in_args && m_depth == m_events_depth + 2) {
      m_in_args = false;
    } else if (m_in_event && m_depth == m_events_depth + 1) {
      m_in_event = false;
      finish_event();
    } else if (m_in_prop && m_depth == m_props_depth + 1) {
      m_in_prop = false;
      if (m_prop_id) m_device_names.emplace(*m_prop_id, m_prop_name);
    } else if (m_in_dist && m_depth == 2) {
      m_in_dist = false;
    }
    --m_depth;
  }

  void start_array() {
    on_container_value();
    ++m_depth;
    if (m_depth == 1) {  // a bare array of events is also a Chrome trace
      m_root_seen = true;
      m_events_depth = 1;
      m_found_events = true;
    } else if (m_depth == 2 && m_root_key == RootKey::trace_events && m_events_depth == 0 && !m_found_events) {
      m_events_depth = 2;
      m_found_events = true;
    } else if (m_depth == 2 && m_root_key == RootKey::device_properties) {
      m_props_depth = 2;
    } else if (m_events_depth != 0 && m_depth == m_events_depth + 1) {
      ++m_trace.stats.events;  // an array where an event object belongs
      ++m_trace.stats.invalid;
      ++m_trace.timeline.counters.skipped_events;
      note_skip(fmt::format("entry {} of traceEvents is not an object", m_trace.stats.events));
    }
  }

  void end_array() {
    if (m_depth == m_events_depth) m_events_depth = 0;
    if (m_depth == m_props_depth) m_props_depth = 0;
    --m_depth;
  }

  // Returns false for a member of the root, an event, its args or a device's properties that is not
  // read: nothing inside such a value is (no other key's depth and context match inside it).
  bool key(std::string_view key) {
    if (m_in_event && m_depth == m_events_depth + 1) {  // the most frequent first
      m_event_key = classify_event_key(key);
      return m_event_key != EventKey::other;
    }
    if (m_in_args && m_depth == m_events_depth + 2) {
      m_arg_key = classify_arg_key(key);
      return m_arg_key != ArgKey::other;
    }
    if (m_depth == 1 && m_events_depth != 1) {
      m_root_key = is(key, "traceEvents")         ? RootKey::trace_events
                   : is(key, "deviceProperties")  ? RootKey::device_properties
                   : is(key, "distributedInfo")   ? RootKey::distributed_info
                                                  : RootKey::other;
      return m_root_key != RootKey::other;
    }
    if (m_in_prop && m_depth == m_props_depth + 1) {
      m_prop_key = is(key, "id") ? PropKey::id : is(key, "name") ? PropKey::name : PropKey::other;
      return m_prop_key != PropKey::other;
    }
    if (m_in_dist && m_depth == 2) {
      m_dist_key = is(key, "rank")         ? DistKey::rank
                   : is(key, "world_size") ? DistKey::world_size
                   : is(key, "backend")    ? DistKey::backend
                                           : DistKey::other;
      return m_dist_key != DistKey::other;
    }
    return true;
  }

  // --- the events read whole from the parser's buffer (json_stream.hpp, "the window") ---
  // An event of the common shape (keys and the strings read without escapes, numbers of the usual
  // length, containers only as args or as values not read) is read here in one pass, with the same
  // result as through the calls above; anything else returns nullptr and is read through them.
  [[nodiscard]] bool fast_elements() const { return m_window && m_events_depth != 0 && m_depth == m_events_depth; }

  const char* fast_element(const char* p, const char* end) {
    namespace window = json_detail::window;
    if (*p != '{') return nullptr;
    m_event.reset();
    ++p;
    std::size_t next_key = 0;
    const bool read = window::items(p, end, '}', [&](const char*& q) {
      const char* after = nullptr;
      EventKey which = *q == '"' ? match_event_key(q + 1, end, after, next_key) : EventKey::other;
      if (after != nullptr) {
        q = after;
        if (!window::colon(q, end)) return false;
      } else {
        std::string_view key;
        if (!window::key(q, end, key)) return false;
        which = classify_event_key(key);
      }
      switch (which) {
        case EventKey::ph: return fast_text(q, end, m_event.ph);
        case EventKey::cat: return m_event.has_cat = fast_text(q, end, m_event.cat);
        case EventKey::name: return m_event.has_name = fast_text(q, end, m_event.name);
        case EventKey::args: return fast_args(q, end);
        case EventKey::other: return window::skip_value(q, end);
        default: return fast_number(q, end, *event_field(which));
      }
    });
    if (!read) return nullptr;
    finish_event();
    return p;
  }

  // --- results ---
  [[nodiscard]] bool found_events() const { return m_found_events; }
  [[nodiscard]] bool root_seen() const { return m_root_seen; }
  [[nodiscard]] const std::map<std::int64_t, std::string>& device_names() const { return m_device_names; }
  [[nodiscard]] const std::vector<std::string>& skip_examples() const { return m_skip_examples; }
  [[nodiscard]] const std::map<std::string, std::uint64_t>& unknown_categories() const { return m_unknown; }
  [[nodiscard]] const std::vector<EventCount>& ignored_categories() const { return m_ignored; }
  [[nodiscard]] const std::vector<EventCount>& unread_device_categories() const { return m_unread_device; }
  [[nodiscard]] bool have_span() const { return m_have_span; }
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
  [[nodiscard]] bool in_event_level() const { return m_in_event && !m_in_args && m_depth == m_events_depth + 1; }
  [[nodiscard]] bool in_args_level() const { return m_in_args && m_depth == m_events_depth + 2; }
  [[nodiscard]] bool in_property_level() const { return m_in_prop && m_depth == m_props_depth + 1; }
  [[nodiscard]] bool in_distributed_level() const { return m_in_dist && m_depth == 2; }

  // The event's number read under an event key or an args key, if any.
  NumberField* event_field(EventKey key) {
    switch (key) {
      case EventKey::ts: return &m_event.ts;
      case EventKey::dur: return &m_event.dur;
      case EventKey::pid: return &m_event.pid;
      case EventKey::tid: return &m_event.tid;
      case EventKey::id: return &m_event.id;
      default: return nullptr;
    }
  }
  NumberField* arg_field(ArgKey key) {
    switch (key) {
      case ArgKey::correlation: return &m_event.correlation;
      case ArgKey::stream: return &m_event.stream;
      case ArgKey::device: return &m_event.device;
      case ArgKey::bytes: return &m_event.bytes;
      case ArgKey::size: return &m_event.size;
      case ArgKey::graph_id: return &m_event.graph_id;
      case ArgKey::ohprof_call: return &m_event.ohprof_call;
      case ArgKey::ohprof_iteration: return &m_event.ohprof_iteration;
      case ArgKey::ohprof_cpu_kernel: return &m_event.ohprof_cpu_kernel;
      default: return nullptr;
    }
  }

  // Where a scalar at the current position goes, if anywhere.
  NumberField* number_target() {
    if (in_event_level()) return event_field(m_event_key);
    if (in_args_level()) return arg_field(m_arg_key);
    if (in_property_level() && m_prop_key == PropKey::id) return &m_prop_id_field;
    if (in_distributed_level() && m_dist_key != DistKey::other && m_dist_key != DistKey::backend) return &m_dist_field;
    return nullptr;
  }

  // The window's pieces (fast_element): each reads one item at p and moves p past it; false when the
  // item is not of the shape read here (the event is then read through the parser's calls).
  static bool fast_text(const char*& p, const char* end, std::string_view& out) {
    if (*p != '"') return false;
    ++p;
    return json_detail::window::plain_string(p, end, out);
  }
  // A value where a number belongs: as number_integer, number_text, string, boolean or null set it.
  static bool fast_number(const char*& p, const char* end, NumberField& field) {
    namespace window = json_detail::window;
    switch (*p) {
      case '"':
      case 't':
      case 'f':
      case 'n':
        if (!window::skip_value(p, end)) return false;
        field.state = NumberField::State::not_a_number;
        return true;
      case '{':
      case '[':
        return false;
      default: {
        std::int64_t integer = 0;
        std::string_view text;
        if (!window::number(p, end, integer, text)) return false;
        if (text.empty()) {
          field.state = NumberField::State::integer;
          field.integer = integer;
          field.integer_overflow = false;
        } else {
          field.state = NumberField::State::text;
          field.text.assign(text);
        }
        return true;
      }
    }
  }
  bool fast_args(const char*& p, const char* end) {
    return json_detail::window::members(p, end, [&](std::string_view key, const char*& q) {
      NumberField* field = arg_field(classify_arg_key(key));
      return field != nullptr ? fast_number(q, end, *field) : json_detail::window::skip_value(q, end);
    });
  }

  void mark_event_field_not_a_number() {
    if (NumberField* field = number_target()) field->state = NumberField::State::not_a_number;
  }

  void on_scalar() {
    if (in_property_level() && m_prop_key == PropKey::id) m_prop_id = as_integer(m_prop_id_field);
    if (in_distributed_level() && (m_dist_key == DistKey::rank || m_dist_key == DistKey::world_size)) {
      // Only a non-negative integer is a rank or a size; anything else leaves the field unset.
      std::optional<std::int64_t> value = as_integer(m_dist_field);
      if (value && *value < 0) value.reset();
      (m_dist_key == DistKey::rank ? m_trace.distributed->rank : m_trace.distributed->world_size) = value;
      m_dist_field.reset();
    }
    if (m_events_depth != 0 && m_depth == m_events_depth) {
      // A scalar where an event object belongs.
      ++m_trace.stats.events;
      ++m_trace.stats.invalid;
      ++m_trace.timeline.counters.skipped_events;
      note_skip(fmt::format("entry {} of traceEvents is not an object", m_trace.stats.events));
    }
  }

  // An object or array opens at the current position: where a number belongs, it is not one.
  void on_container_value() { mark_event_field_not_a_number(); }

  void on_scalar_non_number() {
    mark_event_field_not_a_number();
    on_scalar();
  }

  void note_skip(std::string reason) {
    if (m_skip_examples.size() < kMaxExampleReasons) m_skip_examples.push_back(std::move(reason));
  }

  void skip_invalid(std::string_view what) {
    ++m_trace.stats.invalid;
    ++m_trace.timeline.counters.skipped_events;
    if (m_skip_examples.size() < kMaxExampleReasons) {
      note_skip(fmt::format("event {} ({} '{}'): {}", m_trace.stats.events, m_event.has_cat ? m_event.cat : "?",
                            m_event.has_name ? m_event.name : "?", what));
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
    if (!is(m_event.ph, "X")) {
      skip_invalid(fmt::format("phase '{}' where a complete event ('X') is expected", m_event.ph));
      return false;
    }
    const auto ts = as_ns(m_event.ts);
    const auto dur = as_ns(m_event.dur);
    if (!ts) {
      skip_invalid(m_event.ts.present() ? "'ts' is not a number of microseconds" : "missing 'ts'");
      return false;
    }
    if (!dur || *dur < 0) {
      skip_invalid(!m_event.dur.present() ? "missing 'dur'" : "'dur' is not a non-negative number of microseconds");
      return false;
    }
    start = *ts;
    end = *ts + *dur;
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
        m_event.has_cat && is(m_event.cat, "user_annotation") && starts_with(m_event.name, "ProfilerStep#"sv);
    if (!is_profiler_step && !is(m_event.ph, "M")) {  // metadata carries no time (MTIA's is at ts 0)
      if (const auto ts = as_ns(m_event.ts)) {
        const auto dur = is(m_event.ph, "X") ? as_ns(m_event.dur) : std::nullopt;
        extend_span(*ts, *ts + (dur && *dur > 0 ? *dur : 0));
      }
    }
    if (const auto pid = as_integer(m_event.pid)) m_trace.max_numeric_pid = std::max(m_trace.max_numeric_pid, *pid);
    if (!m_event.has_cat) {  // metadata ('M'), instant markers and other uncategorised events
      ignore("");
      return;
    }
    switch (classify_category(m_event.cat)) {
      case Category::kernel: return add_device_op(DeviceOpKind::kernel);
      case Category::memcpy: return add_device_op(DeviceOpKind::memcpy);
      case Category::memset: return add_device_op(DeviceOpKind::memset);
      case Category::runtime: return add_api_call();
      case Category::flow: return add_flow();
      case Category::mtia_device: return add_mtia_device_event();
      case Category::mtia_runtime: return add_api_call(/*mtia=*/true);
      case Category::annotation:
        if (is_profiler_step) return add_profiler_step();
        ignore(m_event.cat);
        return;
      case Category::device_unread:
        ++count_of(m_unread_device, m_event.cat);
        ignore(m_event.cat);
        return;
      case Category::unknown:
        ++m_trace.stats.unknown_category;
        ++m_trace.timeline.counters.skipped_events;
        if (std::string cat(m_event.cat); m_unknown.size() < kMaxExampleReasons || m_unknown.count(cat) != 0) {
          ++m_unknown[cat];
        }
        return;
      case Category::known_unused:
      case Category::none:
        ignore(m_event.cat);
        return;
    }
  }

  // An ignored event, counted by its category ("" for none): few categories, the last one hit first.
  void ignore(std::string_view cat) {
    ++m_trace.stats.ignored;
    ++count_of(m_ignored, cat);
  }

  static std::uint64_t& count_of(std::vector<EventCount>& counts, std::string_view cat) {
    if (!counts.empty() && counts.back().category == cat) return counts.back().events;
    for (auto it = counts.begin(); it != counts.end(); ++it) {
      if (it->category == cat) {
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
    if (!required_id(m_event.stream, "stream", stream)) return;
    if (!required_id(device_from_pid && !m_event.device.present() ? m_event.pid : m_event.device,
                     device_from_pid && !m_event.device.present() ? "pid"sv : "device"sv, device)) {
      return;
    }
    if (device > std::numeric_limits<std::int32_t>::max()) {
      skip_invalid("'args.device' is out of range");
      return;
    }
    op.stream = stream;
    op.device = static_cast<std::int32_t>(device);
    // A missing or malformed correlation leaves 0: the op is kept and counted as having no launch.
    if (const auto correlation = as_integer(m_event.correlation); correlation && *correlation > 0) {
      op.correlation = static_cast<std::uint64_t>(*correlation);
    }
    if (const auto graph = as_integer(m_event.graph_id); graph && *graph > 0 &&
                                                          *graph <= std::numeric_limits<std::uint32_t>::max()) {
      op.graph_id = static_cast<std::uint32_t>(*graph);
    }
    if (const auto bytes = as_integer(m_event.bytes); bytes && *bytes > 0) op.bytes = static_cast<std::uint64_t>(*bytes);
    if (const auto size = as_integer(m_event.size); device_from_pid && size && *size > 0) {
      op.bytes = static_cast<std::uint64_t>(*size);
    }
    op.name = m_event.name;
    op.communication = op.kind == DeviceOpKind::kernel && communication_kernel(op.name);
    if (as_integer(m_event.ohprof_cpu_kernel) == 1) m_trace.timeline.ops_have_launches = false;
    if (op.correlation == 0 && device_from_pid) {  // linked later by the ac2g flow that ends on it
      m_uncorrelated.push_back(FlowEnd{as_integer(m_event.pid).value_or(-1), as_integer(m_event.tid).value_or(-1),
                                       op.start_ns, m_trace.timeline.ops.size()});
    }
    m_trace.timeline.ops.push_back(std::move(op));
    ++m_trace.stats.kept;
  }

  // An ac2g flow event: its finish ('f') lies on the device event its start's runtime call enqueued.
  // Kept only to link MTIA's device events, which carry no correlation of their own.
  void add_flow() {
    ignore(m_event.cat);
    if (!is(m_event.ph, "f")) return;
    const auto id = as_integer(m_event.id);
    const auto ts = as_ns(m_event.ts);
    if (!id || *id <= 0 || !ts) return;
    m_flow_ends.push_back(FlowEnd{as_integer(m_event.pid).value_or(-1), as_integer(m_event.tid).value_or(-1), *ts,
                                  static_cast<std::size_t>(*id)});
  }

  void add_mtia_device_event() {
    switch (mtia_device_event(m_event.has_name ? m_event.name : ""sv)) {
      case MtiaDeviceEvent::kernel:
        m_accelerator_ops = true;
        return add_device_op(DeviceOpKind::kernel, true);
      case MtiaDeviceEvent::copy:
        m_accelerator_ops = true;
        return add_device_op(DeviceOpKind::memcpy, true);
      case MtiaDeviceEvent::marker: ignore(m_event.cat); return;
    }
  }

  // A runtime or driver call: CUDA's, HIP's, XPU's, an older PyTorch's (by launch_kind_of_api and
  // is_sync_api), or MTIA's (`mtia`: by mtia_runtime_call, whose stages are not read).
  void add_api_call(bool mtia = false) {
    // ohprof's own traces say what each call is (the collector knew it by its callback id, not its name)
    const std::optional<OhprofCall> tagged = mtia ? std::nullopt : ohprof_call_of(as_integer(m_event.ohprof_call));
    std::optional<LaunchKind> named;
    bool named_sync = false;
    if (mtia) {
      const MtiaRuntimeCall what = mtia_runtime_call(m_event.has_name ? m_event.name : ""sv);
      if (what == MtiaRuntimeCall::stage) {
        ignore(m_event.cat);
        return;
      }
      if (what == MtiaRuntimeCall::kernel_launch) named = LaunchKind::kernel;
      if (what == MtiaRuntimeCall::copy_launch) named = LaunchKind::memcpy;
      named_sync = what == MtiaRuntimeCall::sync;
    } else if (m_event.has_name) {
      named = launch_kind_of_api(m_event.name);
      named_sync = !named && is_sync_api(m_event.name);
    }
    const bool launch = tagged ? tagged->launch.has_value() : named.has_value();
    const LaunchKind kind = tagged ? tagged->launch.value_or(LaunchKind::other) : named.value_or(LaunchKind::other);
    const bool sync = tagged ? tagged->sync : named_sync;
    std::int64_t start = 0;
    std::int64_t end = 0;
    if (!timing(start, end)) return;
    const std::int64_t thread = as_integer(m_event.tid).value_or(0);
    if (!launch && !sync) {
      m_trace.timeline.api_calls.push_back(ApiCall{start, end, thread, std::string(m_event.name)});
      ++m_trace.stats.kept;
      return;
    }
    if (sync) {
      m_trace.timeline.syncs.push_back(SyncCall{start, end, thread, std::string(m_event.name), tagged && tagged->harness});
      ++m_trace.stats.kept;
      return;
    }
    std::int64_t correlation = 0;
    if (!required_id(m_event.correlation, "correlation", correlation)) return;
    LaunchCall call;
    call.kind = kind;
    call.start_ns = start;
    call.end_ns = end;
    call.thread_id = thread;
    call.correlation = static_cast<std::uint64_t>(correlation);
    call.name = m_event.name;
    call.synchronous = tagged ? tagged->synchronous : call.kind == LaunchKind::memcpy && synchronous_copy_api(call.name);
    call.iteration = as_integer(m_event.ohprof_iteration);
    m_trace.timeline.launches.push_back(std::move(call));
    ++m_trace.stats.kept;
  }

  void add_profiler_step() {
    const std::string_view digits = m_event.name.substr("ProfilerStep#"sv.size());
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
  std::size_t m_depth = 0;
  std::size_t m_events_depth = 0;  // depth of the traceEvents array while inside it, else 0
  std::size_t m_props_depth = 0;   // depth of the deviceProperties array while inside it, else 0
  bool m_found_events = false;
  bool m_root_seen = false;
  bool m_in_event = false;
  bool m_in_args = false;
  bool m_in_prop = false;
  bool m_in_dist = false;  // inside the root's distributedInfo object
  bool m_have_span = false;
  RootKey m_root_key = RootKey::other;
  EventKey m_event_key = EventKey::other;
  ArgKey m_arg_key = ArgKey::other;
  PropKey m_prop_key = PropKey::other;
  DistKey m_dist_key = DistKey::other;
  NumberField m_dist_field;
  PendingEvent m_event;
  NumberField m_prop_id_field;
  std::optional<std::int64_t> m_prop_id;
  std::string m_prop_name;
  std::map<std::int64_t, std::string> m_device_names;
  std::vector<std::string> m_skip_examples;
  std::map<std::string, std::uint64_t> m_unknown;
  std::vector<EventCount> m_ignored;        // ignored events by category
  std::vector<EventCount> m_unread_device;  // of those, the device-side ones the split does not read
  // A point on a thread's timeline and a value: an ac2g flow's finish and its id, or an MTIA op without
  // a correlation and its index in timeline.ops.
  struct FlowEnd {
    std::int64_t pid = -1;
    std::int64_t tid = -1;
    std::int64_t ts_ns = 0;
    std::size_t value = 0;
  };
  std::vector<FlowEnd> m_flow_ends;
  std::vector<FlowEnd> m_uncorrelated;
  bool m_accelerator_ops = false;
  bool m_window = true;  // events are read whole when they can be (fast_element)
};

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
Status finish_trace(KinetoTrace& trace, KinetoSax& sax, const std::string& /*label*/) {
  Timeline& timeline = trace.timeline;
  sax.link_flows();
  trace.accelerator_ops = sax.read_accelerator_ops();
  const auto by_start = [](const auto& a, const auto& b) {
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns < b.end_ns;
  };
  std::stable_sort(timeline.ops.begin(), timeline.ops.end(), by_start);
  std::stable_sort(timeline.launches.begin(), timeline.launches.end(), by_start);
  std::stable_sort(timeline.syncs.begin(), timeline.syncs.end(), by_start);
  std::stable_sort(timeline.api_calls.begin(), timeline.api_calls.end(), by_start);
  std::stable_sort(timeline.iterations.begin(), timeline.iterations.end(), by_start);

  // Devices: the report names one GPU when all ops ran on one.
  const std::int32_t first_device = timeline.ops.empty() ? -1 : timeline.ops.front().device;
  const bool one_device = std::all_of(timeline.ops.begin(), timeline.ops.end(),
                                      [&](const DeviceOp& op) { return op.device == first_device; });
  trace.device_index = one_device && !timeline.ops.empty() ? first_device : -1;
  if (one_device) {
    if (auto it = sax.device_names().find(first_device); it != sax.device_names().end()) trace.device_name = it->second;
  }
  // No op to say which device: a trace whose deviceProperties name one device ran on that one (MTIA's).
  if (timeline.ops.empty() && sax.device_names().size() == 1) {
    trace.device_index = static_cast<std::int32_t>(sax.device_names().begin()->first);
    trace.device_name = sax.device_names().begin()->second;
  }

  // Linking: an op whose correlation matches no launch call in the trace (CPU kernels, in ohprof's own
  // trace of a CPU run, have none to match).
  std::unordered_set<std::uint64_t> launched;
  launched.reserve(timeline.launches.size() * 2);
  for (const LaunchCall& call : timeline.launches) launched.insert(call.correlation);
  std::uint64_t without_launch = 0;
  for (const DeviceOp& op : timeline.ops) {
    if (timeline.ops_have_launches && (op.correlation == 0 || launched.count(op.correlation) == 0)) ++without_launch;
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
            : fmt::format("{} of {} GPU operations have no launch call in the trace (no cuda_runtime/cuda_driver launch "
                          "with their args.correlation); they count as GPU time but cannot be attributed to a launch",
                          without_launch, timeline.ops.size())});
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

// A read-only streambuf over memory.
class MemoryBuffer : public std::streambuf {
 public:
  explicit MemoryBuffer(std::string_view text) {
    char* begin = const_cast<char*>(text.data());  // never written: get area only
    setg(begin, begin, begin + text.size());
  }
};

}  // namespace

Result<KinetoTrace> parse_kineto_trace(std::streambuf& input, const std::string& label, JsonReading reading) {
  KinetoTrace trace;
  KinetoSax sax(trace, reading);
  std::optional<JsonParseError> error;
  try {
    error = parse_json_stream_with(input, sax);
  } catch (const std::bad_alloc&) {
    return make_error(ExitCode::internal_error, fmt::format("out of memory while reading '{}'", label));
  }
  if (error) {
    return make_error(ExitCode::invalid_trace,
                      fmt::format("'{}' is not valid JSON{}: {} at byte {}", label,
                                  error->at_end_of_input ? " (it ends in the middle of a value: truncated?)" : "",
                                  error->message, error->byte_offset));
  }
  if (!sax.found_events()) {
    return make_error(ExitCode::invalid_trace,
                      fmt::format("'{}' has no 'traceEvents' array: not a Chrome trace as the PyTorch profiler writes it",
                                  label));
  }
  OHPROF_RETURN_IF_ERROR(finish_trace(trace, sax, label));
  return trace;
}

Result<KinetoTrace> parse_kineto_trace_text(std::string_view json, const std::string& label, JsonReading reading) {
  MemoryBuffer buffer(json);
  auto trace = parse_kineto_trace(buffer, label, reading);
  if (trace.ok()) trace->stats.json_bytes = trace->stats.file_bytes = json.size();
  return trace;
}

Result<KinetoTrace> read_kineto_trace(const std::string& path, JsonReading reading) {
  OHPROF_ASSIGN_OR_RETURN(auto input, GzipInputBuffer::open(path));
  GzipInputBuffer& buffer = *input;
  auto trace = parse_kineto_trace(buffer, path, reading);
  // A read or decompression failure explains a parse error better than the parse error does.
  if (buffer.error()) return *buffer.error();
  if (!trace.ok()) {
    if (buffer.bytes_delivered() == 0) {
      return make_error(ExitCode::invalid_trace, fmt::format("'{}' is empty{}", path,
                                                             buffer.compressed() ? " once decompressed" : ""));
    }
    return trace.error();
  }
  trace->stats.json_bytes = buffer.bytes_delivered();
  trace->stats.file_bytes = buffer.file_bytes_read();
  trace->stats.compressed = buffer.compressed();
  return trace;
}

}  // namespace ohprof
