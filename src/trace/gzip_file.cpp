#include "ohprof/trace/gzip_file.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#if OHPROF_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include <array>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <thread>

namespace ohprof {

// zlib's stream state, kept out of the header.
struct GzipState {
  z_stream stream{};
};

namespace {

#if OHPROF_HAVE_ISAL
constexpr const char* kInflaterName = "ISA-L";
#else
constexpr const char* kInflaterName = "zlib";
#endif

constexpr std::size_t kInputChunk = 256 * 1024;
constexpr std::size_t kOutputChunk = 256 * 1024;
constexpr int kGzipWindowBits = 15 + 16;  // gzip wrapper only (RFC 1952), checks CRC-32 and length
constexpr int kWriteLevel = 3;            // fast; traces compress well at any level

bool starts_with_gzip_magic(const char* data, std::size_t size) {
  return size >= 2 && static_cast<unsigned char>(data[0]) == 0x1f && static_cast<unsigned char>(data[1]) == 0x8b;
}

}  // namespace

bool has_gzip_suffix(std::string_view path) { return path.size() > 3 && path.substr(path.size() - 3) == ".gz"; }

// The file, read in chunks of kInputChunk bytes: the one reader of it, for plain files and, handed
// over, for the inflater.
struct FileChunks {
  explicit FileChunks(std::FILE* f) : file(f) {}
  ~FileChunks() {
    if (file != nullptr) std::fclose(file);
  }
  FileChunks(const FileChunks&) = delete;
  FileChunks& operator=(const FileChunks&) = delete;

  // Reads the next chunk into `data`; false at the end of the file or on a read error (`error` says).
  bool read() {
    pos = 0;
    size = std::fread(data.get(), 1, kInputChunk, file);
    bytes += size;
    if (size < kInputChunk) {
      eof = true;
      if (std::ferror(file) != 0) {
        error = fmt::format("read error after {} bytes: {}", bytes, std::strerror(errno));
        return false;
      }
    }
    return size > 0;
  }
  [[nodiscard]] bool exhausted() const { return pos == size; }

  std::FILE* file = nullptr;
  std::unique_ptr<char[]> data{new char[kInputChunk]};
  std::size_t size = 0;     // valid bytes in data
  std::size_t pos = 0;      // the next byte not yet consumed
  bool eof = false;         // the last read reached the end of the file
  std::uint64_t bytes = 0;  // read from the file so far
  std::optional<std::string> error;
};

// ---- one gzip member at a time: ISA-L's inflate, or zlib's ----------------------------------------

// Inflates gzip members (RFC 1952: header, deflate data, CRC-32 and length checked) from the input
// given to each step into the output given to it. Intel's ISA-L when the build found libisal-dev (about
// four times zlib's speed on traces, docs/analyze.md, "Speed"), zlib otherwise; they differ in nothing
// but speed and the words of a corrupt stream's error.
class MemberInflate {
 public:
  enum class Step { more, member_end, corrupt };

  MemberInflate() = default;
  ~MemberInflate() {
#if !OHPROF_HAVE_ISAL
    if (m_ready) inflateEnd(&m_z);
#endif
  }
  MemberInflate(const MemberInflate&) = delete;
  MemberInflate& operator=(const MemberInflate&) = delete;

  // false: the library could not start
  bool init() {
#if OHPROF_HAVE_ISAL
    m_state = std::make_unique<inflate_state>();
    isal_inflate_init(m_state.get());
    m_state->crc_flag = ISAL_GZIP;
    m_ready = true;
#else
    m_ready = inflateInit2(&m_z, kGzipWindowBits) == Z_OK;
#endif
    return m_ready;
  }

  // For the next member; false: the library could not restart.
  bool reset() {
#if OHPROF_HAVE_ISAL
    isal_inflate_reset(m_state.get());
    m_state->crc_flag = ISAL_GZIP;
    return true;
#else
    return inflateReset(&m_z) == Z_OK;
#endif
  }

