#include "ohprof/base/interrupt.hpp"

#include <atomic>
#include <csignal>
#include <unistd.h>

namespace ohprof {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_sigint(int /*signal*/) {
  if (g_interrupted.exchange(true)) {
    _exit(130);  // second Ctrl-C: stop now
  }
  static const char kMessage[] = "\nohprof: interrupted; finishing the current iteration and writing what was measured (Ctrl-C again to abort)\n";
  [[maybe_unused]] auto written = write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
}

}  // namespace

void install_interrupt_handler() {
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool interrupt_requested() { return g_interrupted.load(std::memory_order_relaxed); }
void request_interrupt() { g_interrupted.store(true); }
void clear_interrupt() { g_interrupted.store(false); }

}  // namespace ohprof
