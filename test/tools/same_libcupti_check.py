#!/usr/bin/env python3
"""The measuring binary and the GPU check load the same libcupti (docs/cupti.md, "Which libcupti").

  same_libcupti_check.py BINARY BINARY

Resolves each binary's libcupti.so with ldd and exits 1, naming both files, when they differ (0 when
they agree, 77 when ldd is missing or a binary links no libcupti).
"""
import shutil
import subprocess
import sys


def cupti(binary):
    out = subprocess.run(["ldd", binary], capture_output=True, text=True, check=False).stdout
    for line in out.splitlines():
        if "libcupti" in line and "=>" in line:
            return line.split("=>", 1)[1].split("(")[0].strip()
    return None


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2])
        return 2
    if shutil.which("ldd") is None:
        print("same_libcupti_check: no ldd here: skipped")
        return 77
    found = {b: cupti(b) for b in argv[1:]}
    if any(v is None for v in found.values()):
        print(f"same_libcupti_check: a binary links no libcupti ({found}): skipped")
        return 77
    if len(set(found.values())) != 1:
        for binary, library in found.items():
            print(f"{binary}: {library}")
        print("the two binaries load different libcupti files; give them the same RUNPATH (CMakeLists.txt)")
        return 1
    print(f"both load {next(iter(found.values()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
