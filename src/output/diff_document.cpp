// The diff laid out once (document.hpp): its Markdown and its HTML page are the same document drawn
// by each format's renderer (docs/diff.md, "Outputs").
#include <fmt/format.h>

#include <utility>

#include "ohprof/output/diff_report.hpp"
#include "ohprof/output/html_report.hpp"
#include "ohprof/output/markdown_report.hpp"
#include "diff_text.hpp"
#include "document.hpp"

namespace ohprof {
namespace {

using namespace doc::cells;

// A verdict: strongly when it is the one that fails the gate.
Cell verdict(std::string words, DiffVerdict v) { return is_worse(v) ? strong(std::move(words)) : text(std::move(words)); }

// The outcome: what decided it, first.
void outcome_blocks(const DiffResult& d, std::vector<Block>& blocks) {
  switch (d.outcome()) {
    case DiffOutcome::incomparable: {
      blocks.push_back(doc::Paragraph{{strong("Incomparable"), plain(": the reports differ in")}});
      doc::Bullets fields{{}, "ohprof-incomparable"};
      for (const Incomparability& i : d.incomparable) {
        fields.items.push_back({plain(std::string(i.field) + ": "), name(i.base), plain(" in the base, "), name(i.new_value),
                                plain(" in the new report")});
      }
      blocks.push_back(std::move(fields));
      return;
    }
    case DiffOutcome::nothing_judged:
      blocks.push_back(doc::Paragraph{{strong("Unknown"), plain(": "), text(nothing_judged_text(d)), plain(".")}});
      return;
    case DiffOutcome::regression:
      blocks.push_back(doc::Paragraph{{strong("Regression"), plain(fmt::format(": {} beyond {:.3g}%.", worse_figures_text(d),
                                                                              100 * d.config.threshold))}});
      return;
    case DiffOutcome::no_regression:
      blocks.push_back(doc::Paragraph{{strong("No regression"), plain(fmt::format(": none of {} {} beyond {:.3g}%.",
                                                                                 judged_text(d), worse_words(d),
                                                                                 100 * d.config.threshold))}});
      return;
  }
}

// Per path: the medians, the change, its interval, the counts and the verdict; then how they are defined.
void path_blocks(const DiffResult& d, std::vector<Block>& blocks) {
  if (d.paths.empty()) return;
  CellTable t{{"path", "base median", "new median", "change", fmt::format("{:.3g}% interval", 100 * (1 - d.config.alpha)),
               "n base/new", "verdict"},
              "lrrrrrl",
              {}};
  for (const PathDiff& p : d.paths) {
    t.rows.push_back({name(path_label(p)), plain(p.base_median_ns ? format_duration(*p.base_median_ns) : "-"),
                      plain(p.new_median_ns ? format_duration(*p.new_median_ns) : "-"), plain(p.ratio ? change_text(*p.ratio) : "-"),
                      plain(p.low && p.high ? fmt::format("{} … {}", change_text(*p.low), change_text(*p.high)) : "-"),
                      plain(fmt::format("{}/{}", p.base_count, p.new_count)), verdict(diff_verdict_text(p, d.config), p.verdict)});
  }
  blocks.push_back(doc::Table{std::move(t), "ohprof-diff-paths"});
  Inline note{plain("Change: new median / base median − 1")};
  if (!d.config.relative_to.empty()) {
    note.push_back(plain(", each path over "));
    note.push_back(name(d.config.relative_to));
    note.push_back(plain(" in its own report"));
  }
  note.push_back(plain(fmt::format("; bootstrap interval ({} resamples, seed {}); a path is slower or faster when its interval "
                                   "excludes 0 and the change passes ±{:.3g}% (docs/diff.md).",
                                   d.config.resamples, d.config.seed, 100 * d.config.threshold)));
  blocks.push_back(doc::Paragraph{std::move(note)});
}

// Where the change went: each split component's per-iteration mean, base -> new.
void split_blocks(const DiffResult& d, std::vector<Block>& blocks) {
  const std::vector<const char*> components = components_with_time(d);
  CellTable t{{"path"}, "l" + std::string(components.size(), 'r'), {}};
  t.header.insert(t.header.end(), components.begin(), components.end());
  for (const PathDiff& p : d.paths) {
    if (p.split.empty()) continue;
    std::vector<Cell> row{name(path_label(p))};
    for (const char* component : components) {
      const ComponentChange* c = find_component(p, component);
      row.push_back(plain(c ? split_figure(c->base_ns, c->base_bound) + " → " + split_figure(c->new_ns, c->new_bound) : "-"));
    }
    t.rows.push_back(std::move(row));
  }
  if (t.rows.empty()) return;
  blocks.push_back(doc::Paragraph{{strong("Split per iteration"),
                                   plain(std::string(", base → new (each report's split pass; not part of the verdict") +
                                         (split_has_bounds(d) ? std::string("; ") + kSplitBoundsNote : std::string()) + ")")}});
  blocks.push_back(doc::Table{std::move(t), "ohprof-diff-split"});
}

// compare --threads, --cold-start: each path's deployment figures, judged by their own noise rules.
void deployment_blocks(const DiffResult& d, std::vector<Block>& blocks) {
  if (d.deployment.empty()) return;
  CellTable t{{"path", "figure", "base", "new", "change", "n base/new", "verdict"}, "llrrrrl", {}};
  for (const DeploymentDiff& x : d.deployment) {
    t.rows.push_back({name(x.path), plain(deployment_figure_text(x)), plain(deployment_value_text(x, x.base_value)),
                      plain(deployment_value_text(x, x.new_value)), plain(deployment_change_text(x)),
                      plain(fmt::format("{}/{}", x.base_count, x.new_count)), verdict(deployment_verdict_text(x, d.config), x.verdict)});
  }
  blocks.push_back(doc::Paragraph{{strong("Deployment figures"),
                                   plain(", base → new (throughput: the difference of the rates against its error; starts and "
                                         "fresh peaks: the rank rule of the cold start; then the threshold; docs/diff.md)")}});
  blocks.push_back(doc::Table{std::move(t), "ohprof-diff-deployment"});
}

}  // namespace

Document diff_document(const DiffResult& d) {
  Document document{{plain("ohprof diff: "), name(d.new_file), plain(" against "), name(d.base_file)}, {}};
  outcome_blocks(d, document.blocks);
  path_blocks(d, document.blocks);
  split_blocks(d, document.blocks);
  deployment_blocks(d, document.blocks);
  document.blocks.push_back(doc::Warnings{d.warnings});
  return document;
}

std::string format_diff_markdown(const DiffResult& diff) { return render_markdown(diff_document(diff)); }
std::string format_diff_html(const DiffResult& diff) { return render_html(diff_document(diff)); }

}  // namespace ohprof
