// The ranks of a job laid out once (document.hpp): its Markdown and its page are the same document drawn
// by each format's renderer (docs/ranks.md, "The output"); the page adds each step's ranks as bars.
#include "ohprof/output/html_report.hpp"
#include "ohprof/output/markdown_report.hpp"
#include "document.hpp"
#include "report_tables.hpp"

namespace ohprof {
namespace {

using namespace doc::cells;

}  // namespace

Document ranks_document(const RanksReport& r) {
  Document document{{plain("ohprof analyze: "), text(ranks_job_line(r))}, {}};
  std::vector<Block>& blocks = document.blocks;
  if (!r.failed.empty()) {
    doc::Bullets failed{{}, "ohprof-failed"};
    for (const FailedTrace& f : r.failed) failed.items.push_back({text("failed: " + f.message)});
    blocks.push_back(std::move(failed));
  }
  if (!r.ranks.empty()) {
    blocks.push_back(doc::Heading{{strong("Per rank"), plain(", over its steps")}});
    blocks.push_back(doc::Table{ranks_rank_table(r), "ohprof-ranks"});
    blocks.push_back(doc::Note{{text(ranks_rank_note())}});
    blocks.push_back(doc::Heading{{strong("Per step")}});
    blocks.push_back(doc::Table{ranks_step_table(r), "ohprof-steps"});
    blocks.push_back(doc::Note{{text(ranks_step_note())}});
    blocks.push_back(doc::Figure{ranks_step_bars(r)});
  }
  blocks.push_back(doc::Warnings{r.warnings});
  blocks.push_back(doc::Context{context_rows(r.context, false, {})});
  return document;
}

std::string format_ranks_markdown(const RanksReport& report) { return render_markdown(ranks_document(report)); }
std::string format_ranks_html(const RanksReport& report) { return render_html(ranks_document(report)); }

}  // namespace ohprof
