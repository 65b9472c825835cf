#include "fake_runtime.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ohprof/base/clock.hpp"
#include "ohprof/output/report_text.hpp"

namespace ohprof::fake {
namespace {

// A build's effect on the fake device.
void fake_device_build(FakeWorld& world, const RunnerScript& script) {
  if (!world.device_memory) return;
  FakeDeviceMemory& d = *world.device_memory;
  d.allocate(script.device_build_bytes + script.device_build_transient);
  d.free(script.device_build_transient);
  *d.state.used_bytes += script.device_outside_bytes;
}

// Runs `script` for a runner named `name`: counts the call, spins, fails on the scripted call.
Status fake_iteration(FakeWorld& world, const std::string& name, const RunnerScript& script) {
  const int call = world.calls_by_path[name]++;
  ++world.calls;
  if (world.device_memory) {
    FakeDeviceMemory& d = *world.device_memory;
    if (call == 0 && script.device_pool_bytes > 0) {
      *d.state.private_pool_bytes += script.device_pool_bytes;
      d.state.reserved_bytes += script.device_pool_bytes;
      *d.state.used_bytes += script.device_pool_bytes;
    }
    d.allocate(script.device_call_bytes);
    d.free(script.device_call_bytes);
  }
  const std::int64_t start = monotonic_now_ns();
  if (script.duration_ns) spin_for_ns(script.duration_ns(call));
  if (script.compile_on_calls.count(call) != 0) {
    world.compile_events.push_back(CompileEvent{CompileEventKind::dynamo_compile, "0/" + std::to_string(call), start,
                                                monotonic_now_ns(), "fake guard " + std::to_string(call)});
  }
  if (call == script.fail_on_call) return make_error(ExitCode::model_error, "boom at call " + std::to_string(call));
  return ok_status();
}

// A thread caller of path `name`: counts, spins (holding the fake GIL when `gil`).
class FakeThreadCaller final : public ThreadCaller {
 public:
  FakeThreadCaller(std::shared_ptr<FakeThreads> log, std::string name, std::int64_t call_ns, bool gil)
      : m_log(std::move(log)), m_name(std::move(name)), m_call_ns(call_ns), m_gil(gil) {}
  void begin() override {
    const std::lock_guard lock(m_log->mutex);
    ++m_log->begins[m_name];
    m_log->threads[m_name].insert(std::this_thread::get_id());
  }
  Status call() override {
    {
      const std::lock_guard lock(m_log->mutex);
      ++m_log->calls[m_name];
    }
    if (m_gil) {
      const std::lock_guard gil(m_log->gil);
      spin_for_ns(m_call_ns);
    } else {
      spin_for_ns(m_call_ns);
    }
    return ok_status();
  }
  void end() override {
    const std::lock_guard lock(m_log->mutex);
    ++m_log->ends[m_name];
  }

 private:
  std::shared_ptr<FakeThreads> m_log;
  std::string m_name;
  std::int64_t m_call_ns;
  bool m_gil;
};

Result<std::unique_ptr<ThreadCaller>> fake_thread_caller(const std::shared_ptr<FakeThreads>& log, const std::string& name,
                                                         const RunnerScript& script, bool gil) {
  {
    const std::lock_guard lock(log->mutex);
    ++log->callers[name];
  }
  if (script.thread_caller_error) return *script.thread_caller_error;
  return std::unique_ptr<ThreadCaller>(std::make_unique<FakeThreadCaller>(log, name, script.thread_call_ns, gil));
}

class FakeAotiRunner final : public AotiRunner {
 public:
  FakeAotiRunner(FakeWorld& world, std::int64_t runners)
      : m_world(world), m_outputs(std::make_shared<const TensorBundle>(TensorBundle{"aoti"})), m_runners(runners) {}
  Result<std::unique_ptr<ThreadCaller>> thread_caller() override {
    return fake_thread_caller(m_world.threads, "aoti", m_world.aoti, false);
  }
  [[nodiscard]] std::int64_t runner_instances() const override { return m_runners; }
  [[nodiscard]] std::string name() const override { return "aoti"; }
  Status run_once() override { return fake_iteration(m_world, "aoti", m_world.aoti); }
  [[nodiscard]] std::int64_t build_ns() const override { return m_world.aoti.build_ns; }
  [[nodiscard]] TensorBundlePtr first_outputs() const override { return m_outputs; }
  [[nodiscard]] PathSource source() const override { return PathSource::aoti_package; }
  void enter() override { ++m_world.enters["aoti"]; }
  [[nodiscard]] DeviceDescription device() const override { return m_world.aoti_device; }
  [[nodiscard]] std::vector<Warning> warnings() const override { return m_world.aoti_warnings; }
  [[nodiscard]] std::vector<InputSpec> inputs() const override { return m_world.aoti_inputs; }

