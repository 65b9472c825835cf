#pragma once
// One deployment path, ready to run: the AOTI package through LibTorch, or a Python-side path
// (torch.compile, eager) through the embedded interpreter. The harness only calls run_once().
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "ohprof/base/error.hpp"
#include "ohprof/harness/concurrent_callers.hpp"
#include "ohprof/model/execution_check.hpp"
#include "ohprof/model/explanation.hpp"

namespace ohprof {

// Tensors owned by the LibTorch adapters (inputs, outputs); opaque everywhere else.
struct TensorBundle;
using TensorBundlePtr = std::shared_ptr<const TensorBundle>;

class PathRunner {
 public:
  virtual ~PathRunner() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  // Runs one iteration on the prepared inputs and waits for the device.
  virtual Status run_once() = 0;
  // Time to make the path ready before its first measured call (docs/metrics.md, "Build time").
  [[nodiscard]] virtual std::int64_t build_ns() const = 0;
  // Outputs of its first call, for the output check.
  [[nodiscard]] virtual TensorBundlePtr first_outputs() const = 0;
  // Where its callable came from (the user's module, the exported program, the package).
  [[nodiscard]] virtual PathSource source() const = 0;
  // Called outside the timed region around each iteration (the Python paths take the GIL here).
  virtual void enter() {}
  virtual void leave() {}
  // What it runs, as known once it is built (model/execution_check.hpp): Dynamo's graphs and breaks, CUDA
  // graphs, the device of its outputs. Empty facts: a path nothing is known of.
  [[nodiscard]] virtual ExecutionFacts execution_facts() const { return {}; }
  // One more call of a Dynamo path, watched by Dynamo's guard-complete hook (docs/metrics.md, "Execution
  // check"): whether it ran compiled code, or why that is unknown. Neither for a path without a probe.
  // Called outside enter()/leave() (it makes them itself); not timed.
  virtual CompiledCallProbe compiled_call() { return {}; }
  // compare --threads (docs/metrics.md, "Concurrent callers"): a caller for one of several threads calling
  // this path at once, on its own copy of the inputs; an error where the path cannot be called so.
  virtual Result<std::unique_ptr<ThreadCaller>> thread_caller() {
    return make_error(ExitCode::usage_error, "path " + name() + " cannot be called from several threads");
  }
  // Every call runs Python under the GIL (the Python paths).
  [[nodiscard]] virtual bool holds_gil() const { return false; }
  // The AOTI C++ runner's model instances, which that many callers can run at once; 0 for other paths.
  [[nodiscard]] virtual std::int64_t runner_instances() const { return 0; }
};

}  // namespace ohprof
