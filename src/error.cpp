#include "ohprof/error.hpp"

namespace ohprof {

Error Error::with_context(const std::string& context) const {
  return Error{code, context + ": " + message};
}

Error make_error(ExitCode code, std::string message) { return Error{code, std::move(message)}; }

}  // namespace ohprof
