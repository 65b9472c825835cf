// The streaming JSON parser, checked against nlohmann_json's DOM parser: the same document (built from
// the parser's events) for valid input, cut into chunks as small as one byte; an error wherever
// nlohmann_json rejects the input.
#include "json_stream.hpp"
#include "trace_text.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

namespace ohprof {
namespace {

using nlohmann::json;

// Builds a DOM from the events.
class DomBuilder final : public JsonHandler {
 public:
  void null() override { add(json(nullptr)); }
  void boolean(bool value) override { add(json(value)); }
  void number_integer(std::int64_t value) override { add(json(value)); }
  void number_unsigned(std::uint64_t value) override { add(json(value)); }
  void number_text(std::string_view text) override {
    texts.emplace_back(text);
    add(json::parse(text));
  }
  void string(std::string_view value) override { add(json(value)); }
  bool key(std::string_view name) override {
    m_key = name;
    return skip.count(m_key) == 0;
  }
  void start_object() override { open(json::object()); }
  void start_array() override { open(json::array()); }
  void end_object() override { close(); }
  void end_array() override { close(); }

  json result;
  std::vector<std::string> texts;
  std::set<std::string> skip;  // members whose values are declined (key() returns false)

 private:
  void add(json value) {
    if (m_stack.empty()) {
      result = std::move(value);
    } else if (m_stack.back()->is_object()) {
      (*m_stack.back())[m_key] = std::move(value);
    } else {
      m_stack.back()->push_back(std::move(value));
    }
  }
  void open(json container) {
    if (m_stack.empty()) {
      result = std::move(container);
      m_stack.push_back(&result);
    } else if (m_stack.back()->is_object()) {
      json& slot = (*m_stack.back())[m_key];
      slot = std::move(container);
      m_stack.push_back(&slot);
    } else {
      m_stack.back()->push_back(std::move(container));
      m_stack.push_back(&m_stack.back()->back());
    }
  }
  void close() { m_stack.pop_back(); }

  std::vector<json*> m_stack;
  std::string m_key;
};

// Hands out the text at most `chunk` bytes per read, to exercise every buffer boundary.
class ChunkedBuffer : public std::streambuf {
 public:
  ChunkedBuffer(const std::string& text, std::size_t chunk) : m_text(text), m_chunk(chunk) {}

 protected:
  std::streamsize xsgetn(char* out, std::streamsize n) override {
    const std::size_t take = std::min({static_cast<std::size_t>(n), m_chunk, m_text.size() - m_pos});
    std::copy_n(m_text.data() + m_pos, take, out);
    m_pos += take;
    return static_cast<std::streamsize>(take);
  }
  int_type underflow() override { return traits_type::eof(); }

