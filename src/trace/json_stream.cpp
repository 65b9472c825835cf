#include "json_stream.hpp"

#include <fmt/format.h>

#include <limits>
#include <memory>
#include <vector>

namespace ohprof {
namespace {

constexpr std::size_t kChunk = 64 * 1024;

std::string describe(int c) {
  if (c < 0) return "the end of the input";
  if (c >= 0x21 && c <= 0x7e) return fmt::format("'{}'", static_cast<char>(c));
  return fmt::format("byte 0x{:02x}", c);
}

void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xc0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3f));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xe0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code & 0x3f));
  }
}

class Parser {
 public:
  Parser(std::streambuf& input, JsonHandler& handler)
      : m_input(input), m_handler(handler), m_buffer(new char[kChunk]), m_p(m_buffer.get()), m_end(m_buffer.get()) {}

  std::optional<JsonParseError> run() {
    skip_whitespace();
    if (peek() < 0) return fail_at(false, "the input is empty");
    if (!parse_document()) return m_error;
    skip_whitespace();
    if (peek() >= 0) return fail_at(false, fmt::format("unexpected {} after the end of the JSON value", describe(peek())));
    return std::nullopt;
  }

 private:
  // ---- input ----
  bool fill() {
    if (m_eof) return false;
    m_base += static_cast<std::uint64_t>(m_end - m_buffer.get());
    const std::streamsize got = m_input.sgetn(m_buffer.get(), static_cast<std::streamsize>(kChunk));
    m_p = m_buffer.get();
    m_end = m_p + (got > 0 ? got : 0);
    if (got <= 0) m_eof = true;
    return got > 0;
  }
  int peek() {
    if (m_p == m_end && !fill()) return -1;
    return static_cast<unsigned char>(*m_p);
  }
  [[nodiscard]] std::uint64_t offset() const { return m_base + static_cast<std::uint64_t>(m_p - m_buffer.get()); }
  void skip_whitespace() {
    while (true) {
      while (m_p < m_end) {
        const char c = *m_p;
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
        ++m_p;
      }
      if (!fill()) return;
    }
  }

  // ---- errors ----
  std::optional<JsonParseError> fail_at(bool at_end, std::string message) {
    if (!m_error) m_error = JsonParseError{offset(), at_end, std::move(message)};
    return m_error;
  }
  bool fail(std::string message) {
    fail_at(false, std::move(message));
    return false;
  }
  bool fail_at_end(std::string message) {
    fail_at(true, std::move(message));
    return false;
  }
  // "expected X, found Y", or "unexpected end of input; expected X" when the input ended.
  bool unexpected(std::string_view expected) {
    const int c = peek();
    if (c < 0) {
      fail_at(true, fmt::format("unexpected end of input; expected {}", expected));
    } else {
      fail_at(false, fmt::format("expected {}, found {}", expected, describe(c)));
    }
    return false;
  }

  // ---- grammar ----
  bool parse_document() {
    bool first_in_container = false;
    if (!begin_value(first_in_container)) return false;
    while (!m_stack.empty()) {
      skip_whitespace();
      const char top = m_stack.back();
      const int c = peek();
      if (first_in_container) {
        first_in_container = false;
        if (c == (top == '{' ? '}' : ']')) {
          close_container();
          continue;
        }
        if (top == '{' && !member_key()) return false;
        if (!begin_value(first_in_container)) return false;
        continue;
      }
      if (c == ',') {
        ++m_p;
        if (top == '{' && !member_key()) return false;
        if (!begin_value(first_in_container)) return false;
        continue;
      }
      if (c == (top == '{' ? '}' : ']')) {
        close_container();
        continue;
      }
      return unexpected(top == '{' ? "',' or '}' after an object member" : "',' or ']' after an array element");
    }
    return true;
  }

  void close_container() {
    ++m_p;
    const char top = m_stack.back();
    m_stack.pop_back();
    if (top == '{') {
      m_handler.end_object();
    } else {
      m_handler.end_array();
    }
  }

  bool member_key() {
    skip_whitespace();
    if (peek() != '"') return unexpected("a string (an object key)");
    ++m_p;
    if (!read_string(m_key)) return false;
    m_handler.key(m_key);
    skip_whitespace();
    if (peek() != ':') return unexpected("':' after an object key");
    ++m_p;
    return true;
  }

  bool begin_value(bool& opened_container) {
    skip_whitespace();
    const int c = peek();
    switch (c) {
      case '{':
      case '[':
        if (m_stack.size() >= kMaxJsonDepth) return fail(fmt::format("nesting deeper than {} levels", kMaxJsonDepth));
        ++m_p;
        m_stack.push_back(static_cast<char>(c));
        if (c == '{') {
          m_handler.start_object();
        } else {
          m_handler.start_array();
        }
        opened_container = true;
        return true;
      case '"':
        ++m_p;
        if (!read_string(m_token)) return false;
        m_handler.string(m_token);
        return true;
      case 't':
        if (!literal("true")) return false;
        m_handler.boolean(true);
        return true;
      case 'f':
        if (!literal("false")) return false;
        m_handler.boolean(false);
        return true;
      case 'n':
        if (!literal("null")) return false;
        m_handler.null();
        return true;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        return unexpected("a value");
    }
  }

  bool literal(std::string_view word) {
    for (char expected : word) {
      const int c = peek();
      if (c != static_cast<unsigned char>(expected)) {
        if (c < 0) return fail_at_end(fmt::format("unexpected end of input inside '{}'", word));
        return fail(fmt::format("invalid literal (expected '{}'), found {}", word, describe(c)));
      }
      ++m_p;
    }
    return true;
  }

