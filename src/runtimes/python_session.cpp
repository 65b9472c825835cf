// The only translation unit that includes Python and pybind11 headers.
#include "ohprof/runtimes/python_session.hpp"

#include <torch/csrc/utils/pybind.h>  // Python.h, pybind11 and the at::Tensor caster
#include <c10/core/InferenceMode.h>

#include <cstdlib>
#include <sstream>

#include "torch_tensors.hpp"

namespace py = pybind11;

// torch's include folder ships its own fmt, which shadows the one ohprof links: this file uses none.
namespace ohprof {
namespace {

// Turns the Python exception being handled into an Error. Call with the GIL held.
Error python_error(py::error_already_set& e, ExitCode fallback, const std::string& doing) {
  try {
    py::object value = e.value();
    if (py::hasattr(value, "code") && py::hasattr(value, "message") &&
        py::str(py::type::of(value).attr("__name__")).cast<std::string>() == "OhprofError") {
      return make_error(static_cast<ExitCode>(value.attr("code").cast<int>()), value.attr("message").cast<std::string>());
    }
    const std::string type = py::str(py::type::of(value).attr("__name__")).cast<std::string>();
    return make_error(fallback, doing + ": " + type + ": " + first_line(py::str(value).cast<std::string>()));
  } catch (const std::exception& inner) {
    return make_error(fallback, doing + ": " + first_line(e.what()));
  }
}

// ohprof runs inside the user's Python (python/ohprof/_measure.py imports torch, then this extension,
// and calls run_cli with the GIL released): the interpreter is already there, sys.argv is ohprof's
// command line, and sys.executable is the user's Python, which Inductor uses to start its compile
// workers. This imports the paths' Python side once; every later use takes the GIL itself.
Status ensure_python() {
  static std::optional<Status> ready;
  if (ready.has_value()) return *ready;
  if (Py_IsInitialized() == 0) {
    ready = make_error(ExitCode::internal_error,
                       "ohprof's measuring side runs inside Python (python -c 'from ohprof._measure import main; "
                       "main()' ...), not on its own; run it through the ohprof command");
    return *ready;
  }
  py::gil_scoped_acquire gil;
  Status outcome = ok_status();
  try {
    py::module_::import("ohprof._paths");
  } catch (py::error_already_set& e) {
    std::string python = "python";
    try {
      python = py::module_::import("sys").attr("executable").cast<std::string>();
    } catch (py::error_already_set&) {
    }
    outcome = python_error(e, ExitCode::internal_error, "Python '" + python + "' cannot import ohprof._paths");
  }
  ready = outcome;
  return outcome;
}

TensorBundlePtr to_bundle(const py::handle& tensors) {
  auto bundle = std::make_shared<TensorBundle>();
  for (const auto& item : tensors) bundle->tensors.push_back(item.cast<at::Tensor>());
  return bundle;
}

// [(shape, dtype name)] from ohprof/_paths.py as InputSpecs; `what` names them in an error. GIL held.
Result<std::vector<InputSpec>> to_specs(const py::handle& pairs, const std::string& what) {
  std::vector<InputSpec> specs;
  for (const auto& [shape, dtype] : pairs.cast<std::vector<std::pair<std::vector<std::int64_t>, std::string>>>()) {
    auto parsed = parse_dtype(dtype);
    if (!parsed.ok()) return parsed.error().with_context(what);
    specs.push_back(InputSpec{shape, *parsed});
  }
  return specs;
}

py::list to_list(const TensorBundle& bundle) {
  py::list list;
  for (const auto& tensor : bundle.tensors) list.append(py::cast(tensor));
  return list;
}

// ohprof/_paths.py's PythonPath.execution (a dict) as ExecutionFacts. GIL held.
ExecutionFacts to_facts(const py::handle& execution) {
  ExecutionFacts facts;
  const py::dict d = py::reinterpret_borrow<py::dict>(execution);
  facts.dynamo = d["dynamo"].cast<bool>();
  if (!d["graphs"].is_none()) facts.graphs = d["graphs"].cast<std::int64_t>();
  for (const auto& [reason, count] : d["graph_breaks"].cast<std::vector<std::pair<std::string, std::int64_t>>>()) {
    facts.graph_breaks.push_back(GraphBreak{reason, count});
  }
  facts.cuda_graphs_expected = d["cuda_graphs_expected"].cast<bool>();
  facts.cuda_graph_skip_reason = d["cuda_graph_skip_reason"].cast<std::string>();
  facts.device = d["device"].cast<std::string>();
  facts.unobserved = d["unobserved"].cast<std::string>();
  if (!d["fx_cache_hits"].is_none()) facts.fx_cache_hits = d["fx_cache_hits"].cast<std::int64_t>();
  if (!d["fx_cache_misses"].is_none()) facts.fx_cache_misses = d["fx_cache_misses"].cast<std::int64_t>();
  return facts;
}

// One of several threads calling a Python path (compare --threads), as a Python serving thread does: it
// holds a thread state of its own from begin() to end() and takes the GIL for each call; inference mode,
// which is thread-local, is entered on its thread as the measuring thread has it.
class PythonThreadCaller final : public ThreadCaller {
 public:
  PythonThreadCaller(std::string name, py::object step) : m_name(std::move(name)), m_step(std::move(step)) {}
  ~PythonThreadCaller() override {
    py::gil_scoped_acquire gil;
    m_step = py::object();
  }
  void begin() override {
    m_gil_state = PyGILState_Ensure();
    m_mode.emplace();
    m_saved = PyEval_SaveThread();
  }
  Status call() override {
    PyEval_RestoreThread(m_saved);
    Status status = ok_status();
    try {
      m_step();
    } catch (py::error_already_set& e) {
      status = python_error(e, ExitCode::model_error, "path " + m_name + " failed in a caller thread");
    }
    m_saved = PyEval_SaveThread();
    return status;
  }
  void end() override {
    PyEval_RestoreThread(m_saved);
    m_mode.reset();
    PyGILState_Release(m_gil_state);
  }

