#!/usr/bin/env python3
"""Independent reference for the multi-rank view of `ohprof analyze A B ...` (kind "ranks" reports).

Written from docs/ranks.md ("The rank digest", "The cross-rank view, step by step") alone; it shares no
code with ohprof's C++ and uses the Python standard library only. The per-window split of one trace
(wall, busy, host-bound, device-wait, communication; docs/metrics.md) comes from the independent
test/tools/trace_reference.py; everything else is computed here:

  * per trace, a rank digest: rank (distributedInfo.rank, else its position in the list),
    rank_from, world_size, backend, its steps, and its collectives (kernels whose name starts with
    "nccl", mangled or not, whose start lies in a window), each with its (stream, ordinal);
  * the cross-rank view: per step the present and missing ranks, each rank's compute, collective,
    collective wait (matched by (stream, ordinal)) and active time, the wall spread, the straggler and
    its cause; per rank the sums over its steps.

Timestamps are converted from the JSON text with decimal.Decimal (json parse_float), never through
binary floating point.

Usage:
  test/tools/ranks_reference.py TRACE...                     # human-readable view
  test/tools/ranks_reference.py --json TRACE...              # digests and view as JSON
  test/tools/ranks_reference.py --check --binary OHPROF TRACE...
      # compare with `OHPROF analyze TRACE... --export-json - --quiet`: exit 1 on any difference,
      # 77 when OHPROF does not exist
  test/tools/ranks_reference.py --self-test                  # hand-computed cases (+ the real pair)
  test/tools/ranks_reference.py --check-synthetic --binary OHPROF
      # a written 3-rank job whose steps are level and have each cause (compute, host_bound, offsetting,
      # unknown): the reference must name them as designed, and the binary's report match it
"""

import argparse
import bisect
import gzip
import json
import math
import os
import statistics
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import trace_reference  # noqa: E402  (the independent per-window split)

STEP_FIELDS = ("wall_ns", "busy_ns", "host_bound_ns", "device_wait_ns", "communication_ns")
VIEW_FIELDS = STEP_FIELDS + ("compute_ns", "collective_ns", "collective_wait_ns", "active_ns")
# The straggler's cause candidates, in their tie order (docs/ranks.md).
CAUSES = (("compute", "compute_ns"), ("host_bound", "host_bound_ns"), ("device_wait", "device_wait_ns"))
REAL_PAIR = [os.path.join(HERE, "..", "data", "traces", f"sampled_rank-{i}.json.gz") for i in (0, 1)]


# ---- the rank digest ------------------------------------------------------------------------------

