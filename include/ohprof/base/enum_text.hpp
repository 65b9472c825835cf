#pragma once
// Text to an enum, read from its to_string alone (docs/architecture.md, "Typed state"): each enum's names
// are written once, in the switch of its to_string, and its parse_* is parse_enum. No list of the values
// to keep in step with the enum.
#include <optional>
#include <string_view>

namespace ohprof {

// How many values an enum parse_enum reads may have.
inline constexpr int kMaxEnumValues = 256;

// The value of E whose to_string (found by argument-dependent lookup) is `text`, or nullopt. Two rules for
// E: its values run from 0 without gaps (no explicit values); and for a value past its last, to_string
// returns one of its names (the last case's `break`, then its name), which this scan, from 0 upwards, has
// met at its own value first. A fallback that is no value's name would parse to a value past the end:
// test/model/enum_text_test.cpp counts each parse's names against its enum.
template <typename E>
std::optional<E> parse_enum(std::string_view text) {
  for (int i = 0; i < kMaxEnumValues; ++i) {
    const auto value = static_cast<E>(i);
    if (text == std::string_view(to_string(value))) return value;
  }
  return std::nullopt;
}

}  // namespace ohprof
