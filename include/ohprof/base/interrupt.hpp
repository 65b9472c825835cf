#pragma once
// SIGINT handling: the first Ctrl-C asks the measurement loop to stop after the current iteration so
// that what was measured is still reported; a second one ends the process at once.

namespace ohprof {

void install_interrupt_handler();
bool interrupt_requested();
void request_interrupt();  // for tests
void clear_interrupt();    // a new command in the same process (the Python API), and tests

}  // namespace ohprof
