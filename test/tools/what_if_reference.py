#!/usr/bin/env python3
"""Independent reference for the what-if ledger of `ohprof compare --what-if` (the report's `what_if`).

Written from docs/metrics.md ("What-if ledger", "Summary statistics", "Spread of a difference",
"Significance", "Output check", "Memory", "Execution check": the fx_cache fields) and the `what_if`,
`paths[i]` and `config.compare` entries of docs/report-schema.md alone, without reading ohprof's C++,
and with the Python standard library only. For every report whose `what_if` is not null it recomputes,
from `paths[i]` (`samples_ns`, `load_ns`, `output_check`, `memory`, `execution`), every figure of the
ledger that the docs define:

  - per entry: `saved.value_ns` = median(base) - median(path) over `samples_ns`; `saved.se_ns` = the
    larger of sqrt(se(base)^2 + se(path)^2), with se(median) = sqrt(pi/2) * 1.4826 * MAD / sqrt(n) (0
    for n < 2), and the round-paired se: with `sample_rounds`, d_r = median(base's samples of round r) -
    median(path's) over the rounds both have samples in, se(median) of those d_r (only with 2 or more);
    `saved.significant` (|value| > 1.96 se; with se = 0, value != 0); `saved_low_ns`, `saved_high_ns`
    = value -/+ 1.96 se; `outputs_match`, `max_abs_diff` (the path's `output_check`); `ready_ns` (the
    path's `load_ns`, only for a setting that compiles on its own: not `skip-guards`);
    `fx_cache_hits`, `fx_cache_misses` (the path's `execution`); `extra_run_peak_bytes` (the path's
    `memory.run_peak_bytes` less the base's); `graph_pool_bytes` (the path's
    `memory.device.graph_pool_bytes`);
  - for the ledger: `base` ("compile"), `base_measured`, `base_ready_ns`, `base_fx_cache_hits`,
    `base_fx_cache_misses`;
  - the A/A check (`rebuilds`, one line per rebuild, `compile:again` then `compile:again-2`, and `again`
    the first of them): `moved` =
    median(base) - median(rebuild) with the same se and significance, `moved_low_ns`, `moved_high_ns`,
    `unavailable`; and the placement band (`placement`): with g the medians of the base and of each
    rebuild that has samples (n = `builds` of them), `spread_ns` = their sample standard deviation,
    `t` = Student's 0.975 point for n - 1 degrees of freedom (the doc's NIST values), `center_ns` =
    median(base) - mean(g), `half_width_ns` = t * spread * sqrt(1 + 1/n), `low_ns` = min(center -
    half, -1% of median(base)), `high_ns` = max(center + half, +1%), `from_again` (an edge is the
    rebuilds'); with n = 1 only the share, and all 0 without base samples. `negligible` is judged
    against the band: low < saved < high. A report of the previous ohprof (`again` alone, with
    `placement_floor_ns` and `floor_from_again`) is checked by its own rule: `placement_floor_ns` =
    max(0.01 * median(base), c * |moved.value_ns|), c found here by bisection from the doc's equation,
    (atan((c - 1/2) / (sqrt(3)/2)) + atan((c + 1/2) / (sqrt(3)/2))) / pi = 0.95, and `negligible` as
    |saved| < that floor;

and it checks the shape the docs state: the five entries in the documented order, each setting's
path, its label (as far as the doc gives it, Q9), `applicable` == (`not_applicable` is null),
`cuda-graphs` not applicable exactly when `context.device.type` is not "cuda", an applicable entry has
either `saved` or `unavailable` (never both, never neither) and has `saved` exactly when the base and
its path both have samples, the documented `unavailable` texts, the `role` of every path the ledger
uses, no "what-if" path in the ratios or explanations, and `what_if` present exactly when
`config.compare.what_if` is true.

Usage:
  test/tools/what_if_reference.py --check REPORT.json [REPORT.json ...]   # exit 1 on any mismatch
  test/tools/what_if_reference.py --self-test

Exit status: 0 every figure matches; 1 a mismatch, or no report with a non-null `what_if` (nothing to
check); 2 a usage error (bad arguments, a file that cannot be read or is not JSON).

Tolerances: numbers 1e-9 relative with 1e-6 absolute (value_ns, se_ns, saved_low_ns, saved_high_ns,
max_abs_diff); integer fields exactly, and they must be JSON integers (ready_ns, base_ready_ns,
fx_cache_hits, fx_cache_misses and the base's, extra_run_peak_bytes); booleans, strings and null
exactly.

Questions the doc leaves open, and the choice made here (Q1..Q18):
  Q1  The median is the doc's quantile at q = 0.5 ("Summary statistics": y_lo + (y_hi - y_lo)(p - lo),
      p = 0.5 (n - 1)), computed on the sorted samples; MAD is that median of |x_i - median|. Both are
      recomputed from `samples_ns`, not read from `wall_ns` (which "Summary statistics" defines from
      the same samples; this script does not check `wall_ns`).
  Q2  "the base ... has no measured iterations" / "its path has no measured iterations" mean an empty
      `samples_ns` (the kept samples); a path absent from `paths[]` has none either. So an applicable
      entry has `saved` exactly when the base and its path are both in `paths[]` with at least one
      sample, and `base_measured` is (the base is in `paths[]` with at least one sample). With one
      sample se(median) is 0 ("0 for fewer than 2 values").
  Q3  `significant` is not checked when |value| is within the tolerance of 1.96 se (se > 0): the
      report's own floating-point rounding may put it on either side of the boundary. With se = 0 the
      flag is value != 0 (exactly, since value is a difference of medians of integers).
  Q4  `unavailable` must be a non-empty string exactly when an applicable entry has no `saved`, and null
      otherwise, including for a not-applicable entry ("why an applicable setting has no figure").
      `saved_low_ns` and `saved_high_ns` are null when `saved` is null.
  Q5  The `unavailable` texts the doc quotes are checked as prefixes: "the base path compile was not
      built: " when the base is absent from `paths[]` (taken as: not built); "its build failed: " when
      the base is measured and the entry's path is absent from `paths[]`. The other two cases (base or
      path built but without samples) have no quoted text: any non-empty string.
  Q6  `outputs_match` = the path's `output_check.passed`, `max_abs_diff` = its
      `output_check.max_abs_diff`; both null when the path's `output_check` is null (the reference
      path, whose outputs are not checked against anything), when the path is absent, and for a
      not-applicable entry.
  Q7  The costs (`ready_ns`, `fx_cache_hits`, `fx_cache_misses`, `extra_run_peak_bytes`,
      `graph_pool_bytes`) are set
      "only with `saved` and only for a setting that compiles on its own": null for `skip-guards`, for
      a not-applicable entry and for an unavailable one; for the others they come from the path.
      `extra_run_peak_bytes` is null when either `run_peak_bytes` is null or unknown (`memory` null,
      or the base absent).
  Q8  `base_ready_ns` is the base's `load_ns` (0 when the base was not built, as the doc says);
      `base_fx_cache_*` its `execution.fx_cache_*`, null when the base is absent (or its `execution` is null).
  Q9  Labels: the doc's table gives `label` exactly ("what the user writes (exactly, in the JSON)");
      each is compared exactly (LABELS), and must also contain the fragments that name the setting:
      skip-guards `torch.compiler.set_stance(`, `"default"`, `skip_guard_eval_unsafe=True`;
      skip-module-guards `torch.compile(`, `"guard_filter_fn"`,
      `torch.compiler.skip_guard_on_all_nn_modules_unsafe`; cpp-wrapper
      `torch._inductor.config.cpp_wrapper = True`; cuda-graphs `torch.compile(`, `mode="reduce-overhead"`;
      autotune `torch.compile(`, `mode="max-autotune-no-cudagraphs"`.
  Q10 `cuda-graphs` is applicable exactly when `context.device.type` is "cuda" (the doc's other reason,
      a torch that cannot build the path, is taken not to arise on CUDA for `mode="reduce-overhead"`).
      On another device `compile:reduce-overhead` is "not built": it must not be in `paths[]` unless
      `--paths` asked for it. The other settings may be not applicable (a torch without the API); the
      script then only checks that the fields are null and `not_applicable` is a non-empty string.
  Q11 Roles: a path the ledger uses (the base and each applicable entry's path) that is in `paths[]` has
      role "path" when `config.compare.paths` asked for it; else `compile/no-guards` has role "variant"
      when it is a layer variant, i.e. when `config.compare.explain` is true and "compile" was asked
      for (and "what-if" when explain is false); every other one "what-if". With `explain` absent,
      either is accepted for `compile/no-guards`. Every path with role "what-if" must be one the
      ledger uses. Without `config.compare.paths` roles are not checked.
  Q12 "They are not in the ratios, the explanations": no path with role "what-if" may be named by
      `ratios[].faster`/`slower`, `explanations[].slower`/`faster` or `explanations[].remedies[].path`.
  Q13 `what_if` is non-null exactly when `config.compare.what_if` is true, when that field is present;
      with `what_if` null no path may have role "what-if".
  Q14 Entries are matched to the doc's rows by their own `setting` (after checking the order), so one
      swapped entry gives an order mismatch, not a cascade of figure mismatches. A duplicated or unknown
      setting is a mismatch; a missing one is reported by the order check.
  Q15 `paths[]` are looked up by `name`; the first path of a name is used.
  Q16 A field that is absent from the report (an older build) is a mismatch, shown as `<absent>`.
  Q17 ... except `graph_pool_bytes`, which came with device memory ("Device memory"): in a report where
      no path's `memory` has a `device` key (written before device memory was read), the entries may
      lack it, and it is then not checked. ("New fields may appear without a bump", report-schema.md.)
  Q18 `base_cache_lookup_ns` and `beyond_guards` (2026-12-05) are checked where the report has them (an
      older report lacks both): the lookup is the base path's `dynamo_ranges.cache_lookup_ns.median`
      (the JSON keeps that summary, not the per-call values), null when the base has no
      `dynamo_ranges` or its `iterations` is 0; `beyond_guards` is recomputed from this script's own
      `saved` figures, and not compared when `saved_low_ns` is within 1e-6 of the lookup.
  Q19 `again`, `placement_floor_ns` and `floor_from_again` (2026-12-05, the A/A check) are checked where
      the report has `again` (an older report lacks all three; its `negligible` is then judged against
      1% of median(base), as its ohprof did). `again.unavailable` must be a non-empty string exactly when
      `moved` is null; `moved` is expected exactly when the base and `compile:again` both have samples.
      `negligible` and `floor_from_again` are not compared when |saved| (resp. the A/A's bound) is within
      1e-6 of the floor (resp. of the 1% share). `compile:again` counts as a path the ledger uses (Q11).
  Q20 `rebuilds` and `placement` (2026-12-06, two rebuilds): the list must hold the rebuilds in the
      doc's order, each checked as in Q19 against its own path, and `again` is checked as the first of
      them; a rebuild enters the band exactly when
      it has `moved` (the base and it have samples). `spread_ns` is the sample standard deviation
      (divisor n - 1), computed from the medians recomputed here; `spread_ns`, `t`, `center_ns` and
      `half_width_ns` are 0 when n < 2. `negligible` and `from_again` are not compared when the value
      (resp. an edge of the rebuilds' interval) is within 1e-6 of an edge (resp. of the share). Every
      rebuild counts as a path the ledger uses (Q11).
  Q21 `sample_rounds` (2026-12-06, "Spread of a difference"): a report without it, or with it empty, has
      no round-paired se (the independent form alone). When present it must be a list of non-negative
      integers as long as `samples_ns`; a round in which only one of the two paths has samples is left
      out of the d_r.
"""

