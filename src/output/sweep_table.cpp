// The sweep's table (docs/sweep.md, "Outputs"): text made from the typed report, nothing computed here.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "ohprof/base/format.hpp"
#include "ohprof/output/markdown_report.hpp"
#include "ohprof/output/report_text.hpp"
#include "ohprof/output/report_output.hpp"
#include "ohprof/output/sweep_report.hpp"
#include "sweep_text.hpp"
#include "text_columns.hpp"
#include "report_forms.hpp"

namespace ohprof {
namespace {

// 265.5 k, 1.234 M: a rate with 4 significant digits.
std::string format_rate(double per_s) {
  const char* units[] = {"", " k", " M", " G", " T"};
  std::size_t u = 0;
  while (std::abs(per_s) >= 1000 && u + 1 < std::size(units)) {
    per_s /= 1000;
    ++u;
  }
  return fmt::format("{:.4g}{}", per_s, units[u]);
}


std::string sweep_stop_text(SweepStop stop) {
  switch (stop) {
    case SweepStop::running: return "still running";
    case SweepStop::complete: return "complete";
    case SweepStop::interrupted: return "interrupted (Ctrl-C); --resume measures the rest";
    case SweepStop::sweep_time_limit: return "the sweep's time limit (--sweep-time-limit); --resume measures the rest";
    case SweepStop::error: return "an error that every point would meet (below)";
  }
  return "";
}

std::string pair_name(const std::string& slower, const std::string& faster) { return slower + "/" + faster; }

const SweepRatio* find_ratio(const SweepPoint& point, const SweepPair& pair) {
  for (const auto& r : point.ratios) {
    if (r.slower == pair.slower && r.faster == pair.faster) return &r;
  }
  return nullptr;
}

// One block: a title, the axis column and one column per name; `cell(point, column)` gives the text.
template <typename Cell>
std::string block(const SweepReport& report, const std::string& title, const std::vector<std::string>& columns, Cell cell) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({axis_name(report.config.axis)});
  for (const auto& c : columns) rows.back().push_back(c);
  for (const auto& point : report.points) {
    std::vector<std::string> row{std::to_string(point.value)};
    if (point.status != PointStatus::measured) {
      row.push_back(fmt::format("{}: {}", point.status == PointStatus::not_measured ? "not measured" : to_string(point.status),
                                point.reason));
      rows.push_back(std::move(row));
      continue;
    }
    for (std::size_t c = 0; c < columns.size(); ++c) row.push_back(cell(point, c));
    rows.push_back(std::move(row));
  }
  // a point that was not measured has one cell after its value: it runs on past the columns
  return title + "\n" + text_columns(rows, "  ");
}


}  // namespace

std::string ratio_text(const SweepRatio& r) { return fmt::format("{:.3g} [{:.3g}, {:.3g}]{}", r.ratio, r.low, r.high, r.within ? "*" : ""); }

std::string fit_text(const SweepFit& f, const std::string& axis) {
  if (f.status == FitStatus::too_few_points || !f.fixed_ns) return "too few points (a fit needs 3)";
  // the values c and k describe: the points used, first … last
  const std::string used = f.points_used.empty() ? std::string()
                                                 : fmt::format("{} {} … {}", axis, f.points_used.front(), f.points_used.back());
  const std::string over = used.empty() ? used : " over " + used;
  std::string out = fmt::format("c = {} [{}, {}], k = {} [{}, {}] per item{}; {} points", format_duration(*f.fixed_ns),
                                format_duration(*f.fixed_low_ns), format_duration(*f.fixed_high_ns),
                                format_duration(*f.per_item_ns), format_duration(*f.per_item_low_ns),
                                format_duration(*f.per_item_high_ns), over, f.points_used.size());
  if (!f.points_left_out.empty()) {
    std::vector<std::string> left;
    for (const auto& p : f.points_left_out) left.push_back(fmt::format("{} ({:+.0f}%)", p.value, 100 * p.relative_residual));
    out += fmt::format(", left out {}", fmt::join(left, ", "));
  }
  if (f.status == FitStatus::not_linear) {
    out += fmt::format("; NOT LINEAR: residuals up to {:.0f}% remain, do not trust c and k", 100 * *f.max_relative_residual);
  }
  if (f.host_at_smallest_ns && !f.fixed_minus_host_ns) {
    // the fit left the smallest point out: c describes the others, not it (docs/sweep.md, "Fit")
    out += fmt::format("; split host time at {} {}: {}{}, outside the fit (c describes {}, not {} {})", axis, *f.smallest,
                       f.host_upper_bound ? "at most " : "", format_duration(*f.host_at_smallest_ns), used, axis, *f.smallest);
  } else if (f.host_at_smallest_ns && f.host_upper_bound) {
    // Its kernels' time is in the host time, or its queue is open (docs/sweep.md, "Fit"): a bound each way, not a value.
    out += fmt::format("; split host time at {} {}: at most {}, as the path's kernels do not record themselves or "
                       "device ops without a launch call leave its queue open (c − host at least {})",
                       axis, *f.smallest, format_duration(*f.host_at_smallest_ns), format_duration(*f.fixed_minus_host_ns));
  } else if (f.host_at_smallest_ns) {
    out += fmt::format("; split host time at {} {}: {} (c − host {})", axis, *f.smallest, format_duration(*f.host_at_smallest_ns),
                       format_duration(*f.fixed_minus_host_ns));
  } else if (f.smallest) {
    out += fmt::format("; no split at {} {}", axis, *f.smallest);
  }
  return out;
}