 private:
  const std::string& m_text;
  std::size_t m_chunk;
  std::size_t m_pos = 0;
};

struct Parsed {
  std::optional<JsonParseError> error;
  json value;
  std::vector<std::string> texts;
};

Parsed parse_from(std::streambuf& buffer, std::set<std::string> skip) {
  DomBuilder builder;
  builder.skip = std::move(skip);
  Parsed out;
  out.error = parse_json_stream(buffer, builder);
  out.value = builder.result;
  out.texts = builder.texts;
  return out;
}

// The text parsed twice, copied out of a plain streambuf and read in place from a lending one, each
// handing it out `chunk` bytes at a time: the two must agree in everything.
Parsed parse(const std::string& text, std::size_t chunk = 1 << 20, std::set<std::string> skip = {}) {
  ChunkedBuffer copied(text, chunk);
  Parsed out = parse_from(copied, skip);
  LendingChunks lent(text, chunk);
  const Parsed in_place = parse_from(lent, skip);
  EXPECT_EQ(in_place.error.has_value(), out.error.has_value()) << "chunk " << chunk;
  if (in_place.error && out.error) {
    EXPECT_EQ(in_place.error->message, out.error->message) << "chunk " << chunk;
    EXPECT_EQ(in_place.error->byte_offset, out.error->byte_offset) << "chunk " << chunk;
    EXPECT_EQ(in_place.error->at_end_of_input, out.error->at_end_of_input) << "chunk " << chunk;
  }
  EXPECT_TRUE(in_place.value == out.value) << "chunk " << chunk;
  EXPECT_EQ(in_place.texts, out.texts) << "chunk " << chunk;
  return out;
}

void expect_same_as_nlohmann(const std::string& text) {
  const json expected = json::parse(text);
  for (std::size_t chunk : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{1} << 20}) {
    const Parsed got = parse(text, chunk);
    ASSERT_FALSE(got.error.has_value()) << text << ": " << got.error->message;
    EXPECT_EQ(got.value, expected) << text << " (chunk " << chunk << ")";
  }
}

TEST(JsonStream, ScalarsAndContainers) {
  for (const char* text :
       {"null", "true", "false", "0", "-0", "17", "-17", "1.5", "-12.5e-3", "1E+5", "2e3", "\"\"", "\"abc\"", "[]",
        "{}", "[[], {}, [[]]]", R"({"a": {"b": [1, {"c": null}]}, "d": "e"})", " \t\n\r[ 1 , 2 ]\n ",
        "9223372036854775807", "-9223372036854775808", "18446744073709551615", "18446744073709551616",
        "-9223372036854775809", "123456789012345678901234567890", R"({"a": 1, "a": 2})"}) {
    expect_same_as_nlohmann(text);
  }
}

TEST(JsonStream, NumbersWithAFractionOrExponentArriveAsTheirText) {
  const Parsed got = parse("[1.50, 2e3, 4458676522690.655, 18446744073709551616, 7]");
  ASSERT_FALSE(got.error);
  EXPECT_EQ(got.texts, (std::vector<std::string>{"1.50", "2e3", "4458676522690.655", "18446744073709551616"}));
}

TEST(JsonStream, EscapesAndUnicode) {
  for (const char* text : {R"("a\"b\\c\/d\b\f\n\r\t")", R"("\u0041\u00e9\u4e2d")", R"("\ud83d\ude00 smile")",
                           "\"caf\xc3\xa9\"", R"({"k\u0065y": "v"})", R"(["\u0000"])"}) {
    expect_same_as_nlohmann(text);
  }
}

TEST(JsonStream, InvalidInputIsAnErrorWhereNlohmannRejectsIt) {
  for (const std::string text :
       {"", " ", "{", "[", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\":1,}", "{,}", "{1: 2}", "01", "-", "--1", "1.",
        "1.e5", "1e", "1e+", ".5", "+1", "tru", "nul", "fals", "truex", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"",
        "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"a\tb\"", "[1]]", "{}{}", "[1] x", "}", "]", "\"\\"}) {
    EXPECT_FALSE(json::accept(text)) << "nlohmann accepts " << text;
    const Parsed got = parse(text);
    EXPECT_TRUE(got.error.has_value()) << "accepted: " << text;
  }
}

TEST(JsonStream, TruncatedInputIsReportedAsEndingEarly) {
  const std::string full = R"({"traceEvents": [{"name": "k", "ts": 1.5, "args": {"a": [true, null]}}]})";
  for (std::size_t keep = 1; keep < full.size(); ++keep) {
    const Parsed got = parse(full.substr(0, keep));
    ASSERT_TRUE(got.error.has_value()) << keep;
    EXPECT_EQ(got.error->byte_offset, keep) << full.substr(0, keep) << ": " << got.error->message;
    // Cut inside a number the text may still be a valid number: then the next token is missing.
    EXPECT_TRUE(got.error->at_end_of_input) << full.substr(0, keep) << ": " << got.error->message;
  }
}

TEST(JsonStream, ErrorsSayWhatAndWhere) {
  const Parsed got = parse(R"({"a": 1,, "b": 2})");
  ASSERT_TRUE(got.error);
  EXPECT_EQ(got.error->byte_offset, 8u);
  EXPECT_FALSE(got.error->at_end_of_input);
  EXPECT_EQ(got.error->message, "expected a string (an object key), found ','");
  const Parsed trailing = parse("[1] x");
  ASSERT_TRUE(trailing.error);
  EXPECT_EQ(trailing.error->message, "unexpected 'x' after the end of the JSON value");
  EXPECT_EQ(parse("").error->message, "the input is empty");
}

