#!/usr/bin/env python3
"""Independent reference for the spread of the differences between the paths of one `ohprof compare` run.

Written from docs/metrics.md ("Spread of a difference", "Significance", "Ratios", "Explanation",
"Interleaving", "Per iteration") alone, with the Python standard library only. For every report given it
recomputes, from `paths[i].samples_ns` and `paths[i].sample_rounds` (the timing pass) and
`paths[i].split.iterations[j].gpu.busy_ns` and `.round` (the split pass):

  - every ratio (`ratios[k]`): `low`, `high`, `significant`, from gap = median(slower) - median(faster)
    and its se;
  - every explanation (`explanations[k]`): `gap`, `floor_gap`, each layer's `estimate`, `kernels`,
    `wrapper`, `residual` (its se; its value is floor_gap - kernels - wrapper) and each remedy's `saved`,
    each as {value_ns, se_ns, significant};

where the se of a difference of two paths' medians is the larger of the independent form
sqrt(se(a)^2 + se(b)^2), se(median) = sqrt(pi/2) * 1.4826 * MAD / sqrt(n) (0 for n < 2), and the
round-paired one: over the rounds both paths have values in, d_r = median(a's values of round r) -
median(b's values of round r), se(median) of the d_r (only with 2 or more such rounds, and only when
every value of both has a round).

Usage:
  test/tools/spread_reference.py --check REPORT.json[.gz] [...]   # exit 1 on any mismatch
  test/tools/spread_reference.py --self-test

Exit status: 0 every figure matches; 1 a mismatch, or nothing to check; 2 a usage error (a file that
cannot be read or is not JSON).

Tolerances: 1e-9 relative with 1e-6 absolute; flags exactly. Choices where the doc leaves room:
  Q1 The median of an even count is the mean of the two middle values; MAD the median of |x - median|.
  Q2 A significance flag is not compared when |value| is within 1e-6 of 1.96 se (a rounding tie).
  Q3 A split path whose iterations' `round` is null anywhere is not paired (the independent form alone).
"""

import gzip
import json
import math
import sys

REL_TOL, ABS_TOL = 1e-9, 1e-6
Z95 = 1.96
K = math.sqrt(math.pi / 2) * 1.4826


