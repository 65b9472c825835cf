// The ranks of a job laid out once (document.hpp): its Markdown and its page are the same document drawn
// by each format's renderer (docs/ranks.md, "The output"); the page adds each step's ranks as bars.
#include "ohprof/output/html_report.hpp"
#include "ohprof/output/markdown_report.hpp"
#include "document.hpp"
#include "report_tables.hpp"

namespace ohprof {
namespace {

Document ranks_document(const RanksReport& r) {
  Document document{{{"ohprof analyze: ", Cell::Kind::plain}, {ranks_job_line(r), Cell::Kind::text}}, {}};
  std::vector<Block>& blocks = document.blocks;
  if (!r.failed.empty()) {
    doc::Bullets failed{{}, "ohprof-failed"};
    for (const FailedTrace& f : r.failed) failed.items.push_back({{"failed: " + f.message, Cell::Kind::text}});
    blocks.push_back(std::move(failed));
  }
  if (!r.ranks.empty()) {
    blocks.push_back(doc::Heading{{{"Per rank", Cell::Kind::strong}, {", over its steps", Cell::Kind::plain}}});
    blocks.push_back(doc::Table{ranks_rank_table(r), "ohprof-ranks"});
    blocks.push_back(doc::Note{{{ranks_rank_note(), Cell::Kind::text}}});
    blocks.push_back(doc::Heading{{{"Per step", Cell::Kind::strong}}});
    blocks.push_back(doc::Table{ranks_step_table(r), "ohprof-steps"});
    blocks.push_back(doc::Note{{{ranks_step_note(), Cell::Kind::text}}});
    blocks.push_back(doc::Figure{ranks_step_bars(r)});
  }
  blocks.push_back(doc::Warnings{r.warnings});
  blocks.push_back(doc::Context{context_rows(r.context, false, {})});
  return document;
}

}  // namespace

std::string format_ranks_markdown(const RanksReport& report) { return render_markdown(ranks_document(report)); }
std::string format_ranks_html(const RanksReport& report) { return render_html(ranks_document(report)); }

}  // namespace ohprof