import copy
import gzip
import json
import math
import os
import sys
import tempfile

REL_TOL, ABS_TOL = 1e-9, 1e-6
Z95 = 1.96
ROBUST_SIGMA = 1.4826                    # sigma = 1.4826 * MAD
SE_MEDIAN = math.sqrt(math.pi / 2)       # se(median) = sqrt(pi/2) * sigma / sqrt(n)
BASE = "compile"
AGAIN = "compile:again"                  # the A/A check: the base compiled again (Q19)
REBUILDS = ("compile:again", "compile:again-2")  # the A/A check's rebuilds, in the doc's order (Q20)
# Student's t, upper 2.5% points by degrees of freedom (docs/metrics.md, "What-if ledger": NIST/SEMATECH
# e-Handbook, section 1.3.6.7.2)
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571}


def again_factor():
    """docs/metrics.md, "What-if ledger": the c with P(|S| <= c |M|) = 0.95 for S/M Cauchy(1/2, sqrt(3)/2)."""
    scale = math.sqrt(3) / 2
    inside = lambda c: (math.atan((c - 0.5) / scale) + math.atan((c + 0.5) / scale)) / math.pi  # noqa: E731
    lo, hi = 1.0, 1000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if inside(mid) < 0.95 else (lo, mid)
    return lo


AGAIN_FACTOR = again_factor()
ABSENT = object()                        # Q16

# setting, its path, compiles on its own (has the costs), label fragments (Q9)
SETTINGS = [
    ("skip-guards", "compile/no-guards", False,
     ("torch.compiler.set_stance(", '"default"', "skip_guard_eval_unsafe=True")),
    ("skip-module-guards", "compile:no-module-guards", True,
     ("torch.compile(", '"guard_filter_fn"', "torch.compiler.skip_guard_on_all_nn_modules_unsafe")),
    ("cpp-wrapper", "compile:cpp-wrapper", True,
     ("torch._inductor.config.cpp_wrapper = True",)),
    ("cuda-graphs", "compile:reduce-overhead", True,
     ("torch.compile(", 'mode="reduce-overhead"')),
    ("autotune", "compile:max-autotune-no-cudagraphs", True,
     ("torch.compile(", 'mode="max-autotune-no-cudagraphs"')),
]
ORDER = [s[0] for s in SETTINGS]
SPEC = {s[0]: s for s in SETTINGS}
def ran_uncompiled(path):
    """docs/metrics.md, "Execution check", "Ran uncompiled": the probe found guards-missed, no-frame or
    no-graph."""
    ran = path.get("execution") if isinstance(path, dict) else None
    if not isinstance(ran, dict):
        return False
    return ran.get("compiled_call") in ("guards-missed", "no-frame", "no-graph")


ENTRY_FIELDS = ("setting", "label", "path", "applicable", "not_applicable", "unavailable", "saved", "negligible",
                "saved_low_ns", "saved_high_ns", "outputs_match", "max_abs_diff", "ready_ns",
                "fx_cache_hits", "fx_cache_misses", "extra_run_peak_bytes", "graph_pool_bytes")

# ---------------------------------------------------------------- the figures

def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def quantile(xs, q):
    """docs/metrics.md, "Summary statistics": linear interpolation between order statistics."""
    y = sorted(xs)
    if not y:
        return 0
    p = q * (len(y) - 1)
    lo, hi = math.floor(p), math.ceil(p)
    return y[lo] + (y[hi] - y[lo]) * (p - lo)


NEGLIGIBLE_SHARE = 0.01  # docs/metrics.md, "What-if ledger": a significant effect below 1% of median(base)


def median(xs):                                                   # Q1
    return quantile(xs, 0.5)


def mad(xs):
    if not xs:
        return 0
    m = median(xs)
    return median([abs(x - m) for x in xs])


def se_median(xs):
    """docs/metrics.md, "Spread of a difference": sqrt(pi/2) * 1.4826 * MAD / sqrt(n); 0 for n < 2."""
    if len(xs) < 2:
        return 0.0
    return SE_MEDIAN * ROBUST_SIGMA * mad(xs) / math.sqrt(len(xs))


def significant(value, se):
    """docs/metrics.md, "Significance": |value| > 1.96 se; with se = 0, value != 0."""
    if se == 0:
        return value != 0
    return abs(value) > Z95 * se


def round_paired_se(base, path):
    """docs/metrics.md, "Spread of a difference": se(median) of the per-round differences of the two
    paths' medians, over the rounds both have samples in; None without rounds or with fewer than 2."""
    a_rounds, b_rounds = getattr(base, "rounds", None), getattr(path, "rounds", None)
    if a_rounds is None or b_rounds is None:
        return None
    by_round = ({}, {})
    for side, xs, rs in ((0, base, a_rounds), (1, path, b_rounds)):
        for x, r in zip(xs, rs):
            by_round[side].setdefault(r, []).append(x)
    d = [median(by_round[0][r]) - median(by_round[1][r]) for r in sorted(by_round[0]) if r in by_round[1]]
    return se_median(d) if len(d) >= 2 else None


def saved_figures(base, path):
    """The `saved` estimate of a setting: median(base) - median(path) and the se of a difference."""
    value = median(base) - median(path)
    se = math.sqrt(se_median(base) ** 2 + se_median(path) ** 2)
    paired = round_paired_se(base, path)
    if paired is not None:
        se = max(se, paired)
    return {"value_ns": value, "se_ns": se, "significant": significant(value, se),
            "low": value - Z95 * se, "high": value + Z95 * se}


def near(a, b):
    return abs(a - b) <= max(REL_TOL * abs(b), ABS_TOL)

# ---------------------------------------------------------------- comparing

def show(v):
    return "<absent>" if v is ABSENT else json.dumps(v)


class Checker:
    def __init__(self, label):
        self.label, self.count, self.bad = label, 0, []

    def cmp(self, where, got, want):
        """Numbers with the tolerance; everything else (null, bool, str) exactly."""
        self.count += 1
        if is_num(got) and is_num(want):
            ok = near(got, want)
        else:
            ok = got is not ABSENT and got == want and type(got) is type(want)
        if not ok:
            extra = ""
            if is_num(got) and is_num(want):
                extra = f" (differs by {got - want:+.6g}" + (f", {(got - want) / want:+.3e} relative)" if want else ")")
            self.bad.append(f"{self.label}: {where}: expected {show(want)}, report has {show(got)}{extra}")

    def cmp_int(self, where, got, want):
        """An integer field: exactly, and a JSON integer (or both null)."""
        self.count += 1
        ok = (got is None and want is None) or (is_int(got) and is_int(want) and got == want)
        if not ok:
            self.bad.append(f"{self.label}: {where}: expected {show(want)} (an integer field), report has {show(got)}")

    def fact(self, where, ok, what):
        self.count += 1
        if not ok:
            self.bad.append(f"{self.label}: {where}: {what}")


class Samples(list):
    """A path's samples_ns, with its sample_rounds in `rounds` (None: the report pairs none, Q21)."""
    rounds = None


def samples_of(ck, p):
    """A path's samples_ns as Samples, or None (with a mismatch) when unusable."""
    s = p.get("samples_ns", ABSENT)
    ok = isinstance(s, list) and all(is_int(x) for x in s)
    ck.fact(f"paths[{p.get('name')}].samples_ns", ok, f"not a list of integers: {show(s)[:120]}")
    if not ok:
        return None
    out = Samples(s)
    r = p.get("sample_rounds", ABSENT)
    if r is ABSENT or r == []:
        return out
    ok = isinstance(r, list) and len(r) == len(s) and all(is_int(x) and x >= 0 for x in r)
    ck.fact(f"paths[{p.get('name')}].sample_rounds", ok,
            f"not a list of {len(s)} non-negative integers: {show(r)[:120]}")
    if ok:
        out.rounds = list(r)
    return out


