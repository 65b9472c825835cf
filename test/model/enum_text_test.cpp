// OHPROF_ENUM_CLASS and parse_enum (include/ohprof/base/enum_text.hpp): an enum's texts come from its one
// list, and each parse_* finds every name its to_string writes back at its own value, and nothing else.
#include "ohprof/base/enum_text.hpp"

#include <gtest/gtest.h>

#include <string>

#include "ohprof/model/breakdown.hpp"
#include "ohprof/model/cold_start.hpp"
#include "ohprof/model/diff.hpp"
#include "ohprof/model/execution_check.hpp"
#include "ohprof/model/explanation.hpp"
#include "ohprof/model/ranks.hpp"
#include "ohprof/model/report.hpp"
#include "ohprof/model/sweep.hpp"
#include "ohprof/model/warning.hpp"

namespace fruit {
enum class Fruit { apple, pear, plum };
inline const char* to_string(Fruit f) {
  switch (f) {
    case Fruit::apple: return "apple";
    case Fruit::pear: return "pear";
    case Fruit::plum: break;
  }
  return "plum";  // and every value past the last
}
}  // namespace fruit

namespace tabled {
#define TEST_FRUIT_VALUES(X) \
  X(apple, "apple")          \
  X(stone_fruit, "stone-fruit") /* a text other than the enumerator's name */ \
  X(plum, "plum")
OHPROF_ENUM_CLASS(Fruit, TEST_FRUIT_VALUES)
}  // namespace tabled

namespace ohprof {
namespace {

TEST(EnumClass, MakesTheEnumeratorsAndTheirTextsFromOneListInItsOrder) {
  using tabled::Fruit;
  EXPECT_EQ(static_cast<int>(Fruit::apple), 0);
  EXPECT_EQ(static_cast<int>(Fruit::stone_fruit), 1);
  EXPECT_EQ(static_cast<int>(Fruit::plum), 2);
  ASSERT_EQ(enum_texts(Fruit{}).size(), 3u);
  EXPECT_STREQ(to_string(Fruit::apple), "apple");
  EXPECT_STREQ(to_string(Fruit::stone_fruit), "stone-fruit");
  EXPECT_STREQ(to_string(Fruit::plum), "plum");
  EXPECT_STREQ(to_string(static_cast<Fruit>(7)), "unknown");  // past the last
  static_assert(TextTableEnum<Fruit>);
  static_assert(!TextTableEnum<fruit::Fruit>);
}

TEST(EnumClass, ParseEnumReadsEachTextBackAndNothingElse) {
  using tabled::Fruit;
  EXPECT_EQ(parse_enum<Fruit>("apple"), Fruit::apple);
  EXPECT_EQ(parse_enum<Fruit>("stone-fruit"), Fruit::stone_fruit);
  EXPECT_EQ(parse_enum<Fruit>("plum"), Fruit::plum);
  EXPECT_EQ(parse_enum<Fruit>("stone_fruit"), std::nullopt);  // the enumerator's name is not its text
  EXPECT_EQ(parse_enum<Fruit>(""), std::nullopt);
}

TEST(ParseEnum, FindsEachNameAtItsOwnValueNotAtTheFallbackPastTheEnd) {
  using fruit::Fruit;
  EXPECT_EQ(parse_enum<Fruit>("apple"), Fruit::apple);
  EXPECT_EQ(parse_enum<Fruit>("pear"), Fruit::pear);
  EXPECT_EQ(parse_enum<Fruit>("plum"), Fruit::plum);  // value 2, not 3 or 200, which also print "plum"
  EXPECT_EQ(parse_enum<Fruit>("Plum"), std::nullopt);
  EXPECT_EQ(parse_enum<Fruit>(""), std::nullopt);
}

// How many values `parse` reads back: each value of the enum's list whose text parses to itself.
template <typename E, typename Parse>
int names_read_back(Parse parse) {
  int read = 0;
  for (std::size_t i = 0; i < enum_texts(E{}).size(); ++i) {
    const auto value = static_cast<E>(i);
    const std::optional<E> parsed = parse(to_string(value));
    EXPECT_TRUE(parsed.has_value() && *parsed == value) << to_string(value);
    read += parsed == value ? 1 : 0;
  }
  EXPECT_EQ(parse("no-such-name"), std::nullopt);
  return read;
}

// The counts are the enums' own (their headers' lists): a value added to or dropped from a list, or a
// parse that misses one, changes them.
TEST(ParseEnum, EveryParseOfTheModelReadsEachOfItsEnumsValues) {
  EXPECT_EQ(names_read_back<PointStatus>([](const std::string& t) { return parse_point_status(t); }), 4);
  EXPECT_EQ(names_read_back<SweepStop>([](const std::string& t) { return parse_sweep_stop(t); }), 5);
  EXPECT_EQ(names_read_back<CompileCache>([](const std::string& t) { return parse_compile_cache(t); }), 4);
  EXPECT_EQ(names_read_back<Verdict>([](const std::string& t) { return parse_verdict(t); }), 5);
  EXPECT_EQ(names_read_back<VerdictReason>([](const std::string& t) { return parse_verdict_reason(t); }), 10);
  EXPECT_EQ(names_read_back<CompileEventKind>([](const std::string& t) { return parse_compile_event_kind(t); }), 5);
  EXPECT_EQ(names_read_back<CudaGraphUse>([](const std::string& t) { return parse_cuda_graph_use(t); }), 4);
  EXPECT_EQ(names_read_back<PathSource>([](const std::string& t) { return parse_path_source(t); }), 3);
  EXPECT_EQ(names_read_back<RankSource>([](const std::string& t) { return parse_rank_source(t); }), 2);
  EXPECT_EQ(names_read_back<DigestKind>([](const std::string& t) { return parse_digest_kind(t); }), 4);
  EXPECT_EQ(names_read_back<WarningCode>([](const std::string& t) { return parse_warning_code(t); }),
            static_cast<int>(all_warning_codes().size()));
  EXPECT_EQ(names_read_back<StopCode>([](const std::string& t) { return parse_stop_code(t); }),
            static_cast<int>(StopCode::in_progress) + 1);
}

}  // namespace
}  // namespace ohprof