 private:
  FakeWorld& m_world;
  TensorBundlePtr m_outputs;
  std::int64_t m_runners;
};

class FakePythonPath final : public PathRunner {
 public:
  FakePythonPath(FakeWorld& world, std::string name, RunnerScript script)
      : m_world(world),
        m_name(std::move(name)),
        m_script(std::move(script)),
        m_outputs(std::make_shared<const TensorBundle>(TensorBundle{m_name})) {}
  [[nodiscard]] std::string name() const override { return m_name; }
  Status run_once() override { return fake_iteration(m_world, m_name, m_script); }
  [[nodiscard]] std::int64_t build_ns() const override { return m_script.build_ns; }
  [[nodiscard]] TensorBundlePtr first_outputs() const override { return m_outputs; }
  [[nodiscard]] PathSource source() const override { return m_script.source; }
  void enter() override { ++m_world.enters[m_name]; }
  [[nodiscard]] ExecutionFacts execution_facts() const override { return m_script.facts; }
  // The probe, a call like any other (counted in the script's numbering), then what the script says it ran.
  CompiledCallProbe compiled_call() override {
    if (!m_script.compiled_call && !m_script.probe_unknown) return {};
    ++m_world.probes[m_name];
    (void)fake_iteration(m_world, m_name, m_script);
    return CompiledCallProbe{m_script.compiled_call, m_script.probe_unknown, m_script.probe_error};
  }
  [[nodiscard]] bool holds_gil() const override { return true; }
  // Variants ("compile/no-guards") have no caller, as ohprof/_paths.py's.
  Result<std::unique_ptr<ThreadCaller>> thread_caller() override {
    if (m_name.find('/') != std::string::npos) return PathRunner::thread_caller();
    return fake_thread_caller(m_world.threads, m_name, m_script, true);
  }

