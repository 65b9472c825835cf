// The only translation unit that includes LibTorch headers for the AOTI path.
#include "ohprof/runtimes/aoti_runner.hpp"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/core/InferenceMode.h>
#include <torch/cuda.h>
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>
#include <torch/version.h>
#ifdef OHPROF_TORCH_HAS_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <dlfcn.h>
#endif

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include <cstdio>
#include <unistd.h>

#include "ohprof/base/clock.hpp"
#include "ohprof/base/cpu_info.hpp"
#include "ohprof/runtimes/aoti_package.hpp"
#include "torch_tensors.hpp"

// torch's include folder ships its own fmt, which shadows the one ohprof links: this file uses none.
namespace ohprof {
namespace {

template <typename... Parts>
std::string concat(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
  return out;
}

constexpr const char* kInputsMetadataKey = "ohprof.inputs";

at::ScalarType to_scalar_type(DType dtype) {
  switch (dtype) {
    case DType::float32: return at::kFloat;
    case DType::float16: return at::kHalf;
    case DType::bfloat16: return at::kBFloat16;
    case DType::float64: return at::kDouble;
    case DType::int64: return at::kLong;
    case DType::int32: return at::kInt;
    case DType::int8: return at::kChar;
    case DType::uint8: return at::kByte;
    case DType::boolean: return at::kBool;
  }
  return at::kFloat;
}

bool looks_like_zip(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::array<char, 4> magic{};
  file.read(magic.data(), magic.size());
  return file.gcount() == 4 && magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4;
}

// The package's CPU kernels are compiled for a vector ISA; running them on a CPU without it crashes.
std::vector<std::string> missing_cpu_features(const std::string& package_isa) {
  std::vector<std::string> missing;
  std::stringstream stream(package_isa);
  std::string token;
  while (stream >> token) {
    if (!cpu_supports_isa_token(token)) missing.push_back(token);
  }
  return missing;
}

at::Tensor random_input(const InputSpec& spec, at::Generator& generator, const at::Device& device) {
  const auto type = to_scalar_type(spec.dtype);
  at::Tensor tensor;
  if (at::isFloatingType(type)) {
    tensor = at::randn(spec.shape, generator, at::TensorOptions().dtype(at::kFloat)).to(type);
  } else if (type == at::kBool) {
    tensor = at::randint(0, 2, spec.shape, generator, at::TensorOptions().dtype(at::kLong)).to(type);
  } else {
    tensor = at::randint(1, 10, spec.shape, generator, at::TensorOptions().dtype(at::kLong)).to(type);
  }
  return tensor.to(device);
}

// One call of the package on `inputs`, the device synchronised (every caller's, the measuring thread's too).
Status run_package(torch::inductor::AOTIModelPackageLoader& loader, const std::vector<at::Tensor>& inputs,
                   const DeviceDescription& device) {
  try {
    std::vector<at::Tensor> outputs = loader.run(inputs);
    if (device.type == DeviceKind::cuda) torch::cuda::synchronize(device.index);
    return ok_status();
  } catch (const std::exception& e) {
    return make_error(ExitCode::model_error, "the model failed: " + first_line(e.what()));
  }
}

// One of several threads calling the package's runner (compare --threads): inference mode, which is
// thread-local, entered on its thread as the measuring thread has it.
class AotiThreadCaller final : public ThreadCaller {
 public:
  AotiThreadCaller(torch::inductor::AOTIModelPackageLoader& loader, std::vector<at::Tensor> inputs,
                   DeviceDescription device)
      : m_loader(loader), m_inputs(std::move(inputs)), m_device(std::move(device)) {}
  void begin() override { m_mode.emplace(); }
  Status call() override { return run_package(m_loader, m_inputs, m_device); }
  void end() override { m_mode.reset(); }