def sub(obj, key):
    """obj[key] when obj is a dict holding it; None for a null obj; ABSENT when the key is missing."""
    if obj is None or obj is ABSENT:
        return None
    if not isinstance(obj, dict):
        return ABSENT
    return obj.get(key, ABSENT)


def expected_costs(p, base, own_compile, measured):
    """ready_ns, fx_cache_hits, fx_cache_misses, extra_run_peak_bytes (Q7): set only with `saved`."""
    if not measured or not own_compile or p is None:
        return {"ready_ns": None, "fx_cache_hits": None, "fx_cache_misses": None, "extra_run_peak_bytes": None,
                "graph_pool_bytes": None}
    ex = p.get("execution")
    peak = sub(p.get("memory"), "run_peak_bytes")
    base_peak = sub(base.get("memory"), "run_peak_bytes") if base is not None else None
    extra = peak - base_peak if is_int(peak) and is_int(base_peak) else None
    pool = sub(sub(p.get("memory"), "device"), "graph_pool_bytes")
    return {"ready_ns": p.get("load_ns", ABSENT), "fx_cache_hits": sub(ex, "fx_cache_hits"),
            "fx_cache_misses": sub(ex, "fx_cache_misses"), "extra_run_peak_bytes": extra,
            "graph_pool_bytes": pool}


def predates_device_memory(paths):
    """No path's `memory` has a `device` key: a report written before device memory was read (Q17)."""
    return not any(isinstance(p, dict) and isinstance(p.get("memory"), dict) and "device" in p["memory"]
                   for p in (paths.values() if isinstance(paths, dict) else paths))


GUARD_SETTINGS = ("skip-guards", "skip-module-guards")


def base_lookup(base):
    """The base's median "TorchDynamo Cache Lookup" time per call, or None (Q18)."""
    ranges = base.get("dynamo_ranges") if isinstance(base, dict) else None
    if not isinstance(ranges, dict) or not ranges.get("iterations"):
        return None
    return sub(ranges.get("cache_lookup_ns"), "median")


def check_estimate(ck, where, got, fig, measured):
    """An estimate ({"value_ns", "se_ns", "significant"}) against this script's figures; the flag by Q3."""
    if not isinstance(got, dict):
        ck.fact(where, False, f"expected {{value_ns {fig['value_ns']}, se_ns {fig['se_ns']}, significant "
                              f"{json.dumps(fig['significant'])}}} ({measured}), report has {show(got)}")
        return
    ck.cmp(f"{where}.value_ns", got.get("value_ns", ABSENT), fig["value_ns"])
    ck.cmp(f"{where}.se_ns", got.get("se_ns", ABSENT), fig["se_ns"])
    thr = Z95 * fig["se_ns"]
    if fig["se_ns"] == 0 or not near(abs(fig["value_ns"]), thr):     # Q3
        ck.cmp(f"{where}.significant (|{fig['value_ns']:.6g}| vs 1.96 se = {thr:.6g})", got.get("significant", ABSENT),
               fig["significant"])


def check_entry(ck, w, e, paths, base_s, device, asked, lookup=None, band=None):
    setting = e.get("setting")
    _, path_name, own_compile, fragments = SPEC[setting]
    older = predates_device_memory(paths)
    for f in ENTRY_FIELDS:
        if f == "graph_pool_bytes" and older and f not in e:
            continue
        ck.fact(f"{w}.{f}", f in e, "absent")
    ck.cmp(f"{w}.path", e.get("path", ABSENT), path_name)
    label = e.get("label", ABSENT)
    ck.fact(f"{w}.label", isinstance(label, str) and all(fr in label for fr in fragments),
            f"expected a label containing {' and '.join(json.dumps(fr) for fr in fragments)}, report has {show(label)}")
    ck.cmp(f"{w}.label", label, LABELS[setting])  # the doc's table gives the label exactly
    applicable, na = e.get("applicable", ABSENT), e.get("not_applicable", ABSENT)
    ck.fact(f"{w}.applicable", isinstance(applicable, bool), f"not a boolean: {show(applicable)}")
    ck.fact(f"{w}.not_applicable", na is not ABSENT and applicable == (na is None),
            f"applicable {show(applicable)} but not_applicable {show(na)} (applicable must be (not_applicable is null))")
    if na is not None and na is not ABSENT:
        ck.fact(f"{w}.not_applicable", isinstance(na, str) and na != "", f"not a non-empty string: {show(na)}")
    if setting == "cuda-graphs":                                  # Q10
        ck.cmp(f"{w}.applicable (device {device})", applicable, device == "cuda")
        if device != "cuda" and asked is not None and path_name not in asked:
            ck.fact(f"{w} (paths[])", path_name not in paths,
                    f"{path_name} is in paths[] on a {device} device without being asked for (\"the path is not built\")")
    applicable = applicable is True
    p = paths.get(path_name) if applicable else None
    base = paths.get(BASE)
    # saved / unavailable (Q2, Q4, Q5)
    saved, unav = e.get("saved", ABSENT), e.get("unavailable", ABSENT)
    path_s = samples_of(ck, p) if p is not None else []
    if base_s is None or path_s is None:
        return
    # CUDA graphs whose measured calls did not all replay give no figure (docs: "unavailable"); nor does a
    # base or path that ran uncompiled code (docs: "Execution check", "Ran uncompiled").
    ran_graphs = sub(p.get("execution") if p is not None else None, "cuda_graphs")
    no_replay = setting == "cuda-graphs" and p is not None and isinstance(ran_graphs, str) and ran_graphs != "replayed"
    uncompiled = ran_uncompiled(base) or ran_uncompiled(p)
    measured = bool(applicable and base_s and path_s and not no_replay and not uncompiled)
    if measured:
        fig = saved_figures(base_s, path_s)
        ck.cmp(f"{w}.unavailable", unav, None)
        check_estimate(ck, f"{w}.saved", saved, fig, "base and path measured")
        ck.cmp(f"{w}.saved_low_ns", e.get("saved_low_ns", ABSENT), fig["low"])
        ck.cmp(f"{w}.saved_high_ns", e.get("saved_high_ns", ABSENT), fig["high"])
        # "negligible": significant and inside the placement band (Q20; an older report: |saved| < its floor,
        # Q19, or 1% of the base's median), only for a setting that compiles on its own: skip-guards runs the
        # base's compiled code
        share = NEGLIGIBLE_SHARE * median(base_s)
        low, high = band if band is not None else (-share, share)
        v = fig["value_ns"]
        on_edge = near(v, low) or near(v, high)
        negligible = bool(own_compile and fig["significant"] and low < v < high)
        if not on_edge:
            ck.cmp(f"{w}.negligible ({v:.6g} vs the band {low:.6g} to {high:.6g})", e.get("negligible", ABSENT), negligible)
        # "beyond_guards": a guard setting whose saving's interval lies above all of the base's lookup (Q18)
        if "beyond_guards" in e and not (lookup is not None and near(fig["low"], lookup)) and not on_edge:
            want = bool(setting in GUARD_SETTINGS and lookup is not None and fig["significant"] and not negligible
                        and fig["value_ns"] > 0 and fig["low"] > lookup)
            ck.cmp(f"{w}.beyond_guards (saved_low {fig['low']:.6g} vs lookup {show(lookup)})", e["beyond_guards"], want)
    else:
        ck.cmp(f"{w}.saved", saved, None)
        ck.cmp(f"{w}.negligible", e.get("negligible", ABSENT), False)
        if "beyond_guards" in e:
            ck.cmp(f"{w}.beyond_guards", e["beyond_guards"], False)
        ck.cmp(f"{w}.saved_low_ns", e.get("saved_low_ns", ABSENT), None)
        ck.cmp(f"{w}.saved_high_ns", e.get("saved_high_ns", ABSENT), None)
        if not applicable:
            ck.cmp(f"{w}.unavailable", unav, None)
        else:
            ck.fact(f"{w}.unavailable", isinstance(unav, str) and unav != "",
                    f"expected a reason (base {'has ' + str(len(base_s)) + ' sample(s)' if base is not None else 'absent'}, "
                    f"path {'has ' + str(len(path_s)) + ' sample(s)' if p is not None else 'absent'}), report has {show(unav)}")
            prefixes = None
            if base is None:
                prefixes = ("the base path compile was not built",)
            elif base_s and p is None:
                prefixes = ("its build failed: ", "not built")
            elif no_replay and base_s and path_s:
                prefixes = ("its measured calls did not all replay CUDA graphs (execution: " + ran_graphs,)
            if prefixes and isinstance(unav, str):
                ck.fact(f"{w}.unavailable", unav.startswith(prefixes),
                        f"expected a text starting {' or '.join(json.dumps(x) for x in prefixes)}, report has {show(unav)}")
    # outputs (Q6)
    oc = p.get("output_check") if p is not None else None
    ck.cmp(f"{w}.outputs_match", e.get("outputs_match", ABSENT), sub(oc, "passed"))
    ck.cmp(f"{w}.max_abs_diff", e.get("max_abs_diff", ABSENT), sub(oc, "max_abs_diff"))
    # costs (Q7)
    for f, want in expected_costs(p, base, own_compile, measured).items():
        if f == "graph_pool_bytes" and older and f not in e:
            continue
        ck.cmp_int(f"{w}.{f}", e.get(f, ABSENT), want)


