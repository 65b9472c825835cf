#!/usr/bin/env python3
"""The layout of src/, include/ohprof/ and test/ (CMakeLists.txt, "the layers"), checked from the files.

  python3 test/tools/layout_check.py [REPO_ROOT]
  python3 test/tools/layout_check.py --self-test     # rule (d) on a made-up tree

(a) every src/<layer>/<file>.cpp has a test/<layer>/<file>_test.cpp, or is listed in COVERED_ELSEWHERE
    with the tests that cover it instead (which must exist);
(b) every #include "ohprof/<layer>/..." in src/<layer2>/ and include/ohprof/<layer2>/ names a layer at
    or below layer2 (LAYER_RANK; collectors and runtimes are side by side and neither includes the
    other). The build rejects these too, but only in the files it compiles (not in files of a disabled
    option, nor in files not yet added to a target);
(c) every public header include/ohprof/<layer>/<name>.hpp is included by a file outside its own layer
    or by a test; one that is not should be private to its layer (src/<layer>/);
(d) every file a comment cites exists: in the comments of src/, include/, test/, tools/, python/,
    cmake/ and CMakeLists.txt, a path that starts with a top folder of the repository (src/, test/,
    docs/, ...) and names a file (an extension in its last part) must exist from the root, and one that
    starts with a layer ("model/report.hpp") under include/ohprof/ or src/. Comments drift when files
    move; a citation that leads nowhere is worse than none.

Prints one line per problem and exits 1; exits 0 when the layout is as described. Standard library only.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

# Lowest first. Equal ranks are side by side: neither may include the other.
LAYER_RANK = {
    "base": 0,
    "model": 1,
    "analysis": 2,
    "trace": 3,
    "output": 4,
    "harness": 5,
    "collectors": 6,
    "runtimes": 6,
    "session": 7,
    "cli": 8,
}

# Sources without a test/<layer>/<file>_test.cpp of their own, and the tests that cover them instead.
COVERED_ELSEWHERE = {
    # what a trace event means, read through the reader's public functions on real and made-up traces
    "src/trace/kineto_events.cpp": ["test/trace/kineto_reader_test.cpp", "test/trace/trace_validation_test.cpp"],
    # the split pass, run's (one path) and compare's (many), through the fake runtime and end to end
    "src/session/split_pass.cpp": ["test/session/compare_test.cpp", "test/session/measure_test.cpp",
                                   "test/cli/run_e2e_test.cpp"],
    # the diff's document, through both of its renderers
    "src/output/diff_document.cpp": ["test/output/markdown_report_test.cpp", "test/output/html_report_test.cpp",
                                     "test/tools/html_report_check.py"],
    "src/output/ranks_document.cpp": ["test/output/ranks_report_test.cpp", "test/tools/ranks_page_check.py"],
    "src/output/sweep_document.cpp": ["test/output/markdown_report_test.cpp", "test/tools/markdown_check.py"],
    "src/output/report_document.cpp": ["test/output/markdown_report_test.cpp", "test/output/html_report_test.cpp",
                                       "test/tools/html_report_check.py"],
    # the command line, through the real binary
    "src/cli/main.cpp": ["test/cli/cli_test.cpp"],
    "src/cli/measure_module.cpp": ["test/cli/delegate_test.cpp", "test/cli/run_e2e_test.cpp", "test/tools/pip_install_check.py"],
    "src/cli/cmd_run.cpp": ["test/cli/cli_test.cpp", "test/cli/run_e2e_test.cpp"],
    "src/cli/cmd_compare.cpp": ["test/cli/compare_e2e_test.cpp"],
    # compare --threads: the pass with compare's session tests
    "src/session/threads.cpp": ["test/session/compare_test.cpp", "test/cli/threads_e2e_test.cpp"],
    # compare --cold-start: the cache and order names with the printers, the pass with compare's session tests
    "src/model/cold_start.cpp": ["test/output/report_text_test.cpp", "test/session/compare_test.cpp"],
    "src/model/what_if.cpp": ["test/analysis/what_if_test.cpp", "test/output/report_text_test.cpp"],
    "src/model/concurrency.cpp": ["test/analysis/concurrency_test.cpp", "test/output/report_text_test.cpp"],
    "src/session/cold_start.cpp": ["test/session/compare_test.cpp", "test/cli/cold_start_e2e_test.cpp"],
    "src/cli/cmd_sweep.cpp": ["test/cli/sweep_cli_test.cpp", "test/cli/sweep_e2e_test.cpp"],
    "src/cli/model_flags.cpp": ["test/cli/cli_test.cpp", "test/cli/compare_e2e_test.cpp", "test/cli/sweep_cli_test.cpp"],
    "src/output/sweep_table.cpp": ["test/output/sweep_report_test.cpp"],
    "src/output/diff_table.cpp": ["test/output/diff_report_test.cpp"],
    "src/output/report_tables.cpp": ["test/output/markdown_report_test.cpp"],
    "src/cli/cmd_diff.cpp": ["test/cli/diff_cli_test.cpp"],
    "src/cli/cmd_merge.cpp": ["test/cli/ranks_cli_test.cpp"],
    "src/cli/cmd_show.cpp": ["test/tools/show_check.py"],
    "src/output/ranks_table.cpp": ["test/output/ranks_report_test.cpp"],
    # LibTorch and CPython: end to end on the tiny exported models (OHPROF_WITH_TORCH / _PYTHON builds)
    "src/runtimes/aoti_runner.cpp": ["test/cli/run_e2e_test.cpp"],
    # the package's archive: its kernels with the CPU collector's tests, its files with --dump-code's
    "src/runtimes/aoti_package.cpp": ["test/collectors/cpu_activity_collector_test.cpp", "test/cli/compare_e2e_test.cpp"],
    "src/runtimes/python_session.cpp": ["test/cli/compare_e2e_test.cpp"],
    # the choice of collector: the record_function split of the end-to-end runs (CUPTI: tools/gpu-check)
    "src/collectors/split_collector.cpp": ["test/cli/run_e2e_test.cpp", "test/cli/compare_e2e_test.cpp"],
}

SOURCE_SUFFIXES = {".cpp", ".cc", ".hpp", ".h", ".inl", ".in"}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')
OHPROF_INCLUDE_RE = re.compile(r"^ohprof/(?:([^/]+)/)?(.+)$")


def rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def includes(path: Path):
    """(line number, included path) of each #include in `path`."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return
    for number, line in enumerate(text.splitlines(), start=1):
        match = INCLUDE_RE.match(line)
        if match:
            yield number, match.group(1)


