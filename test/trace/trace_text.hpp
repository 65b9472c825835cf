#pragma once
// Trace text for the trace tests: a gzip (or plain) file's text read whole, and a stream buffer that
// lends a text in chunks, for the readers that read lent bytes in place (lending_streambuf.hpp).
#include <zlib.h>

#include <algorithm>
#include <string>

#include "ohprof/trace/lending_streambuf.hpp"

namespace ohprof {

// The file's text, inflated when it is gzip (zlib's gz* API, independent of ohprof's reader); empty
// when it cannot be read.
inline std::string gunzip(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  std::string text;
  if (file == nullptr) return text;
  char buffer[65536];
  int n = 0;
  while ((n = gzread(file, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(n));
  gzclose(file);
  return text;
}

// Lends the text at most `chunk` bytes at a time (lending_streambuf.hpp), from one slot it overwrites
// with 0xEE before each chunk: the parser reads in place, and a byte it kept a view of past the next
// lend() would read back as 0xEE.
class LendingChunks : public LendingStreambuf {
 public:
  LendingChunks(const std::string& text, std::size_t chunk)
      : m_text(text), m_slot(std::min(chunk, std::max<std::size_t>(text.size(), 1)), '\xEE') {}
  std::size_t lends = 0;

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    std::fill(m_slot.begin(), m_slot.end(), '\xEE');
    const std::size_t take = std::min(m_slot.size(), m_text.size() - m_pos);
    if (take == 0) return traits_type::eof();
    std::copy_n(m_text.data() + m_pos, take, m_slot.data());
    m_pos += take;
    ++lends;
    setg(m_slot.data(), m_slot.data(), m_slot.data() + take);
    return traits_type::to_int_type(*gptr());
  }

 private:
  const std::string& m_text;
  std::string m_slot;
  std::size_t m_pos = 0;
};

}  // namespace ohprof
