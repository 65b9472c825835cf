#!/usr/bin/env python3
"""Golden tests of what `ohprof run`, `compare` and `analyze` print and write (docs/usage.md, "Golden tests").

Runs the ohprof binary once with the case's arguments (plus `--export-json` to a temporary file unless
--no-json), normalizes its stdout, stderr, exit code and JSON report, and compares them with the golden
files test/cli/golden/<case>.{stdout,stderr,json} (the .json holds the exit code and the normalized report,
null when none was written). --update (or OHPROF_GOLDEN_UPDATE=1 in the environment, for
`OHPROF_GOLDEN_UPDATE=1 ctest -L golden`) rewrites the golden files instead; review the diff of an update
before committing it.

    golden_check.py --binary build/ohprof --case NAME [--update] [--no-json]
                    [--path-token NAME=DIR ...] -- ARGS...

What is normalized (everything else must match byte for byte):
  * everywhere: each --path-token DIR becomes <NAME> (so the goldens name no checkout or build folder),
    the temporary folder of the report becomes <tmp>, the binary's path <ohprof>; the report's
    context (date, hostname, git sha, versions, CPU name, thread count) becomes placeholders, in the
    JSON and wherever its values appear in the text; a Markdown context's host, torch and CUDA
    rows become `| host | <context> |` and so on.
  * `analyze` (and any case given --exact): only the times that measure ohprof itself vary, the
    table's "read:" line and the report's trace.read_ns and paths[].load_ns. Every number of the split
    stays exact.
  * `run` and `compare` (--measured): the device's name (this machine's CPU or GPU) becomes
    <device_name>, durations ("812 ns", "1.840 ms") <dur> (and the padding after one two spaces), percentages <pct>, "(x1.305)" and
    the execution check's FX-graph cache clause <fx-cache> (and its counts "<int>": a hit or a miss follows
    what the machine compiled before), the padding of the "which to deploy" table's columns (two spaces) and its sentence
    <recommendation> (the JSON's deployment choice, leaders, next and text too: which paths lead follows the
    noise),
    "1.10 ± 0.27 times" <ratio>, the outlier count <num>; rows of a "top kernels" table are sorted
    (their order follows noisy times); which path was fastest in the summary becomes <path>. Two kinds
    of text follow the noise and are normalized only when they match their known text exactly: the
    warnings printed or not depending on it (statistical outliers, a slow first iteration, a busy CPU) are
    dropped, and a verdict becomes <verdict>: <suggestion> (in the JSON its evidence too). An explanation
    (compare) takes one of two forms as its gap is or is not within noise: its table header becomes "why A
    against B", its answer "<answer: A against B; KERNELS>" (the kernels clause kept) when it matches
    one of the two forms in full, its remedy lines ("closes it: ...", "C runs ... faster than A" or "C against A: ..., within noise",
    which follow the measured order of the other paths and the noise) are dropped and its residual's share of the gap is dropped; in the JSON `within_noise` becomes
    "<within_noise>", `answer` as in the text, a non-null `residual_share` "<float>", `remedies`
    "<remedies>"; a path's `slower_paths` "<slower paths>" and its suggestion matched without the remedies
    measured slower it may cite; every estimate's `significant` "<significant>", and a ratio's `low`, `high` and `text`
    placeholders too; a path's `run_queue` "<run_queue>" (null on a kernel without schedstat) and the
    cores-busy warning dropped (both follow the machine's load). Otherwise, in the JSON every key, type and string is kept; numbers that are times or statistics of times (keys ending in _ns, mean/median/..., ratio,
    stream ids) become "<int>" / "<float>"; counts fixed by the command line and the model (runs,
    count, ops, launches, counters, ...) stay exact; array lengths stay.
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "cli" / "golden"

# --- text --------------------------------------------------------------------------------------------
DURATION = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?\s(?:ns|us|ms|s)\b")
PERCENT = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?%")
SIZE = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?\s(?:B|kB|MB|GB)\b")  # memory sizes (docs/metrics.md, "Memory")
TIMES_RATIO = re.compile(r"\(x\d+(?:\.\d+)?\)")
RAN_FASTER = re.compile(r"^(\s*)\S+ (?:ran \d+(?:\.\d+)? times faster than \S+ \(95% interval .*\)"
                        r"|and \S+ are within noise: ratio .*)$")
OUTLIERS_FIELD = re.compile(r"outliers: \d+")
DEVICE_LINE = re.compile(r"^device: (\S+) \((.*)\)$")  # run/compare: this machine's CPU or GPU
MARKDOWN_CONTEXT_ROW = re.compile(r"^\| (host|torch|CUDA, CUPTI) \| [^|]* \|$")
# --version: "0.1.0 (35c5846a1624; gzip: ISA-L 2.30.0)"; a report's context row: "0.1.0 (35c5846a1624)"
VERSION_LINE = re.compile(r"^(\d+\.\d+\.\d+) \([0-9a-f]{7,40}(; gzip: (ISA-L|zlib) [0-9.]+)?\)$")
# warnings printed or not depending on the noise of the samples (src/cli/cmd_run.cpp, cmd_compare.cpp,
# src/analysis/path_stats.cpp); dropped only when their whole text is as below
NOISE_WARNINGS = [
    re.compile(r"\d+ of \d+ iterations are statistical outliers; close other programs, pin CPU frequency or "
               r"raise --warmup/--runs"),
    re.compile(r"iterations that are statistical outliers: \S+ \d+ of \d+(, \S+ \d+ of \d+)*; close other programs "
               r"or raise --warmup"),
    # the measuring thread's wait for a CPU follows the machine's load (docs/metrics.md, "Waiting for a core")
    re.compile(r"the measuring thread waited for a CPU for part of these paths' timed wall time: \S+ \d+\.\d%"
               r"(?:, \S+ \d+\.\d%)* \(its run delay in /proc/thread-self/schedstat\): more threads were ready to run "
               r"than there were CPUs, another process's or this one's; the calls that waited are slower by their "
               r"wait, and the median too where most calls waited; measure on a quiet machine, or with fewer "
               r"intra-op threads \(OMP_NUM_THREADS\)"),
    re.compile(r"path \S+: the first measured iteration took \d+\.\d times the median \(a cold start the warm-up "
               r"did not absorb\); raise --warmup"),
]
# The verdict of a measured path depends on the noise too (the shares of busy and dispatch time: the
# eager and compile paths of the tiny MLP move between them when the machine is loaded). A verdict that is
# one of these (src/output/report_text.cpp, verdict_text; the CPU forms, as CI has no GPU) becomes
# <verdict> / <reason> / <suggestion> and its evidence <...>; any other text, or another pairing, stays
# and fails the comparison.
_P = r"\d+\.\d%"
_KERNELS = re.escape('speed up the kernels (torch.compile mode="max-autotune", lower precision)')
# the general CPU advice, or one of the path kinds' own (aoti, aoti:python, compile:cpp-wrapper; which path gets
# which is tested in test/output: VerdictText and VerdictAdvice)
_CPU_HOST = re.escape("the host work around the kernels (") + "(?:" + "|".join(re.escape(rest) for rest in (
    "Python wrapper, guards, allocation, operator dispatch) is the cost: AOTInductor's C++ wrapper (or "
    "compile:cpp-wrapper), a larger batch",
    "allocation, operator dispatch) is the cost: the path is already AOTInductor's C++ runner, with no Python on its "
    "call path; a larger batch amortizes it",
    "the Python loader, allocation, operator dispatch) is the cost: calling the package from C++ (the aoti path) drops "
    "the Python loader around its runner; a larger batch amortizes it",
    "guards, allocation, operator dispatch) is the cost: AOTInductor's C++ wrapper also drops Dynamo's guards and the "
    "Python call; a larger batch amortizes it")) + ")"
# compute-bound: the host's advice follows unless its headroom is negligible (docs/metrics.md, "Headroom")
_COMPUTE = _KERNELS + (r"(?:; host changes will not help|\. Removing the dispatch time could still make it faster, at most "
                       rf"\d+\.\d\dx; for the dispatch part, {_CPU_HOST})")
_NEEDS = r"\(a verdict needs 50% and a lead of 10 points\)"
# a compute-bound verdict of a path whose Inductor kernels do not record themselves (kernels_unrecorded)
_AT_LEAST = re.escape("; busy at least that: this path's Inductor kernels do not record themselves and count as dispatch")
VERDICTS = [
    ("compute-bound", re.compile(rf"CPU kernels busy {_P} of wall \(dispatch {_P}\)(?:{_AT_LEAST})?\. S{_COMPUTE[1:]}")),
    ("host-bound", re.compile(rf"dispatch {_P} of wall \(busy {_P}\)\. T{_CPU_HOST[1:]}")),
    ("mixed", re.compile(rf"no share dominates: CPU kernels busy {_P} and dispatch {_P} of wall {_NEEDS}\. For the busy "
                         rf"part, {_KERNELS}; for the dispatch part, {_CPU_HOST}")),
    ("mixed", re.compile(rf"no share dominates: dispatch {_P} and busy {_P} of wall {_NEEDS}\. For the dispatch part, "
                         rf"{_CPU_HOST}; for the busy part, {_KERNELS}")),
    # a path whose CPU kernels do not all record themselves, unless its busy share dominates (docs/metrics.md,
    # "Verdict": kernels_unrecorded)
    ("unknown", re.compile(re.escape("this path's Inductor kernels were built without cpp.enable_kernel_profile, so "
                                     "they do not record themselves and their time counts as dispatch: dispatch ") +
                           _P + re.escape(" of wall is at most the host's share and busy ") +
                           _P + re.escape(" at least the kernels', so the shares decide no verdict. Measure "
                                          "with --kernel-profile (compare; a package of your own: "
                                          "examples/export_model.py --kernel-profile)"))),
]
VERDICT_REASONS = {"compute-bound": ("dominant_share",), "host-bound": ("dominant_share",), "mixed": ("close_shares",),
                   "unknown": ("kernels_unrecorded",)}
# the verdict's evidence that follows the noise with it
VERDICT_NOISY = ("verdict", "reason", "suggestion", "first", "second", "busy_share", "host_bound_share",
                 "device_wait_share", "host_state_share", "blocking_share", "busy_headroom", "host_bound_headroom",
                 "device_wait_headroom", "host_headroom_negligible")
# Whether Inductor loaded a compile from its on-disk cache follows what ran on the machine before.
FX_CACHE_CLAUSE = re.compile(r"(compiled from Inductor's FX-graph cache \(\d+ hits?\)|Inductor generated its code "
                             r"\(\d+ FX-graph cache miss(?:es)?\)|Inductor's FX-graph cache: \d+ hits?, \d+ miss(?:es)?)")
DEPLOYMENT_SENTENCE = re.compile(r"^  (deploy |the choice depends |one path weighed|unknown: )")
TERM_WITHIN_NOISE = re.compile(r"; within noise \(its (?:<pct>|95%) interval contains zero\)$")
HEADROOM_LINE = re.compile(r"^(\s+headroom:\s+)at most .* \(Amdahl's bound on this timeline\)$")
# A remedy's line (report_text.cpp, explanation_notes): "closes it: ..." beyond noise, "C against A: ...,
# within noise" otherwise; which paths beat the slower one, and whether beyond noise, follow the noise.
CLOSES_LINE = re.compile(r"^\s+(?:closes it: |\S+ against \S+: <dur> ± <dur>, within noise$|"
                         r"\S+ runs <dur> ± <dur> faster than \S+$)")
# Whether Dynamo's ranges disagree with the layers (docs/metrics.md, "Layers") follows the noise: the second
# view's line is matched without it, and the flags are "<views>" in the JSON.
VIEWS_DISAGREE = re.compile(r"; the views DISAGREE: .*$")
# An explanation's header and answer take one of two forms as the gap is or is not within noise (with
# few samples on a loaded machine, either): src/output/report_text.cpp, explanation_text.
WHY_LINE = re.compile(r"^why (\S+) (?:is (?:slower|faster) than|against) (\S+) \((.*)\)$")
_KERNELS_CLAUSE = r"(kernels unknown|kernels (?:the same|differ) \(<dur> ± <dur>)(?:, within noise)?\)?"
ANSWER_FORMS = (
    re.compile(rf"(\S+) is <dur> ± <dur> (?:slower|faster) than (\S+): {_KERNELS_CLAUSE}(?:; .*)?"),
    # "95%" is "<pct>" once the percentages are normalized
    re.compile(rf"(\S+) and (\S+) are within noise: the gap is <dur> ± <dur> \(its (?:<pct>|95%) interval contains zero\); "
               rf"{_KERNELS_CLAUSE}(?:; (?:kernels dominate|host work dominates|neither kernels nor host work dominates) \(.*\))?"),
)
RESIDUAL_LINE = re.compile(r"^(\s+residual\s+<dur> ± <dur>\s+)(?:<pct> of the gap: )?(in no term above)$")


def normalized_answer(answer: str) -> str | None:
    """"<answer: A against B; KERNELS>" for an answer of one of the two known forms, else None."""
    for form in ANSWER_FORMS:
        match = form.fullmatch(answer)
        if match:
            kernels = match.group(3) if match.group(3) == "kernels unknown" else match.group(3) + ")"
            return f"<answer: {match.group(1)} against {match.group(2)}; {kernels}>"
    return None
VERDICT_LINE = re.compile(r"^(\s+verdict:\s+)(\S+): (.*)$")


# A suggestion may end citing the remedies its run measured slower (docs/metrics.md, "Remedies measured
# slower"): which ones follows the noise, so the known text is matched without it.
SLOWER_REMEDIES = re.compile(r"\. Measured slower than \S+ in this run, of the remedies named: .*$")


def known_verdict(verdict: str, suggestion: str) -> bool:
    suggestion = SLOWER_REMEDIES.sub("", suggestion)
    return any(v == verdict and p.fullmatch(suggestion) for v, p in VERDICTS)


WARNING_PREFIX = re.compile(r"^ohprof \w+: warning: ")


def is_noise_warning(message: str) -> bool:
    return any(p.fullmatch(message) for p in NOISE_WARNINGS)


class Normalizer:
    def __init__(self, measured: bool, tokens: list[tuple[str, str]], context_values: dict[str, str]):
        self.measured = measured
        # longest first, so a folder inside another token's folder wins
        self.tokens = sorted(tokens, key=lambda t: len(t[1]), reverse=True)
        self.context_values = {k: v for k, v in context_values.items() if v}

    def paths(self, text: str) -> str:
        for name, value in self.tokens:
            if value:
                text = text.replace(value, name)
        return text

    def string(self, text: str) -> str:
        """A string outside a table: paths, context values; in measured cases the varying numbers too."""
        text = self.paths(text)
        for value, placeholder in self.context_values.items():
            text = text.replace(value, placeholder)
        if self.measured:
            text = FX_CACHE_CLAUSE.sub("<fx-cache>", text)
            text = DURATION.sub("<dur>", text)
            text = SIZE.sub("<size>", text)
            text = PERCENT.sub("<pct>", text)
            text = TIMES_RATIO.sub("(x<ratio>)", text)
        return text

    def text(self, text: str) -> str:
        lines = text.split("\n")
        out: list[str] = []
        in_deployment = False  # the "which to deploy" block: columns padded to values that vary
        for line in lines:
            in_deployment = line.startswith("which to deploy (") or (in_deployment and line.startswith("  "))
            line = VERSION_LINE.sub(lambda m: f"{m.group(1)} (<git_sha>{'; gzip: <inflate>' if m.group(2) else ''})", line)
            # --export-markdown's context: the machine's name and thread count (docs/reports.md)
            line = MARKDOWN_CONTEXT_ROW.sub(r"| \1 | <context> |", line)
            if self.measured:
                match = WARNING_PREFIX.match(line)
                if match and is_noise_warning(line[match.end():]):
                    continue
                ran = RAN_FASTER.match(line)
                if ran:
                    line = f"{ran.group(1)}<ratio of two paths, with its interval>"
                # an explanation term's significance follows the noise (docs/metrics.md, "Significance")
                line = TERM_WITHIN_NOISE.sub("", line)
                headroom = HEADROOM_LINE.match(line)
                if headroom:  # its factors are the shares' and follow the noise with them
                    line = f"{headroom.group(1)}<headroom>"
                line = OUTLIERS_FIELD.sub("outliers: <num>", line)
                verdict = VERDICT_LINE.match(line)
                if verdict and known_verdict(verdict.group(2), verdict.group(3)):
                    line = f"{verdict.group(1)}<verdict>: <suggestion>"
                line = DEVICE_LINE.sub(r"device: \1 (<device_name>)", line)
            elif re.match(r"^\s+read:\s", line):
                line = FX_CACHE_CLAUSE.sub("<fx-cache>", line)
                line = DURATION.sub("<dur>", line)
                line = SIZE.sub("<size>", line)
            line = self.string(line)
            if self.measured:
                # an explanation's "closes it" lines follow the measured order of the other paths
                if CLOSES_LINE.match(line):
                    continue
                if line.lstrip().startswith("second view: "):
                    line = VIEWS_DISAGREE.sub("", line)
                why = WHY_LINE.match(line)
                if why:
                    line = f"why {why.group(1)} against {why.group(2)} ({why.group(3)})"
                if line.startswith("  ") and not line.startswith("   "):
                    answer = normalized_answer(line[2:])
                    if answer:
                        line = "  " + answer
                # a column after a duration is padded to the duration's width, which varies; so is the
                # right-aligned "<dur> ± <dur>" column of an explanation's terms
                line = re.sub(r"(<dur>) {2,}(?=\S)", r"\1  ", line)
                line = re.sub(r"^(\s+[^:]*[^:\s]) {2,}(<dur> ± <dur>)", r"\1  \2", line)
                line = RESIDUAL_LINE.sub(r"\1\2", line)
                if in_deployment and not line.startswith("which to deploy ("):
                    line = re.sub(r"(?<=\S) {2,}", "  ", line)
                    if DEPLOYMENT_SENTENCE.match(line):  # its leaders follow the noise
                        line = "  <recommendation>"
            out.append(line)
        if self.measured:
            out = sort_kernel_rows(out)
        return "\n".join(out)


def sort_kernel_rows(lines: list[str]) -> list[str]:
    """The rows under "top kernels:" are ordered by time, which varies: sort them by their text (and drop
    the padding of their right-aligned columns, whose width follows the numbers)."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        out.append(lines[i])
        if lines[i].lstrip().startswith("top kernels:"):
            indent = len(lines[i]) - len(lines[i].lstrip())
            j = i + 1
            rows = []
            while j < len(lines) and lines[j].strip() and len(lines[j]) - len(lines[j].lstrip()) > indent \
                    and not lines[j].lstrip().startswith("… and "):
                rows.append(lines[j])
                j += 1
            out.extend(sorted(re.sub(r"(?<=\S) {2,}", "  ", row) for row in rows))  # right-aligned numbers
            i = j
            continue
        i += 1
    return out


