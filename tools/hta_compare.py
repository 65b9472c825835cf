"""The Python part of tools/hta-compare (run it through that script, which makes the HTA venv).

Runs Holistic Trace Analysis (HTA) on each trace as tools/bench-analyze does, then ohprof's own
analysis and ohprof's definitions over HTA's span (test/tools/trace_reference.py --window), and prints
the three side by side. Times: HTA's are the trace's microseconds (HTA rounds ns-resolution traces to
whole microseconds unless HTA_DISABLE_NS_ROUNDING=1 is set); ohprof's are integer ns, printed in us.

Usage: python tools/hta_compare.py --ohprof BIN --reference test/tools/trace_reference.py TRACE...
"""

import argparse
import contextlib
import importlib.metadata
import io
import json
import logging
import os
import subprocess
import sys
import tempfile
from decimal import ROUND_HALF_UP, Decimal

from hta.trace_analysis import TraceAnalysis


def pct(part, whole):
    return f"{100 * part / whole:.2f} %" if whole else "-"


def to_ns(hta_us, offset_us):
    """A time on HTA's axis (us since its min_ts) as the trace's absolute time in integer ns."""
    return int(((Decimal(hta_us) + offset_us) * 1000).to_integral_value(rounding=ROUND_HALF_UP))


def run_hta(trace):
    """HTA's span and shares per rank: a list of dicts, one per rank. Raises what HTA raises."""
    with tempfile.TemporaryDirectory(prefix="ohprof-hta-") as trace_dir:
        os.symlink(os.path.abspath(trace), os.path.join(trace_dir, os.path.basename(trace)))
        chatter = io.StringIO()  # HTA prints progress; only its results are wanted here
        with contextlib.redirect_stdout(chatter), contextlib.redirect_stderr(chatter):
            analysis = TraceAnalysis(trace_dir=trace_dir)
            ranks = sorted(analysis.t.traces.keys())
            temporal = analysis.get_temporal_breakdown(visualize=False)
            idle, _ = analysis.get_idle_time_breakdown(ranks=ranks, visualize=False)
    out = []
    for _, row in temporal.iterrows():
        rank = int(row["rank"])
        span_us = float(row["kernel_time(us)"])
        # The span is first start to last end of the rows with a stream (what the temporal breakdown
        # merges), on HTA's time axis, which starts at the trace's earliest event: add min_ts back.
        rows = analysis.t.get_trace(rank)
        rows = rows[rows["stream"].ne(-1)]
        first, last = float(rows["ts"].min()), float((rows["ts"] + rows["dur"]).max())
        offset = Decimal(float(analysis.t.min_ts))
        assert last - first == span_us, (trace, first, last, span_us)
        streams = []
        for stream in sorted(idle[idle["rank"] == rank]["stream"].unique()):
            mine = idle[(idle["rank"] == rank) & (idle["stream"] == stream)].set_index("idle_category")
            streams.append({"stream": int(stream),
                            **{k: float(mine["idle_time"].get(k, 0.0)) for k in ("host_wait", "kernel_wait", "other")}})
        out.append({"rank": rank, "span_us": span_us, "idle_us": float(row["idle_time(us)"]),
                    "start_ns": to_ns(first, offset), "end_ns": to_ns(last, offset),
                    "streams": streams})
    return out


def run_ohprof(binary, trace):
    """(path name, totals, verdict) for each path in `ohprof analyze TRACE --export-json -`."""
    done = subprocess.run([binary, "analyze", trace, "--export-json", "-"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"ohprof analyze exited {done.returncode}: {done.stderr.strip()[:300]}")
    report = json.loads(done.stdout)
    return [(p.get("name"), p["split"]["summary"]["totals"], p["split"]["verdict"]) for p in report["paths"]
            if p["split"].get("available")]


def run_reference(script, trace, start_ns, end_ns):
    """The window [start_ns, end_ns) under ohprof's definitions, from the reference implementation."""
    done = subprocess.run([sys.executable, script, "--window", str(start_ns), str(end_ns), "--json", trace],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"trace_reference.py exited {done.returncode}: {done.stderr.strip()[:300]}")
    return json.loads(done.stdout)["windows"][0]["gpu"]


def compare(trace, ohprof, reference):
    """Prints one trace's block; returns False when ohprof or the reference failed."""
    print(f"== {os.path.basename(trace)}")
    ok = True
    try:
        ranks = run_hta(trace)
    except Exception as e:  # noqa: BLE001 -- HTA's failure is a result to report
        print(f"  HTA cannot analyse it: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}".rstrip())
        ranks = []
    for r in ranks:
        span = r["span_us"]
        print(f"  HTA rank {r['rank']}: span {span:,.0f} us [{r['start_ns']}, {r['end_ns']}) ns; "
              f"busy {pct(span - r['idle_us'], span)} ({span - r['idle_us']:,.0f} us)")
        print(f"    {'stream':>8} {'host wait':>22} {'kernel wait':>22} {'other':>22}   (us, % of span)")
        for s in r["streams"]:
            cells = "".join(f" {s[k]:>12,.2f} {pct(s[k], span):>9}" for k in ("host_wait", "kernel_wait", "other"))
            print(f"    {s['stream']:>8}{cells}")
    try:
        for name, t, verdict in run_ohprof(ohprof, trace):
            g, wall = t["gpu"], t["wall_ns"]
            print(f"  ohprof {name}: {t['iterations']} window(s), wall {wall / 1000:,.0f} us: busy "
                  f"{pct(g['busy_ns'], wall)}, host-bound {pct(g['host_bound_ns'], wall)}, device-wait "
                  f"{pct(g['device_wait_ns'], wall)}; verdict {verdict['verdict']} ({verdict['reason']})")
    except (RuntimeError, KeyError, ValueError) as e:
        print(f"  ohprof failed: {e}")
        ok = False
    for r in ranks:
        try:
            g = run_reference(reference, trace, r["start_ns"], r["end_ns"])
        except (RuntimeError, KeyError, ValueError) as e:
            print(f"  ohprof's definitions over HTA's span failed: {e}")
            ok = False
            continue
        wall = r["end_ns"] - r["start_ns"]
        print(f"  ohprof's definitions over HTA's span (rank {r['rank']}): busy {pct(g['busy'], wall)}, "
              f"host-bound {pct(g['host_bound'], wall)}, device-wait {pct(g['device_wait'], wall)} "
              f"({g['busy'] / 1000:,.0f} / {g['host_bound'] / 1000:,.0f} / {g['device_wait'] / 1000:,.0f} us)")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ohprof", required=True, help="the ohprof binary")
    parser.add_argument("--reference", required=True, help="test/tools/trace_reference.py")
    parser.add_argument("traces", nargs="+")
    args = parser.parse_args()
    logging.getLogger("hta").setLevel(logging.ERROR)  # HTA logs its parse steps as warnings
    meta = importlib.metadata
    print(f"HTA {meta.version('HolisticTraceAnalysis')}, pandas {meta.version('pandas')}, "
          f"Python {sys.version.split()[0]}; ohprof {args.ohprof}")
    ok = True
    for trace in args.traces:
        ok = compare(trace, args.ohprof, args.reference) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
