"""ohprof's measuring extension: found, or built against the torch this interpreter imports.

The extension (`_ohprof_measure`) holds the C++ session, harness, collectors and runtimes; it links
LibTorch's C++ API, whose ABI changes with every torch release, so it is compiled against the torch of
the environment that runs it (docs/design/python-extension.md says why, and why not at `pip install`):

1. `OHPROF_EXTENSION=FILE`: that file, as built by a developer's CMake build (tools/build sets it
   through the front; nothing else does).
2. Otherwise the copy built for this exact torch, Python and ohprof in the cache
   (`$OHPROF_CACHE` as for the artifacts and tools/setup's venv, else `$XDG_CACHE_HOME/ohprof`, else `~/.cache/ohprof`; folder `ext/<key>`),
   built there on first use from the sources and torch-free static libraries that `pip install`
   put beside this file (`_build/`), with torch.utils.cpp_extension and ninja. One process builds at a
   time (a lock in the cache); the others wait.

Every problem a user can fix (no torch, a torch older than supported, no compiler, no Python headers,
no ninja, a failed build) is an EnvironmentProblem: one line that says what to do; `ohprof` exits 16.
"""
import contextlib
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time

EXTENSION_NAME = "_ohprof_measure"
# The oldest torch release ohprof is built and checked against (docs/results/torch-versions-*.md).
MIN_TORCH = (2, 13)
# Set to 1, it lets an older torch through with a warning (docs/usage.md, "Supported torch").
ALLOW_OLDER_TORCH = "OHPROF_ALLOW_OLDER_TORCH"
HERE = os.path.dirname(os.path.abspath(__file__))
BUILD_KIT = os.path.join(HERE, "_build")


class EnvironmentProblem(Exception):
    """Something in the user's environment that ohprof needs and that is missing: one line."""


def cache_root():
    explicit = os.environ.get("OHPROF_CACHE")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ohprof")


def torch_version_tuple(text):
    """'2.14.1+cu130' -> (2, 14); None for text that is not a version."""
    parts = text.split("+")[0].split(".")
    try:
        return int(parts[0]), int(parts[1])
    except (IndexError, ValueError):
        return None


def import_torch():
    try:
        import torch
    except ImportError as e:
        raise EnvironmentProblem(
            f"torch is not installed in {sys.executable} ({e}); install it there (pip install torch), "
            "or name a Python that has it with --python or OHPROF_PYTHON") from None
    found = torch_version_tuple(torch.__version__)
    if found is not None and found < MIN_TORCH:
        supported = f"{MIN_TORCH[0]}.{MIN_TORCH[1]} or newer"
        if os.environ.get(ALLOW_OLDER_TORCH) == "1":
            # the user's own risk: a build or a measurement may fail where an older torch lacks an API
            sys.stderr.write(f"ohprof: warning: torch {torch.__version__} is older than ohprof supports "
                             f"({supported}); going on because {ALLOW_OLDER_TORCH}=1\n")
            sys.stderr.flush()
            return torch
        raise EnvironmentProblem(
            f"torch {torch.__version__} in {sys.executable} is older than ohprof supports "
            f"({supported}); upgrade it (pip install -U torch), name a Python with a newer torch with "
            f"--python or OHPROF_PYTHON, or set {ALLOW_OLDER_TORCH}=1 to try it anyway")
    return torch


