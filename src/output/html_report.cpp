// The HTML page of a report (docs/reports.md, "HTML"): the shared tables (report_tables.hpp) and inline
// SVG pictures of the typed report. Static: no script, nothing fetched.
#include "ohprof/output/html_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <variant>

#include "ohprof/base/format.hpp"
#include "ohprof/base/stats.hpp"
#include "ohprof/output/report_text.hpp"
#include "report_tables.hpp"

namespace ohprof {
namespace {

std::string esc(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v) { return fmt::format("{:.1f}", v); }

// One part of a split bar: its key (the data-part attribute and the JSON's name), its legend, its colour
// (kHostOrWait's is the stripes of kHatch, a pattern each figure defines).
struct Part {
  const char* key;
  const char* label;
  const char* color;
};
constexpr Part kBusy{"busy", "busy (device work running)", "#4e79a7"};
constexpr Part kCpuBusy{"busy", "busy (CPU kernels)", "#4e79a7"};
constexpr Part kDispatch{"dispatch", "dispatch (host work around the kernels)", "#f28e2b"};
// A CPU path whose Inductor kernels do not record themselves (the verdict's kernels_unrecorded): its dispatch
// holds them too, so it is an upper bound of the host work (docs/metrics.md, "Verdict").
constexpr Part kDispatchWithKernels{"dispatch", "dispatch, with the Inductor kernels that do not record themselves (at most this much host work)",
                                    "#9c755f"};
constexpr Part kBlocking{"blocking", "host-bound: blocking (sync, blocking copy)", "#e15759"};
constexpr Part kLaunch{"launch", "host-bound: launch calls", "#f28e2b"};
constexpr Part kOtherApi{"other_api", "host-bound: other API (allocation, queries)", "#edc948"};
constexpr Part kHarness{"harness", "host-bound: harness (ohprof's own sync)", "#b07aa1"};
constexpr Part kFramework{"framework", "host-bound: framework (Python, dispatch, data loading)", "#ff9da7"};
constexpr Part kDeviceWait{"device_wait", "device-wait (queued work waiting on the device)", "#76b7b2"};
// A path whose queue is open (PathVerdict::queue_open: device ops without a launch call, docs/metrics.md "Ops
// without a launch call"): its host-bound time is known only as a range, so its bar draws the least host-bound
// time, the part that is one or the other, and the least device-wait time; the host states, which split the most
// host-bound time, are in the table.
constexpr Part kHostBoundLeast{"host_bound", "host-bound, at least", "#b6465f"};
constexpr Part kHostOrWait{"host_bound_or_device_wait",
                           "host-bound or device-wait (device ops without a launch call: when they were queued is unknown)",
                           "stripes"};
constexpr Part kDeviceWaitLeast{"device_wait", "device-wait, at least (queued work waiting on the device)", "#76b7b2"};

// The stripes of kHostOrWait: host-bound's colour and device-wait's. `id` is unique in the page.
std::string hatch_defs(std::string_view id) {
  return fmt::format("<defs><pattern id=\"{}\" patternUnits=\"userSpaceOnUse\" width=\"8\" height=\"8\" "
                     "patternTransform=\"rotate(45)\"><rect width=\"8\" height=\"8\" fill=\"{}\"/><rect width=\"4\" "
                     "height=\"8\" fill=\"{}\"/></pattern></defs>\n",
                     id, kHostBoundLeast.color, kDeviceWaitLeast.color);
}
std::string fill_of(const Part& part, std::string_view hatch_id) {
  return std::string_view(part.key) == kHostOrWait.key ? fmt::format("url(#{})", hatch_id) : std::string(part.color);
}
std::string swatch_of(const Part& part) {
  return std::string_view(part.key) == kHostOrWait.key
             ? fmt::format("repeating-linear-gradient(45deg,{0} 0 3px,{1} 3px 6px)", kHostBoundLeast.color, kDeviceWaitLeast.color)
             : std::string(part.color);
}

struct Segment {
  Part part;
  std::int64_t ns = 0;
};

// A window's split in drawing order: busy, the host-bound time by host state (or a CPU run's dispatch),
// device-wait. The parts add up to the window's wall time (docs/metrics.md, "The identities").
// `host_bound_least`: set where the path's queue is open, the least host-bound time (0 where a report from
// before 2026-12-07 has none for the window): busy, that least, the rest of the host-bound time as one or the
// other, device-wait.
// Where the queue is open: the least host-bound time (clamped to [0, most]), the rest of the host-bound time
// as host-bound or device-wait, and device-wait (at least), in drawing order.
std::array<Segment, 3> open_queue_segments(std::int64_t host_bound_most, std::int64_t host_bound_least, std::int64_t device_wait) {
  const std::int64_t least = std::clamp<std::int64_t>(host_bound_least, 0, host_bound_most);
  return {{{kHostBoundLeast, least}, {kHostOrWait, host_bound_most - least}, {kDeviceWaitLeast, device_wait}}};
}

std::vector<Segment> segments(std::int64_t busy, const HostStates& h, std::int64_t device_wait, bool cpu,
                              std::optional<std::int64_t> dispatch, bool kernels_unrecorded,
                              std::optional<std::int64_t> host_bound_least) {
  if (cpu) return {{kCpuBusy, busy}, {kernels_unrecorded ? kDispatchWithKernels : kDispatch, dispatch.value_or(0)}};
  if (host_bound_least) {
    const std::int64_t most = h.blocking_ns + h.launch_ns + h.other_api_ns + h.harness_ns + h.framework_ns;
    std::vector<Segment> out{{kBusy, busy}};
    for (const Segment& seg : open_queue_segments(most, *host_bound_least, device_wait)) out.push_back(seg);
    return out;
  }
  return {{kBusy, busy},           {kBlocking, h.blocking_ns}, {kLaunch, h.launch_ns}, {kOtherApi, h.other_api_ns},
          {kHarness, h.harness_ns}, {kFramework, h.framework_ns}, {kDeviceWait, device_wait}};
}

std::vector<Segment> totals_segments(const PathBreakdown& b) {
  const BreakdownTotals& t = b.summary.totals;
  // the sum of the iterations' least (what the columns draw); from the share in a report whose iterations
  // have none (before 2026-12-07)
  std::optional<std::int64_t> least;
  if (b.verdict.host_bound_share_least) {
    const bool each = !b.iterations.empty() && std::all_of(b.iterations.begin(), b.iterations.end(), [](const IterationBreakdown& it) {
      return it.host_bound_least_ns.has_value();
    });
    std::int64_t summed = 0;
    for (const IterationBreakdown& it : b.iterations) summed += it.host_bound_least_ns.value_or(0);
    least = each ? summed : std::llround(*b.verdict.host_bound_share_least * static_cast<double>(t.wall_ns));
  }
  return segments(t.gpu.busy_ns, t.host_states, t.gpu.device_wait_ns, b.summary.cpu_kernels, t.dispatch_ns,
                  b.verdict.kernels_unrecorded, least);
}

std::vector<Segment> iteration_segments(const PathBreakdown& b, const IterationBreakdown& it) {
  std::optional<std::int64_t> least;
  if (b.verdict.queue_open()) least = it.host_bound_least_ns.value_or(0);
  return segments(it.gpu.busy_ns, it.host_states, it.gpu.device_wait_ns, b.summary.cpu_kernels, it.dispatch_ns,
                  b.verdict.kernels_unrecorded, least);
}

// A legend of these parts, in this order.
std::string legend_of(const std::vector<Part>& parts) {
  std::string out = "<div class=\"legend\">";
  for (const Part& p : parts) {
    out += fmt::format("<span class=\"ohprof-legend\" data-part=\"{}\"><i style=\"background:{}\"></i>{}</span>", p.key,
                       swatch_of(p), esc(p.label));
  }
  return out + "</div>\n";
}

// The legend of the parts drawn, in drawing order (a CPU run's and a GPU run's parts never mix).
std::string legend(const std::vector<Part>& drawn) {
  std::vector<Part> parts;
  for (const Part& p : {kBusy, kCpuBusy, kDispatch, kDispatchWithKernels, kBlocking, kLaunch, kOtherApi, kHarness, kFramework,
                        kHostBoundLeast, kHostOrWait, kDeviceWait, kDeviceWaitLeast}) {
    if (std::any_of(drawn.begin(), drawn.end(), [&](const Part& d) { return std::string_view(d.label) == p.label; })) {
      parts.push_back(p);
    }
  }
  return legend_of(parts);
}

}  // namespace

namespace {
// A split whose every share can be read (readable_shares): a bar of one that cannot would draw its unread busy
// time as host-bound (the tables print those shares "unknown"; such a path has no bar).
bool readable_split(const PathBreakdown& b) {
  const ReadableShares readable = readable_shares(b.verdict.reason);
  return readable.busy && readable.queueing;
}

// What the striped part means, where a drawn path's queue is open ("" where none is).
std::string open_queue_note(const std::vector<const PathResult*>& drawn) {
  std::vector<std::string> names;
  for (const PathResult* p : drawn) {
    if (p->breakdown->verdict.queue_open()) {
      names.push_back(fmt::format("<code>{}</code> ({})", esc(p->name), queue_unknown_clause(p->breakdown->verdict)));
    }
  }
  if (names.empty()) return "";
  return fmt::format(" Striped: time that is host-bound or device-wait, not known which, in {} (docs/metrics.md, \"Ops "
                     "without a launch call\"); the host states of such a path, in the table, split the most "
                     "host-bound time.",
                     fmt::join(names, ", "));
}
}  // namespace

// Each path's split as one bar of its summed wall time, the parts' shares in it.
std::string report_split_bars(const Report& r) {
  std::vector<const PathResult*> with_split;
  for (const PathResult* p : asked_paths(r)) {
    if (p->breakdown && p->breakdown->summary.totals.iterations > 0 && p->breakdown->summary.totals.wall_ns > 0 &&
        readable_split(*p->breakdown)) {
      with_split.push_back(p);
    }
  }
  if (with_split.empty()) return "";
  const double label_w = 190, bar_w = 560, row_h = 34, bar_h = 22;
  const double height = 8 + row_h * static_cast<double>(with_split.size());
  std::string svg = fmt::format("<svg class=\"ohprof-split\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
                                "role=\"img\" aria-label=\"the split of each path\">\n",
                                num(label_w + bar_w + 200), num(height));
  constexpr std::string_view kHatchId = "ohprof-hatch-split";
  svg += hatch_defs(kHatchId);
  std::vector<Part> shown;
  for (std::size_t i = 0; i < with_split.size(); ++i) {
    const PathResult& p = *with_split[i];
    const BreakdownSummary& s = p.breakdown->summary;
    const double y = 8 + row_h * static_cast<double>(i);
    const double wall = static_cast<double>(s.totals.wall_ns);
    svg += fmt::format("<text class=\"ohprof-split-label\" x=\"0\" y=\"{}\">{}</text>\n", num(y + 16), esc(p.name));
    double x = label_w;
    for (const Segment& seg : totals_segments(*p.breakdown)) {
      if (seg.ns <= 0) continue;
      if (std::none_of(shown.begin(), shown.end(), [&](const Part& q) { return std::string_view(q.label) == seg.part.label; })) {
        shown.push_back(seg.part);
      }
      const double share = static_cast<double>(seg.ns) / wall;
      const double w = bar_w * share;
      const double per_iteration = static_cast<double>(seg.ns) / static_cast<double>(s.totals.iterations);
      svg += fmt::format("<rect class=\"ohprof-seg\" data-path=\"{}\" data-part=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" "
                         "height=\"{}\" fill=\"{}\"><title>{}: {} {:.1f}% ({} per iteration)</title></rect>\n",
                         esc(p.name), seg.part.key, num(x), num(y), fmt::format("{:.2f}", w), num(bar_h),
                         fill_of(seg.part, kHatchId), esc(p.name), esc(seg.part.label), 100 * share,
                         format_duration(per_iteration));
      if (w >= 44) {
        svg += fmt::format("<text class=\"ohprof-seg-text\" x=\"{}\" y=\"{}\">{:.0f}%</text>\n", num(x + w / 2), num(y + 15),
                           100 * share);
      }
      x += w;
    }
    svg += fmt::format("<text class=\"ohprof-split-wall\" x=\"{}\" y=\"{}\">{} per iteration</text>\n", num(label_w + bar_w + 8),
                       num(y + 16), format_duration(wall / static_cast<double>(s.totals.iterations)));
  }
  svg += "</svg>\n";
  return "<h2>Where each path's time goes</h2>\n<p class=\"note\">Each bar is a path's summed wall time in its " +
         std::string(r.trace ? "trace's iterations" : "split pass") +
         " (100%), split on the device's own timeline (docs/metrics.md); hover a part for its share and time per "
         "iteration." +
         open_queue_note(with_split) + "</p>\n" + svg + legend(shown);
}

// Each path's wall-time distribution: a histogram of its samples up to their 99th percentile (100
// samples or more; else their maximum), and never beyond the robust bound median + 5 σ (σ = 1.4826 MAD),
// so that one 24 ms outlier does not squeeze thirty 31 us samples into the first bar; the samples beyond
// the bound are counted in the caption (paths with fewer samples than kMinHistogramSamples have none:
// their table row says it all).
constexpr std::size_t kMinHistogramSamples = 5;
constexpr double kHistogramRobustSpreads = 5;
std::string report_distributions(const Report& r) {
  std::string out;
  const double w = 420, h = 150, left = 40, bottom = 26, top = 10;
  for (const PathResult* p : asked_paths(r)) {
    if (p->wall_ns.size() < kMinHistogramSamples) continue;
    std::vector<double> values(p->wall_ns.begin(), p->wall_ns.end());
    const double upper = values.size() >= 100 ? 0.99 : 1.0;
    // 2 sqrt(n) bins (6 for 6 samples), at most 40
    const auto bins = std::min<std::size_t>(40, 2 * static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(values.size())))));
    const double robust_hi = p->wall.median + kHistogramRobustSpreads * kMadToSigma * p->wall.mad;
    const double quantile_hi = quantile(values, upper);
    const bool robust = p->wall.mad > 0 && robust_hi < quantile_hi;
    const Histogram hist = histogram_to(values, bins, robust ? robust_hi : quantile_hi);
    const std::size_t peak = *std::max_element(hist.counts.begin(), hist.counts.end());
    const double plot_w = w - left - 10, plot_h = h - bottom - top;
    const double bin_w = plot_w / static_cast<double>(hist.counts.size());
    std::string svg = fmt::format("<svg class=\"ohprof-hist\" data-path=\"{0}\" width=\"{1}\" height=\"{2}\" viewBox=\"0 0 {1} {2}\" "
                                  "role=\"img\" aria-label=\"wall-time distribution of {0}\">\n",
                                  esc(p->name), num(w), num(h));
    for (std::size_t b = 0; b < hist.counts.size(); ++b) {
      if (hist.counts[b] == 0) continue;
      const double bh = plot_h * static_cast<double>(hist.counts[b]) / static_cast<double>(peak);
      const double lo = hist.lo + (hist.hi - hist.lo) * static_cast<double>(b) / static_cast<double>(hist.counts.size());
      const double hi = hist.lo + (hist.hi - hist.lo) * static_cast<double>(b + 1) / static_cast<double>(hist.counts.size());
      svg += fmt::format("<rect class=\"ohprof-hist-bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{} … {}: {} "
                         "iterations</title></rect>\n",
                         num(left + bin_w * static_cast<double>(b)), num(top + plot_h - bh), fmt::format("{:.2f}", std::max(bin_w - 1, 0.5)),
                         num(bh), format_duration(lo), format_duration(hi), hist.counts[b]);
    }
    const double span = hist.hi - hist.lo;
    const double median_x = left + (span > 0 ? plot_w * (p->wall.median - hist.lo) / span : plot_w / 2);
    svg += fmt::format("<line class=\"ohprof-median\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\"><title>median {3}</title></line>\n",
                       num(median_x), num(top), num(top + plot_h), format_duration(p->wall.median));
    svg += fmt::format("<line class=\"axis\" x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\"/>\n", num(left), num(left + plot_w),
                       num(top + plot_h));
    svg += fmt::format("<text class=\"ohprof-axis-label\" x=\"{}\" y=\"{}\">{}</text>\n", num(left), num(h - 8), format_duration(hist.lo));
    svg += fmt::format("<text class=\"ohprof-axis-label end\" x=\"{}\" y=\"{}\">{}</text>\n", num(left + plot_w), num(h - 8),
                       format_duration(hist.hi));
    svg += fmt::format("<text class=\"ohprof-axis-label end\" x=\"{}\" y=\"{}\">{}</text>\n", num(left - 4), num(top + 10), peak);
    svg += "</svg>\n";
    out += fmt::format("<figure class=\"ohprof-dist\" data-path=\"{}\">{}<figcaption><code>{}</code>: median {}, {} iterations{}"
                       "</figcaption></figure>\n",
                       esc(p->name), svg, esc(p->name), format_duration(p->wall.median), p->wall_ns.size(),
                       hist.above == 0 ? std::string()
                       : robust        ? fmt::format("; {} beyond {} (median + 5 σ) not drawn", hist.above, format_duration(hist.hi))
                                       : fmt::format("; {} above the 99th percentile not drawn", hist.above));
  }
  if (out.empty()) return "";
  return "<h2>Wall time per iteration</h2>\n<p class=\"note\">" +
         std::string(r.trace ? "Each iteration of the trace." : "The timing pass's iterations (no collector on).") +
         " The line is the median; bars up to the 99th percentile (100 iterations or more) and at most to median + 5 σ "
         "(σ = 1.4826 MAD); the caption counts the iterations beyond.</p>\n<div class=\"grid\">\n" + out +
         "</div>\n";
}

