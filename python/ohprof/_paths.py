"""The Python side of ohprof: model export, AOTInductor packaging and torch.compile paths.

ohprof imports this module in its embedded interpreter (src/runtimes/python_session.cpp), so every path runs in
the process that also runs the AOTInductor package through LibTorch's C++ loader, on the same input
tensors. examples/export_model.py uses the same functions from the command line.

Errors a user can fix are raised as OhprofError(code, message): `code` is one of ohprof's exit codes
(include/ohprof/base/exit_codes.hpp; test/tools/python_boundary_check.py checks that they agree) and
`message` is one line.
"""
import contextlib
import dataclasses
import hashlib
import importlib
import io
import json
import logging
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import time
import types
import warnings
import zipfile

from ohprof import _native

# torch.utils.cpp_extension warns at import when a CUDA toolkit is installed but no GPU driver is:
# true on CPU machines and irrelevant here; keep stderr to ohprof's own one-line messages.
logging.getLogger("torch.utils.cpp_extension").setLevel(logging.ERROR)
# Warnings torch 2.11's own code raises (the pinned 2.14 does not), not about the user's model:
# torch.export.load's torch.frombuffer on a read-only buffer, a deepcopy of a pytree LeafSpec during
# AOTI compilation, and max-autotune's use of TypedStorage. Matched by message, so nothing else is hidden.
warnings.filterwarnings("ignore", message=r"The given buffer is not writable", category=UserWarning)
warnings.filterwarnings("ignore", message=r"`isinstance\(treespec, LeafSpec\)` is deprecated",
                        category=FutureWarning)
warnings.filterwarnings("ignore", message=r"TypedStorage is deprecated", category=UserWarning,
                        module=r"torch\._inductor\.select_algorithm")

# Bump when anything here changes what the cached artifacts contain.
ARTIFACT_FORMAT = 1

USAGE_ERROR = 2
FILE_NOT_FOUND = 3
INVALID_PACKAGE = 4
DEVICE_UNAVAILABLE = 5
INPUT_MISMATCH = 6
OUTPUT_ERROR = 8
MODEL_ERROR = 9
MODEL_NOT_FOUND = 11
ENVIRONMENT_ERROR = 16  # the torch in use lacks what a path needs (compare --what-if: "not applicable")

DTYPES = {
    "float32": "float32", "float": "float32", "f32": "float32",
    "float16": "float16", "half": "float16", "f16": "float16",
    "bfloat16": "bfloat16", "bf16": "bfloat16",
    "float64": "float64", "double": "float64", "f64": "float64",
    "int64": "int64", "long": "int64", "int32": "int32", "int": "int32",
    "int8": "int8", "uint8": "uint8", "bool": "bool",
}

PYTHON_PATHS = ("aoti:python", "eager", "compile", "compile:reduce-overhead",
                "compile:max-autotune-no-cudagraphs", "compile:cpp-wrapper", "compile:no-module-guards",
                "compile:again", "compile:again-2")

# The A/A check's rebuilds (compile --what-if; docs/metrics.md, "What-if ledger"): the default mode, each
# compiled in a fresh Inductor cache.
REBUILD_MODES = ("again", "again-2")

# Variants of a compiled path that peel one layer of host work each (docs/metrics.md, "Layers"):
# "<path>/<variant>". Which variants each path has is decided in C++ (include/ohprof/model/explanation.hpp);
# test/tools/python_boundary_check.py checks that both sides know the same names.
VARIANTS = ("no-guards", "graph", "inductor", "call")

# Where a path's callable came from: the user's nn.Module, the exported program's module(), or the
# AOTI package.
SOURCE_MODULE = "module"
SOURCE_PROGRAM = "exported_program"
SOURCE_PACKAGE = "aoti_package"


class OhprofError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def _first_line(exc):
    text = str(exc).strip()
    line = text.splitlines()[0] if text else type(exc).__name__
    return line if len(line) <= 300 else line[:300] + "..."


def parse_input(text):
    """'1,3,224,224', '1x3x224x224:float16', '[8, 128]:int64' -> ([dims], dtype name)."""
    shape_part, _, dtype_part = text.partition(":")
    dtype = DTYPES.get(dtype_part or "float32")
    if dtype is None:
        raise OhprofError(USAGE_ERROR, f"unknown dtype '{dtype_part}' in --input '{text}'")
    if shape_part.startswith("[") and shape_part.endswith("]") and not shape_part[1:-1].strip():
        return [], dtype  # a zero-dimensional tensor, as torch.tensor(2.0)
    shape_part = shape_part.strip().strip("[]")
    try:
        shape = [int(d) for d in shape_part.replace("x", ",").split(",")]
    except ValueError:
        raise OhprofError(USAGE_ERROR,
                          f"bad --input '{text}': expected SHAPE[:DTYPE] such as 1,3,224,224") from None
    if not shape or any(d <= 0 for d in shape):
        raise OhprofError(USAGE_ERROR, f"bad --input '{text}': dimensions must be positive")
    return shape, dtype


def input_text(spec):
    shape, dtype = spec
    return ("x".join(str(d) for d in shape) if shape else "[]") + ":" + dtype


def make_inputs(torch, specs, device, seed):
    """Seeded random inputs: normal floats, integers in 1..9, random bools; never zeros."""
    generator = torch.Generator().manual_seed(seed)
    tensors = []
    for shape, dtype_name in specs:
        dtype = getattr(torch, dtype_name)
        if dtype.is_floating_point:
            t = torch.randn(shape, generator=generator).to(dtype)
        elif dtype == torch.bool:
            t = torch.randint(0, 2, shape, generator=generator).to(dtype)
        else:
            t = torch.randint(1, 10, shape, generator=generator).to(dtype)
        tensors.append(t.to(device))
    return tuple(tensors)


KWARG_VALUES = (bool, int, float, str, type(None))  # what a keyword input may be besides a tensor


def read_inputs_file(torch, path, device):
    """--inputs FILE: the user's own inputs, saved with torch.save: a tensor, a tuple (or list) of tensors
    in forward's order, a dict of keyword inputs, or (tuple, dict). Returns (args on `device`, kwargs:
    tensors on `device`, or bool/int/float/str/None, the specs of the args' and keyword tensors in order). A file that does not exist is FILE_NOT_FOUND; one
    that torch.load (weights_only) cannot read, or that holds anything else, is INPUT_MISMATCH
    (docs/usage.md, "Your own inputs")."""
    if not os.path.isfile(path):
        raise OhprofError(FILE_NOT_FOUND, f"--inputs file '{path}' does not exist")
    try:
        value = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:
        raise OhprofError(INPUT_MISMATCH, f"--inputs '{path}' is not a file torch.load can read with weights_only=True "
                                          f"({type(e).__name__}: {_first_line(e)}); save the inputs with torch.save((x, ...), FILE)") from None
    args, kwargs = value, {}
    if isinstance(value, torch.Tensor):
        args = (value,)
    elif isinstance(value, dict):
        args, kwargs = (), value
    elif (isinstance(value, (tuple, list)) and len(value) == 2 and isinstance(value[0], (tuple, list))
          and isinstance(value[1], dict)):
        args, kwargs = value
    if not isinstance(args, (tuple, list)):
        raise OhprofError(INPUT_MISMATCH, f"--inputs '{path}' holds a {type(value).__name__}; save a tensor, a "
                                          "tuple of tensors in forward's order, or (tuple, dict of keyword inputs)")
    if not args and not kwargs:
        raise OhprofError(INPUT_MISMATCH, f"--inputs '{path}' holds no inputs; save a tuple of tensors")
    for i, item in enumerate(args):
        if not isinstance(item, torch.Tensor):
            raise OhprofError(INPUT_MISMATCH, f"--inputs '{path}': input {i} is a {type(item).__name__}, not a tensor; "
                                              "ohprof takes tensors only (keyword inputs may also be plain values)")
    for name, item in kwargs.items():
        if not isinstance(name, str) or not isinstance(item, (torch.Tensor,) + KWARG_VALUES):
            raise OhprofError(INPUT_MISMATCH, f"--inputs '{path}': keyword input {name!r} is a {type(item).__name__}; "
                                              "keyword inputs are tensors, or bool, int, float, str or None")
    specs = tensor_specs(torch, list(args) + [v for v in kwargs.values() if isinstance(v, torch.Tensor)], path)
    move = lambda v: v.to(device) if isinstance(v, torch.Tensor) else v  # noqa: E731
    return tuple(move(t) for t in args), {k: move(v) for k, v in kwargs.items()}, specs


def resize_inputs(torch, args, kwargs, shapes, path):
    """sweep --inputs: the user's tensors (args, then the keyword tensors in the file's order), each
    resized to its shape in `shapes` (lists of sizes, one per tensor). Along a dimension whose size
    changes, index i of the result is index i mod n of the saved tensor (n: its saved size): a larger size
    repeats the saved slices in turn, a smaller one keeps the first; every value is one the user saved
    (docs/sweep.md, "Your own inputs"). A resized tensor keeps the saved one's memory format (channels
    last stays channels last) and requires_grad, as a leaf. Returns (args, kwargs)."""
    tensors = list(args) + [v for v in kwargs.values() if isinstance(v, torch.Tensor)]
    if len(shapes) != len(tensors):
        raise OhprofError(INPUT_MISMATCH, f"--inputs '{path}' holds {len(tensors)} tensors, the sweep expected "
                                          f"{len(shapes)}; was the file changed during the sweep?")
    resized = []
    for i, (t, shape) in enumerate(zip(tensors, shapes)):
        if len(shape) != t.dim():
            raise OhprofError(INPUT_MISMATCH, f"--inputs '{path}': input {i} has {t.dim()} dimensions, the sweep "
                                              f"expected {len(shape)}; was the file changed during the sweep?")
        for d, size in enumerate(shape):
            if int(size) == t.shape[d]:
                continue
            if t.shape[d] == 0:
                raise OhprofError(INPUT_MISMATCH, f"--inputs '{path}': input {i} has size 0 in dimension {d}, "
                                                  "which the sweep cannot fill; save at least one slice")
            with torch.no_grad():
                t = _keep_layout(torch, t, t.index_select(d, torch.arange(int(size), device=t.device) % t.shape[d]))
        resized.append(t)
    given = iter(resized)
    args = tuple(next(given) for _ in args)
    kwargs = {k: next(given) if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}
    return args, kwargs


def tensor_specs(torch, tensors, path="the inputs"):
    """[(shape, dtype name)] of `tensors`; INPUT_MISMATCH for a dtype ohprof does not measure."""
    specs = []
    for i, item in enumerate(tensors):
        dtype = str(item.dtype).replace("torch.", "")
        if dtype not in DTYPES.values():
            raise OhprofError(INPUT_MISMATCH, f"--inputs '{path}': input {i} has dtype {dtype}, which ohprof does not "
                                              f"measure (one of {', '.join(sorted(set(DTYPES.values())))})")
        specs.append(([int(d) for d in item.shape], dtype))
    return specs


def _keep_layout(torch, saved, made):
    """`made` (a contiguous tensor) in `saved`'s memory format, with its requires_grad."""
    for fmt, dims in ((torch.channels_last, 4), (torch.channels_last_3d, 5)):
        if saved.dim() == dims and not saved.is_contiguous() and saved.is_contiguous(memory_format=fmt):
            made = made.contiguous(memory_format=fmt)
    return made.requires_grad_(saved.requires_grad) if saved.requires_grad else made


