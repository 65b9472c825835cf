#pragma once
// A streaming JSON parser (RFC 8259) that reports what it reads to a handler, event by event (SAX),
// from any std::streambuf, with memory bounded by the longest string or number in the input.
//
// Why not nlohmann_json's SAX parser: it was the first version of the trace reader and reads about
// 80 MB of JSON per second on the build machines, which made `ohprof analyze` only ~12x faster than
// Holistic Trace Analysis on a 35 MB trace. This parser does less per byte, and is checked against
// nlohmann_json's DOM parser on the real traces and on hand-made edge cases (test/trace/json_stream_test.cpp):
//  - no floating-point conversion: numbers with a fraction or exponent are delivered as their text,
//    which the trace reader converts exactly; integers are converted while they are scanned;
//  - no copy of a string or number: the handler gets a std::string_view into the parser's buffer. The
//    buffer keeps a token in progress whole (it is moved to the buffer's front when the buffer is
//    refilled), so only strings with escapes are built in a separate string;
//  - no copy of the input either, from a stream buffer that lends its bytes (LendingStreambuf: the gzip
//    reader's ring, a text in memory): they are read where they lie, and only what spans two lent
//    chunks is put together in the parser's buffer (Input, below);
//  - the handler is a template parameter (parse_json_stream_with), so its calls are inlined;
//  - the handler can decline an object member (key() returns false): its value is then still parsed
//    and checked, with the same errors, but reported to no one;
//  - a handler that knows an array's elements can read them whole from the buffer ("the window",
//    below): one pass per element, sixteen bytes at a time through whitespace and strings, eight
//    digits at a time through numbers, and anything unusual left to the parser.
//
// Strings are unescaped (\uXXXX, surrogate pairs -> UTF-8); other bytes pass through unchecked (no
// UTF-8 validation). Nesting is limited to kMaxJsonDepth levels.
#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <optional>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "ohprof/trace/lending_streambuf.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ohprof {

inline constexpr std::size_t kMaxJsonDepth = 10000;

// What a handler receives. The string_views are valid only during the call. A handler for
// parse_json_stream_with needs the same member functions, not this base class.
class JsonHandler {
 public:
  virtual ~JsonHandler() = default;
  virtual void null() = 0;
  virtual void boolean(bool value) = 0;
  virtual void number_integer(std::int64_t value) = 0;     // integers that fit in int64
  virtual void number_unsigned(std::uint64_t value) = 0;   // non-negative integers above INT64_MAX that fit in uint64
  virtual void number_text(std::string_view text) = 0;     // every other number, as written ("1.5", "2e3", "1e400")
  virtual void string(std::string_view value) = 0;         // unescaped
  // An object member's name, unescaped. Returning false skips the member's value: it is parsed (and an
  // error in it reported as usual) without events.
  virtual bool key(std::string_view name) = 0;
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

// The same with any handler type that has JsonHandler's member functions (not necessarily virtual).
template <class Handler>
std::optional<JsonParseError> parse_json_stream_with(std::streambuf& input, Handler& handler);

// ---- implementation -------------------------------------------------------------------------

namespace json_detail {

// The parts that are not templates (json_stream.cpp).
std::string describe(int c);                               // "'x'", "byte 0x0a", "the end of the input"
void append_utf8(std::string& out, std::uint32_t code);

// The input, in a buffer (the "region" [p, end) lies in). From a LendingStreambuf the region is, most of
// the time, the bytes it lent, read where they lie; only a token or window that spans the end of a lent
// chunk is put together in the parser's own buffer (the end of one chunk and the start of the next). From
// any other streambuf every byte is copied into the parser's buffer with sgetn. `p` is the read
// position, `end` the end of what is there.
class Input {
 public:
  explicit Input(std::streambuf& source);