 private:
  std::string m_name;
  py::object m_step;
  PyGILState_STATE m_gil_state{};
  PyThreadState* m_saved = nullptr;
  std::optional<c10::InferenceMode> m_mode;
};

class PythonPathRunner final : public PathRunner {
 public:
  PythonPathRunner(std::string name, py::object path, PathSource source, std::int64_t build_ns, TensorBundlePtr outputs,
                   ExecutionFacts facts)
      : m_name(std::move(name)),
        m_step(path.attr("step")),
        m_enter(path.attr("enter")),
        m_leave(path.attr("leave")),
        m_caller(path.attr("caller")),
        m_probe(path.attr("probe")),
        m_source(source),
        m_build_ns(build_ns),
        m_outputs(std::move(outputs)),
        m_facts(std::move(facts)) {}
  ~PythonPathRunner() override {
    m_gil.reset();
    py::gil_scoped_acquire gil;
    m_step = py::object();
    m_enter = py::object();
    m_leave = py::object();
    m_caller = py::object();
    m_probe = py::object();
  }

  [[nodiscard]] std::string name() const override { return m_name; }
  [[nodiscard]] std::int64_t build_ns() const override { return m_build_ns; }
  [[nodiscard]] TensorBundlePtr first_outputs() const override { return m_outputs; }
  [[nodiscard]] PathSource source() const override { return m_source; }
  [[nodiscard]] ExecutionFacts execution_facts() const override { return m_facts; }
  // The GIL, then the path's own hook (a variant's compiler stance), outside the timed region.
  void enter() override {
    m_gil.emplace();
    call_hook(m_enter);
  }
  void leave() override {
    call_hook(m_leave);
    m_gil.reset();
  }

  // ohprof/_paths.py's PythonPath.probe: "compiled", "guards-missed", "no-frame", "no-graph", or why it
  // cannot tell ("no-hook", "limit-in-probe"); a call that raises is the check's evidence missing, not a
  // failed measurement.
  CompiledCallProbe compiled_call() override {
    py::gil_scoped_acquire gil;
    if (m_probe.is_none()) return {};
    CompiledCallProbe probe;
    try {
      probe = probe_from_answer(m_probe().cast<std::string>());
    } catch (py::error_already_set& e) {
      probe.unknown = ProbeUnknown::probe_failed;
      probe.error = python_error(e, ExitCode::model_error, "the probe's call raised").message;
    } catch (const py::cast_error& e) {
      probe.unknown = ProbeUnknown::probe_failed;
      probe.error = std::string("the probe answered no text: ") + first_line(e.what());
    }
    return probe;
  }

  [[nodiscard]] bool holds_gil() const override { return true; }
  // ohprof/_paths.py's PythonPath.caller: a step on its own copy of the inputs (None for a variant).
  Result<std::unique_ptr<ThreadCaller>> thread_caller() override {
    py::gil_scoped_acquire gil;
    if (m_caller.is_none()) return PathRunner::thread_caller();
    try {
      return std::unique_ptr<ThreadCaller>(std::make_unique<PythonThreadCaller>(m_name, m_caller()));
    } catch (py::error_already_set& e) {
      return python_error(e, ExitCode::model_error, "path " + m_name + ": making a caller thread's inputs");
    }
  }

