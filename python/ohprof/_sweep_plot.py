"""The picture of an `ohprof sweep` report: one self-contained HTML page (docs/sweep.md, "Outputs").

  python -m ohprof._sweep_plot REPORT.json[.gz] OUT.html

ohprof calls write_page(report_path, out_path) through its embedded interpreter after every point.
The page has three SVG charts drawn by matplotlib (latency and throughput against the axis, log-log;
each path's ratio to the baseline with its 95% band, the tolerance band and the crossovers), the fits
as a table, and the points not drawn. Nothing is fetched when it is viewed. Every drawn series has a
stable id (ohprof-<chart>-<path>); a script at the end of the page writes their laid-out sizes into
<pre id="ohprof-render-check">, which test/tools/sweep_page_check.py reads from a headless browser.
"""
import html
import io
import math
import os
import re
import sys
import tempfile

import matplotlib
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter, NullLocator

try:
    from ohprof import _report_file
except ImportError:  # run as a script from a checkout (python python/ohprof/_sweep_plot.py): its folder is on sys.path
    import _report_file

RC = {"svg.fonttype": "none", "font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans"],
      "font.size": 10, "axes.ymargin": 0.08, "axes.grid": True, "grid.alpha": 0.3, "grid.linewidth": 0.6}
LEFT, RIGHT, TOP, LEGEND_X = 0.07, 0.70, 0.96, 0.71             # figure fractions: plot area, legend
NOT_DRAWN = "not measured (listed below)"
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]


def _id(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "-", name)


def fmt_ns(ns):
    if ns is None:
        return "–"
    ns = float(f"{ns:.3g}")                                     # 3 significant digits: 3.80 µs, 30.0 ns
    for scale, unit in ((1e9, "s"), (1e6, "ms"), (1e3, "µs"), (1, "ns")):
        if abs(ns) >= scale or unit == "ns":
            return (f"{ns / scale:#.3g}".rstrip(".") if ns else "0") + f" {unit}"


def _plain(v, _pos=None):
    return f"{v:g}"


def _si(v, _pos=None):
    for scale, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= scale:
            return f"{v / scale:g}{unit}"
    return f"{v:g}"


def _axis_ticks(ax, values):
    """Log x axis with ticks at the axis values, thinned so that their labels do not overlap."""
    ax.set_xscale("log")
    lo, hi = math.log10(values[0]), math.log10(values[-1])
    gap = max(hi - lo, 1e-9) / 14
    ticks = []
    for v in values:
        if not ticks or math.log10(v) - math.log10(ticks[-1]) >= gap:
            ticks.append(v)
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(_plain))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlim(values[0] / 1.25, values[-1] * 1.25)


def _log_y(ax, formatter):
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(formatter))
    ax.yaxis.set_minor_formatter(NullFormatter())


def _figure():
    fig = Figure(figsize=(11, 4.3))
    fig.subplots_adjust(left=LEFT, right=RIGHT, bottom=0.12, top=TOP)  # the same plot area in every chart
    return fig, fig.add_subplot()


def _finish(fig, ax, chart, xlabel, ylabel, handles=None, labels=None, gids=None):
    ax.set_xlabel(xlabel, gid=f"ohprof-xlabel-{chart}")
    ax.set_ylabel(ylabel, gid=f"ohprof-ylabel-{chart}")
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    last = [i for i, t in enumerate(labels) if t == NOT_DRAWN]          # the paths first, this one last
    order = [i for i in range(len(labels)) if i not in last] + last
    handles, labels = [handles[i] for i in order], [labels[i] for i in order]
    leg = fig.legend(handles, labels, loc="upper left", bbox_to_anchor=(LEGEND_X, TOP), fontsize=9, frameon=False)
    for i, t in enumerate(leg.get_texts()):
        t.set_gid((gids or {}).get(t.get_text(), f"ohprof-legend-{chart}-{i}"))
    fig.draw_without_rendering()
    over = leg.get_window_extent().x1 - fig.bbox.x1 + 8        # long path names: widen, same plot area
    if over > 0:
        w, h = fig.get_size_inches()
        scale = w / (w + over / fig.dpi)
        fig.set_size_inches(w + over / fig.dpi, h)
        fig.subplots_adjust(left=LEFT * scale, right=RIGHT * scale)
        leg.set_bbox_to_anchor((LEGEND_X * scale, TOP), transform=fig.transFigure)
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": f"ohprof-{chart}"}):  # stable ids, unique per chart
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]                               # no XML prolog or DOCTYPE inline
    return re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)


