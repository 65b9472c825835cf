#pragma once
// GitHub-flavoured Markdown for a pull request or an issue (`--export-markdown FILE`, docs/reports.md):
// the headline, the per-path table, the split, the verdicts with their evidence, the explanations,
// the warnings, and the context in a collapsed section. Formats the typed reports; computes nothing.
#include <string>

#include "ohprof/model/diff.hpp"
#include "ohprof/model/report.hpp"
#include "ohprof/model/sweep.hpp"

namespace ohprof {

std::string format_markdown(const Report& report);         // run, compare, analyze
std::string format_sweep_markdown(const SweepReport& report);
std::string format_diff_markdown(const DiffResult& diff);

// A table cell: '|' escaped, newlines as spaces (GitHub's tables are one line per row).
std::string markdown_cell(const std::string& text);
// Free text: the characters that would start Markdown or HTML escaped with a backslash (\ ` * [ ] < > &
// ~, and _ where it could open emphasis, not inside a word).
std::string md_text(const std::string& text);

}  // namespace ohprof