def check_rebuild(ck, w, again, name, paths, base_s):
    """One rebuild's line of the A/A check (Q19, Q20); returns its recomputed `moved` figures, or None."""
    ck.cmp(f"{w}.path", again.get("path", ABSENT), name)
    p = paths.get(name)
    again_s = (samples_of(ck, p) if p is not None else []) or []
    fig = saved_figures(base_s, again_s) if base_s and again_s else None
    moved, unav = again.get("moved", ABSENT), again.get("unavailable", ABSENT)
    if fig is None:
        ck.cmp(f"{w}.moved", moved, None)
        ck.fact(f"{w}.unavailable", isinstance(unav, str) and unav != "",
                f"expected a reason (base {len(base_s or [])} sample(s), {name} {len(again_s)}), report has {show(unav)}")
        for f in ("moved_low_ns", "moved_high_ns"):
            ck.cmp(f"{w}.{f}", again.get(f, ABSENT), None)
    else:
        ck.cmp(f"{w}.unavailable", unav, None)
        check_estimate(ck, f"{w}.moved", moved, fig, f"base and {name} measured")
        ck.cmp(f"{w}.moved_low_ns", again.get("moved_low_ns", ABSENT), fig["low"])
        ck.cmp(f"{w}.moved_high_ns", again.get("moved_high_ns", ABSENT), fig["high"])
    return fig


def placement_band(base_s, moved):
    """docs/metrics.md, "What-if ledger": the band from the base's median and the rebuilds' `moved` values."""
    if not base_s:
        return {"builds": 0, "spread_ns": 0.0, "t": 0.0, "center_ns": 0.0, "half_width_ns": 0.0,
                "low_ns": 0.0, "high_ns": 0.0, "from_again": False}
    g0 = median(base_s)
    share = NEGLIGIBLE_SHARE * g0
    g = [g0] + [g0 - m for m in moved]
    n = len(g)
    if n < 2:
        return {"builds": 1, "spread_ns": 0.0, "t": 0.0, "center_ns": 0.0, "half_width_ns": 0.0,
                "low_ns": -share, "high_ns": share, "from_again": False}
    mean = sum(g) / n
    spread = math.sqrt(sum((x - mean) ** 2 for x in g) / (n - 1))
    t = T975[n - 1]
    center = g0 - mean
    half = t * spread * math.sqrt(1 + 1 / n)
    lo, hi = center - half, center + half
    return {"builds": n, "spread_ns": spread, "t": t, "center_ns": center, "half_width_ns": half,
            "low_ns": min(lo, -share), "high_ns": max(hi, share), "from_again": lo < -share or hi > share,
            "_edges": (lo, hi), "_share": share}


def check_again(ck, wi, paths, base_s):
    """The A/A check and the band `negligible` is judged against, as (low, high) (Q19, Q20); None for a report
    without `again` (1% of the base's median, as its ohprof did)."""
    again = wi.get("again", ABSENT)
    rebuilds = wi.get("rebuilds", ABSENT)
    if rebuilds is ABSENT and again is ABSENT:                   # older than the A/A check
        return None
    if rebuilds is ABSENT and isinstance(again, dict):            # the ohprof of 2026-12-05's (Q19)
        fig = check_rebuild(ck, "what_if.again", again, AGAIN, paths, base_s)
        share = NEGLIGIBLE_SHARE * median(base_s) if base_s else 0.0
        bound = AGAIN_FACTOR * abs(fig["value_ns"]) if fig is not None else 0.0
        floor = max(share, bound)
        ck.cmp(f"what_if.placement_floor_ns (max(1% of median(base) {share:.6g}, {AGAIN_FACTOR:.6g} |moved| {bound:.6g}))",
               wi.get("placement_floor_ns", ABSENT), floor)
        if not near(bound, share):
            ck.cmp("what_if.floor_from_again", wi.get("floor_from_again", ABSENT), bound > share)
        return (-floor, floor)
    if not isinstance(rebuilds, list):
        ck.fact("what_if.rebuilds", False, f"not a list: {show(rebuilds)[:80]}")
        return None
    ck.cmp("what_if.rebuilds[].path (the doc's rebuilds, in order)",
           [a.get("path") if isinstance(a, dict) else None for a in rebuilds], list(REBUILDS))
    # `again` is the first rebuild's object, as the first A/A check wrote it (Q20)
    if isinstance(again, dict):
        check_rebuild(ck, "what_if.again", again, AGAIN, paths, base_s)
    else:
        ck.fact("what_if.again", False, f"expected rebuilds[0]'s object, report has {show(again)[:80]}")
    moved = []
    for k, a in enumerate(rebuilds):
        if not isinstance(a, dict) or k >= len(REBUILDS):
            continue
        fig = check_rebuild(ck, f"what_if.rebuilds[{k}]", a, REBUILDS[k], paths, base_s)
        if fig is not None:
            moved.append(fig["value_ns"])
    want = placement_band(base_s, moved)
    got = wi.get("placement", ABSENT)
    if not isinstance(got, dict):
        ck.fact("what_if.placement", False, f"not an object: {show(got)[:80]}")
        return (want["low_ns"], want["high_ns"])
    ck.cmp_int("what_if.placement.builds", got.get("builds", ABSENT), want["builds"])
    for f in ("spread_ns", "t", "center_ns", "half_width_ns", "low_ns", "high_ns"):
        ck.cmp(f"what_if.placement.{f}", got.get(f, ABSENT), want[f])
    edges = want.get("_edges")
    if edges is None or not (near(-edges[0], want["_share"]) or near(edges[1], want["_share"])):
        ck.cmp("what_if.placement.from_again", got.get("from_again", ABSENT), want["from_again"])
    return (want["low_ns"], want["high_ns"])


def check(rep, label):
    """Returns (Checker, entries checked; None when the report's what_if is null)."""
    ck = Checker(label)
    cfg = (rep.get("config") or {}).get("compare") or {}
    wi = rep.get("what_if", ABSENT)
    all_paths = [p for p in rep.get("paths") or [] if isinstance(p, dict)]
    paths = {}
    for p in all_paths:                                           # Q15
        paths.setdefault(p.get("name"), p)
    asked = cfg.get("paths") if isinstance(cfg.get("paths"), list) else None
    if isinstance(cfg.get("what_if"), bool):                      # Q13
        ck.fact("what_if", (wi is not None and wi is not ABSENT) == cfg["what_if"],
                f"config.compare.what_if is {json.dumps(cfg['what_if'])} but what_if is {show(wi)[:60]}")
    if wi is None or wi is ABSENT or not isinstance(wi, dict):
        for p in all_paths:
            ck.fact(f"paths[{p.get('name')}].role", p.get("role") != "what-if", "role \"what-if\" without a ledger")
        return ck, None
    device = ((rep.get("context") or {}).get("device") or {}).get("type", ABSENT)
    ck.fact("context.device.type", isinstance(device, str), f"absent or not a string: {show(device)}")
    # the ledger's own fields (Q2, Q8)
    base = paths.get(BASE)
    ck.cmp("what_if.base", wi.get("base", ABSENT), BASE)
    base_s = samples_of(ck, base) if base is not None else []
    ck.cmp("what_if.base_measured", wi.get("base_measured", ABSENT), bool(base_s))
    ck.cmp_int("what_if.base_ready_ns", wi.get("base_ready_ns", ABSENT),
               base.get("load_ns", ABSENT) if base is not None else 0)
    bex = base.get("execution") if base is not None else None
    for f in ("fx_cache_hits", "fx_cache_misses"):
        ck.cmp_int(f"what_if.base_{f}", wi.get(f"base_{f}", ABSENT), sub(bex, f))
    lookup = base_lookup(base)
    if "base_cache_lookup_ns" in wi:                              # Q18
        ck.cmp("what_if.base_cache_lookup_ns (paths[compile].dynamo_ranges.cache_lookup_ns.median)",
               wi["base_cache_lookup_ns"], lookup)
    band = check_again(ck, wi, paths, base_s)
    entries = wi.get("entries", ABSENT)
    if not isinstance(entries, list):
        ck.fact("what_if.entries", False, f"not a list: {show(entries)[:80]}")
        return ck, 0
    settings = [e.get("setting") if isinstance(e, dict) else None for e in entries]
    ck.cmp("what_if.entries[].setting (the doc's order)", settings, ORDER)
    n, seen = 0, set()
    for k, e in enumerate(entries):                               # Q14
        s = settings[k]
        if s not in SPEC or s in seen:
            ck.fact(f"what_if.entries[{k}].setting", False, f"{'duplicated' if s in seen else 'unknown'} setting {show(s)}")
            continue
        seen.add(s)
        n += 1
        check_entry(ck, f"what_if.entries[{k}] ({s})", e, paths, base_s, device, asked, lookup, band)
    if base_s == [] or base_s is None:
        ck.fact("what_if.entries[].saved", not any(isinstance(e, dict) and e.get("saved") for e in entries),
                "base_measured is false but an entry has saved")
    # roles (Q11)
    used = {BASE} | {e.get("path") for e in entries
                     if isinstance(e, dict) and e.get("applicable") is True and e.get("setting") in SPEC}
    if isinstance(wi.get("rebuilds"), list):
        used.update(REBUILDS)
    elif isinstance(wi.get("again"), dict):
        used.add(AGAIN)
    explain = cfg.get("explain")
    if asked is not None:
        for name in sorted(x for x in used if isinstance(x, str) and x in paths):
            role = paths[name].get("role", ABSENT)
            if name in asked:
                want = {"path"}
            elif name == "compile/no-guards" and not isinstance(explain, bool):
                want = {"what-if", "variant"}
            elif name == "compile/no-guards" and explain and BASE in asked:
                want = {"variant"}
            else:
                want = {"what-if"}
            ck.fact(f"paths[{name}].role", role in want,
                    f"expected {' or '.join(json.dumps(r) for r in sorted(want))}, report has {show(role)}")
    for p in all_paths:
        if p.get("role") == "what-if":
            ck.fact(f"paths[{p.get('name')}].role", p.get("name") in used,
                    "role \"what-if\" but the ledger does not use this path")
    # not in the ratios or the explanations (Q12)
    whatif = {p.get("name") for p in all_paths if p.get("role") == "what-if"}
    for k, r in enumerate(rep.get("ratios") or []):
        for f in ("faster", "slower"):
            ck.fact(f"ratios[{k}].{f}", r.get(f) not in whatif, f"names the what-if path {show(r.get(f))}")
    for k, x in enumerate(rep.get("explanations") or []):
        for f in ("slower", "faster"):
            ck.fact(f"explanations[{k}].{f}", x.get(f) not in whatif, f"names the what-if path {show(x.get(f))}")
        for j, rm in enumerate(x.get("remedies") or []):
            ck.fact(f"explanations[{k}].remedies[{j}].path", rm.get("path") not in whatif,
                    f"names the what-if path {show(rm.get('path'))}")
    return ck, n

