#pragma once
// One self-contained HTML page of a run, compare or analyze report (`--export-html FILE`,
// docs/reports.md "HTML"): the tables, and the pictures a person would rather look at than read, drawn
// as inline SVG: per path the split as a stacked bar, the wall-time distribution, the kernel table;
// for analyze the split of every iteration. No script, no fetch at view time. Formats; computes nothing
// but display forms (a histogram's bins, a bar's width).
#include <string>
#include <vector>

#include "ohprof/model/code_dump.hpp"
#include "ohprof/model/diff.hpp"
#include "ohprof/model/ranks.hpp"
#include "ohprof/model/report.hpp"

namespace ohprof {

std::string format_html(const Report& report);
// The ranks of a job (docs/ranks.md): the job, the per-rank and per-step tables, and each step's ranks as
// bars of their wall time (compute, collectives, host-bound, device-wait).
std::string format_ranks_html(const RanksReport& report);
// The diff of two reports (docs/diff.md): the same document as its Markdown (format_diff_markdown).
std::string format_diff_html(const DiffResult& diff);
// --dump-code's DIR/index.html (docs/code-dump.md): the kernels of every path joined by canonical name
// (`kernels`, join_kernel_listings: count, mean and source link per path; those only one path runs
// marked), the call sequences side by side, and per path its graph picture and files. Links are relative
// to DIR.
std::string format_code_index(const Report& report, const std::vector<PathCodeDump>& paths,
                              const std::vector<KernelJoinRow>& kernels);

}  // namespace ohprof
