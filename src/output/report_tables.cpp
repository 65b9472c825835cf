// The tables the Markdown and the HTML page share (report_tables.hpp).
#include "report_tables.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

#include "ohprof/base/format.hpp"
#include "ohprof/output/report_text.hpp"

namespace ohprof {
std::string share(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole)) : "-";
}

namespace {


}  // namespace

std::vector<const PathResult*> asked_paths(const Report& report) {
  std::vector<const PathResult*> out;
  for (const auto& p : report.paths) {
    if (p.role == PathRole::path) out.push_back(&p);
  }
  return out;
}

void append_inputs_file(Inline& title, const std::string& inputs_file) {
  if (inputs_file.empty()) return;
  using namespace doc::cells;
  title.push_back(plain(" (your inputs, "));
  title.push_back(name(std::filesystem::path(inputs_file).filename().string()));
  title.push_back(plain(")"));
}

std::string device_text(const DeviceDescription& d) {
  return fmt::format("{}{}{}", to_string(d.type), d.index >= 0 ? fmt::format(":{}", d.index) : std::string(),
                     d.name.empty() ? std::string() : " (" + d.name + ")");
}

std::string report_subject(const Report& r) {
  if (r.trace) return r.trace->path;
  if (r.artifacts) return r.artifacts->model.empty() ? r.artifacts->exported_program : r.artifacts->model;
  return r.paths.empty() ? std::string() : r.paths.front().artifact;
}

CellTable deployment_table(const Report& r) {
  CellTable t;
  if (!r.deployment) return t;
  t.header = {"path"};
  for (std::string& cell : deployment_header(*r.deployment)) t.header.push_back(std::move(cell));
  t.align = "l" + std::string(t.header.size() - 1, 'r');
  for (const DeploymentRow& row : r.deployment->rows) {
    std::vector<Cell> cells{{row.path, Cell::Kind::name}};
    for (std::string& cell : deployment_cells(*r.deployment, row)) cells.push_back({std::move(cell)});
    t.rows.push_back(std::move(cells));
  }
  return t;
}

