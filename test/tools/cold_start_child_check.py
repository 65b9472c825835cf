"""A cold-start process (python/ohprof/_cold_start.py) times the path, not ohprof.

An eager path's fresh process imports torch and calls the user's module: nothing in it needs Inductor
or Dynamo, so neither may be imported while its load and first call are timed. Until 2026-12-05 the child
ran every first call under torch._inductor.config.patch({}), whose first touch imports Inductor (about
1 s on this machine) and counted it as the eager and AOTI paths' first call.

Known answers: after _run(spec, "eager", "none", ...) in a fresh interpreter, torch._inductor and
torch._dynamo are not in sys.modules, and the output check passes against the model's own output
computed here. Importing examples/models/tiny_models.py (the tests' and docs/results' model module)
does not import Dynamo either: it did until 2026-12-05, about 1 s counted as every such model's load.
The child's own memory ("Fresh-process memory") is a resident set above 100 MB (import torch alone) with its
peak not below it; _cold_start._memory reads known status files right (kB to bytes; None without VmHWM, with
another unit or a non-number) and this process's peak as getrusage does.
Usage: cold_start_child_check.py SOURCE_DIR WORK_DIR (the venv's python, with torch).
"""
import os
import shutil
import subprocess
import sys

CHILD = r'''
import json, sys, time
t_main = time.monotonic_ns()
import torch
from ohprof import _cold_start, _paths
spec = json.loads(sys.argv[1])
result = _cold_start._run(spec, "eager", "none", None, t_main)
print(json.dumps({"result": result, "inductor": "torch._inductor" in sys.modules,
                  "dynamo": "torch._dynamo" in sys.modules}))
'''


def memory_reader_problems(work):
    """_cold_start._memory on status files with known answers, and on this process against getrusage."""
    import resource

    from ohprof import _cold_start
    problems = []
    cases = [("Name:\tpython\nVmHWM:\t   20 kB\nVmRSS:\t   12 kB\n", {"rss_bytes": 12 * 1024, "peak_rss_bytes": 20 * 1024}),
             ("VmRSS:\t12 kB\n", None),                     # no high-water mark
             ("VmRSS:\t12 MB\nVmHWM:\t20 MB\n", None),      # a unit the kernel does not write
             ("VmRSS:\tmany kB\nVmHWM:\t20 kB\n", None)]    # not a number
    for k, (text, want) in enumerate(cases):
        path = os.path.join(work, f"status{k}")
        with open(path, "w") as f:
            f.write(text)
        if _cold_start._memory(path) != want:
            problems.append(f"_memory on {text!r}: {_cold_start._memory(path)}, expected {want}")
    if _cold_start._memory(os.path.join(work, "absent")) is not None:
        problems.append("_memory of a file that is not there is not None")
    # the same high-water mark as getrusage's ru_maxrss (KiB on Linux), read one after the other
    peak = _cold_start._memory()["peak_rss_bytes"]
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    if abs(peak - maxrss) > 4 * 1024 * 1024:
        problems.append(f"_memory's peak {peak} B is not getrusage's {maxrss} B (within 4 MiB)")
    return problems


def main() -> int:
    source_dir, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # A model module of the test's own that imports torch alone, so that only ohprof's imports are judged.
    with open(os.path.join(work, "plain_model.py"), "w") as f:
        f.write("import torch\n\n\ndef mlp():\n    torch.manual_seed(0)\n"
                "    return torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8))\n")
    python_path = os.pathsep.join([os.path.join(source_dir, "python"), work])
    sys.path[:0] = python_path.split(os.pathsep)
    import json

    import plain_model
    import torch
    from ohprof import _paths

    x = torch.randn(3, 16, generator=torch.Generator().manual_seed(3))
    inputs = os.path.join(work, "inputs.pt")
    torch.save({"args": [x], "kwargs": {}, "flat": [x]}, inputs)
    with torch.inference_mode():
        want = _paths._flatten(torch, plain_model.mlp().eval()(x))
    reference = os.path.join(work, "reference.pt")
    torch.save(want, reference)
    spec = {"model": "plain_model:mlp", "exported": None, "aoti_package": None,
            "compile_source": _paths.SOURCE_MODULE, "device": "cpu", "kernel_profile": False,
            "inputs": inputs, "reference": reference, "weights": None}
    env = dict(os.environ, PYTHONPATH=python_path)
    child = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)], capture_output=True, text=True, env=env,
                           timeout=300, check=False)
    if child.returncode != 0:
        print(child.stdout[-2000:], child.stderr[-2000:])
        print("FAIL: the child exited", child.returncode)
        return 1
    got = json.loads(child.stdout.strip().splitlines()[-1])
    problems = []
    result = got["result"]
    if not result.get("ok") or not result["check"]["passed"]:
        problems.append(f"the eager cold start did not pass its output check: {result}")
    if got["inductor"]:
        problems.append("the eager cold start imported torch._inductor (ohprof's time counted as the path's)")
    if got["dynamo"]:
        problems.append("the eager cold start imported torch._dynamo")
    tiny = subprocess.run([sys.executable, "-c", "import sys, tiny_models; print('torch._dynamo' in sys.modules)"],
                          capture_output=True, text=True, timeout=300, check=False,
                          env=dict(os.environ, PYTHONPATH=os.path.join(source_dir, "examples", "models")))
    if tiny.stdout.strip() != "False":
        problems.append(f"importing tiny_models imported Dynamo (or failed): {tiny.stdout.strip()} {tiny.stderr[-300:]}")
    # "Fresh-process memory": the child read its own memory, the peak not below the resident set
    memory = result.get("memory") or {}
    if not (memory.get("rss_bytes", 0) > 100_000_000 and memory.get("peak_rss_bytes", 0) >= memory["rss_bytes"]):
        problems.append(f"the child's memory is not a resident set above 100 MB with its peak: {memory}")
    problems.extend(memory_reader_problems(work))
    for problem in problems:
        print("FAIL:", problem)
    if not problems:
        print("OK: an eager cold start imports neither Inductor nor Dynamo, its first output matches, and "
              "tiny_models imports no Dynamo")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