def load(report_path):
    try:
        report = _report_file.read(report_path)                     # plain or gzip
    except OSError as e:
        raise OSError(f"cannot read {report_path}: {e.strerror or e}") from None
    except _report_file.NOT_JSON as e:                              # JSONDecodeError, bad UTF-8, a cut gzip
        raise ValueError(f"{report_path}: not a JSON report ({e})") from None
    check(report, report_path)
    return report


def check(report, name):
    """Raises ValueError, naming `name`, for a report that is not a sweep or has no measured point to draw."""
    if not isinstance(report, dict) or report.get("kind") != "sweep":
        raise ValueError(f"{name}: not a sweep report (kind is not \"sweep\")")
    points = report.get("points")
    if not isinstance(points, list) or not any(isinstance(p, dict) and p.get("status") == "measured" and p.get("paths")
                                               for p in points):
        raise ValueError(f"{name}: no measured point to draw")


def page(report, name):
    """The page of a sweep report already read (a dict): render_page after check, with a malformed report's
    error as write_page gives it (ValueError naming `name`)."""
    check(report, name)
    try:
        return render_page(report)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError, ArithmeticError) as e:
        raise ValueError(f"{name}: malformed sweep report ({type(e).__name__}: {e})") from None


def series(report):
    """{path: {value: path entry}} over the measured points, in --paths order."""
    out = {name: {} for name in report["config"]["paths"]}
    for pt in report["points"]:
        if pt.get("status") == "measured":
            for e in pt.get("paths", []):
                out.setdefault(e["name"], {})[pt["value"]] = e
    return {k: v for k, v in out.items() if v}


def ratio_to_baseline(report, path):
    """{value: (ratio, low, high)} of path / baseline: the report's points[i].paths[j].to_baseline."""
    rows = {}
    for pt in report["points"]:
        for e in pt.get("paths", []) if pt.get("status") == "measured" else []:
            if e["name"] == path and e.get("to_baseline"):
                r = e["to_baseline"]
                rows[pt["value"]] = (r["ratio"], r["low"], r["high"])
    return rows


def _along(xs, rows, f):
    """f(rows[x]) for every point of the sweep, NaN (a gap in the line) where rows has none."""
    return [f(rows[x]) if x in rows else math.nan for x in xs]


def _mark_not_drawn(ax, xs_bad):
    if xs_bad:
        ax.plot(xs_bad, [0] * len(xs_bad), ls="none", marker="x", ms=7, mew=1.5, color="0.4", clip_on=False,
                transform=ax.get_xaxis_transform(), label=NOT_DRAWN)


def _bridge(ax, xs, ys, color):
    """A faint dashed line across the points not measured, under the gapped series."""
    keep = [(x, y) for x, y in zip(xs, ys) if not math.isnan(y)]
    if len(keep) < len(xs):
        ax.plot([x for x, _ in keep], [y for _, y in keep], ls=(0, (3, 3)), lw=0.9, alpha=0.6, color=color)


