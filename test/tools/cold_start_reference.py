#!/usr/bin/env python3
"""Independent reference for the cold-start figures of `ohprof compare --cold-start` (paths[i].cold_start).

Written from docs/metrics.md ("Cold start") and the `cold_start` entry of docs/report-schema.md, with the
Python standard library only. For every path whose `cold_start` is not null, for every state, it checks
each sample's `total_ns` against the sum of its five phases, recomputes the state's `median` (each phase's
median and the total's, statistics.median: the mean of the two middle values for an even count),
`min_total_ns`, `max_total_ns` and, for the `warm` and `artifacts` states of a path with a `cold` state,
`against_cold` (the rank rule) and `speedup_vs_cold`; and the shape: at most `processes` samples, rounds
0..processes-1 in increasing order, phases not negative, no samples in an unavailable state, the states
a path has for its name (none; cold, warm, artifacts for compile*; cold, warm for aoti:python).

Usage:
  test/tools/cold_start_reference.py --check REPORT.json [REPORT.json ...]   # exit 1 on any mismatch
  test/tools/cold_start_reference.py --self-test

Tolerances: numbers 1e-9 relative (1e-6 absolute); strings and null exactly.

Choices where the doc is silent:
  C1  A state with no samples has median, min_total_ns and max_total_ns null.
  C2  against_cold and speedup_vs_cold are null unless both the state and the cold state have samples.
"""
import copy
import json
import statistics
import sys

PHASES = ("process_ns", "import_ns", "load_ns", "compile_ns", "first_call_ns")


def expected_states(name):
    if name.startswith("compile"):
        return ["cold", "warm", "artifacts"]
    if name == "aoti:python":
        return ["cold", "warm"]
    return ["none"]


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= max(1e-6, 1e-9 * max(abs(a), abs(b)))


def rank_order(totals, cold_totals):
    if max(totals) < min(cold_totals):
        return "faster"
    if min(totals) > max(cold_totals):
        return "slower"
    return "overlapping"


def check_report(report):
    """The mismatches of one report, one line each; [] when every figure agrees."""
    problems = []
    checked = 0
    for path in report.get("paths", []):
        cold_start = path.get("cold_start")
        if cold_start is None:
            continue
        name = path.get("name", "?")
        processes = cold_start.get("processes", 0)
        states = cold_start.get("states", [])
        caches = [s.get("cache") for s in states]
        if caches != expected_states(name):
            problems.append(f"{name}: states {caches}, expected {expected_states(name)}")
        cold = next((s for s in states if s.get("cache") == "cold"), None)
        cold_totals = [s["total_ns"] for s in cold["samples"]] if cold else []
        for state in states:
            where = f"{name} ({state.get('cache')})"
            samples = state.get("samples", [])
            checked += 1
            if len(samples) > processes:
                problems.append(f"{where}: {len(samples)} samples, more than processes = {processes}")
            rounds = [s.get("round") for s in samples]
            if rounds != sorted(rounds) or len(set(rounds)) != len(rounds) or \
                    any(r is None or r < 0 or r >= processes for r in rounds):
                problems.append(f"{where}: rounds {rounds} are not increasing within 0..{processes - 1}")
            if state.get("unavailable") and samples:
                problems.append(f"{where}: unavailable ({state['unavailable']}) but {len(samples)} samples")
            for k, s in enumerate(samples):
                phases = [s.get(p) for p in PHASES]
                if any(v is None or v < 0 for v in phases):
                    problems.append(f"{where}: sample {k} has a missing or negative phase {phases}")
                    continue
                if sum(phases) != s.get("total_ns"):
                    problems.append(f"{where}: sample {k} total_ns {s.get('total_ns')}, expected {sum(phases)}")
            median = state.get("median")
            if not samples:
                for field in ("median", "min_total_ns", "max_total_ns", "against_cold", "speedup_vs_cold"):
                    if state.get(field) is not None:
                        problems.append(f"{where}: {field} {state.get(field)}, expected null (no samples)")
                continue
            totals = [s["total_ns"] for s in samples]
            if not isinstance(median, dict):
                problems.append(f"{where}: median null with {len(samples)} samples")
            else:
                for field in PHASES + ("total_ns",):
                    want = statistics.median([s[field] for s in samples])
                    if not close(median.get(field), want):
                        problems.append(f"{where}: median.{field} {median.get(field)}, expected {want}")
            if not close(state.get("min_total_ns"), min(totals)):
                problems.append(f"{where}: min_total_ns {state.get('min_total_ns')}, expected {min(totals)}")
            if not close(state.get("max_total_ns"), max(totals)):
                problems.append(f"{where}: max_total_ns {state.get('max_total_ns')}, expected {max(totals)}")
            compared = state.get("cache") in ("warm", "artifacts") and bool(cold_totals)
            want_order = rank_order(totals, cold_totals) if compared else None
            want_speedup = statistics.median(cold_totals) / statistics.median(totals) if compared else None
            if state.get("against_cold") != want_order:
                problems.append(f"{where}: against_cold {state.get('against_cold')}, expected {want_order}")
            if not close(state.get("speedup_vs_cold"), want_speedup):
                problems.append(f"{where}: speedup_vs_cold {state.get('speedup_vs_cold')}, expected {want_speedup}")
    if checked == 0:
        problems.append("no path has a cold_start: nothing to check (was the report made with --cold-start?)")
    return problems


def check_files(files):
    failed = False
    for file in files:
        try:
            with open(file, encoding="utf-8") as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{file}: cannot read: {e}", file=sys.stderr)
            return 2
        problems = check_report(report)
        for line in problems:
            print(f"{file}: {line}")
        states = sum(len((p.get("cold_start") or {}).get("states", [])) for p in report.get("paths", []))
        print(f"{file}: {'MISMATCH' if problems else 'ok'}: {states} cold-start states checked, "
              f"{len(problems)} mismatch(es)")
        failed = failed or bool(problems)
    return 1 if failed else 0


