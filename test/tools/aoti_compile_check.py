"""compile_aoti (python/ohprof/_paths.py) against a stand-in for torch._inductor.aoti_compile_and_package:

  1. compiles in two processes at once take turns (their intervals, logged by the stand-in, never
     overlap), since Inductor's own lock does not cover packaging its metadata JSON; the seconds
     compile_aoti returns are the compile's, not the wait for the lock;
  2. a package with an empty metadata JSON (what a concurrent compile leaves) is compiled once more and
     the good second one kept;
  3. a package broken twice is refused with INVALID_PACKAGE naming the file, and nothing is left at the
     package's path or beside it;
  4. package_problem says nothing of a good package and names what is wrong with a bad one.
Usage: aoti_compile_check.py SOURCE_DIR (any python3; torch is not needed).
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import types
import zipfile

GOOD_METADATA = b'{"AOTI_DEVICE_KEY": "cpu"}'


def write_package(path, metadata):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data/aotinductor/model/wrapper.cpp", "// wrapper\n")
        archive.writestr("data/aotinductor/model/wrapper_metadata.json", metadata)


def fake_torch(log_path=None, metadata_per_call=(GOOD_METADATA,)):
    """A torch whose AOTI compile writes a package with the next of `metadata_per_call` (the last one
    repeats), logging its start and end times to `log_path`."""
    calls = []

    def aoti_compile_and_package(program, package_path, inductor_configs):
        calls.append(package_path)
        if log_path:
            with open(log_path, "a") as f:
                f.write(f"start {os.getpid()} {time.monotonic()}\n")
        time.sleep(0.4 if log_path else 0)
        write_package(package_path, metadata_per_call[min(len(calls), len(metadata_per_call)) - 1])
        if log_path:
            with open(log_path, "a") as f:
                f.write(f"end {os.getpid()} {time.monotonic()}\n")

    torch = types.SimpleNamespace(_inductor=types.SimpleNamespace(aoti_compile_and_package=aoti_compile_and_package))
    return torch, calls


def child(source_dir, out_dir, log_path):
    sys.path.insert(0, os.path.join(source_dir, "python"))
    from ohprof import _paths as op
    torch, _ = fake_torch(log_path)
    for i in range(2):
        seconds = op.compile_aoti(torch, None, os.path.join(out_dir, f"p{os.getpid()}-{i}.pt2"), {})
        with open(log_path, "a") as f:
            f.write(f"took {os.getpid()} {seconds}\n")


def main() -> int:
    source_dir = sys.argv[1]
    if len(sys.argv) == 5 and sys.argv[2] == "--child":
        child(source_dir, sys.argv[3], sys.argv[4])
        return 0
    sys.path.insert(0, os.path.join(source_dir, "python"))
    from ohprof import _paths as op
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        # Compiles in Inductor's cache folder: the lock lives there.
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(tmp, "inductor"))
        os.makedirs(env["TORCHINDUCTOR_CACHE_DIR"])
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = env["TORCHINDUCTOR_CACHE_DIR"]

        # 1. Two processes, two compiles each: no two compiles at once.
        log = os.path.join(tmp, "log")
        children = [subprocess.Popen([sys.executable, __file__, source_dir, "--child", tmp, log], env=env)
                    for _ in range(2)]
        if any(c.wait(timeout=60) != 0 for c in children):
            problems.append("a child compile failed")
        lines = [line.split() for line in open(log)]
        events = [e for e in lines if e[0] in ("start", "end")]
        # What compile_aoti says each took: the compile (0.4 s), not the wait for the other's (another 0.4-1.2 s).
        took = [float(e[2]) for e in lines if e[0] == "took"]
        if len(took) != 4 or not all(0.35 <= t < 0.75 for t in took):
            problems.append(f"compile_aoti's seconds should be each compile's own 0.4 s, without the wait: {took}")
        running = 0
        most = 0
        for kind, _pid, _when in sorted(events, key=lambda e: float(e[2])):
            running += 1 if kind == "start" else -1
            most = max(most, running)
        if len([e for e in events if e[0] == "start"]) != 4:
            problems.append(f"expected 4 compiles, the log has {events}")
        if most != 1:
            problems.append(f"{most} compiles ran at once; the lock should allow one")
        packages = [n for n in os.listdir(tmp) if n.endswith(".pt2")]
        if len(packages) != 4 or any(".tmp." in n for n in packages):
            problems.append(f"expected 4 packages and no temporary files, found {packages}")

        # 2. Broken once, then good: compiled again, the good one kept.
        torch, calls = fake_torch(metadata_per_call=(b"", GOOD_METADATA))
        path = os.path.join(tmp, "retry.pt2")
        op.compile_aoti(torch, None, path, {})
        if len(calls) != 2:
            problems.append(f"a broken package should be compiled once more; compiled {len(calls)} times")
        if op.package_problem(path) is not None:
            problems.append(f"the kept package is broken: {op.package_problem(path)}")

        # 3. Broken twice: refused, nothing left behind.
        torch, calls = fake_torch(metadata_per_call=(b"",))
        path = os.path.join(tmp, "broken.pt2")
        try:
            op.compile_aoti(torch, None, path, {})
            problems.append("a package broken twice was accepted")
        except op.OhprofError as e:
            if e.code != op.INVALID_PACKAGE or "wrapper_metadata.json" not in e.message or "\n" in e.message:
                problems.append(f"the refusal should be one line, INVALID_PACKAGE, naming the file: {e.code} {e.message!r}")
        left = [n for n in os.listdir(tmp) if n.startswith("broken")]
        if left:
            problems.append(f"a refused compile left {left}")

        # 4. package_problem on its own.
        good = os.path.join(tmp, "good.pt2")
        write_package(good, GOOD_METADATA)
        cut = os.path.join(tmp, "cut.pt2")
        write_package(cut, GOOD_METADATA[:10])
        not_zip = os.path.join(tmp, "not-zip.pt2")
        with open(not_zip, "w") as f:
            f.write("hello")
        if op.package_problem(good) is not None:
            problems.append(f"a good package has a problem: {op.package_problem(good)}")
        if "wrapper_metadata.json" not in (op.package_problem(cut) or ""):
            problems.append(f"a cut metadata JSON is not named: {op.package_problem(cut)}")
        if "zip" not in (op.package_problem(not_zip) or ""):
            problems.append(f"a file that is not a zip is not said so: {op.package_problem(not_zip)}")
    for p in problems:
        print("FAIL:", p)
    print("aoti compile check:", "ok" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
