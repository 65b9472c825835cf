// ohprof-measure: the same command line as ohprof, with the model runtimes (LibTorch, CPython) and the
// activity collectors (CUPTI, RecordFunction) linked in. The front executes it for `run`, `compare` and `sweep`.
#include "commands.hpp"
#include "ohprof/collectors/cpu_activity_collector.hpp"
#include "ohprof/collectors/split_collector.hpp"
#include "ohprof/runtimes/aoti_runner.hpp"
#include "ohprof/runtimes/python_session.hpp"
#include "ohprof/session/runtime.hpp"

int main(int argc, char** argv) {
  using namespace ohprof;
  Runtime runtime;
  runtime.torch_info = torch_runtime_info;
  runtime.load_aoti = AotiRunner::load;
#ifdef OHPROF_WITH_PYTHON
  runtime.open_model = ModelSession::open;
  runtime.render_sweep_page = render_sweep_page;
#endif
  runtime.start_collector = SplitCollector::start;
  runtime.cupti_version = collector_cupti_version;
  runtime.cupti_library = collector_cupti_library;
  runtime.attribute_package_kernels = attribute_package_kernels;
  runtime.read_package_sources = read_package_sources;
  return run_cli(argc, argv, &runtime);
}