  Status run_once() override {
    std::optional<py::gil_scoped_acquire> local;
    if (!m_gil.has_value()) local.emplace();
    if (m_hook_error) return *m_hook_error;
    try {
      m_step();
      return ok_status();
    } catch (py::error_already_set& e) {
      return python_error(e, ExitCode::model_error, "path " + m_name + " failed");
    }
  }

 private:
  // A failing hook fails the next iteration (hooks return nothing to the harness); the first error is
  // kept. leave() runs even after a failure: it puts back what enter() changed. GIL held.
  void call_hook(const py::object& hook) {
    if (hook.is_none()) return;
    try {
      hook();
    } catch (py::error_already_set& e) {
      if (!m_hook_error) m_hook_error = python_error(e, ExitCode::model_error, "path " + m_name + ": its set-up hook failed");
    }
  }

  std::string m_name;
  py::object m_step;
  py::object m_enter;
  py::object m_leave;
  py::object m_caller;
  py::object m_probe;
  PathSource m_source = PathSource::module;
  std::optional<Error> m_hook_error;
  std::int64_t m_build_ns = 0;
  TensorBundlePtr m_outputs;
  ExecutionFacts m_facts;
  std::optional<py::gil_scoped_acquire> m_gil;
};

class PythonModelSession final : public ModelSession {
 public:
  PythonModelSession(py::object session, ArtifactSummary artifacts, std::vector<InputSpec> input_specs,
                     TensorBundlePtr inputs)
      : m_session(std::move(session)),
        m_artifacts(std::move(artifacts)),
        m_input_specs(std::move(input_specs)),
        m_inputs(std::move(inputs)) {
    // Every path runs in inference mode, entered once here (thread-local, shared by LibTorch and
    // Python's torch in this process), so no path pays for a context manager per call.
    m_inference.emplace();
  }
  ~PythonModelSession() override {
    m_inference.reset();
    py::gil_scoped_acquire gil;
    m_session = py::object();
  }

  [[nodiscard]] ArtifactSummary artifacts() const override { return m_artifacts; }
  [[nodiscard]] std::vector<InputSpec> input_specs() const override { return m_input_specs; }
  [[nodiscard]] TensorBundlePtr inputs() const override { return m_inputs; }

  Result<std::unique_ptr<PathRunner>> make_python_path(const std::string& name) override {
    py::gil_scoped_acquire gil;
    try {
      py::object path = m_session.attr("make_path")(name);
      const auto compile_s = path.attr("compile_s").cast<double>();
      const auto source_name = path.attr("source").cast<std::string>();
      const std::optional<PathSource> source = parse_path_source(source_name);
      if (!source) {
        return make_error(ExitCode::internal_error,
                          "ohprof/_paths.py gave path " + name + " the unknown source '" + source_name + "'");
      }
      return std::unique_ptr<PathRunner>(std::make_unique<PythonPathRunner>(
          name, path, *source, static_cast<std::int64_t>(compile_s * 1e9), to_bundle(path.attr("outputs")),
          to_facts(path.attr("execution"))));
    } catch (py::error_already_set& e) {
      return python_error(e, ExitCode::model_error, "building path " + name);
    } catch (const py::cast_error& e) {
      return make_error(ExitCode::internal_error,
                        "ohprof/_paths.py's path " + name + " has an unexpected execution record: " + e.what());
    }
  }

  std::vector<CompileEvent> compile_events() override {
    py::gil_scoped_acquire gil;
    std::vector<CompileEvent> events;
    try {
      for (const auto& item : m_session.attr("compile_events")()) {
        const auto [kind, id, start, end, reason] =
            item.cast<std::tuple<std::string, std::string, std::int64_t, std::int64_t, std::string>>();
        events.push_back(CompileEvent{parse_compile_event_kind(kind).value_or(CompileEventKind::dynamo_compile), id,
                                      start, end, reason});
      }
    } catch (py::error_already_set& e) {
      e.restore();
      PyErr_Clear();  // the events are a check's evidence: none rather than a failed measurement
    } catch (const py::cast_error&) {
    }
    return events;
  }

