#!/usr/bin/env python3
"""Independent reference for the concurrent-callers figures of `ohprof compare --threads` (paths[i].concurrency).

Written from docs/metrics.md ("Concurrent callers", "Summary statistics", "Spread of a difference",
"Significance") and the `concurrency` entry of docs/report-schema.md alone, without reading ohprof's
C++, and with the Python standard library only. For every asked path whose `concurrency` is measured
(not null, `unavailable` null) it recomputes, from the raw fields of each point (`threads`,
`calls_per_round`, `round_ns`, `latency_ns`) and of the 1-caller point, every derived field
(`calls_per_s`, `calls_per_s_se`, `p50_ns`, `p99_ns`, `scaling`, `scaling_low`, `scaling_high`,
`scales`), the path's `limit` (from `holds_gil`, `host_share`, `cores`, `intra_op_threads`, `cuda`)
and its `caller_slowdown` (against its `samples_ns`), and checks what the doc states about the shape:
the counts, the rounds, the calls per round and the number of latencies kept.

Usage:
  test/tools/threads_reference.py --check REPORT.json [REPORT.json ...]   # exit 1 on any mismatch
  test/tools/threads_reference.py --self-test

Tolerances: numbers 1e-6 relative (1e-9 absolute near 0); strings, bools and null exactly.

Questions the doc leaves open, and the choice made here (Q1..Q22):
  Q1  `round(50 ms / m)`: the rounding of halves is not stated. Half away from zero (C++ std::round),
      not Python's half-to-even; m in ns, so 50 ms = 5e7. A path with m <= 0 (no samples) has no
      defined calls_per_round: not checked.
  Q2  `rounds` in `sqrt(rounds)` and in the latency count `rounds . N . ceil(calls_per_round / s)`:
      taken as the rounds the point holds, len(round_ns); that it equals kThreadRounds = 9 is checked
      separately, so a report with another round count shows one mismatch per point, not a cascade.
  Q3  calls_per_s_se for fewer than 2 rounds: 0 ("Spread of a difference": 0 for fewer than 2 values).
  Q4  The 1-caller point's scaling_low/high: the formula is applied as written, so with g = 0 and
      se = sqrt(t1_se^2 + t1_se^2) = sqrt(2) . t1_se the interval is 1 -/+ 1.96 . sqrt(2) . t1_se / t1
      (the point against itself as if independent); its scaling is exactly 1 and scales false.
  Q5  t1 = 0 (cannot occur with finite round_ns): scaling, scaling_low, scaling_high 0 and scales false,
      like the ratios' "both 0 when either median is 0". A round_ns <= 0 is a shape mismatch and the
      point's throughput is not recomputed.
  Q6  `scales` with se = 0: `g > 1.96 . 0`, i.e. g > 0, which is "Significance"'s rule for se = 0.
  Q7  The limit uses the figures recomputed here (scales at the largest count), not the report's, so
      a wrong `scales` shows as its own mismatch and possibly a limit mismatch.
  Q8  "fewer than two counts measured": fewer than two points.
  Q9  `host_share` "unknown" is JSON null; it is also checked to be the path's
      split.verdict.host_bound_share when the split has a verdict other than "unknown", and null
      otherwise ("when there is a split whose verdict is known").
  Q10 The doc does not say what `runner_instances` is for a path other than `aoti`: only `aoti`'s is
      checked (= the largest count). `holds_gil` is checked false for `aoti` (the C++ loader) and true
      for every other asked path (all Python paths).
  Q11 `intra_op_threads` and `cuda` are inputs of the limit; checked against context.cpu_threads
      ("LibTorch intra-op threads" in the schema) and context.device.type == "cuda". `cores` (the
      affinity mask of the measuring process) cannot be checked from the report.
  Q12 calls_per_round is "within [5, 5000]" per the doc (clamp after rounding). The brief that asked
      for this script said 500; the doc was followed.
  Q13 kThreadRounds = 9 per the doc (the brief said 7); latency_ns keeps calls 0, s, 2s, ... of each
      thread's calls in a round, s = ceil(calls_per_round / 100), so its length is
      rounds . N . ceil(calls_per_round / s) (the brief said rounds . N . calls_per_round, which is the
      same only for calls_per_round <= 100).
  Q14 The order within latency_ns (round by round, thread by thread) does not change p50/p99 and is
      not checked. p50/p99 of an empty latency_ns: 0 (an empty sample's summary is all 0).
  Q15 With config.compare.threads non-empty every asked path (role "path") must have a concurrency
      object (measured or unavailable); without it, every concurrency must be null. A variant's
      concurrency must be null in both cases (the schema's null; the doc's "a variant has none").
  Q16 A path with `unavailable` set must have no points and the report a `threads-incomplete` warning;
      its other fields (limit, ...) are not checked.
  Q17 `caller_slowdown` ("Slower on a caller thread") is checked only where the report has the key (a
      report written before it existed lacks it). T is the path's `samples_ns`; the ratio's median of T
      is that of the samples (equal to `wall_ns.median`). A non-null value must have a
      `threads-callers-slower` warning that names the path.
  Q18 The limit's rule 1 reads `caller_slowdown`: the value recomputed here (as Q7), and only where the
      report has the key, so a report written before 2026-12-05 (whose limit did not read it) is
      checked against the other rules.
  Q19 `host_share_se` and `host_share_within_noise` (2026-12-05) are checked where the report has them
      (an older report lacks both, and its limit is checked without the share's noise rule): the se is
      recomputed from the path's `split.iterations[]` (`gpu.host_bound_ns` over `wall_ns`, the ratio
      estimator's formula in the doc), null when `host_share` is null or there are fewer than 2
      iterations; the limit's share rule reads the recomputed se, and `host_share_within_noise` is
      (limit "unknown" and the share's interval contains 0.5, for a path that holds the GIL).
  Q20 `host_share_missing` (2026-12-06): a path that holds the GIL, does not scale, and whose share is
      null names the GIL only where neither rule 5 (cuda) nor rule 6 (the cores full) could hold; there its
      limit is "unknown" and `host_share_missing` true. Checked where the report has the key; a report
      written before it is checked against the rule it was written under (share null: "gil").
  Q21 `cores` 0 (the affinity mask could not be read): "the cores full" needs a known count, so rules 2
      and 6 and Q20 read it as not full (found here: the reference had read N . k >= 0 as full).
  Q22 `scaling_within_noise` (2026-12-06): rule 2's second half, read with the largest count's
      `scaling_high` as recomputed here (as Q7), `> 1.10` strictly ("reaches above"); checked where the
      report has the key, and only then does it come before rules 3 to 7 and make the share flags of Q19
      and Q20 false (a report written before it named a limit from the rules after it).
  Q23 `cores_had_room` (2026-12-07), rule 3: read at the largest count's `on_cpu_ns`, `waited_ns` and
      `round_ns` (T = their sum), on the CPU (`cuda` false) with `intra_op_threads` at most 1, both figures
      non-null and T > 0: the wait share waited / (N . T) strictly under 0.05 and the blocked share
      1 - (on_cpu + waited) / (N . T) at least 0.10; then "gil" for a path that holds the GIL, else
      "unknown".
      Checked where the report has the key, and only then does it come before the share rules (and make
      the flags of Q19 and Q20 false). A report written before it is checked against the rules it was
      written under.
  Q24 Rule 3 by intervals (2026-12-07, later): where the largest count's point has `on_cpu_round_ns` and
      `waited_round_ns` (one figure per round of `round_ns`, summing to `on_cpu_ns` and `waited_ns`, which
      is checked for every point that has them), each share's standard error is the ratio estimator's over
      the rounds (whole_r = N . round_ns[r]; part_r the round's wait, or whole_r - on_cpu_r - waited_r), and
      rule 3 holds when wait + 1.96 se < 0.05 and blocked - 1.96 se >= 0.10. A point with the keys but not
      one figure per round (or fewer than 2 rounds) gives rule 3 nothing to read; a point without the keys
      (a report written before) is read by the values, as Q23.
"""

