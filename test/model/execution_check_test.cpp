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

// The probe's answer (ohprof/_paths.py, PythonPath.probe) read as the real adapter reads it.
TEST(ProbeFromAnswer, EachResultNameIsTheResult) {
  for (CompiledCall call : {CompiledCall::compiled, CompiledCall::guards_missed, CompiledCall::no_frame,
                            CompiledCall::no_graph}) {
    EXPECT_EQ(probe_from_answer(to_string(call)), (CompiledCallProbe{call, std::nullopt, ""})) << to_string(call);
  }
  EXPECT_EQ(probe_from_answer("guards-missed").result, CompiledCall::guards_missed);
}

TEST(ProbeFromAnswer, TheProbesOwnReasonsAreUnknownWithNoError) {
  EXPECT_EQ(probe_from_answer("no-hook"), (CompiledCallProbe{std::nullopt, ProbeUnknown::no_hook, ""}));
  EXPECT_EQ(probe_from_answer("limit-in-probe"), (CompiledCallProbe{std::nullopt, ProbeUnknown::limit_in_probe, ""}));
}

// The reasons that are this side's to say, read from the probe, are an answer it should not give: the
// check is then probe-failed with what it answered, never a run that stopped, nor a result.
TEST(ProbeFromAnswer, AnyOtherAnswerIsProbeFailedWithWhatItSaid) {
  for (const std::string answer : {"not-probed", "probe-failed", "", "Compiled", "compiled ", "yes"}) {
    const CompiledCallProbe probe = probe_from_answer(answer);
    EXPECT_FALSE(probe.result.has_value()) << answer;
    EXPECT_EQ(probe.unknown, ProbeUnknown::probe_failed) << answer;
    EXPECT_EQ(probe.error, "the probe answered '" + answer + "'");
  }
}

TEST(RecordProbe, TheCheckTakesTheResultOrWhyThereIsNone) {
  ExecutionCheck check;
  check.compiled_call_error = "stale";
  record_probe(check, CompiledCallProbe{CompiledCall::no_graph, std::nullopt, ""});
  EXPECT_EQ(check.compiled_call, CompiledCall::no_graph);
  EXPECT_FALSE(check.compiled_call_unknown.has_value());
  EXPECT_EQ(check.compiled_call_error, "");
  EXPECT_TRUE(ran_uncompiled(check));
  record_probe(check, CompiledCallProbe{std::nullopt, ProbeUnknown::probe_failed, "the probe's call raised: E: x"});
  EXPECT_FALSE(check.compiled_call.has_value());
  EXPECT_EQ(check.compiled_call_unknown, ProbeUnknown::probe_failed);
  EXPECT_EQ(check.compiled_call_error, "the probe's call raised: E: x");
  EXPECT_FALSE(ran_uncompiled(check));
}

}  // namespace
}  // namespace ohprof