// analyze: every iteration's split, as a stacked column of its wall time.
std::string report_iteration_columns(const Report& r) {
  std::string out;
  constexpr std::size_t kMaxDrawn = 400;
  int figure = 0;
  std::vector<const PathResult*> drawn;
  for (const PathResult* p : asked_paths(r)) {
    if (!p->breakdown || p->breakdown->iterations.empty() || !readable_split(*p->breakdown)) continue;
    drawn.push_back(p);
    const PathBreakdown& b = *p->breakdown;
    const std::size_t n = std::min(b.iterations.size(), kMaxDrawn);
    std::int64_t tallest = 1;
    for (std::size_t i = 0; i < n; ++i) tallest = std::max(tallest, b.iterations[i].wall_ns);
    const double col_w = std::clamp(840.0 / static_cast<double>(n), 2.0, 40.0);
    const double left = 70, top = 10, plot_h = 200;
    const double w = std::max(left + col_w * static_cast<double>(n) + 10, 400.0), h = top + plot_h + 30;
    std::string svg = fmt::format("<svg class=\"ohprof-iterations\" data-path=\"{0}\" width=\"{1}\" height=\"{2}\" "
                                  "viewBox=\"0 0 {1} {2}\" role=\"img\" aria-label=\"the split of each iteration of {0}\">\n",
                                  esc(p->name), num(w), num(h));
    const std::string hatch_id = fmt::format("ohprof-hatch-iterations-{}", figure++);
    if (b.verdict.queue_open()) svg += hatch_defs(hatch_id);
    std::vector<Part> shown;
    for (std::size_t i = 0; i < n; ++i) {
      const IterationBreakdown& it = b.iterations[i];
      double y = top + plot_h;
      for (const Segment& seg : iteration_segments(b, it)) {
        if (seg.ns <= 0) continue;
        if (std::none_of(shown.begin(), shown.end(), [&](const Part& q) { return std::string_view(q.label) == seg.part.label; })) {
          shown.push_back(seg.part);
        }
        const double sh = plot_h * static_cast<double>(seg.ns) / static_cast<double>(tallest);
        y -= sh;
        svg += fmt::format("<rect class=\"ohprof-iter-seg\" data-iteration=\"{}\" data-part=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" "
                           "height=\"{}\" fill=\"{}\"><title>iteration {}: {} {} of {}</title></rect>\n",
                           it.index, seg.part.key, fmt::format("{:.2f}", left + col_w * static_cast<double>(i)),
                           fmt::format("{:.2f}", y), fmt::format("{:.2f}", std::max(col_w - 1, 1.0)), fmt::format("{:.2f}", sh),
                           fill_of(seg.part, hatch_id), it.index, esc(seg.part.label), format_duration(static_cast<double>(seg.ns)),
                           format_duration(static_cast<double>(it.wall_ns)));
      }
    }
    svg += fmt::format("<text class=\"ohprof-axis-label end\" x=\"{}\" y=\"{}\">{}</text>\n", num(left - 4), num(top + 10),
                       format_duration(static_cast<double>(tallest)));
    svg += fmt::format("<text class=\"ohprof-axis-label end\" x=\"{}\" y=\"{}\">0</text>\n", num(left - 4), num(top + plot_h));
    svg += fmt::format("<text class=\"ohprof-axis-label\" x=\"{}\" y=\"{}\">iteration {} … {}</text>\n", num(left), num(h - 8),
                       b.iterations.front().index, b.iterations[n - 1].index);
    svg += "</svg>\n";
    out += fmt::format("<h3><code>{}</code></h3>\n{}{}{}", esc(p->name), svg, legend(shown),
                       b.iterations.size() > n ? fmt::format("<p class=\"note\">The first {} of {} iterations.</p>\n", n,
                                                             b.iterations.size())
                                               : std::string());
  }
  if (out.empty()) return "";
  return "<h2>Each iteration's split</h2>\n<p class=\"note\">One column per iteration, its height the iteration's wall "
         "time." +
         open_queue_note(drawn) + "</p>\n" + out;
}

