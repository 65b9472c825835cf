#pragma once
// What the output layer's JSON readers (each report kind's from_json) share; private to src/output.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ohprof/base/enum_text.hpp"
#include "ohprof/output/json_report.hpp"

namespace ohprof {

// While an UnknownTextScope lives on this thread, a text that is none of ohprof's (a later ohprof's enum
// value, warning code or stop reason) is recorded in its list and read as its field's default, instead of
// throwing (report_from_json's `unknown`; docs/report-schema.md, "How reports are read back").
class UnknownTextScope {
 public:
  explicit UnknownTextScope(std::vector<UnknownText>* sink) : m_previous(current()) { current() = sink; }
  ~UnknownTextScope() { current() = m_previous; }
  UnknownTextScope(const UnknownTextScope&) = delete;
  UnknownTextScope& operator=(const UnknownTextScope&) = delete;

  // Whether `text` under `key` may be read as its default: true, and recorded under its place (the
  // UnknownTextPlace segments around it, then `key`: "paths[aoti].split.verdict.verdict"), inside a scope
  // with a list.
  static bool tolerate(const char* key, const std::string& text) {
    if (current() == nullptr) return false;
    std::string where;
    for (const std::string& segment : places()) where += segment + ".";
    current()->push_back(UnknownText{where + key, text});
    return true;
  }
  // A scope in which every text must be known (the fields that say what was measured).
  static UnknownTextScope strict() { return UnknownTextScope(nullptr); }

 private:
  friend class UnknownTextPlace;
  static std::vector<UnknownText>*& current() {
    static thread_local std::vector<UnknownText>* sink = nullptr;
    return sink;
  }
  static std::vector<std::string>& places() {
    static thread_local std::vector<std::string> segments;
    return segments;
  }
  std::vector<UnknownText>* m_previous;
};

// While it lives, the texts UnknownTextScope records are under `segment` ("paths[aoti]", "split"): the
// readers name each object and list element they enter, so an unknown text says where it was.
class UnknownTextPlace {
 public:
  explicit UnknownTextPlace(std::string segment) { UnknownTextScope::places().push_back(std::move(segment)); }
  ~UnknownTextPlace() { UnknownTextScope::places().pop_back(); }
  UnknownTextPlace(const UnknownTextPlace&) = delete;
  UnknownTextPlace& operator=(const UnknownTextPlace&) = delete;
};

// The E whose to_string is `j`'s text (parse_enum); otherwise std::runtime_error, "<what> 'x' is none of
// a, b, c" with E's names. Throws nlohmann's type error when `j` is not a string.
template <typename E>
E enum_from_json(const nlohmann::json& j, const char* what) {
  const std::string text = j.get<std::string>();
  if (const std::optional<E> value = parse_enum<E>(text)) return *value;
  std::string names;
  if constexpr (TextTableEnum<E>) {
    for (const char* name : enum_texts(E{})) names += (names.empty() ? "" : ", ") + std::string(name);
  } else {
    for (int i = 0; i < kMaxEnumValues; ++i) {
      const std::string name = to_string(static_cast<E>(i));
      if (parse_enum<E>(name) != static_cast<E>(i)) break;  // past the last value: a name met before
      names += (names.empty() ? "" : ", ") + name;
    }
  }
  throw std::runtime_error(fmt::format("{} '{}' is none of {}", what, text, names));
}

// `j`'s E, or none when its text is unknown and an UnknownTextScope tolerates it (recorded there);
// otherwise as enum_from_json.
template <typename E>
std::optional<E> known_enum_from_json(const nlohmann::json& j, const char* what) {
  if (j.is_string()) {
    const std::string text = j.get<std::string>();
    if (const std::optional<E> value = parse_enum<E>(text)) return value;
    if (UnknownTextScope::tolerate(what, text)) return std::nullopt;
  }
  return enum_from_json<E>(j, what);
}

// A number the writer may have written as null, as nlohmann writes NaN and infinity: `if_null` is what
// null stands for there (infinity for a limit such as --time-limit inf; NaN for a figure that could not
// be computed).
inline constexpr double kNullIsInfinity = std::numeric_limits<double>::infinity();
inline double number_at(const nlohmann::json& j, const char* key,
                        double if_null = std::numeric_limits<double>::quiet_NaN()) {
  const nlohmann::json& value = j.at(key);
  return value.is_null() ? if_null : value.get<double>();
}

// The optional number under `key` of `j`: none when absent or null.
inline std::optional<double> optional_number_at(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<double>();
}
inline std::optional<std::int64_t> optional_integer_at(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<std::int64_t>();
}

}  // namespace ohprof
