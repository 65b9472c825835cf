#include "ohprof/model/execution_check.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace ohprof {
namespace {

TEST(CompileEventKind, EachNameParsesBackToItsKindAndUnknownNamesAreRejected) {
  std::set<std::string> names;
  for (CompileEventKind kind : {CompileEventKind::dynamo_compile, CompileEventKind::autotuning,
                                CompileEventKind::cuda_graph_recording, CompileEventKind::cuda_graph_eager,
                                CompileEventKind::recompile_limit}) {
    const std::string name = to_string(kind);
    EXPECT_TRUE(names.insert(name).second) << name << " twice";
    ASSERT_TRUE(parse_compile_event_kind(name).has_value()) << name;
    EXPECT_EQ(*parse_compile_event_kind(name), kind);
  }
  EXPECT_FALSE(parse_compile_event_kind("DYNAMO").has_value());
  EXPECT_FALSE(parse_compile_event_kind("").has_value());
}

// The Python side (python/ohprof/_paths.py) names the kinds it sends; each must parse here, or the
// session would drop that compile event.
TEST(CompileEventKind, EveryKindThePythonSideSendsParses) {
  std::ifstream file(OHPROF_SOURCE_DIR "/python/ohprof/_paths.py");
  ASSERT_TRUE(file) << "python/ohprof/_paths.py";
  std::stringstream text;
  text << file.rdbuf();
  const std::string source = text.str();
  const auto start = source.find("COMPILE_EVENT_KINDS = {");
  ASSERT_NE(start, std::string::npos);
  const auto end = source.find("\n\n", start);
  const std::string table = source.substr(start, end - start);
  const std::regex value(R"rx(:\s*"([a-z-]+)")rx");
  const std::regex constant(R"rx(CUDA_GRAPH_EAGER = "([a-z-]+)")rx");
  int seen = 0;
  for (auto it = std::sregex_iterator(table.begin(), table.end(), value); it != std::sregex_iterator(); ++it, ++seen) {
    EXPECT_TRUE(parse_compile_event_kind((*it)[1]).has_value()) << (*it)[1];
  }
  EXPECT_GE(seen, 3);
  std::smatch eager;
  ASSERT_TRUE(std::regex_search(table, eager, constant)) << table;
  EXPECT_EQ(parse_compile_event_kind(eager[1]), CompileEventKind::cuda_graph_eager);
}

TEST(CudaGraphUse, EachNameParsesBackToItsUse) {
  for (CudaGraphUse use : {CudaGraphUse::not_applicable, CudaGraphUse::replayed, CudaGraphUse::not_replayed,
                           CudaGraphUse::skipped}) {
    ASSERT_TRUE(parse_cuda_graph_use(to_string(use)).has_value()) << to_string(use);
    EXPECT_EQ(*parse_cuda_graph_use(to_string(use)), use);
  }
  EXPECT_FALSE(parse_cuda_graph_use("replay").has_value());
  EXPECT_STREQ(to_string(MeasuredPass::timing), "timing");
  EXPECT_STREQ(to_string(MeasuredPass::split), "split");
}

}  // namespace
}  // namespace ohprof
