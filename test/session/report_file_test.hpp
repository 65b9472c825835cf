#pragma once
// A test whose command writes a report file: a folder of its own for each test (removed after it), the
// report's path in it, and what the file holds now (test/session/checkpoint_test.cpp, timing_pass_test.cpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ohprof::testing {

class ReportFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() /
            ("ohprof-report-file-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(m_dir);
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }

  [[nodiscard]] std::string report_path() const { return (m_dir / "report.json").string(); }
  // The file's text now ("" when it does not exist).
  [[nodiscard]] std::string file_text() const {
    std::ifstream file(report_path());
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
  }

  std::filesystem::path m_dir;
};

}  // namespace ohprof::testing
