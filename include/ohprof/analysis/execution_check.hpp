#pragma once
// The execution check (docs/metrics.md, "Execution check"): which compile events fell inside a path's
// measured iterations, which of its timing-pass samples are left out because of them, whether its CUDA
// graphs replayed, and the warnings these call for. Pure functions over plain data.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/model/execution_check.hpp"
#include "ohprof/model/timeline.hpp"
#include "ohprof/model/warning.hpp"

namespace ohprof {

// The events that began inside one of `windows` (start_ns in [window start, window end]), each with the
// window's index, in time order. An event that began outside every window (the build, a warm-up, between
// iterations) is none of them.
std::vector<MeasuredCompile> compiles_in_iterations(const std::vector<CompileEvent>& events,
                                                    const std::vector<IterationWindow>& windows, MeasuredPass pass);

// The execution check of a path after its timing pass of `samples` iterations: the timing-pass compiles,
// and the samples left out. With a compile in timing iteration k (the last such), the samples 0..k are
// left out when at least kMinKeptAfterCompile follow; otherwise none is and the check says `pooled`.
ExecutionCheck check_timing_pass(const ExecutionFacts& facts, const std::vector<MeasuredCompile>& timing_compiles,
                                 std::size_t samples);

// Adds the split pass's compiles and settles the CUDA-graph use: skipped when torch gave a skip reason,
// not-replayed when a measured call recorded a graph or ran it eagerly, replayed otherwise; not
// applicable when the path was not to use CUDA graphs.
void add_split_pass(ExecutionCheck& check, const std::vector<MeasuredCompile>& split_compiles);
CudaGraphUse cuda_graph_use(const ExecutionCheck& check);

// The samples the path's figures use: `samples` less the check's excluded leading ones.
std::vector<std::int64_t> kept_samples(const std::vector<std::int64_t>& samples, const ExecutionCheck& check);

// The warnings a path's check calls for: compiles while measured (compiled-while-measuring), Dynamo's
// recompile limit hit while measured (recompile-limit-hit), graph breaks of an asked path (graph-breaks),
// CUDA graphs not replayed or skipped (cuda-graphs-not-replayed), and outputs on another device than the
// one measured (path-device-differs; `device` "cpu" or "cuda").
std::vector<Warning> execution_warnings(const std::string& path, bool asked_path, const ExecutionCheck& check,
                                        const std::string& device);

// Dynamo's recompile limit hit outside every measured iteration (a build, a warm-up, or a later pass: memory,
// --threads, the split pass's unmeasured calls): the first such event of `events` that no check's
// measured_compiles holds, as a recompile-limit-hit warning that names the Dynamo paths (`dynamo_paths`, which
// may run uncompiled from then on); none when there is none.
std::optional<Warning> recompile_limit_outside_measured(const std::vector<CompileEvent>& events,
                                                        const std::vector<const ExecutionCheck*>& checks,
                                                        const std::vector<std::string>& dynamo_paths);

}  // namespace ohprof
