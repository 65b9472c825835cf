#!/usr/bin/env python3
"""The constants defined on both sides of the Python boundary agree: every exit code python/ohprof/_paths.py
raises (and python/ohprof/_measure.py exits with) has the number and name C++ gives it (include/ohprof/base/exit_codes.hpp), its dtype spellings are
exactly those --input accepts in C++ (src/model/input_spec.cpp), and its paths are compare's
(src/session/compare.cpp) less aoti, in the same order, and so are the results of a Dynamo path's probe
call (include/ohprof/model/execution_check.hpp, CompiledCall) and the reasons it gives for not knowing
(ProbeUnknown, less those the C++ side says itself). Imports the module with the standard library
only (it imports torch lazily).

Usage: python_boundary_check.py BOUNDARY_CONSTANTS_BINARY SOURCE_DIR
"""
import json
import os
import subprocess
import sys


def main(argv):
    cpp = json.loads(subprocess.run([argv[1]], capture_output=True, text=True, check=True).stdout)
    sys.path.insert(0, os.path.join(argv[2], "python"))
    from ohprof import _measure, _paths as py  # noqa: E402

    problems = []
    names = {name.upper(): value for name, value in cpp["exit_codes"].items()}
    # Every module-level integer constant but the artifact format is an exit code, in both modules that
    # end the process with one.
    declared = {}
    for module, label in ((py, "python/ohprof/_paths.py"), (_measure, "python/ohprof/_measure.py")):
        codes = {k: v for k, v in vars(module).items()
                 if k.isupper() and isinstance(v, int) and not isinstance(v, bool) and k != "ARTIFACT_FORMAT"}
        for name, value in sorted(codes.items()):
            if name not in names:
                problems.append(f"{label}: {name} = {value} is no exit code of ohprof")
            elif names[name] != value:
                problems.append(f"{label}: {name} = {value}, but C++ says {names[name]}")
        if not codes:
            problems.append(f"{label} declares no exit codes: the check found nothing to compare")
        declared.update({f"{label}:{k}": v for k, v in codes.items()})
    if py.DTYPES != cpp["dtypes"]:
        only_py = sorted(set(py.DTYPES.items()) - set(cpp["dtypes"].items()))
        only_cpp = sorted(set(cpp["dtypes"].items()) - set(py.DTYPES.items()))
        problems.append(f"dtype spellings differ: only in Python {only_py}, only in C++ {only_cpp}")
    if list(py.PYTHON_PATHS) != cpp["python_paths"]:
        problems.append(f"paths differ: Python {list(py.PYTHON_PATHS)}, C++ {cpp['python_paths']}")
    if list(py.VARIANTS) != cpp["variants"]:
        problems.append(f"variants differ: Python {list(py.VARIANTS)}, C++ {cpp['variants']}")
    sources = [py.SOURCE_MODULE, py.SOURCE_PROGRAM, py.SOURCE_PACKAGE]
    if sources != cpp["sources"]:
        problems.append(f"path sources differ: Python {sources}, C++ {cpp['sources']}")
    if list(py.COMPILED_CALLS) != cpp["compiled_calls"]:
        problems.append(f"probe results differ: Python {list(py.COMPILED_CALLS)}, C++ {cpp['compiled_calls']}")
    if list(py.PROBE_UNKNOWN) != cpp["probe_unknown"]:
        problems.append(f"probe's unknowns differ: Python {list(py.PROBE_UNKNOWN)}, C++ {cpp['probe_unknown']}")
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"OK {len(declared)} exit codes, {len(py.DTYPES)} dtype spellings, {len(py.PYTHON_PATHS)} paths, "
          f"{len(py.VARIANTS)} variants, {len(sources)} sources and {len(py.COMPILED_CALLS)} probe results agree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