 private:
  torch::inductor::AOTIModelPackageLoader& m_loader;
  std::vector<at::Tensor> m_inputs;
  DeviceDescription m_device;
  std::optional<c10::InferenceMode> m_mode;
};

class LibTorchAotiRunner final : public AotiRunner {
 public:
  LibTorchAotiRunner(std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader,
                     std::vector<at::Tensor> inputs, DeviceDescription device,
                     std::vector<Warning> warnings, std::vector<InputSpec> specs,
                     TensorBundlePtr first_outputs, std::int64_t build_ns, std::int64_t runners)
      : m_loader(std::move(loader)),
        m_inputs(std::move(inputs)),
        m_device(std::move(device)),
        m_warnings(std::move(warnings)),
        m_specs(std::move(specs)),
        m_first_outputs(std::move(first_outputs)),
        m_build_ns(build_ns),
        m_runners(runners) {}

  [[nodiscard]] std::string name() const override { return "aoti"; }
  [[nodiscard]] std::int64_t build_ns() const override { return m_build_ns; }
  [[nodiscard]] TensorBundlePtr first_outputs() const override { return m_first_outputs; }
  [[nodiscard]] PathSource source() const override { return PathSource::aoti_package; }

  Status run_once() override { return run_package(*m_loader, m_inputs, m_device); }
  [[nodiscard]] DeviceDescription device() const override { return m_device; }
  // No Dynamo; the device its first outputs are on ("cpu", "cuda:0"; several joined by ", ").
  [[nodiscard]] ExecutionFacts execution_facts() const override {
    ExecutionFacts facts;
    std::vector<std::string> devices;
    for (const auto& tensor : m_first_outputs->tensors) {
      const std::string name = tensor.device().str();
      if (std::find(devices.begin(), devices.end(), name) == devices.end()) devices.push_back(name);
    }
    for (const auto& name : devices) facts.device += (facts.device.empty() ? "" : ", ") + name;
    return facts;
  }
  [[nodiscard]] std::vector<Warning> warnings() const override { return m_warnings; }
  [[nodiscard]] std::vector<InputSpec> inputs() const override { return m_specs; }
  [[nodiscard]] std::int64_t runner_instances() const override { return m_runners; }
  // The loader's run is thread-safe; each caller runs on its own copy of the inputs.
  Result<std::unique_ptr<ThreadCaller>> thread_caller() override {
    try {
      std::vector<at::Tensor> own;
      for (const auto& tensor : m_inputs) own.push_back(tensor.clone());
      return std::unique_ptr<ThreadCaller>(std::make_unique<AotiThreadCaller>(*m_loader, std::move(own), m_device));
    } catch (const std::exception& e) {
      return make_error(ExitCode::model_error, "could not copy the inputs for a caller: " + first_line(e.what()));
    }
  }

 private:
  std::unique_ptr<torch::inductor::AOTIModelPackageLoader> m_loader;
  std::vector<at::Tensor> m_inputs;
  DeviceDescription m_device;
  std::vector<Warning> m_warnings;
  std::vector<InputSpec> m_specs;
  TensorBundlePtr m_first_outputs;
  std::int64_t m_build_ns = 0;
  std::int64_t m_runners = 1;
};

// AOTInductor's runtime prints its own "Error: ..." to stderr before throwing. While the first
// (validating) call runs, stderr goes to a temporary file; what was printed is replayed only on success,
// since on failure the same text is already in ohprof's one-line error.
class StderrCapture {
 public:
  StderrCapture() : m_file(std::tmpfile()) {
    std::fflush(stderr);
    m_saved = ::dup(STDERR_FILENO);
    if (m_file != nullptr && m_saved >= 0) ::dup2(::fileno(m_file), STDERR_FILENO);
  }
  ~StderrCapture() { restore(); if (m_file != nullptr) std::fclose(m_file); }
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;

  void restore() {
    if (m_saved < 0) return;
    std::fflush(stderr);
    ::dup2(m_saved, STDERR_FILENO);
    ::close(m_saved);
    m_saved = -1;
  }
  void replay() {
    const std::string captured = text();
    std::fwrite(captured.data(), 1, captured.size(), stderr);
  }
  // What was printed while capturing (restores stderr first).
  std::string text() {
    restore();
    std::string out;
    if (m_file == nullptr) return out;
    std::rewind(m_file);
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, m_file)) > 0) out.append(buffer, n);
    return out;
  }

 private:
  std::FILE* m_file = nullptr;
  int m_saved = -1;
};