def load_document(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        return json.load(f, parse_float=Decimal)


def digest(path, position):
    """The rank digest of one trace (docs/ranks.md, "The rank digest"), less device/verdict/warnings."""
    doc = load_document(path)
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    info = doc.get("distributedInfo") if isinstance(doc, dict) else None
    info = info if isinstance(info, dict) else {}
    is_int = trace_reference.is_int
    if is_int(info.get("rank")):
        rank, rank_from = info["rank"], "distributedInfo"
    else:
        rank, rank_from = position, "position"
    world_size = info["world_size"] if is_int(info.get("world_size")) else None
    backend = info["backend"] if isinstance(info.get("backend"), str) else ""

    # The windows as the reference analysis keeps them: sorted by (start, end), ends clipped.
    analysed = trace_reference.analyse(path)
    windows = analysed["windows"]
    # docs/metrics.md, "Ops without a launch call": the split is open when the least host-bound time is below it
    queue_open = analysed["verdict"]["host_bound_least"] < analysed["totals"]["gpu"]["host_bound"]
    steps = [{"step": w["index"], "wall_ns": w["end"] - w["start"], "busy_ns": w["gpu"]["busy"],
              "host_bound_ns": w["gpu"]["host_bound"], "device_wait_ns": w["gpu"]["device_wait"],
              "communication_ns": w["gpu"]["communication"]} for w in windows]
    starts = [w["start"] for w in windows]

    def window_at(t):  # as trace_reference: the last window (that order) with start <= t, if t < its end
        pos = bisect.bisect_right(starts, t) - 1
        return pos if pos >= 0 and t < windows[pos]["end"] else None

    # Collective kernels, kept by the same rules as the reader keeps a device op (trace_reference).
    found = []  # (window position, stream, start, end, file order, name)
    for order, e in enumerate(events):
        if not isinstance(e, dict) or e.get("cat") != "kernel" or e.get("ph") != "X":
            continue
        name, args = e.get("name"), e.get("args") or {}
        ts, dur = trace_reference.us_to_ns(e.get("ts")), trace_reference.us_to_ns(e.get("dur"))
        stream, device = args.get("stream"), args.get("device")
        if ts is None or dur is None or dur < 0 or not isinstance(name, str):
            continue
        if not (is_int(stream) and stream >= 0 and is_int(device) and device >= 0):
            continue
        if (ts == 0 and dur == 0) or not trace_reference.is_communication(name):
            continue
        pos = window_at(ts)
        if pos is not None:
            found.append((pos, stream, ts, ts + dur, order, name))
    found.sort()  # by window, stream, start, end, file order: the ordinal order
    collectives, prev, ordinal = [], None, 0
    for pos, stream, start, end, _, name in found:
        ordinal = ordinal + 1 if prev == (pos, stream) else 0
        prev = (pos, stream)
        collectives.append({"step": windows[pos]["index"], "stream": stream, "ordinal": ordinal,
                            "name": name, "start_ns": start, "duration_ns": end - start})
    return {"rank": rank, "rank_from": rank_from, "world_size": world_size, "backend": backend,
            "trace": path, "steps": steps, "collectives": collectives, "verdict": {"queue_open": queue_open}}


def digests_of(paths, first_position=0):
    unique = list(dict.fromkeys(paths))  # a file named twice is read once
    out = [digest(p, first_position + i) for i, p in enumerate(unique)]
    seen = {}
    for d in out:
        if d["rank"] in seen:
            sys.exit(f"ranks_reference: {seen[d['rank']]} and {d['trace']} are both rank {d['rank']}")
        seen[d["rank"]] = d["trace"]
    return sorted(out, key=lambda d: d["rank"])


# ---- the cross-rank view --------------------------------------------------------------------------

def median(values):
    """Median as a float; the mean of the two middle values for an even count."""
    return float(statistics.median(values))


def cross_rank_view(digests):
    """docs/ranks.md, "The cross-rank view, step by step", from digests alone."""
    digests = sorted(digests, key=lambda d: d["rank"])
    ranks = [d["rank"] for d in digests]
    digest_of = {d["rank"]: d for d in digests}
    step_of = {d["rank"]: {s["step"]: s for s in d["steps"]} for d in digests}
    colls_of = {r: {} for r in ranks}  # rank -> step -> [collective]
    for d in digests:
        for c in d["collectives"]:
            colls_of[d["rank"]].setdefault(c["step"], []).append(c)
    per_rank = {r: dict({"rank": r, "steps": 0}, **dict.fromkeys(VIEW_FIELDS, 0), slowest_steps=0)
                for r in ranks}
    steps_out = []
    for n in sorted({s for r in ranks for s in step_of[r]}):
        present = [r for r in ranks if n in step_of[r]]
        missing = [r for r in ranks if n not in step_of[r]]
        wait = dict.fromkeys(present, 0)
        matched = unmatched = 0
        if len(present) >= 2:
            at = {r: {(c["stream"], c["ordinal"]): c for c in colls_of[r].get(n, [])} for r in present}
            for key in sorted(set().union(*at.values())):
                here = [at[r].get(key) for r in present]
                if all(here) and len({c["name"] for c in here}) == 1:
                    matched += 1
                    least = min(c["duration_ns"] for c in here)
                    for r, c in zip(present, here):
                        wait[r] += c["duration_ns"] - least
                else:
                    unmatched += sum(1 for c in here if c)
        rows = []
        for r in present:
            s = step_of[r][n]
            row = {"rank": r, **{f: s[f] for f in STEP_FIELDS}}
            row["compute_ns"] = s["busy_ns"] - s["communication_ns"]
            row["collective_ns"] = sum(c["duration_ns"] for c in colls_of[r].get(n, []))
            row["collective_wait_ns"] = wait[r]
            row["active_ns"] = s["wall_ns"] - wait[r]
            rows.append(row)
            per_rank[r]["steps"] += 1
            for f in VIEW_FIELDS:
                per_rank[r][f] += row[f]
        walls = [row["wall_ns"] for row in rows]
        straggler = None
        if len(rows) >= 2:
            top = max(rows, key=lambda row: (row["active_ns"], -row["rank"]))  # ties: the lowest rank
            mid = median([row["active_ns"] for row in rows])
            excess = top["active_ns"] - mid
            largest, cause_excess = None, 0.0
            for name, field in CAUSES:
                over = top[field] - median([row[field] for row in rows])
                if over > 0 and over > cause_excess:  # strictly more: earlier causes win ties
                    largest, cause_excess = name, float(over)
            share = excess / mid if mid else 0.0
            # docs/ranks.md, "The straggler", in fractions: level under 1/20 of the median; a component
            # is the cause when its excess is half to twice the step's excess
            open_queue = any(digest_of[row["rank"]].get("verdict", {}).get("queue_open", False) for row in rows)
            if (Fraction(excess) / Fraction(mid) < Fraction(1, 20)) if mid > 0 else excess <= 0:
                cause = "level"
            elif open_queue:  # some rank's host-bound and device-wait are bounds: no part's excess is known
                cause = "queue_open"
            elif largest is not None and Fraction(cause_excess) > 2 * Fraction(excess):
                cause = "offsetting"
            elif largest is not None and 2 * Fraction(cause_excess) >= Fraction(excess):
                cause = largest
            else:
                cause = "unknown"
            straggler = {"rank": top["rank"], "active_ns": top["active_ns"], "median_active_ns": mid,
                         "excess_ns": float(excess), "excess_share": share,
                         "cause": cause, "largest": largest, "cause_excess_ns": cause_excess}
            if cause != "level":
                per_rank[top["rank"]]["slowest_steps"] += 1
        steps_out.append({"step": n, "ranks": rows, "missing_ranks": missing, "wall_min_ns": min(walls),
                          "wall_max_ns": max(walls), "wall_median_ns": median(walls),
                          "collectives_matched": matched, "collectives_unmatched": unmatched,
                          "straggler": straggler})
    return {"steps": steps_out, "per_rank": [per_rank[r] for r in ranks]}


# ---- comparison -----------------------------------------------------------------------------------

# Lists compared by a key of their entries, not by position.
LIST_KEYS = {"ranks": ("rank",), "steps": ("step",), "collectives": ("step", "stream", "ordinal"),
             "per_rank": ("rank",)}
ORDERED = ("ranks", "steps", "per_rank")  # by rank / step, ascending; collectives in any order


def keyed(name, items):
    key = LIST_KEYS.get(name)
    if key is None or not all(isinstance(x, dict) and all(k in x for k in key) for x in items):
        return None
    return {tuple(x[k] for k in key): x for x in items}


def diff(expected, actual, path="", out=None):
    """Differences of `actual` from `expected`, on the fields `expected` has (extra fields ignored)."""
    out = [] if out is None else out
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            out.append(f"{path}: expected an object, got {actual!r}")
            return out
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{path}.{k}: missing (expected {v!r})")
            else:
                diff(v, actual[k], f"{path}.{k}", out)
    elif isinstance(expected, list):
        if not isinstance(actual, list):
            out.append(f"{path}: expected a list, got {actual!r}")
            return out
        name = path.rsplit(".", 1)[-1]
        ek, ak = keyed(name, expected), keyed(name, actual)
        if ek is not None and ak is not None:
            for k in ek.keys() - ak.keys():
                out.append(f"{path}[{k}]: missing")
            for k in ak.keys() - ek.keys():
                out.append(f"{path}[{k}]: unexpected entry {ak[k]!r}")
            common = [k for k in ek if k in ak]
            if name in ORDERED and [k for k in ak if k in ek] != common:
                out.append(f"{path}: entries not in the order {common}")
            for k in common:
                diff(ek[k], ak[k], f"{path}[{k}]", out)
        elif len(expected) != len(actual):
            out.append(f"{path}: expected {expected!r}, got {actual!r}")
        else:
            for i, (e, a) in enumerate(zip(expected, actual)):
                diff(e, a, f"{path}[{i}]", out)
    elif isinstance(expected, float):
        if not isinstance(actual, (int, float)) or isinstance(actual, bool) or \
                not math.isclose(expected, actual, rel_tol=1e-9, abs_tol=1e-12):
            out.append(f"{path}: expected {expected!r}, got {actual!r}")
    elif isinstance(expected, int) and not isinstance(expected, bool):
        if not trace_reference.is_int(actual) or actual != expected:
            out.append(f"{path}: expected {expected!r} (an integer), got {actual!r}")
    elif expected != actual:
        out.append(f"{path}: expected {expected!r}, got {actual!r}")
    return out


def reference_report(digests):
    ranks = [{k: v for k, v in d.items() if k != "trace"} for d in digests]
    return {"ranks": ranks, **cross_rank_view(digests)}


def check(binary, paths, first_position):
    if not os.path.exists(binary):
        print(f"ranks_reference: {binary} does not exist; skipped", file=sys.stderr)
        return 77
    cmd = [binary, "analyze", *paths, "--export-json", "-", "--quiet"]
    if first_position:
        cmd += ["--first-position", str(first_position)]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        print(f"{' '.join(cmd)}: exit {proc.returncode}, no JSON on stdout\n{proc.stderr}", file=sys.stderr)
        return 1
    problems = [] if report.get("kind") == "ranks" else [f"kind: expected 'ranks', got {report.get('kind')!r}"]
    if report.get("failed"):
        problems.append(f"failed: expected [], got {report['failed']!r}")
    problems += diff(reference_report(digests_of(paths, first_position)), report)
    for p in problems:
        print(p)
    print(f"ranks_reference --check: {len(problems)} difference(s) over {len(paths)} traces "
          f"(binary exit {proc.returncode})")
    return 1 if problems else 0


# ---- output ---------------------------------------------------------------------------------------

def print_view(digests):
    for d in digests:
        print(f"rank {d['rank']} ({d['rank_from']}, world size {d['world_size']}, backend {d['backend']!r}): "
              f"{d['trace']}, {len(d['steps'])} steps, {len(d['collectives'])} collectives")
    view = cross_rank_view(digests)
    head = ("rank", "wall", "busy", "host_bound", "device_wait", "communication", "compute", "collective",
            "wait", "active")
    fmt = "    " + "  ".join(["{:>4}"] + ["{:>13}"] * (len(head) - 1))
    for s in view["steps"]:
        print(f"step {s['step']}: ranks {[r['rank'] for r in s['ranks']]}, missing {s['missing_ranks']}; wall "
              f"min {s['wall_min_ns']} median {s['wall_median_ns']} max {s['wall_max_ns']}; collectives "
              f"matched {s['collectives_matched']}, unmatched {s['collectives_unmatched']}")
        print(fmt.format(*head))
        for r in s["ranks"]:
            print(fmt.format(r["rank"], *(r[f] for f in VIEW_FIELDS)))
        g = s["straggler"]
        if g is None:
            print("    straggler: none (one rank present)")
        else:
            print(f"    straggler: rank {g['rank']}, active {g['active_ns']}, median {g['median_active_ns']}, "
                  f"excess {g['excess_ns']} ns ({100 * g['excess_share']:.2f}%), cause {g['cause']} "
                  f"(largest part {g['largest']}, +{g['cause_excess_ns']} ns)")
    print("per rank:")
    print(fmt.format(*head) + "  {:>5}  {:>7}".format("steps", "slowest"))
    for p in view["per_rank"]:
        print(fmt.format(p["rank"], *(p[f] for f in VIEW_FIELDS))
              + "  {:>5}  {:>7}".format(p["steps"], p["slowest_steps"]))


# ---- self-test ------------------------------------------------------------------------------------

def mk(rank, steps, collectives=(), queue_open=False):
    """A hand-made digest: steps as (step, wall, busy, host_bound, device_wait, communication),
    collectives as (step, stream, ordinal, name, duration)."""
    return {"rank": rank, "rank_from": "position", "world_size": None, "backend": "", "trace": f"r{rank}",
            "verdict": {"queue_open": queue_open},
            "steps": [dict(zip(("step",) + STEP_FIELDS, s)) for s in steps],
            "collectives": [{"step": c[0], "stream": c[1], "ordinal": c[2], "name": c[3], "start_ns": 0,
                             "duration_ns": c[4]} for c in collectives]}


def row(rank, wall, busy, hb, dw, comm, compute, coll, wait, active):
    return dict(zip(("rank",) + VIEW_FIELDS, (rank, wall, busy, hb, dw, comm, compute, coll, wait, active)))


def strag(rank, active, mid, excess, cause, cause_excess, largest=None):
    largest = largest if largest is not None else (cause if cause_excess > 0 else None)
    return {"rank": rank, "active_ns": active, "median_active_ns": float(mid), "excess_ns": float(excess),
            "excess_share": excess / mid if mid else 0.0, "cause": cause, "largest": largest,
            "cause_excess_ns": float(cause_excess)}


def step(n, rows, missing, wmin, wmax, wmed, matched, unmatched, straggler):
    return {"step": n, "ranks": rows, "missing_ranks": missing, "wall_min_ns": wmin, "wall_max_ns": wmax,
            "wall_median_ns": float(wmed), "collectives_matched": matched, "collectives_unmatched": unmatched,
            "straggler": straggler}


def total(r, n, wall, busy, hb, dw, comm, compute, coll, wait, active, slowest):
    return dict(row(r, wall, busy, hb, dw, comm, compute, coll, wait, active), steps=n, slowest_steps=slowest)


def self_test():
    cases = {}
    # (a) 3 ranks, step 1. Stream 7: ordinals 0 ("ncclA": 100/150/80, least 80 -> waits 20/70/0) and 1
    # ("ncclB": 50/100/60, least 50 -> waits 0/50/10) match. Stream 9 ordinal 0 has names X/Y/X: unmatched
    # (3 kernels); stream 9 ordinal 1 exists on rank 0 only: unmatched (1). Waits 20/120/10.
    # collective: r0 100+50+50+30=230, r1 150+100+50=300, r2 80+60+10=150. compute = busy - comm:
    # 400/400/350. active = wall - wait: 980/1030/890 -> straggler r1, median 980, excess 50.
    # Cause: compute 400 - median 400 = 0, host-bound 300 - 300 = 0, device-wait 150 - median 100 = 50.
    coll_a = lambda dA, dB, n9: [(1, 7, 0, "ncclA", dA), (1, 7, 1, "ncclB", dB), (1, 9, 0, n9[0], n9[1])]
    cases["a"] = ([mk(0, [(1, 1000, 600, 300, 100, 200)], coll_a(100, 50, ("ncclX", 50)) + [(1, 9, 1, "ncclX", 30)]),
                   mk(1, [(1, 1150, 700, 300, 150, 300)], coll_a(150, 100, ("ncclY", 50))),
                   mk(2, [(1, 900, 500, 300, 100, 150)], coll_a(80, 60, ("ncclX", 10)))],
                  {"steps": [step(1, [row(0, 1000, 600, 300, 100, 200, 400, 230, 20, 980),
                                      row(1, 1150, 700, 300, 150, 300, 400, 300, 120, 1030),
                                      row(2, 900, 500, 300, 100, 150, 350, 150, 10, 890)], [], 900, 1150, 1000,
                                  2, 4, strag(1, 1030, 980, 50, "device_wait", 50))],
                   "per_rank": [total(0, 1, 1000, 600, 300, 100, 200, 400, 230, 20, 980, 0),
                                total(1, 1, 1150, 700, 300, 150, 300, 400, 300, 120, 1030, 1),
                                total(2, 1, 900, 500, 300, 100, 150, 350, 150, 10, 890, 0)]})
    # (b)+(d)+(f) rank 0 has steps 1, 2; rank 1 has steps 2, 3. Step 1: only rank 0 (missing [1]); its
    # collective counts in collective_ns (40) but is neither matched nor unmatched; no straggler.
    # Step 2 (even count): active 500/400 -> straggler r0, median (500+400)/2 = 450, excess 50. compute
    # 250/200 (median 225, +25), host-bound 100/150 (median 125, -25), device-wait 100/50 (median 75, +25):
    # compute and device-wait tie at 25 -> compute. Step 3: only rank 1 (missing [0]).
    cases["b, d, f"] = ([mk(0, [(1, 200, 100, 50, 50, 40), (2, 500, 300, 100, 100, 50)], [(1, 3, 0, "ncclAllReduce", 40)]),
                   mk(1, [(2, 400, 200, 150, 50, 0), (3, 300, 300, 0, 0, 0)])],
                  {"steps": [step(1, [row(0, 200, 100, 50, 50, 40, 60, 40, 0, 200)], [1], 200, 200, 200, 0, 0, None),
                             step(2, [row(0, 500, 300, 100, 100, 50, 250, 0, 0, 500),
                                      row(1, 400, 200, 150, 50, 0, 200, 0, 0, 400)], [], 400, 500, 450, 0, 0,
                                  strag(0, 500, 450, 50, "compute", 25)),
                             step(3, [row(1, 300, 300, 0, 0, 0, 300, 0, 0, 300)], [0], 300, 300, 300, 0, 0, None)],
                   "per_rank": [total(0, 2, 700, 400, 150, 150, 90, 310, 40, 0, 700, 1),
                                total(1, 2, 700, 500, 150, 50, 0, 500, 0, 0, 700, 0)]})
    # (c) a tie in active time: ranks 5 and 3 (given in that order), both active 100 -> slowest the
    # lowest rank, 3; median 100, excess 0, share 0: level (no straggler, slowest_steps 0). compute 80/60
    # (median 70, +10), host-bound 20/10 (median 15, +5), device-wait 0/30 (median 15, -15) -> largest
    # compute, 10.
    cases["c"] = ([mk(5, [(0, 100, 60, 10, 30, 0)]), mk(3, [(0, 100, 80, 20, 0, 0)])],
                  {"steps": [step(0, [row(3, 100, 80, 20, 0, 0, 80, 0, 0, 100),
                                      row(5, 100, 60, 10, 30, 0, 60, 0, 0, 100)], [], 100, 100, 100, 0, 0,
                                  strag(3, 100, 100, 0, "level", 10, "compute"))],
                   "per_rank": [total(3, 1, 100, 80, 20, 0, 0, 80, 0, 0, 100, 0),
                                total(5, 1, 100, 60, 10, 30, 0, 60, 0, 0, 100, 0)]})
    # (e) a straggler above no component median: walls 1000 each; one matched collective of durations
    # 300/100/200 (waits 200/0/100) -> active 800/1000/900, straggler r1, median 900, excess 100.
    # (compute, host-bound, device-wait): r0 (400, 300, 0), r1 (300, 300, 300), r2 (300, 200, 300);
    # medians (300, 300, 300): r1 exceeds none by > 0 -> cause unknown, 0.
    cases["e"] = ([mk(0, [(4, 1000, 700, 300, 0, 300)], [(4, 1, 0, "ncclKernel_AllReduce", 300)]),
                   mk(1, [(4, 1000, 400, 300, 300, 100)], [(4, 1, 0, "ncclKernel_AllReduce", 100)]),
                   mk(2, [(4, 1000, 500, 200, 300, 200)], [(4, 1, 0, "ncclKernel_AllReduce", 200)])],
                  {"steps": [step(4, [row(0, 1000, 700, 300, 0, 300, 400, 300, 200, 800),
                                      row(1, 1000, 400, 300, 300, 100, 300, 100, 0, 1000),
                                      row(2, 1000, 500, 200, 300, 200, 300, 200, 100, 900)], [], 1000, 1000, 1000,
                                  1, 0, strag(1, 1000, 900, 100, "unknown", 0))],
                   "per_rank": [total(0, 1, 1000, 700, 300, 0, 300, 400, 300, 200, 800, 0),
                                total(1, 1, 1000, 400, 300, 300, 100, 300, 100, 0, 1000, 1),
                                total(2, 1, 1000, 500, 200, 300, 200, 300, 200, 100, 900, 0)]})
    # (g, h, i, j) the cause rule, ranks 0 and 1, no collectives (active = wall), rank 0 the slowest:
    # step 10: walls 1200/1000, median 1100, excess 100 (9.1%). compute 910/500 (median 705, +205),
    #   host-bound 0/300 (-150), device-wait 290/200 (+45): compute +205 > 2 x 100 -> offsetting.
    # step 11: walls 1180/1000, median 1090, excess 90 (8.3%); each part 60 more on rank 0, +30 over
    #   its median: largest compute 30 < 90 / 2 -> unknown.
    # step 12: walls 1100/1000, median 1050, excess 50 = 4.76% < 5% -> level (compute +50).
    # step 13: walls 1050/950, median 1000, excess 50 = 5% exactly -> not level; compute +50 = the
    #   excess -> compute.
    # rank 0 is the straggler of steps 10, 11 and 13 (slowest_steps 3), not of 12.
    cases["g, h, i, j"] = (
        [mk(0, [(10, 1200, 910, 0, 290, 0), (11, 1180, 560, 340, 280, 0), (12, 1100, 600, 300, 200, 0),
                (13, 1050, 550, 300, 200, 0)]),
         mk(1, [(10, 1000, 500, 300, 200, 0), (11, 1000, 500, 280, 220, 0), (12, 1000, 500, 300, 200, 0),
                (13, 950, 450, 300, 200, 0)])],
        {"steps": [step(10, [row(0, 1200, 910, 0, 290, 0, 910, 0, 0, 1200), row(1, 1000, 500, 300, 200, 0, 500, 0, 0, 1000)],
                        [], 1000, 1200, 1100, 0, 0, strag(0, 1200, 1100, 100, "offsetting", 205, "compute")),
                   step(11, [row(0, 1180, 560, 340, 280, 0, 560, 0, 0, 1180), row(1, 1000, 500, 280, 220, 0, 500, 0, 0, 1000)],
                        [], 1000, 1180, 1090, 0, 0, strag(0, 1180, 1090, 90, "unknown", 30, "compute")),
                   step(12, [row(0, 1100, 600, 300, 200, 0, 600, 0, 0, 1100), row(1, 1000, 500, 300, 200, 0, 500, 0, 0, 1000)],
                        [], 1000, 1100, 1050, 0, 0, strag(0, 1100, 1050, 50, "level", 50, "compute")),
                   step(13, [row(0, 1050, 550, 300, 200, 0, 550, 0, 0, 1050), row(1, 950, 450, 300, 200, 0, 450, 0, 0, 950)],
                        [], 950, 1050, 1000, 0, 0, strag(0, 1050, 1000, 50, "compute", 50))],
         "per_rank": [total(0, 4, 4530, 2620, 940, 970, 0, 2620, 0, 0, 4530, 3),
                      total(1, 4, 3950, 1950, 1180, 820, 0, 1950, 0, 0, 3950, 0)]})
    # (k, l) the bounds are inclusive (walls 1200/1000, median 1100, excess 100): step 20 compute +200, exactly
    # twice -> compute; step 21 compute and host-bound +50 each, exactly half -> compute (first of the tie).
    cases["k, l"] = (
        [mk(0, [(20, 1200, 900, 0, 300, 0), (21, 1200, 600, 400, 200, 0)]),
         mk(1, [(20, 1000, 500, 300, 200, 0), (21, 1000, 500, 300, 200, 0)])],
        {"steps": [step(20, [row(0, 1200, 900, 0, 300, 0, 900, 0, 0, 1200), row(1, 1000, 500, 300, 200, 0, 500, 0, 0, 1000)],
                        [], 1000, 1200, 1100, 0, 0, strag(0, 1200, 1100, 100, "compute", 200)),
                   step(21, [row(0, 1200, 600, 400, 200, 0, 600, 0, 0, 1200), row(1, 1000, 500, 300, 200, 0, 500, 0, 0, 1000)],
                        [], 1000, 1200, 1100, 0, 0, strag(0, 1200, 1100, 100, "compute", 50))],
         "per_rank": [total(0, 2, 2400, 1500, 400, 500, 0, 1500, 0, 0, 2400, 2),
                      total(1, 2, 2000, 1000, 600, 400, 0, 1000, 0, 0, 2000, 0)]})
    # (m) step 13 of case j with rank 1's split open (ops without a launch call): excess 5%, not level, but
    # no part's excess is known -> queue_open; rank 0 is still the straggler.
    cases["m"] = (
        [mk(0, [(13, 1050, 550, 300, 200, 0)]), mk(1, [(13, 950, 450, 300, 200, 0)], queue_open=True)],
        {"steps": [step(13, [row(0, 1050, 550, 300, 200, 0, 550, 0, 0, 1050), row(1, 950, 450, 300, 200, 0, 450, 0, 0, 950)],
                        [], 950, 1050, 1000, 0, 0, strag(0, 1050, 1000, 50, "queue_open", 50, "compute"))],
         "per_rank": [total(0, 1, 1050, 550, 300, 200, 0, 550, 0, 0, 1050, 1),
                      total(1, 1, 950, 450, 300, 200, 0, 450, 0, 0, 950, 0)]})
    failures = 0
    for name, (digests, expected) in cases.items():
        problems = diff(expected, cross_rank_view(digests), f"case {name}")
        failures += len(problems)
        for p in problems:
            print(p)
        print(f"self-test case {name}: {'ok' if not problems else 'FAILED'}")
    if all(os.path.exists(p) for p in REAL_PAIR):
        problems = []
        for d in digests_of(REAL_PAIR):
            if [s["step"] for s in d["steps"]] != [551, 552]:
                problems.append(f"rank {d['rank']}: steps {[s['step'] for s in d['steps']]}, expected [551, 552]")
            for n in (551, 552):
                k = sum(1 for c in d["collectives"] if c["step"] == n)
                if k != 5:
                    problems.append(f"rank {d['rank']} step {n}: {k} collectives, expected 5")
            for s in d["steps"]:
                if s["busy_ns"] + s["host_bound_ns"] + s["device_wait_ns"] != s["wall_ns"]:
                    problems.append(f"rank {d['rank']} step {s['step']}: split does not sum to wall")
            if d["rank_from"] != "distributedInfo" or d["world_size"] != 128 or d["backend"] != "nccl":
                problems.append(f"rank {d['rank']}: distributedInfo not read ({d['rank_from']})")
        failures += len(problems)
        for p in problems:
            print(p)
        print(f"self-test real pair: {'ok' if not problems else 'FAILED'}")
    else:
        print("self-test real pair: trace files not found, skipped")
    return 1 if failures else 0


# ---- a synthetic job whose steps have every kind of straggler ---------------------------------------

# Per step, each rank's (wall, kernel, device-wait) in microseconds: a launch call of 5 us opens the window,
# the kernel starts `device-wait` after the call ends and runs `kernel`; the rest of the window is host-bound.
# Ranks 0 and 1 are (1000, 600, 0): active 1000, busy 600, host-bound 400. Rank 2 is the straggler:
SYNTHETIC_STEPS = {
    1: (1000, 600, 0),    # level: no excess
    2: (1200, 800, 0),    # compute: +200 of +200
    3: (1100, 1000, 0),   # offsetting: compute +400, host-bound -300, of +100
    4: (1300, 700, 100),  # unknown: compute, host-bound and device-wait +100 each, of +300
    5: (1200, 600, 0),    # host_bound: +200 of +200
}
SYNTHETIC_CAUSES = {1: "level", 2: "compute", 3: "offsetting", 4: "unknown", 5: "host_bound"}


def synthetic_job(directory):
    """Writes the three ranks' traces of SYNTHETIC_STEPS under `directory`; returns their paths."""
    paths = []
    for rank in range(3):
        events, correlation = [], 0
        for n, straggler in SYNTHETIC_STEPS.items():
            wall, kernel, wait = straggler if rank == 2 else (1000, 600, 0)
            start = 2000 * n
            correlation += 1
            events += [
                {"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{n}", "pid": 1, "tid": 1,
                 "ts": start, "dur": wall},
                {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                 "ts": start, "dur": 5, "args": {"correlation": correlation}},
                {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": start + 5 + wait,
                 "dur": kernel, "args": {"device": 0, "stream": 7, "correlation": correlation}},
            ]
        # the recording goes on after the last step (a step is clipped to the recording's end)
        events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1,
                       "ts": 2000 * (len(SYNTHETIC_STEPS) + 1), "dur": 1, "args": {"correlation": 0}})
        path = os.path.join(directory, f"rank-{rank}.json")
        with open(path, "w") as f:
            json.dump({"schemaVersion": 1, "distributedInfo": {"rank": rank, "world_size": 3, "backend": "nccl"},
                       "traceEvents": events}, f)
        paths.append(path)
    return paths