  // Makes more input available after `end`. The bytes from `keep` on are kept, contiguous, before the new
  // ones (moved, or copied out of a lent chunk, when they must be), and `keep` and `p` are moved with
  // them; `p` must not be before `keep`. False at the end of the input (or a read error): nothing more
  // was read.
  bool refill(const char*& keep);
  // Reads more when fewer than `wanted` bytes follow `p` (keeping them), unless the input has ended.
  void ensure(std::size_t wanted) {
    if (static_cast<std::size_t>(end - p) < wanted) {
      const char* keep = p;
      refill(keep);
    }
  }
  [[nodiscard]] std::uint64_t offset_of(const char* at) const {
    return m_base + static_cast<std::uint64_t>(at - m_region);
  }

  const char* p;
  const char* end;

 private:
  bool refill_copying(const char*& keep);
  bool refill_lent(const char*& keep);
  // The bytes [keep, end) moved to the front of m_buffer, which is doubled while they fill more than
  // half of it; the region is then m_buffer, and keep, p and end are moved with them.
  void keep_in_buffer(const char*& keep);
  // Appends the next bytes of the lent chunks to m_buffer, after `end`, until `wanted` bytes follow
  // `keep` or the input ends; false when nothing could be appended.
  bool append_lent(const char* keep, std::size_t wanted);

  std::streambuf& m_source;
  LendingStreambuf* m_lender;  // m_source when it lends its bytes, else null
  std::vector<char> m_buffer;
  const char* m_region;        // the first byte of the region: m_buffer's, or the lent chunk's
  std::uint64_t m_base = 0;    // input offset of m_region[0]
  // The chunk lent last (valid until the next lend()); while the region is m_buffer, its first
  // m_chunk_copied bytes are the last ones of the region, and the rest is not read yet.
  std::string_view m_chunk;
  std::size_t m_chunk_copied = 0;
  bool m_in_chunk = false;     // the region is m_chunk itself
  bool m_eof = false;
};

// The position of the first '"', '\\' or control character (< 0x20) in [q, end), or end. Eight bytes
// at a time: a byte-wise test for "is zero" and "is below 0x20" on a 64-bit word.
[[gnu::always_inline]] inline const char* scan_plain(const char* q, const char* end) {
#if defined(__SSE2__)
  // Sixteen bytes at a time (every x86-64 has SSE2): strings in traces are mostly shorter.
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i below_space = _mm_set1_epi8(0x1f);
  while (end - q >= 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
    const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(bytes, below_space), bytes);  // unsigned byte <= 0x1f
    const __m128i special =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)), control);
    const int mask = _mm_movemask_epi8(special);
    if (mask != 0) return q + __builtin_ctz(static_cast<unsigned>(mask));
    q += 16;
  }
#endif
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
  while (end - q >= 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, q, 8);
    const std::uint64_t quote = word ^ (kOnes * '"');
    const std::uint64_t backslash = word ^ (kOnes * '\\');
    const std::uint64_t found =
        ((quote - kOnes) & ~quote) | ((backslash - kOnes) & ~backslash) | ((word - kOnes * 0x20) & ~word);
    if ((found & kHigh) != 0) break;  // exact: one of the eight bytes is special
    q += 8;
  }
  for (; q < end; ++q) {
    const auto c = static_cast<unsigned char>(*q);
    if (c == '"' || c == '\\' || c < 0x20) return q;
  }
  return end;
}

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
// Bytes that can appear in a number: where a number token ends, before its grammar is checked.
inline bool is_number_byte(char c) {
  // '+' ',' '-' '.' '/' '0'..'9' are 0x2b..0x39; of them ',' and '/' are not.
  if (c >= '+' && c <= '9') return c != ',' && c != '/';
  return c == 'e' || c == 'E';
}

// Receives the values the handler declined.
struct NullSink {
  void null() {}
  void boolean(bool) {}
  void number_integer(std::int64_t) {}
  void number_unsigned(std::uint64_t) {}
  void number_text(std::string_view) {}
  void string(std::string_view) {}
  bool key(std::string_view) { return true; }
  void start_object() {}
  void end_object() {}
  void start_array() {}
  void end_array() {}
};

