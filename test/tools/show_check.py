#!/usr/bin/env python3
"""`ohprof show REPORT` prints what the command that wrote REPORT printed (docs/usage.md, "ohprof show").

    show_check.py --binary OHPROF --traces DIR --sweep FIXTURE --diffs DIR --work DIR [--package PT2 --python PY]

For real traces (analyze, and the ranks of a job) and, with --package, a `run` of a real package, the
command is run with --export-json; then `show` of that report must print the same table on stdout, the
same warnings on stderr (the command's prefix read as show's) and, for one trace and the run, the same
Markdown and page; so must a `diff` of two compare reports (DIR's pair), and one that found a regression
(diff exit 13) shows with exit 0. A job with a failed trace (analyze exit 15) shows with exit 0; a checkpoint
says it is one; a sweep report shows its table and warnings and refuses --export-html; a missing file, a file
that is not JSON, a diff report without its version, another JSON and a later schema each get one line and
their exit code (docs/exit-codes.md).
"""
import argparse
import json
import os
import re
import subprocess
import sys


def run(argv, env=None):
    return subprocess.run(argv, capture_output=True, text=True, env=env)


def warnings(stderr, command):
    """The warning lines of a command's stderr, with its prefix read as show's."""
    return [line.replace(f"ohprof {command}: warning:", "ohprof show: warning:")
            for line in stderr.splitlines() if line.startswith(f"ohprof {command}: warning:")]


class Checks:
    def __init__(self):
        self.failed = []
        self.count = 0

    def same(self, what, got, want):
        self.count += 1
        if got != want:
            self.failed.append(f"{what}: show's differs from the command's\n--- command\n{want}\n--- show\n{got}")

    def fact(self, what, ok, detail=""):
        self.count += 1
        if not ok:
            self.failed.append(f"{what}: {detail}")


def shown_as_written(checks, binary, argv, command, report, env=None, forms=False):
    """Runs `argv` (an ohprof command writing `report`, and with `forms` its Markdown and page too), then
    `show report` (with the same forms); compares what they print and write."""
    base = report[:-len(".json")]
    exports = ["--export-markdown", base + ".command.md", "--export-html", base + ".command.html"] if forms else []
    written = run([binary, *argv, "--export-json", report, *exports], env)
    checks.fact(f"{command} {argv[-1]} ran", written.returncode == 0, written.stderr[-2000:])
    shown = run([binary, "show", report])
    checks.fact(f"show {report} exits 0", shown.returncode == 0, shown.stderr[-2000:])
    checks.fact(f"{command}'s table is not empty", len(written.stdout.splitlines()) > 5, written.stdout)
    checks.same(f"{report}: table", shown.stdout, written.stdout)
    checks.same(f"{report}: warnings", warnings(shown.stderr, "show"), warnings(written.stderr, command))
    if forms:
        quiet = run([binary, "show", report, "--quiet", "--export-markdown", base + ".show.md", "--export-html",
                     base + ".show.html"])
        checks.fact("show --quiet prints no table", quiet.returncode == 0 and quiet.stdout == "", quiet.stdout)
        for form in ("md", "html"):
            command_file, show_file = f"{base}.command.{form}", f"{base}.show.{form}"
            if not (os.path.exists(command_file) and os.path.exists(show_file)):
                checks.fact(f"{report}: {form} written by both", False, quiet.stderr)
                continue
            with open(command_file) as a, open(show_file) as b:
                checks.same(f"{report}: {form}", b.read(), a.read())


