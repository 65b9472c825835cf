#!/usr/bin/env python3
"""The peer `ohprof diff` is timed against (docs/results/cpu-diff-2026-12-01.md): what a user would
write with numpy to get the same intervals, a naive percentile bootstrap of the ratio of medians per
path (each report's samples resampled at their own size, 10,000 times, in batches of 500 to bound
memory), reading the same two gzip reports with the standard json module.

    diff_numpy_peer.py BASE.json.gz NEW.json.gz [--resamples 10000]
"""
import argparse
import gzip
import json

import numpy as np


def load(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        report = json.load(f)
    return {p["name"]: np.asarray(p["samples_ns"], dtype=float) for p in report["paths"] if p.get("role", "path") == "path"}


def resampled_medians(rng, x, count, batch=500):
    out = []
    for start in range(0, count, batch):
        n = min(batch, count - start)
        out.append(np.median(x[rng.integers(0, len(x), size=(n, len(x)))], axis=1))
    return np.concatenate(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--resamples", type=int, default=10000)
    args = ap.parse_args()
    base, new = load(args.base), load(args.new)
    rng = np.random.default_rng(0)
    for name in base:
        if name not in new:
            continue
        ratio = np.median(new[name]) / np.median(base[name])
        boot = resampled_medians(rng, new[name], args.resamples) / resampled_medians(rng, base[name], args.resamples)
        low, high = np.quantile(boot, [0.025, 0.975])
        print(f"{name}: {100 * (ratio - 1):+.1f}% [{100 * (low - 1):+.1f}%, {100 * (high - 1):+.1f}%]")


if __name__ == "__main__":
    main()