  bool digits(bool required) {
    bool any = false;
    while (true) {
      const int c = peek();
      if (c < '0' || c > '9') break;
      m_token += static_cast<char>(c);
      ++m_p;
      any = true;
    }
    return any || !required || unexpected("a digit");
  }

  bool number() {
    m_token.clear();
    bool integer = true;
    if (peek() == '-') {
      m_token += '-';
      ++m_p;
    }
    const int first = peek();
    if (first == '0') {
      m_token += '0';
      ++m_p;
      const int next = peek();
      if (next >= '0' && next <= '9') return fail("a number cannot start with a leading zero");
    } else if (!digits(true)) {
      return false;
    }
    if (peek() == '.') {
      integer = false;
      m_token += '.';
      ++m_p;
      if (!digits(true)) return false;
    }
    if (const int e = peek(); e == 'e' || e == 'E') {
      integer = false;
      m_token += static_cast<char>(e);
      ++m_p;
      if (const int sign = peek(); sign == '+' || sign == '-') {
        m_token += static_cast<char>(sign);
        ++m_p;
      }
      if (!digits(true)) return false;
    }
    if (integer && deliver_integer()) return true;
    m_handler.number_text(m_token);
    return true;
  }

  // Delivers m_token as an integer when it fits in 64 bits; false otherwise.
  bool deliver_integer() {
    const bool negative = m_token[0] == '-';
    std::uint64_t magnitude = 0;
    for (std::size_t i = negative ? 1 : 0; i < m_token.size(); ++i) {
      const auto digit = static_cast<std::uint64_t>(m_token[i] - '0');
      if (magnitude > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return false;
      magnitude = magnitude * 10 + digit;
    }
    constexpr auto kMaxSigned = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (negative) {
      if (magnitude > kMaxSigned + 1) return false;
      m_handler.number_integer(magnitude == kMaxSigned + 1 ? std::numeric_limits<std::int64_t>::min()
                                                           : -static_cast<std::int64_t>(magnitude));
    } else if (magnitude <= kMaxSigned) {
      m_handler.number_integer(static_cast<std::int64_t>(magnitude));
    } else {
      m_handler.number_unsigned(magnitude);
    }
    return true;
  }

  bool hex4(std::uint32_t& out) {
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const int c = peek();
      std::uint32_t value = 0;
      if (c >= '0' && c <= '9') {
        value = static_cast<std::uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        value = static_cast<std::uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        value = static_cast<std::uint32_t>(c - 'A' + 10);
      } else {
        return unexpected("a hexadecimal digit in a \\u escape");
      }
      out = out * 16 + value;
      ++m_p;
    }
    return true;
  }

  bool escape(std::string& out) {
    const int c = peek();
    if (c < 0) return unexpected("an escape character after '\\'");
    ++m_p;
    switch (c) {
      case '"': out += '"'; return true;
      case '\\': out += '\\'; return true;
      case '/': out += '/'; return true;
      case 'b': out += '\b'; return true;
      case 'f': out += '\f'; return true;
      case 'n': out += '\n'; return true;
      case 'r': out += '\r'; return true;
      case 't': out += '\t'; return true;
      case 'u': {
        std::uint32_t code = 0;
        if (!hex4(code)) return false;
        if (code >= 0xdc00 && code <= 0xdfff) return fail("a \\u escape has a low surrogate without a high surrogate");
        if (code >= 0xd800 && code <= 0xdbff) {
          if (peek() != '\\') return unexpected("'\\u' with a low surrogate after a high surrogate");
          ++m_p;
          if (peek() != 'u') return unexpected("'\\u' with a low surrogate after a high surrogate");
          ++m_p;
          std::uint32_t low = 0;
          if (!hex4(low)) return false;
          if (low < 0xdc00 || low > 0xdfff) return fail("a high surrogate is not followed by a low surrogate");
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        }
        append_utf8(out, code);
        return true;
      }
      default:
        --m_p;
        return fail(fmt::format("invalid escape '\\{}' in a string", static_cast<char>(c)));
    }
  }

  // Reads a string after its opening quote, up to and including the closing quote.
  bool read_string(std::string& out) {
    out.clear();
    while (true) {
      const char* q = m_p;
      while (q < m_end) {
        const auto c = static_cast<unsigned char>(*q);
        if (c == '"' || c == '\\' || c < 0x20) break;
        ++q;
      }
      out.append(m_p, q);
      m_p = q;
      if (q == m_end) {
        if (!fill()) return fail_at_end("unexpected end of input inside a string");
        continue;
      }
      const char c = *m_p;
      if (c == '"') {
        ++m_p;
        return true;
      }
      if (c == '\\') {
        ++m_p;
        if (!escape(out)) return false;
        continue;
      }
      return fail(fmt::format("control character {} in a string (it must be escaped)", describe(static_cast<unsigned char>(c))));
    }
  }

  std::streambuf& m_input;
  JsonHandler& m_handler;
  std::unique_ptr<char[]> m_buffer;
  const char* m_p;
  const char* m_end;
  std::uint64_t m_base = 0;  // input offset of m_buffer[0]
  bool m_eof = false;
  std::vector<char> m_stack;
  std::string m_token;
  std::string m_key;
  std::optional<JsonParseError> m_error;
};

}  // namespace

std::optional<JsonParseError> parse_json_stream(std::streambuf& input, JsonHandler& handler) {
  Parser parser(input, handler);
  return parser.run();
}

}  // namespace ohprof
