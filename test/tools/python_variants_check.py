"""The Python side of compare's layer variants (python/ohprof/_paths.py), in the pinned torch.

Checks what the variants rely on and what docs/metrics.md ("Paths", "Layers") says of them:
  1. each compiled path compiles its own graph: a cpp_wrapper compile of the same module class is not
     the default compile's graph (Dynamo caches compiled code per code object; fresh_code_copy gives each
     path its own);
  2. every variant computes the same outputs as eager;
  3. the no-guards variant's stance is set in enter() and gone after leave(): a recompile-forcing input
     after leave() is still guarded against (a wrong shape recompiles instead of running the old graph);
  4. the captured callables are the layers the docs name: P/graph calls the __compiled_fn Dynamo
     installed, P/inductor a CompiledFxGraph, P/call its current_callable;
  5. a model Dynamo splits into two graphs has no P/graph variant, and says why;
  6. a model returning a cache object: the variants below Dynamo match eager (checked on the graph);
  7. the execution check's records: a guard failure's text, which paths go through Dynamo;
  8. the probe says what a call ran: compiled code (also where submodule frames share a cache), uncompiled
     past the recompile limit, no frame, or frames that run no compiled graph.
Usage: python_variants_check.py SOURCE_DIR CACHE_DIR (the venv's python, with torch).
"""
import os
import sys


