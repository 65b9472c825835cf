// The execution check (docs/metrics.md, "Execution check") on hand-made windows and events: which
// iteration an event falls in, which samples are left out, the CUDA-graph use, the warnings.
#include "ohprof/analysis/execution_check.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

CompileEvent compile_at(std::int64_t start, std::int64_t end, std::string id = "0/1",
                        CompileEventKind kind = CompileEventKind::dynamo_compile) {
  return CompileEvent{kind, std::move(id), start, end, ""};
}

// Windows [100, 200], [300, 400], [500, 600] as iterations 0, 1, 2.
std::vector<IterationWindow> three_windows() { return {{0, 100, 200}, {1, 300, 400}, {2, 500, 600}}; }

TEST(ExecutionCheck, AnEventBelongsToTheIterationItBeganIn) {
  const std::vector<CompileEvent> events{
      compile_at(50, 150, "0/0"),    // began before the first window: the build or a warm-up
      compile_at(100, 120, "0/1"),   // at a window's start: inside
      compile_at(200, 900, "0/2"),   // at a window's end: inside, however long it ran
      compile_at(250, 260, "0/3"),   // between windows
      compile_at(599, 700, "0/4"),
      compile_at(601, 700, "0/5")};  // after the last
  const auto found = compiles_in_iterations(events, three_windows(), MeasuredPass::split);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0], (MeasuredCompile{MeasuredPass::split, 0, events[1]}));
  EXPECT_EQ(found[1], (MeasuredCompile{MeasuredPass::split, 0, events[2]}));
  EXPECT_EQ(found[2], (MeasuredCompile{MeasuredPass::split, 2, events[4]}));
}

TEST(ExecutionCheck, SamplesUpToTheLastCompileAreLeftOutWhenEnoughFollow) {
  ExecutionFacts facts;
  facts.dynamo = true;
  // 10 samples, compiles in iterations 2 and 5: 6 samples (0..5) left out, 4 follow.
  const std::vector<MeasuredCompile> compiles{{MeasuredPass::timing, 2, compile_at(1, 2)},
                                              {MeasuredPass::timing, 5, compile_at(3, 4)}};
  const ExecutionCheck check = check_timing_pass(facts, compiles, 10);
  EXPECT_EQ(check.excluded_iterations, 6);
  EXPECT_FALSE(check.pooled);
  const std::vector<std::int64_t> samples{10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
  EXPECT_EQ(kept_samples(samples, check), (std::vector<std::int64_t>{16, 17, 18, 19}));

  // Exactly kMinKeptAfterCompile follow: still left out. One fewer: pooled, nothing left out.
  const std::int64_t last = 10 - kMinKeptAfterCompile - 1;
  EXPECT_EQ(check_timing_pass(facts, {{MeasuredPass::timing, last, compile_at(1, 2)}}, 10).excluded_iterations, last + 1);
  const ExecutionCheck pooled = check_timing_pass(facts, {{MeasuredPass::timing, last + 1, compile_at(1, 2)}}, 10);
  EXPECT_EQ(pooled.excluded_iterations, 0);
  EXPECT_TRUE(pooled.pooled);
  EXPECT_EQ(kept_samples(samples, pooled), samples);

  // No compile: nothing left out, no warning.
  const ExecutionCheck clean = check_timing_pass(facts, {}, 10);
  EXPECT_EQ(clean.excluded_iterations, 0);
  EXPECT_FALSE(clean.pooled);
  EXPECT_TRUE(execution_warnings("compile", true, clean, "cpu").empty());
}

// Dynamo giving up at its recompile limit compiles nothing: the samples up to the last real compile are left
// out (iteration 1: 2 samples), not those up to the limit (iteration 3), and the calls after it stay, with a
// warning of their own that says what they run; the compile warning lists the compile alone.
TEST(ExecutionCheck, TheRecompileLimitLeavesNoSampleOutAndIsWarnedOf) {
  ExecutionFacts facts;
  facts.dynamo = true;
  CompileEvent limit = compile_at(7, 7, "0/8", CompileEventKind::recompile_limit);
  limit.reason = "recompile_limit = 8; last guard failed: self.n == 3 (models.py:9 in forward)";
  const std::vector<MeasuredCompile> compiles{{MeasuredPass::timing, 1, compile_at(1, 2, "0/7")},
                                              {MeasuredPass::timing, 3, limit}};
  const ExecutionCheck check = check_timing_pass(facts, compiles, 10);
  EXPECT_EQ(check.excluded_iterations, 2);
  EXPECT_FALSE(check.pooled);
  const auto warnings = execution_warnings("compile", true, check, "cpu");
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].code, WarningCode::compiled_while_measuring);
  EXPECT_EQ(warnings[0].message.find("recompile limit"), std::string::npos) << warnings[0].message;
  EXPECT_NE(warnings[0].message.find("inside 1 measured iteration(s)"), std::string::npos) << warnings[0].message;
  EXPECT_EQ(warnings[1].code, WarningCode::recompile_limit_hit);
  EXPECT_EQ(warnings[1].message,
            "path compile: Dynamo hit its recompile limit in timing iteration 3 (recompile_limit = 8; last guard failed: "
            "self.n == 3 (models.py:9 in forward)): from then on a call whose guards match no compiled graph runs the "
            "model uncompiled, so its wall times after that are not those of compiled code; find what recompiles "
            "(TORCH_LOGS=recompiles) or raise torch._dynamo.config.recompile_limit");
  // The limit alone: nothing left out, one warning.
  const ExecutionCheck alone = check_timing_pass(facts, {{MeasuredPass::timing, 0, limit}}, 10);
  EXPECT_EQ(alone.excluded_iterations, 0);
  EXPECT_FALSE(alone.pooled);
  ASSERT_EQ(execution_warnings("compile", true, alone, "cpu").size(), 1u);
  // Hit outside every measured iteration (a warm-up): one report warning naming the Dynamo paths; none when a
  // path's check holds the event, or when there is no such event.
  const std::vector<CompileEvent> events{compile_at(1, 2, "0/7"), limit};
  const auto outside = recompile_limit_outside_measured(events, {}, {"compile", "compile/no-guards"});
  ASSERT_TRUE(outside.has_value());
  EXPECT_EQ(outside->code, WarningCode::recompile_limit_hit);
  EXPECT_NE(outside->message.find("outside the timing pass's measured calls (in a build, a warm-up, the execution "
                                   "check's probe or a later pass: memory, split, --threads) (recompile_limit = 8;"),
            std::string::npos) << outside->message;
  EXPECT_NE(outside->message.find("so what compile, compile/no-guards measured after it may be of uncompiled code"),
            std::string::npos) << outside->message;
  EXPECT_FALSE(recompile_limit_outside_measured(events, {&check}, {"compile"}).has_value());
  EXPECT_FALSE(recompile_limit_outside_measured({compile_at(1, 2)}, {}, {"compile"}).has_value());
}

