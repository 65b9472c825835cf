#!/usr/bin/env python3
"""The HTML page of the ranks of a job (`ohprof analyze TRACE... --export-html`, docs/ranks.md), laid out
by headless Chromium and checked against the report's JSON.

    ranks_page_check.py --binary build/ohprof --source-dir . [--outdir DIR] [--screenshot] [--self-test]

Runs `ohprof analyze` on the real pair test/data/traces/sampled_rank-{0,1}.json.gz with --export-html and
--export-json, loads the page in Chromium with a script that measures every SVG element whose class
starts with `ohprof-` and counts the rows of each table, and checks, from the JSON alone:

  * each step with a present rank has its picture (`svg.ohprof-step`), with, per present rank, one
    segment for each of compute, communication, host-bound and device-wait with time
    (`steps[i].ranks[r]`: compute_ns, communication_ns, host_bound_ns, device_wait_ns), and no other; for
    a rank whose queue is open (`ranks[].verdict.queue_open`), host-bound is its `host_bound_least_ns` and
    the rest of `host_bound_ns` is the striped host_bound_or_device_wait (checked on the pair plus
    mtia_inference.json.gz as rank 2);
    each segment's width is its time over the step's `wall_max_ns` times the longest rank's bar, within a
    pixel; every segment drawn inside its SVG;
  * the straggler of each step is marked "rank N (slowest)" and no other rank is (a level step: none);
  * the ranks table has a row per rank (`ranks[]`), the steps table a row per step (`steps[]`);
  * no external URL, no <script>.

--self-test breaks copies of the page (a segment removed, a segment widened, the straggler's mark moved,
an external script) and fails unless the check catches every one. Exit 0, 1 on a failure, 77 (skipped)
without Chromium.
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

MEASURE = """<script>
window.addEventListener("load", function () {
  var out = {svg: [], tables: [], labels: []};
  document.querySelectorAll("svg [class^='ohprof-rank-seg']").forEach(function (el) {
    var r = el.getBoundingClientRect(), s = el.ownerSVGElement.getBoundingClientRect();
    out.svg.push({step: el.getAttribute("data-step"), rank: el.getAttribute("data-rank"), part: el.getAttribute("data-part"),
                  w: r.width, inside: r.left >= s.left - 1 && r.right <= s.right + 1 && r.top >= s.top - 1 && r.bottom <= s.bottom + 1});
  });
  document.querySelectorAll("svg.ohprof-step").forEach(function (svg) {
    svg.querySelectorAll(".ohprof-rank-label").forEach(function (t) {
      out.labels.push({step: svg.getAttribute("data-step"), text: t.textContent});
    });
  });
  document.querySelectorAll("table[class^='ohprof-']").forEach(function (t) {
    out.tables.push({cls: t.getAttribute("class"), rows: t.querySelectorAll("tr").length - 1});
  });
  document.getElementById("ohprof-render-check").textContent = JSON.stringify(out);
});
</script>"""

PARTS = (("compute", "compute_ns"), ("communication", "communication_ns"), ("host_bound", "host_bound_ns"),
         ("device_wait", "device_wait_ns"))


def parts_of(r, open_ranks):
    """{part: ns} of a rank's bar in a step, the parts with time: a rank whose queue is open (its digest's
    verdict.queue_open) draws the least host-bound time (host_bound_least_ns, 0 when null), the rest striped
    (host_bound_or_device_wait) and device-wait in place of host-bound and device-wait."""
    if r["rank"] in open_ranks:
        least = min(max(r.get("host_bound_least_ns") or 0, 0), r["host_bound_ns"])
        parts = {"compute": r["compute_ns"], "communication": r["communication_ns"], "host_bound": least,
                 "host_bound_or_device_wait": r["host_bound_ns"] - least, "device_wait": r["device_wait_ns"]}
    else:
        parts = {part: r[key] for part, key in PARTS}
    return {k: v for k, v in parts.items() if v > 0}


def check(page, report, measured, dom):
    if measured is None:
        return ["no ohprof-render-check result in the dumped DOM: the injected script did not run"]
    fails = []
    open_ranks = {d["rank"] for d in report["ranks"] if (d.get("verdict") or {}).get("queue_open")}
    for step in report["steps"]:
        if not step["ranks"] or step["wall_max_ns"] <= 0:
            continue
        n = str(step["step"])
        segs = [e for e in measured["svg"] if e["step"] == n]
        longest = max(step["ranks"], key=lambda r: r["wall_ns"])
        bar = sum(e["w"] for e in segs if e["rank"] == str(longest["rank"]))
        for r in step["ranks"]:
            want = parts_of(r, open_ranks)
            got = {e["part"]: e for e in segs if e["rank"] == str(r["rank"])}
            if sorted(got) != sorted(want):
                fails.append(f"step {n} rank {r['rank']}: parts {sorted(got)}, the JSON's {sorted(want)}")
            for part, ns in want.items():
                if part in got:
                    want_w = bar * ns / step["wall_max_ns"]
                    if abs(got[part]["w"] - want_w) > 1.0:
                        fails.append(f"step {n} rank {r['rank']}: {part} {got[part]['w']:.1f} px, {want_w:.1f} px from the JSON")
                    if not got[part]["inside"]:
                        fails.append(f"step {n} rank {r['rank']}: {part} drawn outside its svg")
        marked = [l["text"] for l in measured["labels"] if l["step"] == n and "(slowest)" in l["text"]]
        # a level step (docs/ranks.md, "The straggler") has a slowest rank but no straggler: nothing marked
        named = step.get("straggler") and step["straggler"]["cause"] != "level"
        want_marked = [f"rank {step['straggler']['rank']} (slowest)"] if named else []
        if marked != want_marked:
            fails.append(f"step {n}: marked {marked}, the JSON's straggler {want_marked}")
    rows = {t["cls"]: t["rows"] for t in measured["tables"]}
    if rows.get("ohprof-ranks") != len(report["ranks"]):
        fails.append(f"the ranks table has {rows.get('ohprof-ranks')} rows, the JSON {len(report['ranks'])} ranks")
    if rows.get("ohprof-steps") != len(report["steps"]):
        fails.append(f"the steps table has {rows.get('ohprof-steps')} rows, the JSON {len(report['steps'])} steps")
    fails += static_page_fails(page, dom, 'docs/ranks.md, "The output"')
    text = parse(dom)[0]
    for d in report["ranks"]:
        if d["trace"] not in text:
            fails.append(f"the trace {d['trace']} of rank {d['rank']} is not in the page's text")
    return fails


def check_page(browser, page, report, outdir, tag, screenshot):
    return check_laid_out_page(browser, page, MEASURE, lambda measured, dom: check(page, report, measured, dom), outdir,
                               tag, screenshot, window="1200,1400", who="ranks_page_check")


def self_test(browser, page, report, outdir):
    with open(page, encoding="utf-8") as f:
        good = f.read()
    seg = re.search(r'<rect class="ohprof-rank-seg"[^>]*>.*?</rect>\n', good)
    straggler = report["steps"][0]["straggler"]["rank"]
    other = next(r["rank"] for r in report["ranks"] if r["rank"] != straggler)
    label = r'(<text class="ohprof-rank-label"[^>]*>)rank {}{}<'
    moved = re.sub(label.format(straggler, r" \(slowest\)"), lambda m: f"{m.group(1)}rank {straggler}<", good, count=1)
    moved = re.sub(label.format(other, ""), lambda m: f"{m.group(1)}rank {other} (slowest)<", moved, count=1)
    mutants = {"a rank's segment removed": good.replace(seg.group(0), "", 1) if seg else good,
               "a rank's segment widened": re.sub(r'(class="ohprof-rank-seg"[^>]* width=")([0-9.]+)"',
                                                  lambda m: f'{m.group(1)}{float(m.group(2)) * 1.3 + 10:.2f}"', good, count=1),
               # on the real pair both steps are level: the mark is then added to a rank of a level step
               "the straggler's mark moved (or added to a level step)": moved,
               "an external script": good.replace("</head>", '<script src="https://cdn.example.com/x.js"></script></head>')}
    return check_mutants(good, mutants, outdir, lambda path: check_page(browser, path, report, outdir, "self-test", False))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--outdir")
    ap.add_argument("--screenshot", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    browser = chromium_binary()
    if browser is None:
        print("ranks_page_check: no chromium or chromium-browser on PATH: skipped")
        return SKIP
    outdir = args.outdir or tempfile.mkdtemp(prefix="ohprof-ranks-page-")
    os.makedirs(outdir, exist_ok=True)
    traces = [os.path.join(args.source_dir, "test", "data", "traces", f"sampled_rank-{r}.json.gz") for r in (0, 1)]
    # a job with a rank whose queue is open (MTIA's copies without a launch call): its bars are drawn as bounds
    mtia = os.path.join(args.source_dir, "test", "data", "traces", "mtia_inference.json.gz")
    fails = []
    for tag, job in (("ranks", traces), ("ranks-open-queue", traces + [mtia])):
        job_page, job_js = os.path.join(outdir, tag + ".html"), os.path.join(outdir, tag + ".json")
        p = subprocess.run([args.binary, "analyze", *job, "--export-html", job_page, "--export-json", job_js, "--quiet"],
                           capture_output=True, text=True)
        if p.returncode != 0 or not os.path.isfile(job_page):
            print(f"ranks_page_check: ohprof analyze ({tag}): exit {p.returncode}: {p.stderr.strip()[-300:]}")
            return 1
        with open(job_js, encoding="utf-8") as f:
            job_report = json.load(f)
        if tag == "ranks-open-queue" and not any((d.get("verdict") or {}).get("queue_open") for d in job_report["ranks"]):
            fails.append("ranks-open-queue: no rank's queue is open, so the open bars are not checked")
        fails += [f"{tag}: {line}" for line in check_page(browser, job_page, job_report, outdir, tag, args.screenshot)]
        if tag == "ranks":
            page, report = job_page, job_report
    for line in fails:
        print(f"ranks_page_check: {line}")
    print("ranks_page_check: " + (f"{len(fails)} failure(s)" if fails else "ok"))
    if args.self_test and not fails and not self_test(browser, page, report, outdir):
        print("ranks_page_check: self-test: a broken page passed the check")
        return 1
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
