#pragma once
// What a command tells the user on stderr besides its result: progress lines and warnings, each one
// line prefixed "ohprof <command>: " (warnings "ohprof <command>: warning: "). Results go to stdout;
// errors are printed once by main(). Backed by spdlog (a stderr sink; --quiet raises the level so
// that only warnings remain).
#include <string>
#include <string_view>

namespace ohprof::console {

// Call once when a command starts.
void start(std::string_view command, bool quiet);
// Progress lines are prefixed with "[text] " while a context is set (`sweep`: which point, time left);
// "" clears it.
void set_context(std::string_view text);
void progress(std::string_view message);
void warning(std::string_view message);

}  // namespace ohprof::console
