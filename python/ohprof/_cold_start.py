"""One fresh process of `ohprof compare --cold-start`: a path from nothing to its first correct result.

The measuring process (src/session/cold_start.cpp) starts this, through the command
ohprof._paths.Session.cold_start_setup returns, as

    PYTHON -c BOOTSTRAP SPEC PATH CACHE CACHE_DIR ARTIFACTS_FILE RESULT_FILE

with TORCHINDUCTOR_CACHE_DIR=CACHE_DIR and TRITON_CACHE_DIR=CACHE_DIR/triton in its environment. It
stamps CLOCK_MONOTONIC (the measuring process's clock) at each step, checks its first output against the
reference and writes RESULT_FILE (JSON, written whole or not at all):

    {"ok": true, "pid": ..., "times": {"main", "torch", "tool", "loaded", "first", "compile", "hook"},
     "check": {"passed", "max_abs_diff", "detail"}, "memory": {"rss_bytes", "peak_rss_bytes"} or null,
     "artifacts_saved": bool, "artifacts_note": str}
    {"ok": false, "error": "one line"}

The steps (docs/metrics.md, "Cold start"): main (the first statement), torch (after import torch),
tool (after ohprof's own module, the inputs and the reference were read: not counted), loaded (the
path is ready to call), first (its first call returned, the device synchronised); compile is the time
of torch's compile events inside the first call; hook is what installing ohprof's compile log took
inside the load (not counted). memory is the process's resident set and its high-water mark, read from
/proc/self/status once the first call returned (before the output check). CACHE is none, cold, warm, artifacts (load
ARTIFACTS_FILE with torch.compiler.load_cache_artifacts before the first call: part of the load) or
fill (a cold start that then saves the portable artifacts into ARTIFACTS_FILE, after the clock stops).

Only the standard library is imported before torch.
"""
import json
import os
import sys
import time


def _write(path, result):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(result, f)
    os.replace(tmp, path)


def _compile_ns(events, first_index, start_ns, end_ns):
    """The time of the compile events that began at or after index `first_index`, clipped to
    [start_ns, end_ns], overlaps counted once."""
    spans = sorted((max(s, start_ns), min(e or end_ns, end_ns)) for _, _, s, e, _ in events[first_index:])
    total, reach = 0, start_ns
    for s, e in spans:
        s = max(s, reach)
        if e > s:
            total += e - s
            reach = e
    return total


def _memory(status="/proc/self/status"):
    """The process's resident set (VmRSS) and its high-water mark (VmHWM) from /proc/self/status, in bytes:
    {"rss_bytes", "peak_rss_bytes"}, or None where it cannot be read (not Linux, a field missing, a unit other
    than kB)."""
    try:
        fields = {}
        with open(status) as f:
            for line in f:
                name, _, value = line.partition(":")
                if name in ("VmRSS", "VmHWM"):
                    number, unit = value.split()
                    if unit != "kB":
                        return None
                    fields[name] = int(number) * 1024
        return {"rss_bytes": fields["VmRSS"], "peak_rss_bytes": fields["VmHWM"]}
    except (OSError, KeyError, ValueError):
        return None


def _load_module(torch, paths, spec, device):
    """The module a compile or eager process starts from: the user's (the factory's, with the measuring
    session's weights; or the Python API's object, unpickled) or the exported program's module()."""
    if spec.get("module_file"):
        return torch.load(spec["module_file"], map_location=device, weights_only=False).eval()
    if spec["compile_source"] == paths.SOURCE_MODULE:
        module = paths.build_model(torch, spec["model"], device)
        if spec["weights"]:
            module.load_state_dict(torch.load(spec["weights"], map_location=device, weights_only=True))
        return module
    return torch.export.load(spec["exported"]).module()