// The probe after the timing pass says a Dynamo path ran uncompiled code: which reason, and the one warning
// it calls for, by hand. A probe that found compiled code, or none made (a path without Dynamo), says nothing.
TEST(ExecutionCheck, APathThatRanUncompiledIsSaidToAndWarnedOf) {
  ExecutionFacts facts;
  facts.dynamo = true;
  facts.graphs = 1;
  ExecutionCheck check = check_timing_pass(facts, {}, 10);
  EXPECT_FALSE(uncompiled_by(check).has_value());
  check.compiled_call = CompiledCall::compiled;
  EXPECT_FALSE(ran_uncompiled(check));
  EXPECT_TRUE(execution_warnings("compile", true, check, "cpu").empty());

  check.compiled_call = CompiledCall::guards_missed;
  EXPECT_EQ(uncompiled_by(check), UncompiledBy::guards_missed);
  auto warnings = execution_warnings("compile", true, check, "cpu");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, WarningCode::ran_uncompiled);
  EXPECT_EQ(warnings[0].message,
            "path compile ran uncompiled: a call right after its timing pass had a frame whose guards matched none "
            "of its compiled entries (as past Dynamo's recompile limit), so its figures are of calls that ran (at least in part) "
            "uncompiled, not of compiled code; the explanation peels no layer of it and the deployment summary does "
            "not weigh it; find what recompiles (TORCH_LOGS=recompiles) or raise torch._dynamo.config.recompile_limit");
  // A variant is in no deployment summary.
  warnings = execution_warnings("compile/no-guards", false, check, "cpu");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].message.find("the explanation peels no layer below it (its chain stops above it); find"),
            std::string::npos) << warnings[0].message;

  check.compiled_call = CompiledCall::no_frame;
  EXPECT_EQ(uncompiled_by(check), UncompiledBy::no_frame);
  warnings = execution_warnings("compile", true, check, "cpu");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].message.find("entered no compiled frame (Dynamo skipped its function)"), std::string::npos);

  // No compiled graph ran in the probe call, however its frames matched.
  check.compiled_call = CompiledCall::no_graph;
  EXPECT_EQ(uncompiled_by(check), UncompiledBy::no_graph);
  warnings = execution_warnings("compile", true, check, "cpu");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].message.find("ran no compiled graph (Dynamo made none of what it ran, or its code is disabled)"),
            std::string::npos);
  // Dynamo counting no new graph for the path is not enough (a submodule's frames share their cache with
  // another compile path's): a probe that ran compiled code, or none, says nothing.
  check.compiled_call = CompiledCall::compiled;
  check.facts.graphs = 0;
  EXPECT_FALSE(ran_uncompiled(check));
  check.compiled_call.reset();
  EXPECT_FALSE(ran_uncompiled(check));
}