  // Inflates from `in` (`in_size` bytes) into `out` (`out_size` bytes); `consumed` and `produced` say
  // how much of each it used. member_end: the member's trailer was read and checked.
  Step step(const char* in, std::size_t in_size, char* out, std::size_t out_size, std::size_t& consumed,
            std::size_t& produced) {
#if OHPROF_HAVE_ISAL
    inflate_state& st = *m_state;
    st.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(in));
    st.avail_in = static_cast<std::uint32_t>(in_size);
    st.next_out = reinterpret_cast<std::uint8_t*>(out);
    st.avail_out = static_cast<std::uint32_t>(out_size);
    const int rc = isal_inflate(&st);
    consumed = in_size - st.avail_in;
    produced = out_size - st.avail_out;
    if (rc < 0) {
      m_message = isal_message(rc);
      return Step::corrupt;
    }
    return st.block_state == ISAL_BLOCK_FINISH ? Step::member_end : Step::more;
#else
    m_z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in));
    m_z.avail_in = static_cast<uInt>(in_size);
    m_z.next_out = reinterpret_cast<Bytef*>(out);
    m_z.avail_out = static_cast<uInt>(out_size);
    const int rc = inflate(&m_z, Z_NO_FLUSH);
    consumed = in_size - m_z.avail_in;
    produced = out_size - m_z.avail_out;
    if (rc == Z_STREAM_END) return Step::member_end;
    if (rc == Z_OK || rc == Z_BUF_ERROR) return Step::more;
    m_message = m_z.msg != nullptr ? m_z.msg : "zlib error";
    return Step::corrupt;
#endif
  }

  // What was wrong with a corrupt stream, in the library's words.
  [[nodiscard]] const std::string& message() const { return m_message; }

 private:
#if OHPROF_HAVE_ISAL
  static const char* isal_message(int rc) {
    switch (rc) {
      case ISAL_INVALID_BLOCK: return "invalid deflate block";
      case ISAL_INVALID_SYMBOL: return "invalid deflate symbol";
      case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
      case ISAL_INVALID_WRAPPER: return "invalid gzip header";
      case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
      case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
      default: return "ISA-L error";
    }
  }
  std::unique_ptr<inflate_state> m_state;  // large (its history window): on the heap
#else
  z_stream m_z{};
#endif
  bool m_ready = false;
  std::string m_message;
};

// ---- inflating on a second thread -----------------------------------------------------------

// Reads a gzip file and inflates it into a ring of kSlots chunks of kSlotSize bytes. The producer
// (the thread, or the reader itself where no thread could be started) fills slot `head`; the reader
// holds slot `tail` until it asks for the next one. At most kSlots chunks exist, so memory stays
// bounded whatever the file's size: 1 MB of inflated bytes plus one input chunk and zlib's window.
class GzipInflater {
 public:
  static constexpr std::size_t kSlots = 4;
  static constexpr std::size_t kSlotSize = kOutputChunk;
  // A full ring wakes the producer when this many slots are free, so that it inflates them in one go:
  // one wake-up (a futex call and a context switch each side) per two chunks, not per chunk.
  static constexpr std::size_t kResumeFree = kSlots / 2;

  struct Chunk {
    const char* data = nullptr;
    std::size_t size = 0;
    std::uint64_t file_bytes = 0;  // compressed bytes read so far (the producer may be ahead)
  };

  // Takes over the file, with the bytes already read from it.
  explicit GzipInflater(std::unique_ptr<FileChunks> input)
      : m_input(std::move(input)), m_shared_file_bytes(m_input->bytes) {
    for (auto& slot : m_slots) slot.reset(new char[kSlotSize]);
  }

  ~GzipInflater() {
    {
      const std::lock_guard<std::mutex> lock(m_mutex);
      m_stop = true;
    }
    m_slot_freed.notify_one();
    if (m_thread.joinable()) m_thread.join();
  }
  GzipInflater(const GzipInflater&) = delete;
  GzipInflater& operator=(const GzipInflater&) = delete;

  bool init() { return m_inflate.init(); }

  // Starts the thread; where none can be started, next() inflates on the caller's thread.
  void start() {
    try {
      m_thread = std::thread([this] { run(); });
      m_threaded = true;
    } catch (const std::system_error&) {
      m_threaded = false;
    }
  }
  [[nodiscard]] bool threaded() const { return m_threaded; }

