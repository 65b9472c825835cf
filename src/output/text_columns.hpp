#pragma once
// Rows of cells as left-aligned columns, for the printers' tables (private to the output layer).
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ohprof {

// Each row on one line after `indent`, `gap` spaces between cells, every column as wide as its widest cell.
// A row with fewer cells than the first (a note after a key) takes the widths only of its first cell,
// so that its text runs on instead of widening the columns. No trailing spaces.
inline std::string text_columns(const std::vector<std::vector<std::string>>& rows, const std::string& indent,
                                std::size_t gap = 1) {
  if (rows.empty()) return "";
  std::vector<std::size_t> widths(rows[0].size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size() && i < widths.size() && (i == 0 || row.size() == widths.size()); ++i) {
      widths[i] = std::max(widths[i], row[i].size());
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line = indent;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::size_t width = i + 1 < row.size() && i < widths.size() ? widths[i] : 0;
      line += fmt::format("{}{:<{}}", i == 0 ? std::string() : std::string(gap, ' '), row[i], width);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace ohprof