// ---- the window: array elements read whole from the buffer ----
//
// A handler that knows the shape of an array's elements (the trace reader's events) can read each one
// straight from the buffer, with no container stack and no call per token: it defines
//   bool fast_elements() const;                          // true inside the array whose elements it reads so
//   const char* fast_element(const char* p, const char* end);
// The parser then asks for kWindowBytes (from a copying source it gets them, or the rest of the input; from
// a lending one it may get fewer, at the start of a small lent chunk or the end of a chunk's copied part,
// and an element cut there is left to the parser) and calls fast_element at the first byte of each element. It returns the position after the element, having done to itself what
// the events of the element would have done; or nullptr, having changed nothing that the element's events
// would not set again, and the parser reads the element as usual. The functions below are its tokenizer:
// each reads from `p` within [p, end), moves `p` past what it read, and returns false at anything it does not
// handle (the window's end, an escape, deep nesting, anything invalid). So the window accepts a subset of
// what the parser accepts, with the same meaning, and never reports an error: the parser, reading the
// element again, reports it, at the same byte and in the same words.
inline constexpr std::size_t kWindowBytes = 16 * 1024;

namespace window {

inline bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Skips whitespace; false at the end of the window.
[[gnu::always_inline]] inline bool skip_ws(const char*& p, const char* end) {
  // Most often no whitespace, or one space: every byte above ' ' ends whitespace.
  if (p < end && static_cast<unsigned char>(*p) > ' ') return true;
  if (end - p >= 2 && *p == ' ' && static_cast<unsigned char>(p[1]) > ' ') {
    ++p;
    return true;
  }
#if defined(__SSE2__)
  // Indentation comes in runs: sixteen bytes at a time.
  while (end - p >= 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i space = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\n'))),
        _mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\t'))));
    const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(space)) & 0xffffU;
    if (other != 0) {
      p += __builtin_ctz(other);
      return true;
    }
    p += 16;
  }
#endif
  while (p < end && is_space(*p)) ++p;
  return p < end;
}

// A string without escapes, after its opening quote: its bytes, and p after its closing quote.
[[gnu::always_inline]] inline bool plain_string(const char*& p, const char* end, std::string_view& out) {
  const char* q = scan_plain(p, end);
  if (q == end || *q != '"') return false;
  out = std::string_view(p, static_cast<std::size_t>(q - p));
  p = q + 1;
  return true;
}

// The bytes of a 64-bit word that are not digits, as non-zero bytes. '0'..'9' are 0x30..0x39: the high
// nibble is 3, and adding 6 does not carry into it. (A carry out of a byte above 0xF9 can only reach
// bytes after a non-digit.)
[[gnu::always_inline]] inline std::uint64_t non_digit_bytes(std::uint64_t word) {
  constexpr std::uint64_t kHigh = 0xF0F0F0F0F0F0F0F0ULL;
  return ((word & kHigh) | (((word + 0x0606060606060606ULL) & kHigh) >> 4)) ^ 0x3333333333333333ULL;
}

// The value of eight digits, first digit in the lowest byte, given as the bytes' values 0..9 (SWAR: the
// digit pairs, then fours, then the eight combined with two multiplications).
[[gnu::always_inline]] inline std::uint64_t digit_values(std::uint64_t word) {
  word = word * 10 + (word >> 8);  // each byte pair: 10 * first + second, in the low byte of the pair
  constexpr std::uint64_t kPairs = 0x000000FF000000FFULL;
  return (((word & kPairs) * (100 + (1000000ULL << 32))) + (((word >> 16) & kPairs) * (1 + (10000ULL << 32)))) >> 32;
}

// Whether the eight bytes at `at` are all digits, and then their value.
[[gnu::always_inline]] inline bool eight_digits(const char* at, std::uint64_t& value) {
  std::uint64_t word = 0;
  std::memcpy(&word, at, 8);
  if constexpr (std::endian::native != std::endian::little) return false;
  if (non_digit_bytes(word) != 0) return false;
  value = digit_values(word - 0x3030303030303030ULL);
  return true;
}