def files_under(folder: Path):
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES)


def layer_folders(base: Path, what: str, root: Path, problems: list[str]) -> dict[str, Path]:
    """The layer folders of `base` (src/ or include/ohprof/); anything else there is a problem."""
    layers = {}
    if not base.is_dir():
        problems.append(f"{rel(base, root) if base.exists() else base}: missing ({what})")
        return layers
    for entry in sorted(base.iterdir()):
        if entry.name.startswith(".") or entry.name == "__pycache__":
            continue
        if entry.is_dir() and entry.name in LAYER_RANK:
            layers[entry.name] = entry
        elif entry.is_dir():
            problems.append(f"{rel(entry, root)}/: not a layer (layers: {', '.join(LAYER_RANK)}); "
                            "add it to LAYER_RANK in test/tools/layout_check.py or move its files")
        elif entry.suffix in SOURCE_SUFFIXES:
            problems.append(f"{rel(entry, root)}: outside any layer folder of {rel(base, root)}/")
    return layers


def check_tests(root: Path, src_layers: dict[str, Path], problems: list[str]) -> int:
    """(a) Every source has its mirrored test or a listed covering test. Returns the sources seen."""
    seen = 0
    for layer, folder in src_layers.items():
        for source in sorted(folder.rglob("*.cpp")):
            seen += 1
            source_rel = rel(source, root)
            mirrored = root / "test" / source.relative_to(root / "src").with_name(source.stem + "_test.cpp")
            covering = COVERED_ELSEWHERE.get(source_rel)
            if covering is None:
                if not mirrored.is_file():
                    problems.append(f"{source_rel}: no test ({rel(mirrored, root)} missing, and no entry in "
                                    "COVERED_ELSEWHERE of test/tools/layout_check.py)")
                continue
            if mirrored.is_file():
                problems.append(f"{source_rel}: has {rel(mirrored, root)}; remove its COVERED_ELSEWHERE entry")
            for test in covering:
                if not (root / test).is_file():
                    problems.append(f"{source_rel}: COVERED_ELSEWHERE names {test}, which does not exist")
    for source_rel in sorted(COVERED_ELSEWHERE):
        if not (root / source_rel).is_file():
            problems.append(f"{source_rel}: listed in COVERED_ELSEWHERE but does not exist; update the entry")
    return seen