// The DOM without the members named `names`, at any depth.
json without_members(const json& value, const std::set<std::string>& names) {
  if (value.is_object()) {
    json out = json::object();
    for (const auto& [key, member] : value.items()) {
      if (names.count(key) == 0) out[key] = without_members(member, names);
    }
    return out;
  }
  if (value.is_array()) {
    json out = json::array();
    for (const auto& element : value) out.push_back(without_members(element, names));
    return out;
  }
  return value;
}

TEST(JsonStream, DeclinedMembersAreParsedButNotReported) {
  const std::string text =
      R"({"a": 1, "skip": {"x": [1, 2.5, "s\n", {"skip": 3}], "y": null}, "b": [{"skip": [true]}, {"c": "d"}],)"
      R"( "skip": -4, "e": {"skip": "\u00e9"}})";
  for (std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{1} << 20}) {
    const Parsed got = parse(text, chunk, {"skip"});
    ASSERT_FALSE(got.error) << got.error->message;
    EXPECT_EQ(got.value, without_members(json::parse(text), {"skip"})) << chunk;
  }
}

// Declining a member changes which events arrive, never whether or where an error is found.
void expect_same_error_when_declined(const std::string& text) {
  const Parsed all = parse(text);
  for (std::size_t chunk : {std::size_t{1}, std::size_t{1} << 20}) {
    const Parsed declined = parse(text, chunk, {"a", "b", "k", "key", "name", "ts", "args", "traceEvents"});
    ASSERT_EQ(all.error.has_value(), declined.error.has_value()) << text;
    if (!all.error) continue;
    EXPECT_EQ(declined.error->message, all.error->message) << text;
    EXPECT_EQ(declined.error->byte_offset, all.error->byte_offset) << text;
    EXPECT_EQ(declined.error->at_end_of_input, all.error->at_end_of_input) << text;
  }
}

TEST(JsonStream, DeclinedMembersHaveTheSameErrors) {
  for (const std::string value :
       {"[1,]", "[1 2]", "{\"a\" 1}", "{\"a\":1,}", "{,}", "{1: 2}", "01", "-", "--1", "1.", "1.e5", "1e", "1e+",
        ".5", "+1", "tru", "nul", "fals", "truex", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"",
        "\"\\ud800\\u0041\"", "\"a\tb\"", "[1]]", "1-2", "[0e5e]", "{\"a\": [1, {\"b\": 2}]}"}) {
    expect_same_error_when_declined("{\"a\": " + value + "}");
    expect_same_error_when_declined("[{\"b\": " + value + ", \"c\": 1}]");
  }
  const std::string full = R"({"traceEvents": [{"name": "k", "ts": 1.5, "args": {"a": [true, null, "x\"y"]}}]})";
  for (std::size_t keep = 1; keep <= full.size(); ++keep) expect_same_error_when_declined(full.substr(0, keep));
}

TEST(JsonStream, TokensLongerThanTheBuffer) {
  // Strings and numbers longer than the 64 KB read buffer, with and without escapes, cut anywhere.
  const std::string plain(200000, 'a');
  std::string escaped(150000, 'b');
  escaped[70000] = '\\';
  escaped[70001] = 'n';
  const std::string digits(100000, '7');
  const std::string text = "{\"" + plain + "\": [\"" + plain + "\", \"" + escaped + "\", 1." + digits + ", -0." +
                           digits + ", 12e" + std::string(70000, '0') + "1]}";
  for (std::size_t chunk : {std::size_t{7}, std::size_t{65535}, std::size_t{1} << 20}) {
    const Parsed got = parse(text, chunk);
    ASSERT_FALSE(got.error) << got.error->message;
    EXPECT_EQ(got.value, json::parse(text)) << chunk;
    EXPECT_EQ(got.texts, (std::vector<std::string>{"1." + digits, "-0." + digits, "12e" + std::string(70000, '0') + "1"}));
  }
  const Parsed cut = parse(text.substr(0, 150000));
  ASSERT_TRUE(cut.error);
  EXPECT_EQ(cut.error->message, "unexpected end of input inside a string");
  EXPECT_EQ(cut.error->byte_offset, 150000u);
}

