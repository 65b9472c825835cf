// The one table of the paths compare builds (model/path_kind.hpp): each name once, and the facts that
// steer the session, checked against what each path is (docs/usage.md, "Paths").
#include "ohprof/model/path_kind.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace ohprof {
namespace {

TEST(PathKind, EachNameOnceAndItsKindBack) {
  std::set<std::string> names;
  for (const PathKindInfo& k : path_kinds()) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_EQ(parse_path_kind(k.name), k.kind) << k.name;
    EXPECT_STREQ(to_string(k.kind), k.name);
    EXPECT_EQ(path_kind_info(k.kind).name, k.name);
  }
  EXPECT_EQ(names, (std::set<std::string>{"aoti", "aoti:python", "eager", "compile", "compile:reduce-overhead",
                                          "compile:max-autotune-no-cudagraphs", "compile:cpp-wrapper",
                                          "compile:no-module-guards", "compile:again", "compile:again-2"}));
  // variants and other names are no path compare builds
  for (const char* other : {"", "compile/no-guards", "compile:reduce-overhead/graph", "Compile", "aoti:", "torch"}) {
    EXPECT_FALSE(parse_path_kind(other).has_value()) << other;
  }
}

TEST(PathKind, WhatEachIs) {
  for (const PathKindInfo& k : path_kinds()) {
    const std::string name = k.name;
    EXPECT_EQ(k.exported, name == "aoti" || name == "aoti:python") << name;   // run what torch.export captured
    EXPECT_EQ(k.compiled, name.rfind("compile", 0) == 0) << name;              // torch.compile's
    // every torch.compile path calls through AOTAutograd and Inductor's Python call, but reduce-overhead,
    // which replays CUDA graphs
    EXPECT_EQ(k.python_wrapper, k.compiled && name != "compile:reduce-overhead") << name;
  }
}

}  // namespace
}  // namespace ohprof