def values_digest(torch, args, kwargs):
    """The first 16 hex digits of the SHA-256 of the inputs' values, in order: each positional tensor's
    dtype, shape and bytes (contiguous, on the CPU), then each keyword input's name and its tensor's (or
    its plain value's repr). The same values saved under another name, or from a view of a larger
    tensor, have the same digest; the file's own bytes would not (torch.save records the file's name
    and a view's whole storage). docs/usage.md, "Your own inputs"."""
    digest = hashlib.sha256()

    def add(value):
        if isinstance(value, torch.Tensor):
            t = value.detach().to("cpu").contiguous()
            digest.update(f"tensor {str(t.dtype).replace('torch.', '')} {list(t.shape)};".encode())
            digest.update(t.reshape(-1).view(torch.uint8).numpy().tobytes())
        else:
            digest.update(f"value {value!r};".encode())

    for value in args:
        add(value)
    for name, value in kwargs.items():
        digest.update(f"key {name};".encode())
        add(value)
    return digest.hexdigest()[:16]


def inputs_file_specs(torch, path):
    """sweep --inputs FILE: (the specs of the file's tensors, the positional ones then the keyword tensors
    in the file's order: the shapes the sweep's axis is applied to; their values' digest, which --resume
    compares)."""
    args, kwargs, specs = read_inputs_file(torch, path, "cpu")
    return specs, values_digest(torch, args, kwargs)


def load_inputs_file(torch, path, device):
    """run --inputs FILE: positional tensors only (the package's C++ loader takes a flat list); returns
    (tensors, specs, their values' digest)."""
    args, kwargs, specs = read_inputs_file(torch, path, device)
    if kwargs:
        raise OhprofError(INPUT_MISMATCH, f"--inputs '{path}' has keyword inputs ({', '.join(kwargs)}), which run "
                                          "does not take; save them in a tuple in forward's order, or use compare")
    return args, specs, values_digest(torch, args, {})


def flat_tensor_inputs(torch, program, args, kwargs):
    """The tensors the AOTI package's C++ runner takes, in its order: (args, kwargs) flattened as the
    exported program's in_spec orders them (what torch._export.aot_load does), tensors only."""
    if not kwargs:
        return list(args)
    import torch.utils._pytree as pytree

    if program is not None:
        from torch.export._tree_utils import reorder_kwargs

        kwargs = reorder_kwargs(kwargs, program.call_spec.in_spec)
    return [x for x in pytree.tree_flatten((tuple(args), kwargs))[0] if isinstance(x, torch.Tensor)]


def load_factory(spec):
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise OhprofError(USAGE_ERROR, f"--model '{spec}' must be module:factory, e.g. torchvision.models:resnet18")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise OhprofError(MODEL_NOT_FOUND, f"cannot import module '{module_name}' ({_first_line(e)}); "
                                           "check the name and PYTHONPATH") from None
    factory = getattr(module, attr, None)
    if factory is None:
        raise OhprofError(MODEL_NOT_FOUND, f"module '{module_name}' has no attribute '{attr}'; after the ':' name a "
                                           "function of that module that returns the nn.Module")
    return factory


def build_model(torch, spec, device):
    factory = load_factory(spec)
    try:
        model = factory()
    except Exception as e:  # the user's code: report it in one line
        raise OhprofError(MODEL_ERROR, f"factory {spec} raised {type(e).__name__}: {_first_line(e)}; call it in "
                                       "Python to see the whole error") from None
    if not isinstance(model, torch.nn.Module):
        raise OhprofError(MODEL_ERROR, f"factory {spec} returned {type(model).__name__}, not a torch.nn.Module; make it "
                                       "return the model (an nn.Module), not its class or outputs")
    return model.eval().to(device)


class _Unimportable(Exception):
    """A class or function that a fresh process could not import by its module's name."""


class _FreshProcessPickler(pickle.Pickler):
    """A Pickler for torch.save that refuses, before anything is written, each class or function a fresh
    process would fail to import back: one defined in __main__, inside a function, or a lambda. (pickle
    itself saves a __main__ reference without complaint; only the loading process fails.)"""

    def reducer_override(self, obj):
        if isinstance(obj, (type, types.FunctionType)):
            module, name = getattr(obj, "__module__", None), getattr(obj, "__qualname__", "")
            if module == "__main__" or "<locals>" in name or "<lambda>" in name:
                raise _Unimportable(f"{module}.{name}")
        return NotImplemented


class _FreshProcessPickle:
    """The pickle module torch.save is given: the standard one, with _FreshProcessPickler."""
    Pickler = _FreshProcessPickler
    dump = staticmethod(pickle.dump)


def save_model_object(torch, module, path):
    """A model object handed to the Python API, pickled whole into `path` (torch.save) for the cold-start
    processes, which have no factory to call (docs/metrics.md, "Cold start"). A fresh process unpickles it by
    importing each class and function it references by its module's name, so an object that references one
    defined in __main__ (a notebook, or the script itself), inside a function, or a lambda is refused here,
    in one line, before any process starts (_FreshProcessPickler); so is an object that does not pickle
    (an open file, a lock). Raises OhprofError(USAGE_ERROR) with the reason."""
    refusal = ("a fresh process cannot rebuild the model object: {}; define its classes and functions in a "
               "module a fresh process can import (a .py file on sys.path) and leave out what does not pickle, "
               "or use `ohprof compare --model module:factory --cold-start`")
    try:
        torch.save(module, path, pickle_module=_FreshProcessPickle)
    except _Unimportable as e:
        what = str(e)
        where = ("is a lambda" if "<lambda>" in what else "is defined inside a function" if "<locals>" in what
                 else "is defined in __main__ (a notebook, or the script itself)")
        raise OhprofError(USAGE_ERROR, refusal.format(f"it references {what}, which {where}")) from None
    except Exception as e:  # what the user's object holds: an open file, a lock
        raise OhprofError(USAGE_ERROR, refusal.format(f"pickling it failed ({type(e).__name__}: {_first_line(e)})")) \
            from None


def check_device(torch, device):
    if device == "cuda" and not torch.cuda.is_available():
        raise OhprofError(DEVICE_UNAVAILABLE, "--device cuda but no CUDA device is available here; use --device cpu")


_TRACED_LINE = re.compile(r"^\s*# File: (.+?):(\d+) in (\S+), code: (.*)$")


def last_traced_line(partial_graph):
    """The last source line of the model that torch.export traced before it failed, from the partial graph
    it keeps on the exception (`partial_fx_graph`: each node's "# File: PATH:LINE in FUNC, code: CODE"
    comment): "PATH:LINE in FUNC: CODE", or None when the graph names no line."""
    last = None
    for line in str(partial_graph or "").splitlines():
        match = _TRACED_LINE.match(line)
        if match:
            last = match
    if last is None:
        return None
    path, number, function, code = last.groups()
    return f"{path}:{number} in {function}: {code.strip()}"


def export_program(torch, model, inputs, kwargs=None):
    # torch logs a failing export with its traceback, and prints the partial graph it traced to stderr,
    # before raising: the one-line error says it all, with the last line of the model the graph traced.
    # Whatever else is printed meanwhile (warnings) still reaches stderr.
    logging.disable(logging.ERROR)
    printed = io.StringIO()
    try:
        with torch.no_grad(), contextlib.redirect_stderr(printed):
            return torch.export.export(model, tuple(inputs), kwargs=kwargs or None)
    except Exception as e:
        partial = getattr(e, "partial_fx_graph", None)
        if partial is not None:
            printed = io.StringIO(printed.getvalue().replace(f"{partial}\n", ""))  # each wrapper of export prints it
        reason = _first_line(e)  # export's own words, for a model that runs but does not export
        where = last_traced_line(partial)
        if where:
            reason += f" (the last line the export traced: {where})"
        error = OhprofError(INPUT_MISMATCH, f"torch.export failed for these inputs: {reason}")
        error.reason = reason
        raise error from None
    finally:
        logging.disable(logging.NOTSET)
        sys.stderr.write(printed.getvalue())


def aoti_configs(specs, model_label, kernel_profile):
    recorded = ";".join(input_text(s) for s in specs)
    configs = {"aot_inductor.metadata": {"ohprof.inputs": recorded, "ohprof.model": model_label}}
    if kernel_profile:
        configs["cpp.enable_kernel_profile"] = True
    return configs


def _inductor_cache_root():
    """The folder Inductor compiles in (TORCHINDUCTOR_CACHE_DIR or its default)."""
    try:
        return importlib.import_module("torch._inductor.runtime.cache_dir_utils").cache_dir()
    except (ImportError, AttributeError):
        return os.environ.get("TORCHINDUCTOR_CACHE_DIR") or tempfile.gettempdir()


def _exclusive(lock_path):
    """Holds an exclusive lock on `lock_path` (a file, created if absent) across processes, saying so on
    stderr when another holds it. A lock that cannot be had at all (a read-only cache folder) is no lock:
    the caller goes on without one, as before locks."""
    try:
        handle = open(lock_path, "a")
    except OSError as e:
        sys.stderr.write(f"ohprof: no AOTI compile lock ({_first_line(e)}): compiling without one\n")
        return contextlib.nullcontext()
    return _native.holding(handle, f"ohprof: waiting for another process's AOTI compile to end (lock {lock_path})\n")


def _temporary_beside(path):
    """A temporary name beside `path` for this process (same extension, so torch's writers accept it)."""
    base, ext = os.path.splitext(path)
    return f"{base}.{os.getpid()}.tmp{ext}"


def package_problem(path):
    """Why the AOTI package at `path` cannot be loaded, as far as a look inside shows (it is not a zip,
    or one of its JSON files is empty or cut short); None when nothing is wrong."""
    try:
        with zipfile.ZipFile(path) as archive:
            for name in archive.namelist():
                if name.endswith(".json"):
                    try:
                        json.loads(archive.read(name).decode("utf-8"))
                    except ValueError:
                        return f"{name} in it is not valid JSON"
    except Exception as e:  # OSError, zipfile.BadZipFile, zlib.error, ...: unreadable, however it fails
        return f"it is not a readable zip archive ({type(e).__name__}: {_first_line(e)})"
    return None