import gzip
import json
import math
import sys

SE_FACTOR = math.sqrt(math.pi / 2) * 1.4826
THREAD_ROUNDS = 9                  # kThreadRounds (Q13)
CPR_MIN, CPR_MAX = 5, 5000         # calls_per_round bounds (Q12)
ROUND_TARGET_NS = 50e6             # 50 ms
LATENCIES_PER_THREAD_ROUND = 100   # "at most 100 per thread and round"

# ---------------------------------------------------------------- statistics ("Summary statistics")

def quantile(xs, q):
    """Linear interpolation between order statistics; 0 for an empty sample."""
    if not xs:
        return 0.0
    y = sorted(xs)
    p = q * (len(y) - 1)
    lo, hi = math.floor(p), math.ceil(p)
    return y[lo] + (y[hi] - y[lo]) * (p - lo)


def median(xs):
    return quantile(xs, 0.5)


def mad(xs):
    if not xs:
        return 0.0
    m = median(xs)
    return median([abs(x - m) for x in xs])


def se_median(xs):
    """docs/metrics.md, "Spread of a difference": sqrt(pi/2) . 1.4826 . MAD / sqrt(n), 0 for n < 2 (Q3)."""
    return 0.0 if len(xs) < 2 else SE_FACTOR * mad(xs) / math.sqrt(len(xs))


def round_half_away(x):                                          # Q1
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def calls_per_round(m):
    return min(CPR_MAX, max(CPR_MIN, round_half_away(ROUND_TARGET_NS / m)))


def latency_count(rounds, n, cpr):
    s = math.ceil(cpr / LATENCIES_PER_THREAD_ROUND)
    return rounds * n * math.ceil(cpr / s)

# ---------------------------------------------------------------- the figures

def point_throughput(pt):
    """(calls_per_s, calls_per_s_se), or None when a round_ns is not positive (Q5)."""
    n, cpr, rounds = pt["threads"], pt["calls_per_round"], pt["round_ns"]
    if any(r <= 0 for r in rounds):
        return None
    tput = [n * cpr * 1e9 / r for r in rounds]
    return median(tput), se_median(tput)


def scaling(t, t_se, t1, t1_se, n):
    """docs/metrics.md, "Figures of a point": against one caller."""
    if t1 == 0:                                                  # Q5
        return {"scaling": 0.0, "scaling_low": 0.0, "scaling_high": 0.0, "scales": False}
    g = t - t1
    se = math.sqrt(t_se ** 2 + t1_se ** 2)
    return {"scaling": t / t1,
            "scaling_low": 1 + (g - 1.96 * se) / t1,
            "scaling_high": 1 + (g + 1.96 * se) / t1,
            "scales": n > 1 and g > 1.96 * se}                   # Q6


def ratio_se(parts, wholes):
    """The ratio estimator's standard error of sum(parts) / sum(wholes): sqrt(sum (p - R w)^2 / (n (n - 1))) /
    mean(w); None for fewer than 2 or sum(w) <= 0 (Q19's share over iterations, Q24's over rounds)."""
    n = len(parts)
    if n < 2 or n != len(wholes) or sum(wholes) <= 0:
        return None
    r = sum(parts) / sum(wholes)
    return math.sqrt(sum((p - r * w) ** 2 for p, w in zip(parts, wholes)) / (n * (n - 1))) / (sum(wholes) / n)


def share_se(iterations):
    """docs/metrics.md, "The limit": the standard error of sum(h) / sum(w) over the split's iterations,
    sqrt(sum (h_i - R w_i)^2 / (n (n - 1))) / mean(w); None for fewer than 2 or sum(w) <= 0 (Q19)."""
    pairs = [((it.get("gpu") or {}).get("host_bound_ns"), it.get("wall_ns")) for it in iterations or []]
    if any(not isinstance(h, int) or not isinstance(w, int) for h, w in pairs):
        return None
    return ratio_se([h for h, _ in pairs], [w for _, w in pairs])


def share_within_noise(holds_gil, host_share, se):
    """The share's 95% interval contains 0.5: not significant (|share - 0.5| <= 1.96 se; with se 0, share
    == 0.5) for a path that holds the GIL (Q19)."""
    if not holds_gil or host_share is None or se is None:
        return False
    d = host_share - 0.5
    return not (abs(d) > 1.96 * se if se > 0 else d != 0)


def share_missing(holds_gil, host_share, n, intra_op_threads, cores, cuda):
    """Q20: the GIL rule needs the share, which is null, to tell the GIL from the device or the full cores."""
    return holds_gil and host_share is None and (cuda or (cores > 0 and n * max(1, intra_op_threads) >= cores))


NO_GAIN = 0.10                     # kNoGainTolerance: "does not scale" needs scaling_high <= 1.10 (Q22)


def gain_within_noise(npoints, scales, high, slow):
    """Q22: the largest count's gain is within noise (not scales) yet its interval reaches above 1.10."""
    return npoints >= 2 and not slow and not scales and high is not None and high > 1 + NO_GAIN


WAIT_ROOM = 0.05                   # rule 3: the callers' wait share under which the cores had room (Q23)
TAKING_TURNS = 0.10                # rule 3: the blocked share from which the callers took turns (Q23)


