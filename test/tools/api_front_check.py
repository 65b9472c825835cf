#!/usr/bin/env python3
"""The Python API's route through the torch-free front (python/ohprof/api.py, _call_front; docs/usage.md,
"Without torch"), on the real front and on small stand-in fronts, in any Python: the measuring extension
is made unloadable, and torch must not have been imported at the end.

  api_front_check.py --front OHPROF --source-dir DIR --work DIR

With the real front (OHPROF_FRONT):
  1. ohprof.analyze(trace) is the analysis `ohprof analyze` prints (the same table but for the read time),
     its context.argv starts "ohprof analyze", and nothing was printed (verbose=False); verbose=True prints
     the table on stdout and the trace's warnings on stderr, as the command does;
  2. a missing trace raises OhprofError 3 with the command's own message, and a job with a missing trace
     15 with the other ranks' report on the error (its repr names the traces and steps);
  3. table() of a report that show refuses raises 2 with show's whole message, a newline inside included;
  4. OhprofError survives pickle with its code, message and report; Report() of a non-dict is TypeError, and
     repr of a ranks report with a malformed job does not raise; ohprof.diff of two saved reports is the
     table `ohprof diff` prints, a regression returned (not raised), with its page; of Report objects it
     names them base.json and new.json (no temporary path in its table, JSON or page), and verbose=True
     prints the table; a diff report ohprof.load read draws the command's table again (show), and its page;
     incomparable reports raise 14 with the diff report, in the API's words, and a forced
     diff's warnings (JSON and verbose stderr) name no temporary file; a loaded sweep is diffed from its file
     (its points' reports), a sweep dict is refused, and so are a float resamples and a negative seed;
     Report.save writes a loaded compare report as plain JSON that reads back the same (mode 0644, NaN as
     null in a list or a tuple, a bytes path, no temporary file left; a set is 2; table() hands the front
     the same: a NaN drawn, a set 2), and a loaded sweep whose points' reports are gone with its
     points naming none; a point report there that is not JSON is named in an OhprofError 2.
With stand-in fronts (shell scripts):
  5. a front that does not exist, or that the system cannot start (exit 127 and the loader's line), raises
     16 naming it; one killed by SIGKILL raises 137, by a real-time signal 128 + its number, each with what it
     wrote; an error line followed by more text is one message, and a line before it is passed on only
     when verbose;
  6. Ctrl-C (SIGINT to this process alone, as a notebook's interrupt) raises ohprof.Interrupted (a
     KeyboardInterrupt) with no report at once and leaves no child behind.
Exit 0 when all hold, 1 otherwise.
"""
import argparse
import contextlib
import json
import os
import pickle
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time


def captured(fd, call):
    """(call()'s result or exception, what it wrote to file descriptor fd)."""
    with tempfile.TemporaryFile() as sink:
        saved = os.dup(fd)
        try:
            os.dup2(sink.fileno(), fd)
            try:
                result = call()
            except BaseException as e:  # noqa: B902 - the check looks at what was raised
                result = e
        finally:
            os.dup2(saved, fd)
            os.close(saved)
        sink.seek(0)
        return result, sink.read().decode()


