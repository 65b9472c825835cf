#!/usr/bin/env python3
"""Independent reference for the cold-start figures of `ohprof compare --cold-start` (paths[i].cold_start).

Written from docs/metrics.md ("Cold start") and the `cold_start` entry of docs/report-schema.md alone,
without reading ohprof's C++, and with the Python standard library only. For every path whose
`cold_start` is not null, for every state in `cold_start.states`, it recomputes from the samples every
derived figure: each sample's `total_ns` (the sum of its five phases, exact integer equality), the
state's `median` (each phase's and the total's own median), `min_total_ns`, `max_total_ns`, and for the
`warm` and `artifacts` states against the path's `cold` state `against_cold` (the rank rule) and
`speedup_vs_cold`; and it checks what the doc states about the shape: at most `processes` samples,
rounds within 0..processes-1 and increasing, phases not negative, no samples in an `unavailable` state,
the states a path has for its name, and the warnings a failure, an unavailable state or an output that
differs must leave. From docs/metrics.md ("Fresh-process memory", "Deployment summary") it also checks
the memory medians, each deployment row's `fresh_peak_bytes` and the `fresh-peak` criterion (Q12..Q14).

Usage:
  test/tools/cold_start_reference.py --check REPORT.json [REPORT.json ...]   # exit 1 on any mismatch
  test/tools/cold_start_reference.py --self-test

Exit status: 0 every figure matches; 1 a mismatch, or a report with no cold_start anywhere (nothing to
check); 2 a usage error (bad arguments, a file that cannot be read or is not JSON).

Tolerances: numbers 1e-9 relative (1e-6 absolute); `total_ns` against its phases exactly (integers);
strings and null exactly.

Questions the doc leaves open, and the choice made here (Q1..Q10):
  Q1  The median is `statistics.median`: the middle value for an odd count, the mean of the two middle
      values for an even one (the doc's "median", as "Summary statistics" takes it).
  Q2  A state with no samples (failed at its first process, or unavailable): `median`, `min_total_ns`,
      `max_total_ns`, `against_cold` and `speedup_vs_cold` all null (the schema's "median ... or null";
      the doc gives no minimum of nothing).
  Q3  `against_cold` and `speedup_vs_cold` are null for the `none` and `cold` states, and for a `warm` or
      `artifacts` state when it or the path's `cold` state has no samples (or the path has no `cold`
      state): there is nothing to rank against.
  Q4  The rank rule is strict: a total equal to a cold total is neither below nor above it, so a tie
      makes the state `overlapping` (the doc's "below" / "above"; the chance argument assumes no ties).
  Q5  "Rounds increasing": strictly increasing, a state starts one process per round; a failed state
      stops, so its rounds need not reach processes-1.
  Q6  `speedup_vs_cold` with a state median of 0 (every phase 0: cannot happen with real clocks) is not
      checked.
  Q7  The states of a path, by name (order as the doc lists them): `aoti`, `eager`: [none]; `compile`
      and `compile:*`: [cold, warm, artifacts]; `aoti:python`: [cold, warm]. Another name: not checked.
  Q8  `processes` is checked against config.compare.cold_start ("--cold-start's processes per state")
      when the report has that field. With it > 0 a variant's cold_start must be null ("not the
      variants") and an asked path's not null unless a `cold-start-incomplete` warning is present (the
      Python API's case); with it 0 every cold_start must be null.
  Q9  Warnings: a state with `failed` or `unavailable` needs a `cold-start-incomplete` warning, a sample
      with `output_matches` false a `cold-start-outputs-differ` warning (checked as present in the
      report's warnings, not which path they name).
  Q10 Phases and totals must be integers (nanoseconds, "exact integer equality"); the medians, min and
      max are compared as numbers (an integer-valued float matches the integer).
  Q11 The rank rule's fewest orders is config.compare.cold_start_min_orders (40 since 2026-12-06, when
      naming either order at 3 and 3 had a 0.10 chance); a report without the key was written under 20.
  Q12 "Fresh-process memory": a state's samples with the key `rss_bytes` (reports from 2026-12-07 on) have
      `rss_bytes` and `peak_rss_bytes` each null or a non-negative integer, and the peak not below the
      resident set where both are there (the high-water mark of the same counter, read in the same moment);
      its median's `rss_bytes` and `peak_rss_bytes` are statistics.median over the samples whose value is not
      null, null when none has one. A report whose samples lack the key is not checked for them.
  Q13 `deployment.rows[i].fresh_peak_bytes` (checked where the row has the key) is the path's `cold` state's
      median `peak_rss_bytes`, or its `none` state's; null when the path has no cold_start, that state no
      median, or the median no peak. A row of a path not in `paths` is not checked.
  Q14 The criterion `fresh-peak` ("Deployment summary"; checked where `deployment.criteria` has it): the
      paths weighed are the rows whose path is not in `deployment.left_out` (that list is taken as given),
      in row order; a path's figure is Q13's, its peaks the non-null `peak_rss_bytes` of that state's
      samples. The best is the lowest figure (the first of equal ones); another path leads with it unless
      the rank rule (Q4, Q11's fewest orders) puts its peaks above the best's *and* its figure is more
      than 1% above the best's ("exceeds the best's by more than 1%": figure > best * 1.01 is apart);
      `leaders` is the best, then the others that lead, in row order; `next` the lowest figure of the rest
      (the first of equal ones; null when none); `without` the weighed paths with no figure; `too_few`
      whether the rank rule said too-few for some path against the best; `negligible` whether some path
      whose peaks the rank rule put above leads by the 1% alone. No criterion where no weighed path has
      a figure.
"""