def main() -> int:
    source_dir, cache_dir = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.join(source_dir, "python"))
    sys.path.insert(0, os.path.join(source_dir, "examples", "models"))
    import torch
    from ohprof import _paths as op
    from torch._inductor.output_code import CompiledFxGraph

    problems = []
    session = op.Session({"model": "tiny_models:tiny_mlp", "inputs": [([2, 16], "float32")], "device": "cpu",
                          "cache_dir": cache_dir})
    with torch.inference_mode():
        eager = session.make_path("eager")
        compiled = session.make_path("compile")
        cpp = session.make_path("compile:cpp-wrapper")
        if session.compiled["compile"].forward_code is session.compiled["compile:cpp-wrapper"].forward_code:
            problems.append("compile and compile:cpp-wrapper share forward's code object (and Dynamo's cache)")
        variants = {v: session.make_path("compile/" + v) for v in op.VARIANTS}
        cpp_call = session.make_path("compile:cpp-wrapper/call")
        default_state = session.compiled["compile"]
        cpp_state = session.compiled["compile:cpp-wrapper"]
        if default_state.graph is cpp_state.graph:
            problems.append("compile:cpp-wrapper runs the default compile's graph")
        # The cpp_wrapper build's call() is not the Python wrapper's module-level call().
        if getattr(cpp_state.graph.current_callable, "__name__", "") == getattr(
                default_state.graph.current_callable, "__name__", None) and \
                getattr(cpp_state.graph.current_callable, "__module__", "") == getattr(
                default_state.graph.current_callable, "__module__", None):
            problems.append("compile:cpp-wrapper/call is the same callable as compile/call")
        for path in [compiled, cpp, cpp_call] + list(variants.values()):
            check = session.compare(eager.outputs, path.outputs)
            if not check["passed"]:
                problems.append(f"{path.name} differs from eager: {check['detail']}")
            if path.source != op.SOURCE_MODULE:
                problems.append(f"{path.name}: source {path.source}, expected module")
        if not isinstance(default_state.graph, CompiledFxGraph):
            problems.append(f"compile/inductor calls a {type(default_state.graph).__name__}, not a CompiledFxGraph")
        if default_state.aot_fn is None or not any(
                default_state.forward_globals.get(n) is default_state.aot_fn
                for n in default_state.forward_globals if n.startswith("__compiled_fn")):
            problems.append("compile/graph does not call the __compiled_fn Dynamo installed")
        # The stance: on in enter(), off after leave(). With guards skipped, Dynamo would run the graph
        # compiled for [2, 16] on a [3, 16] input; with them, it recompiles (counted) and runs right.
        no_guards = variants["no-guards"]
        no_guards.enter()
        no_guards.step()
        no_guards.leave()
        from torch._dynamo.utils import counters
        before = counters["stats"]["unique_graphs"]
        other = torch.randn(3, 16)
        out = compiled_out = None
        try:
            compiled_out = session.compiled["compile"].fn(other)
            out = eager_out = session.user_model(other)
            if not torch.allclose(compiled_out, eager_out, atol=1e-3, rtol=1e-3):
                problems.append("after leave(), compile ran a stale graph on a new shape")
        except Exception as e:  # a stale graph on the wrong shape can also raise
            problems.append(f"after leave(), compile failed on a new shape: {e}")
        if counters["stats"]["unique_graphs"] <= before:
            problems.append("after leave(), a new input shape did not recompile: guards still skipped?")
        del out, compiled_out

        # A graph break: two graphs, so no variant below Dynamo.
        class Broken(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.a = torch.nn.Linear(16, 16)
                self.b = torch.nn.Linear(16, 8)

            def forward(self, x):
                y = self.a(x)
                torch._dynamo.graph_break()
                return self.b(y)

        state = op.CompiledState(torch.compile(op.fresh_code_copy(torch, Broken().eval()), dynamic=False), None, None)
        module = state.fn._orig_mod
        state.fn(torch.randn(2, 16))
        state.forward_code = type(module).forward.__code__
        state.forward_globals = type(module).forward.__globals__
        state.capture(torch, (torch.randn(2, 16),))
        if "graph" not in state.unavailable:
            problems.append(f"a graph break was not reported: unavailable = {state.unavailable!r}")
    # 6. a model whose output is not a flat sequence of tensors (tiny_models.not_exportable returns a cache
    # object, as transformers' models do): the variants below Dynamo return the graph's flat outputs, laid
    # out otherwise; they are checked against the graph's own outputs and then stand for the path's, so
    # each variant's outputs equal the compiled path's (and eager's) instead of differing in layout.
    caching = op.Session({"model": "tiny_models:not_exportable", "inputs": [([2, 16], "float32")], "device": "cpu",
                          "cache_dir": cache_dir, "export_needed": False})
    with torch.inference_mode():
        eager_out = caching.make_path("eager").outputs
        compiled_out = caching.make_path("compile").outputs
        for v in ("no-guards", "graph", "inductor", "call"):
            got = caching.make_path("compile/" + v).outputs
            check = op.compare_outputs(torch, eager_out, got)
            if not check["passed"]:
                problems.append(f"not_exportable compile/{v}: {check['detail'] or check}")
        if op.compare_outputs(torch, eager_out, compiled_out)["passed"] is not True:
            problems.append("not_exportable: compile's outputs differ from eager's")
    # 7. the execution check's Python side (docs/metrics.md, "Execution check"): a guard failure in one
    # line; the no-guards variant goes through Dynamo with its path's graphs, the variants below do not.
    text = op.guard_failure_text("0/0: G['LATE'] == False        # if LATE:  # ork/main/examples/models/"
                                 "tiny_models.py:95 in forward")
    if text != "G['LATE'] == False (tiny_models.py:95 in forward)":
        problems.append(f"guard_failure_text: {text!r}")
    with torch.inference_mode():
        records = {v: caching.make_path("compile/" + v).execution for v in ("no-guards", "graph")}
        records[""] = caching.make_path("compile").execution
    if not (records[""]["dynamo"] and records["no-guards"]["dynamo"] and not records["graph"]["dynamo"]):
        problems.append(f"execution records: which go through Dynamo: {records}")
    if records[""]["graphs"] != 1 or records["no-guards"]["graphs"] != 1 or records[""]["device"] != "cpu":
        problems.append(f"execution record of compile: {records['']}")
    # The CUDA-graph tree's eager runs are watched through CUDAGraphTreeManager.run_eager: it exists in
    # this torch, and a call through the wrapper (here on a stand-in manager, no GPU) is one event.
    from torch._inductor.cudagraph_trees import CUDAGraphTreeManager
    log = op.CompileLog.__new__(op.CompileLog)  # without registering torch's callbacks a second time
    log.events, log.unobserved, log._cuda_wrapped = [], "", False
    if not hasattr(CUDAGraphTreeManager, "run_eager"):
        problems.append("CUDAGraphTreeManager.run_eager is gone: reduce-overhead's eager runs would go unseen")
    else:
        saved = CUDAGraphTreeManager.run_eager
        try:
            CUDAGraphTreeManager.run_eager = lambda manager, *args, **kwargs: "ran"
            log.watch_cuda_graph_trees(torch)
            stand_in = type("Manager", (), {"compile_id": "0/0"})()
            result = CUDAGraphTreeManager.run_eager(stand_in, 0)
        finally:
            CUDAGraphTreeManager.run_eager = saved
        if result != "ran" or [e[:2] for e in log.events] != [[op.CUDA_GRAPH_EAGER, "0/0"]]:
            problems.append(f"watch_cuda_graph_trees: {result!r}, events {log.events}")
    # 8. the probe (docs/metrics.md, "Execution check"): a built compile path and its no-guards variant ran
    # compiled code; a path Dynamo gave up on at its recompile limit finds no graph whose guards match, and one
    # that reaches it in the probe's own call is unknown; a module whose forward Dynamo skips (nothing to
    # compile) enters no frame; and no hook is left behind.
    from torch._C._dynamo.eval_frame import set_guard_complete_hook
    with torch.inference_mode():
        for name in ("compile", "compile/no-guards", "compile:cpp-wrapper"):
            got = session.make_path(name).probe()
            if got != "compiled":
                problems.append(f"probe of {name}: {got!r}, not 'compiled'")
        if session.make_path("eager").probe is not None or session.make_path("compile/graph").probe is not None:
            problems.append("a path without Dynamo has a probe")

        class Counting(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(16, 16)
                self.calls = 0

            def forward(self, x):
                self.calls += 1  # a guard on the count: every call misses the graphs made before
                return self.fc(x) * self.calls

        x = torch.randn(2, 16)

        def probe_counting(calls):
            """The probe of a fresh Counting compile after `calls` calls, with a recompile limit of 2."""
            limit = torch._dynamo.config.recompile_limit
            torch._dynamo.config.recompile_limit = 2
            try:
                counting = torch.compile(op.fresh_code_copy(torch, Counting().eval()))
                for _ in range(calls):
                    counting(x)
                return op.probe_compiled_call(torch, session.compile_log, lambda: counting(x))
            finally:
                torch._dynamo.config.recompile_limit = limit

        # Four calls: two entries, the limit hit in the third; the probe's call misses both, uncompiled.
        got = probe_counting(4)
        if got != "guards-missed":
            problems.append(f"probe past the recompile limit: {got!r}, not 'guards-missed'")
        # Two calls made two entries, the limit: the probe's own call misses both and Dynamo gives up inside
        # it, so the probe cannot tell what the calls before it ran.
        got = probe_counting(2)
        if got != "limit-in-probe":
            problems.append(f"probe that hits the recompile limit itself: {got!r}, not 'limit-in-probe'")

        class Skipped(torch.nn.Module):
            def forward(self, x):
                return x  # no tensor op: Dynamo makes no graph and skips the frame from then on

        def probe_after_a_call(fn):
            """The probe of compiled `fn` after one call of it (its compile)."""
            fn(x)
            return op.probe_compiled_call(torch, session.compile_log, lambda: fn(x))

        got = probe_after_a_call(torch.compile(Skipped()))
        if got != "no-frame":
            problems.append(f"probe of a skipped forward: {got!r}, not 'no-frame'")

        class Disabled(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(16, 16)

            def forward(self, x):  # Dynamo's frame matches, and runs the disabled function: no graph
                return torch._dynamo.disable(lambda m, y: torch.relu(m.fc(y)))(self, x)

        got = probe_after_a_call(torch.compile(op.fresh_code_copy(torch, Disabled().eval())))
        if got != "no-graph":
            problems.append(f"probe of a forward that calls disabled code: {got!r}, not 'no-graph'")

        # Submodules with a graph break: their frames' cache is shared by two compile paths (fresh_code_copy
        # copies the top forward only), so the second counts no new graph, yet runs compiled graphs.
        class Inner(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(16, 16)

            def forward(self, x):
                y = self.fc(x)
                torch._dynamo.graph_break()
                return torch.relu(y)

        class Outer(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.a, self.b = Inner(), Inner()

            def forward(self, x):
                return self.b(self.a(x))

        outer = Outer().eval()
        for mode in ("default", "max-autotune-no-cudagraphs"):
            got = probe_after_a_call(torch.compile(op.fresh_code_copy(torch, outer), mode=mode, dynamic=False))
            if got != "compiled":
                problems.append(f"probe of a {mode} compile whose submodules share their frames: {got!r}")
    if set_guard_complete_hook(None) is not None:
        problems.append("the probe left its guard-complete hook set")
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"OK: {len(op.VARIANTS)} variants of compile and compile:cpp-wrapper/call compute eager's outputs, "
          "each compiled path has its own graph, the stance is scoped, a graph break is reported, the probe tells "
          "compiled calls from uncompiled ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