def check_synthetic(binary):
    """The synthetic job through the binary: the reference names each step's cause as designed, and the
    binary's report matches the reference's field for field."""
    import tempfile
    with tempfile.TemporaryDirectory(prefix="ranks_reference.") as tmp:
        paths = synthetic_job(tmp)
        view = cross_rank_view(digests_of(paths))
        causes = {s["step"]: s["straggler"]["cause"] for s in view["steps"]}
        if causes != SYNTHETIC_CAUSES:
            print(f"ranks_reference: the synthetic job's causes are {causes}, designed {SYNTHETIC_CAUSES}")
            return 1
        return check(binary, paths, 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("traces", nargs="*")
    parser.add_argument("--json", action="store_true", help="print the digests and the view as JSON")
    parser.add_argument("--check", action="store_true", help="compare with the binary's --export-json report")
    parser.add_argument("--binary", help="the ohprof binary for --check")
    parser.add_argument("--first-position", type=int, default=0, help="as ohprof analyze --first-position")
    parser.add_argument("--self-test", action="store_true", help="run the hand-computed cases")
    parser.add_argument("--check-synthetic", action="store_true",
                        help="write a job whose steps have each straggler cause and compare the binary's report")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if args.check_synthetic:
        if not args.binary:
            parser.error("--check-synthetic needs --binary PATH")
        return check_synthetic(args.binary)
    if not args.traces:
        parser.error("give one or more traces (or --self-test)")
    if args.check:
        if not args.binary:
            parser.error("--check needs --binary PATH")
        return check(args.binary, args.traces, args.first_position)
    digests = digests_of(args.traces, args.first_position)
    if args.json:
        print(json.dumps(reference_report(digests), indent=1))
    else:
        print_view(digests)
    return 0


if __name__ == "__main__":
    sys.exit(main())
