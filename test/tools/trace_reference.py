#!/usr/bin/env python3
"""Independent reference numbers for `ohprof analyze` on Kineto (PyTorch profiler) traces.

Recomputes, from the trace JSON alone and with the Python standard library only (json, gzip,
decimal), what test/trace/trace_reference_numbers.hpp pins for each trace (used by
trace_validation_test.cpp and cupti_replay_test.cpp):

  * what the reader keeps (docs/analyze.md, "What is read", "How iterations are found"): device ops,
    launch calls, sync calls, API calls (every other cuda_runtime / cuda_driver call), the windows;
    counts of ops (kernel / memcpy / memset) and of the launch calls linked to them per
    (device, stream), and each stream's busy time over the whole trace;
  * per window (docs/metrics.md, "Per iteration"): the device timeline by time, all streams and per
    stream (busy, idle, host-bound, device-wait, the launch queue's integral and maximum, own ops,
    own busy, carried out, communication, and per stream the waited time), the largest queue depth of one device,
    the host states of the host-bound time (blocking, launch, other API, harness, framework), and
    the host side (launch API, exposed, hidden, blocking, blocking calls, other API, launches, queue
    delays);
  * the totals over the windows and the verdict with its evidence (docs/metrics.md, "Verdict"); the
    communication share is pinned as the two totals it is the quotient of.

It shares no code with ohprof (C++) and is written from the definitions in the docs, so the tests
compare two independent computations. Timestamps are converted from the JSON text with
decimal.Decimal (parse_float), never through binary floating point. Every window is one sweep over
the sorted interval ends (no quadratic loops): the whole set of traces takes a few seconds.

Usage:
  test/tools/trace_reference.py TRACE.json[.gz] ...            # human-readable
  test/tools/trace_reference.py --cpp TRACE.json[.gz] ...      # C++ initialisers for the test
  test/tools/trace_reference.py --check FILE TRACE...          # exit 1 unless FILE holds the --cpp text
  test/tools/trace_reference.py --window START_NS END_NS [--json] TRACE...
      # one window [START_NS, END_NS) (trace time in ns) instead of the trace's own (not a whole-recording
      # window); used by tools/hta-compare to evaluate these definitions over another tool's span
"""

import argparse
import bisect
import itertools
import gzip
import json
import math
import os
import re
import sys
from decimal import Decimal, ROUND_HALF_UP

# docs/analyze.md, "What is read": an older PyTorch's capitalised names are the same categories.
GPU_CATEGORIES = {"kernel": "kernel", "gpu_memcpy": "memcpy", "gpu_memset": "memset",
                  "Kernel": "kernel", "Memcpy": "memcpy", "Memset": "memset"}
RUNTIME_CATEGORIES = {"cuda_runtime", "cuda_driver", "Runtime", "xpu_runtime"}
# docs/analyze.md, "What is read": device-side categories the split does not read; counted, and with no
# busy time the verdict is unknown (unread_device_events), not "no device work".
UNREAD_DEVICE_CATEGORIES = {"cuda_profiler_range", "hpu_op"}
# MTIA: device events by name (every other name is a kernel), runtime calls by name.
MTIA_DEVICE = {"dma_request": "memcpy", "event_record": None, "event_wait": None}


def mtia_runtime_kind(name):
    """docs/analyze.md: launch (kernel / memcpy), sync, api, or None (a stage of the runtime: not read)."""
    if name.startswith("runFunction"):
        return "kernel"
    if name.startswith("enqueueCommand memcpy"):
        return "memcpy"
    if name in ("synchronize", "synchronizeStream"):
        return "sync"
    if name.startswith("enqueueCommand") or name == "recordEvent":
        return "api"
    return None
# docs/analyze.md, "What is read" (and its ROCm paragraph): launch calls by name, after the suffixes go.
KERNEL_LAUNCH_NAMES = {
    "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
    "cudaLaunchCooperativeKernel", "cuLaunchCooperativeKernel",
    "cudaLaunchCooperativeKernelMultiDevice", "cuLaunchCooperativeKernelMultiDevice",
    "hipLaunchKernel", "hipLaunchKernelExC", "hipModuleLaunchKernel", "hipDrvLaunchKernelEx",
    "hipExtLaunchKernel", "hipExtModuleLaunchKernel", "hipHccModuleLaunchKernel", "hipLaunchByPtr",
    "hipLaunchCooperativeKernel", "hipModuleLaunchCooperativeKernel",
    "hipLaunchCooperativeKernelMultiDevice", "hipModuleLaunchCooperativeKernelMultiDevice",
    "hipExtLaunchMultiKernelMultiDevice",
    # Intel XPU (docs/analyze.md, "XPU traces")
    "urEnqueueKernelLaunch", "urEnqueueKernelLaunchExp", "urEnqueueKernelLaunchCustomExp",
    "urEnqueueCooperativeKernelLaunchExp", "urEnqueueKernelLaunchWithArgsExp", "piEnqueueKernelLaunch",
    "piextEnqueueKernelLaunchCustom", "piextEnqueueCooperativeKernelLaunch",
}
XPU_COPIES = {"urEnqueueUSMMemcpy", "urEnqueueUSMMemcpy2D", "piextUSMEnqueueMemcpy", "piextUSMEnqueueMemcpy2D"}
XPU_FILLS = {"urEnqueueUSMFill", "urEnqueueUSMFill2D", "piextUSMEnqueueFill", "piextUSMEnqueueFill2D",
             "piextUSMEnqueueMemset", "piextUSMEnqueueMemset2D"}