def check_includes(root: Path, folders: list[tuple[str, Path]], problems: list[str]):
    """(b) Includes go down the layers (or stay in the layer). Returns {header: [including files]}."""
    included_by: dict[str, set[Path]] = {}
    for layer, folder in folders:
        rank = LAYER_RANK[layer]
        for path in files_under(folder):
            for number, target in includes(path):
                where = f"{rel(path, root)}:{number}"
                if target.startswith("../") or "/../" in target:
                    problems.append(f"{where}: includes \"{target}\" by a relative path out of its folder; "
                                    "include a public header as \"ohprof/<layer>/<name>.hpp\"")
                    continue
                match = OHPROF_INCLUDE_RE.match(target)
                if not match:
                    continue
                target_layer = match.group(1)
                if target_layer is None or target_layer not in LAYER_RANK:
                    problems.append(f"{where}: includes \"{target}\", which is in no layer "
                                    f"(include/ohprof/<layer>/, layers: {', '.join(LAYER_RANK)})")
                    continue
                included_by.setdefault(target, set()).add(path)
                if target_layer == layer:
                    continue
                target_rank = LAYER_RANK[target_layer]
                if target_rank > rank:
                    problems.append(f"{where}: {layer} includes \"{target}\" from {target_layer}, a layer above it")
                elif target_rank == rank:
                    problems.append(f"{where}: {layer} includes \"{target}\" from {target_layer}, a layer beside "
                                    "it (neither includes the other)")
    return included_by


def check_public_headers(root: Path, include_layers: dict[str, Path], included_by: dict[str, set[Path]],
                         problems: list[str]) -> int:
    """(c) Each public header is used outside its layer or by a test. Returns the headers seen."""
    # includes from the tests (any folder of test/) count as uses
    for path in files_under(root / "test"):
        for _, target in includes(path):
            if target.startswith("ohprof/"):
                included_by.setdefault(target, set()).add(path)
    seen = 0
    for layer, folder in include_layers.items():
        for header in sorted(folder.rglob("*.hpp")):
            seen += 1
            name = "ohprof/" + header.relative_to(root / "include" / "ohprof").as_posix()
            users = included_by.get(name, set())
            outside = [p for p in users
                       if rel(p, root).startswith("test/")
                       or not (rel(p, root).startswith(f"src/{layer}/")
                               or rel(p, root).startswith(f"include/ohprof/{layer}/"))]
            if not outside:
                inside = sorted(rel(p, root) for p in users)
                problems.append(f"{rel(header, root)}: included by no file outside the {layer} layer and by no test"
                                f" (users: {', '.join(inside) if inside else 'none'}); make it private "
                                f"(src/{layer}/) or test it")
    return seen


CITED_TOP = ("src", "include", "test", "docs", "tools", "python", "examples", "cmake")
CITED_RE = re.compile(r"(?<![\w./-])((?:%s)/[\w./-]+)" % "|".join(CITED_TOP + tuple(LAYER_RANK)))
CITED_EXTENSIONS = {".cpp", ".hpp", ".h", ".py", ".md", ".txt", ".sh", ".json", ".gz", ".cmake", ".in", ".toml",
                    ".yml", ".yaml", ".html", ".csv"}


