// Plain/gzip stream reading and atomic plain/gzip writing, checked against zlib's own gz* API.
#include "ohprof/trace/gzip_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

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
