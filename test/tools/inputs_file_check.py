"""--inputs FILE's Python side (python/ohprof/_paths.py load_inputs_file and Session), in the pinned torch.

Known answers, computed here independently of ohprof:
  1. the tensors load_inputs_file returns are the saved ones, bit for bit, in order, and their specs
     are their shapes and dtypes;
  2. a Session opened with inputs_file runs every path on exactly those tensors: its `inputs` are equal to
     the saved ones, and the eager and compile paths' first outputs equal model(*saved) computed here;
  3. a single saved tensor is one input; (tuple, {}) is the tuple; keyword inputs reach every path by
     name, and the package's C++ runner computes the same on the flat tensors ohprof hands it;
  4. each bad file is the documented error: missing (3), not loadable, a non-tensor, keyword inputs, an
     unsupported dtype, nothing (6);
  5. the artifact cache keys on the inputs' values: other values, another key; the values' digest is
     the same for the same values saved under another name or from a view of a larger tensor, and
     differs for one changed element, another dtype, another keyword name or another plain value;
  7. sweep --inputs: resize_inputs makes index i of a resized dimension the saved index i mod n (values
     written out here by hand), keeps the first slices when smaller, leaves plain keyword values alone;
     inputs_file_specs lists the positional tensors, then the keyword ones; a Session given
     inputs_file_shapes measures the resized tensors (eager's output is the model on the hand-made batch)
     and builds its package at the new shape.
Usage: inputs_file_check.py SOURCE_DIR WORK_DIR (the venv's python, with torch).
"""
import os
import shutil
import sys


