#!/usr/bin/env python3
"""Renders ohprof's --export-markdown files with cmark-gfm (GitHub's own Markdown renderer, Debian's
`cmark-gfm`) and checks that they paste into a pull request as tables, not as text.

    markdown_check.py --binary build/ohprof --source-dir .          # the CTest: diff, analyze and ranks reports
    markdown_check.py --file report.md [--screenshot out.png]       # any file (and a picture of it)
    markdown_check.py --self-test                                   # the checks fail on broken tables
    markdown_check.py --binary build/ohprof --run compare ARGS...   # a live run's Markdown (CTest markdown_of_a_compare)

For each Markdown file, from cmark-gfm's XML (the parse tree GitHub renders), with the `table`,
`autolink` and `strikethrough` extensions GitHub uses:

  * every block of lines that starts with `|` and is followed by an alignment row became a table: the
    number of tables in the tree equals the number of such blocks in the text, and no paragraph of the
    tree starts with `|` (a table that did not parse);
  * every row of a table has as many cells as its header;
  * the collapsed context is there: an HTML block opening `<details>` and one closing it;
  * the first column of the path table names exactly the paths of the report's JSON, in its order
    (read from the JSON here, not from the Markdown printer): `paths[].name` with `role` "path" for
    run/compare/analyze, `paths[].name` (with ` @ point` for sweeps) for a diff; for the ranks of a job
    (`analyze TRACE...`), the per-rank table's first column names `ranks[].rank`.

With --screenshot, the rendered HTML (cmark-gfm's, in a page with a table style close to GitHub's) is
drawn by headless Chromium into a PNG, for a person to look at.

Exit 0 when every check passed, 1 on a failure, 77 (CTest's skip) when cmark-gfm is not installed.
"""
from __future__ import annotations

import argparse
import json
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

NS = "{http://commonmark.org/xml/1.0}"
SKIP = 77


def render(markdown: str, to: str) -> str:
    out = subprocess.run(["cmark-gfm", "-e", "table", "-e", "autolink", "-e", "strikethrough", "--unsafe", "--to", to],
                         input=markdown, capture_output=True, text=True, check=True)
    return out.stdout


def text_of(node: ET.Element) -> str:
    return "".join(node.itertext())


def text_cells(line: str) -> int:
    """Cells of a table line as GitHub splits it: at every pipe not escaped by a backslash (code spans too)."""
    return len(re.findall(r"(?<!\\)\|", line)) - 1


def table_blocks(markdown: str) -> list[list[str]]:
    """The text's tables: runs of lines starting with '|' whose second line is an alignment row."""
    lines = markdown.split("\n")
    blocks = []
    i = 0
    while i < len(lines) - 1:
        if lines[i].startswith("|") and re.fullmatch(r"\|(\s*:?-{3,}:?\s*\|)+", lines[i + 1].strip()):
            start = i
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                i += 1
            blocks.append(lines[start:i])
        else:
            i += 1
    return blocks


def check_markdown(markdown: str, expected_paths: list[str] | None, name: str) -> list[str]:
    problems = []
    tree = ET.fromstring(render(markdown, "xml"))
    tables = list(tree.iter(NS + "table"))
    blocks = table_blocks(markdown)
    if len(tables) != len(blocks):
        problems.append(f"{name}: {len(blocks)} tables in the text, {len(tables)} in cmark-gfm's tree")
    for block in blocks:
        # GitHub drops the cells past the header's and pads short rows: a width is checked on the text
        width = text_cells(block[0])
        for line in block[1:]:
            if text_cells(line) != width:
                problems.append(f"{name}: a row of {text_cells(line)} cells under a header of {width}: {line[:80]!r}")
    for paragraph in tree.iter(NS + "paragraph"):
        if text_of(paragraph).lstrip().startswith("|"):
            problems.append(f"{name}: a paragraph starts with '|' (a table that did not parse): {text_of(paragraph)[:80]!r}")
    for t, table in enumerate(tables):
        rows = list(table.iter(NS + "table_row")) + list(table.iter(NS + "table_header"))
        widths = {len(list(row.iter(NS + "table_cell"))) for row in rows}
        if len(widths) != 1:
            problems.append(f"{name}: table {t + 1} has rows of {sorted(widths)} cells")
    html_blocks = [text_of(b) for b in tree.iter(NS + "html_block")]
    if not any("<details>" in b for b in html_blocks) or not any("</details>" in b for b in html_blocks):
        if "diff" not in name:  # a diff has no context section
            problems.append(f"{name}: no collapsed <details> context section")
    if expected_paths is not None:
        key = "rank" if name.startswith("ranks") else "path"
        path_table = next((t for t in tables
                           if text_of(next(t.iter(NS + "table_cell"))).strip() == key), None)
        if path_table is None:
            problems.append(f"{name}: no table whose first header cell is '{key}'")
        else:
            first_cells = []
            for row in path_table:
                if row.tag != NS + "table_row":
                    continue
                first = next(row.iter(NS + "table_cell"))
                first_cells.append(text_of(first).strip())
            if first_cells != expected_paths:
                problems.append(f"{name}: the path table lists {first_cells}, the report's JSON {expected_paths}")
    return problems


def report_paths(report: dict) -> list[str]:
    if report.get("kind") == "ranks":  # the per-rank table: one row per rank
        return [str(r["rank"]) for r in report["ranks"]]
    if report.get("kind") == "diff":
        return [p["name"] if p.get("point") is None else f"{p['name']} @ {p['point']}" for p in report["paths"]]
    return [p["name"] for p in report["paths"] if p.get("role", "path") == "path"]


