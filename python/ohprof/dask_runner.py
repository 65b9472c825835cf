#!/usr/bin/env python3
"""The ranks of a distributed job analysed on a Dask cluster (docs/ranks.md, "Many machines").

Maps `ohprof analyze --ranks --first-position I TRACE_I` over the traces, one task per trace, on the
workers of a dask.distributed cluster, and reduces the per-rank reports with `ohprof merge`, as a tree
of merges of at most --fan-in reports each. Dask schedules; this module only says what to run. The
result is the report one `ohprof analyze TRACE...` on a single machine writes (its context aside: the
command line, date and host).

What each side needs: every worker runs the ohprof binary (--ohprof, the same path on every worker)
and reads the traces by the paths given here (a shared file system, or the same copy on each); the
reports travel through Dask as text, so the workers need no shared folder for them.

    python -m ohprof.dask_runner [--scheduler ADDRESS | --local-workers N] [--ohprof BIN] [--fan-in K]
                          --export-json FILE TRACE|DIR|GLOB ...

Exit status: ohprof's (0; 15 when some traces could not be analysed, the report lists them; 2 for
bad input such as two traces of one rank), or 2 for this module's own usage errors.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

# ohprof's exit codes this module passes on (docs/exit-codes.md).
SUCCESS = 0
USAGE_ERROR = 2
TRACES_FAILED = 15


class OhprofError(Exception):
    """ohprof exited with a code that means no report: its message and code. Picklable (Dask sends a
    worker's exception back to the client)."""

    def __init__(self, code, message):
        super().__init__(code, message)
        self.code = code
        self.message = message

    def __str__(self):
        return self.message


def is_trace_name(name):
    """A directory's file that is a trace: its name ends in .json or .json.gz after at least one character."""
    return any(name.endswith(suffix) and len(name) > len(suffix) for suffix in (".json", ".json.gz"))


def list_traces(inputs):
    """The traces the inputs name, as `ohprof analyze` lists them (docs/ranks.md, "Inputs"): a file as
    it is, a directory's *.json and *.json.gz files and a glob's matches sorted by name, each file once
    in the order first named. Raises OhprofError (usage) for a glob that matches nothing or a
    directory without traces."""
    out, seen = [], set()

    def add(path):
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            out.append(path)

    for item in inputs:
        if os.path.isdir(item):
            names = sorted(n for n in os.listdir(item) if is_trace_name(n) and os.path.isfile(os.path.join(item, n)))
            if not names:
                raise OhprofError(USAGE_ERROR, f"directory '{item}' has no trace (no file ending in .json or .json.gz)")
            for n in names:
                add(os.path.join(item, n))
        elif not os.path.exists(item) and any(c in item for c in "*?["):
            matches = sorted(m for m in glob.glob(item) if not os.path.isdir(m))
            if not matches:
                raise OhprofError(USAGE_ERROR, f"'{item}' matches no file; check the pattern")
            for m in matches:
                add(m)
        else:
            add(item)
    return out


def _run(command, report_path):
    """Runs ohprof; returns the report it wrote (text) when it wrote one (exit 0 or 15)."""
    proc = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode in (SUCCESS, TRACES_FAILED) and os.path.exists(report_path):
        with open(report_path, encoding="utf-8") as f:
            return f.read()
    lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
    raise OhprofError(proc.returncode, lines[-1] if lines else f"{command[0]} exited with {proc.returncode}")


def analyze_one(ohprof, trace, position):
    """The map task: one trace's ranks report (a trace that cannot be analysed is in its `failed`)."""
    folder = tempfile.mkdtemp(prefix="ohprof-dask-")
    try:
        report = os.path.join(folder, "part.json")
        return _run([ohprof, "analyze", "--ranks", "--first-position", str(position), trace, "--quiet", "--jobs", "1",
                     "--export-json", report], report)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def merge_texts(ohprof, reports):
    """The reduce task: `ohprof merge` of reports given as text, the merged report as text."""
    folder = tempfile.mkdtemp(prefix="ohprof-dask-")
    try:
        paths = []
        for i, text in enumerate(reports):
            paths.append(os.path.join(folder, f"part-{i}.json"))
            with open(paths[-1], "w", encoding="utf-8") as f:
                f.write(text)
        merged = os.path.join(folder, "merged.json")
        return _run([ohprof, "merge", *paths, "--quiet", "--export-json", merged], merged)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def analyze_on_cluster(client, ohprof, traces, fan_in=8):
    """The job's ranks report (text): a map over the traces, then merges of at most `fan_in` reports,
    level by level, until one is left. The merge is associative (docs/ranks.md, "Merging"), and each
    level keeps the order of the traces, so the result is that of one merge of all of them."""
    if fan_in < 2:
        raise ValueError("fan_in must be at least 2")
    if not traces:
        raise ValueError("no traces")
    level = client.map(analyze_one, [ohprof] * len(traces), traces, range(len(traces)), pure=False)
    while len(level) > 1:
        groups = [level[i:i + fan_in] for i in range(0, len(level), fan_in)]
        level = [client.submit(merge_texts, ohprof, group, pure=False) for group in groups]
    return level[0].result()


def exit_code_of(report_text):
    """0, or 15 when the merged report lists failed traces or an interrupted part (as ohprof merge exits)."""
    import json
    report = json.loads(report_text)
    return TRACES_FAILED if report.get("failed") or report.get("interrupted") else SUCCESS


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m ohprof.dask_runner", description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    where.add_argument("--local-workers", type=int, default=0,
                       help="start a LocalCluster with N worker processes on this machine (default: one per core)")
    try:  # torch-free: the front the API would run
        from ohprof import api
        front = api._front()
    except ImportError:  # this file run by its path, with no ohprof package importable
        front = None
    parser.add_argument("--ohprof", default=os.path.abspath(front) if front else shutil.which("ohprof") or "ohprof",
                        help="the ohprof binary (default: $OHPROF_FRONT, else the one installed with this package, "
                             "else on PATH)")
    parser.add_argument("--fan-in", type=int, default=8, help="reports per merge task (default 8)")
    parser.add_argument("--export-json", required=True, help="where to write the job's report ('-' for stdout)")
    parser.add_argument("traces", nargs="+", help="trace files, directories or globs, as `ohprof analyze` takes them")
    args = parser.parse_args(argv)
    if args.fan_in < 2:
        parser.error("--fan-in needs at least 2")
    try:
        traces = list_traces(args.traces)
    except OhprofError as e:
        print(f"ohprof.dask_runner: error: {e}", file=sys.stderr)
        return e.code

    from dask.distributed import Client, LocalCluster  # imported here: list_traces needs no Dask
    if args.scheduler:
        client, cluster = Client(args.scheduler), None
    else:
        cluster = LocalCluster(n_workers=args.local_workers or os.cpu_count() or 1, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        report = analyze_on_cluster(client, args.ohprof, traces, args.fan_in)
    except OhprofError as e:
        print(f"ohprof.dask_runner: error: {e}", file=sys.stderr)
        return e.code
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    if args.export_json == "-":
        sys.stdout.write(report)
    else:
        tmp = args.export_json + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(report)
        os.replace(tmp, args.export_json)
    code = exit_code_of(report)
    if code != SUCCESS:
        print("ohprof.dask_runner: some traces could not be analysed; the report lists them in 'failed'", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