def load_file(path):
    """The extension module in `path`, imported under its own name (the file's name does not matter)."""
    if not os.path.isfile(path):
        raise EnvironmentProblem(f"OHPROF_EXTENSION names {path}, which does not exist; build it (tools/build) "
                                 "or unset OHPROF_EXTENSION")
    loader = importlib.machinery.ExtensionFileLoader(EXTENSION_NAME, path)
    spec = importlib.util.spec_from_file_location(EXTENSION_NAME, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    try:
        loader.exec_module(module)
    except ImportError as e:
        raise EnvironmentProblem(
            f"the measuring extension {path} does not load in this Python and torch ({_first_line(e)}); "
            "it was built for another torch or Python: rebuild it, or remove it to have ohprof build it again") from None
    sys.modules[EXTENSION_NAME] = module
    return module


def inductor_compiler():
    """The C++ compiler Inductor compiles with: $CXX (run as written, arguments and all, as in
    "ccache g++"), else g++, as torch._inductor.config.cpp.cxx chooses on Linux."""
    return os.environ.get("CXX") or "g++"


def has_only_static_libstdcxx(compiler):
    """Whether `compiler` has only a static libstdc++: `-print-file-name=libstdc++.so` prints the bare
    name back (or a path to no file) instead of a file. What torch links with such a compiler (an AOTI package) carries a second
    C++ runtime beside torch's (docs/design/python-extension.md, "One C++ runtime"). False when it names
    a file, answers something else, or cannot be run."""
    try:
        command = shlex.split(compiler)
    except ValueError:
        return False
    if not command:
        return False
    try:
        found = subprocess.run(command + ["-print-file-name=libstdc++.so"], capture_output=True, text=True,
                               timeout=20, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return False
    return found == "libstdc++.so" or (os.path.isabs(found) and not os.path.isfile(found))


def shared_runtime_compiler(exclude):
    """The first of g++, c++ and clang++ on PATH, other than `exclude`, that has a shared libstdc++; None."""
    excluded = shutil.which(shlex.split(exclude)[0]) if exclude.strip() else None
    for name in ("g++", "c++", "clang++"):
        found = shutil.which(name)
        if not found or (excluded and os.path.realpath(found) == os.path.realpath(excluded)):
            continue
        if not has_only_static_libstdcxx(found):
            return found
    return None


def aoti_build_refusal(compiler=None):
    """Why ohprof builds no AOTI package here, in one line ("" : it does): the compiler Inductor uses has
    only a static libstdc++, so the package would carry a second C++ runtime, which LibTorch does not load
    (std::bad_cast at load with torch 2.14 on the CPU; a crash when called with torch 2.11 on CUDA).
    Ends with what to do: a compiler found on PATH that has a shared libstdc++, when there is one."""
    compiler = compiler or inductor_compiler()
    if not has_only_static_libstdcxx(compiler):
        return ""
    other = shared_runtime_compiler(compiler)
    instead = f"such as {other}" if other else "such as your distribution's g++"
    return (f"the C++ compiler {compiler} has only a static libstdc++ (no libstdc++.so), and an AOTI package "
            "linked with it carries a second C++ runtime that LibTorch does not load (docs/design/"
            f"python-extension.md, \"One C++ runtime\"); set CXX to a compiler with a shared libstdc++, {instead}")


def load():
    """The measuring extension, built first if need be; torch is imported first."""
    torch = import_torch()
    explicit = os.environ.get("OHPROF_EXTENSION")
    if explicit:
        return load_file(explicit)
    kit = read_kit()
    folder = os.path.join(cache_root(), "ext", build_key(torch, kit))
    built = os.path.join(folder, EXTENSION_NAME + ".so")
    if not os.path.isfile(built):
        build(torch, kit, folder)
    return load_file(built)


def read_kit():
    manifest = os.path.join(BUILD_KIT, "manifest.json")
    if not os.path.isfile(manifest):
        raise EnvironmentProblem(
            f"this ohprof ({HERE}) has no measuring extension and nothing to build one from; install it with "
            "pip (pip install <ohprof checkout>), or in a checkout use build/ohprof after tools/build")
    with open(manifest) as f:
        return json.load(f)


def build_key(torch, kit):
    """What the built extension depends on: ohprof's sources, torch's build, the Python ABI, the compiler."""
    fields = [
        kit.get("source_hash", ""),
        torch.__version__,
        getattr(torch.version, "git_version", ""),
        str(torch.version.cuda),
        str(bool(torch._C._GLIBCXX_USE_CXX11_ABI)),
        sysconfig.get_config_var("SOABI") or sys.implementation.cache_tag,
        os.environ.get("CXX", "c++"),
    ]
    digest = hashlib.sha256("\n".join(fields).encode()).hexdigest()[:16]
    return f"torch{torch.__version__.replace('+', '-')}-{digest}"


def _first_line(exc):
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def wheel_cuda_dirs(torch):
    """The include and lib folders of the CUDA libraries that torch's wheel brought (nvidia/*), which
    carry CUPTI's and NVTX's headers and libcupti: [(include, lib)], first the CUDA 13 layout, then the
    CUDA 12 one (one package per library)."""
    site = os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__)))
    found = []
    for sub in ("cu13", "cuda_cupti", "cuda_runtime", "nvtx"):
        root = os.path.join(site, "nvidia", sub)
        if os.path.isdir(os.path.join(root, "include")):
            found.append((os.path.join(root, "include"), os.path.join(root, "lib")))
    return found


