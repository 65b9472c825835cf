#!/usr/bin/env python3
"""--dump-code's DIR/index.html (docs/code-dump.md), laid out by headless Chromium and checked against the
report's JSON and the files of the dump.

    code_index_check.py --binary build/ohprof --source-dir . [--outdir DIR] [--screenshot] [--self-test]
    code_index_check.py --dump DIR --report REPORT.json [--screenshot] [--self-test]

The first form runs `ohprof compare` on the tiny MLP on the CPU (paths aoti, compile, eager, with
--kernel-profile so that the generated kernels record themselves) with --dump-code and --export-json;
the second checks a dump made before. Then, with a script that measures the page in Chromium:

  * the page renders: the kernel table, the call-sequence table and a section per path are laid out;
  * each graph picture the report lists (`code_dump.files`, `<path>/graph.svg`) is on the page and loaded
    (its natural width is not 0);
  * every kernel of every path's split (`paths[].split.kernels`) has a row, by its canonical name
    (computed here: the graph prefix `graph_N_` stripped, `aoti_torch_<dev>_OP_out` -> `aten::OP`), with a
    cell for that path; where the path's kernels.json places it in the code, the cell links to that file,
    which exists, and the line the link names holds the kernel's name (its definition, its recording
    literal, or its call: `extern_kernels.OP(` for an ATen operator);
  * a kernel only one path runs is marked so, and no other;
  * the call-sequence table has a row per call of the longest sequence (kernels.json's call_sequence);
  * no external URL, no <script> of the page's own.

--self-test breaks copies of the page (a kernel row removed, a source link pointed at a missing file, a
link to a line that does not hold the kernel, a graph picture's file missing, an external script) and
fails unless the check catches every one. Exit 0, 1 on a failure, 77 (skipped) without Chromium.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_check import SKIP, check_laid_out_page, check_mutants, chromium_binary, external_urls  # noqa: E402

MEASURE = """<script>
window.addEventListener("load", function () {
  var out = {rows: [], images: [], sequence_rows: 0, sections: []};
  document.querySelectorAll("table.ohprof-code-kernels tr[data-kernel]").forEach(function (tr) {
    var cells = [];
    tr.querySelectorAll("td[data-path]").forEach(function (td) {
      var a = td.querySelector("a");
      cells.push({path: td.getAttribute("data-path"), href: a ? a.getAttribute("href") : null,
                  text: a ? a.textContent : td.textContent});
    });
    var r = tr.getBoundingClientRect();
    out.rows.push({kernel: tr.getAttribute("data-kernel"), only: tr.classList.contains("ohprof-only"),
                   cells: cells, h: r.height});
  });
  document.querySelectorAll("img.ohprof-graph").forEach(function (img) {
    out.images.push({src: img.getAttribute("src"), natural: img.naturalWidth, w: img.getBoundingClientRect().width});
  });
  var seq = document.querySelector("table.ohprof-call-sequences");
  out.sequence_rows = seq ? seq.querySelectorAll("tr").length - 1 : -1;
  document.querySelectorAll("section.ohprof-code-path").forEach(function (s) {
    out.sections.push({path: s.getAttribute("data-path"), h: s.getBoundingClientRect().height});
  });
  document.getElementById("ohprof-render-check").textContent = JSON.stringify(out);
});
</script>"""


def canonical(name):
    """The kernel diff's name (docs/metrics.md): graph prefix stripped, AOTI's shim call as its ATen op."""
    name = re.sub(r"^graph_\d+_", "", name)
    m = re.match(r"^aoti_torch_(?:cpu|cuda)_(.+?)(?:_out)?$", name)
    return f"aten::{m.group(1)}" if m else name


def folder_of(path):
    return path.replace(":", "_").replace("/", "_")


def line_names_kernel(text, name):
    """Whether a line of code is a place of kernel `name` (as recorded)."""
    stripped = re.sub(r"^graph_\d+_", "", name)
    if name.startswith("aten::"):
        op = name[len("aten::"):]
        return f"extern_kernels.{op}(" in text or f"aten.{op}." in text
    return f'"{name}"' in text or re.search(r"(^|[^A-Za-z0-9_])" + re.escape(stripped) + r"\b", text) is not None


def check(dump, report, measured, dom, raw):
    fails = []
    if measured is None:
        return ["the measuring script did not run (the page did not load?)"]
    asked = [p for p in report["paths"] if p.get("role", "path") == "path"]
    files = set(report["code_dump"]["files"])
    rows = {r["kernel"]: r for r in measured["rows"]}
    # each path laid out
    sections = {s["path"]: s for s in measured["sections"]}
    for p in asked:
        if p["name"] not in sections or sections[p["name"]]["h"] <= 0:
            fails.append(f"path {p['name']}: no section laid out")
    # graph pictures
    images = {i["src"]: i for i in measured["images"]}
    for f in sorted(files):
        if f.endswith("/graph.svg"):
            if f not in images:
                fails.append(f"{f}: listed in the report but not on the page")
            elif images[f]["natural"] <= 0 or images[f]["w"] <= 0:
                fails.append(f"{f}: on the page but not loaded ({images[f]})")
    for src in images:
        if src not in files:
            fails.append(f"<img src={src!r}>: not a file of the dump")
    # kernels
    runs = {}  # canonical -> paths that run it
    longest = 0
    for p in asked:
        listing_path = os.path.join(dump, folder_of(p["name"]), "kernels.json")
        with open(listing_path) as f:
            listing = json.load(f)
        longest = max(longest, len(listing.get("call_sequence", [])))
        sites = {k["name"]: k for k in listing["kernels"]}
        for k in (p.get("split") or {}).get("kernels", []):
            name = canonical(k["name"])
            runs.setdefault(name, set()).add(p["name"])
            row = rows.get(name)
            if row is None:
                fails.append(f"{p['name']}: kernel {k['name']} ({name}) has no row")
                continue
            cell = next((c for c in row["cells"] if c["path"] == p["name"]), None)
            if cell is None:
                fails.append(f"{p['name']}: kernel {name}'s row has no cell for the path")
                continue
            entry = sites.get(k["name"])
            site = entry and (entry["defined_at"] or entry["recorded_at"] or (entry["calls"] or [None])[0])
            if site is None:
                continue
            if cell["href"] is None:
                fails.append(f"{p['name']}: kernel {name} is at {site} but its cell has no link")
                continue
            target = os.path.join(dump, cell["href"])
            m = re.search(r":(\d+)$", cell["text"])
            if not os.path.isfile(target):
                fails.append(f"{p['name']}: kernel {name} links to {cell['href']}, which is not in the dump")
            elif not m:
                fails.append(f"{p['name']}: kernel {name}'s link {cell['text']!r} names no line")
            else:
                with open(target, encoding="utf-8", errors="replace") as f:
                    lines = f.read().split("\n")
                line = int(m.group(1))
                if not 1 <= line <= len(lines) or not line_names_kernel(lines[line - 1], k["name"]):
                    fails.append(f"{p['name']}: kernel {name}'s link {cell['href']} line {line} does not hold it")
    for name, on in runs.items():
        only = len(asked) > 1 and len(on) == 1
        if name in rows and rows[name]["only"] != only:
            fails.append(f"kernel {name} runs on {sorted(on)}: marked only={rows[name]['only']}, should be {only}")
    if measured["sequence_rows"] != longest:
        fails.append(f"the call-sequence table has {measured['sequence_rows']} rows, the longest sequence {longest}")
    fails += external_urls(raw, dom)
    if "<script" in raw:
        fails.append("the page has a <script>")
    return fails


def make_dump(binary, source_dir, outdir):
    dump = os.path.join(outdir, "dump")
    report = os.path.join(outdir, "report.json")
    env = dict(os.environ, PYTHONPATH=os.path.join(source_dir, "examples", "models"))
    cmd = [binary, "compare", "--model", "tiny_models:tiny_mlp", "--input", "1,16", "--device", "cpu",
           "--paths", "aoti,compile,eager", "--kernel-profile", "--no-explain", "--warmup", "1", "--min-runs",
           "20", "--max-runs", "20", "--min-time", "0", "--cache-dir", os.path.join(outdir, "cache"),
           "--dump-code", dump, "--export-json", report, "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    if p.returncode != 0:
        raise SystemExit(f"ohprof compare failed ({p.returncode}): {p.stderr.strip()[-2000:]}")
    return dump, report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary")
    parser.add_argument("--source-dir")
    parser.add_argument("--dump")
    parser.add_argument("--report")
    parser.add_argument("--outdir")
    parser.add_argument("--screenshot", action="store_true")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if not (args.dump and args.report) and not (args.binary and args.source_dir):
        parser.error("give --dump DIR --report FILE, or --binary and --source-dir")
    browser = chromium_binary()
    if browser is None:
        print("skipped: no chromium")
        return SKIP
    outdir = args.outdir or tempfile.mkdtemp(prefix="ohprof-code-index-")
    os.makedirs(outdir, exist_ok=True)
    if args.dump:
        dump, report_path = args.dump, args.report
    else:
        dump, report_path = make_dump(args.binary, args.source_dir, outdir)
    with open(report_path) as f:
        report = json.load(f)
    page = os.path.join(dump, "index.html")

    def check_file(path):
        with open(path, encoding="utf-8") as f:
            raw = f.read()
        return check_laid_out_page(browser, path, MEASURE, lambda m, dom: check(dump, report, m, dom, raw), outdir,
                                   "code-index", args.screenshot and path == page, window="1300,2600",
                                   who="code index check")

    fails = check_file(page)
    for f in fails:
        print("FAIL:", f)
    if args.screenshot:
        print(f"screenshot: {os.path.join(outdir, 'code-index.png')}")
    ok = not fails
    if args.self_test and ok:
        with open(page, encoding="utf-8") as f:
            good = f.read()
        first_row = re.search(r"<tr data-kernel=\"[^\"]*\"[^>]*>.*?</tr>\n", good, re.S)
        link = re.search(r"<a href=\"([^\"]+)\">([^<]+):(\d+)</a>", good)
        img = re.search(r"<img class=\"ohprof-graph\" src=\"([^\"]+)\"", good)
        mutants = {
            "a kernel row removed": good.replace(first_row.group(0), "", 1) if first_row else good,
            "a source link to a missing file": good.replace(f'<a href="{link.group(1)}">', '<a href="nowhere/x.cpp">', 1)
            if link else good,
            "a source link to a line that does not hold the kernel": good.replace(
                link.group(0), f'<a href="{link.group(1)}">{link.group(2)}:{int(link.group(3)) + 100000}</a>', 1)
            if link else good,
            "a graph picture's file missing": good.replace(f'src="{img.group(1)}"', 'src="nowhere/graph.svg"', 1)
            if img else good,
            "an external script": good.replace("</body>", '<script src="https://example.com/x.js"></script></body>', 1),
        }
        # the mutants live beside index.html, so that their relative links resolve as the page's do
        ok = check_mutants(good, mutants, dump, check_file)
        for n in range(len(mutants)):
            for suffix in ("", ".check.html"):
                path = os.path.join(dump, f"self-test-{n}.html{suffix}")
                if os.path.exists(path):
                    os.remove(path)
    for leftover in (page + ".check.html",):
        if os.path.exists(leftover):
            os.remove(leftover)
    print("code index check:", "ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
