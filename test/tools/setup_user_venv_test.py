#!/usr/bin/env python3
"""Checks that tools/setup and tools/python use a venv named by OHPROF_VENV as it is: never created,
changed or deleted (an earlier tools/setup deleted any venv without its own completion marker and
installed the pinned torch into it). A fake venv whose python fails to import torch must give exit 2
and a one-line message naming OHPROF_VENV, with every file left in place; one whose python succeeds
must be used as it is: setup prints its path, tools/python runs its python.

Usage: setup_user_venv_test.py SOURCE_DIR
"""

import os
import subprocess
import sys
import tempfile


def fail(message):
    print(f"FAIL {message}", file=sys.stderr)
    sys.exit(1)


def make_venv(folder, importable):
    """A folder shaped like a venv whose bin/python stands in for the real one."""
    os.makedirs(os.path.join(folder, "bin"))
    with open(os.path.join(folder, "keep-me"), "w", encoding="utf-8") as f:
        f.write("the user's file\n")
    python = os.path.join(folder, "bin", "python")
    with open(python, "w", encoding="utf-8") as f:
        # `-c 'import torch, torchvision'` is setup's check; anything else is a run through tools/python.
        f.write("#!/bin/sh\n")
        f.write('if [ "$1" = "-c" ]; then exit %d; fi\n' % (0 if importable else 1))
        f.write('echo "fake python ran with: $*"\n')
    os.chmod(python, 0o755)
    return sorted(os.listdir(folder)), open(python, encoding="utf-8").read()


def run(tool, source, venv):
    env = dict(os.environ, OHPROF_VENV=venv)
    return subprocess.run([os.path.join(source, "tools", tool)] + (["hello"] if tool == "python" else []),
                          env=env, capture_output=True, text=True, timeout=120)


def main(argv):
    source = argv[1]
    with tempfile.TemporaryDirectory(prefix="ohprof-user-venv-") as tmp:
        broken = os.path.join(tmp, "broken")
        listing, script = make_venv(broken, importable=False)
        result = run("setup", source, broken)
        if result.returncode != 2:
            fail(f"setup with a venv lacking torch: exit {result.returncode}, expected 2; stderr: {result.stderr}")
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        if len(lines) != 1 or "OHPROF_VENV" not in lines[0] or "torch" not in lines[0]:
            fail(f"setup's error should be one line naming OHPROF_VENV and torch: {result.stderr!r}")
        if sorted(os.listdir(broken)) != listing or open(os.path.join(broken, "bin", "python")).read() != script:
            fail(f"setup changed the user's venv: {sorted(os.listdir(broken))}")

        good = os.path.join(tmp, "good")
        listing, script = make_venv(good, importable=True)
        result = run("setup", source, good)
        if result.returncode != 0 or result.stdout.strip() != good:
            fail(f"setup with a usable venv: exit {result.returncode}, stdout {result.stdout!r}, stderr {result.stderr!r}")
        result = run("python", source, good)
        if result.returncode != 0 or result.stdout.strip() != "fake python ran with: hello":
            fail(f"tools/python did not run the venv's python: {result.stdout!r} {result.stderr!r}")
        if sorted(os.listdir(good)) != listing or open(os.path.join(good, "bin", "python")).read() != script:
            fail(f"setup or tools/python changed the user's venv: {sorted(os.listdir(good))}")
    print("ok")


if __name__ == "__main__":
    main(sys.argv)
