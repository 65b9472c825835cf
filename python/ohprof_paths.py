"""The Python side of ohprof: model export, AOTInductor packaging and torch.compile paths.

ohprof imports this module in its embedded interpreter (src/runtimes/python_session.cpp), so every path runs in
the process that also runs the AOTInductor package through LibTorch's C++ loader, on the same input
tensors. examples/export_model.py uses the same functions from the command line.

Errors a user can fix are raised as OhprofError(code, message): `code` is one of ohprof's exit codes
(include/ohprof/base/exit_codes.hpp; test/tools/python_boundary_check.py checks that they agree) and
`message` is one line.
"""
import contextlib
import fcntl
import hashlib
import importlib
import json
import logging
import os
import tempfile
import time
import warnings
import zipfile

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
MODEL_ERROR = 9
MODEL_NOT_FOUND = 11

DTYPES = {
    "float32": "float32", "float": "float32", "f32": "float32",
    "float16": "float16", "half": "float16", "f16": "float16",
    "bfloat16": "bfloat16", "bf16": "bfloat16",
    "float64": "float64", "double": "float64", "f64": "float64",
    "int64": "int64", "long": "int64", "int32": "int32", "int": "int32",
    "int8": "int8", "uint8": "uint8", "bool": "bool",
}

PYTHON_PATHS = ("aoti:python", "eager", "compile", "compile:reduce-overhead",
                "compile:max-autotune-no-cudagraphs", "compile:cpp-wrapper")

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
    return "x".join(str(d) for d in shape) + ":" + dtype


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
        raise OhprofError(MODEL_NOT_FOUND, f"module '{module_name}' has no attribute '{attr}'")
    return factory


def build_model(torch, spec, device):
    factory = load_factory(spec)
    try:
        model = factory()
    except Exception as e:  # the user's code: report it in one line
        raise OhprofError(MODEL_ERROR, f"factory {spec} raised {type(e).__name__}: {_first_line(e)}") from None
    if not isinstance(model, torch.nn.Module):
        raise OhprofError(MODEL_ERROR, f"factory {spec} returned {type(model).__name__}, not a torch.nn.Module")
    return model.eval().to(device)


def check_device(torch, device):
    if device == "cuda" and not torch.cuda.is_available():
        raise OhprofError(DEVICE_UNAVAILABLE, "--device cuda but no CUDA device is available here; use --device cpu")


def export_program(torch, model, inputs):
    # torch logs a failing export with its traceback before raising; the one-line error says it all.
    logging.disable(logging.ERROR)
    try:
        with torch.no_grad():
            return torch.export.export(model, inputs)
    except Exception as e:
        raise OhprofError(INPUT_MISMATCH, f"torch.export failed for these inputs: {_first_line(e)}") from None
    finally:
        logging.disable(logging.NOTSET)


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


@contextlib.contextmanager
def _exclusive(lock_path):
    """Holds an exclusive lock on `lock_path` (a file, created if absent) across processes."""
    with open(lock_path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


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
    except (OSError, zipfile.BadZipFile) as e:
        return f"it is not a readable zip archive ({_first_line(e)})"
    return None


def compile_aoti(torch, program, package_path, configs):
    """Compiles `program` into the AOTI package `package_path`, which appears whole or not at all.

    Inductor writes an AOTI compile's metadata JSON in its cache folder by truncating and rewriting it,
    and packages it after releasing its own lock: two processes compiling the same graph at once can
    package each other's half-written file, and LibTorch then refuses the package ("parse error ...
    empty input"). So ohprof's compiles take turns per cache folder, the package is checked, and a broken
    one (another program compiling the same graph) is compiled once more."""
    tmp = f"{package_path[: -len('.pt2')]}.{os.getpid()}.tmp.pt2"
    problem = None
    try:
        with _exclusive(os.path.join(_inductor_cache_root(), "ohprof-aoti-compile.lock")):
            for _ in range(2):
                torch._inductor.aoti_compile_and_package(program, package_path=tmp, inductor_configs=configs)
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


def save_program(torch, program, path):
    tmp = f"{path[: -len('.pt2')]}.{os.getpid()}.tmp.pt2"
    torch.export.save(program, tmp)
    os.replace(tmp, path)


def write_json(path, data):
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=2)
    os.replace(tmp, path)


def export_artifacts(torch, model_spec, specs, device, seed, out_dir, kernel_profile=False, model=None):
    """Exports `model_spec` (or `model`, built from it) to OUT/model.ep.pt2 and OUT/model.aoti.pt2;
    returns what it did."""
    check_device(torch, device)
    if model is None:
        model = build_model(torch, model_spec, device)
    inputs = make_inputs(torch, specs, device, seed)
    os.makedirs(out_dir, exist_ok=True)
    start = time.perf_counter()
    program = export_program(torch, model, inputs)
    export_s = time.perf_counter() - start
    ep_path = os.path.join(out_dir, "model.ep.pt2")
    save_program(torch, program, ep_path)
    start = time.perf_counter()
    package_path = os.path.join(out_dir, "model.aoti.pt2")
    compile_aoti(torch, program, package_path, aoti_configs(specs, model_spec, kernel_profile))
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
        "aoti_compile_s": time.perf_counter() - start,
    }
    write_json(os.path.join(out_dir, "export.json"), info)
    return info