  Result<ColdStartSetup> cold_start_setup(const std::string& dir, bool with_module) override {
    py::gil_scoped_acquire gil;
    try {
      py::tuple setup = m_session.attr("cold_start_setup")(dir, with_module);
      return ColdStartSetup{setup[0].cast<std::vector<std::string>>(), setup[1].cast<std::string>(),
                            setup[2].cast<std::string>()};
    } catch (py::error_already_set& e) {
      return python_error(e, ExitCode::model_error, "preparing the cold-start processes");
    }
  }

  PathOutputCheck check_outputs(const std::string& reference_name, const TensorBundle& reference,
                            const TensorBundle& outputs) override {
    py::gil_scoped_acquire gil;
    PathOutputCheck check;
    check.reference = reference_name;
    try {
      py::dict result = m_session.attr("compare")(to_list(reference), to_list(outputs));
      check.passed = result["passed"].cast<bool>();
      if (!result["max_abs_diff"].is_none()) check.max_abs_diff = result["max_abs_diff"].cast<double>();
      if (!result["max_rel_diff"].is_none()) check.max_rel_diff = result["max_rel_diff"].cast<double>();
      if (!result["atol"].is_none()) check.atol = result["atol"].cast<double>();
      if (!result["rtol"].is_none()) check.rtol = result["rtol"].cast<double>();
      check.detail = result["detail"].cast<std::string>();
    } catch (py::error_already_set& e) {
      check.passed = false;
      check.detail = python_error(e, ExitCode::internal_error, "comparing outputs").message;
    }
    return check;
  }

  Result<CodeDumpPiece> dump_code(const std::string& name, const std::string& dir) override {
    return dump_piece("dump_code", name, dir);
  }
  Result<CodeDumpPiece> trace_compile(const std::string& name, const std::string& dir) override {
    return dump_piece("trace_compile", name, dir);
  }

 private:
  Result<CodeDumpPiece> dump_piece(const char* method, const std::string& name, const std::string& dir) {
    py::gil_scoped_acquire gil;
    try {
      py::dict result = m_session.attr(method)(name, dir);
      CodeDumpPiece piece;
      piece.files = result["files"].cast<std::vector<std::string>>();
      piece.notes = result["notes"].cast<std::vector<std::string>>();
      piece.code_files = result["code_files"].cast<std::vector<std::string>>();
      piece.graph_label = result["graph_label"].cast<std::string>();
      return piece;
    } catch (py::error_already_set& e) {
      return python_error(e, ExitCode::output_error, "--dump-code of path " + name);
    } catch (const py::cast_error& e) {
      return make_error(ExitCode::internal_error, std::string("ohprof/_paths.py's ") + method + " for " + name +
                                                      " returned an unexpected value: " + e.what());
    }
  }

