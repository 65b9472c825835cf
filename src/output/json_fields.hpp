#pragma once
// A plain struct's JSON keys, written once for its writer and its reader (docs/report-schema.md, "How
// reports are read back"): a list of (key, member) pairs that write_fields turns into the object's keys
// and read_fields reads back. Private to src/output.
//
// How a member's value is written and read: an enum as its text (to_string; read by enum_from_json), an
// optional as its value or null, anything else as nlohmann writes it. Reading, a key that is absent (a
// report written before the key existed) or null leaves the member's default; a double written as null
// (NaN, as nlohmann writes it) reads as NaN; a value of the wrong type throws.
#include <nlohmann/json.hpp>

#include <limits>
#include <stdexcept>
#include <string>
#include <optional>
#include <tuple>
#include <type_traits>

#include "json_read.hpp"

namespace ohprof::json_fields {

template <typename S, typename T>
struct Field {
  const char* key;
  T S::*member;
};
template <typename S, typename T>
constexpr Field<S, T> field(const char* key, T S::*member) {
  return {key, member};
}

template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};

template <typename T>
nlohmann::json value_to_json(const T& value) {
  if constexpr (is_optional<T>::value) {
    return value ? value_to_json(*value) : nlohmann::json(nullptr);
  } else if constexpr (std::is_enum_v<T>) {
    return to_string(value);
  } else {
    return nlohmann::json(value);
  }
}

// `j` as a T: none only for an enum text that an UnknownTextScope tolerates (json_read.hpp).
template <typename T>
std::optional<T> value_from_json(const nlohmann::json& j, const char* key) {
  if constexpr (std::is_enum_v<T>) {
    return known_enum_from_json<T>(j, key);
  } else {
    return j.get<T>();
  }
}

// `j[key]` into `out` (the rules above). A value of the wrong type throws std::runtime_error naming the
// key: "'load_ns': type must be number, but is string".
template <typename T>
void read_value(const nlohmann::json& j, const char* key, T& out) {
  const auto it = j.find(key);
  try {
    if constexpr (is_optional<T>::value) {
      out = (it == j.end() || it->is_null()) ? std::nullopt : value_from_json<typename T::value_type>(*it, key);
    } else if constexpr (std::is_same_v<T, double>) {
      if (it != j.end()) out = it->is_null() ? std::numeric_limits<double>::quiet_NaN() : it->template get<double>();
    } else {
      if (it != j.end() && !it->is_null()) {
        if (std::optional<T> value = value_from_json<T>(*it, key)) out = std::move(*value);
      }
    }
  } catch (const nlohmann::json::type_error& e) {
    const std::string what = e.what();  // "[json.exception.type_error.302] type must be ..."
    throw std::runtime_error(fmt::format("'{}': {}", key, what.substr(what.find(']') + 2)));
  }
}

template <typename S, typename... F>
void write_fields(nlohmann::json& j, const S& s, const std::tuple<F...>& fields) {
  std::apply([&](const auto&... f) { ((j[f.key] = value_to_json(s.*(f.member))), ...); }, fields);
}
template <typename S, typename... F>
nlohmann::json fields_to_json(const S& s, const std::tuple<F...>& fields) {
  nlohmann::json j = nlohmann::json::object();
  write_fields(j, s, fields);
  return j;
}
template <typename S, typename... F>
void read_fields(const nlohmann::json& j, S& s, const std::tuple<F...>& fields) {
  if (!j.is_object()) throw std::runtime_error(fmt::format("type must be object, but is {}", j.type_name()));
  std::apply([&](const auto&... f) { (read_value(j, f.key, s.*(f.member)), ...); }, fields);
}
template <typename S, typename... F>
S fields_from_json(const nlohmann::json& j, const std::tuple<F...>& fields) {
  S s;
  read_fields(j, s, fields);
  return s;
}

}  // namespace ohprof::json_fields
