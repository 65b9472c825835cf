#pragma once
// A streaming JSON parser (RFC 8259) that reports what it reads to a handler, event by event (SAX),
// from any std::streambuf, with memory bounded by the longest string or number in the input.
//
// Why not nlohmann_json's SAX parser: it was the first version of the trace reader and reads about
// 80 MB of JSON per second on the build machines, which made `ohprof analyze` only ~12x faster than
// Holistic Trace Analysis on a 35 MB trace. This parser does less per byte (no per-character token
// copy, no floating-point conversion: numbers with a fraction or exponent are delivered as their text,
// which the trace reader converts exactly), and is checked against nlohmann_json's DOM parser on the real
// traces and on hand-made edge cases (test/json_stream_test.cpp).
//
// Strings are unescaped (\uXXXX, surrogate pairs -> UTF-8); other bytes pass through unchecked (no
// UTF-8 validation). Nesting is limited to kMaxJsonDepth levels.
#include <cstdint>
#include <optional>
#include <streambuf>
#include <string>

namespace ohprof {

inline constexpr std::size_t kMaxJsonDepth = 10000;

class JsonHandler {
 public:
  virtual ~JsonHandler() = default;
  virtual void null() = 0;
  virtual void boolean(bool value) = 0;
  virtual void number_integer(std::int64_t value) = 0;     // integers that fit in int64
  virtual void number_unsigned(std::uint64_t value) = 0;   // non-negative integers above INT64_MAX that fit in uint64
  virtual void number_text(const std::string& text) = 0;   // every other number, as written ("1.5", "2e3", "1e400")
  virtual void string(std::string& value) = 0;              // unescaped; the handler may move from it
  virtual void key(std::string& name) = 0;                  // an object member's name, unescaped
  virtual void start_object() = 0;
  virtual void end_object() = 0;
  virtual void start_array() = 0;
  virtual void end_array() = 0;
};

struct JsonParseError {
  std::uint64_t byte_offset = 0;  // of the offending byte (or the end of the input)
  bool at_end_of_input = false;   // the input ended inside a value: typically a truncated file
  std::string message;            // "expected ':' after an object key, found ','"
};

// Parses exactly one JSON value (and surrounding whitespace) from `input`, reporting it to `handler`.
// Returns the first error, if any; the handler has then seen the events before it.
std::optional<JsonParseError> parse_json_stream(std::streambuf& input, JsonHandler& handler);

}  // namespace ohprof
