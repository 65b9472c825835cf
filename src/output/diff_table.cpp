// `ohprof diff`'s table (docs/diff.md, "Outputs"): text made from the typed diff, nothing computed here
// but the display forms of its numbers (a ratio as a signed percentage).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ohprof/base/format.hpp"
#include "ohprof/output/diff_report.hpp"
#include "diff_text.hpp"
#include "text_columns.hpp"

namespace ohprof {
namespace {

std::string optional_duration(const std::optional<double>& ns) { return ns ? format_duration(*ns) : "-"; }

std::string header(const DiffResult& diff) {
  std::string out = fmt::format("ohprof diff ({} reports): base {}, new {}\n", to_string(diff.kind), diff.base_file,
                                diff.new_file);
  out += fmt::format("  change = new median / base median - 1{}; {:.3g}% interval by bootstrap ({} resamples, seed {}); "
                     "threshold {:.3g}%\n",
                     diff.config.relative_to.empty() ? ""
                                                     : fmt::format(", each path over {} in its own report", diff.config.relative_to),
                     100 * (1 - diff.config.alpha), diff.config.resamples, diff.config.seed, 100 * diff.config.threshold);
  return out;
}

std::string paths_block(const DiffResult& diff) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"path", "base median", "new median", "change", "interval", "n base/new", "verdict"});
  for (const PathDiff& p : diff.paths) {
    rows.push_back({path_label(p), optional_duration(p.base_median_ns), optional_duration(p.new_median_ns),
                    p.ratio ? change_text(*p.ratio) : "-",
                    p.low && p.high ? fmt::format("[{}, {}]", change_text(*p.low), change_text(*p.high)) : "-",
                    fmt::format("{}/{}", p.base_count, p.new_count), diff_verdict_text(p, diff.config)});
  }
  return text_columns(rows, "  ");
}

std::string split_block(const DiffResult& diff) {
  const std::vector<const char*> components = components_with_time(diff);
  if (components.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"path"});
  for (const char* c : components) rows.back().push_back(c);
  for (const PathDiff& p : diff.paths) {
    if (p.split.empty()) continue;
    std::vector<std::string> row{path_label(p)};
    for (const char* name : components) {
      const ComponentChange* c = find_component(p, name);
      row.push_back(c ? fmt::format("{} -> {}", split_figure(c->base_ns, c->base_bound), split_figure(c->new_ns, c->new_bound))
                      : "-");
    }
    rows.push_back(std::move(row));
  }
  return fmt::format("\nsplit per iteration, base -> new (each report's split pass; docs/diff.md{}):\n",
                     split_has_bounds(diff) ? std::string("; ") + kSplitBoundsNote : std::string()) +
         text_columns(rows, "  ");
}

std::string deployment_block(const DiffResult& diff) {
  if (diff.deployment.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"path", "figure", "base", "new", "change", "n base/new", "verdict"});
  for (const DeploymentDiff& d : diff.deployment) {
    rows.push_back({d.path, deployment_figure_text(d), deployment_value_text(d, d.base_value), deployment_value_text(d, d.new_value),
                    deployment_change_text(d), fmt::format("{}/{}", d.base_count, d.new_count),
                    deployment_verdict_text(d, diff.config)});
  }
  return "\ndeployment figures, base -> new (compare --threads, --cold-start; their own noise rules; docs/diff.md):\n" +
         text_columns(rows, "  ");
}

