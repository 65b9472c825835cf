"""ohprof's Python API: the same session code as the command line, on the user's own model and tensors.

    import ohprof
    report = ohprof.compare(model, (x,), paths=("aoti", "compile", "eager"))
    report.to_json()["paths"]      # the documented JSON report (docs/report-schema.md)
    report                         # in a notebook: the HTML report
    print(report)                  # the table the command prints (Report.table())

compare, run and sweep run the command in this process, through the measuring extension (built against
this torch on first use, python/ohprof/_native.py); analyze, diff, and a report's table and page, run the
torch-free `ohprof` front that pip installed beside this package, in a child process, so that they need
neither torch nor the extension (the extension's route where there is no front: a source checkout
without OHPROF_FRONT). Each returns a Report. It prints nothing unless
`verbose=True` (then the table, the progress and the warnings, as the command prints them); the
warnings are in the report either way. A failed command raises OhprofError with the command's exit
code (docs/exit-codes.md) and its one-line message. Ctrl-C stops a measurement after the current
iteration (and a front's child at once) and raises Interrupted, a KeyboardInterrupt that carries what
was measured; Python's own handlers are back afterwards.

How the user's objects reach the session (docs/usage.md, "Python API"):
- the model object is handed to the session through a registered factory (ohprof._registry), so every
  path (eager, torch.compile, the export behind aoti) starts from that very module; it is put in eval
  mode and moved to the device, as on the command line;
- the inputs are saved to a temporary file and passed as --inputs: every path gets tensors equal to
  them (on the device), not the same objects;
- artifacts (the exported program and the AOTI package) go to a temporary folder per call, since a
  live object has no name to cache them under; with `cache_dir` they are kept there, keyed by a hash of
  the model's class, forward code and weights (ohprof._registry.fingerprint), so a later call on the
  same model reuses them.
"""
import contextlib
import errno
import functools
import html
import importlib.util
import json
import math
import operator
import os
import posixpath
import re
import signal
import subprocess
import sys
import tempfile
import urllib.parse

from ohprof import _native, _registry, _report_file

DEFAULT_PATHS = ("aoti", "aoti:python", "compile", "eager")
# The text of the Interrupted that Ctrl-C during a call raises.
_INTERRUPTED = "ohprof: interrupted"


