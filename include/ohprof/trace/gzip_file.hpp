#pragma once
// Files that may be gzip-compressed, read and written as streams so that memory stays bounded by a
// small buffer, not by the file's size. Used for profiler traces (`ohprof analyze`).
//
// Reading: a file whose first two bytes are the gzip magic (1f 8b) is decompressed (several
// concatenated gzip members are allowed, as `gzip` writes them); any other file is read as is.
// Writing: compressed when the target name ends in ".gz", written to a temporary file beside the
// target and renamed over it on commit(), so a reader never sees half a file.
#include <cstdint>
#include <memory>
#include <optional>
#include <streambuf>
#include <string>
#include <string_view>

#include "ohprof/base/error.hpp"
#include "ohprof/trace/lending_streambuf.hpp"

namespace ohprof {

// A std::streambuf over a plain or gzip file. After the stream reports end of input, error() says
// whether the end was real (nullopt) or the file could not be read to its end (truncated gzip data,
// corrupt data, an I/O error): callers must check it before trusting what they parsed.
//
// A gzip file is read and inflated on a second thread into a small ring of chunks (4 x 256 KB) that
// the stream hands out in order, so decompression overlaps parsing and memory stays bounded. The
// thread stops when the reader destroys the buffer, wherever it stopped reading. A small file (one
// that fits in the first 256 KB read), or one where no thread can be started, is inflated the same
// way on the reader's thread. It lends its chunks (lending_streambuf.hpp): the trace reader parses the
// bytes in the ring's slots where they lie. error() and the counters are those of
// the bytes handed out so far: an error the thread met ahead of the reader shows once the reader
// reaches it.
class GzipInputBuffer : public LendingStreambuf {
 public:
  // Errors: file_not_found when the file cannot be opened.
  static Result<std::unique_ptr<GzipInputBuffer>> open(const std::string& path);
  ~GzipInputBuffer() override;
  GzipInputBuffer(const GzipInputBuffer&) = delete;
  GzipInputBuffer& operator=(const GzipInputBuffer&) = delete;

  [[nodiscard]] bool compressed() const { return m_compressed; }
  [[nodiscard]] const std::optional<Error>& error() const { return m_error; }
  [[nodiscard]] std::uint64_t file_bytes_read() const { return m_file_bytes; }
  [[nodiscard]] std::uint64_t bytes_delivered() const { return m_delivered; }
  // True when inflation runs on its own thread (false for plain files, small gzip files, or where
  // no thread could be started); for tests.
  [[nodiscard]] bool inflating_on_a_thread() const;

 protected:
  int_type underflow() override;

 private:
  GzipInputBuffer(std::FILE* file, std::string path);
  bool fill_plain();
  bool fill_inflated();
  void fail(std::string message);

  std::unique_ptr<struct FileChunks> m_input;      // plain files: the file, read in chunks
  std::string m_path;
  bool m_compressed = false;
  std::unique_ptr<class GzipInflater> m_inflater;  // compressed files: owns the file from open() on
  std::uint64_t m_file_bytes = 0;
  std::uint64_t m_delivered = 0;
  std::optional<Error> m_error;
};

// Writes a file, gzip-compressed when `path` ends in ".gz". Nothing appears at `path` until commit()
// succeeds; destroying an uncommitted writer removes its temporary file.
class GzipOutputFile {
 public:
  // Errors: output_error when the temporary file cannot be created.
  static Result<std::unique_ptr<GzipOutputFile>> create(const std::string& path);
  ~GzipOutputFile();
  GzipOutputFile(const GzipOutputFile&) = delete;
  GzipOutputFile& operator=(const GzipOutputFile&) = delete;

  // Appends bytes; errors are remembered and reported by commit().
  void write(std::string_view bytes);
  // Flushes, closes and renames the temporary file over the target.
  Status commit();
  [[nodiscard]] bool compressed() const { return m_compressed; }

 private:
  GzipOutputFile(std::FILE* file, std::string path, std::string temp_path, bool compressed);
  void write_raw(const char* data, std::size_t size);
  void deflate_some(bool finish);

  std::FILE* m_file = nullptr;
  std::string m_path;
  std::string m_temp_path;
  bool m_compressed = false;
  bool m_committed = false;
  std::unique_ptr<struct GzipState> m_gz;
  std::string m_pending;  // uncompressed bytes not yet handed to zlib
  std::unique_ptr<char[]> m_out;
  std::optional<std::string> m_error;
};

// True when `path` names a gzip file (".gz" suffix); used to choose how to write.
bool has_gzip_suffix(std::string_view path);

}  // namespace ohprof
