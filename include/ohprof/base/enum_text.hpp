#pragma once
// An enum and its text from one list (docs/architecture.md, "Typed state"). A model enum is declared by an
// X-macro whose every entry X(enumerator, "text") makes both the enumerator and its text; with
//
//   #define OHPROF_FRUIT_VALUES(X) X(apple, "apple") X(stone_fruit, "stone-fruit") /* a plum, a peach */
//   OHPROF_ENUM_CLASS(Fruit, OHPROF_FRUIT_VALUES)
//
// (in the model's headers, one entry a line, each line but the last ending in a backslash),
// OHPROF_ENUM_CLASS declares `enum class Fruit { apple, stone_fruit };`, `enum_texts(Fruit)` (the texts, in
// the enumerators' order) and `to_string(Fruit)`, and parse_enum<Fruit> reads the texts back. A value cannot be added
// without its text, nor a text without its value: no switch, no second list to keep in step.
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#define OHPROF_ENUM_VALUE_(value, text) value,
#define OHPROF_ENUM_TEXT_(value, text) text,
#define OHPROF_ENUM_CLASS(Name, VALUES)                                                          \
  enum class Name { VALUES(OHPROF_ENUM_VALUE_) };                                                \
  inline constexpr const char* const kEnumTexts_##Name[] = {VALUES(OHPROF_ENUM_TEXT_)};          \
  constexpr std::span<const char* const> enum_texts(Name) { return kEnumTexts_##Name; }         \
  inline const char* to_string(Name value) { return ::ohprof::enum_text(value); }

namespace ohprof {

// How many values an enum without a text table (one whose to_string is a switch) parse_enum scans.
inline constexpr int kMaxEnumValues = 256;

// An enum declared by OHPROF_ENUM_CLASS (found by argument-dependent lookup).
template <typename E>
concept TextTableEnum = requires(E e) { enum_texts(e); };

// The text of `value`; "unknown" for a value past the enum's last (a cast from a bad integer), never a null
// pointer into a printer.
template <TextTableEnum E>
const char* enum_text(E value) {
  const std::span<const char* const> texts = enum_texts(E{});
  const auto i = static_cast<std::size_t>(value);
  return i < texts.size() ? texts[i] : "unknown";
}

// The value of E whose to_string is `text`, or nullopt. An enum of OHPROF_ENUM_CLASS is read from its
// table. Any other enum is scanned through its to_string (found by argument-dependent lookup) from 0
// upwards, which asks two things of it: its values run from 0 without gaps (no explicit values); and for a
// value past its last, to_string returns one of its names, which the scan has met at its own value first.
template <typename E>
std::optional<E> parse_enum(std::string_view text) {
  if constexpr (TextTableEnum<E>) {
    const std::span<const char* const> texts = enum_texts(E{});
    for (std::size_t i = 0; i < texts.size(); ++i) {
      if (text == texts[i]) return static_cast<E>(i);
    }
  } else {
    for (int i = 0; i < kMaxEnumValues; ++i) {
      const auto value = static_cast<E>(i);
      if (text == std::string_view(to_string(value))) return value;
    }
  }
  return std::nullopt;
}

}  // namespace ohprof
