"""Live objects handed to a session by name: the Python API registers the user's model here and passes
`--model ohprof._registry:<name>`, which the session resolves like any module:factory (calling the
factory returns the registered object itself)."""
import itertools

_counter = itertools.count(1)


def register(obj, fingerprint=None):
    """A module:factory spec whose factory returns `obj`; unregister it when the command is done. The
    spec is the artifact cache's key for the model: with a `fingerprint` (what the object computes, see
    fingerprint()) the same model gets the same spec in every process, so its artifacts can be reused."""
    # The spec is what the report calls the model, and what `diff` compares: the class's module and qualified
    # name, so that two calls on the same kind of model are comparable (a number only where another call has
    # that name registered at this moment, from another thread).
    cls = type(obj)
    name = f"{cls.__module__}.{cls.__qualname__}" + (f"_{fingerprint}" if fingerprint else "")
    if name in globals():
        name = f"{name}_{next(_counter)}"
    globals()[name] = lambda: obj
    return f"{__name__}:{name}"


def unregister(spec):
    globals().pop(spec.partition(":")[2], None)


def fingerprint(torch, module):
    """A hash of what `module` computes: its class, forward's bytecode, and every parameter and buffer
    (names, shapes, dtypes, bytes). Reads all the weights once."""
    import hashlib

    digest = hashlib.sha256()
    cls = type(module)
    digest.update(f"{cls.__module__}.{cls.__qualname__}".encode())
    for sub in module.modules():
        forward = getattr(type(sub), "forward", None)
        code = getattr(forward, "__code__", None)
        if code is not None:
            digest.update(code.co_code)
    for name, tensor in module.state_dict().items():
        digest.update(f"{name}:{tuple(tensor.shape)}:{tensor.dtype}".encode())
        flat = tensor.detach().cpu().contiguous().reshape(-1)
        digest.update(flat.view(torch.uint8).numpy().tobytes())
    return digest.hexdigest()[:16]
