#include "ohprof/trace/gzip_file.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace ohprof {

// zlib's stream state, kept out of the header.
struct GzipState {
  z_stream stream{};
};

namespace {

constexpr std::size_t kInputChunk = 256 * 1024;
constexpr std::size_t kOutputChunk = 256 * 1024;
constexpr int kGzipWindowBits = 15 + 16;  // gzip wrapper only (RFC 1952), checks CRC-32 and length
constexpr int kWriteLevel = 3;            // fast; traces compress well at any level

bool starts_with_gzip_magic(const char* data, std::size_t size) {
  return size >= 2 && static_cast<unsigned char>(data[0]) == 0x1f && static_cast<unsigned char>(data[1]) == 0x8b;
}

}  // namespace

bool has_gzip_suffix(std::string_view path) { return path.size() > 3 && path.substr(path.size() - 3) == ".gz"; }

// ---- reading ------------------------------------------------------------------------------

GzipInputBuffer::GzipInputBuffer(std::FILE* file, std::string path)
    : m_file(file), m_path(std::move(path)), m_in(new char[kInputChunk]), m_out(new char[kOutputChunk]) {}

GzipInputBuffer::~GzipInputBuffer() {
  if (m_inflate_ready) inflateEnd(&m_gz->stream);
  if (m_file != nullptr) std::fclose(m_file);
}

Result<std::unique_ptr<GzipInputBuffer>> GzipInputBuffer::open(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return make_error(ExitCode::file_not_found, fmt::format("'{}' is a directory, not a file", path));
  }
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return make_error(ExitCode::file_not_found, fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  }
  std::unique_ptr<GzipInputBuffer> buffer(new GzipInputBuffer(file, path));
  buffer->read_file_chunk();
  if (buffer->m_error) return *buffer->m_error;
  buffer->m_compressed = starts_with_gzip_magic(buffer->m_in.get(), buffer->m_in_size);
  if (buffer->m_compressed) {
    buffer->m_gz = std::make_unique<GzipState>();
    if (inflateInit2(&buffer->m_gz->stream, kGzipWindowBits) != Z_OK) {
      return make_error(ExitCode::internal_error, "zlib could not start decompressing (out of memory?)");
    }
    buffer->m_inflate_ready = true;
  }
  return buffer;
}

void GzipInputBuffer::fail(std::string message) {
  if (!m_error) m_error = make_error(ExitCode::invalid_trace, fmt::format("'{}': {}", m_path, message));
}

bool GzipInputBuffer::read_file_chunk() {
  m_in_pos = 0;
  m_in_size = std::fread(m_in.get(), 1, kInputChunk, m_file);
  m_file_bytes += m_in_size;
  if (m_in_size < kInputChunk) {
    m_file_eof = true;
    if (std::ferror(m_file) != 0) {
      fail(fmt::format("read error after {} bytes: {}", m_file_bytes, std::strerror(errno)));
      return false;
    }
  }
  return m_in_size > 0;
}

GzipInputBuffer::int_type GzipInputBuffer::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  if (m_error) return traits_type::eof();
  const bool filled = m_compressed ? fill_inflated() : fill_plain();
  if (!filled) return traits_type::eof();
  return traits_type::to_int_type(*gptr());
}

bool GzipInputBuffer::fill_plain() {
  if (m_in_pos == m_in_size) {
    if (m_file_eof || !read_file_chunk()) return false;
  }
  char* begin = m_in.get();
  setg(begin, begin + m_in_pos, begin + m_in_size);
  m_delivered += m_in_size - m_in_pos;
  m_in_pos = m_in_size;
  return true;
}

bool GzipInputBuffer::fill_inflated() {
  z_stream& z = m_gz->stream;
  while (true) {
    if (m_in_pos == m_in_size) {
      if (m_file_eof) {
        if (!m_stream_ended) {
          fail(fmt::format("gzip data ends early after {} bytes (the file is truncated; was it still being written?)",
                           m_file_bytes));
        }
        return false;
      }
      if (!read_file_chunk()) continue;  // end of file or error: handled above / by m_error
    }
    if (m_error) return false;
    if (m_stream_ended) {
      // More bytes after a complete gzip member: another member (gzip allows concatenation),
      // zero padding, or garbage.
      const unsigned char next = static_cast<unsigned char>(m_in[m_in_pos]);
      if (next == 0) {
        ++m_in_pos;
        continue;
      }
      if (next != 0x1f) {
        fail(fmt::format("unexpected data after the end of the gzip stream at byte {}",
                         m_file_bytes - (m_in_size - m_in_pos)));
        return false;
      }
      if (inflateReset(&z) != Z_OK) {
        fail("zlib could not restart for the next gzip member");
        return false;
      }
      m_stream_ended = false;
    }
    z.next_in = reinterpret_cast<Bytef*>(m_in.get() + m_in_pos);
    z.avail_in = static_cast<uInt>(m_in_size - m_in_pos);
    z.next_out = reinterpret_cast<Bytef*>(m_out.get());
    z.avail_out = static_cast<uInt>(kOutputChunk);
    const int rc = inflate(&z, Z_NO_FLUSH);
    m_in_pos = m_in_size - z.avail_in;
    const std::size_t produced = kOutputChunk - z.avail_out;
    if (rc == Z_STREAM_END) {
      m_stream_ended = true;
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      fail(fmt::format("corrupt gzip data near byte {} ({})", m_file_bytes - (m_in_size - m_in_pos),
                       z.msg != nullptr ? z.msg : "zlib error"));
      return false;
    }
    if (produced > 0) {
      setg(m_out.get(), m_out.get(), m_out.get() + produced);
      m_delivered += produced;
      return true;
    }
  }
}

