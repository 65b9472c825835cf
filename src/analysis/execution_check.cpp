#include "ohprof/analysis/execution_check.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ohprof/base/format.hpp"

namespace ohprof {
namespace {

const char* event_words(CompileEventKind kind) {
  switch (kind) {
    case CompileEventKind::dynamo_compile: return "Dynamo compile";
    case CompileEventKind::autotuning: return "autotuning";
    case CompileEventKind::cuda_graph_recording: return "CUDA-graph recording";
    case CompileEventKind::cuda_graph_eager: return "CUDA-graph eager run";
    case CompileEventKind::recompile_limit: return "Dynamo's recompile limit";
  }
  return "compile";
}

// "timing iteration 12: Dynamo compile 0/1 (1.20 s; guard failed: ...)", at most three, then "and N more".
std::string compile_list(const std::vector<MeasuredCompile>& compiles) {
  std::string text;
  const std::size_t shown = std::min<std::size_t>(compiles.size(), 3);
  for (std::size_t i = 0; i < shown; ++i) {
    const MeasuredCompile& c = compiles[i];
    std::string detail = format_duration(static_cast<double>(c.event.end_ns - c.event.start_ns));
    if (!c.event.reason.empty()) detail += "; " + c.event.reason;
    text += fmt::format("{}{} iteration {}: {}{} ({})", i == 0 ? "" : ", ", to_string(c.pass), c.iteration,
                        event_words(c.event.kind), c.event.compile_id.empty() ? "" : " " + c.event.compile_id, detail);
  }
  if (compiles.size() > shown) text += fmt::format(", and {} more", compiles.size() - shown);
  return text;
}

std::vector<MeasuredCompile> of_pass(const std::vector<MeasuredCompile>& compiles, MeasuredPass pass) {
  std::vector<MeasuredCompile> out;
  std::copy_if(compiles.begin(), compiles.end(), std::back_inserter(out),
               [&](const MeasuredCompile& c) { return c.pass == pass; });
  return out;
}

std::size_t distinct_iterations(const std::vector<MeasuredCompile>& compiles) {
  std::vector<std::int64_t> iterations;
  for (const auto& c : compiles) iterations.push_back(c.iteration);
  std::sort(iterations.begin(), iterations.end());
  return static_cast<std::size_t>(std::unique(iterations.begin(), iterations.end()) - iterations.begin());
}

}  // namespace

std::vector<MeasuredCompile> compiles_in_iterations(const std::vector<CompileEvent>& events,
                                                    const std::vector<IterationWindow>& windows, MeasuredPass pass) {
  std::vector<MeasuredCompile> out;
  for (const CompileEvent& event : events) {
    for (const IterationWindow& window : windows) {
      if (event.start_ns >= window.start_ns && event.start_ns <= window.end_ns) {
        out.push_back(MeasuredCompile{pass, window.index, event});
        break;
      }
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const MeasuredCompile& a, const MeasuredCompile& b) { return a.event.start_ns < b.event.start_ns; });
  return out;
}

ExecutionCheck check_timing_pass(const ExecutionFacts& facts, const std::vector<MeasuredCompile>& timing_compiles,
                                 std::size_t samples) {
  ExecutionCheck check;
  check.facts = facts;
  check.measured_compiles = timing_compiles;
  // The samples up to the last compile are left out; Dynamo giving up compiles nothing, and the calls after it
  // are what the path now runs (execution_warnings says what that is).
  std::int64_t last = -1;
  for (const auto& c : timing_compiles) {
    if (!gave_up(c.event)) last = std::max(last, c.iteration);
  }
  if (last >= 0) {
    const std::int64_t after = static_cast<std::int64_t>(samples) - (last + 1);
    if (after >= kMinKeptAfterCompile) {
      check.excluded_iterations = last + 1;
    } else {
      check.pooled = true;
    }
  }
  check.cuda_graphs = cuda_graph_use(check);
  return check;
}

void add_split_pass(ExecutionCheck& check, const std::vector<MeasuredCompile>& split_compiles) {
  std::erase_if(check.measured_compiles, [](const MeasuredCompile& c) { return c.pass == MeasuredPass::split; });
  check.measured_compiles.insert(check.measured_compiles.end(), split_compiles.begin(), split_compiles.end());
  check.cuda_graphs = cuda_graph_use(check);
}

CudaGraphUse cuda_graph_use(const ExecutionCheck& check) {
  if (!check.facts.cuda_graphs_expected) return CudaGraphUse::not_applicable;
  if (!check.facts.cuda_graph_skip_reason.empty()) return CudaGraphUse::skipped;
  const bool missed = std::any_of(check.measured_compiles.begin(), check.measured_compiles.end(), [](const MeasuredCompile& c) {
    return c.event.kind == CompileEventKind::cuda_graph_recording || c.event.kind == CompileEventKind::cuda_graph_eager;
  });
  return missed ? CudaGraphUse::not_replayed : CudaGraphUse::replayed;
}

std::vector<std::int64_t> kept_samples(const std::vector<std::int64_t>& samples, const ExecutionCheck& check) {
  const auto skip = static_cast<std::size_t>(std::clamp<std::int64_t>(check.excluded_iterations, 0,
                                                                      static_cast<std::int64_t>(samples.size())));
  return {samples.begin() + static_cast<std::ptrdiff_t>(skip), samples.end()};
}

std::vector<Warning> execution_warnings(const std::string& path, bool asked_path, const ExecutionCheck& check,
                                        const std::string& device) {
  std::vector<Warning> out;
  std::vector<MeasuredCompile> work;
  std::vector<MeasuredCompile> limits;
  for (const MeasuredCompile& c : check.measured_compiles) (gave_up(c.event) ? limits : work).push_back(c);
  const auto timing = of_pass(work, MeasuredPass::timing);
  const auto split = of_pass(work, MeasuredPass::split);
  if (!timing.empty() || !split.empty()) {
    std::string text = fmt::format("path {}: the framework compiled inside {} measured iteration(s) ({})", path,
                                   distinct_iterations(timing) + distinct_iterations(split), compile_list(work));
    if (check.excluded_iterations > 0) {
      text += fmt::format("; its wall times leave out the {} timing-pass samples up to the last compile", check.excluded_iterations);
    } else if (check.pooled) {
      text += fmt::format("; fewer than {} timing-pass samples follow the last compile, so its wall times pool the "
                          "programs before and after it; raise --min-runs", kMinKeptAfterCompile);
    }
    if (!split.empty()) text += "; its device-time split mixes the programs before and after";
    out.push_back(Warning{WarningCode::compiled_while_measuring, text});
  }
  if (!limits.empty()) {
    const MeasuredCompile& first = limits.front();
    out.push_back(Warning{WarningCode::recompile_limit_hit,
                          fmt::format("path {}: Dynamo hit its recompile limit in {} iteration {} ({}): from then on a "
                                      "call whose guards match no compiled graph runs the model uncompiled, so its {} "
                                      "after that {} not those of compiled code; find what recompiles "
                                      "(TORCH_LOGS=recompiles) or raise torch._dynamo.config.recompile_limit",
                                      path, to_string(first.pass), first.iteration, first.event.reason,
                                      first.pass == MeasuredPass::timing ? "wall times" : "device-time split",
                                      first.pass == MeasuredPass::timing ? "are" : "is")});
  }
  if (const std::optional<UncompiledBy> by = uncompiled_by(check)) {
    const char* what = "";
    const char* remedy = "";
    switch (*by) {
      case UncompiledBy::guards_missed:
        what = "a call right after its timing pass had a frame whose guards matched none of its compiled entries "
               "(as past Dynamo's recompile limit)";
        remedy = "find what recompiles (TORCH_LOGS=recompiles) or raise torch._dynamo.config.recompile_limit";
        break;
      case UncompiledBy::no_frame:
        what = "a call right after its timing pass entered no compiled frame (Dynamo skipped its function)";
        remedy = "see why Dynamo made no graph (TORCH_LOGS=graph_breaks,dynamo)";
        break;
      case UncompiledBy::no_graph:
        what = "a call right after its timing pass ran no compiled graph (Dynamo made none of what it ran, or "
               "its code is disabled), so its frames run the model's Python and eager ops";
        remedy = "see why Dynamo made no graph (TORCH_LOGS=graph_breaks,dynamo)";
        break;
    }
    out.push_back(Warning{WarningCode::ran_uncompiled,
                          fmt::format("path {} ran uncompiled: {}, so its figures are of calls that ran (at least in "
                                      "part) uncompiled, not of compiled code; the explanation peels no layer {}; {}",
                                      path, what, asked_path ? "of it and the deployment summary does not weigh it" : "below it (its chain stops above it)",
                                      remedy)});
  }
  std::int64_t breaks = 0;
  std::vector<std::string> reasons;
  for (const GraphBreak& b : check.facts.graph_breaks) {
    breaks += b.count;
    reasons.push_back(b.reason);
  }
  if (asked_path && breaks > 0) {
    std::string joined;
    for (std::size_t i = 0; i < reasons.size() && i < 3; ++i) joined += (i == 0 ? "" : "; ") + reasons[i];
    if (reasons.size() > 3) joined += fmt::format("; and {} more", reasons.size() - 3);
    out.push_back(Warning{WarningCode::graph_breaks,
                          fmt::format("path {}: Dynamo broke the graph {} time(s) ({}){}: Python runs between the "
                                      "compiled graphs on every call",
                                      path, breaks, joined,
                                      check.facts.graphs ? fmt::format(", {} graphs", *check.facts.graphs) : std::string())});
  }
  if (check.cuda_graphs == CudaGraphUse::skipped) {
    out.push_back(Warning{WarningCode::cuda_graphs_not_replayed,
                          fmt::format("path {} ran without CUDA graphs: {}; its figures are not those of CUDA-graph replay",
                                      path, check.facts.cuda_graph_skip_reason)});
  } else if (check.cuda_graphs == CudaGraphUse::not_replayed) {
    std::vector<MeasuredCompile> missed;
    for (const auto& c : check.measured_compiles) {
      if (c.event.kind == CompileEventKind::cuda_graph_recording || c.event.kind == CompileEventKind::cuda_graph_eager) {
        missed.push_back(c);
      }
    }
    out.push_back(Warning{WarningCode::cuda_graphs_not_replayed,
                          fmt::format("path {}: {} measured call(s) recorded a CUDA graph or ran its function eagerly "
                                      "instead of replaying ({})",
                                      path, distinct_iterations(missed), compile_list(missed))});
  }
  const std::string& ran_on = check.facts.device;
  if (!ran_on.empty() && !device.empty() && ran_on.rfind(device, 0) != 0) {
    out.push_back(Warning{WarningCode::path_device_differs,
                          fmt::format("path {} returned its outputs on {}, not on the measured device ({}); check how "
                                      "the path was built",
                                      path, ran_on, device)});
  }
  return out;
}

std::optional<Warning> recompile_limit_outside_measured(const std::vector<CompileEvent>& events,
                                                        const std::vector<const ExecutionCheck*>& checks,
                                                        const std::vector<std::string>& dynamo_paths) {
  for (const CompileEvent& event : events) {
    if (!gave_up(event)) continue;
    const bool measured = std::any_of(checks.begin(), checks.end(), [&](const ExecutionCheck* check) {
      return std::any_of(check->measured_compiles.begin(), check->measured_compiles.end(),
                         [&](const MeasuredCompile& c) { return c.event == event; });
    });
    if (measured) continue;
    return Warning{WarningCode::recompile_limit_hit,
                   fmt::format("Dynamo hit its recompile limit outside the timing pass's measured calls (in a build, "
                               "a warm-up, the execution check's probe or a later pass: memory, split, --threads) ({}): "
                               "from then on a call whose "
                               "guards match no compiled graph runs the model uncompiled, so what {} measured after it "
                               "may be of uncompiled code; find what recompiles (TORCH_LOGS=recompiles) or raise "
                               "torch._dynamo.config.recompile_limit",
                               event.reason, dynamo_paths.empty() ? std::string("the Dynamo paths")
                                                                  : fmt::format("{}", fmt::join(dynamo_paths, ", ")))};
  }
  return std::nullopt;
}

}  // namespace ohprof
