// Many ranks' table (docs/ranks.md): per rank its split and collectives, per step the straggler. Text
// made from the typed report; nothing computed here but display forms (shares of a rank's wall time).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ohprof/base/format.hpp"
#include "ohprof/output/ranks_report.hpp"
#include "ohprof/output/report_text.hpp"
#include "report_tables.hpp"
#include "text_columns.hpp"

namespace ohprof {
namespace {

std::string cause_text(StragglerCause cause) {
  switch (cause) {
    case StragglerCause::compute: return "compute";
    case StragglerCause::host_bound: return "host-bound";
    case StragglerCause::device_wait: return "device-wait";
    case StragglerCause::offsetting:
    case StragglerCause::queue_open:
    case StragglerCause::unknown:
    case StragglerCause::level: break;
  }
  return "unknown";
}

std::string signed_duration(double ns);

// The cause cell (docs/ranks.md, "The straggler"): a named part with its excess; otherwise why none is.
std::string straggler_cause_text(const StepStraggler& g) {
  const std::string largest = fmt::format("{} {}", cause_text(g.largest), signed_duration(g.cause_excess_ns));
  switch (g.cause) {
    case StragglerCause::compute:
    case StragglerCause::host_bound:
    case StragglerCause::device_wait: return largest;
    case StragglerCause::offsetting: return fmt::format("none alone ({}, over twice the excess: offset)", largest);
    case StragglerCause::level: return fmt::format("level (under {:.0f}%): no straggler", 100 * kStragglerMinExcessShare);
    case StragglerCause::queue_open:
      return "unknown: a rank's host-bound and device-wait are bounds (device ops without a launch call)";
    case StragglerCause::unknown: break;
  }
  return g.largest == StragglerCause::unknown ? "unknown" : fmt::format("unknown ({}, under half the excess)", largest);
}

std::string signed_duration(double ns) { return (ns >= 0 ? "+" : "-") + format_duration(ns >= 0 ? ns : -ns); }

std::string text_of(const CellTable& table) {
  std::vector<std::vector<std::string>> rows{table.header};
  for (const auto& cells : table.rows) {
    std::vector<std::string> row;
    for (const Cell& c : cells) row.push_back(c.text);
    rows.push_back(std::move(row));
  }
  return text_columns(rows, "  ");
}

}  // namespace

std::string ranks_job_line(const RanksReport& report) {
  const std::optional<std::int64_t>& world = report.world_size;
  const std::string backend = report.backend.value_or("");
  std::string steps;
  if (!report.view.steps.empty()) {
    const std::int64_t first = report.view.steps.front().step;
    const std::int64_t last = report.view.steps.back().step;
    steps = first == last ? fmt::format("; step {}", first) : fmt::format("; steps {}..{} ({} in all)", first, last,
                                                                         report.view.steps.size());
  }
  return fmt::format("{} rank{}{}{}, {} trace{}{}{}{}", report.ranks.size(), report.ranks.size() == 1 ? "" : "s",
                     world ? fmt::format(" of a job of {}", *world) : "", backend.empty() ? "" : fmt::format(" ({})", backend),
                     report.ranks.size() + report.failed.size(), report.ranks.size() + report.failed.size() == 1 ? "" : "s",
                     report.failed.empty() ? "" : fmt::format(", {} failed", report.failed.size()), steps,
                     report.interrupted ? "; interrupted" : "");
}

CellTable ranks_rank_table(const RanksReport& report) {
  CellTable t;
  // the trace last: the text table pads every column but the last, and a path's length must not widen them
  t.header = {"rank", "steps", "wall/step", "busy", "host-bound", "device-wait", "collectives", "coll. wait",
              "slowest", "verdict", "trace"};
  t.align = "rrrrrrrrrll";
  for (std::size_t i = 0; i < report.view.ranks.size(); ++i) {  // view.ranks lines up with ranks (cross_rank_view)
    const RankTotals& r = report.view.ranks[i];
    const RankDigest* d = i < report.ranks.size() ? &report.ranks[i] : nullptr;
    const double per_step = r.steps > 0 ? static_cast<double>(r.wall_ns) / static_cast<double>(r.steps) : 0;
    // a share the rank's verdict says cannot be read is "unknown", not the zero (or the rest) it holds
    const ReadableShares readable = d ? readable_shares(d->verdict_reason) : ReadableShares{};
    t.rows.push_back({Cell{std::to_string(r.rank)},
                      Cell{std::to_string(r.steps)},
                      Cell{r.steps > 0 ? format_duration(per_step) : "-"},
                      Cell{readable.busy ? share(r.busy_ns, r.wall_ns) : "unknown"},
                      // an open queue: host-bound at most, device-wait at least (docs/metrics.md)
                      Cell{readable.queueing ? with_bound(host_time_bound(d && d->queue_open), share(r.host_bound_ns, r.wall_ns))
                                             : "unknown"},
                      Cell{readable.queueing ? with_bound(d && d->queue_open ? Bound::at_least : Bound::exact,
                                                          share(r.device_wait_ns, r.wall_ns))
                                             : "unknown"},
                      Cell{share(r.communication_ns, r.wall_ns)},
                      Cell{share(r.collective_wait_ns, r.wall_ns)},
                      Cell{fmt::format("{}/{}", r.slowest_steps, r.steps)},
                      Cell{d ? to_string(d->verdict) : "unknown", Cell::Kind::strong},
                      Cell{d ? d->trace : "", Cell::Kind::name}});
  }
  return t;
}

CellTable ranks_step_table(const RanksReport& report) {
  CellTable t;
  t.header = {"step", "ranks", "wall min", "wall max", "slowest", "by", "cause", "collectives"};
  t.align = "rrrrrrll";
  const std::size_t job = report.ranks.size();
  for (const StepView& s : report.view.steps) {
    std::vector<Cell> row{Cell{std::to_string(s.step)}, Cell{fmt::format("{}/{}", s.ranks.size(), job)},
                          Cell{s.ranks.empty() ? "-" : format_duration(static_cast<double>(s.wall_min_ns))},
                          Cell{s.ranks.empty() ? "-" : format_duration(static_cast<double>(s.wall_max_ns))}};
    if (s.straggler) {
      const StepStraggler& g = *s.straggler;
      row.push_back(g.named() ? Cell{fmt::format("rank {}", g.rank), Cell::Kind::strong} : Cell{fmt::format("rank {}", g.rank)});
      row.push_back(Cell{fmt::format("{} ({:+.1f}%)", signed_duration(g.excess_ns), 100 * g.excess_share)});
      row.push_back(Cell{straggler_cause_text(g)});
    } else {
      row.insert(row.end(), {Cell{"-"}, Cell{"-"}, Cell{"one rank"}});
    }
    row.push_back(Cell{s.ranks.size() < 2 ? "-"
                                          : fmt::format("{} matched, {} unmatched", s.collectives_matched,
                                                        s.collectives_unmatched)});
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string ranks_rank_note() {
  return fmt::format(
      "busy, host-bound, device-wait (docs/metrics.md), collectives (busy with a collective running) and their wait "
      "for the other ranks (estimated) as shares of the rank's summed wall time; slowest: the steps it was the straggler "
      "of (the slowest rank, by {:.0f}% or more)",
      100 * kStragglerMinExcessShare);
}

std::string ranks_step_note() {
  return fmt::format(
      "slowest: the rank with the most active time (wall minus its wait in collectives), whom the others waited for; "
      "by: its active time over the median rank's; level: by under {:.0f}% of it, so no rank is the straggler; cause: the "
      "part of its step (compute, host-bound, device-wait) furthest above the median rank's, named when that is "
      "{:g} to {:g} times the excess (docs/ranks.md)",
      100 * kStragglerMinExcessShare, kCauseMinOfExcess, kCauseMaxOfExcess);
}

std::string format_ranks_table(const RanksReport& report) {
  std::string out = fmt::format("job: {}\n", ranks_job_line(report));
  for (const FailedTrace& f : report.failed) out += fmt::format("  failed: {}\n", f.message);
  if (report.ranks.empty()) return out;
  out += "\nper rank, over its steps:\n" + text_of(ranks_rank_table(report));
  out += fmt::format("  ({})\n", ranks_rank_note());
  out += "\nper step:\n" + text_of(ranks_step_table(report));
  out += fmt::format("  ({})\n", ranks_step_note());
  return out;
}

}  // namespace ohprof
