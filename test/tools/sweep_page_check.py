#!/usr/bin/env python3
"""The sweep picture (python/ohprof/_sweep_plot.py), drawn from a report and laid out by a real browser.

  sweep_page_check.py PLOT_SCRIPT REPORT.json OUTDIR [--screenshot] [--self-test]

Runs PLOT_SCRIPT with this interpreter to write OUTDIR/sweep.html, loads it in headless Chromium
(--dump-dom) with a script this test injects, and reads what that script measured (<pre id="ohprof-render-check">: each
ohprof-* element of the SVGs, its bounding box, whether it lies inside its SVG, its text). Checks, from
the report: every measured path has a latency and a throughput series, every path but the baseline a
ratio line and a band, all drawn with a non-empty box inside the SVG; the tolerance band; a crossover
line and label for each pair with the baseline that has a crossover, the "no crossover" note for the
others; the axis labels; each path in the legends; the reason of every point not measured in the page;
no http(s) URL in any src or href (nothing fetched at view time).
--screenshot also writes OUTDIR/sweep.png and checks with Pillow that it is not blank.
--self-test then checks mutated copies of the page (a series removed, a band emptied, an external
script, a reason dropped, a fit's bound flipped, the ratio caption's qualification dropped) and fails
unless the check catches every one. Each fit's row must write its host time as a bound exactly where
the report's host_upper_bound says so.

Prints one line per failed check; exits 1 on failure, 0 on success, 77 (skipped) without Chromium.
"""
import argparse
import html
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_check import (SKIP, check_mutants, check_screenshot, chromium, chromium_binary,  # noqa: E402
                           instrumented, parse, render_check, static_page_fails)

CHARTS = ("latency", "throughput", "ratio")


def sid(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "-", name)


# What the browser laid out: injected by this test into a copy of the page (the page itself has no
# script), it measures every element whose id starts with ohprof- inside an svg and writes the result
# into <pre id="ohprof-render-check">.
CHECK_SCRIPT = """<script>
window.addEventListener("load", function () {
  var out = {};
  document.querySelectorAll("svg [id^='ohprof-']").forEach(function (el) {
    var b = el.getBBox(), r = el.getBoundingClientRect(), s = el.ownerSVGElement.getBoundingClientRect();
    var e = {w: b.width, h: b.height, inside: r.left >= s.left - 1 && r.right <= s.right + 1 &&
             r.top >= s.top - 1 && r.bottom <= s.bottom + 1};
    if (el.tagName === "text" || el.querySelector("text")) e.text = el.textContent.trim();
    out[el.id] = e;
  });
  document.getElementById("ohprof-render-check").textContent = JSON.stringify(out);
});
</script>"""


