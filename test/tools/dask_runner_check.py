#!/usr/bin/env python3
"""The Dask runner (python/ohprof/dask_runner.py, docs/ranks.md "Many machines") against one machine.

Makes a job of six rank traces from the real pair test/data/traces/sampled_rank-{0,1}.json.gz (rank r
a copy of sampled_rank-(r % 2) with distributedInfo.rank = r) plus one file that is not a trace, runs
`ohprof analyze DIR` on this machine and python/ohprof/dask_runner.py on a dask.distributed LocalCluster of
three worker processes with merges of two reports each (a tree three levels deep), and checks that the
two reports are the same but for their context (command line, date, host) and that both exit 15 (one
trace failed). Also checks the runner's listing of the inputs against ohprof's on a directory, a glob
and a file named twice, and that ohprof's error on a worker (two traces of one rank: exit 2) reaches
the caller as itself.

    dask_runner_check.py --binary build/ohprof --source-dir .

Exit status: 0 when they agree, 1 when not, 77 when dask.distributed is not installed (skipped).
"""

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile


def make_job(source_dir, folder):
    traces = os.path.join(source_dir, "test", "data", "traces")
    pair = []
    for r in (0, 1):
        with gzip.open(os.path.join(traces, f"sampled_rank-{r}.json.gz"), "rt", encoding="utf-8") as f:
            pair.append(json.load(f))
    for rank in range(6):
        trace = dict(pair[rank % 2])
        trace["distributedInfo"] = dict(trace["distributedInfo"], rank=rank)
        with gzip.open(os.path.join(folder, f"rank-{rank}.json.gz"), "wt", encoding="utf-8") as f:
            json.dump(trace, f)
    with open(os.path.join(folder, "zz-broken.json"), "w", encoding="utf-8") as f:
        f.write('{"traceEvents": [')


def without_context(text):
    report = json.loads(text)
    report.pop("context", None)
    return report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--source-dir", required=True)
    opts = parser.parse_args()
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("dask_runner_check: dask.distributed is not installed (tools/dask-requirements.txt); skipped")
        return 77
    sys.path.insert(0, os.path.join(opts.source_dir, "python"))
    from ohprof import dask_runner as ohprof_dask
    from dask.distributed import Client, LocalCluster

    folder = tempfile.mkdtemp(prefix="ohprof-dask-check-")
    problems = []
    try:
        make_job(opts.source_dir, folder)
        one = subprocess.run([opts.binary, "analyze", folder, "--quiet", "--export-json", "-"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if one.returncode != 15:
            problems.append(f"one machine: exit {one.returncode}, not 15 (one trace fails): {one.stderr.decode()}")
        listed = ohprof_dask.list_traces([folder, os.path.join(folder, "rank-*.json.gz"), os.path.join(folder, "rank-0.json.gz")])
        expected = [os.path.join(folder, f"rank-{r}.json.gz") for r in range(6)] + [os.path.join(folder, "zz-broken.json")]
        if listed != expected:
            problems.append(f"the runner lists {listed}, ohprof lists {expected}")
        with LocalCluster(n_workers=3, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            report = ohprof_dask.analyze_on_cluster(client, opts.binary, ohprof_dask.list_traces([folder]), fan_in=2)
        if ohprof_dask.exit_code_of(report) != 15:
            problems.append("the runner's report does not say that a trace failed")
        a, b = without_context(one.stdout.decode()), without_context(report)
        if a != b:
            for key in sorted(set(a) | set(b)):
                if a.get(key) != b.get(key):
                    problems.append(f"'{key}' differs: one machine {json.dumps(a.get(key))[:300]}, "
                                    f"Dask {json.dumps(b.get(key))[:300]}")
        if len(b.get("ranks", [])) != 6 or len(b.get("failed", [])) != 1:
            problems.append(f"expected 6 ranks and 1 failed trace, got {len(b.get('ranks', []))} and {len(b.get('failed', []))}")
        # An error on a worker comes back as itself: two traces of rank 0 stop the merge with exit 2.
        shutil.copy(os.path.join(folder, "rank-0.json.gz"), os.path.join(folder, "rank-0-copy.json.gz"))
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            try:
                ohprof_dask.analyze_on_cluster(client, opts.binary, ohprof_dask.list_traces([folder]), fan_in=4)
                problems.append("two traces of rank 0: the runner did not fail")
            except ohprof_dask.OhprofError as e:
                if e.code != 2 or "are both rank 0" not in str(e):
                    problems.append(f"two traces of rank 0: exit {e.code}, {e}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    for p in problems:
        print(f"dask_runner_check: {p}")
    if not problems:
        print("dask_runner_check: the Dask runner's report equals one machine's (6 ranks, 1 failed trace)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
