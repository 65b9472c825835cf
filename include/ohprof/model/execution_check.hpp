#pragma once
// What a measured path ran (docs/metrics.md, "Execution check"): whether a compiled path compiled again
// while it was measured, how many graphs Dynamo made of it and where it broke the graph, whether a
// reduce-overhead path replayed CUDA graphs, and the device its outputs came from. The figures of a path
// are of the program the user thinks it is only when these say so.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

// Work the framework does inside a call besides running the program: a Dynamo compile (a recompile after
// the first), Inductor's autotuning at first use, or, in a CUDA-graph tree, recording a graph or running
// the graph's function eagerly (its warm-up) instead of replaying; or Dynamo giving up on a function at its
// recompile limit, after which a call whose guards match no cached graph runs the function uncompiled (an
// instant: start and end are the same).
#define OHPROF_COMPILE_EVENT_KIND_VALUES(X)       \
  X(dynamo_compile, "dynamo-compile")             \
  X(autotuning, "autotuning")                     \
  X(cuda_graph_recording, "cuda-graph-recording") \
  X(cuda_graph_eager, "cuda-graph-eager")         \
  X(recompile_limit, "recompile-limit")
OHPROF_ENUM_CLASS(CompileEventKind, OHPROF_COMPILE_EVENT_KIND_VALUES)
std::optional<CompileEventKind> parse_compile_event_kind(const std::string& text);

// One such piece of work, on CLOCK_MONOTONIC (the clock of IterationWindow).
struct CompileEvent {
  CompileEventKind kind = CompileEventKind::dynamo_compile;
  std::string compile_id;  // Dynamo's "frame/recompile" ("0/1"), "" when torch gives none
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::string reason;      // a recompile's first guard failure, as torch words it ("" when not known)
  friend bool operator==(const CompileEvent&, const CompileEvent&) = default;
};

// Whether the event is Dynamo giving up at its recompile limit (not work inside the call: no compile).
bool gave_up(const CompileEvent& event);

// The pass a measured iteration belongs to (docs/metrics.md, "Two passes").
#define OHPROF_MEASURED_PASS_VALUES(X) \
  X(timing, "timing")                    \
  X(split, "split")
OHPROF_ENUM_CLASS(MeasuredPass, OHPROF_MEASURED_PASS_VALUES)

// A compile event that began inside one measured iteration of a path.
struct MeasuredCompile {
  MeasuredPass pass = MeasuredPass::timing;
  std::int64_t iteration = 0;  // the path's iteration index in that pass
  CompileEvent event;
  friend bool operator==(const MeasuredCompile&, const MeasuredCompile&) = default;
};

// A graph break Dynamo reported while compiling the path, and how often.
struct GraphBreak {
  std::string reason;  // the first line of torch's message
  std::int64_t count = 0;
  friend bool operator==(const GraphBreak&, const GraphBreak&) = default;
};

// Whether a path's calls were to replay CUDA graphs, and what the record says they did.
#define OHPROF_CUDA_GRAPH_USE_VALUES(X)                                                                                      \
  X(not_applicable, "not-applicable")  /* not a reduce-overhead path, or not on a CUDA device */                             \
  X(replayed, "replayed")              /* every measured call replayed (no recording or eager run inside a measured call) */ \
  X(not_replayed, "not-replayed")      /* some measured calls recorded a graph or ran eagerly (the events say which) */      \
  X(skipped, "skipped")                /* torch did not use CUDA graphs for the compiled graph (skip_reason says why) */
OHPROF_ENUM_CLASS(CudaGraphUse, OHPROF_CUDA_GRAPH_USE_VALUES)
std::optional<CudaGraphUse> parse_cuda_graph_use(const std::string& text);

// What one call of a Dynamo path ran, as Dynamo's guard-complete hook saw it (the probe of
// docs/metrics.md, "Execution check", made right after the timing pass).
#define OHPROF_COMPILED_CALL_VALUES(X)                                                                         \
  X(compiled, "compiled")            /* every frame's lookup matched a cached entry, and a compiled graph ran */ \
  X(guards_missed, "guards-missed")  /* a frame's guards matched no entry and it was not recompiled: uncompiled */ \
  X(no_frame, "no-frame")            /* Dynamo looked up no frame: it skipped the function */                    \
  X(no_graph, "no-graph")            /* the frames matched, but no compiled graph ran (none made, or disabled) */
OHPROF_ENUM_CLASS(CompiledCall, OHPROF_COMPILED_CALL_VALUES)
std::optional<CompiledCall> parse_compiled_call(const std::string& text);