def room_shares(top, intra_op_threads, cuda):
    """Q23, Q24: (wait share, blocked share, wait se, blocked se) of the largest count's callers where rule 3
    can read them, else None. The se are None (and the values decide) for a point without the round figures'
    keys, a report written before the intervals; with the keys, rounds whose figures do not match round_ns
    leave the rule nothing to read (None)."""
    on_cpu, waited = top.get("on_cpu_ns"), top.get("waited_ns")
    rounds = top.get("round_ns") or []
    t = sum(rounds)
    n = top.get("threads") or 0
    if cuda or intra_op_threads > 1 or on_cpu is None or waited is None or not t > 0 or n <= 0:
        return None
    wait, blocked = waited / (n * t), 1 - (on_cpu + waited) / (n * t)
    if "on_cpu_round_ns" not in top and "waited_round_ns" not in top:
        return wait, blocked, None, None
    on_r, w_r = top.get("on_cpu_round_ns") or [], top.get("waited_round_ns") or []
    if len(rounds) < 2 or len(on_r) != len(rounds) or len(w_r) != len(rounds):
        return None
    wholes = [n * r for r in rounds]
    return (wait, blocked, ratio_se(w_r, wholes),
            ratio_se([w - o - x for w, o, x in zip(wholes, on_r, w_r)], wholes))


def room_holds(room):
    """Rule 3's condition on room_shares: with the se, the wait's 95% interval ends below 0.05 and the
    blocked share's starts at 0.10 or above (Q24); without, the values (Q23)."""
    if room is None:
        return False
    wait, blocked, wait_se, blocked_se = room
    if wait_se is None and blocked_se is None:
        return wait < WAIT_ROOM and blocked >= TAKING_TURNS
    if wait_se is None or blocked_se is None:
        return False
    return wait + 1.96 * wait_se < WAIT_ROOM and blocked - 1.96 * blocked_se >= TAKING_TURNS


def limit_rule(npoints, n, scales, holds_gil, host_share, cores, intra_op_threads, cuda, slow=False, se=None,
               missing_rule=True, high=None, noise_rule=False, room=None):
    """docs/metrics.md, "The limit": the first rule that holds, read at the largest count n; `slow`: the
    path has a caller_slowdown (Q18); `se`: the share's standard error (Q19); `missing_rule`: the report
    has host_share_missing (Q20); `high`: the largest count's scaling_high, read when `noise_rule` (the
    report has scaling_within_noise, Q22); `room`: room_shares at the largest count, read where the report
    has cores_had_room (Q23)."""
    enough = cores > 0 and n * max(1, intra_op_threads) >= cores          # Q21
    if npoints < 2 or slow:                                      # Q8, Q18
        return "unknown"
    if scales:
        return "cores" if (not cuda and enough) else "none"
    if noise_rule and gain_within_noise(npoints, scales, high, slow):   # Q22
        return "unknown"
    if room_holds(room):                                         # Q23, Q24
        return "gil" if holds_gil else "unknown"
    if share_within_noise(holds_gil, host_share, se):            # Q19
        return "unknown"
    if missing_rule and share_missing(holds_gil, host_share, n, intra_op_threads, cores, cuda):   # Q20
        return "unknown"
    if holds_gil and (host_share is None or host_share >= 0.5):
        return "gil"
    if cuda:
        return "device"
    if enough:
        return "cores"
    return "unknown"


def caller_slowdown(one, timing):
    """docs/metrics.md, "Slower on a caller thread": p50 / median(T) when at least 2 and p50 - median(T) is
    significant and positive; None otherwise, or when the latencies or the timing samples are empty (Q17)."""
    lat = one.get("latency_ns") or []
    if one.get("threads") != 1 or not lat or not timing or not median(timing) > 0:
        return None
    p50, m = quantile(lat, 0.5), median(timing)
    d = p50 - m
    se = math.sqrt(se_median(lat) ** 2 + se_median(timing) ** 2)
    return p50 / m if p50 / m >= 2 and d > 0 and d > 1.96 * se else None


def compute(conc, slow=False, se=None, missing_rule=True, noise_rule=True, room_rule=False):
    """The expected derived fields of a measured concurrency object: (points, limit); `slow`: its
    caller_slowdown as recomputed here is not None (Q18); `se`: its share's se as recomputed here (Q19)."""
    pts = conc["points"]
    figs = [point_throughput(p) for p in pts]
    t1, t1_se = figs[0] if pts and figs[0] is not None else (None, None)
    out = []
    for k, (p, f) in enumerate(zip(pts, figs)):
        lat = p["latency_ns"]
        e = {"p50_ns": quantile(lat, 0.5), "p99_ns": quantile(lat, 0.99)}
        if f is not None:
            e["calls_per_s"], e["calls_per_s_se"] = f
            if t1 is not None:
                e.update(scaling(f[0], f[1], t1, t1_se, p["threads"]))
                if k == 0:                                       # Q4: the 1-caller point
                    e["scaling"], e["scales"] = (1.0 if t1 != 0 else 0.0), False
        out.append(e)
    lim = None
    if len(pts) < 2 or "scales" in out[-1]:
        n, sc = (pts[-1]["threads"], out[-1].get("scales", False)) if pts else (0, False)
        room = room_shares(pts[-1], conc["intra_op_threads"], conc["cuda"]) if pts and room_rule else None
        lim = limit_rule(len(pts), n, sc, conc["holds_gil"], conc["host_share"], conc["cores"],
                         conc["intra_op_threads"], conc["cuda"], slow, se, missing_rule,
                         out[-1].get("scaling_high") if pts else None, noise_rule, room)
    return out, lim

# ---------------------------------------------------------------- comparing

class Checker:
    def __init__(self, label):
        self.label, self.count, self.bad = label, 0, []

    def cmp(self, where, got, want):
        self.count += 1
        num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
        if num(got) and num(want):
            ok = abs(got - want) <= max(1e-6 * abs(want), 1e-9)
        else:
            ok = got == want and type(got) is type(want)
        if not ok:
            self.bad.append(f"{self.label}: {where}: report {json.dumps(got)}, reference {json.dumps(want)}")

    def fact(self, where, ok, what):
        self.count += 1
        if not ok:
            self.bad.append(f"{self.label}: {where}: {what}")


def verdict_host_share(p):
    split = p.get("split")
    verdict = split.get("verdict") if isinstance(split, dict) else None
    # Q9: a verdict that is unknown (kernels_unrecorded among its reasons) gives no share
    known = isinstance(verdict, dict) and verdict.get("verdict") != "unknown"
    return verdict.get("host_bound_share") if known else None