def main() -> int:
    source_dir, work = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.join(source_dir, "python"))
    sys.path.insert(0, os.path.join(source_dir, "examples", "models"))
    import torch
    import tiny_models
    from ohprof import _paths as op

    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    problems = []
    generator = torch.Generator().manual_seed(7)
    x = torch.randn(3, 16, generator=generator)
    path = os.path.join(work, "inputs.pt")
    torch.save((x,), path)

    # 1.
    tensors, specs, _ = op.load_inputs_file(torch, path, "cpu")
    if len(tensors) != 1 or not torch.equal(tensors[0], x):
        problems.append("load_inputs_file did not return the saved tensor")
    if specs != [([3, 16], "float32")]:
        problems.append(f"specs {specs}, want [([3, 16], 'float32')]")

    # 2.
    cache = os.path.join(work, "cache")
    session = op.Session({"model": "tiny_models:tiny_mlp", "inputs": [], "inputs_file": path, "device": "cpu",
                          "cache_dir": cache})
    if len(session.inputs) != 1 or not torch.equal(session.inputs[0], x):
        problems.append("the session's inputs are not the saved tensor")
    if session.specs != [([3, 16], "float32")]:
        problems.append(f"the session's specs are {session.specs}")
    reference = tiny_models.tiny_mlp()
    reference.load_state_dict(session.user_model.state_dict())
    with torch.inference_mode():
        want = reference.eval()(x)
        for name in ("eager", "compile"):
            got = session.make_path(name).outputs[0]
            if not torch.allclose(got, want, rtol=1e-5, atol=1e-6):
                problems.append(f"path {name}'s output is not model(saved input): max diff "
                                f"{(got - want).abs().max().item()}")

    # 3.
    single = os.path.join(work, "single.pt")
    torch.save(x, single)
    pair = os.path.join(work, "pair.pt")
    torch.save(((x, x), {}), pair)
    if len(op.load_inputs_file(torch, single, "cpu")[0]) != 1:
        problems.append("a single saved tensor is not one input")
    if len(op.load_inputs_file(torch, pair, "cpu")[0]) != 2:
        problems.append("(tuple, {}) is not the tuple")

    # 4.
    bad = {}
    bad["missing"] = (os.path.join(work, "nope.pt"), op.FILE_NOT_FOUND, "does not exist")
    with open(os.path.join(work, "text.pt"), "w") as f:
        f.write("not a torch file\n")
    bad["text"] = (os.path.join(work, "text.pt"), op.INPUT_MISMATCH, "torch.load can read")
    torch.save((x, 3), os.path.join(work, "int.pt"))
    bad["non-tensor"] = (os.path.join(work, "int.pt"), op.INPUT_MISMATCH, "input 1 is a int, not a tensor")
    torch.save({"x": x}, os.path.join(work, "kw.pt"))
    bad["keywords for run"] = (os.path.join(work, "kw.pt"), op.INPUT_MISMATCH, "keyword inputs (x), which run")
    torch.save({"x": x, "mode": [1]}, os.path.join(work, "kw-list.pt"))
    bad["a list keyword"] = (os.path.join(work, "kw-list.pt"), op.INPUT_MISMATCH, "keyword input 'mode' is a list")
    torch.save((x.to(torch.complex64),), os.path.join(work, "complex.pt"))
    bad["dtype"] = (os.path.join(work, "complex.pt"), op.INPUT_MISMATCH, "dtype complex64")
    torch.save((), os.path.join(work, "empty.pt"))
    bad["empty"] = (os.path.join(work, "empty.pt"), op.INPUT_MISMATCH, "holds no inputs")
    for case, (file, code, text) in bad.items():
        try:
            op.load_inputs_file(torch, file, "cpu")
            problems.append(f"{case}: accepted")
        except op.OhprofError as e:
            if e.code != code or text not in e.message or "\n" in e.message:
                problems.append(f"{case}: code {e.code} (want {code}), message {e.message!r} (want {text!r})")

    # 4b. keyword inputs in any order: forward(x, scale) given {"scale": s, "x": x}. The C++ runner's flat
    # tensors follow the exported program's signature (x, then s), and every path computes model(x=x, scale=s).
    import tiny_models as tm

    s = torch.full((1,), 3.0)
    named = os.path.join(work, "named.pt")
    torch.save(((), {"scale": s, "x": x}), named)
    args, kwargs, _ = op.read_inputs_file(torch, named, "cpu")
    if args != () or list(kwargs) != ["scale", "x"] or not torch.equal(kwargs["x"], x):
        problems.append(f"read_inputs_file: args {args}, kwargs {list(kwargs)}")
    named_session = op.Session({"model": "tiny_models:two_inputs", "inputs": [], "inputs_file": named,
                                "device": "cpu", "cache_dir": cache})
    flat = named_session.flat_inputs
    shapes = sorted(tuple(t.shape) for t in flat)
    if shapes != [(1,), (3, 16)]:
        problems.append(f"flat inputs are not x and scale: shapes {shapes}")
    if named_session.specs != [([int(d) for d in t.shape], "float32") for t in flat]:
        problems.append(f"keyword specs {named_session.specs} are not the flat inputs'")
    # The package's own C++ runner (AOTIModelPackageLoader.run, what ohprof's aoti path calls) on the flat
    # list in that order computes model(x=x, scale=s): the order is the package's.
    with torch.inference_mode():
        loader = torch._inductor.aoti_load_package(named_session.aoti_package).loader
        got = loader.run(list(flat))[0]
        if not torch.allclose(got, tm.two_inputs()(x=x, scale=s), rtol=1e-5, atol=1e-6):
            problems.append("the package's runner on the flat inputs does not compute model(x=x, scale=s)")
    with torch.inference_mode():
        want = tm.two_inputs()(x=x, scale=s)
        for name in ("eager", "compile", "aoti:python"):
            got = named_session.make_path(name).outputs[0]
            if not torch.allclose(got, want, rtol=1e-5, atol=1e-6):
                problems.append(f"keyword inputs: path {name}'s output is not model(x=x, scale=s)")

    # 5.
    other = os.path.join(work, "other.pt")
    torch.save((x + 1,),  other)
    keys = [op.artifact_key(torch, "tiny_models:tiny_mlp", [([3, 16], "float32")], "cpu", False, 0,
                            op.values_digest(torch, op.load_inputs_file(torch, p, "cpu")[0], {}))[0]
            for p in (path, other)]
    if keys[0] == keys[1]:
        problems.append("two inputs files of other values share an artifact key")
    big = torch.randn(40, 16, generator=generator)
    renamed, viewed = os.path.join(work, "renamed.pt"), os.path.join(work, "viewed.pt")
    torch.save((big[:3].clone(),), renamed)
    torch.save((big[:3],), viewed)  # torch.save writes the whole 40-row storage of the view
    digests = [op.load_inputs_file(torch, p, "cpu")[2] for p in (renamed, viewed)]
    if digests[0] != digests[1] or len(digests[0]) != 16:
        problems.append(f"the same values saved under two names, one from a view, have digests {digests}")
    base = op.values_digest(torch, (x,), {"scale": s, "flag": True})
    changed = x.clone()
    changed[2, 15] += 1
    others = [op.values_digest(torch, (changed,), {"scale": s, "flag": True}),
              op.values_digest(torch, (x.double(),), {"scale": s, "flag": True}),
              op.values_digest(torch, (x,), {"scale2": s, "flag": True}),
              op.values_digest(torch, (x,), {"scale": s, "flag": False})]
    if base in others or len(set(others)) != 4:
        problems.append(f"values digests that should differ: {base} against {others}")

    # 6. --check-outputs compares nested outputs leaf by leaf: the leaves of a dataclass, of an output
    # object's attributes (a cache) and of a dict (Hugging Face's ModelOutput is one), in a known order.
    import dataclasses

    @dataclasses.dataclass
    class Output:
        logits: object
        extra: object

    class Holder:
        def __init__(self, keys):
            self.keys = keys

    a, b, c, d = (torch.full((2,), float(v)) for v in range(4))
    leaves = op._flatten(torch, Output(logits=a, extra=(b, {"z": d, "y": c, "n": None}, Holder(a))))
    if [t[0].item() for t in leaves] != [0.0, 1.0, 2.0, 3.0, 0.0]:
        problems.append(f"nested leaves {[t[0].item() for t in leaves]}, want [0, 1, 2, 3, 0]")
    shifted = op._flatten(torch, Output(logits=a, extra=(b, {"z": d, "y": c + 0.5}, Holder(a))))
    check = op.compare_outputs(torch, leaves, shifted)
    if check["passed"] or abs(check["max_abs_diff"] - 0.5) > 1e-6:
        problems.append(f"a nested leaf off by 0.5: {check}")

    # 7.
    col = torch.arange(3, dtype=torch.float32).reshape(3, 1)
    grid = torch.arange(6, dtype=torch.int64).reshape(2, 3)
    # a plain keyword value between two keyword tensors: the tensors keep their names
    args, kwargs = op.resize_inputs(torch, (col,), {"grid": grid, "use_cache": False, "last": col.flatten()},
                                    [[7, 1], [2, 5], [4]], "f")
    if args[0].flatten().tolist() != [0.0, 1.0, 2.0, 0.0, 1.0, 2.0, 0.0]:
        problems.append(f"resized to 7 rows: {args[0].flatten().tolist()}, want [0, 1, 2, 0, 1, 2, 0]")
    if (kwargs["grid"].tolist() != [[0, 1, 2, 0, 1], [3, 4, 5, 3, 4]] or kwargs["use_cache"] is not False
            or kwargs["last"].tolist() != [0.0, 1.0, 2.0, 0.0] or list(kwargs) != ["grid", "use_cache", "last"]):
        problems.append(f"resized keyword inputs: {kwargs}")
    # the saved layout and requires_grad are kept: a channels-last image stays channels last, as a leaf
    image = torch.arange(2 * 3 * 2 * 2, dtype=torch.float32).reshape(2, 3, 2, 2).to(memory_format=torch.channels_last)
    image.requires_grad_(True)
    (grown_image,), _ = op.resize_inputs(torch, (image,), {}, [[5, 3, 2, 2]], "f")
    if (not grown_image.is_contiguous(memory_format=torch.channels_last) or not grown_image.requires_grad
            or grown_image.grad_fn is not None or not torch.equal(grown_image.detach()[4], image.detach()[0])):
        problems.append("a channels-last image resized to batch 5 is not channels last, a leaf that requires grad, "
                        "with row 4 = saved row 0")
    args, _ = op.resize_inputs(torch, (col,), {}, [[2, 1]], "f")
    if args[0].flatten().tolist() != [0.0, 1.0]:
        problems.append(f"resized to 2 rows: {args[0].flatten().tolist()}, want [0, 1]")
    for shapes, text in (([[3, 1], [2, 3]], "holds 1 tensors, the sweep expected 2"),
                         ([[3]], "has 2 dimensions, the sweep expected 1")):
        try:
            op.resize_inputs(torch, (col,), {}, shapes, "f")
            problems.append(f"resize to {shapes}: accepted")
        except op.OhprofError as e:
            if e.code != op.INPUT_MISMATCH or text not in e.message:
                problems.append(f"resize to {shapes}: code {e.code}, message {e.message!r}")
    if op.inputs_file_specs(torch, named) != ([([1], "float32"), ([3, 16], "float32")],
                                              op.values_digest(torch, (), {"scale": s, "x": x})):
        problems.append(f"inputs_file_specs of (), {{scale, x}}: {op.inputs_file_specs(torch, named)}")
    grown = op.Session({"model": "tiny_models:tiny_mlp", "inputs": [], "inputs_file": path, "device": "cpu",
                        "cache_dir": cache, "inputs_file_shapes": [[5, 16]]})
    by_hand = torch.cat([x, x[:2]])  # rows 0, 1, 2, 0, 1
    if grown.specs != [([5, 16], "float32")] or not torch.equal(grown.inputs[0], by_hand):
        problems.append(f"a Session with inputs_file_shapes [[5, 16]]: specs {grown.specs}")
    with torch.inference_mode():
        want = reference.eval()(by_hand)
        got = grown.make_path("eager").outputs[0]
        if not torch.allclose(got, want, rtol=1e-5, atol=1e-6):
            problems.append("the resized session's eager output is not the model on rows 0, 1, 2, 0, 1")
    if grown.aoti_package == session.aoti_package:
        problems.append("the resized session reused the package built at the saved shape")

    for problem in problems:
        print("FAIL:", problem)
    if not problems:
        print("OK: --inputs tensors reach every path as saved; bad files are the documented errors")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