def refused(checks, binary, argv, code, says):
    got = run([binary, "show", *argv])
    lines = got.stderr.strip().splitlines()
    checks.fact(f"show {' '.join(argv)} exits {code}", got.returncode == code, f"exit {got.returncode}: {got.stderr}")
    checks.fact(f"show {' '.join(argv)} says one line with {says!r}",
                len(lines) == 1 and lines[0].startswith("ohprof show: error: ") and says in lines[0], got.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--traces", required=True)
    parser.add_argument("--sweep", required=True)
    parser.add_argument("--diffs", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--package")
    parser.add_argument("--python")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    work = lambda name: os.path.join(args.work, name)  # noqa: E731
    checks = Checks()

    for trace in ("triton_example", "nccl_data", "event_sync_multi_stream", "mtia_training", "cpu_only"):
        path = os.path.join(args.traces, trace + ".json.gz")
        shown_as_written(checks, args.binary, ["analyze", path], "analyze", work(trace + ".json"),
                         forms=trace == "nccl_data")
    ranks = [os.path.join(args.traces, f"sampled_rank-{r}.json.gz") for r in (0, 1)]
    shown_as_written(checks, args.binary, ["analyze", *ranks, "--jobs", "1"], "analyze", work("ranks.json"))
    # a job with a trace that is none: analyze exits 15 with its report written; show prints it and exits 0
    job = [ranks[0], os.path.join(args.traces, "SOURCES.md"), "--jobs", "1"]
    failed = run([args.binary, "analyze", *job, "--export-json", work("ranks-failed.json")])
    shown = run([args.binary, "show", work("ranks-failed.json")])
    checks.fact("a job with a failed trace: analyze exits 15, show 0", failed.returncode == 15 and shown.returncode == 0,
                f"{failed.returncode}, {shown.returncode}: {shown.stderr}")
    checks.same("the failed job's table", shown.stdout, failed.stdout)
    # a checkpoint (a killed run's report: stop_reason "in progress") says so
    with open(work("triton_example.json")) as f:
        checkpoint = json.load(f)
    checkpoint["stop_reason"] = "in progress"  # stop_reason_text: a checkpoint's
    with open(work("checkpoint.json"), "w") as f:
        json.dump(checkpoint, f)
    shown = run([args.binary, "show", work("checkpoint.json")])
    checks.fact("a checkpoint is shown with a warning that says so", shown.returncode == 0 and
                "is a checkpoint: the command that wrote it was still measuring" in shown.stderr, shown.stderr)
    checkpoint["schema_version"] = 99
    with open(work("later.json"), "w") as f:
        json.dump(checkpoint, f)
    refused(checks, args.binary, [work("later.json")], 2, "has schema_version 99 and this ohprof reads up to")

    if args.package:  # a run of a real package, in the measuring Python
        env = dict(os.environ, OHPROF_PYTHON=args.python or os.environ.get("OHPROF_PYTHON", ""), OMP_NUM_THREADS="1")
        shown_as_written(checks, args.binary, ["run", args.package, "--warmup", "2", "--runs", "20"], "run",
                         work("run.json"), env=env, forms=True)

    # a diff of two real compare reports: as written (exit 0 below a 50% threshold); a regression (diff exits 13)
    # shows with 0; a later diff_schema_version is refused
    pair = [os.path.join(args.diffs, name) for name in ("tiny-mlp-b1.json.gz", "tiny-mlp-b1-run2.json.gz")]
    shown_as_written(checks, args.binary, ["diff", *pair, "--threshold", "50%"], "diff", work("diff-same.json"), forms=True)
    regression = run([args.binary, "diff", *pair, "--threshold", "1%", "--export-json", work("diff-worse.json")])
    shown = run([args.binary, "show", work("diff-worse.json")])
    checks.fact("a diff that found a regression: diff exits 13, show 0", regression.returncode == 13 and
                shown.returncode == 0 and "verdict: REGRESSION" in shown.stdout,
                f"{regression.returncode}, {shown.returncode}: {shown.stderr}")
    checks.same("the regression's table", shown.stdout, regression.stdout)
    with open(work("diff-worse.json")) as f:
        later_diff = json.load(f)
    later_diff["diff_schema_version"] = 99
    with open(work("later-diff.json"), "w") as f:
        json.dump(later_diff, f)
    refused(checks, args.binary, [work("later-diff.json")], 2, "has diff_schema_version 99 and this ohprof reads up to")

    sweep = run([args.binary, "show", args.sweep])
    checks.fact("a sweep report shows its table", sweep.returncode == 0 and "latency per call" in sweep.stdout
                and "fit: time = c + k" in sweep.stdout, sweep.stdout + sweep.stderr)
    with open(args.sweep) as f:
        sweep_warnings = [f"ohprof show: warning: {w['message']}" for w in json.load(f).get("warnings", [])]
    checks.same("a sweep report's warnings", warnings(sweep.stderr, "show"), sweep_warnings)
    markdown = run([args.binary, "show", args.sweep, "--quiet", "--export-markdown", "-"])
    checks.fact("a sweep report shows its Markdown", markdown.returncode == 0 and markdown.stdout.startswith("#"),
                markdown.stdout[:300])
    refused(checks, args.binary, [args.sweep, "--export-html", work("sweep.html")], 2, "`python -m ohprof._sweep_plot REPORT.json PAGE.html` draws it again")
    with open(args.sweep) as f:
        later_sweep = json.load(f)
    later_sweep["sweep_schema_version"] = 99
    with open(work("later-sweep.json"), "w") as f:
        json.dump(later_sweep, f)
    refused(checks, args.binary, [work("later-sweep.json")], 2, "has sweep_schema_version 99 and this ohprof reads up to")

    refused(checks, args.binary, [work("missing.json")], 3, "check the path")
    with open(work("not.json"), "w") as f:
        f.write("not json\n")
    refused(checks, args.binary, [work("not.json")], 2, "is not a JSON report")
    with open(work("diff.json"), "w") as f:
        json.dump({"kind": "diff"}, f)
    refused(checks, args.binary, [work("diff.json")], 2, "has no diff_schema_version: it is not a whole report")
    with open(work("other.json"), "w") as f:
        json.dump({"name": "not a report"}, f)
    refused(checks, args.binary, [work("other.json")], 2, "it has no \"kind\"")
    with open(work("broken.json"), "w") as f:  # an analyze report without its paths
        report = json.load(open(work("triton_example.json")))
        del report["paths"]
        json.dump(report, f)
    refused(checks, args.binary, [work("broken.json")], 2, "could not be read as ohprof's analyze report")
    got = run([args.binary, "show"])
    checks.fact("show without a report is a usage error", got.returncode == 2 and "report is required" in got.stderr,
                got.stderr)

    for failure in checks.failed:
        print("FAIL", failure)
    print(f"show_check: {checks.count - len(checks.failed)} of {checks.count} checks passed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