class OhprofError(Exception):
    """A command that failed: `code` is its exit code (docs/exit-codes.md), `message` its one line, and
    `report` the Report it wrote all the same (a strict output check's mismatch, 10; a job with traces that
    could not be read, 15), else None."""

    def __init__(self, code, message, report=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.report = report

    def __reduce__(self):  # args holds the message alone: pickle and copy rebuild it from all three
        return type(self), (self.code, self.message, self.report)


def _interruptible(function):
    """`function` with a Ctrl-C outside the command itself (importing torch, building the extension, saving the
    inputs, drawing a page) raised as Interrupted too, without a report."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except Interrupted:
            raise
        except KeyboardInterrupt:
            raise Interrupted() from None
    return wrapper


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a call: a KeyboardInterrupt whose `report` is what the command measured until
    then (`interrupted` true in its JSON; a sweep's `stop` "interrupted", with its finished points), or None
    where it wrote none."""

    def __init__(self, report=None):
        super().__init__(_INTERRUPTED)
        self.report = report

    def __reduce__(self):
        return type(self), (self.report,)


class Report:
    """One command's report: `to_json()` is the JSON report the command writes with --export-json
    (docs/report-schema.md); in a notebook it shows as the command's HTML report."""

    def __init__(self, data, page="", table=None):
        if not isinstance(data, dict):
            raise TypeError(f"a report is a dict (the JSON report), not {type(data).__name__}")
        self._data = data
        self._page = page
        self._table = table  # the table ohprof.diff printed (its temporary folder taken out of the names)
        self._source = None  # the file ohprof.load read it from
        self._points = None  # a sweep ohprof.sweep measured: its points' reports, by the name its JSON gives them

    def save(self, path):
        """Writes to_json() to the file `path` as --export-json writes it (plain JSON; the file is replaced whole,
        never left half written). A sweep's points' compare reports, which `ohprof diff` reads for their samples,
        go beside it as the sweep writes them: in STEM.points/ (STEM: `path`'s name less its last suffix), its
        points' `report` names rewritten to match (null for a point whose report it does not hold). Raises
        OhprofError 2 for a sweep whose points' reports this Report does not hold (one made from a dict) or
        one beside a loaded sweep that is not JSON, 3 for one that cannot be read, 8 where a file cannot be
        written (docs/exit-codes.md)."""
        name = os.fsdecode(path)
        data = self._data
        if not os.path.isdir(os.path.dirname(name) or "."):  # named as the report, not as a point's file in it
            raise OhprofError(8, f"cannot write '{name}' ({os.strerror(errno.ENOENT)}); fix the path")
        if self.kind == "sweep":
            points = _sweep_points(self)
            if points is None:
                raise OhprofError(2, "this sweep report does not hold its points' reports, which diff needs: save "
                                     "a report ohprof.sweep returned or ohprof.load read")
            stem = os.path.splitext(os.path.basename(name))[0]
            # a point's report this Report does not hold (not written, or gone from beside a loaded file): none
            renamed = {old: f"{stem}.points/{posixpath.basename(old)}" if old in points else None
                       for old in _point_names(data)}
            data = dict(data, points=[_renamed_point(p, renamed) for p in data.get("points") or []])
            if points:
                with contextlib.suppress(OSError):  # one that cannot be made fails below, in the first write's words
                    os.mkdir(os.path.join(os.path.dirname(name), f"{stem}.points"))
            for old, new in renamed.items():  # the points first: the report never names a file not yet there
                if new:
                    _write_json(os.path.join(os.path.dirname(name), new), points[old])
        _write_json(name, data)

    def to_json(self):
        return self._data

    @property
    def kind(self):
        return self._data.get("kind", "")

    @property
    def paths(self):
        """The measured paths by name (compare and run reports)."""
        return {p["name"]: p for p in self._data.get("paths", []) if isinstance(p, dict) and "name" in p}

    @property
    def warnings(self):
        return list(self._data.get("warnings") or [])

    @_interruptible
    def table(self):
        """The table the command prints (what `verbose=True` shows), drawn from to_json() by the command
        line's printers, as `ohprof show` draws it; also str(report). Raises OhprofError if the report
        cannot be read back. A diff's is the table `ohprof diff` printed (one ohprof.load read: show's)."""
        if self._table is not None:
            return self._table
        return _show(self._data, page=False)

    def __str__(self):
        try:
            return self.table()
        except OhprofError:  # str() must not raise: the short form instead
            return repr(self)

    @_interruptible
    def html(self):
        """The HTML report as a page; "" for a sweep where matplotlib is not installed (its page has plots)."""
        if not self._page and self.kind in ("run", "compare", "analyze", "ranks", "diff"):
            self._page = _show(self._data, page=True)
        elif not self._page and self.kind == "sweep":
            self._page = _sweep_page(self._data)
        return self._page

    def _repr_html_(self):
        try:
            if not self.html():
                return None
        except OhprofError:  # the notebook then shows repr()
            return None
        # An iframe keeps the page's styles out of the notebook's.
        return ('<iframe style="width:100%;height:640px;border:0" srcdoc="'
                + html.escape(self._page, quote=True) + '"></iframe>')

    def __repr__(self):
        count = len(self.warnings)
        warnings = f"{count} warning{'' if count == 1 else 's'}"
        if self.kind == "sweep":  # its points, not paths: how far it got
            config = self._data.get("config") or {}
            values = (config.get("axis") or {}).get("values") or []
            points = self._data.get("points") or []
            measured = sum(1 for p in points if isinstance(p, dict) and p.get("status") == "measured")
            axis = (config.get("axis") or {}).get("name", "axis")
            span = f"{axis} {values[0]} … {values[-1]}, " if values else ""
            return (f"<ohprof.Report sweep: {span}{measured} of {len(points)} points measured, paths "
                    f"{', '.join(config.get('paths') or []) or 'none'}; {warnings}>")
        if self.kind == "diff":  # each path's change and verdict (a sweep's: how many of each), and the outcome
            paths = [p for p in self._data.get("paths") or [] if isinstance(p, dict)]
            if any(p.get("point") is not None for p in paths):
                counts = {}
                for p in paths:
                    verdict = str(p.get("verdict", "?")).replace("_", " ")
                    counts[verdict] = counts.get(verdict, 0) + 1
                points = len({str(p.get("point")) for p in paths})
                changes = [f"{', '.join(f'{n} {v}' for v, n in counts.items())} over {points} points"]
            else:
                changes = [_diff_change(p) for p in paths]
            worse = [f"{d.get('path', '?')} {d.get('measure', '?')} {d.get('verdict', '?')}"
                     for d in self._data.get("deployment") or []
                     if isinstance(d, dict) and d.get("verdict") in ("slower", "larger")]
            if worse:
                changes.append("worse: " + ", ".join(worse))
            return (f"<ohprof.Report diff: {str(self._data.get('outcome', '?')).replace('_', ' ')}"
                    f"{': ' + ', '.join(changes) if changes else ''}; {warnings}>")
        if self.kind == "ranks":  # a job: its traces and steps, not paths
            job = self._data.get("job")
            job = job if isinstance(job, dict) else {}
            steps = self._data.get("steps")
            steps = len(steps) if isinstance(steps, list) else 0
            world = f", world size {job['world_size']}" if job.get("world_size") else ""
            return (f"<ohprof.Report ranks: {job.get('ranks', 0)} of {job.get('traces', 0)} traces analysed "
                    f"({job.get('failed', 0)} failed){world}, {steps} step{'' if steps == 1 else 's'}; {warnings}>")
        medians = []
        for name, path in self.paths.items():
            median = (path.get("wall_ns") or {}).get("median")
            medians.append(f"{name} {_duration(median)}" if median is not None else f"{name} unknown")
        unit = "iteration" if self.kind == "analyze" else "call"  # a trace's iterations are its profiler steps
        measured = ", ".join(medians) + f" (median wall time per {unit})" if medians else "no paths"
        return f"<ohprof.Report {self.kind}: {measured}; {warnings}>"


def _diff_change(path):
    """One path of a diff as repr() gives it: its change (ratio - 1) and verdict, the reference, or why unknown."""
    name = path.get("name", "?")
    if path.get("reason") == "reference_path":  # --relative-to's own path: the others' yardstick
        return f"{name} the reference"
    ratio = path.get("ratio")
    if not isinstance(ratio, (int, float)) or path.get("verdict") == "unknown":
        return f"{name} unknown ({str(path.get('reason', '?')).replace('_', ' ')})"
    return f"{name} {ratio - 1:+.1%} {str(path.get('verdict', '?')).replace('_', ' ')}"


def _duration(nanoseconds):
    """A duration as the table prints it (C++ format_duration, src/base/format.cpp): whole ns below 1 us,
    else us, ms or s with 3 decimals below 10, 2 below 100 and 1 from there."""
    magnitude = abs(nanoseconds)
    if magnitude < 1e3:
        return f"{nanoseconds:.0f} ns"
    divisor, unit = (1e3, "us") if magnitude < 1e6 else (1e6, "ms") if magnitude < 1e9 else (1e9, "s")
    value = nanoseconds / divisor
    decimals = 1 if abs(value) >= 100 else 2 if abs(value) >= 10 else 3
    return f"{value:.{decimals}f} {unit}"


@contextlib.contextmanager
def _silenced(verbose, stdout_to=None):
    """stdout and stderr (the file descriptors: C++ and Python both write there) to nowhere unless verbose;
    with `stdout_to` (a file name), stdout to that file."""
    if verbose and stdout_to is None:
        yield
        return
    sys.stdout.flush()
    sys.stderr.flush()
    with contextlib.ExitStack() as opened:  # every descriptor opened here is closed, whatever fails
        def keep(fd):
            opened.callback(os.close, fd)
            return fd
        saved = keep(os.dup(1)), keep(os.dup(2))
        sink = keep(os.open(os.devnull, os.O_WRONLY))
        out = keep(os.open(stdout_to, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)) if stdout_to else sink
        try:
            os.dup2(out, 1)
            if not verbose:
                os.dup2(sink, 2)
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)