 private:
  FakeWorld& m_world;
  std::string m_name;
  RunnerScript m_script;
  TensorBundlePtr m_outputs;
};

class FakeModelSession final : public ModelSession {
 public:
  explicit FakeModelSession(FakeWorld& world) : m_world(world) {}
  [[nodiscard]] ArtifactSummary artifacts() const override { return m_world.artifacts; }
  [[nodiscard]] std::vector<InputSpec> input_specs() const override { return m_world.input_specs; }
  [[nodiscard]] TensorBundlePtr inputs() const override { return m_inputs; }
  Result<std::unique_ptr<PathRunner>> make_python_path(const std::string& name) override {
    const auto it = m_world.python.find(name);
    const RunnerScript script = it == m_world.python.end() ? RunnerScript{} : it->second;
    if (script.build_error) return *script.build_error;
    m_world.built.push_back(name);
    fake_device_build(m_world, script);
    return std::unique_ptr<PathRunner>(std::make_unique<FakePythonPath>(m_world, name, script));
  }
  PathOutputCheck check_outputs(const std::string& reference_name, const TensorBundle& reference,
                                const TensorBundle& outputs) override {
    m_world.checks.push_back(CheckCall{reference_name, reference.made_by, outputs.made_by});
    PathOutputCheck check;
    check.reference = reference_name;
    check.passed = m_world.outputs_differ.count(outputs.made_by) == 0;
    check.max_abs_diff = check.passed ? 0.0 : 0.5;
    check.max_rel_diff = check.passed ? 0.0 : 0.25;
    check.atol = 1e-3;
    check.rtol = 1e-3;
    if (!check.passed) check.detail = "fake: 3 of 64 elements differ";
    return check;
  }
  Result<CodeDumpPiece> dump_code(const std::string& name, const std::string& dir) override {
    m_world.dumps.emplace_back("dump_code " + name, m_world.calls);
    if (m_world.dump_error) return *m_world.dump_error;
    CodeDumpPiece piece;
    piece.graph_label = "the fake graph of " + name;
    piece.notes = m_world.dump_notes;
    std::vector<SourceFile> files{{"graph.py", "# the graph of " + name + "\n"}};
    if (const auto it = m_world.dumped_code.find(name); it != m_world.dumped_code.end()) {
      for (const SourceFile& file : it->second) {
        files.push_back(file);
        piece.code_files.push_back(file.name);
      }
    }
    for (const SourceFile& file : files) {
      const std::filesystem::path path = std::filesystem::path(dir) / file.name;
      std::filesystem::create_directories(path.parent_path());
      std::ofstream(path) << file.text;
      piece.files.push_back(file.name);
    }
    return piece;
  }
  Result<CodeDumpPiece> trace_compile(const std::string& name, const std::string& dir) override {
    m_world.dumps.emplace_back("trace_compile " + name, m_world.calls);
    std::filesystem::create_directories(std::filesystem::path(dir) / "trace");
    std::ofstream(std::filesystem::path(dir) / "trace" / "fake_trace.log") << "trace of " << name << "\n";
    return CodeDumpPiece{{"trace/fake_trace.log"}, {"tlparse is not installed (fake)"}, {}, ""};
  }
  Result<ColdStartSetup> cold_start_setup(const std::string& dir, bool with_module) override {
    m_world.cold_start_dirs.push_back(dir);
    m_world.cold_start_with_module.push_back(with_module);
    const auto& script = m_world.cold_start;
    if (script.setup_error) return *script.setup_error;
    std::filesystem::create_directories(dir);
    const auto names = [](const std::set<std::string>& set) {
      std::string out = "[";
      for (const std::string& name : set) out += (out.size() > 1 ? ",\"" : "\"") + name + "\"";
      return out + "]";
    };
    const std::string spec = dir + "/spec.json";
    std::ofstream(spec) << "{\"launches\": \"" << script.launches << "\", \"fail\": " << names(script.fail)
                        << ", \"differ\": " << names(script.differ) << ", \"no_memory\": " << names(script.no_memory)
                        << ", \"compile_ms\": " << script.compile_ms << "}";
    return ColdStartSetup{{OHPROF_TEST_PYTHON3, std::string(OHPROF_SOURCE_DIR) + "/test/session/fake_cold_start_child.py", spec},
                          script.artifacts_unavailable, script.module_unavailable};
  }
  std::vector<CompileEvent> compile_events() override {
    std::vector<CompileEvent> events = m_world.compile_events;
    const std::lock_guard lock(m_world.threads->mutex);
    if (!m_world.threads->calls.empty()) {
      for (int i = 0; i < m_world.compile_events_during_threads; ++i) {
        events.push_back(CompileEvent{CompileEventKind::dynamo_compile, "9/" + std::to_string(i), 0, 0, "fake thread"});
      }
    }
    return events;
  }
  // The session passes this to the AOTI loader (compare's paths share their inputs).
  TensorBundlePtr m_inputs = std::make_shared<const TensorBundle>(TensorBundle{"session inputs"});

 private:
  FakeWorld& m_world;
};

class FakeObserver final : public IterationObserver {
 public:
  explicit FakeObserver(FakeWorld& world) : m_world(world) {}
  void on_measurement_begin() override { record(ObserverEvent::Kind::measurement_begin, -1, false); }
  void on_iteration_begin(std::int64_t index, bool warmup) override {
    record(ObserverEvent::Kind::iteration_begin, index, warmup);
  }
  void on_iteration_end(std::int64_t index, bool warmup) override {
    record(ObserverEvent::Kind::iteration_end, index, warmup);
  }
  void on_measurement_end() override { record(ObserverEvent::Kind::measurement_end, -1, false); }