def compile_aoti(torch, program, package_path, configs):
    """Compiles `program` into the AOTI package `package_path`, which appears whole or not at all.

    Inductor writes an AOTI compile's metadata JSON in its cache folder by truncating and rewriting it,
    and packages it after releasing its own lock: two processes compiling the same graph at once can
    package each other's half-written file, and LibTorch then refuses the package ("parse error ...
    empty input"). So ohprof's compiles take turns per cache folder, the package is checked, and a broken
    one (another program compiling the same graph) is compiled once more.

    Returns the seconds the kept compile took (aoti_compile_and_package, docs/metrics.md "Build time"):
    not the wait for the lock, nor a broken first attempt."""
    tmp = _temporary_beside(package_path)
    problem = None
    seconds = 0.0
    try:
        with _exclusive(os.path.join(_inductor_cache_root(), "ohprof-aoti-compile.lock")):
            for _ in range(2):
                start = time.perf_counter()
                torch._inductor.aoti_compile_and_package(program, package_path=tmp, inductor_configs=configs)
                seconds = time.perf_counter() - start
                problem = package_problem(tmp)
                if problem is None:
                    break
        if problem is not None:
            raise OhprofError(INVALID_PACKAGE, f"AOTInductor wrote a broken package twice ({problem}); another "
                                               f"process may be compiling the same model: run again when it ends")
        os.replace(tmp, package_path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return seconds


def save_program(torch, program, path):
    tmp = _temporary_beside(path)
    torch.export.save(program, tmp)
    os.replace(tmp, path)


def write_json(path, data):
    tmp = _temporary_beside(path)
    with open(tmp, "w") as f:
        json.dump(data, f, indent=2)
    os.replace(tmp, path)


def export_artifacts(torch, model_spec, specs, device, seed, out_dir, kernel_profile=False, model=None, inputs=None,
                     kwargs=None, package=True):
    """Exports `model_spec` (or `model`, built from it) on `inputs` (or seeded random ones of `specs`) to
    OUT/model.ep.pt2 and OUT/model.aoti.pt2; returns what it did. With package=False, the program only:
    no package, no OUT/export.json (so the folder is no cache hit), and aoti_package "" in the answer."""
    check_device(torch, device)
    if model is None:
        model = build_model(torch, model_spec, device)
    if inputs is None:
        inputs = make_inputs(torch, specs, device, seed)
    os.makedirs(out_dir, exist_ok=True)
    start = time.perf_counter()
    program = export_program(torch, model, inputs, kwargs)
    export_s = time.perf_counter() - start
    if kwargs:  # the package records the inputs its C++ runner takes, in its order
        specs = tensor_specs(torch, flat_tensor_inputs(torch, program, inputs, kwargs))
    ep_path = os.path.join(out_dir, "model.ep.pt2")
    save_program(torch, program, ep_path)
    package_path = os.path.join(out_dir, "model.aoti.pt2") if package else ""
    aoti_compile_s = compile_aoti(torch, program, package_path, aoti_configs(specs, model_spec, kernel_profile)) \
        if package else None
    info = {
        "model": model_spec,
        "inputs": [{"shape": s, "dtype": d} for s, d in specs],
        "device": device,
        "seed": seed,
        "kernel_profile": kernel_profile,
        "torch_version": torch.__version__,
        "exported_program": ep_path,
        "aoti_package": package_path,
        "export_s": export_s,
        "aoti_compile_s": aoti_compile_s,
    }
    if package:
        write_json(os.path.join(out_dir, "export.json"), info)
    return info


def artifact_key(torch, model_spec, specs, device, kernel_profile, seed, inputs_digest=None):
    """Everything that changes the exported program or the package (the inputs' values too, when they
    are the user's: export traces with them)."""
    key = {
        "format": ARTIFACT_FORMAT,
        "model": model_spec,
        "inputs": [input_text(s) for s in specs],
        "device": device,
        "kernel_profile": kernel_profile,
        "seed": seed,
        "torch": torch.__version__,
        "helper": hashlib.sha256(open(__file__, "rb").read()).hexdigest()[:16],
        # the compiler Inductor links the package with: a package is rebuilt when CXX changes
        "cxx": _native.inductor_compiler(),
    }
    if inputs_digest:
        key["inputs_file"] = inputs_digest
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16], key


def _sync(torch, device):
    if device == "cuda":
        return torch.cuda.synchronize
    return lambda: None


def _cloned(torch, value):
    """`value` with every tensor in it (nested in tuples, lists and dicts) replaced by a clone of its kind."""
    def clone(v):
        if not isinstance(v, torch.Tensor):
            return v
        # A clone made in inference mode is an inference tensor, whose dispatch keys fail Dynamo's guards
        # on the original: made in the original's mode.
        with torch.inference_mode(v.is_inference()):
            return v.clone()
    return torch.utils._pytree.tree_map(clone, value)


def _flatten(torch, value):
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            out.extend(_flatten(torch, v))
        return out
    if isinstance(value, dict):  # also Hugging Face's ModelOutput, an OrderedDict
        out = []
        for k in sorted(value, key=str):
            out.extend(_flatten(torch, value[k]))
        return out
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _flatten(torch, [getattr(value, f.name) for f in dataclasses.fields(value)])
    if hasattr(value, "__dict__") and not callable(value):  # an output object (a cache, say): its attributes
        return _flatten(torch, {k: v for k, v in vars(value).items() if not k.startswith("__")})
    return []


def tolerance(torch, dtype):
    if dtype in (torch.float16, torch.bfloat16):
        return 1e-2, 1e-2
    if dtype == torch.float64:
        return 1e-7, 1e-7
    if dtype.is_floating_point:
        return 1e-3, 1e-3
    return 0.0, 0.0


def compile_settings(torch, mode, kernel_profile=False):
    """A compile path's mode ("default", "reduce-overhead", "max-autotune-no-cudagraphs", "cpp-wrapper",
    "no-module-guards", "again", "again-2") as torch.compile's arguments: (mode=, the Inductor config patches its first
    call runs under, options= or None). mode= and options= are never both set (torch.compile refuses that).
    "again" and "again-2" are the default mode's (each its own compile, in a fresh cache, is Session._compile's). A mode the torch
    in use cannot offer is OhprofError(ENVIRONMENT_ERROR)."""
    patches = {}
    options = None
    if mode == "cpp-wrapper":
        patches["cpp_wrapper"] = True
    if kernel_profile:
        patches["cpp.enable_kernel_profile"] = True
    if mode == "no-module-guards":
        guard_filter = getattr(getattr(torch, "compiler", None), "skip_guard_on_all_nn_modules_unsafe", None)
        if guard_filter is None:
            raise OhprofError(ENVIRONMENT_ERROR, f"compile:no-module-guards needs "
                                                 f"torch.compiler.skip_guard_on_all_nn_modules_unsafe, which torch "
                                                 f"{torch.__version__} does not have (torch >= 2.8 has it)")
        options = {"guard_filter_fn": guard_filter}
    return (None if mode in ("default", "cpp-wrapper", "no-module-guards") + REBUILD_MODES else mode), patches, options


def fresh_inductor_cache(torch):
    """compile:again's and compile:again-2's context (docs/metrics.md, "What-if ledger", the A/A check): Inductor's in-memory caches
    cleared and an empty temporary cache folder for the compile inside it, so that nothing compiled before is
    reused: its kernels, wrapper and buffers are loaded anew, elsewhere in memory. The folder is deleted on
    leaving; what was loaded from it stays mapped."""
    utils = importlib.import_module("torch._inductor.utils")
    fresh = getattr(utils, "fresh_cache", None) or getattr(utils, "fresh_inductor_cache", None)  # its older name
    if fresh is None:
        raise OhprofError(ENVIRONMENT_ERROR, f"compile:again and compile:again-2 need torch._inductor.utils.fresh_cache, which torch "
                                             f"{torch.__version__} does not have")
    return fresh()


# A cold-start process's first statements (python -c; python/ohprof/_cold_start.py): the clock first, then
# this session's sys.path (the model's module and ohprof are found as here), then the rest.
COLD_START_BOOTSTRAP = (
    "import time\n"
    "t = time.monotonic_ns()\n"
    "import sys, json\n"
    "spec = json.load(open(sys.argv[1]))\n"
    "sys.path[:] = spec['sys_path']\n"
    "from ohprof._cold_start import main\n"
    "main(spec, sys.argv[2:], t)\n"
)


def compare_outputs(torch, reference, outputs):
    """Max absolute and relative difference of `outputs` against `reference` (flat tensor lists),
    and whether every element is within atol + rtol * |reference| for its dtype."""
    if len(reference) != len(outputs):
        return {"passed": False, "max_abs_diff": None, "max_rel_diff": None, "atol": None, "rtol": None,
                "detail": f"{len(outputs)} outputs, expected {len(reference)}"}
    max_abs = 0.0
    max_rel = 0.0
    passed = True
    atol_used, rtol_used = 0.0, 0.0
    detail = ""
    for i, (ref, out) in enumerate(zip(reference, outputs)):
        if tuple(ref.shape) != tuple(out.shape):
            return {"passed": False, "max_abs_diff": None, "max_rel_diff": None, "atol": None, "rtol": None,
                    "detail": f"output {i} has shape {list(out.shape)}, expected {list(ref.shape)}"}
        atol, rtol = tolerance(torch, ref.dtype)
        atol_used, rtol_used = max(atol_used, atol), max(rtol_used, rtol)
        r = ref.detach().to("cpu", torch.float64)
        o = out.detach().to("cpu", torch.float64)
        diff = (r - o).abs()
        if diff.numel():
            max_abs = max(max_abs, float(diff.max()))
            max_rel = max(max_rel, float((diff / r.abs().clamp_min(1e-12)).max()))
            if not bool((diff <= atol + rtol * r.abs()).all()):
                passed = False
                detail = detail or f"output {i} differs by up to {float(diff.max()):.3g}"
    return {"passed": passed, "max_abs_diff": max_abs, "max_rel_diff": max_rel, "atol": atol_used,
            "rtol": rtol_used, "detail": detail}


# ---- The code view (`compare --dump-code DIR`, docs/design/code-view.md): graphs as text and DOT, the
# generated code of compiled paths, a compile trace for tlparse. Nothing here runs inside a timed pass.

DOT_TIMEOUT_S = 60.0
TLPARSE_TIMEOUT_S = 120.0
GRAPHVIZ_MISSING = "graphviz is not installed (apt-get install graphviz): graph.dot written, no graph.svg"
TLPARSE_MISSING = ("tlparse is not installed (pip install tlparse==0.4.3, or tools/setup): the trace log is "
                   "written, no tlparse report")
DYNAMO_GRAPH_LABEL = "the FX graph Dynamo captured"
EXPORT_GRAPH_LABEL = "the graph torch.export captured (the one AOTInductor compiled)"
GIVEN_PACKAGE_GRAPH_LABEL = ("the graph torch.export captured (the package was given with --aoti: it may have been "
                             "built from another graph)")
EAGER_GRAPH_LABEL = ("the graph torch.export captured of the model (eager compiles no graph: it runs the "
                     "module's operators one by one)")
# Paths whose graph is the exported program's (aoti is the C++ loader's path: Python writes its graph only).
PROGRAM_GRAPH_PATHS = ("eager", "aoti:python", "aoti")


def _readable_code(gm):
    """`gm` as Python code, with strides and devices where this torch's print_readable takes them."""
    try:
        return gm.print_readable(print_output=False, include_stride=True, include_device=True)
    except TypeError:
        return gm.print_readable(print_output=False)


def _value_text(value):
    """'float32[2, 16]' for a tensor (or FakeTensor, or TensorMetadata); '' for anything else."""
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is not None and dtype is not None:
        try:
            return f"{str(dtype).replace('torch.', '')}[{', '.join(str(d) for d in shape)}]"
        except Exception:  # a shape that does not iterate or print: no shape in the label
            return ""
    if isinstance(value, (list, tuple)):
        parts = [t for t in (_value_text(v) for v in value[:4]) if t]
        if parts:
            return "(" + ", ".join(parts) + (", ..." if len(value) > 4 else "") + ")"
    return ""


def _node_target_text(node):
    target = node.target
    if node.op == "call_function":
        try:
            from torch.fx.node import _get_qualified_name
            return _get_qualified_name(target)
        except Exception:  # a lambda without source, or the helper moved
            return getattr(target, "__name__", None) or str(target)
    return str(target)