def check_path(ck, rep, p, threads):
    where = f"paths[{p['name']}].concurrency"
    conc = p["concurrency"]
    if conc.get("unavailable") is not None:                     # Q16
        ck.fact(f"{where}.points", not conc.get("points"), f"unavailable ({conc['unavailable']!r}) but has points")
        ck.fact("warnings", any(w.get("code") == "threads-incomplete" for w in rep.get("warnings", [])),
                f"{p['name']} is unavailable but no threads-incomplete warning")
        return
    pts = conc.get("points") or []
    # the counts: sorted, 1 first, those of config.compare.threads
    ck.cmp(f"{where}.points[].threads", [q.get("threads") for q in pts], threads)
    ck.fact(f"{where}.points[0].threads", bool(pts) and pts[0].get("threads") == 1,
            "the first point is not 1 caller")
    # the path-level inputs (Q9, Q10, Q11)
    ctx = rep.get("context", {})
    ck.cmp(f"{where}.host_share (split.verdict.host_bound_share)", conc.get("host_share"), verdict_host_share(p))
    ck.cmp(f"{where}.holds_gil", conc.get("holds_gil"), p["name"] != "aoti")
    if p["name"] == "aoti":
        ck.cmp(f"{where}.runner_instances (the largest count)", conc.get("runner_instances"), max(threads))
    if "cpu_threads" in ctx:
        ck.cmp(f"{where}.intra_op_threads (context.cpu_threads)", conc.get("intra_op_threads"), ctx["cpu_threads"])
    if isinstance(ctx.get("device"), dict) and "type" in ctx["device"]:
        ck.cmp(f"{where}.cuda (context.device.type)", conc.get("cuda"), ctx["device"]["type"] == "cuda")
    if not pts:
        return
    # shape: rounds, calls per round, latencies kept (Q1, Q2, Q12, Q13)
    m = (p.get("wall_ns") or {}).get("median")
    for k, q in enumerate(pts):
        w = f"{where}.points[{k}] (threads {q.get('threads')})"
        rounds = len(q["round_ns"])
        ck.cmp(f"{w}.len(round_ns) (kThreadRounds)", rounds, THREAD_ROUNDS)
        if m is not None and m > 0:
            ck.cmp(f"{w}.calls_per_round (clamp(round(5e7 / wall_ns.median {m}), {CPR_MIN}, {CPR_MAX}))",
                   q["calls_per_round"], calls_per_round(m))
        ck.cmp(f"{w}.len(latency_ns) (rounds . N . ceil(calls_per_round / s))", len(q["latency_ns"]),
               latency_count(rounds, q["threads"], q["calls_per_round"]))
        ck.fact(f"{w}.round_ns", all(r > 0 for r in q["round_ns"]), "a round_ns is not positive")
    # the derived figures
    slow = caller_slowdown(pts[0], p.get("samples_ns") or []) if "caller_slowdown" in conc else None  # Q17, Q18
    se = None
    if "host_share_se" in conc:                                 # Q19
        split = p.get("split") if isinstance(p.get("split"), dict) else {}
        se = share_se(split.get("iterations")) if conc.get("host_share") is not None else None
        ck.cmp(f"{where}.host_share_se (split.iterations)", conc["host_share_se"], se)
    noise_rule = "scaling_within_noise" in conc                  # Q22
    room_rule = "cores_had_room" in conc                         # Q23
    exp, lim = compute(conc, slow is not None, se, "host_share_missing" in conc, noise_rule, room_rule)   # Q20
    within = noise_rule and gain_within_noise(len(pts), exp[-1].get("scales", False) if exp else False,
                                              exp[-1].get("scaling_high") if exp else None, slow is not None)
    shares = room_shares(pts[-1], conc["intra_op_threads"], conc["cuda"]) if room_rule else None
    # rule 3 is reached (rules 1 and 2 did not speak) and its wait share is under the bound (Q23)
    room = (room_holds(shares) and len(pts) >= 2 and slow is None and not exp[-1].get("scales", False) and
            not within)
    for k, q in enumerate(pts):                                  # Q24: the rounds' figures sum to the point's
        if q.get("on_cpu_round_ns") or q.get("waited_round_ns"):
            for key in ("on_cpu", "waited"):
                ck.cmp(f"{where}.points[{k}].{key}_ns (the sum of {key}_round_ns)", q.get(f"{key}_ns"),
                       sum(q.get(f"{key}_round_ns") or []))
            ck.fact(f"{where}.points[{k}] has one figure per round",
                    len(q.get("on_cpu_round_ns") or []) == len(q.get("waited_round_ns") or []) == len(q.get("round_ns") or []),
                    "round_ns, on_cpu_round_ns and waited_round_ns differ in length")
    for k, (q, e) in enumerate(zip(pts, exp)):
        w = f"{where}.points[{k}] (threads {q.get('threads')})"
        for key, v in e.items():
            if key not in q:
                ck.fact(f"{w}.{key}", False, f"report missing, reference {json.dumps(v)}")
            else:
                ck.cmp(f"{w}.{key}", q[key], v)
    if lim is not None:
        ck.cmp(f"{where}.limit", conc.get("limit"), lim)
        if noise_rule:                                          # Q22
            ck.cmp(f"{where}.scaling_within_noise", conc["scaling_within_noise"], lim == "unknown" and within)
        if room_rule:                                           # Q23
            ck.cmp(f"{where}.cores_had_room", conc["cores_had_room"], room)
        if "host_share_within_noise" in conc:                   # Q19
            ck.cmp(f"{where}.host_share_within_noise", conc["host_share_within_noise"],
                   lim == "unknown" and not within and not room and
                   share_within_noise(conc.get("holds_gil"), conc.get("host_share"), se))
        if "host_share_missing" in conc:                        # Q20
            ck.cmp(f"{where}.host_share_missing", conc["host_share_missing"],
                   lim == "unknown" and share_missing(conc.get("holds_gil"), conc.get("host_share"),
                                                      pts[-1]["threads"] if pts else 0, conc["intra_op_threads"],
                                                      conc["cores"], conc["cuda"]) and len(pts) >= 2
                   and slow is None and not exp[-1].get("scales", False) and not within and not room)
    if "caller_slowdown" in conc:                               # Q17
        ck.cmp(f"{where}.caller_slowdown", conc["caller_slowdown"], slow)
        slow = [w for w in rep.get("warnings", []) if w.get("code") == "threads-callers-slower"]
        named = any(f" {p['name']} " in w.get("message", "") for w in slow)
        if conc["caller_slowdown"] is not None:
            ck.fact("warnings", named, f"{p['name']} has a caller_slowdown but no threads-callers-slower warning "
                                       f"names it")
        else:
            ck.fact("warnings", not named, f"a threads-callers-slower warning names {p['name']}, whose "
                                           f"caller_slowdown is null")


