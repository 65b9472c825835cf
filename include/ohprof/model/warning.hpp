#pragma once
// Warnings: what ohprof could not measure or use, and the hints the samples call for. Each has a
// stable code, the JSON's `warnings[].code` (docs/report-schema.md, "Warnings"; never renamed: scripts
// filter on them), and its one line of text, written where the warning is raised.
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

#define OHPROF_WARNING_CODE_VALUES(X)                                                                                                                            \
  /* reading a trace (docs/analyze.md) */                                                                                                                        \
  X(ops_without_launch, "ops-without-launch")                            /* GPU ops whose correlation no launch call in the trace has */                         \
  X(step_cut_at_recording_end, "step-cut-at-recording-end")              /* a ProfilerStep ends after the trace's last event */                                  \
  X(trace_events_unusable, "trace-events-unusable")                      /* events ohprof needs but could not use (missing fields) */                            \
  X(trace_categories_unknown, "trace-categories-unknown")                /* events of categories Kineto does not write */                                        \
  X(device_events_unread, "device-events-unread")                        /* device-side events of categories ohprof does not read (MTIA, range profiler) */      \
  /* the analysis counters (docs/metrics.md, "Counters") */                                                                                                      \
  X(ops_outside_iterations, "ops-outside-iterations")                                                                                                            \
  X(duplicate_launch_correlations, "duplicate-launch-correlations")                                                                                              \
  X(ops_invalid_interval, "ops-invalid-interval")                                                                                                                \
  /* collectors (docs/cupti.md, docs/cpu-collector.md) */                                                                                                        \
  X(cupti_buffer_unreadable, "cupti-buffer-unreadable")                                                                                                          \
  X(cupti_buffers_zeroed_in_run, "cupti-buffers-zeroed-in-run")                                                                                                  \
  X(cupti_version_old, "cupti-version-old")                              /* a CUPTI before 13.0 Update 1, whose sync records and shutdown ohprof relies on */    \
  X(record_function_ranges_unpaired, "record-function-ranges-unpaired")                                                                                          \
  X(kernels_unattributed, "kernels-unattributed")                        /* kernels named in a CPU package's generated code never recorded */                    \
  X(kernel_attribution_failed, "kernel-attribution-failed")              /* the package's generated code could not be read */                                    \
  /* runtimes */                                                                                                                                                 \
  X(package_inputs_unrecorded, "package-inputs-unrecorded")              /* the AOTI package records no input specs: its input checks stay on */                 \
  /* measurement (docs/metrics.md) */                                                                                                                            \
  X(slow_first_run, "slow-first-run")                                                                                                                            \
  X(outliers, "outliers")                                                                                                                                        \
  X(cores_busy, "cores-busy")                                            /* the measuring thread waited for a CPU during a path's timed calls */                 \
  X(criteria_unmet, "criteria-unmet")                                    /* compare stopped before its stopping criteria were met */                             \
  X(stopped_early, "stopped-early")                                      /* an error ended the measurement; the report keeps what was measured */                \
  X(outputs_differ, "outputs-differ")                                    /* compare: a path's outputs differ from the reference path's */                        \
  /* sweep (docs/sweep.md) */                                                                                                                                    \
  X(sweep_point_failed, "sweep-point-failed")                            /* a point's compare failed; the sweep went on */                                       \
  X(sweep_page_not_written, "sweep-page-not-written")                    /* the sweep's page could not be drawn; the report was written */                       \
  /* diff (docs/diff.md) */                                                                                                                                      \
  X(diff_context_differs, "diff-context-differs")                        /* the two reports were made with another torch, ohprof, host, ... */                   \
  X(diff_incomparable_forced, "diff-incomparable-forced")                /* --force: a reason the reports are not comparable, diffed anyway */                   \
  X(diff_path_unmatched, "diff-path-unmatched")                          /* a path (or sweep point) is in one report only */                                     \
  X(diff_report_incomplete, "diff-report-incomplete")                    /* a report lacks something the diff would use (a sweep point's report) */              \
  X(report_values_unknown, "report-values-unknown")                      /* a report read back holds texts this ohprof does not know: read as defaults */        \
  /* reports */                                                                                                                                                  \
  X(trace_not_written, "trace-not-written")                              /* --export-trace after Ctrl-C before the split pass: no timeline to write */           \
  /* many ranks (docs/ranks.md) */                                                                                                                               \
  X(rank_from_position, "rank-from-position")                            /* a trace without distributedInfo.rank: its rank is its position */                    \
  X(ranks_steps_differ, "ranks-steps-differ")                            /* a step some ranks have and others do not */                                          \
  X(ranks_collectives_unmatched, "ranks-collectives-unmatched")          /* collectives of a step that do not line up across its ranks */                        \
  X(ranks_job_differs, "ranks-job-differs")                              /* the traces say different world sizes or backends */                                  \
  X(trace_failed, "trace-failed")                                        /* a trace of the job could not be analysed; the others were */                         \
  /* --dump-code (docs/code-dump.md) */                                                                                                                          \
  X(code_dump_incomplete, "code-dump-incomplete")                        /* a piece of the dump could not be had (no split, a package not readable) */           \
  /* compare (docs/usage.md, "When torch.export fails") */                                                                                                       \
  X(paths_not_measured, "paths-not-measured")                            /* torch.export failed, or no AOTI package can be built here: the AOTI paths were not measured, the others were */    \
  /* the execution check (docs/metrics.md, "Execution check") */                                                                                                 \
  X(compiled_while_measuring, "compiled-while-measuring")                /* a Dynamo compile, autotuning or CUDA-graph recording inside a measured iteration */  \
  X(graph_breaks, "graph-breaks")                                        /* Dynamo broke an asked path's graph */                                                \
  X(recompile_limit_hit, "recompile-limit-hit")                          /* Dynamo gave up compiling a function: calls that miss its graphs run uncompiled */    \
  X(ran_uncompiled, "ran-uncompiled")                                    /* a Dynamo path's probe call after its timing pass ran no compiled graph */            \
  X(cuda_graphs_not_replayed, "cuda-graphs-not-replayed")                /* a reduce-overhead path skipped CUDA graphs, or some measured calls did not replay */ \
  X(path_device_differs, "path-device-differs")                          /* a path's outputs came from another device than the one measured */                   \
  /* compare --threads (docs/metrics.md, "Concurrent callers") */                                                                                                \
  X(threads_incomplete, "threads-incomplete")                            /* a path's callers could not be made or failed, or the pass compiled */                \
  X(threads_callers_slower, "threads-callers-slower")                    /* a call on a caller thread took materially longer than on the measuring thread */     \
  /* compare --cold-start (docs/metrics.md, "Cold start") */                                                                                                     \
  X(cold_start_incomplete, "cold-start-incomplete")                      /* a fresh process failed, or a cache state could not be measured */                    \
  X(cold_start_outputs_differ, "cold-start-outputs-differ")              /* a fresh process's first output differs from the reference */
OHPROF_ENUM_CLASS(WarningCode, OHPROF_WARNING_CODE_VALUES)

struct Warning {
  WarningCode code = WarningCode::stopped_early;
  std::string message;  // one line
  friend bool operator==(const Warning&, const Warning&) = default;
};

// Every code, in declaration order (for the documentation check).
std::vector<WarningCode> all_warning_codes();
std::optional<WarningCode> parse_warning_code(const std::string& text);  // to_string's inverse

}  // namespace ohprof