std::string outcome_line(const DiffResult& diff) {
  // the gains, short: each with its change
  std::vector<std::string> gains;
  for (DiffVerdict v : {DiffVerdict::faster, DiffVerdict::smaller}) {
    std::vector<std::string> items;
    for (const PathDiff& p : diff.paths) {
      if (p.verdict == v) items.push_back(fmt::format("{} {}", path_label(p), change_text(*p.ratio)));
    }
    for (const DeploymentDiff& d : diff.deployment) {
      if (d.verdict == v) items.push_back(fmt::format("{} {} {}", d.path, deployment_figure_text(d), deployment_change_text(d)));
    }
    if (!items.empty()) gains.push_back(fmt::format("{}: {}", to_string(v), fmt::join(items, ", ")));
  }
  switch (diff.outcome()) {
    case DiffOutcome::incomparable: {
      std::vector<std::string> reasons;
      for (const Incomparability& i : diff.incomparable) {
        reasons.push_back(fmt::format("{}: '{}' in the base, '{}' in the new report", i.field, i.base, i.new_value));
      }
      return fmt::format("verdict: incomparable: {} (--force diffs them anyway)\n", fmt::join(reasons, "; "));
    }
    case DiffOutcome::nothing_judged:
      return fmt::format("verdict: unknown: {}\n", nothing_judged_text(diff));
    case DiffOutcome::regression: {
      const auto worse = [](const auto& x) { return is_worse(x.verdict); };
      const auto count = static_cast<std::size_t>(std::count_if(diff.paths.begin(), diff.paths.end(), worse) +
                                                  std::count_if(diff.deployment.begin(), diff.deployment.end(), worse));
      return fmt::format("verdict: REGRESSION: {} beyond {:.3g}% ({})\n", worse_figures_text(diff),
                         100 * diff.config.threshold, judged_text(diff, count));
    }
    case DiffOutcome::no_regression:
      return fmt::format("verdict: no regression: none of {} {} beyond {:.3g}%{}\n", judged_text(diff), worse_words(diff),
                         100 * diff.config.threshold, gains.empty() ? "" : fmt::format("; {}", fmt::join(gains, "; ")));
  }
  return "";
}

}  // namespace

std::string worse_figures_text(const DiffResult& diff) {
  std::vector<std::string> groups;
  for (DiffVerdict v : {DiffVerdict::slower, DiffVerdict::larger}) {
    const std::vector<std::string> items = figures_with(diff, v);
    if (!items.empty()) groups.push_back(fmt::format("{} {}", fmt::join(items, ", "), to_string(v)));
  }
  return fmt::format("{}", fmt::join(groups, "; "));
}

std::string nothing_judged_text(const DiffResult& diff) {
  std::size_t few = 0, none = 0, unmatched = 0, reference = 0, flawed = 0, reference_flawed = 0;
  for (const PathDiff& p : diff.paths) {
    flawed += p.reason == DiffReason::flawed ? 1 : 0;
    few += p.reason == DiffReason::too_few_samples ? 1 : 0;
    none += p.reason == DiffReason::no_samples ? 1 : 0;
    unmatched += p.reason == DiffReason::only_in_base || p.reason == DiffReason::only_in_new ? 1 : 0;
    reference += p.reason == DiffReason::reference_missing ? 1 : 0;
    reference_flawed += p.reason == DiffReason::reference_flawed ? 1 : 0;
  }
  std::vector<std::string> why;
  if (diff.paths.empty()) why.push_back("the reports have no paths");
  if (few > 0) why.push_back(fmt::format("{} with fewer than {} samples on a side (measure more iterations: --runs, --min-runs)", few, kMinDiffSamples));
  if (none > 0) why.push_back(fmt::format("{} without samples on a side (a sweep point whose report is missing)", none));
  if (unmatched > 0) why.push_back(fmt::format("{} in one report only (paths are matched by name)", unmatched));
  if (reference > 0) why.push_back(fmt::format("{} where the --relative-to path has no samples", reference));
  if (reference_flawed > 0) {
    why.push_back(fmt::format("{} against a --relative-to path whose figures in a report are not its own", reference_flawed));
  }
  if (flawed > 0) {
    why.push_back(fmt::format("{} whose figures in a report are not the path's (outputs that differ, uncompiled code, or "
                              "samples across a compile)", flawed));
  }
  return fmt::format("no path could be judged: {}", fmt::join(why, "; "));
}

std::string format_diff_table(const DiffResult& diff) {
  std::string out = header(diff);
  if (diff.outcome() != DiffOutcome::incomparable) out += "\n" + paths_block(diff) + split_block(diff) + deployment_block(diff);
  return out + "\n" + outcome_line(diff);
}

}  // namespace ohprof
