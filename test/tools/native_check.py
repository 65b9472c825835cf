#!/usr/bin/env python3
"""python/ohprof/_native.py's one-line answers to a user's environment, against stand-ins for torch
(no torch needed; the real first-use build is checked by pip_install_check.py):

  1. no torch: "torch is not installed in <python>", with what to do;
  2. a torch older than MIN_TORCH: "older than ohprof supports", naming both versions and the override;
     with OHPROF_ALLOW_OLDER_TORCH=1 it passes with one warning line on stderr (any other value refuses);
     the oldest supported one and newer ones (local version tags too) pass, with no warning;
  3. no C++ compiler (CXX names none): "needs a C++ compiler", before anything is built;
  4. the cache key changes with torch's version, its CUDA and ohprof's sources, and not otherwise;
  5. a kit without manifest (a checkout without a build): says to install with pip or use build/ohprof;
  6. _measure turns each into exit 16 with one line on stderr (a child process);
  7. CUDA's crt/host_defines.h, which torch's CUDA 13 wheel lacks: none added when the wheel has it; else
     the toolkit's or Triton's folder of the same CUDA major version, the toolkit first; else one line
     naming nvidia-cuda-crt and CUDA_HOME;
  8. the link names the libstdc++ this process has loaded (torch's), by path;
  9. a compiler whose -print-file-name=libstdc++.so names no file (only a static libstdc++) builds no
     AOTI package: one line naming it, and a compiler on PATH with a shared libstdc++ to set CXX to (or
     the distribution's g++); one that names a file, or cannot be run, none.
Usage: native_check.py SOURCE_DIR
"""
import io
import os
import subprocess
import sys
import tempfile
import types


def fake_torch(version, cuda="13.0"):
    torch = types.ModuleType("torch")
    torch.__version__ = version
    torch.__file__ = "/nonexistent/site-packages/torch/__init__.py"
    torch.version = types.SimpleNamespace(cuda=cuda, git_version="abc")
    torch._C = types.SimpleNamespace(_GLIBCXX_USE_CXX11_ABI=True)
    return torch


def stderr_of(call):
    """What `call` writes to sys.stderr (its return value is dropped)."""
    saved, sys.stderr = sys.stderr, io.StringIO()
    try:
        call()
        return sys.stderr.getvalue()
    finally:
        sys.stderr = saved


