"""The Python side of ohprof: model export, AOTInductor packaging and torch.compile paths.

ohprof imports this module in its embedded interpreter (src/runtimes/python_session.cpp), so every path runs in
the process that also runs the AOTInductor package through LibTorch's C++ loader, on the same input
tensors. examples/export_model.py uses the same functions from the command line.

Errors a user can fix are raised as OhprofError(code, message): `code` is one of ohprof's exit codes
(include/ohprof/base/exit_codes.hpp; test/tools/python_boundary_check.py checks that they agree) and
`message` is one line.
"""
import hashlib
import importlib
import json
import logging
import os
import time
import warnings

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

PYTHON_PATHS = ("eager", "compile", "compile:reduce-overhead", "compile:max-autotune-no-cudagraphs",
                "compile:cpp-wrapper")


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


def compile_aoti(torch, program, package_path, configs):
    tmp = package_path[: -len(".pt2")] + ".tmp.pt2"
    torch._inductor.aoti_compile_and_package(program, package_path=tmp, inductor_configs=configs)
    os.replace(tmp, package_path)


def save_program(torch, program, path):
    tmp = path[: -len(".pt2")] + ".tmp.pt2"
    torch.export.save(program, tmp)
    os.replace(tmp, path)


def write_json(path, data):
    with open(path + ".tmp", "w") as f:
        json.dump(data, f, indent=2)
    os.replace(path + ".tmp", path)


def export_artifacts(torch, model_spec, specs, device, seed, out_dir, kernel_profile=False):
    """Exports `model_spec` to OUT/model.ep.pt2 and OUT/model.aoti.pt2; returns what it did."""
    check_device(torch, device)
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

    def __init__(self, name, step, compile_s, outputs):
        self.name = name
        self.step = step            # runs one iteration, device synchronised; returns nothing
        self.compile_s = compile_s  # torch.compile's first call (0 for eager)
        self.outputs = outputs      # flat list of output tensors of the first call


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

        if self.model_spec:
            if not self.specs:
                raise OhprofError(USAGE_ERROR, "--model needs --input SHAPE[:DTYPE] for each model input")
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
                                        self.kernel_profile)
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
        torch = self.torch
        sync = _sync(torch, self.device)
        inputs = self.inputs
        if name == "eager":
            module = self.program.module()
            compile_s = 0.0
            fn = module
        elif name.startswith("compile"):
            mode = name.partition(":")[2] or "default"
            if name not in PYTHON_PATHS:
                raise OhprofError(USAGE_ERROR, f"unknown path '{name}'; use one of aoti, " + ", ".join(PYTHON_PATHS))
            patches = {}
            if mode == "cpp-wrapper":
                patches["cpp_wrapper"] = True
            if self.kernel_profile:
                patches["cpp.enable_kernel_profile"] = True
            fn = torch.compile(self.program.module(), dynamic=False,
                               mode=None if mode in ("default", "cpp-wrapper") else mode)
            start = time.perf_counter()
            try:
                with torch._inductor.config.patch(patches):
                    fn(*inputs)
                    sync()
            except Exception as e:
                raise OhprofError(MODEL_ERROR, f"torch.compile ({name}) failed: {_first_line(e)}") from None
            compile_s = time.perf_counter() - start
        else:
            raise OhprofError(USAGE_ERROR, f"unknown path '{name}'; use aoti or one of " + ", ".join(PYTHON_PATHS))
        try:
            # Cloned: CUDA-graph paths reuse their output memory on the next call.
            outputs = [t.detach().clone() for t in _flatten(torch, fn(*inputs))]
            sync()
        except Exception as e:
            raise OhprofError(MODEL_ERROR, f"path {name} failed: {_first_line(e)}") from None

        def step():
            fn(*inputs)
            sync()

        return PythonPath(name, step, compile_s, outputs)

    def compare(self, reference, outputs):
        return compare_outputs(self.torch, reference, outputs)
