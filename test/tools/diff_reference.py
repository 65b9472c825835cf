#!/usr/bin/env python3
"""Independent reference for the numbers of `ohprof diff` (kind "diff" JSON).

Written from docs/diff.md, docs/report-schema.md and test/data/diff/SOURCES.md alone, without reading
ohprof's C++, and with the Python standard library only (no numpy). It runs the binary on trimmed
copies of two reports and recomputes, per path: both medians, the ratio (plain and --relative-to), a
NAIVE percentile bootstrap interval (random.Random.choices resampling of every sample set at its own
size, not the doc's Beta order-statistic shortcut), the verdict and its reason, the outcome and the
exit code, the counts, `judged`, and the split's per-iteration means and their changes.

Usage:
  test/tools/diff_reference.py --self-test
  test/tools/diff_reference.py --check --binary build/ohprof --base A.json.gz --new B.json.gz
                               [--trim 501] [--resamples 1500] [--seed 0]       # exit 1 on a mismatch

The cases --check runs (each `ohprof diff TB TN --export-json OUT --quiet [options]`, TB/TN trimmed
copies; threshold 10%, alpha 0.05, 10000 resamples, seed 0 on the binary's side):
  plain            TB vs TN
  relative         TB vs TN --relative-to aoti   (skipped when a report has no path "aoti")
  relative-flawed  TB vs TN with aoti's outputs differing, --relative-to aoti: nothing judged (Q20)
  x1.2             TB vs TB with every samples_ns value multiplied by 1.2 and rounded: every path
                   `slower`, outcome `regression`, exit 13 (docs/diff.md, the sentence after the example)
  few              TB vs TN both cut to 9 samples (< kMinDiffSamples = 10): every path `unknown`
                   `too_few_samples`, outcome `nothing_judged`, exit 14 (no bootstrap)
  ten              both cut to exactly 10 samples: every path judged ("each at least kMinDiffSamples")
  at-threshold     every path's samples replaced by 1000-10 .. 1000+10 (501 of them, median 1000) in the
                   base and 1100-10 .. 1100+10 in the new, --threshold 10%: ratio 1100/1000, whose
                   1.1 - 1 = 0.10000000000000009 > 0.1 in doubles, with an interval ~[1.0989, 1.1011]
                   that excludes 1: `no_change` `below_threshold`, exit 0 ("A change equal to the
                   threshold (up to 1e-12, so that 1.1 - 1 is not beyond 10%) is not beyond it")
  above-threshold  the same with 1101 in the new, --threshold 0.1: `slower`, exit 13
The cases after x1.2 are additions of this script (no bootstrap cost to speak of).

--self-test checks the reference's own pieces on known answers: the median (odd, even, ties); the
type-7 quantile on hand values; FNV-1a-64; the naive bootstrap's distribution of a resample's median for
samples of 5, 4 (a tie) and 3 values against exact enumeration of all n^n resamples (40,000 draws, each
atom within 5 binomial standard errors + 1/draws; P = 13/27 for the middle of 3 exactly); the doc's
order-statistic claim, exactly for n = 5 (P(median = x[j]) = P(j/n <= U < (j+1)/n), U ~ Beta(3, 3),
by binomial sums, to 1e-12) and by Monte Carlo of its Beta(k, k+1) / Beta(1, n-k) construction for n = 6;
the verdict rule on hand cases (at the threshold on both sides, 1e-12 either side of it, low == 1,
high == 1, Q6); the outcome's order; the Monte Carlo tolerance (two bootstraps of one synthetic pair,
R = 1500 and 10000, agree within it; a 10x narrower or a 50% interval does not); and a round trip: a diff
JSON made from the reference's own numbers checks clean, and each of several planted errors is caught.

Trimming. To keep the pure-Python bootstrap short, every path's (variants too) `samples_ns` is cut to
its first --trim values in a copy written to a temporary folder (plain JSON; the binary reads by the
first bytes). Nothing else is recomputed, so in the copies `wall_ns` (count, median, ...) no longer
describes `samples_ns`. The diff uses only `samples_ns` for the statistics (docs/diff.md, "The
statistics"); `wall_ns.median` is named in "What it reads" but used only for sweep points without
samples, so a median in the binary's output equal to the untrimmed wall_ns.median instead of the
trimmed samples' median shows up here as a mismatch (Q3). The first 501 samples of the test reports
are from the start of the runs, and the base's are much slower than the rest (aoti: median 7040 ns
against 3766 ns over all 10,000), so the trimmed verdicts are `faster`, not the doc's example's.

Tolerances:
  - medians, ratio: 1e-12 relative (a ratio of medians of integers; only the order of the divisions may
    differ).
  - split per-iteration means base_ns / new_ns and change_ns: 1e-9 relative (1e-9 absolute near 0).
  - counts, judged, verdict, reason, outcome, exit code, config echo: exactly.
  - the verdict rule applied to the binary's OWN ratio/low/high: exactly (no Monte Carlo involved).
  - low / high against the reference's naive bootstrap (R = --resamples draws; the binary's R_bin =
    10000): a Monte Carlo tolerance per bound. The sample p-quantile of R draws has standard error
    sqrt(p(1-p)/R) / f(q_p), f the density of the bootstrap ratios at the quantile, so the difference of
    two independent estimates has
        se = sqrt(p(1-p) (1/R + 1/R_bin)) / f(q_p).
    1/f(q_p) is estimated from the reference's own sorted ratios by the spacing (q(p + p/2) - q(p - p/2))
    / p, and floored by its value for a bell-shaped distribution, 1/f = W / (2 z phi(z)) (W the
    reference's interval width, z = 1.96 for alpha 0.05): se >= 0.0189 W at R = 1500. The local estimate
    is needed because the ratios' distribution is skewed: on the trimmed test reports the observed
    spread of a bound over 30 seeds was up to 1.7x the bell-shaped value, and 0.6x to 1.1x the local
    estimate (a study made while writing this script, not part of it). A bound is accepted within
        5 se + g,
    g the largest gap between consecutive sorted reference ratios within 1% of R around the quantile (the
    bootstrap distribution of a median is a lattice of the sample's order statistics; two estimates of
    one quantile may land on neighbouring atoms). 5 se fails a correct binary with probability ~1e-6 per
    bound. The tolerance comes out at 0.10-0.19 W on the 501-sample cases (larger on the lumpy 10-sample
    and lattice cases), so it catches a wrong interval level down to ~70% (a 50% interval is 0.33 W off),
    a ratio the wrong way round, a bound of the wrong side, or resamples of the wrong size, but not a 90%
    instead of a 95% interval (alpha instead of alpha/2: 0.08 W, 3-4 se; that would need R ~ 20000).
  - the verdict recomputed from the reference's own interval is compared only when each of its bounds
    is farther than its tolerance from 1 (otherwise "boundary, skipped" is printed); the ratio is exact,
    so the threshold side needs no margin.

Time: the bootstrap is about 46 sample sets x R resamples x (choices + sort of --trim values). With the
defaults (--trim 501, --resamples 1500) --check took 8-10 s and --self-test 1 s on this project's 2-core
VM (the printed totals); the budget is ~60 s on a slow 2-core machine. The defaults are the brief's, not
reduced: 1500 resamples keep the Monte Carlo tolerance near a tenth of the interval's width.

Questions the doc leaves open, and the choice made here (Q1..Q18):
  Q1  "linear interpolation between order statistics (the quantile of docs/metrics.md)": metrics.md is
      not read here; taken as the usual definition (Hyndman-Fan type 7): h = (R - 1) p, x[floor h] +
      (h - floor h)(x[floor h + 1] - x[floor h]). Any of the usual definitions differs by less than one
      order statistic gap, far inside the Monte Carlo tolerance.
  Q2  The order of the diff's `paths[]` is not stated. Matched by name; the expected set is the union
      of both reports' role == "path" names. The order is printed, not checked.
  Q3  base_median_ns / new_median_ns: taken as the medians of samples_ns (the ratio's medians, "every
      number in the table is a field there"), not wall_ns.median; with --relative-to they are each path's
      own median (not over the reference's).
  Q4  "A change equal to the threshold (up to 1e-12 ...)": beyond means change - threshold > 1e-12, with
      change = ratio - 1 (slower) or 1 - ratio (faster), an absolute 1e-12.
  Q5  "The interval includes 1": a closed interval, low <= 1 <= high; so low == 1 is not significant
      (consistent with `slower` needing low > 1 strictly).
  Q6  A significant interval on one side with the ratio beyond the threshold on the other (ratio > 1.1
      but high < 1): neither `slower` nor `faster`; `no_change`, `below_threshold` (the table's third row:
      the interval excludes 1 and the rule for slower/faster does not hold).
  Q7  The reference path under --relative-to: listed, `unknown`, reason `reference_path`, not counted
      in `judged`; its ratio/low/high are not checked (the doc gives none; the binary writes null); its
      medians, counts and split are checked like any path's.
  Q8  `unknown` paths (too few samples, the reference path): ratio/low/high may be null (the binary
      writes null); low/high not compared; a non-null ratio is compared (too_few_samples only).
  Q9  `judged` = the number of paths whose verdict is not `unknown`.
  Q10 Exit code of nothing_judged and incomparable: 14; regression 13; no_regression 0 (the doc's
      outcome list). Only the JSON is read for the outcome; stderr is not parsed.
  Q11 The split is compared for paths whose `split.available` is true in both reports; for others the
      diff's `split` must be empty ([] or null). The JSON lists all nine components (the table only those
      with time): component names as the doc's (wall, busy, host_bound, device_wait, blocking, launch,
      other_api, harness, framework), matched by `component`, all nine required.
  Q12 "rounded to an integer" for x1.2: round half to even (Python's round); 1.2 x of an integer x is
      never k + 0.5, so the rounding mode does not matter. Only samples_ns is scaled (not warmup_ns,
      wall_ns, or the split), so the x1.2 case's split changes are all 0.
  Q13 `diff-context-differs`: expected in `warnings` iff one of ohprof_version, torch_version,
      cuda_version, hostname, cpu_threads (context) or compile_source (config.compare) differs, or the
      inputs' values of two run/compare reports (docs/diff.md: `random (seed N)` from config.seed, or the
      --inputs file's config.inputs_file_digest; "digest not recorded" with a file but no digest); how many
      warnings (one per field or one in all) is not stated, so only presence is checked. No
      `diff-path-unmatched` when both reports have the same paths; no `diff-incomparable-forced`.
  Q14 The naive bootstrap's random stream: random.Random(seed XOR FNV-1a-64(path name)) per path (so,
      as the doc's, adding a path does not move the others'); each resample draws the base set, then the
      new set (then the reference's base and new with --relative-to), each independently.
  Q15 The x1.2 case's new report is the trimmed base itself scaled: both reports then have the same
      context, so the diff must be comparable and warn nothing.
  Q16 "each at least kMinDiffSamples = 10": 10 samples on both sides are enough (the `ten` case), 9 are
      not (the `few` case).
  Q17 --threshold 10% and 0.1 are the same threshold, echoed as config.threshold = 0.1.
  Q18 The diff's `base` / `new` fields: the file names as given on the command line.
  Q19 Figures that are not the path's (2026-12-06): a path with a flaw on either side is unknown/flawed
      before its split, the reference rule and the sample counts (so a flawed reference path is `flawed`,
      not `reference_path`), with `base_flaw`/`new_flaw` checked where the diff has the keys.
  Q20 A flawed --relative-to path (2026-12-07): every other path is unknown/`reference_flawed` once its own
      flaws and the reference rule are read (before the sample counts), with its split still compared (its
      own figures are its own) and no ratio. (The binary reads a reference without samples first,
      `reference_missing`: a sweep point's case, which these run and compare reports never have.)
"""

