// Reading a Kineto trace's JSON structure (kineto_events.hpp): the root's traceEvents, deviceProperties
// and distributedInfo, and in each element of traceEvents the fields ohprof reads, through the
// tokenizer's calls (json_stream.hpp) or, for an event of the common shape, in one pass over the buffer
// ("the window"). What each event means is KinetoEvents' (kineto_events.cpp).
#include "ohprof/trace/kineto_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <map>

#include "ohprof/trace/gzip_file.hpp"
#include "ohprof/trace/lending_streambuf.hpp"
#include "json_stream.hpp"
#include "kineto_events.hpp"

namespace ohprof {

// ---- the SAX handler ------------------------------------------------------------------------

namespace {

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

// A handler for parse_json_stream_with (JsonHandler's member functions, called directly, not virtually).
// It declines (key() returns false) every member whose value it would ignore: the parser then checks
// that value without reporting it.
class KinetoSax {
 public:
  KinetoSax(KinetoTrace& trace, KinetoEvents& events, JsonReading reading)
      : m_trace(trace), m_events(events), m_window(reading == JsonReading::window) {}

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
    if (NumberField* field = number_target()) set_number_text(*field, text);
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
    }
  }

  void end_object() {
    if (m_in_args && m_depth == m_events_depth + 2) {
      m_in_args = false;
    } else if (m_in_event && m_depth == m_events_depth + 1) {
      m_in_event = false;
      m_events.add(m_event);
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
      m_events_depth = 1;
      m_found_events = true;
    } else if (m_depth == 2 && m_root_key == RootKey::trace_events && m_events_depth == 0 && !m_found_events) {
      m_events_depth = 2;
      m_found_events = true;
    } else if (m_depth == 2 && m_root_key == RootKey::device_properties) {
      m_props_depth = 2;
    } else if (m_events_depth != 0 && m_depth == m_events_depth + 1) {
      m_events.add_non_object();  // an array where an event object belongs
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
        case EventKey::other: return window::skip_item(q, end, 0);
        default: return fast_number(q, end, *event_field(which));
      }
    });
    if (!read) return nullptr;
    m_events.add(m_event);
    return p;
  }

  // --- results ---
  [[nodiscard]] bool found_events() const { return m_found_events; }
  [[nodiscard]] const std::map<std::int64_t, std::string>& device_names() const { return m_device_names; }

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
        bool thousandths = false;
        if (!window::number(p, end, integer, text, thousandths)) return false;
        if (text.empty()) {
          field.state = NumberField::State::integer;
          field.integer = integer;
          field.integer_overflow = false;
        } else if (thousandths) {  // what set_number_text would find in the text
          field.state = NumberField::State::nanoseconds;
          field.integer = integer;
        } else {
          set_number_text(field, text);
        }
        return true;
      }
    }
  }
  bool fast_args(const char*& p, const char* end) {
    return json_detail::window::members(p, end, [&](std::string_view key, const char*& q) {
      NumberField* field = arg_field(classify_arg_key(key));
      return field != nullptr ? fast_number(q, end, *field) : json_detail::window::skip_item(q, end, 0);
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
      m_events.add_non_object();
    }
  }

  // An object or array opens at the current position: where a number belongs, it is not one.
  void on_container_value() { mark_event_field_not_a_number(); }

  void on_scalar_non_number() {
    mark_event_field_not_a_number();
    on_scalar();
  }

  KinetoTrace& m_trace;
  KinetoEvents& m_events;
  std::size_t m_depth = 0;
  std::size_t m_events_depth = 0;  // depth of the traceEvents array while inside it, else 0
  std::size_t m_props_depth = 0;   // depth of the deviceProperties array while inside it, else 0
  bool m_found_events = false;
  bool m_in_event = false;
  bool m_in_args = false;
  bool m_in_prop = false;
  bool m_in_dist = false;  // inside the root's distributedInfo object
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
  bool m_window = true;  // events are read whole when they can be (fast_element)
};

// A read-only streambuf over memory, lent to the parser whole.
class MemoryBuffer : public LendingStreambuf {
 public:
  explicit MemoryBuffer(std::string_view text) {
    char* begin = const_cast<char*>(text.data());  // never written: get area only
    setg(begin, begin, begin + text.size());
  }
};

}  // namespace

Result<KinetoTrace> parse_kineto_trace(std::streambuf& input, const std::string& label, JsonReading reading) {
  KinetoTrace trace;
  KinetoEvents events(trace);
  KinetoSax sax(trace, events, reading);
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
  OHPROF_RETURN_IF_ERROR(events.finish(sax.device_names()));
  return trace;
}

Result<KinetoTrace> parse_kineto_trace_text(std::string_view json, const std::string& label, JsonReading reading) {
  MemoryBuffer buffer(json);
  auto trace = parse_kineto_trace(buffer, label, reading);
  if (trace.ok()) trace->stats.json_bytes = trace->stats.file_bytes = json.size();
  return trace;
}

DeviceKind trace_device_kind(const KinetoTrace& trace) {
  const Timeline& t = trace.timeline;
  // No device events, launches or unread device events: the CPU alone (its verdict says "no device work");
  // so did a CPU run's trace of ohprof's own, whose ops are CPU kernels. Launch calls without ops (records
  // lost), or device events ohprof does not read, ran on a device all the same.
  if ((t.ops.empty() && t.unread_device_events.empty() && t.launches.empty()) || !t.ops_have_launches) return DeviceKind::cpu;
  const KinetoTrace::Runtimes& by = trace.runtimes;
  if (trace.accelerator_ops || (by.mtia && !by.cuda && !by.xpu)) return DeviceKind::accelerator;
  if (by.xpu && !by.cuda) return DeviceKind::xpu;
  // device events ohprof does not read, and no launch call to say whose: another accelerator's; with CUDA's
  // launch calls (the range profiler's), CUDA's
  if (t.ops.empty() && !t.unread_device_events.empty() && t.launches.empty()) return DeviceKind::accelerator;
  return DeviceKind::cuda;
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
