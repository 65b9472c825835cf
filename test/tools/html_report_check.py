#!/usr/bin/env python3
"""The HTML page of a report (--export-html, docs/reports.md "HTML"), laid out by a real browser and
checked against the report's JSON.

    html_report_check.py --binary build/ohprof --source-dir . [--outdir DIR] [--screenshot] [--self-test]
    html_report_check.py --page PAGE.html --report REPORT.json [--outdir DIR] [--screenshot]
    html_report_check.py --binary build/ohprof --run compare ARGS...   # a live run's page (CTest html_report_of_a_compare)

With --binary and --source-dir, runs `ohprof analyze` on real traces of test/data/traces with --export-html and
--export-json; with --page, checks a page made elsewhere (a live `compare`'s). Loads each page in
headless Chromium (--dump-dom) with a script this test injects, which measures every SVG element whose
class starts with `ohprof-` (its box, whether it lies inside its SVG, its data- attributes) and counts
the rows of each table. Checks, from the JSON alone (`paths[]` with role "path"):

  * the split bars: a path with an available split and a positive `split.summary.totals.wall_ns` has one
    segment for each part with time in its totals (busy; then blocking, launch, other_api, harness,
    framework from `totals.host_states` and device_wait from `totals.gpu`; for CPU kernels busy and
    dispatch `totals.dispatch_ns`; where `split.verdict.host_bound_share_least` is set, busy, host_bound
    (that share of the wall), host_bound_or_device_wait (the rest of `gpu.host_bound_ns`) and device_wait,
    and each iteration's from its `host_bound_least_ns`), and no other; each segment's width over the bar's is the part's
    share of `totals.wall_ns` within 0.2 percentage points (plus a pixel); every segment drawn inside its SVG;
  * the distributions: each path with 5 samples or more has a histogram with bars and a median line
    inside it; the others none;
  * analyze: each iteration (the first 400) has a column whose parts' heights are the iteration's parts
    (`split.iterations[i]`) over the tallest iteration's wall time, within a pixel;
  * the kernel table of each path has min(15, len(split.kernels)) rows;
  * each path's name, verdict and execution check (`execution.text`) are in the page's text; no external URL, no <script>.

With --binary and --source-dir it also diffs real reports (`ohprof diff --export-html --export-json`: the
two runs of test/data/diff, and docs/results' deployment report against itself) and checks each diff's
page against the diff's JSON: the outcome's word, one row per path (`paths`), per path with a split
(`paths[].split`) and per deployment figure (`deployment`), every path's name and verdict in the text.

--screenshot writes DIR/<case>.png and checks with Pillow (when present) that it is not blank.
--self-test then breaks copies of the first page (a segment removed, a segment widened, an iteration's
column dropped, an external script) and of a diff's page (a path's row removed, the outcome unsaid), and
fails unless the check catches every one.

Prints one line per failed check; exits 1 on failure, 0 on success, 77 (skipped) without Chromium.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_check import (SKIP, check_laid_out_page, check_mutants, chromium_binary,  # noqa: E402
                           parse, static_page_fails)

TRACES = ("nccl_data", "queue_full_training", "event_sync_multi_stream", "triton_example", "cpu_only", "mtia_training")

MEASURE = """<script>
window.addEventListener("load", function () {
  var out = {svg: [], tables: []};
  document.querySelectorAll("svg [class^='ohprof-']").forEach(function (el) {
    var r = el.getBoundingClientRect(), s = el.ownerSVGElement.getBoundingClientRect();
    out.svg.push({cls: el.getAttribute("class"), path: el.getAttribute("data-path") ||
                    el.ownerSVGElement.getAttribute("data-path"),
                  part: el.getAttribute("data-part"), iteration: el.getAttribute("data-iteration"),
                  w: r.width, h: r.height, x: r.left - s.left,
                  inside: r.left >= s.left - 1 && r.right <= s.right + 1 && r.top >= s.top - 1 && r.bottom <= s.bottom + 1});
  });
  document.querySelectorAll("table[class^='ohprof-']").forEach(function (t) {
    out.tables.push({cls: t.getAttribute("class"), path: t.getAttribute("data-path"),
                     rows: t.querySelectorAll("tr").length - 1});
  });
  document.getElementById("ohprof-render-check").textContent = JSON.stringify(out);
});
</script>"""

GPU_PARTS = (("busy", ("gpu", "busy_ns")), ("blocking", ("host_states", "blocking_ns")),
             ("launch", ("host_states", "launch_ns")), ("other_api", ("host_states", "other_api_ns")),
             ("harness", ("host_states", "harness_ns")), ("framework", ("host_states", "framework_ns")),
             ("device_wait", ("gpu", "device_wait_ns")))


def parts_of(window, cpu, least=None):
    """{part: ns} of a split window (totals or an iteration), the parts with time only. `least`: where the
    path's queue is open (split.verdict.host_bound_share_least not null), the window's least host-bound time:
    then busy, host_bound (that least), host_bound_or_device_wait (the rest of gpu.host_bound_ns), device_wait."""
    if cpu:
        busy = window["gpu"]["busy_ns"]
        parts = {"busy": busy, "dispatch": window.get("dispatch_ns") or 0}
    elif least is not None:
        most = window["gpu"]["host_bound_ns"]
        parts = {"busy": window["gpu"]["busy_ns"], "host_bound": least, "host_bound_or_device_wait": most - least,
                 "device_wait": window["gpu"]["device_wait_ns"]}
    else:
        parts = {name: window[a][b] for name, (a, b) in GPU_PARTS}
    return {k: v for k, v in parts.items() if v > 0}


def least_of(split, window, totals):
    """The least host-bound time of a window where the path's queue is open; None where it is not."""
    share = (split.get("verdict") or {}).get("host_bound_share_least")
    if share is None:
        return None
    if totals:
        return round(share * window["wall_ns"])
    return window.get("host_bound_least_ns") or 0


