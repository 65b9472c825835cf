#include "ohprof/analysis/code_sites.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "ohprof/analysis/cpu_kernels.hpp"

namespace ohprof {
namespace {

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// The character after the parenthesis that closes the one at `open` (skipping spaces and newlines), or
// '\0' when the text ends first.
char after_closing_paren(std::string_view text, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth == 0) {
      for (std::size_t j = i + 1; j < text.size(); ++j) {
        if (std::isspace(static_cast<unsigned char>(text[j])) == 0) return text[j];
      }
      return '\0';
    }
  }
  return '\0';
}

enum class Use { none, declaration, definition, call };

// What the line starting at `begin` (ending before `end`) does with `name`: the first use decides.
Use use_on_line(std::string_view text, std::size_t begin, std::size_t end, std::string_view name) {
  const std::string_view line = text.substr(begin, end - begin);
  // torch.compile's Python wrapper: `NAME = async_compile.cpp_pybinding(...)` / `.triton('NAME', ...)`
  for (std::size_t at = line.find(name); at != std::string_view::npos; at = line.find(name, at + 1)) {
    const bool starts = at == 0 || !identifier_char(line[at - 1]);
    const std::size_t after = at + name.size();
    if (!starts || (after < line.size() && identifier_char(line[after]))) continue;
    std::string_view rest = line.substr(after);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    if (rest.starts_with("= async_compile.")) return Use::definition;
    if (rest.starts_with(".run(")) return Use::call;  // a Triton kernel launched by torch.compile's Python wrapper
    if (!rest.starts_with("(")) continue;
    const std::string_view before = line.substr(0, at);
    if (before.ends_with("def ")) return Use::definition;  // a Triton kernel's Python source
    if (before.find("extern \"C\"") != std::string_view::npos) {
      return after_closing_paren(text, begin + at + name.size() + (line.substr(after).find('('))) == ';' ? Use::declaration
                                                                                                      : Use::definition;
    }
    return Use::call;
  }
  return Use::none;
}

// torch.compile's Python wrapper calls an ATen operator `aten::OP` as `extern_kernels.OP(` or
// `torch.ops.aten.OP.<overload>(`; a comment line (`# ... Original ATen: [aten.OP]`) is no call, nor a
// string naming the overload (`assert_tensor_metadata(buf2, ..., 'torch.ops.aten.OP.default')`).
bool calls_aten_op(std::string_view line, std::string_view op) {
  const std::size_t first = line.find_first_not_of(" \t");
  if (op.empty() || first == std::string_view::npos || line[first] == '#') return false;
  const std::string patterns[] = {"extern_kernels." + std::string(op) + "(", "aten." + std::string(op) + "."};
  for (std::size_t p = 0; p < 2; ++p) {
    const std::string& pattern = patterns[p];
    for (std::size_t at = line.find(pattern); at != std::string_view::npos; at = line.find(pattern, at + 1)) {
      if (at != 0 && identifier_char(line[at - 1])) continue;
      std::size_t end = at + pattern.size();
      if (p == 1) {  // the overload's name, then the call's parenthesis
        while (end < line.size() && identifier_char(line[end])) ++end;
        if (end >= line.size() || line[end] != '(') continue;
      }
      return true;
    }
  }
  return false;
}

}  // namespace

KernelSites locate_kernel(const std::vector<SourceFile>& files, std::string_view recorded_name) {
  KernelSites sites;
  const std::string name = strip_graph_prefix(recorded_name);
  const std::string literal = "\"" + std::string(recorded_name) + "\"";
  const std::string_view aten_op = recorded_name.starts_with("aten::") ? recorded_name.substr(6) : std::string_view();
  for (const SourceFile& file : files) {
    const std::string_view text = file.text;
    std::size_t begin = 0;
    for (std::size_t line = 1; begin <= text.size(); ++line) {
      std::size_t end = text.find('\n', begin);
      if (end == std::string_view::npos) end = text.size();
      const std::string_view content = text.substr(begin, end - begin);
      if (!sites.recorded_at && content.find(literal) != std::string_view::npos) {
        sites.recorded_at = SourceSite{file.name, line};
      } else if (!aten_op.empty()) {
        if (calls_aten_op(content, aten_op)) sites.calls.push_back(SourceSite{file.name, line});
      } else if (content.find(name) != std::string_view::npos) {
        switch (use_on_line(text, begin, end, name)) {
          case Use::definition:
            if (!sites.defined_at) sites.defined_at = SourceSite{file.name, line};
            break;
          case Use::call: sites.calls.push_back(SourceSite{file.name, line}); break;
          case Use::declaration:
          case Use::none: break;
        }
      }
      if (end == text.size()) break;
      begin = end + 1;
    }
  }
  return sites;
}