import copy
import gzip
import json
import os
import statistics
import sys
import tempfile

PHASES = ("process_ns", "import_ns", "load_ns", "compile_ns", "first_call_ns")
MEDIAN_FIELDS = PHASES + ("total_ns",)
MEMORY_FIELDS = ("rss_bytes", "peak_rss_bytes")
REL_TOL, ABS_TOL = 1e-9, 1e-6

# ---------------------------------------------------------------- the figures

def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def expected_caches(name):                                        # Q7
    if name in ("aoti", "eager"):
        return ["none"]
    if name == "compile" or name.startswith("compile:"):
        return ["cold", "warm", "artifacts"]
    if name == "aoti:python":
        return ["cold", "warm"]
    return None


def rank_rule(totals, cold_totals, min_orders=20):                # Q4: strict; Q11
    """docs/metrics.md, "Figures of a state": faster / slower / overlapping against cold."""
    import math
    below = all(t < c for t in totals for c in cold_totals)
    above = all(t > c for t in totals for c in cold_totals)
    if not below and not above:
        return "overlapping"
    # fewer than min_orders orders of the n + m totals: the order is not a finding
    if math.comb(len(totals) + len(cold_totals), len(totals)) < min_orders:
        return "too-few"
    return "faster" if below else "slower"


def state_figures(samples, cache, cold_totals, min_orders=20):
    """The expected figures of one state from its samples (Q1, Q2, Q3, Q6). `cold_totals`: the path's cold
    state's totals ([] when it has none). Uses the sum of the phases as each sample's total, so a wrong
    total_ns shows as its own mismatch, not as a cascade."""
    if not samples:
        return {"median": None, "min_total_ns": None, "max_total_ns": None,
                "against_cold": None, "speedup_vs_cold": None}
    totals = [sum(s[p] for p in PHASES) for s in samples]
    median = {p: statistics.median([s[p] for s in samples]) for p in PHASES}
    median["total_ns"] = statistics.median(totals)
    out = {"median": median, "min_total_ns": min(totals), "max_total_ns": max(totals),
           "against_cold": None, "speedup_vs_cold": None}
    if cache in ("warm", "artifacts") and cold_totals:
        out["against_cold"] = rank_rule(totals, cold_totals, min_orders)
        m = median["total_ns"]
        out["speedup_vs_cold"] = statistics.median(cold_totals) / m if m != 0 else "unchecked"
    return out

# ---------------------------------------------------------------- comparing

class Checker:
    def __init__(self, label):
        self.label, self.count, self.bad = label, 0, []

    def cmp(self, where, got, want):
        self.count += 1
        if is_num(got) and is_num(want):
            ok = abs(got - want) <= max(REL_TOL * abs(want), ABS_TOL)
        else:
            ok = got == want and type(got) is type(want)
        if not ok:
            extra = ""
            if is_num(got) and is_num(want):
                extra = f" (differs by {got - want:+.6g}" + (f", {(got - want) / want:+.3e} relative)" if want else ")")
            self.bad.append(f"{self.label}: {where}: report {json.dumps(got)}, reference {json.dumps(want)}{extra}")

    def fact(self, where, ok, what):
        self.count += 1
        if not ok:
            self.bad.append(f"{self.label}: {where}: {what}")


def sample_ok(ck, w, s):
    """Checks one sample's phases and total; True when its phases are usable integers."""
    phases = [s.get(p) for p in PHASES]
    usable = all(is_int(v) for v in phases)
    ck.fact(f"{w}.phases", usable, f"a phase is missing or not an integer: {json.dumps(phases)}")
    if not usable:
        return False
    for p in PHASES:
        ck.fact(f"{w}.{p}", s[p] >= 0, f"negative: {s[p]}")
    total, want = s.get("total_ns"), sum(phases)
    ck.count += 1
    if not (is_int(total) and total == want):                     # exact integer equality
        ck.bad.append(f"{ck.label}: {w}.total_ns: report {json.dumps(total)}, reference {want} "
                      f"(the sum of the five phases {phases})")
    return True


def check_state(ck, w, st, processes, cold_totals, warnings, min_orders=20):
    samples = st.get("samples")
    if not isinstance(samples, list):
        ck.fact(f"{w}.samples", False, "missing or not a list")
        return
    ck.fact(f"{w}.len(samples)", len(samples) <= processes,
            f"{len(samples)} samples, more than processes = {processes}")
    rounds = [s.get("round") for s in samples]
    ck.fact(f"{w}.samples[].round", all(is_int(r) and 0 <= r < processes for r in rounds),
            f"rounds {rounds} not all within 0..{processes - 1}")
    ck.fact(f"{w}.samples[].round", all(is_int(a) and is_int(b) and a < b for a, b in zip(rounds, rounds[1:])),
            f"rounds {rounds} not increasing")                    # Q5
    if st.get("unavailable") is not None:
        ck.fact(f"{w}.samples", not samples, f"unavailable ({st['unavailable']!r}) but {len(samples)} sample(s)")
    if st.get("unavailable") is not None or st.get("failed") is not None:   # Q9
        ck.fact(f"{w} (failed/unavailable)", "cold-start-incomplete" in warnings,
                "failed or unavailable but no cold-start-incomplete warning")
    usable = True
    for k, s in enumerate(samples):
        usable = sample_ok(ck, f"{w}.samples[{k}] (round {s.get('round')})", s) and usable
        if s.get("output_matches") is False:                      # Q9
            ck.fact(f"{w}.samples[{k}].output_matches", "cold-start-outputs-differ" in warnings,
                    "false but no cold-start-outputs-differ warning")
    if not usable:
        return
    exp = state_figures(samples, st.get("cache"), cold_totals, min_orders)
    if exp["median"] is None:
        ck.cmp(f"{w}.median", st.get("median"), None)
    elif not isinstance(st.get("median"), dict):
        ck.fact(f"{w}.median", False, f"report {json.dumps(st.get('median'))}, reference an object "
                                      f"({len(samples)} samples)")
    else:
        for f in MEDIAN_FIELDS:
            ck.cmp(f"{w}.median.{f}", st["median"].get(f), exp["median"][f])
    for f in ("min_total_ns", "max_total_ns", "against_cold", "speedup_vs_cold"):
        if exp[f] == "unchecked":                                 # Q6
            continue
        ck.cmp(f"{w}.{f}", st.get(f), exp[f])
    check_memory(ck, w, st, samples)