def sample(round_, total_parts):
    process, imp, load, comp, first = total_parts
    return {"round": round_, "process_ns": process, "import_ns": imp, "load_ns": load, "compile_ns": comp,
            "first_call_ns": first, "total_ns": process + imp + load + comp + first, "output_matches": True}


def state(cache, samples, median, lo, hi, against=None, speedup=None, unavailable=None):
    return {"cache": cache, "samples": samples, "median": median, "min_total_ns": lo, "max_total_ns": hi,
            "against_cold": against, "speedup_vs_cold": speedup, "failed": None, "unavailable": unavailable}


def self_test():
    # compile: cold totals 900, 1000, 1100 (all compile time but 100 of process), warm 240, 250, 260:
    # warm faster (260 < 900), speedup median 1000 / 250 = 4.0; artifacts 950, 800, 1200: overlapping,
    # speedup 1000 / 950.
    cold = [sample(0, (100, 0, 0, 800, 0)), sample(1, (100, 0, 0, 900, 0)), sample(2, (100, 0, 0, 1000, 0))]
    warm = [sample(0, (10, 100, 100, 20, 10)), sample(1, (10, 100, 100, 30, 10)), sample(2, (10, 100, 100, 40, 10))]
    arts = [sample(0, (50, 0, 0, 900, 0)), sample(1, (50, 0, 0, 750, 0)), sample(2, (50, 0, 0, 1150, 0))]
    med = lambda p, i, l, c, f: {"process_ns": p, "import_ns": i, "load_ns": l, "compile_ns": c,  # noqa: E731
                                 "first_call_ns": f, "total_ns": p + i + l + c + f}
    # eager, 4 processes: totals 10, 20, 30, 100: median (20 + 30) / 2 = 25
    eager = [sample(r, (t, 0, 0, 0, 0)) for r, t in enumerate((10, 20, 30, 100))]
    good = {"paths": [
        {"name": "compile", "cold_start": {"processes": 3, "states": [
            state("cold", cold, med(100, 0, 0, 900, 0), 900, 1100),
            state("warm", warm, med(10, 100, 100, 30, 10), 240, 260, "faster", 4.0),
            state("artifacts", arts, med(50, 0, 0, 900, 0), 800, 1200, "overlapping", 1000 / 950)]}},
        {"name": "eager", "cold_start": {"processes": 4, "states": [
            state("none", eager, med(25, 0, 0, 0, 0), 10, 100)]}},
        # aoti:python, one process each: warm 2000 above cold 1000 is slower, speedup 0.5
        {"name": "aoti:python", "cold_start": {"processes": 1, "states": [
            state("cold", [sample(0, (0, 1000, 0, 0, 0))], med(0, 1000, 0, 0, 0), 1000, 1000),
            state("warm", [sample(0, (0, 2000, 0, 0, 0))], med(0, 2000, 0, 0, 0), 2000, 2000, "slower", 0.5)]}},
        {"name": "compile:cpp-wrapper", "cold_start": {"processes": 1, "states": [
            state("cold", [sample(0, (1, 1, 1, 1, 1))], med(1, 1, 1, 1, 1), 5, 5),
            state("warm", [sample(0, (1, 1, 1, 1, 1))], med(1, 1, 1, 1, 1), 5, 5, "overlapping", 1.0),
            state("artifacts", [], None, None, None, unavailable="torch 2.5 has no save_cache_artifacts")]}},
        {"name": "aoti", "cold_start": None}]}
    problems = check_report(good)
    if problems:
        print("self-test FAILED: the hand-worked report does not check:\n  " + "\n  ".join(problems))
        return 1
    corruptions = {
        "a wrong median": lambda r: r["paths"][1]["cold_start"]["states"][0]["median"].update(total_ns=20),
        "a wrong against_cold": lambda r: r["paths"][0]["cold_start"]["states"][2].update(against_cold="faster"),
        "a wrong total": lambda r: r["paths"][0]["cold_start"]["states"][1]["samples"][0].update(total_ns=241),
        "a wrong speedup": lambda r: r["paths"][0]["cold_start"]["states"][1].update(speedup_vs_cold=4.1),
        "a wrong max": lambda r: r["paths"][0]["cold_start"]["states"][0].update(max_total_ns=1000),
        "too many samples": lambda r: r["paths"][2]["cold_start"].update(processes=0),
        "rounds out of order": lambda r: r["paths"][1]["cold_start"]["states"][0]["samples"].reverse(),
        "samples in an unavailable state": lambda r: r["paths"][3]["cold_start"]["states"][2]["samples"].append(
            sample(0, (1, 1, 1, 1, 1))),
        "a missing state": lambda r: r["paths"][0]["cold_start"]["states"].pop(),
        "a compared none state": lambda r: r["paths"][1]["cold_start"]["states"][0].update(against_cold="faster"),
    }
    for what, corrupt in corruptions.items():
        bad = copy.deepcopy(good)
        corrupt(bad)
        if not check_report(bad):
            print(f"self-test FAILED: {what} was not caught")
            return 1
        print(f"self-test: {what} caught")
    if not check_report({"paths": [{"name": "aoti", "cold_start": None}]}):
        print("self-test FAILED: a report without cold starts passed")
        return 1
    print("self-test: ok (the hand-worked report checks; 10 corruptions and an empty report caught)")
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) >= 3 and argv[1] == "--check":
        return check_files(argv[2:])
    print(__doc__.split("\n\n")[2], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