def _torch():
    try:
        return _native.import_torch()
    except _native.EnvironmentProblem as e:
        raise OhprofError(16, str(e)) from None


# An error's advice in the command line's words, as this API's caller gives the same thing (docs/usage.md,
# "Python API"): whole phrases first, then each flag as its keyword argument, longest first so that
# --max-runs is not read as --runs.
_API_PHRASES = (
    ("pass one --input SHAPE[:DTYPE] per forward argument, in forward's order, or save them as a tuple with "
     "torch.save and give --inputs FILE",
     "pass `inputs` as a tuple of tensors in forward's order, or as (tuple, dict of keyword inputs)"),
    ("a sweep needs at least two positive values (--batch or --dim)", "`values` must hold at least two different "
     "positive sizes"),
)
_API_FLAGS = {"--paths": "paths", "--device": "device",
              "--warmup": "warmup", "--min-runs": "min_runs", "--max-runs": "max_runs", "--runs": "runs",
              "--min-time": "min_time_s", "--max-rse": "max_rse", "--time-limit": "time_limit_s",
              "--check-outputs": "check_outputs", "--no-explain": "explain=False",
              "--kernel-profile": "kernel_profile=True", "--cache-dir": "cache_dir", "--export-trace": "export_trace",
              "--threads": "threads", "--what-if": "what_if=True", "--cold-start": "cold_start",
              "--batch": "values", "--dim": "values", "--threshold": "threshold", "--alpha": "alpha",
              "--resamples": "resamples", "--seed": "seed", "--relative-to": "relative_to", "--force": "force=True"}


def _in_api_words(message):
    """`message` with the command line's flags named as this API's keyword arguments."""
    for cli, api in _API_PHRASES:
        message = message.replace(cli, api)
    for flag in sorted(_API_FLAGS, key=len, reverse=True):
        name = _API_FLAGS[flag]
        message = re.sub(re.escape(flag) + r"(?![\w-])", name if "=" in name else f"`{name}`", message)
    return message


def _api_message(error, argv):
    """A command's error in this API's words: the file the call saved `inputs` to is `inputs`."""
    if "--inputs" in argv:
        path = argv[argv.index("--inputs") + 1]
        for text in (f"--inputs file '{path}'", f"--inputs '{path}'", path):
            error = error.replace(text, "`inputs`")
    return _in_api_words(error)


# The API's commands that the torch-free front runs itself (it hands run, compare and sweep to the Python side,
# src/cli/delegate.cpp).
_TORCH_FREE = ("analyze", "show", "diff")
# What to do about a front that cannot be started.
_REINSTALL = "reinstall ohprof the way it was installed, or unset OHPROF_FRONT"
# The line the front's main writes for a failed command (src/cli/cli.cpp): its message is the error.
_FRONT_ERROR = re.compile(r"^ohprof(?: [a-z]+)?: (?:internal )?error: (.*)$")


def _front():
    """The torch-free `ohprof` front to run analyze, diff and show with: $OHPROF_FRONT where set (a developer's
    build/ohprof), else the one pip installed with this very package (the distribution's bin/ohprof,
    when the distribution's ohprof/__init__.py is this one); None otherwise (a source checkout)."""
    explicit = os.environ.get("OHPROF_FRONT")
    if explicit:
        return explicit
    return _installed_front()


@functools.lru_cache(maxsize=1)
def _installed_front():
    try:
        from importlib import metadata

        dist = metadata.distribution("ohprof")
        here = os.path.realpath(os.path.dirname(os.path.abspath(__file__)))
        if not _installed_here(dist, here):
            return None  # another ohprof is installed; this one runs from elsewhere (a checkout)
        for file in dist.files or ():
            if file.name == "ohprof" and file.parent.name == "bin":
                found = os.path.realpath(dist.locate_file(file))
                if os.path.isfile(found) and os.access(found, os.X_OK):
                    return found
    except Exception:  # no metadata (a checkout on PYTHONPATH), or a layout this does not know
        return None
    return None