 private:
  void record(ObserverEvent::Kind kind, std::int64_t index, bool warmup) {
    m_world.observed.push_back(ObserverEvent{kind, index, warmup, m_world.calls});
  }
  FakeWorld& m_world;
};

class FakeCollector final : public SplitCollector {
 public:
  explicit FakeCollector(FakeWorld& world) : m_world(world), m_observer(world) {}
  [[nodiscard]] IterationObserver* observer() override { return m_world.collector.available ? &m_observer : nullptr; }
  [[nodiscard]] std::string unavailable_reason() const override {
    return m_world.collector.available ? "" : m_world.collector.unavailable_reason;
  }
  [[nodiscard]] CollectorKind kind() const override {
    return m_world.collector.available ? m_world.collector.kind : CollectorKind::none;
  }
  Result<SplitCollection> finish(const std::vector<IterationWindow>& iterations) override {
    m_world.finished.push_back(iterations);
    if (m_world.collector.finish_error) return *m_world.collector.finish_error;
    SplitCollection collection;
    collection.collector = m_world.collector.kind;
    collection.timeline = fake_timeline(iterations, m_world.collector.kernels_per_path);
    collection.cpu_events = m_world.collector.cpu_events;
    collection.warnings = m_world.collector.warnings;
    return collection;
  }

