// The sweep laid out once (document.hpp): its Markdown (docs/sweep.md, "Outputs"). Its page is drawn by
// matplotlib (python/ohprof/_sweep_plot.py), from the JSON.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <utility>

#include "ohprof/base/format.hpp"
#include "ohprof/output/markdown_report.hpp"
#include "document.hpp"
#include "report_tables.hpp"
#include "sweep_text.hpp"

namespace ohprof {
namespace {

using namespace doc::cells;

// Per point: each path's latency, then each pair's ratio; a point not measured says why in its row.
CellTable point_table(const SweepReport& r, const std::string& axis) {
  const SweepConfig& c = r.config;
  CellTable t{{axis}, "", {}};
  for (const std::string& p : c.paths) t.header.push_back(p + " latency");
  for (const SweepPair& pair : r.analysis.pairs) t.header.push_back(pair.slower + " / " + pair.faster);
  t.align = std::string(t.header.size(), 'r');
  for (const SweepPoint& point : r.points) {
    std::vector<Cell> row{plain(std::to_string(point.value))};
    if (point.status != PointStatus::measured) {
      row.push_back(text(fmt::format("{}: {}", to_string(point.status), point.reason)));
      row.resize(t.header.size(), plain(""));
      t.rows.push_back(std::move(row));
      continue;
    }
    for (const std::string& path : c.paths) {
      const auto p = std::find_if(point.paths.begin(), point.paths.end(), [&](const SweepPathPoint& x) { return x.name == path; });
      row.push_back(plain(p == point.paths.end() ? "-"
                                                 : format_duration(p->figures.latency_ns) + " ± " +
                                                       format_duration(p->figures.latency_se_ns)));
    }
    for (const SweepPair& pair : r.analysis.pairs) {
      const auto ratio = std::find_if(point.ratios.begin(), point.ratios.end(), [&](const SweepRatio& x) {
        return x.slower == pair.slower && x.faster == pair.faster;
      });
      row.push_back(plain(ratio == point.ratios.end() ? "-" : ratio_text(*ratio)));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace

Document sweep_document(const SweepReport& r) {
  const SweepConfig& c = r.config;
  const std::string axis = axis_name(c.axis);
  Inline title{plain("ohprof sweep: "), name(c.model), plain(fmt::format(" over {} at {}", axis, fmt::join(c.inputs, ", ")))};
  append_inputs_file(title, c.inputs_file);
  title.push_back(plain(" on " + device_text(r.context.device)));
  Document document{std::move(title), {}};
  std::vector<Block>& blocks = document.blocks;
  // the headline: where each pair converges
  doc::Bullets pairs;
  for (const SweepPair& pair : r.analysis.pairs) {
    Inline line{name(pair.slower), plain(" / "), name(pair.faster), plain(": ")};
    if (pair.crossover) {
      // `within` is the interval reaching the band: closeness not ruled out, not closeness shown.
      line.push_back(plain(fmt::format("every ratio's 95% interval reaches {:g}..{:g} from {} ", 1 - c.tolerance,
                                       1 + c.tolerance, axis)));
      line.push_back(strong(std::to_string(*pair.crossover)));
      line.push_back(plain(" on"));
    } else {
      line.push_back(plain(fmt::format("no crossover in the range ({} points)", pair.points)));
    }
    pairs.items.push_back(std::move(line));
  }
  if (!pairs.items.empty()) blocks.push_back(std::move(pairs));
  blocks.push_back(doc::Table{point_table(r, axis), "ohprof-sweep-points"});
  blocks.push_back(doc::Note{{plain("Latency: median ± se per call; ratios with their 95% interval, "), name("*"),
                              plain(fmt::format(" where it reaches {:g}..{:g} (docs/sweep.md).", 1 - c.tolerance, 1 + c.tolerance))}});
  blocks.push_back(doc::Heading{{strong("Fit"), plain(fmt::format(" time = c + k × {} (95% intervals)", axis))}});
  doc::Bullets fits;
  for (const SweepFit& fit : r.analysis.fits) fits.items.push_back({name(fit.path), plain(": "), text(fit_text(fit, axis))});
  blocks.push_back(std::move(fits));
  blocks.push_back(doc::Warnings{r.warnings});
  blocks.push_back(doc::Context{
      context_rows(r.context, true, {{"stopped", to_string(r.stop)}, {"paths", fmt::format("{}", fmt::join(c.paths, ", "))}})});
  return document;
}

std::string format_sweep_markdown(const SweepReport& report) { return render_markdown(sweep_document(report)); }

}  // namespace ohprof