# --- JSON --------------------------------------------------------------------------------------------
TIME_KEY = re.compile(r"(_ns(_[ab])?|_share|^mean|^median|^mad|^min|^max|^stddev|^relative_noise|^outliers|^ratio|^stream|"
                      r"^queue_mean|^queue_max)$")
CONTEXT_KEPT = {"ohprof_version", "argv", "device"}


def placeholder(value):
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return "<int>"
    if isinstance(value, float):
        return "<float>"
    return "<str>"


def verdict_fits_its_kernels(verdict: str, kernels_unrecorded: bool) -> bool:
    """docs/metrics.md, "Verdict": with kernels that do not record themselves only compute-bound or unknown
    may stand, and unknown (kernels_unrecorded) only with them."""
    if kernels_unrecorded:
        return verdict in ("compute-bound", "unknown")
    return verdict != "unknown"


def normalize_json(report, norm: Normalizer):
    if not isinstance(report, dict):
        return report
    exact = not norm.measured

    def walk(value, key: str, parents: tuple[str, ...]):
        if norm.measured and key == "verdict" and isinstance(value, dict) \
                and known_verdict(value.get("verdict", ""), value.get("suggestion", "")) \
                and value.get("reason") in VERDICT_REASONS[value["verdict"]] \
                and verdict_fits_its_kernels(value["verdict"], bool(value.get("kernels_unrecorded"))):
            return {k: (f"<{k}>" if k in VERDICT_NOISY else walk(v, k, parents + (key,)))
                    for k, v in value.items()}
        if norm.measured and key == "explanations" and isinstance(value, dict) and not parents:
            out = {k: walk(v, k, parents + (key,)) for k, v in value.items()}
            out["within_noise"] = "<within_noise>"
            answer = normalized_answer(out.get("answer", ""))
            if answer:
                out["answer"] = answer
            return out
        if norm.measured and "deployment" in parents and key in ("choice", "leaders"):
            return "<paths>"  # which paths lead follows the noise, as the fastest does
        if norm.measured and "deployment" in parents and key == "next" and (value is None or isinstance(value, str)):
            return "<next>"  # null when every path leads: with 5 samples all three can be within noise
        if norm.measured and key in ("guards_exceed_lookup", "layers_exceed_outside") and "dynamo_ranges" in parents:
            return "<views>"
        if norm.measured and key == "run_queue" and "paths" in parents:
            return "<run_queue>"  # null where the kernel keeps no schedstat (docs/metrics.md, "Waiting for a core")
        if isinstance(value, dict):
            return {k: walk(v, k, parents + (key,)) for k, v in value.items()}
        if isinstance(value, list):
            if norm.measured and key == "warnings" and not parents:
                # a warning is a string (schema 1) or an object with a "message" (typed warnings)
                value = [w for w in value if not is_noise_warning(w if isinstance(w, str) else
                                                                  w.get("message", "") if isinstance(w, dict) else "")]
            if norm.measured and key == "remedies" and parents[-1:] == ("explanations",):
                return "<remedies>"  # which other paths beat the slower one varies with the noise
            if norm.measured and key == "slower_paths" and parents[-1:] == ("paths",):
                return "<slower paths>"  # which paths ran slower beyond noise varies with it too
            items = [walk(v, key, parents) for v in value]
            if norm.measured and key == "kernels" and parents[-1:] == ("split",):
                items.sort(key=lambda k: json.dumps(k, sort_keys=True))  # ordered by total time
            return items
        if isinstance(value, str):
            if norm.measured and "deployment" in parents and key in ("next", "text"):
                return f"<{key}>"
            if norm.measured and key in ("faster", "slower") and parents[-1:] == ("ratios",):
                return "<path>"  # which path was fastest varies
            if norm.measured and key == "text" and parents[-1:] == ("ratios",):
                return "<ratio of two paths, with its interval>"
            return norm.string(value)
        if norm.measured and key == "significant" and isinstance(value, bool):
            return "<significant>"  # whether an interval excludes zero follows the noise
        if isinstance(value, bool) or value is None:
            return value
        if norm.measured and key in ("low", "high") and parents[-1:] == ("ratios",):
            return placeholder(value)
        if norm.measured and key.endswith("_bytes") and (parents[-1:] == ("memory",) or "deployment" in parents
                                                         or "what_if" in parents):
            return placeholder(value)  # the process's memory varies from run to run
        # numbers
        if key in ("read_ns", "load_ns"):
            return placeholder(value)
        if norm.measured and key in ("fx_cache_hits", "fx_cache_misses"):
            return placeholder(value)  # a cache hit or miss follows what the machine compiled before
        if exact:
            return value
        if TIME_KEY.search(key):
            return placeholder(value)
        return value

    out = {}
    for key, value in report.items():
        if key == "context" and isinstance(value, dict):
            ctx = {}
            for k, v in value.items():
                if k == "argv":
                    ctx[k] = ["<ohprof>"] + [norm.string(a) for a in v[1:]]
                elif k == "device" and isinstance(v, dict):
                    # run/compare: the CPU or GPU of this machine; analyze: the trace's device (exact)
                    ctx[k] = {dk: (placeholder(dv) if norm.measured and dk == "name" else dv) for dk, dv in v.items()}
                elif k in CONTEXT_KEPT:
                    ctx[k] = v
                elif k == "cpu_threads" and exact:
                    ctx[k] = v
                else:
                    ctx[k] = placeholder(v)
            out[key] = ctx
        else:
            out[key] = walk(value, key, ())
    return out