def _installed_here(dist, here):
    """Whether the distribution `dist` is the package in folder `here`: installed there, or an editable
    install (pip install -e) of the checkout that holds it."""
    if os.path.realpath(os.path.dirname(dist.locate_file("ohprof/__init__.py"))) == here:
        return True
    direct = json.loads(dist.read_text("direct_url.json") or "{}")
    url = direct.get("url", "")
    if (direct.get("dir_info") or {}).get("editable") and url.startswith("file://"):
        source = os.path.realpath(urllib.parse.unquote(urllib.parse.urlparse(url).path))
        return here.startswith(source + os.sep)
    return False


def _call_front(front, argv, verbose, stdout_to):
    """`ohprof ARGV` run by the front in a child process: (exit code, error), as _call. Its stdout goes to
    `stdout_to` (or, verbose, to ours; else nowhere). Its stderr is read line by line and, verbose, passed
    on as it comes, but for the error: from the line the front's main writes for a failed command (the
    last thing it writes) to the end, as the extension returns it. Where the child failed without that
    line (a loader error, a signal) the error is what it did write last."""
    sys.stdout.flush()
    sys.stderr.flush()
    with contextlib.ExitStack() as opened:
        if stdout_to:
            stdout = opened.enter_context(open(stdout_to, "wb"))
        else:
            stdout = None if verbose else subprocess.DEVNULL
        try:
            # argv[0] "ohprof", as typed: the report's context.argv is the command, not where it is installed
            child = subprocess.Popen(["ohprof"] + argv, executable=front, stdin=subprocess.DEVNULL, stdout=stdout,
                                     stderr=subprocess.PIPE)
        except OSError as e:
            raise OhprofError(16, f"cannot run the ohprof front '{front}' ({e.strerror or e}); {_REINSTALL}") from None
        error_lines, last_lines = [], []
        try:
            with child.stderr:
                for raw in child.stderr:
                    line = raw.decode("utf-8", "replace").rstrip("\n")
                    matched = _FRONT_ERROR.match(line)
                    if matched and not error_lines:
                        error_lines = [matched.group(1)]
                    elif error_lines:
                        error_lines.append(line)  # an error's message that holds a newline (from a file's text)
                    else:
                        last_lines = (last_lines + [line])[-3:]
                        if verbose:
                            os.write(2, raw)
            code = child.wait()
        except KeyboardInterrupt:  # a notebook's interrupt reaches only this process: the child is stopped too
            child.kill()
            child.wait()
            raise Interrupted() from None
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
    if error_lines:
        return code, "\n".join(error_lines)
    said = f": {' '.join(last_lines)}" if last_lines else ""
    if code < 0:  # killed by a signal: the shell's code for it, 128 + its number
        try:
            name = signal.Signals(-code).name
        except ValueError:  # a real-time signal has no name
            name = f"signal {-code}"
        return 128 - code, f"the ohprof front '{front}' was killed by {name}{said}"
    if code in (126, 127):  # the system could not execute it or load its libraries: the environment's fault
        return 16, f"the ohprof front '{front}' could not start (exit {code}){said}; {_REINSTALL}"
    return code, " ".join(last_lines)


def _call(argv, verbose, stdout_to=None):
    """The command line `ohprof ARGV`: (exit code, error line). analyze, diff and show through the front where
    there is one (_front), else, and every other command, in this process through the measuring extension,
    whose Ctrl-C handlers are ohprof's while it runs; Python's come back."""
    front = _front() if argv[0] in _TORCH_FREE else None
    if front:
        return _call_front(front, argv, verbose, stdout_to)
    try:
        extension = _native.load()
    except _native.EnvironmentProblem as e:
        raise OhprofError(16, str(e)) from None
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with _silenced(verbose, stdout_to):
            return extension.run_command(["ohprof"] + argv)
    finally:
        for sig, handler in handlers.items():  # run_command installed ohprof's; Python's come back
            signal.signal(sig, handler)


def _run(argv, report_path, page_path, verbose):
    code, error = _call(argv, verbose)
    message = _api_message(error, argv) if error else f"ohprof {argv[0]} exited {code}"
    if code != 0 and not os.path.exists(report_path):
        raise Interrupted() if code == 130 else OhprofError(code, message)
    data = _report_file.read(report_path)
    page = _text(page_path)
    if code == 130:  # what was measured before Ctrl-C goes along, as the command keeps it
        raise Interrupted(Report(data, page))
    if code != 0:  # a report was written, but the command failed (e.g. --check-outputs strict): it goes along
        raise OhprofError(code, message, Report(data, page))
    return Report(data, page)


def _text(path):
    """The text of the file a command wrote at `path`, "" where it wrote none (or no path is given)."""
    if not path or not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8") as f:
        return f.read()