def asked(report):
    return [p for p in report["paths"] if p.get("role", "path") == "path"]


def check(page, report, measured, dom):
    fails = []
    if measured is None:
        return ["no ohprof-render-check result in the dumped DOM: the injected script did not run"]
    svg = measured["svg"]
    for p in asked(report):
        name = p["name"]
        split = p.get("split") or {}
        totals = (split.get("summary") or {}).get("totals") if split.get("available") else None
        segs = [e for e in svg if e["cls"] == "ohprof-seg" and e["path"] == name]
        if totals and totals["wall_ns"] > 0:
            cpu = split["summary"].get("cpu_kernels", False)
            want = parts_of(totals, cpu, least_of(split, totals, True))
            got = [e["part"] for e in segs]
            if sorted(got) != sorted(want):
                fails.append(f"{name}: split bar parts {got}, the JSON's {sorted(want)}")
            bar = sum(e["w"] for e in segs)
            for e in segs:
                if e["part"] in want and bar > 0:
                    share = want[e["part"]] / totals["wall_ns"]
                    if abs(e["w"] / bar - share) > 0.002 + 1 / bar:
                        fails.append(f"{name}: {e['part']} is {e['w'] / bar:.4f} of the bar, {share:.4f} of the wall time")
                # a part under half a hundredth of a pixel is written 0.00 wide (its title still gives it)
                tiny = e["part"] in want and bar * want[e["part"]] / totals["wall_ns"] < 0.005
                if not e["inside"] or not (e["w"] > 0 or tiny):
                    fails.append(f"{name}: {e['part']} segment not drawn inside its svg ({e['w']:.1f} px wide)")
        elif segs:
            fails.append(f"{name}: a split bar, but the JSON has no split")
        hist = [e for e in svg if e["path"] == name and e["cls"] in ("ohprof-hist-bar", "ohprof-median")]
        if len(p["samples_ns"]) >= 5:
            bars = [e for e in hist if e["cls"] == "ohprof-hist-bar"]
            if not bars or not any(e["h"] > 0 for e in bars):
                fails.append(f"{name}: no histogram bars for {len(p['samples_ns'])} samples")
            if not any(e["cls"] == "ohprof-median" and e["inside"] for e in hist):
                fails.append(f"{name}: no median line inside the histogram")
        elif hist:
            fails.append(f"{name}: a histogram of {len(p['samples_ns'])} samples (fewer than 5 get none)")
        if report["kind"] == "analyze" and totals:
            iterations = split.get("iterations", [])[:400]
            cols = [e for e in svg if e["cls"] == "ohprof-iter-seg" and e["path"] == name]
            tallest = max((it["wall_ns"] for it in iterations), default=0)
            by_iteration = {}
            for e in cols:
                by_iteration.setdefault(e["iteration"], []).append(e)
            scale = max((sum(x["h"] for x in v) for v in by_iteration.values()), default=0)
            if len(by_iteration) != len([it for it in iterations if parts_of(it, cpu, least_of(split, it, False))]):
                fails.append(f"{name}: {len(by_iteration)} iteration columns, {len(iterations)} iterations in the JSON")
            for it in iterations:
                drawn = {e["part"]: e["h"] for e in by_iteration.get(str(it["index"]), [])}
                for part, ns in parts_of(it, cpu, least_of(split, it, False)).items():
                    want_h = scale * ns / tallest if tallest else 0
                    if abs(drawn.get(part, 0) - want_h) > 1.0:
                        fails.append(f"{name}: iteration {it['index']} {part} {drawn.get(part, 0):.1f} px high, "
                                     f"{want_h:.1f} px from the JSON")
        kernels = split.get("kernels") or [] if totals else []
        tables = [t for t in measured["tables"] if t["cls"] == "ohprof-kernels" and t["path"] == name]
        if kernels and (not tables or tables[0]["rows"] != min(15, len(kernels))):
            fails.append(f"{name}: kernel table of {tables[0]['rows'] if tables else 'no'} rows, "
                         f"{min(15, len(kernels))} expected")
    text, _ = parse(dom)
    for p in asked(report):
        if p["name"] not in text:
            fails.append(f"{p['name']}: not named in the page")
        verdict = ((p.get("split") or {}).get("verdict") or {}).get("verdict")
        if verdict and verdict not in text:
            fails.append(f"{p['name']}: its verdict {verdict!r} is not in the page")
        ran = (p.get("execution") or {}).get("text")
        if ran and " ".join(ran.split()) not in " ".join(text.split()):
            fails.append(f"{p['name']}: its execution check {ran!r} is not in the page")
    fails += static_page_fails(page, dom, 'docs/reports.md, "HTML"')
    return fails


