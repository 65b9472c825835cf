#!/usr/bin/env python3
"""Checks tools/gpu-check-summary on real reports (docs/results/cpu-tiny-mlp-b1-2026-12-01.json.gz, a compare run
with layer variants and explanations, schema 4; cpu-what-if-rebuilds-run01-2026-12-06.json.gz, a what-if ledger)
and on
a report edited to hold what a GPU run can hold: a path whose split was unavailable, a failed output
check, CUPTI's lost-record counters. Each expected line is built here from the JSON fields named in
docs/report-schema.md, so a summary that reads another field (as an earlier version did: "wall" for
"wall_ns", "breakdown" for "split") fails.

Usage: gpu_check_summary_test.py SOURCE_DIR
"""

import copy
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile


def fail(message):
    print(f"FAIL {message}", file=sys.stderr)
    sys.exit(1)


def main(argv):
    source = argv[1]
    summary_tool = os.path.join(source, "tools", "gpu-check-summary")
    with gzip.open(os.path.join(source, "docs", "results", "cpu-tiny-mlp-b1-2026-12-01.json.gz"), "rt",
                   encoding="utf-8") as f:
        report = json.load(f)
    paths = [p for p in report["paths"] if p.get("role") == "path"]
    if len(paths) < 4 or len(paths) == len(report["paths"]):
        fail("the report should hold at least 4 paths and some variants")

    edited = copy.deepcopy(report)
    edited["context"]["device"] = {"type": "cuda", "index": 0, "name": "NVIDIA H200"}
    edited["paths"][1]["split"] = {"available": False,
                                   "reason": "tracing unavailable: CUPTI_ERROR_UNKNOWN (cuptiSubscribe_v2)"}
    edited["paths"][2]["output_check"]["passed"] = False
    edited["paths"][2]["output_check"]["detail"] = "max abs diff 0.5 > atol"
    edited["paths"][3]["split"]["counters"]["collection"]["dropped_records"] = 17
    # the execution check of a reduce-overhead path that recorded a CUDA graph inside a measured call
    edited["paths"][3]["execution"] = {
        "dynamo": True, "graphs": 1, "graph_breaks": [], "cuda_graphs": "not-replayed", "device": "cuda:0",
        "measured_compiles": [{"pass": "timing", "iteration": 0, "kind": "cuda-graph-recording", "compile_id": "",
                               "duration_ns": 2500000, "reason": ""}],
        "excluded_iterations": 1, "excluded_samples_ns": [3000000], "pooled": False, "cuda_graph_skip_reason": "",
        "unobserved": "", "text": "Dynamo, 1 graph, no graph break; compiled inside 1 measured iteration, its first "
                                  "timing sample left out; CUDA graphs NOT replayed in some measured calls; outputs on cuda:0"}
    # compare --threads: a path measured with two callers, and one whose callers failed on a new thread
    edited["paths"][0]["concurrency"] = {
        "points": [{"threads": 1, "calls_per_s": 1000.0, "p50_ns": 900000.0, "p99_ns": 1500000.0, "scaling": 1.0,
                    "scaling_low": 1.0, "scaling_high": 1.0, "scales": False},
                   {"threads": 2, "calls_per_s": 1900.0, "p50_ns": 950000.0, "p99_ns": 1700000.0, "scaling": 1.9,
                    "scaling_low": 1.8, "scaling_high": 2.0, "scales": True}],
        "limit": "none", "unavailable": None}
    edited["paths"][3]["concurrency"] = {"points": [], "limit": "unknown",
                                         "unavailable": "path compile:reduce-overhead failed in a caller thread"}
    # compare --cold-start: an AOTI path's one state, a compile path's warm state against cold, one failed
    edited["paths"][0]["cold_start"] = {"processes": 2, "states": [
        {"cache": "none", "median": {"total_ns": 3e9, "process_ns": 1e7, "import_ns": 2e9, "load_ns": 5e8,
                                     "compile_ns": 0.0, "first_call_ns": 4.9e8, "rss_bytes": 5.4e8,
                                     "peak_rss_bytes": 5.42e8},
         "samples": [{"output_matches": True}, {"output_matches": True}], "against_cold": None, "failed": None,
         "unavailable": None}]}
    edited["paths"][1]["cold_start"] = {"processes": 2, "states": [
        {"cache": "warm", "median": {"total_ns": 5e9, "process_ns": 1e7, "import_ns": 2e9, "load_ns": 1e9,
                                     "compile_ns": 1.5e9, "first_call_ns": 4.9e8},
         "samples": [{"output_matches": True}, {"output_matches": False}], "against_cold": "faster",
         "speedup_vs_cold": 4.0, "failed": None, "unavailable": None},
        {"cache": "artifacts", "median": None, "samples": [], "against_cold": None, "failed": None,
         "unavailable": "torch 2.5 has no torch.compiler.save_cache_artifacts"},
        {"cache": "cold", "median": None, "samples": [], "against_cold": None,
         "failed": "RuntimeError: out of memory", "unavailable": None}]}
    # device memory on CUDA (docs/metrics.md, "Device memory"): a reduce-overhead path with its graph pool
    edited["paths"][3]["memory"] = {"build_retained_bytes": 0, "build_peak_bytes": 0, "run_peak_bytes": 0, "run_calls": 3,
                                    "device": {"build_allocated_bytes": 1_500_000, "build_reserved_bytes": 2_097_152,
                                               "build_used_bytes": None, "build_peak_allocated_bytes": 3_000_000,
                                               "run_peak_allocated_bytes": 0, "run_reserved_bytes": 0,
                                               "graph_pool_bytes": 4_194_304}}
    # warnings are objects (schema_version >= 2); the real report above has warnings of its own
    edited["warnings"] = [{"code": "cupti-buffer-unreadable",
                           "message": "an activity buffer could not be read to its end: CUPTI_ERROR_INVALID_KIND"}]

    # compare --what-if: a real ledger (docs/results/cpu-what-if-rebuilds-run01-2026-12-06.json.gz), its settings,
    # the A/A check's rebuilds and the placement band
    with gzip.open(os.path.join(source, "docs", "results", "cpu-what-if-rebuilds-run01-2026-12-06.json.gz"), "rt",
                   encoding="utf-8") as f:
        what_if = json.load(f)

    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "a-real.json"), "w", encoding="utf-8") as f:
            json.dump(report, f)
        with open(os.path.join(folder, "d-what-if.json"), "w", encoding="utf-8") as f:
            json.dump(what_if, f)
        with open(os.path.join(folder, "b-edited.json"), "w", encoding="utf-8") as f:
            json.dump(edited, f)
        with open(os.path.join(folder, "c-broken.json"), "w", encoding="utf-8") as f:
            f.write("{not json")
        with open(os.path.join(folder, "machine.txt"), "w", encoding="utf-8") as f:
            f.write("gpu: NVIDIA H200, 580.159.03\n")
        with open(os.path.join(folder, "steps.tsv"), "w", encoding="utf-8") as f:
            f.write("build\tok\t95\ncompare-b1\tfailed (exit 5)\t12\n")
        shutil.copy(summary_tool, os.path.join(folder, "tool"))  # runs from anywhere
        result = subprocess.run([sys.executable, os.path.join(folder, "tool"), folder], capture_output=True,
                                text=True, check=False)
    if result.returncode != 0:
        fail(f"exit {result.returncode}: {result.stderr}")
    text = result.stdout
    lines = text.splitlines()

    def expect(line):
        if line not in lines:
            fail(f"missing line: {line!r}\n--- summary ---\n{text}")

    expect("gpu: NVIDIA H200, 580.159.03")
    expect("  build  ok  95")
    expect("  compare-b1  failed (exit 5)  12")
    for p in report["paths"]:
        if p.get("role") == "variant":
            median_ns = p["wall_ns"]["median"]
            shown = f"{median_ns / 1e3:.1f} us" if median_ns < 1e7 else f"{median_ns / 1e6:.3f} ms"
            expect(f"  variant {p['name']}: wall median {shown} (n={p['wall_ns']['count']})")
            continue
        median_ns = p["wall_ns"]["median"]
        shown = f"{median_ns / 1e3:.1f} us" if median_ns < 1e7 else f"{median_ns / 1e6:.3f} ms"
        head = f"  {p['name']}: wall median {shown} (n={p['wall_ns']['count']}, noise " \
               f"{100 * p['wall_ns']['relative_noise']:.1f}%), collector {p['split_collector']}"
        expect(head)
        verdict = p["split"]["verdict"]
        expect(f"    verdict: {verdict['verdict']} ({verdict['reason']}): {verdict['suggestion']}")
        busy = p["split"]["summary"]["gpu"]["busy_ns"]["median"]
        if not any(line.startswith("    split (medians):") and f"cpu kernels {busy / 1e3:.1f} us" in line
                   for line in lines):
            fail(f"no split line with the median busy time of {p['name']}\n{text}")
    if not report["explanations"]:
        fail("the report has no explanations")
    for e in report["explanations"]:
        expect(f"  why: {e['answer']}")
        for missing in e["missing"]:
            expect(f"    missing: {missing}")
    for r in report["ratios"]:
        expect("  " + r["text"] if "text" in r else
               f"  {r['faster']} ran {r['ratio']:.2f} ± {r['stddev']:.2f} times faster than {r['slower']}")
    for d in report["kernel_diffs"]:
        expect(f"  kernels {d['path_a']} vs {d['path_b']}: "
               f"{'same kernel set' if d['same_set'] else 'different kernel sets'} (both {len(d['both'])}, "
               f"only {d['path_a']} {len(d['only_a'])}, only {d['path_b']} {len(d['only_b'])})")
    expect("    split unavailable: tracing unavailable: CUPTI_ERROR_UNKNOWN (cuptiSubscribe_v2)")
    expect("    output check FAILED against eager: max abs diff 0.5 > atol")
    expect("    collection counters: dropped_records 17")
    expect("    device memory: build +1.50 MB allocated, +2.10 MB reserved, ? used; calls peak +0.00 MB; "
           "graph pool 4.19 MB")
    ran = edited["paths"][3]["execution"]
    expect(f"    execution: {ran['text']} (cuda_graphs not-replayed)")
    expect("    measured compile: timing iteration 0: cuda-graph-recording 2500.0 us")
    expect("    threads 2: 1900 calls/s, p50 950.0 us, p99 1700.0 us, x1.90 [1.80, 2.00] scales")
    expect("    threads limit: none")
    expect("    cold start (none cache): 3000.000 ms = process 10.000 ms + import 2000.000 ms + load 500.000 ms "
           "+ compile 0.0 us + first call 490.000 ms (n=2); peak 542 MB")
    expect("    cold start (warm cache): 5000.000 ms = process 10.000 ms + import 2000.000 ms + load 1000.000 ms "
           "+ compile 1500.000 ms + first call 490.000 ms (n=2), faster than cold (x4.00), OUTPUTS DIFFER")
    expect("    cold start (artifacts cache): not measured: torch 2.5 has no torch.compiler.save_cache_artifacts")
    expect("    cold start (cold cache): failed: RuntimeError: out of memory")
    expect("    threads: unavailable: path compile:reduce-overhead failed in a caller thread")
    expect("  warning [cupti-buffer-unreadable]: an activity buffer could not be read to its end: "
           "CUPTI_ERROR_INVALID_KIND")
    for w in report.get("warnings", []):
        expect(f"  warning [{w['code']}]: {w['message']}" if isinstance(w, dict) else f"  warning: {w}")
    def us(ns):
        return f"{ns / 1e3:.1f} us" if abs(ns) < 1e7 else f"{ns / 1e6:.3f} ms"

    ledger = what_if["what_if"]
    for e in ledger["entries"]:
        if e["not_applicable"]:
            expect(f"  what-if {e['setting']}: not applicable: {e['not_applicable']}")
        elif e["saved"]:
            if not any(line.startswith(f"  what-if {e['setting']}: saved {us(e['saved']['value_ns'])} "
                                       f"[{us(e['saved_low_ns'])}, {us(e['saved_high_ns'])}]") for line in lines):
                fail(f"no what-if line for {e['setting']}\n{text}")
    if len(ledger["rebuilds"]) != 2:
        fail("the what-if report should hold two rebuilds")
    for a in ledger["rebuilds"]:
        expect(f"  what-if {a['path']}: moved {us(a['moved']['value_ns'])} [{us(a['moved_low_ns'])}, "
               f"{us(a['moved_high_ns'])}]")
    band = ledger["placement"]
    expect(f"  what-if placement band: {us(band['low_ns'])} to {us(band['high_ns'])} ({band['builds']} builds)")
    if not any(line.startswith("b-edited.json: compare on NVIDIA H200 (cuda)") for line in lines):
        fail(f"no header line for the edited report\n{text}")
    if not any(line.startswith("c-broken.json: unreadable") for line in lines):
        fail(f"a broken report is not named as unreadable\n{text}")
    print(f"OK gpu-check-summary: {len(lines)} lines checked against the reports")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