inline constexpr std::array<std::uint64_t, 9> kPowersOfTen = {1,      10,      100,      1000,     10000,
                                                               100000, 1000000, 10000000, 100000000};

// How many of the eight bytes at `at` are digits before the first that is not (0..8), and their value.
[[gnu::always_inline]] inline unsigned leading_digits(const char* at, std::uint64_t& value) {
  std::uint64_t word = 0;
  std::memcpy(&word, at, 8);
  if constexpr (std::endian::native != std::endian::little) {
    unsigned count = 0;
    value = 0;
    for (; count < 8 && is_digit(at[count]); ++count) value = value * 10 + static_cast<std::uint64_t>(at[count] - '0');
    return count;
  }
  const std::uint64_t not_digit = non_digit_bytes(word);
  const unsigned count = not_digit == 0 ? 8U : static_cast<unsigned>(std::countr_zero(not_digit)) / 8;
  if (count == 0) {
    value = 0;
    return 0;
  }
  // The digits' values moved to the word's high bytes, zeros before them: the same value, as eight
  // digits. A borrow of the subtraction runs only from the first non-digit upwards, into bytes the
  // shift drops.
  value = digit_values((word - 0x3030303030303030ULL) << (8 * (8 - count)));
  return count;
}

// The end of the run of digits from `r` on: eight bytes at a time while eight are there.
[[gnu::always_inline]] inline const char* digit_run(const char* r, const char* end) {
  std::uint64_t ignored = 0;
  while (end - r >= 8) {
    const unsigned count = leading_digits(r, ignored);
    r += count;
    if (count < 8) return r;
  }
  while (r < end && is_digit(*r)) ++r;
  return r;
}

// After a number's integer part, at `r` (the parser's grammar): its fraction and exponent, if any. `r`
// then lies after the number; false when they are malformed.
inline bool fraction_and_exponent(const char*& r, const char* end) {
  if (r < end && *r == '.') {
    const char* first = ++r;
    r = digit_run(r, end);
    if (r == first) return false;
  }
  if (r < end && (*r == 'e' || *r == 'E')) {
    ++r;
    if (r < end && (*r == '+' || *r == '-')) ++r;
    const char* first = r;
    r = digit_run(r, end);
    if (r == first) return false;
  }
  return r < end && !is_number_byte(*r);
}

// A number as the parser delivers it: an integer of at most 18 digits (`integer`, and `text` empty), or
// one with a fraction or exponent (its `text`). False for anything else (longer integers, malformed ones).
// For a plain decimal of 1 to 15 integer and 1 to 3 fraction digits, no exponent (Kineto's
// nanosecond-resolution microseconds), `thousandths` is set true and `integer` holds its value in
// thousandths (as short_decimal_thousandths reads the text); otherwise `thousandths` is false.
[[gnu::always_inline]] inline bool number(const char*& p, const char* end, std::int64_t& integer, std::string_view& text,
                                          bool& thousandths) {
  const char* r = p;
  const bool negative = *r == '-';
  if (negative) ++r;
  const char* digits = r;
  const char* limit = end - digits > 18 ? digits + 18 : end;
  std::uint64_t magnitude = 0;
  std::uint64_t eight = 0;
  while (limit - r >= 8 && eight_digits(r, eight)) {
    magnitude = magnitude * 100000000 + eight;
    r += 8;
  }
  if (limit - r >= 8) {  // fewer than eight digits, read at once
    const unsigned count = leading_digits(r, eight);
    magnitude = magnitude * kPowersOfTen[count] + eight;
    r += count;
  }
  for (; r < limit && is_digit(*r); ++r) magnitude = magnitude * 10 + static_cast<std::uint64_t>(*r - '0');
  if (r == digits || (*digits == '0' && r != digits + 1) || r == end) return false;
  thousandths = false;
  if (*r == '.' && r - digits <= 15 && end - r > 8) {
    // The fraction's digits read at once: 1 to 3 of them, then a byte that ends the number.
    std::uint64_t fraction = 0;
    const unsigned count = leading_digits(r + 1, fraction);
    if (count >= 1 && count <= 3 && !is_number_byte(r[1 + count])) {
      const auto value = static_cast<std::int64_t>(magnitude * 1000 + fraction * kPowersOfTen[3 - count]);
      integer = negative ? -value : value;
      thousandths = true;
      r += 1 + count;
      text = std::string_view(p, static_cast<std::size_t>(r - p));
      p = r;
      return true;
    }
  }
  if (*r == '.' || *r == 'e' || *r == 'E') {
    if (!fraction_and_exponent(r, end)) return false;
    text = std::string_view(p, static_cast<std::size_t>(r - p));
    p = r;
    return true;
  }
  if (is_number_byte(*r)) return false;  // a 19th digit, or a sign: the parser's
  integer = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
  text = {};
  p = r;
  return true;
}

