#!/usr/bin/env python3
"""Independent reference numbers for `ohprof analyze` on Kineto (PyTorch profiler) traces.

Recomputes, from the trace JSON alone and with the Python standard library only (json, gzip,
decimal), what test/trace_reference_numbers.hpp pins for each trace (used by trace_validation_test.cpp
and cupti_replay_test.cpp):

  * counts of GPU operations (kernel / memcpy / memset) and of the launch calls linked to them,
    per (device, stream);
  * GPU busy time (length of the union of op intervals) per stream over the whole trace;
  * per iteration window, for all streams together and per stream: busy, head, host-bound gaps,
    other gaps, tail and spill, as defined in docs/metrics.md ("Per iteration") and docs/analyze.md
    (how a trace's windows are found).

It shares no code with ohprof (C++) and is written from the definitions in the docs, so the test
compares two independent computations. Timestamps are converted from the JSON text with
decimal.Decimal (parse_float), never through binary floating point.

Usage:
  test/tools/trace_reference.py TRACE.json[.gz] ...            # human-readable
  test/tools/trace_reference.py --cpp TRACE.json[.gz] ...      # C++ initialisers for the test
"""

import argparse
import gzip
import json
import os
import sys
from decimal import Decimal, ROUND_HALF_UP

GPU_CATEGORIES = {"kernel": "kernel", "gpu_memcpy": "memcpy", "gpu_memset": "memset"}
KERNEL_LAUNCH_NAMES = {
    "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
    "cudaLaunchCooperativeKernel", "cuLaunchCooperativeKernel",
    "cudaLaunchCooperativeKernelMultiDevice", "cuLaunchCooperativeKernelMultiDevice",
    "cudaGraphLaunch", "cuGraphLaunch",
    # HIP (ROCm): Kineto files these under cuda_runtime as well
    "hipLaunchKernel", "hipLaunchKernelExC", "hipModuleLaunchKernel", "hipDrvLaunchKernelEx",
    "hipExtLaunchKernel", "hipExtModuleLaunchKernel", "hipHccModuleLaunchKernel", "hipLaunchByPtr",
    "hipLaunchCooperativeKernel", "hipModuleLaunchCooperativeKernel",
    "hipLaunchCooperativeKernelMultiDevice", "hipModuleLaunchCooperativeKernelMultiDevice",
    "hipExtLaunchMultiKernelMultiDevice", "hipGraphLaunch",
}
COPY_PREFIXES = ("cudaMemcpy", "cuMemcpy", "hipMemcpy", "cudaMemset", "cuMemset", "hipMemset")
SYNC_NAMES = {
    "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
    "cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize",
    "hipDeviceSynchronize", "hipStreamSynchronize", "hipEventSynchronize", "hipCtxSynchronize",
}


def us_to_ns(value):
    """Microseconds (int, or Decimal parsed from the JSON text) -> integer ns, halves away from 0."""
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        return None
    return int((Decimal(value) * 1000).to_integral_value(rounding=ROUND_HALF_UP))


