#pragma once
// Where each kernel of a path's split is in its generated code (docs/code-dump.md, "How kernels are
// found in the code"): pure functions over the files' text, no vendor types.
#include <string_view>
#include <vector>

#include "ohprof/model/breakdown.hpp"
#include "ohprof/model/code_dump.hpp"
#include "ohprof/model/timeline.hpp"

namespace ohprof {

// The places of one kernel, recorded as `recorded_name`, in `files`:
//  * recorded_at: the first line holding the recorded name as a string literal ("graph_0_cpp_fused_relu_0");
//  * defined_at: for its name with the graph prefix stripped (NAME), the first line that defines it:
//    `extern "C" ... NAME(` whose parameter list ends in `{` or at the line's end, not `;` (a
//    declaration); `NAME = async_compile.` (torch.compile's Python wrapper); `def NAME(` (Triton);
//  * calls: every other line with `NAME(` (or `NAME.run(`, a Triton launch) after a character that
//    cannot be in an identifier, that is not a declaration, a definition, or the recording line.
struct KernelSites {
  std::optional<SourceSite> defined_at;
  std::optional<SourceSite> recorded_at;
  std::vector<SourceSite> calls;
};
KernelSites locate_kernel(const std::vector<SourceFile>& files, std::string_view recorded_name);

// The split's kernels (breakdown.kernels, its order) with their places and costs; and the generated
// kernels the code defines (scan_generated_code) that the split never saw.
KernelListing list_kernels(const std::vector<SourceFile>& files, const PathBreakdown& breakdown);

// DIR/index.html's kernel table: one row per canonical name in any path's listing, its cells per path
// (KernelJoinCell), ordered by the most time per iteration any path spends in it (then by name); `only`
// set when, of the paths with a split (costs_known; at least two), exactly one runs it.
std::vector<KernelJoinRow> join_kernel_listings(const std::vector<PathCodeDump>& paths);

// The device ops (kernels, copies, fills) that start inside the timeline's first iteration window, in
// start order (then end order), by canonical_kernel_name: the order the path's wrapper ran them in.
// Empty without an iteration.
std::vector<std::string> first_iteration_sequence(const Timeline& timeline);

}  // namespace ohprof