// Checks and skips a number of any length.
inline bool skip_number(const char*& p, const char* end) {
  const char* r = p;
  if (*r == '-') ++r;
  if (r == end || !is_digit(*r)) return false;
  if (*r == '0') {
    ++r;
  } else {
    r = digit_run(r, end);
  }
  if (r == end) return false;
  if (*r == '.' || *r == 'e' || *r == 'E') {
    if (!fraction_and_exponent(r, end)) return false;
  } else if (is_number_byte(*r)) {
    return false;
  }
  p = r;
  return true;
}

inline bool skip_literal(const char*& p, const char* end, std::string_view word) {
  if (static_cast<std::size_t>(end - p) < word.size() || std::memcmp(p, word.data(), word.size()) != 0) return false;
  p += word.size();
  return true;
}

// From after a key's closing quote to its value's first byte: the colon and the whitespace around it.
[[gnu::always_inline]] inline bool colon(const char*& p, const char* end) {
  if (p == end || *p != ':') {  // most often the colon follows the key's quote at once
    if (!skip_ws(p, end) || *p != ':') return false;
  }
  ++p;
  return skip_ws(p, end);
}

// A key at its opening quote, without escapes, and the colon after it; p then at the value.
[[gnu::always_inline]] inline bool key(const char*& p, const char* end, std::string_view& out) {
  if (*p != '"') return false;
  ++p;
  return plain_string(p, end, out) && colon(p, end);
}

// A container's items after its opening bracket, up to and including `close`: `read_item(p)` reads
// each item at its first byte (an object's member from its key on, an array's element).
template <class ReadItem>
[[gnu::always_inline]] inline bool items(const char*& p, const char* end, char close, ReadItem&& read_item) {
  if (!skip_ws(p, end)) return false;
  if (*p == close) {
    ++p;
    return true;
  }
  while (true) {
    if (!read_item(p) || !skip_ws(p, end)) return false;
    if (*p == close) {
      ++p;
      return true;
    }
    if (*p != ',') return false;
    ++p;
    if (!skip_ws(p, end)) return false;
  }
}

// An object at its '{': `read_value(key, p)` reads each member's value at its first byte.
template <class ReadValue>
inline bool members(const char*& p, const char* end, ReadValue&& read_value) {
  if (*p != '{') return false;
  ++p;
  return items(p, end, '}', [&](const char*& q) {
    std::string_view name;
    return key(q, end, name) && read_value(name, q);
  });
}

// Checks and skips a string without escapes, at its opening quote.
[[gnu::always_inline]] inline bool skip_string(const char*& p, const char* end) {
  ++p;
  std::string_view ignored;
  return plain_string(p, end, ignored);
}

inline bool skip_value(const char*& p, const char* end, int depth = 0);