def strip_suffixes(name):
    for suffix in ("_ptsz", "_ptds", "_spt"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    head, sep, tail = name.rpartition("_v")
    if sep and tail.isdigit():
        name = head
    return name


def is_launch(name):
    base = strip_suffixes(name)
    return base in KERNEL_LAUNCH_NAMES or base.startswith(COPY_PREFIXES)


def load_events(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        data = json.load(f, parse_float=Decimal)
    return data["traceEvents"] if isinstance(data, dict) else data


def read_trace(path):
    events = load_events(path)
    ops, launches, syncs, steps = [], [], [], []
    span_hi = None
    for e in events:
        if not isinstance(e, dict):
            continue
        cat, name, ph, args = e.get("cat"), e.get("name", ""), e.get("ph"), e.get("args") or {}
        ts, dur = us_to_ns(e.get("ts")), us_to_ns(e.get("dur"))
        step = cat == "user_annotation" and isinstance(name, str) and name.startswith("ProfilerStep#")
        if ts is not None and not step:
            end = ts + dur if (ph == "X" and dur is not None and dur > 0) else ts
            span_hi = end if span_hi is None else max(span_hi, end)
        if ph != "X" or ts is None or dur is None or dur < 0:
            continue
        if cat in GPU_CATEGORIES:
            stream, device = args.get("stream"), args.get("device")
            if (not isinstance(stream, int) or isinstance(stream, bool) or stream < 0
                    or not isinstance(device, int) or isinstance(device, bool) or device < 0):
                continue
            corr = args.get("correlation")
            ops.append({"kind": GPU_CATEGORIES[cat], "start": ts, "end": ts + dur, "device": args["device"],
                        "stream": args["stream"], "corr": corr if isinstance(corr, int) and corr > 0 else None})
        elif cat in ("cuda_runtime", "cuda_driver"):
            if is_launch(name) and isinstance(args.get("correlation"), int):
                launches.append({"start": ts, "end": ts + dur, "corr": args["correlation"]})
            elif strip_suffixes(name) in SYNC_NAMES:
                syncs.append({"start": ts, "end": ts + dur})
        elif step and name[len("ProfilerStep#"):].isdigit():
            steps.append({"index": int(name[len("ProfilerStep#"):]), "start": ts, "end": ts + dur})

    if steps:
        # docs/analyze.md: a ProfilerStep window ends no later than the last event of the trace.
        windows = []
        for s in sorted(steps, key=lambda w: w["start"]):
            end = s["end"] if s["end"] <= span_hi else max(s["start"], span_hi)
            windows.append({"index": s["index"], "start": s["start"], "end": end})
    else:
        # One window over all CUDA activity: ops, launch calls and sync calls.
        starts = [x["start"] for x in ops + launches + syncs]
        ends = [x["end"] for x in ops + launches + syncs]
        windows = [{"index": 0, "start": min(starts), "end": max(ends)}]
    return ops, launches, windows


def window_of_time(windows, t):
    """Half-open: the window with the greatest start <= t, if t < its end."""
    best = None
    for pos, w in enumerate(windows):
        if w["start"] <= t:
            best = pos
    if best is None or t >= windows[best]["end"]:
        return None
    return best


def split(ops, lo, hi):
    """Busy/idle split of `ops` (each with start, end, launch_start) in the window [lo, hi]."""
    clipped = []
    for op in ops:
        s, e = max(op["start"], lo), min(op["end"], hi)
        if e > s:
            clipped.append((s, e, op))
    clipped.sort(key=lambda c: (c[0], c[1]))
    merged = []  # [start, end]
    for s, e, _ in clipped:
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    wall = hi - lo
    busy = sum(e - s for s, e in merged)
    out = {"busy": busy, "head": wall, "host_bound": 0, "other": 0, "tail": 0}
    if merged:
        out["head"] = merged[0][0] - lo
        out["tail"] = hi - merged[-1][1]
        for prev, nxt in zip(merged, merged[1:]):
            gap = nxt[0] - prev[1]
            starters = [op for s, e, op in clipped if s == nxt[0]]
            host = all(op["launch_start"] is not None and op["launch_start"] >= prev[1] for op in starters)
            out["host_bound" if host else "other"] += gap
    raw = sorted((op["start"], op["end"]) for op in ops if op["end"] > op["start"])
    raw_union, cur = 0, None
    for s, e in raw:
        if cur and s <= cur[1]:
            cur[1] = max(cur[1], e)
        else:
            if cur:
                raw_union += cur[1] - cur[0]
            cur = [s, e]
    if cur:
        raw_union += cur[1] - cur[0]
    out["spill"] = raw_union - busy
    assert out["head"] + out["host_bound"] + out["other"] + out["tail"] + busy == wall
    return out


def union_length(intervals):
    total, cur = 0, None
    for s, e in sorted(intervals):
        if cur and s <= cur[1]:
            cur[1] = max(cur[1], e)
        else:
            if cur:
                total += cur[1] - cur[0]
            cur = [s, e]
    return total + (cur[1] - cur[0] if cur else 0)


def analyse(path):
    ops, launches, windows = read_trace(path)
    # The launch call ops join to: earliest start per correlation.
    launch_of = {}
    for call in sorted(launches, key=lambda c: c["start"]):
        launch_of.setdefault(call["corr"], call)

    streams = {}
    for op in ops:
        key = (op["device"], op["stream"])
        st = streams.setdefault(key, {"kernel": 0, "memcpy": 0, "memset": 0, "launch_corrs": set(),
                                      "without_launch": 0, "intervals": []})
        st[op["kind"]] += 1
        st["intervals"].append((op["start"], op["end"]))
        call = launch_of.get(op["corr"])
        if call is None:
            st["without_launch"] += 1
        else:
            st["launch_corrs"].add(op["corr"])

    # Attribute ops to windows through their launch call (or their own start without one).
    for op in ops:
        call = launch_of.get(op["corr"])
        op["launch_start"] = call["start"] if call else None
        op["window"] = window_of_time(windows, call["start"] if call else op["start"])

    result = {"trace": os.path.basename(path), "ops": len(ops), "launches": len(launches),
              "streams": [], "windows": []}
    for key in sorted(streams):
        st = streams[key]
        result["streams"].append({
            "device": key[0], "stream": key[1], "kernels": st["kernel"], "memcpys": st["memcpy"],
            "memsets": st["memset"], "launches": len(st["launch_corrs"]),
            "without_launch": st["without_launch"], "busy": union_length(st["intervals"])})
    used_streams = sorted({(op["device"], op["stream"]) for op in ops if op["window"] is not None})
    for pos, w in enumerate(windows):
        mine = [op for op in ops if op["window"] == pos]
        entry = {"index": w["index"], "start": w["start"], "end": w["end"], "ops": len(mine),
                 "gpu": split(mine, w["start"], w["end"]), "streams": []}
        for key in used_streams:
            part = [op for op in mine if (op["device"], op["stream"]) == key]
            entry["streams"].append({"device": key[0], "stream": key[1], **split(part, w["start"], w["end"])})
        result["windows"].append(entry)
    return result


def print_text(r):
    print(f"{r['trace']}: {r['ops']} GPU ops, {r['launches']} launch calls")
    for s in r["streams"]:
        print(f"  device {s['device']} stream {s['stream']}: {s['kernels']} kernels, {s['memcpys']} memcpy, "
              f"{s['memsets']} memset, {s['launches']} launches linked, {s['without_launch']} without launch, "
              f"busy {s['busy']} ns")
    for w in r["windows"]:
        g = w["gpu"]
        print(f"  window {w['index']} [{w['start']}, {w['end']}] wall {w['end'] - w['start']} ns, {w['ops']} ops: "
              f"busy {g['busy']} head {g['head']} host_bound {g['host_bound']} other {g['other']} "
              f"tail {g['tail']} spill {g['spill']}")
        for s in w["streams"]:
            print(f"    stream {s['device']}:{s['stream']}: busy {s['busy']} head {s['head']} "
                  f"host_bound {s['host_bound']} other {s['other']} tail {s['tail']} spill {s['spill']}")


def split_cpp(s):
    return f"{{{s['busy']}, {s['head']}, {s['host_bound']}, {s['other']}, {s['tail']}, {s['spill']}}}"


def cpp_text(r):
    out = [f"    // {r['trace']} (generated by test/tools/trace_reference.py --cpp)",
           f"    {{\"{r['trace']}\", {r['ops']}, {r['launches']},",
           "     {"]
    for s in r["streams"]:
        out.append(f"         {{{s['device']}, {s['stream']}, {s['kernels']}, {s['memcpys']}, {s['memsets']}, "
                   f"{s['launches']}, {s['without_launch']}, {s['busy']}}},")
    out += ["     },", "     {"]
    for w in r["windows"]:
        out.append(f"         {{{w['index']}, {w['start']}, {w['end']}, {w['ops']}, {split_cpp(w['gpu'])},")
        out.append("          {" + ", ".join(f"{{{s['device']}, {s['stream']}, {split_cpp(s)}}}"
                                            for s in w["streams"]) + "}},")
    out.append("     }},")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("traces", nargs="+")
    parser.add_argument("--cpp", action="store_true", help="print C++ initialisers for trace_reference_numbers.hpp")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.add_argument("--check", metavar="CPP_FILE",
                        help="exit 1 unless CPP_FILE contains the --cpp text of every trace verbatim")
    args = parser.parse_args()
    results = [analyse(path) for path in args.traces]
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            pinned = f.read()
        stale = [r["trace"] for r in results if cpp_text(r) not in pinned]
        if stale:
            print(f"{args.check}: the pinned numbers of {', '.join(stale)} differ from this script's; "
                  f"regenerate them with --cpp", file=sys.stderr)
            return 1
        print(f"{args.check}: pinned numbers match for {len(results)} traces")
        return 0
    for r in results:
        if args.cpp:
            sys.stdout.write(cpp_text(r))
        elif args.json:
            print(json.dumps(r, indent=1))
        else:
            print_text(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
