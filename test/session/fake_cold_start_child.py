"""The fake cold-start process of the session tests (test/session/fake_runtime.cpp, cold_start_setup): the
protocol of python/ohprof/_cold_start.py without torch.

    fake_cold_start_child.py SPEC PATH CACHE CACHE_DIR ARTIFACTS_FILE RESULT_FILE

It logs "PATH CACHE CACHE_DIR PID" to the spec's launches file, sleeps through its steps (5 ms import,
5 ms load and, for a compile path, 3 ms of ohprof's own "hook" after it, `compile_ms` of compile in a compile path's first call unless its cache folder holds the
"filled" marker or, for CACHE artifacts, the artifacts file exists, 2 ms first call) and writes the result
file. CACHE fill writes the marker and the artifacts file. Its memory: resident 100 MB, peak 110 MB; a compile
path's 200 MB, peak 250 MB when it compiled and 210 MB when it did not; null for the spec's "no_memory" paths.
"""
import json
import os
import sys
import time

t_main = time.monotonic_ns()
spec_file, path, cache, cache_dir, artifacts_file, result_file = sys.argv[1:7]
spec = json.load(open(spec_file))
with open(spec["launches"], "a") as log:
    log.write(f"{path} {cache} {cache_dir} {os.getpid()} {os.environ.get('TORCHINDUCTOR_CACHE_DIR', '')}\n")


def stamp_after(ms):
    time.sleep(ms / 1000)
    return time.monotonic_ns()


if path in spec["fail"]:
    sys.stderr.write("Traceback (most recent call last):\nRuntimeError: fake: the model would not load\n")
    sys.exit(1)
t_torch = stamp_after(5)
t_tool = time.monotonic_ns()
t_loaded = stamp_after(5)
hook_ns = 0
if path.startswith("compile"):  # ohprof's compile log, installed at the end of the load: 3 ms, not counted
    hook_start = t_loaded
    t_loaded = stamp_after(3)
    hook_ns = t_loaded - hook_start
marker = os.path.join(cache_dir, "filled")
compiled = path.startswith("compile")
cached = os.path.exists(marker) or (cache == "artifacts" and os.path.exists(artifacts_file))
compile_start = time.monotonic_ns()
compile_end = stamp_after(spec["compile_ms"]) if compiled and not cached else compile_start
t_first = stamp_after(2)
result = {"ok": True, "pid": os.getpid(),
          "times": {"main": t_main, "torch": t_torch, "tool": t_tool, "loaded": t_loaded, "first": t_first,
                    "compile": compile_end - compile_start, "hook": hook_ns},
          "check": {"passed": path not in spec["differ"], "max_abs_diff": 0.5 if path in spec["differ"] else 0.0,
                    "detail": "fake: output 0 differs by up to 0.5" if path in spec["differ"] else ""},
          "memory": None if path in spec.get("no_memory", []) else
          {"rss_bytes": 200_000_000 if compiled else 100_000_000,
           "peak_rss_bytes": (250_000_000 if not cached else 210_000_000) if compiled else 110_000_000},
          "artifacts_saved": False, "artifacts_note": ""}
if cache == "fill":
    open(marker, "w").write("filled\n")
    open(artifacts_file, "w").write("fake artifacts\n")
    result["artifacts_saved"] = True
with open(result_file + ".tmp", "w") as f:
    json.dump(result, f)
os.replace(result_file + ".tmp", result_file)
