// run_child: a process started, waited for and timed (harness/child_process.hpp).
#include "ohprof/harness/child_process.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "ohprof/base/clock.hpp"
#include "ohprof/base/interrupt.hpp"

namespace ohprof {
namespace {

std::string temp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("ohprof-child-" + std::to_string(::getpid()) + "-" + name)).string();
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(RunChild, ItsExitStatusOutputAndEnvironmentOverrides) {
  const std::string log = temp_file("env.log");
  ChildLaunch launch;
  launch.argv = {"/bin/sh", "-c", "echo out $OHPROF_CHILD_TEST; echo err >&2; exit 3"};
  launch.env = {{"OHPROF_CHILD_TEST", "given"}};
  launch.log_path = log;
  auto exit = run_child(launch, monotonic_now_ns);
  ASSERT_TRUE(exit.ok()) << exit.error().message;
  EXPECT_EQ(exit->exit_code, 3);
  EXPECT_GT(exit->pid, 0);
  EXPECT_LE(exit->spawn_ns, exit->end_ns);
  EXPECT_FALSE(exit->interrupted);
  EXPECT_FALSE(exit->timed_out);
  EXPECT_EQ(read_all(log), "out given\nerr\n");
  EXPECT_EQ(last_line_of(log), "err");
  std::filesystem::remove(log);
}

TEST(RunChild, TheParentsEnvironmentReachesTheChild) {
  const std::string log = temp_file("inherit.log");
  ::setenv("OHPROF_CHILD_INHERITED", "kept", 1);
  auto exit = run_child(ChildLaunch{{"/bin/sh", "-c", "echo $OHPROF_CHILD_INHERITED"}, {}, log, 0}, monotonic_now_ns);
  ASSERT_TRUE(exit.ok());
  EXPECT_EQ(exit->exit_code, 0);
  EXPECT_EQ(read_all(log), "kept\n");
  ::unsetenv("OHPROF_CHILD_INHERITED");
  std::filesystem::remove(log);
}

TEST(RunChild, AChildStampsTheParentsClock) {
  // CLOCK_MONOTONIC is the machine's: a timestamp the child takes lies between the parent's spawn and end.
  const std::string log = temp_file("clock.log");
  auto exit = run_child(ChildLaunch{{"python3", "-c", "import time; print(time.monotonic_ns())"}, {}, log, 0},
                        monotonic_now_ns);
  if (!exit.ok()) GTEST_SKIP() << "no python3 here: " << exit.error().message;
  const std::int64_t stamped = std::stoll(read_all(log));
  EXPECT_LT(exit->spawn_ns, stamped);
  EXPECT_LT(stamped, exit->end_ns);
  std::filesystem::remove(log);
}

TEST(RunChild, AMissingProgramIsAnErrorAndATimeLimitKillsTheChild) {
  auto missing = run_child(ChildLaunch{{"/nonexistent/ohprof-child"}, {}, temp_file("missing.log"), 0}, monotonic_now_ns);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot start '/nonexistent/ohprof-child'"), std::string::npos);
  std::filesystem::remove(temp_file("missing.log"));

  const std::string log = temp_file("slow.log");
  auto slow = run_child(ChildLaunch{{"/bin/sh", "-c", "sleep 30"}, {}, log, 0.2}, monotonic_now_ns);
  ASSERT_TRUE(slow.ok());
  EXPECT_TRUE(slow->timed_out);
  EXPECT_EQ(slow->exit_code, 128 + 9);  // SIGKILL
  EXPECT_LT(slow->end_ns - slow->spawn_ns, 20'000'000'000);
  std::filesystem::remove(log);
}

TEST(RunChild, CtrlCStopsTheChild) {
  clear_interrupt();
  const std::string log = temp_file("interrupt.log");
  std::thread press([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    request_interrupt();
  });
  auto exit = run_child(ChildLaunch{{"/bin/sh", "-c", "sleep 30"}, {}, log, 0}, monotonic_now_ns);
  press.join();
  clear_interrupt();
  ASSERT_TRUE(exit.ok());
  EXPECT_TRUE(exit->interrupted);
  EXPECT_LT(exit->end_ns - exit->spawn_ns, 20'000'000'000);
  std::filesystem::remove(log);
}

TEST(LastLineOf, TheLastNonEmptyLineCut) {
  const std::string path = temp_file("lines.txt");
  std::ofstream(path) << "first\nTraceback\nValueError: bad\n\n   \n";
  EXPECT_EQ(last_line_of(path), "ValueError: bad");
  EXPECT_EQ(last_line_of(path, 5), "Value…");
  EXPECT_EQ(last_line_of(temp_file("absent.txt")), "");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace ohprof