// A member's value or an element inside a container being skipped: a string or a number (most of them,
// as in an op's "Input Dims": [[8, 64], [64]]) checked here, anything else through skip_value.
[[gnu::always_inline]] inline bool skip_item(const char*& p, const char* end, int depth) {
  if (*p == '"') return skip_string(p, end);
  if (is_digit(*p) || *p == '-') return skip_number(p, end);
  return skip_value(p, end, depth);
}

// Checks and skips one value of any kind, at its first byte; containers at most kMaxDepth deep.
inline bool skip_value(const char*& p, const char* end, int depth) {
  constexpr int kMaxDepth = 64;
  switch (*p) {
    case '"': return skip_string(p, end);
    case 't': return skip_literal(p, end, "true");
    case 'f': return skip_literal(p, end, "false");
    case 'n': return skip_literal(p, end, "null");
    case '{':
      return depth < kMaxDepth &&
             members(p, end, [&](std::string_view, const char*& q) { return skip_item(q, end, depth + 1); });
    case '[':
      if (depth >= kMaxDepth) return false;
      ++p;
      return items(p, end, ']', [&](const char*& q) { return skip_item(q, end, depth + 1); });
    default:
      return skip_number(p, end);
  }
}

}  // namespace window

template <class Handler>
concept ReadsElementsWhole = requires(Handler& handler, const char* p) {
  { handler.fast_elements() } -> std::same_as<bool>;
  { handler.fast_element(p, p) } -> std::same_as<const char*>;
};

// Error reporting and the slow paths (escapes, literals) shared by every handler type.
class ParserBase {
 public:
  explicit ParserBase(std::streambuf& input) : m_in(input) {}

 protected:
  int peek() {
    if (m_in.p == m_in.end && !fill()) return -1;
    return static_cast<unsigned char>(*m_in.p);
  }
  bool fill() {
    const char* keep = m_in.p;
    return m_in.refill(keep);
  }
  [[gnu::always_inline]] void skip_whitespace() {
    while (true) {
      while (m_in.p < m_in.end) {
        const char c = *m_in.p;
        if (static_cast<unsigned char>(c) > ' ' || (c != ' ' && c != '\n' && c != '\r' && c != '\t')) return;
        ++m_in.p;
      }
      if (!fill()) return;
    }
  }

  std::optional<JsonParseError> fail_at(bool at_end, std::string message);
  bool fail(std::string message) {
    fail_at(false, std::move(message));
    return false;
  }
  bool fail_at_end(std::string message) {
    fail_at(true, std::move(message));
    return false;
  }
  // "expected X, found Y", or "unexpected end of input; expected X" when the input ended.
  bool unexpected(std::string_view expected);
  bool literal(std::string_view word);
  // The rest of a string from m_in.p on, with its escapes, appended to m_scratch.
  bool read_escaped_string();
  std::optional<JsonParseError> run_end();  // after the value: only whitespace may follow

  Input m_in;
  std::vector<char> m_stack;  // '{' or '[' per open container
  std::string m_scratch;      // a string with escapes, unescaped
  std::optional<JsonParseError> m_error;

 private:
  bool hex4(std::uint32_t& out);
  bool escape();
};

template <class Handler>
class Parser : public ParserBase {
 public:
  Parser(std::streambuf& input, Handler& handler) : ParserBase(input), m_handler(handler) {}

  std::optional<JsonParseError> run() {
    skip_whitespace();
    if (peek() < 0) return fail_at(false, "the input is empty");
    if (!parse_value(m_handler)) return m_error;
    return run_end();
  }