std::string format_sweep_table(const SweepReport& report) {
  const SweepConfig& c = report.config;
  const std::string axis = axis_name(c.axis);
  std::size_t measured = 0;
  for (const auto& p : report.points) measured += p.status == PointStatus::measured;
  std::string out = fmt::format("sweep: {} on {}{}, {} {} … {} ({} of {} points measured), paths {}\n", c.model, to_string(c.device),
                                report.context.device.name.empty() ? "" : " (" + report.context.device.name + ")", axis,
                                c.axis.values.empty() ? 0 : c.axis.values.front(), c.axis.values.empty() ? 0 : c.axis.values.back(),
                                measured, report.points.size(), fmt::join(c.paths, ", "));
  if (!c.inputs_file.empty()) {
    out += fmt::format("inputs: yours, from {} ({}), resized at each point by repeating the saved slices\n",
                       c.inputs_file, fmt::join(c.inputs, ", "));
  }
  if (c.passes > 1) {
    std::vector<std::string> kept;
    for (const auto& p : report.points) {
      if (p.chosen_pass > 0) kept.push_back(fmt::format("{}", p.chosen_pass));
    }
    out += fmt::format("passes: {} per point, each point's least disturbed kept (pass {} in axis order)\n", c.passes,
                       fmt::join(kept, ", "));
  }
  if (report.stop != SweepStop::complete) out += fmt::format("stopped: {}\n", sweep_stop_text(report.stop));
  const auto path_index = [](const SweepPoint& point, const std::string& name) -> const SweepPathPoint* {
    for (const auto& p : point.paths) {
      if (p.name == name) return &p;
    }
    return nullptr;
  };
  const auto figures_of = [&](const SweepPoint& point, const std::string& name) -> const SweepPathFigures* {
    const SweepPathPoint* path = path_index(point, name);
    return path != nullptr ? &path->figures : nullptr;
  };
  out += "\n" + block(report, "latency per call (median ± se)", c.paths, [&](const SweepPoint& p, std::size_t i) {
    const SweepPathFigures* f = figures_of(p, c.paths[i]);
    return f ? format_duration(f->latency_ns) + " ± " + format_duration(f->latency_se_ns) : std::string("-");
  });
  out += "\n" + block(report, fmt::format("throughput ({} items per second)", axis), c.paths, [&](const SweepPoint& p, std::size_t i) {
    const SweepPathFigures* f = figures_of(p, c.paths[i]);
    return f ? format_rate(f->throughput_per_s) : std::string("-");
  });
  bool bounds = false;
  for (const auto& point : report.points) {
    for (const auto& path : point.paths) bounds = bounds || ((path.kernels_unrecorded || path.queue_open) && path.host_ns);
  }
  const std::string split_title = bounds ? "split pass: host / busy per call (medians; ≤ and ≥: bounds, where a path's kernels "
                                           "do not record themselves and their time is in the host's, or device ops "
                                           "without a launch call leave when they were queued unknown)"
                                         : "split pass: host / busy per call (medians)";
  out += "\n" + block(report, split_title, c.paths, [&](const SweepPoint& p, std::size_t i) {
    const SweepPathPoint* path = path_index(p, c.paths[i]);
    if (path == nullptr || !path->host_ns || !path->busy_ns) return std::string("-");
    // Kernels that do not record themselves are in the host time: "≤" and "≥" say each is a bound.
    return with_bound(host_time_bound(path->kernels_unrecorded || path->queue_open), format_duration(*path->host_ns)) + " / " +
           with_bound(busy_bound(path->kernels_unrecorded), format_duration(*path->busy_ns));
  });
  std::vector<std::string> pair_names;
  for (const auto& pair : report.analysis.pairs) pair_names.push_back(pair_name(pair.slower, pair.faster));
  if (!pair_names.empty()) {
    out += "\n" + block(report, fmt::format("ratio slower/faster [95% interval]; * reaches {:g}..{:g}", 1 - c.tolerance, 1 + c.tolerance),
                        pair_names, [&](const SweepPoint& p, std::size_t i) {
                          const SweepRatio* r = find_ratio(p, report.analysis.pairs[i]);
                          return r ? ratio_text(*r) : std::string("-");
                        });
    out += fmt::format("\ncrossover: the first {} from which every ratio's 95% interval reaches [{:g}, {:g}]\n", axis,
                       1 - c.tolerance, 1 + c.tolerance);
    for (const auto& pair : report.analysis.pairs) {
      const SweepRatio* last = nullptr;
      const SweepRatio* at = nullptr;
      for (const auto& point : report.points) {
        const SweepRatio* r = find_ratio(point, pair);
        if (r == nullptr) continue;
        last = r;
        if (pair.crossover && point.value == *pair.crossover) at = r;
      }
      if (pair.crossover && at != nullptr) {
        out += fmt::format("  {}: {} {} (ratio {} there)\n", pair_name(pair.slower, pair.faster), axis, *pair.crossover, ratio_text(*at));
      } else if (last != nullptr) {
        out += fmt::format("  {}: none in the range (ratio {} at the last point)\n", pair_name(pair.slower, pair.faster), ratio_text(*last));
      }
    }
  }
  out += fmt::format("\nfit: time = c + k × {} (95% intervals; points whose residual exceeds {:g}% left out)\n", axis,
                     100 * c.fit_tolerance);
  for (const auto& fit : report.analysis.fits) out += fmt::format("  {}: {}\n", fit.path, fit_text(fit, axis));
  return out;
}

Status emit_sweep(const SweepReport& report, const std::string& markdown, bool quiet, bool print_warnings) {
  // the JSON is the session's (written as each point lands, for --resume); the page is Python's (--export-html)
  ReportExports exports;
  exports.markdown = markdown;
  return emit_forms({[&] { return format_sweep_table(report); }, {}, [&] { return sweep_document(report); }, false},
                    exports, quiet, print_warnings ? report.warnings : std::vector<Warning>{});
}

}  // namespace ohprof