KernelListing list_kernels(const std::vector<SourceFile>& files, const PathBreakdown& breakdown) {
  KernelListing listing;
  std::set<std::string> recorded;
  for (const KernelStat& stat : breakdown.kernels) {
    KernelListingRow row;
    row.kind = stat.kind;
    row.name = stat.name;
    row.canonical = canonical_kernel_name(stat.name);
    row.count_per_iteration = stat.count_per_iteration;
    row.mean_ns = stat.mean_ns;
    row.median_ns = stat.median_ns;
    row.ns_per_iteration = stat.count_per_iteration * stat.mean_ns;
    if (stat.kind == DeviceOpKind::kernel) {
      KernelSites sites = locate_kernel(files, stat.name);
      row.defined_at = sites.defined_at;
      row.recorded_at = sites.recorded_at;
      row.calls = std::move(sites.calls);
      row.origin = row.defined_at                        ? KernelOrigin::generated
                   : !row.calls.empty() || row.recorded_at ? KernelOrigin::extern_call
                                                          : KernelOrigin::not_in_code;
    }
    recorded.insert(strip_graph_prefix(stat.name));
    listing.kernels.push_back(std::move(row));
  }
  GeneratedKernels generated;
  for (const SourceFile& file : files) scan_generated_code(file.text, generated);
  for (const std::string& name : generated.generated) {
    if (!recorded.contains(name)) listing.in_code_not_recorded.push_back(name);
  }
  return listing;
}

std::vector<KernelJoinRow> join_kernel_listings(const std::vector<PathCodeDump>& paths) {
  std::map<std::string, KernelJoinRow> by_name;
  for (std::size_t p = 0; p < paths.size(); ++p) {
    for (const KernelListingRow& k : paths[p].listing.kernels) {
      KernelJoinRow& row = by_name[k.canonical];
      row.canonical = k.canonical;
      row.cells.resize(paths.size());
      KernelJoinCell& cell = row.cells[p];
      if (!cell.present) {
        cell.present = true;
        cell.site = k.defined_at ? k.defined_at : k.recorded_at ? k.recorded_at
                                                : k.calls.empty() ? std::nullopt : std::optional<SourceSite>(k.calls.front());
      }
      cell.count_per_iteration += k.count_per_iteration;
      cell.ns_per_iteration += k.ns_per_iteration;
      if (k.count_per_iteration > cell.median_count) {  // the row with the most calls gives the median
        cell.median_count = k.count_per_iteration;
        cell.median_ns = k.median_ns;
      }
    }
  }
  std::size_t with_split = 0;
  for (const PathCodeDump& path : paths) with_split += path.costs_known ? 1 : 0;
  std::vector<std::pair<double, KernelJoinRow>> ranked;  // (the most ns per iteration of any path, row), by name
  for (auto& [name, row] : by_name) {
    double most = 0;
    std::vector<std::size_t> running;
    for (std::size_t p = 0; p < paths.size(); ++p) {
      KernelJoinCell& cell = row.cells[p];
      if (!cell.present) continue;
      cell.mean_ns = cell.count_per_iteration > 0 ? cell.ns_per_iteration / cell.count_per_iteration : 0;
      most = std::max(most, cell.ns_per_iteration);
      if (paths[p].costs_known) running.push_back(p);
    }
    if (with_split >= 2 && running.size() == 1) row.only = running.front();
    ranked.emplace_back(most, std::move(row));
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<KernelJoinRow> rows;
  rows.reserve(ranked.size());
  for (auto& [most, row] : ranked) rows.push_back(std::move(row));
  return rows;
}

std::vector<std::string> first_iteration_sequence(const Timeline& timeline) {
  if (timeline.iterations.empty()) return {};
  const IterationWindow& first = timeline.iterations.front();
  std::vector<const DeviceOp*> ops;
  for (const DeviceOp& op : timeline.ops) {
    if (op.start_ns >= first.start_ns && op.start_ns < first.end_ns) ops.push_back(&op);
  }
  std::stable_sort(ops.begin(), ops.end(), [](const DeviceOp* a, const DeviceOp* b) {
    return std::tie(a->start_ns, a->end_ns) < std::tie(b->start_ns, b->end_ns);
  });
  std::vector<std::string> names;
  names.reserve(ops.size());
  for (const DeviceOp* op : ops) names.push_back(canonical_kernel_name(op->name));
  return names;
}

}  // namespace ohprof