OUTCOME_WORDS = {"regression": "Regression", "no_regression": "No regression", "incomparable": "Incomparable",
                 "nothing_judged": "Unknown"}


def check_diff(page, diff, measured, dom):
    """A diff's page (docs/diff.md, "Outputs") against the diff's JSON."""
    fails = []
    rows = {t["cls"]: t["rows"] for t in measured["tables"]}
    with_split = sum(1 for p in diff["paths"] if p.get("split"))
    for cls, want in (("ohprof-diff-paths", len(diff["paths"])), ("ohprof-diff-split", with_split),
                      ("ohprof-diff-deployment", len(diff["deployment"]))):
        if rows.get(cls, 0) != want:
            fails.append(f"table {cls}: {rows.get(cls, 0)} rows, the JSON has {want}")
    text = re.sub(r"<[^>]+>", "", dom)
    word = OUTCOME_WORDS[diff["outcome"]]
    if f"<strong>{word}</strong>" not in dom:
        fails.append(f"the outcome '{word}' is not in the page")
    for p in diff["paths"]:
        if p["name"] not in text:
            fails.append(f"path {p['name']} is not in the page")
    fails += static_page_fails(page, dom, 'docs/reports.md, "HTML"')
    return fails


def diff_cases(binary, source_dir, outdir):
    """The diffs of real reports: their pages and JSON, or an error line."""
    pairs = {"diff-two-runs": ("test/data/diff/tiny-mlp-b1.json.gz", "test/data/diff/tiny-mlp-b1-run2.json.gz"),
             "diff-deployment": ("docs/results/cpu-deploy-tiny-mlp-2026-12-07.json.gz",
                                 "docs/results/cpu-deploy-tiny-mlp-2026-12-07.json.gz")}
    cases = []
    for tag, (base, new) in pairs.items():
        page, js = os.path.join(outdir, tag + ".html"), os.path.join(outdir, tag + ".json")
        p = subprocess.run([binary, "diff", os.path.join(source_dir, base), os.path.join(source_dir, new), "--threshold", "0.02",
                            "--export-html", page, "--export-json", js, "--quiet"], capture_output=True, text=True)
        if not os.path.isfile(page) or not os.path.isfile(js):
            return None, f"{tag}: ohprof diff wrote no page (exit {p.returncode}: {p.stderr.strip()[-200:]})"
        with open(js, encoding="utf-8") as f:
            cases.append((tag, page, json.load(f)))
    return cases, None


def check_page(binary, page, report, outdir, tag, screenshot):
    if report.get("kind") == "diff":
        return check_laid_out_page(binary, page, MEASURE, lambda measured, dom: check_diff(page, report, measured, dom),
                                   outdir, tag, screenshot, who="html_report_check")
    return check_laid_out_page(binary, page, MEASURE, lambda measured, dom: check(page, report, measured, dom), outdir,
                               tag, screenshot, who="html_report_check")


