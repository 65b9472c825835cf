#pragma once
// The CPython adapter. ohprof's measuring side is a Python extension module (_ohprof_measure) running
// in the user's own interpreter (python/ohprof/_measure.py), with python/ohprof/_paths.py as the paths'
// Python side, so torch.compile runs in the process that runs the AOTI package and shares its LibTorch,
// CUDA context and input tensors. Only src/runtimes/python_session.cpp includes Python or pybind11
// headers; Python exceptions become Errors there.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/error.hpp"
#include "ohprof/harness/path_runner.hpp"
#include "ohprof/model/code_dump.hpp"
#include "ohprof/model/input_spec.hpp"
#include "ohprof/model/report.hpp"

struct _object;  // CPython's PyObject, named without including Python.h

namespace ohprof {

struct ModelSessionOptions {
  std::string model;      // module:factory, or empty
  std::string exported;   // a saved torch.export program, or empty
  std::string aoti;       // a prebuilt AOTI package, or empty (ohprof builds one)
  std::vector<InputSpec> inputs;    // --input, parsed; empty: those the exported program records
  std::string inputs_file;          // --inputs: the user's tensors (torch.save), used as given
  DeviceKind device = DeviceKind::cpu;
  std::uint64_t seed = 0;
  std::string cache_dir;            // where built artifacts are kept
  bool kernel_profile = false;      // compile CPU kernels with cpp.enable_kernel_profile
  PathSource compile_source = PathSource::module;  // eager and torch.compile: the user's module or the program's
  bool dump_code = false;           // --dump-code: keep Dynamo's graphs while compiling (docs/code-dump.md)
  bool export_needed = true;        // an asked path needs torch.export (aoti, aoti:python, a program source)
  // sweep --inputs: the shape each of the file's tensors is resized to (docs/sweep.md, "Your own
  // inputs"); empty: as saved.
  std::vector<std::vector<std::int64_t>> inputs_file_shapes;
};

// compare --cold-start (docs/metrics.md, "Cold start"): how to start one fresh process of a path.
struct ColdStartSetup {
  // The command, to be followed by PATH CACHE CACHE_DIR ARTIFACTS_FILE RESULT_FILE: PATH a compare path,
  // CACHE "none", "cold", "warm", "artifacts" or "fill" (a cold start that also saves the portable cache
  // artifacts into ARTIFACTS_FILE), CACHE_DIR the process's Inductor cache folder, RESULT_FILE where it
  // writes what it measured (python/ohprof/_cold_start.py).
  std::vector<std::string> command;
  // Why the portable cache artifacts cannot be used with this torch ("" : they can).
  std::string artifacts_unavailable;
  // Why no process of a path that starts from the module (eager, torch.compile) can be started: the Python
  // API's model object cannot be pickled for one ("" : they can). The AOTI paths need only the package.
  std::string module_unavailable;
};

class ModelSession {
 public:
  // Imports the paths' Python side (once per process), builds or loads the artifacts, makes the inputs.
  // Needs the interpreter this extension runs in.
  static Result<std::unique_ptr<ModelSession>> open(const ModelSessionOptions& options);
  virtual ~ModelSession() = default;

  // Where the artifacts came from and what building them cost (`model` is left to the caller);
  // export_error set when torch.export failed on a model that runs eagerly (no program, no package).
  [[nodiscard]] virtual ArtifactSummary artifacts() const = 0;
  [[nodiscard]] virtual std::vector<InputSpec> input_specs() const = 0;  // what inputs() holds
  [[nodiscard]] virtual TensorBundlePtr inputs() const = 0;
  // "aoti:python", "eager", "compile", "compile:reduce-overhead", "compile:max-autotune-no-cudagraphs",
  // "compile:cpp-wrapper", or a variant "<path>/<variant>" of a compiled path made before
  // (model/explanation.hpp, peel_chain).
  virtual Result<std::unique_ptr<PathRunner>> make_python_path(const std::string& name) = 0;
  virtual PathOutputCheck check_outputs(const std::string& reference_name, const TensorBundle& reference,
                                    const TensorBundle& outputs) = 0;
  // --dump-code, after measuring (docs/code-dump.md): path `name`'s graph (and, for a compiled path, its
  // generated code) written into `dir`; then, for a compiled path, a separate re-compile of it traced
  // for tlparse into `dir`/trace. Errors: a path not built (usage_error), a folder not writable.
  virtual Result<CodeDumpPiece> dump_code(const std::string& name, const std::string& dir) = 0;
  virtual Result<CodeDumpPiece> trace_compile(const std::string& name, const std::string& dir) = 0;
  // Every compile event of this process since the session opened (Dynamo compiles, autotuning, CUDA-graph
  // recordings and eager runs; model/execution_check.hpp), on CLOCK_MONOTONIC, in the order they began.
  virtual std::vector<CompileEvent> compile_events() = 0;
  // compare --cold-start: writes into `dir` what a fresh process needs (the inputs, the reference output
  // made by eager here, the module's weights, the model's spec) and says how to start one. `with_module`:
  // a path whose process starts from the module (eager, torch.compile) is asked; without one, a Python API
  // model object is not pickled for them.
  virtual Result<ColdStartSetup> cold_start_setup(const std::string& dir, bool with_module) = 0;
};

// The sweep's page (docs/sweep.md, "Outputs"): python/ohprof/_sweep_plot.py's write_page(report_path,
// page_path), in the interpreter this extension runs in. Its ValueError or a missing matplotlib
// becomes an output_error.
Status render_sweep_page(const std::string& report_path, const std::string& page_path);

// --inputs FILE for `run`: the user's torch.save'd tensors (python/ohprof/_paths.py load_inputs_file), on
// the CPU, and what they are. Errors: a missing file (file_not_found); one that does not load, holds
// anything but tensors, or keyword inputs (input_mismatch).
struct LoadedInputs {
  std::vector<InputSpec> specs;
  TensorBundlePtr tensors;
  std::string digest;  // of the tensors' values (RunConfig::inputs_file_digest)
};
Result<LoadedInputs> load_inputs_file(const std::string& path);

// sweep --inputs FILE: what the file's tensors are (the positional ones, then the keyword tensors in the
// file's order; python/ohprof/_paths.py inputs_file_specs) and their values' digest, with the same errors
// as load_inputs_file but keyword inputs allowed.
struct InputsFileSpecs {
  std::vector<InputSpec> specs;
  std::string digest;  // of the tensors' values: --resume tells two sets of values apart, whatever the file
};
Result<InputsFileSpecs> inputs_file_specs(const std::string& path);

// The extension module's body (src/cli/measure_module.cpp's PyInit__ohprof_measure returns it): a module
// whose run_cli(argv) calls `entry` with the GIL released and returns its exit code, and whose
// run_command(argv) does the same but returns (exit code, error line or "") and prints no error line
// (the Python API). Null with a Python error set when the module cannot be made.
using MeasureEntry = std::function<int(const std::vector<std::string>& argv, std::string* error_out)>;
_object* make_measure_module(MeasureEntry entry);

}  // namespace ohprof
