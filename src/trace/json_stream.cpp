#include "json_stream.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ohprof {
namespace json_detail {
namespace {

constexpr std::size_t kChunk = 64 * 1024;

}  // namespace

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

// ---- Input ----

Input::Input(std::streambuf& source)
    : m_source(source), m_lender(dynamic_cast<LendingStreambuf*>(&source)), m_buffer(kChunk) {
  p = end = m_region = m_buffer.data();
}

bool Input::refill(const char*& keep) {
  if (m_eof) return false;
  return m_lender != nullptr ? refill_lent(keep) : refill_copying(keep);
}

void Input::keep_in_buffer(const char*& keep) {
  const auto kept = static_cast<std::size_t>(end - keep);
  const auto p_in_kept = static_cast<std::size_t>(p - keep);
  m_base += static_cast<std::uint64_t>(keep - m_region);
  std::size_t size = m_buffer.size();
  while (kept > size / 2) size *= 2;  // a long token: reading on stays in chunks
  if (size != m_buffer.size()) {
    std::vector<char> larger(size);
    std::memcpy(larger.data(), keep, kept);
    m_buffer.swap(larger);
  } else if (m_in_chunk) {
    std::memcpy(m_buffer.data(), keep, kept);  // out of a lent chunk: no overlap
  } else if (keep != m_buffer.data()) {
    std::memmove(m_buffer.data(), keep, kept);
  }
  m_in_chunk = false;
  m_region = keep = m_buffer.data();
  p = keep + p_in_kept;
  end = keep + kept;
}

bool Input::refill_copying(const char*& keep) {
  keep_in_buffer(keep);
  const auto kept = static_cast<std::size_t>(end - keep);
  char* data = m_buffer.data();
  // Fill the free space whole even from a source that hands out less per read: a long token is then
  // moved O(1) times per buffer size, not once per read.
  std::size_t read = 0;
  while (kept + read < m_buffer.size()) {
    const std::streamsize got =
        m_source.sgetn(data + kept + read, static_cast<std::streamsize>(m_buffer.size() - kept - read));
    if (got <= 0) {
      m_eof = true;
      break;
    }
    read += static_cast<std::size_t>(got);
  }
  end = data + kept + read;
  return read > 0;
}

bool Input::append_lent(const char* keep, std::size_t wanted) {
  bool appended = false;
  while (static_cast<std::size_t>(end - keep) < wanted) {
    if (m_chunk_copied == m_chunk.size()) {
      // Every byte of the chunk is in m_buffer: the next one may replace it.
      m_chunk = m_lender->lend();
      m_chunk_copied = 0;
      if (m_chunk.empty()) {
        m_eof = true;
        break;
      }
    }
    const std::size_t room = static_cast<std::size_t>(m_buffer.data() + m_buffer.size() - end);
    const std::size_t take = std::min({m_chunk.size() - m_chunk_copied, wanted - static_cast<std::size_t>(end - keep), room});
    if (take == 0) break;
    std::memcpy(const_cast<char*>(end), m_chunk.data() + m_chunk_copied, take);
    m_chunk_copied += take;
    end += take;
    appended = true;
  }
  return appended;
}

// Lent chunks: the region is the chunk while reading stays inside it. At its end, the bytes to keep are
// copied to m_buffer with the next chunk's first kHead bytes after them; once reading has moved past
// the copied end of the old chunk (`keep` among the new chunk's copied bytes), the region is the new
// chunk again, from that byte on. So a chunk of C bytes costs at most kWindowBytes + kHead of copying,
// not C.
bool Input::refill_lent(const char*& keep) {
  constexpr std::size_t kHead = 2 * kWindowBytes;
  if (!m_in_chunk && m_chunk_copied > 0 && m_chunk_copied < m_chunk.size()) {
    const char* head = end - m_chunk_copied;  // where the chunk's first byte was copied
    if (keep >= head) {
      // Back into the chunk: what is kept there lies in it too, followed by what was not copied.
      const auto p_in_kept = static_cast<std::size_t>(p - keep);
      m_base += static_cast<std::uint64_t>(head - m_region);
      m_region = m_chunk.data();
      keep = m_chunk.data() + (keep - head);
      p = keep + p_in_kept;
      end = m_chunk.data() + m_chunk.size();
      m_in_chunk = true;
      return true;
    }
  }
  if (keep == end && (m_in_chunk || m_chunk_copied == m_chunk.size())) {
    // Nothing to keep: the next chunk is read where it lies.
    const std::uint64_t next_base = m_base + static_cast<std::uint64_t>(end - m_region);
    const std::string_view chunk = m_lender->lend();
    if (chunk.empty()) {
      m_eof = true;
      return false;
    }
    m_chunk = chunk;
    m_chunk_copied = 0;
    m_base = next_base;
    m_region = keep = p = m_chunk.data();
    end = m_chunk.data() + m_chunk.size();
    m_in_chunk = true;
    return true;
  }
  if (m_in_chunk) m_chunk_copied = m_chunk.size();  // [keep, end) is its last part, copied just below
  keep_in_buffer(keep);
  const std::size_t kept = static_cast<std::size_t>(end - keep);
  return append_lent(keep, std::min(m_buffer.size(), kept + kHead));
}

// ---- ParserBase ----

std::optional<JsonParseError> ParserBase::fail_at(bool at_end, std::string message) {
  if (!m_error) m_error = JsonParseError{m_in.offset_of(m_in.p), at_end, std::move(message)};
  return m_error;
}

bool ParserBase::unexpected(std::string_view expected) {
  const int c = peek();
  if (c < 0) {
    fail_at(true, fmt::format("unexpected end of input; expected {}", expected));
  } else {
    fail_at(false, fmt::format("expected {}, found {}", expected, describe(c)));
  }
  return false;
}

std::optional<JsonParseError> ParserBase::run_end() {
  skip_whitespace();
  if (peek() >= 0) return fail_at(false, fmt::format("unexpected {} after the end of the JSON value", describe(peek())));
  return std::nullopt;
}

bool ParserBase::literal(std::string_view word) {
  for (char expected : word) {
    const int c = peek();
    if (c != static_cast<unsigned char>(expected)) {
      if (c < 0) return fail_at_end(fmt::format("unexpected end of input inside '{}'", word));
      return fail(fmt::format("invalid literal (expected '{}'), found {}", word, describe(c)));
    }
    ++m_in.p;
  }
  return true;
}

bool ParserBase::hex4(std::uint32_t& out) {
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
    ++m_in.p;
  }
  return true;
}