Error input_error(const std::string& message) { return make_error(ExitCode::input_mismatch, message); }

// Why the first call failed. Older AOTInductor runtimes (torch 2.11) print the reason ("Error:
// input_handles[0]: unmatched dim value at 1, expected: 16, but got: 17") to stderr and throw only
// "run_func_(...) API call failed at ..."; the pinned torch (2.14) puts the reason in the exception.
// Prefer the printed reason when the exception does not carry it.
std::string first_call_failure(const std::string& what, const std::string& captured) {
  std::string reason;
  std::stringstream lines(captured);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("Error: ", 0) == 0) reason = line.substr(7);  // the last one: the one that threw
  }
  while (!reason.empty() && (reason.back() == '\r' || reason.back() == ' ')) reason.pop_back();
  if (reason.empty() || what.find(reason) != std::string::npos) return first_line(what);
  return reason;
}

std::string specs_text(const std::vector<InputSpec>& specs) {
  std::vector<std::string> parts;
  for (const auto& spec : specs) parts.push_back(input_spec_text(spec));
  return join(parts, ", ");
}

bool same_specs(const std::vector<InputSpec>& a, const std::vector<InputSpec>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].shape != b[i].shape || a[i].dtype != b[i].dtype) return false;
  }
  return true;
}

}  // namespace

TorchRuntimeInfo torch_runtime_info() {
  TorchRuntimeInfo info;
  info.torch_version = TORCH_VERSION;
  try {
    info.cuda_available = torch::cuda::is_available();
    info.cuda_device_count = static_cast<int>(torch::cuda::device_count());
  } catch (const std::exception&) {
    info.cuda_available = false;
  }
  info.intra_op_threads = at::get_num_threads();
  return info;
}

#ifdef OHPROF_TORCH_HAS_CUDA
namespace {
// cudaMemGetInfo from the CUDA runtime torch loaded (ohprof links no cudart of its own: one copy in the
// process); null when no such library is loaded.
using MemGetInfo = int (*)(std::size_t* free, std::size_t* total);
MemGetInfo loaded_mem_get_info() {
  // Looked up once: each dlopen adds a reference to the library.
  static const MemGetInfo found = [] () -> MemGetInfo {
    for (const char* soname : {"libcudart.so.13", "libcudart.so.12", "libcudart.so"}) {
      if (void* handle = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD)) {
        if (void* symbol = dlsym(handle, "cudaMemGetInfo")) return reinterpret_cast<MemGetInfo>(symbol);
      }
    }
    return nullptr;
  }();
  return found;
}
}  // namespace
#endif

std::optional<DeviceMemoryReading> read_cuda_memory(int index, bool reset_peak) {
#ifdef OHPROF_TORCH_HAS_CUDA
  try {
    if (!torch::cuda::is_available() || index < 0 || index >= static_cast<int>(torch::cuda::device_count())) {
      return std::nullopt;
    }
    namespace allocator = c10::cuda::CUDACachingAllocator;
    const auto device = static_cast<c10::DeviceIndex>(index);
    if (reset_peak) allocator::resetPeakStats(device);
    const auto stats = allocator::getDeviceStats(device);
    constexpr auto all = static_cast<std::size_t>(c10::CachingAllocator::StatType::AGGREGATE);
    DeviceMemoryReading reading;
    reading.allocated_bytes = stats.allocated_bytes[all].current;
    reading.reserved_bytes = stats.reserved_bytes[all].current;
    reading.peak_allocated_bytes = stats.allocated_bytes[all].peak;
    // The default pool is {0, 0}; any other owner is a private pool (a CUDA graph's, or a user's MemPool).
    // Apart: the cudaMallocAsync backend has no snapshot, and the other figures stand without it.
    try {
      std::int64_t pools = 0;
      for (const auto& segment : allocator::snapshot({0, 0}, false).segments) {
        const bool private_pool = segment.owner_private_pool_id.first != 0 || segment.owner_private_pool_id.second != 0;
        if (segment.device == device && private_pool) pools += static_cast<std::int64_t>(segment.total_size);
      }
      reading.private_pool_bytes = pools;
    } catch (const std::exception&) {
      reading.private_pool_bytes.reset();
    }
    if (const MemGetInfo mem_get_info = loaded_mem_get_info()) {
      const c10::DeviceIndex previous = c10::cuda::current_device();
      c10::cuda::set_device(device);
      std::size_t free = 0;
      std::size_t total = 0;
      if (mem_get_info(&free, &total) == 0) reading.used_bytes = static_cast<std::int64_t>(total - free);
      c10::cuda::set_device(previous);
    }
    return reading;
  } catch (const std::exception&) {
    return std::nullopt;
  }
#else
  (void)index;
  (void)reset_peak;
  return std::nullopt;
#endif
}