def _dot_quote(text, limit=240):
    """`text` as a quoted DOT string: backslashes and quotes escaped, newlines as \\n, control characters
    dropped; each line cut at `limit` characters."""
    lines = [line if len(line) <= limit else line[:limit] + "..."
             for line in str(text).replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    out = []
    for ch in "\n".join(lines):
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 32 or ord(ch) == 127:
            continue
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


_DOT_NODE_STYLE = {
    "placeholder": 'shape=ellipse, style=filled, fillcolor="#dbe9f6"',
    "get_attr": 'shape=cylinder, style=filled, fillcolor="#f3e6c4"',
    "output": 'shape=doubleoctagon, style=filled, fillcolor="#d9f0d3"',
}


def fx_dot_statements(graph, prefix=""):
    """DOT statements for an torch.fx Graph: one node statement per graph node (`<prefix>n<i>`), labelled
    with its name, op, target and (for tensors) dtype and shape; one edge per node of `all_input_nodes`.
    Placeholders, get_attr and the output have shapes of their own; calls are boxes."""
    ids = {}
    statements = []
    for i, node in enumerate(graph.nodes):
        ids[node] = f"{prefix}n{i}"
        if node.op in ("placeholder", "output"):  # a placeholder's target is its input's name
            label = [node.name, node.op]
        else:
            label = [node.name, f"{node.op} {_node_target_text(node)}"]
        for key in ("val", "example_value", "tensor_meta"):
            text = _value_text(node.meta.get(key))
            if text:
                label.append(text)
                break
        style = _DOT_NODE_STYLE.get(node.op, "shape=box")
        statements.append(f"{ids[node]} [label={_dot_quote(chr(10).join(label))}, {style}];")
    for node in graph.nodes:
        for source in node.all_input_nodes:
            if source in ids:
                statements.append(f"{ids[source]} -> {ids[node]};")
    return statements


def fx_graphs_dot(graphs):
    """A DOT digraph of [(title, statements)] (statements from fx_dot_statements): one graph as it is, several
    as clusters of one digraph (their node ids must differ: give each its own prefix)."""
    lines = ["digraph fx_graph {",
             '  graph [rankdir=TB, fontname="Helvetica", labelloc=t];',
             '  node [fontname="Helvetica", fontsize=10];',
             '  edge [arrowsize=0.7];']
    if len(graphs) == 1:
        title, statements = graphs[0]
        lines.append(f"  label={_dot_quote(title)};")
        lines.extend("  " + s for s in statements)
    else:
        for i, (title, statements) in enumerate(graphs):
            lines.append(f"  subgraph cluster_{i} {{")
            lines.append(f"    label={_dot_quote(title)};")
            lines.extend("    " + s for s in statements)
            lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_svg(dot_path, svg_path):
    """Runs graphviz `dot -Tsvg` on `dot_path`; returns None, or a note saying why there is no SVG."""
    dot = shutil.which("dot")
    if not dot:
        return GRAPHVIZ_MISSING
    try:
        done = subprocess.run([dot, "-Tsvg", dot_path, "-o", svg_path], capture_output=True, text=True,
                              timeout=DOT_TIMEOUT_S)
        problem = None if done.returncode == 0 and os.path.exists(svg_path) else \
            f"exit code {done.returncode}: {_first_line(done.stderr or done.stdout or 'no output')}"
    except subprocess.TimeoutExpired:
        problem = f"it ran over {DOT_TIMEOUT_S:.0f} s"
    except OSError as e:
        problem = _first_line(e)
    if problem is None:
        return None
    with contextlib.suppress(OSError):
        os.remove(svg_path)
    return f"graphviz could not draw graph.dot ({problem}): graph.dot written, no graph.svg"


def find_tlparse():
    """The tlparse binary: the interpreter's own bin/ first (the embedded interpreter's PATH may lack the
    venv's), then PATH; None when there is none."""
    own = os.path.join(sys.prefix, "bin", "tlparse")
    if os.path.isfile(own) and os.access(own, os.X_OK):
        return own
    return shutil.which("tlparse")


def run_tlparse(log_path, out_dir):
    """`tlparse LOG -o OUT --overwrite --no-browser`; returns (OUT/index.html or None, note or None)."""
    tlparse = find_tlparse()
    if not tlparse:
        return None, TLPARSE_MISSING
    try:
        done = subprocess.run([tlparse, log_path, "-o", out_dir, "--overwrite", "--no-browser"],
                              capture_output=True, text=True, timeout=TLPARSE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, f"tlparse ran over {TLPARSE_TIMEOUT_S:.0f} s: the trace log is written, no tlparse report"
    except OSError as e:
        return None, f"tlparse could not run ({_first_line(e)}): the trace log is written, no tlparse report"
    index = os.path.join(out_dir, "index.html")
    if done.returncode != 0 or not os.path.exists(index):
        why = _first_line(done.stderr or done.stdout or "no output")
        return None, (f"tlparse failed (exit code {done.returncode}: {why}): the trace log is written, "
                      "no tlparse report")
    return index, None


@contextlib.contextmanager
def recording_dynamo_graphs(graphs, notes):
    """Within: each FX GraphModule Dynamo hands to its backend is appended to `graphs` (as text, DOT
    statements, node count and backend_id; before the backend runs, since Inductor's passes may change it)
    and the backend's result is returned untouched. A recording that fails is a note, never a failed compile."""
    try:
        from torch._dynamo.output_graph import OutputGraph
        original = OutputGraph.call_user_compiler
    except Exception as e:  # the API moved
        notes.append(f"Dynamo's graphs cannot be recorded (OutputGraph.call_user_compiler: {_first_line(e)})")
        yield
        return

    def recording(self, gm, example_inputs):
        try:
            index = len(graphs)
            graphs.append({
                "index": index,
                "backend_id": str(gm.meta.get("backend_id") or ""),
                "code": _readable_code(gm),
                "dot": fx_dot_statements(gm.graph, f"g{index}_"),
                "nodes": len(gm.graph.nodes),
            })
        except Exception as e:
            notes.append(f"recording a Dynamo graph failed ({type(e).__name__}: {_first_line(e)})")
        return original(self, gm, example_inputs)

    OutputGraph.call_user_compiler = recording
    try:
        yield
    finally:
        OutputGraph.call_user_compiler = original


def calling_compiled_graphs(call):
    """Runs `call()` once with CompiledFxGraph.__call__ recording each CompiledFxGraph it runs (first call
    order, each once; a graph break gives several). Returns [{"id", "cache_key", "source_code", "post_grad"}]
    (id: the object's, which tells a graph from a re-compile of it with the same cache key) and the call's
    result."""
    from torch._inductor.output_code import CompiledFxGraph

    seen = []
    original = CompiledFxGraph.__call__

    def recording(graph, inputs):
        if not any(g is graph for g in seen):
            seen.append(graph)
        return original(graph, inputs)

    CompiledFxGraph.__call__ = recording
    try:
        result = call()
    finally:
        CompiledFxGraph.__call__ = original
    return [{"id": id(g), "cache_key": str(getattr(g, "cache_key", "") or ""),
             "source_code": getattr(g, "source_code", None) or "",
             "post_grad": getattr(g, "inductor_post_grad_graph_str", None) or "",
             "cudagraphs_disabled": str(getattr(g, "disabled_cudagraphs_reason", None) or "")} for g in seen], result


class _DumpWriter:
    """Writes files under one folder and keeps their relative paths; a file that cannot be written is an
    OhprofError (OUTPUT_ERROR)."""

    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.files = []
        self.notes = []
        self.code_files = []
        try:
            os.makedirs(out_dir, exist_ok=True)
        except OSError as e:
            raise OhprofError(OUTPUT_ERROR, f"cannot make the folder '{out_dir}': {_first_line(e)}") from None

    def path(self, rel):
        return os.path.join(self.out_dir, *rel.split("/"))

    def text(self, rel, text, code=False):
        full = self.path(rel)
        try:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            tmp = _temporary_beside(full)  # whole or not at all, as ohprof's other files
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, full)
        except OSError as e:
            raise OhprofError(OUTPUT_ERROR, f"cannot write '{full}': {_first_line(e)}") from None
        self.add(rel, code)

    def add(self, rel, code=False):
        if rel not in self.files:
            self.files.append(rel)
        if code and rel not in self.code_files:
            self.code_files.append(rel)

    def result(self, graph_label):
        return {"files": sorted(self.files), "notes": list(self.notes), "code_files": sorted(self.code_files),
                "graph_label": graph_label}


# The compile events of the execution check (docs/metrics.md, "Execution check"), by the trigger torch's
# compile callbacks name (torch._dynamo.callback.CallbackTrigger); the kinds are ohprof's
# (include/ohprof/model/execution_check.hpp, CompileEventKind).
COMPILE_EVENT_KINDS = {"DYNAMO": "dynamo-compile", "LAZY_BACKWARD": "dynamo-compile",
                       "TRITON_AUTOTUNING": "autotuning", "CUDAGRAPH_RECORDING": "cuda-graph-recording"}
CUDA_GRAPH_EAGER = "cuda-graph-eager"
RECOMPILE_LIMIT = "recompile-limit"
# What a probe call of a Dynamo path ran (probe_compiled_call; include/ohprof/model/execution_check.hpp,
# CompiledCall).
COMPILED_CALLS = ("compiled", "guards-missed", "no-frame", "no-graph")
# Why a probe could not tell (ProbeUnknown; a call that raises is "probe-failed", said by the caller).
PROBE_UNKNOWN = ("no-hook", "limit-in-probe")


class CompileLog:
    """Every compile event of this process: Dynamo's compiles, Inductor's autotuning at first use and
    CUDA-graph recordings, from torch's own compile callbacks (torch._dynamo.callback), and a CUDA-graph
    tree's eager runs of a graph's function, and Dynamo's giving up on a function at its recompile limit;
    each with its CLOCK_MONOTONIC interval (the clock of ohprof's
    iteration windows) and, for a recompile, the first guard that failed. One per process (compile_log):
    torch's callbacks are process-wide."""

    def __init__(self, torch):
        self.events = []  # [kind, compile_id, start_ns, end_ns, reason], in the order they began
        self.unobserved = ""
        self._reason = ""  # a recompile's reason, which torch finds before the compile's start callback
        self._cuda_wrapped = False
        try:
            from torch._dynamo.callback import callback_handler
            callback_handler.register_start_callback(self._start)
            callback_handler.register_end_callback(self._end)
        except Exception as e:  # an older torch
            self.unobserved = f"this torch offers no compile callbacks (torch._dynamo.callback: {_first_line(e)})"
            return
        try:
            import torch._dynamo.convert_frame as convert_frame
            original = convert_frame.get_and_maybe_log_recompilation_reasons
        except Exception:  # the reasons are a detail: without them a recompile is still seen
            return

        def recording_reasons(*args, **kwargs):
            reasons = original(*args, **kwargs)
            if reasons:
                self._reason = guard_failure_text(reasons[0])
            return reasons

        convert_frame.get_and_maybe_log_recompilation_reasons = recording_reasons
        limit_check = getattr(convert_frame, "exceeds_recompile_limit", None)
        if limit_check is None:  # a torch without it: a limit hit is not seen, its recompiles before it are
            return
        def recording_limit(cache_size, compile_id, *args, **kwargs):
            """Dynamo gives up compiling a function here: from then on a call whose guards match no cached
            graph runs it uncompiled (docs/metrics.md, "Execution check")."""
            exceeded, limit_type = limit_check(cache_size, compile_id, *args, **kwargs)
            if exceeded:
                value = getattr(torch._dynamo.config, str(limit_type), None)
                reason, self._reason = self._reason, ""
                text = f"{limit_type} = {value}" + (f"; last guard failed: {reason}" if reason else "")
                now = time.monotonic_ns()
                self.events.append([RECOMPILE_LIMIT, str(compile_id or ""), now, now, text])
            return exceeded, limit_type

        convert_frame.exceeds_recompile_limit = recording_limit

    def _start(self, *args):
        trigger = getattr(getattr(args[0], "callback_trigger", None), "name", "DYNAMO") if args else "DYNAMO"
        compile_id = str(getattr(args[0], "compile_id", "") or "") if args else ""
        kind = COMPILE_EVENT_KINDS.get(trigger, "dynamo-compile")
        reason, self._reason = (self._reason, "") if kind == "dynamo-compile" else ("", self._reason)
        self.events.append([kind, compile_id, time.monotonic_ns(), 0, reason])

    def _end(self, *args):
        for event in reversed(self.events):
            if event[3] == 0:
                event[3] = time.monotonic_ns()
                break

    def watch_cuda_graph_trees(self, torch):
        """Records a CUDA-graph tree's eager runs of a graph's function (its warm-up, or a fallback), which
        replace a replay; a replay itself costs nothing here (docs/metrics.md, "Execution check")."""
        if self._cuda_wrapped or self.unobserved:
            return
        try:
            from torch._inductor.cudagraph_trees import CUDAGraphTreeManager
        except Exception:
            return
        original = CUDAGraphTreeManager.run_eager
        log = self

        def run_eager(manager, *args, **kwargs):
            start = time.monotonic_ns()
            try:
                return original(manager, *args, **kwargs)
            finally:
                log.events.append([CUDA_GRAPH_EAGER, str(getattr(manager, "compile_id", "") or ""), start,
                                   time.monotonic_ns(), ""])

        CUDAGraphTreeManager.run_eager = run_eager
        self._cuda_wrapped = True


def guard_failure_text(reason):
    """A guard failure as torch words it ("0/0: G['LATE'] == False   # if LATE:  # ...models.py:95 in
    forward") in one short line: "G['LATE'] == False (models.py:95 in forward)"."""
    line = " ".join(str(reason).strip().splitlines()[0].split()) if str(reason).strip() else ""
    head, _, _ = line.partition(" # ")
    guard = head.split(": ", 1)[1] if ": " in head and "/" in head.split(": ", 1)[0] else head
    where = [part.strip() for part in line.split(" # ")[1:] if ".py:" in part]
    if where:
        site = where[-1]
        site = site.rsplit("/", 1)[-1] if "/" in site else site
        return f"{guard} ({site})"
    return guard


_COMPILE_LOG = None


def compile_log(torch):
    """The process's CompileLog, installed on first use."""
    global _COMPILE_LOG
    if _COMPILE_LOG is None:
        _COMPILE_LOG = CompileLog(torch)
    return _COMPILE_LOG


def dynamo_counts(torch):
    """Dynamo's graphs made so far, its graph breaks by message, CUDA-graph skips, and Inductor's FX-graph
    cache lookups that hit and that did not (a miss or a bypass: Inductor generated the code), from
    torch._dynamo.utils.counters; None when this torch has no such counters."""
    try:
        from torch._dynamo.utils import counters
        inductor = counters["inductor"]
        return (counters["stats"]["unique_graphs"], dict(counters["graph_break"]), inductor["cudagraph_skips"],
                inductor["fxgraph_cache_hit"], inductor["fxgraph_cache_miss"] + inductor["fxgraph_cache_bypass"])
    except Exception:
        return None


def graph_breaks_between(before, after):
    """[(the first line of a break's message, count)] of the breaks counted between two dynamo_counts."""
    if before is None or after is None:
        return []
    out = []
    for message, count in after[1].items():
        added = count - before[1].get(message, 0)
        if added > 0:
            out.append((str(message).strip().splitlines()[0] if str(message).strip() else "(no message)", int(added)))
    return out


def outputs_device(outputs):
    """The devices a path's first outputs are on ("cpu", "cuda:0"; several joined by ", ")."""
    devices = []
    for t in outputs:
        name = str(t.device)
        if name not in devices:
            devices.append(name)
    return ", ".join(devices)


def execution_record(dynamo=False, graphs=None, graph_breaks=(), cuda_graphs_expected=False,
                     cuda_graph_skip_reason="", device="", unobserved="", fx_cache_hits=None, fx_cache_misses=None):
    """A path's execution facts (include/ohprof/model/execution_check.hpp, ExecutionFacts)."""
    return {"dynamo": dynamo, "graphs": graphs, "graph_breaks": [list(b) for b in graph_breaks],
            "cuda_graphs_expected": cuda_graphs_expected, "cuda_graph_skip_reason": cuda_graph_skip_reason,
            "device": device, "unobserved": unobserved, "fx_cache_hits": fx_cache_hits,
            "fx_cache_misses": fx_cache_misses}


def _is_recompile(event):
    """A Dynamo compile of a frame compiled before: its compile id's recompile count ("0/1") is not 0."""
    if event[0] != "dynamo-compile":
        return False
    count = "".join(c for c in str(event[1]).rpartition("/")[2] if c.isdigit())
    return bool(count) and int(count) != 0


def probe_compiled_call(torch, compile_log, step, enter=None, leave=None):
    """One call of a Dynamo path (enter, step, leave) watched by Dynamo's guard-complete hook, which Dynamo
    calls for a frame with cached entries with True when one's guards match and False when none does, and
    with Inductor's compiled graphs (CompiledFxGraph.__call__) counted as they run (docs/metrics.md,
    "Execution check"). "no-frame": Dynamo looked up no frame (it skipped the function); "guards-missed":
    more lookups missed than Dynamo recompiled in the call, so a frame ran uncompiled (past its recompile
    limit); "no-graph": the frames matched but no compiled graph ran (Dynamo made none, or the code it runs
    is disabled); "compiled": otherwise. Unknown, and why: "no-hook" when this torch has no such hook,
    "limit-in-probe" when Dynamo gave up at its recompile limit inside this very call (the probe changed
    what it was to watch); a call that raises raises. A hook already set (torch's guard collectives) still
    decides."""
    try:
        from torch._C._dynamo.eval_frame import set_guard_complete_hook
    except Exception:
        return "no-hook"
    lookups = []
    previous = None

    def watch(hit):
        lookups.append(bool(hit))
        return previous(hit) if previous is not None else hit

    def call():
        if enter:
            enter()
        try:
            step()
        finally:
            if leave:
                leave()

    first = len(compile_log.events)
    previous = set_guard_complete_hook(watch)
    try:
        graphs, _ = calling_compiled_graphs(call)
    finally:
        set_guard_complete_hook(previous)
    during = compile_log.events[first:]
    if any(e[0] == RECOMPILE_LIMIT for e in during):
        return "limit-in-probe"
    if not lookups:
        return "no-frame"
    if lookups.count(False) > sum(1 for e in during if _is_recompile(e)):
        return "guards-missed"
    return "compiled" if graphs else "no-graph"


class PythonPath:
    """One Python-side path: a callable and what it took to build it."""

    def __init__(self, name, step, compile_s, outputs, source, enter=None, leave=None, execution=None,
                 caller=None, probe=None):
        self.name = name
        self.step = step            # runs one iteration, device synchronised; returns nothing
        self.compile_s = compile_s  # torch.compile's first call (0 for eager)
        self.outputs = outputs      # flat list of output tensors of the first call
        self.source = source        # SOURCE_MODULE, SOURCE_PROGRAM or SOURCE_PACKAGE
        self.enter = enter          # called before each timed iteration (not timed), or None
        self.leave = leave          # called after it, or None
        # compare --threads: caller() gives a step on its own copy of the inputs, for one of several
        # threads calling the path at once (docs/metrics.md, "Concurrent callers"); None for a variant
        self.caller = caller
        # What it runs, as known once built (Session.execution_record; read by src/runtimes/python_session.cpp)
        self.execution = execution or execution_record()
        # A Dynamo path's probe() makes one call and says what it ran (probe_compiled_call); None otherwise
        self.probe = probe


def fresh_code_copy(torch, module):
    """A deep copy of `module` whose class has a forward with its own code object.

    Dynamo keeps its compiled code in the cache of the frame's code object. Two torch.compile calls
    on instances of one class share TinyMLP.forward's cache: the second can reuse the first's
    compiled graph even when it was compiled with other Inductor options (checked on torch 2.14.1:
    a cpp_wrapper compile of a copy silently ran the first copy's Python wrapper). A copy of the code
    object (same bytecode, a distinct object) gives each compiled path a cache of its own."""
    import copy
    import types
    try:
        clone = copy.deepcopy(module)
    except Exception as e:
        raise OhprofError(MODEL_ERROR, f"cannot copy the model for its own torch.compile ({type(e).__name__}: "
                                       f"{_first_line(e)}); use --compile-source program") from None
    cls = type(module)
    forward = cls.forward
    code = forward.__code__
    fresh = types.FunctionType(code.replace(co_name=code.co_name), forward.__globals__, forward.__name__,
                               forward.__defaults__, forward.__closure__)
    fresh.__kwdefaults__ = forward.__kwdefaults__
    fresh.__qualname__ = forward.__qualname__
    clone.__class__ = type(cls.__name__, (cls,), {"forward": fresh, "__module__": cls.__module__})
    return clone


class CompiledState:
    """What a compiled path's variants call: the compiled callable, the AOTAutograd function Dynamo
    calls with its arguments, and Inductor's compiled graph with its inputs, each captured once from
    a real call."""

    def __init__(self, fn, forward_code, forward_globals):
        self.fn = fn
        self.forward_code = forward_code
        self.forward_globals = forward_globals
        self.aot_fn = None
        self.aot_args = None
        self.aot_outputs = None    # what the compiled function returned in the captured call (the graph's flat outputs)
        self.first_outputs = None  # the compiled path's own first outputs, flattened (make_path)
        self.graph = None
        self.graph_inputs = None
        self.unavailable = ""        # why nothing below Dynamo could be captured
        self.graph_unavailable = ""  # why Inductor's compiled graph could not be
        # For the code view: Dynamo's graphs as the compile handed them to Inductor (recording_dynamo_graphs;
        # None when the path was compiled without dump_code), notes of what that recording could not have,
        # and the CompiledFxGraphs one call runs (compiled_graphs, taken once after measuring).
        self.dynamo_graphs = None
        self.dump_notes = []
        self.inductor_graphs = None
        self.inductor_graphs_note = ""
        # The execution check's facts of its compile (Session._compile): graphs Dynamo made for the first
        # call (None: not known), its graph breaks [(message, count)], CUDA-graph skips torch counted.
        self.graphs = None
        self.graph_breaks = []
        # Inductor's FX-graph cache lookups of its compile that hit and that did not (None: not known).
        self.fx_cache_hits = None
        self.fx_cache_misses = None
        self.cuda_graph_skips = 0

    def compiled_graphs(self, torch, inputs, sync=None, kwargs=None):
        """The CompiledFxGraphs one untimed call of `fn` runs ([{"cache_key", "source_code", "post_grad"}],
        calling_compiled_graphs), taken on the first request; [] and `inductor_graphs_note` when they cannot
        be had."""
        if self.inductor_graphs is None:
            try:
                def call():
                    self.fn(*inputs, **(kwargs or {}))
                    if sync:
                        sync()
                self.inductor_graphs, _ = calling_compiled_graphs(call)
            except Exception as e:  # torch internals moved, or the call failed
                self.inductor_graphs = []
                self.inductor_graphs_note = (f"Inductor's compiled graphs could not be had ({type(e).__name__}: "
                                             f"{_first_line(e)})")
            if not self.inductor_graphs and not self.inductor_graphs_note:
                self.inductor_graphs_note = "one call of the compiled path ran no Inductor CompiledFxGraph"
        return self.inductor_graphs

    def capture(self, torch, inputs, kwargs=None):
        """Captures the layers below Dynamo with one call; sets `unavailable` when it cannot."""
        try:
            self._capture(torch, inputs, kwargs or {})
        except Exception as e:  # torch internals this relies on moved, or the call failed
            self.unavailable = f"capturing the compiled callables failed ({type(e).__name__}: {_first_line(e)})"

    def _capture(self, torch, inputs, kwargs):
        from torch._dynamo.eval_frame import _debug_get_cache_entry_list
        from torch._inductor.output_code import CompiledFxGraph

        entries = _debug_get_cache_entry_list(self.forward_code)
        names = sorted({n for e in entries for n in e.code.co_names if n.startswith("__compiled_fn")})
        resumes = sorted({n for e in entries for n in e.code.co_names if n.startswith("__resume_at")})
        if len(entries) != 1 or len(names) != 1 or resumes:
            self.unavailable = (f"Dynamo made {len(names)} graph(s) in {len(entries)} cache entries of forward"
                                f"{' and resumes after a graph break' if resumes else ''}: the layers below "
                                "Dynamo are not isolated")
            return
        name = names[0]
        original = self.forward_globals.get(name)
        graphs = []
        calls = []

        results = []

        def record_aot(*args):
            calls.append(list(args))
            result = original(*args)
            results.append(result)
            return result

        original_call = CompiledFxGraph.__call__

        def record_graph(graph, graph_inputs):
            graphs.append((graph, list(graph_inputs)))
            return original_call(graph, graph_inputs)

        self.forward_globals[name] = record_aot
        CompiledFxGraph.__call__ = record_graph
        try:
            self.fn(*inputs, **kwargs)
        finally:
            self.forward_globals[name] = original
            CompiledFxGraph.__call__ = original_call
        if len(calls) != 1 or len(graphs) > 1:
            self.unavailable = (f"one call ran the compiled function {len(calls)} times and Inductor graphs "
                                f"{len(graphs)} times (graph breaks?): the layers below Dynamo are not isolated")
            return
        self.aot_fn, self.aot_args = original, calls[0]
        self.aot_outputs = [t.detach().clone() for t in _flatten(torch, results[0])]
        if len(graphs) == 1 and graphs[0][0].current_callable is not None:
            self.graph, self.graph_inputs = graphs[0]
        else:
            self.graph_unavailable = (f"Inductor's compiled graph ran {len(graphs)} times in one call: "
                                      "the Inductor layers are not isolated")


class Session:
    """The model, its artifacts and its inputs, shared by every path of one `ohprof compare`."""

    def __init__(self, options):
        import torch

        self.torch = torch
        self.device = options["device"]
        self.seed = int(options.get("seed", 0))
        self.kernel_profile = bool(options.get("kernel_profile", False))
        # compare --dump-code: record Dynamo's graphs while compiling (docs/design/code-view.md)
        self.dump_code_enabled = bool(options.get("dump_code", False))
        check_device(torch, self.device)
        self.timings = {}
        self.cached = False
        self.model_spec = options.get("model") or ""
        exported = options.get("exported") or ""
        self.aoti_package = options.get("aoti") or ""
        self.aoti_given = bool(self.aoti_package)  # --aoti: a package built elsewhere, maybe from another graph
        # (shape, dtype name) pairs, parsed and checked by ohprof (src/model/input_spec.cpp)
        self.specs = [([int(d) for d in shape], dtype) for shape, dtype in options.get("inputs", [])]
        # --inputs FILE: the user's own tensors, used by every path as given (moved to the device)
        self.inputs = None
        self.kwargs = {}  # keyword inputs (--inputs FILE only)
        self.inputs_digest = ""  # --inputs: the values' digest (values_digest), for the report and the artifact key
        inputs_file = options.get("inputs_file") or ""
        if inputs_file:
            self.inputs, self.kwargs, self.specs = read_inputs_file(torch, inputs_file, self.device)
            self.inputs_digest = values_digest(torch, self.inputs, self.kwargs)
            shapes = options.get("inputs_file_shapes") or []  # sweep --inputs: this point's shapes
            if shapes:
                self.inputs, self.kwargs = resize_inputs(torch, self.inputs, self.kwargs, shapes, inputs_file)
                self.specs = tensor_specs(torch, list(self.inputs) + [v for v in self.kwargs.values()
                                                                      if isinstance(v, torch.Tensor)], inputs_file)
        cache_root = options["cache_dir"]
        # Where eager and torch.compile start: the user's nn.Module (as users compile it) or the
        # exported program's module() (the graph AOTI was built from; --compile-source program).
        # ohprof checks the choice against --model / --exported before it opens the session.
        self.compile_source = options.get("compile_source") or (SOURCE_MODULE if self.model_spec else SOURCE_PROGRAM)
        self.user_model = None
        self.artifact_dir = ""
        # Whether any asked path (aoti, aoti:python, --compile-source program, --dump-code) needs the
        # export; without it a --model is never exported. export_error: why an export that was needed
        # failed, for a model that runs eagerly ("" : it did not fail).
        self.export_needed = bool(options.get("export_needed", True))
        self.export_error = ""
        # Why no AOTI package was built although the program was ("" : one was, or none was needed):
        # the compiler Inductor uses would make one that LibTorch does not load (_native.aoti_build_refusal).
        self.aoti_error = ""
        self.compiled = {}  # path name -> CompiledState
        self.built = set()  # the paths (not variants) make_path built
        # The execution check's compile events: this session's, from the process's log.
        self.compile_log = compile_log(torch)
        self.first_event = len(self.compile_log.events)
        if self.device == "cuda":
            self.compile_log.watch_cuda_graph_trees(torch)

        if self.model_spec:
            if not self.specs:
                raise OhprofError(USAGE_ERROR, "--model needs --input SHAPE[:DTYPE] for each model input, "
                                               "or --inputs FILE")
            self.user_model = build_model(torch, self.model_spec, self.device)
            if self.inputs is None:
                self.inputs = make_inputs(torch, self.specs, self.device, self.seed)
            self._check_inputs_eagerly(torch)
            if self.export_needed:
                exported = self._export_user_model(torch, cache_root)
        elif exported:
            if not os.path.exists(exported):
                raise OhprofError(FILE_NOT_FOUND, f"exported program '{exported}' does not exist")
        else:
            raise OhprofError(USAGE_ERROR, "give --model module:factory or --exported program.pt2")

        self.program = None
        self.exported_path = exported
        if exported:
            try:
                self.program = torch.export.load(exported)
            except Exception as e:
                raise OhprofError(INVALID_PACKAGE, f"'{exported}' is not a torch.export program "
                                                   f"(torch.export.load: {_first_line(e)})") from None
        if self.user_model is not None and self.cached and self.program is not None:
            # The package and program came from an earlier call of the factory: give the module their
            # weights, so every path computes with the same ones even when the factory is not seeded.
            try:
                with torch.no_grad():
                    self.user_model.load_state_dict(self.program.state_dict, strict=False)
            except Exception as e:
                raise OhprofError(MODEL_ERROR, f"the cached program's weights do not fit {self.model_spec} "
                                               f"({_first_line(e)}); clear the cache folder {self.artifact_dir}") from None
        if not self.specs:
            self.specs = self._specs_from_program()
        if self.inputs is None:
            self.inputs = make_inputs(torch, self.specs, self.device, self.seed)

        # What the C++ paths run on: the AOTI runner's flat tensors, in the package's order, and their specs.
        self.flat_inputs = flat_tensor_inputs(torch, self.program, self.inputs, self.kwargs)
        if self.kwargs:
            self.specs = tensor_specs(torch, self.flat_inputs)

        if not self.aoti_package and not self.aoti_error and self.program is not None:
            # The inputs' shapes are in the key: the package records them, and a dynamic-shape program may be
            # compared at other shapes.
            # The compiler too: a package is rebuilt when CXX changes (one linked with a static libstdc++,
            # say, is not found again once CXX names a compiler with a shared one).
            key = hashlib.sha256((open(exported, "rb").read()) + json.dumps(
                [ARTIFACT_FORMAT, self.device, self.kernel_profile, torch.__version__,
                 [input_text(s) for s in self.specs], _native.inductor_compiler()]).encode()).hexdigest()[:16]
            folder = os.path.join(cache_root, "from-program-" + key)
            package = os.path.join(folder, "model.aoti.pt2")
            if os.path.exists(package):
                self.cached = True
                self.aoti_package = package
            else:
                self.aoti_error = _native.aoti_build_refusal()
                if not self.aoti_error:
                    os.makedirs(folder, exist_ok=True)
                    self.timings["aoti_compile_s"] = compile_aoti(
                        torch, self.program, package,
                        aoti_configs(self.specs, os.path.basename(exported), self.kernel_profile))
                    self.aoti_package = package

    def _export_user_model(self, torch, cache_root):
        """The user's model exported and compiled to an AOTI package (cached); the program's path, or ""
        when torch.export cannot capture a model that runs eagerly on these inputs: then export_error
        says why, and the paths that need no export are still measured (docs/usage.md)."""
        key, key_fields = artifact_key(torch, self.model_spec, self.specs, self.device,
                                       self.kernel_profile, self.seed, self.inputs_digest or None)
        folder = os.path.join(cache_root, key)
        self.artifact_dir = folder
        info_path = os.path.join(folder, "export.json")
        if os.path.exists(info_path) and os.path.exists(os.path.join(folder, "model.aoti.pt2")):
            self.cached = True
            with open(info_path) as f:
                info = json.load(f)
        else:
            self.aoti_error = _native.aoti_build_refusal()
            try:
                info = export_artifacts(torch, self.model_spec, self.specs, self.device, self.seed, folder,
                                        self.kernel_profile, model=self.user_model, inputs=self.inputs,
                                        kwargs=self.kwargs, package=not self.aoti_error)
            except OhprofError as e:
                if e.code != INPUT_MISMATCH or self.compile_source != SOURCE_MODULE:
                    raise
                # The model ran eagerly on these inputs (_check_inputs_eagerly, before): a model that runs but
                # does not export is the export's limit, not the user's mistake. No program: the package's
                # refusal (aoti_error) is not the reason then.
                self.export_error = f"torch.export could not capture the model: {getattr(e, 'reason', e.message)}"
                self.aoti_error = ""
                return ""
            if not self.aoti_error:
                write_json(os.path.join(folder, "key.json"), key_fields)
        self.timings["export_s"] = info["export_s"]
        if info["aoti_compile_s"] is not None:
            self.timings["aoti_compile_s"] = info["aoti_compile_s"]
        if not self.aoti_package:
            self.aoti_package = info["aoti_package"]
        return info["exported_program"]

    def _check_inputs_eagerly(self, torch):
        """One eager call of the user's model on the inputs (under no_grad, as the export calls it: tensors a
        model makes on its first call stay usable in and out of inference mode), before any path is built:
        inputs the model rejects (their count, shapes or dtypes: a TypeError, ValueError, IndexError or
        RuntimeError) are said to be so in the model's own words, with exit 6, whichever paths were asked
        for, and not as a failed torch.compile (exit 9) or export of the model; running out of memory, or
        any other exception, is the model failing (exit 9) (docs/exit-codes.md)."""
        given = ", ".join(input_text(s) for s in self.specs) if self.specs else "none"
        out_of_memory = (MemoryError,) + ((torch.OutOfMemoryError,) if hasattr(torch, "OutOfMemoryError") else ())
        try:
            with torch.no_grad():
                self.user_model(*self.inputs, **self.kwargs)
        except out_of_memory as e:
            raise OhprofError(MODEL_ERROR, f"the model ran out of memory on these inputs ({given}) when run eagerly: "
                                           f"{_first_line(e)}; use smaller inputs or a device with more memory") from None
        except (TypeError, ValueError, IndexError, RuntimeError) as e:
            raise OhprofError(INPUT_MISMATCH, f"the model rejects these inputs ({given}) when run eagerly: "
                                              f"{type(e).__name__}: {_first_line(e)}; pass one --input SHAPE[:DTYPE] "
                                              "per forward argument, in forward's order, or save them as a tuple "
                                              "with torch.save and give --inputs FILE") from None
        except Exception as e:
            raise OhprofError(MODEL_ERROR, f"the model failed on these inputs ({given}) when run eagerly: "
                                           f"{type(e).__name__}: {_first_line(e)}; run it eagerly to see the whole "
                                           "error") from None

    def _specs_from_program(self):
        specs = []
        for node in self.program.graph.nodes:
            if node.op != "placeholder":
                continue
            if node.name not in self.program.graph_signature.user_inputs:
                continue
            value = node.meta.get("val")
            if value is None or not hasattr(value, "shape"):
                raise OhprofError(USAGE_ERROR, "the exported program has a non-tensor input; give --input")
            specs.append(([int(d) for d in value.shape], str(value.dtype).replace("torch.", "")))
        return specs

    def make_path(self, name):
        """A path (PYTHON_PATHS) or a variant "<path>/<variant>" of a compiled path built before."""
        torch = self.torch
        sync = _sync(torch, self.device)
        inputs = self.inputs
        base, _, variant = name.partition("/")
        enter = leave = None
        compile_s = 0.0
        args, fresh_list = inputs, None  # fn(*args), or fn(fresh_list()) for Inductor's list-taking calls
        # The keyword inputs go to every call of the model (and of its no-guards variant), not to the
        # variants below Dynamo, which take the graph's flat inputs.
        kwargs = self.kwargs if variant in ("", "no-guards") else {}
        if variant:
            fn, variant_args, fresh_list, enter, leave = self._variant(base, variant)
            args = variant_args if variant_args is not None else inputs
            source = self.compile_source
        elif name not in PYTHON_PATHS:
            raise OhprofError(USAGE_ERROR, f"unknown path '{name}'; use aoti or one of " + ", ".join(PYTHON_PATHS))
        elif name == "aoti:python":
            # Ready in: the loader plus a first call, as for the C++ loader (docs/metrics.md, "Build time").
            start = time.perf_counter()
            try:
                fn = torch._inductor.aoti_load_package(self.aoti_package)
            except Exception as e:
                raise OhprofError(INVALID_PACKAGE, f"aoti_load_package('{self.aoti_package}') failed: "
                                                   f"{_first_line(e)}") from None
            try:
                fn(*inputs, **kwargs)
                sync()
            except Exception as e:
                raise OhprofError(INPUT_MISMATCH, f"the AOTI package rejected the inputs through "
                                                  f"aoti_load_package: {_first_line(e)}") from None
            compile_s = time.perf_counter() - start
            source = SOURCE_PACKAGE
        elif name == "eager":
            fn, source = self._module_for("eager")
        else:
            fn, compile_s, source = self._compile(name, name.partition(":")[2] or "default")
        try:
            # Cloned: CUDA-graph paths reuse their output memory on the next call.
            if enter:
                enter()
            try:
                first = fn(fresh_list()) if fresh_list else fn(*args, **kwargs)
                outputs = [t.detach().clone() for t in _flatten(torch, first)]
            finally:
                if leave:
                    leave()
            sync()
        except Exception as e:
            raise OhprofError(MODEL_ERROR, f"path {name} failed: {_first_line(e)}") from None
        if not variant and name in self.compiled:
            self.compiled[name].first_outputs = outputs
        elif variant in ("graph", "inductor", "call"):
            outputs = self._graph_variant_outputs(base, outputs)

        def step_on(call_args, call_kwargs):
            def step():
                fn(*call_args, **call_kwargs)
                sync()
            return step

        if fresh_list:
            def step():
                fn(fresh_list())
                sync()
        else:
            step = step_on(args, kwargs)

        caller = None
        if not variant:
            self.built.add(name)

            def caller():
                return step_on(*_cloned(torch, (args, kwargs)))
        probe = None
        if base in self.compiled and variant in ("", "no-guards"):
            def probe():
                return probe_compiled_call(torch, self.compile_log, step, enter, leave)
        return PythonPath(name, step, compile_s, outputs, source, enter, leave,
                          self._execution(base, variant, outputs), caller, probe)

    def _execution(self, base, variant, outputs):
        """What path `base` (or its `variant`) runs, as the execution check records it (docs/metrics.md,
        "Execution check"): for a call through Dynamo its compile's graphs and breaks and, for
        reduce-overhead on CUDA, whether torch skipped CUDA graphs and why."""
        device = outputs_device(outputs)
        state = self.compiled.get(base)
        if state is None or variant not in ("", "no-guards"):
            return execution_record(device=device)
        cuda_graphs = self.device == "cuda" and base == "compile:reduce-overhead"
        skip = ""
        if cuda_graphs:
            graphs = state.compiled_graphs(self.torch, self.inputs, _sync(self.torch, self.device), self.kwargs)
            skip = "; ".join(dict.fromkeys(g["cudagraphs_disabled"] for g in graphs if g["cudagraphs_disabled"]))
            if not skip and state.cuda_graph_skips:
                skip = (f"torch counted {state.cuda_graph_skips} CUDA-graph skip(s) while compiling it without a "
                        "reason ohprof could read; TORCH_LOGS=perf_hints shows it")
        return execution_record(dynamo=True, graphs=state.graphs, graph_breaks=state.graph_breaks,
                                cuda_graphs_expected=cuda_graphs, cuda_graph_skip_reason=skip, device=device,
                                unobserved=self.compile_log.unobserved,
                                # the compile's cache lookups belong to the path, not to a variant of it
                                fx_cache_hits=None if variant else state.fx_cache_hits,
                                fx_cache_misses=None if variant else state.fx_cache_misses)

    def compile_events(self):
        """This session's compile events [(kind, compile id, start ns, end ns, reason)] (CompileLog); an
        event not yet ended ends now."""
        now = time.monotonic_ns()
        return [(k, i, start, end or now, reason) for k, i, start, end, reason in self.compile_log.events[self.first_event:]]

    def _graph_variant_outputs(self, base, outputs):
        """A variant below Dynamo returns its graph's flat outputs, which for a model whose output is not a
        flat sequence of tensors (a cache object, say) are not laid out as the model's. When they are laid
        out otherwise but equal what the compiled function returned in the captured call (checked here),
        the variant computes exactly that path's graph: its check against the reference is the path's
        own outputs'. Otherwise its own outputs are checked as they are."""
        state = self.compiled[base]
        model_flat = state.first_outputs
        if model_flat is None or state.aot_outputs is None:
            return outputs
        same_layout = len(outputs) == len(model_flat) and all(
            tuple(a.shape) == tuple(b.shape) for a, b in zip(outputs, model_flat))
        if same_layout:
            return outputs
        if compare_outputs(self.torch, state.aot_outputs, outputs)["passed"]:
            return model_flat
        return outputs

    def _module_for(self, name):
        """The module a path starts from: the user's own (a fresh-code copy for each compiled path),
        or the exported program's module()."""
        if self.compile_source == SOURCE_MODULE:
            if name == "eager":
                return self.user_model, SOURCE_MODULE
            return fresh_code_copy(self.torch, self.user_model), SOURCE_MODULE
        return self.program.module(), SOURCE_PROGRAM

    def _compile_settings(self, mode):
        return compile_settings(self.torch, mode, self.kernel_profile)

    def cold_start_setup(self, out_dir, with_module=True):
        """compare --cold-start (docs/metrics.md, "Cold start"): writes into `out_dir` what a fresh process
        of a path needs (python/ohprof/_cold_start.py): the inputs, the reference output (eager, computed
        here on the same inputs, in inference mode), the user's module's weights (so that every process
        computes with this session's, whether or not the factory is seeded; the Python API's model object is
        pickled whole instead, save_model_object) and spec.json. Returns (the command that starts one process,
        less its five arguments; why the portable cache artifacts cannot be used, or ""; why no eager or
        compile process can be started, a model object that cannot be pickled for one, or ""). Without
        `with_module` (only AOTI paths asked) a model object is not pickled, and nothing refused."""
        torch = self.torch
        os.makedirs(out_dir, exist_ok=True)
        module_file, module_unavailable = "", ""
        if with_module and self.model_spec.startswith("ohprof._registry:") and self.compile_source == SOURCE_MODULE:
            # The Python API's model object: no factory a fresh process could call, so the object itself, pickled
            # (only where an eager or compile path is asked: `with_module`).
            # One that cannot be leaves the AOTI paths' processes, which need only the package, to be measured.
            module_file = os.path.join(out_dir, "module.pt")
            try:
                save_model_object(torch, self.user_model, module_file)
            except OhprofError as e:
                module_file, module_unavailable = "", e.message
        cpu = lambda v: v.detach().to("cpu") if isinstance(v, torch.Tensor) else v  # noqa: E731
        inputs = os.path.join(out_dir, "inputs.pt")
        torch.save({"args": [cpu(t) for t in self.inputs], "kwargs": {k: cpu(v) for k, v in self.kwargs.items()},
                    "flat": [cpu(t) for t in self.flat_inputs]}, inputs)
        module = self.user_model if self.compile_source == SOURCE_MODULE else self.program.module()
        with torch.inference_mode():
            reference = [cpu(t).clone() for t in _flatten(torch, module(*self.inputs, **self.kwargs))]
        _sync(torch, self.device)()
        reference_path = os.path.join(out_dir, "reference.pt")
        torch.save(reference, reference_path)
        weights = ""
        # a pickled object carries its weights; an AOTI process needs none
        if with_module and self.compile_source == SOURCE_MODULE and not module_file and not module_unavailable:
            weights = os.path.join(out_dir, "weights.pt")
            torch.save({k: cpu(v) for k, v in self.user_model.state_dict().items()}, weights)
        spec = {"model": self.model_spec, "exported": self.exported_path, "aoti_package": self.aoti_package,
                "compile_source": self.compile_source, "device": self.device, "kernel_profile": self.kernel_profile,
                "inputs": inputs, "reference": reference_path, "weights": weights, "module_file": module_file,
                "sys_path": list(sys.path)}
        spec_path = os.path.join(out_dir, "spec.json")
        write_json(spec_path, spec)
        unavailable = "" if hasattr(getattr(torch, "compiler", None), "save_cache_artifacts") else (
            f"torch {torch.__version__} has no torch.compiler.save_cache_artifacts")
        return [sys.executable, "-c", COLD_START_BOOTSTRAP, spec_path], unavailable, module_unavailable

    def _compile(self, name, mode):
        torch = self.torch
        compile_mode, patches, compile_options = self._compile_settings(mode)
        module, source = self._module_for(name)
        dynamo_graphs, dump_notes = [], []
        recording = recording_dynamo_graphs(dynamo_graphs, dump_notes) if self.dump_code_enabled \
            else contextlib.nullcontext()
        counts_before = dynamo_counts(torch)
        start = time.perf_counter()
        fresh = fresh_inductor_cache(torch) if mode in REBUILD_MODES else contextlib.nullcontext()
        try:
            fn = torch.compile(module, dynamic=False, mode=compile_mode, options=compile_options)
            with fresh, torch._inductor.config.patch(patches):
                with recording:
                    fn(*self.inputs, **self.kwargs)
                _sync(torch, self.device)()
        except Exception as e:
            raise OhprofError(MODEL_ERROR, f"torch.compile ({name}) failed: {_first_line(e)}") from None
        compile_s = time.perf_counter() - start
        counts_after = dynamo_counts(torch)
        forward = type(module).forward
        state = CompiledState(fn, forward.__code__, forward.__globals__)
        if counts_before is not None and counts_after is not None:
            state.graphs = int(counts_after[0] - counts_before[0])
            state.graph_breaks = graph_breaks_between(counts_before, counts_after)
            state.cuda_graph_skips = int(counts_after[2] - counts_before[2])
            state.fx_cache_hits = int(counts_after[3] - counts_before[3])
            state.fx_cache_misses = int(counts_after[4] - counts_before[4])
        if self.dump_code_enabled:
            state.dynamo_graphs, state.dump_notes = dynamo_graphs, dump_notes
        self.compiled[name] = state
        return fn, compile_s, source

    def _dump_target(self, name, what):
        """Checks that `name` is a path this session can dump (compile paths and eager/aoti:python once
        built; aoti always); returns its CompiledState or None."""
        if name not in PYTHON_PATHS and name != "aoti":
            raise OhprofError(USAGE_ERROR, f"{what}: unknown path '{name}'; use aoti or one of "
                              + ", ".join(PYTHON_PATHS))
        if name.startswith("compile"):
            state = self.compiled.get(name)
            if state is None:
                raise OhprofError(USAGE_ERROR, f"{what}: path {name} was not built in this session")
            return state
        if name != "aoti" and name not in self.built:
            raise OhprofError(USAGE_ERROR, f"{what}: path {name} was not built in this session")
        return None

    def dump_code(self, name, out_dir):
        """Writes path `name`'s graph and generated code into `out_dir` (made if absent), after measuring.

        A compile path: graph.py (Dynamo's graph(s) as code; several under a header each, naming index and
        backend_id), graph.dot / graph.svg (every Dynamo graph: one graph as it is, several as clusters of one
        digraph), post_grad_graph.txt (the post-grad graph(s) Inductor compiled) and code/output_code.py
        (code/output_code_<i>.py for several CompiledFxGraphs), copied unchanged from source_code.
        eager, aoti:python and aoti: the exported program's graph as graph.py / graph.dot / graph.svg; their
        code is the AOTI package's, which the C++ side copies.

        Returns {"files": [relative to out_dir, sorted], "notes": [one line each: what could not be had and
        why], "code_files": [the generated-code files among files], "graph_label": what the graph is}. An
        unknown path or one not built is OhprofError(USAGE_ERROR); a folder or file that cannot be written,
        OhprofError(OUTPUT_ERROR); anything in torch's internals that fails is a note."""
        state = self._dump_target(name, "dump_code")
        out = _DumpWriter(out_dir)
        if state is None:
            self._dump_program_graph(out)
            label = EAGER_GRAPH_LABEL if name == "eager" else GIVEN_PACKAGE_GRAPH_LABEL if self.aoti_given \
                else EXPORT_GRAPH_LABEL
            return out.result(label)
        out.notes.extend(state.dump_notes)
        graphs = state.dynamo_graphs
        if graphs is None:
            out.notes.append(f"{name} was compiled without dump_code, so Dynamo's graph was not recorded: no "
                             "graph.py, graph.dot or graph.svg")
        elif not graphs:
            out.notes.append(f"Dynamo handed no graph to Inductor while compiling {name}: no graph.py, "
                             "graph.dot or graph.svg")
        else:
            if len(graphs) == 1:
                code = graphs[0]["code"]
            else:
                code = "".join(f"# ---- Dynamo graph {g['index']} of {len(graphs)}: {g['backend_id'] or '?'} "
                               f"({g['nodes']} nodes)\n{g['code'].rstrip()}\n\n\n" for g in graphs)
            out.text("graph.py", code)
            self._write_dot(out, [(f"{name}: Dynamo graph {g['index']} ({g['backend_id'] or '?'})", g["dot"])
                                  for g in graphs])
        compiled = state.compiled_graphs(self.torch, self.inputs, _sync(self.torch, self.device), self.kwargs)
        if state.inductor_graphs_note:
            out.notes.append(state.inductor_graphs_note)
        if compiled:
            several = len(compiled) > 1
            post = []
            for i, graph in enumerate(compiled):
                if graph["post_grad"]:
                    header = f"# ---- Inductor graph {i} of {len(compiled)}: cache key {graph['cache_key']}\n" \
                        if several else ""
                    post.append(header + graph["post_grad"].rstrip() + "\n")
                else:
                    out.notes.append(f"Inductor graph {i} of {name} has no post-grad graph string")
                if graph["source_code"]:
                    out.text(f"code/output_code_{i}.py" if several else "code/output_code.py",
                             graph["source_code"], code=True)
                else:
                    out.notes.append(f"Inductor graph {i} of {name} has no source_code: no output code for it")
            if post:
                out.text("post_grad_graph.txt", "\n\n".join(post))
        return out.result(DYNAMO_GRAPH_LABEL)

    def _dump_program_graph(self, out):
        if self.program is None:
            out.notes.append("no exported program: torch.export " +
                             (f"failed ({self.export_error})" if self.export_error else "was not needed by the paths asked"))
            return
        try:
            gm = self.program.graph_module
            code = _readable_code(gm)
            statements = fx_dot_statements(gm.graph)
        except Exception as e:  # torch internals moved
            out.notes.append(f"the exported program's graph could not be had ({type(e).__name__}: "
                             f"{_first_line(e)})")
            return
        out.text("graph.py", code)
        self._write_dot(out, [(f"exported program ({os.path.basename(self.exported_path)})", statements)])

    def _write_dot(self, out, graphs):
        out.text("graph.dot", fx_graphs_dot(graphs))
        note = render_svg(out.path("graph.dot"), out.path("graph.svg"))
        if note:
            out.notes.append(note)
        else:
            out.add("graph.svg")

    def trace_compile(self, name, out_dir):
        """A compile trace of compile path `name` for tlparse, from a separate re-compile after measuring.

        Compiles a fresh copy of the path's module (its own code object, so the measured compiled code is
        untouched) with the path's mode and config patches and calls it once, with a LazyTraceHandler of
        out_dir/trace on torch's trace log for just that compile and call (TORCH_TRACE is read only at import:
        docs/design/code-view.md, section 4). Notes when the re-compile's cache keys differ from the measured
        graphs'. Then tlparse, when found, writes trace/tlparse/ (index.html listed).

        Returns the dict of dump_code (graph_label ""; code_files empty). eager and the AOTI paths get a note
        and nothing written; an unknown path or a compile path not built is OhprofError(USAGE_ERROR)."""
        if name in PROGRAM_GRAPH_PATHS:
            return {"files": [], "notes": [f"no compile trace for {name}: it is not a torch.compile path"],
                    "code_files": [], "graph_label": ""}
        state = self._dump_target(name, "trace_compile")
        torch = self.torch
        out = _DumpWriter(out_dir)
        # The measured graphs' cache keys first (one untimed call of the measured callable).
        measured = [g["cache_key"] for g in state.compiled_graphs(torch, self.inputs, _sync(torch, self.device), self.kwargs)]
        trace_dir = out.path("trace")
        compile_mode, patches, compile_options = self._compile_settings(name.partition(":")[2] or "default")
        handler = log_path = None
        retraced, recompiled = [], False
        try:
            from torch._logging import _internal as logging_internal
            handler = logging_internal.LazyTraceHandler(trace_dir)
            handler.setFormatter(logging_internal.TorchLogsFormatter(trace=True))
            trace_log = logging_internal.trace_log
        except Exception as e:  # the API moved
            out.notes.append(f"no compile trace for {name}: torch's trace handler cannot be made "
                             f"({type(e).__name__}: {_first_line(e)})")
            return out.result("")
        prefix = getattr(logging_internal, "LOG_PREFIX", "dedicated_log_torch_trace_")
        try:
            os.makedirs(trace_dir, exist_ok=True)
            earlier = {f for f in os.listdir(trace_dir) if f.startswith(prefix)}
        except OSError as e:
            raise OhprofError(OUTPUT_ERROR, f"cannot make the folder '{trace_dir}': {_first_line(e)}") from None
        try:
            module, _ = self._module_for(name)
            fn = torch.compile(module, dynamic=False, mode=compile_mode, options=compile_options)
            trace_log.addHandler(handler)
            try:
                with torch._inductor.config.patch(patches):
                    def call():
                        fn(*self.inputs, **self.kwargs)
                        _sync(torch, self.device)()
                    retraced, _ = calling_compiled_graphs(call)
                    recompiled = True
            finally:
                trace_log.removeHandler(handler)
                log_path = getattr(handler, "_stream_path", None)
                handler.close()
        except OhprofError:
            raise
        except Exception as e:
            out.notes.append(f"the re-compile of {name} for its trace failed ({type(e).__name__}: "
                             f"{_first_line(e)}); the trace may be partial")
        finally:
            module = fn = None
        if not log_path or not os.path.exists(log_path):  # the handler's private field moved: the new file
            logs = sorted(os.path.join(trace_dir, f) for f in os.listdir(trace_dir)
                          if f.startswith(prefix) and f not in earlier)
            log_path = logs[-1] if len(logs) == 1 else None
        if not log_path:
            out.notes.append(f"the re-compile of {name} wrote no trace records: no trace log")
            return out.result("")
        out.add(os.path.relpath(log_path, out_dir).replace(os.sep, "/"))
        keys = [g["cache_key"] for g in retraced]
        if state.inductor_graphs_note:
            out.notes.append(f"the trace's cache keys cannot be checked against the measured compile's: "
                             f"{state.inductor_graphs_note}")
        elif recompiled and keys != measured:
            out.notes.append(f"the trace is of a compile whose cache key differs from the measured one "
                             f"(traced {', '.join(keys) or 'none'}; measured {', '.join(measured) or 'none'})")
        index, note = run_tlparse(log_path, os.path.join(trace_dir, "tlparse"))
        if note:
            out.notes.append(note)
        if index:
            out.add(os.path.relpath(index, out_dir).replace(os.sep, "/"))
        return out.result("")

    def _variant(self, base, variant):
        """What one variant of compiled path `base` runs (docs/metrics.md, "Layers"): the callable and its
        arguments, or a function making a fresh argument list each call; plus the enter/leave hooks."""
        torch = self.torch
        if variant not in VARIANTS:
            raise OhprofError(USAGE_ERROR, f"unknown variant '{variant}' of '{base}'; use one of " + ", ".join(VARIANTS))
        state = self.compiled.get(base)
        if state is None:
            raise OhprofError(USAGE_ERROR, f"variant of '{base}' asked for before the path was built")
        if variant == "no-guards":
            # The same compiled module, with Dynamo's guard evaluation skipped for the iteration.
            stance = getattr(torch.compiler, "set_stance", None)
            if stance is None:
                raise OhprofError(ENVIRONMENT_ERROR, f"{base}/no-guards needs torch.compiler.set_stance, which torch "
                                                     f"{torch.__version__} does not have (torch >= 2.6 has it)")

            def enter():
                stance("default", skip_guard_eval_unsafe=True)

            def leave():
                stance("default")

            return state.fn, self.inputs, None, enter, leave
        if state.aot_fn is None and not state.unavailable:
            state.capture(torch, self.inputs, self.kwargs)
        if state.unavailable:
            raise OhprofError(MODEL_ERROR, f"{base}: {state.unavailable}")
        if variant == "graph":
            return state.aot_fn, state.aot_args, None, None, None
        if state.graph_unavailable:
            raise OhprofError(MODEL_ERROR, f"{base}: {state.graph_unavailable}")
        # CompiledFxGraph.__call__ and the generated call() clear the list they are given: a fresh copy
        # each call (the same copy in both variants, so it cancels in the Inductor-call layer).
        graph_inputs = state.graph_inputs
        target = state.graph if variant == "inductor" else state.graph.current_callable
        return target, None, lambda: list(graph_inputs), None, None

    def compare(self, reference, outputs):
        return compare_outputs(self.torch, reference, outputs)