def _run(spec, path, cache, artifacts_file, t_main):
    import torch

    t_torch = time.monotonic_ns()
    from ohprof import _paths as paths

    device = spec["device"]
    sync = paths._sync(torch, device)
    data = torch.load(spec["inputs"], map_location="cpu", weights_only=True)
    move = lambda v: v.to(device) if isinstance(v, torch.Tensor) else v  # noqa: E731
    args = [move(t) for t in data["args"]]
    kwargs = {k: move(v) for k, v in data["kwargs"].items()}
    flat = [move(t) for t in data["flat"]]
    reference = torch.load(spec["reference"], map_location="cpu", weights_only=True)
    sync()
    artifacts_bytes = None
    if cache == "artifacts":
        with open(artifacts_file, "rb") as f:
            artifacts_bytes = f.read()
    t_tool = time.monotonic_ns()

    with torch.inference_mode():
        patches = {}
        if cache == "artifacts":
            torch.compiler.load_cache_artifacts(artifacts_bytes)
        if path == "aoti":
            # LibTorch's C++ loader (torch::inductor::AOTIModelPackageLoader), as the C++ path runs it.
            index = torch.device(device).index or 0 if device == "cuda" else -1
            loader = torch._C._aoti.AOTIModelPackageLoader(spec["aoti_package"], "model", False, 1, index)
            call = lambda: loader.boxed_run(list(flat))  # noqa: E731
        elif path == "aoti:python":
            model = torch._inductor.aoti_load_package(spec["aoti_package"])
            call = lambda: model(*args, **kwargs)  # noqa: E731
        else:
            module = _load_module(torch, paths, spec, device)
            if path != "eager":
                mode, patches, options = paths.compile_settings(torch, path.partition(":")[2] or "default",
                                                                spec["kernel_profile"])
                module = torch.compile(module, dynamic=False, mode=mode, options=options)
            call = lambda: module(*args, **kwargs)  # noqa: E731
        sync()
        # ohprof's compile log (torch's compile callbacks), for a compile path only and once torch.compile
        # has imported Dynamo: installing it before would import Dynamo and Inductor in ohprof's own time
        # and hide them from the load. What installing it takes is `hook`, not counted.
        hook_start = time.monotonic_ns()
        log = paths.compile_log(torch) if path.startswith("compile") else None
        first_event = len(log.events) if log is not None else 0
        t_loaded = time.monotonic_ns()
        hook_ns = t_loaded - hook_start
        if patches:  # a compile path's Inductor settings; torch.compile has imported Inductor by now
            with torch._inductor.config.patch(patches):
                outputs = call()
        else:  # touching torch._inductor.config here would import Inductor (about 1 s) into the first call
            outputs = call()
        sync()
        t_first = time.monotonic_ns()
    memory = _memory()  # before the output check and the artifacts' save, which are ohprof's own work
    compile_ns = _compile_ns(log.events, first_event, t_loaded, t_first) if log is not None else 0
    check = paths.compare_outputs(torch, reference, paths._flatten(torch, outputs))
    result = {"ok": True, "pid": os.getpid(),
              "times": {"main": t_main, "torch": t_torch, "tool": t_tool, "loaded": t_loaded, "first": t_first,
                        "compile": compile_ns, "hook": hook_ns},
              "check": {"passed": bool(check["passed"]), "max_abs_diff": check["max_abs_diff"],
                        "detail": check["detail"]},
              "memory": memory, "artifacts_saved": False, "artifacts_note": ""}
    if cache == "fill":
        saved = torch.compiler.save_cache_artifacts() if hasattr(torch.compiler, "save_cache_artifacts") else None
        if saved is None:
            result["artifacts_note"] = "torch.compiler.save_cache_artifacts saved nothing"
        else:
            with open(artifacts_file, "wb") as f:
                f.write(saved[0])
            result["artifacts_saved"] = True
    return result


def main(spec, argv, t_main):
    path, cache, _cache_dir, artifacts_file, result_file = argv
    try:
        result = _run(spec, path, cache, artifacts_file, t_main)
        code = 0
    except BaseException as e:  # the user's model, torch or Ctrl-C: one line for the measuring process
        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
        result = {"ok": False, "error": f"{type(e).__name__}: {first}" if first else type(e).__name__}
        code = 1
    _write(result_file, result)
    sys.stdout.flush()
    sys.stderr.flush()
    # Without finalizing the interpreter (tearing down after import torch can crash; nothing is left to do).
    os._exit(code)
