// A run's, a comparison's and an analysis's report laid out once (document.hpp): its Markdown and its page
// are the same document drawn by each format's renderer (docs/reports.md, "Markdown" and "HTML"). The page
// adds what only it can show (page-only headings and figures: the split bars, the distributions, each
// iteration's split, the kernel tables).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ohprof/output/html_report.hpp"
#include "ohprof/output/markdown_report.hpp"
#include "ohprof/output/report_text.hpp"
#include "document.hpp"
#include "report_tables.hpp"

namespace ohprof {
namespace {

using namespace doc::cells;

Inline title_of(const Report& r) {
  const std::string inputs = r.config.inputs.empty() ? "" : fmt::format(" at {}", fmt::join(r.config.inputs, ", "));
  Inline title{plain(fmt::format("ohprof {}: ", to_string(r.kind))), name(report_subject(r)), plain(inputs)};
  append_inputs_file(title, r.config.inputs_file);
  title.push_back(plain(" on " + device_text(r.context.device)));
  return title;
}

// Each explanation's answer, then the ratios.
doc::Headline headline(const Report& r) {
  doc::Headline h;
  for (const GapExplanation& e : r.explanations) h.answers.push_back({text(explanation_text(e))});
  for (const PathRatio& ratio : r.ratios) h.lines.push_back({text(ratio_text(ratio, r.paths))});
  return h;
}

void verdicts(const Report& r, std::vector<Block>& blocks) {
  doc::Bullets items{{}, "ohprof-verdicts"};
  for (const PathResult* p : asked_paths(r)) {
    if (!p->breakdown) continue;
    const PathBreakdown& b = *p->breakdown;
    const std::string headroom = headroom_line(b.verdict);
    items.items.push_back({name(p->name), text(": "), strong(to_string(b.verdict.verdict)),
                           text(": " + path_verdict_text(r, *p) +
                                (headroom.empty() ? headroom : ". Headroom: " + headroom))});
  }
  if (items.items.empty()) return;
  blocks.push_back(doc::Heading{{strong("Verdicts"), text(" (what decided each)")}});
  blocks.push_back(std::move(items));
}

void execution(const Report& r, std::vector<Block>& blocks) {
  doc::Bullets items{{}, "ohprof-execution"};
  for (const PathResult* p : asked_paths(r)) {
    if (p->execution) items.items.push_back({name(p->name), text(": " + execution_text(*p->execution))});
  }
  if (items.items.empty()) return;
  blocks.push_back(doc::Heading{{strong("What each path ran while measured")}});
  blocks.push_back(std::move(items));
}

void explanations(const Report& r, std::vector<Block>& blocks) {
  if (r.explanations.empty()) return;
  blocks.push_back(doc::Heading{{strong("Why the paths differ")}, true});
  for (const GapExplanation& e : r.explanations) {
    blocks.push_back(doc::Subheading{{text(explanation_title(e))}});
    blocks.push_back(doc::Answer{{text(explanation_text(e))}});
    CellTable t{{"term", "estimate ± se", "measured as"}, "lrl", {}};
    for (const ExplanationTerm& term : explanation_terms(e)) {
      t.rows.push_back({text(term.label), text(estimate_text(term.estimate)), text(term.how)});
    }
    blocks.push_back(doc::Table{std::move(t), "ohprof-explanation"});
    doc::Bullets notes;
    for (const std::string& note : explanation_notes(e)) notes.items.push_back({text(note)});
    if (!notes.items.empty()) blocks.push_back(std::move(notes));
  }
}

// compare --what-if (docs/metrics.md, "What-if ledger"): one row per setting, with what the user writes.
void what_if(const Report& r, std::vector<Block>& blocks) {
  if (!r.what_if) return;
  const WhatIfLedger& w = *r.what_if;
  blocks.push_back(doc::Heading{{strong("What each compile setting buys")}});
  blocks.push_back(doc::Note{{text("Each setting changed alone from "), name(w.base),
                              text(", measured in the same rounds; saved = median "), name(w.base),
                              text(" − median with the setting, with its 95% interval (docs/metrics.md, "
                                   "\"What-if ledger\").")}});
  CellTable t{{"setting", "what you write", "against " + w.base}, "lll", {}};
  const double base_median = what_if_base_median(r);
  for (const WhatIfEntry& e : w.entries) {
    t.rows.push_back({name(to_string(e.setting)), name(setting_label(e.setting)), text(what_if_entry_text(e, w, base_median))});
  }
  for (const WhatIfAgain& again : w.again) {
    t.rows.push_back({name(what_if_again_label(again)),
                      text("the same settings, compiled again in a fresh Inductor cache (" + again.path + ")"),
                      text(what_if_again_text(again, w, base_median))});
  }
  t.rows.push_back({name(kWhatIfPlacementLabel), text("the band the builds above give"), text(what_if_placement_text(w))});
  blocks.push_back(doc::Table{std::move(t), "ohprof-what-if"});
}

// compare --threads (docs/metrics.md, "Concurrent callers"): a row per path and caller count, the figures as the
// table's lines write them, then each path's limit.
void concurrency(const Report& r, std::vector<Block>& blocks) {
  CellTable t{{"path", "callers", "calls/s", "p50", "p99", "against 1 caller", "caller threads"}, "lrrrrll", {}};
  doc::Bullets limits{{}, "ohprof-threads-limits"};
  for (const PathResult* p : asked_paths(r)) {
    if (!p->concurrency) continue;
    const PathConcurrency& c = *p->concurrency;
    if (!c.unavailable.empty()) {
      limits.items.push_back({name(p->name), text(": unavailable: " + c.unavailable)});
      continue;
    }
    for (const ThreadsPoint& point : c.points) {
      const ThreadsPointText x = threads_point_text(c, point, p->wall.median);
      t.rows.push_back({name(p->name), text(std::to_string(point.threads)), text(x.rate), text(x.p50), text(x.p99),
                        text(point.threads == 1 ? x.measuring : x.vs_one), text(x.cpus)});
    }
    limits.items.push_back({name(p->name), text(": limit: " + concurrency_limit_line(c))});
  }
  if (t.rows.empty() && limits.items.empty()) return;
  blocks.push_back(doc::Heading{{strong("Concurrent callers")}});
  blocks.push_back(doc::Note{{text("Each path's loaded model called from several threads at once, each with its own "
                                   "inputs; against 1 caller: the throughput's ratio with its 95% interval; caller "
                                   "threads: the CPUs they kept busy and the part of their time they waited for one "
                                   "(docs/metrics.md, \"Concurrent callers\").")}});
  if (!t.rows.empty()) blocks.push_back(doc::Table{std::move(t), "ohprof-threads"});
  blocks.push_back(std::move(limits));
}

// compare --cold-start (docs/metrics.md, "Cold start"): a row per path and cache state.
void cold_start(const Report& r, std::vector<Block>& blocks) {
  CellTable t{{"path", "state", "from a fresh process to its first checked result"}, "lll", {}};
  std::string header;
  for (const PathResult* p : asked_paths(r)) {
    if (!p->cold_start) continue;
    if (header.empty()) header = cold_start_header(*p->cold_start);
    for (const ColdStartState& state : p->cold_start->states) {
      t.rows.push_back({name(p->name), text(cold_start_state_label(state)), text(cold_start_state_text(state))});
    }
  }
  if (t.rows.empty()) return;
  blocks.push_back(doc::Heading{{strong("Cold start")}});
  blocks.push_back(doc::Note{{text(header + " (docs/metrics.md, \"Cold start\").")}});
  blocks.push_back(doc::Table{std::move(t), "ohprof-cold-start"});
}

// compare: which path to deploy (docs/metrics.md, "Deployment summary").
void deployment(const Report& r, std::vector<Block>& blocks) {
  CellTable t = deployment_table(r);
  if (t.rows.empty()) return;
  blocks.push_back(doc::Heading{{strong("Which to deploy")}});
  blocks.push_back(doc::Table{std::move(t), "ohprof-deployment"});
  blocks.push_back(doc::Note{{text("Memory columns: " + deployment_memory_note(*r.deployment) + ".")}});
  blocks.push_back(doc::Answer{{text(deployment_text(*r.deployment))}});
}

void kernel_sets(const Report& r, std::vector<Block>& blocks) {
  if (r.kernel_diffs.empty()) return;
  doc::Bullets items;
  for (const KernelSetDiff& d : r.kernel_diffs) {
    items.items.push_back({name(d.path_a), text(" vs "), name(d.path_b), text(": " + kernel_diff_headline(d))});
  }
  blocks.push_back(doc::Heading{{strong("Kernel sets")}});
  blocks.push_back(std::move(items));
}

}  // namespace

Document report_document(const Report& r) {
  Document document{title_of(r), {}};
  std::vector<Block>& blocks = document.blocks;
  blocks.push_back(headline(r));
  blocks.push_back(doc::Heading{{strong("Paths")}, true});
  blocks.push_back(doc::Table{path_table(r), "ohprof-paths"});
  blocks.push_back(doc::Note{{text(path_table_note(r))}});
  blocks.push_back(doc::Figure{report_split_bars(r)});
  if (CellTable states = host_state_table(r); !states.rows.empty()) {
    blocks.push_back(doc::Heading{{strong("Host-bound time by what the host was doing"),
                                   text(fmt::format(" (shares of {} summed wall time)",
                                                    r.trace ? "the iterations'" : "the split pass's"))}});
    blocks.push_back(doc::Table{std::move(states), "ohprof-host-states"});
    if (std::string note = host_state_table_note(r); !note.empty()) blocks.push_back(doc::Note{{text(std::move(note))}});
  }
  verdicts(r, blocks);
  execution(r, blocks);
  explanations(r, blocks);
  what_if(r, blocks);
  concurrency(r, blocks);
  cold_start(r, blocks);
  deployment(r, blocks);
  blocks.push_back(doc::Figure{report_distributions(r)});
  if (r.trace) blocks.push_back(doc::Figure{report_iteration_columns(r)});
  blocks.push_back(doc::Figure{report_kernel_tables(r)});
  kernel_sets(r, blocks);
  blocks.push_back(doc::Warnings{r.warnings});
  blocks.push_back(doc::Context{context_rows(r.context, !r.trace, report_extra_context(r))});
  return document;
}

std::string format_markdown(const Report& report) { return render_markdown(report_document(report)); }
std::string format_html(const Report& report) { return render_html(report_document(report)); }

}  // namespace ohprof
