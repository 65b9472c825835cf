#!/usr/bin/env python3
"""Export a PyTorch model to a torch.export program and an AOTInductor package for ohprof.

    python examples/export_model.py --model torchvision.models:resnet18 \
        --input 1,3,224,224 --device cpu --out /tmp/resnet18

writes OUT/model.ep.pt2 (torch.export.save), OUT/model.aoti.pt2 (the AOTInductor package) and
OUT/export.json (what was exported, with what, and how long each step took).

The model is `module:factory`: the factory is called with no arguments and must return an
nn.Module (torchvision's factories give random weights and download nothing). Inputs are seeded
random tensors of the given SHAPE[:DTYPE]. The package records its input specs in its metadata
under "ohprof.inputs", so `ohprof run --aoti` needs no --input for it and can check the ones given.
"""
import argparse
import importlib
import json
import os
import sys
import time

DTYPES = {
    "float32": "float32", "float": "float32", "f32": "float32",
    "float16": "float16", "half": "float16", "f16": "float16",
    "bfloat16": "bfloat16", "bf16": "bfloat16",
    "float64": "float64", "double": "float64", "f64": "float64",
    "int64": "int64", "long": "int64", "int32": "int32", "int": "int32",
    "int8": "int8", "uint8": "uint8", "bool": "bool",
}


class UsageError(Exception):
    pass


def parse_input(text):
    shape_part, _, dtype_part = text.partition(":")
    dtype = DTYPES.get(dtype_part or "float32")
    if dtype is None:
        raise UsageError(f"unknown dtype '{dtype_part}' in --input '{text}'")
    shape_part = shape_part.strip("[]")
    try:
        shape = [int(d) for d in shape_part.replace("x", ",").split(",")]
    except ValueError:
        raise UsageError(f"bad --input '{text}': expected SHAPE[:DTYPE] such as 1,3,224,224") from None
    if not shape or any(d <= 0 for d in shape):
        raise UsageError(f"bad --input '{text}': dimensions must be positive")
    return shape, dtype


def make_inputs(torch, specs, device, seed):
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
        raise UsageError(f"--model '{spec}' must be module:factory, e.g. torchvision.models:resnet18")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise UsageError(f"cannot import module '{module_name}': {e}") from None
    factory = getattr(module, attr, None)
    if factory is None:
        raise UsageError(f"module '{module_name}' has no attribute '{attr}'")
    return factory


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="torchvision.models:resnet18", help="module:factory")
    parser.add_argument("--input", action="append", default=None, metavar="SHAPE[:DTYPE]",
                        help="one per model input, in order (default 1,3,224,224)")
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kernel-profile", action="store_true",
                        help="compile CPU kernels with cpp.enable_kernel_profile (they record themselves)")
    args = parser.parse_args(argv)

    try:
        specs = [parse_input(t) for t in (args.input or ["1,3,224,224"])]
        factory = load_factory(args.model)
    except UsageError as e:
        print(f"export_model.py: error: {e}", file=sys.stderr)
        return 2

    import torch

    if args.device == "cuda" and not torch.cuda.is_available():
        print("export_model.py: error: --device cuda but no CUDA device is available", file=sys.stderr)
        return 5

    timings = {}
    try:
        model = factory()
    except Exception as e:  # the user's factory: report, don't dump a trace
        print(f"export_model.py: error: factory {args.model} raised {type(e).__name__}: {e}", file=sys.stderr)
        return 9
    if not isinstance(model, torch.nn.Module):
        print(f"export_model.py: error: factory {args.model} returned {type(model).__name__}, not an nn.Module",
              file=sys.stderr)
        return 9
    model = model.eval().to(args.device)
    inputs = make_inputs(torch, specs, args.device, args.seed)

    os.makedirs(args.out, exist_ok=True)
    start = time.perf_counter()
    try:
        with torch.no_grad():
            program = torch.export.export(model, inputs)
    except Exception as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        print(f"export_model.py: error: torch.export failed for these inputs: {first}", file=sys.stderr)
        return 6
    timings["export_s"] = time.perf_counter() - start
    ep_path = os.path.join(args.out, "model.ep.pt2")
    tmp_ep = os.path.join(args.out, "model.ep.tmp.pt2")
    torch.export.save(program, tmp_ep)
    os.replace(tmp_ep, ep_path)

    recorded = ";".join("x".join(str(d) for d in shape) + ":" + dtype for shape, dtype in specs)
    configs = {"aot_inductor.metadata": {"ohprof.inputs": recorded, "ohprof.model": args.model}}
    if args.kernel_profile:
        configs["cpp.enable_kernel_profile"] = True
    start = time.perf_counter()
    package_path = os.path.join(args.out, "model.aoti.pt2")
    tmp_package = os.path.join(args.out, "model.aoti.tmp.pt2")
    torch._inductor.aoti_compile_and_package(program, package_path=tmp_package, inductor_configs=configs)
    os.replace(tmp_package, package_path)
    timings["aoti_compile_s"] = time.perf_counter() - start

    info = {
        "model": args.model,
        "inputs": [{"shape": s, "dtype": d} for s, d in specs],
        "device": args.device,
        "seed": args.seed,
        "kernel_profile": args.kernel_profile,
        "torch_version": torch.__version__,
        "exported_program": ep_path,
        "aoti_package": package_path,
        **timings,
    }
    with open(os.path.join(args.out, "export.json.tmp"), "w") as f:
        json.dump(info, f, indent=2)
    os.replace(os.path.join(args.out, "export.json.tmp"), os.path.join(args.out, "export.json"))
    print(f"exported {args.model} {[s for s, _ in specs]} for {args.device}: {package_path} "
          f"(export {timings['export_s']:.1f} s, AOTI compile {timings['aoti_compile_s']:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