def median(xs):
    s = sorted(xs)
    n = len(s)
    return (s[(n - 1) // 2] + s[n // 2]) / 2


def se_median(xs):
    if len(xs) < 2:
        return 0.0
    m = median(xs)
    return K * median([abs(x - m) for x in xs]) / math.sqrt(len(xs))


def paired_se(a, ar, b, br):
    """The round-paired se, or None (no rounds for every value, or fewer than 2 common rounds)."""
    if ar is None or br is None or len(ar) != len(a) or len(br) != len(b):
        return None
    ga, gb = {}, {}
    for x, r in zip(a, ar):
        ga.setdefault(r, []).append(x)
    for x, r in zip(b, br):
        gb.setdefault(r, []).append(x)
    d = [median(ga[r]) - median(gb[r]) for r in sorted(ga) if r in gb]
    return se_median(d) if len(d) >= 2 else None


def difference(a, ar, b, br):
    value = median(a) - median(b)
    se = math.hypot(se_median(a), se_median(b))
    p = paired_se(a, ar, b, br)
    return value, (se if p is None else max(se, p))


def wall(p):
    r = p.get("sample_rounds")
    return p["samples_ns"], (r if r else None)


def busy(p):
    its = ((p.get("split") or {}).get("iterations")) or []
    values = [it["gpu"]["busy_ns"] for it in its]
    rounds = [it.get("round") for it in its]
    return values, (rounds if rounds and all(isinstance(r, int) for r in rounds) else None)  # Q3


def near(a, b):
    return abs(a - b) <= max(REL_TOL * abs(b), ABS_TOL)


class Check:
    def __init__(self, label):
        self.label, self.bad, self.count = label, [], 0

    def num(self, where, got, want):
        self.count += 1
        if not isinstance(got, (int, float)) or isinstance(got, bool) or not near(got, want):
            self.bad.append(f"{self.label}: {where}: report has {got!r}, expected {want!r}")

    def estimate(self, where, got, value, se):
        if not isinstance(got, dict):
            self.count += 1
            self.bad.append(f"{self.label}: {where}: not an estimate: {got!r}")
            return
        self.num(f"{where}.value_ns", got.get("value_ns"), value)
        self.num(f"{where}.se_ns", got.get("se_ns"), se)
        if se == 0:
            want = value != 0
        elif abs(abs(value) - Z95 * se) <= 1e-6:  # Q2
            return
        else:
            want = abs(value) > Z95 * se
        self.count += 1
        if got.get("significant") is not want:
            self.bad.append(f"{self.label}: {where}.significant: report has {got.get('significant')!r}, expected {want}")


def check(rep, label):
    ck = Check(label)
    paths = {p["name"]: p for p in rep.get("paths") or []}
    for k, r in enumerate(rep.get("ratios") or []):
        slow, fast = paths[r["slower"]], paths[r["faster"]]
        gap, se = difference(*wall(slow), *wall(fast))
        mf = median(fast["samples_ns"])
        ck.num(f"ratios[{k}].low", r.get("low"), 1 + (gap - Z95 * se) / mf)
        ck.num(f"ratios[{k}].high", r.get("high"), 1 + (gap + Z95 * se) / mf)
        ck.count += 1
        want = (gap != 0) if se == 0 else abs(gap) > Z95 * se
        if abs(abs(gap) - Z95 * se) > 1e-6 and r.get("significant") is not want:
            ck.bad.append(f"{label}: ratios[{k}].significant: report has {r.get('significant')!r}, expected {want}")
    for k, x in enumerate(rep.get("explanations") or []):
        if not x.get("measured"):
            continue
        w = f"explanations[{k}] ({x['slower']} vs {x['faster']})"
        a, b = paths[x["slower"]], paths[x["faster"]]
        ck.estimate(f"{w}.gap", x.get("gap"), *difference(*wall(a), *wall(b)))
        for j, layer in enumerate(x.get("layers") or []):
            ck.estimate(f"{w}.layers[{j}] ({layer['layer']} of {layer['path']})", layer.get("estimate"),
                        *difference(*wall(paths[layer["upper"]]), *wall(paths[layer["lower"]])))
        fa, fb = paths[x["floor_slower"]], paths[x["floor_faster"]]
        same = x["floor_slower"] == x["floor_faster"]
        floor_gap = (0.0, 0.0) if same else difference(*wall(fa), *wall(fb))
        ck.estimate(f"{w}.floor_gap", x.get("floor_gap"), *floor_gap)
        for j, rm in enumerate(x.get("remedies") or []):
            ck.estimate(f"{w}.remedies[{j}] ({rm['path']})", rm.get("saved"), *difference(*wall(a), *wall(paths[rm["path"]])))
        if x.get("kernels") is None:
            continue
        kern = difference(*busy(a), *busy(b))
        ck.estimate(f"{w}.kernels", x.get("kernels"), *kern)
        if same:
            wrapper = (0.0, 0.0)
        else:
            floors = difference(*busy(fa), *busy(fb))
            wrapper = (floor_gap[0] - floors[0], math.hypot(floor_gap[1], floors[1]))
        ck.estimate(f"{w}.wrapper", x.get("wrapper"), *wrapper)
        drift = lambda path, floor: (0.0, 0.0) if path is floor else difference(*busy(floor), *busy(path))  # noqa: E731
        residual_se = math.hypot(drift(a, fa)[1], drift(b, fb)[1])
        ck.estimate(f"{w}.residual", x.get("residual"), floor_gap[0] - kern[0] - wrapper[0], residual_se)
    return ck


def self_test():
    # by hand (docs/metrics.md, "Spread of a difference"): a = 10 10 | 30 30 | 20 20, b = 20 20 | 10 10 | 50 50;
    # block medians 10 30 20 and 20 10 50, d = -10 20 -30, median -10, MAD 20: paired se K * 20 / sqrt(3) =
    # 21.4562244; independent: MAD 10 each over 6 values, hypot(K * 10 / sqrt(6), same) = 10.7281122.
    a, b, r = [10, 10, 30, 30, 20, 20], [20, 20, 10, 10, 50, 50], [0, 0, 1, 1, 2, 2]
    assert abs(paired_se(a, r, b, r) - 21.4562244) < 1e-6
    assert difference(a, r, b, r) == (0, paired_se(a, r, b, r))
    assert abs(difference(a, None, b, r)[1] - 10.7281122) < 1e-6
    assert paired_se(a, r, b, [0, 0, 7, 7, 8, 8]) is None  # one common round
    # A report: compile's samples c = a + 100 (median 120) against eager's b (median 20): gap 100; paired
    # d = 90 120 70, median 90, MAD 20: se 21.4562244 > independent 10.7281122, so the ratio's
    # low = 1 + (100 - 1.96 * 21.4562244) / 20 = 3.8972900 and high = 1 + (100 + 1.96 * 21.4562244) / 20.
    c = [x + 100 for x in a]
    rep = {"paths": [{"name": "compile", "samples_ns": c, "sample_rounds": r},
                     {"name": "eager", "samples_ns": b, "sample_rounds": r}],
           "ratios": [{"faster": "eager", "slower": "compile", "significant": True,
                       "low": 1 + (100 - Z95 * 21.456224400161750) / 20, "high": 1 + (100 + Z95 * 21.456224400161750) / 20}],
           "explanations": [{"measured": True, "slower": "compile", "faster": "eager", "floor_slower": "compile",
                             "floor_faster": "eager", "layers": [], "remedies": [], "kernels": None,
                             "gap": {"value_ns": 100.0, "se_ns": 21.456224400161750, "significant": True},
                             "floor_gap": {"value_ns": 100.0, "se_ns": 21.456224400161750, "significant": True}}]}
    assert abs(rep["ratios"][0]["low"] - 3.8972900) < 1e-6
    ck = check(rep, "hand-worked")
    assert not ck.bad, ck.bad
    caught = 0
    for what, change in (
            ("the independent se", lambda x: x["explanations"][0]["gap"].update(se_ns=10.728112200080876)),
            ("rounds ignored in the ratio", lambda x: x["ratios"][0].update(low=1 + (100 - Z95 * 10.728112200080876) / 20)),
            ("a wrong significance", lambda x: x["explanations"][0]["floor_gap"].update(significant=False))):
        bad = json.loads(json.dumps(rep))
        change(bad)
        if check(bad, what).bad:
            caught += 1
        else:
            print(f"self-test FAILED: {what} not caught")
            return 1
    print(f"self-test: ok ({ck.count} fields by hand, {caught} corruptions caught)")
    return 0


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if len(argv) < 2 or argv[0] != "--check":
        print(__doc__.split("Usage:")[1].split("Exit status")[0].strip(), file=sys.stderr)
        return 2
    bad, total = [], 0
    for path in argv[1:]:
        try:
            rep = load(path)
        except (OSError, ValueError) as e:
            print(f"{path}: cannot read: {e}", file=sys.stderr)
            return 2
        ck = check(rep, path)
        bad += ck.bad
        total += ck.count
        print(f"{path}: {'ok' if not ck.bad else 'MISMATCH'}: {ck.count} figures checked")
    for line in bad:
        print(line)
    if bad or total == 0:
        print("FAILED" if bad else "nothing to check")
        return 1
    print(f"OK: {total} figures in {len(argv) - 1} report(s) match the docs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