# ---------------------------------------------------------------- self-test

def path(name, role, samples, load_ns, output_check=None, run_peak=0, fx=(None, None), memory=True, pool=None):
    device = {"graph_pool_bytes": pool} if pool is not None else None
    return {"name": name, "role": role, "source": "module", "load_ns": load_ns, "samples_ns": samples,
            "output_check": output_check,
            "memory": ({"build_retained_bytes": 0, "build_peak_bytes": 0, "run_peak_bytes": run_peak, "run_calls": 3,
                        "device": device} if memory else None),
            "execution": {"dynamo": True, "fx_cache_hits": fx[0], "fx_cache_misses": fx[1]}}


def oc(passed, max_abs_diff, reference="eager"):
    return {"reference": reference, "passed": passed, "max_abs_diff": max_abs_diff, "max_rel_diff": max_abs_diff,
            "atol": 1e-3, "rtol": 1e-3, "detail": ""}


LABELS = {"skip-guards": 'torch.compiler.set_stance("default", skip_guard_eval_unsafe=True)',
          "skip-module-guards": 'torch.compile(options={"guard_filter_fn": '
                                'torch.compiler.skip_guard_on_all_nn_modules_unsafe})',
          "cpp-wrapper": "torch._inductor.config.cpp_wrapper = True",
          "cuda-graphs": 'torch.compile(mode="reduce-overhead")',
          "autotune": 'torch.compile(mode="max-autotune-no-cudagraphs")'}


def entry(setting, saved=None, low=None, high=None, outputs=(None, None), costs=(None, None, None, None, None),
          not_applicable=None, unavailable=None, beyond_guards=False):
    e = {"setting": setting, "label": LABELS[setting], "path": SPEC[setting][1],
         "applicable": not_applicable is None, "not_applicable": not_applicable, "unavailable": unavailable,
         "saved": None, "negligible": False, "beyond_guards": beyond_guards, "saved_low_ns": low, "saved_high_ns": high,
         "outputs_match": outputs[0], "max_abs_diff": outputs[1], "ready_ns": costs[0],
         "fx_cache_hits": costs[1], "fx_cache_misses": costs[2], "extra_run_peak_bytes": costs[3],
         "graph_pool_bytes": costs[4] if len(costs) > 4 else None}
    if saved is not None:
        e["saved"] = {"value_ns": saved[0], "se_ns": saved[1], "significant": saved[2]}
    return e


def again_of(moved=None, low=None, high=None, unavailable=None, name=AGAIN):
    return {"path": name, "unavailable": unavailable,
            "moved": None if moved is None else {"value_ns": moved[0], "se_ns": moved[1], "significant": moved[2]},
            "moved_low_ns": low, "moved_high_ns": high}


def report(device, asked, explain, paths, what_if, ratios=()):
    return {"schema_version": 4, "kind": "compare", "context": {"device": {"type": device, "index": 0, "name": "x"}},
            "config": {"compare": {"paths": asked, "explain": explain, "what_if": what_if is not None}},
            "paths": paths, "ratios": list(ratios), "explanations": [], "what_if": what_if, "warnings": []}


# K = sqrt(pi/2) * 1.4826 = 1.2533141373155001 * 1.4826 = 1.8581635399839604
# se(median) for MAD 100: 185.81635399839604 / sqrt(n): n = 5 -> 83.09959977431568,
#   n = 4 -> 92.90817699919802, n = 3 -> 107.28112200080875
SE5, SE4, SE3 = 83.09959977431568, 92.90817699919802, 107.28112200080875


def band_of(builds, spread, t, center, half, low, high, from_again):
    return {"builds": builds, "spread_ns": spread, "t": t, "center_ns": center, "half_width_ns": half,
            "low_ns": low, "high_ns": high, "from_again": from_again}


