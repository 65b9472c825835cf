#!/usr/bin/env python3
"""Export a PyTorch model to a torch.export program and an AOTInductor package for ohprof.

    tools/python examples/export_model.py --model torchvision.models:resnet18 \\
        --input 1,3,224,224 --device cpu --out /tmp/resnet18

writes OUT/model.ep.pt2 (torch.export.save), OUT/model.aoti.pt2 (the AOTInductor package) and
OUT/export.json (what was exported, with what, and how long each step took).

The model is `module:factory`: the factory is called with no arguments and must return an
nn.Module (torchvision's factories give random weights and download nothing). Inputs are seeded
random tensors of the given SHAPE[:DTYPE]. The package records its input specs in its metadata
under "ohprof.inputs", so `ohprof run --aoti` needs no --input for it and can check the ones given.
Exit codes are ohprof's (docs/exit-codes.md).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from ohprof import _native  # noqa: E402
from ohprof import _paths as ohprof_paths  # noqa: E402  (the same export code ohprof compare uses)

ENVIRONMENT_ERROR = 16  # docs/exit-codes.md


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

    refusal = _native.aoti_build_refusal()
    if refusal:  # the package would not load (docs/design/python-extension.md, "One C++ runtime")
        print(f"export_model.py: error: {refusal}", file=sys.stderr)
        return ENVIRONMENT_ERROR
    try:
        specs = [ohprof_paths.parse_input(t) for t in (args.input or ["1,3,224,224"])]
        import torch

        info = ohprof_paths.export_artifacts(torch, args.model, specs, args.device, args.seed, args.out,
                                             args.kernel_profile)
    except ohprof_paths.OhprofError as e:
        print(f"export_model.py: error: {e.message}", file=sys.stderr)
        return e.code
    print(f"exported {args.model} {[s for s, _ in specs]} for {args.device}: {info['aoti_package']} "
          f"(export {info['export_s']:.1f} s, AOTI compile {info['aoti_compile_s']:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