def screenshot(markdown: str, png: str) -> None:
    style = ("body{font-family:-apple-system,'DejaVu Sans',sans-serif;font-size:14px;max-width:1100px;margin:24px}"
             "table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d0d7de;padding:4px 10px}"
             "tr:nth-child(2n){background:#f6f8fa}code{background:#eff1f3;padding:1px 4px;border-radius:4px}"
             "blockquote{color:#57606a;border-left:4px solid #d0d7de;margin:0;padding:0 12px}")
    page = f"<!doctype html><meta charset=utf-8><style>{style}</style>{render(markdown, 'html')}"
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "page.html"
        html.write_text(page, encoding="utf-8")
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={png}",
                        "--window-size=1200,2400", html.as_uri()], capture_output=True, check=True, timeout=120)


def run_ohprof(binary: str, args: list[str], tmp: str, tag: str) -> tuple[str, dict]:
    md = os.path.join(tmp, tag + ".md")
    js = os.path.join(tmp, tag + ".json")
    proc = subprocess.run([binary, *args, "--export-markdown", md, "--export-json", js, "--quiet"],
                          capture_output=True, text=True)
    if proc.returncode not in (0, 13, 15):  # 13: a diff found a regression; 15: a trace of a job failed
        raise RuntimeError(f"{' '.join(args)}: exit {proc.returncode}: {proc.stderr.strip()}")
    return Path(md).read_text(encoding="utf-8"), json.loads(Path(js).read_text(encoding="utf-8"))


BROKEN = {
    # a row with a cell too many (an unescaped pipe in a name)
    "row width": "| path | median |\n| --- | ---: |\n| `a|b` | 1 us |\n\n<details>\n\n</details>\n",
    # a table glued to the paragraph above it: GitHub renders it, but a missing alignment row is text
    "no alignment row": "text\n\n| path | median |\n| a | 1 us |\n\n<details>\n\n</details>\n",
    # the context never closed
    "details not closed": "| path | median |\n| --- | ---: |\n| a | 1 us |\n\n<details><summary>Context</summary>\n",
}


def self_test() -> int:
    failed = 0
    good = "| path | median |\n| --- | ---: |\n| `a\\|b` | 1 us |\n\n<details><summary>Context</summary>\n\n</details>\n"
    if check_markdown(good, ["a|b"], "good"):
        print(f"markdown_check: self-test: a good file was refused: {check_markdown(good, ['a|b'], 'good')}")
        failed += 1
    for what, text in BROKEN.items():
        if not check_markdown(text, None, what):
            print(f"markdown_check: self-test: '{what}' was not caught")
            failed += 1
    if check_markdown(good, ["b"], "good") == []:
        print("markdown_check: self-test: a path table that names other paths was not caught")
        failed += 1
    print(f"markdown_check: self-test: {'ok' if not failed else 'FAILED'}")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", help="ohprof, to make the Markdown of real reports")
    parser.add_argument("--source-dir", help="the checkout (its test/data)")
    parser.add_argument("--file", action="append", default=[], help="a Markdown file to check (repeatable)")
    parser.add_argument("--screenshot", help="with one --file: draw it into this PNG")
    parser.add_argument("--self-test", action="store_true", help="check that the checks catch broken tables")
    parser.add_argument("--run", nargs=argparse.REMAINDER, help="ohprof's arguments for one live run, whose Markdown is checked")
    opts = parser.parse_args()
    if shutil.which("cmark-gfm") is None:
        print("markdown_check: cmark-gfm is not installed (apt-get install cmark-gfm); skipped")
        return SKIP
    if opts.self_test:
        return self_test()
    problems: list[str] = []
    checked = 0
    for f in opts.file:
        markdown = Path(f).read_text(encoding="utf-8")
        problems += check_markdown(markdown, None, f)
        checked += 1
        if opts.screenshot:
            screenshot(markdown, opts.screenshot)
    if opts.binary and opts.run:
        with tempfile.TemporaryDirectory() as tmp:
            markdown, report = run_ohprof(opts.binary, opts.run, tmp, "run")
            found = check_markdown(markdown, report_paths(report), "run")
            problems += found
            checked += 1
            print(f"markdown_check: {' '.join(opts.run[:1])}: {'ok' if not found else 'FAILED'}")
    elif opts.binary:
        src = Path(opts.source_dir)
        data = src / "test" / "data"
        cases = [
            ("diff", ["diff", str(data / "diff" / "tiny-mlp-b1.json.gz"), str(data / "diff" / "tiny-mlp-b1-run2.json.gz")]),
            ("diff-relative", ["diff", str(data / "diff" / "tiny-mlp-b1.json.gz"), str(data / "diff" / "tiny-mlp-b1-run2.json.gz"),
                               "--relative-to", "aoti"]),
        ]
        for trace in ("nccl_data", "triton_example", "event_sync_multi_stream"):
            cases.append((f"analyze-{trace}", ["analyze", str(data / "traces" / f"{trace}.json.gz")]))
        cases.append(("ranks-sampled", ["analyze", str(data / "traces" / "sampled_rank-0.json.gz"),
                                        str(data / "traces" / "sampled_rank-1.json.gz"), str(data / "traces" / "SOURCES.md")]))
        with tempfile.TemporaryDirectory() as tmp:
            for tag, args in cases:
                markdown, report = run_ohprof(opts.binary, args, tmp, tag)
                found = check_markdown(markdown, report_paths(report), tag)
                problems += found
                checked += 1
                print(f"markdown_check: {tag}: {'ok' if not found else 'FAILED'}")
    for p in problems:
        print("markdown_check: " + p)
    if checked == 0:
        print("markdown_check: nothing to check (give --binary and --source-dir, or --file)")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
