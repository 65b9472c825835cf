#pragma once
// The tables a report's Markdown and its HTML page share (private to the output layer): the same
// rows, each printer marking up its cells its own way. Text only: nothing is computed but display forms.
#include <string>
#include <utility>
#include <vector>

#include "ohprof/model/ranks.hpp"
#include "ohprof/model/report.hpp"
#include "document.hpp"

namespace ohprof {

// The paths asked for (role "path"), in the report's order: the variants are not shown.
std::vector<const PathResult*> asked_paths(const Report& report);
// "12.3%" of `whole`, or "-" when it is 0.
std::string share(std::int64_t part, std::int64_t whole);
// "cuda:0 (NVIDIA H200)", "cpu (AMD EPYC)".
std::string device_text(const DeviceDescription& device);
// A title's " (your inputs, NAME)" for --inputs FILE (NAME its file name, as code; the JSON keeps the
// path); nothing for random inputs.
void append_inputs_file(Inline& title, const std::string& inputs_file);
// What was measured: the model (module:factory, or the exported program), the package, or the trace.
std::string report_subject(const Report& report);

// Per path: median, mean ± σ, n, busy / host-bound / device-wait shares and the verdict (or why there is
// no split); a path whose outputs differ says so in its verdict cell.
CellTable path_table(const Report& report);
// compare's deployment summary: per path asked for, its latency, calls/s with the most callers, cold and warm
// start, build memory, calls' peak and host share (report_text.hpp, deployment_cells); no rows without one.
CellTable deployment_table(const Report& report);
// What the shares of path_table are of (the split pass's or the trace's summed wall time).
std::string path_table_note(const Report& report);
// Per path with a split on a device timeline (not CPU kernels): the host-bound time's host states as
// shares of the summed wall time, and launches per iteration. No rows without such a path.
CellTable host_state_table(const Report& report);
// What host_state_table's ≤ means, where a path's queue is open; "" where none is.
std::string host_state_table_note(const Report& report);
// The collapsed context: command, versions, device, host, date (`live`: a run of this process, with its
// thread count), then `extra`.
std::vector<std::pair<std::string, std::string>> context_rows(const RunContext& context, bool live,
                                                              const std::vector<std::pair<std::string, std::string>>& extra);
// The extra context rows of a report: compare's stop reason, analyze's iteration source.
std::vector<std::pair<std::string, std::string>> report_extra_context(const Report& report);

// The pictures of a report's page (inline SVG and the kernel tables, drawn in html_report.cpp; its
// document's figures, report_document.cpp), each with its heading, note and legend; "" when there is
// nothing to draw. Each path's split as a bar of its summed wall time:
std::string report_split_bars(const Report& report);
// each path's latency histogram with its median:
std::string report_distributions(const Report& report);
// analyze: every iteration's split as a stacked column of its wall time:
std::string report_iteration_columns(const Report& report);
// per path, its kernels by total time (the first 15):
std::string report_kernel_tables(const Report& report);

// Many ranks (ranks_table.cpp): the job in one line; per rank its split, collectives and verdict; per
// step the straggler and its cause; and what their numbers are.
std::string ranks_job_line(const RanksReport& report);
CellTable ranks_rank_table(const RanksReport& report);
CellTable ranks_step_table(const RanksReport& report);
std::string ranks_rank_note();
std::string ranks_step_note();
// Each step's ranks as bars of their wall time, with its heading, note and legend (inline SVG; the ranks'
// page's figure, drawn in html_report.cpp). "" when no step has a rank.
std::string ranks_step_bars(const RanksReport& report);

}  // namespace ohprof