GRAPH_LAUNCH_NAMES = {"cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch"}
MEMCPY_PREFIXES = ("cudaMemcpy", "cuMemcpy", "hipMemcpy")
MEMSET_PREFIXES = ("cudaMemset", "cuMemset", "hipMemset")
SYNC_NAMES = {
    "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
    "cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize",
    "hipDeviceSynchronize", "hipStreamSynchronize", "hipEventSynchronize", "hipCtxSynchronize",
    "urQueueFinish", "urEventWait", "piQueueFinish", "piEventsWait",
}
FULL_LAUNCH_QUEUE = 1000  # kFullLaunchQueue
SLOW_LAUNCH_NS = 100_000  # kSlowLaunchNs: a longer kernel/graph launch call is other_api in the host states
# docs/metrics.md, "Inputs": a communication op is a kernel whose name starts with this (NCCL's, RCCL's).
COMMUNICATION_PREFIX = "nccl"
MANGLED_PREFIX = re.compile(r"^_ZN?[0-9]*")  # an Itanium-mangled name: _Z<length>, _ZN<length>


def is_communication(name):
    """docs/metrics.md: a kernel whose name starts with "nccl", demangled or mangled."""
    return MANGLED_PREFIX.sub("", name, count=1).startswith(COMMUNICATION_PREFIX)
SHARES = ("busy", "host_bound", "device_wait")  # tie order of `first` / `second`
# Precedence of the host states, and the tie order of the verdict's `host_state`.
HOST_STATES = ("blocking", "launch", "other_api", "harness", "framework")


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


def launch_kind(name):
    """The kind of launch call `name` is, or None when it is not one."""
    base = strip_suffixes(name)
    if base in KERNEL_LAUNCH_NAMES:
        return "kernel"
    if base in GRAPH_LAUNCH_NAMES:
        return "graph"
    if base in XPU_COPIES:
        return "memcpy"
    if base in XPU_FILLS:
        return "memset"
    if base.startswith(MEMCPY_PREFIXES):
        return "memcpy"
    if base.startswith(MEMSET_PREFIXES):
        return "memset"
    return None