CellTable path_table(const Report& r) {
  const bool cpu = std::any_of(r.paths.begin(), r.paths.end(),
                               [](const PathResult& p) { return p.breakdown && p.breakdown->summary.cpu_kernels; });
  CellTable t;
  t.header = {"path", "median", "mean ± σ", "n", "busy", cpu ? "host-bound (dispatch)" : "host-bound", "device-wait", "verdict"};
  t.align = "lrrrrrrl";
  for (const PathResult* p : asked_paths(r)) {
    std::vector<Cell> row{{p->name, Cell::Kind::name}};
    if (p->wall.count == 0) {
      row.insert(row.end(), {{"-"}, {"-"}, {"0"}});
    } else {
      row.push_back({format_duration(p->wall.median)});
      row.push_back({format_duration(p->wall.mean) + " ± " + format_duration(p->wall.stddev)});
      row.push_back({std::to_string(p->wall.count)});
    }
    if (p->breakdown && p->breakdown->summary.totals.iterations > 0) {
      const PathVerdict& v = p->breakdown->verdict;
      // Kernels that do not record themselves count as dispatch: busy at least, dispatch at most. A share the
      // verdict says cannot be read is "unknown", not the zero (or the rest) it holds.
      const ReadableShares readable = readable_shares(v.reason);
      row.insert(row.end(), {{readable.busy ? split_share_text(v, TimeShare::busy) : "unknown"},
                             {readable.queueing ? split_share_text(v, TimeShare::host_bound) : "unknown"},
                             {readable.queueing ? split_share_text(v, TimeShare::device_wait) : "unknown"},
                             {to_string(v.verdict), Cell::Kind::strong}});
    } else {
      row.insert(row.end(), {{"-"}, {"-"}, {"-"},
                             {p->split_unavailable_reason.empty() ? "no split" : "no split: " + p->split_unavailable_reason}});
    }
    if (p->output_check && !p->output_check->passed) {
      row.back().text += "; OUTPUTS DIFFER from " + p->output_check->reference;
      row.back().kind = Cell::Kind::strong;
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string path_table_note(const Report& r) {
  const auto any_path = [&](auto pred) {
    return std::any_of(r.paths.begin(), r.paths.end(), [&](const PathResult& p) { return p.breakdown && pred(p.breakdown->verdict); });
  };
  std::string out = r.trace ? "Wall times of the trace's iterations; busy, host-bound and device-wait are shares of their summed "
                              "wall time (docs/metrics.md)."
                            : "Wall times from the timing pass; busy, host-bound and device-wait are shares of the split "
                              "pass's summed wall time (docs/metrics.md).";
  if (any_path([](const PathVerdict& v) { return v.kernels_unrecorded; })) {
    out += " ≥ and ≤: bounds, where a path's kernels do not record themselves and their time is in the dispatch share.";
  }
  if (any_path([](const PathVerdict& v) { return v.queue_open(); })) {
    out += " A range (host-bound, device-wait): device ops without a launch call leave when they were queued unknown "
           "(docs/metrics.md, \"Ops without a launch call\").";
  }
  return out;
}

std::string host_state_table_note(const Report& r) {
  // a row of host_state_table (its filter) with ≤ in it
  const bool open = std::any_of(r.paths.begin(), r.paths.end(), [](const PathResult& p) {
    return p.breakdown && p.breakdown->summary.totals.iterations > 0 && !p.breakdown->summary.cpu_kernels &&
           readable_shares(p.breakdown->verdict.reason).queueing && p.breakdown->verdict.queue_open();
  });
  return open ? "≤: at most, where device ops without a launch call leave the host-bound time a range: the states split "
                "its upper end (docs/metrics.md, \"Ops without a launch call\")."
              : "";
}

CellTable host_state_table(const Report& r) {
  CellTable t;
  t.header = {"path", "blocking", "launch", "other API", "harness", "framework", "launches / iteration"};
  t.align = "lrrrrrr";
  for (const PathResult* p : asked_paths(r)) {
    if (!p->breakdown || p->breakdown->summary.totals.iterations == 0 || p->breakdown->summary.cpu_kernels) continue;
    // the host states split the host-bound time: not where the verdict says it cannot be read
    if (!readable_shares(p->breakdown->verdict.reason).queueing) continue;
    const BreakdownTotals& totals = p->breakdown->summary.totals;
    const HostStates& h = totals.host_states;
    // an open queue (ops without a launch call): the states split the most host-bound time, each at most
    const Bound bound = p->breakdown->verdict.queue_open() ? Bound::at_most : Bound::exact;
    const auto state = [&](std::int64_t ns) { return Cell{with_bound(bound, share(ns, totals.wall_ns))}; };
    t.rows.push_back({{p->name, Cell::Kind::name},
                      state(h.blocking_ns),
                      state(h.launch_ns),
                      state(h.other_api_ns),
                      state(h.harness_ns),
                      state(h.framework_ns),
                      {fmt::format("{:g}", p->breakdown->summary.launches.median)}});
  }
  return t;
}

std::vector<std::pair<std::string, std::string>> context_rows(const RunContext& c, bool live,
                                                              const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::pair<std::string, std::string>> rows{
      {"command", fmt::format("{}", fmt::join(c.argv, " "))},
      {"ohprof", fmt::format("{} ({})", c.ohprof_version, c.git_sha)},
      {"torch", c.torch_version},
      {"CUDA, CUPTI", fmt::format("{}, {}", c.cuda_version, c.cupti_version)},
      {"device", device_text(c.device)},
      {"host", live ? fmt::format("{}, {} intra-op threads", c.hostname, c.cpu_threads) : c.hostname},
      {"date", c.date_utc}};
  rows.insert(rows.end(), extra.begin(), extra.end());
  return rows;
}

std::vector<std::pair<std::string, std::string>> report_extra_context(const Report& r) {
  std::vector<std::pair<std::string, std::string>> extra;
  if (r.kind == ReportKind::compare) extra.push_back({"stopped", stop_reason_text(r.stop_reason)});
  if (r.trace) extra.push_back({"iterations from", to_string(r.trace->iterations_from)});
  return extra;
}

}  // namespace ohprof
