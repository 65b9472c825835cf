#include "ohprof/output/table_printer.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ohprof/base/format.hpp"
#include "ohprof/output/report_text.hpp"
#include "report_tables.hpp"
#include "text_columns.hpp"

namespace ohprof {

namespace {

// "1.234 ms ± 0.010 ms": median and sample standard deviation over iterations.
std::string median_spread(const SampleSummary& summary) {
  return format_duration(summary.median) + " ± " + format_duration(summary.stddev);
}

std::string shortened(const std::string& name, std::size_t width) {
  if (name.size() <= width) return name;
  return name.substr(0, width - 1) + "…";
}

// One quantity of the split: "    label:  median ± σ   share  (note)".
std::string split_line(const char* label, const SampleSummary& summary, std::int64_t total, std::int64_t wall,
                       const std::string& note = "") {
  return fmt::format("    {:<15}{:<24}{:>6}{}\n", label, median_spread(summary), share(total, wall),
                     note.empty() ? note : "  " + note);
}

// "    launches:      4 per iteration (1 graph), 4 device ops; queue delay median 10 ns\n"
std::string launches_line(const BreakdownSummary& s) {
  std::string out = fmt::format("    launches:      {:g} per iteration ({:g} graph), {:g} device ops", s.launches.median,
                                s.graph_launches.median, s.gpu_ops.median);
  if (s.queue_delay_ns.count > 0) {
    out += fmt::format("; queue delay median {}", format_duration(s.queue_delay_ns.median));
    if (s.queue_delays_clipped > 0) out += fmt::format(" ({} negative, clipped to 0)", s.queue_delays_clipped);
  }
  return out + "\n";
}

// The device-time split of one path (docs/metrics.md): medians ± σ over iterations; shares of the summed
// wall time of all iterations (split.summary.totals), which add up exactly where medians need not.
// The device is called by the report's noun (device_noun); the verdict line is path_verdict_text.
std::string format_split(const Report& report, const PathResult& path) {
  const PathBreakdown& split = *path.breakdown;
  const char* noun = device_noun(report.context.device.type);
  const std::string busy_label = fmt::format("{} busy:", noun);
  const BreakdownSummary& s = split.summary;
  const BreakdownTotals& t = s.totals;
  const std::int64_t wall = t.wall_ns;
  std::string out;
  const std::string header =
      fmt::format("  device split:  median ± σ over {} iterations; % of their summed wall time\n", s.wall_ns.count);
  if (s.wall_ns.count == 0) {
    out += "  device split:  no iteration windows to split\n";
  } else if (!readable_shares(split.verdict.reason).busy) {
    // No busy time read, yet device work recorded: a split of zeros would call it all host-bound.
    out += split.verdict.reason == VerdictReason::launches_without_ops
               ? "  device split:  unknown: launch calls, but no device op read (the verdict says why)\n"
               : "  device split:  unknown: the device's events are of categories ohprof does not read (the verdict "
                 "names them)\n";
  } else if (!readable_shares(split.verdict.reason).queueing) {
    // Busy time read, but no op's launch call: the rest of the wall time is not told apart (the verdict says why).
    out += header;
    out += split_line(busy_label.c_str(), s.gpu.busy_ns, t.gpu.busy_ns, wall, "(an op running)");
    out += "    host-bound, device-wait: unknown (no device op has its launch call in the data)\n";
    out += launches_line(s);
  } else if (s.cpu_kernels) {
    // The host runs the kernels itself: nothing is queued, so only busy and dispatch (docs/metrics.md).
    out += header;
    // Kernels that do not record themselves are in the dispatch (docs/metrics.md, "Verdict").
    const bool unrecorded = split.verdict.kernels_unrecorded;
    out += split_line("CPU busy:", s.gpu.busy_ns, t.gpu.busy_ns, wall,
                      unrecorded ? "(the kernels that record themselves)" : "(kernels)");
    out += split_line("dispatch:", s.dispatch_ns, t.dispatch_ns, wall,
                      unrecorded ? "(host work around the kernels, and the kernels that do not record themselves)"
                                 : "(host work around the kernels)");
    out += fmt::format("    kernels:       {:g} per iteration\n", s.gpu_ops.median);
  } else {
    const HostStates& states = t.host_states;
    out += header;
    out += split_line(busy_label.c_str(), s.gpu.busy_ns, t.gpu.busy_ns, wall, "(an op running)");
    if (t.gpu.communication_ns > 0) {
      out += fmt::format("      collectives: {} in all, {} of the busy time (a communication kernel running)\n",
                         format_duration(static_cast<double>(t.gpu.communication_ns)),
                         share(t.gpu.communication_ns, t.gpu.busy_ns));
    }
    // Ops without a launch call: host-bound at most, device-wait at least (docs/metrics.md, "Ops without a launch call").
    const PathVerdict& v = split.verdict;
    const bool ranges = v.queue_open();
    out += split_line("host-bound:", s.gpu.host_bound_ns, t.gpu.host_bound_ns, wall,
                      ranges ? fmt::format("(nothing queued: the {} waits for the host; {} of wall: {} device ops "
                                           "have no launch call and may have been queued earlier)",
                                           noun, split_share_text(v, TimeShare::host_bound), v.ops_queue_unknown)
                             : fmt::format("(nothing queued: the {} waits for the host)", noun));
    // the host states split the most host-bound time: each at most, where the queue is open
    const auto state = [&](std::string_view what) { return fmt::format("({}{})", what, ranges ? "; at most" : ""); };
    out += split_line("  blocking:", s.host_blocking_ns, states.blocking_ns, wall, state("host in a sync or blocking copy"));
    out += split_line("  launch:", s.host_launch_ns, states.launch_ns, wall, state("host in a launch call"));
    out += split_line("  other API:", s.host_other_api_ns, states.other_api_ns, wall,
                      state("allocation, initialisation, code loading, queries"));
    if (states.harness_ns > 0) {
      out += split_line("  harness:", s.host_harness_ns, states.harness_ns, wall, state("ohprof's own end-of-iteration sync"));
    }
    out += split_line("  framework:", s.host_framework_ns, states.framework_ns, wall,
                      state("in no runtime call: framework, Python, data loading"));
    out += split_line("device-wait:", s.gpu.device_wait_ns, t.gpu.device_wait_ns, wall,
                      ranges ? fmt::format("(work queued, none running: the {0} waits on the {0}; {1} of wall)",
                                           noun, split_share_text(v, TimeShare::device_wait))
                             : fmt::format("(work queued, none running: the {0} waits on the {0})", noun));
    // The full-queue flag is per device; the busiest device's maximum is shown when it differs.
    const std::string device_max =
        t.device_queue_max != t.gpu.queue_max ? fmt::format(" (one device: {})", t.device_queue_max) : std::string();
    out += fmt::format("    launch queue:  mean {:.1f} ± {:.1f} ops pending, max {}{}; full (>= {} on one device) in {} "
                       "of {} iterations\n",
                       s.gpu.queue_mean.median, s.gpu.queue_mean.stddev, t.gpu.queue_max, device_max, kFullLaunchQueue,
                       t.full_queue_iterations, t.iterations);
    out += fmt::format("    host side:     launch API {} (exposed {}, hidden {}), blocking {} ({} call{} in all), "
                       "other API {}\n",
                       format_duration(s.launch_api_ns.median), format_duration(s.launch_exposed_ns.median),
                       format_duration(s.launch_hidden_ns.median), format_duration(s.blocking_ns.median),
                       t.blocking_calls, t.blocking_calls == 1 ? "" : "s", format_duration(s.other_api_ns.median));
    out += launches_line(s);
    // Diagnostics: the window's own launches (busy - own busy was carried in from an earlier window).
    out += fmt::format("    own work:      {} of busy from the window's own launches; {} of them ran outside it "
                       "(carried out)\n",
                       format_duration(s.gpu.own_busy_ns.median), format_duration(s.gpu.carried_out_ns.median));
    if (s.streams.size() > 1) {
      for (const auto& stream : s.streams) {
        const DeviceSplitSummary& ss = stream.split;
        out += fmt::format("    {:<15}busy {} ({})  host-bound {} ({})  device-wait {} ({})  work pending in {} of "
                           "the device-wait\n",
                           fmt::format("stream {}:{}:", stream.key.device, stream.key.stream),
                           format_duration(ss.busy_ns.median), share(stream.totals.busy_ns, wall),
                           format_duration(ss.host_bound_ns.median),
                           with_bound(ranges ? Bound::at_most : Bound::exact, share(stream.totals.host_bound_ns, wall)),
                           format_duration(ss.device_wait_ns.median),
                           with_bound(ranges ? Bound::at_least : Bound::exact, share(stream.totals.device_wait_ns, wall)),
                           share(stream.waited_ns, t.gpu.device_wait_ns));
      }
    }
  }
  const AnalysisCounters& a = split.analysis_counters;
  const CollectionCounters& c = split.collection_counters;
  out += fmt::format(
      "    records:       {} ops: {} without timestamps, {} without launch, {} outside iterations; "
      "collector: {} dropped, {} without timestamps, {} without launch\n",
      a.ops_total, a.ops_without_timestamps, a.ops_without_launch, a.ops_outside_iterations, c.dropped_records,
      c.ops_without_timestamps, c.ops_without_launch);
  if (a.ops_invalid_interval + a.invalid_windows + a.duplicate_launch_correlations + c.skipped_events > 0) {
    out += fmt::format(
        "    also skipped:  {} ops with end < start, {} windows with end < start, {} duplicate correlations, "
        "{} trace events\n",
        a.ops_invalid_interval, a.invalid_windows, a.duplicate_launch_correlations, c.skipped_events);
  }
  out += fmt::format("    verdict:       {}: {}\n", to_string(split.verdict.verdict),
                     path_verdict_text(report, path));
  const std::string headroom = headroom_line(split.verdict);
  if (!headroom.empty()) out += "    headroom:      " + headroom + "\n";
  if (!split.kernels.empty()) {
    out += "    top kernels:   count per iteration, median per call, total per iteration\n";
    const std::size_t rows = std::min<std::size_t>(split.kernels.size(), 5);
    for (std::size_t i = 0; i < rows; ++i) {
      const KernelStat& k = split.kernels[i];
      out += fmt::format("      {:<48} {:>7.2f}  {:>10}  {:>10}\n", shortened(k.name, 48), k.count_per_iteration,
                         format_duration(k.median_ns), format_duration(k.mean_ns * k.count_per_iteration));
    }
    if (split.kernels.size() > rows) out += fmt::format("      … and {} more\n", split.kernels.size() - rows);
  }
  return out;
}

std::string format_kernel_diff(const KernelSetDiff& diff) {
  std::string out = fmt::format("\nkernels {} vs {}: {}\n", diff.path_a, diff.path_b, kernel_diff_headline(diff));
  const auto list = [&](const std::vector<KernelDiffRow>& rows, const std::string& path, bool a) {
    const std::size_t shown = std::min<std::size_t>(rows.size(), 10);
    for (std::size_t i = 0; i < shown; ++i) {
      out += fmt::format("  only in {}: {} ({:g} per iteration)\n", path, shortened(rows[i].name, 60),
                         a ? rows[i].count_per_iteration_a : rows[i].count_per_iteration_b);
    }
    if (rows.size() > shown) out += fmt::format("  only in {}: … and {} more\n", path, rows.size() - shown);
  };
  list(diff.only_a, diff.path_a, true);
  list(diff.only_b, diff.path_b, false);
  return out;
}

// "  label      12.3 us ± 0.4 us   how it was measured"
std::string term_line(const ExplanationTerm& term) {
  return fmt::format("    {:<44}{:>24}   {}\n", shortened(term.label, 44), estimate_text(term.estimate), term.how);
}

// The explanation of one gap (docs/metrics.md, "Explanation"): the answer, then each term.
std::string format_explanation(const GapExplanation& e) {
  std::string out = fmt::format("\n{} (medians; ± one standard error)\n", explanation_title(e));
  out += "  " + explanation_text(e) + "\n";
  for (const ExplanationTerm& term : explanation_terms(e)) out += term_line(term);
  for (const std::string& note : explanation_notes(e)) out += "  " + note + "\n";
  return out;
}

// A variant in one line: what it is a variant of is in its name.
std::string format_variant(const PathResult& path) {
  if (path.wall.count == 0) return fmt::format("  {:<40} no measured iterations\n", path.name);
  return fmt::format("  {:<40} median {:>10} ± {:<10} n = {}{}\n", path.name, format_duration(path.wall.median),
                     format_duration(path.wall.stddev), path.wall.count,
                     path.output_check && !path.output_check->passed ? "  OUTPUTS DIFFER" : "");
}

}  // namespace

std::string format_run_table(const Report& report) {
  std::string out;
  const auto& device = report.context.device;
  out += "device: " + device_text(device) + "\n";
  if (report.trace) {
    const TraceSource& t = *report.trace;
    out += fmt::format("trace:  {} ({}{:.1f} MB of JSON, {} events: {} used, {} ignored, {} skipped; iterations: {})\n",
                       t.path, t.compressed ? "gzip, " : "", static_cast<double>(t.json_bytes) / 1e6, t.events,
                       t.events_kept, t.events_ignored, t.events_skipped, to_string(t.iterations_from));
  }
  if (report.artifacts) {
    const ArtifactSummary& a = *report.artifacts;
    out += fmt::format("model:  {}{}\n", a.model.empty() ? a.exported_program : a.model,
                       a.cached ? "  (exported program and AOTI package from the cache)" : "");
    if (a.export_ns || a.aoti_compile_ns) {
      out += fmt::format("build:  torch.export {}, AOTI compile {}\n",
                         a.export_ns ? format_duration(static_cast<double>(*a.export_ns)) : std::string("-"),
                         a.aoti_compile_ns ? format_duration(static_cast<double>(*a.aoti_compile_ns)) : std::string("-"));
    }
  }
  const bool compare = report.kind == ReportKind::compare;
  for (const auto& path : report.paths) {
    if (path.role != PathRole::path) continue;
    const SampleSummary& wall = path.wall;
    out += fmt::format("\npath {}  ({}{})\n", path.name,
                       path.source ? std::string(to_string(*path.source)) + ": " : std::string(), path.artifact);
    // eager is made while the session is prepared: 0 by definition (docs/metrics.md, "Load / build time"), said so.
    const bool nothing_to_build = compare && parse_path_kind(path.name) == PathKind::eager;
    out += fmt::format("  {}{}{}\n", compare ? "ready in:      " : report.trace ? "read:          " : "load:          ",
                       format_duration(static_cast<double>(path.load_ns)),
                       nothing_to_build ? " (made while the session was prepared: nothing to build)" : "");
    if (path.output_check) {
      const PathOutputCheck& check = *path.output_check;
      out += fmt::format("  outputs:       {} vs {} (max abs diff {}, max rel diff {}; atol {:g}, rtol {:g}){}\n",
                         check.passed ? "match" : "DIFFER", check.reference,
                         check.max_abs_diff ? fmt::format("{:.3g}", *check.max_abs_diff) : std::string("-"),
                         check.max_rel_diff ? fmt::format("{:.3g}", *check.max_rel_diff) : std::string("-"),
                         check.atol, check.rtol, check.detail.empty() ? std::string() : ": " + check.detail);
    }
    if (path.execution) out += "  execution:     " + execution_text(*path.execution) + "\n";
    if (path.memory) out += "  memory:        " + memory_text(*path.memory) + "\n";
    if (path.memory && path.memory->device) {
      out += "  device memory: " + device_memory_text(*path.memory->device, path.memory->run_calls) + "\n";
    }
    if (path.concurrency) {
      const std::vector<std::string> lines = concurrency_lines(*path.concurrency, path.wall.median);
      for (std::size_t i = 0; i < lines.size(); ++i) out += (i == 0 ? "  threads:       " : "                 ") + lines[i] + "\n";
    }
    if (path.cold_start) {
      const std::vector<std::string> lines = cold_start_lines(*path.cold_start);
      for (std::size_t i = 0; i < lines.size(); ++i) out += (i == 0 ? "  cold start:    " : "                 ") + lines[i] + "\n";
    }
    if (wall.count == 0) {
      out += "  wall time:     no measured iterations\n";
      if (path.breakdown) out += format_split(report, path);
      continue;
    }
    out += fmt::format("  wall median:   {}\n", format_duration(wall.median));
    out += fmt::format("  wall mean:     {} ± {}\n", format_duration(wall.mean), format_duration(wall.stddev));
    out += fmt::format("  range:         {} … {}\n", format_duration(wall.min), format_duration(wall.max));
    out += fmt::format("  noise:         {:.1f}% (σ/mean)   outliers: {}   n = {}{}\n",
                       wall.relative_noise * 100.0, wall.outliers, wall.count,
                       path.stop_reason.code == StopCode::runs_reached || compare ? std::string() : "  (" + stop_reason_text(path.stop_reason) + ")");
    if (!path.split_unavailable_reason.empty()) {
      out += fmt::format("  device split:  unavailable: {}\n", path.split_unavailable_reason);
    }
    if (path.collector_cost) {
      const CollectorCost& cost = *path.collector_cost;
      out += fmt::format("  split pass:    {} collector on, {} runs: median {} vs {} without (x{:.3f})\n", to_string(cost.collector),
                         cost.runs, format_duration(cost.wall_median_with_ns), format_duration(cost.wall_median_without_ns),
                         cost.ratio);
    }
    if (path.kernel_attribution) {
      const KernelAttributionSummary& a = *path.kernel_attribution;
      out += fmt::format("  attribution:   {} of {} kernels in the generated code seen{}\n", a.seen.size(),
                         a.seen.size() + a.unattributed.size(),
                         a.unattributed.empty() ? std::string()
                                                : fmt::format("; NOT attributed (their time counts as dispatch): {}",
                                                              fmt::join(a.unattributed, ", ")));
    }
    if (path.breakdown) out += format_split(report, path);
  }
  for (const auto& diff : report.kernel_diffs) out += format_kernel_diff(diff);
  if (compare) {
    out += fmt::format("\nstopped: {}\n", stop_reason_text(report.stop_reason));
    if (!report.ratios.empty()) out += "\nsummary (ratio of median wall times)\n";
    for (const auto& ratio : report.ratios) {
      out += "  " + ratio_text(ratio, report.paths) + "\n";
    }
    const bool variants = std::any_of(report.paths.begin(), report.paths.end(),
                                      [](const PathResult& p) { return p.role == PathRole::variant; });
    if (variants) {
      out += "\nlayer variants (each peels one layer off a path: docs/metrics.md, \"Layers\"); median ± σ\n";
      for (const auto& path : report.paths) {
        if (path.role == PathRole::variant) out += format_variant(path);
      }
    }
    for (const auto& explanation : report.explanations) out += format_explanation(explanation);
    if (report.what_if) {
      out += fmt::format("\nwhat if (each setting changed alone from {}, in the same rounds; saved = median {} - median "
                         "with the setting: docs/metrics.md, \"What-if ledger\")\n",
                         report.what_if->base, report.what_if->base);
      for (const std::string& line : what_if_lines(*report.what_if, what_if_base_median(report))) out += "  " + line + "\n";
    }
    if (report.deployment && !report.deployment->rows.empty()) {
      const DeploymentSummary& d = *report.deployment;
      out += fmt::format("\nwhich to deploy (medians; {}; docs/metrics.md, \"Deployment summary\")\n",
                         deployment_memory_note(d));
      const CellTable table = deployment_table(report);  // the Markdown's and the HTML's rows, as text
      std::vector<std::vector<std::string>> rows{table.header};
      for (const std::vector<Cell>& row : table.rows) {
        std::vector<std::string>& text = rows.emplace_back();
        for (const Cell& cell : row) text.push_back(cell.text);
      }
      out += text_columns(rows, "  ", 2);
      out += "  " + deployment_text(d) + "\n";
    }
  }
  return out;
}

}  // namespace ohprof