def memory_medians(samples):
    """Q12: the medians of rss_bytes and peak_rss_bytes over the samples that have them (None: none has)."""
    out = {}
    for f in MEMORY_FIELDS:
        values = [s[f] for s in samples if s.get(f) is not None]
        out[f] = statistics.median(values) if values else None
    return out


def check_memory(ck, w, st, samples):
    if not samples or not all("rss_bytes" in s for s in samples):   # Q12: written before the fields
        return
    for k, s in enumerate(samples):
        for f in MEMORY_FIELDS:
            v = s.get(f)
            ck.fact(f"{w}.samples[{k}].{f}", v is None or (is_int(v) and v >= 0),
                    f"not null nor a non-negative integer: {json.dumps(v)}")
        if is_int(s.get("rss_bytes")) and is_int(s.get("peak_rss_bytes")):
            ck.fact(f"{w}.samples[{k}].peak_rss_bytes", s["peak_rss_bytes"] >= s["rss_bytes"],
                    f"peak {s['peak_rss_bytes']} below the resident set {s['rss_bytes']}")
    if isinstance(st.get("median"), dict):
        want = memory_medians(samples)
        for f in MEMORY_FIELDS:
            ck.cmp(f"{w}.median.{f}", st["median"].get(f), want[f])


def fresh_peak(path):
    """Q13: the deployment row's fresh_peak_bytes of a report's path."""
    cs = path.get("cold_start")
    if not cs:
        return None
    for st in cs.get("states") or []:
        if st.get("cache") in ("cold", "none"):
            m = st.get("median")
            return m.get("peak_rss_bytes") if isinstance(m, dict) else None
    return None


def peaks_of(path):
    """Q14: the non-null peak_rss_bytes of the samples of the state Q13 reads."""
    for st in (path.get("cold_start") or {}).get("states") or []:
        if st.get("cache") in ("cold", "none"):
            return [s["peak_rss_bytes"] for s in st.get("samples") or [] if s.get("peak_rss_bytes") is not None]
    return []


def fresh_peak_criterion(rep, min_orders):
    """Q14: the expected `fresh-peak` criterion, or None when no weighed path has a figure."""
    by_name = {p.get("name"): p for p in rep.get("paths") or []}
    d = rep.get("deployment") or {}
    weighed = [r["path"] for r in d.get("rows") or [] if r.get("path") not in (d.get("left_out") or [])]
    figure = {n: fresh_peak(by_name[n]) for n in weighed if n in by_name}
    have = [n for n in weighed if figure.get(n) is not None]
    if not have:
        return None
    best = min(have, key=lambda n: figure[n])                   # min: the first of equal ones
    leaders, rest, too_few, negligible = [best], [], False, False
    for n in have:
        if n == best:
            continue
        order = rank_rule(peaks_of(by_name[n]), peaks_of(by_name[best]), min_orders)
        too_few = too_few or order == "too-few"
        within = figure[n] <= figure[best] * 1.01
        if order != "slower" or within:
            negligible = negligible or order == "slower"
            leaders.append(n)
        else:
            rest.append(n)
    return {"leaders": leaders, "next": min(rest, key=lambda n: figure[n]) if rest else None,
            "without": [n for n in weighed if figure.get(n) is None], "too_few": too_few, "negligible": negligible}