def check(rep, label):
    """Returns (Checker, measured path count, note); note says why nothing was checked."""
    ck = Checker(label)
    cmpcfg = (rep.get("config") or {}).get("compare") or {}
    threads = cmpcfg.get("threads") or []
    paths = rep.get("paths", [])
    for p in paths:                                             # Q15
        c = p.get("concurrency")
        if p.get("role", "path") != "path" or not threads:  # a layer variant or a --what-if path: not asked
            ck.fact(f"paths[{p['name']}].concurrency", c is None,
                    f"not null for a {p.get('role')}" if p.get("role", "path") != "path" else "not null without --threads")
        else:
            ck.fact(f"paths[{p['name']}].concurrency", c is not None, "null for an asked path with --threads")
    if not threads:
        return ck, 0, "no --threads data (config.compare.threads is empty or absent)"
    valid = all(isinstance(t, int) and 1 <= t <= 256 for t in threads)
    ck.cmp("config.compare.threads (sorted, unique, 1 added, each 1 to 256)", threads,
           sorted(set(threads) | {1}) if valid else "counts from 1 to 256")
    measured = 0
    for p in paths:
        if p.get("role", "path") == "path" and p.get("concurrency") is not None:
            check_path(ck, rep, p, threads)
            measured += p["concurrency"].get("unavailable") is None
    return ck, measured, None

# ---------------------------------------------------------------- self-test

def close(a, b, r=1e-12):
    return abs(a - b) <= r * max(abs(b), 1.0)


def synthetic_point(n, cpr, tputs, latencies=None):
    """A point with the given round throughputs (calls/s): round_ns = N . cpr . 1e9 / T."""
    rounds = [n * cpr * 1e9 / t for t in tputs]
    if latencies is None:
        latencies = [1000 + 10 * i for i in range(latency_count(len(rounds), n, cpr))]
    return {"threads": n, "calls_per_round": cpr, "round_ns": rounds, "latency_ns": latencies}


def synthetic():
    """A small valid compare report: aoti and eager asked, one variant; --threads 2; every derived field
    filled with the reference's numbers."""
    T1 = [10000, 10000, 10000, 12500, 8000, 12500, 8000, 20000, 5000]
    rep = {"kind": "compare", "config": {"compare": {"threads": [1, 2]}},
           "context": {"cpu_threads": 2, "device": {"type": "cpu"}},
           "warnings": [], "paths": []}
    for name, role, m, t2, gil, share in (("aoti", "path", 10e6, [20000] * 9, False, 0.9),
                                          ("eager", "path", 1e7, [8000] * 9, True, 0.4),
                                          ("eager/x", "variant", 1e7, None, True, 0.4)):
        # aoti's timing samples (400 ns) are far below its caller latencies (1000 + 10 i ns): a caller_slowdown
        p = {"name": name, "role": role, "wall_ns": {"median": m}, "samples_ns": [400] * 5 if name == "aoti" else [m] * 5,
             "split": {"verdict": {"host_bound_share": share}}, "concurrency": None}
        if role == "path":
            cpr = calls_per_round(m)
            conc = {"points": [synthetic_point(1, cpr, T1), synthetic_point(2, cpr, t2)],
                    "holds_gil": gil, "host_share": share, "runner_instances": 2 if name == "aoti" else 0,
                    "cores": 2, "intra_op_threads": 2, "cuda": False, "limit": None, "unavailable": None,
                    "host_share_se": None, "host_share_within_noise": False}
            conc["caller_slowdown"] = caller_slowdown(conc["points"][0], p["samples_ns"])
            exp, lim = compute(conc, conc["caller_slowdown"] is not None)
            for q, e in zip(conc["points"], exp):
                q.update(e)
            conc["limit"] = lim
            conc["scaling_within_noise"] = False
            conc["cores_had_room"] = False
            if conc["caller_slowdown"] is not None:
                rep["warnings"].append({"code": "threads-callers-slower",
                                        "message": f"--threads: ...: {name} {conc['caller_slowdown']:.1f}x (...)"})
            p["concurrency"] = conc
        rep["paths"].append(p)
    return json.loads(json.dumps(rep))