 private:
  // Parses one value and everything inside it, reporting it to `sink`.
  template <class Sink>
  bool parse_value(Sink& sink) {
    const std::size_t floor = m_stack.size();
    bool first_in_container = false;
    if (!begin_value(sink, first_in_container)) return false;
    while (m_stack.size() > floor) {
      skip_whitespace();
      const bool object = m_stack.back() == '{';
      const char close = object ? '}' : ']';
      const int c = peek();
      if (first_in_container) {
        first_in_container = false;
        if (c == close) {
          close_container(sink);
          continue;
        }
      } else if (c == ',') {
        ++m_in.p;
      } else if (c == close) {
        close_container(sink);
        continue;
      } else {
        return unexpected(object ? "',' or '}' after an object member" : "',' or ']' after an array element");
      }
      if (object) {
        bool wanted = true;
        if (!member_key(sink, wanted)) return false;
        if (!wanted) {
          NullSink none;
          if (!parse_value(none)) return false;
          continue;
        }
      } else if constexpr (ReadsElementsWhole<Sink>) {
        if (sink.fast_elements()) {
          skip_whitespace();
          m_in.ensure(kWindowBytes);
          if (m_in.p < m_in.end) {
            if (const char* after = sink.fast_element(m_in.p, m_in.end)) {
              m_in.p = after;
              continue;
            }
          }
        }
      }
      if (!begin_value(sink, first_in_container)) return false;
    }
    return true;
  }

  template <class Sink>
  void close_container(Sink& sink) {
    ++m_in.p;
    const char top = m_stack.back();
    m_stack.pop_back();
    if (top == '{') {
      sink.end_object();
    } else {
      sink.end_array();
    }
  }

  template <class Sink>
  bool member_key(Sink& sink, bool& wanted) {
    skip_whitespace();
    if (peek() != '"') return unexpected("a string (an object key)");
    ++m_in.p;
    const std::string_view name = read_string();
    if (name.data() == nullptr) return false;
    wanted = sink.key(name);
    skip_whitespace();
    if (peek() != ':') return unexpected("':' after an object key");
    ++m_in.p;
    return true;
  }