def check(rep, label):
    """Returns (Checker, states checked)."""
    ck = Checker(label)
    warnings = {w.get("code") for w in rep.get("warnings") or [] if isinstance(w, dict)}
    cfg = ((rep.get("config") or {}).get("compare") or {}).get("cold_start")
    min_orders = ((rep.get("config") or {}).get("compare") or {}).get("cold_start_min_orders", 20)   # Q11
    nstates = 0
    for p in rep.get("paths") or []:
        name = p.get("name", "?")
        cs = p.get("cold_start")
        if is_int(cfg):                                           # Q8
            if cfg == 0 or p.get("role", "path") != "path":  # a layer variant or a --what-if path: not asked
                ck.fact(f"paths[{name}].cold_start", cs is None,
                        f"not null for a {p.get('role')}" if cfg else "not null without --cold-start")
            elif cs is None:
                ck.fact(f"paths[{name}].cold_start", "cold-start-incomplete" in warnings,
                        "null for an asked path with --cold-start and no cold-start-incomplete warning")
        if cs is None:
            continue
        where = f"paths[{name}].cold_start"
        processes = cs.get("processes")
        if not is_int(processes):
            ck.fact(f"{where}.processes", False, f"not an integer: {json.dumps(processes)}")
            continue
        if is_int(cfg):
            ck.cmp(f"{where}.processes (config.compare.cold_start)", processes, cfg)
        states = cs.get("states") or []
        caches = [s.get("cache") for s in states]
        want = expected_caches(name)
        if want is not None:
            ck.cmp(f"{where}.states[].cache", caches, want)
        cold = [s for s in states if s.get("cache") == "cold"]
        cold_totals = []
        if cold and isinstance(cold[0].get("samples"), list):
            cold_totals = [sum(s.get(ph) for ph in PHASES) for s in cold[0]["samples"]
                           if all(is_int(s.get(ph)) for ph in PHASES)]
        for st in states:
            nstates += 1
            check_state(ck, f"{where}.states[{st.get('cache')}]", st, processes, cold_totals, warnings, min_orders)
    by_name = {p.get("name"): p for p in rep.get("paths") or []}
    for row in ((rep.get("deployment") or {}).get("rows") or []):       # Q13
        if "fresh_peak_bytes" in row and row.get("path") in by_name:
            ck.cmp(f"deployment.rows[{row['path']}].fresh_peak_bytes", row["fresh_peak_bytes"],
                   fresh_peak(by_name[row["path"]]))
    got = [c for c in (rep.get("deployment") or {}).get("criteria") or [] if c.get("criterion") == "fresh-peak"]
    if got:                                                              # Q14
        want = fresh_peak_criterion(rep, min_orders)
        if want is None:
            ck.fact("deployment.criteria[fresh-peak]", False, "present, but no weighed path has a fresh peak")
        else:
            for f in ("leaders", "next", "without", "too_few", "negligible"):
                ck.cmp(f"deployment.criteria[fresh-peak].{f}", got[0].get(f), want[f])
    if nstates == 0:
        ck.fact("paths[].cold_start", False,
                "no path has a cold_start state: nothing to check (was the report made with --cold-start?)")
    return ck, nstates

# ---------------------------------------------------------------- self-test

def sample(rnd, process, imp, load, comp, first, pid=1000, matches=True):
    return {"round": rnd, "pid": pid + rnd, "process_ns": process, "import_ns": imp, "load_ns": load,
            "compile_ns": comp, "first_call_ns": first, "total_ns": process + imp + load + comp + first,
            "output_matches": matches, "max_abs_diff": 0.0, "output_detail": None}


def med(process, imp, load, comp, first, total):
    return {"process_ns": process, "import_ns": imp, "load_ns": load, "compile_ns": comp,
            "first_call_ns": first, "total_ns": total}


def state(cache, samples, median, lo, hi, against=None, speedup=None, failed=None, unavailable=None):
    return {"cache": cache, "samples": samples, "median": median, "min_total_ns": lo, "max_total_ns": hi,
            "against_cold": against, "speedup_vs_cold": speedup, "failed": failed, "unavailable": unavailable}