  py::object m_session;
  ArtifactSummary m_artifacts;
  std::vector<InputSpec> m_input_specs;
  TensorBundlePtr m_inputs;
  std::optional<c10::InferenceMode> m_inference;
};

std::optional<std::int64_t> seconds_to_ns(const py::dict& timings, const char* key) {
  if (!timings.contains(key)) return std::nullopt;
  return static_cast<std::int64_t>(timings[key].cast<double>() * 1e9);
}

}  // namespace

Result<std::unique_ptr<ModelSession>> ModelSession::open(const ModelSessionOptions& options) {
  OHPROF_RETURN_IF_ERROR(ensure_python());
  py::gil_scoped_acquire gil;
  try {
    py::module_ helpers = py::module_::import("ohprof._paths");
    py::dict spec;
    spec["model"] = options.model;
    spec["exported"] = options.exported;
    spec["aoti"] = options.aoti;
    // Shapes and dtype names, not the --input text: the boundary carries parsed specs both ways.
    py::list given;
    for (const auto& input : options.inputs) given.append(py::make_tuple(input.shape, dtype_name(input.dtype)));
    spec["inputs"] = given;
    spec["inputs_file"] = options.inputs_file;
    spec["device"] = to_string(options.device);
    spec["seed"] = options.seed;
    spec["cache_dir"] = options.cache_dir;
    spec["kernel_profile"] = options.kernel_profile;
    spec["compile_source"] = to_string(options.compile_source);
    spec["dump_code"] = options.dump_code;
    spec["export_needed"] = options.export_needed;
    py::list shapes;
    for (const auto& shape : options.inputs_file_shapes) shapes.append(py::cast(shape));
    spec["inputs_file_shapes"] = shapes;
    py::object session = helpers.attr("Session")(spec);

    ArtifactSummary artifacts;
    artifacts.cached = session.attr("cached").cast<bool>();
    py::dict timings = session.attr("timings");
    if (!artifacts.cached) {
      artifacts.export_ns = seconds_to_ns(timings, "export_s");
      artifacts.aoti_compile_ns = seconds_to_ns(timings, "aoti_compile_s");
    }
    artifacts.exported_program = session.attr("exported_path").cast<std::string>();
    artifacts.export_error = session.attr("export_error").cast<std::string>();
    artifacts.aoti_error = session.attr("aoti_error").cast<std::string>();
    artifacts.aoti_package = session.attr("aoti_package").cast<std::string>();
    artifacts.inputs_file_digest = session.attr("inputs_digest").cast<std::string>();
    OHPROF_ASSIGN_OR_RETURN(auto specs, to_specs(session.attr("specs"), "an input of the exported program"));
    // The AOTI runner's flat tensors (keyword inputs in the package's order), shared with every C++ path.
    TensorBundlePtr inputs = to_bundle(session.attr("flat_inputs"));
    return std::unique_ptr<ModelSession>(
        std::make_unique<PythonModelSession>(std::move(session), std::move(artifacts), std::move(specs), std::move(inputs)));
  } catch (py::error_already_set& e) {
    return python_error(e, ExitCode::model_error, "preparing the model");
  }
}

Result<LoadedInputs> load_inputs_file(const std::string& path) {
  OHPROF_RETURN_IF_ERROR(ensure_python());
  py::gil_scoped_acquire gil;
  try {
    py::module_ helpers = py::module_::import("ohprof._paths");
    py::tuple loaded = helpers.attr("load_inputs_file")(py::module_::import("torch"), path, "cpu");
    OHPROF_ASSIGN_OR_RETURN(auto specs, to_specs(loaded[1], "an input of --inputs"));
    return LoadedInputs{std::move(specs), to_bundle(loaded[0]), loaded[2].cast<std::string>()};
  } catch (py::error_already_set& e) {
    return python_error(e, ExitCode::input_mismatch, "reading --inputs '" + path + "'");
  }
}

Result<InputsFileSpecs> inputs_file_specs(const std::string& path) {
  OHPROF_RETURN_IF_ERROR(ensure_python());
  py::gil_scoped_acquire gil;
  try {
    py::module_ helpers = py::module_::import("ohprof._paths");
    py::tuple read = helpers.attr("inputs_file_specs")(py::module_::import("torch"), path);
    OHPROF_ASSIGN_OR_RETURN(auto specs, to_specs(read[0], "an input of --inputs"));
    return InputsFileSpecs{std::move(specs), read[1].cast<std::string>()};
  } catch (py::error_already_set& e) {
    return python_error(e, ExitCode::input_mismatch, "reading --inputs '" + path + "'");
  }
}

Status render_sweep_page(const std::string& report_path, const std::string& page_path) {
  OHPROF_RETURN_IF_ERROR(ensure_python());
  py::gil_scoped_acquire gil;
  try {
    py::module_::import("ohprof._sweep_plot").attr("write_page")(report_path, page_path);
    return ok_status();
  } catch (py::error_already_set& e) {
    return python_error(e, ExitCode::output_error, "drawing the sweep's page '" + page_path + "'");
  }
}

}  // namespace ohprof

namespace ohprof {

PyObject* make_measure_module(MeasureEntry entry) {
  static MeasureEntry s_entry;
  s_entry = std::move(entry);
  static PyModuleDef definition{PyModuleDef_HEAD_INIT, "_ohprof_measure",
                                "ohprof's measuring side: the C++ session, harness, collectors and runtimes",
                                -1, nullptr, nullptr, nullptr, nullptr, nullptr};
  try {
    py::module_ module = py::module_::create_extension_module("_ohprof_measure", nullptr, &definition);
    // run_cli(argv: list[str]) -> int: the whole command line, the GIL released while it runs (the paths
    // take it back for each Python call; the AOTI path runs without it).
    module.def(
        "run_cli",
        [](const std::vector<std::string>& argv) {
          py::gil_scoped_release release;
          return s_entry(argv, nullptr);
        },
        py::arg("argv"));
    module.def(
        "run_command",
        [](const std::vector<std::string>& argv) {
          std::string error;
          int code = 0;
          {
            py::gil_scoped_release release;
            code = s_entry(argv, &error);
          }
          return py::make_tuple(code, error);
        },
        py::arg("argv"));
    return module.release().ptr();
  } catch (py::error_already_set& e) {
    e.restore();
    return nullptr;
  }
}

}  // namespace ohprof
