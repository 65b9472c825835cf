#pragma once
// The trace reader's two halves meet here (docs/analyze.md, "How a trace is read"): the structure reader
// (kineto_reader.cpp, over the JSON tokenizer of json_stream.hpp) finds each element of traceEvents and
// the fields ohprof reads in it, and hands it over as a PendingEvent; KinetoEvents (kineto_events.cpp)
// says what the event means: a device op, a launch, a sync, an iteration, or something ignored or
// skipped, and builds the timeline. Private to src/trace.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ohprof/base/error.hpp"
#include "ohprof/trace/kineto_reader.hpp"

namespace ohprof {

// text == literal, with the literal's length known to the compiler, so that the comparison is a few
// inlined instructions instead of a call to memcmp (keys and categories are compared millions of times).
template <std::size_t N>
bool is(std::string_view text, const char (&literal)[N]) {
  return text.size() == N - 1 && std::memcmp(text.data(), literal, N - 1) == 0;
}

// A number as the SAX parser delivered it: an integer, or the text of a number with a fraction or
// exponent (kept so microseconds convert exactly), or, for the commonest such text (a plain decimal of
// at most 15 integer and 3 fraction digits, as Kineto writes nanosecond-resolution microseconds), its
// value in thousandths already (`nanoseconds`: `integer` holds them; not an integer id).
struct NumberField {
  enum class State { absent, integer, text, nanoseconds, not_a_number } state = State::absent;
  std::int64_t integer = 0;
  bool integer_overflow = false;  // an unsigned value above INT64_MAX
  std::string text;

  void reset() { state = State::absent; }
  [[nodiscard]] bool present() const { return state != State::absent; }
};

// "3605057436108.407" -> 3605057436108407, "-2.5" -> -2500: the thousandths of a plain decimal with 1 to
// 15 integer digits and 1 to 3 fraction digits (no exponent), exactly; none for any other text (which
// microseconds_text_to_ns reads, to the same value where both read it). The text is a JSON number.
inline std::optional<std::int64_t> short_decimal_thousandths(std::string_view text) {
  std::size_t i = text.empty() || text[0] != '-' ? 0 : 1;
  const std::size_t first = i;
  std::int64_t value = 0;
  // At most 16 integer and 4 fraction digits are taken, so the value cannot overflow before the checks.
  for (; i < text.size() && i - first < 16 && text[i] >= '0' && text[i] <= '9'; ++i) value = value * 10 + (text[i] - '0');
  if (i == first || i - first > 15 || i == text.size() || text[i] != '.') return std::nullopt;
  const std::size_t fraction = ++i;
  for (; i < text.size() && i - fraction < 4 && text[i] >= '0' && text[i] <= '9'; ++i) value = value * 10 + (text[i] - '0');
  if (i == fraction || i - fraction > 3 || i != text.size()) return std::nullopt;
  for (std::size_t k = i - fraction; k < 3; ++k) value *= 10;
  return first == 1 ? -value : value;
}

// A number's text into `field`: as its thousandths when short_decimal_thousandths reads it, else the text.
inline void set_number_text(NumberField& field, std::string_view text) {
  if (const std::optional<std::int64_t> thousandths = short_decimal_thousandths(text)) {
    field.state = NumberField::State::nanoseconds;
    field.integer = *thousandths;
  } else {
    field.state = NumberField::State::text;
    field.text.assign(text);
  }
}

// An integer id (stream, device, correlation, ...): nullopt when absent or not an integer.
inline std::optional<std::int64_t> as_integer(const NumberField& field) {
  if (field.state == NumberField::State::integer && !field.integer_overflow) return field.integer;
  return std::nullopt;
}

// The microseconds of a ts or dur as nanoseconds: nullopt when absent, not a number, or out of range.
// Always inlined: out of line, GCC hands the optional back through the stack (a byte stored, then eight
// bytes loaded, which stalls), on every event's ts and dur.
[[gnu::always_inline]] inline std::optional<std::int64_t> as_ns(const NumberField& field) {
  switch (field.state) {
    case NumberField::State::integer: {
      if (field.integer_overflow) return std::nullopt;
      constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max() / 1000;
      if (field.integer > kMax || field.integer < -kMax) return std::nullopt;
      return field.integer * 1000;
    }
    case NumberField::State::text:
      return microseconds_text_to_ns(field.text);
    case NumberField::State::nanoseconds:
      return field.integer;
    default:
      return std::nullopt;
  }
}

// The fields of one element of traceEvents that ohprof reads.
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

class KinetoEvents {
 public:
  explicit KinetoEvents(KinetoTrace& trace);
  ~KinetoEvents();
  KinetoEvents(const KinetoEvents&) = delete;
  KinetoEvents& operator=(const KinetoEvents&) = delete;

  // One object of traceEvents, read whole. Its views need to last only for the call.
  void add(const PendingEvent& event);
  // An entry of traceEvents that is not an object (an array or a scalar): counted, skipped, warned.
  void add_non_object();
  // After the last event: orders the records, links ops to their launches, chooses the iteration
  // windows and turns what was skipped or not read into warnings. `device_names`: the names
  // deviceProperties gives each device id.
  Status finish(const std::map<std::int64_t, std::string>& device_names);

  class Meaning;  // kineto_events.cpp

 private:
  std::unique_ptr<Meaning> m_meaning;
};

}  // namespace ohprof