def load_events(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        data = json.load(f, parse_float=Decimal)
    return data["traceEvents"] if isinstance(data, dict) else data


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def read_trace(path, window=None):
    """The records the reader keeps and the windows it finds (docs/analyze.md); `window`, a
    (start_ns, end_ns) pair, replaces those windows with that one (--window)."""
    ops, launches, syncs, apis, steps = [], [], [], [], []
    span_lo = span_hi = None
    unread = {}
    flow_ends = {}  # (pid, tid, ts) of an ac2g flow's finish -> its id
    for e in load_events(path):
        if not isinstance(e, dict):
            continue
        cat, name, ph, args = e.get("cat"), e.get("name", ""), e.get("ph"), e.get("args") or {}
        if cat in UNREAD_DEVICE_CATEGORIES:
            unread[cat] = unread.get(cat, 0) + 1
        if cat == "ac2g" and ph == "f" and is_int(e.get("id")) and e["id"] > 0 and us_to_ns(e.get("ts")) is not None:
            flow_ends.setdefault((e.get("pid"), e.get("tid"), us_to_ns(e.get("ts"))), e["id"])
        ts, dur = us_to_ns(e.get("ts")), us_to_ns(e.get("dur"))
        step = cat == "user_annotation" and isinstance(name, str) and name.startswith("ProfilerStep#")
        if ts is not None and not step and ph != "M":  # metadata carries no time (MTIA's is at ts 0)
            end = ts + dur if (ph == "X" and dur is not None and dur > 0) else ts
            span_hi = end if span_hi is None else max(span_hi, end)
            span_lo = ts if span_lo is None else min(span_lo, ts)
        if ph != "X" or ts is None or dur is None or dur < 0:
            continue
        if cat == "mtia_ccp_events" and MTIA_DEVICE.get(name, "kernel"):
            stream = args.get("stream")
            device = args.get("device", e.get("pid"))
            if not is_int(stream) or stream < 0 or not is_int(device) or device < 0:
                continue
            corr = args.get("correlation")
            ops.append({"kind": MTIA_DEVICE.get(name, "kernel"), "start": ts, "end": ts + dur, "device": device,
                        "stream": stream, "corr": corr if is_int(corr) and corr > 0 else 0,
                        "communication": False, "flow_key": (e.get("pid"), e.get("tid"), ts)})
        elif cat == "mtia_runtime" and isinstance(name, str) and mtia_runtime_kind(name):
            kind = mtia_runtime_kind(name)
            call = {"start": ts, "end": ts + dur, "tid": e.get("tid"), "name": name, "harness": False}
            if kind == "sync":
                syncs.append(call)
            elif kind == "api":
                apis.append(call)
            elif is_int(args.get("correlation")):
                call.update(kind=kind, corr=args["correlation"])
                launches.append(call)
        elif cat in GPU_CATEGORIES:
            stream, device = args.get("stream"), args.get("device")
            if not is_int(stream) or stream < 0 or not is_int(device) or device < 0:
                continue
            corr = args.get("correlation")
            kind = GPU_CATEGORIES[cat]
            ops.append({"kind": kind, "start": ts, "end": ts + dur, "device": device,
                        "stream": stream, "corr": corr if is_int(corr) and corr > 0 else 0,
                        "communication": kind == "kernel" and isinstance(name, str)
                        and is_communication(name)})
        elif cat in RUNTIME_CATEGORIES and isinstance(name, str):
            call = {"start": ts, "end": ts + dur, "tid": e.get("tid"), "name": name, "harness": False}
            kind = launch_kind(name)
            if kind is not None:
                if is_int(args.get("correlation")):
                    call.update(kind=kind, corr=args["correlation"])
                    launches.append(call)
            elif strip_suffixes(name) in SYNC_NAMES:
                syncs.append(call)
            else:
                apis.append(call)
        elif step and name[len("ProfilerStep#"):].isdigit():
            steps.append({"index": int(name[len("ProfilerStep#"):]), "start": ts, "end": ts + dur})

    # An MTIA op without a correlation takes the id of the ac2g flow that finishes on it.
    for op in ops:
        key = op.pop("flow_key", None)
        if key is not None and op["corr"] == 0:
            op["corr"] = flow_ends.get(key, 0)
    whole = not steps
    if steps:
        # A ProfilerStep window ends no later than the last event of the trace.
        windows = []
        for s in sorted(steps, key=lambda w: w["start"]):
            end = s["end"] if span_hi is None or s["end"] <= span_hi else max(s["start"], span_hi)
            windows.append({"index": s["index"], "start": s["start"], "end": end})
    else:
        # One window over all CUDA activity the reader kept: ops, launch calls and sync calls.
        records = ops + launches + syncs
        windows = []
        if records:
            windows = [{"index": 0, "start": min(x["start"] for x in records),
                        "end": max(x["end"] for x in records)}]
        elif span_lo is not None:  # with none of those, the whole recording
            windows = [{"index": 0, "start": span_lo, "end": span_hi}]
    if window is not None:
        windows, whole = [{"index": 0, "start": window[0], "end": window[1]}], False
    return {"ops": ops, "launches": launches, "syncs": syncs, "apis": apis, "windows": windows,
            "whole": whole, "unread": unread}


def union_length(intervals):
    total, lo, hi = 0, None, None
    for s, e in sorted(intervals):
        if hi is not None and s <= hi:
            hi = max(hi, e)
            continue
        if hi is not None:
            total += hi - lo
        lo, hi = s, e
    return total + (hi - lo if hi is not None else 0)


def clip(s, e, lo, hi):
    s, e = max(s, lo), min(e, hi)
    return (s, e) if e > s else None


def sweep(layers, lo, hi, visit):
    """Calls visit(d, counts) for every stretch of [lo, hi) of length d > 0 over which no layer's
    count changes; counts[k] is the number of intervals of layer k open there. `layers` is a list of
    interval lists [(start, end)], each interval half-open and clipped to [lo, hi)."""
    events = []
    for k, intervals in enumerate(layers):
        for s, e in intervals:
            events.append((s, k, 1))
            events.append((e, k, -1))
    events.sort()
    counts = [0] * len(layers)
    t, i = lo, 0
    while True:
        nxt = events[i][0] if i < len(events) else hi
        if nxt > t:
            visit(nxt - t, counts)
            t = nxt
        if i >= len(events):
            break
        while i < len(events) and events[i][0] == nxt:
            counts[events[i][1]] += events[i][2]
            i += 1


def device_split(ops, lo, hi, window):
    """DeviceSplit of `ops` (one set of streams) in [lo, hi): docs/metrics.md, "Device timeline"."""
    pending = [c for c in (clip(op["pending"], op["end"], lo, hi) for op in ops) if c]
    running = [c for c in (clip(op["start"], op["end"], lo, hi) for op in ops) if c]
    acc = {"busy": 0, "host_bound": 0, "device_wait": 0, "queue_ns": 0, "queue_max": 0}

    def visit(d, counts):
        p, r = counts
        acc["busy" if r else "device_wait" if p else "host_bound"] += d
        acc["queue_ns"] += p * d
        acc["queue_max"] = max(acc["queue_max"], p)

    sweep([pending, running], lo, hi, visit)
    own = [op for op in ops if op["window"] == window]
    own_busy = union_length([c for c in (clip(op["start"], op["end"], lo, hi) for op in own) if c])
    own_all = union_length([(op["start"], op["end"]) for op in own if op["end"] > op["start"]])
    # The part of the busy time during which a communication op runs: the union of their running
    # intervals (each one inside the busy time).
    communication = union_length([c for c in (clip(op["start"], op["end"], lo, hi) for op in ops
                                              if op["communication"]) if c])
    wall = hi - lo
    out = {"busy": acc["busy"], "idle": wall - acc["busy"], "host_bound": acc["host_bound"],
           "device_wait": acc["device_wait"], "queue_ns": acc["queue_ns"], "queue_max": acc["queue_max"],
           "ops": len(running), "own_ops": len(own), "own_busy": own_busy, "carried_out": own_all - own_busy,
           "communication": communication}
    assert out["communication"] <= out["busy"]
    assert out["busy"] + out["host_bound"] + out["device_wait"] == wall
    assert out["busy"] == union_length(running)
    return out


def analyse(path, window=None):
    t = read_trace(path, window)
    ops, launches, syncs, apis = t["ops"], t["launches"], t["syncs"], t["apis"]
    counters = {"ops_without_timestamps": 0, "ops_invalid_interval": 0, "ops_without_launch": 0,
                "ops_outside_iterations": 0, "launches_outside_iterations": 0,
                "duplicate_launch_correlations": 0, "invalid_windows": 0}

    # 1. Windows: skip end < start, sort by (start, end) (stable).
    windows = []
    for w in t["windows"]:
        if w["end"] < w["start"]:
            counters["invalid_windows"] += 1
        else:
            windows.append(w)
    windows.sort(key=lambda w: (w["start"], w["end"]))
    starts = [w["start"] for w in windows]

    def window_at(time):
        pos = bisect.bisect_right(starts, time) - 1  # the last window in that order with start <= time
        return pos if pos >= 0 and time < windows[pos]["end"] else None

    # 2. Launch calls: by start time (traces carry no iteration); the one ops join to per correlation.
    launch_of = {}
    for call in launches:
        call["window"] = window_at(call["start"])
        if call["window"] is None:
            counters["launches_outside_iterations"] += 1
    for call in sorted(launches, key=lambda c: c["start"]):
        if call["corr"] in launch_of:
            counters["duplicate_launch_correlations"] += 1
        else:
            launch_of[call["corr"]] = call
    min_launch_corr = min((c["corr"] for c in launches), default=None)

    # 3. Device ops: timed ones, their launch call and own window.
    timed = []
    for op in ops:
        if op["start"] == 0 and op["end"] == 0:
            counters["ops_without_timestamps"] += 1
            continue
        if op["end"] < op["start"]:
            counters["ops_invalid_interval"] += 1
            continue
        op["launch"] = launch_of.get(op["corr"])
        if op["launch"] is None:
            counters["ops_without_launch"] += 1
        op["window"] = op["launch"]["window"] if op["launch"] is not None else window_at(op["start"])
        if op["window"] is None:
            counters["ops_outside_iterations"] += 1
        timed.append(op)

    # 4. Blocking launch calls.
    first_op = {}  # id(launch call) -> its timed op that starts first
    for op in timed:
        if op["launch"] is not None:
            cur = first_op.get(id(op["launch"]))
            if cur is None or op["start"] < cur["start"]:
                first_op[id(op["launch"])] = op
    for call in launches:
        op = first_op.get(id(call))
        # docs/metrics.md: synchronous copies, and copies/fills that returned after their op started;
        # never a kernel launch; an XPU enqueue is asynchronous whatever its name.
        xpu_enqueue = call["name"].startswith(("urEnqueue", "piextUSMEnqueue"))
        call["blocking"] = (call["kind"] == "memcpy" and "Async" not in call["name"] and not xpu_enqueue) or (
            call["kind"] in ("memcpy", "memset") and op is not None and call["end"] > op["start"])

    # 5., 6. The recording's start and the launching threads.
    starts_all = [x["start"] for x in timed + launches + syncs + apis]
    rec_start = min(starts_all) if starts_all else 0
    launch_threads = {c["tid"] for c in launches}

    # The launch queue: each timed op's pending start.
    for op in timed:
        if op["launch"] is not None:
            op["pending"] = min(op["launch"]["end"], op["start"])
        elif min_launch_corr is not None and 0 < op["corr"] < min_launch_corr:
            op["pending"] = rec_start
        else:
            op["pending"] = op["start"]
    # docs/metrics.md, "Ops without a launch call": the other ops without one were queued at an unknown
    # time, no earlier than the latest start of the launch calls with a lower correlation (else the
    # recording's start). Pending from there gives the least host-bound time.
    corrs = sorted(launch_of)
    latest = list(itertools.accumulate((launch_of[c]["start"] for c in corrs), max))
    queue_unknown = 0
    for op in timed:
        op["pending_earliest"] = op["pending"]
        if op["launch"] is None and not (min_launch_corr is not None and 0 < op["corr"] < min_launch_corr):
            queue_unknown += 1
            below = bisect.bisect_left(corrs, op["corr"]) if op["corr"] and op["corr"] > 0 else 0
            earliest = latest[below - 1] if below > 0 else rec_start
            op["pending_earliest"] = min(earliest, op["start"])

    # Streams: every stream with a timed op that was pending in (running implies pending), or was
    # launched by (its own window), any window.
    stream_keys = set()
    for op in timed:
        pending_in = any(clip(op["pending"], op["end"], w["start"], w["end"]) for w in windows)
        if pending_in or op["window"] is not None:
            stream_keys.add((op["device"], op["stream"]))
    stream_keys = sorted(stream_keys)
    ops_by_stream = {key: [] for key in stream_keys}
    for op in timed:
        if (op["device"], op["stream"]) in ops_by_stream:
            ops_by_stream[(op["device"], op["stream"])].append(op)

    # Host calls (a trace has no harness syncs; the layer is kept, and stays empty, for harness_ns).
    harness_syncs = [c for c in syncs if c["harness"]]
    blocking_calls = [c for c in syncs if not c["harness"]] + [c for c in launches if c["blocking"]]
    launch_calls = [c for c in launches if not c["blocking"]]
    # Host states only: a kernel or graph launch call lasting more than kSlowLaunchNs is other_api.
    def slow(c):
        return c["kind"] in ("kernel", "graph") and c["end"] - c["start"] > SLOW_LAUNCH_NS
    fast_launch_calls = [c for c in launch_calls if not slow(c)]
    slow_launch_calls = [c for c in launch_calls if slow(c)]
    devices = sorted({op["device"] for op in timed})

    result_windows = []
    all_delays = []
    for pos, w in enumerate(windows):
        lo, hi = w["start"], w["end"]
        gpu = device_split(timed, lo, hi, pos)
        streams = []
        for key in stream_keys:
            streams.append({"device": key[0], "stream": key[1],
                            "split": device_split(ops_by_stream[key], lo, hi, pos), "waited": 0})

        def clipped(calls, threads=None):
            out = []
            for c in calls:
                if threads is None or c["tid"] in threads:
                    iv = clip(c["start"], c["end"], lo, hi)
                    if iv:
                        out.append(iv)
            return out

        # One sweep: pending / running (all streams), the launching threads' calls (host states), every
        # thread's non-blocking launch calls (exposed launch time), pending per stream and per device.
        layers = [[c for c in (clip(op["pending"], op["end"], lo, hi) for op in timed) if c],
                  [c for c in (clip(op["start"], op["end"], lo, hi) for op in timed) if c],
                  clipped(blocking_calls, launch_threads), clipped(fast_launch_calls, launch_threads),
                  clipped(apis, launch_threads) + clipped(slow_launch_calls, launch_threads),
                  clipped(harness_syncs, launch_threads), clipped(launch_calls)]
        base = len(layers)
        for key in stream_keys:
            layers.append([c for c in (clip(op["pending"], op["end"], lo, hi) for op in ops_by_stream[key]) if c])
        dev_base = len(layers)
        for dev in devices:
            layers.append([c for c in (clip(op["pending"], op["end"], lo, hi) for op in timed if op["device"] == dev)
                           if c])
        states = dict.fromkeys(HOST_STATES, 0)
        acc = {"exposed": 0, "device_queue_max": 0}

        def visit(d, counts):
            pending, running, blk, lch, api, harness, anylaunch = counts[:base]
            if running == 0 and pending > 0:
                for s in range(len(stream_keys)):
                    if counts[base + s] > 0:
                        streams[s]["waited"] += d
            if pending == 0:  # host-bound (nothing pending implies nothing running)
                states["blocking" if blk else "launch" if lch else "other_api" if api else
                       "harness" if harness else "framework"] += d
                if anylaunch:
                    acc["exposed"] += d
            if devices:
                acc["device_queue_max"] = max(acc["device_queue_max"], max(counts[dev_base:]))

        sweep(layers, lo, hi, visit)
        assert sum(states.values()) == gpu["host_bound"]

        mine = [c for c in launches if c["window"] == pos]
        delays, clipped_delays = [], 0
        for c in mine:
            op = first_op.get(id(c))
            if op is not None:
                delay = op["start"] - c["end"]
                if delay < 0:
                    clipped_delays += 1
                delays.append(max(delay, 0))
        all_delays += delays
        launch_api = union_length(clipped(launch_calls))
        host = {"launch_api": launch_api, "launch_exposed": acc["exposed"],
                "launch_hidden": launch_api - acc["exposed"],
                "blocking": union_length(clipped(blocking_calls)),
                "blocking_calls": sum(1 for c in blocking_calls if lo <= c["start"] < hi),
                "other_api": union_length(clipped(apis)),
                "launches": len(mine), "graph_launches": sum(1 for c in mine if c["kind"] == "graph"),
                "gpu_ops": gpu["own_ops"], "queue_delays": len(delays),
                "queue_delays_clipped": clipped_delays, "queue_delay_sum": sum(delays)}
        assert acc["device_queue_max"] <= gpu["queue_max"]
        result_windows.append({"index": w["index"], "start": lo, "end": hi, "gpu": gpu, "host_states": states,
                               "device_queue_max": acc["device_queue_max"], "host": host, "streams": streams})

    totals = make_totals(result_windows, stream_keys)
    host_bound_least = totals["gpu"]["host_bound"]
    for rw in result_windows:  # each window's least host-bound time: its own where nothing can move
        rw["host_bound_least"] = rw["gpu"]["host_bound"]
    if queue_unknown and not all(op["launch"] is None for op in timed):
        earliest_ops = [dict(op, pending=op["pending_earliest"]) for op in timed]
        for pos, w in enumerate(windows):
            result_windows[pos]["host_bound_least"] = device_split(earliest_ops, w["start"], w["end"], pos)["host_bound"]
        host_bound_least = sum(rw["host_bound_least"] for rw in result_windows)
    verdict = make_verdict(totals, result_windows, timed, t["whole"], all_delays, t["unread"],
                           bool(launches) and not ops, queue_unknown, host_bound_least)

    streams = {}
    for op in ops:
        key = (op["device"], op["stream"])
        st = streams.setdefault(key, {"kernel": 0, "memcpy": 0, "memset": 0, "launch_corrs": set(),
                                      "without_launch": 0, "intervals": []})
        st[op["kind"]] += 1
        st["intervals"].append((op["start"], op["end"]))
        if op["corr"] in launch_of:
            st["launch_corrs"].add(op["corr"])
        else:
            st["without_launch"] += 1
    stream_counts = []
    for key in sorted(streams):
        st = streams[key]
        stream_counts.append({
            "device": key[0], "stream": key[1], "kernels": st["kernel"], "memcpys": st["memcpy"],
            "memsets": st["memset"], "launches": len(st["launch_corrs"]),
            "without_launch": st["without_launch"], "busy": union_length(st["intervals"])})
    return {"trace": os.path.basename(path), "ops": len(ops), "launches": len(launches), "syncs": len(syncs),
            "apis": len(apis), "whole": t["whole"], "counters": counters, "streams": stream_counts,
            "windows": result_windows, "totals": totals, "verdict": verdict}


TOTAL_SPLIT_FIELDS = ("busy", "host_bound", "device_wait", "queue_ns", "own_busy", "carried_out", "communication")
HOST_SIDE_TOTALS = ("launch_api", "launch_exposed", "launch_hidden", "blocking", "blocking_calls", "other_api")


def split_totals(splits):
    out = {f: sum(s[f] for s in splits) for f in TOTAL_SPLIT_FIELDS}
    out["queue_max"] = max((s["queue_max"] for s in splits), default=0)
    return out


def make_totals(windows, stream_keys):
    totals = {"iterations": len(windows), "wall": sum(w["end"] - w["start"] for w in windows),
              "gpu": split_totals([w["gpu"] for w in windows]),
              "host_states": {k: sum(w["host_states"][k] for w in windows) for k in HOST_STATES},
              "device_queue_max": max((w["device_queue_max"] for w in windows), default=0),
              "full_queue_iterations": sum(1 for w in windows if w["device_queue_max"] >= FULL_LAUNCH_QUEUE),
              "streams": []}
    for f in HOST_SIDE_TOTALS:
        totals[f] = sum(w["host"][f] for w in windows)
    for s, key in enumerate(stream_keys):
        totals["streams"].append({"device": key[0], "stream": key[1],
                                  "totals": split_totals([w["streams"][s]["split"] for w in windows]),
                                  "waited": sum(w["streams"][s]["waited"] for w in windows)})
    return totals


def median_x2(values):
    """Twice the median (an integer for integer samples); 0 for an empty sample."""
    v = sorted(values)
    if not v:
        return 0
    n = len(v)
    return 2 * v[n // 2] if n % 2 else v[n // 2 - 1] + v[n // 2]


def share_verdict(busy, host_bound, device_wait, wall):
    """The verdict of the three shares alone: the largest >= 0.5 of wall and >= 0.10 ahead, exact integers."""
    shares = {"busy": busy, "host_bound": host_bound, "device_wait": device_wait}
    order = sorted(SHARES, key=lambda k: (-shares[k], SHARES.index(k)))
    if 2 * shares[order[0]] >= wall and 10 * (shares[order[0]] - shares[order[1]]) >= wall:
        return {"busy": "compute_bound", "host_bound": "host_bound", "device_wait": "device_wait_bound"}[order[0]]
    return "mixed"


def make_verdict(totals, windows, timed, whole, delays, unread, launches_without_ops=False, queue_unknown=0,
                 host_bound_least=None):
    g, wall = totals["gpu"], totals["wall"]
    least = g["host_bound"] if host_bound_least is None else host_bound_least
    shift = g["host_bound"] - least if queue_unknown else 0
    # Under the bounds the verdict must not depend on where in them the split lies: checked on a grid of
    # 1001 shifts and both integers around the point where host-bound and device-wait meet.
    meet = (g["host_bound"] - g["device_wait"]) / 2
    grid = {shift * k // 1000 for k in range(1001)} | {min(max(t, 0), shift) for t in (math.floor(meet), math.ceil(meet))}
    within = {share_verdict(g["busy"], g["host_bound"] - t, g["device_wait"] + t, wall) for t in grid} if shift else set()
    shares = {"busy": g["busy"], "host_bound": g["host_bound"], "device_wait": g["device_wait"]}
    order = sorted(SHARES, key=lambda k: (-shares[k], SHARES.index(k)))  # stable: ties in SHARES order
    first, second = order[0], order[1]
    hs = totals["host_states"]
    host_state = None
    if g["host_bound"] > 0:
        host_state = sorted(HOST_STATES, key=lambda k: (-hs[k], HOST_STATES.index(k)))[0]
    waited = None
    if g["device_wait"] > 0 and totals["streams"]:
        best = sorted(totals["streams"], key=lambda s: (-s["waited"], s["device"], s["stream"]))[0]
        waited = (best["device"], best["stream"])
    if unread and g["busy"] == 0:
        verdict, reason = "unknown", "unread_device_events"
    elif not windows:
        verdict, reason = "unknown", "no_iterations"
    elif g["busy"] == 0 and launches_without_ops:   # launch calls, no op read at all: the device's time is unknown
        verdict, reason = "unknown", "launches_without_ops"
    elif g["busy"] == 0:
        verdict, reason = "unknown", "no_device_work"
    elif timed and all(op["launch"] is None for op in timed):
        verdict, reason = "unknown", "no_launches"
    elif whole and first == "host_bound" and host_state == "other_api":
        verdict, reason = "unknown", "startup_without_steps"
    elif len(within) > 1:
        verdict, reason = "unknown", "queue_unknown"
    # The largest share >= 0.5 and ahead of the second by >= 0.10, in exact integers.
    elif 2 * shares[first] >= wall and 10 * (shares[first] - shares[second]) >= wall:
        verdict = {"busy": "compute_bound", "host_bound": "host_bound", "device_wait": "device_wait_bound"}[first]
        reason = "dominant_share"
    else:
        verdict, reason = "mixed", "close_shares"
    return {"verdict": verdict, "reason": reason, "first": first, "second": second, "host_state": host_state,
            "waited_stream": waited, "full_queue_iterations": totals["full_queue_iterations"],
            # totals.gpu.communication_ns / totals.gpu.busy_ns (0 without busy time); --cpp pins the two
            # integers (in the totals), not this quotient.
            "communication_share": g["communication"] / g["busy"] if g["busy"] else 0.0,
            "queue_max": totals["device_queue_max"], "whole_recording_window": whole,
            "queue_delay_median_x2": median_x2(delays),
            # Headroom (docs/metrics.md): host changes are said not to help only when removing all
            # host-bound time gains under 5%: W / (W - H) < 1.05, in exact integers 100 W < 105 (W - H).
            "host_headroom_negligible": 100 * wall < 105 * (wall - g["host_bound"]),
            "host_bound_headroom": wall / (wall - g["host_bound"]) if wall > g["host_bound"] else None,
            "ops_queue_unknown": queue_unknown, "host_bound_least": least if shift else g["host_bound"]}


# ---- output ---------------------------------------------------------------------------------------

def pct(part, whole):
    return f"{100 * part / whole:.1f}%" if whole else "-"


def print_text(r):
    print(f"{r['trace']}: {r['ops']} device ops, {r['launches']} launch calls, {r['syncs']} sync calls, "
          f"{r['apis']} API calls{' (no ProfilerStep: one window)' if r['whole'] else ''}")
    print("  counters: " + ", ".join(f"{k} {v}" for k, v in r["counters"].items()))
    for s in r["streams"]:
        print(f"  device {s['device']} stream {s['stream']}: {s['kernels']} kernels, {s['memcpys']} memcpy, "
              f"{s['memsets']} memset, {s['launches']} launches linked, {s['without_launch']} without launch, "
              f"busy {s['busy']} ns")
    for w in r["windows"]:
        g, wall, h, hs = w["gpu"], w["end"] - w["start"], w["host"], w["host_states"]
        print(f"  window {w['index']} wall {wall} ns: busy {pct(g['busy'], wall)}, host-bound "
              f"{pct(g['host_bound'], wall)}, device-wait {pct(g['device_wait'], wall)}; queue mean "
              f"{g['queue_ns'] / wall if wall else 0:.1f} max {g['queue_max']} (one device {w['device_queue_max']}); ops {g['ops']} own {g['own_ops']} "
              f"own busy {g['own_busy']} carried out {g['carried_out']} communication {pct(g['communication'], g['busy'])} of busy")
        print(f"    host states: " + ", ".join(f"{k} {pct(v, g['host_bound'])}" for k, v in hs.items()))
        print(f"    host side: " + ", ".join(f"{k} {v}" for k, v in h.items()))
        for s in w["streams"]:
            p = s["split"]
            print(f"    stream {s['device']}:{s['stream']}: busy {p['busy']} host-bound {p['host_bound']} "
                  f"device-wait {p['device_wait']} queue max {p['queue_max']} waited {s['waited']} communication {p['communication']}")
    t, v = r["totals"], r["verdict"]
    g = t["gpu"]
    print(f"  totals: {t['iterations']} windows, wall {t['wall']}: busy {pct(g['busy'], t['wall'])}, host-bound "
          f"{pct(g['host_bound'], t['wall'])}, device-wait {pct(g['device_wait'], t['wall'])}, queue max "
          f"{g['queue_max']}, device queue max {t['device_queue_max']}, full-queue windows {t['full_queue_iterations']}, blocking {pct(t['blocking'], t['wall'])}, "
          f"communication {g['communication']} ns = {pct(g['communication'], g['busy'])} of busy")
    print(f"  verdict: {v['verdict']} ({v['reason']}; first {v['first']}, second {v['second']}, host state "
          f"{v['host_state']}, waited stream {v['waited_stream']}, whole recording window "
          f"{v['whole_recording_window']})")


def c_split(s):
    return (f"{{{s['busy']}, {s['idle']}, {s['host_bound']}, {s['device_wait']}, {s['queue_ns']}, {s['queue_max']}, "
            f"{s['ops']}, {s['own_ops']}, {s['own_busy']}, {s['carried_out']}, {s['communication']}}}")


def c_totals_split(s):
    return (f"{{{s['busy']}, {s['host_bound']}, {s['device_wait']}, {s['queue_ns']}, {s['queue_max']}, "
            f"{s['own_busy']}, {s['carried_out']}, {s['communication']}}}")


def c_states(h):
    return "{" + ", ".join(str(h[k]) for k in HOST_STATES) + "}"


def c_bool(b):
    return "true" if b else "false"


def cpp_text(r):
    c, t, v = r["counters"], r["totals"], r["verdict"]
    out = [f"    // {r['trace']} (generated by test/tools/trace_reference.py --cpp)",
           f"    {{\"{r['trace']}\", {r['ops']}, {r['launches']}, {r['syncs']}, {r['apis']}, {c_bool(r['whole'])},",
           f"     {{{c['ops_without_launch']}, {c['ops_outside_iterations']}, {c['launches_outside_iterations']}, "
           f"{c['duplicate_launch_correlations']}}},",
           "     {"]
    for s in r["streams"]:
        out.append(f"         {{{s['device']}, {s['stream']}, {s['kernels']}, {s['memcpys']}, {s['memsets']}, "
                   f"{s['launches']}, {s['without_launch']}, {s['busy']}}},")
    out += ["     },", "     {"]
    for w in r["windows"]:
        h = w["host"]
        out.append(f"         {{{w['index']}, {w['start']}, {w['end']}, {c_split(w['gpu'])}, {c_states(w['host_states'])}, "
                   f"{w['device_queue_max']},")
        out.append(f"          {{{h['launch_api']}, {h['launch_exposed']}, {h['launch_hidden']}, {h['blocking']}, "
                   f"{h['blocking_calls']}, {h['other_api']}, {h['launches']}, {h['graph_launches']}, {h['gpu_ops']}, "
                   f"{h['queue_delays']}, {h['queue_delays_clipped']}, {h['queue_delay_sum']}}},")
        out.append("          {" + ", ".join(f"{{{s['device']}, {s['stream']}, {c_split(s['split'])}, {s['waited']}}}"
                                            for s in w["streams"]) + f"}}, {w['host_bound_least']}}},")
    out += ["     },",
            f"     {{{t['iterations']}, {t['wall']}, {c_totals_split(t['gpu'])}, {c_states(t['host_states'])}, "
            f"{t['launch_api']}, {t['launch_exposed']}, {t['launch_hidden']}, {t['blocking']}, {t['blocking_calls']}, "
            f"{t['other_api']}, {t['device_queue_max']}, {t['full_queue_iterations']},",
            "      {" + ", ".join(f"{{{s['device']}, {s['stream']}, {c_totals_split(s['totals'])}, {s['waited']}}}"
                                  for s in t["streams"]) + "}},"]
    host_state = f"HostState::{v['host_state']}" if v["host_state"] else "std::nullopt"
    waited = (f"StreamKey{{{v['waited_stream'][0]}, {v['waited_stream'][1]}}}" if v["waited_stream"]
              else "std::nullopt")
    out.append(f"     {{Verdict::{v['verdict']}, VerdictReason::{v['reason']}, TimeShare::{v['first']}, "
               f"TimeShare::{v['second']}, {host_state}, {waited}, {v['full_queue_iterations']}, {v['queue_max']}, "
               f"{c_bool(v['whole_recording_window'])}, {v['queue_delay_median_x2']}, "
               f"{c_bool(v['host_headroom_negligible'])}, {v['ops_queue_unknown']}, {v['host_bound_least']}}}}},")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("traces", nargs="+")
    parser.add_argument("--cpp", action="store_true", help="print C++ initialisers for trace_reference_numbers.hpp")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.add_argument("--check", metavar="CPP_FILE",
                        help="exit 1 unless CPP_FILE contains the --cpp text of every trace verbatim")
    parser.add_argument("--window", nargs=2, type=int, metavar=("START_NS", "END_NS"),
                        help="analyse the single window [START_NS, END_NS) instead of the trace's windows")
    args = parser.parse_args()
    if args.window and (args.cpp or args.check):
        parser.error("--window does not go with --cpp or --check (those pin the trace's own windows)")
    if args.window and args.window[1] < args.window[0]:
        parser.error("--window needs START_NS <= END_NS")
    results = [analyse(path, args.window) for path in args.traces]
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
            print(json.dumps(r, indent=1, default=str))
        else:
            print_text(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
