"""The Python half of `compare --dump-code DIR` (python/ohprof/_paths.py: Session.dump_code, Session.trace_compile),
in the pinned torch.

Checks what docs/design/code-view.md plans and the C++ side relies on:
  1. tiny MLP, paths eager, compile and compile:cpp-wrapper: graph.py is the graph as code (it names `linear`);
     the compile paths' code/output_code.py is Inductor's output code as torch 2.14.1 writes it (the Python
     wrapper binds `cpp_fused_*` kernels through async_compile.cpp_pybinding; the cpp_wrapper build is a .py
     that embeds `extern "C" void cpp_fused_*(...)` definitions), listed in code_files; post_grad_graph.txt
     is not empty;
  2. graph.dot has one node statement per FX node (labelled with its name) and one edge per input of each
     node (node.all_input_nodes), against a graph Dynamo captured independently (an eager backend) or the
     exported program's; labels are escaped for DOT (dot parses a label with quotes, backslashes, newlines);
  3. graph.svg is an SVG when `dot` is found; with no `dot`, the note says graphviz is missing and there is
     no graph.svg;
  4. an unknown path or one not built is OhprofError(USAGE_ERROR); trace_compile of eager writes nothing;
  5. a path compiled without dump_code says so and still has its output code;
  6. a model with a graph break gives two Dynamo graphs (two headers in graph.py, two DOT clusters) and two
     output_code_<i>.py files;
  7. trace_compile writes a trace log under trace/ with dynamo_output_graph and inductor_output_code records,
     the re-compile has the measured graph's cache key, tlparse (when found) writes trace/tlparse/index.html,
     and afterwards the measured compile path still runs its own compiled graph and gives the same outputs.
Usage: code_dump_check.py SOURCE_DIR CACHE_DIR (the venv's python, with torch).

The graph-break model is this module's `graph_break_model` (ohprof's --model code_dump_check:graph_break_model,
with this folder on sys.path).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


class GraphBreakMLP(torch.nn.Module):
    """The tiny MLP's layers with a graph break between them: Dynamo makes two graphs."""

    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 8)

    def forward(self, x):
        y = torch.relu(self.fc1(x))
        torch._dynamo.graph_break()
        return self.fc2(y) * 0.5


def graph_break_model():
    torch.manual_seed(0)
    return GraphBreakMLP().eval()


NODE_RE = re.compile(r'^\s*(\w+) \[label="((?:[^"\\]|\\.)*)"')
EDGE_RE = re.compile(r"^\s*(\w+) -> (\w+);")


def dot_nodes_and_edges(text):
    """{id: name} of the node statements (the name is the label's first line) and [(from id, to id)]."""
    nodes, edges = {}, []
    for line in text.splitlines():
        m = NODE_RE.match(line)
        if m and m.group(1) not in ("graph", "node", "edge"):
            if m.group(1) in nodes:
                nodes[m.group(1)] = None  # a second statement for one id: counted as a problem below
            else:
                nodes[m.group(1)] = m.group(2).split("\\n")[0]
            continue
        m = EDGE_RE.match(line)
        if m:
            edges.append((m.group(1), m.group(2)))
    return nodes, edges


def check_dot(problems, where, text, graphs):
    """graph.dot `text` against the FX graphs it draws: one statement per node, one edge per input node."""
    nodes, edges = dot_nodes_and_edges(text)
    expected_nodes = sum(len(g.nodes) for g in graphs)
    if len(nodes) != expected_nodes or None in nodes.values():
        problems.append(f"{where}: graph.dot has {len(nodes)} node statements (or repeats one), the FX graph(s) "
                        f"have {expected_nodes} nodes")
    expected_edges = sorted((src.name, node.name) for g in graphs for node in g.nodes
                            for src in node.all_input_nodes)
    got_edges = sorted((nodes.get(a), nodes.get(b)) for a, b in edges)
    if got_edges != expected_edges:
        problems.append(f"{where}: graph.dot's edges {got_edges} are not one per input use {expected_edges}")
    names = sorted(n for n in nodes.values() if n)
    expected_names = sorted(node.name for g in graphs for node in g.nodes)
    if names != expected_names:
        problems.append(f"{where}: graph.dot's node names {names} are not the graph's {expected_names}")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def check_listing(problems, where, result, out_dir):
    if result.get("files") != sorted(result.get("files", [])):
        problems.append(f"{where}: files are not sorted: {result.get('files')}")
    for rel in result.get("files", []):
        if not os.path.isfile(os.path.join(out_dir, rel)):
            problems.append(f"{where}: {rel} is listed but not written")
    for rel in result.get("code_files", []):
        if rel not in result.get("files", []):
            problems.append(f"{where}: code file {rel} is not among files")
    for key in ("files", "notes", "code_files", "graph_label"):
        if key not in result:
            problems.append(f"{where}: the result has no '{key}'")


