#pragma once
// What measuring a model needs from the vendor layers: LibTorch (the AOTI loader), CPython (the
// torch.compile and eager paths) and the activity collectors (CUPTI, RecordFunction). The session
// functions take these as values, so they are the same code whether the measuring extension hands them
// the real adapters (src/cli/measure_module.cpp) or a test hands them fakes; the torch-free `ohprof`
// front has none and hands `run`, `compare` and `sweep` to the user's Python instead.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/base/error.hpp"
#include "ohprof/collectors/split_collector.hpp"
#include "ohprof/runtimes/aoti_package.hpp"
#include "ohprof/runtimes/aoti_runner.hpp"
#include "ohprof/runtimes/python_session.hpp"

namespace ohprof {

struct Runtime {
  std::function<TorchRuntimeInfo()> torch_info;
  std::function<Result<std::unique_ptr<AotiRunner>>(const AotiLoadOptions&)> load_aoti;
  // Empty when the build embeds no Python: `compare` then says so.
  std::function<Result<std::unique_ptr<ModelSession>>(const ModelSessionOptions&)> open_model;
  std::function<std::unique_ptr<SplitCollector>(const SplitCollectorOptions&)> start_collector;
  // CUDA device `index`'s memory (model/report.hpp), after resetting the allocator's peak when
  // `reset_peak`; null where it cannot be read. Empty: this build cannot read device memory.
  std::function<std::optional<DeviceMemoryReading>(int index, bool reset_peak)> read_device_memory;
  std::function<std::string()> cupti_version;
  std::function<std::string()> cupti_library;  // the loaded libcupti's file; empty: not known
  std::function<Result<PackageAttribution>(const std::string& package_path, const std::vector<CpuEvent>& events,
                                           std::int64_t first_iteration, std::int64_t last_iteration)>
      attribute_package_kernels;
  // An AOTI package's generated code (collectors/cpu_activity_collector.hpp); empty: this build cannot
  // read packages, and --dump-code says so.
  std::function<Result<std::vector<SourceFile>>(const std::string& package_path)> read_package_sources;
  // --inputs FILE of `run` (runtimes/python_session.hpp); empty: this build cannot read such files.
  std::function<Result<LoadedInputs>(const std::string& path)> load_inputs_file;
  // sweep --inputs FILE: the specs of the file's tensors, keyword ones too, and its digest; empty: this
  // build cannot read such files.
  std::function<Result<InputsFileSpecs>(const std::string& path)> inputs_file_specs;
  // The sweep's page from its written report (python/ohprof/_sweep_plot.py); empty: no page.
  std::function<Status(const std::string& report_path, const std::string& page_path)> render_sweep_page;
};

}  // namespace ohprof
