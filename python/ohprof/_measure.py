"""The measuring side of `ohprof run`, `compare` and `sweep`, in the user's own Python.

The torch-free `ohprof` front checks the command line and then replaces itself (same process id, so
Ctrl-C, `kill` and the exit code are the measurement's) with

    PYTHON -c 'from ohprof._measure import main; main()' ohprof ARGS...

where PYTHON is --python, $OHPROF_PYTHON, or the interpreter of the environment ohprof was installed
into (docs/usage.md, "Which Python measures"). This module imports torch first (so the extension
resolves LibTorch against the copy this interpreter uses), then ohprof's measuring extension, and hands
it the same command line. It never returns: the process ends with the command's exit code, without
finalizing the interpreter (tearing down after `import torch` can crash, and nothing is left to do).
"""
import os
import sys

from ohprof import _native

# Exit codes shared with the C++ side (include/ohprof/base/exit_codes.hpp; checked by
# test/tools/python_boundary_check.py).
INTERNAL_ERROR = 1
ENVIRONMENT_ERROR = 16
INTERRUPTED = 130


def _fail(code, message):
    sys.stderr.write(f"ohprof: error: {message}\n")
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(code)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] != "ohprof":
        argv = ["ohprof"] + argv
    sys.argv = argv  # what the model's code sees, as it would under `ohprof`
    try:
        extension = _native.load()
    except _native.EnvironmentProblem as e:
        _fail(ENVIRONMENT_ERROR, str(e))
    except KeyboardInterrupt:
        _fail(INTERRUPTED, "interrupted before measuring; nothing was written")
    # The model's own prints, and any other Python code's, go to stderr: stdout carries ohprof's table or, with
    # --export-json -, its JSON alone (docs/usage.md, "--export-json"); ohprof writes them on the process's stdout.
    sys.stdout = sys.stderr
    code = extension.run_cli(argv)
    sys.__stdout__.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    main()