def draw(report):
    cfg, analysis = report["config"], report.get("analysis") or {}
    axis, values = cfg["axis"]["name"], sorted(cfg["axis"]["values"])
    xs = sorted(pt["value"] for pt in report["points"])
    bad = [pt["value"] for pt in report["points"] if pt.get("status") != "measured"]
    data = series(report)
    color = {p: COLORS[i % len(COLORS)] for i, p in enumerate(data)}
    fits = {f["path"]: f for f in analysis.get("fits", [])}
    svgs = {}
    line = {"marker": "o", "ms": 4, "lw": 1.6}

    fig, ax = _figure()
    for p, rows in data.items():
        err = _along(xs, rows, lambda e: 1.96 * (e.get("latency_se_ns") or 0) / 1e3)
        ys = _along(xs, rows, lambda e: e["latency_ns"] / 1e3)
        bars = ax.errorbar(xs, ys, yerr=err, capsize=2, color=color[p], label=p, **line)
        _bridge(ax, xs, ys, color[p])
        bars.lines[0].set_gid(f"ohprof-latency-{_id(p)}")
        for j, coll in enumerate(bars.lines[2]):
            coll.set_gid(f"ohprof-latency-err-{_id(p)}-{j}")
        f = fits.get(p) or {}
        used = f.get("points_used") or []
        if f.get("fixed_ns") is not None and f.get("per_item_ns") is not None and used:
            # the line over the values it describes (docs/sweep.md, "Fit"), not the points it left out beyond them
            lo, hi = min(used), max(used)
            fx = [lo * (hi / lo) ** (i / 60) for i in range(61)]
            fy = [(f["fixed_ns"] + f["per_item_ns"] * x) / 1e3 for x in fx]
            if min(fy) > 0:
                ax.plot(fx, fy, ls=":", lw=1, color=color[p], gid=f"ohprof-fit-{_id(p)}")
    _mark_not_drawn(ax, bad)
    _axis_ticks(ax, values)
    _log_y(ax, _plain)
    svgs["latency"] = _finish(fig, ax, "latency", axis, "latency: median wall time (µs)")

    fig, ax = _figure()
    for p, rows in data.items():
        ys = _along(xs, rows, lambda e: e["throughput_per_s"])
        ax.plot(xs, ys, color=color[p], label=p, gid=f"ohprof-throughput-{_id(p)}", **line)
        _bridge(ax, xs, ys, color[p])
    _mark_not_drawn(ax, bad)
    _axis_ticks(ax, values)
    _log_y(ax, _si)
    svgs["throughput"] = _finish(fig, ax, "throughput", axis, f"throughput ({axis} items/s)")

    fig, ax = _figure()
    baseline, tol = analysis.get("baseline"), cfg.get("tolerance", 0.05)
    tol_label = f"tolerance band 1 ± {tol:g}"
    ax.axhspan(1 - tol, 1 + tol, color="0.5", alpha=0.18, lw=0, gid="ohprof-tolerance", label=tol_label)
    ax.axhline(1, color="0.3", lw=0.9, gid="ohprof-one")
    ys = [1 - tol, 1 + tol]
    for p in data:
        rows = ratio_to_baseline(report, p) if p != baseline else {}
        if not rows:
            continue
        ys += [r[1] for r in rows.values()] + [r[2] for r in rows.values() if math.isfinite(r[2])]
        ax.fill_between(xs, _along(xs, rows, lambda r: r[1]), _along(xs, rows, lambda r: r[2]), color=color[p],
                        alpha=0.25, lw=0, gid=f"ohprof-band-{_id(p)}")
        ratios = _along(xs, rows, lambda r: r[0])
        ax.plot(xs, ratios, color=color[p], label=f"{p} / {baseline}", gid=f"ohprof-ratio-{_id(p)}", **line)
        _bridge(ax, xs, ratios, color[p])
    _mark_not_drawn(ax, bad)
    handles, labels = ax.get_legend_handles_labels()
    band = labels.index(tol_label)                                 # after the ratios
    handles, labels = handles[band + 1:] + handles[:band + 1], labels[band + 1:] + labels[:band + 1]
    gids = {}
    for pair in analysis.get("pairs", []):
        if baseline not in (pair["slower"], pair["faster"]):
            continue
        other = pair["faster"] if pair["slower"] == baseline else pair["slower"]
        name = f"{other}/{baseline}"
        if pair.get("crossover") is None:
            labels.append(f"{name}: no crossover in the range")
            handles.append(Line2D([], [], color="none"))
            gids[labels[-1]] = f"ohprof-nocrossover-{_id(other)}"
            continue
        xc = pair["crossover"]
        ax.axvline(xc, color=color.get(other, "0.3"), ls="--", lw=1.2, gid=f"ohprof-crossover-{_id(other)}")
        ax.text(xc, 0.97, f" {name} crossover: {axis} {xc:g} ", rotation=90, va="top", ha="right",
                fontsize=8.5, transform=ax.get_xaxis_transform(), gid=f"ohprof-crosslabel-{_id(other)}",
                bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.8})
    _axis_ticks(ax, values)
    _log_y(ax, _plain)
    ax.set_ylim(min(ys) / 1.15, max(ys) * 1.15)
    svgs["ratio"] = _finish(fig, ax, "ratio", axis, f"ratio: path time / {baseline} time", handles, labels,
                            gids)
    return svgs