def _show(data, page):
    """`ohprof show` of a report's JSON (docs/usage.md, "ohprof show"): its table as the command printed it,
    or with `page` its HTML page; drawn by the command line's own printers."""
    with tempfile.TemporaryDirectory(prefix="ohprof-show-") as folder:
        report, table, html_page = (os.path.join(folder, name) for name in ("report.json", "table.txt", "report.html"))
        try:  # written as Report.save writes it: a NaN as null, what JSON cannot hold refused (2)
            _write_json(report, data)
        except OhprofError as e:
            raise OhprofError(e.code, e.message.replace(f"cannot write '{report}': the report", "the report")) from None
        argv = ["show", report] + (["--quiet", "--export-html", html_page] if page else [])
        code, error = _call(argv, False, stdout_to=table)
        if code == 130:
            raise Interrupted()
        if code != 0:  # the file is this call's: the report is named as the JSON it was given
            error = (error or f"ohprof show exited {code}").replace(f"'{report}'", "the report")
            raise OhprofError(code, error.replace("give a whole report written by --export-json",
                                                  "give a whole report (Report.to_json(), or a file written by "
                                                  "--export-json)"))
        with open(html_page if page else table, encoding="utf-8") as f:
            return f.read()


def _sweep_page(data):
    """A sweep report's page drawn from its JSON by matplotlib (python/ohprof/_sweep_plot.py), as the sweep drew
    it after its last point; "" without matplotlib. A report it cannot draw raises OhprofError 2."""
    try:
        from ohprof import _sweep_plot
    except ImportError:
        return ""
    try:
        return _sweep_plot.page(data, "the report")
    except ValueError as e:
        raise OhprofError(2, str(e)) from None


def _split_inputs(torch, inputs):
    """inputs (a tensor, a tuple of tensors, or (tuple, dict of keyword inputs)) as (args tuple, kwargs dict)."""
    if isinstance(inputs, torch.Tensor):
        inputs = (inputs,)
    if isinstance(inputs, list):
        inputs = tuple(inputs)
    if not isinstance(inputs, tuple):
        raise TypeError(f"inputs must be a tensor, a tuple of tensors or (tuple, dict), not {type(inputs).__name__}")
    if len(inputs) == 2 and isinstance(inputs[0], (tuple, list)) and isinstance(inputs[1], dict):
        return tuple(inputs[0]), dict(inputs[1])
    return inputs, {}


def _save_inputs(torch, inputs, folder):
    """inputs (a tensor, a tuple of tensors, or (tuple, dict of keyword inputs)) as an --inputs file."""
    detach = lambda v: v.detach() if isinstance(v, torch.Tensor) else v  # noqa: E731
    args, kwargs = _split_inputs(torch, inputs)
    saved = (tuple(detach(t) for t in args), {k: detach(v) for k, v in kwargs.items()}) if kwargs else \
        tuple(detach(t) for t in args)
    path = os.path.join(folder, "inputs.pt")
    torch.save(saved, path)
    return path


def _swept_inputs(torch, inputs, dim, swept):
    """sweep's --dim inputs: the indices, in the --inputs file's order (the positional inputs, then the
    keyword tensors in the dict's order), of `swept` (positional indices and keyword names; None: every
    tensor with more than `dim` dimensions)."""
    args, kwargs = _split_inputs(torch, inputs)
    names = [k for k, v in kwargs.items() if isinstance(v, torch.Tensor)]
    tensors = list(args) + [kwargs[k] for k in names]
    if swept is None:
        indices = [i for i, t in enumerate(tensors) if isinstance(t, torch.Tensor) and t.dim() > dim]
        if not indices:
            raise ValueError(f"no input has a dimension {dim} to sweep (counted from 0)")
        return indices
    if any(not isinstance(t, torch.Tensor) for t in args):
        raise TypeError("inputs must be tensors (keyword inputs may also be plain values)")
    indices = []
    for item in ([swept] if isinstance(swept, str) or hasattr(swept, "__index__") else swept):
        if isinstance(item, str):
            if item not in names:
                raise ValueError(f"swept names {item!r}, which is not a keyword tensor of the inputs "
                                 f"({', '.join(names) or 'there are none'})")
            indices.append(len(args) + names.index(item))
        else:
            index = operator.index(item)
            if not 0 <= index < len(args):
                raise ValueError(f"swept names positional input {index}, but there are {len(args)} (counted from 0)")
            indices.append(index)
    if not indices:
        raise ValueError("swept names no input; name the inputs to resize, or leave swept=None for every tensor "
                         f"with a dimension {dim}")
    for index in indices:
        if tensors[index].dim() <= dim:
            raise ValueError(f"swept input {index} has shape {list(tensors[index].shape)}: it has no dimension {dim} "
                             "to sweep (counted from 0)")
    return sorted(set(indices))


def _flag(name, value):
    return [] if value is None else [name, str(value)]


def _paths_flag(paths):
    """--paths's value from a name or a sequence of names."""
    if isinstance(paths, str):
        paths = (paths,)
    return ",".join(paths)