  // Releases the chunk handed out last and hands out the next; false at the end of the data (then
  // error() says whether the end was real). Bytes produced before an error are handed out first.
  bool next(Chunk& chunk) {
    if (!m_threaded) return next_inline(chunk);
    std::unique_lock<std::mutex> lock(m_mutex);
    if (m_holding) {
      ++m_tail;
      m_holding = false;
      if (m_producer_waiting && m_head - m_tail <= kSlots - kResumeFree) m_slot_freed.notify_one();
    }
    m_slot_filled.wait(lock, [this] { return m_head != m_tail || m_finished; });
    chunk.file_bytes = m_shared_file_bytes;
    if (m_head == m_tail) return false;
    m_holding = true;
    chunk.data = m_slots[m_tail % kSlots].get();
    chunk.size = m_sizes[m_tail % kSlots];
    return true;
  }

  // Valid once next() has returned false; also the producer's own copy while it runs.
  [[nodiscard]] const std::optional<std::string>& error() const { return m_error; }

 private:
  // The thread: fills free slots in order until the data ends or the reader goes away.
  void run() {
    while (true) {
      std::size_t slot = 0;
      {
        std::unique_lock<std::mutex> lock(m_mutex);
        if (m_head - m_tail == kSlots) {  // full: wait until kResumeFree slots are free, not one
          m_producer_waiting = true;
          m_slot_freed.wait(lock, [this] { return m_stop || m_head - m_tail <= kSlots - kResumeFree; });
          m_producer_waiting = false;
        }
        if (m_stop) return;
        slot = m_head % kSlots;
      }
      std::size_t size = 0;
      const bool more = produce(m_slots[slot].get(), size);
      {
        const std::lock_guard<std::mutex> lock(m_mutex);
        if (size > 0) {
          m_sizes[slot] = size;
          ++m_head;
        }
        m_shared_file_bytes = m_input->bytes;
        if (!more) m_finished = true;  // m_error is final now; the reader reads it after seeing this
      }
      m_slot_filled.notify_one();
      if (!more) return;
    }
  }

  bool next_inline(Chunk& chunk) {
    chunk.file_bytes = m_input->bytes;
    if (m_finished) return false;
    std::size_t size = 0;
    if (!produce(m_slots[0].get(), size)) m_finished = true;
    chunk.file_bytes = m_input->bytes;
    chunk.data = m_slots[0].get();
    chunk.size = size;
    return size > 0;
  }

  void fail(std::string message) {
    if (!m_error) m_error = std::move(message);
  }

  // Inflates into `out` until it holds kSlotSize bytes (true) or the data ends or fails (false;
  // `size` bytes were still produced).
  bool produce(char* out, std::size_t& size) {
    FileChunks& in = *m_input;
    size = 0;
    while (size < kSlotSize) {
      if (in.exhausted()) {
        if (in.eof) {
          if (!m_stream_ended) {
            fail(fmt::format("gzip data ends early after {} bytes (the file is truncated; was it still being written?)",
                             in.bytes));
          }
          return false;
        }
        if (!in.read()) {  // end of file (handled above) or an error
          if (in.error) fail(*in.error);
          continue;
        }
      }
      if (m_error) return false;
      if (m_stream_ended) {
        // More bytes after a complete gzip member: another member (gzip allows concatenation),
        // zero padding, or garbage.
        const unsigned char next = static_cast<unsigned char>(in.data[in.pos]);
        if (next == 0) {
          ++in.pos;
          continue;
        }
        if (next != 0x1f) {
          fail(fmt::format("unexpected data after the end of the gzip stream at byte {}",
                           in.bytes - (in.size - in.pos)));
          return false;
        }
        if (!m_inflate.reset()) {
          fail("the inflater could not restart for the next gzip member");
          return false;
        }
        m_stream_ended = false;
      }
      std::size_t consumed = 0;
      std::size_t produced = 0;
      const MemberInflate::Step step =
          m_inflate.step(in.data.get() + in.pos, in.size - in.pos, out + size, kSlotSize - size, consumed, produced);
      in.pos += consumed;
      size += produced;
      if (step == MemberInflate::Step::member_end) {
        m_stream_ended = true;
      } else if (step == MemberInflate::Step::corrupt) {
        fail(fmt::format("corrupt gzip data near byte {} ({})", in.bytes - (in.size - in.pos), m_inflate.message()));
        return false;
      }
    }
    return true;
  }

