#!/usr/bin/env python3
"""Fixture generator: writes sample_sweep.json, a hand-made `ohprof sweep` report (docs/report-schema.md,
"The sweep report") whose derived numbers follow docs/sweep.md, "What it computes".

  python3 test/data/sweep/make_sample_sweep.py [--out FILE] [--max-batch N]

A tiny MLP on a CPU, paths aoti, compile and eager, batch 1, 2, 4, ..., 4096 (13 points; --max-batch
takes the doubling further, e.g. 65536, where compile and aoti come within the tolerance band).
Medians follow aoti 3.8 us + 30 ns/item, compile 40 us + 30 ns/item, eager 25 us + 50 ns/item, with a
fixed pseudo-random jitter of about 1% and, for eager from batch 4096 on, 30% more (the activations
leaving a cache level: the fit leaves that point out). The point at batch 2048 failed. The measured
numbers (median, MAD, count, the split, and each path's median per round where a point has at most 100
rounds: batch 4096 and up) are made up and rounded as the harness would; every derived number
(latency_se, throughput, ratios with their round-paired se, crossovers, baseline, fits) is computed from
them here.
Standard library only; rerun it after changing the definitions in docs/sweep.md.
"""

import argparse
import itertools
import json
import math
import os
import random

PATHS = ["aoti", "compile", "eager"]
# fixed cost c (ns), per-item cost k (ns), the kernels' fixed part b0 (ns), the collector's cost per
# iteration in the split pass (ns)
MODEL = {"aoti": (3800.0, 30.0, 1200.0, 300.0),
         "compile": (40000.0, 30.0, 1200.0, 500.0),
         "eager": (25000.0, 50.0, 2000.0, 900.0)}
TOLERANCE = 0.05
BLOCK = 10                   # calls per path per interleaved round (config.block)
MAX_MADE_UP_ROUNDS = 100     # points with more rounds get none made up (round_medians)
FIT_TOLERANCE = 0.10
FAILED = {2048: ("export failed: out of memory (fake)", 9)}
# Student's t quantile 0.975 by degrees of freedom (NIST/SEMATECH e-Handbook, 1.3.6.7.2)
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
        10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110,
        18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060,
        26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042, 40: 2.021, 50: 2.009, 60: 2.000, 80: 1.990,
        100: 1.984}


def t975(df):
    """Beyond 30 degrees, the next lower tabulated one's value (docs/sweep.md, "Fit", step 3)."""
    return T975[max(d for d in T975 if d <= df)]


def se_median(wall):
    n = wall["count"]
    return 0.0 if n < 2 else math.sqrt(math.pi / 2) * 1.4826 * wall["mad"] / math.sqrt(n)


def measure(rng, x):
    """The made-up measured part of one point: every path's wall_ns summary and split medians."""
    medians = {}
    for p in PATHS:
        c, k, _, _ = MODEL[p]
        cache = 1.3 if p == "eager" and x >= 4096 else 1.0
        medians[p] = float(round((c + k * x) * cache * (1 + rng.gauss(0, 0.01))))
    # interleaved rounds: every path gets the same count, until min_time_s (0.5 s) of wall time
    n = min(10000, max(10, 10 * math.ceil(0.5e9 / sum(medians.values()) / 10)))
    out = []
    for p in PATHS:
        c, k, b0, collector = MODEL[p]
        m = medians[p]
        mad = round(m * (0.008 + 0.006 * rng.random()) * 2) / 2
        stddev = 1.4826 * mad * 1.6
        mean = m + 0.8 * mad
        wall = {"count": n, "mean": mean, "stddev": stddev, "median": m, "min": float(round(m - 3 * mad)),
                "max": float(round(m * 1.9)), "relative_noise": stddev / mean, "mad": mad,
                "outliers": round(n * 0.012)}
        busy = float(round((b0 + k * x) * (m / (c + k * x))))
        split_wall = m + collector
        # --kernel-profile: every kernel records itself, so no path's host time holds kernels
        out.append({"name": p, "wall_ns": wall, "busy_ns": busy, "host_ns": float(round(split_wall - busy)),
                    "kernels_unrecorded": False, "queue_open": False,
                    "collector_ratio": split_wall / m, "outputs_match": None if p == "eager" else True})
    return out