@_interruptible
def compare(model, inputs, *, paths=DEFAULT_PATHS, device="auto", warmup=None, min_runs=None, max_runs=None,
            min_time_s=None, max_rse=None, time_limit_s=None, check_outputs=None, explain=True,
            kernel_profile=False, cache_dir=None, export_trace=None, threads=None, what_if=False, cold_start=None,
            verbose=False):
    """`ohprof compare` on the nn.Module `model` (or a torch.export.ExportedProgram, as --exported: a
    model torch.export.export(..., strict=False) captures where strict export fails) with `inputs` (a
    tensor, a tuple of tensors, or (tuple, dict of keyword inputs)): each path
    measured in this process, interleaved, and each gap explained in layers (docs/usage.md). The keyword
    arguments are compare's flags (None: the flag's default; `threads` a list of caller counts, --threads;
    `what_if` --what-if; `cold_start` True or a number of fresh processes, --cold-start[=N], for which the
    model object is pickled: its classes must be importable in a fresh process); returns the compare Report."""
    if cold_start is not None and not isinstance(cold_start, bool):
        try:  # a count: an int, or an integer type such as numpy's (operator.index refuses a float)
            cold_start = operator.index(cold_start)
        except TypeError:
            raise TypeError(f"cold_start must be True or a number of fresh processes (an int), not "
                            f"{type(cold_start).__name__}") from None
    torch = _torch()
    program = isinstance(model, torch.export.ExportedProgram)
    if not program and not isinstance(model, torch.nn.Module):
        raise TypeError(f"model must be a torch.nn.Module or a torch.export.ExportedProgram, not {type(model).__name__}")
    with tempfile.TemporaryDirectory(prefix="ohprof-api-") as folder:
        if program:  # compare --exported: every path starts from the program's module()
            spec = None
            source = ["--exported", os.path.join(folder, "program.pt2")]
            torch.export.save(model, source[1])
        else:
            spec = _registry.register(model, _registry.fingerprint(torch, model) if cache_dir else None)
            source = ["--model", spec]
        try:
            argv = ["compare", *source, "--inputs", _save_inputs(torch, inputs, folder),
                    "--paths", _paths_flag(paths), "--device", device,
                    "--cache-dir", cache_dir or os.path.join(folder, "artifacts"),
                    "--export-json", os.path.join(folder, "report.json"),
                    "--export-html", os.path.join(folder, "report.html")]
            argv += _flag("--warmup", warmup) + _flag("--min-runs", min_runs) + _flag("--max-runs", max_runs)
            argv += _flag("--min-time", min_time_s) + _flag("--max-rse", max_rse) + _flag("--time-limit", time_limit_s)
            argv += _flag("--check-outputs", check_outputs) + _flag("--export-trace", export_trace)
            argv += _flag("--threads", ",".join(str(int(n)) for n in threads) if threads else None)
            if not explain:
                argv.append("--no-explain")
            if kernel_profile:
                argv.append("--kernel-profile")
            if what_if:
                argv.append("--what-if")
            if cold_start:  # --cold-start takes its count only as --cold-start=N
                argv.append("--cold-start" if cold_start is True else f"--cold-start={cold_start}")
            if not verbose:
                argv.append("--quiet")
            return _run(argv, os.path.join(folder, "report.json"), os.path.join(folder, "report.html"), verbose)
        finally:
            if spec:
                _registry.unregister(spec)


@_interruptible
def run(package, inputs=None, *, device="auto", warmup=None, runs=None, export_trace=None, verbose=False):
    """`ohprof run` on the AOTInductor package at `package`, with `inputs` (a tensor or a tuple of tensors;
    None: seeded random ones of the shapes the package records); returns the run Report."""
    torch = _torch()
    with tempfile.TemporaryDirectory(prefix="ohprof-api-") as folder:
        argv = ["run", "--aoti", os.fspath(package), "--device", device,
                "--export-json", os.path.join(folder, "report.json"),
                "--export-html", os.path.join(folder, "report.html")]
        if inputs is not None:
            argv += ["--inputs", _save_inputs(torch, inputs, folder)]
        argv += _flag("--warmup", warmup) + _flag("--runs", runs) + _flag("--export-trace", export_trace)
        if not verbose:
            argv.append("--quiet")
        return _run(argv, os.path.join(folder, "report.json"), os.path.join(folder, "report.html"), verbose)


@_interruptible
def sweep(model, inputs, values=None, *, dim=0, swept=None, paths=DEFAULT_PATHS, device="auto", cache_dir=None,
          verbose=False, batch=None):
    """`ohprof sweep` of the nn.Module `model` with your `inputs` (a tensor, a tuple of tensors, or
    (tuple, dict of keyword inputs)) over `values` (a list of ints, or sweep's value text such as "1..64")
    of dimension `dim` (0: the batch) of the inputs `swept` (positional indices and keyword names; None:
    every tensor with more than `dim` dimensions, so token ids and their attention mask together), as
    sweep --inputs: at each value those tensors are resized by repeating your slices in turn (the others,
    and plain keyword values, stay as they are; docs/sweep.md, "Your own inputs"); returns the sweep Report.
    `batch=` is the earlier name of `values`."""
    if batch is not None:
        if values is not None:
            raise TypeError("give values or batch (its earlier name), not both")
        values = batch
    if values is None:
        raise TypeError("sweep needs values: the sizes to measure, e.g. [1, 4, 16] or \"1..64\"")
    torch = _torch()
    if not isinstance(model, torch.nn.Module):
        raise TypeError(f"model must be a torch.nn.Module, not {type(model).__name__}")
    try:
        dim = operator.index(dim)
    except TypeError:
        raise TypeError(f"dim must be an int, not {type(dim).__name__}") from None
    if dim < 0:
        raise ValueError(f"dim must be 0 or more (counted from 0), not {dim}")
    if not isinstance(values, str):
        values = [operator.index(v) for v in values]
        if len(set(values)) < 2 or min(values) < 1:
            raise ValueError(f"values must hold at least two different positive sizes, not {values}")
    text = values if isinstance(values, str) else ",".join(str(v) for v in values)
    indices = _swept_inputs(torch, inputs, dim, swept)  # checked here, in the API's words
    if dim == 0 and swept is None:
        axis = ["--batch", text]
    else:
        axis = ["--dim", ",".join(str(i) for i in indices) + f":{dim}={text}"]
    with tempfile.TemporaryDirectory(prefix="ohprof-api-") as folder:
        inputs_file = _save_inputs(torch, inputs, folder)
        spec = _registry.register(model, _registry.fingerprint(torch, model) if cache_dir else None)
        try:
            # The page (the notebook's view) where matplotlib, ohprof's [plot] extra, is installed.
            page = os.path.join(folder, "report.html") if importlib.util.find_spec("matplotlib") else None
            argv = ["sweep", "--model", spec, "--inputs", inputs_file, *axis,
                    "--paths", _paths_flag(paths), "--device", device,
                    "--cache-dir", cache_dir or os.path.join(folder, "artifacts"),
                    "--export-json", os.path.join(folder, "report.json")]
            argv += ["--export-html", page] if page else ["--no-plot"]
            if not verbose:
                argv.append("--quiet")
            try:
                report = _run(argv, os.path.join(folder, "report.json"), page, verbose)
            except (OhprofError, Interrupted) as e:  # a report that goes along keeps its points too
                if e.report is not None:
                    e.report._points = _read_points(e.report.to_json(), folder)
                raise
            report._points = _read_points(report.to_json(), folder)  # for diff and save, after the folder goes
            return report
        finally:
            _registry.unregister(spec)