def comments(path: Path, text: str):
    """(line number, comment text) of each line's comment: // and /* */ continuation lines in C++,
    # in Python, shell and CMake (a line's text from its marker on; includes are not comments)."""
    cpp = path.suffix in SOURCE_SUFFIXES
    for number, line in enumerate(text.splitlines(), start=1):
        if cpp:
            if INCLUDE_RE.match(line):
                continue
            at = line.find("//")
            if at >= 0:
                yield number, line[at:]
            elif line.lstrip().startswith(("/*", "* ")):
                yield number, line
        else:
            at = line.find("#")
            if at >= 0:
                yield number, line[at:]


def check_cited_paths(root: Path, problems: list[str]) -> int:
    """(d) Files cited in comments exist. Returns the citations checked."""
    files = [root / "CMakeLists.txt"]
    for top in ("src", "include", "test", "tools", "python", "cmake"):
        folder = root / top
        if not folder.is_dir():
            continue
        for p in sorted(folder.rglob("*")):
            if not p.is_file() or "golden" in p.parts or (top == "test" and "data" in p.parts):
                continue
            script = top == "tools" and p.suffix == ""
            if p.suffix in SOURCE_SUFFIXES or p.suffix in {".py", ".cmake", ".sh"} or script:
                files.append(p)
    checked = 0
    for path in files:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for number, comment in comments(path, text):
            for match in CITED_RE.finditer(comment):
                cited = match.group(1).rstrip(".,:;")
                last = cited.rsplit("/", 1)[-1]
                if "." not in last or Path(last).suffix not in CITED_EXTENSIONS:
                    continue
                first = cited.split("/", 1)[0]
                candidates = [root / "include" / "ohprof" / cited, root / "src" / cited] if first in LAYER_RANK else [root / cited]
                checked += 1
                if not any(c.exists() for c in candidates):
                    problems.append(f"{rel(path, root)}:{number}: the comment cites {cited}, which does not exist; "
                                    "name the file where it is now")
    return checked


def self_test() -> int:
    """Rule (d) on a tree made here: one comment citing a file that is gone, others that exist."""
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "include" / "ohprof" / "model").mkdir(parents=True)
        (root / "include" / "ohprof" / "model" / "report.hpp").write_text("#pragma once\n")
        (root / "src" / "base").mkdir(parents=True)
        (root / "docs").mkdir()
        (root / "docs" / "metrics.md").write_text("")
        (root / "CMakeLists.txt").write_text("# docs/metrics.md, and docs/results/ (a folder: not a file)\n")
        (root / "src" / "base" / "x.cpp").write_text(
            '#include "ohprof/model/gone.hpp"\n'            # an include, not a comment
            "// model/report.hpp and docs/metrics.md, (src/base/x.cpp).\n"
            "int x;  // moved: src/x_old.cpp\n"
            " * in a block: test/base/x_test.cpp\n")
        problems: list[str] = []
        checked = check_cited_paths(root, problems)
    want = ["src/base/x.cpp:3: the comment cites src/x_old.cpp, which does not exist; name the file where it is now",
            "src/base/x.cpp:4: the comment cites test/base/x_test.cpp, which does not exist; name the file where it is now"]
    if problems != want or checked != 6:
        print(f"layout_check self-test: FAILED: {checked} checked, problems {problems}")
        return 1
    print("layout_check self-test: ok (a moved file and a missing test found; an include, a folder and 4 good citations passed)")
    return 0


def main(argv: list[str]) -> int:
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    root = Path(argv[1]).resolve() if len(argv) > 1 else Path(__file__).resolve().parents[2]
    problems: list[str] = []
    src_layers = layer_folders(root / "src", "sources", root, problems)
    include_layers = layer_folders(root / "include" / "ohprof", "public headers", root, problems)
    sources = check_tests(root, src_layers, problems)
    folders = [(layer, path) for layer, path in src_layers.items()] + \
              [(layer, path) for layer, path in include_layers.items()]
    included_by = check_includes(root, folders, problems)
    headers = check_public_headers(root, include_layers, included_by, problems)
    cited = check_cited_paths(root, problems)
    for problem in problems:
        print(problem)
    if problems:
        print(f"layout_check: {len(problems)} problem(s)")
        return 1
    print(f"layout_check: ok ({sources} sources, {headers} public headers, {cited} cited files, "
          f"layers {', '.join(sorted(set(src_layers) | set(include_layers), key=LAYER_RANK.get))})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