def round_medians(x, entries):
    """Each path's made-up median in each interleaved round (block of BLOCK calls) of the point's compare
    run, for the points of at most MAX_MADE_UP_ROUNDS rounds; [] for the others, as a point measured
    before the rounds were kept reads (a sweep resumed across that change has both). A round's median is
    the path's median times a drift common to every path in that round (sd 2%, which the per-round ratios
    cancel) and a path's own noise (sd 0.3% to 0.9%, the point's own), so the round-paired se of a ratio
    is above the independent one at some points and below at others. Where a point has more than 20
    rounds, its last round was cut short before eager's block: eager's entry there is null (its made-up
    wall_ns count is left as the other paths', which the ratios do not read)."""
    rounds = entries[0]["wall_ns"]["count"] // BLOCK
    if rounds > MAX_MADE_UP_ROUNDS:
        return {e["name"]: [] for e in entries}
    rng = random.Random(7000 + x)                    # its own stream: the other made-up numbers stay
    own = 0.003 + 0.006 * rng.random()
    drift = [rng.gauss(0, 0.02) for _ in range(rounds)]
    out = {}
    for e in entries:
        m = e["wall_ns"]["median"]
        out[e["name"]] = [float(round(m * (1 + d + rng.gauss(0, own)))) for d in drift]
    if rounds > 20:
        out["eager"][-1] = None
    return out


def derive_path(x, entry, medians_by_round):
    m = entry["wall_ns"]["median"]
    se = se_median(entry["wall_ns"])
    tput = x * 1e9 / m
    return {"name": entry["name"], "wall_ns": entry["wall_ns"], "latency_ns": m, "latency_se_ns": se,
            "throughput_per_s": tput, "throughput_se_per_s": tput * se / m, "busy_ns": entry["busy_ns"],
            "host_ns": entry["host_ns"], "kernels_unrecorded": entry["kernels_unrecorded"],
            "queue_open": entry["queue_open"],
            "collector_ratio": entry["collector_ratio"],
            "outputs_match": entry["outputs_match"], "round_medians_ns": medians_by_round}