import argparse
import copy
import gzip
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

MIN_SAMPLES = 10                       # kMinDiffSamples, docs/diff.md
THRESHOLD_EPS = 1e-12                  # "up to 1e-12"
COMPONENTS = ["wall", "busy", "host_bound", "device_wait",
              "blocking", "launch", "other_api", "harness", "framework"]
CONTEXT_WARN_FIELDS = ["ohprof_version", "torch_version", "cuda_version", "hostname", "cpu_threads"]
EXIT = {"incomparable": 14, "nothing_judged": 14, "regression": 13, "no_regression": 0}

# ---------------------------------------------------------------- the definitions


def median(xs):
    """The middle value; the mean of the two middle values for an even count."""
    s = sorted(xs)
    n = len(s)
    if n == 0:
        raise ValueError("median of nothing")
    return float(s[n // 2]) if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def quantile(sorted_xs, p):
    """Linear interpolation between order statistics (type 7, Q1)."""
    n = len(sorted_xs)
    h = (n - 1) * p
    lo = int(math.floor(h))
    if lo >= n - 1:
        return float(sorted_xs[-1])
    return sorted_xs[lo] + (h - lo) * (sorted_xs[lo + 1] - sorted_xs[lo])


def fnv1a64(text):
    h = 0xcbf29ce484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def ratio_of(bp, np_, br=None, nr=None):
    """median(N)/median(B), or (median(N_p)/median(N_R)) / (median(B_p)/median(B_R)) with a reference."""
    if br is None:
        return median(np_) / median(bp)
    return (median(np_) / median(nr)) / (median(bp) / median(br))


def bootstrap(sets, resamples, alpha, seed, key):
    """Naive percentile bootstrap: each set resampled with replacement at its own size (Q14).

    sets = [B, N] or [B_p, N_p, B_R, N_R]; returns (low, high, sorted ratios)."""
    rng = random.Random(seed ^ fnv1a64(key))
    ratios = []
    for _ in range(resamples):
        meds = [median(rng.choices(s, k=len(s))) for s in sets]
        if len(meds) == 2:
            ratios.append(meds[1] / meds[0])
        else:
            ratios.append((meds[1] / meds[3]) / (meds[0] / meds[2]))
    ratios.sort()
    return quantile(ratios, alpha / 2), quantile(ratios, 1 - alpha / 2), ratios


def beyond(change, threshold):
    return change - threshold > THRESHOLD_EPS                                  # Q4


def verdict(ratio, low, high, threshold):
    """(verdict, reason) by docs/diff.md, "The verdict"."""
    if low > 1 and beyond(ratio - 1, threshold):
        return "slower", "above_threshold"
    if high < 1 and beyond(1 - ratio, threshold):
        return "faster", "above_threshold"
    if low > 1 or high < 1:                                                    # Q5, Q6
        return "no_change", "below_threshold"
    return "no_change", "not_significant"


def outcome(verdicts, incomparable=False):
    if incomparable:
        return "incomparable"
    if all(v == "unknown" for v in verdicts):
        return "nothing_judged"
    if any(v == "slower" for v in verdicts):
        return "regression"
    return "no_regression"


def mc_tolerance(ref_sorted, low, high, resamples, binary_resamples, alpha):
    """Per bound: 5 standard errors of the difference of two bootstrap quantile estimates + the local
    lattice gap; returns ((tol_low, tol_high), (se_low, se_high))."""
    p = alpha / 2
    z = statistics.NormalDist().inv_cdf(1 - p)
    phi = statistics.NormalDist().pdf(z)
    scale = math.sqrt(p * (1 - p) * (1.0 / resamples + 1.0 / binary_resamples))
    se_bell = scale / phi / (2 * z) * max(high - low, 0.0)
    r = len(ref_sorted)
    w = max(2, r // 100)
    tols, ses = [], []
    for q in (p, 1 - p):
        d = p / 2                                            # 1 / f(q) by the spacing of q -+ p/2
        inv_f = (quantile(ref_sorted, q + d) - quantile(ref_sorted, q - d)) / (2 * d)
        se = max(scale * inv_f, se_bell)
        i = int(round((r - 1) * q))
        a, b = max(0, i - w), min(r - 1, i + w)
        gap = max((ref_sorted[j + 1] - ref_sorted[j] for j in range(a, b)), default=0.0)
        tols.append(5 * se + gap)
        ses.append(se)
    return tuple(tols), tuple(ses)


def split_means(path):
    """{component: per-iteration mean} of a path's split.summary.totals, or None without a split."""
    sp = path.get("split")
    if not isinstance(sp, dict) or not sp.get("available"):
        return None
    t = sp["summary"]["totals"]
    it = t["iterations"]
    if not it:
        return None
    vals = {"wall": t["wall_ns"], "busy": t["gpu"]["busy_ns"],
            "host_bound": t["gpu"]["host_bound_ns"], "device_wait": t["gpu"]["device_wait_ns"]}
    for s in ("blocking", "launch", "other_api", "harness", "framework"):
        vals[s] = t["host_states"][s + "_ns"]
    return {k: v / it for k, v in vals.items()}


def report_paths(rep):
    return {p["name"]: p for p in rep["paths"] if p.get("role", "path") == "path"}


def inputs_values(report):
    """docs/diff.md: where a run or compare report's inputs' values came from; None for analyze."""
    if report.get("kind") == "analyze":
        return None
    config = report.get("config") or {}
    if config.get("inputs_file_digest"):
        return "file " + config["inputs_file_digest"]
    if config.get("inputs_file"):
        return "file " + config["inputs_file"] + " unrecorded"
    return f"random {config.get('seed', 0)}"


def context_differs(base, new):
    cb, cn = base.get("context", {}), new.get("context", {})
    if any(cb.get(f) != cn.get(f) for f in CONTEXT_WARN_FIELDS):
        return True
    vb, vn = inputs_values(base), inputs_values(new)
    if vb is not None and vn is not None and vb != vn:
        return True
    gb = ((base.get("config") or {}).get("compare") or {}).get("compile_source")
    gn = ((new.get("config") or {}).get("compare") or {}).get("compile_source")
    return gb != gn


UNCOMPILED = ("guards-missed", "no-frame", "no-graph")


def flaw(p):
    """docs/diff.md, "Figures that are not the path's": the first that holds, or None."""
    oc, ex = p.get("output_check") or {}, p.get("execution") or {}
    if oc and oc.get("passed") is False:
        return "outputs_differ"
    if ex.get("compiled_call") in UNCOMPILED:
        return "ran_uncompiled"
    if ex.get("pooled") is True:
        return "samples_pooled"
    return None


def expected(base, new, opts):
    """The reference's diff: {"paths": {name: {...}}, "judged", "outcome", "exit"}."""
    bp, np_ = report_paths(base), report_paths(new)
    ref = opts.get("relative_to")
    names = list(bp) + [n for n in np_ if n not in bp]
    out = {}
    for name in names:
        e = {"name": name}
        out[name] = e
        b, n = bp.get(name), np_.get(name)
        if b is None or n is None:
            e.update(verdict="unknown", reason="only_in_new" if b is None else "only_in_base")
            continue
        B, N = b["samples_ns"], n["samples_ns"]
        e.update(base_count=len(B), new_count=len(N),
                 base_median_ns=median(B) if B else None, new_median_ns=median(N) if N else None)
        if flaw(b) or flaw(n):          # before the split and the reference: nothing is read from them
            e.update(verdict="unknown", reason="flawed", base_flaw=flaw(b), new_flaw=flaw(n), split=None)
            continue
        mb, mn = split_means(b), split_means(n)
        e["split"] = None if mb is None or mn is None else {
            c: (mb[c], mn[c], mn[c] - mb[c]) for c in COMPONENTS}
        sets = [B, N]
        if ref is not None:
            if name == ref:
                e.update(verdict="unknown", reason="reference_path")
                continue
            if flaw(bp[ref]) or flaw(np_[ref]):                  # Q20
                e.update(verdict="unknown", reason="reference_flawed")
                continue
            sets += [bp[ref]["samples_ns"], np_[ref]["samples_ns"]]
        if min(len(s) for s in sets) < MIN_SAMPLES:
            e.update(verdict="unknown", reason="too_few_samples")
            if min(len(s) for s in sets) > 0:
                e["ratio"] = ratio_of(*sets)
            continue
        e["ratio"] = ratio_of(*sets)
        if opts.get("resamples"):
            lo, hi, rs = bootstrap(sets, opts["resamples"], opts["alpha"], opts["seed"], name)
            e.update(ref_low=lo, ref_high=hi, ref_sorted=rs)
    return {"paths": out, "names": names}


# ---------------------------------------------------------------- comparing the binary's JSON

def rel_close(got, want, rel, absol=None):
    if got is None or want is None:
        return got is None and want is None
    absol = rel if absol is None else absol
    return abs(got - want) <= max(rel * abs(want), absol)


class Checker:
    def __init__(self, label):
        self.label, self.bad, self.count = label, [], 0

    def eq(self, where, got, want):
        self.count += 1
        if got != want:
            self.bad.append(f"{self.label}: {where}: got {got!r}, expected {want!r}")
            return False
        return True

    def close(self, where, got, want, rel, absol=None):
        self.count += 1
        ok = isinstance(got, (int, float)) and not isinstance(got, bool) and rel_close(got, want, rel, absol)
        if not ok:
            self.bad.append(f"{self.label}: {where}: got {got!r}, expected {want!r} (rel {rel:g})")
        return ok


def check_diff(diff, base, new, opts, exit_code, expect=None):
    """Compares the binary's diff JSON with the reference; returns (Checker, printable lines)."""
    ck = Checker(opts["label"])
    lines = []
    thr = opts["threshold"]
    exp = expected(base, new, opts) if expect is None else expect
    ck.eq("kind", diff.get("kind"), "diff")
    ck.eq("report_kind", diff.get("report_kind"), base.get("kind"))
    cfg = diff.get("config", {})
    for k, want in (("threshold", thr), ("alpha", opts["alpha"]), ("resamples", opts["binary_resamples"]),
                    ("seed", opts["binary_seed"]), ("relative_to", opts.get("relative_to")),
                    ("min_samples", MIN_SAMPLES), ("force", False)):
        if k in ("threshold", "alpha"):
            ck.close(f"config.{k}", cfg.get(k), want, 1e-12)
        else:
            ck.eq(f"config.{k}", cfg.get(k), want)
    ck.eq("incomparable", diff.get("incomparable"), [])
    codes = [w.get("code") for w in diff.get("warnings", [])]
    ck.eq("warnings has diff-context-differs", "diff-context-differs" in codes, context_differs(base, new))
    for c in ("diff-path-unmatched", "diff-incomparable-forced"):
        if set(report_paths(base)) == set(report_paths(new)):
            ck.eq(f"warnings has {c}", c in codes, False)

    got = {p["name"]: p for p in diff.get("paths", [])}
    ck.eq("path names", sorted(got), sorted(exp["names"]))
    verdicts = []
    for name in exp["names"]:
        e, g = exp["paths"][name], got.get(name)
        if g is None:
            continue
        w = f"{name}"
        for k in ("base_count", "new_count"):
            if k in e:
                ck.eq(f"{w}.{k}", g.get(k), e[k])
        for k in ("base_median_ns", "new_median_ns"):
            if e.get(k) is not None:
                ck.close(f"{w}.{k}", g.get(k), e[k], 1e-12)
        gv, gr = g.get("verdict"), g.get("reason")
        verdicts.append(gv)
        line = f"  {name:20s}"
        if "ratio" in e and (g.get("ratio") is not None or e.get("verdict") != "unknown"):
            ck.close(f"{w}.ratio", g.get("ratio"), e["ratio"], 1e-12)
            line += f" ratio {g.get('ratio')!s:>20} (ref {e['ratio']:.15g}, diff {_d(g.get('ratio'), e['ratio'])})"
        if e.get("verdict") == "unknown":
            ck.eq(f"{w}.verdict", gv, "unknown")
            ck.eq(f"{w}.reason", gr, e["reason"])
            if "base_flaw" in g or "base_flaw" in e:           # reports before 2026-12-06 have no flaws
                ck.eq(f"{w}.base_flaw", g.get("base_flaw"), e.get("base_flaw"))
                ck.eq(f"{w}.new_flaw", g.get("new_flaw"), e.get("new_flaw"))
            line += f"  verdict {gv}/{gr} (ref unknown/{e['reason']})"
        else:
            lo, hi, ra = g.get("low"), g.get("high"), g.get("ratio")
            if all(isinstance(x, (int, float)) for x in (lo, hi, ra)):
                rv = verdict(ra, lo, hi, thr)
                ck.eq(f"{w}.verdict (rule on the binary's own ratio/low/high)", (gv, gr), rv)
            else:
                ck.eq(f"{w}.low/high/ratio are numbers", (lo, hi, ra), "numbers")
                rv = None
            if "ref_low" in e:
                (tlo, thi), (slo, shi) = mc_tolerance(e["ref_sorted"], e["ref_low"], e["ref_high"],
                                                      opts["resamples"], opts["binary_resamples"], opts["alpha"])
                ck.close(f"{w}.low (Monte Carlo tol {tlo:.3g})", lo, e["ref_low"], 0.0, tlo)
                ck.close(f"{w}.high (Monte Carlo tol {thi:.3g})", hi, e["ref_high"], 0.0, thi)
                width = max(e["ref_high"] - e["ref_low"], 1e-300)
                line += (f"\n  {'':20s} low {lo!s:>20} (ref {e['ref_low']:.6f}, diff {_d(lo, e['ref_low'])}, "
                         f"{_ratio(lo, e['ref_low'], slo)} se, tol {tlo:.2g} = {tlo / width:.2f} W)"
                         f"\n  {'':20s} high {hi!s:>19} (ref {e['ref_high']:.6f}, diff {_d(hi, e['ref_high'])}, "
                         f"{_ratio(hi, e['ref_high'], shi)} se, tol {thi:.2g} = {thi / width:.2f} W)")
                clear = abs(e["ref_low"] - 1) > tlo and abs(e["ref_high"] - 1) > thi
                if clear:
                    ev = verdict(e["ratio"], e["ref_low"], e["ref_high"], thr)
                    ck.eq(f"{w}.verdict (rule on the reference's interval)", (gv, gr), ev)
                    line += f"\n  {'':20s} verdict {gv}/{gr} (rule on binary's numbers: {rv}; on ref's: {ev})"
                else:
                    line += (f"\n  {'':20s} verdict {gv}/{gr} (rule on binary's numbers: {rv}; "
                             f"ref's interval at a boundary, skipped)")
        # the split
        gs = g.get("split")
        if e.get("split") is None:
            if "split" in e:
                ck.eq(f"{w}.split (no split on one side)", gs or [], [])
        else:
            by = {s.get("component"): s for s in (gs or [])}
            ck.eq(f"{w}.split components", sorted(by), sorted(COMPONENTS))
            worst = 0.0
            for c, (b_ns, n_ns, ch) in e["split"].items():
                s = by.get(c)
                if s is None:
                    continue
                for k, want in (("base_ns", b_ns), ("new_ns", n_ns), ("change_ns", ch)):
                    ck.close(f"{w}.split.{c}.{k}", s.get(k), want, 1e-9)
                    if isinstance(s.get(k), (int, float)):
                        worst = max(worst, abs(s[k] - want) / max(abs(want), 1e-9))
            line += f"\n  {'':20s} split: 9 components x (base_ns, new_ns, change_ns), largest rel diff {worst:.1e}"
        lines.append(line)
    judged = sum(1 for v in verdicts if v != "unknown")
    ck.eq("judged", diff.get("judged"), judged)
    ref_unknown = [exp["paths"][n].get("verdict") == "unknown" for n in exp["names"]]
    ck.eq("judged (reference's)", diff.get("judged"), ref_unknown.count(False))
    want_outcome = outcome(verdicts)
    ck.eq("outcome", diff.get("outcome"), want_outcome)
    ck.eq("exit code", exit_code, EXIT[want_outcome])
    if "expect_outcome" in opts:
        ck.eq("outcome (this case's expectation)", diff.get("outcome"), opts["expect_outcome"])
        ck.eq("exit code (this case's expectation)", exit_code, EXIT[opts["expect_outcome"]])
    if opts.get("expect_judged_all"):
        ck.eq("judged (this case's expectation: every path)", diff.get("judged"), len(exp["names"]))
    if "expect_verdict" in opts:
        for name in exp["names"]:
            g = got.get(name) or {}
            ck.eq(f"{name}.verdict (this case's expectation)", (g.get("verdict"), g.get("reason")),
                  opts["expect_verdict"])
    lines.append(f"  judged {diff.get('judged')} (ref {judged}), outcome {diff.get('outcome')} "
                 f"(ref {want_outcome}), exit {exit_code} (ref {EXIT[want_outcome]}), "
                 f"warnings {codes}")
    return ck, lines


def _ratio(got, want, se):
    if not isinstance(got, (int, float)) or not se:
        return "n/a"
    return f"{(got - want) / se:+.1f}"


def _d(got, want):
    if not isinstance(got, (int, float)) or want is None:
        return "n/a"
    return f"{got - want:+.2e}"


# ---------------------------------------------------------------- --check

def load(path):
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data)


def trimmed(rep, n):
    out = copy.deepcopy(rep)
    for p in out["paths"]:
        p["samples_ns"] = p["samples_ns"][:n]
    return out


def scaled(rep, factor):
    out = copy.deepcopy(rep)
    for p in out["paths"]:
        p["samples_ns"] = [int(round(x * factor)) for x in p["samples_ns"]]           # Q12
    return out


def with_flaw(rep, name):
    """A copy in which path `name`'s outputs differ from the reference path's (its figures are not its own)."""
    out = copy.deepcopy(rep)
    for p in out["paths"]:
        if p.get("name") == name:
            p["output_check"] = dict(p.get("output_check") or {}, passed=False)
    return out


def lattice(rep, centre):
    """A copy whose every path has the samples centre - 10 .. centre + 10, 501 of them: median = centre."""
    out = copy.deepcopy(rep)
    for p in out["paths"]:
        p["samples_ns"] = [centre + (i % 21) - 10 for i in range(501)]
    return out


def run_binary(binary, base_file, new_file, out_file, extra):
    cmd = [binary, "diff", base_file, new_file, "--export-json", out_file, "--quiet"] + extra
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise SystemExit(f"{' '.join(cmd)}: cannot run the binary: {e}")
    if not os.path.exists(out_file):
        raise SystemExit(f"{' '.join(cmd)}: exit {proc.returncode}, no JSON written\n{proc.stderr}")
    with open(out_file) as fh:
        return json.load(fh), proc.returncode, proc.stderr


def check_main(args):
    t0 = time.time()
    base, new = load(args.base), load(args.new)
    tb, tn = trimmed(base, args.trim), trimmed(new, args.trim)
    cases = [
        ("plain", tb, tn, [], {}),
        ("relative", tb, tn, ["--relative-to", "aoti"], {"relative_to": "aoti"}),
        ("relative-flawed", tb, with_flaw(tn, "aoti"), ["--relative-to", "aoti"],          # Q20
         {"relative_to": "aoti", "expect_outcome": "nothing_judged"}),
        ("x1.2", tb, scaled(tb, 1.2), [], {"expect_outcome": "regression",
                                             "expect_verdict": ("slower", "above_threshold")}),
        ("few", trimmed(tb, MIN_SAMPLES - 1), trimmed(tn, MIN_SAMPLES - 1), [],
         {"expect_outcome": "nothing_judged", "expect_verdict": ("unknown", "too_few_samples"),
          "no_bootstrap": True}),
        ("ten", trimmed(tb, MIN_SAMPLES), trimmed(tn, MIN_SAMPLES), [], {"expect_judged_all": True}),
        ("at-threshold", lattice(tb, 1000), lattice(tb, 1100), ["--threshold", "10%"],
         {"expect_outcome": "no_regression", "expect_verdict": ("no_change", "below_threshold")}),
        ("above-threshold", lattice(tb, 1000), lattice(tb, 1101), ["--threshold", "0.1"],
         {"expect_outcome": "regression", "expect_verdict": ("slower", "above_threshold")}),
    ]
    if "aoti" not in report_paths(tb) or "aoti" not in report_paths(tn):
        cases = [c for c in cases if not c[0].startswith("relative")]
    bad = 0
    with tempfile.TemporaryDirectory(prefix="diff_reference.") as tmp:
        for label, b, n, extra, more in cases:
            fb, fn, fo = (os.path.join(tmp, f"{label}.{s}.json") for s in ("base", "new", "diff"))
            for f, r in ((fb, b), (fn, n)):
                with open(f, "w") as fh:
                    json.dump(r, fh)
            diff, rc, err = run_binary(args.binary, fb, fn, fo, extra)
            opts = {"label": label, "threshold": 0.10, "alpha": 0.05, "binary_resamples": 10000,
                    "binary_seed": 0, "resamples": 0 if more.get("no_bootstrap") else args.resamples,
                    "seed": args.seed}
            opts.update({k: v for k, v in more.items() if k != "no_bootstrap"})
            t1 = time.time()
            ck, lines = check_diff(diff, b, n, opts, rc)
            ck.eq("base (the file given)", diff.get("base"), fb)
            ck.eq("new (the file given)", diff.get("new"), fn)
            print(f"== case {label}: ohprof diff {' '.join(extra) or '(defaults)'}: exit {rc}; "
                  f"{ck.count} values compared, {len(ck.bad)} mismatches ({time.time() - t1:.1f} s)")
            for line in lines:
                print(line)
            for line in ck.bad:
                print("MISMATCH " + line)
            if ck.bad and err.strip():
                print("  stderr: " + err.strip().replace("\n", "\n  stderr: "))
            bad += len(ck.bad)
    print(f"--check: {'FAILED, ' + str(bad) + ' mismatches' if bad else 'ok'} "
          f"(--trim {args.trim}, --resamples {args.resamples}; {time.time() - t0:.1f} s)")
    return 1 if bad else 0


# ---------------------------------------------------------------- --self-test

def enumerate_medians(xs):
    """Exact distribution {median: probability} of the median of a resample of xs (all n^n)."""
    n = len(xs)
    dist = {}
    total = n ** n
    idx = [0] * n
    for _ in range(total):
        m = median([xs[i] for i in idx])
        dist[m] = dist.get(m, 0) + 1
        for j in range(n):                       # odometer
            idx[j] += 1
            if idx[j] < n:
                break
            idx[j] = 0
    return {m: c / total for m, c in dist.items()}


def binom_tail(n, x, k):
    """P(Binomial(n, x) >= k) = I_x(k, n + 1 - k) for integers."""
    return sum(math.comb(n, i) * x ** i * (1 - x) ** (n - i) for i in range(k, n + 1))


def mc_agrees(freq, exact, draws, what):
    for m in set(freq) | set(exact):
        p, f = exact.get(m, 0.0), freq.get(m, 0) / draws
        bound = 5 * math.sqrt(max(p * (1 - p), 1e-12) / draws) + 1.0 / draws
        assert abs(f - p) <= bound, f"{what}: median {m}: frequency {f:.5f}, exact {p:.5f} (bound {bound:.5f})"


def synthetic_report(name_samples, splits=None):
    paths = []
    for name, s in name_samples.items():
        p = {"name": name, "role": "path", "samples_ns": s, "wall_ns": {"median": median(s)}}
        if splits and name in splits:
            it, wall, busy, hb, fw = splits[name]
            p["split"] = {"available": True, "summary": {"totals": {
                "iterations": it, "wall_ns": wall,
                "gpu": {"busy_ns": busy, "host_bound_ns": hb, "device_wait_ns": wall - busy - hb},
                "host_states": {"blocking_ns": 0, "launch_ns": 0, "other_api_ns": 0, "harness_ns": hb - fw,
                                "framework_ns": fw}}}}
        else:
            p["split"] = None
        paths.append(p)
    paths.append({"name": name + "/variant", "role": "variant", "samples_ns": [1] * 20, "split": None})
    return {"kind": "compare", "schema_version": 4, "context": {"hostname": "h"}, "config": {}, "paths": paths}


def self_test():
    # Q13's inputs' values: the same seed, another seed, a file's digest, analyze (none)
    random0 = {"kind": "compare", "context": {}, "config": {"seed": 0}}
    filed = {"kind": "compare", "context": {}, "config": {"seed": 0, "inputs_file": "x.pt", "inputs_file_digest": "ab"}}
    assert not context_differs(random0, {"kind": "run", "context": {}, "config": {"seed": 0}})
    assert context_differs(random0, {"kind": "compare", "context": {}, "config": {"seed": 1}})
    assert context_differs(random0, filed) and not context_differs(filed, dict(filed))
    assert not context_differs({"kind": "analyze", "context": {}, "config": {}}, filed)
    # the median, odd and even; the quantile by linear interpolation
    assert median([3, 1, 2]) == 2.0 and median([4, 1, 3, 2]) == 2.5 and median([7]) == 7.0
    assert median([1, 1, 2, 10]) == 1.5
    s = [1.0, 2.0, 3.0, 4.0]
    assert quantile(s, 0.0) == 1.0 and quantile(s, 1.0) == 4.0 and quantile(s, 0.5) == 2.5
    assert abs(quantile(s, 0.25) - 1.75) < 1e-15 and abs(quantile(s, 0.025) - 1.075) < 1e-15
    assert quantile([5.0], 0.3) == 5.0
    assert abs(quantile([float(i) for i in range(11)], 0.975) - 9.75) < 1e-12
    assert fnv1a64("") == 0xcbf29ce484222325 and fnv1a64("a") == 0xaf63dc4c8601ec8c

    # the naive bootstrap's median against every one of the n^n resamples (n = 5 and 4, with a tie)
    draws = 40000
    for xs in ([1, 2, 4, 8, 16], [1, 3, 3, 10], [2, 5, 11]):
        exact = enumerate_medians(xs)
        assert abs(sum(exact.values()) - 1) < 1e-12
        rng = random.Random(7)
        freq = {}
        for _ in range(draws):
            m = median(rng.choices(xs, k=len(xs)))
            freq[m] = freq.get(m, 0) + 1
        mc_agrees(freq, exact, draws, f"naive bootstrap {xs}")
    # known values: n = 3 resample medians of [2, 5, 11]: P(5) = 13/27 (the middle), P(2) = P(11) = 7/27
    ex3 = enumerate_medians([2, 5, 11])
    assert abs(ex3[5.0] - 13 / 27) < 1e-12 and abs(ex3[2.0] - 7 / 27) < 1e-12

    # the doc's order-statistic claim, exactly for odd n: P(median = x[j]) = P(j/n <= U < (j+1)/n),
    # U ~ Beta((n+1)/2, (n+1)/2), whose cdf is I_x(k, n+1-k) = P(Binomial(n, x) >= k)
    xs = [1, 2, 4, 8, 16]
    n, k = 5, 3
    exact = enumerate_medians(xs)
    for j, x in enumerate(xs):
        p = binom_tail(n, (j + 1) / n, k) - binom_tail(n, j / n, k)
        assert abs(p - exact[float(x)]) < 1e-12, (x, p, exact[float(x)])
    # ... and for even n by Monte Carlo of the doc's construction: U_k ~ Beta(k, k+1),
    # U_(k+1) = U_k + (1 - U_k) V, V ~ Beta(1, n - k) = 1 - (1 - U)^(1/(n-k))
    xs = [1, 3, 3, 10, 20, 21]
    n, k = 6, 3
    exact = enumerate_medians(xs)
    rng = random.Random(11)
    freq = {}
    for _ in range(draws):
        u = rng.betavariate(k, k + 1)
        v = 1 - (1 - rng.random()) ** (1.0 / (n - k))
        u2 = u + (1 - u) * v
        m = (xs[int(n * u)] + xs[int(n * u2)]) / 2.0
        freq[m] = freq.get(m, 0) + 1
    mc_agrees(freq, exact, draws, "the doc's Beta construction, n = 6")

    # the verdict rule on hand cases, exactly at the threshold included
    t = 0.10
    assert verdict(1.2, 1.19, 1.21, t) == ("slower", "above_threshold")
    assert verdict(0.8, 0.79, 0.81, t) == ("faster", "above_threshold")
    assert 1.1 - 1 > 0.1 and verdict(1.1, 1.05, 1.15, t) == ("no_change", "below_threshold")
    assert verdict(0.9, 0.85, 0.95, t) == ("no_change", "below_threshold")
    assert verdict(1.1 + 5e-13, 1.05, 1.15, t) == ("no_change", "below_threshold")
    assert verdict(1.1 + 5e-12, 1.05, 1.15, t) == ("slower", "above_threshold")
    assert verdict(0.9 - 5e-12, 0.85, 0.95, t) == ("faster", "above_threshold")
    assert verdict(1.05, 1.01, 1.09, t) == ("no_change", "below_threshold")
    assert verdict(1.05, 0.99, 1.09, t) == ("no_change", "not_significant")
    assert verdict(1.3, 1.0, 1.6, t) == ("no_change", "not_significant")         # low == 1: includes 1
    assert verdict(0.7, 0.4, 1.0, t) == ("no_change", "not_significant")         # high == 1
    assert verdict(1.3, 0.9, 1.7, t) == ("no_change", "not_significant")         # large but noisy
    assert verdict(1.2, 0.8, 0.9, t) == ("no_change", "below_threshold")         # Q6
    assert verdict(1.2, 1.19, 1.21, 0.25) == ("no_change", "below_threshold")
    # the outcome, in its order
    assert outcome(["unknown", "unknown"]) == "nothing_judged"
    assert outcome([]) == "nothing_judged"
    assert outcome(["slower", "faster", "unknown"]) == "regression"
    assert outcome(["faster", "no_change", "unknown"]) == "no_regression"
    assert outcome(["slower"], incomparable=True) == "incomparable"

    # the Monte Carlo tolerance is not too tight: two naive bootstraps (R = 1500 and 10000, other seeds)
    # of the same synthetic samples agree within it; and not vacuous: a 10x too narrow interval, and a 50%
    # interval instead of a 95% one, are caught (a 90% one, alpha instead of alpha/2, is ~3 se off: not)
    g = random.Random(3)
    B = [int(10000 + g.gauss(0, 500)) for _ in range(201)]
    N = [int(10400 + g.gauss(0, 500)) for _ in range(201)]
    lo, hi, rs = bootstrap([B, N], 1500, 0.05, 1, "p")
    lo2, hi2, rs2 = bootstrap([B, N], 10000, 0.05, 2, "p")
    (tlo, thi), (slo, shi) = mc_tolerance(rs, lo, hi, 1500, 10000, 0.05)
    assert abs(lo2 - lo) <= tlo and abs(hi2 - hi) <= thi, (lo, lo2, hi, hi2, tlo, thi)
    assert max(tlo, thi) < 0.2 * (hi - lo), (tlo, thi, hi - lo)
    mid = (lo + hi) / 2
    assert abs((mid - (hi - lo) / 20) - lo) > tlo                                 # a 10x too narrow interval
    assert abs(quantile(rs2, 0.25) - lo) > tlo and abs(quantile(rs2, 0.75) - hi) > thi    # a 50% interval

    # round trip: a diff JSON filled with the reference's numbers checks clean; wrong numbers are caught
    g = random.Random(5)
    bs = {"a": [int(100 + g.gauss(0, 5)) for _ in range(51)], "b": [int(300 + g.gauss(0, 9)) for _ in range(40)],
          "c": [5] * 8}
    ns = {"a": [int(x * 1.3) for x in bs["a"]], "b": [x + 1 for x in bs["b"][:45]], "c": [6] * 30}
    splits = {"a": (100, 747730, 481480, 266250, 266250), "b": (3, 10, 4, 6, 1)}
    base, new = synthetic_report(bs, splits), synthetic_report(ns, {"a": (50, 500000, 200000, 300000, 1)})
    opts = {"label": "self-test", "threshold": 0.1, "alpha": 0.05, "binary_resamples": 10000,
            "binary_seed": 0, "resamples": 400, "seed": 0}
    exp = expected(base, new, opts)
    diff = {"kind": "diff", "report_kind": "compare", "incomparable": [], "warnings": [],
            "config": {"threshold": 0.1, "alpha": 0.05, "resamples": 10000, "seed": 0, "relative_to": None,
                       "min_samples": 10, "force": False}, "paths": []}
    verdicts = []
    for name in exp["names"]:
        e = exp["paths"][name]
        p = {k: e.get(k) for k in ("name", "base_count", "new_count", "base_median_ns", "new_median_ns", "ratio")}
        if "ref_low" in e:
            p["low"], p["high"] = e["ref_low"], e["ref_high"]
            p["verdict"], p["reason"] = verdict(e["ratio"], e["ref_low"], e["ref_high"], 0.1)
        else:
            p["verdict"], p["reason"] = e["verdict"], e["reason"]
        p["split"] = [] if e["split"] is None else [
            {"component": c, "base_ns": v[0], "new_ns": v[1], "change_ns": v[1] - v[0]} for c, v in e["split"].items()]
        verdicts.append(p["verdict"])
        diff["paths"].append(p)
    diff["judged"] = sum(v != "unknown" for v in verdicts)
    diff["outcome"] = outcome(verdicts)
    assert [p["verdict"] for p in diff["paths"]] == ["slower", "no_change", "unknown"], diff["paths"]
    assert diff["paths"][2]["reason"] == "too_few_samples" and diff["outcome"] == "regression"
    assert exp["paths"]["a"]["split"]["wall"] == (7477.3, 10000.0, 10000.0 - 7477.3)
    ck, _ = check_diff(diff, base, new, opts, 13, expect=exp)
    assert not ck.bad, ck.bad
    count = ck.count
    ck, _ = check_diff(diff, base, new, opts, 0, expect=exp)
    assert len(ck.bad) == 1 and "exit code" in ck.bad[0], ck.bad
    wrong = json.loads(json.dumps(diff))
    wrong["paths"][0]["ratio"] *= 1 + 1e-10
    wrong["paths"][0]["low"] += 0.5 * (wrong["paths"][0]["high"] - wrong["paths"][0]["low"])
    wrong["paths"][0]["split"][1]["change_ns"] += 1e-3
    wrong["paths"][1]["new_count"] += 1
    ck, _ = check_diff(wrong, base, new, opts, 13, expect=exp)
    assert len(ck.bad) == 4, ck.bad
    wrong = json.loads(json.dumps(diff))
    wrong["paths"][0]["verdict"], wrong["paths"][0]["reason"] = "no_change", "below_threshold"
    wrong["outcome"] = "no_regression"
    ck, _ = check_diff(wrong, base, new, opts, 0, expect=exp)
    assert any("rule on the binary" in b for b in ck.bad) and any("reference's interval" in b for b in ck.bad), ck.bad
    wrong = json.loads(json.dumps(diff))
    wrong["outcome"], wrong["judged"] = "no_regression", 3
    ck, _ = check_diff(wrong, base, new, opts, 0, expect=exp)
    assert len(ck.bad) == 4 and all(("outcome" in b or "judged" in b or "exit" in b) for b in ck.bad), ck.bad
    # --relative-to: the reference path is unknown/reference_path and the ratio is over the reference's
    ropts = dict(opts, relative_to="b", resamples=0)
    rexp = expected(base, new, ropts)
    assert rexp["paths"]["b"]["reason"] == "reference_path"
    want = (median(ns["a"]) / median(ns["b"])) / (median(bs["a"]) / median(bs["b"]))
    assert rexp["paths"]["a"]["ratio"] == want and rexp["paths"]["c"]["reason"] == "too_few_samples"
    # a path whose figures are not the path's: unknown/flawed with each side's flaw, before the reference
    flawed = json.loads(json.dumps(new))
    flawed["paths"][0]["output_check"] = {"passed": False}
    flawed["paths"][1]["execution"] = {"compiled_call": "no-graph", "pooled": True}
    fexp = expected(base, flawed, opts)
    assert (fexp["paths"]["a"]["reason"], fexp["paths"]["a"]["new_flaw"]) == ("flawed", "outputs_differ")
    assert fexp["paths"]["a"]["base_flaw"] is None and fexp["paths"]["a"]["split"] is None
    assert fexp["paths"]["b"]["new_flaw"] == "ran_uncompiled"                    # the first that holds
    assert expected(base, flawed, ropts)["paths"]["b"]["reason"] == "flawed"     # before reference_path
    assert expected(base, flawed, ropts)["paths"]["c"]["reason"] == "reference_flawed"   # Q20: against b
    assert expected(base, flawed, dict(ropts, relative_to="c"))["paths"]["a"]["reason"] == "flawed"  # its own first
    assert flaw({"execution": {"pooled": True}}) == "samples_pooled" and flaw({}) is None
    assert flaw({"output_check": {"passed": True}, "execution": {"compiled_call": "compiled"}}) is None
    print(f"self-test: ok ({count} values in the round trip)")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--binary", default="build/ohprof")
    ap.add_argument("--base")
    ap.add_argument("--new")
    ap.add_argument("--trim", type=int, default=501)
    ap.add_argument("--resamples", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.self_test:
        t0 = time.time()
        self_test()
        print(f"self-test: {time.time() - t0:.1f} s")
        return 0
    if args.check and args.base and args.new:
        return check_main(args)
    ap.print_usage(sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except AssertionError as e:
        print(f"self-test: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