// After a '\\': appends what the escape stands for to m_scratch.
bool ParserBase::escape() {
  std::string& out = m_scratch;
  const int c = peek();
  if (c < 0) return unexpected("an escape character after '\\'");
  ++m_in.p;
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
        ++m_in.p;
        if (peek() != 'u') return unexpected("'\\u' with a low surrogate after a high surrogate");
        ++m_in.p;
        std::uint32_t low = 0;
        if (!hex4(low)) return false;
        if (low < 0xdc00 || low > 0xdfff) return fail("a high surrogate is not followed by a low surrogate");
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
      }
      append_utf8(out, code);
      return true;
    }
    default:
      --m_in.p;
      return fail(fmt::format("invalid escape '\\{}' in a string", static_cast<char>(c)));
  }
}

bool ParserBase::read_escaped_string() {
  while (true) {
    const char* q = scan_plain(m_in.p, m_in.end);
    m_scratch.append(m_in.p, q);
    m_in.p = q;
    if (q == m_in.end) {
      if (!fill()) return fail_at_end("unexpected end of input inside a string");
      continue;
    }
    const char c = *m_in.p;
    if (c == '"') {
      ++m_in.p;
      return true;
    }
    if (c == '\\') {
      ++m_in.p;
      if (!escape()) return false;
      continue;
    }
    return fail(fmt::format("control character {} in a string (it must be escaped)",
                            describe(static_cast<unsigned char>(c))));
  }
}

}  // namespace json_detail

std::optional<JsonParseError> parse_json_stream(std::streambuf& input, JsonHandler& handler) {
  return parse_json_stream_with(input, handler);
}

}  // namespace ohprof