def paired_ratio_se(slower, faster):
    """docs/sweep.md, "Pairs": the round-paired se of the ratio, over the rounds both have a median in;
    None for fewer than 2 such rounds."""
    q = [s / f for s, f in zip(slower["round_medians_ns"], faster["round_medians_ns"])
         if s is not None and f is not None]
    if len(q) < 2:
        return None
    q.sort()
    mid = (q[(len(q) - 1) // 2] + q[len(q) // 2]) / 2
    dev = sorted(abs(v - mid) for v in q)
    mad = (dev[(len(dev) - 1) // 2] + dev[len(dev) // 2]) / 2
    return math.sqrt(math.pi / 2) * 1.4826 * mad / math.sqrt(len(q))


def ratio_entry(slower, faster):
    ms, mf = slower["latency_ns"], faster["latency_ns"]
    r = ms / mf
    se = r * math.sqrt((slower["latency_se_ns"] / ms) ** 2 + (faster["latency_se_ns"] / mf) ** 2)
    paired = paired_ratio_se(slower, faster)
    if paired is not None:
        se = max(se, paired)
    low, high = r - 1.96 * se, r + 1.96 * se
    return {"slower": slower["name"], "faster": faster["name"], "ratio": r, "se": se, "low": low,
            "high": high, "within": low <= 1 + TOLERANCE and high >= 1 - TOLERANCE}


def wls(pts):
    """Weighted least squares of [(x, m)] with w = 1/m^2: c, k, S, Sxx, D."""
    S = sum(1 / m ** 2 for _, m in pts)
    Sx = sum(x / m ** 2 for x, m in pts)
    Sxx = sum(x * x / m ** 2 for x, m in pts)
    Sy = sum(1 / m for _, m in pts)
    Sxy = sum(x / m for x, m in pts)
    D = S * Sxx - Sx ** 2
    k = (S * Sxy - Sx * Sy) / D
    return (Sy - k * Sx) / S, k, S, Sxx, D


def fit(xs, ms, tol):
    """docs/sweep.md, "Fit": weighted least squares, points left out by their deleted residuals."""
    if len(xs) < 3:
        return {"status": "too_few_points", "c": None, "k": None}
    used = list(zip(xs, ms))
    while len(used) > max(3, (len(xs) + 1) // 2):                 # at least half the points, and 3
        deleted, others_worst = [], []
        for i, (x, m) in enumerate(used):
            others = used[:i] + used[i + 1:]
            c, k, _, _, _ = wls(others)
            deleted.append(abs(m - c - k * x) / m)
            others_worst.append(max(abs(mo - c - k * xo) / mo for xo, mo in others))
        if max(deleted) <= tol:
            break
        del used[others_worst.index(min(others_worst))]          # the smaller value on a tie
    c, k, S, Sxx, D = wls(used)
    e = {x: (m - c - k * x) / m for x, m in zip(xs, ms)}
    kept = [x for x, _ in used]
    s2 = sum(e[x] ** 2 for x in kept) / (len(used) - 2)            # w e'^2 = e^2
    t = t975(len(used) - 2)
    se_c, se_k = math.sqrt(s2 * Sxx / D), math.sqrt(s2 * S / D)
    max_e = max(abs(e[x]) for x in kept)
    return {"status": "fitted" if max_e <= tol else "not_linear", "c": c, "k": k,
            "c_low": c - t * se_c, "c_high": c + t * se_c, "k_low": k - t * se_k, "k_high": k + t * se_k,
            "used": kept, "left_out": [{"value": x, "relative_residual": e[x]} for x in xs if x not in kept],
            "max_e": max_e}


def analysis(points):
    measured = [pt for pt in points if pt["status"] == "measured"]
    by_name = [{p["name"]: p for p in pt["paths"]} for pt in measured]
    first = by_name[0]
    baseline = min(PATHS, key=lambda p: (first[p]["latency_ns"], PATHS.index(p)))
    for names in by_name:  # each path's ratio to the baseline, the pairs' formulas
        for p, entry in names.items():
            if p == baseline:
                entry["to_baseline"] = None
            else:
                r = ratio_entry(entry, names[baseline])
                entry["to_baseline"] = {k: r[k] for k in ("ratio", "se", "low", "high")}
    pairs = []
    for a, b in itertools.combinations(PATHS, 2):  # in --paths order: a is listed first
        both = [(pt, names) for pt, names in zip(measured, by_name) if a in names and b in names]
        m_a, m_b = both[0][1][a]["latency_ns"], both[0][1][b]["latency_ns"]
        slower, faster = (a, b) if m_a >= m_b else (b, a)
        within = []
        for pt, names in both:
            r = ratio_entry(names[slower], names[faster])
            pt["ratios"].append(r)
            within.append(r["within"])
        idx = None
        for i in range(len(within) - 1, -1, -1):
            if not within[i]:
                break
            idx = i
        pairs.append({"slower": slower, "faster": faster, "points": len(both),
                      "crossover": None if idx is None else both[idx][0]["value"], "crossover_index": idx})
    fits = []
    for p in PATHS:
        pts = [(pt["value"], names[p]) for pt, names in zip(measured, by_name) if p in names]
        f = fit([x for x, _ in pts], [e["latency_ns"] for _, e in pts], FIT_TOLERANCE)
        smallest, entry = pts[0]
        host = entry["host_ns"]
        fits.append({"path": p, "status": f["status"], "fixed_ns": f["c"], "fixed_low_ns": f.get("c_low"),
                     "fixed_high_ns": f.get("c_high"), "per_item_ns": f["k"],
                     "per_item_low_ns": f.get("k_low"), "per_item_high_ns": f.get("k_high"),
                     "points_used": f.get("used", [x for x, _ in pts]), "points_left_out": f.get("left_out", []),
                     "max_relative_residual": f.get("max_e"), "smallest": smallest,
                     "host_at_smallest_ns": host, "busy_at_smallest_ns": entry["busy_ns"],
                     "fixed_minus_host_ns": None if host is None or f["c"] is None else f["c"] - host,
                     "host_upper_bound": host is not None and (entry["kernels_unrecorded"] or entry["queue_open"])})
    return {"baseline": baseline, "pairs": pairs, "fits": fits}


def make_report(max_batch, stem):
    rng = random.Random(20260115)
    values = [2 ** i for i in range(int(math.log2(max_batch)) + 1)]
    points = []
    for x in values:
        pt = {"value": x, "inputs": [f"[{x}, 16]:float32"]}
        if x in FAILED:
            reason, code = FAILED[x]
            pt.update(status="failed", reason=reason, exit_code=code, report=None, elapsed_s=3.2,
                      artifacts_cached=False, stop_reason={"code": "none", "unmet": "", "text": ""}, warnings=[],
                      passes=[], chosen_pass=0, paths=[], ratios=[])
        else:
            entries = measure(rng, x)
            by_round = round_medians(x, entries)
            paths = [derive_path(x, e, by_round[e["name"]]) for e in entries]
            elapsed = 20 + 2 * rng.random()
            # --passes 2: the kept pass is the least disturbed (lowest geometric mean of the medians);
            # the other ran on a machine 10-40% slower, pass 1 or pass 2 alternately.
            slow = 1.1 + 0.3 * rng.random()
            chosen = 1 + (values.index(x) % 2)
            files = {1: f"{stem}.points/batch-{x}.json", 2: f"{stem}.points/batch-{x}.pass2.json"}
            passes = []
            for n in (1, 2):
                medians = {p["name"]: p["wall_ns"]["median"] * (1 if n == chosen else slow) for p in paths}
                score = math.exp(sum(math.log(m) for m in medians.values()) / len(medians))
                passes.append({"pass": n, "report": files[n], "medians_ns": [{"name": k, "median_ns": v} for k, v in medians.items()],
                               "score_ns": score})
            pt.update(status="measured", reason="", exit_code=0, report=files[chosen],
                      elapsed_s=round(elapsed, 1), artifacts_cached=False,
                      stop_reason={"code": "converged", "unmet": "", "text": "converged"}, warnings=[],
                      passes=passes, chosen_pass=chosen, paths=paths, ratios=[])
        points.append(pt)
    argv = ["ohprof", "sweep", "--model", "tiny_models:tiny_mlp", "--input", "1,16", "--batch", f"1..{max_batch}",
            "--device", "cpu", "--kernel-profile", "--paths", ",".join(PATHS), "--passes", "2",
            "--export-json", f"{stem}.json"]
    return {
        "kind": "sweep",
        "sweep_schema_version": 1,
        "context": {"ohprof_version": "0.1.0", "git_sha": "000000000000", "torch_version": "2.14.1+cpu",
                    "cuda_version": "none", "cupti_version": "none",
                    "device": {"type": "cpu", "index": -1, "name": "Fixture CPU (hand-made sample)"},
                    "argv": argv, "date": "2026-01-15T10:00:00Z", "hostname": "fixture", "cpu_threads": 2},
        "config": {"model": "tiny_models:tiny_mlp", "inputs": ["[1, 16]:float32"],
                   "axis": {"kind": "batch", "input": None, "inputs": None, "dim": 0, "name": "batch", "values": values},
                   "paths": PATHS, "device": "cpu", "compile_source": "module", "kernel_profile": True,
                   "warmup": 5, "min_runs": 10, "max_runs": 10000, "min_time_s": 0.5, "max_rse": 0.01,
                   "time_limit_s": 120, "sweep_time_limit_s": 3600, "passes": 2, "block": 10, "check_outputs": "warn",
                   "seed": 0, "tolerance": TOLERANCE, "fit_tolerance": FIT_TOLERANCE, "inputs_file": None,
                   "inputs_file_digest": None},
        "points": points,
        "analysis": analysis(points),
        "stop": "complete",
        "warnings": [{"code": "sweep-point-failed", "message": f"batch {x} failed: {reason}; the sweep goes on"}
                     for x, (reason, _) in FAILED.items() if x <= max_batch],
    }


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(here, "sample_sweep.json"))
    ap.add_argument("--max-batch", type=int, default=4096)
    ap.add_argument("--check", metavar="FILE",
                    help="instead of writing, exit 1 unless FILE is what this script makes (its max batch read from FILE)")
    args = ap.parse_args()
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            committed = json.load(f)
        stem = os.path.splitext(os.path.basename(args.check))[0]
        made = make_report(committed["config"]["axis"]["values"][-1], stem)
        if json.loads(json.dumps(made)) != committed:
            print(f"{args.check}: differs from what make_sample_sweep.py makes; rerun it (see its docstring)")
            return 1
        print(f"{args.check}: reproduced")
        return 0
    stem = os.path.splitext(os.path.basename(args.out))[0]
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(make_report(args.max_batch, stem), f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