def dynamo_graphs_of(torch, op, model, inputs):
    """The FX graphs Dynamo captures of `model` (a fresh-code copy), through a backend that runs them eagerly."""
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm.graph)
        return gm.forward

    fn = torch.compile(op.fresh_code_copy(torch, model), backend=backend, dynamic=False)
    fn(*inputs)
    return graphs


def main() -> int:
    source_dir, cache_dir = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.join(source_dir, "python"))
    sys.path.insert(0, os.path.join(source_dir, "examples", "models"))
    sys.path.insert(0, HERE)
    from ohprof import _paths as op

    started = time.perf_counter()
    problems = []
    have_dot = shutil.which("dot") is not None
    out_root = tempfile.mkdtemp(prefix="ohprof-code-dump-")
    mlp = {"model": "tiny_models:tiny_mlp", "inputs": [([2, 16], "float32")], "device": "cpu",
           "cache_dir": cache_dir}
    try:
        session = op.Session(dict(mlp, dump_code=True))
        if not session.dump_code_enabled:
            problems.append("Session did not take options['dump_code']")
        with torch.inference_mode():
            eager = session.make_path("eager")
            compiled = session.make_path("compile")
            cpp = session.make_path("compile:cpp-wrapper")
            dynamo = dynamo_graphs_of(torch, op, session.user_model, session.inputs)
            results = {}
            for name in ("eager", "compile", "compile:cpp-wrapper", "aoti"):
                out = os.path.join(out_root, "mlp", name.replace(":", "_"))
                results[name] = result = session.dump_code(name, out)
                check_listing(problems, name, result, out)
                if "graph.py" not in result["files"] or "linear" not in read(os.path.join(out, "graph.py")):
                    problems.append(f"{name}: no graph.py naming linear (files {result['files']})")
                if "graph.dot" not in result["files"]:
                    problems.append(f"{name}: no graph.dot")
                    continue
                graphs = dynamo if name.startswith("compile") else [session.program.graph_module.graph]
                check_dot(problems, name, read(os.path.join(out, "graph.dot")), graphs)
                svg = os.path.join(out, "graph.svg")
                if have_dot:
                    if "graph.svg" not in result["files"] or not os.path.isfile(svg) or \
                            "<svg" not in read(svg)[:2000]:
                        problems.append(f"{name}: dot is installed but there is no SVG graph.svg "
                                        f"(notes {result['notes']})")
                elif os.path.exists(svg):
                    problems.append(f"{name}: graph.svg written without dot")
                if name.startswith("compile"):
                    if result["graph_label"] != "the FX graph Dynamo captured":
                        problems.append(f"{name}: graph_label {result['graph_label']!r}")
                    if result["code_files"] != ["code/output_code.py"]:
                        problems.append(f"{name}: code_files {result['code_files']}, expected code/output_code.py")
                        continue
                    code = read(os.path.join(out, "code", "output_code.py"))
                    if "cpp_fused_" not in code:
                        problems.append(f"{name}: code/output_code.py has no cpp_fused_ kernel")
                    # What torch 2.14.1 writes: the Python wrapper binds each kernel in Python; the
                    # cpp_wrapper build's .py embeds the C++ wrapper with the kernels' definitions.
                    pattern = r'extern "C"\s+void\s+cpp_fused_\w+\([^;]*$' if name == "compile:cpp-wrapper" \
                        else r"^cpp_fused_\w+ = async_compile\.cpp_pybinding\("
                    if not re.search(pattern, code, re.MULTILINE):
                        problems.append(f"{name}: code/output_code.py has no line matching {pattern}")
                    if "post_grad_graph.txt" not in result["files"] or \
                            not read(os.path.join(out, "post_grad_graph.txt")).strip():
                        problems.append(f"{name}: post_grad_graph.txt missing or empty")
                    if result["notes"] != ([] if have_dot else [op.GRAPHVIZ_MISSING]):
                        problems.append(f"{name}: unexpected notes {result['notes']}")
                else:
                    if result["code_files"]:
                        problems.append(f"{name}: Python wrote code files {result['code_files']}")
                    if not result["graph_label"].startswith("the graph torch.export captured"):
                        problems.append(f"{name}: graph_label {result['graph_label']!r}")
            if results["compile"]["code_files"] and results["compile:cpp-wrapper"]["code_files"] and read(
                    os.path.join(out_root, "mlp", "compile", "code", "output_code.py")) == read(
                    os.path.join(out_root, "mlp", "compile_cpp-wrapper", "code", "output_code.py")):
                problems.append("compile and compile:cpp-wrapper dumped the same output code")

            # DOT escaping: dot parses a label with quotes, backslashes and a newline.
            quoted = op._dot_quote('say "hi"\\n\nnext <b>')
            if quoted != '"say \\"hi\\"\\\\n\\nnext <b>"':
                problems.append(f"_dot_quote gave {quoted}")
            if have_dot:
                done = subprocess.run(["dot", "-Tsvg"], input=f"digraph g {{ a [label={quoted}]; }}",
                                      capture_output=True, text=True, timeout=60)
                if done.returncode != 0 or "say &quot;hi&quot;" not in done.stdout:
                    problems.append(f"dot did not take an escaped label: {done.stderr.strip()[:200]}")

            # Without graphviz: a note, graph.dot, no graph.svg.
            real_which = shutil.which
            shutil.which = lambda cmd, *a, **k: None if cmd == "dot" else real_which(cmd, *a, **k)
            try:
                out = os.path.join(out_root, "no-dot")
                result = session.dump_code("eager", out)
            finally:
                shutil.which = real_which
            if not any("graphviz is not installed" in n for n in result["notes"]):
                problems.append(f"without dot, no note says graphviz is missing: {result['notes']}")
            if "graph.svg" in result["files"] or os.path.exists(os.path.join(out, "graph.svg")):
                problems.append("without dot, graph.svg was written")
            if "graph.dot" not in result["files"]:
                problems.append("without dot, graph.dot was not written")

            # Unknown paths, paths not built; no trace for eager.
            for name in ("compile:reduce-overhead", "aoti:python", "nonsense", "compile/graph"):
                try:
                    session.dump_code(name, os.path.join(out_root, "never"))
                    problems.append(f"dump_code({name!r}) did not raise")
                except op.OhprofError as e:
                    if e.code != op.USAGE_ERROR or "\n" in e.message:
                        problems.append(f"dump_code({name!r}) raised code {e.code}: {e.message!r}")
            if os.path.exists(os.path.join(out_root, "never")):
                problems.append("dump_code of a path not built made its folder")
            result = session.trace_compile("eager", os.path.join(out_root, "eager-trace"))
            if result["files"] or not any(n.startswith("no compile trace for eager") for n in result["notes"]) \
                    or os.path.exists(os.path.join(out_root, "eager-trace")):
                problems.append(f"trace_compile('eager') wrote something or gave no note: {result}")

            # The compile trace: a separate re-compile, after which the measured path is unchanged.
            state = session.compiled["compile"]
            measured_graphs = state.compiled_graphs(torch, session.inputs)
            measured_keys = [g["cache_key"] for g in measured_graphs]
            measured_ids = [g["id"] for g in measured_graphs]
            out = os.path.join(out_root, "mlp", "compile")
            result = session.trace_compile("compile", out)
            check_listing(problems, "trace_compile(compile)", result, out)
            logs = [f for f in result["files"] if re.fullmatch(r"trace/dedicated_log_torch_trace_\w+\.log", f)]
            if len(logs) != 1:
                problems.append(f"trace_compile(compile) wrote {len(logs)} trace logs: {result['files']}")
            else:
                log = read(os.path.join(out, logs[0]))
                for record in ("dynamo_output_graph", "inductor_output_code"):
                    if f'"{record}"' not in log:
                        problems.append(f"the trace log has no {record} record")
            if any("cache key differs" in n for n in result["notes"]):
                problems.append(f"the re-compile's cache key is not the measured one: {result['notes']}")
            if op.find_tlparse():
                if "trace/tlparse/index.html" not in result["files"]:
                    problems.append(f"tlparse is installed but wrote no index.html: {result['notes']}")
            elif not any("tlparse is not installed" in n for n in result["notes"]):
                problems.append(f"no tlparse, and no note says so: {result['notes']}")
            if torch._logging._internal.trace_log.handlers and not os.environ.get("TORCH_TRACE"):
                problems.append("trace_compile left a handler on torch's trace log")
            after_keys, again = op.calling_compiled_graphs(lambda: state.fn(*session.inputs))
            # The same objects, not merely the same cache keys (the re-compile has those too, by design).
            if [g["id"] for g in after_keys] != measured_ids:
                problems.append("after trace_compile, the measured compile path runs another compiled graph")
            if not torch.equal(again, compiled.outputs[0]):
                problems.append("after trace_compile, the measured compile path gives other outputs")
            compiled.step()
            for path in (compiled, cpp):
                check = session.compare(eager.outputs, path.outputs)
                if not check["passed"]:
                    problems.append(f"{path.name} differs from eager: {check['detail']}")

        # A path compiled without dump_code: a note, and still its output code.
        plain = op.Session(dict(mlp))
        with torch.inference_mode():
            plain.make_path("compile")
            out = os.path.join(out_root, "plain")
            result = plain.dump_code("compile", out)
        check_listing(problems, "compile without dump_code", result, out)
        if not any("without dump_code" in n for n in result["notes"]) or "graph.py" in result["files"]:
            problems.append(f"compile without dump_code: no note, or a graph.py: {result}")
        if "code/output_code.py" not in result["files"]:
            problems.append(f"compile without dump_code: no output code: {result['files']}")

        # A graph break: two Dynamo graphs, two Inductor graphs.
        broken = op.Session({"model": "code_dump_check:graph_break_model", "inputs": [([2, 16], "float32")],
                             "device": "cpu", "cache_dir": cache_dir, "dump_code": True})
        with torch.inference_mode():
            b_eager = broken.make_path("eager")
            b_compiled = broken.make_path("compile")
            check = broken.compare(b_eager.outputs, b_compiled.outputs)
            if not check["passed"]:
                problems.append(f"graph-break model: compile differs from eager: {check['detail']}")
            b_dynamo = dynamo_graphs_of(torch, op, broken.user_model, broken.inputs)
            out = os.path.join(out_root, "broken", "compile")
            result = broken.dump_code("compile", out)
        check_listing(problems, "graph-break compile", result, out)
        recorded = broken.compiled["compile"].dynamo_graphs or []
        if len(recorded) != 2 or len(b_dynamo) != 2:
            problems.append(f"graph-break model: {len(recorded)} Dynamo graphs recorded "
                            f"({len(b_dynamo)} captured independently), expected 2")
        if result["code_files"] != ["code/output_code_0.py", "code/output_code_1.py"]:
            problems.append(f"graph-break model: code files {result['code_files']}, expected output_code_0/1.py")
        if "graph.py" in result["files"]:
            headers = re.findall(r"^# ---- Dynamo graph (\d) of 2: (\S+)", read(os.path.join(out, "graph.py")),
                                 re.MULTILINE)
            if [h[0] for h in headers] != ["0", "1"] or any(not h[1].startswith("__compiled_fn") for h in headers):
                problems.append(f"graph-break model: graph.py headers {headers}")
        else:
            problems.append("graph-break model: no graph.py")
        if "graph.dot" in result["files"]:
            text = read(os.path.join(out, "graph.dot"))
            if text.count("subgraph cluster_") != 2:
                problems.append("graph-break model: graph.dot does not have two clusters")
            check_dot(problems, "graph-break compile", text, b_dynamo)
        post = read(os.path.join(out, "post_grad_graph.txt")) if "post_grad_graph.txt" in result["files"] else ""
        if post.count("# ---- Inductor graph") != 2:
            problems.append("graph-break model: post_grad_graph.txt does not hold two graphs")
    finally:
        shutil.rmtree(out_root, ignore_errors=True)
    for problem in problems:
        print("FAIL: " + problem)
    if problems:
        return 1
    print(f"OK: dump_code writes graph.py, graph.dot{' and graph.svg' if have_dot else ''}, the post-grad graph and "
          f"the output code of compile and compile:cpp-wrapper, the exported graph for eager and aoti, two graphs "
          f"for a graph break; trace_compile writes a trace{' and a tlparse report' if op.find_tlparse() else ''} "
          f"and leaves the measured path alone ({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