@_interruptible
def analyze(trace, *, verbose=False):
    """`ohprof analyze` of a PyTorch-profiler trace (a file; a list, folder or glob for many ranks);
    returns the analysis Report."""
    traces = [os.fspath(t) for t in trace] if isinstance(trace, (list, tuple)) else [os.fspath(trace)]
    with tempfile.TemporaryDirectory(prefix="ohprof-api-") as folder:
        argv = ["analyze", *traces, "--export-json", os.path.join(folder, "report.json")]
        if not verbose:
            argv.append("--quiet")
        return _run(argv, os.path.join(folder, "report.json"), None, verbose)


@_interruptible
def diff(base, new, *, threshold=None, alpha=None, resamples=None, seed=None, relative_to=None, force=False,
         verbose=False):
    """`ohprof diff` of two reports of the same model (docs/diff.md): each a Report, its to_json() dict, or the
    path of a saved report. Returns the diff Report, whose to_json()["outcome"] is "no_regression" or
    "regression" (a slower path is the answer, not an error), table() the table the command printed and
    html() its page. Reports that cannot be judged raise OhprofError 14, the diff report on it."""
    argv_flags = []
    for flag, value, kind in (("--threshold", threshold, str), ("--alpha", alpha, float),
                              ("--resamples", resamples, operator.index), ("--seed", seed, operator.index),
                              ("--relative-to", relative_to, str)):
        if value is None:
            continue
        try:
            checked = kind(value)
        except (TypeError, ValueError):
            raise TypeError(f"{_API_FLAGS[flag]} must be {_FLAG_KINDS[kind]}, not {value!r}") from None
        if flag == "--seed" and checked < 0:
            raise ValueError(f"seed must be 0 or more, not {checked}")
        argv_flags += [flag, str(checked)]
    if force:
        argv_flags.append("--force")
    with tempfile.TemporaryDirectory(prefix="ohprof-api-") as folder:
        given = [_diff_argument(report, folder, name) for report, name in ((base, "base.json"), (new, "new.json"))]
        out, page, table = (os.path.join(folder, name) for name in ("diff.json", "diff.html", "diff.txt"))
        # silent: the table and the warnings are printed from the report, with the temporary folder left out
        code, error = _call(["diff", *given, "--export-json", out, "--export-html", page, *argv_flags], False,
                            stdout_to=table)
        ours = folder + os.sep  # the reports saved here are named base.json and new.json
        error = _in_api_words(error.replace(ours, "")) if error else f"ohprof diff exited {code}"
        if not os.path.exists(out):
            raise Interrupted() if code == 130 else OhprofError(code, error)
        data = _without(_report_file.read(out), ours)
        texts = [_text(path).replace(ours, "") for path in (table, page)]
        report = Report(data, texts[1], table=texts[0])
        if verbose:
            sys.stdout.write(texts[0])
            sys.stdout.flush()
            for warning in report.warnings:  # as the command writes them (src/base/console.cpp)
                sys.stderr.write(f"ohprof diff: warning: {warning.get('message', '')}\n")
            sys.stderr.flush()
        if code == 130:  # Ctrl-C after the diff was written: it goes along
            raise Interrupted(report)
        if code not in (0, 13):  # 13: a regression, which the report says
            raise OhprofError(code, error, report)
        return report


_FLAG_KINDS = {str: "a string", float: "a number", operator.index: "an integer"}


def _diff_argument(report, folder, name):
    """diff's argument for `report`: a path as given; a Report or dict saved in `folder` as `name`. A sweep is
    diffed with its points' reports beside it: one ohprof.load read, from its own file; one ohprof.sweep
    returned, saved with the reports it holds (Report.save)."""
    if not isinstance(report, (Report, dict)):
        return os.fspath(report)
    data = report.to_json() if isinstance(report, Report) else report
    if isinstance(data, dict) and data.get("kind") == "sweep":
        if isinstance(report, Report) and report._source and report._points is None:
            return report._source
        if not isinstance(report, Report) or _sweep_points(report) is None:
            raise OhprofError(2, "a sweep report is diffed with its points' reports: give the Report ohprof.sweep "
                                 "returned or ohprof.load read, or the path of a sweep saved with --export-json "
                                 "or Report.save")
        report.save(os.path.join(folder, name))
        return os.path.join(folder, name)
    _write_json(os.path.join(folder, name), data)
    return os.path.join(folder, name)