  // The producer's state: the file and the inflater.
  std::unique_ptr<FileChunks> m_input;
  MemberInflate m_inflate;
  bool m_stream_ended = false;  // the current gzip member is complete
  std::optional<std::string> m_error;

  // The ring, shared under m_mutex (m_slots' contents are owned by whoever the indices give them to).
  std::array<std::unique_ptr<char[]>, kSlots> m_slots;
  std::array<std::size_t, kSlots> m_sizes{};
  std::mutex m_mutex;
  std::condition_variable m_slot_filled;
  std::condition_variable m_slot_freed;
  std::uint64_t m_head = 0;  // chunks produced
  std::uint64_t m_tail = 0;  // chunks released by the reader
  bool m_holding = false;    // the reader holds slot m_tail
  bool m_producer_waiting = false;  // the producer waits for kResumeFree free slots
  bool m_finished = false;   // no more chunks will come
  bool m_stop = false;       // the reader is gone
  std::uint64_t m_shared_file_bytes = 0;
  bool m_threaded = false;
  std::thread m_thread;
};

// ---- reading ------------------------------------------------------------------------------

GzipInputBuffer::GzipInputBuffer(std::FILE* file, std::string path)
    : m_input(std::make_unique<FileChunks>(file)), m_path(std::move(path)) {}

GzipInputBuffer::~GzipInputBuffer() {
  m_inflater.reset();  // stops and joins the thread before anything it uses goes
}

bool GzipInputBuffer::inflating_on_a_thread() const { return m_inflater != nullptr && m_inflater->threaded(); }

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
  FileChunks& in = *buffer->m_input;
  if (!in.read() && in.error) buffer->fail(*in.error);
  buffer->m_file_bytes = in.bytes;
  if (buffer->m_error) return *buffer->m_error;
  buffer->m_compressed = starts_with_gzip_magic(in.data.get(), in.size);
  if (buffer->m_compressed) {
    const bool small = in.eof;
    buffer->m_inflater = std::make_unique<GzipInflater>(std::move(buffer->m_input));
    if (!buffer->m_inflater->init()) {
      return make_error(ExitCode::internal_error,
                        fmt::format("{} could not start decompressing (out of memory?)", kInflaterName));
    }
    // A file that fit in the first read is small (at most kInputChunk compressed): inflating it
    // takes well under a millisecond, less than a new thread can take to be scheduled on a busy
    // machine, so it is inflated on the reader's thread.
    if (!small) buffer->m_inflater->start();
  }
  return buffer;
}

void GzipInputBuffer::fail(std::string message) {
  if (!m_error) m_error = make_error(ExitCode::invalid_trace, fmt::format("'{}': {}", m_path, message));
}

GzipInputBuffer::int_type GzipInputBuffer::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  if (m_error) return traits_type::eof();
  const bool filled = m_compressed ? fill_inflated() : fill_plain();
  if (!filled) return traits_type::eof();
  return traits_type::to_int_type(*gptr());
}

bool GzipInputBuffer::fill_plain() {
  FileChunks& in = *m_input;
  if (in.exhausted()) {
    if (in.eof) return false;
    const bool read = in.read();
    m_file_bytes = in.bytes;
    if (!read) {
      if (in.error) fail(*in.error);
      return false;
    }
  }
  char* begin = in.data.get();
  setg(begin, begin + in.pos, begin + in.size);
  m_delivered += in.size - in.pos;
  in.pos = in.size;
  return true;
}

bool GzipInputBuffer::fill_inflated() {
  GzipInflater::Chunk chunk;
  const bool got = m_inflater->next(chunk);
  m_file_bytes = chunk.file_bytes;
  if (!got) {
    if (m_inflater->error()) fail(*m_inflater->error());
    return false;
  }
  // The chunk stays valid until the next call: the stream buffer's get area points into it.
  char* data = const_cast<char*>(chunk.data);
  setg(data, data, data + chunk.size);
  m_delivered += chunk.size;
  return true;
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
