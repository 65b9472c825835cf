#!/usr/bin/env python3
"""The Python API (python/ohprof/api.py) on the user's own model object and tensors, as a notebook uses it.

  python_api_check.py --python VENV_PY --extension SO --front OHPROF --source-dir DIR --work DIR [--screenshot]

The parent starts a child in VENV_PY (torch) that imports ohprof from the checkout and the measuring
extension SO, and checks what the child did and printed:
  1. ohprof.compare(model, (x,)) measures aoti, compile and eager on the live object: a forward hook on
     the user's module counts at least the eager path's iterations; the report's inputs are x's shape;
  2. it printed nothing (stdout and stderr empty up to a marker), and verbose=True prints the table;
  3. with cache_dir a second compare of the same model reuses the artifacts, and a model with other
     weights does not (the fingerprint); cold_start rebuilds a model object (a class of a module on the
     child's own sys.path, with a dropout that eval mode silences) in fresh eager and compile processes from
     its pickle, and where the object references a class or function of __main__ or a lambda, names it in a
     warning for those paths while the AOTI path's processes are measured (and with only the AOTI path
     asked, the object is not pickled: no warning);
  4. ohprof.run(package, x) and ohprof.analyze(trace) return their reports, whose str() is the table the
     command prints (exactly as verbose=True printed it) and whose html() a page for analyze too; with
     OHPROF_FRONT (the build's torch-free front, as pip installs one beside the package) analyze, table(),
     html(), load and a refusal give what the extension's route gave from the same JSON;
     ohprof.load reads a saved report back to the same JSON, table and page, and refuses a missing file (3)
     and a JSON that is no report (2); ohprof.sweep over two batch
     sizes returns one point per size, and with (tuple, dict of keyword inputs) measures the user's
     tensors resized at each size (the keyword tensor too); with dim=1 it sweeps a sequence length shared
     by token ids and their mask (both resized; _swept_inputs's choice and errors on known inputs);
     Report.save writes a sweep with its points' reports beside it (STEM.points/, the JSON's names rewritten),
     which ohprof.load reads back and ohprof.diff compares with the sweep in memory (the same samples: no
     change); a sweep made from a dict is refused by save and diff (2), a missing folder is 8;
  5. a bad input raises OhprofError with exit code 6 and the message alone, its advice naming the
     keyword argument, not the command line's flag; a non-module is TypeError;
     a torch.export.ExportedProgram is measured as --exported (each path's source is the program);
  6. Python's SIGINT handler is back after each call; Ctrl-C during a run raises ohprof.Interrupted (a
     KeyboardInterrupt) with the report of what it measured;
  7. _repr_html_ is an iframe whose srcdoc is the report's HTML page; laid out by headless Chromium it
     shows the page's tables (skipped without Chromium), with --screenshot a picture to look at.
Exit 0 when all hold, 1 otherwise, 77 when Chromium is missing (the rest still checked first).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MARKER = "== verbose from here =="

CHILD = r'''
import html, json, os, signal, sys
import torch
import ohprof
import tiny_models

work = sys.argv[1]
trace = sys.argv[2]
front = sys.argv[3]
out = {}
model = tiny_models.tiny_mlp()
calls = []
model.register_forward_hook(lambda *a: calls.append(1))
x = torch.randn(2, 16)
quick = dict(device="cpu", warmup=1, min_runs=3, max_runs=3, min_time_s=0)
cache = os.path.join(work, "cache")
r = ohprof.compare(model, (x,), paths=("aoti", "compile", "eager"), explain=False, cache_dir=cache, **quick)
out["kind"] = r.kind
out["repr"] = repr(r)
# the repr's durations, as the table prints them, on medians whose text is known by hand
from ohprof.api import Report
known = Report({"kind": "compare", "warnings": [{}], "paths": [
    {"name": "aoti", "wall_ns": {"median": 16031000}}, {"name": "eager", "wall_ns": {"median": 22770}},
    {"name": "compile", "wall_ns": {"median": 950.4}}, {"name": "aoti:python", "wall_ns": {}}]})
out["repr_known"] = repr(known)
known_sweep = Report({"kind": "sweep", "warnings": [{}, {}], "config": {"axis": {"name": "batch", "values": [1, 4, 16]},
                      "paths": ["aoti", "eager"]}, "points": [{"status": "measured"}, {"status": "failed"}, {"status": "measured"}]})
out["repr_sweep"] = repr(known_sweep)
out["samples"] = {k: len(v["samples_ns"]) for k, v in r.paths.items()}
out["inputs"] = r.to_json()["config"]["inputs"]
out["hook_calls"] = len(calls)
out["cached_first"] = r.to_json()["artifacts"]["cached"]
out["repr_html"] = r._repr_html_()
out["page"] = r.html()
out["handler_restored"] = signal.getsignal(signal.SIGINT) is signal.default_int_handler
package = r.to_json()["artifacts"]["aoti_package"]
again = ohprof.compare(model, (x,), paths=("aoti", "eager"), explain=False, cache_dir=cache, **quick)
out["cached_again"] = again.to_json()["artifacts"]["cached"]
other = tiny_models.tiny_mlp()
with torch.no_grad():
    for p in other.parameters():
        p.add_(1.0)
third = ohprof.compare(other, (x,), paths=("aoti", "eager"), explain=False, cache_dir=cache, **quick)
out["cached_other"] = third.to_json()["artifacts"]["cached"]
# cold_start: the object, pickled, rebuilt in each fresh process: a class of a module the user put on sys.path
# in this process only (the spec's sys.path finds it there), with a dropout that only eval mode keeps quiet
with open(os.path.join(work, "user_models.py"), "w") as f:
    f.write("import torch\n"
            "class Dropped(torch.nn.Module):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.linear = torch.nn.Linear(16, 8)\n"
            "        self.drop = torch.nn.Dropout(0.5)\n"
            "    def forward(self, t):\n"
            "        return self.drop(self.linear(t))\n")
sys.path.insert(0, work)
import user_models
cold = ohprof.compare(user_models.Dropped(), (x,), paths=("eager", "compile"), explain=False, cold_start=1,
                      **quick).to_json()
states = lambda p: [[s["cache"], s["failed"], s["unavailable"], [q["output_matches"] for q in s["samples"]]]
                    for s in p["cold_start"]["states"]]
out["cold"] = {p["name"]: states(p) for p in cold["paths"] if p["cold_start"]}
out["cold_warnings"] = [w["message"] for w in cold["warnings"] if w["code"].startswith("cold-start")]
class Local(torch.nn.Module):  # defined in __main__: a fresh process cannot import it
    def forward(self, t):
        return t * 2
def helper(t):  # a function of __main__ that the model holds
    return t
held = tiny_models.tiny_mlp()
held.act = helper
refused = {}
for name, obj, paths in (("main_class", Local(), ("aoti", "eager")), ("lambda_hook", model, ("eager",)),
                         ("main_function", held, ("eager",))):
    report = ohprof.compare(obj, (x,), paths=paths, explain=False, cold_start=1, **quick).to_json()
    refused[name] = {"warnings": [w["message"] for w in report["warnings"] if w["code"] == "cold-start-incomplete"],
                     "states": {p["name"]: states(p) for p in report["paths"] if p["cold_start"]}}
out["cold_refused"] = refused
# only an AOTI path asked: the object (its lambda hook would be refused) is not pickled at all
aoti_only = ohprof.compare(model, (x,), paths=("aoti",), explain=False, cold_start=1, **quick).to_json()
# what the reports call the model: its class (comparable between calls), with the weights' hash under cache_dir
out["model_names"] = [r.to_json()["artifacts"]["model"], aoti_only["artifacts"]["model"]]
out["cold_aoti_only"] = {"warnings": [w["message"] for w in aoti_only["warnings"] if w["code"].startswith("cold-start")],
                         "states": {p["name"]: states(p) for p in aoti_only["paths"] if p["cold_start"]}}
run = ohprof.run(package, x, device="cpu", warmup=1, runs=3)
# Ctrl-C during a call (SIGINT to this process, as a notebook's interrupt): Interrupted, with what it measured
import threading, time
threading.Timer(2.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
started = time.monotonic()
try:
    ohprof.run(package, x, device="cpu", warmup=1, runs=10**7)
    out["interrupted"] = None
except KeyboardInterrupt as e:  # Interrupted, or (a failure) a bare one before the command's handler
    out["interrupted"] = [isinstance(e, ohprof.Interrupted), isinstance(e, KeyboardInterrupt), str(e), e.report.kind if e.report else None,
                          e.report.to_json().get("interrupted") if e.report else None,
                          len(e.report.paths["aoti"]["samples_ns"]) if e.report else 0, time.monotonic() - started,
                          signal.getsignal(signal.SIGINT) is signal.default_int_handler]
out["run"] = [run.kind, len(run.paths["aoti"]["samples_ns"])]
analysis = ohprof.analyze(trace)
out["analyze_kind"] = analysis.kind
# the table the command prints, from the report (str and table(), silent); its page; a saved report loaded back
out["analyze_table"] = str(analysis)
out["analyze_page"] = ["<table" in analysis.html(), "triton_example" in analysis.html(),
                       (analysis._repr_html_() or "").startswith("<iframe")]
import gzip
with gzip.open(os.path.join(work, "analysis.json.gz"), "wt") as f:
    json.dump(analysis.to_json(), f)
loaded = ohprof.load(os.path.join(work, "analysis.json.gz"))
out["loaded"] = [loaded.to_json() == analysis.to_json(), loaded.table() == str(analysis), loaded.html() == analysis.html()]
out["load_errors"] = []
with open(os.path.join(work, "not-a-report.json"), "w") as f:
    f.write("[1, 2]")
for bad in ("missing.json", "not-a-report.json"):
    try:
        ohprof.load(os.path.join(work, bad))
        out["load_errors"].append(None)
    except ohprof.OhprofError as e:
        out["load_errors"].append([e.code, e.message.replace(work, "WORK")])
unreadable = ohprof.Report({"kind": "compare"})  # no context, no paths: show refuses it
out["unreadable"] = [str(unreadable) == repr(unreadable), unreadable._repr_html_()]
def refusal(report):
    try:
        report.table()
    except ohprof.OhprofError as e:
        return [e.code, e.message]
# the same through the torch-free front (as pip installs it beside the package): the same table, page and
# refusal from the same JSON as the extension drew them, and analyze's report
out["refusal"] = refusal(unreadable)
def missing_trace():
    try:
        ohprof.analyze(os.path.join(work, "no-such-trace.json"))
    except ohprof.OhprofError as e:
        return [e.code, e.message]
out["missing_trace"] = missing_trace()
diffs = os.path.join(os.path.dirname(os.path.dirname(trace)), "diff")
diff_files = [os.path.join(diffs, name) for name in ("tiny-mlp-b1.json.gz", "tiny-mlp-b1-run2.json.gz")]
by_extension = ohprof.diff(*diff_files, threshold=0.01)
out["diff"] = [by_extension.to_json()["outcome"], by_extension.table().splitlines()[0]]
os.environ["OHPROF_FRONT"] = front
native_load = ohprof.api._native.load
def no_extension():
    raise AssertionError("the front's route loaded the measuring extension")
ohprof.api._native.load = no_extension  # the front's route must not need it
by_front = ohprof.analyze(trace)
out["front"] = {"kind": by_front.kind, "table": str(by_front),
                "argv": [by_front.to_json()["context"]["argv"][:2], analysis.to_json()["context"]["argv"][:2]],
                "same": [ohprof.Report(analysis.to_json()).table() == out["analyze_table"],
                         ohprof.Report(analysis.to_json()).html() == analysis.html(),
                         refusal(ohprof.Report({"kind": "compare"})) == out["refusal"],
                         ohprof.load(os.path.join(work, "analysis.json.gz")).table() == out["analyze_table"],
                         missing_trace() == out["missing_trace"],
                         ohprof.diff(*diff_files, threshold=0.01).table() == by_extension.table()],
                # a message that holds a newline (the kind is the file's text) comes back whole
                "newline": refusal(ohprof.Report({"kind": "foo\nbar", "schema_version": 1}))}
# a job with a trace that cannot be read: exit 15, and the others' analysis comes with the error
ranks_dir = os.path.dirname(trace)
try:
    ohprof.analyze([os.path.join(ranks_dir, "sampled_rank-0.json.gz"), os.path.join(ranks_dir, "sampled_rank-1.json.gz"),
                    os.path.join(work, "no-such-rank.json")])
    out["ranks_failed"] = None
except ohprof.OhprofError as e:
    out["ranks_failed"] = [e.code, repr(e.report), e.report.to_json()["job"]["failed"] if e.report else None,
                           "rank" in str(e.report)]
out["analyze_repr"] = repr(by_front)
ohprof.api._native.load = native_load
del os.environ["OHPROF_FRONT"]
out["newline"] = refusal(ohprof.Report({"kind": "foo\nbar", "schema_version": 1}))
swept = ohprof.sweep(model, x, [1, 2], paths=("aoti", "eager"), device="cpu")
out["sweep_points"] = [p.get("value") for p in swept.to_json().get("points", [])]
out["sweep_page"] = ["ohprof-latency-aoti" in swept.html(), (swept._repr_html_() or "").startswith("<iframe")]
# a sweep loaded from its JSON draws its page again (matplotlib, no torch); one with nothing to draw refuses
loaded_sweep = ohprof.Report(swept.to_json())
out["loaded_sweep_page"] = [all(f"ohprof-{chart}-" in loaded_sweep.html() for chart in ("latency", "throughput", "ratio")),
                            loaded_sweep.html().count("<svg") == swept.html().count("<svg") == 3,
                            (loaded_sweep._repr_html_() or "").startswith("<iframe")]
# the sweep keeps its points' reports: saved beside the file (names rewritten), loaded back, and diffed, in memory
# or saved; one made from a dict has none to save or diff
os.makedirs(os.path.join(work, "saved"), exist_ok=True)
saved_sweep = os.path.join(work, "saved", "my-sweep.json")
swept.save(saved_sweep)
with open(saved_sweep) as f:
    saved_json = json.load(f)
self_diff = ohprof.diff(swept, ohprof.load(saved_sweep))
out["sweep_saved"] = {
    "original": [[p.get("report")] + [q.get("report") for q in p.get("passes") or []] for p in swept.to_json()["points"]],
    "saved": [[p.get("report")] + [q.get("report") for q in p.get("passes") or []] for p in saved_json["points"]],
    "files": sorted(os.listdir(os.path.join(work, "saved", "my-sweep.points"))),
    "rest_same": {k: v for k, v in saved_json.items() if k != "points"} == {k: v for k, v in swept.to_json().items()
                                                                            if k != "points"},
    "point_json": [json.load(open(os.path.join(work, "saved", p["report"])))["kind"] for p in saved_json["points"]],
    "diff": [self_diff.to_json()["outcome"], sorted({p["verdict"] for p in self_diff.to_json()["paths"]}),
             sorted({p["base_count"] == p["new_count"] > 0 for p in self_diff.to_json()["paths"]})]}
out["sweep_save_errors"] = []
for call in (lambda: ohprof.Report(swept.to_json()).save(os.path.join(work, "saved", "dict.json")),
             lambda: ohprof.diff(ohprof.Report(swept.to_json()), swept),
             lambda: swept.save(os.path.join(work, "no-such-folder", "s.json"))):
    try:
        call()
        out["sweep_save_errors"].append(None)
    except ohprof.OhprofError as e:
        out["sweep_save_errors"].append([e.code, e.message.replace(work, "WORK")])
out["sweep_save_errors"].append(sorted(os.listdir(work)).count("no-such-folder"))
out["empty_sweep_page"] = []
for points in ([], 5):  # nothing measured to draw; not a list
    try:
        ohprof.Report({"kind": "sweep", "points": points}).html()
        out["empty_sweep_page"].append(None)
    except ohprof.OhprofError as e:
        out["empty_sweep_page"].append([e.code, e.message])
try:
    ohprof.compare(model, (torch.randn(2, 17),), paths=("aoti", "eager"), **quick)
    out["bad_input"] = None
except ohprof.OhprofError as e:
    out["bad_input"] = [e.code, e.message]
try:  # a dtype ohprof does not measure: the file the call saved the inputs to is named `inputs`
    ohprof.compare(model, (x.to(torch.complex64),), paths=("eager",), **quick)
    out["dtype_error"] = None
except ohprof.OhprofError as e:
    out["dtype_error"] = [e.code, e.message]
# An ExportedProgram (what export(..., strict=False) gives for a model strict export refuses) is --exported:
# every path starts from the program, whose module computes what the user's module does.
program = torch.export.export(model, (x,))
from_program = ohprof.compare(program, (x,), paths=("aoti", "compile", "eager"), explain=False, **quick).to_json()
out["exported"] = {p["name"]: [p["source"], len(p["samples_ns"])] for p in from_program["paths"]}
out["exported_checks"] = [p["output_check"]["passed"] for p in from_program["paths"] if p["name"] != "eager"]
swept_kw = ohprof.sweep(tiny_models.two_inputs(), ((x,), {"scale": torch.rand(2, 1)}), [1, 3],
                        paths=("aoti", "eager"), device="cpu").to_json()
out["sweep_kwargs"] = [bool(swept_kw["config"]["inputs_file"])] + [[p["status"], p["inputs"]] for p in swept_kw["points"]]
# a sequence length: dim=1 of every tensor that has it, the ids and their mask (ids within the vocabulary)
ids = torch.randint(0, 100, (2, 6))
swept_seq = ohprof.sweep(tiny_models.masked_tokens(), ((ids,), {"attention_mask": torch.ones(2, 6, dtype=torch.int64)}),
                         [3, 12], dim=1, paths=("aoti", "eager"), device="cpu").to_json()
out["sweep_seq"] = [swept_seq["config"]["axis"]["name"]] + [[p["status"], p["inputs"]] for p in swept_seq["points"]]
from ohprof.api import _swept_inputs
both = ((ids, torch.tensor(2.0)), {"mask": ids, "flag": True, "scale": torch.ones(2)})
out["swept_inputs"] = [_swept_inputs(torch, both, 1, None), _swept_inputs(torch, both, 0, None),
                       _swept_inputs(torch, both, 1, ["mask", 0]), _swept_inputs(torch, both, 0, "scale")]
out["sweep_refusals"] = []
for call in (lambda: ohprof.sweep(model, x, [4]), lambda: ohprof.sweep(model, x, [0, 4]),
             lambda: ohprof.sweep(model, x, [1, 2], swept=[]), lambda: ohprof.sweep(model, x, [1, 2], dim=2),
             lambda: ohprof.sweep(model, x, [1, 2], batch=[1, 2])):
    try:
        call()
        out["sweep_refusals"].append(None)
    except (TypeError, ValueError) as e:
        out["sweep_refusals"].append([type(e).__name__, str(e)])
try:  # values as sweep's text: the command's own check, in the API's words
    ohprof.sweep(model, x, "4..4")
    out["sweep_text_values"] = None
except ohprof.OhprofError as e:
    out["sweep_text_values"] = [e.code, e.message]
for bad in (("nope",), (2,), ("scale",)):
    try:
        _swept_inputs(torch, both, 1, bad)
        out["swept_inputs"].append(None)
    except ValueError as e:
        out["swept_inputs"].append(str(e))
try:
    ohprof.compare(lambda t: t, (x,))
    out["not_a_module"] = None
except TypeError as e:
    out["not_a_module"] = str(e)
out["handler_after_error"] = signal.getsignal(signal.SIGINT) is signal.default_int_handler
with open(os.path.join(work, "child.json"), "w") as f:
    json.dump(out, f)
for stream in (sys.stdout, sys.stderr):
    stream.write("''' + MARKER + r'''\n")
    stream.flush()
verbose_run = ohprof.run(package, x, device="cpu", warmup=1, runs=3, verbose=True)
ohprof.analyze(trace, verbose=True)
os.environ["OHPROF_FRONT"] = front
ohprof.analyze(trace, verbose=True)
with open(os.path.join(work, "child-after.json"), "w") as f:  # str() prints nothing: its table is returned
    json.dump({"run_table": str(verbose_run)}, f)
'''


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--python", required=True)
    parser.add_argument("--extension", required=True)
    parser.add_argument("--front", required=True, help="the torch-free ohprof front of the same build")
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--screenshot", action="store_true")
    opts = parser.parse_args(argv)
    shutil.rmtree(opts.work, ignore_errors=True)  # the artifact cache inside must start empty
    os.makedirs(opts.work)
    env = dict(os.environ, OHPROF_EXTENSION=opts.extension,
               PYTHONPATH=os.pathsep.join([os.path.join(opts.source_dir, "python"),
                                           os.path.join(opts.source_dir, "examples", "models")]))
    env.pop("OHPROF_FRONT", None)  # the child sets it where it means to: its baseline is the extension's route
    trace = os.path.join(opts.source_dir, "test", "data", "traces", "triton_example.json.gz")
    child = subprocess.run([opts.python, "-c", CHILD, opts.work, trace, os.path.abspath(opts.front)], capture_output=True, text=True, env=env,
                           timeout=1500, check=False)
    problems = []
    if child.returncode != 0:
        print(child.stdout[-3000:], child.stderr[-3000:])
        print("FAIL: the child exited", child.returncode)
        return 1
    with open(os.path.join(opts.work, "child.json")) as f:
        got = json.load(f)
    silent, _, verbose = child.stdout.partition(MARKER + "\n")
    silent_err = child.stderr.partition(MARKER + "\n")[0]
    if silent or silent_err:
        problems.append(f"the API printed while verbose=False: stdout {silent[-500:]!r}, stderr {silent_err[-500:]!r}")
    if "aoti" not in verbose or "median" not in verbose:
        problems.append(f"verbose=True printed no table: {verbose[-500:]!r}")
    if got["kind"] != "compare" or got["samples"] != {"aoti": 3, "compile": 3, "eager": 3}:
        problems.append(f"compare: kind {got['kind']}, samples {got['samples']}")
    if got["inputs"] != ["[2, 16]:float32"]:
        problems.append(f"compare's inputs {got['inputs']}, not x's")
    if got["hook_calls"] < 3:
        problems.append(f"the user's module ran {got['hook_calls']} times: it is not the one measured")
    names = got["model_names"]
    if (not re.fullmatch(r"ohprof\._registry:tiny_models\.TinyMLP_[0-9a-f]{16}", names[0])
            or names[1] != "ohprof._registry:tiny_models.TinyMLP"):
        problems.append(f"the reports' model names {names} (want the class's, with the weights' hash under cache_dir)")
    if got["cached_first"] or not got["cached_again"] or got["cached_other"]:
        problems.append(f"artifact reuse: first {got['cached_first']}, same model {got['cached_again']}, "
                        f"other weights {got['cached_other']} (want False, True, False)")
    want_cold = {"eager": [["none", None, None, [True]]],
                 "compile": [[cache, None, None, [True]] for cache in ("cold", "warm", "artifacts")]}
    if got["cold"] != want_cold or got["cold_warnings"]:
        problems.append(f"cold_start on a model object: {got['cold']} (want {want_cold}), warnings {got['cold_warnings']}")
    refusals = {"main_class": "it references __main__.Local, which is defined in __main__ (a notebook, or the script",
                "lambda_hook": "it references __main__.<lambda>, which is a lambda",
                "main_function": "it references __main__.helper, which is defined in __main__"}
    for name, words in refusals.items():
        said, states = got["cold_refused"][name]["warnings"], got["cold_refused"][name]["states"]
        want = "--cold-start: eager was not measured: a fresh process cannot rebuild the model object: " + words
        if len(said) != 1 or want not in said[0] or states["eager"][0][3]:
            problems.append(f"cold_start on a model object that cannot be rebuilt ({name}): warnings {said}, "
                            f"states {states}")
    want_aoti_only = {"warnings": [], "states": {"aoti": [["none", None, None, [True]]]}}
    if got["cold_aoti_only"] != want_aoti_only:
        problems.append(f"cold_start with only an AOTI path on an object that does not pickle: {got['cold_aoti_only']} "
                        f"(want {want_aoti_only})")
    # the AOTI path needs only the package: measured beside the refused eager
    if got["cold_refused"]["main_class"]["states"].get("aoti") != [["none", None, None, [True]]]:
        problems.append(f"the AOTI path's cold start beside a refused model object: {got['cold_refused']['main_class']}")
    if got["run"] != ["run", 3]:
        problems.append(f"run: {got['run']}")
    stopped = got["interrupted"]
    if (stopped is None or stopped[:5] != [True, True, "ohprof: interrupted", "run", True] or stopped[5] < 10
            or stopped[6] > 60 or not stopped[7]):
        problems.append(f"Ctrl-C during run: {stopped} (want Interrupted, a KeyboardInterrupt, with the run's report "
                        "marked interrupted and its samples, within a minute; Python's handler back)")
    if got["analyze_kind"] != "analyze":
        problems.append(f"analyze's report kind {got['analyze_kind']}")
    # the trace's analysis is exact: str(report) is the table verbose=True printed, but for the time it took to read
    unread = lambda text: re.sub(r"(?m)^  read: .*$", "  read: T", text)  # noqa: E731
    if len(got["analyze_table"].splitlines()) < 10 or unread(got["analyze_table"]) not in unread(verbose):
        problems.append(f"str(analyze report) is not the table analyze prints: {got['analyze_table'][:500]!r}")
    with open(os.path.join(opts.work, "child-after.json")) as f:
        run_table = json.load(f)["run_table"]
    # a run's str() is the very table its verbose=True call printed (the same report, so the same numbers)
    if len(run_table.splitlines()) < 10 or run_table not in verbose:
        problems.append(f"str(run report) is not the table run printed: {run_table[:500]!r}")
    # analyze through the front (where pip installs one): its table, and verbose=True's, as the extension's
    front = got["front"]
    if (front["kind"] != "analyze" or unread(front["table"]) != unread(got["analyze_table"])
            or front["same"] != [True] * 6 or front["newline"] != got["newline"]
            or front["argv"][0] != front["argv"][1] or front["argv"][0][0] != "ohprof"):
        problems.append(f"analyze and show through the front: kind {front['kind']}, the same table, page, refusal, "
                        f"loaded table, missing trace's error and diff as the extension's {front['same']}, a message with a "
                        f"newline {front['newline']} vs {got['newline']}, argv {front['argv']}")
    want_ranks = [15, "<ohprof.Report ranks: 2 of 3 traces analysed (1 failed), world size 128, 2 steps; 1 warning>", 1, True]
    if got["ranks_failed"] != want_ranks:
        problems.append(f"analyze of a job with a missing trace: {got['ranks_failed']} (want {want_ranks}: the code, and "
                        f"the others' report on the error)")
    if not re.fullmatch(r"<ohprof\.Report analyze: triton_example \S+ \S+ \(median wall time per iteration\); \d+ warnings?>",
                        got["analyze_repr"]):
        problems.append(f"repr of an analysis: {got['analyze_repr']!r}")
    want_diff = ["regression", f"ohprof diff (compare reports): base {os.path.join(opts.source_dir, 'test', 'data', 'diff')}"
                 f"/tiny-mlp-b1.json.gz, new {os.path.join(opts.source_dir, 'test', 'data', 'diff')}/tiny-mlp-b1-run2.json.gz"]
    if got["diff"] != want_diff:
        problems.append(f"ohprof.diff through the extension: {got['diff']} (want {want_diff})")
    if got["refusal"] is None or got["refusal"][0] != 2 or got["missing_trace"] is None or got["missing_trace"][0] != 3:
        problems.append(f"table() of a report show cannot read: {got['refusal']} (want exit 2); a missing trace "
                        f"{got['missing_trace']} (want 3)")
    if got["newline"] is None or "\n" not in got["newline"][1]:
        problems.append(f"a refusal whose message holds a newline: {got['newline']}")
    if unread(verbose).count(unread(got["analyze_table"])) != 2:
        problems.append("verbose=True analyze through the front did not print the table the extension's printed")
    if got["analyze_page"] != [True, True, True]:
        problems.append(f"analyze's page (drawn by show, shown as an iframe): {got['analyze_page']}")
    if got["loaded"] != [True, True, True]:
        problems.append(f"ohprof.load of a saved report (JSON, table, page as the original's): {got['loaded']}")
    want_errors = [[3, "cannot read report 'WORK/missing.json' (No such file or directory); check the path"],
                   [2, "'WORK/not-a-report.json' is not an ohprof report (it has no \"kind\"); give a file written "
                       "by --export-json"]]
    if got["load_errors"] != want_errors:
        problems.append(f"ohprof.load's errors {got['load_errors']} (want {want_errors})")
    if got["unreadable"] != [True, None]:
        problems.append(f"a report show cannot read: str is repr, no page: {got['unreadable']}")
    if got["sweep_points"] != [1, 2]:
        problems.append(f"sweep points {got['sweep_points']}")
    if got["loaded_sweep_page"] != [True, True, True] or got["empty_sweep_page"] != [[2, "the report: no measured point to draw"]] * 2:
        problems.append(f"a loaded sweep's page (its three charts, as an iframe): {got['loaded_sweep_page']}; one with no "
                        f"point to draw: {got['empty_sweep_page']}")
    saved = got["sweep_saved"]
    want_saved = [[f"my-sweep.points/{name.rsplit('/', 1)[-1]}" if name else None for name in point]
                  for point in saved["original"]]
    want_files = sorted({name.rsplit("/", 1)[-1] for point in saved["original"] for name in point if name})
    if (saved["saved"] != want_saved or saved["files"] != want_files or not saved["rest_same"]
            or saved["point_json"] != ["compare"] * len(saved["original"])
            or saved["diff"] != ["no_regression", ["no_change"], [True]]):
        problems.append(f"Report.save of a sweep (its points beside it, renamed) and its diff with the loaded copy: "
                        f"{saved} (want names {want_saved}, files {want_files})")
    want_save_errors = [
        [2, "this sweep report does not hold its points' reports, which diff needs: save a report ohprof.sweep "
            "returned or ohprof.load read"],
        [2, "a sweep report is diffed with its points' reports: give the Report ohprof.sweep returned or ohprof.load "
            "read, or the path of a sweep saved with --export-json or Report.save"],
        [8, "cannot write 'WORK/no-such-folder/s.json' (No such file or directory); fix the path"], 0]
    if got["sweep_save_errors"] != want_save_errors:
        problems.append(f"Report.save's and diff's refusals {got['sweep_save_errors']} (want {want_save_errors})")
    if got["sweep_page"] != [True, True]:  # the venv has matplotlib: the page is the notebook's view
        problems.append(f"the sweep's page (latency chart drawn, _repr_html_ an iframe): {got['sweep_page']}")
    dtype_error = got["dtype_error"]
    if not dtype_error or dtype_error[0] != 6 or not dtype_error[1].startswith("`inputs`: input 0 has dtype complex64") \
            or "ohprof-api-" in dtype_error[1]:
        problems.append(f"an unmeasured dtype raised {dtype_error}")
    bad = got["bad_input"]
    if not bad or bad[0] != 6 or bad[1].startswith("ohprof") or "the model rejects these inputs" not in bad[1]:
        problems.append(f"a bad input raised {bad}")
    elif "--input" in bad[1] or "pass `inputs` as a tuple of tensors in forward's order" not in bad[1]:
        problems.append(f"a bad input's advice is not in the API's words: {bad[1]}")
    want_exported = {"aoti": ["aoti_package", 3], "compile": ["exported_program", 3], "eager": ["exported_program", 3]}
    if got["exported"] != want_exported or got["exported_checks"] != [True, True]:
        problems.append(f"an ExportedProgram: paths {got['exported']} (want {want_exported}), "
                        f"output checks {got['exported_checks']}")
    want_kw = [True, ["measured", ["[1, 16]:float32", "[1, 1]:float32"]],
               ["measured", ["[3, 16]:float32", "[3, 1]:float32"]]]
    want_seq = ["input0+1.dim1", ["measured", ["[2, 3]:int64", "[2, 3]:int64"]],
                ["measured", ["[2, 12]:int64", "[2, 12]:int64"]]]
    if got["sweep_seq"] != want_seq:
        problems.append(f"sweep over the sequence length: {got['sweep_seq']}, want {want_seq}")
    # the file's order: ids 0, the scalar 1, then the keyword tensors mask 2 and scale 3 (flag is no tensor)
    want_swept = [[0, 2], [0, 2, 3], [0, 2], [3],
                  "swept names 'nope', which is not a keyword tensor of the inputs (mask, scale)",
                  "swept names positional input 2, but there are 2 (counted from 0)",
                  "swept input 3 has shape [2]: it has no dimension 1 to sweep (counted from 0)"]
    if got["swept_inputs"] != want_swept:
        problems.append(f"_swept_inputs: {got['swept_inputs']}, want {want_swept}")
    want_refusals = [
        ["ValueError", "values must hold at least two different positive sizes, not [4]"],
        ["ValueError", "values must hold at least two different positive sizes, not [0, 4]"],
        ["ValueError", "swept names no input; name the inputs to resize, or leave swept=None for every tensor with a "
                       "dimension 0"],
        ["ValueError", "no input has a dimension 2 to sweep (counted from 0)"],
        ["TypeError", "give values or batch (its earlier name), not both"]]
    if got["sweep_text_values"] != [2, "`values` must hold at least two different positive sizes"]:
        problems.append(f"sweep over the text values '4..4': {got['sweep_text_values']}")
    if got["sweep_refusals"] != want_refusals:
        problems.append(f"sweep's refusals: {got['sweep_refusals']}, want {want_refusals}")
    if got["sweep_kwargs"] != want_kw:
        problems.append(f"sweep with keyword inputs: {got['sweep_kwargs']}, want {want_kw}")
    if not got["not_a_module"] or "torch.nn.Module" not in got["not_a_module"]:
        problems.append(f"a non-module: {got['not_a_module']}")
    if not (got["handler_restored"] and got["handler_after_error"]):
        problems.append("Python's SIGINT handler was not restored")

    want_repr = ("<ohprof.Report compare: aoti 16.03 ms, eager 22.77 us, compile 950 ns, aoti:python unknown "
                 "(median wall time per call); 1 warning>")
    want_sweep = "<ohprof.Report sweep: batch 1 … 16, 2 of 3 points measured, paths aoti, eager; 2 warnings>"
    if got["repr_sweep"] != want_sweep:
        problems.append(f"repr of a known sweep: {got['repr_sweep']!r}, want {want_sweep!r}")
    if got["repr_known"] != want_repr:
        problems.append(f"repr of known medians: {got['repr_known']!r}, want {want_repr!r}")
    duration = r"(\d+ ns|\d+\.\d{1,3} (us|ms|s))"
    if not re.fullmatch(rf"<ohprof\.Report compare: aoti {duration}, compile {duration}, eager {duration} "
                        r"\(median wall time per call\); \d+ warnings?>", got["repr"]):
        problems.append(f"repr: {got['repr']!r}")

    import html as html_lib
    frame = got["repr_html"] or ""
    start = frame.find('srcdoc="') + len('srcdoc="')
    if not frame.startswith("<iframe") or html_lib.unescape(frame[start:frame.rfind('"')]) != got["page"]:
        problems.append("_repr_html_ is not an iframe holding the report's page")
    skipped = False
    sys.path.insert(0, HERE)
    import browser_check

    browser = browser_check.chromium_binary()
    if browser is None:
        print("python_api_check: no Chromium: the notebook rendering is not checked")
        skipped = True
    else:
        notebook = os.path.join(opts.work, "notebook.html")
        with open(notebook, "w", encoding="utf-8") as f:
            f.write("<!doctype html><html><body><h1>In [1]: ohprof.compare(model, (x,))</h1>" + frame + "</body></html>")
        script = ("<script>window.addEventListener('load', () => { const f = document.querySelector('iframe');"
                  " const d = f.contentDocument; document.getElementById('ohprof-render-check').textContent ="
                  " JSON.stringify({tables: d.querySelectorAll('table').length, height: f.getBoundingClientRect().height,"
                  " text: d.body.innerText.slice(0, 2000)}); });</script>")

        def check(measured, dom):
            if measured is None:
                return ["the notebook page's script did not run"]
            fails = []
            if measured["tables"] < 1 or measured["height"] < 300:
                fails.append(f"the iframe shows {measured['tables']} tables at {measured['height']} px")
            for name in ("aoti", "compile", "eager"):
                if name not in measured["text"]:
                    fails.append(f"the rendered report does not name {name}")
            return fails

        problems += browser_check.check_laid_out_page(browser, notebook, script, check, opts.work, "notebook",
                                                      opts.screenshot, window="1200,900", who="python_api_check")
    for problem in problems:
        print("FAIL:", problem)
    if problems:
        return 1
    print("OK: the API measures the user's object and tensors, prints nothing unless asked, and shows in a notebook")
    return 77 if skipped else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