def stand_in(work, name, body):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, 0o755)
    return path


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--front", required=True)
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--work", required=True)
    opts = parser.parse_args(argv)
    shutil.rmtree(opts.work, ignore_errors=True)
    os.makedirs(opts.work)
    sys.path.insert(0, os.path.join(opts.source_dir, "python"))
    import ohprof
    from ohprof import api

    def no_extension():
        raise AssertionError("the front's route loaded the measuring extension")
    api._native.load = no_extension
    front = os.path.abspath(opts.front)
    os.environ["OHPROF_FRONT"] = front
    traces = os.path.join(opts.source_dir, "test", "data", "traces")
    trace = os.path.join(traces, "triton_example.json.gz")
    problems = []
    unread = lambda text: re.sub(r"(?m)^  read: .*$", "  read: T", text)  # noqa: E731

    # 1. the analysis, silent and verbose, against the command's
    command = subprocess.run([front, "analyze", trace], capture_output=True, text=True, check=False)
    (report, out), err = captured(2, lambda: captured(1, lambda: ohprof.analyze(trace)))
    if isinstance(report, BaseException) or out or err:
        problems.append(f"analyze: {report!r}, printed {out!r} {err!r}")
    else:
        if unread(report.table()) != unread(command.stdout) or report.kind != "analyze":
            problems.append(f"analyze's table is not the command's:\n{report.table()}\n{command.stdout}")
        if report.to_json()["context"]["argv"][:2] != ["ohprof", "analyze"]:
            problems.append(f"the report's argv {report.to_json()['context']['argv']}")
    (_, out), err = captured(2, lambda: captured(1, lambda: ohprof.analyze(trace, verbose=True)))
    if unread(out) != unread(command.stdout) or err != command.stderr:
        problems.append(f"verbose analyze printed {out!r} / {err!r}, the command {command.stdout!r} / {command.stderr!r}")

    # 2. a missing trace; a job with a missing rank
    missing = os.path.join(opts.work, "no-such-trace.json")
    command = subprocess.run([front, "analyze", missing], capture_output=True, text=True, check=False)
    try:
        ohprof.analyze(missing)
        problems.append("a missing trace raised nothing")
    except ohprof.OhprofError as e:
        if [e.code, "ohprof analyze: error: " + e.message + "\n"] != [command.returncode, command.stderr] or e.code != 3:
            problems.append(f"a missing trace: {e.code} {e.message!r}; the command {command.returncode} {command.stderr!r}")
    try:
        ohprof.analyze([os.path.join(traces, "sampled_rank-0.json.gz"), os.path.join(traces, "sampled_rank-1.json.gz"),
                        missing])
        problems.append("a job with a missing trace raised nothing")
    except ohprof.OhprofError as e:
        want = "<ohprof.Report ranks: 2 of 3 traces analysed (1 failed), world size 128, 2 steps; 1 warning>"
        if e.code != 15 or repr(e.report) != want or "per step:" not in str(e.report):
            problems.append(f"a job with a missing trace: {e.code}, {e.report!r} (want 15, {want})")
        job_error = e

    # 3. show's refusal, its message whole
    try:
        ohprof.Report({"kind": "foo\nbar", "schema_version": 1}).table()
        problems.append("a report of an unknown kind was drawn")
    except ohprof.OhprofError as e:
        want = 'the report is not an ohprof report (its kind is "foo\nbar"); give a file written by --export-json'
        if [e.code, e.message] != [2, want]:
            problems.append(f"show's refusal: {e.code} {e.message!r} (want 2 {want!r})")

    # 4. the error and the report as values
    if "job_error" in locals():
        copy = pickle.loads(pickle.dumps(job_error))
        if [copy.code, copy.message, copy.report.to_json()] != [15, job_error.message, job_error.report.to_json()]:
            problems.append("an OhprofError does not survive pickle")
    try:
        ohprof.Report([1, 2])
        problems.append("Report of a list was accepted")
    except TypeError:
        pass
    odd = repr(ohprof.Report({"kind": "ranks", "job": [], "steps": 5}))
    if odd != "<ohprof.Report ranks: 0 of 0 traces analysed (0 failed), 0 steps; 0 warnings>":
        problems.append(f"repr of a malformed ranks report: {odd}")

    # 4b. diff: of two saved reports, as the command prints it; of Report objects, named base.json and
    # new.json; a regression is returned, incomparable reports raise 14 with the diff on the error
    diffs = os.path.join(opts.source_dir, "test", "data", "diff")
    base, new = os.path.join(diffs, "tiny-mlp-b1.json.gz"), os.path.join(diffs, "tiny-mlp-b1-run2.json.gz")
    saved_diff = os.path.join(opts.work, "diff.json")
    command = subprocess.run([front, "diff", base, new, "--threshold", "0.01", "--export-json", saved_diff],
                             capture_output=True, text=True, check=False)
    loaded_diff = ohprof.load(saved_diff)  # drawn again by show: the table the command printed, and a page
    if loaded_diff.table() != command.stdout or str(loaded_diff) != command.stdout or "<table" not in loaded_diff.html():
        problems.append(f"a loaded diff's table:\n{loaded_diff.table()}\nthe command printed:\n{command.stdout}")
    (found, out), err = captured(2, lambda: captured(1, lambda: ohprof.diff(base, new, threshold=0.01)))
    if (isinstance(found, BaseException) or out or err or found.table() != command.stdout or command.returncode != 13
            or found.to_json()["outcome"] != "regression" or "<table" not in found.html()):
        problems.append(f"diff of two files: {found!r}, printed {out!r} {err!r}; the command exited "
                        f"{command.returncode}:\n{command.stdout}")
    else:
        want = ("<ohprof.Report diff: regression: aoti +2.1% slower, aoti:python +1.5% slower, compile +5.9% slower, "
                "compile:cpp-wrapper +4.2% slower, eager -0.1% no change; 0 warnings>")
        if repr(found) != want:
            problems.append(f"repr of a diff: {found!r} (want {want})")
    (found, out), _ = captured(2, lambda: captured(1, lambda: ohprof.diff(ohprof.load(base), ohprof.load(new),
                                                                          relative_to="aoti", verbose=True)))
    if isinstance(found, BaseException):
        problems.append(f"diff of Report objects: {found!r}")
    else:
        first = found.table().splitlines()[0]
        if (first != "ohprof diff (compare reports): base base.json, new new.json" or out != found.table()
                or [found.to_json()["base"], found.to_json()["new"]] != ["base.json", "new.json"]
                or "ohprof-api-" in found.html() or not repr(found).startswith(
                    "<ohprof.Report diff: no regression: aoti the reference, aoti:python -0.6% no change")):
            problems.append(f"diff of Report objects: {first!r}, {found!r}, verbose printed the table: "
                            f"{out == found.table()}")
    try:
        ohprof.diff(base, ohprof.analyze(trace))
        problems.append("a diff of a compare and an analysis was not refused")
    except ohprof.OhprofError as e:
        if e.code != 14 or "force=True diffs them anyway" not in e.message or e.report.to_json()["outcome"] != "incomparable":
            problems.append(f"incomparable reports: {e.code} {e.message!r} {e.report!r}")
    # forced, as objects: nothing judged (14); its warnings, in the JSON and printed verbose, name no temporary file
    (raised, _), err = captured(2, lambda: captured(1, lambda: ohprof.diff(ohprof.load(base), ohprof.analyze(trace),
                                                                          force=True, verbose=True)))
    if (not isinstance(raised, ohprof.OhprofError) or raised.code != 14 or raised.report is None
            or "ohprof-api-" in json.dumps(raised.report.to_json()) + err
            or "ohprof diff: warning: --force: the reports differ in kind" not in err):
        problems.append(f"a forced diff of objects: {raised!r}, stderr {err[:300]!r}")
    else:
        copy = pickle.loads(pickle.dumps(ohprof.Interrupted(raised.report)))
        if not isinstance(copy, KeyboardInterrupt) or copy.report.to_json() != raised.report.to_json():
            problems.append("an Interrupted does not survive pickle")
    # a sweep is diffed from its file (its points' reports lie beside it); a sweep without one is refused
    sweep_file = os.path.join(opts.source_dir, "test", "data", "sweep", "sample_sweep.json")
    try:
        ohprof.diff(ohprof.load(sweep_file), ohprof.load(sweep_file))
        problems.append("a diff of a sweep whose points' reports are missing was judged")
    except ohprof.OhprofError as e:
        points_dir = os.path.join(os.path.dirname(os.path.abspath(sweep_file)), "sample_sweep.points")
        if e.code != 14 or not any(points_dir in w["message"] for w in e.report.warnings):
            problems.append(f"a loaded sweep's diff: {e.code} {e.report!r}, warnings {e.report.warnings[:2]}")
        if not repr(e.report).startswith("<ohprof.Report diff: nothing judged: 36 unknown over 12 points"):
            problems.append(f"repr of a sweep's diff: {e.report!r}")
    # Report.save: a compare report (gzip read) saved as plain JSON reads back the same; a loaded sweep whose points'
    # reports are not beside it is saved with none named (null), which its diff then says
    saved = os.path.join(opts.work, "saved-compare.json")
    ohprof.load(base).save(saved)
    with open(saved, "rb") as f:
        plain = f.read(1) == b"{"
    if not plain or ohprof.load(saved).to_json() != ohprof.load(base).to_json():
        problems.append("Report.save of a loaded compare report does not read back the same (plain JSON)")
    saved = os.path.join(opts.work, "saved-sweep.json")
    ohprof.load(sweep_file).save(saved)
    with open(saved) as f:
        reports = [p["report"] for p in json.load(f)["points"]]
    if reports != [None] * 13 or os.path.exists(os.path.join(opts.work, "saved-sweep.points")):
        problems.append(f"a loaded sweep without its points' reports, saved: {reports}")
    # as --export-json writes: readable by all, a NaN as null, a bytes path too; a point report beside a loaded
    # sweep that is not JSON is named, not dropped; no temporary file stays behind
    odd = os.path.join(opts.work, "odd.json")
    ohprof.Report({"kind": "compare", "figure": float("nan"), "list": [float("inf")], "pair": (float("nan"), 1)}).save(
        os.fsencode(odd))
    with open(odd) as f:
        odd_json = json.load(f, parse_constant=lambda name: f"constant {name}")
    if (os.stat(odd).st_mode & 0o777 != 0o644
            or odd_json != {"kind": "compare", "figure": None, "list": [None], "pair": [None, 1]}):
        problems.append(f"Report.save's file: mode {oct(os.stat(odd).st_mode & 0o777)}, {odd_json}")
    nan_report = ohprof.load(base).to_json()  # table() hands the front what save writes: a NaN as null
    nan_report["paths"][0]["wall_ns"]["mean"] = float("nan")
    try:
        if not ohprof.Report(nan_report).table().startswith("device: "):
            problems.append("the table of a report with a NaN")
        ohprof.Report({"kind": "compare", "odd": {1, 2}}).table()
        problems.append("table() of a report holding a set was drawn")
    except ohprof.OhprofError as e:
        if e.code != 2 or not e.message.startswith("the report holds a value JSON cannot hold"):
            problems.append(f"table() of a report with a NaN, then a set: {e.code} {e.message}")
    try:
        ohprof.Report({"kind": "compare", "odd": {1, 2}}).save(odd)
        problems.append("Report.save wrote a set")
    except ohprof.OhprofError as e:
        if e.code != 2 or "holds a value JSON cannot hold" not in e.message:
            problems.append(f"Report.save of a set: {e.code} {e.message}")
    corrupt = os.path.join(opts.work, "corrupt")
    os.makedirs(os.path.join(corrupt, "sample_sweep.points"), exist_ok=True)
    shutil.copy(sweep_file, corrupt)
    with open(os.path.join(corrupt, "sample_sweep.points", "batch-1.json"), "w") as f:
        f.write("not json")
    try:
        ohprof.load(os.path.join(corrupt, "sample_sweep.json")).save(os.path.join(opts.work, "from-corrupt.json"))
        problems.append("a loaded sweep with a point report that is not JSON was saved")
    except ohprof.OhprofError as e:
        if e.code != 2 or "sample_sweep.points/batch-1.json' is not a JSON report" not in e.message:
            problems.append(f"a loaded sweep with a point report that is not JSON: {e.code} {e.message}")
    left = [name for name in os.listdir(opts.work) if name.startswith(".ohprof-")]
    if left:
        problems.append(f"Report.save left temporary files: {left}")
    for bad, want in ((lambda: ohprof.diff(ohprof.load(sweep_file).to_json(), sweep_file), ohprof.OhprofError),
                      (lambda: ohprof.diff(base, new, resamples=1e4), TypeError),
                      (lambda: ohprof.diff(base, new, seed=-1), ValueError)):
        try:
            bad()
            problems.append(f"diff accepted what it should refuse with {want.__name__}")
        except want:
            pass

    # 5. stand-in fronts
    def raised(front_path, call=lambda: ohprof.analyze(trace), verbose_call=None):
        os.environ["OHPROF_FRONT"] = front_path
        try:
            call()
            return None
        except ohprof.OhprofError as e:
            return [e.code, e.message]
        finally:
            os.environ["OHPROF_FRONT"] = front
    nowhere = os.path.join(opts.work, "no-such-front")
    cases = [
        (nowhere, 16, f"cannot run the ohprof front '{nowhere}' (No such file or directory); reinstall ohprof the way it "
                      "was installed, or unset OHPROF_FRONT"),
        (stand_in(opts.work, "unloadable", "echo 'ohprof: error while loading shared libraries: libz.so.1: cannot open "
                                           "shared object file' >&2; exit 127"),
         16, "the ohprof front '{}' could not start (exit 127): ohprof: error while loading shared libraries: libz.so.1: "
             "cannot open shared object file; reinstall ohprof the way it was installed, or unset OHPROF_FRONT"),
        (stand_in(opts.work, "killed", "echo reading >&2; kill -KILL $$"), 137,
         "the ohprof front '{}' was killed by SIGKILL: reading"),
        (stand_in(opts.work, "realtime", "kill -40 $$"), 168, "the ohprof front '{}' was killed by signal 40"),
        (stand_in(opts.work, "two-lines", "echo 'ohprof analyze: warning: one' >&2; "
                                          "printf 'ohprof analyze: error: first\\nsecond\\n' >&2; exit 7"),
         7, "first\nsecond"),
    ]
    for path, code, message in cases:
        got = raised(path)
        if got != [code, message.format(path)]:
            problems.append(f"front {os.path.basename(path)}: {got} (want {[code, message.format(path)]})")
    os.environ["OHPROF_FRONT"] = cases[-1][0]
    _, err = captured(2, lambda: ohprof.analyze(trace))
    _, err_verbose = captured(2, lambda: ohprof.analyze(trace, verbose=True))
    os.environ["OHPROF_FRONT"] = front
    if err != "" or err_verbose != "ohprof analyze: warning: one\n":
        problems.append(f"a front's other lines: {err!r} silent, {err_verbose!r} verbose (want only the warning, verbose)")

    # 6. Ctrl-C reaches this process alone
    pid_file = os.path.join(opts.work, "sleeper.pid")
    os.environ["OHPROF_FRONT"] = stand_in(opts.work, "sleeper", f"echo $$ > '{pid_file}'; exec sleep 60")
    threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    started = time.monotonic()
    try:
        ohprof.analyze(trace)
        problems.append("Ctrl-C: the call returned")
    except KeyboardInterrupt as e:
        took = time.monotonic() - started
        with open(pid_file) as f:
            pid = int(f.read())
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 0)
            problems.append(f"Ctrl-C left the front {pid} running")
        if not isinstance(e, ohprof.Interrupted) or e.report is not None or str(e) != "ohprof: interrupted" or took > 20:
            problems.append(f"Ctrl-C raised {e!r} after {took:.1f} s")
    finally:
        os.environ["OHPROF_FRONT"] = front

    if "torch" in sys.modules:
        problems.append("torch was imported")
    for problem in problems:
        print("FAIL:", problem)
    if not problems:
        print("the API through the front: the command's answers, errors and codes, without torch or the extension")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