// Counts events and keeps nothing: a DOM 10 000 levels deep would overflow the test's own stack when
// nlohmann_json copies it recursively (the parser itself keeps its nesting on the heap).
class CountingHandler final : public JsonHandler {
 public:
  void null() override { ++events; }
  void boolean(bool) override { ++events; }
  void number_integer(std::int64_t) override { ++events; }
  void number_unsigned(std::uint64_t) override { ++events; }
  void number_text(std::string_view) override { ++events; }
  void string(std::string_view) override { ++events; }
  bool key(std::string_view) override {
    ++events;
    return true;
  }
  void start_object() override { ++events; }
  void end_object() override { ++events; }
  void start_array() override { ++events; }
  void end_array() override { ++events; }
  std::size_t events = 0;
};

TEST(JsonStream, NestingIsLimited) {
  const std::string deep(kMaxJsonDepth + 1, '[');
  ChunkedBuffer buffer(deep, 1 << 20);
  CountingHandler counter;
  const auto error = parse_json_stream(buffer, counter);
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("nesting deeper than"), std::string::npos) << error->message;
  EXPECT_EQ(counter.events, kMaxJsonDepth);  // every level up to the limit was reported
  const std::string ok = std::string(100, '[') + std::string(100, ']');
  expect_same_as_nlohmann(ok);
}

TEST(JsonStream, RealTracesGiveTheSameDocumentAsNlohmann) {
  const char* env = std::getenv("OHPROF_TRACES_DIR");
  const std::filesystem::path dir(env != nullptr && *env != '\0' ? env : OHPROF_TRACES_DIR);
  for (const char* file : {"benchmark_result_493459_1694039959_trace.json.gz", "nccl_data.json.gz",
                           "triton_example.json.gz"}) {
    const std::string text = gunzip((dir / file).string());
    ASSERT_FALSE(text.empty()) << file;
    const json expected = json::parse(text);
    for (std::size_t chunk : {std::size_t{4093}, std::size_t{1} << 20}) {
      const Parsed got = parse(text, chunk);
      ASSERT_FALSE(got.error.has_value()) << file << ": " << got.error->message;
      EXPECT_TRUE(got.value == expected) << file << " (chunk " << chunk << ")";
    }
    const Parsed declined = parse(text, 4093, {"args", "name"});
    ASSERT_FALSE(declined.error.has_value()) << file << ": " << declined.error->message;
    EXPECT_TRUE(declined.value == without_members(expected, {"args", "name"})) << file << " (args, name declined)";
  }
}

// ---- the window (json_stream.hpp): a subset of the parser, with the same meaning ------------------

// Bytes from which the random texts below are drawn: JSON's structure, digits, signs, escapes, letters
// of the literals, whitespace and a control character.
constexpr std::string_view kAlphabet = "0123456789-+.eE\"\\{}[],: \n\ttrufalsn/u\x01x";

std::string random_text(std::mt19937& rng, std::size_t max_length) {
  std::uniform_int_distribution<std::size_t> length(0, max_length);
  std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
  std::string text(length(rng), ' ');
  for (char& c : text) c = kAlphabet[pick(rng)];
  return text;
}

TEST(JsonWindow, DigitsAreReadEightAtATimeAsAByteLoopReadsThem) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> digit_or_not(0, 12);
  for (int round = 0; round < 200000; ++round) {
    char bytes[8];
    for (char& c : bytes) {
      const int d = digit_or_not(rng);
      c = d < 10 ? static_cast<char>('0' + d) : "/:a"[d - 10];
    }
    unsigned count = 0;
    std::uint64_t expected = 0;
    while (count < 8 && json_detail::is_digit(bytes[count])) expected = expected * 10 + static_cast<std::uint64_t>(bytes[count++] - '0');
    std::uint64_t value = 99;
    ASSERT_EQ(json_detail::window::leading_digits(bytes, value), count) << std::string_view(bytes, 8);
    ASSERT_EQ(value, expected) << std::string_view(bytes, 8);
    ASSERT_EQ(json_detail::window::eight_digits(bytes, value), count == 8) << std::string_view(bytes, 8);
    if (count == 8) {
      ASSERT_EQ(value, expected) << std::string_view(bytes, 8);
    }
  }
  std::uint64_t value = 0;
  ASSERT_TRUE(json_detail::window::eight_digits("99999999", value));
  EXPECT_EQ(value, 99999999U);
  ASSERT_TRUE(json_detail::window::eight_digits("00000001", value));
  EXPECT_EQ(value, 1U);
}

