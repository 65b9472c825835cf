#include "ohprof/base/error.hpp"

namespace ohprof {

Error Error::with_context(const std::string& context) const {
  return Error{code, context + ": " + message};
}

Error make_error(ExitCode code, std::string message) { return Error{code, std::move(message)}; }

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > 300) line = line.substr(0, 300) + "...";
  return line;
}

}  // namespace ohprof
