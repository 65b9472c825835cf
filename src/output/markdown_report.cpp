// GitHub-flavoured Markdown of the reports (docs/reports.md, "Markdown"): the same typed state the
// table printers format, laid out for a pull request. Nothing is computed here but display forms
// (a share as a percentage of the totals it is defined on, docs/metrics.md).
#include "ohprof/output/markdown_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <variant>

#include "ohprof/base/format.hpp"
#include "ohprof/output/diff_report.hpp"
#include "ohprof/output/report_text.hpp"
#include "diff_text.hpp"
#include "report_tables.hpp"

namespace ohprof {
namespace {

using Row = std::vector<std::string>;

// A GFM table: a header row, its alignment row ('r' right, anything else left), the rows.
std::string table(const Row& header, const std::string& align, const std::vector<Row>& rows) {
  const auto line = [](const Row& cells) {
    std::string out = "|";
    for (const std::string& c : cells) out += " " + markdown_cell(c) + " |";
    return out + "\n";
  };
  std::string out = line(header) + "|";
  for (std::size_t i = 0; i < header.size(); ++i) out += i < align.size() && align[i] == 'r' ? " ---: |" : " --- |";
  out += "\n";
  for (const Row& row : rows) out += line(row);
  return out;
}

// A code span: fenced by one backtick more than the longest run in the text (padded with spaces when the
// text starts or ends with one); empty text as "(none)".
std::string code(const std::string& text) {
  if (text.empty()) return "(none)";
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = text.front() == '`' || text.back() == '`';
  return fence + (pad ? " " : "") + text + (pad ? " " : "") + fence;
}

// A cell as Markdown: a name as a code span, a verdict in bold, plain text as it is, other text escaped.
std::string cell_markdown(const Cell& c) {
  switch (c.kind) {
    case Cell::Kind::name: return code(c.text);
    case Cell::Kind::strong: return "**" + md_text(c.text) + "**";
    case Cell::Kind::plain: return c.text;
    case Cell::Kind::text: break;
  }
  return md_text(c.text);
}

std::string inline_markdown(const Inline& line) {
  std::string out;
  for (const Cell& c : line) out += cell_markdown(c);
  return out;
}

std::string cell_table(const CellTable& t) {
  std::vector<Row> rows;
  for (const auto& cells : t.rows) {
    Row row;
    for (const Cell& c : cells) row.push_back(cell_markdown(c));
    rows.push_back(std::move(row));
  }
  return table(t.header, t.align, rows);
}

std::string context_section(const std::vector<std::pair<std::string, std::string>>& context) {
  std::vector<Row> rows;
  for (const auto& [key, value] : context) rows.push_back({key, key == "command" ? code(value) : md_text(value)});
  return "\n<details><summary>Context</summary>\n\n" + table({"", ""}, "", rows) + "\n</details>\n";
}

// Up to 3 warnings in the open; more in a collapsed section that says how many (a noisy run's outlier
// warnings would otherwise push the context off the page).
std::string warnings_section(const std::vector<Warning>& warnings) {
  if (warnings.empty()) return "";
  std::string list;
  for (const Warning& w : warnings) list += fmt::format("- {}: {}\n", code(to_string(w.code)), md_text(w.message));
  if (warnings.size() <= 3) return "\n**Warnings**\n\n" + list;
  return fmt::format("\n<details><summary>{} warnings</summary>\n\n{}\n</details>\n", warnings.size(), list);
}

}  // namespace

std::string md_text(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto alnum = [&](std::size_t j) { return j < text.size() && std::isalnum(static_cast<unsigned char>(text[j])) != 0; };
    switch (c) {
      case '\\': case '`': case '*': case '[': case ']': case '<': case '>': case '&': case '~':
        out += '\\';
        out += c;
        break;
      case '_':  // an underscore inside a word (nccl_data) cannot open emphasis in GFM
        if (!(i > 0 && alnum(i - 1) && alnum(i + 1))) out += '\\';
        out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string render_markdown(const Document& document) {
  struct Draw {
    std::string operator()(const doc::Headline& h) const {
      if (h.answers.empty() && h.lines.empty()) return "";
      std::string out = "\n";
      for (std::size_t i = 0; i < h.answers.size(); ++i) {
        out += (i > 0 ? ">\n> **" : "> **") + inline_markdown(h.answers[i]) + "**\n";
      }
      if (!h.answers.empty() && !h.lines.empty()) out += "\n";
      for (const Inline& line : h.lines) out += "- " + inline_markdown(line) + "\n";
      return out;
    }
    std::string operator()(const doc::Heading& h) const { return h.page_only ? "" : "\n" + inline_markdown(h.text) + "\n"; }
    std::string operator()(const doc::Subheading& h) const { return "\n#### " + inline_markdown(h.text) + "\n"; }
    std::string operator()(const doc::Answer& a) const { return "\n> " + inline_markdown(a.text) + "\n"; }
    std::string operator()(const doc::Paragraph& p) const { return "\n" + inline_markdown(p.text) + "\n"; }
    std::string operator()(const doc::Note& n) const { return "\n" + inline_markdown(n.text) + "\n"; }
    std::string operator()(const doc::Figure&) const { return ""; }
    std::string operator()(const doc::Bullets& b) const {
      std::string out = "\n";
      for (const Inline& item : b.items) out += "- " + inline_markdown(item) + "\n";
      return out;
    }
    std::string operator()(const doc::Table& t) const { return "\n" + cell_table(t.table); }
    std::string operator()(const doc::Warnings& w) const { return warnings_section(w.warnings); }
    std::string operator()(const doc::Context& c) const { return context_section(c.rows); }
  };
  std::string out = "### " + inline_markdown(document.title) + "\n";
  for (const Block& block : document.blocks) out += std::visit(Draw{}, block);
  return out;
}

}  // namespace ohprof