def _find_cupti(torch):
    for include, lib in wheel_cuda_dirs(torch):
        if not os.path.isfile(os.path.join(include, "cupti.h")):
            continue
        libs = sorted(name for name in os.listdir(lib) if name.startswith("libcupti.so")) if os.path.isdir(lib) else []
        if libs:
            return include, lib, libs[0]
    return None


def _cuda_header_version(include):
    """CUDA_VERSION of the cuda.h in `include` (13000 for 13.0), or None."""
    try:
        with open(os.path.join(include, "cuda.h")) as header:
            for line in header:
                fields = line.split()
                if len(fields) == 3 and fields[0] == "#define" and fields[1] == "CUDA_VERSION" and fields[2].isdigit():
                    return int(fields[2])
    except OSError:
        pass
    return None


def _compiler_finds_header(header):
    """Whether the C++ compiler ($CXX, else c++) finds `header` on its own include path."""
    try:
        command = shlex.split(os.environ.get("CXX") or "c++")
        done = subprocess.run(command + ["-E", "-x", "c++", "-", "-o", os.devnull], input=f"#include <{header}>\n",
                              capture_output=True, text=True, timeout=20, check=False)
    except (OSError, ValueError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def crt_include(torch, includes, cuda_home, compiler_finds=_compiler_finds_header):
    """A folder to put after `includes` (torch's wheel's CUDA headers) for the CUDA runtime's
    crt/host_defines.h, which CUPTI's and the runtime's headers include: None when one of `includes` has
    it, or the compiler finds it on its own include path (`compiler_finds(header)`: a CUDA toolkit installed
    into /usr/include or /usr/local/include). Torch's CUDA 13 wheels do not bring it (it is the nvidia-cuda-crt package, not among their
    requirements). Looked for, with the same CUDA major version as the wheel's cuda.h, in the CUDA toolkit
    (`cuda_home`: torch.utils.cpp_extension.CUDA_HOME) and in Triton's copy of the CUDA headers.
    Raises EnvironmentProblem when none has it."""
    crt = os.path.join("crt", "host_defines.h")
    if any(os.path.isfile(os.path.join(include, crt)) for include in includes):
        return None
    if compiler_finds("crt/host_defines.h"):
        return None
    wanted = next((v for v in (_cuda_header_version(i) for i in includes) if v is not None), None)
    site = os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__)))
    candidates = []
    if cuda_home:
        candidates += [os.path.join(cuda_home, "include"), os.path.join(cuda_home, "targets", "x86_64-linux", "include")]
    candidates.append(os.path.join(site, "triton", "backends", "nvidia", "include"))
    for candidate in candidates:
        if not os.path.isfile(os.path.join(candidate, crt)):
            continue
        version = _cuda_header_version(candidate)
        if wanted is None or (version is not None and version // 1000 == wanted // 1000):
            return candidate
    cuda = torch.version.cuda or "?"
    raise EnvironmentProblem(
        f"building the measuring extension needs CUDA's crt/host_defines.h, which torch's wheel (CUDA {cuda}) "
        f"does not bring and no CUDA {cuda.split('.')[0]} toolkit or Triton here has; "
        f"pip install 'nvidia-cuda-crt=={cuda}.*', or set CUDA_HOME to a CUDA {cuda} toolkit")


def _find_nvtx(torch):
    """The folder holding NVTX3's headers (nvtx3/nvToolsExt.h) among torch's wheel's CUDA folders."""
    for include, _ in wheel_cuda_dirs(torch):
        if os.path.isfile(os.path.join(include, "nvtx3", "nvToolsExt.h")):
            return include
    return None


def loaded_library(prefix):
    """The path of a shared library this process has mapped whose file name starts with `prefix`
    ("libz.so"), or None."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                fields = line.split()
                if len(fields) >= 6 and os.path.basename(fields[5]).startswith(prefix):
                    return fields[5]
    except OSError:
        pass
    return None


def zlib_link_flag():
    """How the extension links zlib (its trace reader and writer use it): the libz this interpreter has
    loaded (its zlib module links it), by path, so no development link (libz.so) is needed; else the
    system's by soname; else -lz."""
    import ctypes.util

    try:
        import zlib  # noqa: F401  (loads libz when the module is built against the shared one)
    except ImportError:
        pass
    path = loaded_library("libz.so")
    if path:
        return path
    soname = ctypes.util.find_library("z")
    return f"-l:{soname}" if soname else "-lz"


def libstdcxx_link_flags():
    """The libstdc++ that torch has loaded into this process, by path, before the compiler's own
    -lstdc++: the extension then shares torch's C++ runtime. A compiler that has only a static libstdc++
    (a relocated GCC, as on the lent H200: /opt/gcc, no libstdc++.so) would otherwise copy one into the
    extension, and two C++ runtimes in one process crash at the first locale call (2026-12-04). [] when
    none is mapped (the compiler's default then)."""
    path = loaded_library("libstdc++.so")
    return [path] if path else []


def _check_tools(torch):
    import logging

    # torch.utils.cpp_extension warns at import when a CUDA toolkit is installed but no GPU driver is:
    # true on CPU machines and irrelevant to a build with_cuda=False; stderr stays ohprof's own lines.
    logging.getLogger("torch.utils.cpp_extension").setLevel(logging.ERROR)
    from torch.utils import cpp_extension

    try:  # PyPI's ninja (a dependency of ohprof) keeps its binary in the environment, maybe not on PATH
        import ninja

        os.environ["PATH"] = ninja.BIN_DIR + os.pathsep + os.environ.get("PATH", "")
    except (ImportError, AttributeError):
        pass
    compiler = os.environ.get("CXX", "c++")
    if shutil.which(compiler) is None:
        raise EnvironmentProblem(
            f"ohprof builds its measuring extension against your torch on first use and needs a C++ compiler, "
            f"but '{compiler}' is not on PATH; install g++ 11 or newer (torch.compile on the CPU needs it too), "
            "or set CXX")
    header = os.path.join(sysconfig.get_paths()["include"], "Python.h")
    if not os.path.isfile(header):
        raise EnvironmentProblem(
            f"ohprof builds its measuring extension on first use and needs Python's headers, but {header} is "
            "missing; install them (Debian: apt-get install python3-dev; conda and uv Pythons have them)")
    if not cpp_extension.is_ninja_available():
        raise EnvironmentProblem(
            "ohprof builds its measuring extension on first use with ninja, which is not installed in this "
            "environment; pip install ninja")
    return cpp_extension


@contextlib.contextmanager
def holding(handle, waiting_line):
    """An exclusive flock on the open file `handle` across processes, held while the block runs (and
    released if the process dies); `waiting_line` goes to stderr when another process holds it. Closes
    the file. Shared with the AOTI compiles' lock (python/ohprof/_paths.py)."""
    import fcntl

    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            sys.stderr.write(waiting_line)
            sys.stderr.flush()
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build(torch, kit, folder):
    """Compiles the extension into `folder` (whole or not at all: a failed build leaves no module)."""
    cpp_extension = _check_tools(torch)
    os.makedirs(os.path.dirname(folder), exist_ok=True)
    with holding(open(folder + ".lock", "a+"), "ohprof: another ohprof is building the measuring extension; waiting for it\n"):
        built = os.path.join(folder, EXTENSION_NAME + ".so")
        if os.path.isfile(built):  # another process built it while this one waited
            return
        os.makedirs(folder, exist_ok=True)
        # torch's own lock file in the build folder, left by a build that was killed: this process holds
        # ohprof's lock, so nobody else is building here.
        with contextlib.suppress(FileNotFoundError):
            os.remove(os.path.join(folder, "lock"))
        sys.stderr.write(f"ohprof: building the measuring extension against torch {torch.__version__} "
                         f"(once per torch version; it can take a minute) in {folder}\n")
        sys.stderr.flush()
        kit_path = lambda rel: os.path.join(BUILD_KIT, rel)  # noqa: E731
        cflags = ["-std=c++20", "-O2", "-fvisibility=hidden"] + [f"-D{d}" for d in kit.get("defines", [])]
        ldflags = (["-Wl,--start-group"] + [kit_path(lib) for lib in kit["libraries"]] + ["-Wl,--end-group"]
                   + kit.get("link_flags", []))
        includes = [kit_path(d) for d in kit["include_dirs"]]
        cupti = _find_cupti(torch)
        if cupti is not None:
            include, lib, name = cupti
            cflags.append("-DOHPROF_HAVE_CUPTI=1")
            includes.append(include)
            ldflags += [os.path.join(lib, name), f"-Wl,-rpath,{lib}"]
        nvtx = _find_nvtx(torch)
        if nvtx is not None:  # header-only; NVTX3 finds the attached tool (Nsight Systems) with dlopen
            cflags.append("-DOHPROF_HAVE_NVTX=1")
            includes.append(nvtx)
        ldflags.append(zlib_link_flag())
        ldflags += libstdcxx_link_flags()
        # --no-as-needed before every LibTorch library: the CUDA and CPU AOTI runners register themselves
        # in torch_cuda and torch_cpu, which the extension's own symbols need not reference
        ldflags.append("-Wl,--no-as-needed")
        if _has_torch_cuda(torch):
            cflags.append("-DOHPROF_TORCH_HAS_CUDA=1")
            ldflags += ["-ltorch_cuda", "-lc10_cuda"]
            includes += [include for include, _ in wheel_cuda_dirs(torch)]
        if cupti is not None or _has_torch_cuda(torch):
            crt = crt_include(torch, [include for include, _ in wheel_cuda_dirs(torch)],
                              getattr(cpp_extension, "CUDA_HOME", None))
            if crt is not None:
                includes.append(crt)
        torch_lib = os.path.join(os.path.dirname(torch.__file__), "lib")
        ldflags += ["-ltorch_cpu", "-ltorch", "-lc10", "-ltorch_python", f"-Wl,-rpath,{torch_lib}"]
        includes = list(dict.fromkeys(includes))  # CUPTI's folder is also one of the wheel's CUDA folders
        started = time.monotonic()
        log_path = os.path.join(folder, "build.log")
        try:
            # verbose=False: ninja's and the compiler's output is captured (stdout stays the command's),
            # and raised with the error when the build fails
            cpp_extension.load(
                name=EXTENSION_NAME,
                sources=[kit_path(s) for s in kit["sources"]],
                extra_cflags=cflags,
                extra_ldflags=ldflags,
                extra_include_paths=includes,
                build_directory=folder,
                with_cuda=False,
                is_python_module=False,  # built only: load_file imports it
                verbose=False,
            )
        except Exception as e:  # the compiler's output is in the exception, and in the log
            with open(log_path, "w") as log:
                log.write(str(e))
            with contextlib.suppress(FileNotFoundError):
                os.remove(built)
            raise EnvironmentProblem(
                f"building the measuring extension against torch {torch.__version__} failed; the compiler's "
                f"output is in {log_path}: {_first_line(e)}") from None
        sys.stderr.write(f"ohprof: built the measuring extension in {time.monotonic() - started:.0f} s\n")
        sys.stderr.flush()


def _has_torch_cuda(torch):
    return os.path.isfile(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cuda.so"))