def _fits_table(report, axis):
    rows = []
    for f in (report.get("analysis") or {}).get("fits", []):
        def iv(v, lo, hi):
            return fmt_ns(v) if v is None or lo is None else f"{fmt_ns(v)} [{fmt_ns(lo)}, {fmt_ns(hi)}]"
        left = ", ".join(f"{o['value']:g} (e = {o['relative_residual']:+.0%})" for o in f.get("points_left_out", []))
        # The path's kernels do not record themselves at that point: its host time holds them, a bound
        # (docs/sweep.md, "Fit": host_upper_bound), and so is c − host. The signs are the C++ printers' (their
        # Bound, include/ohprof/model/bound.hpp: "≤" at most, "≥" at least); sweep_page_check compares the two.
        bound = bool(f.get("host_upper_bound"))

        def host_cell(f, bound=bound):
            host = f"{fmt_ns(f.get('host_at_smallest_ns'))} ({axis} {f.get('smallest')})"
            return (f"≤{host}; its kernels do not record themselves, or device ops without a launch call leave "
                    "its queue open") if bound else host

        # c − host only where c describes the smallest point: a fit that left it out describes the others
        # (docs/sweep.md, "Fit"; a report written before 2026-12-07 still holds a number there)
        used = f.get("points_used") or []
        if f.get("smallest") is not None and used and f["smallest"] not in used:
            minus = f"– ({axis} {f['smallest']} is outside the fit: c describes {axis} {min(used)} … {max(used)})"
        else:
            minus = ("≥" if bound else "") + fmt_ns(f.get("fixed_minus_host_ns"))
        cells = [f["path"], f["status"], iv(f.get("fixed_ns"), f.get("fixed_low_ns"), f.get("fixed_high_ns")),
                 iv(f.get("per_item_ns"), f.get("per_item_low_ns"), f.get("per_item_high_ns")),
                 host_cell(f), minus, left or "none"]
        rows.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells) + "</tr>")
    head = ["path", "status", "fixed cost c [95%]", "per-item cost k [95%]", "host time at the smallest point",
            "c − host", "points left out"]
    return ("<table id=\"ohprof-fits\"><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"
            + "".join(rows) + "</table>")