def hand_worked():
    """Small reports whose every figure was worked by hand (the comments); all must check clean."""
    # ---- report A: CPU, --paths eager,compile (eager the reference), no explain, --what-if; written by the
    # ohprof of 2026-12-05 (one rebuild, `again` an object, and a floor: Q19).
    # base compile: 1300 1000 1500 1200 1100 -> sorted 1000 1100 1200 1300 1500, median 1200;
    #   |x - 1200| = 100 200 300 0 100 -> sorted 0 100 100 200 300, MAD 100; se = SE5 = 83.0996
    base = [1300, 1000, 1500, 1200, 1100]
    # skip-guards, compile/no-guards: 900 700 1200 800 1000 -> median 900; |x - 900| = 0 200 300 100 100,
    #   MAD 100, se SE5. saved = 1200 - 900 = 300; se = sqrt(2) * 83.0996 = 117.52058102861342;
    #   1.96 se = 230.340 < 300: significant, a saving. Interval 300 -/+ 230.340 = [69.660, 530.340].
    #   No costs: it runs the base's compile.
    ng = [900, 700, 1200, 800, 1000]
    # skip-module-guards: 1400 1000 1200 1100 -> sorted 1000 1100 1200 1400, median (1100 + 1200) / 2 = 1150;
    #   |x - 1150| = 150 50 50 250 -> sorted 50 50 150 250, MAD (50 + 150) / 2 = 100; se SE4 = 92.9082.
    #   saved = 1200 - 1150 = 50; se = sqrt(83.0996^2 + 92.9082^2) = 124.64939966147352; 1.96 se =
    #   244.313 > 50: within noise; [-194.313, 294.313]. Outputs differ (max abs diff 0.5).
    #   ready 3 ms, 2 FX-cache hits 0 misses; calls peak 8192 - 4096 = +4096 bytes
    nmg = [1400, 1000, 1200, 1100]
    # cpp-wrapper: 1700 1500 1600 -> median 1600, MAD 100, se SE3 = 107.2811. saved = 1200 - 1600 = -400;
    #   se = sqrt(83.0996^2 + 107.2811^2) = 135.70107818438237; 1.96 se = 265.974 < 400: significant, a
    #   cost; [-665.974, -134.026]. ready 7 ms, 0 hits 2 misses; calls peak 0 - 4096 = -4096 bytes
    cw = [1700, 1500, 1600]
    # cuda-graphs: not applicable on the CPU (compile:reduce-overhead not built)
    # autotune: its build failed: compile:max-autotune-no-cudagraphs absent from paths[], every figure null
    # The base's "TorchDynamo Cache Lookup" takes 50 ns per call (its dynamo_ranges): skip-guards' interval
    #   [69.660, 530.340] lies above it, so beyond_guards (Q18); skip-module-guards is within noise.
    # The A/A check, compile:again: 1250 1150 1350 1300 1200 -> sorted 1150 1200 1250 1300 1350, median 1250;
    #   |x - 1250| = 0 100 100 50 50 -> MAD 50, se = 1.85816 * 50 / sqrt(5) = 41.5498. moved = 1200 - 1250 =
    #   -50; se = sqrt(83.0996^2 + 41.5498^2) = 92.9082 (= SE4); 1.96 se = 182.100 > 50: within noise;
    #   [-232.100, 132.100]. c = 11.0264296 (the root of the doc's equation: at c = 11.0264296,
    #   atan(10.5264/0.866025) = 1.48871 and atan(11.5264/0.866025) = 1.49580, sum / pi = 0.95000).
    #   Floor = max(1% of 1200 = 12, 11.0264296 * 50 = 551.321) = 551.321, from the A/A check. The
    #   cpp-wrapper's cost, |-400| < 551.3 and significant: negligible now.
    based = path(BASE, "path", base, 5_000_000, oc(True, 1e-6), 4096, (0, 2))
    based["dynamo_ranges"] = {"iterations": 5, "cache_lookup_ns": {"median": 50.0}, "outside_region_ns": {"median": 0.0}}
    a = report("cpu", ["eager", "compile"], False, [
        path("eager", "path", [500, 600, 700], 0, None),
        based,
        path("compile/no-guards", "what-if", ng, 0, oc(True, 0.0), 0),
        path("compile:no-module-guards", "what-if", nmg, 3_000_000, oc(False, 0.5), 8192, (2, 0)),
        path("compile:cpp-wrapper", "what-if", cw, 7_000_000, oc(True, 2e-7), 0, (0, 2)),
        path(AGAIN, "what-if", [1250, 1150, 1350, 1300, 1200], 9_000_000, oc(True, 0.0), 0, (0, 2)),
    ], {"base": BASE, "base_measured": True, "base_ready_ns": 5_000_000, "base_fx_cache_hits": 0,
        "base_fx_cache_misses": 2, "base_cache_lookup_ns": 50.0,
        "again": again_of((-50.0, SE4, False), -232.1000269184281, 132.1000269184281),
        "placement_floor_ns": 551.3214798908083, "floor_from_again": True, "entries": [
        entry("skip-guards", (300.0, 117.52058102861342, True), 69.6596611839177, 530.3403388160823, (True, 0.0),
              beyond_guards=True),
        entry("skip-module-guards", (50.0, 124.64939966147352, False), -194.3128233364881, 294.3128233364881,
              (False, 0.5), (3_000_000, 2, 0, 4096)),
        dict(entry("cpp-wrapper", (-400.0, 135.70107818438237, True), -665.9741132413894, -134.02588675861057,
                   (True, 2e-7), (7_000_000, 0, 2, -4096)), negligible=True),
        entry("cuda-graphs", not_applicable="CUDA graphs need a CUDA device"),
        entry("autotune", unavailable="its build failed: ModuleNotFoundError"),
    ]}, ratios=[{"faster": "eager", "slower": "compile"}])
    # ---- report B: CUDA, --paths compile,compile:reduce-overhead (compile the reference), explain on.
    # base: 1000 1100 1000 1000 -> sorted 1000 1000 1000 1100, median 1000; |x - 1000| = 0 100 0 0 ->
    #   0 0 0 100, MAD (0 + 0) / 2 = 0: se 0. No memory figures (memory null).
    # skip-guards (compile/no-guards, a layer variant): 1000 1000 1000 -> median 1000, MAD 0; saved 0, se 0:
    #   not significant (0); interval [0, 0]
    # skip-module-guards: built, no samples: unavailable (no quoted text), so no costs (set only with saved)
    # cpp-wrapper: not applicable (this torch cannot build it)
    # cuda-graphs: 700 600 700 700 -> median 700, MAD 0; saved 1000 - 700 = 300, se 0: significant; its
    #   memory pass left a 4096-byte graph pool (memory.device), and no extra calls peak (the base has no memory)
    # autotune: one sample 1050: se 0 (n < 2); saved 1000 - 1050 = -50, se 0: significant cost
    # The A/A check (this ohprof's, Q20): compile:again 1025 1025 1025 -> median 1025, se 0; moved 1000 - 1025 =
    #   -25, significant; [-25, -25]. compile:again-2 990 990 990 -> median 990; moved +10, significant.
    #   The band: medians 1000 1025 990, n = 3, mean 1005; deviations -5 20 -15, squares 25 400 225, sum 650;
    #   spread sqrt(650 / 2) = 18.0277564; t(2) = 4.303; half width 4.303 * 18.0277564 * sqrt(4/3) = 89.574088;
    #   centre 1000 - 1005 = -5: [-94.574088, 84.574088], both edges past 1% of 1000 = 10: from_again.
    #   autotune's -50 is inside: negligible (it compiles on its own); cuda-graphs' 300 is not.
    b = report("cuda", ["compile", "compile:reduce-overhead"], True, [
        path(BASE, "path", [1000, 1100, 1000, 1000], 4_000_000, None, fx=(1, 0), memory=False),
        path("compile:reduce-overhead", "path", [700, 600, 700, 700], 9_000_000, oc(True, 0.0, BASE),
             fx=(0, 3), pool=4096),
        path("compile/no-guards", "variant", [1000, 1000, 1000], 0, oc(True, 0.0, BASE), memory=False),
        path("compile:no-module-guards", "what-if", [], 1_000_000, oc(True, 0.0, BASE), fx=(1, 0), memory=False),
        path("compile:max-autotune-no-cudagraphs", "what-if", [1050], 2_000_000, oc(True, 1e-4, BASE),
             fx=(0, 1), memory=False),
        path(AGAIN, "what-if", [1025, 1025, 1025], 3_000_000, oc(True, 0.0, BASE), fx=(0, 1), memory=False),
        path(REBUILDS[1], "what-if", [990, 990, 990], 3_000_000, oc(True, 0.0, BASE), fx=(0, 1), memory=False),
    ], {"base": BASE, "base_measured": True, "base_ready_ns": 4_000_000, "base_fx_cache_hits": 1,
        "base_fx_cache_misses": 0, "base_cache_lookup_ns": None,
        "again": again_of((-25.0, 0.0, True), -25.0, -25.0),
        "rebuilds": [again_of((-25.0, 0.0, True), -25.0, -25.0), again_of((10.0, 0.0, True), 10.0, 10.0, name=REBUILDS[1])],
        "placement": band_of(3, 18.027756377319946, 4.303, -5.0, 89.57408795702769, -94.57408795702769,
                             84.57408795702769, True),
        "entries": [
        entry("skip-guards", (0.0, 0.0, False), 0.0, 0.0, (True, 0.0)),
        entry("skip-module-guards", unavailable="its path has no measured iterations", outputs=(True, 0.0)),
        entry("cpp-wrapper", not_applicable="its build failed: this torch cannot build it"),
        entry("cuda-graphs", (300.0, 0.0, True), 300.0, 300.0, (True, 0.0), (9_000_000, 0, 3, None, 4096)),
        dict(entry("autotune", (-50.0, 0.0, True), -50.0, -50.0, (True, 1e-4), (2_000_000, 0, 1, None)),
             negligible=True),
    ]})
    # ---- report C: CPU, --paths aoti, the base compile not built (absent): base_measured false,
    # base_fx_cache_* null, base_ready_ns 0; every applicable entry unavailable. compile:cpp-wrapper was built and measured
    # (500 600 700) but has no figure, so no costs (set only with saved); base_ready_ns 0 (not built).
    c = report("cpu", ["aoti"], True, [
        path("aoti", "path", [100, 110, 120], 2_000, None),
        path("compile:cpp-wrapper", "what-if", [500, 600, 700], 1_500_000, oc(True, 0.0, "aoti"), 0, (0, 1)),
    ], {"base": BASE, "base_measured": False, "base_ready_ns": 0, "base_fx_cache_hits": None,
        "base_fx_cache_misses": None,
        "again": again_of(unavailable="the base path compile was not measured"),
        "rebuilds": [again_of(unavailable="the base path compile was not measured"),
                     again_of(unavailable="the base path compile was not measured", name=REBUILDS[1])],
        "placement": band_of(0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False), "entries": [
        entry("skip-guards", unavailable="the base path compile was not built: RuntimeError"),
        entry("skip-module-guards", unavailable="the base path compile was not built: RuntimeError"),
        entry("cpp-wrapper", unavailable="the base path compile was not built: RuntimeError", outputs=(True, 0.0)),
        entry("cuda-graphs", not_applicable="CUDA graphs need a CUDA device"),
        entry("autotune", unavailable="the base path compile was not built: RuntimeError"),
    ]})
    return a, b, c