def hand_worked():
    """Small reports whose every figure was worked by hand (the comments); all must check clean."""
    # ---- report A: --cold-start=3, compile (three states), aoti:python (slower), eager, a variant.
    # compile, cold: phases (process, import, load, compile, first) ->
    #   r0 (10, 100, 40, 740, 10) = 900;  r1 (12, 110, 38, 830, 10) = 1000;  r2 (11, 90, 45, 944, 10) = 1100
    #   medians: process 11, import 100, load 40, compile 830, first 10; total 1000 (sum of medians 991:
    #   "they need not add up")
    cold = [sample(0, 10, 100, 40, 740, 10), sample(1, 12, 110, 38, 830, 10), sample(2, 11, 90, 45, 944, 10)]
    # compile, warm: r0 (10, 100, 40, 80, 10) = 240; r1 (10, 100, 50, 80, 10) = 250; r2 (10, 100, 60, 80, 10)
    #   = 260. Every total (max 260) below every cold total (min 900): faster; speedup 1000 / 250 = 4.0;
    #   medians 10, 100, 50, 80, 10; total 250
    warm = [sample(0, 10, 100, 40, 80, 10), sample(1, 10, 100, 50, 80, 10), sample(2, 10, 100, 60, 80, 10)]
    # compile, artifacts: totals 850, 1050, 950 (r0 50+100+600+90+10, r1 50+100+800+90+10,
    #   r2 50+100+700+90+10): 850 < 900 but 1050 > 900: overlapping; median 950; speedup 1000 / 950 =
    #   1.0526315789473684; min 850, max 1050; medians 50, 100, 700, 90, 10
    arts = [sample(0, 50, 100, 600, 90, 10), sample(1, 50, 100, 800, 90, 10), sample(2, 50, 100, 700, 90, 10)]
    # aoti:python, cold: totals 900, 1000, 1100 (all import); warm: 1200, 1300, 1400: every warm total
    #   above every cold one: slower; speedup 1000 / 1300 = 0.7692307692307693
    apc = [sample(r, 0, t, 0, 0, 0) for r, t in enumerate((900, 1000, 1100))]
    apw = [sample(r, 0, t, 0, 0, 0) for r, t in enumerate((1200, 1300, 1400))]
    # eager, none: one state, no comparison; totals 500, 300, 400 -> median 400, min 300, max 500
    eag = [sample(r, t, 0, 0, 0, 0) for r, t in enumerate((500, 300, 400))]
    a = {"config": {"compare": {"cold_start": 3}}, "warnings": [], "paths": [
        {"name": "compile", "role": "path", "cold_start": {"processes": 3, "states": [
            state("cold", cold, med(11, 100, 40, 830, 10, 1000), 900, 1100),
            state("warm", warm, med(10, 100, 50, 80, 10, 250), 240, 260, "faster", 4.0),
            state("artifacts", arts, med(50, 100, 700, 90, 10, 950), 850, 1050, "overlapping",
                  1.0526315789473684)]}},
        {"name": "aoti:python", "role": "path", "cold_start": {"processes": 3, "states": [
            state("cold", apc, med(0, 1000, 0, 0, 0, 1000), 900, 1100),
            state("warm", apw, med(0, 1300, 0, 0, 0, 1300), 1200, 1400, "slower", 0.7692307692307693)]}},
        {"name": "eager", "role": "path", "cold_start": {"processes": 3, "states": [
            state("none", eag, med(400, 0, 0, 0, 0, 400), 300, 500)]}},
        {"name": "compile/no-guards", "role": "variant", "cold_start": None}]}
    # ---- report B: --cold-start=4, even counts, a tie, unavailable artifacts, a failed state.
    # compile:cpp-wrapper, cold, 4 processes: totals 10+0+0+990+0 = 1000, 1200, 1100, 1300 (compile
    #   990, 1190, 1090, 1290; process 10): sorted 1000 1100 1200 1300 -> median (1100 + 1200) / 2 = 1150;
    #   compile median (1090 + 1190) / 2 = 1140; process 10
    c4 = [sample(r, 10, 0, 0, t - 10, 0) for r, t in enumerate((1000, 1200, 1100, 1300))]
    # warm: totals 500, 1000 (a tie with cold's 1000), 600, 700 (all load): not every one below 1000
    #   (1000 is not < 1000): overlapping; median (600 + 700) / 2 = 650; speedup 1150 / 650 =
    #   1.7692307692307692; min 500, max 1000
    w4 = [sample(r, 0, 0, t, 0, 0) for r, t in enumerate((500, 1000, 600, 700))]
    # artifacts: unavailable, no samples, every figure null
    # eager: its process failed at round 1 after one good sample (round 0): n = 1, median 777
    b = {"config": {"compare": {"cold_start": 4}},
         "warnings": [{"code": "cold-start-incomplete", "message": "..."}], "paths": [
        {"name": "compile:cpp-wrapper", "role": "path", "cold_start": {"processes": 4, "states": [
            state("cold", c4, med(10, 0, 0, 1140, 0, 1150), 1000, 1300),
            state("warm", w4, med(0, 0, 650, 0, 0, 650), 500, 1000, "overlapping", 1.7692307692307692),
            state("artifacts", [], None, None, None, unavailable="torch has no save_cache_artifacts")]}},
        {"name": "eager", "role": "path", "cold_start": {"processes": 4, "states": [
            state("none", [sample(0, 7, 770, 0, 0, 0)], med(7, 770, 0, 0, 0, 777), 777, 777,
                  failed="exit status 1 without a result")]}},
        # compile: cold failed at once (no samples): warm is not compared (Q3): null, null
        {"name": "compile", "role": "path", "cold_start": {"processes": 4, "states": [
            state("cold", [], None, None, None, failed="more than 1800 s"),
            state("warm", [sample(0, 0, 0, 0, 0, 5), sample(2, 0, 0, 0, 0, 7)], med(0, 0, 0, 0, 6, 6), 5, 7),
            state("artifacts", [], None, None, None, failed="killed")]}}]}
    return a, b


def with_memory(s, rss, peak):
    return dict(s, rss_bytes=rss, peak_rss_bytes=peak)


def hand_worked_memory():
    """Report C (Q12, Q13), worked by hand: --cold-start=3.
    compile, cold: rss 800, 820, null; peak 900, 950, null -> medians over two: rss 810, peak 925.
    compile, warm: rss 700, 720, 710; peak 860, 850, 870 -> medians 710, 860.
    compile, artifacts: rss null in all three -> medians null.
    eager, none: rss 600, 610, 620; peak 650, 640, 660 -> medians 610, 650.
    deployment: compile's fresh peak 925 (cold), eager's 650 (none)."""
    cold = [with_memory(sample(r, 0, t, 0, 0, 0), rss, peak)
            for r, (t, rss, peak) in enumerate(((900, 800, 900), (1000, 820, 950), (1100, None, None)))]
    warm = [with_memory(sample(r, 0, t, 0, 0, 0), rss, peak)
            for r, (t, rss, peak) in enumerate(((240, 700, 860), (250, 720, 850), (260, 710, 870)))]
    arts = [with_memory(sample(r, 0, t, 0, 0, 0), None, None) for r, t in enumerate((850, 1050, 950))]
    eag = [with_memory(sample(r, t, 0, 0, 0, 0), rss, peak)
           for r, (t, rss, peak) in enumerate(((500, 600, 650), (300, 610, 640), (400, 620, 660)))]
    return {"config": {"compare": {"cold_start": 3}}, "warnings": [], "paths": [
        {"name": "compile", "role": "path", "cold_start": {"processes": 3, "states": [
            state("cold", cold, dict(med(0, 1000, 0, 0, 0, 1000), rss_bytes=810, peak_rss_bytes=925), 900, 1100),
            state("warm", warm, dict(med(0, 250, 0, 0, 0, 250), rss_bytes=710, peak_rss_bytes=860), 240, 260,
                  "faster", 4.0),
            state("artifacts", arts, dict(med(0, 950, 0, 0, 0, 950), rss_bytes=None, peak_rss_bytes=None), 850, 1050,
                  "overlapping", 1.0526315789473684)]}},
        {"name": "eager", "role": "path", "cold_start": {"processes": 3, "states": [
            state("none", eag, dict(med(400, 0, 0, 0, 0, 400), rss_bytes=610, peak_rss_bytes=650), 300, 500)]}}],
        "deployment": {"rows": [{"path": "compile", "fresh_peak_bytes": 925}, {"path": "eager", "fresh_peak_bytes": 650}]}}