  template <class Sink>
  bool begin_value(Sink& sink, bool& opened_container) {
    skip_whitespace();
    const int c = peek();
    switch (c) {
      case '{':
      case '[':
        if (m_stack.size() >= kMaxJsonDepth) {
          return fail("nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        }
        ++m_in.p;
        m_stack.push_back(static_cast<char>(c));
        if (c == '{') {
          sink.start_object();
        } else {
          sink.start_array();
        }
        opened_container = true;
        return true;
      case '"': {
        ++m_in.p;
        const std::string_view value = read_string();
        if (value.data() == nullptr) return false;
        sink.string(value);
        return true;
      }
      case 't':
        if (!literal("true")) return false;
        sink.boolean(true);
        return true;
      case 'f':
        if (!literal("false")) return false;
        sink.boolean(false);
        return true;
      case 'n':
        if (!literal("null")) return false;
        sink.null();
        return true;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return number(sink);
        return unexpected("a value");
    }
  }

  // Reads a string after its opening quote, up to and including the closing quote. Without escapes
  // (almost always) the result views the buffer; with them, m_scratch. Its data() is null after an
  // error. (Returned by value, in registers: through memory it was slower, by up to 30%, depending
  // on where the stack and the buffer lie.)
  std::string_view read_string() {
    const char* start = m_in.p;
    const char* q = start;
    while (true) {
      q = scan_plain(q, m_in.end);
      if (q < m_in.end) break;
      const auto scanned = static_cast<std::size_t>(q - start);
      if (!m_in.refill(start)) {
        m_in.p = m_in.end;
        fail_at_end("unexpected end of input inside a string");
        return {};
      }
      q = start + scanned;
    }
    if (*q == '"') {
      m_in.p = q + 1;
      return {start, static_cast<std::size_t>(q - start)};
    }
    // An escape (or a control character, an error): continue in m_scratch.
    m_scratch.assign(start, q);
    m_in.p = q;
    if (!read_escaped_string()) return {};
    return m_scratch;
  }

  // A number. The fast path: an integer of at most 19 digits (below 2^64: no overflow to check), in
  // the buffer with the byte after it, which cannot continue a number. Traces are mostly such integers
  // (timestamps, ids).
  template <class Sink>
  bool number(Sink& sink) {
    const char* r = m_in.p;
    const bool negative = *r == '-';
    if (negative) ++r;
    const char* digits = r;
    const char* limit = m_in.end - digits > 19 ? digits + 19 : m_in.end;
    std::uint64_t magnitude = 0;
    for (; r < limit && is_digit(*r); ++r) magnitude = magnitude * 10 + static_cast<std::uint64_t>(*r - '0');
    const bool plain = r > digits && (*digits != '0' || r == digits + 1);  // no leading zero
    if (!plain || r == m_in.end || is_number_byte(*r)) return general_number(sink);
    m_in.p = r;
    deliver_integer(sink, negative, magnitude);
    return true;
  }

  // Delivers an integer that fits in uint64 as number_integer (when it fits in int64), number_unsigned
  // or, when negative below INT64_MIN, as its text.
  template <class Sink>
  static bool deliver_integer(Sink& sink, bool negative, std::uint64_t magnitude) {
    constexpr auto kMaxSigned = static_cast<std::uint64_t>(INT64_MAX);
    if (!negative) {
      if (magnitude <= kMaxSigned) {
        sink.number_integer(static_cast<std::int64_t>(magnitude));
      } else {
        sink.number_unsigned(magnitude);
      }
      return true;
    }
    if (magnitude > kMaxSigned + 1) return false;
    sink.number_integer(magnitude == kMaxSigned + 1 ? INT64_MIN : -static_cast<std::int64_t>(magnitude));
    return true;
  }

  // Any number: its bytes are first gathered whole in the buffer, then checked against the grammar while
  // an integer is accumulated.
  template <class Sink>
  bool general_number(Sink& sink) {
    const char* start = m_in.p;
    const char* q = start;
    while (true) {
      while (q < m_in.end && is_number_byte(*q)) ++q;
      if (q < m_in.end) break;
      const auto scanned = static_cast<std::size_t>(q - start);
      const bool more = m_in.refill(start);
      q = start + scanned;
      if (!more) break;  // the input ends with the number
    }
    // [start, q) holds the candidate bytes; q is a byte that cannot be part of a number, or the end.
    const char* r = start;
    const bool negative = *r == '-';
    if (negative) ++r;
    std::uint64_t magnitude = 0;
    bool fits = true;  // the integer part fits in uint64
    if (r < q && *r == '0') {
      ++r;
      if (r < q && is_digit(*r)) {
        m_in.p = r;
        return fail("a number cannot start with a leading zero");
      }
    } else {
      const char* first = r;
      for (; r < q && is_digit(*r); ++r) {
        fits = fits && !__builtin_mul_overflow(magnitude, 10, &magnitude) &&
               !__builtin_add_overflow(magnitude, static_cast<std::uint64_t>(*r - '0'), &magnitude);
      }
      if (r == first) return digit_expected(r);
    }
    bool integer = true;
    if (r < q && *r == '.') {
      integer = false;
      const char* first = ++r;
      while (r < q && is_digit(*r)) ++r;
      if (r == first) return digit_expected(r);
    }
    if (r < q && (*r == 'e' || *r == 'E')) {
      integer = false;
      ++r;
      if (r < q && (*r == '+' || *r == '-')) ++r;
      const char* first = r;
      while (r < q && is_digit(*r)) ++r;
      if (r == first) return digit_expected(r);
    }
    m_in.p = r;  // bytes after r (as in "1-2") are the next token's, an error there
    if (integer && fits && deliver_integer(sink, negative, magnitude)) return true;
    sink.number_text(std::string_view(start, static_cast<std::size_t>(r - start)));
    return true;
  }

  bool digit_expected(const char* at) {
    m_in.p = at;
    return unexpected("a digit");
  }

  Handler& m_handler;
};

}  // namespace json_detail

template <class Handler>
std::optional<JsonParseError> parse_json_stream_with(std::streambuf& input, Handler& handler) {
  json_detail::Parser<Handler> parser(input, handler);
  return parser.run();
}

}  // namespace ohprof