// What window::number read, or why not.
struct WindowNumber {
  bool read = false;
  std::int64_t integer = 0;
  std::string text;
  bool thousandths = false;  // `integer` holds the text's thousandths (tested in kineto_reader_test.cpp)
  std::size_t length = 0;
};
WindowNumber window_number(const std::string& text, std::string_view after = ",") {
  const std::string padded = text + std::string(after);
  const char* p = padded.data();
  WindowNumber out;
  std::string_view number_text;
  out.read = json_detail::window::number(p, padded.data() + padded.size(), out.integer, number_text, out.thousandths);
  out.text = std::string(number_text);
  out.length = static_cast<std::size_t>(p - padded.data());
  return out;
}

TEST(JsonWindow, NumbersOfTheUsualShapeAreReadAsTheParserDeliversThem) {
  for (const std::string text : {"0", "-0", "7", "17", "-42", "785244", "1669783687464181", "999999999999999999",
                                 "-999999999999999999", "123456.789", "1e5", "-2.5E-3", "0.000", "1.5e+3"}) {
    const WindowNumber got = window_number(text);
    ASSERT_TRUE(got.read) << text;
    EXPECT_EQ(got.length, text.size()) << text;
    const Parsed parsed = parse("[" + text + "]");
    ASSERT_FALSE(parsed.error.has_value()) << text;
    if (got.text.empty()) {
      EXPECT_FALSE(got.thousandths) << text;
      EXPECT_TRUE(parsed.texts.empty()) << text;  // the parser delivered it as an integer too
      EXPECT_EQ(parsed.value[0].get<std::int64_t>(), got.integer) << text;
    } else {
      ASSERT_EQ(parsed.texts.size(), 1U) << text;
      EXPECT_EQ(parsed.texts[0], got.text) << text;
    }
  }
  // Left to the parser: 19 digits and more (they may not fit), and everything malformed.
  for (const std::string text : {"1000000000000000000", "-9223372036854775808", "18446744073709551615", "01", "-",
                                 "-a", "1.", "1.e5", "1e", "1e+", ".5", "1.5.3", "1-2", "2e3e4", "1.5+", "1.5-1",
                                 "1.25.", "-1.5e", "1.2.3.4"}) {
    EXPECT_FALSE(window_number(text).read) << text;
    EXPECT_FALSE(window_number(text, ",         ").read) << text;  // with room for a short decimal's reading
  }
  EXPECT_FALSE(window_number("17", "").read);  // the window's end: the number may go on
  EXPECT_FALSE(window_number("17", "5").read);
  // A short decimal is read as thousandths where eight bytes follow its point, its text kept either way.
  const WindowNumber decimal = window_number("123456.789", ",       ");
  EXPECT_TRUE(decimal.read && decimal.thousandths);
  EXPECT_EQ(decimal.integer, 123456789);
  EXPECT_EQ(decimal.text, "123456.789");
  EXPECT_EQ(decimal.length, 10U);
  EXPECT_FALSE(window_number("123456.789").thousandths);
  EXPECT_EQ(window_number("123456.789").text, "123456.789");
  // Exactly where it starts: nine bytes from the point on ("1.5" and seven more), not eight.
  EXPECT_FALSE(window_number("1.5", ",     ").thousandths);
  const WindowNumber nine = window_number("1.5", ",      ");
  EXPECT_TRUE(nine.read && nine.thousandths);
  EXPECT_EQ(nine.integer, 1500);
}

// Counts the values directly inside the outermost container; no conversions (numbers of any size).
class ElementCounter final : public JsonHandler {
 public:
  void null() override { value(); }
  void boolean(bool) override { value(); }
  void number_integer(std::int64_t) override { value(); }
  void number_unsigned(std::uint64_t) override { value(); }
  void number_text(std::string_view) override { value(); }
  void string(std::string_view) override { value(); }
  bool key(std::string_view) override { return true; }
  void start_object() override { open(); }
  void start_array() override { open(); }
  void end_object() override { --m_depth; }
  void end_array() override { --m_depth; }

