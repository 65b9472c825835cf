#include "ohprof/output/report_text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ohprof/base/format.hpp"
#include "ohprof/base/process_memory.hpp"

namespace ohprof {

std::string stop_reason_text(const StopReason& reason) {
  switch (reason.code) {
    case StopCode::none: return "";
    case StopCode::runs_reached: return "runs reached";
    case StopCode::converged: return "converged";
    case StopCode::max_runs_reached: return "max runs reached (unmet: " + reason.unmet + ")";
    case StopCode::time_limit: return "time limit (unmet: " + reason.unmet + ")";
    case StopCode::interrupted: return "interrupted";
    case StopCode::error: return "error";
    case StopCode::no_paths: return "no paths";
    case StopCode::end_of_trace: return "end of trace";
    case StopCode::in_progress: return "in progress";
  }
  return "";
}

std::optional<StopReason> stop_reason_from_text(std::string_view text) {
  for (const StopCode code : {StopCode::max_runs_reached, StopCode::time_limit}) {
    const std::string bare = stop_reason_text(StopReason(code));  // "max runs reached (unmet: )"
    const std::string_view head = std::string_view(bare).substr(0, bare.size() - 1);  // up to "unmet: "
    const std::string_view name = head.substr(0, head.find(" ("));
    if (text == name) return StopReason(code);
    if (text.starts_with(head) && text.ends_with(")")) {
      return StopReason(code, std::string(text.substr(head.size(), text.size() - head.size() - 1)));
    }
  }
  for (std::size_t i = 0; i < enum_texts(StopCode{}).size(); ++i) {
    const StopReason reason(static_cast<StopCode>(i));
    if (reason.code != StopCode::max_runs_reached && reason.code != StopCode::time_limit && text == stop_reason_text(reason)) {
      return reason;
    }
  }
  return std::nullopt;
}

std::string queue_unknown_clause(const PathVerdict& v) {
  const bool one = v.ops_queue_unknown == 1;
  return fmt::format("{} device op{} {} no launch call in the data, so when {} queued is not known", v.ops_queue_unknown,
                     one ? "" : "s", one ? "has" : "have", one ? "it was" : "they were");
}

namespace {

// A size with its sign: "+52.4 MB", "-4.10 kB" (a difference of two readings).
std::string signed_bytes(std::int64_t bytes) { return (bytes >= 0 ? "+" : "") + format_bytes(bytes); }

// The advice of docs/metrics.md, "Verdict" -> "Advice", one fragment per case.
constexpr const char* kKernelAdvice = "speed up the kernels (torch.compile mode=\"max-autotune\", lower precision)";
constexpr const char* kDeviceWaitAdvice = "overlap communication with compute, check cross-stream event waits";
constexpr const char* kCpuHostAdvice =
    "the host work around the kernels (Python wrapper, guards, allocation, operator dispatch) is the cost: "
    "AOTInductor's C++ wrapper (or compile:cpp-wrapper), a larger batch";

std::string percent(double share) { return fmt::format("{:.1f}%", 100.0 * share); }

// A piece of advice: its words, and the paths they name as remedies, which its own run may have measured
// slower (docs/metrics.md, "Remedies measured slower"). Each piece says what it names where it is written.
struct Advice {
  std::string text;
  std::vector<PathKind> remedies;
};

// Every torch.compile path kind.
std::vector<PathKind> compile_kinds() {
  std::vector<PathKind> out;
  for (const PathKindInfo& info : path_kinds()) {
    if (info.compiled) out.push_back(info.kind);
  }
  return out;
}

// "torch.compile mode=max-autotune": the default compile and the autotuning one, not the other modes; for a
// path that is a torch.compile already, the autotuning one only.
Advice kernel_advice(std::optional<PathKind> path) {
  if (path && path_kind_info(*path).compiled) return {kKernelAdvice, {PathKind::compile_max_autotune_no_cudagraphs}};
  return {kKernelAdvice, {PathKind::compile, PathKind::compile_max_autotune_no_cudagraphs}};
}

// Short names, as the table's lines call them.
const char* short_name(const PathVerdict& v, TimeShare share) {
  switch (share) {
    case TimeShare::busy: return "busy";
    case TimeShare::host_bound: return v.cpu_kernels ? "dispatch" : "host-bound";
    case TimeShare::device_wait: return "device-wait";
  }
  return "";
}

// The leading share, said in words, the device named by its noun (device_noun).
std::string long_name(const PathVerdict& v, TimeShare share, DeviceKind device) {
  const char* noun = device_noun(device);
  switch (share) {
    case TimeShare::busy: return v.cpu_kernels ? "CPU kernels busy" : fmt::format("{} busy", noun);
    case TimeShare::host_bound:
      return v.cpu_kernels ? "dispatch" : fmt::format("{} waiting for the host (nothing queued)", noun);
    case TimeShare::device_wait: return fmt::format("{0} waiting on the {0} (work queued, none running)", noun);
  }
  return "";
}

// "GPU busy 96.3% of wall (host-bound 0.1%, device-wait 3.6%)"; CPU runs leave device-wait out (always 0).
// Why host-bound and device-wait are ranges (split_share_text), after the shares that print them; "" when exact.
std::string queue_ranges_note(const PathVerdict& v) {
  if (!v.queue_open()) return "";
  return "; ranges: " + queue_unknown_clause(v);
}

// A share in the verdict's sentence: a range where ops without a launch call leave it open; the figure
// otherwise (where kernels do not record themselves, the sentence says which way each figure is a bound).
std::string clause_share(const PathVerdict& v, TimeShare share) {
  if (v.host_bound_share_least && share != TimeShare::busy) return split_share_text(v, share);
  return percent(share == TimeShare::busy ? v.busy_share : share == TimeShare::host_bound ? v.host_bound_share : v.device_wait_share);
}

std::string shares_clause(const PathVerdict& v, TimeShare lead, DeviceKind device) {
  std::string others;
  for (const TimeShare share : {TimeShare::busy, TimeShare::host_bound, TimeShare::device_wait}) {
    if (share == lead || (v.cpu_kernels && share == TimeShare::device_wait)) continue;
    if (!others.empty()) others += ", ";
    others += fmt::format("{} {}", short_name(v, share), clause_share(v, share));
  }
  return fmt::format("{} {} of wall ({}{})", long_name(v, lead, device), clause_share(v, lead), others, queue_ranges_note(v));
}

const char* host_state_words(HostState state) {
  switch (state) {
    case HostState::blocking: return "in blocking calls (synchronisations, blocking copies)";
    case HostState::launch: return "in launch calls";
    case HostState::other_api: return "in other runtime API calls (allocation, initialisation, code loading)";
    case HostState::harness: return "in ohprof's own end-of-iteration sync (the measurement, not the model)";
    case HostState::framework: return "in no runtime call (framework, Python, data loading)";
  }
  return "";
}

// The launch counts, where the host state makes them matter.
std::string launch_counts(const PathVerdict& v) {
  if (!v.host_state || (*v.host_state != HostState::launch && *v.host_state != HostState::framework)) return "";
  return fmt::format("{:g} launch{} per iteration, {:g} graph", v.launches_per_iteration,
                     v.launches_per_iteration == 1 ? "" : "es", v.graph_launches_per_iteration);
}

// What the launching threads did during the host-bound time.
std::string host_state_evidence(const PathVerdict& v) {
  if (!v.host_state) return "";
  const std::string counts = launch_counts(v);
  return fmt::format("the launching threads were {} for {} of that time{}", host_state_words(*v.host_state),
                     percent(v.host_state_share), counts.empty() ? counts : " (" + counts + ")");
}

// A remedy the path already is would contradict the measurement, so the AOTInductor paths and the
// C++-wrapper compile get their own host advice (docs/metrics.md, "Advice"): what the host work around
// their kernels is on a CPU run, and what is left to do.
struct PathHostAdvice {
  PathKind kind;
  const char* cpu_work;
  const char* remedy;
  std::optional<PathKind> names;  // the path the remedy names, if any
};
constexpr PathHostAdvice kPathHostAdvice[] = {
    {PathKind::aoti, "allocation, operator dispatch",
     "the path is already AOTInductor's C++ runner, with no Python on its call path; a larger batch amortizes it",
     std::nullopt},
    {PathKind::aoti_python, "the Python loader, allocation, operator dispatch",
     "calling the package from C++ (the aoti path) drops the Python loader around its runner; a larger batch "
     "amortizes it",
     PathKind::aoti},
    {PathKind::compile_cpp_wrapper, "guards, allocation, operator dispatch",
     "AOTInductor's C++ wrapper also drops Dynamo's guards and the Python call; a larger batch amortizes it",
     PathKind::aoti},
};

const PathHostAdvice* path_host_advice(std::optional<PathKind> path) {
  for (const PathHostAdvice& advice : kPathHostAdvice) {
    if (path == advice.kind) return &advice;
  }
  return nullptr;  // the general advice
}

std::vector<PathKind> own_remedies(const PathHostAdvice& own) {
  return own.names ? std::vector<PathKind>{*own.names} : std::vector<PathKind>{};
}

// The CPU run's host advice: AOTInductor's C++ wrapper (both AOTI paths) or compile:cpp-wrapper.
Advice cpu_host_advice(std::optional<PathKind> path) {
  const PathHostAdvice* own = path_host_advice(path);
  if (own) return {fmt::format("the host work around the kernels ({}) is the cost: {}", own->cpu_work, own->remedy), own_remedies(*own)};
  return {kCpuHostAdvice, {PathKind::aoti, PathKind::aoti_python, PathKind::compile_cpp_wrapper}};
}

// The GPU run's advice when the host was in no runtime call: AOTInductor's C++ wrapper, torch.compile.
Advice framework_host_advice(std::optional<PathKind> path) {
  const PathHostAdvice* own = path_host_advice(path);
  if (own) return {std::string("the host between calls is the cost: ") + own->remedy, own_remedies(*own)};
  std::vector<PathKind> remedies{PathKind::aoti, PathKind::aoti_python};
  for (const PathKind kind : compile_kinds()) remedies.push_back(kind);
  return {"the host between calls is the cost: AOTInductor's C++ wrapper removes the Python-side guards and wrappers, "
          "torch.compile removes eager dispatch, a larger batch amortizes it",
          std::move(remedies)};
}

// The graph capture that replays a step's launches as one, on `device` (docs/metrics.md, "Advice"): CUDA's
// (and ROCm's HIP) graphs, with torch.compile's mode that captures them; an Intel GPU's own graphs; for another
// accelerator, only where its runtime offers one (ohprof cannot tell).
const char* graph_capture_words(DeviceKind device) {
  switch (device) {
    case DeviceKind::xpu:
      return "XPU graphs (torch.xpu.XPUGraph, where the installed torch has it) replay them as one";
    case DeviceKind::accelerator: return "a captured graph replays them as one, where the device's runtime offers one";
    case DeviceKind::cpu:
    case DeviceKind::cuda: break;
  }
  return "CUDA graphs (HIP graphs on ROCm; torch.compile mode=\"reduce-overhead\", or an AOTInductor package "
         "captured in a graph) replay them as one";
}

Advice host_advice(const PathVerdict& v, std::optional<PathKind> path, DeviceKind device) {
  if (v.cpu_kernels) return cpu_host_advice(path);
  switch (v.host_state.value_or(HostState::framework)) {
    case HostState::launch: {
      std::vector<PathKind> remedies{PathKind::compile_reduce_overhead};
      for (const PathKind kind : compile_kinds()) remedies.push_back(kind);
      return {fmt::format("launch calls are on the critical path: {}, and fusion (torch.compile) makes fewer",
                          graph_capture_words(device)),
              std::move(remedies)};
    }
    case HostState::framework: {
      Advice out = framework_host_advice(path);
      if (v.graph_launches_per_iteration > 0) {
        out.text += device == DeviceKind::cuda || device == DeviceKind::cpu
                        ? " (graph launches present: CUDA graphs are already in use)"
                        : " (graph launches present: graphs are already in use)";
      }
      return out;
    }
    case HostState::other_api:
      return {"allocation, initialisation and code loading (a launch call over 100 us loads its kernel): warm up "
              "longer, keep allocations out of the step (the caching allocator, static shapes)",
              {}};
    case HostState::harness:
      return {"the only host time left is the measurement's own sync returning after each call: the path is as fast as "
              "one synchronous call can be; a larger batch, or more work per synchronisation, amortizes it",
              {}};
    case HostState::blocking:
      return {"synchronisations that find the device idle: remove .item(), .cpu() and blocking copies from the step, "
              "use non_blocking=True copies from pinned memory",
              {}};
  }
  return {};
}

std::string device_wait_evidence(const PathVerdict& v) {
  std::string out;
  if (v.waited_stream) {
    out = fmt::format("stream {}:{} had work pending for {} of that time; ", v.waited_stream->device,
                      v.waited_stream->stream, percent(v.waited_stream_share));
  }
  return out + "median queue delay " + format_duration(v.queue_delay_median_ns);
}

// How much of the busy time runs collectives: their time includes waiting for the other ranks, which
// faster kernels do not shorten.
std::string communication_note(const PathVerdict& v) {
  if (v.communication_share <= 0) return "";
  return fmt::format("; a collective (NCCL) was running in {} of the busy time, which includes waiting for the other "
                     "ranks: overlapping communication with compute or making it smaller (gradient bucketing, "
                     "compression) shortens that part",
                     percent(v.communication_share));
}

// Compute-bound notes: a full launch queue, time in blocking calls, collectives.
std::string compute_notes(const PathVerdict& v, std::size_t iterations) {
  std::string out;
  if (v.full_queue_iterations > 0) {
    out += fmt::format(
        "; the launch queue was full in {} of {} iterations (max {} ops pending): the host runs ahead and launch calls "
        "block on the queue, so their time is hidden, not overhead",
        v.full_queue_iterations, iterations, v.queue_max);
  }
  if (v.blocking_share >= 0.05) {
    out += fmt::format("; the host spent {} of wall in blocking calls", percent(v.blocking_share));
  }
  out += communication_note(v);
  return out;
}

// The advice of one share, for the mixed verdict: "busy: ...", with its own evidence.
Advice share_advice(const PathVerdict& v, TimeShare share, std::optional<PathKind> path, DeviceKind device) {
  switch (share) {
    case TimeShare::busy: {
      Advice kernel = kernel_advice(path);
      return {fmt::format("for the {} part, {}{}", short_name(v, share), kernel.text, communication_note(v)),
              std::move(kernel.remedies)};
    }
    case TimeShare::host_bound: {
      std::string evidence;
      if (!v.cpu_kernels && v.host_state) {
        const std::string counts = launch_counts(v);
        evidence = fmt::format(" ({} of it {}{})", percent(v.host_state_share), host_state_words(*v.host_state),
                               counts.empty() ? counts : "; " + counts);
      }
      Advice host = host_advice(v, path, device);
      return {fmt::format("for the {} part{}, {}", short_name(v, share), evidence, host.text), std::move(host.remedies)};
    }
    case TimeShare::device_wait:
      return {fmt::format("for the device-wait part ({}), {}", device_wait_evidence(v), kDeviceWaitAdvice), {}};
  }
  return {};
}

// "at most 1.67x", or "unbounded" when the part is all of the wall time.
std::string headroom_factor(const std::optional<double>& headroom) {
  return headroom ? fmt::format("at most {:.2f}x", *headroom) : std::string("unbounded");
}

std::string capitalized(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

// What torch.profiler records the device's activity with, and the category of its runtime's calls, on the
// report's device (docs/metrics.md, "Verdict"): CUDA's (ROCm's too), XPU's, MTIA's for another accelerator.
const char* profiler_activity(DeviceKind device) {
  switch (device) {
    case DeviceKind::xpu: return "ProfilerActivity.XPU";
    case DeviceKind::accelerator: return "ProfilerActivity.MTIA for MTIA, or the device's own";
    case DeviceKind::cpu:
    case DeviceKind::cuda: break;
  }
  return "ProfilerActivity.CUDA";
}
const char* runtime_events(DeviceKind device) {
  switch (device) {
    case DeviceKind::xpu: return "xpu_runtime";
    case DeviceKind::accelerator: return "mtia_runtime for MTIA, or the device runtime's";
    case DeviceKind::cpu:
    case DeviceKind::cuda: break;
  }
  return "cuda_runtime / cuda_driver";
}

std::string unknown_text(const PathVerdict& v, DeviceKind device) {
  switch (v.reason) {
    case VerdictReason::unread_device_events: {
      const std::string names = event_counts_text(v.unread_device_events);
      if (only_profiler_ranges(v.unread_device_events)) {
        return fmt::format("the kernels were recorded only as CUPTI range-profiler ranges ({}), which carry no kernel "
                           "timestamps, so the device's time is unknown, not zero. Record with torch.profiler's activity "
                           "tracing (ProfilerActivity.CUDA)",
                           names);
      }
      return fmt::format("the trace holds device work in categories ohprof does not read ({}), so the device's time is "
                         "unknown, not zero; ohprof reads CUDA, ROCm and XPU timelines (kernel, gpu_memcpy, "
                         "gpu_memset) and MTIA's (mtia_ccp_events)",
                         names);
    }
    case VerdictReason::no_iterations: return "no iteration was analysed, so there is nothing to judge";
    case VerdictReason::kernels_unrecorded:
      return fmt::format(
          "this path's Inductor kernels were built without cpp.enable_kernel_profile, so they do not record "
          "themselves and their time counts as dispatch: dispatch {} of wall is at most the host's share and busy {} "
          "at least the kernels', so the shares decide no verdict. Measure with --kernel-profile (compare; a "
          "package of your own: examples/export_model.py --kernel-profile)",
          percent(v.host_bound_share), percent(v.busy_share));
    case VerdictReason::launches_without_ops:
      return fmt::format("launch calls were recorded ({:g} per iteration), but no device op was read (activity records "
                         "lost, or a device whose activity ohprof does not read), so the device's time is unknown, not "
                         "zero. Record the device activity with the launches (torch.profiler's {}; a collector's "
                         "dropped-records count says whether buffers were lost)",
                         v.launches_per_iteration, profiler_activity(device));
    case VerdictReason::no_device_work:
      return "no device op ran in any window (a trace without device events, or a model that never reached the "
             "device): there is no device work to judge";
    case VerdictReason::no_launches:
      return fmt::format(
          "{} {} of wall, but no device op has its launch call in the data (an accelerator runtime ohprof does not "
          "know, or launch records lost), so the rest of the wall time cannot be told apart into host-bound and "
          "device-wait: both unknown. Record the runtime's API calls with the device activity (the profiler's "
          "{} events)",
          long_name(v, TimeShare::busy, device), percent(v.busy_share), runtime_events(device));
    case VerdictReason::startup_without_steps:
      return fmt::format(
          "no ProfilerStep marks iterations, and the one window is start-up, not steady state: {}; {}. Record steps: "
          "torch.profiler.profile(schedule=...) and prof.step() add ProfilerStep annotations",
          shares_clause(v, TimeShare::host_bound, device), host_state_evidence(v));
    case VerdictReason::queue_unknown:
      return fmt::format(
          "{}: host-bound is {} of wall and device-wait {} ({} {}), and the verdict differs within those ranges. Record "
          "the runtime's launch calls with the device activity (a collector's dropped-records count says whether "
          "records were lost)",
          queue_unknown_clause(v), split_share_text(v, TimeShare::host_bound),
          split_share_text(v, TimeShare::device_wait), long_name(v, TimeShare::busy, device),
          split_share_text(v, TimeShare::busy));
    case VerdictReason::dominant_share:
    case VerdictReason::close_shares: break;
  }
  return "the evidence does not decide";
}

// The verdict's sentence, and the remedies its advice names.
Advice verdict_body(const PathVerdict& v, std::size_t iterations, std::optional<PathKind> path, DeviceKind device) {
  switch (v.verdict) {
    case Verdict::unknown: return {unknown_text(v, device), {}};
    case Verdict::compute_bound: {
      // "Host changes will not help" only when removing all host-bound time gains under 5% (Headroom);
      // otherwise the host's advice follows, with what it could gain at most.
      // Kernels that do not record themselves count as dispatch: busy is a lower bound, and the headroom of
      // removing the dispatch an upper one (docs/metrics.md, "Verdict").
      const std::string bound = v.kernels_unrecorded ? "; busy at least that: this path's Inductor kernels do not "
                                                       "record themselves and count as dispatch"
                                                     : "";
      Advice out = kernel_advice(path);
      out.text = shares_clause(v, TimeShare::busy, device) + bound + compute_notes(v, iterations) + ". " + capitalized(out.text);
      if (v.host_headroom_negligible) {
        out.text += "; host changes will not help";
        return out;
      }
      const Advice host = host_advice(v, path, device);
      // The host's advice scoped to its part, as in a mixed verdict: the kernels are the path's main cost.
      out.text += fmt::format(". Removing the {0} time could still make it faster, {1}; for the {0} part, {2}",
                              short_name(v, TimeShare::host_bound), headroom_factor(v.host_bound_headroom), host.text);
      out.remedies.insert(out.remedies.end(), host.remedies.begin(), host.remedies.end());
      return out;
    }
    case Verdict::host_bound: {
      std::string out = shares_clause(v, TimeShare::host_bound, device);
      if (!v.cpu_kernels && v.host_state) out += "; " + host_state_evidence(v);
      Advice host = host_advice(v, path, device);
      return {out + ". " + capitalized(host.text), std::move(host.remedies)};
    }
    case Verdict::device_wait_bound:
      return {shares_clause(v, TimeShare::device_wait, device) + "; " + device_wait_evidence(v) + ". The device waits on the " +
                  "device: " + kDeviceWaitAdvice,
              {}};
    case Verdict::mixed: {
      TimeShare third = TimeShare::device_wait;
      for (const TimeShare share : {TimeShare::busy, TimeShare::host_bound, TimeShare::device_wait}) {
        if (share != v.first && share != v.second) third = share;
      }
      const std::string rest = v.cpu_kernels && third == TimeShare::device_wait
                                   ? std::string()
                                   : fmt::format("{} {}; ", short_name(v, third), clause_share(v, third));
      Advice first = share_advice(v, v.first, path, device);
      const Advice second = share_advice(v, v.second, path, device);
      first.text = fmt::format("no share dominates: {} {} and {} {} of wall ({}a verdict needs {}% and a lead of {} "
                               "points{}). {}; {}",
                               long_name(v, v.first, device), clause_share(v, v.first), short_name(v, v.second),
                               clause_share(v, v.second), rest, kDominantSharePercent, kShareLeadPercent,
                               queue_ranges_note(v), capitalized(first.text), second.text);
      first.remedies.insert(first.remedies.end(), second.remedies.begin(), second.remedies.end());
      return first;
    }
  }
  return {};
}

// ". Measured slower than eager in this run, of the remedies named: compile 3.10 times (95% interval 2.90
// to 3.31)"; empty when none of them was.
std::string slower_remedies(const std::vector<PathKind>& named, const std::vector<PathRatio>& slower) {
  std::vector<std::string> cited;
  for (const PathRatio& r : slower) {
    const std::optional<PathKind> kind = parse_path_kind(r.slower);
    if (!kind || std::find(named.begin(), named.end(), *kind) == named.end()) continue;
    cited.push_back(fmt::format("{} {:.2f} times (95% interval {:.2f} to {:.2f})", r.slower, r.ratio, r.low, r.high));
  }
  if (cited.empty()) return "";
  return fmt::format(". Measured slower than {} in this run, of the remedies named: {}", slower.front().faster,
                     fmt::join(cited, "; "));
}

}  // namespace

std::string verdict_text(const PathVerdict& v, DeviceKind device, std::size_t iterations, std::optional<PathKind> path,
                         const std::vector<PathRatio>& slower) {
  const Advice body = verdict_body(v, iterations, path, device);
  const std::string evidence = slower_remedies(body.remedies, slower);
  // A trace without steps: the verdict stands, but its one window includes start-up; say so first.
  if (v.whole_recording_window && v.reason != VerdictReason::startup_without_steps &&
      v.reason != VerdictReason::no_iterations) {
    return "no ProfilerStep marks iterations, so this is one window over the whole recording, start-up "
           "included: " + body.text + evidence;
  }
  return body.text + evidence;
}

std::optional<PathKind> advice_path_kind(const Report& report, const PathResult& path) {
  return report.kind == ReportKind::analyze ? std::nullopt : parse_path_kind(path.name);
}

std::string path_verdict_text(const Report& report, const PathResult& path) {
  if (!path.breakdown) return "";
  const PathBreakdown& b = *path.breakdown;
  return verdict_text(b.verdict, report.context.device.type, b.summary.totals.iterations, advice_path_kind(report, path),
                      path.slower_paths);
}


std::string headroom_text(const PathVerdict& v) {
  // Unrecorded kernels' time is in the dispatch: its bound still holds (a looser one), the kernels' does not.
  if (v.kernels_unrecorded && v.reason != VerdictReason::no_iterations) {
    return headroom_factor(v.host_bound_headroom) +
           " without the dispatch time (which holds the kernels that do not record themselves); with faster kernels "
           "unknown";
  }
  if (v.verdict == Verdict::unknown) return "";  // nothing was judged: no bound to give either
  std::string out = headroom_factor(v.busy_headroom) + " with faster kernels, " + headroom_factor(v.host_bound_headroom) +
                    " without the " + short_name(v, TimeShare::host_bound) + " time";
  if (!v.cpu_kernels) out += ", " + headroom_factor(v.device_wait_headroom) + " without the device-wait";
  return out;
}

std::string headroom_line(const PathVerdict& v) {
  const std::string text = headroom_text(v);
  return text.empty() ? text : text + " (Amdahl's bound on this timeline)";
}

namespace {

// What a compile's FX-graph cache lookups say: both sentences below read it from here.
enum class FxCacheUse { unknown, loaded, generated, mixed };
FxCacheUse fx_cache_use(std::optional<std::int64_t> hits, std::optional<std::int64_t> misses) {
  if (!hits || !misses || *hits + *misses == 0) return FxCacheUse::unknown;
  return *misses == 0 ? FxCacheUse::loaded : *hits == 0 ? FxCacheUse::generated : FxCacheUse::mixed;
}

}  // namespace

std::string fx_cache_text(std::optional<std::int64_t> hits, std::optional<std::int64_t> misses) {
  const FxCacheUse use = fx_cache_use(hits, misses);
  if (use == FxCacheUse::unknown) return "";
  if (use == FxCacheUse::loaded) return fmt::format("compiled from Inductor's FX-graph cache ({} {})", *hits, *hits == 1 ? "hit" : "hits");
  if (use == FxCacheUse::generated) return fmt::format("Inductor generated its code ({} FX-graph cache {})", *misses, *misses == 1 ? "miss" : "misses");
  return fmt::format("Inductor's FX-graph cache: {} {}, {} {}", *hits, *hits == 1 ? "hit" : "hits", *misses,
                     *misses == 1 ? "miss" : "misses");
}

std::string execution_text(const ExecutionCheck& check) {
  const ExecutionFacts& f = check.facts;
  const auto count = [](std::int64_t n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
  };
  std::string text;
  if (f.dynamo) {
    std::int64_t breaks = 0;
    for (const GraphBreak& b : f.graph_breaks) breaks += b.count;
    text = fmt::format("Dynamo, {}, {}", f.graphs ? count(*f.graphs, "graph", "graphs") : std::string("graphs not known"),
                       breaks == 0 ? std::string("no graph break") : count(breaks, "graph break", "graph breaks"));
  } else {
    text = "no Dynamo";
  }
  if (const std::string cache = fx_cache_text(f.fx_cache_hits, f.fx_cache_misses); !cache.empty()) text += "; " + cache;
  if (!f.unobserved.empty()) {
    text += "; compiles not observed (" + f.unobserved + ")";
  } else if (std::all_of(check.measured_compiles.begin(), check.measured_compiles.end(),
                         [](const MeasuredCompile& c) { return gave_up(c.event); })) {
    text += "; no compile while measured";
  } else {
    std::vector<std::pair<MeasuredPass, std::int64_t>> iterations;
    for (const MeasuredCompile& c : check.measured_compiles) {
      if (gave_up(c.event)) continue;
      if (std::find(iterations.begin(), iterations.end(), std::pair{c.pass, c.iteration}) == iterations.end()) {
        iterations.emplace_back(c.pass, c.iteration);
      }
    }
    text += "; compiled inside " + count(static_cast<std::int64_t>(iterations.size()), "measured iteration", "measured iterations");
    if (check.excluded_iterations > 0) {
      text += check.excluded_iterations == 1
                  ? std::string(", its first timing sample left out")
                  : fmt::format(", its first {} timing samples left out", check.excluded_iterations);
    } else if (check.pooled) {
      text += ", its timing samples pooled across the compile";
    } else {
      text += ", of the split pass only (the wall times hold none)";
    }
  }
  if (const auto limit = std::find_if(check.measured_compiles.begin(), check.measured_compiles.end(),
                                      [](const MeasuredCompile& c) { return gave_up(c.event); });
      limit != check.measured_compiles.end()) {
    text += fmt::format("; RECOMPILE LIMIT hit in {} iteration {}: later calls that miss its graphs run uncompiled",
                        to_string(limit->pass), limit->iteration);
  }
  if (const std::optional<UncompiledBy> by = uncompiled_by(check)) {
    switch (*by) {
      case UncompiledBy::guards_missed:
        text += "; RAN UNCOMPILED after the timing pass: a frame's guards matched none of its compiled entries";
        break;
      case UncompiledBy::no_frame:
        text += "; RAN UNCOMPILED after the timing pass: Dynamo skipped its function (no compiled frame entered)";
        break;
      case UncompiledBy::no_graph:
        text += "; RAN UNCOMPILED after the timing pass: no compiled graph ran (Dynamo made none, or its code is disabled)";
        break;
    }
  }
  if (check.compiled_call_unknown) {
    text += "; whether it still ran compiled code after the timing pass: unknown (";
    switch (*check.compiled_call_unknown) {
      case ProbeUnknown::not_probed: text += "the run stopped before the check"; break;
      case ProbeUnknown::no_hook: text += "this torch has no guard-complete hook to check it with"; break;
      case ProbeUnknown::limit_in_probe: text += "Dynamo hit its recompile limit inside the check's own call"; break;
      case ProbeUnknown::probe_failed:
        text += check.compiled_call_error.empty() ? std::string("the check failed") : check.compiled_call_error;
        break;
    }
    text += ")";
  }
  if (f.dynamo || f.cuda_graphs_expected) {
    switch (check.cuda_graphs) {
      case CudaGraphUse::not_applicable: text += "; CUDA graphs not applicable"; break;
      case CudaGraphUse::replayed: text += "; CUDA graphs replayed in every measured call"; break;
      case CudaGraphUse::not_replayed: text += "; CUDA graphs NOT replayed in some measured calls"; break;
      case CudaGraphUse::skipped: text += "; CUDA graphs SKIPPED: " + f.cuda_graph_skip_reason; break;
    }
  }
  if (!f.device.empty()) text += "; outputs on " + f.device;
  return text;
}

std::string memory_text(const PathMemory& m) {
  // growth of the measuring process, which builds every path in turn: not what a process of this path alone
  // holds (docs/metrics.md, "Memory", "Fresh-process memory")
  std::string text = "in this process: build " + signed_bytes(m.build_retained_bytes) + " retained";
  text += m.build_peak_bytes ? " (peak " + signed_bytes(*m.build_peak_bytes) + ")" : std::string(" (peak unknown)");
  text += m.run_peak_bytes ? fmt::format(", calls peak {} over {}", signed_bytes(*m.run_peak_bytes), m.run_calls)
                           : std::string(", calls peak unknown");
  return text;
}

std::string device_memory_text(const PathDeviceMemory& d, std::int64_t run_calls) {
  std::string text = fmt::format("build {} allocated, {} reserved, {} (allocated peak {})", signed_bytes(d.build_allocated_bytes),
                                 signed_bytes(d.build_reserved_bytes),
                                 d.build_used_bytes ? signed_bytes(*d.build_used_bytes) + " used" : std::string("used unknown"),
                                 signed_bytes(d.build_peak_allocated_bytes));
  if (d.run_peak_allocated_bytes && d.run_reserved_bytes) {
    text += fmt::format("; calls peak {} allocated, {} reserved over {}", signed_bytes(*d.run_peak_allocated_bytes),
                        signed_bytes(*d.run_reserved_bytes), run_calls);
  } else {
    text += "; calls unknown";
  }
  if (d.graph_pool_bytes) text += "; graph pool " + format_bytes(*d.graph_pool_bytes);
  return text;
}

std::string what_if_entry_text(const WhatIfEntry& e, const WhatIfLedger& ledger, double base_median_ns) {
  std::string text;
  if (!e.not_applicable.empty()) {
    text = "not applicable: " + e.not_applicable;
  } else if (!e.saved) {
    text = "not measured: " + e.unavailable;
  } else {
    const Estimate& saved = *e.saved;
    // A cost is said as a positive time: its interval is the saved interval negated.
    const double sign = e.significant && !e.negligible && saved.value_ns < 0 ? -1.0 : 1.0;
    const double low = sign > 0 ? interval_low(saved) : -interval_high(saved);
    const double high = sign > 0 ? interval_high(saved) : -interval_low(saved);
    const std::string interval =
        fmt::format("95% interval {} to {}", format_duration(low), format_duration(high));
    const std::string share =
        base_median_ns > 0 ? fmt::format("; {:.1f}% of {}'s {}", 100.0 * sign * saved.value_ns / base_median_ns,
                                         ledger.base, format_duration(base_median_ns))
                           : std::string();
    if (!e.significant) {
      text = fmt::format("within noise: {} per call ({} contains zero)", format_duration(saved.value_ns), interval);
    } else if (e.negligible && ledger.placement.rule == PlacementRule::floor && ledger.placement.from_again) {
      text = fmt::format("negligible: {} per call ({}{}; within {}, the floor of the ohprof that wrote this report)",
                         format_duration(saved.value_ns), interval, share, format_duration(ledger.placement.high_ns));
    } else if (e.negligible && rebuilds_hold(ledger.placement, saved.value_ns)) {
      text = fmt::format("negligible: {} per call ({}{}; inside {} to {}, where a further build of {} lands 95% of the "
                         "time)",
                         format_duration(saved.value_ns), interval, share, format_duration(ledger.placement.low_ns),
                         format_duration(ledger.placement.high_ns), ledger.base);
    } else if (e.negligible) {
      text = fmt::format("negligible: {} per call ({}{}; below {:g}%, what a repeated run moves)",
                         format_duration(saved.value_ns), interval, share, 100.0 * kWhatIfNegligibleShare);
    } else if (sign > 0) {
      text = fmt::format("saves {} per call ({}{})", format_duration(saved.value_ns), interval, share);
      if (e.beyond_guards && ledger.base_cache_lookup_ns) {
        text += fmt::format(", more than all of {}'s guard evaluation takes (its \"TorchDynamo Cache Lookup\" "
                            "range, {} in the split pass), so not all of it is guard evaluation",
                            ledger.base, format_duration(*ledger.base_cache_lookup_ns));
      }
    } else {
      text = fmt::format("costs {} more per call ({}{})", format_duration(-saved.value_ns), interval, share);
    }
    text += !e.outputs_match ? "; outputs not checked"
            : *e.outputs_match ? "; outputs match"
                               : fmt::format("; OUTPUTS DIFFER (max abs diff {})",
                                             e.max_abs_diff ? fmt::format("{:.3g}", *e.max_abs_diff) : std::string("-"));
    if (!what_if_compiles(e.setting)) {
      text += "; no compile of its own";
    } else if (e.ready_ns) {
      // Its ready-in time alone: the base's was the first compile in the process (Inductor's set-up), so the
      // two do not compare; nor do two single memory readings without a spread (both stay in the JSON).
      const FxCacheUse use = fx_cache_use(e.fx_cache_hits, e.fx_cache_misses);
      text += fmt::format("; ready in {}{}", format_duration(static_cast<double>(*e.ready_ns)),
                          use == FxCacheUse::unknown     ? ""
                          : use == FxCacheUse::loaded    ? ", from Inductor's cache"
                          : use == FxCacheUse::generated ? ", compiled"
                                                         : ", partly from Inductor's cache");
    }
    if (e.graph_pool_bytes) text += "; graph pool " + format_bytes(*e.graph_pool_bytes);
  }
  return text;
}

std::string what_if_again_label(const WhatIfAgain& again) {
  const std::string_view path = again.path;
  const std::size_t colon = path.find(':');
  return "built " + std::string(colon == std::string_view::npos ? path : path.substr(colon + 1));
}

std::string what_if_again_text(const WhatIfAgain& again, const WhatIfLedger& ledger, double base_median_ns) {
  if (!again.moved) return "not measured: " + again.unavailable;
  const Estimate& moved = *again.moved;
  const std::string interval =
      fmt::format("95% interval {} to {}", format_duration(interval_low(moved)), format_duration(interval_high(moved)));
  if (!again.significant) {
    return fmt::format("within noise: {} per call ({} contains zero)", format_duration(moved.value_ns), interval);
  }
  const std::string share = base_median_ns > 0 ? fmt::format("; {:.1f}% of {}'s {}", 100.0 * moved.value_ns / base_median_ns,
                                                             ledger.base, format_duration(base_median_ns))
                                               : std::string();
  return fmt::format("moved {} per call ({}{}): the same settings, placement alone", format_duration(moved.value_ns),
                     interval, share);
}

std::string what_if_placement_text(const WhatIfLedger& ledger) {
  const PlacementBand& band = ledger.placement;
  if (band.rule == PlacementRule::absent) return "not in this report (its ohprof predates the A/A check)";
  if (band.rule == PlacementRule::floor) {
    return fmt::format("a setting compiled on its own was named beyond {} per call either way (the rule of the ohprof "
                       "that wrote this report: the larger of {:g}% of {}'s median and 11.03 x what one rebuild moved)",
                       format_duration(band.high_ns), 100.0 * kWhatIfNegligibleShare, ledger.base);
  }
  if (band.builds == 0) return "unknown: " + ledger.base + " has no measured iterations";
  const std::string share_text = fmt::format("{:g}% of {}'s median", 100.0 * kWhatIfNegligibleShare, ledger.base);
  const std::string named = fmt::format("a setting compiled on its own is named only outside {} to {} per call (as saved: "
                                        "positive is faster",
                                        format_duration(band.low_ns), format_duration(band.high_ns));
  if (band.builds < 2) {
    return fmt::format("{}; {}); no rebuild of {} was measured to tell where a further build lands", named, share_text,
                       ledger.base);
  }
  const std::string builds =
      fmt::format("where a further build of {} lands 95% of the time, by its {} builds here (their medians' spread {}: "
                  "placement and this run's noise; Student's prediction interval, t = {:.3f})",
                  ledger.base, band.builds, format_duration(band.spread_ns), band.t);
  if (!band.from_again) return fmt::format("{}; {}), which covers {}", named, share_text, builds);
  const bool low = low_edge_widened(band), high = high_edge_widened(band);
  return fmt::format("{}): {}{}", named, builds,
                     !low && !high ? std::string()
                                   : fmt::format(", widened to {} on the {} side", share_text, low ? "low" : "high"));
}

double what_if_base_median(const Report& report) {
  if (!report.what_if) return 0;
  for (const PathResult& path : report.paths) {
    if (path.name == report.what_if->base && path.wall.count > 0) return path.wall.median;
  }
  return 0;
}

std::vector<std::string> what_if_lines(const WhatIfLedger& ledger, double base_median_ns) {
  std::size_t width = std::string(kWhatIfPlacementLabel).size();
  for (const WhatIfEntry& e : ledger.entries) width = std::max(width, std::string(to_string(e.setting)).size());
  for (const WhatIfAgain& again : ledger.again) width = std::max(width, what_if_again_label(again).size());
  std::vector<std::string> lines;
  for (const WhatIfEntry& e : ledger.entries) {
    lines.push_back(fmt::format("{:<{}}  {}", to_string(e.setting), width, what_if_entry_text(e, ledger, base_median_ns)));
  }
  for (const WhatIfAgain& again : ledger.again) {
    lines.push_back(fmt::format("{:<{}}  {}", what_if_again_label(again), width, what_if_again_text(again, ledger, base_median_ns)));
  }
  lines.push_back(fmt::format("{:<{}}  {}", kWhatIfPlacementLabel, width, what_if_placement_text(ledger)));
  return lines;
}

namespace {

const char* criterion_label(DeployCriterion c) {
  switch (c) {
    case DeployCriterion::latency: return "per-call latency";
    case DeployCriterion::throughput: return "throughput";
    case DeployCriterion::cold_start: return "cold start";
    case DeployCriterion::warm_start: return "warm start";
    case DeployCriterion::fresh_peak: return "fresh peak";
  }
  return "";
}

const DeploymentRow* row_of(const DeploymentSummary& s, const std::string& path) {
  for (const DeploymentRow& row : s.rows) {
    if (row.path == path) return &row;
  }
  return nullptr;
}

// "6.330 us", "120k calls/s at 2 callers", "1.280 s", "542 MB": a path's value of one criterion.
std::string criterion_value(DeployCriterion c, const DeploymentRow& row) {
  switch (c) {
    case DeployCriterion::latency: return row.latency_ns ? format_duration(*row.latency_ns) : "-";
    case DeployCriterion::throughput:
      return row.calls_per_s ? fmt::format("{} calls/s at {} callers", rate_text(*row.calls_per_s), row.threads) : "-";
    case DeployCriterion::cold_start: return row.cold_start_ns ? format_duration(*row.cold_start_ns) : "-";
    case DeployCriterion::warm_start: return row.warm_start_ns ? format_duration(*row.warm_start_ns) : "-";
    case DeployCriterion::fresh_peak: return row.fresh_peak_bytes ? format_bytes(std::llround(*row.fresh_peak_bytes)) : "-";
  }
  return "-";
}

// "aoti 6.330 us (next eager 22.45 us)"; "aoti 6.330 us and aoti:python 6.400 us, the others within noise of the first
// (next compile 37.19 us)"; "eager 2.091 s and aoti 2.114 s, not told apart (the ranges overlap; next compile 11.39 s)".
std::string leaders_text(const DeploymentSummary& s, const CriterionLeaders& c) {
  const auto named = [&](const std::string& path) {
    const DeploymentRow* row = row_of(s, path);
    return row == nullptr ? path : path + " " + criterion_value(c.criterion, *row);
  };
  std::vector<std::string> names;
  for (const std::string& leader : c.leaders) names.push_back(named(leader));
  std::string text = names.back();
  if (names.size() > 1) {
    names.pop_back();
    text = fmt::format("{} and {}", fmt::join(names, ", "), text);
  }
  const std::string next = c.next.empty() ? std::string() : "next " + named(c.next);
  // start-ups and fresh peaks: ordered by the rank rule of the cold start
  const bool ranked = c.criterion == DeployCriterion::cold_start || c.criterion == DeployCriterion::warm_start ||
                      c.criterion == DeployCriterion::fresh_peak;
  // the notes in parentheses: why ranked leaders were not told apart, then the next and the paths without a figure
  std::vector<std::string> notes;
  if (c.leaders.size() > 1 && ranked) {
    text += ", not told apart";
    if (c.too_few) {
      notes.push_back(c.criterion == DeployCriterion::fresh_peak
                          ? fmt::format("too few processes with a reading: --cold-start={} or more", kColdStartDefaultProcesses)
                          : fmt::format("too few processes: --cold-start={} or more", kColdStartDefaultProcesses));
    }
    if (c.negligible) notes.push_back(fmt::format("within {:g}% of the first", kFreshPeakTiePercent));
    if (notes.empty()) notes.push_back("the ranges overlap");
  } else if (c.leaders.size() > 1) {
    text += ", the others within noise of the first";
  }
  if (!next.empty()) notes.push_back(next);
  if (!c.without.empty()) notes.push_back(fmt::format("no figure: {}", fmt::join(c.without, ", ")));
  return notes.empty() ? text : fmt::format("{} ({})", text, fmt::join(notes, "; "));
}

std::string bytes_cell(const std::optional<std::int64_t>& bytes) { return bytes ? signed_bytes(*bytes) : "-"; }

}  // namespace

std::string deployment_text(const DeploymentSummary& s) {
  std::string text;
  if (s.criteria.empty()) {
    text = "unknown: no path asked for has measured samples";
    if (!s.left_out.empty()) text += " and can be weighed";
  } else {
    std::vector<std::string> parts;
    for (const CriterionLeaders& c : s.criteria) {
      parts.push_back(fmt::format("{}: {}", criterion_label(c.criterion), leaders_text(s, c)));
    }
    if (s.candidates < 2) {
      text = fmt::format("one path weighed, nothing to choose between: {}", fmt::join(parts, "; "));
    } else if (s.choice.size() == 1) {
      text = fmt::format("deploy {}: it leads {}: {}", s.choice.front(),
                         s.criteria.size() == 1 ? "the one criterion measured" : "every criterion measured",
                         fmt::join(parts, "; "));
    } else if (!s.choice.empty()) {
      text = fmt::format("deploy {}: each leads every criterion measured (the best, or within noise of it): {}",
                         fmt::join(s.choice, " or "), fmt::join(parts, "; "));
    } else {
      text = fmt::format("the choice depends on what you value: {}", fmt::join(parts, "; "));
    }
  }
  std::vector<std::string> missing;
  const auto has = [&](DeployCriterion c) {
    return std::any_of(s.criteria.begin(), s.criteria.end(), [&](const CriterionLeaders& l) { return l.criterion == c; });
  };
  if (!has(DeployCriterion::throughput)) missing.push_back("throughput (--threads)");
  const bool starts = has(DeployCriterion::cold_start) || has(DeployCriterion::warm_start);
  if (!starts) missing.push_back("start-up and fresh peak (--cold-start)");
  if (starts && !has(DeployCriterion::fresh_peak)) missing.push_back("fresh peak (no fresh process read its memory)");
  if (!s.criteria.empty() && !missing.empty()) text += fmt::format("; not measured: {}", fmt::join(missing, ", "));
  std::vector<std::string> differ;
  std::vector<std::string> uncompiled;
  for (const std::string& path : s.left_out) {
    const auto row = std::find_if(s.rows.begin(), s.rows.end(), [&](const DeploymentRow& r) { return r.path == path; });
    const bool only_uncompiled = row != s.rows.end() && row->ran_uncompiled && !row->outputs_differ;
    (only_uncompiled ? uncompiled : differ).push_back(path);
  }
  if (!differ.empty()) text += fmt::format("; left out, their outputs differ: {}", fmt::join(differ, ", "));
  if (!uncompiled.empty()) {
    text += fmt::format("; left out, as {} ran uncompiled code (execution check): {}",
                        uncompiled.size() == 1 ? "it" : "they", fmt::join(uncompiled, ", "));
  }
  if (!s.not_measured.empty()) {
    text += fmt::format("; not weighed, as {}: {}",
                        s.not_measured_cause == NotMeasuredCause::export_failed ? "torch.export could not capture the model"
                                                                                : "no AOTI package could be built here",
                        fmt::join(s.not_measured, ", "));
  }
  return text;
}

namespace {
// Whether some row has the figure: a column is shown only then.
template <typename T>
bool any_row_has(const DeploymentSummary& s, std::optional<T> DeploymentRow::*figure) {
  return std::any_of(s.rows.begin(), s.rows.end(), [&](const DeploymentRow& r) { return (r.*figure).has_value(); });
}
// The device columns (a CUDA run), and the fresh processes' memory (where --cold-start read it).
bool any_device_build(const DeploymentSummary& s) { return any_row_has(s, &DeploymentRow::device_build_bytes); }
bool any_graph_pool(const DeploymentSummary& s) { return any_row_has(s, &DeploymentRow::graph_pool_bytes); }
bool any_fresh_peak(const DeploymentSummary& s) { return any_row_has(s, &DeploymentRow::fresh_peak_bytes); }
}  // namespace

std::string deployment_memory_note(const DeploymentSummary& s) {
  std::string note =
      "build memory and calls peak: growth of the measuring process's resident set, the paths built in turn in "
      "that process (a path pays for the modules it was the first to load)";
  if (any_device_build(s) || any_graph_pool(s)) {
    note += "; device memory and graph pool: the CUDA caching allocator's, in the measuring process too";
  }
  if (any_fresh_peak(s)) note += "; fresh peak: the resident set's high-water mark of a fresh process of that path alone";
  return note;
}

std::vector<std::string> deployment_header(const DeploymentSummary& s) {
  int threads = 0;
  for (const DeploymentRow& row : s.rows) threads = std::max(threads, row.threads);
  std::vector<std::string> header{"latency", threads > 0 ? fmt::format("calls/s at {}", threads) : std::string("calls/s"),
                                  "cold start", "warm start", "build memory", "calls peak"};
  if (any_fresh_peak(s)) header.emplace_back("fresh peak");
  if (any_device_build(s)) header.emplace_back("device memory");
  if (any_graph_pool(s)) header.emplace_back("graph pool");
  header.emplace_back("host share");
  return header;
}

std::vector<std::string> deployment_cells(const DeploymentSummary& s, const DeploymentRow& row) {
  std::vector<std::string> cells{row.latency_ns ? format_duration(*row.latency_ns) : "-",
                                 row.calls_per_s ? rate_text(*row.calls_per_s) : "-",
                                 row.cold_start_ns ? format_duration(*row.cold_start_ns) : "-",
                                 row.warm_start_ns ? format_duration(*row.warm_start_ns) : "-",
                                 bytes_cell(row.build_retained_bytes),
                                 bytes_cell(row.run_peak_bytes)};
  if (any_fresh_peak(s)) {
    cells.push_back(row.fresh_peak_bytes ? format_bytes(std::llround(*row.fresh_peak_bytes)) : "-");
  }
  if (any_device_build(s)) cells.push_back(bytes_cell(row.device_build_bytes));
  if (any_graph_pool(s)) cells.push_back(row.graph_pool_bytes ? format_bytes(*row.graph_pool_bytes) : "-");
  cells.push_back(row.host_share ? with_bound(row.host_share_at_most ? Bound::at_most : Bound::exact,
                                              fmt::format("{:.1f}%", 100.0 * *row.host_share))
                                 : "-");
  return cells;
}

std::string split_share_text(const PathVerdict& v, TimeShare share) {
  const auto range = [](double low, double high) { return fmt::format("{:.1f}–{:.1f}%", 100.0 * low, 100.0 * high); };
  switch (share) {
    case TimeShare::busy: return with_bound(busy_bound(v.kernels_unrecorded), percent(v.busy_share));
    case TimeShare::host_bound:
      if (v.host_bound_share_least) return range(*v.host_bound_share_least, v.host_bound_share);
      return with_bound(host_time_bound(v.kernels_unrecorded), percent(v.host_bound_share));
    case TimeShare::device_wait:
      if (v.device_wait_share_most) return range(v.device_wait_share, *v.device_wait_share_most);
      return percent(v.device_wait_share);
  }
  return "";
}

std::string with_bound(Bound bound, std::string_view figure) {
  switch (bound) {
    case Bound::at_least: return fmt::format("≥{}", figure);
    case Bound::at_most: return fmt::format("≤{}", figure);
    case Bound::exact: break;
  }
  return std::string(figure);
}

std::string rate_text(double per_s) {
  if (per_s >= 1e6) return fmt::format("{:.3g}M", per_s / 1e6);
  if (per_s >= 1e3) return fmt::format("{:.3g}k", per_s / 1e3);
  return fmt::format("{:.3g}", per_s);
}

namespace {
// The cores as a limit: "the cores (2 callers x 1 intra-op thread on 2 cores)".
std::string cores_text(int callers, const ConcurrencyContext& x) {
  return fmt::format("the cores ({} callers x {} intra-op thread{} on {} cores)", callers, std::max(1, x.intra_op_threads),
                     x.intra_op_threads == 1 ? "" : "s", x.cores);
}

// The largest count's wait and blocked shares, where the limit was read from them (cores_had_room), in percent,
// with the ends of their 95% intervals that the rule read: " (95% interval to 4.3%)". A report whose points lack
// the round figures (before the intervals) read the values alone, and the ends are "".
struct RoomFigures {
  double waited = 0;
  std::string waited_high;
  double blocked = 0;
  std::string blocked_low;
};
std::optional<RoomFigures> room_figures(const PathConcurrency& c) {
  if (!c.cores_had_room || c.points.empty()) return std::nullopt;
  const ThreadsPoint& top = c.points.back();
  if (top.on_cpu_round_ns.empty() && top.waited_round_ns.empty()) {
    const std::optional<double> waited = top.wait_share();
    const std::optional<double> blocked = top.blocked_share();
    if (!waited || !blocked) return std::nullopt;
    return RoomFigures{100.0 * *waited, "", 100.0 * std::max(0.0, *blocked), ""};
  }
  const std::optional<Estimate> waited = wait_share_estimate(top);
  const std::optional<Estimate> blocked = blocked_share_estimate(top);
  if (!waited || !blocked) return std::nullopt;
  return RoomFigures{100.0 * waited->value_ns, fmt::format(" (95% interval to {:.1f}%)", 100.0 * interval_high(*waited)),
                     100.0 * std::max(0.0, blocked->value_ns),
                     fmt::format(" (95% interval from {:.1f}%)", 100.0 * std::max(0.0, interval_low(*blocked)))};
}
}  // namespace

std::string concurrency_limit_text(const PathConcurrency& c) {
  const ConcurrencyContext& x = c.context;
  const int top = c.points.empty() ? 0 : c.points.back().threads;
  switch (c.limit) {
    case ConcurrencyLimit::none: return fmt::format("none reached at {} callers", top);
    case ConcurrencyLimit::gil:
      if (const auto figures = room_figures(c)) {
        return fmt::format("the GIL (its calls run Python under it; its {} callers took turns: asleep {:.1f}% of their "
                           "time{}, and waiting for a CPU {:.1f}%{}, so not the cores)",
                           top, figures->blocked, figures->blocked_low, figures->waited, figures->waited_high);
      }
      return c.host_share ? fmt::format("the GIL (its calls run Python under it; host-bound {:.1f}% of its wall time)",
                                        *c.host_share * 100.0)
                          : std::string("the GIL (its calls run Python under it)");
    case ConcurrencyLimit::cores: return cores_text(top, x);
    case ConcurrencyLimit::device: return "the device (the callers share it and its stream)";
    case ConcurrencyLimit::unknown: break;
  }
  if (c.points.size() < 2) return "unknown (one caller measured)";
  if (c.caller_slowdown) {
    return "unknown: the scaling is against a slow 1-caller point, so it measures the caller threads' own cost too "
           "(warning threads-callers-slower)";
  }
  if (c.scaling_within_noise) {
    const ThreadsPoint& p = c.points.back();
    return fmt::format("unknown: at {} callers the gain is within noise, and its 95% interval reaches above x{:.2f} (to "
                       "x{:.2f}): whether more callers add calls is not known (a limit is named when it ends at x{:.2f} "
                       "or below)",
                       p.threads, 1 + kNoGainTolerance, p.scaling_high, 1 + kNoGainTolerance);
  }
  if (c.host_share_within_noise && c.host_share && c.host_share_se) {
    const Estimate share{*c.host_share, *c.host_share_se};
    return fmt::format("unknown: the GIL or not: host-bound {:.1f}% of its wall time (95% interval {:.1f}% to {:.1f}%), "
                       "within noise of the 50% above which the GIL is named",
                       100.0 * share.value_ns, 100.0 * interval_low(share), 100.0 * interval_high(share));
  }
  if (const auto figures = room_figures(c)) {  // a path without the GIL (rule 3 names the GIL for the others)
    return fmt::format("unknown: not the cores: its {} callers waited for a CPU {:.1f}% of their time{} and were asleep "
                       "{:.1f}% of it{}, taking turns at something other than the GIL, which this path does not take",
                       top, figures->waited, figures->waited_high, figures->blocked, figures->blocked_low);
  }
  if (c.host_share_missing) {
    const std::string other = x.cuda ? std::string("the device") : cores_text(top, x);
    return fmt::format("unknown: the GIL or {}: its host-bound share, which would tell them apart, is unknown (no split; "
                       "its verdict unknown: on the CPU, --kernel-profile; or a range: device ops without a launch call)",
                       other);
  }
  return "unknown";
}

ThreadsPointText threads_point_text(const PathConcurrency& c, const ThreadsPoint& p, double timing_median_ns) {
  ThreadsPointText out;
  out.rate = rate_text(p.calls_per_s);
  out.p50 = format_duration(p.p50_ns);
  out.p99 = format_duration(p.p99_ns);
  if (p.threads == 1 && timing_median_ns > 0) {
    out.measuring = fmt::format("on the measuring thread: median {}{}", format_duration(timing_median_ns),
                                c.caller_slowdown ? fmt::format("; {:.1f}x slower on a caller thread", *c.caller_slowdown)
                                                  : std::string());
  }
  if (p.threads > 1) {
    // scales: a significant gain; a significant loss is said as one; otherwise within noise
    const char* kind = p.scales ? "" : p.scaling_high < 1 ? "fewer calls than 1 caller: " : "within noise: ";
    out.vs_one = fmt::format("x{:.2f} of 1 caller ({}95% interval {:.2f} to {:.2f})", p.scaling, kind, p.scaling_low,
                             p.scaling_high);
  }
  const std::optional<double> cpus = p.cpus_used();
  const std::optional<double> waiting = p.wait_share();
  if (cpus && waiting) {
    // the caller threads' own figures: with more than one intra-op thread their OpenMP workers do much of the work
    out.cpus = fmt::format("caller threads on {:.2f} CPUs, waiting {:.1f}%{}", *cpus, *waiting * 100.0,
                           c.context.intra_op_threads > 1 ? " (their OpenMP workers not counted)" : "");
  }
  return out;
}

std::string concurrency_limit_line(const PathConcurrency& c) {
  std::string limit = concurrency_limit_text(c);
  if (c.runner_instances > 0) limit += fmt::format("; the runner holds {} model instance{}", c.runner_instances,
                                                  c.runner_instances == 1 ? "" : "s");
  if (c.caller_slowdown && c.points.size() > 1 && c.limit != ConcurrencyLimit::unknown) {  // a report written
    // before the limit rule read caller_slowdown
    limit += "; the scaling is against a slow 1-caller point, so it measures the caller threads' own cost too "
             "(warning threads-callers-slower)";
  }
  return limit;
}

std::vector<std::string> concurrency_lines(const PathConcurrency& c, double timing_median_ns) {
  if (!c.unavailable.empty()) return {"unavailable: " + c.unavailable};
  std::vector<std::string> lines;
  for (const ThreadsPoint& p : c.points) {
    const ThreadsPointText x = threads_point_text(c, p, timing_median_ns);
    std::string line = fmt::format("{} caller{}  {} calls/s  p50 {}  p99 {}", p.threads, p.threads == 1 ? " " : "s", x.rate,
                                   x.p50, x.p99);
    if (!x.measuring.empty()) line += "  (" + x.measuring + ")";
    if (!x.vs_one.empty()) line += "  " + x.vs_one;
    if (!x.cpus.empty()) line += "  " + x.cpus;
    lines.push_back(std::move(line));
  }
  lines.push_back("limit: " + concurrency_limit_line(c));
  return lines;
}

std::string cold_start_header(const PathColdStart& c) {
  return fmt::format("{} fresh process{} per state; each figure is its own median over them (the phases' need not add "
                     "up to the total's)", c.processes, c.processes == 1 ? "" : "es");
}

std::string cold_start_state_label(const ColdStartState& state) {
  return state.cache == CompileCache::none ? std::string("start") : fmt::format("{} cache", to_string(state.cache));
}

std::string cold_start_state_text(const ColdStartState& state) {
  std::string line;
  if (!state.unavailable.empty()) return "not measured: " + state.unavailable;
  if (state.median) {
    const ColdStartPhases& m = *state.median;
    line += fmt::format("{} total; {} process, {} import, {} load, {} compile, {} first call (range {} … {}, n = {})",
                        format_duration(m.total_ns), format_duration(m.process_ns), format_duration(m.import_ns),
                        format_duration(m.load_ns), format_duration(m.compile_ns), format_duration(m.first_call_ns),
                        format_duration(state.min_total_ns), format_duration(state.max_total_ns), state.samples.size());
    const std::size_t differ = static_cast<std::size_t>(std::count_if(
        state.samples.begin(), state.samples.end(), [](const ColdStartSample& s) { return !s.output_matches; }));
    line += differ == 0 ? "; outputs match" : fmt::format("; OUTPUTS DIFFER in {} of {}", differ, state.samples.size());
    // the process's own memory at its first result (docs/metrics.md, "Fresh-process memory")
    if (m.rss_bytes && m.peak_rss_bytes) {
      line += fmt::format("; resident {} at the first result, peak {}", format_bytes(std::llround(*m.rss_bytes)),
                          format_bytes(std::llround(*m.peak_rss_bytes)));
    }
    if (state.against_cold) {
      switch (*state.against_cold) {
        case ColdStartOrder::faster:
          line += fmt::format("; x{:.2f} faster than cold (every start below every cold one)", state.speedup_vs_cold);
          break;
        case ColdStartOrder::slower:
          line += "; slower than cold (every start above every cold one)";
          break;
        case ColdStartOrder::overlapping:
          line += fmt::format("; within noise of cold (x{:.2f}; the ranges overlap)", state.speedup_vs_cold);
          break;
        case ColdStartOrder::too_few:
          line += fmt::format("; x{:.2f} against cold, too few processes to tell (--cold-start={} or more)",
                              state.speedup_vs_cold, kColdStartDefaultProcesses);
          break;
      }
    }
  }
  if (!state.failed.empty()) line += (state.median ? "; then a process failed: " : "failed: ") + state.failed;
  return line;
}

std::vector<std::string> cold_start_lines(const PathColdStart& c) {
  std::vector<std::string> lines{cold_start_header(c)};
  for (const ColdStartState& state : c.states) {
    lines.push_back(fmt::format("{:<16}", cold_start_state_label(state)) + cold_start_state_text(state));
  }
  return lines;
}

std::string estimate_text(const Estimate& e) { return format_duration(e.value_ns) + " ± " + format_duration(e.se_ns); }

std::string ratio_text(const PathRatio& r) {
  if (r.significant) {
    return fmt::format("{} ran {:.2f} times faster than {} (95% interval {:.2f} to {:.2f})", r.faster, r.ratio, r.slower,
                       r.low, r.high);
  }
  return fmt::format("{} and {} are within noise: ratio {:.2f} (95% interval {:.2f} to {:.2f} contains 1)", r.faster,
                     r.slower, r.ratio, r.low, r.high);
}

std::string ratio_text(const PathRatio& r, const std::vector<PathResult>& paths) {
  std::vector<std::string> uncompiled;
  for (const std::string& side : {r.faster, r.slower}) {
    const auto path = std::find_if(paths.begin(), paths.end(), [&](const PathResult& p) { return p.name == side; });
    if (path != paths.end() && ran_uncompiled(*path)) uncompiled.push_back(side);
  }
  if (uncompiled.empty()) return ratio_text(r);
  return fmt::format("{}; {} ran uncompiled code (execution check)", ratio_text(r), fmt::join(uncompiled, " and "));
}

namespace {

std::string floor_name(const std::optional<FloorKind>& kind, const std::string& path) {
  return kind ? std::string(floor_label(*kind)) : path + "'s host work";
}

}  // namespace

std::string wrapper_label(const GapExplanation& e) {
  return floor_name(e.floor_kind_slower, e.floor_slower) + " vs " + floor_name(e.floor_kind_faster, e.floor_faster);
}

namespace {

// A layer's name in the answer: the slower path's layers by name, the faster path's by path and name.
std::string layer_name(const LayerEstimate& layer) {
  return layer.sign > 0 ? std::string(layer_label(layer.layer)) : fmt::format("{}'s {}", layer.path, layer_label(layer.layer));
}

// A significant layer in the answer. One significantly below zero is no negative cost: the variant
// without the layer ran slower than the one with it.
std::string significant_layer_text(const LayerEstimate& layer) {
  std::string text = fmt::format("{} {}", layer_name(layer), format_duration(layer.estimate.value_ns));
  if (layer.sign < 0) text += " (subtracted)";
  if (layer.estimate.value_ns < 0) {
    text += fmt::format(" (below zero: {} ran slower than {}, which runs more; {})", layer.lower, layer.upper,
                        !layer.kernels_differ ? "caches, a different code path, or different kernels (their kernel sets "
                                                "are not known)"
                        : *layer.kernels_differ ? "they ran different kernel sets"
                                                : "caches, or a different code path");
  }
  return text;
}

// The layers that hold more than Dynamo's own range that holds what they peel (DynamoRangeCheck), or "".
std::string views_disagree_text(const DynamoRangeCheck& check) {
  const auto times = [](const Estimate& layer, const Estimate& range) {
    return range.value_ns > 0 ? fmt::format("x{:.2f}", layer.value_ns / range.value_ns) : std::string("more than");
  };
  std::vector<std::string> parts;
  // A flag without its estimate (a report edited by hand) says nothing: there is no layer to compare.
  if (check.guards_exceed_lookup && check.guards) {
    parts.push_back(fmt::format("the guards layer holds {} the lookup range", times(*check.guards, check.cache_lookup)));
  }
  if (check.layers_exceed_outside && check.guards_and_dynamo) {
    parts.push_back(fmt::format("guards + Dynamo entry hold {} the time outside the compiled region",
                                times(*check.guards_and_dynamo, check.outside_region)));
  }
  if (parts.empty()) return "";
  return fmt::format("the views DISAGREE: {}, beyond noise and beyond x{:.2f}: those layers hold work besides Dynamo's "
                     "(kernels, caches or code their variants run differently)",
                     fmt::join(parts, ", "), kLayersExceedRatio);
}

}  // namespace

std::string explanation_text(const GapExplanation& e) {
  if (!e.measured) {
    return fmt::format("{} against {}: unknown ({})", e.slower, e.faster,
                       e.missing.empty() ? std::string("not measured") : e.missing.front());
  }
  std::string kernels = "kernels unknown";
  if (e.kernels) {
    kernels = fmt::format("kernels {} ({}{})", e.kernels_same.value_or(false) ? "the same" : "differ",
                          estimate_text(*e.kernels), significant(*e.kernels) ? "" : ", within noise");
  }
  if (e.within_noise) {
    std::string text = fmt::format("{} and {} are within noise: the gap is {} (its 95% interval contains zero); {}",
                                   e.slower, e.faster, estimate_text(e.gap), kernels);
    // What dominates the faster path's time, as its own verdict found (docs/metrics.md, "Verdict").
    if (e.faster_kernel_share && e.faster_dominant) {
      const std::string share = percent(*e.faster_kernel_share);
      switch (*e.faster_dominant) {
        case Dominant::kernels: text += fmt::format("; kernels dominate ({} of {}'s wall)", share, e.faster); break;
        case Dominant::host:
          text += fmt::format("; host work dominates (kernels {} of {}'s wall)", share, e.faster);
          break;
        case Dominant::neither:
          text += fmt::format("; neither kernels nor host work dominates (kernels {} of {}'s wall; its verdict)", share,
                              e.faster);
          break;
      }
    }
    return text;
  }
  const Estimate magnitude{std::abs(e.gap.value_ns), e.gap.se_ns};
  std::string text = fmt::format("{} is {} {} than {}: {}", e.slower, estimate_text(magnitude),
                                 e.gap.value_ns >= 0 ? "slower" : "faster", e.faster, kernels);
  // Only significant terms are named with their values; the others are listed together.
  std::vector<std::string> named;
  std::vector<std::string> noise;
  double widest_layer_ns = 0;
  bool any_layer_resolved = false;
  for (const auto& layer : e.layers) {
    widest_layer_ns = std::max(widest_layer_ns, kZ95 * layer.estimate.se_ns);
    if (significant(layer.estimate)) {
      any_layer_resolved = true;
      named.push_back(significant_layer_text(layer));
    } else {
      noise.push_back(layer_name(layer));
    }
  }
  if (e.floor_slower != e.floor_faster) {
    const Estimate& term = e.wrapper ? *e.wrapper : e.floor_gap;
    const std::string label = e.wrapper ? wrapper_label(e) : fmt::format("{} vs {}", e.floor_slower, e.floor_faster);
    const char* suffix = e.wrapper ? "" : " (kernels and wrappers together)";
    if (significant(term)) {
      named.push_back(fmt::format("{} {}{}", label, format_duration(term.value_ns), suffix));
    } else {
      noise.push_back(label + suffix);
    }
  }
  if (!named.empty()) {
    text += "; " + named.front();
    for (std::size_t i = 1; i < named.size(); ++i) text += ", " + named[i];
  }
  if (!e.residual) {
    text += "; residual unknown";
  } else if (significant(*e.residual)) {
    text += "; residual " + format_duration(e.residual->value_ns);
  } else {
    noise.push_back("residual");
  }
  if (!noise.empty()) {
    text += "; within noise: " + noise.front();
    for (std::size_t i = 1; i < noise.size(); ++i) text += ", " + noise[i];
  }
  if (!e.layers.empty() && !any_layer_resolved) {
    text += fmt::format(". No layer is resolved: their 95% intervals reach ± {}. Measure longer (--time-limit), "
                        "interleave in blocks (--block), or use a quieter machine",
                        format_duration(widest_layer_ns));
  }
  for (const auto& check : e.dynamo_ranges) {
    const bool layers = check.layers_exceed_outside && check.guards_and_dynamo;  // as views_disagree_text
    const bool guards = check.guards_exceed_lookup && check.guards;
    if (!layers && !guards) continue;
    text += fmt::format(". {}'s {} more than Dynamo's own ranges hold (second view), so {} work besides Dynamo's",
                        check.path, layers ? "guards and Dynamo-entry layers hold" : "guards layer holds",
                        layers ? "they hold" : "it holds");
  }
  return text;
}

std::string explanation_title(const GapExplanation& e) {
  return fmt::format("why {} {} {}", e.slower,
                     e.within_noise ? "against" : e.gap.value_ns >= 0 ? "is slower than" : "is faster than", e.faster);
}

std::vector<ExplanationTerm> explanation_terms(const GapExplanation& e) {
  std::vector<ExplanationTerm> terms;
  terms.push_back({"gap", e.gap, fmt::format("median {} - median {}, timing pass", e.slower, e.faster)});
  if (e.kernels) {
    terms.push_back({"kernels", *e.kernels,
                     fmt::format("busy {} - busy {}, split pass; {}", e.slower, e.faster,
                                 e.kernels_same.value_or(false) ? "the same kernel set" : "the kernel sets differ")});
  }
  for (const auto& layer : e.layers) {
    const std::string label = layer.sign > 0 ? std::string(layer_label(layer.layer))
                                             : fmt::format("{}'s {} (subtracted)", layer.path, layer_label(layer.layer));
    terms.push_back({label, layer.estimate,
                     fmt::format("{} - {}{}", layer.upper, layer.lower, layer.kernels_differ.value_or(false) ? "; KERNELS DIFFER" : "")});
  }
  if (e.floor_slower != e.floor_faster) {
    if (e.wrapper) {
      terms.push_back({wrapper_label(e), *e.wrapper,
                       fmt::format("host {} - host {} (host = median wall - split-pass busy)", e.floor_slower,
                                   e.floor_faster)});
    } else {
      terms.push_back({fmt::format("{} vs {}", e.floor_slower, e.floor_faster), e.floor_gap,
                       "kernels and wrappers together: not split (see missing)"});
    }
  }
  if (e.residual) {
    terms.push_back({"residual", *e.residual,
                     e.residual_share ? fmt::format("{:.1f}% of the gap: in no term above", 100.0 * *e.residual_share)
                                      : std::string("in no term above")});
  }
  for (ExplanationTerm& term : terms) {
    if (!significant(term.estimate)) term.how += "; within noise (its 95% interval contains zero)";
  }
  return terms;
}

std::vector<std::string> explanation_notes(const GapExplanation& e) {
  std::vector<std::string> notes;
  for (const auto& check : e.dynamo_ranges) {
    std::string note = fmt::format("second view: {} spends {} in Dynamo's \"TorchDynamo Cache Lookup\" range (guards layer: {}) "
                                   "and {} outside its \"Torch-Compiled Region\" (guards + Dynamo entry: {}); split pass",
                                   check.path, estimate_text(check.cache_lookup),
                                   check.guards ? estimate_text(*check.guards) : std::string("-"),
                                   estimate_text(check.outside_region),
                                   check.guards_and_dynamo ? estimate_text(*check.guards_and_dynamo) : std::string("-"));
    if (const std::string disagree = views_disagree_text(check); !disagree.empty()) note += "; " + disagree;
    notes.push_back(std::move(note));
  }
  // A path that saves time beyond noise closes (part of) the gap; where the gap is itself noise there is no
  // gap to close, and the saving is said alone. One whose saving is within noise is named as such, with no
  // direction.
  for (const auto& remedy : e.remedies) {
    if (!significant(remedy.saved)) {
      notes.push_back(fmt::format("{} against {}: {}, within noise", remedy.path, e.slower, estimate_text(remedy.saved)));
    } else if (e.within_noise || e.gap.value_ns <= 0) {
      notes.push_back(fmt::format("{} runs {} faster than {}", remedy.path, estimate_text(remedy.saved), e.slower));
    } else {
      notes.push_back(fmt::format("closes it: {} runs {} faster than {} ({:.0f}% of the gap)", remedy.path,
                                  estimate_text(remedy.saved), e.slower, 100.0 * remedy.share_of_gap));
    }
  }
  for (const auto& missing : e.missing) notes.push_back("missing: " + missing);
  return notes;
}

std::string kernel_diff_headline(const KernelSetDiff& diff) {
  const std::string counts = fmt::format("{} in both, {} only in {}, {} only in {}", diff.both.size(),
                                         diff.only_a.size(), diff.path_a, diff.only_b.size(), diff.path_b);
  if (diff.partial) {
    return "recorded ops only, not the kernel sets (CPU kernels record themselves only with --kernel-profile): " + counts;
  }
  if (diff.same_set()) {
    return fmt::format("the same {} kernels; a time difference is host overhead or kernel speed", diff.both.size());
  }
  return counts;
}

}  // namespace ohprof