def render_page(report):
    cfg = report["config"]
    axis, values = cfg["axis"]["name"], sorted(cfg["axis"]["values"])
    baseline = (report.get("analysis") or {}).get("baseline")
    with matplotlib.rc_context(RC):
        svgs = draw(report)
    esc = html.escape
    title = (f"{cfg['model']} on {cfg['device']}: {axis} {values[0]:g} … {values[-1]:g} "
             f"({len(values)} values), paths {', '.join(cfg['paths'])}")
    ctx = report.get("context") or {}
    sub = (f"ohprof {ctx.get('ohprof_version', '?')}, {ctx.get('date', '')}, stop: {report.get('stop', '?')}; "
           f"tolerance {cfg.get('tolerance', 0.05):g}, fit tolerance {cfg.get('fit_tolerance', 0.1):g}")
    captions = {
        "latency": f"Median wall time per call against {axis}, log–log; bars: ±1.96 standard errors of the "
                   "median (usually smaller than the marker). Dotted: each path's fit c + k·x, over the values it describes (table below).",
        "throughput": f"{axis} items per second (value × 10⁹ / median wall time), log–log.",
        "ratio": f"Each path's median time over {baseline}'s, with its 95% interval (shaded). Grey band: the "
                 "tolerance around 1; a dashed line marks the crossover, from which the pair's 95% interval reaches the "
                 "band at every point to the end of the range (the paths may be that close, not shown to be).",
    }
    charts = "".join(f"<figure><div id=\"ohprof-chart-{k}\">{svgs[k]}</div>"
                     f"<figcaption>{esc(captions[k])}</figcaption></figure>" for k in ("latency", "throughput", "ratio"))
    skipped = [f"<li>{esc(axis)} {p['value']:g}: {esc(p.get('status', '?'))}"
               + (f" (exit code {p['exit_code']})" if p.get("exit_code") else "")
               + f" — {esc(p.get('reason') or 'no reason given')}</li>"
               for p in report["points"] if p.get("status") != "measured"]
    warns = [f"<li>{esc(w.get('code', ''))}: {esc(w.get('message', ''))}</li>" for w in report.get("warnings", [])]
    parts = [
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
        f"<title>ohprof sweep: {esc(cfg['model'])}</title><style>",
        "body{font-family:'DejaVu Sans',sans-serif;margin:1.5em;color:#222;max-width:1100px}",
        "h1{font-size:1.25em;margin:0 0 .2em} .sub{color:#555;font-size:.9em;margin:0 0 1em}",
        "figure{margin:0 0 1.5em} figcaption{font-size:.9em;color:#444;margin-top:.2em}",
        "svg{max-width:100%;height:auto} table{border-collapse:collapse;font-size:.9em}",
        "td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left} th{background:#f3f3f3}",
        "td:first-child{white-space:nowrap} table{max-width:100%}",
        "</style></head><body>",
        f"<h1 id=\"ohprof-title\">{esc(title)}</h1><p class=\"sub\">{esc(sub)}</p>",
        charts,
        "<h2>Fits: time(x) = c + k·x</h2>", _fits_table(report, axis),
        f"<h2>Points not drawn</h2><ul id=\"ohprof-not-drawn\">{''.join(skipped) or '<li>none</li>'}</ul>",
        f"<h2>Warnings</h2><ul>{''.join(warns)}</ul>" if warns else "",
        "</body></html>\n",
    ]
    return "\n".join(parts)


def write_page(report_path, out_path):
    """Draws REPORT into OUT, atomically. Raises ValueError for a report it cannot draw, OSError for a file
    it cannot read or write; both with a one-line message."""
    drawn = page(load(report_path), report_path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".sweep-", suffix=".html.tmp",
                                   dir=os.path.dirname(os.path.abspath(out_path)))
    except OSError as e:
        raise OSError(f"cannot write {out_path}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(drawn)
        os.chmod(tmp, 0o644)                                    # mkstemp's 0600 is not for a page to share
        os.replace(tmp, out_path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main(argv):
    if len(argv) != 2:
        print("usage: python -m ohprof._sweep_plot REPORT.json OUT.html", file=sys.stderr)
        return 2
    try:
        write_page(argv[0], argv[1])
    except (ValueError, OSError) as e:
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f"ohprof._sweep_plot: error: {msg}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