namespace {

// `path`: the table's data-path attribute ("" : none).
// A cell as HTML: a name as code, a verdict strongly, every kind escaped.
std::string cell_html(const Cell& c) {
  switch (c.kind) {
    case Cell::Kind::name: return "<code>" + esc(c.text) + "</code>";
    case Cell::Kind::strong: return "<strong>" + esc(c.text) + "</strong>";
    case Cell::Kind::text:
    case Cell::Kind::plain: break;
  }
  return esc(c.text);
}

std::string inline_html(const Inline& line) {
  std::string out;
  for (const Cell& c : line) out += cell_html(c);
  return out;
}

std::string html_table(const CellTable& t, const std::string& cls, const std::string& path = "") {
  std::string out = fmt::format("<table class=\"{}\"{}>\n<tr>", cls, path.empty() ? "" : " data-path=\"" + esc(path) + "\"");
  for (std::size_t i = 0; i < t.header.size(); ++i) {
    out += fmt::format("<th{}>{}</th>", i < t.align.size() && t.align[i] == 'r' ? " class=\"r\"" : "", esc(t.header[i]));
  }
  out += "</tr>\n";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i) {
      out += fmt::format("<td{}>{}</td>", i < t.align.size() && t.align[i] == 'r' ? " class=\"r\"" : "", cell_html(row[i]));
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace

std::string report_kernel_tables(const Report& r) {
  std::string out;
  constexpr std::size_t kRows = 15;
  constexpr std::size_t kNameChars = 120;
  for (const PathResult* p : asked_paths(r)) {
    if (!p->breakdown || p->breakdown->kernels.empty()) continue;
    const auto& kernels = p->breakdown->kernels;
    CellTable t;
    t.header = {"kernel", "kind", "per iteration", "median per call", "time per iteration"};
    t.align = "llrrr";
    for (std::size_t i = 0; i < std::min(kernels.size(), kRows); ++i) {
      const KernelStat& k = kernels[i];
      // a C++ template's name runs to a thousand characters: the JSON report has it whole
      const std::string name = k.name.size() > kNameChars ? k.name.substr(0, kNameChars - 1) + "…" : k.name;
      t.rows.push_back({{name, Cell::Kind::name},
                        {to_string(k.kind)},
                        {fmt::format("{:.4g}", k.count_per_iteration)},
                        {format_duration(k.median_ns)},
                        {format_duration(k.mean_ns * k.count_per_iteration)}});
    }
    out += fmt::format("<h3><code>{}</code></h3>\n", esc(p->name));
    out += html_table(t, "ohprof-kernels", p->name);
    if (kernels.size() > kRows) out += fmt::format("<p class=\"note\">… and {} more (in the JSON report).</p>\n", kernels.size() - kRows);
  }
  return out.empty() ? "" : "<h2>Kernels</h2>\n<p class=\"note\">By total time, most first.</p>\n" + out;
}

namespace {

constexpr const char* kStyle = R"(
body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;font-size:14px;color:#1f2328;max-width:1180px;margin:24px auto;padding:0 16px}
h1{font-size:20px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:15px}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d0d7de;padding:3px 9px;text-align:left}
th{background:#f6f8fa}td.r,th.r{text-align:right}code{font-family:'DejaVu Sans Mono',monospace;font-size:12.5px}
.note{color:#57606a}.answer{font-weight:bold}.headline{border-left:4px solid #4e79a7;padding:2px 12px;margin:12px 0}
.legend{margin:4px 0 12px}.legend span{margin-right:16px;white-space:nowrap}.legend i{display:inline-block;width:11px;height:11px;margin-right:5px;vertical-align:-1px}
.grid{display:flex;flex-wrap:wrap;gap:10px 24px}figure{margin:0}figcaption{color:#57606a;font-size:12.5px}
svg text{font-size:12px;fill:#1f2328}.ohprof-seg-text{fill:#fff;text-anchor:middle;font-size:11px}
.ohprof-hist-bar{fill:#4e79a7}.ohprof-median{stroke:#e15759;stroke-width:2}.axis{stroke:#57606a}
.ohprof-axis-label{fill:#57606a;font-size:11px}.end{text-anchor:end}
tr.ohprof-only td:first-child{border-left:4px solid #e15759}.ohprof-only-mark{color:#e15759;font-size:12px}
img.ohprof-graph{max-width:100%;border:1px solid #d0d7de;background:#fff}.ohprof-files li{margin:2px 0}
.ohprof-code-kernels td:first-child,.ohprof-call-sequences td{max-width:230px;word-break:break-all}
.ohprof-kernels td:first-child{max-width:620px;word-break:break-all}
.ohprof-call-sequences td{font-size:11px}.ohprof-call-sequences code{font-size:11px}
)";

// The warnings, when there are any.
std::string warnings_html(const std::vector<Warning>& warnings) {
  if (warnings.empty()) return "";
  std::string out = "<h2>Warnings</h2>\n<ul class=\"ohprof-warnings\">\n";
  for (const Warning& w : warnings) out += fmt::format("<li><code>{}</code>: {}</li>\n", to_string(w.code), esc(w.message));
  return out + "</ul>\n";
}

// The context, collapsed.
std::string context_html(const std::vector<std::pair<std::string, std::string>>& rows) {
  CellTable context;
  context.header = {"", ""};
  for (const auto& [key, value] : rows) {
    context.rows.push_back({{key}, {value, key == "command" ? Cell::Kind::name : Cell::Kind::text}});
  }
  return "<details>\n<summary>Context</summary>\n" + html_table(context, "ohprof-context") + "</details>\n";
}

// The page's start, to its title.
std::string page_head(const std::string& title) {
  return fmt::format("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n"
                     "<style>{}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
                     esc(title), kStyle, esc(title));
}

}  // namespace

std::string inline_text(const Inline& text) {
  std::string out;
  for (const Cell& c : text) out += c.text;
  return out;
}

std::string render_html(const Document& document) {
  struct Draw {
    std::string operator()(const doc::Headline& h) const {
      if (h.answers.empty() && h.lines.empty()) return "";
      std::string out = "<div class=\"headline\">\n";
      for (const Inline& answer : h.answers) out += "<p class=\"answer\">" + inline_html(answer) + "</p>\n";
      for (const Inline& line : h.lines) out += "<p>" + inline_html(line) + "</p>\n";
      return out + "</div>\n";
    }
    std::string operator()(const doc::Heading& h) const { return "<h2>" + esc(inline_text(h.text)) + "</h2>\n"; }
    std::string operator()(const doc::Subheading& h) const { return "<h3>" + inline_html(h.text) + "</h3>\n"; }
    std::string operator()(const doc::Answer& a) const { return "<p class=\"answer\">" + inline_html(a.text) + "</p>\n"; }
    std::string operator()(const doc::Paragraph& p) const { return "<p>" + inline_html(p.text) + "</p>\n"; }
    std::string operator()(const doc::Note& n) const { return "<p class=\"note\">" + inline_html(n.text) + "</p>\n"; }
    std::string operator()(const doc::Figure& f) const { return f.html; }
    std::string operator()(const doc::Bullets& b) const {
      std::string out = b.css_class.empty() ? "<ul>\n" : "<ul class=\"" + b.css_class + "\">\n";
      for (const Inline& item : b.items) out += "<li>" + inline_html(item) + "</li>\n";
      return out + "</ul>\n";
    }
    std::string operator()(const doc::Table& t) const { return html_table(t.table, t.css_class); }
    std::string operator()(const doc::Warnings& w) const { return warnings_html(w.warnings); }
    std::string operator()(const doc::Context& c) const { return context_html(c.rows); }
  };
  std::string out = page_head(inline_text(document.title));
  for (const Block& block : document.blocks) out += std::visit(Draw{}, block);
  return out + "</body>\n</html>\n";
}

namespace {

constexpr Part kCompute{"compute", "compute (busy, no collective running)", "#4e79a7"};
constexpr Part kCommunication{"communication", "collectives (busy with a collective running)", "#59a14f"};
constexpr Part kHostBound{"host_bound", "host-bound (nothing queued: the device waits for the host)", "#ff9da7"};

}  // namespace

namespace {
// The parts of the step bars: a rank's split exact, or open (its queue: the least host-bound, the striped rest,
// device-wait at least); both kinds where the job has both.
std::vector<Part> ranks_legend(bool any_open, bool any_exact) {
  std::vector<Part> parts{kCompute, kCommunication};
  if (any_exact || !any_open) parts.insert(parts.end(), {kHostBound, kDeviceWait});
  if (any_open) parts.insert(parts.end(), {kHostBoundLeast, kHostOrWait, kDeviceWaitLeast});
  return parts;
}
}  // namespace

// Each step of the job: one bar per present rank, its wall split into compute, collectives, host-bound
// and device-wait (they add up to its wall: docs/ranks.md), scaled to the step's longest wall; the
// straggler's label in bold (none when the step's ranks are level), the collective wait in the bar's title.
std::string ranks_step_bars(const RanksReport& r) {
  std::string out;
  bool any_open = false, any_exact = false;
  const double label_w = 130, bar_w = 600, row_h = 26, bar_h = 18;
  for (const StepView& step : r.view.steps) {
    if (step.ranks.empty() || step.wall_max_ns <= 0) continue;
    const double height = 6 + row_h * static_cast<double>(step.ranks.size());
    out += fmt::format("<h3>Step {}</h3>\n<svg class=\"ohprof-step\" data-step=\"{}\" width=\"{}\" height=\"{}\" "
                       "viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"step {} per rank\">\n",
                       step.step, step.step, num(label_w + bar_w + 190), num(height), num(label_w + bar_w + 190), num(height),
                       step.step);
    const std::string hatch_id = fmt::format("ohprof-hatch-step-{}", step.step);
    if (std::any_of(step.ranks.begin(), step.ranks.end(), [](const RankInStep& rank) { return rank.queue_open; })) {
      out += hatch_defs(hatch_id);
    }
    for (std::size_t i = 0; i < step.ranks.size(); ++i) {
      const RankInStep& rank = step.ranks[i];
      const bool straggler = step.straggler && step.straggler->named() && step.straggler->rank == rank.rank;
      const double y = 4 + row_h * static_cast<double>(i);
      out += fmt::format("<text class=\"ohprof-rank-label\" x=\"0\" y=\"{}\"{}>rank {}{}</text>\n", num(y + 14),
                         straggler ? " font-weight=\"bold\"" : "", rank.rank, straggler ? " (slowest)" : "");
      double x = label_w;
      // an open queue (ops without a launch call): the least host-bound time, the rest striped as host-bound or
      // device-wait, device-wait at least (as the path's bars; the least 0 in a digest from before 2026-12-07)
      std::vector<Segment> parts{{kCompute, rank.compute_ns}, {kCommunication, rank.split.communication_ns}};
      if (rank.queue_open) {
        for (const Segment& seg : open_queue_segments(rank.split.host_bound_ns, rank.split.host_bound_least_ns.value_or(0),
                                                      rank.split.device_wait_ns)) {
          parts.push_back(seg);
        }
        any_open = true;
      } else {
        any_exact = true;
        parts.insert(parts.end(), {{kHostBound, rank.split.host_bound_ns}, {kDeviceWait, rank.split.device_wait_ns}});
      }
      for (const Segment& seg : parts) {
        if (seg.ns <= 0) continue;
        const double w = bar_w * static_cast<double>(seg.ns) / static_cast<double>(step.wall_max_ns);
        out += fmt::format("<rect class=\"ohprof-rank-seg\" data-step=\"{}\" data-rank=\"{}\" data-part=\"{}\" x=\"{}\" "
                           "y=\"{}\" width=\"{:.2f}\" height=\"{}\" fill=\"{}\"><title>rank {}, step {}: {} {} ({:.1f}% of its "
                           "wall){}</title></rect>\n",
                           step.step, rank.rank, seg.part.key, num(x), num(y), w, num(bar_h), fill_of(seg.part, hatch_id), rank.rank,
                           step.step, esc(seg.part.label), format_duration(static_cast<double>(seg.ns)),
                           100.0 * static_cast<double>(seg.ns) / static_cast<double>(rank.split.wall_ns),
                           seg.part.key == std::string_view("communication")
                               ? fmt::format("; waiting for the other ranks {}", format_duration(static_cast<double>(rank.collective_wait_ns)))
                               : "");
        x += w;
      }
      out += fmt::format("<text class=\"ohprof-rank-wall\" x=\"{}\" y=\"{}\">{} (waited {})</text>\n", num(label_w + bar_w + 8),
                         num(y + 14), format_duration(static_cast<double>(rank.split.wall_ns)),
                         format_duration(static_cast<double>(rank.collective_wait_ns)));
    }
    out += "</svg>\n";
  }
  if (out.empty()) return "";
  return "<h2>Each step, rank by rank</h2>\n<p class=\"note\">Each bar is a rank's wall time in the step, on its own "
         "device timeline, scaled to the step's longest; hover a part for its time. The slowest rank is the one with the "
         "most time not spent waiting in collectives; its label says so, in bold, when it is the step's straggler, by " +
         fmt::format("{:.0f}", 100 * kStragglerMinExcessShare) +
         "% or more over the median rank (docs/ranks.md)." +
         (any_open ? " Striped: time that is host-bound or device-wait, not known which, in a rank whose device ops "
                     "without a launch call leave when they were queued unknown (docs/metrics.md, \"Ops without a launch "
                     "call\")."
                   : "") +
         "</p>\n" +
         legend_of(ranks_legend(any_open, any_exact)) + out;
}


namespace {

// A light colour for a kernel name, the same for the same name on every path.
std::string name_colour(const std::string& name) {
  std::uint32_t hash = 2166136261u;
  for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  return fmt::format("hsl({},62%,86%)", hash % 360);
}

// A file's name as a link shows it: Inductor's 52-character hashes cut to their first 6 ("code/cha6mx….wrapper.cpp").
std::string short_file(const std::string& file) {
  const std::size_t slash = file.rfind('/');
  const std::size_t start = slash == std::string::npos ? 0 : slash + 1;
  const std::size_t dot = file.find('.', start);
  const std::size_t stem = (dot == std::string::npos ? file.size() : dot) - start;
  if (stem < 24) return file;
  return file.substr(0, start + 6) + "\u2026" + file.substr(start + stem);
}

std::string url_path(const std::string& path);

std::string file_link(const PathCodeDump& path, const std::string& file, const std::string& text) {
  return fmt::format("<a href=\"{}\">{}</a>", esc(url_path(path.folder + "/" + file)), esc(text));
}

// A path of a file as a relative URL: the characters a link would take for its own (%, #, ?, :, space,
// quotes, anything outside ASCII) percent-encoded, the rest as they are.
std::string url_path(const std::string& path) {
  std::string out;
  for (const unsigned char c : path) {
    if (std::isalnum(c) != 0 || c == '/' || c == '.' || c == '_' || c == '-' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string kernel_join_table(const std::vector<PathCodeDump>& paths, const std::vector<KernelJoinRow>& rows) {
  std::string out = "<table class=\"ohprof-code-kernels\">\n<tr><th rowspan=\"2\">kernel (canonical name)</th>";
  for (const PathCodeDump& p : paths) out += fmt::format("<th colspan=\"3\"><code>{}</code></th>", esc(p.path));
  out += "</tr>\n<tr>";
  for (std::size_t p = 0; p < paths.size(); ++p) out += "<th class=\"r\">per iteration</th><th class=\"r\">median per call</th><th>source</th>";
  out += "</tr>\n";
  for (const KernelJoinRow& row : rows) {
    out += fmt::format("<tr data-kernel=\"{}\"{}><td><code>{}</code>{}</td>", esc(row.canonical),
                       row.only ? " class=\"ohprof-only\"" : "", esc(row.canonical),
                       row.only ? fmt::format(" <span class=\"ohprof-only-mark\">only {}</span>", esc(paths[*row.only].path)) : "");
    for (std::size_t p = 0; p < paths.size(); ++p) {
      const KernelJoinCell& c = row.cells[p];
      if (!c.present) {
        out += "<td class=\"r\">&mdash;</td><td class=\"r\"></td><td></td>";
        continue;
      }
      out += fmt::format("<td class=\"r\">{:g} &times;</td><td class=\"r\">{}</td><td data-path=\"{}\">{}</td>",
                         c.count_per_iteration, esc(format_duration(c.median_ns)), esc(paths[p].path),
                         c.site ? file_link(paths[p], c.site->file, fmt::format("{}:{}", short_file(c.site->file), c.site->line))
                                : std::string("<span class=\"note\">not in the code</span>"));
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string call_sequences(const std::vector<PathCodeDump>& paths) {
  std::size_t longest = 0;
  for (const PathCodeDump& p : paths) longest = std::max(longest, p.listing.call_sequence.size());
  if (longest == 0) return "<p class=\"note\">No call sequence: no path had a split.</p>\n";
  std::string out = "<table class=\"ohprof-call-sequences\">\n<tr><th class=\"r\">#</th>";
  for (const PathCodeDump& p : paths) out += fmt::format("<th><code>{}</code></th>", esc(p.path));
  out += "</tr>\n";
  for (std::size_t i = 0; i < longest; ++i) {
    out += fmt::format("<tr><td class=\"r\">{}</td>", i + 1);
    for (const PathCodeDump& p : paths) {
      if (i >= p.listing.call_sequence.size()) {
        out += "<td></td>";
        continue;
      }
      const std::string& name = p.listing.call_sequence[i];
      out += fmt::format("<td data-kernel=\"{}\" style=\"background:{}\"><code>{}</code></td>", esc(name), name_colour(name), esc(name));
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string path_section(const PathCodeDump& p) {
  std::string out = fmt::format("<section class=\"ohprof-code-path\" data-path=\"{}\">\n<h3><code>{}</code></h3>\n", esc(p.path), esc(p.path));
  const bool svg = std::find(p.files.begin(), p.files.end(), "graph.svg") != p.files.end();
  if (!p.graph_label.empty()) {
    out += "<p>The graph: " + esc(p.graph_label) + ".</p>\n";
    if (svg) {
      out += fmt::format("<a href=\"{0}\"><img class=\"ohprof-graph\" src=\"{0}\" alt=\"the graph of {1}\"></a>\n",
                         esc(url_path(p.folder + "/graph.svg")), esc(p.path));
    } else {
      out += "<p class=\"note\">No picture of the graph (see the notes).</p>\n";
    }
  }
  out += "<ul class=\"ohprof-files\">\n";
  for (const std::string& file : p.files) out += "<li>" + file_link(p, file, file) + "</li>\n";
  out += "</ul>\n";
  return out + "</section>\n";
}

}  // namespace

std::string format_code_index(const Report& r, const std::vector<PathCodeDump>& paths,
                              const std::vector<KernelJoinRow>& kernels) {
  const std::string title = fmt::format("ohprof code view: {} on {}", report_subject(r), device_text(r.context.device));
  std::string out = page_head(title);
  out += "<p class=\"note\">Each path's graph and generated code, with every kernel of its split joined to where it is "
         "in that code and to what it cost per iteration (docs/code-dump.md). Written after measuring; links open the "
         "files in this folder.</p>\n";
  std::string notes;
  for (const PathCodeDump& p : paths) {
    for (const std::string& n : p.notes) notes += fmt::format("<li><code>{}</code>: {}</li>\n", esc(p.path), esc(n));
  }
  if (!notes.empty()) out += "<h2>What could not be had</h2>\n<ul class=\"ohprof-dump-notes\">\n" + notes + "</ul>\n";
  out += "<h2>Kernels</h2>\n" + kernel_join_table(paths, kernels) +
         "<p class=\"note\">Rows by the name the kernel diff compares paths by, the one any path spends most time in "
         "first; per path its calls per iteration, the median time of one call (of its row with the most calls, when "
         "several of the path's kernels share the name), and where it is in that path's code. A row "
         "marked <em>only</em> is a kernel one path runs and the others do not (of the paths with a split; a path "
         "without one has no kernels here).</p>\n";
  out += "<h2>Call sequences</h2>\n<p class=\"note\">The kernels and operator calls of the first measured iteration, in "
         "the order they started: the order each wrapper called them in.</p>\n" + call_sequences(paths);
  out += "<h2>Paths</h2>\n";
  for (const PathCodeDump& p : paths) out += path_section(p);
  return out + "</body>\n</html>\n";
}

}  // namespace ohprof