TEST(ExecutionCheck, CudaGraphUseFollowsTheFactsAndTheEvents) {
  ExecutionFacts facts;
  facts.dynamo = true;
  EXPECT_EQ(check_timing_pass(facts, {}, 5).cuda_graphs, CudaGraphUse::not_applicable);
  facts.cuda_graphs_expected = true;
  ExecutionCheck check = check_timing_pass(facts, {}, 5);
  EXPECT_EQ(check.cuda_graphs, CudaGraphUse::replayed);
  // A Dynamo recompile is no missed replay; a recording in the split pass is.
  check = check_timing_pass(facts, {{MeasuredPass::timing, 0, compile_at(1, 2)}}, 5);
  EXPECT_EQ(check.cuda_graphs, CudaGraphUse::replayed);
  add_split_pass(check, {{MeasuredPass::split, 1, compile_at(5, 6, "0/0", CompileEventKind::cuda_graph_recording)}});
  EXPECT_EQ(check.cuda_graphs, CudaGraphUse::not_replayed);
  ASSERT_EQ(check.measured_compiles.size(), 2u);
  // add_split_pass replaces an earlier split pass's events.
  add_split_pass(check, {});
  EXPECT_EQ(check.measured_compiles.size(), 1u);
  EXPECT_EQ(check.cuda_graphs, CudaGraphUse::replayed);
  facts.cuda_graph_skip_reason = "skipping cudagraphs due to mutated inputs (1 instances)";
  EXPECT_EQ(check_timing_pass(facts, {}, 5).cuda_graphs, CudaGraphUse::skipped);
}

TEST(ExecutionCheck, WarningsNameWhatRanAndWhatWasLeftOut) {
  ExecutionFacts facts;
  facts.dynamo = true;
  facts.graphs = 2;
  facts.graph_breaks = {{"Call to `torch._dynamo.graph_break()`", 1}};
  facts.device = "cuda:0";
  CompileEvent event = compile_at(1'000, 1'201'000, "0/1");
  event.reason = "G['LATE'] == False";
  ExecutionCheck check = check_timing_pass(facts, {{MeasuredPass::timing, 3, event}}, 10);
  add_split_pass(check, {{MeasuredPass::split, 2, compile_at(5, 6, "0/2")}});
  const auto warnings = execution_warnings("compile", true, check, "cpu");
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_EQ(warnings[0].code, WarningCode::compiled_while_measuring);
  EXPECT_EQ(warnings[0].message,
            "path compile: the framework compiled inside 2 measured iteration(s) (timing iteration 3: Dynamo compile 0/1 "
            "(1.200 ms; G['LATE'] == False), split iteration 2: Dynamo compile 0/2 (1 ns)); its wall times leave out "
            "the 4 timing-pass samples up to the last compile; its device-time split mixes the programs before and after");
  EXPECT_EQ(warnings[1].code, WarningCode::graph_breaks);
  EXPECT_EQ(warnings[1].message,
            "path compile: Dynamo broke the graph 1 time(s) (Call to `torch._dynamo.graph_break()`), 2 graphs: Python "
            "runs between the compiled graphs on every call");
  EXPECT_EQ(warnings[2].code, WarningCode::path_device_differs);
  // A variant shares its path's graphs: their breaks are the path's warning, not its own.
  EXPECT_EQ(execution_warnings("compile/no-guards", false, check_timing_pass(facts, {}, 10), "cuda").size(), 0u);

  facts = ExecutionFacts{};
  facts.cuda_graphs_expected = true;
  facts.cuda_graph_skip_reason = "skipping cudagraphs due to cpu device (arg1_1)";
  const auto skipped = execution_warnings("compile:reduce-overhead", true, check_timing_pass(facts, {}, 10), "cuda");
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].message,
            "path compile:reduce-overhead ran without CUDA graphs: skipping cudagraphs due to cpu device (arg1_1); its "
            "figures are not those of CUDA-graph replay");
  const ExecutionCheck pooled = check_timing_pass(ExecutionFacts{}, {{MeasuredPass::timing, 9, event}}, 10);
  const auto pooled_warnings = execution_warnings("eager", true, pooled, "cpu");
  ASSERT_EQ(pooled_warnings.size(), 1u);
  EXPECT_NE(pooled_warnings[0].message.find("so its wall times pool the programs before and after it; raise --min-runs"),
            std::string::npos)
      << pooled_warnings[0].message;
}

}  // namespace
}  // namespace ohprof