def _point_names(data):
    """The points' reports a sweep's JSON names (points[].report, points[].passes[].report), each once."""
    names = []
    for point in data.get("points") or []:
        for entry in [point, *(point.get("passes") or [])] if isinstance(point, dict) else []:
            name = entry.get("report") if isinstance(entry, dict) else None
            if isinstance(name, str) and name and name not in names:
                names.append(name)
    return names


def _read_points(data, folder, strict=False):
    """The points' reports of the sweep `data` that lie in `folder`, by the names its JSON gives them (a point
    whose report is not there has none). With `strict`, one that is there but cannot be read raises OhprofError
    2 (not a JSON report) or 3, naming it, rather than being left out: its name is not dropped silently."""
    points = {}
    for name in _point_names(data):
        file = os.path.join(folder, name)
        try:
            points[name] = _report_file.read(file)
        except FileNotFoundError:
            continue
        except _report_file.NOT_JSON as e:
            if strict:
                raise OhprofError(2, f"the sweep's point report '{file}' is not a JSON report ({e}); give a sweep "
                                     "whose points' reports are whole") from None
        except OSError as e:
            if strict:
                raise OhprofError(3, f"cannot read the sweep's point report '{file}' ({e.strerror or e}); check "
                                     "the path") from None
    return points


def _sweep_points(report):
    """A sweep Report's points' reports: those ohprof.sweep kept, or those beside the file ohprof.load read;
    None where it has neither."""
    if report._points is not None:
        return report._points
    if report._source:
        return _read_points(report._data, os.path.dirname(report._source), strict=True)
    return None


def _renamed_point(point, renamed):
    """A sweep point (and its passes) with each report name as `renamed` gives it."""
    if not isinstance(point, dict):
        return point
    out = dict(point)
    if out.get("report") in renamed:
        out["report"] = renamed[out["report"]]
    if isinstance(out.get("passes"), list):
        out["passes"] = [_renamed_point(p, renamed) for p in out["passes"]]
    return out


def _write_json(path, data):
    """`data` as JSON in the file `path`, as ohprof writes a report (src/base/atomic_file.cpp): a temporary file
    beside it, flushed to disk, readable by all (0644), renamed over it, so that the file is whole or untouched.
    A NaN or infinity is written as null, as the command's writer writes them. Raises OhprofError 8 where it
    cannot be written (its folder missing, say), as --export-json exits; 2 where `data` holds a value JSON has
    no form for."""
    temporary = None
    try:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=os.path.dirname(path) or ".", prefix=".ohprof-",
                                         suffix=".tmp", delete=False) as f:
            temporary = f.name
            json.dump(_finite(data), f, allow_nan=False)
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(OSError):  # a file system without modes (vfat, some FUSE) keeps its own, as the command's
            os.chmod(temporary, 0o644)
        os.replace(temporary, path)
        temporary = None
    except OSError as e:
        raise OhprofError(8, f"cannot write '{path}' ({e.strerror or e}); fix the path") from None
    except (TypeError, ValueError) as e:  # a dict made by hand holding what JSON has no form for (a set, say)
        raise OhprofError(2, f"cannot write '{path}': the report holds a value JSON cannot hold ({e}); give a report "
                             "of JSON values (Report.to_json(), or a file written by --export-json)") from None
    finally:  # whatever stopped it (Ctrl-C too), no temporary file stays behind
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _leaves(value, change):
    """`value` (JSON) with `change` applied to each value that is neither a list, a tuple nor a dict (a tuple
    becomes the list JSON writes it as)."""
    if isinstance(value, (list, tuple)):
        return [_leaves(v, change) for v in value]
    if isinstance(value, dict):
        return {k: _leaves(v, change) for k, v in value.items()}
    return change(value)


def _finite(value):
    """`value` (JSON) with each NaN or infinity as None (JSON null)."""
    return _leaves(value, lambda v: None if isinstance(v, float) and not math.isfinite(v) else v)


def _without(value, prefix):
    """`value` (JSON) with `prefix` taken out of every string in it."""
    return _leaves(value, lambda v: v.replace(prefix, "") if isinstance(v, str) else v)


def load(path):
    """The report that a command or this API wrote to `path` (--export-json: plain JSON or gzip, as the
    file's first bytes say) as a Report, whose table() and html() draw them again as when it was measured
    (`ohprof show`; a sweep's page, matplotlib)."""
    name = os.fsdecode(path)
    try:
        data = _report_file.read(name)
    except _report_file.NOT_JSON as e:
        raise OhprofError(2, f"'{name}' is not a JSON report ({e}); give a file written by --export-json") from None
    except OSError as e:  # missing, unreadable, a folder
        raise OhprofError(3, f"cannot read report '{name}' ({e.strerror or e}); check the path") from None
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise OhprofError(2, f"'{name}' is not an ohprof report (it has no \"kind\"); give a file written by "
                             "--export-json")
    report = Report(data)
    report._source = os.path.abspath(name)  # where a sweep's points' reports are found (diff)
    return report