def check(page_path, report, dom):
    """The failures (one line each) of the page at PAGE_PATH, laid out as DOM, against REPORT."""
    fails = []
    rc = render_check(dom)
    if rc is None:
        return ["no ohprof-render-check result in the dumped DOM: the page's script did not run"]
    points = {}                                                         # path: how many points measured
    for pt in report["points"]:
        for e in pt.get("paths", []) if pt.get("status") == "measured" else []:
            points[e["name"]] = points.get(e["name"], 0) + 1
    paths = list(points)
    analysis = report.get("analysis") or {}
    baseline, axis = analysis.get("baseline"), report["config"]["axis"]["name"]

    def drawn(eid, what, need_w=True, need_h=True):
        e = rc.get(eid)
        if e is None:
            fails.append(f"{eid}: missing ({what})")
        elif (need_w and not e["w"] > 0) or (need_h and not e["h"] > 0):
            fails.append(f"{eid}: empty box {e['w']:g} x {e['h']:g} ({what})")
        elif not e["inside"]:
            fails.append(f"{eid}: drawn outside its svg ({what})")
        return e or {}

    def text_of(eid, what, *needles):
        e = drawn(eid, what, need_h=False)
        t = e.get("text") or ""
        for n in needles:
            if e and n.lower() not in t.lower():
                fails.append(f"{eid}: text {t!r} does not contain {n!r} ({what})")

    for p in paths:
        drawn(f"ohprof-latency-{sid(p)}", f"latency of {p}")
        drawn(f"ohprof-throughput-{sid(p)}", f"throughput of {p}")
        if p != baseline:
            drawn(f"ohprof-ratio-{sid(p)}", f"ratio of {p} to {baseline}")
            drawn(f"ohprof-band-{sid(p)}", f"95% band of {p} / {baseline}", need_w=points[p] > 1)
    drawn("ohprof-tolerance", "tolerance band")
    for pair in analysis.get("pairs", []):
        if baseline not in (pair["slower"], pair["faster"]):
            continue
        other = pair["faster"] if pair["slower"] == baseline else pair["slower"]
        name = f"{other}/{baseline}"
        if pair.get("crossover") is None:
            text_of(f"ohprof-nocrossover-{sid(other)}", f"{name} without crossover", name, "no crossover")
        else:
            drawn(f"ohprof-crossover-{sid(other)}", f"{name} crossover line", need_w=False)
            text_of(f"ohprof-crosslabel-{sid(other)}", f"{name} crossover label", name, "crossover",
                    f"{pair['crossover']:g}")
    for chart, word in zip(CHARTS, CHARTS):
        text_of(f"ohprof-xlabel-{chart}", f"x axis of the {chart} chart", axis)
        text_of(f"ohprof-ylabel-{chart}", f"y axis of the {chart} chart", word)
        legend = [e.get("text", "") for k, e in rc.items() if k.startswith(f"ohprof-legend-{chart}-")]
        for p in paths:
            if (chart != "ratio" or p != baseline) and not any(re.search(rf"(^|\W){re.escape(p)}(\W|$)", t)
                                                               for t in legend):
                fails.append(f"legend of the {chart} chart: no entry names {p} (entries: {legend})")

    text, _ = parse(dom)
    for pt in report["points"]:
        if pt.get("status") != "measured" and (pt.get("reason") or "") not in text:
            fails.append(f"point {axis} {pt['value']} ({pt.get('status')}): reason {pt.get('reason')!r} "
                         "not in the page")
    # Each fit's row says its host time is a bound exactly where the report does (docs/sweep.md, "Fit":
    # host_upper_bound): "≤" and the reason in the host cell, "≥" on c − host; neither in another row.
    rows = fits_rows(dom)
    for fit in analysis.get("fits", []):
        cells = rows.get(fit["path"])
        if cells is None or len(cells) < 6:
            fails.append(f"fit of {fit['path']}: no row of its own in the fits table")
            continue
        host, minus = cells[4], cells[5]
        bound = bool(fit.get("host_upper_bound"))
        # where the fit left the smallest point out, c − host is not given (docs/sweep.md, "Fit")
        used = fit.get("points_used") or []
        outside = fit.get("smallest") is not None and bool(used) and fit["smallest"] not in used
        if outside != ("outside the fit" in minus):
            fails.append(f"fit of {fit['path']}: its c − host cell {minus!r}, and the smallest point is "
                         f"{'not ' if outside else ''}among those used {used}")
        said = host.startswith("≤") and "its queue open" in host and (outside or minus.startswith("≥"))
        unsaid = "≤" not in host and "its queue open" not in host and "≥" not in minus
        if bound and not said:
            fails.append(f"fit of {fit['path']}: its host time is a bound, and its row does not say so: {cells}")
        if not bound and not unsaid:
            fails.append(f"fit of {fit['path']}: its row calls its host time a bound, which the report does not: {cells}")
    # The ratio chart's caption says what a crossover shows, and not more (docs/sweep.md, "Crossover").
    if "may be that close, not shown to be" not in text:
        fails.append("the ratio chart's caption does not say that a crossover does not show the paths that close")
    fails += static_page_fails(page_path, dom, 'docs/sweep.md, "Outputs"')
    return fails