 private:
  FakeWorld& m_world;
  FakeObserver m_observer;
};

}  // namespace

void FakeDeviceMemory::allocate(std::int64_t bytes) {
  state.allocated_bytes += bytes;
  state.peak_allocated_bytes = std::max(state.peak_allocated_bytes, state.allocated_bytes);
  // The cache (reserved less the private pools) grows only when what is allocated outgrows it.
  const std::int64_t grow = state.allocated_bytes - (state.reserved_bytes - *state.private_pool_bytes);
  if (grow > 0) {
    state.reserved_bytes += grow;
    *state.used_bytes += grow;
  }
}

void FakeDeviceMemory::free(std::int64_t bytes) { state.allocated_bytes -= bytes; }

Runtime FakeWorld::runtime() {
  Runtime runtime;
  runtime.torch_info = [this] { return torch; };
  runtime.load_aoti = [this](const AotiLoadOptions& options) -> Result<std::unique_ptr<AotiRunner>> {
    loads.push_back(options);
    if (load_error) return *load_error;
    built.push_back("aoti");
    fake_device_build(*this, aoti);
    return std::unique_ptr<AotiRunner>(std::make_unique<FakeAotiRunner>(*this, options.runners));
  };
  if (with_python) {
    runtime.open_model = [this](const ModelSessionOptions& options) -> Result<std::unique_ptr<ModelSession>> {
      opens.push_back(options);
      if (open_error) return *open_error;
      if (open_fails) {
        if (std::optional<Error> error = open_fails(options)) return *error;
      }
      return std::unique_ptr<ModelSession>(std::make_unique<FakeModelSession>(*this));
    };
  }
  runtime.start_collector = [this](const SplitCollectorOptions& options) -> std::unique_ptr<SplitCollector> {
    collector_starts.push_back(options);
    return std::make_unique<FakeCollector>(*this);
  };
  if (device_memory) {
    runtime.read_device_memory = [this](int index, bool reset_peak) -> std::optional<DeviceMemoryReading> {
      FakeDeviceMemory& d = *device_memory;
      d.reads.emplace_back(index, reset_peak);
      if (d.fail) return std::nullopt;
      if (reset_peak) d.state.peak_allocated_bytes = d.state.allocated_bytes;
      return d.state;
    };
  }
  if (with_inputs_files) {
    runtime.inputs_file_specs = [this](const std::string& path) -> Result<InputsFileSpecs> {
      file_reads.push_back(path);
      if (file_error) return *file_error;
      return InputsFileSpecs{file_specs, file_digest};
    };
  }
  runtime.cupti_version = [this] { return cupti_version; };
  runtime.cupti_library = [this] { return cupti_library; };
  if (with_page) {
    runtime.render_sweep_page = [this](const std::string& report, const std::string& page) -> Status {
      pages.emplace_back(report, page);
      if (page_error) return *page_error;
      return ok_status();
    };
  }
  runtime.attribute_package_kernels = [this](const std::string& package_path, const std::vector<CpuEvent>& events,
                                             std::int64_t first, std::int64_t last) {
    attributions.push_back(AttributionCall{package_path, events.size(), first, last});
    return attribution;
  };
  return runtime;
}

std::vector<std::pair<std::int64_t, bool>> FakeWorld::iteration_begins() const {
  std::vector<std::pair<std::int64_t, bool>> out;
  for (const auto& event : observed) {
    if (event.kind == ObserverEvent::Kind::iteration_begin) out.emplace_back(event.index, event.warmup);
  }
  return out;
}

Timeline fake_timeline(const std::vector<IterationWindow>& windows,
                       const std::vector<std::vector<std::string>>& kernels_per_path) {
  Timeline timeline;
  timeline.ops_have_launches = true;
  std::uint64_t correlation = 0;
  for (const auto& window : windows) {
    timeline.iterations.push_back(window);
    if (kernels_per_path.empty()) continue;
    const auto path = static_cast<std::size_t>(window.index / kIterationsPerPath);
    const auto& kernels = kernels_per_path[std::min(path, kernels_per_path.size() - 1)];
    for (std::size_t k = 0; k < kernels.size(); ++k) {
      const auto step = static_cast<std::int64_t>(k) * kKernelStepNs;
      ++correlation;
      LaunchCall launch;
      launch.kind = LaunchKind::kernel;
      launch.start_ns = window.start_ns + kLaunchOffsetNs + step;
      launch.end_ns = launch.start_ns + kLaunchNs;
      launch.thread_id = 1;
      launch.correlation = correlation;
      launch.iteration = window.index;
      launch.name = "cudaLaunchKernel";
      timeline.launches.push_back(launch);
      DeviceOp op;
      op.kind = DeviceOpKind::kernel;
      op.start_ns = window.start_ns + kKernelOffsetNs + step;
      op.end_ns = op.start_ns + kKernelNs;
      op.stream = kStream;
      op.correlation = correlation;
      op.name = kernels[k];
      timeline.ops.push_back(op);
    }
  }
  return timeline;
}

void spin_for_ns(std::int64_t ns) {
  const std::int64_t until = monotonic_now_ns() + ns;
  while (monotonic_now_ns() < until) {
  }
}

std::string make_temp_dir(const std::string& tag) {
  static std::atomic<int> counter{0};
  const auto dir = std::filesystem::temp_directory_path() /
                   ("ohprof-session-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string make_temp_file(const std::string& tag, const std::string& name) {
  const std::string path = make_temp_dir(tag) + "/" + name;
  std::ofstream(path) << "not a real package: the fakes never read it\n";
  return path;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> warning_texts(const Report& report) {
  std::vector<std::string> texts;
  for (const auto& warning : report.warnings) texts.push_back(warning.message);
  return texts;
}

std::vector<WarningCode> warning_codes(const Report& report) {
  std::vector<WarningCode> codes;
  for (const auto& warning : report.warnings) codes.push_back(warning.code);
  return codes;
}

bool has_warning_containing(const Report& report, const std::string& part) {
  return std::any_of(report.warnings.begin(), report.warnings.end(),
                     [&](const Warning& warning) { return warning.message.find(part) != std::string::npos; });
}

bool has_warning(const Report& report, WarningCode code, const std::string& part) {
  return std::any_of(report.warnings.begin(), report.warnings.end(), [&](const Warning& warning) {
    return warning.code == code && warning.message.find(part) != std::string::npos;
  });
}

}  // namespace ohprof::fake

namespace ohprof {
void PrintTo(const StopReason& reason, std::ostream* os) { *os << "\"" << stop_reason_text(reason) << "\""; }
}  // namespace ohprof
