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

// The Result plumbing, as perfetto's RETURN_IF_ERROR and ASSIGN_OR_RETURN (docs/architecture.md, "Errors"):
//   OHPROF_RETURN_IF_ERROR(write_report(...));          // a Status or Result: its error is returned
//   OHPROF_ASSIGN_OR_RETURN(auto spec, parse_input_spec(text));  // spec is the value, or the error is returned
// Only for the plain "return its error"; an error that gains context or another return type is written out.
#define OHPROF_RETURN_IF_ERROR(expr)                              \
  do {                                                             \
    if (auto&& ohprof_result_ = (expr); !ohprof_result_.ok()) {    \
      return ohprof_result_.error();                               \
    }                                                              \
  } while (false)
#define OHPROF_CONCAT_INNER_(a, b) a##b
#define OHPROF_CONCAT_(a, b) OHPROF_CONCAT_INNER_(a, b)
#define OHPROF_ASSIGN_OR_RETURN(lhs, expr) OHPROF_ASSIGN_OR_RETURN_IMPL_(OHPROF_CONCAT_(ohprof_result_, __LINE__), lhs, expr)
#define OHPROF_ASSIGN_OR_RETURN_IMPL_(result, lhs, expr) \
  auto result = (expr);                                  \
  if (!result.ok()) return result.error();               \
  lhs = std::move(result).value()

}  // namespace ohprof