def hand_worked_fresh_peak():
    """Report D (Q14), worked by hand: --cold-start=4, the 40-order rule. Figures (the none or cold state's
    median peak): aoti 1000 (peaks 999, 1000, 1000, 1001), eager 1008 (1007..1009: every one above aoti's, but
    1008 <= 1010: within 1%, negligible), compile 1500 (cold: 1499..1501; its warm state, 900, is not read),
    compile:cpp-wrapper 1200 (3 readings, 1100..1300, against 4: too few, so it leads), and aoti:python left
    out (outputs differ; its 10 would otherwise be the best). Leaders aoti, eager, compile:cpp-wrapper; next
    compile; too_few and negligible both true."""
    def path(name, cache, peaks):
        samples = [with_memory(sample(r, 0, 100 + r, 0, 0, 0), None if p is None else p - 1, p)
                   for r, p in enumerate(peaks)]
        known = [p for p in peaks if p is not None]
        median = dict(med(0, 101.5, 0, 0, 0, 101.5),
                      rss_bytes=statistics.median([p - 1 for p in known]) if known else None,
                      peak_rss_bytes=statistics.median(known) if known else None)
        return {"name": name, "role": "path", "cold_start": {"processes": 4, "states": [
            state(cache, samples, median, 100, 103)]}}
    compile_ = path("compile", "cold", [1499, 1500, 1500, 1501])
    warm = [with_memory(sample(r, 0, 50, 0, 0, 0), 899, 900) for r in range(4)]
    compile_["cold_start"]["states"] += [
        state("warm", warm, dict(med(0, 50, 0, 0, 0, 50), rss_bytes=899, peak_rss_bytes=900), 50, 50, "faster", 2.03),
        state("artifacts", [], None, None, None, unavailable="not offered")]
    paths = [path("aoti", "none", [999, 1000, 1000, 1001]), path("eager", "none", [1007, 1008, 1008, 1009]),
             compile_, path("compile:cpp-wrapper", "cold", [1100, 1200, 1300, None]),
             path("aoti:python", "cold", [9, 10, 10, 11])]
    paths[3]["cold_start"]["states"] += [state(c, [], None, None, None, unavailable="not asked") for c in ("warm", "artifacts")]
    paths[4]["cold_start"]["states"].append(state("warm", [], None, None, None, unavailable="not asked"))
    rows = [{"path": p["name"], "fresh_peak_bytes": fresh_peak(p)} for p in paths]
    return {"config": {"compare": {"cold_start": 4, "cold_start_min_orders": 40}},
            "warnings": [{"code": "cold-start-incomplete"}], "paths": paths,
            "deployment": {"rows": rows, "left_out": ["aoti:python"], "criteria": [
                {"criterion": "fresh-peak", "leaders": ["aoti", "eager", "compile:cpp-wrapper"], "next": "compile",
                 "without": [], "too_few": True, "negligible": True}]}}


