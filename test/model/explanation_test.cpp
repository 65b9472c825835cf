// The peel chains (model/explanation.hpp): which variants each path has, in which order, what each
// step peels, and what the floors run.
#include "ohprof/model/explanation.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

TEST(PeelChain, CompiledPathsPeelFourLayersDownToTheirCall) {
  for (const std::string path : {"compile", "compile:max-autotune-no-cudagraphs", "compile:cpp-wrapper"}) {
    SCOPED_TRACE(path);
    const auto chain = peel_chain(path);
    ASSERT_EQ(chain.size(), 4u);
    EXPECT_EQ(chain[0].layer, HostLayer::guards);
    EXPECT_EQ(chain[0].upper, path);
    EXPECT_EQ(chain[0].lower, path + "/no-guards");
    EXPECT_EQ(chain[1].layer, HostLayer::dynamo);
    EXPECT_EQ(chain[1].lower, path + "/graph");
    EXPECT_EQ(chain[2].layer, HostLayer::aot_wrapper);
    EXPECT_EQ(chain[2].lower, path + "/inductor");
    EXPECT_EQ(chain[3].layer, HostLayer::inductor_call);
    EXPECT_EQ(chain[3].lower, path + "/call");
    // Each step starts where the one above ended.
    for (std::size_t i = 1; i < chain.size(); ++i) EXPECT_EQ(chain[i].upper, chain[i - 1].lower);
    EXPECT_EQ(chain_floor(path), path + "/call");
  }
  EXPECT_EQ(floor_kind("compile/call"), FloorKind::python_wrapper);
  EXPECT_EQ(floor_kind("compile:max-autotune-no-cudagraphs/call"), FloorKind::python_wrapper);
  EXPECT_EQ(floor_kind("compile:cpp-wrapper/call"), FloorKind::cpp_wrapper);
}

TEST(PeelChain, ReduceOverheadStopsAtItsGraphAndTheLoaderAtAoti) {
  const auto ro = peel_chain("compile:reduce-overhead");
  ASSERT_EQ(ro.size(), 2u);
  EXPECT_EQ(ro[1].lower, "compile:reduce-overhead/graph");
  EXPECT_EQ(floor_kind(chain_floor("compile:reduce-overhead")), FloorKind::cuda_graph);

  const auto loader = peel_chain("aoti:python");
  ASSERT_EQ(loader.size(), 1u);
  EXPECT_EQ(loader[0].layer, HostLayer::python_loader);
  EXPECT_EQ(loader[0].lower, "aoti");
  EXPECT_EQ(chain_floor("aoti:python"), "aoti");
}

TEST(PeelChain, AotiAndEagerAreTheirOwnFloors) {
  for (const std::string path : {"aoti", "eager", "unknown"}) {
    EXPECT_TRUE(peel_chain(path).empty()) << path;
    EXPECT_EQ(chain_floor(path), path);
  }
  EXPECT_EQ(floor_kind("aoti"), FloorKind::cpp_runner);
  EXPECT_EQ(floor_kind("eager"), FloorKind::eager_dispatch);
  EXPECT_FALSE(floor_kind("compile/no-guards").has_value());  // a chain cut short: no known floor
  EXPECT_FALSE(floor_kind("compile").has_value());
}

TEST(PeelChain, NamesAreStable) {
  EXPECT_STREQ(to_string(HostLayer::aot_wrapper), "aot_wrapper");
  EXPECT_STREQ(layer_label(HostLayer::dynamo), "Dynamo entry");
  EXPECT_STREQ(to_string(PathSource::exported_program), "exported_program");
  EXPECT_STREQ(to_string(PathRole::variant), "variant");
  EXPECT_STREQ(to_string(FloorKind::cpp_runner), "cpp_runner");
  EXPECT_STREQ(floor_label(FloorKind::cpp_runner), "AOTI's C++ runner");
  // The Python side names sources by these strings (python_session.cpp reads them back).
  for (PathSource source : {PathSource::module, PathSource::exported_program, PathSource::aoti_package}) {
    EXPECT_EQ(parse_path_source(to_string(source)), source);
  }
  EXPECT_FALSE(parse_path_source("program").has_value());
}

}  // namespace
}  // namespace ohprof