def main():
    source_dir = sys.argv[1]
    sys.path.insert(0, os.path.join(source_dir, "python"))
    from ohprof import _native

    problems = []

    def expect_problem(what, call, *texts):
        try:
            call()
            problems.append(f"{what}: no EnvironmentProblem")
        except _native.EnvironmentProblem as e:
            message = str(e)
            if "\n" in message or not all(t in message for t in texts):
                problems.append(f"{what}: {message!r} lacks {texts}")

    # 1.
    sys.modules["torch"] = None  # import torch raises ImportError
    expect_problem("no torch", _native.import_torch, "torch is not installed in", sys.executable, "pip install torch")
    # 2.
    oldest = f"{_native.MIN_TORCH[0]}.{_native.MIN_TORCH[1]}"
    older = f"{_native.MIN_TORCH[0]}.{_native.MIN_TORCH[1] - 1}.3"
    sys.modules["torch"] = fake_torch(older)
    expect_problem("old torch", _native.import_torch, f"torch {older}", f"{oldest} or newer", "pip install -U torch",
                   "OHPROF_ALLOW_OLDER_TORCH=1")
    os.environ["OHPROF_ALLOW_OLDER_TORCH"] = "yes"
    expect_problem("old torch, override not 1", _native.import_torch, "older than ohprof supports")
    os.environ["OHPROF_ALLOW_OLDER_TORCH"] = "1"
    warned = stderr_of(_native.import_torch)
    if warned.count("\n") != 1 or f"torch {older} is older than ohprof supports" not in warned \
            or "OHPROF_ALLOW_OLDER_TORCH=1" not in warned:
        problems.append(f"old torch allowed: warning {warned!r}")
    for fine in (f"{oldest}.0", "2.15.0"):
        sys.modules["torch"] = fake_torch(fine)
        if stderr_of(_native.import_torch):
            problems.append(f"torch {fine} warned with the override set")
        sys.modules["torch"] = fake_torch(older)
    del os.environ["OHPROF_ALLOW_OLDER_TORCH"]
    for fine in (f"{oldest}.0", f"{oldest}.1+cu130", "2.15.0", "3.0.0a0+git1234"):
        sys.modules["torch"] = fake_torch(fine)
        try:
            _native.import_torch()
        except _native.EnvironmentProblem as e:
            problems.append(f"torch {fine} refused: {e}")
    # 3.
    os.environ["CXX"] = "/nonexistent/g++"
    sys.modules["torch.utils"] = types.ModuleType("torch.utils")
    sys.modules["torch.utils.cpp_extension"] = types.ModuleType("torch.utils.cpp_extension")
    sys.modules["torch.utils"].cpp_extension = sys.modules["torch.utils.cpp_extension"]
    sys.modules["torch"].utils = sys.modules["torch.utils"]
    expect_problem("no compiler", lambda: _native._check_tools(sys.modules["torch"]), "needs a C++ compiler",
                   "'/nonexistent/g++' is not on PATH")
    del os.environ["CXX"]
    # 4.
    kit = {"source_hash": "s1"}
    base = _native.build_key(fake_torch("2.14.1+cu130"), kit)
    if base != _native.build_key(fake_torch("2.14.1+cu130"), kit):
        problems.append("the cache key is not stable")
    for what, key in (("torch", _native.build_key(fake_torch("2.14.0+cu130"), kit)),
                      ("cuda", _native.build_key(fake_torch("2.14.1+cu130", cuda="12.8"), kit)),
                      ("sources", _native.build_key(fake_torch("2.14.1+cu130"), {"source_hash": "s2"}))):
        if key == base:
            problems.append(f"the cache key does not change with {what}")
    # 5.
    if not os.path.isfile(os.path.join(_native.BUILD_KIT, "manifest.json")):
        expect_problem("no kit", _native.read_kit, "install it with pip", "build/ohprof")

    # 6. the measuring side's entry, as the front starts it, with no torch importable
    blocker = tempfile.mkdtemp(prefix="ohprof-no-torch-")
    with open(os.path.join(blocker, "torch.py"), "w") as f:
        f.write("raise ImportError('No module named torch (a stand-in)')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([blocker, os.path.join(source_dir, "python")]))
    env.pop("OHPROF_EXTENSION", None)
    child = subprocess.run([sys.executable, "-c", "from ohprof._measure import main; main()", "ohprof", "compare"],
                           capture_output=True, text=True, env=env, check=False)
    os.remove(os.path.join(blocker, "torch.py"))
    os.rmdir(blocker)
    lines = child.stderr.strip().splitlines()
    if child.returncode != 16 or len(lines) != 1 or not lines[0].startswith("ohprof: error: torch is not installed"):
        problems.append(f"_measure without torch: exit {child.returncode}, stderr {child.stderr!r}")

    # 7.
    def header_tree(root, version, crt):
        os.makedirs(os.path.join(root, "crt"), exist_ok=True)
        with open(os.path.join(root, "cuda.h"), "w") as f:
            f.write(f"#ifndef __cuda_cuda_h__\n#define CUDA_VERSION {version}\n#endif\n")
        if crt:
            open(os.path.join(root, "crt", "host_defines.h"), "w").close()
        return root

    tree = tempfile.mkdtemp(prefix="ohprof-crt-")
    site = os.path.join(tree, "site-packages")
    torch13 = fake_torch("2.14.1+cu130")
    torch13.__file__ = os.path.join(site, "torch", "__init__.py")
    wheel = header_tree(os.path.join(site, "nvidia", "cu13", "include"), 13000, crt=False)
    toolkit12 = os.path.join(tree, "cuda-12.8")
    header_tree(os.path.join(toolkit12, "include"), 12080, crt=True)
    toolkit13 = os.path.join(tree, "cuda-13.0")
    header_tree(os.path.join(toolkit13, "targets", "x86_64-linux", "include"), 13000, crt=True)
    triton = os.path.join(site, "triton", "backends", "nvidia", "include")
    for what, cuda_home, with_triton, expected in (
            ("toolkit 13", toolkit13, True, os.path.join(toolkit13, "targets", "x86_64-linux", "include")),
            ("toolkit 12 only: Triton's", toolkit12, True, triton),
            ("no toolkit: Triton's", None, True, triton)):
        if with_triton:
            header_tree(triton, 13000, crt=True)
        got = _native.crt_include(torch13, [wheel], cuda_home, lambda header: False)
        if got != expected:
            problems.append(f"crt, {what}: {got!r}, expected {expected!r}")
    header_tree(wheel, 13000, crt=True)
    if _native.crt_include(torch13, [wheel], toolkit13, lambda header: False) is not None:
        problems.append("crt: a folder was added though the wheel has crt/host_defines.h")
    os.remove(os.path.join(wheel, "crt", "host_defines.h"))
    asked = []
    if _native.crt_include(torch13, [wheel], toolkit13, lambda header: asked.append(header) or True) is not None \
            or asked != ["crt/host_defines.h"]:
        problems.append(f"crt: a folder was added though the compiler finds crt/host_defines.h (asked {asked})")
    os.remove(os.path.join(triton, "crt", "host_defines.h"))
    expect_problem("crt nowhere", lambda: _native.crt_include(torch13, [wheel], toolkit12, lambda header: False),
                   "crt/host_defines.h", "pip install 'nvidia-cuda-crt==13.0.*'", "CUDA_HOME")

    # 8.
    import ctypes
    ctypes.CDLL("libstdc++.so.6")
    flags = _native.libstdcxx_link_flags()
    if len(flags) != 1 or not os.path.isabs(flags[0]) or not os.path.basename(flags[0]).startswith("libstdc++.so") \
            or not os.path.isfile(flags[0]):
        problems.append(f"libstdc++ loaded: link flags {flags!r}, expected its path")
    if _native.loaded_library("libohprof-no-such-library.so") is not None:
        problems.append("loaded_library found a library that is not loaded")

    # 9.
    def fake_compiler(answer):
        path = os.path.join(tree, f"cxx-{len(os.listdir(tree))}")
        with open(path, "w") as f:
            f.write(f"#!/bin/sh\necho '{answer}'\n")
        os.chmod(path, 0o755)
        return path

    static_only = fake_compiler("libstdc++.so")
    shared = os.path.join(tree, "libstdc++.so")
    open(shared, "w").close()
    shared_compiler = fake_compiler(shared)
    # What PATH offers instead: a g++ with a shared libstdc++ is named; with none, the distribution's g++.
    offered = os.path.join(tree, "offered")
    os.makedirs(offered)
    os.symlink(shared_compiler, os.path.join(offered, "g++"))
    saved_path = os.environ["PATH"]
    os.environ["PATH"] = offered
    refused = _native.aoti_build_refusal(static_only)
    if not refused or "\n" in refused or static_only not in refused or "only a static libstdc++" not in refused \
            or f"set CXX to a compiler with a shared libstdc++, such as {os.path.join(offered, 'g++')}" not in refused:
        problems.append(f"static libstdc++: refusal {refused!r}")
    os.environ["PATH"] = os.path.join(tree, "nothing-here")
    refused = _native.aoti_build_refusal(static_only)
    if not refused.endswith("such as your distribution's g++"):
        problems.append(f"static libstdc++, no other compiler: refusal {refused!r}")
    os.environ["PATH"] = saved_path
    with_arguments = f"{static_only} -O2"
    if not _native.aoti_build_refusal(with_arguments):
        problems.append("static libstdc++: no refusal for a compiler given with arguments")
    os.environ["CXX"] = static_only  # the compiler Inductor uses: $CXX when set
    if not _native.aoti_build_refusal():
        problems.append("static libstdc++: no refusal for $CXX")
    del os.environ["CXX"]
    os.chdir(tree)  # a file named libstdc++.so in the working folder says nothing of the compiler
    if not _native.aoti_build_refusal(static_only):
        problems.append("static libstdc++: no refusal when the working folder holds a libstdc++.so")
    for what, compiler in (("shared", shared_compiler), ("missing", "/nonexistent/c++"),
                           ("a path to no file", fake_compiler(os.path.join(tree, "absent", "libstdc++.so")))):
        if bool(_native.aoti_build_refusal(compiler)) != (what == "a path to no file"):
            problems.append(f"static libstdc++: {what} compiler: refusal {_native.aoti_build_refusal(compiler)!r}")

    for problem in problems:
        print("FAIL:", problem)
    if not problems:
        print("OK: no torch, an old torch, no compiler, no kit and no crt headers are one line each; exit 16; the crt folder found; a static-only libstdc++ builds no AOTI package")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