// Why a Dynamo path's probe gave no CompiledCall: its check is then unknown, and says why.
#define OHPROF_PROBE_UNKNOWN_VALUES(X)                                                                     \
  X(not_probed, "not-probed")          /* the run stopped (interrupted, or an error) before the probe */       \
  X(no_hook, "no-hook")                /* this torch has no guard-complete hook to watch the call with */     \
  X(limit_in_probe, "limit-in-probe")  /* Dynamo hit its recompile limit inside the probe's own call */      \
  X(probe_failed, "probe-failed")      /* the probe's call raised (ExecutionCheck::compiled_call_error) */
OHPROF_ENUM_CLASS(ProbeUnknown, OHPROF_PROBE_UNKNOWN_VALUES)

// What a path's probe returned (PathRunner::compiled_call): a result, or why there is none.
struct CompiledCallProbe {
  std::optional<CompiledCall> result;
  std::optional<ProbeUnknown> unknown;  // set exactly when a Dynamo path's result is not
  std::string error;                    // probe_failed: the exception, one line
  friend bool operator==(const CompiledCallProbe&, const CompiledCallProbe&) = default;
};
// What the Python probe's answer says (ohprof/_paths.py, PythonPath.probe): a CompiledCall's name is the
// result; "no-hook" and "limit-in-probe" are the reasons it gives for having none; anything else is
// probe_failed with what it answered (the other reasons are this side's to say).
CompiledCallProbe probe_from_answer(const std::string& answer);

// What the path's runtime knows once the path is built (its first call made).
struct ExecutionFacts {
  bool dynamo = false;                // its calls go through Dynamo (a torch.compile path, its no-guards variant)
  std::optional<std::int64_t> graphs;  // graphs Dynamo compiled for its first call; unknown when torch does not say
  std::vector<GraphBreak> graph_breaks;  // those Dynamo reported while compiling it
  bool cuda_graphs_expected = false;  // reduce-overhead on a CUDA device
  std::string cuda_graph_skip_reason;  // torch's reason it did not use CUDA graphs ("" : it did, or not expected)
  std::string device;                 // the device of the first call's outputs ("cpu", "cuda:0"; "" unknown)
  std::string unobserved;             // why compile events cannot be seen in this torch ("" : they can)
  // Inductor's FX-graph cache while the path compiled (torch._dynamo.utils.counters): lookups that hit
  // (the code was loaded from the on-disk cache) and that did not (a miss or a bypass: generated). Unknown
  // for a path that does not compile (or a variant of one) and when torch does not count them.
  std::optional<std::int64_t> fx_cache_hits;
  std::optional<std::int64_t> fx_cache_misses;
  friend bool operator==(const ExecutionFacts&, const ExecutionFacts&) = default;
};

// The execution check of one measured path (PathResult::execution).
struct ExecutionCheck {
  ExecutionFacts facts;
  std::vector<MeasuredCompile> measured_compiles;  // inside measured iterations, in time order
  // Timing-pass samples left out of the figures: the iterations up to and including the last one that
  // compiled, when at least kMinKeptAfterCompile follow it (docs/metrics.md, "Execution check").
  std::int64_t excluded_iterations = 0;
  std::vector<std::int64_t> excluded_samples_ns;  // their wall times, kept in the report (nothing is lost)
  bool pooled = false;  // too few followed the last compile: every sample kept, mixed programs
  CudaGraphUse cuda_graphs = CudaGraphUse::not_applicable;
  // The probe call after the timing pass (a Dynamo path); null when the path is not one, or the probe gave
  // no result, and then compiled_call_unknown says why (null for a path that is not probed at all).
  std::optional<CompiledCall> compiled_call;
  std::optional<ProbeUnknown> compiled_call_unknown;
  std::string compiled_call_error;  // probe_failed: what the call raised, one line
  friend bool operator==(const ExecutionCheck&, const ExecutionCheck&) = default;
};
// The check takes the probe's result, or why there is none.
void record_probe(ExecutionCheck& check, CompiledCallProbe probe);

// Why a Dynamo path's figures are of uncompiled code (docs/metrics.md, "Execution check"): its probe call
// had a frame whose guards matched no compiled entry, entered no frame, or ran no compiled graph.
enum class UncompiledBy { guards_missed, no_frame, no_graph };
std::optional<UncompiledBy> uncompiled_by(const ExecutionCheck& check);
// uncompiled_by has a value: the path's figures are not those of a compiled path.
bool ran_uncompiled(const ExecutionCheck& check);

// Fewest timing-pass samples after a path's last measured compile for the earlier ones to be left out.
inline constexpr std::int64_t kMinKeptAfterCompile = 3;

}  // namespace ohprof
