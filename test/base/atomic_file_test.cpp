#include "ohprof/base/atomic_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace ohprof {
namespace {

std::string read_all(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::stringstream buffer;
  buffer << file.rdbuf();
  return buffer.str();
}

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() /
            ("ohprof-atomic-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(m_dir);
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }
  std::filesystem::path m_dir;
};

TEST_F(AtomicFileTest, WritesAndReplacesWithoutLeavingTemporaries) {
  const auto target = m_dir / "report.json";
  ASSERT_TRUE(write_file_atomically(target.string(), "first").ok());
  ASSERT_TRUE(write_file_atomically(target.string(), "second").ok());
  EXPECT_EQ(read_all(target), "second");
  int files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(m_dir)) ++files;
  EXPECT_EQ(files, 1);
}

TEST_F(AtomicFileTest, MissingFolderIsAnOutputErrorAndKeepsNothingHalfWritten) {
  const auto target = m_dir / "no-such-folder" / "report.json";
  Status status = write_file_atomically(target.string(), "data");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::output_error);
  EXPECT_NE(status.error().message.find("no-such-folder"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(target));
}

}  // namespace
}  // namespace ohprof