def dump_json(value, indent: int = 0) -> str:
    """Indented JSON with sorted keys; an array of scalars stays on one line (the goldens stay short)."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{pad}{json.dumps(k)}: {dump_json(v, indent + 1)}" for k, v in sorted(value.items())]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            return "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in value) + "]"
        return "[\n" + ",\n".join(pad + dump_json(v, indent + 1) for v in value) + "\n" + "  " * indent + "]"
    return json.dumps(value, ensure_ascii=False)


# --- running and comparing ---------------------------------------------------------------------------
def run_case(binary: str, args: list[str], with_json: bool, tmp: str):
    command = [binary] + args
    report_path = os.path.join(tmp, "report.json")
    if with_json:
        command += ["--export-json", report_path]
    proc = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=900)
    report = None
    if with_json and os.path.exists(report_path):
        with open(report_path, encoding="utf-8") as f:
            report = json.load(f)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"), report


def context_values(report) -> dict[str, str]:
    if not isinstance(report, dict) or not isinstance(report.get("context"), dict):
        return {}
    ctx = report["context"]
    values = {}
    for key, name in (("git_sha", "<git_sha>"), ("date", "<date>"), ("torch_version", "<torch_version>")):
        if isinstance(ctx.get(key), str) and ctx[key] not in ("", "none"):
            values[ctx[key]] = name
    return values


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True, help="the ohprof binary")
    parser.add_argument("--case", required=True, help="name of the golden files (test/cli/golden/<case>.*)")
    parser.add_argument("--golden-dir", default=str(GOLDEN_DIR))
    parser.add_argument("--update", action="store_true",
                        help="rewrite the golden files from this run (also: environment OHPROF_GOLDEN_UPDATE=1)")
    parser.add_argument("--no-json", action="store_true", help="do not add --export-json")
    parser.add_argument("--path-token", action="append", default=[], metavar="NAME=DIR",
                        help="write DIR as <NAME> (repeatable)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--exact", action="store_true", help="keep every number but ohprof's own read/load times")
    mode.add_argument("--measured", action="store_true", help="placeholders for the measured numbers")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="-- then the arguments of ohprof")
    opts = parser.parse_args()
    opts.update = opts.update or os.environ.get("OHPROF_GOLDEN_UPDATE", "") not in ("", "0")
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args  # may be empty (ohprof alone)
    measured = opts.measured or (not opts.exact and args[:1] in (["run"], ["compare"]))

    binary = os.path.abspath(opts.binary)
    tmp = tempfile.mkdtemp(prefix="ohprof-golden-")
    try:
        code, out, err, report = run_case(binary, args, not opts.no_json, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    tokens = [("<tmp>", tmp), ("<ohprof>", binary)]
    for token in opts.path_token:
        name, _, value = token.partition("=")
        tokens.append((f"<{name}>", os.path.abspath(value)))
    norm = Normalizer(measured, tokens, context_values(report))
    actual = {
        "stdout": norm.text(out),
        "stderr": norm.text(err),
        "json": dump_json({"exit_code": code, "report": normalize_json(report, norm)}) + "\n",
    }

    golden = Path(opts.golden_dir)
    if opts.update:
        golden.mkdir(parents=True, exist_ok=True)
        for ext, text in actual.items():
            (golden / f"{opts.case}.{ext}").write_text(text, encoding="utf-8")
        print(f"golden {opts.case}: updated {golden}/{opts.case}.{{stdout,stderr,json}} (exit code {code}); "
              f"review the diff before committing")
        return 0

    failed = False
    for ext, text in actual.items():
        path = golden / f"{opts.case}.{ext}"
        if not path.exists():
            print(f"golden {opts.case}: {path} is missing (generate it with --update)")
            failed = True
            continue
        expected = path.read_text(encoding="utf-8")
        if expected != text:
            failed = True
            print(f"golden {opts.case}: {ext} differs from {path}:")
            sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                                       f"golden/{opts.case}.{ext}", f"actual/{opts.case}.{ext}"))
            print()
    if failed:
        print(f"golden {opts.case}: FAILED (raw exit code {code}). If the change is intended, rerun with --update "
              f"and review the diff of test/cli/golden.")
        return 1
    print(f"golden {opts.case}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