def self_test():
    # the building blocks, by hand
    assert median([1300, 1000, 1500, 1200, 1100]) == 1200 and mad([1300, 1000, 1500, 1200, 1100]) == 100
    assert median([1400, 1000, 1200, 1100]) == 1150 and mad([1400, 1000, 1200, 1100]) == 100
    assert median([1000, 1100, 1000, 1000]) == 1000 and mad([1000, 1100, 1000, 1000]) == 0
    assert quantile([1, 2, 3, 4], 0.25) == 1.75
    k = math.sqrt(math.pi / 2) * 1.4826
    assert abs(k - 1.8581635399839604) < 1e-15
    assert near(se_median([1300, 1000, 1500, 1200, 1100]), 100 * k / math.sqrt(5)) and near(SE5, 185.81635399839604 / math.sqrt(5))
    assert near(se_median([1400, 1000, 1200, 1100]), SE4) and near(SE4, 185.81635399839604 / 2)
    assert near(se_median([1700, 1500, 1600]), SE3) and se_median([1250]) == 0.0
    f = saved_figures([1300, 1000, 1500, 1200, 1100], [900, 700, 1200, 800, 1000])
    assert f["value_ns"] == 300 and near(f["se_ns"], math.sqrt(SE5 ** 2 + SE5 ** 2)) and f["significant"]
    assert near(f["se_ns"], 117.52058102861342) and near(f["low"], 69.6596611839177)
    f = saved_figures([1300, 1000, 1500, 1200, 1100], [1400, 1000, 1200, 1100])
    assert f["value_ns"] == 50 and near(f["se_ns"], math.hypot(SE5, SE4)) and not f["significant"]
    f = saved_figures([1300, 1000, 1500, 1200, 1100], [1700, 1500, 1600])
    assert f["value_ns"] == -400 and near(f["se_ns"], math.hypot(SE5, SE3)) and f["significant"]
    assert near(f["high"], -134.02588675861057)
    # "Spread of a difference", paired by round, by hand: block medians 10, 30, 20 against 20, 10, 50;
    # d = -10, 20, -30, median -10, MAD 20: se = k * 20 / sqrt(3) = 21.4562244, above the independent
    # hypot(k * 10 / sqrt(6), k * 10 / sqrt(6)) = 10.7281122
    a, b = Samples([10, 10, 30, 30, 20, 20]), Samples([20, 20, 10, 10, 50, 50])
    a.rounds = b.rounds = [0, 0, 1, 1, 2, 2]
    assert near(round_paired_se(a, b), k * 20 / math.sqrt(3)) and abs(k * 20 / math.sqrt(3) - 21.4562244) < 1e-6
    f = saved_figures(a, b)
    assert f["value_ns"] == 0 and near(f["se_ns"], k * 20 / math.sqrt(3))
    b.rounds = [0, 0, 4, 4, 5, 5]   # one round in common: no paired se, the independent one
    assert round_paired_se(a, b) is None and near(saved_figures(a, b)["se_ns"], math.hypot(k * 10 / math.sqrt(6), k * 10 / math.sqrt(6)))
    b.rounds = [0, 0, 1, 1, 2, 2]
    b[:] = [15, 15, 35, 35, 25, 25]  # the same drift in every round: d = -5 three times, paired se 0, the independent one kept
    assert round_paired_se(a, b) == 0 and near(saved_figures(a, b)["se_ns"], math.hypot(k * 10 / math.sqrt(6), k * 10 / math.sqrt(6)))
    # "Significance", by hand: 2000 +- 1000 significant, 1960 +- 1000 not, -2500 +- 1000 significant
    assert significant(2000, 1000) and not significant(1960, 1000) and significant(-2500, 1000)
    assert significant(300, 0) and not significant(0, 0)
    print("self-test: median, MAD, se of a median and of a difference, significance (by hand) ok")
    a, b, c = hand_worked()
    total = 0
    for name, rep in (("A", a), ("B", b), ("C", c)):
        ck, n = check(rep, f"report {name}")
        if ck.bad:
            print("self-test FAILED: a hand-worked report does not check:\n  " + "\n  ".join(ck.bad))
            return 1
        total += ck.count
        print(f"self-test: hand-worked report {name} checks clean ({n} entries, {ck.count} fields and facts)")
    ent = lambda r, i: r["what_if"]["entries"][i]                                  # noqa: E731
    pth = lambda r, name: next(p for p in r["paths"] if p["name"] == name)         # noqa: E731
    se_sd = math.hypot(*(  # se from the standard deviation instead of 1.4826 MAD
        SE_MEDIAN * (sum((x - sum(s) / len(s)) ** 2 for x in s) / (len(s) - 1)) ** 0.5 / math.sqrt(len(s))
        for s in ([1300, 1000, 1500, 1200, 1100], [900, 700, 1200, 800, 1000])))
    # each corruption: (what, report, change, a string the mismatch line must contain)
    corruptions = [
        ("a 25% saving said negligible", a, lambda r: ent(r, 0).update(negligible=True),
         "(skip-guards).negligible"),
        ("a saving above the whole lookup not said beyond the guards", a,
         lambda r: ent(r, 0).update(beyond_guards=False), "(skip-guards).beyond_guards"),
        ("a saving within noise said beyond the guards", a,
         lambda r: ent(r, 1).update(beyond_guards=True), "(skip-module-guards).beyond_guards"),
        ("a wrong base_cache_lookup_ns", a, lambda r: r["what_if"].update(base_cache_lookup_ns=60.0),
         "what_if.base_cache_lookup_ns"),
        ("a wrong saved value (301 for 300)", a, lambda r: ent(r, 0)["saved"].update(value_ns=301.0),
         "(skip-guards).saved.value_ns:"),
        ("a saved value of means, not medians", a, lambda r: ent(r, 1)["saved"].update(value_ns=1220.0 - 1175.0),
         "(skip-module-guards).saved.value_ns:"),
        ("a saved with the wrong sign (path - base)", a, lambda r: ent(r, 2)["saved"].update(value_ns=400.0),
         "(cpp-wrapper).saved.value_ns:"),
        ("a wrong se (one median's only)", a, lambda r: ent(r, 0)["saved"].update(se_ns=SE5),
         "(skip-guards).saved.se_ns:"),
        ("an se without sqrt(pi/2)", a, lambda r: ent(r, 0)["saved"].update(se_ns=117.52058102861342 / SE_MEDIAN),
         "(skip-guards).saved.se_ns:"),
        ("an se from the standard deviation", a, lambda r: ent(r, 0)["saved"].update(se_ns=se_sd),
         "(skip-guards).saved.se_ns:"),
        ("an se summed, not in quadrature", a, lambda r: ent(r, 2)["saved"].update(se_ns=SE5 + SE3),
         "(cpp-wrapper).saved.se_ns:"),
        # block medians 1300, 1150 (base) and 800, 1000 (no-guards): d = 500, 150, MAD 175, paired se
        # k * 175 / sqrt(2) = 229.9, above the independent 117.5 the report keeps
        ("the sample rounds ignored (the independent se kept)", a,
         lambda r: (pth(r, BASE).update(sample_rounds=[0, 0, 0, 1, 1]),
                    pth(r, "compile/no-guards").update(sample_rounds=[0, 0, 1, 1, 1])),
         "(skip-guards).saved.se_ns:"),
        ("sample_rounds shorter than samples_ns", a, lambda r: pth(r, BASE).update(sample_rounds=[0, 0]),
         f"paths[{BASE}].sample_rounds"),
        ("a wrong significant flag (within noise said significant)", a,
         lambda r: ent(r, 1)["saved"].update(significant=True), "(skip-module-guards).saved.significant"),
        ("a wrong significant flag (a cost said within noise)", a,
         lambda r: ent(r, 2)["saved"].update(significant=False), "(cpp-wrapper).saved.significant"),
        ("a nonzero with se 0 said within noise", b, lambda r: ent(r, 3)["saved"].update(significant=False),
         "(cuda-graphs).saved.significant"),
        ("a zero with se 0 said significant", b, lambda r: ent(r, 0)["saved"].update(significant=True),
         "(skip-guards).saved.significant"),
        ("a wrong saved_low_ns (1.645 se)", a, lambda r: ent(r, 0).update(saved_low_ns=300 - 1.645 * 117.52058102861342),
         "(skip-guards).saved_low_ns:"),
        ("saved_low and saved_high swapped", a,
         lambda r: ent(r, 2).update(saved_low_ns=-134.02588675861057, saved_high_ns=-665.9741132413894),
         "(cpp-wrapper).saved_low_ns:"),
        ("a ready_ns on skip-guards", a, lambda r: ent(r, 0).update(ready_ns=5_000_000), "(skip-guards).ready_ns:"),
        ("a wrong ready_ns (the base's)", a, lambda r: ent(r, 1).update(ready_ns=5_000_000),
         "(skip-module-guards).ready_ns:"),
        ("a float ready_ns", a, lambda r: ent(r, 2).update(ready_ns=7_000_000.0), "(cpp-wrapper).ready_ns:"),
        ("a wrong outputs_match (differing outputs said matching)", a,
         lambda r: ent(r, 1).update(outputs_match=True), "(skip-module-guards).outputs_match:"),
        ("a wrong max_abs_diff", a, lambda r: ent(r, 2).update(max_abs_diff=2e-3), "(cpp-wrapper).max_abs_diff:"),
        ("outputs_match on the reference path (not checked)", b,
         lambda r: pth(r, "compile:reduce-overhead").update(output_check=None), "(cuda-graphs).outputs_match:"),
        ("applicable cuda-graphs on the CPU", a,
         lambda r: ent(r, 3).update(applicable=True, not_applicable=None), "(cuda-graphs).applicable (device cpu):"),
        ("not-applicable cuda-graphs on CUDA", b,
         lambda r: ent(r, 3).update(applicable=False, not_applicable="no", saved=None), "(cuda-graphs).applicable"),
        ("applicable true with a not_applicable reason", a,
         lambda r: ent(r, 3).update(applicable=True), "(cuda-graphs).not_applicable:"),
        ("compile:reduce-overhead built on the CPU", a,
         lambda r: r["paths"].append(path("compile:reduce-overhead", "what-if", [1], 1)), "the path is not built"),
        ("a saved and an unavailable", a, lambda r: ent(r, 0).update(unavailable="x"), "(skip-guards).unavailable:"),
        ("neither saved nor unavailable", a, lambda r: ent(r, 4).update(unavailable=None), "(autotune).unavailable:"),
        ("an unavailable without the documented text", a,
         lambda r: ent(r, 4).update(unavailable="no figure"), "its build failed: "),
        ("a saved although the base was not built", c,
         lambda r: ent(r, 2).update(saved={"value_ns": 1.0, "se_ns": 0.0, "significant": True}, unavailable=None),
         "(cpp-wrapper).saved:"),
        ("a missing saved (base and path measured)", b, lambda r: ent(r, 4).update(saved=None), "(autotune).saved:"),
        ("a saved although its path ran uncompiled (its probe found no graph whose guards matched)", a,
         lambda r: pth(r, "compile:cpp-wrapper").update(execution={"dynamo": True, "graphs": 1,
                                                                    "compiled_call": "guards-missed"}),
         "(cpp-wrapper).saved:"),
        ("a saved although the base ran uncompiled (its probe ran no compiled graph)", a,
         lambda r: pth(r, BASE).update(execution={"dynamo": True, "graphs": 1, "compiled_call": "no-graph"}),
         "(skip-guards).saved:"),
        ("a wrong fx_cache_hits", a, lambda r: ent(r, 1).update(fx_cache_hits=1), "(skip-module-guards).fx_cache_hits:"),
        ("a wrong base_fx_cache_misses", a, lambda r: r["what_if"].update(base_fx_cache_misses=0),
         "what_if.base_fx_cache_misses:"),
        ("a wrong extra_run_peak_bytes (the path's own peak)", a,
         lambda r: ent(r, 1).update(extra_run_peak_bytes=8192), "(skip-module-guards).extra_run_peak_bytes:"),
        ("an extra_run_peak_bytes without the base's memory", b,
         lambda r: ent(r, 3).update(extra_run_peak_bytes=0), "(cuda-graphs).extra_run_peak_bytes:"),
        ("a graph pool not carried over", b, lambda r: ent(r, 3).update(graph_pool_bytes=None),
         "(cuda-graphs).graph_pool_bytes:"),
        ("a graph pool on a setting that did not replay graphs", b, lambda r: ent(r, 4).update(graph_pool_bytes=4096),
         "(autotune).graph_pool_bytes:"),
        ("a wrong base_ready_ns", a, lambda r: r["what_if"].update(base_ready_ns=4_999_999), "what_if.base_ready_ns:"),
        ("a wrong base_measured", c, lambda r: r["what_if"].update(base_measured=True), "what_if.base_measured:"),
        ("a wrong base", a, lambda r: r["what_if"].update(base="eager"), "what_if.base:"),
        ("a floor of 1% although the A/A check's bound is larger", a,
         lambda r: r["what_if"].update(placement_floor_ns=12.0), "what_if.placement_floor_ns"),
        ("a floor from the A/A check's interval bound, not c times its value", a,
         lambda r: r["what_if"].update(placement_floor_ns=232.1000269184281), "what_if.placement_floor_ns"),
        ("a floor of Student's t with 1 df (12.706) times the A/A value", a,
         lambda r: r["what_if"].update(placement_floor_ns=12.706 * 50), "what_if.placement_floor_ns"),
        ("a cost within the A/A floor not said negligible", a, lambda r: ent(r, 2).update(negligible=False),
         "(cpp-wrapper).negligible"),
        ("floor_from_again false where the A/A bound set it", a,
         lambda r: r["what_if"].update(floor_from_again=False), "what_if.floor_from_again"),
        ("a setting inside the placement band not said negligible", b, lambda r: ent(r, 4).update(negligible=False),
         "(autotune).negligible"),
        ("a band whose spread divides by n, not n - 1", b,
         lambda r: r["what_if"]["placement"].update(spread_ns=math.sqrt(650 / 3)), "what_if.placement.spread_ns"),
        ("a band with the normal's 1.96 for Student's t", b,
         lambda r: r["what_if"]["placement"].update(t=1.96), "what_if.placement.t"),
        ("a band without the prediction's sqrt(1 + 1/n)", b,
         lambda r: r["what_if"]["placement"].update(half_width_ns=4.303 * 18.027756377319946),
         "what_if.placement.half_width_ns"),
        ("a band centred on zero, not on median(base) - mean", b,
         lambda r: r["what_if"]["placement"].update(center_ns=0.0), "what_if.placement.center_ns"),
        ("a band's low edge symmetric to its high one", b,
         lambda r: r["what_if"]["placement"].update(low_ns=-84.57408795702769), "what_if.placement.low_ns"),
        ("a band that counts the rebuilds but not the base", b,
         lambda r: r["what_if"]["placement"].update(builds=2), "what_if.placement.builds"),
        ("from_again false where the rebuilds set the edges", b,
         lambda r: r["what_if"]["placement"].update(from_again=False), "what_if.placement.from_again"),
        ("a band without a base (not all 0)", c,
         lambda r: r["what_if"]["placement"].update(builds=1), "what_if.placement.builds"),
        ("a second rebuild's moved with the wrong sign", b,
         lambda r: r["what_if"]["rebuilds"][1]["moved"].update(value_ns=-10.0), "what_if.rebuilds[1].moved.value_ns"),
        ("a rebuild left out of the A/A check", b, lambda r: r["what_if"]["rebuilds"].pop(),
         "what_if.rebuilds[].path (the doc's rebuilds, in order)"),
        ("the rebuilds in the wrong order", b, lambda r: r["what_if"]["rebuilds"].reverse(),
         "what_if.rebuilds[].path (the doc's rebuilds, in order)"),
        ("again not the first rebuild's object", b, lambda r: r["what_if"].update(again=r["what_if"]["rebuilds"][1]),
         "what_if.again.path"),
        ("again left out beside rebuilds (the band still checked)", b, lambda r: r["what_if"].pop("again"),
         "what_if.again: expected rebuilds[0]'s object"),
        ("again left out and a wrong band", b,
         lambda r: (r["what_if"].pop("again"), r["what_if"]["placement"].update(low_ns=-1e9)),
         "what_if.placement.low_ns"),
        ("the second rebuild's path with role path though not asked", b,
         lambda r: pth(r, REBUILDS[1]).update(role="path"), "paths[compile:again-2].role:"),
        ("the A/A check's moved with the wrong sign (again - base)", a,
         lambda r: r["what_if"]["again"]["moved"].update(value_ns=50.0), "what_if.again.moved.value_ns"),
        ("a wrong moved_low_ns", b, lambda r: r["what_if"]["rebuilds"][0].update(moved_low_ns=-35.0),
         "what_if.rebuilds[0].moved_low_ns"),
        ("an A/A figure without its base measured", c,
         lambda r: r["what_if"]["rebuilds"][0].update(moved={"value_ns": 1.0, "se_ns": 0.0, "significant": True}),
         "what_if.rebuilds[0].moved"),
        ("an A/A check without a reason for no figure", c, lambda r: r["what_if"]["rebuilds"][1].update(unavailable=None),
         "what_if.rebuilds[1].unavailable"),
        ("the A/A path with role path though not asked", b, lambda r: pth(r, AGAIN).update(role="path"),
         "paths[compile:again].role:"),
        ("entries out of order", a, lambda r: r["what_if"]["entries"].reverse(), "(the doc's order)"),
        ("an entry left out", a, lambda r: r["what_if"]["entries"].pop(), "(the doc's order)"),
        ("a wrong setting -> path", a, lambda r: ent(r, 2).update(path="compile"), "(cpp-wrapper).path:"),
        ("a wrong label", a, lambda r: ent(r, 4).update(label='torch.compile(mode="max-autotune")'), "(autotune).label:"),
        ("graph_pool_bytes absent where paths have memory.device", a, lambda r: ent(r, 2).pop("graph_pool_bytes"),
         "(cpp-wrapper).graph_pool_bytes: absent"),
        ("a field absent (an older build)", a, lambda r: ent(r, 1).pop("extra_run_peak_bytes"),
         "(skip-module-guards).extra_run_peak_bytes: absent"),
        ("a what-if path with role path", a, lambda r: pth(r, "compile:cpp-wrapper").update(role="path"),
         "paths[compile:cpp-wrapper].role:"),
        ("the skip-guards path a variant without explain", a, lambda r: pth(r, "compile/no-guards").update(role="variant"),
         "paths[compile/no-guards].role:"),
        ("an asked path with role what-if", b, lambda r: pth(r, "compile").update(role="what-if"), "paths[compile].role:"),
        ("a what-if path the ledger does not use", b,
         lambda r: r["paths"].append(path("aoti:python", "what-if", [1], 1)), "the ledger does not use"),
        ("a what-if path in the ratios", a,
         lambda r: r["ratios"].append({"faster": "compile:cpp-wrapper", "slower": "compile"}), "ratios[1].faster:"),
        ("what_if null with --what-if", a, lambda r: r.update(what_if=None), "config.compare.what_if is true"),
    ]
    for what, base, corrupt, expect in corruptions:
        bad = copy.deepcopy(base)
        corrupt(bad)
        found = check(bad, "corrupted")[0].bad
        if not any(expect in line for line in found):
            print(f"self-test FAILED: {what} was not caught (expected a line with {expect!r}); lines: {found}")
            return 1
        print(f"self-test: caught {what}: {next(line for line in found if expect in line)}")
    # without --what-if: nothing to check
    empty = copy.deepcopy(a)
    empty["what_if"] = None
    empty["config"]["compare"]["what_if"] = False
    for p in empty["paths"]:
        p["role"] = "path"
    ck, n = check(empty, "empty")
    assert n is None and not ck.bad, ck.bad
    print("self-test: a report without --what-if: nothing to check, no mismatch")
    # the exit codes, through main and files
    with tempfile.TemporaryDirectory() as tmp:
        def write(name, obj):
            fn = os.path.join(tmp, name)
            with open(fn, "w") as fh:
                fh.write(obj if isinstance(obj, str) else json.dumps(obj))
            return fn
        bad = copy.deepcopy(a)
        ent(bad, 0)["saved"]["value_ns"] = 299.0
        cases = [([write("a.json", a), write("b.json", b), write("c.json", c)], 0),
                 ([write("a2.json", a), write("empty.json", empty)], 0),
                 ([write("bad.json", bad)], 1), ([write("empty2.json", empty)], 1),
                 ([write("cut.json", json.dumps(a)[:-40])], 2), ([os.path.join(tmp, "absent.json")], 2),
                 ([write("list.json", [1, 2])], 2)]
        devnull = open(os.devnull, "w")
        saved = sys.stdout, sys.stderr
        try:
            sys.stdout = sys.stderr = devnull
            codes = [main(["--check"] + files) for files, _ in cases] + [main([]), main(["--check"]), main(["--bogus"])]
        finally:
            sys.stdout, sys.stderr = saved
            devnull.close()
        want = [rc for _, rc in cases] + [2, 2, 2]
        if codes != want:
            print(f"self-test FAILED: exit codes {codes}, expected {want}")
            return 1
    print("self-test: exit codes 0 (clean), 1 (mismatch; nothing to check), 2 (truncated JSON; absent file; "
          "not a report object; usage)")
    print(f"self-test: ok ({total} fields and facts in the hand-worked reports; {len(corruptions)} corruptions caught)")
    return 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if argv[:1] != ["--check"] or len(argv) < 2:
        print(__doc__.split("Usage:\n")[1].split("\n\n")[0], file=sys.stderr)
        return 2
    bad, unreadable, reports, entries, fields = 0, False, 0, 0, 0
    for fn in argv[1:]:
        try:
            with (gzip.open(fn, "rt", encoding="utf-8") if fn.endswith(".gz") else open(fn, encoding="utf-8")) as fh:
                rep = json.load(fh)
        except (OSError, ValueError) as e:
            print(f"{fn}: cannot read: {e}", file=sys.stderr)
            unreadable = True
            continue
        if not isinstance(rep, dict):
            print(f"{fn}: not a report (a JSON {type(rep).__name__}, not an object)", file=sys.stderr)
            unreadable = True
            continue
        ck, n = check(rep, fn)
        for line in ck.bad:
            print(line)
        bad += len(ck.bad)
        fields += ck.count
        if n is None:
            print(f"{fn}: what_if is null (made without --what-if){': MISMATCH' if ck.bad else ''}")
        else:
            reports += 1
            entries += n
            print(f"{fn}: {'MISMATCH, ' + str(len(ck.bad)) + ' mismatch(es)' if ck.bad else 'ok'}: "
                  f"{n} what-if entr{'y' if n == 1 else 'ies'}, {ck.count} fields and facts checked")
    if unreadable:
        return 2
    if reports == 0:
        print("nothing to check: no report has a non-null what_if (was it made with compare --what-if?)")
        return 1
    if bad:
        print(f"MISMATCH: {bad} mismatch(es) in {len(argv) - 1} report(s)")
        return 1
    print(f"OK: {entries} what-if entries in {reports} report(s) match the docs ({fields} fields and facts checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
