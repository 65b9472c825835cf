// Plain/gzip stream reading and atomic plain/gzip writing, checked against zlib's own gz* API and
// `gzip -dc`; the inflating thread's end, errors and early stops.
#include "ohprof/trace/gzip_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "ohprof/trace/kineto_reader.hpp"

namespace ohprof {
namespace {

std::string temp_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("ohprof-gzip-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

std::string zlib_gzip(const std::string& path, const std::string& text) {
  gzFile file = gzopen(path.c_str(), "wb");
  EXPECT_NE(file, nullptr);
  EXPECT_EQ(gzwrite(file, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
  EXPECT_EQ(gzclose(file), Z_OK);
  return read_bytes(path);
}

std::string zlib_gunzip(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  EXPECT_NE(file, nullptr);
  std::string out;
  char buffer[65536];
  int n = 0;
  while ((n = gzread(file, buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<std::size_t>(n));
  EXPECT_EQ(n, 0);
  gzclose(file);
  return out;
}

// Reads everything through the stream buffer; returns the text and the buffer's verdict.
std::pair<std::string, std::optional<Error>> drain(const std::string& path) {
  auto buffer = GzipInputBuffer::open(path);
  EXPECT_TRUE(buffer.ok());
  if (!buffer.ok()) return {};
  std::string text((std::istreambuf_iterator<char>(buffer->get())), std::istreambuf_iterator<char>());
  return {text, (*buffer)->error()};
}

std::string pseudo_random_text(std::size_t size) {
  std::mt19937 rng(7);
  std::string text;
  text.reserve(size);
  const std::string words[] = {"kernel", "\"ts\": ", "1234.567", ", ", "cudaLaunchKernel", "\n", "{", "}"};
  while (text.size() < size) text += words[rng() % 8];
  return text;
}

TEST(GzipInputBuffer, PlainFileIsReadAsIs) {
  const std::string text = pseudo_random_text(1'000'000);
  const std::string path = temp_path("plain.txt");
  write_bytes(path, text);
  auto [read, error] = drain(path);
  EXPECT_FALSE(error.has_value());
  EXPECT_EQ(read, text);
}

TEST(GzipInputBuffer, GzipFileIsDecompressed) {
  const std::string text = pseudo_random_text(3'000'000);
  const std::string path = temp_path("data.gz");
  zlib_gzip(path, text);
  auto buffer = GzipInputBuffer::open(path);
  ASSERT_TRUE(buffer.ok());
  const std::string read((std::istreambuf_iterator<char>(buffer->get())), std::istreambuf_iterator<char>());
  EXPECT_TRUE((*buffer)->compressed());
  EXPECT_FALSE((*buffer)->error().has_value());
  EXPECT_EQ(read, text);
  EXPECT_EQ((*buffer)->bytes_delivered(), text.size());
  EXPECT_EQ((*buffer)->file_bytes_read(), std::filesystem::file_size(path));
}

TEST(GzipInputBuffer, ConcatenatedMembersAreOneStream) {
  const std::string a = temp_path("a.gz");
  const std::string b = temp_path("b.gz");
  const std::string both = temp_path("both.gz");
  write_bytes(both, zlib_gzip(a, "first half, ") + zlib_gzip(b, "second half"));
  auto [read, error] = drain(both);
  EXPECT_FALSE(error.has_value());
  EXPECT_EQ(read, "first half, second half");
}

TEST(GzipInputBuffer, TruncatedGzipReportsAnError) {
  const std::string whole = zlib_gzip(temp_path("whole.gz"), pseudo_random_text(200'000));
  const std::string path = temp_path("cut.gz");
  write_bytes(path, whole.substr(0, whole.size() - 1));  // only the length trailer is incomplete
  auto [read, error] = drain(path);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, ExitCode::invalid_trace);
  EXPECT_NE(error->message.find("truncated"), std::string::npos) << error->message;
}

TEST(GzipInputBuffer, GarbageAfterTheStreamReportsAnError) {
  const std::string path = temp_path("garbage.gz");
  write_bytes(path, zlib_gzip(temp_path("g.gz"), "payload") + "garbage");
  auto [read, error] = drain(path);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->message.find("after the end of the gzip stream"), std::string::npos) << error->message;
}

TEST(GzipInputBuffer, MissingFileIsFileNotFound) {
  auto buffer = GzipInputBuffer::open("/nonexistent/x.gz");
  ASSERT_FALSE(buffer.ok());
  EXPECT_EQ(buffer.error().code, ExitCode::file_not_found);
}

// ---- the inflating thread -----------------------------------------------------------------

std::string real_trace(const std::string& file) {
  const char* env = std::getenv("OHPROF_TRACES_DIR");
  return (std::filesystem::path(env != nullptr && *env != '\0' ? env : OHPROF_TRACES_DIR) / file).string();
}

// What `gzip -dc PATH` writes; nullopt when gzip cannot be run here.
std::optional<std::string> gzip_dc(const std::string& path) {
  std::FILE* pipe = ::popen(("gzip -dc '" + path + "' 2>/dev/null").c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char chunk[65536];
  std::size_t n = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0) out.append(chunk, n);
  if (::pclose(pipe) != 0) return std::nullopt;
  return out;
}

// Runs `body`; ends the test program if it has not returned within `seconds` (a hang, not a failure
// that the remaining tests could survive).
void within_seconds(int seconds, const std::function<void()>& body) {
  std::atomic<bool> done{false};
  std::thread watchdog([&done, seconds] {
    for (int i = 0; i < seconds * 100 && !done.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!done.load()) {
      std::cerr << "hung for " << seconds << " s\n";
      std::_Exit(3);
    }
  });
  body();
  done = true;
  watchdog.join();
}

TEST(GzipInputBuffer, RealTraceReadsAsGzipDcWritesIt) {
  const std::string path = real_trace("queue_full_training.json.gz");
  const auto expected = gzip_dc(path);
  if (!expected) GTEST_SKIP() << "gzip -dc could not run";
  auto buffer = GzipInputBuffer::open(path);
  ASSERT_TRUE(buffer.ok());
  EXPECT_TRUE((*buffer)->inflating_on_a_thread());
  // Odd read sizes, so that reads straddle the ring's chunks.
  std::string read;
  std::vector<char> chunk(100'003);
  std::streamsize got = 0;
  std::size_t turn = 0;
  while ((got = (*buffer)->sgetn(chunk.data(), static_cast<std::streamsize>(1 + (turn++ * 7919) % chunk.size()))) > 0) {
    read.append(chunk.data(), static_cast<std::size_t>(got));
  }
  EXPECT_FALSE((*buffer)->error().has_value());
  EXPECT_EQ(read.size(), expected->size());
  EXPECT_TRUE(read == *expected);
  EXPECT_EQ((*buffer)->bytes_delivered(), expected->size());
  EXPECT_EQ((*buffer)->file_bytes_read(), std::filesystem::file_size(path));
}

TEST(GzipInputBuffer, TruncatedInTheMiddleGivesThePrefixThenTheError) {
  const std::string text = pseudo_random_text(12'000'000);
  const std::string whole = zlib_gzip(temp_path("big.gz"), text);
  const std::string path = temp_path("cut-middle.gz");
  write_bytes(path, whole.substr(0, whole.size() / 2));
  auto [read, error] = drain(path);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, ExitCode::invalid_trace);
  EXPECT_NE(error->message.find("gzip data ends early after"), std::string::npos) << error->message;
  EXPECT_NE(error->message.find("truncated"), std::string::npos) << error->message;
  EXPECT_GT(read.size(), 0U);
  EXPECT_LT(read.size(), text.size());
  EXPECT_TRUE(text.compare(0, read.size(), read) == 0) << "the bytes before the cut differ";
}

TEST(GzipInputBuffer, CorruptDataReportsAnError) {
  std::string bytes = zlib_gzip(temp_path("to-corrupt.gz"), pseudo_random_text(3'000'000));
  for (std::size_t i = bytes.size() / 3; i < bytes.size() / 3 + 64; ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
  const std::string path = temp_path("corrupt.gz");
  write_bytes(path, bytes);
  auto [read, error] = drain(path);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, ExitCode::invalid_trace);
  EXPECT_NE(error->message.find("corrupt gzip data near byte"), std::string::npos) << error->message;
}

TEST(GzipInputBuffer, CorruptChecksumReportsAnError) {
  std::string bytes = zlib_gzip(temp_path("crc.gz"), pseudo_random_text(3'000'000));
  bytes[bytes.size() - 6] = static_cast<char>(bytes[bytes.size() - 6] ^ 1);  // in the CRC-32 trailer
  const std::string path = temp_path("bad-crc.gz");
  write_bytes(path, bytes);
  auto [read, error] = drain(path);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->message.find("corrupt gzip data"), std::string::npos) << error->message;
}

TEST(GzipInputBuffer, StoppingEarlyDoesNotHang) {
  const std::string path = real_trace("queue_full_training.json.gz");
  within_seconds(20, [&] {
    for (const std::size_t stop_after : {std::size_t{0}, std::size_t{1}, std::size_t{300'000}, std::size_t{5'000'000}}) {
      auto buffer = GzipInputBuffer::open(path);
      ASSERT_TRUE(buffer.ok());
      std::vector<char> chunk(stop_after + 1);
      if (stop_after > 0) {
        EXPECT_EQ((*buffer)->sgetn(chunk.data(), static_cast<std::streamsize>(stop_after)),
                  static_cast<std::streamsize>(stop_after));
      }
      // Let the thread fill the ring and wait for a free chunk, then go away.
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
}

TEST(GzipInputBuffer, ReaderErrorMidFileDoesNotHang) {
  // Valid JSON for a while, then a syntax error, then megabytes the reader never reads.
  std::string text = R"({"traceEvents": [)";
  for (int i = 0; i < 2000; ++i) text += R"({"ph": "X", "name": "k", "ts": 1, "dur": 1},)";
  text += "}}} not json ";
  text += pseudo_random_text(20'000'000);
  const std::string path = temp_path("bad-json.json.gz");
  zlib_gzip(path, text);
  within_seconds(20, [&] {
    auto trace = read_kineto_trace(path);
    ASSERT_FALSE(trace.ok());
    EXPECT_EQ(trace.error().code, ExitCode::invalid_trace);
  });
}

TEST(GzipInputBuffer, EmptyGzipMemberIsEmpty) {
  const std::string path = temp_path("empty.gz");
  zlib_gzip(path, "");
  auto [read, error] = drain(path);
  EXPECT_FALSE(error.has_value());
  EXPECT_EQ(read, "");
}

TEST(GzipInputBuffer, SmallGzipFilesAreInflatedWithoutAThreadAndLargeOnesWithOne) {
  const std::string small = temp_path("small.gz");
  zlib_gzip(small, pseudo_random_text(100'000));
  ASSERT_LT(std::filesystem::file_size(small), 256U * 1024U);
  auto buffer = GzipInputBuffer::open(small);
  ASSERT_TRUE(buffer.ok());
  EXPECT_FALSE((*buffer)->inflating_on_a_thread());
  // The files the error tests above cut or corrupt are read through the thread.
  const std::string large = temp_path("large.gz");
  zlib_gzip(large, pseudo_random_text(3'000'000));
  ASSERT_GT(std::filesystem::file_size(large), 256U * 1024U);
  auto threaded = GzipInputBuffer::open(large);
  ASSERT_TRUE(threaded.ok());
  EXPECT_TRUE((*threaded)->inflating_on_a_thread());
}

TEST(GzipInputBuffer, AtTheEndTheCompressedBytesReadAreTheFileSizeWithOrWithoutAThread) {
  // The report's trace.file_bytes: once a small file (inflated inline) was 0 after its last read.
  const std::string small = temp_path("size-small.gz");
  zlib_gzip(small, pseudo_random_text(10'000));
  const std::string large = temp_path("size-large.gz");
  zlib_gzip(large, pseudo_random_text(3'000'000));
  for (const std::string& path : {small, large}) {
    auto buffer = GzipInputBuffer::open(path);
    ASSERT_TRUE(buffer.ok());
    std::vector<char> chunk(65'536);
    while ((*buffer)->sgetn(chunk.data(), static_cast<std::streamsize>(chunk.size())) > 0) {
    }
    EXPECT_FALSE((*buffer)->error().has_value());
    EXPECT_EQ((*buffer)->file_bytes_read(), std::filesystem::file_size(path)) << path;
    // Reading past the end again changes nothing.
    EXPECT_EQ((*buffer)->sgetc(), std::char_traits<char>::eof());
    EXPECT_EQ((*buffer)->file_bytes_read(), std::filesystem::file_size(path)) << path;
  }
}

TEST(GzipInputBuffer, PlainFilesNeedNoThread) {
  const std::string path = temp_path("plain-nothread.json");
  write_bytes(path, "{}");
  auto buffer = GzipInputBuffer::open(path);
  ASSERT_TRUE(buffer.ok());
  EXPECT_FALSE((*buffer)->compressed());
  EXPECT_FALSE((*buffer)->inflating_on_a_thread());
}

TEST(GzipOutputFile, GzipSuffixCompressesAndZlibReadsItBack) {
  const std::string path = temp_path("out.json.gz");
  const std::string text = pseudo_random_text(2'000'000);
  auto out = GzipOutputFile::create(path);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE((*out)->compressed());
  for (std::size_t pos = 0; pos < text.size(); pos += 70'001) (*out)->write(std::string_view(text).substr(pos, 70'001));
  ASSERT_TRUE((*out)->commit().ok());
  EXPECT_EQ(read_bytes(path).substr(0, 2), "\x1f\x8b");
  EXPECT_EQ(zlib_gunzip(path), text);
}

TEST(GzipOutputFile, PlainNameWritesPlainText) {
  const std::string path = temp_path("out.json");
  auto out = GzipOutputFile::create(path);
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE((*out)->compressed());
  (*out)->write("hello ");
  (*out)->write("world");
  ASSERT_TRUE((*out)->commit().ok());
  EXPECT_EQ(read_bytes(path), "hello world");
}

TEST(GzipOutputFile, NothingAppearsWithoutCommit) {
  const std::string path = temp_path("never.json");
  std::filesystem::remove(path);
  {
    auto out = GzipOutputFile::create(path);
    ASSERT_TRUE(out.ok());
    (*out)->write("partial");
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path())) {
    EXPECT_EQ(entry.path().filename().string().find(".never.json."), std::string::npos) << "temporary file left behind";
  }
}

TEST(GzipOutputFile, UnwritableFolderIsAnOutputError) {
  auto out = GzipOutputFile::create("/nonexistent/folder/out.json.gz");
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, ExitCode::output_error);
}

}  // namespace
}  // namespace ohprof
