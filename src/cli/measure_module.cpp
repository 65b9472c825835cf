// _ohprof_measure: the same command line as ohprof, with the model runtimes (LibTorch, CPython) and the
// activity collectors (CUPTI, RecordFunction) linked in, as a Python extension module. The front
// replaces itself with the user's Python running python/ohprof/_measure.py for `run`, `compare` and
// `sweep`, which imports torch and then this module and calls its run_cli (docs/architecture.md).
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "ohprof/collectors/cpu_activity_collector.hpp"
#include "ohprof/collectors/split_collector.hpp"
#include "ohprof/runtimes/aoti_package.hpp"
#include "ohprof/runtimes/aoti_runner.hpp"
#include "ohprof/runtimes/python_session.hpp"
#include "ohprof/session/runtime.hpp"

namespace {

int measure(const std::vector<std::string>& args, std::string* error_out) {
  using namespace ohprof;
  static const Runtime runtime = [] {
    Runtime r;
    r.torch_info = torch_runtime_info;
    r.load_aoti = AotiRunner::load;
    r.read_device_memory = read_cuda_memory;
    r.open_model = ModelSession::open;
    r.render_sweep_page = render_sweep_page;
    r.load_inputs_file = load_inputs_file;
    r.inputs_file_specs = inputs_file_specs;
    r.start_collector = SplitCollector::start;
    r.cupti_version = collector_cupti_version;
    r.cupti_library = collector_cupti_library;
    r.attribute_package_kernels = attribute_package_kernels;
    r.read_package_sources = read_package_sources;
    return r;
  }();
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const int code = run_cli(static_cast<int>(args.size()), argv.data(), &runtime, error_out);
  // The process ends with os._exit (python/ohprof/_measure.py), which flushes no C++ stream.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  return code;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) _object* PyInit__ohprof_measure() {
  return ohprof::make_measure_module(measure);
}
