#pragma once
// Text of the diff's typed results, shared by its table and its Markdown (private to the output layer).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ohprof/base/format.hpp"
#include "ohprof/base/process_memory.hpp"
#include "ohprof/model/diff.hpp"
#include "ohprof/output/report_text.hpp"

namespace ohprof {

// A ratio as a signed change: 1.2 -> "+20.0%".
inline std::string change_text(double ratio) { return fmt::format("{:+.1f}%", 100 * (ratio - 1)); }

// "compile", or "compile @ 64" in sweeps.
inline std::string path_label(const PathDiff& p) { return p.point ? fmt::format("{} @ {}", p.name, *p.point) : p.name; }

// The verdict in words, with its reason.
inline std::string diff_verdict_text(DiffVerdict verdict, DiffReason reason, const DiffConfig& config) {
  switch (reason) {
    case DiffReason::above_threshold:
      switch (verdict) {
        case DiffVerdict::slower: return "SLOWER";
        case DiffVerdict::larger: return "LARGER";
        case DiffVerdict::smaller: return "smaller";
        default: return "faster";
      }
    case DiffReason::below_threshold:
      return fmt::format("no change (significant, within {:.3g}%)", 100 * config.threshold);
    case DiffReason::not_significant: return "no significant change";
    case DiffReason::no_samples: return "unknown: no samples on a side";
    case DiffReason::too_few_samples: return fmt::format("unknown: fewer than {} samples", kMinDiffSamples);
    case DiffReason::reference_path: return "the reference (--relative-to)";
    case DiffReason::reference_missing: return "unknown: the reference has no samples here";
    case DiffReason::only_in_base: return "only in the base report";
    case DiffReason::only_in_new: return "only in the new report";
    case DiffReason::callers_differ: return "unknown: measured at other numbers of callers";
    case DiffReason::flawed: return "unknown: a side's figures are not the path's";
    case DiffReason::reference_flawed: return "unknown: the reference's figures in a report are not its own (its row says why)";
  }
  return "";
}
// What a side's figures are, where they are not the path's: "its outputs differ from the reference path's".
inline const char* digest_flaw_text(DigestFlaw flaw) {
  switch (flaw) {
    case DigestFlaw::outputs_differ: return "its outputs differ from the reference path's";
    case DigestFlaw::ran_uncompiled: return "it ran uncompiled code after its timing pass";
    case DigestFlaw::samples_pooled: return "its samples mix the programs before and after a compile";
  }
  return "";
}
inline std::string diff_verdict_text(const PathDiff& p, const DiffConfig& config) {
  if (p.reason != DiffReason::flawed) return diff_verdict_text(p.verdict, p.reason, config);
  std::vector<std::string> sides;
  if (p.base_flaw) sides.push_back(fmt::format("in the base report {}", digest_flaw_text(*p.base_flaw)));
  if (p.new_flaw) sides.push_back(fmt::format("in the new report {}", digest_flaw_text(*p.new_flaw)));
  return fmt::format("unknown: {}", fmt::join(sides, "; "));
}

// A deployment figure's verdict: a start's too few processes is said as the rank rule says it.
inline std::string deployment_verdict_text(const DeploymentDiff& d, const DiffConfig& config) {
  if (d.reason == DiffReason::too_few_samples) {
    return d.measure == DeployMeasure::fresh_peak
               ? fmt::format("unknown: too few peaks to order ({} or more processes with a reading on each side)",
                             kColdStartDefaultProcesses)
               : fmt::format("unknown: too few processes to order (--cold-start={} or more)", kColdStartDefaultProcesses);
  }
  if (d.reason == DiffReason::no_samples) {
    return d.measure == DeployMeasure::fresh_peak ? "unknown: no peak on a side (no process finished, or none read its memory)"
                                                  : "unknown: no figure on a side (no process finished, or no calls)";
  }
  return diff_verdict_text(d.verdict, d.reason, config);
}

// "calls/s at 2 callers", "start (cold cache)", "start" (a path with no compile cache: aoti, eager), "fresh peak
// (cold cache)", "fresh peak".
inline std::string deployment_figure_text(const DeploymentDiff& d) {
  if (d.measure == DeployMeasure::throughput) {
    return d.threads > 0 ? fmt::format("calls/s at {} callers", d.threads) : std::string("calls/s");
  }
  const char* figure = d.measure == DeployMeasure::start ? "start" : "fresh peak";
  return d.cache == CompileCache::none ? std::string(figure) : fmt::format("{} ({} cache)", figure, to_string(d.cache));
}

// A deployment figure's value: calls per second ("66.5k"), a duration, or a size.
inline std::string deployment_value_text(const DeploymentDiff& d, const std::optional<double>& value) {
  if (!value) return "-";
  switch (d.measure) {
    case DeployMeasure::throughput: return rate_text(*value);
    case DeployMeasure::start: return format_duration(*value);
    case DeployMeasure::fresh_peak: return format_bytes(std::llround(*value));
  }
  return "-";
}

// What a regression's figures did, for the verdict line: "slower", "larger", or "slower or larger" where the
// diff judged fresh peaks as well as times.
inline const char* worse_words(const DiffResult& diff) {
  const bool peaks = std::any_of(diff.deployment.begin(), diff.deployment.end(), [](const DeploymentDiff& d) {
    return d.measure == DeployMeasure::fresh_peak && d.verdict != DiffVerdict::unknown;
  });
  const bool times = std::any_of(diff.paths.begin(), diff.paths.end(), [](const PathDiff& p) { return p.verdict != DiffVerdict::unknown; }) ||
                     std::any_of(diff.deployment.begin(), diff.deployment.end(), [](const DeploymentDiff& d) {
                       return d.measure != DeployMeasure::fresh_peak && d.verdict != DiffVerdict::unknown;
                     });
  return peaks && times ? "slower or larger" : peaks ? "larger" : "slower";
}

// The change of the figure itself, new / base − 1 (calls/s up is better; a start's time down is).
inline std::string deployment_change_text(const DeploymentDiff& d) { return d.ratio ? change_text(*d.ratio) : "-"; }

// Each figure with a verdict `v`: "aoti +20.0% [+18.1%, +21.9%]" (a path, its interval), "compile start (cold cache)
// +100.0% (2.31 s -> 4.62 s)" (a deployment figure, both values).
inline std::vector<std::string> figures_with(const DiffResult& diff, DiffVerdict v) {
  std::vector<std::string> out;
  for (const PathDiff& p : diff.paths) {
    if (p.verdict != v) continue;
    out.push_back(p.low && p.high ? fmt::format("{} {} [{}, {}]", path_label(p), change_text(*p.ratio), change_text(*p.low), change_text(*p.high))
                                  : fmt::format("{} {}", path_label(p), change_text(*p.ratio)));
  }
  for (const DeploymentDiff& d : diff.deployment) {
    if (d.verdict != v) continue;
    out.push_back(fmt::format("{} {} {} ({} -> {})", d.path, deployment_figure_text(d), deployment_change_text(d),
                              deployment_value_text(d, d.base_value), deployment_value_text(d, d.new_value)));
  }
  return out;
}

// What was judged, for the verdict line: "5 judged paths", "1 judged path"; with deployment figures judged, the
// total and its parts: "16 judged (3 paths, 13 deployment figures)", or with `count_of` (a regression's count)
// "5 of 16 judged: 3 paths, 13 deployment figures".
inline std::string judged_text(const DiffResult& diff, std::optional<std::size_t> count_of = std::nullopt) {
  const std::size_t figures = static_cast<std::size_t>(std::count_if(
      diff.deployment.begin(), diff.deployment.end(), [](const DeploymentDiff& d) { return d.verdict != DiffVerdict::unknown; }));
  const std::size_t paths = diff.judged() - figures;
  const std::string of = count_of ? fmt::format("{} of ", *count_of) : std::string();
  if (figures == 0) return fmt::format("{}{} judged path{}", of, paths, paths == 1 ? "" : "s");
  const std::string parts = fmt::format("{} path{}, {} deployment figure{}", paths, paths == 1 ? "" : "s", figures,
                                        figures == 1 ? "" : "s");
  return count_of ? fmt::format("{}{} judged: {}", of, diff.judged(), parts) : fmt::format("{} judged ({})", diff.judged(), parts);
}

// The split components some path has time in, in their order (a CPU run has no device-wait, launch or
// blocking time): the columns of the split's table.
inline std::vector<const char*> components_with_time(const DiffResult& diff) {
  // the order of the paths' split lists (the same for every path: analysis/diff.cpp)
  std::vector<const char*> order;
  for (const PathDiff& p : diff.paths) {
    if (p.split.size() > order.size()) {
      order.clear();
      for (const ComponentChange& c : p.split) order.push_back(c.component);
    }
  }
  std::vector<const char*> components;
  for (const char* name : order) {
    const bool has_time = std::any_of(diff.paths.begin(), diff.paths.end(), [&](const PathDiff& p) {
      return std::any_of(p.split.begin(), p.split.end(), [&](const ComponentChange& c) {
        return std::string_view(c.component) == name && (c.base_ns != 0 || c.new_ns != 0);
      });
    });
    if (has_time) components.push_back(name);
  }
  return components;
}

// A split figure as printed: a bound carries its sign (≥ at least, ≤ at most).
inline std::string split_figure(double ns, Bound bound) { return with_bound(bound, format_duration(ns)); }

// Some split figure is a bound: the block's note says what the signs mean.
inline bool split_has_bounds(const DiffResult& diff) {
  return std::any_of(diff.paths.begin(), diff.paths.end(), [](const PathDiff& p) {
    return std::any_of(p.split.begin(), p.split.end(), [](const ComponentChange& c) {
      return c.base_bound != Bound::exact || c.new_bound != Bound::exact;
    });
  });
}
inline constexpr const char* kSplitBoundsNote =
    "≥ and ≤: bounds, where a report's kernels of that path do not record themselves and their time is in the "
    "host-bound time, or where device ops without a launch call leave when they were queued unknown (host-bound and "
    "its states at most, device-wait at least)";

// A path's change of one component; null when it has none of that name.
inline const ComponentChange* find_component(const PathDiff& p, std::string_view name) {
  const auto c = std::find_if(p.split.begin(), p.split.end(), [&](const ComponentChange& x) { return name == x.component; });
  return c == p.split.end() ? nullptr : &*c;
}

}  // namespace ohprof