def self_test():
    # quantiles (linear interpolation): [10, 20, 30, 40, 50] at 0.99: p = 0.99 . 4 = 3.96, lo 3, hi 4:
    # 40 + (50 - 40) . 0.96 = 49.6; at 0.5: p = 2 -> 30; [1, 2, 3, 4] at 0.25: p = 0.75 -> 1 + 0.75 = 1.75
    assert close(quantile([50, 10, 40, 20, 30], 0.99), 49.6)
    assert quantile([50, 10, 40, 20, 30], 0.5) == 30 and close(quantile([4, 3, 2, 1], 0.25), 1.75)
    assert quantile([], 0.99) == 0.0 and quantile([7], 0.99) == 7
    # even-count median: [4, 1, 3, 2] -> 1 2 3 4, p = 1.5 -> 2 + 0.5 = 2.5
    assert median([4, 1, 3, 2]) == 2.5
    # MAD: [1, 2, 3, 4, 100]: median 3; |xi - 3| = 2 1 0 1 97 -> 0 1 1 2 97 -> 1
    assert mad([1, 2, 3, 4, 100]) == 1 and mad([5, 5, 5]) == 0
    # calls_per_round: 5e7 / 9574 = 5222.4 -> 5000 (cap); 5e7 / 4e6 = 12.5 -> 13 (half away from zero,
    # Python's round gives 12); 5e7 / 1e8 = 0.5 -> 1 -> 5 (floor); 5e7 / 40000 = 1250
    assert [calls_per_round(m) for m in (9574, 4e6, 1e8, 40000)] == [5000, 13, 5, 1250]
    # latencies kept per thread and round: cpr 5 -> s 1 -> 5; 100 -> 1 -> 100; 101 -> s 2 -> 51;
    # 200 -> 2 -> 100; 250 -> 3 -> 84; 5000 -> 50 -> 100. 9 rounds x 2 threads x 84 = 1512
    assert [latency_count(1, 1, c) for c in (5, 100, 101, 200, 250, 5000)] == [5, 100, 51, 100, 84, 100]
    assert latency_count(9, 2, 250) == 1512
    # the 1-caller point: N 1, cpr 10; round throughputs 10000 10000 10000 12500 8000 12500 8000 20000 5000
    # (round_ns = 1 . 10 . 1e9 / T); sorted 5000 8000 8000 10000 10000 10000 12500 12500 20000: median
    # 10000; |T - 10000| = 0 0 0 2500 2000 2500 2000 10000 5000 -> 0 0 0 2000 2000 2500 2500 5000 10000:
    # MAD 2000; se = sqrt(pi/2) . 1.4826 . 2000 / sqrt(9) = 1.25331414 . 1.4826 . 666.667 = 1238.77
    T1 = [10000, 10000, 10000, 12500, 8000, 12500, 8000, 20000, 5000]
    t1, se1 = point_throughput(synthetic_point(1, 10, T1))
    assert close(t1, 10000, 1e-9) and close(se1, 1.2533141373155 * 1.4826 * 2000 / 3, 1e-9)
    assert abs(se1 - 1238.77) < 0.01, se1
    w = 1.96 * se1                                               # 2427.99
    # significant: 2 callers at 20000 every round (MAD 0, se 0): g = 10000, se = se1, 10000 > 2428:
    # scaling 2, interval 1 + (10000 -/+ 2428) / 10000 = 1.7572 .. 2.2428, scales
    t2, se2 = point_throughput(synthetic_point(2, 10, [20000] * 9))
    assert close(t2, 20000, 1e-9) and se2 == 0
    s = scaling(t2, se2, t1, se1, 2)
    assert close(s["scaling"], 2) and s["scales"] is True
    assert close(s["scaling_low"], 1.7572, 1e-5) and close(s["scaling_high"], 2.2428, 1e-5), s
    assert close(s["scaling_low"], 1 + (10000 - w) / 10000) and close(s["scaling_high"], 1 + (10000 + w) / 10000)
    # within noise: 12000 every round: g = 2000 < 2428: scaling 1.2, 0.9572 .. 1.4428 contains 1
    s = scaling(12000, 0, t1, se1, 2)
    assert close(s["scaling"], 1.2) and s["scales"] is False
    assert close(s["scaling_low"], 0.9572, 1e-5) and close(s["scaling_high"], 1.4428, 1e-5), s
    # significant loss: 5000 every round: g = -5000, |g| > 2428: 0.2572 .. 0.7428, below 1, not scales
    s = scaling(5000, 0, t1, se1, 2)
    assert close(s["scaling"], 0.5) and s["scales"] is False and s["scaling_high"] < 1
    assert close(s["scaling_low"], 0.2572, 1e-5) and close(s["scaling_high"], 0.7428, 1e-5), s
    # se = 0 on both sides: any gain is significant (Q6); the 1-caller point never scales
    assert scaling(10001, 0, 10000, 0, 2)["scales"] is True and scaling(10000, 0, 10000, 0, 1)["scales"] is False
    # the 1-caller point against itself (Q4): 1 -/+ 1.96 . sqrt(2) . 1238.77 / 10000 = 1 -/+ 0.343371:
    # 0.656629 .. 1.343371
    s = scaling(t1, se1, t1, se1, 1)
    assert close(s["scaling_low"], 0.656629, 1e-6) and close(s["scaling_high"], 1.343371, 1e-6), s
    # the limit, each branch (npoints, N, scales, holds_gil, host_share, cores, intra_op_threads, cuda)
    assert limit_rule(1, 1, False, True, None, 2, 2, False) == "unknown"          # 1: one count
    assert limit_rule(2, 2, True, False, 0.9, 2, 2, False) == "cores"             # 2: 2 . 2 >= 2
    assert limit_rule(2, 2, True, False, 0.9, 4, 2, False) == "cores"             # 2: 2 . 2 >= 4
    assert limit_rule(2, 2, True, False, 0.9, 8, 2, False) == "none"              # 2: 4 < 8
    assert limit_rule(2, 2, True, False, 0.9, 2, 0, False) == "cores"             # 2: 2 . max(1, 0) >= 2
    assert limit_rule(2, 2, True, True, 0.9, 2, 2, True) == "none"                # 2: cuda, even with the GIL
    assert limit_rule(2, 2, False, True, None, 8, 1, True) == "unknown"           # 3: share unknown, cuda (Q20)
    assert limit_rule(2, 2, False, True, None, 2, 1, False) == "unknown"          # 3: share unknown, cores full
    assert limit_rule(2, 2, False, True, None, 8, 1, False) == "gil"              # 3: share unknown, nothing else
    assert limit_rule(2, 2, False, True, None, 8, 1, True, missing_rule=False) == "gil"   # a report before Q20
    assert limit_rule(2, 2, False, False, None, 2, 1, False) == "cores"           # no GIL: the share is not read
    assert limit_rule(2, 2, False, True, None, 0, 1, False) == "gil"              # Q21: cores unknown, not full
    assert limit_rule(2, 2, True, False, 0.9, 0, 1, False) == "none"              # Q21
    assert limit_rule(2, 2, False, True, 0.5, 8, 1, True) == "gil"                # 3: share 0.5 (>=)
    assert limit_rule(2, 2, False, True, 0.49, 8, 1, True) == "device"            # 3 fails on share -> 4
    assert limit_rule(2, 2, False, False, 0.9, 2, 2, True) == "device"            # 4: before 5
    assert limit_rule(2, 2, False, True, 0.49, 2, 2, False) == "cores"            # 5: 4 >= 2
    assert limit_rule(2, 2, False, False, 0.9, 3, 1, False) == "unknown"          # 6: 2 < 3, CPU, no GIL
    # 3 with the share's se (Q19): 0.494 +- 1.96 . 0.004 = 0.48616 .. 0.50184 contains 0.5: unknown, before
    # the device and the cores; 0.513 (0.50516 ..): the GIL; 0.48 (.. 0.48784): on to the cores
    assert limit_rule(2, 2, False, True, 0.494, 2, 2, False, se=0.004) == "unknown"
    assert limit_rule(2, 2, False, True, 0.494, 8, 1, True, se=0.004) == "unknown"
    assert limit_rule(2, 2, False, True, 0.513, 2, 2, False, se=0.004) == "gil"
    assert limit_rule(2, 2, False, True, 0.48, 2, 2, False, se=0.004) == "cores"
    assert limit_rule(2, 2, False, False, 0.494, 2, 2, False, se=0.004) == "cores"   # no GIL: not read
    assert limit_rule(2, 2, True, True, 0.494, 2, 2, False, se=0.004) == "cores"     # 2 first
    # 2's second half (Q22): not scales, and the interval 0.9572 .. 1.4428 (12000 every round, above) reaches
    # above 1.10: unknown, before the GIL, the share rules, the device and the cores; at exactly 1.10, or in a
    # report without the key, the rules after it
    for args in ((2, 2, False, True, 0.9, 2, 2, False), (2, 2, False, True, None, 8, 1, False),
                 (2, 2, False, False, 0.9, 2, 2, True), (2, 2, False, True, 0.49, 2, 2, False)):
        assert limit_rule(*args, high=1.4428, noise_rule=True) == "unknown", args
        assert limit_rule(*args, high=1.10, noise_rule=True) == limit_rule(*args) != "unknown", args
        assert limit_rule(*args, high=1.4428, noise_rule=False) == limit_rule(*args), args
    assert limit_rule(2, 2, True, False, 0.9, 2, 2, False, high=2.2, noise_rule=True) == "cores"   # scales first
    assert not gain_within_noise(1, False, 1.4428, False) and not gain_within_noise(2, False, 1.4428, True)
    assert gain_within_noise(2, False, 1.1000001, False) and not gain_within_noise(2, False, 1.1, False)
    # rule 3 (Q23), the C++ test's case: 2 callers over rounds of 10, 20 and 40 ms (T 70 ms) on a CPU 91 ms,
    # waiting 3.5 ms: wait 3.5 / 140 = 0.025 < 0.05, blocked 1 - 94.5 / 140 = 0.325 >= 0.10: the GIL (before the
    # share rules: share unknown on full cores, or 0.2); a C++ path: unknown; asleep 7.5% (on a CPU 126 ms),
    # waiting 7 ms (exactly 0.05), intra-op 2, cuda, a figure null: the rules after
    top = {"threads": 2, "round_ns": [10e6, 20e6, 40e6], "on_cpu_ns": 91e6, "waited_ns": 3.5e6}
    room = room_shares(top, 1, False)
    assert close(room[0], 0.025) and close(room[1], 0.325), room
    assert limit_rule(2, 2, False, True, None, 2, 1, False, room=room) == "gil"
    assert limit_rule(2, 2, False, True, None, 2, 1, False) == "unknown"          # without it: Q20
    assert limit_rule(2, 2, False, True, 0.2, 16, 1, False, room=room) == "gil"
    assert limit_rule(2, 2, False, False, None, 2, 1, False, room=room) == "unknown"
    assert limit_rule(2, 2, False, True, None, 2, 1, False, room=room_shares(dict(top, on_cpu_ns=126e6), 1, False)) \
        == "unknown"                                             # Q20's unknown, not rule 3's
    busy = room_shares(dict(top, on_cpu_ns=138e6, waited_ns=1e6), 1, False)   # a C++ path keeping 2 cores busy
    assert limit_rule(2, 2, False, False, None, 2, 1, False, room=busy) == "cores"
    assert limit_rule(2, 2, False, True, 0.6, 2, 1, False, room=busy) == "gil"   # rule 4, by its share
    edge = room_shares(dict(top, waited_ns=7e6), 1, False)
    assert edge[0] == 0.05 and limit_rule(2, 2, False, True, None, 2, 1, False, room=edge) == "unknown"  # Q20's
    assert limit_rule(2, 2, False, False, None, 2, 1, False, room=edge) == "cores"
    assert room_shares(top, 2, False) is None and room_shares(top, 1, True) is None
    assert room_shares(dict(top, waited_ns=None), 1, False) is None
    # Q24, the C++ test's cases: on a CPU 13, 26, 52 ms and waiting 5.6 ms (4.0%); in proportion to the rounds
    # (0.8, 1.6, 3.2 ms) the se is 0: the GIL; waiting 2.0, 0.4, 3.2 ms: se sqrt(2.88 / 6) / 46.67 = 1.4846%, an
    # interval to 6.91%: the rules after (Q20's unknown); asleep 12% with an interval from 5.28%: the same
    steady = dict(top, on_cpu_ns=91e6, waited_ns=5.6e6, on_cpu_round_ns=[13e6, 26e6, 52e6],
                  waited_round_ns=[0.8e6, 1.6e6, 3.2e6])
    assert close(room_shares(steady, 1, False)[2], 0, 1e-9) and room_holds(room_shares(steady, 1, False))
    assert limit_rule(2, 2, False, True, None, 2, 1, False, room=room_shares(steady, 1, False)) == "gil"
    spread = dict(steady, waited_round_ns=[2.0e6, 0.4e6, 3.2e6])
    shares = room_shares(spread, 1, False)
    assert close(shares[0], 0.04) and close(shares[2], math.sqrt(2.88 / 6) / (140 / 3), 1e-9), shares
    assert not room_holds(shares) and limit_rule(2, 2, False, True, None, 2, 1, False, room=shares) == "unknown"
    restless = dict(top, on_cpu_ns=119.7e6, waited_ns=3.5e6, on_cpu_round_ns=[18.7e6, 31e6, 70e6],
                    waited_round_ns=[0.5e6, 1e6, 2e6])
    shares = room_shares(restless, 1, False)
    assert close(shares[1], 0.12) and close(shares[3], math.sqrt(15.36 / 6) / (140 / 3), 1e-9), shares
    assert not room_holds(shares)
    assert room_shares(dict(steady, waited_round_ns=[1e6]), 1, False) is None   # not one per round
    assert room_shares(dict(steady, on_cpu_round_ns=[], waited_round_ns=[]), 1, False) is None
    assert limit_rule(2, 2, True, True, None, 2, 1, False, room=room) == "cores"   # rule 2 first
    assert limit_rule(2, 2, False, True, None, 2, 1, False, room=room, high=1.3, noise_rule=True) == "unknown"
    assert limit_rule(2, 2, False, True, None, 2, 1, False, True, room=room) == "unknown"   # rule 1 first
    # the share's se, by hand: h {1, 2, 3} of w {2, 4, 5}: R = 6/11; residuals -1/11, -2/11, 3/11;
    # squares 14/121 = 0.115702; / 6 = 0.0192837; sqrt 0.138866; / (11/3) = 0.0378725
    its = [{"gpu": {"host_bound_ns": h}, "wall_ns": w} for h, w in ((1, 2), (2, 4), (3, 5))]
    assert close(share_se(its), 0.0378725264, 1e-9) and share_se(its[:1]) is None and share_se([]) is None
    # 1: a caller_slowdown makes any of the above unknown (Q18)
    for args in ((2, 2, True, False, 0.9, 2, 2, False), (2, 2, True, False, 0.9, 8, 2, False),
                 (2, 2, False, True, None, 8, 1, False), (2, 2, False, False, 0.9, 2, 2, True),
                 (2, 2, False, True, 0.49, 2, 2, False)):
        assert limit_rule(*args) != "unknown" and limit_rule(*args, True) == "unknown", args
    # a whole path: N = 1 and 2 with 2 model instances, and what the limit becomes
    conc = {"points": [synthetic_point(1, 10, T1), synthetic_point(2, 10, [20000] * 9)], "holds_gil": False,
            "host_share": 0.9, "cores": 2, "intra_op_threads": 2, "cuda": False}
    exp, lim = compute(conc)
    assert exp[0]["scaling"] == 1.0 and exp[0]["scales"] is False and exp[1]["scales"] is True and lim == "cores"
    # a Python path whose 2 callers make 12000 every round: within noise, reaching 1.4428 (Q22): unknown, where
    # a report without the key names the cores (share 0.4 < 0.5, 2 . 2 >= 2)
    wide = {"points": [synthetic_point(1, 10, T1), synthetic_point(2, 10, [12000] * 9)], "holds_gil": True,
            "host_share": 0.4, "cores": 2, "intra_op_threads": 2, "cuda": False}
    assert compute(wide)[1] == "unknown" and compute(wide, noise_rule=False)[1] == "cores"
    assert close(exp[0]["p50_ns"], 1000 + 10 * 44.5) and close(exp[0]["p99_ns"], 1000 + 10 * 0.99 * 89)
    # caller_slowdown, the C++ test's cases: timing {40, 50, 60, 50, 50} (median 50, MAD 0, se 0)
    T = [40, 50, 60, 50, 50]
    one = lambda lat: {"threads": 1, "latency_ns": lat}
    # {100..140}: p50 120, MAD 10, se 1.25331 . 1.4826 . 10 / sqrt(5) = 8.3099; d 70 > 16.29: 120 / 50 = 2.4
    assert close(se_median([100, 110, 120, 130, 140]), 8.3099, 1e-4)
    assert close(caller_slowdown(one([100, 110, 120, 130, 140]), T), 2.4)
    # {60, 100, 120, 200, 400}: MAD 60, se 49.86, 70 < 97.7: noise; {90, 95, 99, 100, 110}: 99 / 50 = 1.98 < 2
    assert caller_slowdown(one([60, 100, 120, 200, 400]), T) is None
    assert caller_slowdown(one([90, 95, 99, 100, 110]), T) is None
    assert caller_slowdown(one([]), T) is None and caller_slowdown(one([100, 120]), []) is None
    assert caller_slowdown({"threads": 2, "latency_ns": [100, 110, 120, 130, 140]}, T) is None
    # round trip: the synthetic report checks clean; each derived field perturbed alone is caught
    rep = synthetic()
    ck, measured, note = check(rep, "self-test")
    assert not ck.bad and measured == 2 and note is None, ck.bad
    checked = ck.count
    assert [p["concurrency"]["limit"] for p in rep["paths"][:2]] == ["unknown", "cores"]  # aoti's is slow (Q18)
    assert rep["paths"][1]["concurrency"]["points"][1]["scaling_high"] < 1 + NO_GAIN
    assert rep["paths"][0]["concurrency"]["caller_slowdown"] > 2 and rep["paths"][1]["concurrency"]["caller_slowdown"] is None
    assert rep["paths"][0]["concurrency"]["points"][0]["calls_per_round"] == 5
    fields = ("calls_per_s", "calls_per_s_se", "p50_ns", "p99_ns", "scaling", "scaling_low", "scaling_high")
    for path in (0, 1):
        for k in (0, 1):
            for f in fields + ("scales",):
                bad = synthetic()
                q = bad["paths"][path]["concurrency"]["points"][k]
                q[f] = (not q[f]) if f == "scales" else q[f] * 1.001 + 1e-6
                found = check(bad, "mutant")[0].bad
                assert any(f".points[{k}] " in b and f".{f}:" in b for b in found), (path, k, f, found)
    pt = lambda r, i, k: r["paths"][i]["concurrency"]["points"][k]
    for mutate, expect in ((lambda r: r["paths"][0]["concurrency"].update(limit="none"), ".limit:"),
                           (lambda r: pt(r, 1, 1)["latency_ns"].pop(), "len(latency_ns)"),
                           (lambda r: pt(r, 1, 1)["round_ns"].pop(), "len(round_ns)"),
                           (lambda r: r["paths"][0]["concurrency"]["points"].reverse(), ".threads:"),
                           (lambda r: r["paths"][0]["wall_ns"].update(median=9574.0), "calls_per_round"),
                           (lambda r: r["paths"][2].update(concurrency=r["paths"][1]["concurrency"]), "variant"),
                           (lambda r: r["paths"][1]["concurrency"].update(host_share=None), "host_share"),
                           (lambda r: r["paths"][1]["concurrency"].update(host_share_se=0.01), "host_share_se"),
                           (lambda r: r["paths"][1]["concurrency"].update(host_share_within_noise=True),
                            "host_share_within_noise"),
                           (lambda r: r["paths"][1]["concurrency"].update(scaling_within_noise=True),
                            ".scaling_within_noise:"),
                           (lambda r: r["paths"][1]["concurrency"].update(cores_had_room=True), ".cores_had_room:"),
                           # eager's callers (intra-op 2 in the synthetic report: made 1) waited under 5%: rule 3
                           (lambda r: (r["paths"][1]["concurrency"].update(intra_op_threads=1),
                                       r["context"].update(cpu_threads=1),
                                       pt(r, 1, 1).update(on_cpu_ns=1e6, waited_ns=0)), ".cores_had_room:"),
                           # the same with its rounds' figures (9 rounds of 1.25 ms, 2 callers), the wait all in
                           # one round: 3.0% with an se of 3.0%, an interval to 8.9%: rule 3 does not hold
                           (lambda r: (r["paths"][1]["concurrency"].update(intra_op_threads=1, cores_had_room=True),
                                       r["context"].update(cpu_threads=1),
                                       pt(r, 1, 1).update(on_cpu_ns=9e5, waited_ns=675000,
                                                          on_cpu_round_ns=[1e5] * 9,
                                                          waited_round_ns=[675000] + [0] * 8)), ".cores_had_room:"),
                           (lambda r: pt(r, 1, 1).update(on_cpu_ns=1e6, waited_ns=0, on_cpu_round_ns=[1e5] * 9,
                                                          waited_round_ns=[0] * 9), "(the sum of on_cpu_round_ns)"),
                           (lambda r: pt(r, 1, 1).update(round_ns=[2 * pt(r, 1, 1)["calls_per_round"] * 1e9 / 12000] * 9),
                            ".limit:"),
                           (lambda r: r["paths"][0]["concurrency"].update(caller_slowdown=3.0), ".caller_slowdown:"),
                           (lambda r: r["paths"][0]["concurrency"].update(caller_slowdown=None), ".caller_slowdown:"),
                           (lambda r: r.update(warnings=[]), "no threads-callers-slower warning names it"),
                           (lambda r: r["warnings"].append({"code": "threads-callers-slower", "message": ": eager 3x"}),
                            "names eager, whose caller_slowdown is null")):
        bad = synthetic()
        mutate(bad)
        found = check(bad, "mutant")[0].bad
        assert any(expect in b for b in found), (expect, found)
    # a report without --threads passes with a note; a concurrency object there is a mismatch
    plain = synthetic()
    plain["config"]["compare"]["threads"] = []
    for p in plain["paths"]:
        p["concurrency"] = None
    ck, measured, note = check(plain, "plain")
    assert not ck.bad and measured == 0 and note
    plain["paths"][0]["concurrency"] = {"points": []}
    assert check(plain, "plain")[0].bad
    print(f"self-test: ok ({checked} fields and facts in the round trip; every derived field's mutant caught)")


def main(argv):
    if argv[:1] == ["--self-test"]:
        self_test()
        return 0
    if argv[:1] != ["--check"] or len(argv) < 2:
        print(__doc__.split("\n\n")[2], file=sys.stderr)
        return 2
    bad = 0
    for path in argv[1:]:
        with (gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz") else open(path)) as fh:
            ck, measured, note = check(json.load(fh), path)
        for line in ck.bad:
            print(line)
        bad += len(ck.bad)
        if not ck.bad:
            print(f"{path}: ok, {note}" if note else
                  f"{path}: ok, {measured} measured path(s), {ck.count} fields and facts checked")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