  std::size_t elements = 0;

 private:
  void value() { elements += m_depth == 1 ? 1 : 0; }
  void open() {
    value();
    ++m_depth;
  }
  int m_depth = 0;
};

struct Counted {
  std::optional<JsonParseError> error;
  std::size_t elements = 0;
};
Counted count_elements(const std::string& text) {
  ChunkedBuffer buffer(text, 1 << 20);
  ElementCounter counter;
  Counted out;
  out.error = parse_json_stream(buffer, counter);
  out.elements = counter.elements;
  // Read in place, in chunks of 5 bytes, the window's elements meet every chunk boundary: the same.
  LendingChunks lent(text, 5);
  ElementCounter lent_counter;
  const std::optional<JsonParseError> lent_error = parse_json_stream(lent, lent_counter);
  EXPECT_EQ(lent_error.has_value(), out.error.has_value()) << text;
  if (lent_error && out.error) EXPECT_EQ(lent_error->byte_offset, out.error->byte_offset) << text;
  EXPECT_EQ(lent_counter.elements, out.elements) << text;
  return out;
}

// Random texts: whatever window::skip_value accepts, the parser accepts too, as one value of the same
// length; where the parser then finds an error, it is after that value.
TEST(JsonWindow, SkipValueAcceptsOnlyValuesThatTheParserAccepts) {
  std::mt19937 rng(11);
  const std::vector<std::string> seeds = {
      R"({"External id": 3073, "Ev Idx": 0, "Input Dims": [[1, 3], [], [2]], "Input type": ["float", ""]})",
      R"([1.5, -0, 2e-3, true, false, null, "a\"b", {"k": {"l": [{}]}}])", R"("plain")", R"(-12.5e+7)"};
  std::size_t accepted = 0;
  for (int round = 0; round < 60000; ++round) {
    std::string value;
    if (round % 3 == 0) {
      value = random_text(rng, 24);
    } else {  // a seed with a few bytes changed
      value = seeds[static_cast<std::size_t>(round) % seeds.size()];
      const int changes = 1 + round % 3;
      for (int c = 0; c < changes && !value.empty(); ++c) {
        std::uniform_int_distribution<std::size_t> at(0, value.size() - 1);
        const std::string piece = random_text(rng, 2);
        value.replace(at(rng), round % 2, piece);
      }
    }
    if (value.empty()) continue;
    const std::string text = value + " ,";  // a value ends before it; nothing can follow it in the window
    const char* p = text.data();
    if (!json_detail::window::skip_value(p, text.data() + text.size())) continue;
    ++accepted;
    const auto length = static_cast<std::size_t>(p - text.data());
    ASSERT_LE(length, value.size()) << value;
    const std::string whole = "[" + value + "]";
    const Counted parsed = count_elements(whole);
    if (parsed.error) {
      ASSERT_GT(parsed.error->byte_offset, length) << "the window accepted " << value.substr(0, length)
                                                   << " where the parser says: " << parsed.error->message;
    }
    const Counted alone = count_elements("[" + value.substr(0, length) + "]");
    ASSERT_FALSE(alone.error.has_value()) << value.substr(0, length) << ": " << alone.error->message;
    ASSERT_EQ(alone.elements, 1U) << value.substr(0, length);
  }
  EXPECT_GT(accepted, 10000U);  // the check above ran on many accepted values
}

TEST(JsonWindow, SkipValueLeavesEscapesDeepNestingAndTheWindowsEndToTheParser) {
  const auto skips = [](const std::string& text) {
    const char* p = text.data();
    return json_detail::window::skip_value(p, text.data() + text.size());
  };
  EXPECT_TRUE(skips(R"(["a", {"b": [1, 2.5, null]}],)"));
  EXPECT_FALSE(skips(R"("a\nb",)"));             // an escape: the parser unescapes
  EXPECT_FALSE(skips(std::string(65, '[') + std::string(65, ']') + ","));
  EXPECT_TRUE(skips(std::string(64, '[') + std::string(64, ']') + ","));
  EXPECT_FALSE(skips(R"({"a": 1)"));             // the window ends inside the value
  EXPECT_FALSE(skips(R"(tru,)"));
}

}  // namespace
}  // namespace ohprof