def fits_rows(dom):
    """The fits table's rows in DOM, by their first cell (the path): each row's cells' text."""
    table = re.search(r'<table id="ohprof-fits">(.*?)</table>', dom, re.S)
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table.group(1) if table else "", re.S):
        cells = [html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
        if cells:
            rows[cells[0]] = cells
    return rows


def element_span(markup, eid):
    """(start, end) of the <g id=EID> element in MARKUP (nested <g> counted)."""
    start, depth = markup.index(f'<g id="{eid}"'), 0
    for m in re.compile(r"<g[\s>]|</g>").finditer(markup, start):
        depth += -1 if m.group(0) == "</g>" else 1
        if depth == 0:
            return start, m.end()
    raise ValueError(f"unbalanced <g id={eid}>")


def self_test(binary, page, report, outdir):
    with open(page, encoding="utf-8") as f:
        good = f.read()
    paths = [e["name"] for pt in report["points"] if pt.get("status") == "measured" for e in pt["paths"]]
    victim, baseline = paths[-1], report["analysis"]["baseline"]
    other = next(p for p in paths if p != baseline)
    i, j = element_span(good, f"ohprof-latency-{sid(victim)}")
    k, l = element_span(good, f"ohprof-band-{sid(other)}")
    emptied = good[:k] + re.sub(r'\sd="[^"]*"', ' d="M 0 0"', good[k:l]) + good[l:]
    reason = next((pt["reason"] for pt in report["points"] if pt.get("status") != "measured" and pt.get("reason")),
                  None)
    mutants = {
        f"latency series of {victim} removed": good[:i] + good[j:],
        f"band of {other} emptied": emptied,
        "an external script": good.replace("</head>", '<script src="https://cdn.example.com/x.js"></script></head>'),
    }
    if reason:
        mutants["the failed point's reason dropped"] = good.replace(html.escape(reason), "")
    # the first fit's row with its bound flipped: a bound unsaid, or one said that the report does not hold
    table = re.search(r'<table id="ohprof-fits">.*?</tr>(<tr>.*?</tr>)', good, re.S)
    cells = re.findall(r"<td>(.*?)</td>", table.group(1), re.S)
    if "≤" in cells[4]:
        cells[4], cells[5] = cells[4].lstrip("≤").split(";")[0], cells[5].lstrip("≥")
    else:
        cells[4], cells[5] = f"≤{cells[4]}; its kernels do not record themselves", f"≥{cells[5]}"
    flipped = "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"
    mutants[f"the fit of {html.unescape(cells[0])}: its host time's bound flipped"] = (
        good[:table.start(1)] + flipped + good[table.end(1):])
    mutants["the ratio caption's qualification dropped"] = good.replace("may be that close, not shown to be", "")
    def check_file(path):
        dom, problem = chromium(binary, ["--virtual-time-budget=5000", "--dump-dom"], instrumented(path, CHECK_SCRIPT))
        return [problem] if problem else check(path, report, dom)

    return check_mutants(good, mutants, outdir, check_file)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("plot_script")
    ap.add_argument("report")
    ap.add_argument("outdir")
    ap.add_argument("--screenshot", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    page = os.path.join(args.outdir, "sweep.html")
    with open(args.report, encoding="utf-8") as f:
        report = json.load(f)
    p = subprocess.run([sys.executable, args.plot_script, args.report, page], capture_output=True, text=True)
    if p.returncode != 0 or not os.path.isfile(page):
        print(f"{args.plot_script} exited with {p.returncode}: {p.stderr.strip()}")
        return 1
    binary = chromium_binary()
    if binary is None:
        print("sweep_page_check: no chromium or chromium-browser on PATH: skipped")
        return SKIP
    dom, problem = chromium(binary, ["--virtual-time-budget=5000", "--dump-dom"], instrumented(page, CHECK_SCRIPT))
    fails = [problem] if problem else check(page, report, dom)
    with open(os.path.join(args.outdir, "sweep.dom.html"), "w", encoding="utf-8") as f:
        f.write(dom)
    if args.screenshot:
        png = os.path.join(args.outdir, "sweep.png")
        _, problem = chromium(binary, [f"--screenshot={png}", "--window-size=1200,2400"], page)
        shot = [problem] if problem else check_screenshot(png)
        if shot is None:
            print("sweep_page_check: Pillow is not installed: screenshot not checked")
        else:
            fails += shot
    for line in fails:
        print(line)
    if args.self_test and not fails and not self_test(binary, page, report, args.outdir):
        fails.append("self-test: a broken page passed the check")
    print(f"sweep_page_check: {page}: " + (f"{len(fails)} failure(s)" if fails else "ok"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