def self_test():
    assert rank_rule([1, 2], [10, 11]) == "too-few"  # C(4, 2) = 6 orders: 1 in 6 by chance
    assert rank_rule([1, 2], [10, 11, 12, 13, 14]) == "faster"  # C(7, 2) = 21
    # Q11: under 40 orders (either order named: a chance of 2 / C), 3 and 3 (20) and 2 and 5 (21) are too few;
    # 4 and 4 (70) and 3 and 5 (56) are not; 3 and 4 (35) are
    assert rank_rule([240, 250, 260], [900, 1000, 1100], 40) == "too-few"
    assert rank_rule([1, 2], [10, 11, 12, 13, 14], 40) == "too-few"
    assert rank_rule([1, 2, 3, 4], [10, 11, 12, 13], 40) == "faster"
    assert rank_rule([20, 21, 22], [10, 11, 12, 13, 14], 40) == "slower"
    assert rank_rule([1, 2, 3], [10, 11, 12, 13], 40) == "too-few"
    # the building blocks
    assert statistics.median([1000, 1200, 1100, 1300]) == 1150 and statistics.median([500, 300, 400]) == 400
    assert rank_rule([240, 250, 260], [900, 1000, 1100]) == "faster"
    assert rank_rule([1200, 1300, 1400], [900, 1000, 1100]) == "slower"
    assert rank_rule([850, 1050, 950], [900, 1000, 1100]) == "overlapping"
    assert rank_rule([500, 1000], [1000, 1200]) == "overlapping"          # Q4: a tie is not "below"
    assert rank_rule([1300], [1000, 1300]) == "overlapping"               # nor "above"
    f = state_figures([sample(r, 0, 0, 0, 0, t) for r, t in enumerate((240, 250, 260))], "warm", [900, 1000, 1100])
    assert f["speedup_vs_cold"] == 4.0 and f["against_cold"] == "faster" and f["median"]["total_ns"] == 250
    print("self-test: medians (odd and even counts), the rank rule (faster, slower, overlapping, ties) ok")
    a, b = hand_worked()
    c = hand_worked_memory()
    d = hand_worked_fresh_peak()
    total = 0
    for name, rep in (("A", a), ("B", b), ("C", c), ("D", d)):
        ck, n = check(rep, f"report {name}")
        if ck.bad:
            print("self-test FAILED: a hand-worked report does not check:\n  " + "\n  ".join(ck.bad))
            return 1
        total += ck.count
        print(f"self-test: hand-worked report {name} checks clean ({n} states, {ck.count} fields and facts)")
    sts = lambda r, i: r["paths"][i]["cold_start"]["states"]                     # noqa: E731
    # each corruption: (report, change, a string the mismatch line must contain)
    corruptions = [
        ("a 3-and-3 order named under the 40-order rule (Q11)", a,
         lambda r: r["config"]["compare"].update(cold_start_min_orders=40), ".against_cold:"),
        ("a wrong median (odd count)", a, lambda r: sts(r, 0)[0]["median"].update(compile_ns=831), ".median.compile_ns:"),
        ("a wrong median (even count: 1100, the lower middle, for 1150)", b,
         lambda r: sts(r, 0)[0]["median"].update(total_ns=1100), "states[cold].median.total_ns:"),
        ("a median that is the sum of the phase medians (991 for 1000)", a,
         lambda r: sts(r, 0)[0]["median"].update(total_ns=991), "states[cold].median.total_ns:"),
        ("a wrong against_cold (overlapping said faster)", a,
         lambda r: sts(r, 0)[2].update(against_cold="faster"), "states[artifacts].against_cold:"),
        ("a wrong against_cold (slower said overlapping)", a,
         lambda r: sts(r, 1)[1].update(against_cold="overlapping"), "states[warm].against_cold:"),
        ("a wrong against_cold (a tie said faster)", b,
         lambda r: sts(r, 0)[1].update(against_cold="faster"), "states[warm].against_cold:"),
        ("a wrong total (241 for 240)", a,
         lambda r: sts(r, 0)[1]["samples"][0].update(total_ns=241), "samples[0] (round 0).total_ns:"),
        ("a float total (240.0)", a,
         lambda r: sts(r, 0)[1]["samples"][0].update(total_ns=240.0), "samples[0] (round 0).total_ns:"),
        ("a wrong speedup (4.000001 for 4.0)", a,
         lambda r: sts(r, 0)[1].update(speedup_vs_cold=4.000001), "states[warm].speedup_vs_cold:"),
        ("an inverted speedup (0.25 for 4.0)", a,
         lambda r: sts(r, 0)[1].update(speedup_vs_cold=0.25), "states[warm].speedup_vs_cold:"),
        ("a wrong min_total_ns", a, lambda r: sts(r, 2)[0].update(min_total_ns=400), ".min_total_ns:"),
        ("a wrong max_total_ns", b, lambda r: sts(r, 0)[1].update(max_total_ns=700), ".max_total_ns:"),
        ("a compared none state", a, lambda r: sts(r, 2)[0].update(against_cold="faster"), "states[none].against_cold:"),
        ("a compared cold state", a, lambda r: sts(r, 0)[0].update(speedup_vs_cold=1.0), "states[cold].speedup_vs_cold:"),
        ("a comparison against a cold state without samples", b,
         lambda r: sts(r, 2)[1].update(against_cold="faster", speedup_vs_cold=1.0), "states[warm].against_cold:"),
        ("a median where there are no samples", b,
         lambda r: sts(r, 0)[2].update(median=med(0, 0, 0, 0, 0, 0)), "states[artifacts].median:"),
        ("a null median with samples", a, lambda r: sts(r, 2)[0].update(median=None), "states[none].median:"),
        ("more samples than processes (config.compare left out)", a,
         lambda r: (r.pop("config"), r["paths"][2]["cold_start"].update(processes=2)), "len(samples)"),
        ("rounds out of order", a, lambda r: sts(r, 2)[0]["samples"].reverse(), "not increasing"),
        ("a repeated round", b, lambda r: sts(r, 2)[1]["samples"][1].update(round=0), "not increasing"),
        ("a round out of range", b, lambda r: sts(r, 2)[1]["samples"][1].update(round=4), "not all within 0..3"),
        ("a negative phase (total still the sum)", a,
         lambda r: sts(r, 2)[0]["samples"][0].update(process_ns=-1, import_ns=501), ".process_ns: negative"),
        ("samples in an unavailable state", b,
         lambda r: sts(r, 0)[2]["samples"].append(sample(0, 1, 1, 1, 1, 1)), "but 1 sample(s)"),
        ("a failure without a cold-start-incomplete warning", b, lambda r: r.update(warnings=[]), "cold-start-incomplete"),
        ("an output that differs without a warning", a,
         lambda r: sts(r, 2)[0]["samples"][1].update(output_matches=False), "cold-start-outputs-differ"),
        ("a missing state", a, lambda r: sts(r, 0).pop(), "states[].cache:"),
        ("a variant measured", a, lambda r: r["paths"][3].update(cold_start=copy.deepcopy(r["paths"][2]["cold_start"])),
         "not null for a variant"),
        ("processes other than --cold-start", a,
         lambda r: r["paths"][2]["cold_start"].update(processes=4), "(config.compare.cold_start)"),
        ("a memory median over every sample, a null one as 0 (Q12: 800 for 810)", c,
         lambda r: sts(r, 0)[0]["median"].update(rss_bytes=800), "states[cold].median.rss_bytes:"),
        ("a memory median where no sample read it (Q12)", c,
         lambda r: sts(r, 0)[2]["median"].update(peak_rss_bytes=0), "states[artifacts].median.peak_rss_bytes:"),
        ("a peak below the resident set (Q12)", c,
         lambda r: sts(r, 1)[0]["samples"][0].update(peak_rss_bytes=599), "peak 599 below the resident set 600"),
        ("a negative resident set (Q12)", c,
         lambda r: sts(r, 0)[1]["samples"][0].update(rss_bytes=-1), "samples[0].rss_bytes:"),
        ("a path within 1% told apart (Q14: eager left out of the leaders)", d,
         lambda r: r["deployment"]["criteria"][0].update(leaders=["aoti", "compile:cpp-wrapper"]),
         "criteria[fresh-peak].leaders:"),
        ("the floor not said (Q14: negligible false)", d,
         lambda r: r["deployment"]["criteria"][0].update(negligible=False), "criteria[fresh-peak].negligible:"),
        ("too few readings not said (Q14: too_few false)", d,
         lambda r: r["deployment"]["criteria"][0].update(too_few=False), "criteria[fresh-peak].too_few:"),
        ("a wrong next (Q14: compile:cpp-wrapper, a leader)", d,
         lambda r: r["deployment"]["criteria"][0].update(next="compile:cpp-wrapper"), "criteria[fresh-peak].next:"),
        ("a left-out path weighed (Q14: aoti:python's 10 as the best)", d,
         lambda r: r["deployment"]["criteria"][0].update(leaders=["aoti:python"]), "criteria[fresh-peak].leaders:"),
        ("a criterion without any figure (Q14)", c,
         lambda r: r["deployment"].update(criteria=[{"criterion": "fresh-peak"}], rows=[]),
         "no weighed path has a fresh peak"),
        ("the warm state's peak as the fresh peak (Q13: 860 for 925)", c,
         lambda r: r["deployment"]["rows"][0].update(fresh_peak_bytes=860), "deployment.rows[compile].fresh_peak_bytes:"),
    ]
    for what, base, corrupt, expect in corruptions:
        bad = copy.deepcopy(base)
        corrupt(bad)
        found = check(bad, "corrupted")[0].bad
        if not any(expect in line for line in found):
            print(f"self-test FAILED: {what} was not caught (expected a line with {expect!r}); lines: {found}")
            return 1
        print(f"self-test: caught {what}: {next(line for line in found if expect in line)}")
    # nothing to check
    empty = {"config": {"compare": {"cold_start": 0}}, "warnings": [], "paths": [{"name": "aoti", "cold_start": None}]}
    found = check(empty, "empty")[0].bad
    assert len(found) == 1 and "nothing to check" in found[0], found
    print("self-test: a report without cold_start: 'nothing to check'")
    # the exit codes, through main and files
    with tempfile.TemporaryDirectory() as tmp:
        def write(name, obj):
            fn = os.path.join(tmp, name)
            with open(fn, "w") as fh:
                fh.write(obj if isinstance(obj, str) else json.dumps(obj))
            return fn
        bad = copy.deepcopy(a)
        sts(bad, 0)[1]["median"]["total_ns"] = 251
        cases = [([write("a.json", a), write("b.json", b)], 0), ([write("bad.json", bad)], 1),
                 ([write("empty.json", empty)], 1), ([write("cut.json", json.dumps(a)[:-40])], 2),
                 ([os.path.join(tmp, "absent.json")], 2)]
        devnull = open(os.devnull, "w")
        saved = sys.stdout, sys.stderr
        try:
            sys.stdout = sys.stderr = devnull
            codes = [main(["--check"] + files) for files, _ in cases] + [main([]), main(["--check"])]
        finally:
            sys.stdout, sys.stderr = saved
            devnull.close()
        want = [rc for _, rc in cases] + [2, 2]
        if codes != want:
            print(f"self-test FAILED: exit codes {codes}, expected {want}")
            return 1
    print("self-test: exit codes 0 (clean), 1 (mismatch; nothing to check), 2 (truncated JSON; absent file; usage)")
    print(f"self-test: ok ({total} fields and facts in the hand-worked reports; {len(corruptions)} corruptions caught)")
    return 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if argv[:1] != ["--check"] or len(argv) < 2:
        print(__doc__.split("\n\n")[2], file=sys.stderr)
        return 2
    bad, unreadable = 0, False
    for path in argv[1:]:
        try:
            with (gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz") else open(path, encoding="utf-8")) as fh:
                rep = json.load(fh)
        except (OSError, ValueError) as e:
            print(f"{path}: cannot read: {e}", file=sys.stderr)
            unreadable = True
            continue
        ck, nstates = check(rep, path)
        for line in ck.bad:
            print(line)
        bad += len(ck.bad)
        print(f"{path}: {'MISMATCH, ' + str(len(ck.bad)) + ' mismatch(es)' if ck.bad else 'ok'}: "
              f"{nstates} cold-start state(s), {ck.count} fields and facts checked")
    return 2 if unreadable else (1 if bad else 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
