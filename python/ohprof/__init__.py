"""ohprof: why a PyTorch model runs faster as an AOTInductor package than under torch.compile, measured.

The Python API: ohprof.compare(model, inputs), ohprof.run(package, inputs), ohprof.sweep(model, inputs,
values, dim=0), ohprof.analyze(trace) and ohprof.diff(base, new), each returning an ohprof.Report, and
ohprof.load(path), a saved report as one (python/ohprof/api.py, docs/usage.md).

Importing this package loads neither torch nor ohprof's measuring extension: `ohprof.dask_runner` and the
command line's Python side use it without torch. The measuring side (`ohprof._measure`, started by the
`ohprof` command for `run`, `compare` and `sweep`) imports torch and then the extension
(`ohprof._native`, built against that torch on first use; docs/design/python-extension.md).
"""
try:
    from importlib.metadata import PackageNotFoundError, version as _version

    __version__ = _version("ohprof")
except Exception:  # a source checkout on PYTHONPATH: no installed metadata
    __version__ = "0+source"


def __getattr__(name):
    # The API (ohprof.api) on first use: `import ohprof` alone stays free of torch.
    if name in ("compare", "run", "sweep", "analyze", "diff", "load", "Report", "OhprofError", "Interrupted"):
        from ohprof import api

        return getattr(api, name)
    raise AttributeError(f"module 'ohprof' has no attribute {name!r}")
