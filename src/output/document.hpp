#pragma once
// A report laid out once, as a document, and drawn by one renderer per format (private to the output
// layer; docs/architecture.md, "Where a new thing goes"): render_markdown (markdown_report.cpp) and
// render_html (html_report.cpp). A report kind builds its document from its typed state; a renderer
// knows nothing of report kinds. Text only: nothing is computed here but display forms.
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "ohprof/model/warning.hpp"

namespace ohprof {

struct Report;
struct DiffResult;
struct RanksReport;
struct SweepReport;

// A run of text and what it is. Markdown escapes `text` (md_text) and writes `plain` as it is (numbers,
// durations, device names: text that holds no Markdown); it shows a name as code and a verdict strongly.
// HTML escapes every kind.
struct Cell {
  enum class Kind { text, plain, name, strong };
  std::string text;
  Kind kind = Kind::text;
};
// A line of text: runs of several kinds ("`compile` is 2.1x slower").
using Inline = std::vector<Cell>;

namespace doc {
// The cells a document builder writes with (doc::text, ...); a builder names them all with
// `using namespace doc::cells;`.
inline namespace cells {
inline Cell text(std::string s) { return {std::move(s), Cell::Kind::text}; }
inline Cell plain(std::string s) { return {std::move(s), Cell::Kind::plain}; }
inline Cell name(std::string s) { return {std::move(s), Cell::Kind::name}; }
inline Cell strong(std::string s) { return {std::move(s), Cell::Kind::strong}; }
}  // namespace cells
}  // namespace doc

struct CellTable {
  std::vector<std::string> header;
  std::string align;  // per column: 'r' right, 'l' left
  std::vector<std::vector<Cell>> rows;
};

namespace doc {

// A section's heading: Markdown bolds what the line marks strong ("**Per rank**, over its steps"); HTML
// makes the whole line an <h2>. A page-only heading names a section that Markdown, more compact, runs on
// without one.
struct Heading {
  Inline text;
  bool page_only = false;
};
// A heading within a section: "#### " in Markdown, an <h3> on a page.
struct Subheading {
  Inline text;
};
// The line that answers a section's question: a quote in Markdown, a bold paragraph on a page.
struct Answer {
  Inline text;
};
// The report's headline, before its sections: its answers (a bold quote each in Markdown) and its lines
// (a list in Markdown); set apart on a page.
struct Headline {
  std::vector<Inline> answers;
  std::vector<Inline> lines;
};
// A paragraph.
struct Paragraph {
  Inline text;
};
// What a table's or a figure's numbers are: a paragraph, set apart as a note on a page.
struct Note {
  Inline text;
};
// A picture only a page can show (inline SVG, its legend): HTML as made by the page's printer; Markdown
// leaves it out.
struct Figure {
  std::string html;
};
// A list, one line per item.
struct Bullets {
  std::vector<Inline> items;
  std::string css_class;  // HTML: the list's class ("" none)
};
// A table.
struct Table {
  CellTable table;
  std::string css_class;  // HTML: the table's class
};
// The report's warnings: up to 3 in the open, more collapsed (Markdown); a list (HTML). None: nothing.
struct Warnings {
  std::vector<Warning> warnings;
};
// What ran where, collapsed: command, versions, device, host, date.
struct Context {
  std::vector<std::pair<std::string, std::string>> rows;
};

}  // namespace doc

using Block = std::variant<doc::Headline, doc::Heading, doc::Subheading, doc::Paragraph, doc::Answer, doc::Note,
                           doc::Bullets, doc::Table, doc::Figure, doc::Warnings, doc::Context>;

// Markdown: "### title", then the blocks, one blank line before each (an empty Warnings block is none).
// HTML: a page whose title and heading are the title's text, then the blocks.
struct Document {
  Inline title;
  std::vector<Block> blocks;
};

// Markdown (GitHub-flavoured) of a document.
std::string render_markdown(const Document& document);
// A static HTML page of a document: no script, nothing fetched.
std::string render_html(const Document& document);
// The text of a line, without markup (an HTML page's <title>).
std::string inline_text(const Inline& text);

// Each report kind's document, built from its typed state in src/output/<kind>_document.cpp: the one
// source of its Markdown, its HTML page and any other renderer's form (report_forms.hpp).
Document report_document(const Report& report);  // run, compare, analyze
Document diff_document(const DiffResult& diff);
Document ranks_document(const RanksReport& report);
Document sweep_document(const SweepReport& report);

}  // namespace ohprof