// ---- writing ------------------------------------------------------------------------------

namespace {

Error output_error(const std::string& path, const std::string& why) {
  return make_error(ExitCode::output_error, fmt::format("cannot write '{}': {}; check that the folder exists and is writable",
                                                        path, why));
}

}  // namespace

GzipOutputFile::GzipOutputFile(std::FILE* file, std::string path, std::string temp_path, bool compressed)
    : m_file(file), m_path(std::move(path)), m_temp_path(std::move(temp_path)), m_compressed(compressed) {}

GzipOutputFile::~GzipOutputFile() {
  if (m_gz) deflateEnd(&m_gz->stream);
  if (m_file != nullptr) std::fclose(m_file);
  if (!m_committed) ::unlink(m_temp_path.c_str());
}

Result<std::unique_ptr<GzipOutputFile>> GzipOutputFile::create(const std::string& path) {
  const std::filesystem::path target(path);
  const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : ".";
  std::string temp_name = ".";  // built step by step: GCC 12 warns falsely (-Wrestrict) on "." + string
  temp_name += target.filename().string();
  temp_name += ".XXXXXX";
  std::string temp = (folder / temp_name).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return output_error(path, std::strerror(errno));
  ::fchmod(fd, 0644);
  std::FILE* file = ::fdopen(fd, "wb");
  if (file == nullptr) {
    const int saved = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    return output_error(path, std::strerror(saved));
  }
  std::unique_ptr<GzipOutputFile> out(new GzipOutputFile(file, path, temp, has_gzip_suffix(path)));
  if (out->m_compressed) {
    out->m_gz = std::make_unique<GzipState>();
    if (deflateInit2(&out->m_gz->stream, kWriteLevel, Z_DEFLATED, kGzipWindowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      out->m_gz.reset();
      return output_error(path, "zlib could not start compressing");
    }
    out->m_out.reset(new char[kOutputChunk]);
  }
  return out;
}

void GzipOutputFile::write_raw(const char* data, std::size_t size) {
  if (m_error || size == 0) return;
  if (std::fwrite(data, 1, size, m_file) != size) m_error = std::strerror(errno);
}

void GzipOutputFile::write(std::string_view bytes) {
  if (!m_compressed) {
    write_raw(bytes.data(), bytes.size());
    return;
  }
  m_pending.append(bytes);
  if (m_pending.size() >= kInputChunk) deflate_some(false);
}

void GzipOutputFile::deflate_some(bool finish) {
  z_stream& z = m_gz->stream;
  z.next_in = reinterpret_cast<Bytef*>(m_pending.data());
  z.avail_in = static_cast<uInt>(m_pending.size());
  while (true) {
    z.next_out = reinterpret_cast<Bytef*>(m_out.get());
    z.avail_out = static_cast<uInt>(kOutputChunk);
    const int rc = deflate(&z, finish ? Z_FINISH : Z_NO_FLUSH);
    if (rc == Z_STREAM_ERROR) {
      if (!m_error) m_error = "zlib compression failed";
      break;
    }
    write_raw(m_out.get(), kOutputChunk - z.avail_out);
    if (finish ? rc == Z_STREAM_END : (z.avail_in == 0 && z.avail_out != 0)) break;
  }
  m_pending.clear();
}

Status GzipOutputFile::commit() {
  if (m_compressed) {
    deflate_some(true);
    deflateEnd(&m_gz->stream);
    m_gz.reset();
  }
  if (!m_error && (std::fflush(m_file) != 0 || ::fsync(::fileno(m_file)) != 0)) m_error = std::strerror(errno);
  if (std::fclose(m_file) != 0 && !m_error) m_error = std::strerror(errno);
  m_file = nullptr;
  if (m_error) return output_error(m_path, *m_error);
  if (::rename(m_temp_path.c_str(), m_path.c_str()) != 0) return output_error(m_path, std::strerror(errno));
  m_committed = true;
  return ok_status();
}

}  // namespace ohprof
