#pragma once
// The LibTorch adapter for the AOTInductor path: loads a `.pt2` package with
// torch::inductor::AOTIModelPackageLoader and runs it on seeded random inputs. Only
// src/runtimes/aoti_runner.cpp includes torch headers; LibTorch and CUDA exceptions are turned into Errors there.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/model/device_request.hpp"
#include "ohprof/base/error.hpp"
#include "ohprof/model/input_spec.hpp"
#include "ohprof/harness/path_runner.hpp"
#include "ohprof/model/report.hpp"

namespace ohprof {

struct AotiLoadOptions {
  std::string package_path;
  DeviceRequest device;
  std::vector<InputSpec> inputs;
  std::uint64_t seed = 0;
  // Run on these tensors (shared with the other paths of `compare`) instead of making random ones;
  // `inputs` then describes them.
  TensorBundlePtr tensors;
  // Model instances in the runner's container (AOTIModelPackageLoader's num_runners): that many threads
  // can run it at once (compare --threads loads as many as its largest count).
  std::int64_t runners = 1;
};

// What LibTorch in this process offers.
struct TorchRuntimeInfo {
  std::string torch_version;
  bool cuda_available = false;
  int cuda_device_count = 0;
  int intra_op_threads = 0;
};
TorchRuntimeInfo torch_runtime_info();

// CUDA device `index`'s memory from the caching allocator LibTorch and Python's torch share, and from the
// CUDA runtime torch loaded (docs/metrics.md, "Device memory"); the allocator's peak reset first when
// `reset_peak`. Null without CUDA, or when the allocator cannot be read.
std::optional<DeviceMemoryReading> read_cuda_memory(int index, bool reset_peak);

// The "aoti" path. build_ns(): the loader's constructor plus a first call that checks the inputs.
class AotiRunner : public PathRunner {
 public:
  static Result<std::unique_ptr<AotiRunner>> load(const AotiLoadOptions& options);

  [[nodiscard]] virtual DeviceDescription device() const = 0;
  // Warnings met while loading (e.g. input checks enabled because the package lacks ohprof metadata).
  [[nodiscard]] virtual std::vector<Warning> warnings() const = 0;
  // The inputs it runs on: the --input specs, or those recorded in the package.
  [[nodiscard]] virtual std::vector<InputSpec> inputs() const = 0;
};

}  // namespace ohprof
