#pragma once
// Errors are values at module boundaries: functions that can fail return Result<T>;
// main() reports the error once and exits with its documented code.
#include <string>
#include <utility>
#include <variant>

#include "ohprof/base/exit_codes.hpp"

namespace ohprof {

struct Error {
  ExitCode code = ExitCode::internal_error;
  std::string message;  // one line: what was wrong and what to do

  // Prefix context ("loading AOTI package 'x.pt2': " + message).
  [[nodiscard]] Error with_context(const std::string& context) const;
};

Error make_error(ExitCode code, std::string message);

// The first line of a vendor exception's text (LibTorch and Python append backtraces), at most 300
// characters, so an Error built from it stays one line.
std::string first_line(const std::string& text);

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : m_state(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  Result(Error error) : m_state(std::move(error)) {}     // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool ok() const { return std::holds_alternative<T>(m_state); }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<T>(m_state); }
  const T& value() const& { return std::get<T>(m_state); }
  T&& value() && { return std::get<T>(std::move(m_state)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  [[nodiscard]] const Error& error() const { return std::get<Error>(m_state); }

 private:
  std::variant<T, Error> m_state;
};

// Result<void>: success or an error.
struct Ok {};
using Status = Result<Ok>;
inline Status ok_status() { return Ok{}; }

}  // namespace ohprof
