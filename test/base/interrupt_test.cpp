#include "ohprof/base/interrupt.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <unistd.h>

namespace ohprof {
namespace {

// The flag the measurement loop polls.
TEST(Interrupt, RequestAndClearForTests) {
  clear_interrupt();
  EXPECT_FALSE(interrupt_requested());
  request_interrupt();
  EXPECT_TRUE(interrupt_requested());
  request_interrupt();  // idempotent
  EXPECT_TRUE(interrupt_requested());
  clear_interrupt();
  EXPECT_FALSE(interrupt_requested());
}

// The signal tests run in a child process (death tests), so the test process keeps its own handlers.
// Each child exits 0 when it survived with the flag set, 1 or 2 otherwise.

TEST(InterruptDeathTest, FirstCtrlCAsksToStopAndTheProcessGoesOn) {
  EXPECT_EXIT(
      {
        clear_interrupt();
        install_interrupt_handler();
        if (interrupt_requested()) _exit(1);
        raise(SIGINT);  // delivered before raise returns (one thread)
        _exit(interrupt_requested() ? 0 : 2);
      },
      ::testing::ExitedWithCode(0),
      "ohprof: interrupted; finishing the current iteration and writing what was measured \\(Ctrl-C again to abort\\)");
}

TEST(InterruptDeathTest, SecondCtrlCEndsTheProcessWithExitCode130) {
  EXPECT_EXIT(
      {
        clear_interrupt();
        install_interrupt_handler();
        raise(SIGINT);
        raise(SIGINT);
        _exit(0);  // not reached
      },
      ::testing::ExitedWithCode(130), "interrupted");
}

TEST(InterruptDeathTest, ACtrlCAfterARequestedInterruptEndsTheProcess) {
  // request_interrupt() counts as the first one
  EXPECT_EXIT(
      {
        clear_interrupt();
        install_interrupt_handler();
        request_interrupt();
        raise(SIGINT);
        _exit(0);
      },
      ::testing::ExitedWithCode(130), "");
}

TEST(InterruptDeathTest, SigtermIsHandledLikeCtrlC) {
  // a job scheduler's SIGTERM also lets the run write what it measured
  EXPECT_EXIT(
      {
        clear_interrupt();
        install_interrupt_handler();
        raise(SIGTERM);
        if (!interrupt_requested()) _exit(2);
        raise(SIGTERM);
        _exit(0);
      },
      ::testing::ExitedWithCode(130), "interrupted");
}

}  // namespace
}  // namespace ohprof