Result<std::unique_ptr<AotiRunner>> AotiRunner::load(const AotiLoadOptions& options) {
  const std::string& path = options.package_path;
  if (!looks_like_zip(path)) {
    return make_error(ExitCode::invalid_package,
                      "not an AOTInductor package (not a zip archive); export one with "
                      "torch._inductor.aoti_compile_and_package or examples/export_model.py");
  }
  std::unordered_map<std::string, std::string> metadata;
  try {
    metadata = torch::inductor::AOTIModelPackageLoader::load_metadata_from_package(path, "model");
  } catch (const std::exception& e) {
    return make_error(ExitCode::invalid_package,
                      "no AOTInductor model in this archive (a torch.export program or another zip?); "
                      "compile it with torch._inductor.aoti_compile_and_package: " +
                          first_line(e.what()));
  }
  const auto device_key = metadata.find("AOTI_DEVICE_KEY");
  if (device_key == metadata.end()) {
    return make_error(ExitCode::invalid_package, "the package's metadata has no AOTI_DEVICE_KEY; re-export it");
  }
  const std::string package_device = device_key->second;
  const TorchRuntimeInfo info = torch_runtime_info();

  DeviceDescription device;
  if (package_device == "cpu") {
    if (options.device.kind == DeviceRequest::Kind::cuda) {
      return make_error(ExitCode::device_unavailable,
                        "the package was compiled for the CPU but --device cuda was requested; "
                        "export a CUDA package or use --device cpu");
    }
    if (auto it = metadata.find("AOTI_CPU_ISA"); it != metadata.end()) {
      const auto missing = missing_cpu_features(it->second);
      if (!missing.empty()) {
        return make_error(ExitCode::device_unavailable,
                          concat("the package's CPU kernels need ", join(missing, ", "),
                                 " which this CPU lacks; re-export the package on this machine"));
      }
    }
    device.type = DeviceKind::cpu;
    device.index = -1;
    device.name = cpu_model_name();
  } else if (package_device == "cuda") {
    if (options.device.kind == DeviceRequest::Kind::cpu) {
      return make_error(ExitCode::device_unavailable,
                        "the package was compiled for CUDA but --device cpu was requested; "
                        "export a CPU package or use --device cuda");
    }
    if (!info.cuda_available) {
      return make_error(ExitCode::device_unavailable,
                        "the package was compiled for CUDA but no CUDA device is available here; "
                        "run it on a machine with a GPU or export a CPU package");
    }
    const int index = options.device.kind == DeviceRequest::Kind::cuda ? options.device.index : 0;
    if (index >= info.cuda_device_count) {
      return make_error(ExitCode::device_unavailable,
                        concat("cuda:", index, " requested but this machine has ", info.cuda_device_count,
                               " CUDA device(s)"));
    }
    device.type = DeviceKind::cuda;
    device.index = index;
    try {
      device.name = at::cuda::getDeviceProperties(index)->name;
    } catch (const std::exception&) {
      device.name = "CUDA device";
    }
  } else {
    return make_error(ExitCode::device_unavailable,
                      concat("the package targets device '", package_device,
                             "', which ohprof does not run; use a cpu or cuda package"));
  }

  std::vector<Warning> warnings;
  std::vector<InputSpec> inputs = options.inputs;
  const char* given = options.tensors ? " inputs" : " --input";
  if (auto recorded = metadata.find(kInputsMetadataKey); recorded != metadata.end()) {
    auto expected = parse_recorded_inputs(recorded->second);
    if (!expected.ok()) return expected.error().with_context("reading the package's recorded inputs");
    if (inputs.empty()) {
      inputs = *expected;
    } else if (inputs.size() != expected->size()) {
      return input_error(concat("the model takes ", expected->size(), " input(s) (", specs_text(*expected),
                                ") but ", inputs.size(), given, " were given"));
    } else if (!same_specs(inputs, *expected)) {
      return input_error(concat(options.tensors ? "the inputs " : "--input ", specs_text(inputs),
                                " do not match the inputs the package was compiled for: ", specs_text(*expected)));
    }
  } else {
    if (inputs.empty()) {
      return input_error("the package does not record its input shapes; pass one --input SHAPE[:DTYPE] per model input");
    }
    // Without recorded shapes, let the generated code check each input (a few comparisons per call).
    ::setenv("AOTI_RUNTIME_CHECK_INPUTS", "1", 1);
    warnings.push_back(Warning{WarningCode::package_inputs_unrecorded,
                               "the package does not record its inputs; AOTInductor's runtime input checks are on (a "
                               "few ns per call)"});
  }

  const std::int64_t build_start = monotonic_now_ns();
  std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader;
  try {
    loader = std::make_unique<torch::inductor::AOTIModelPackageLoader>(
        path, "model", false, static_cast<std::size_t>(std::max<std::int64_t>(options.runners, 1)),
                                                                       static_cast<c10::DeviceIndex>(device.index));
  } catch (const std::exception& e) {
    std::string message = "LibTorch could not load it: " + first_line(e.what());
    // A package linked with a static libstdc++ fails so (std::bad_cast on the CPU): say why, and what to do.
    if (const auto own = package_libraries_with_own_runtime(path); own.ok() && !own->empty()) {
      message += concat("; its ", own->front().name, " needs no libstdc++.so and defines ", own->front().std_definitions,
                        " std:: symbols itself: it was linked with a static libstdc++ (a ",
                        "compiler that has only one, or -static-libstdc++) and carries a C++ runtime of its own, ",
                        "which LibTorch does not load; build the package again with CXX set to a compiler with a ",
                        "shared libstdc++ (docs/design/python-extension.md, \"One C++ runtime\")");
    }
    return make_error(ExitCode::invalid_package, message);
  }

  std::vector<at::Tensor> tensors;
  try {
    const at::Device torch_device = device.type == DeviceKind::cuda ? at::Device(at::kCUDA, static_cast<c10::DeviceIndex>(device.index))
                                                          : at::Device(at::kCPU);
    if (options.tensors) {
      // compare's shared tensors are on the device already (to() returns them); run --inputs' are on the CPU
      for (const auto& tensor : options.tensors->tensors) tensors.push_back(tensor.to(torch_device));
    } else {
      auto generator = at::make_generator<at::CPUGeneratorImpl>(options.seed);
      for (const auto& spec : inputs) tensors.push_back(random_input(spec, generator, torch_device));
    }
  } catch (const std::exception& e) {
    return make_error(ExitCode::model_error, "could not create the inputs: " + first_line(e.what()));
  }

  // A first call checks the inputs against the compiled model (count always; shapes and dtypes
  // through the recorded metadata or AOTInductor's runtime checks).
  auto first_outputs = std::make_shared<TensorBundle>();
  {
    StderrCapture capture;
    try {
      for (const auto& output : loader->run(tensors)) first_outputs->tensors.push_back(output.detach().clone());
      if (device.type == DeviceKind::cuda) torch::cuda::synchronize(device.index);
      capture.replay();
    } catch (const std::exception& e) {
      return input_error(concat("the model rejected the inputs ", specs_text(inputs), ": ",
                                first_call_failure(e.what(), capture.text())));
    }
  }
  const std::int64_t build_ns = monotonic_now_ns() - build_start;
  return std::unique_ptr<AotiRunner>(std::make_unique<LibTorchAotiRunner>(
      std::move(loader), std::move(tensors), device, std::move(warnings), std::move(inputs),
      std::move(first_outputs), build_ns, std::max<std::int64_t>(options.runners, 1)));
}

}  // namespace ohprof
