#include "ohprof/base/console.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace ohprof {
namespace {

using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

// Everything the console printed while `body` ran (stderr, captured at the file descriptor).
template <typename Body>
std::string stderr_of(Body body) {
  CaptureStderr();
  body();
  return GetCapturedStderr();
}

TEST(Console, ProgressIsOneLinePrefixedWithTheCommand) {
  console::start("run", false);
  EXPECT_EQ(stderr_of([] { console::progress("loading model.pt2"); }), "ohprof run: loading model.pt2\n");
}

TEST(Console, WarningsSayWarning) {
  console::start("analyze", false);
  EXPECT_EQ(stderr_of([] { console::warning("3 events dropped"); }), "ohprof analyze: warning: 3 events dropped\n");
}

TEST(Console, QuietKeepsWarningsOnly) {
  console::start("compare", true);
  EXPECT_EQ(stderr_of([] {
              console::progress("measuring");
              console::warning("no GPU");
              console::progress("done");
            }),
            "ohprof compare: warning: no GPU\n");
}

TEST(Console, ProgressAndWarningsKeepTheirOrder) {
  console::start("run", false);
  EXPECT_EQ(stderr_of([] {
              console::progress("first");
              console::warning("second");
              console::progress("third");
            }),
            "ohprof run: first\nohprof run: warning: second\nohprof run: third\n");
}

TEST(Console, StartingAgainReplacesTheCommandAndLevel) {
  console::start("run", true);
  console::start("compare", false);
  EXPECT_EQ(stderr_of([] { console::progress("x"); }), "ohprof compare: x\n");
}

TEST(Console, NoCommandMeansPlainOhprofPrefix) {
  console::start("", false);
  EXPECT_EQ(stderr_of([] { console::warning("w"); }), "ohprof: warning: w\n");
}

TEST(Console, MessagesArePrintedAsGivenNotAsFormatStrings) {
  // a kernel or file name may contain braces or percent signs
  console::start("run", false);
  EXPECT_EQ(stderr_of([] {
              console::progress("kernel void f<{}>(int) 100% {0}");
              console::warning("{:>10}");
            }),
            "ohprof run: kernel void f<{}>(int) 100% {0}\nohprof run: warning: {:>10}\n");
}

// A library function may warn before any command started the console: it still prints, with the plain
// prefix. Run in a fresh process (threadsafe death-test style re-executes the test binary), where
// start() was never called.
TEST(ConsoleDeathTest, WorksBeforeStart) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        console::progress("early");
        console::warning("earlier");
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "^ohprof: early\nohprof: warning: earlier\n$");
}

}  // namespace
}  // namespace ohprof