def self_test(binary, page, report, outdir):
    with open(page, encoding="utf-8") as f:
        good = f.read()
    seg = re.search(r'<rect class="ohprof-seg"[^>]*>.*?</rect>\n', good)
    col = re.search(r'<rect class="ohprof-iter-seg"[^>]*>.*?</rect>\n', good)
    mutants = {"a split segment removed": good.replace(seg.group(0), "", 1) if seg else good,
               "a split segment widened": re.sub(r'(class="ohprof-seg"[^>]* width=")([0-9.]+)"',
                                                 lambda m: f'{m.group(1)}{float(m.group(2)) * 1.5 + 20:.2f}"', good, count=1),
               "an iteration's part dropped": good.replace(col.group(0), "", 1) if col else good,
               "an external script": good.replace("</head>", '<script src="https://cdn.example.com/x.js"></script></head>')}
    return check_mutants(good, mutants, outdir, lambda path: check_page(binary, path, report, outdir, "self-test", False))


def diff_self_test(binary, page, diff, outdir):
    with open(page, encoding="utf-8") as f:
        good = f.read()
    row = re.search(r'<tr><td><code>[^<]*</code></td>.*?</tr>\n', good)
    mutants = {"a diff's path row removed": good.replace(row.group(0), "", 1) if row else good,
               "a diff's outcome unsaid": re.sub(r"<strong>(Regression|No regression)</strong>", "", good, count=1)}
    return check_mutants(good, mutants, outdir, lambda path: check_page(binary, path, diff, outdir, "self-test", False))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", help="ohprof, to make pages of the real traces")
    ap.add_argument("--source-dir")
    ap.add_argument("--page")
    ap.add_argument("--report")
    ap.add_argument("--outdir")
    ap.add_argument("--screenshot", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--run", nargs=argparse.REMAINDER, help="ohprof's arguments for one live run, whose page is checked")
    args = ap.parse_args()
    browser = chromium_binary()
    if browser is None:
        print("html_report_check: no chromium or chromium-browser on PATH: skipped")
        return SKIP
    outdir = args.outdir or tempfile.mkdtemp(prefix="ohprof-html-check-")
    os.makedirs(outdir, exist_ok=True)
    cases = []
    if args.page:
        with open(args.report, encoding="utf-8") as f:
            cases.append(("page", args.page, json.load(f)))
    if args.binary and args.run:
        page, js = os.path.join(outdir, "run.html"), os.path.join(outdir, "run.json")
        p = subprocess.run([args.binary, *args.run, "--export-html", page, "--export-json", js, "--quiet"],
                           capture_output=True, text=True)
        if p.returncode != 0 or not os.path.isfile(page):
            print(f"ohprof {' '.join(args.run)}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
            return 1
        with open(js, encoding="utf-8") as f:
            cases.append(("run", page, json.load(f)))
    elif args.binary:
        for trace in TRACES:
            page, js = os.path.join(outdir, trace + ".html"), os.path.join(outdir, trace + ".json")
            src = os.path.join(args.source_dir, "test", "data", "traces", trace + ".json.gz")
            p = subprocess.run([args.binary, "analyze", src, "--export-html", page, "--export-json", js, "--quiet"],
                               capture_output=True, text=True)
            if not os.path.isfile(page):
                print(f"{trace}: ohprof analyze wrote no page (exit {p.returncode}: {p.stderr.strip()[-200:]})")
                return 1
            with open(js, encoding="utf-8") as f:
                cases.append((trace, page, json.load(f)))
        diffs, error = diff_cases(args.binary, args.source_dir, outdir)
        if error:
            print(error)
            return 1
        cases += diffs
    if not cases:
        print("html_report_check: give --binary and --source-dir, or --page and --report")
        return 1
    failed = 0
    for tag, page, report in cases:
        fails = check_page(browser, page, report, outdir, tag, args.screenshot)
        for line in fails:
            print(f"{tag}: {line}")
        print(f"html_report_check: {tag}: " + (f"{len(fails)} failure(s)" if fails else "ok"))
        failed += bool(fails)
    if args.self_test and not failed:
        tag, page, report = next((c for c in cases if c[0] == "queue_full_training"), cases[0])
        if not self_test(browser, page, report, outdir):
            print("self-test: a broken page passed the check")
            failed += 1
        diff_case = next((c for c in cases if c[0] == "diff-two-runs"), None)
        if diff_case and not diff_self_test(browser, diff_case[1], diff_case[2], outdir):
            print("self-test: a broken diff page passed the check")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
