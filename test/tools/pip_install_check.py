#!/usr/bin/env python3
"""ohprof as a user installs it: a wheel built from this checkout, installed with pip into fresh venvs of a
plain interpreter (by default Debian's /usr/bin/python3, which has no shared libpython).

  pip_install_check.py --source-dir DIR --work DIR --torch-site SITE_PACKAGES [--python PY]

1. tools/dist makes the sdist (it carries CLI11, which is not on PyPI), and `pip wheel` builds the wheel
   from it (scikit-build-core, build isolation: no torch in sight) with the Debian packages of ohprof's
   C++ dependencies hidden (root: a private mount namespace with empty files and folders bound over
   theirs), as on a machine without root or apt; every later step runs hidden the same way, the first-use
   build of the measuring extension included. Without root the step says it could not hide them.
2. A venv with torch: torch comes from SITE_PACKAGES (the project's cached venv) through a .pth file,
   so nothing of several GB is downloaded again. `ohprof --version` needs no Python; `ohprof compare`
   on the tiny MLP with its own inputs (--inputs, saved with that torch) builds the measuring extension against that torch on first use (in a cache of its
   own under DIR), measures aoti, compile and eager, and writes its report; a second compare finds the
   built extension and does not build again.
3. A venv without torch: `ohprof analyze` works (and `ohprof show` prints its table again); so do the
   API's ohprof.analyze, Report.table(), html() and ohprof.load (through the front pip installed, importing
   neither torch nor the measuring extension, building none; also in the venv with torch); and `ohprof compare` says in one line that torch is missing, with
   exit 16 (docs/exit-codes.md).

Exit 0 when all of it holds, 1 with the reasons otherwise.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

ENVIRONMENT_ERROR = 16


def run(args, env=None, timeout=1800):
    started = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=timeout, check=False)
    return done, time.monotonic() - started


# The Debian packages whose headers, CMake files and libraries the wheel must not need (tools/lib.sh).
HIDDEN_PACKAGES = ("libcli11-dev", "nlohmann-json3-dev", "libspdlog-dev", "libfmt-dev", "zlib1g-dev")
HIDDEN_FOLDERS = ("/usr/include/CLI", "/usr/include/fmt", "/usr/include/nlohmann", "/usr/include/spdlog",
                  "/usr/lib/x86_64-linux-gnu/cmake/fmt", "/usr/lib/x86_64-linux-gnu/cmake/spdlog",
                  "/usr/share/cmake/CLI11", "/usr/share/cmake/nlohmann_json")


def hiding_prefix(work):
    """A command prefix that runs its command with the Debian packages above hidden (an empty folder
    bound over each of their folders, /dev/null over each of their other files but links), or None where this
    cannot be done (not root, no unshare, no dpkg)."""
    files = []
    for package in HIDDEN_PACKAGES:
        listed = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True, check=False)
        if listed.returncode != 0:
            continue
        for path in listed.stdout.split():
            # a link (libz.so) stays: a mount over it would hide its target, the run-time libz.so.1
            if (os.path.isfile(path) and not os.path.islink(path)
                    and not path.startswith(("/usr/share/doc", "/usr/share/man"))
                    and not any(path.startswith(folder + "/") for folder in HIDDEN_FOLDERS)):
                files.append(path)
    folders = [folder for folder in HIDDEN_FOLDERS if os.path.isdir(folder)]
    empty = os.path.join(work, "empty")
    os.makedirs(empty, exist_ok=True)
    mounts = [f"mount --bind {empty} {folder}" for folder in folders] + [f"mount --bind /dev/null {f}" for f in files]
    script = " && ".join(mounts + ['exec "$@"'])
    prefix = ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "hidden"]
    probe = subprocess.run(prefix + ["test", "!", "-s", "/usr/include/zlib.h"], capture_output=True, check=False)
    return prefix if probe.returncode == 0 else None


def make_venv(python, path, torch_site=None):
    shutil.rmtree(path, ignore_errors=True)
    subprocess.run([python, "-m", "venv", path], check=True)
    if torch_site:
        site = glob.glob(os.path.join(path, "lib", "python3*", "site-packages"))[0]
        with open(os.path.join(site, "project-torch.pth"), "w") as f:
            f.write(torch_site + "\n")
    return path


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--torch-site", required=True)
    parser.add_argument("--python", default="/usr/bin/python3")
    opts = parser.parse_args(argv)
    problems = []
    os.makedirs(opts.work, exist_ok=True)
    env = dict(os.environ)
    env.pop("OHPROF_PYTHON", None)
    env.pop("OHPROF_EXTENSION", None)
    env.pop("PYTHONPATH", None)
    env.pop("OHPROF_FRONT", None)  # the API must find the front that pip installed
    env["OHPROF_CACHE"] = os.path.join(opts.work, "cache")
    shutil.rmtree(env["OHPROF_CACHE"], ignore_errors=True)

    # 1. the sdist, then the wheel built from it without the Debian packages
    dist = os.path.join(opts.work, "dist")
    shutil.rmtree(dist, ignore_errors=True)
    done, took = run([os.path.join(opts.source_dir, "tools", "dist"), dist])
    if done.returncode != 0:
        print(done.stdout[-4000:], done.stderr[-4000:])
        print("tools/dist failed")
        return 1
    sdist = done.stdout.strip().splitlines()[-1]
    print(f"made {os.path.basename(sdist)} in {took:.0f} s")
    hidden = hiding_prefix(opts.work)
    if hidden is None:
        hidden = []
        print("could not hide the Debian packages (needs root and unshare): the wheel is built with them in sight")
    else:
        print("the Debian packages " + ", ".join(HIDDEN_PACKAGES) + " are hidden from here on")
    run_hidden = lambda args, env=None: run(hidden + args, env)  # noqa: E731
    builder = make_venv(opts.python, os.path.join(opts.work, "venv-build"))
    done, took = run_hidden([os.path.join(builder, "bin", "pip"), "wheel", "--no-deps", "-q", "-w", dist, sdist], env)
    if done.returncode != 0:
        print(done.stdout[-4000:], done.stderr[-4000:])
        print("pip wheel failed")
        return 1
    wheel = glob.glob(os.path.join(dist, "ohprof-*.whl"))[0]
    print(f"built {os.path.basename(wheel)} in {took:.0f} s")
    licences = subprocess.run([sys.executable, "-m", "zipfile", "-l", wheel], capture_output=True, text=True).stdout
    for name in ("CLI11", "fmt", "nlohmann_json", "spdlog", "zlib"):
        if f"ohprof/licenses/{name}.txt" not in licences:
            problems.append(f"the wheel carries {name}'s code but not its licence (ohprof/licenses/{name}.txt)")

    # 2. a venv with torch
    venv = make_venv(opts.python, os.path.join(opts.work, "venv-torch"), opts.torch_site)
    done, took = run_hidden([os.path.join(venv, "bin", "pip"), "install", "-q", wheel], env)
    if done.returncode != 0:
        print(done.stderr[-4000:])
        return 1
    print(f"pip install took {took:.1f} s")
    ohprof = os.path.join(venv, "bin", "ohprof")
    done, took = run_hidden([ohprof, "--version"], env)
    if done.returncode != 0 or not done.stdout.startswith("0."):
        problems.append(f"ohprof --version: exit {done.returncode}, {done.stdout!r} {done.stderr!r}")
    model_env = dict(env, PYTHONPATH=os.path.join(opts.source_dir, "examples", "models"))
    report = os.path.join(opts.work, "compare.json")
    inputs = os.path.join(opts.work, "inputs.pt")  # the user's own inputs (--inputs), saved with their torch
    subprocess.run([os.path.join(venv, "bin", "python"), "-c",
                    f"import torch; torch.save((torch.randn(2, 16),), {inputs!r})"], check=True)
    compare = [ohprof, "compare", "--model", "tiny_models:tiny_mlp", "--inputs", inputs, "--device", "cpu",
               "--paths", "aoti,compile,eager", "--warmup", "2", "--min-runs", "5", "--max-runs", "5",
               "--min-time", "0", "--no-explain", "--cache-dir", os.path.join(opts.work, "artifacts"),
               "--export-json", report]
    for attempt in ("first", "second"):
        done, took = run_hidden(compare, model_env)
        print(f"{attempt} compare: exit {done.returncode} in {took:.0f} s")
        if done.returncode != 0:
            problems.append(f"{attempt} compare exited {done.returncode}: {done.stderr.strip()[-2000:]}")
            break
        if "_ohprof_measure" in done.stdout or "ninja" in done.stdout:
            problems.append(f"{attempt} compare: the extension's build wrote to stdout: {done.stdout[:300]!r}")
        built = "building the measuring extension" in done.stderr
        if built != (attempt == "first"):
            problems.append(f"{attempt} compare {'built' if built else 'did not build'} the extension: {done.stderr!r}")
        with open(report) as f:
            written = json.load(f)
        measured = {p["name"]: p for p in written["paths"]}
        if written["config"]["inputs"] != ["[2, 16]:float32"]:
            problems.append(f"{attempt} compare: inputs {written['config']['inputs']}, not the --inputs file's")
        for name in ("aoti", "compile", "eager"):
            if name not in measured or not measured[name].get("samples_ns"):
                problems.append(f"{attempt} compare: path {name} not measured ({sorted(measured)})")
        for name in ("aoti", "compile", "eager"):
            if name not in done.stdout:
                problems.append(f"{attempt} compare: the table does not name {name}")
    # the Python API in the same venv, on a model object and its own tensors (the extension is built)
    api = ("import sys, torch, ohprof, tiny_models\n"
           "r = ohprof.compare(tiny_models.tiny_mlp(), (torch.randn(2, 16),), paths=('aoti', 'eager'), device='cpu',"
           " warmup=1, min_runs=3, max_runs=3, min_time_s=0, explain=False)\n"
           "print(repr(r))\n"
           "print(r)\n"  # the table compare prints (Report.table(), drawn by `ohprof show`)
           "sys.exit(0 if sorted(r.paths) == ['aoti', 'eager'] and r.to_json()['config']['inputs'] == ['[2, 16]:float32'] else 1)\n")
    done, took = run_hidden([os.path.join(venv, "bin", "python"), "-c", api], model_env)
    print(f"python API: exit {done.returncode} in {took:.0f} s: {done.stdout.strip()}")
    if done.returncode != 0 or "<ohprof.Report compare: aoti" not in done.stdout or "\npath aoti  (" not in done.stdout \
            or "\npath eager  (" not in done.stdout:
        problems.append(f"the Python API: exit {done.returncode}: {done.stdout.strip()} {done.stderr.strip()[-2000:]}")
    # a model torch.export cannot capture: aoti reported as not measured, compile and eager measured
    report2 = os.path.join(opts.work, "not-exportable.json")
    done, _ = run_hidden([ohprof, "compare", "--model", "tiny_models:not_exportable", "--input", "2,16", "--device", "cpu",
                   "--paths", "aoti,compile,eager", "--warmup", "1", "--min-runs", "3", "--max-runs", "3",
                   "--min-time", "0", "--no-explain", "--quiet", "--cache-dir", os.path.join(opts.work, "artifacts"),
                   "--export-json", report2], model_env)
    if done.returncode != 0:
        problems.append(f"compare of a model that does not export: exit {done.returncode}: {done.stderr.strip()[-1000:]}")
    else:
        with open(report2) as f:
            written = json.load(f)
        names = sorted(p["name"] for p in written["paths"])
        if names != ["compile", "eager"] or written["artifacts"]["not_measured"] != ["aoti"]:
            problems.append(f"a model that does not export: measured {names}, not measured "
                            f"{written['artifacts']['not_measured']}")
    python_site = glob.glob(os.path.join(venv, "lib", "python3*", "site-packages", "ohprof", "_build", "manifest.json"))
    if not python_site:
        problems.append("the wheel installed no ohprof/_build/manifest.json")

    # 3. a venv without torch
    bare = make_venv(opts.python, os.path.join(opts.work, "venv-bare"))
    done, _ = run_hidden([os.path.join(bare, "bin", "pip"), "install", "-q", wheel], env)
    if done.returncode != 0:
        print(done.stderr[-4000:])
        return 1
    bare_ohprof = os.path.join(bare, "bin", "ohprof")
    trace = os.path.join(opts.source_dir, "test", "data", "traces", "triton_example.json.gz")
    analysis = os.path.join(opts.work, "analysis.json")
    done, _ = run_hidden([bare_ohprof, "analyze", trace, "--export-json", analysis], env)
    if done.returncode != 0:
        problems.append(f"analyze without torch: exit {done.returncode}: {done.stderr.strip()}")
    shown, _ = run_hidden([bare_ohprof, "show", analysis], env)
    if shown.returncode != 0 or shown.stdout != done.stdout or not done.stdout:
        problems.append(f"show without torch: exit {shown.returncode}, its table {'is' if shown.stdout == done.stdout else 'is not'} "
                        f"analyze's: {shown.stderr.strip()}")
    # the API's analyze, table, page and load there too, and in the venv with torch: through the front pip put
    # beside the package, with neither torch nor the measuring extension imported, and no extension built
    api = ("import json, sys, ohprof\n"
           "r = ohprof.analyze(sys.argv[1])\n"
           "json.dump({'table': r.table(), 'loaded': ohprof.load(sys.argv[2]).table(), 'page': '<table' in r.html(),\n"
           "           'argv0': r.to_json()['context']['argv'][0],\n"
           "           'imported': sorted(m for m in sys.modules if m == 'torch' or 'ohprof_measure' in m)}, sys.stdout)\n")
    unread = lambda text: re.sub(r"(?m)^  read: .*$", "  read: T", text)  # noqa: E731
    for where in (bare, venv):
        built_before = sorted(glob.glob(os.path.join(env["OHPROF_CACHE"], "ext", "*")))
        by_api, _ = run_hidden([os.path.join(where, "bin", "python"), "-c", api, trace, analysis], env)
        built_after = sorted(glob.glob(os.path.join(env["OHPROF_CACHE"], "ext", "*")))
        try:
            got = json.loads(by_api.stdout)
        except ValueError:
            got = None
        if (by_api.returncode != 0 or got is None or unread(got["table"]) != unread(done.stdout)
                or got["loaded"] != done.stdout or not got["page"] or got["imported"] or got["argv0"] != "ohprof"
                or built_after != built_before):
            seen = ([unread(got["table"]) == unread(done.stdout), got["loaded"] == done.stdout, got["page"],
                     got["imported"], got["argv0"]] if got else None)
            problems.append(f"the API's analyze in {os.path.basename(where)}: exit {by_api.returncode}, "
                            f"{by_api.stderr.strip()[-2000:]!r}; table as analyze's, loaded table as show's, a page, "
                            f"imported, argv[0]: {seen}; extensions built {len(built_after) - len(built_before)}")
    done, _ = run_hidden([bare_ohprof, "compare", "--model", "tiny_models:tiny_mlp", "--input", "1,16"], model_env)
    lines = done.stderr.strip().splitlines()
    if done.returncode != ENVIRONMENT_ERROR or len(lines) != 1 or "torch is not installed" not in done.stderr:
        problems.append(f"compare without torch: exit {done.returncode} (want {ENVIRONMENT_ERROR}), stderr {done.stderr!r}")

    for problem in problems:
        print("FAIL:", problem)
    if not problems:
        print("pip install: the wheel installs, measures in the venv's torch, and says when torch is missing")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
