#pragma once
// The trace reader's two halves meet here (docs/analyze.md, "How a trace is read"): the structure reader
// (kineto_reader.cpp, over the JSON tokenizer of json_stream.hpp) finds each element of traceEvents and
// the fields ohprof reads in it, and hands it over as a PendingEvent; KinetoEvents (kineto_events.cpp)
// says what the event means: a device op, a launch, a sync, an iteration, or something ignored or
// skipped, and builds the timeline. Private to src/trace.
#include <cstddef>
#include <cstdint>
#include <cstring>
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
inline std::optional<std::int64_t> as_integer(const NumberField& field) {
  if (field.state == NumberField::State::integer && !field.integer_overflow) return field.integer;
  return std::nullopt;
}

// The microseconds of a ts or dur as nanoseconds: nullopt when absent, not a number, or out of range.
std::optional<std::int64_t> as_ns(const NumberField& field);

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