def artifact_key(torch, model_spec, specs, device, kernel_profile, seed):
    """Everything that changes the exported program or the package."""
    key = {
        "format": ARTIFACT_FORMAT,
        "model": model_spec,
        "inputs": [input_text(s) for s in specs],
        "device": device,
        "kernel_profile": kernel_profile,
        "seed": seed,
        "torch": torch.__version__,
        "helper": hashlib.sha256(open(__file__, "rb").read()).hexdigest()[:16],
    }
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16], key


def _sync(torch, device):
    if device == "cuda":
        return torch.cuda.synchronize
    return lambda: None


def _flatten(torch, value):
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            out.extend(_flatten(torch, v))
        return out
    if isinstance(value, dict):
        out = []
        for k in sorted(value):
            out.extend(_flatten(torch, value[k]))
        return out
    return []


def tolerance(torch, dtype):
    if dtype in (torch.float16, torch.bfloat16):
        return 1e-2, 1e-2
    if dtype == torch.float64:
        return 1e-7, 1e-7
    if dtype.is_floating_point:
        return 1e-3, 1e-3
    return 0.0, 0.0


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


class PythonPath:
    """One Python-side path: a callable and what it took to build it."""

    def __init__(self, name, step, compile_s, outputs, source, enter=None, leave=None):
        self.name = name
        self.step = step            # runs one iteration, device synchronised; returns nothing
        self.compile_s = compile_s  # torch.compile's first call (0 for eager)
        self.outputs = outputs      # flat list of output tensors of the first call
        self.source = source        # SOURCE_MODULE, SOURCE_PROGRAM or SOURCE_PACKAGE
        self.enter = enter          # called before each timed iteration (not timed), or None
        self.leave = leave          # called after it, or None


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
        self.graph = None
        self.graph_inputs = None
        self.unavailable = ""        # why nothing below Dynamo could be captured
        self.graph_unavailable = ""  # why Inductor's compiled graph could not be

    def capture(self, torch, inputs):
        """Captures the layers below Dynamo with one call; sets `unavailable` when it cannot."""
        try:
            self._capture(torch, inputs)
        except Exception as e:  # torch internals this relies on moved, or the call failed
            self.unavailable = f"capturing the compiled callables failed ({type(e).__name__}: {_first_line(e)})"

    def _capture(self, torch, inputs):
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

        def record_aot(*args):
            calls.append(list(args))
            return original(*args)

        original_call = CompiledFxGraph.__call__

        def record_graph(graph, graph_inputs):
            graphs.append((graph, list(graph_inputs)))
            return original_call(graph, graph_inputs)

        self.forward_globals[name] = record_aot
        CompiledFxGraph.__call__ = record_graph
        try:
            self.fn(*inputs)
        finally:
            self.forward_globals[name] = original
            CompiledFxGraph.__call__ = original_call
        if len(calls) != 1 or len(graphs) > 1:
            self.unavailable = (f"one call ran the compiled function {len(calls)} times and Inductor graphs "
                                f"{len(graphs)} times (graph breaks?): the layers below Dynamo are not isolated")
            return
        self.aot_fn, self.aot_args = original, calls[0]
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
        check_device(torch, self.device)
        self.timings = {}
        self.cached = False
        self.model_spec = options.get("model") or ""
        exported = options.get("exported") or ""
        self.aoti_package = options.get("aoti") or ""
        # (shape, dtype name) pairs, parsed and checked by ohprof (src/model/input_spec.cpp)
        self.specs = [([int(d) for d in shape], dtype) for shape, dtype in options.get("inputs", [])]
        cache_root = options["cache_dir"]
        # Where eager and torch.compile start: the user's nn.Module (as users compile it) or the
        # exported program's module() (the graph AOTI was built from; --compile-source program).
        # ohprof checks the choice against --model / --exported before it opens the session.
        self.compile_source = options.get("compile_source") or (SOURCE_MODULE if self.model_spec else SOURCE_PROGRAM)
        self.user_model = None
        self.compiled = {}  # path name -> CompiledState

        if self.model_spec:
            if not self.specs:
                raise OhprofError(USAGE_ERROR, "--model needs --input SHAPE[:DTYPE] for each model input")
            self.user_model = build_model(torch, self.model_spec, self.device)
            key, key_fields = artifact_key(torch, self.model_spec, self.specs, self.device,
                                           self.kernel_profile, self.seed)
            folder = os.path.join(cache_root, key)
            self.artifact_dir = folder
            info_path = os.path.join(folder, "export.json")
            if os.path.exists(info_path) and os.path.exists(os.path.join(folder, "model.aoti.pt2")):
                self.cached = True
                with open(info_path) as f:
                    info = json.load(f)
            else:
                info = export_artifacts(torch, self.model_spec, self.specs, self.device, self.seed, folder,
                                        self.kernel_profile, model=self.user_model)
                write_json(os.path.join(folder, "key.json"), key_fields)
            self.timings["export_s"] = info["export_s"]
            self.timings["aoti_compile_s"] = info["aoti_compile_s"]
            exported = info["exported_program"]
            if not self.aoti_package:
                self.aoti_package = info["aoti_package"]
        elif exported:
            if not os.path.exists(exported):
                raise OhprofError(FILE_NOT_FOUND, f"exported program '{exported}' does not exist")
        else:
            raise OhprofError(USAGE_ERROR, "give --model module:factory or --exported program.pt2")

        try:
            self.program = torch.export.load(exported)
        except Exception as e:
            raise OhprofError(INVALID_PACKAGE, f"'{exported}' is not a torch.export program "
                                               f"(torch.export.load: {_first_line(e)})") from None
        self.exported_path = exported
        if self.user_model is not None and self.cached:
            # The package and program came from an earlier call of the factory: give the module their
            # weights, so every path computes with the same ones even when the factory is not seeded.
            try:
                with torch.no_grad():
                    self.user_model.load_state_dict(self.program.state_dict, strict=False)
            except Exception as e:
                raise OhprofError(MODEL_ERROR, f"the cached program's weights do not fit {self.model_spec} "
                                               f"({_first_line(e)}); clear the cache folder {folder}") from None
        if not self.specs:
            self.specs = self._specs_from_program()
        self.inputs = make_inputs(torch, self.specs, self.device, self.seed)

        if not self.aoti_package:
            key = hashlib.sha256((open(exported, "rb").read()) + json.dumps(
                [ARTIFACT_FORMAT, self.device, self.kernel_profile, torch.__version__]).encode()).hexdigest()[:16]
            folder = os.path.join(cache_root, "from-program-" + key)
            package = os.path.join(folder, "model.aoti.pt2")
            if os.path.exists(package):
                self.cached = True
            else:
                os.makedirs(folder, exist_ok=True)
                start = time.perf_counter()
                compile_aoti(torch, self.program, package,
                             aoti_configs(self.specs, os.path.basename(exported), self.kernel_profile))
                self.timings["aoti_compile_s"] = time.perf_counter() - start
            self.aoti_package = package

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
                fn(*inputs)
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
                first = fn(fresh_list()) if fresh_list else fn(*args)
                outputs = [t.detach().clone() for t in _flatten(torch, first)]
            finally:
                if leave:
                    leave()
            sync()
        except Exception as e:
            raise OhprofError(MODEL_ERROR, f"path {name} failed: {_first_line(e)}") from None

        if fresh_list:
            def step():
                fn(fresh_list())
                sync()
        else:
            def step():
                fn(*args)
                sync()

        return PythonPath(name, step, compile_s, outputs, source, enter, leave)

    def _module_for(self, name):
        """The module a path starts from: the user's own (a fresh-code copy for each compiled path),
        or the exported program's module()."""
        if self.compile_source == SOURCE_MODULE:
            if name == "eager":
                return self.user_model, SOURCE_MODULE
            return fresh_code_copy(self.torch, self.user_model), SOURCE_MODULE
        return self.program.module(), SOURCE_PROGRAM

    def _compile(self, name, mode):
        torch = self.torch
        patches = {}
        if mode == "cpp-wrapper":
            patches["cpp_wrapper"] = True
        if self.kernel_profile:
            patches["cpp.enable_kernel_profile"] = True
        module, source = self._module_for(name)
        start = time.perf_counter()
        try:
            fn = torch.compile(module, dynamic=False, mode=None if mode in ("default", "cpp-wrapper") else mode)
            with torch._inductor.config.patch(patches):
                fn(*self.inputs)
                _sync(torch, self.device)()
        except Exception as e:
            raise OhprofError(MODEL_ERROR, f"torch.compile ({name}) failed: {_first_line(e)}") from None
        compile_s = time.perf_counter() - start
        forward = type(module).forward
        self.compiled[name] = CompiledState(fn, forward.__code__, forward.__globals__)
        return fn, compile_s, source

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
                raise OhprofError(MODEL_ERROR, f"{base}/no-guards needs torch.compiler.set_stance (torch >= 2.6)")

            def enter():
                stance("default", skip_guard_eval_unsafe=True)

            def leave():
                stance("default")

            return state.fn, self.inputs, None, enter, leave
        if state.aot_fn is None and not state.unavailable:
            state.capture(torch, self.inputs)
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
