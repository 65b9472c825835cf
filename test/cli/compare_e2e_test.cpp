// End to end: `ohprof compare` runs aoti, torch.compile and eager on a tiny CPU model in one process.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <csignal>
#include <optional>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "cli_harness.hpp"
#include "ohprof/base/exit_codes.hpp"

namespace ohprof {
namespace {

using nlohmann::json;
using testing::make_temp_dir;
using testing::read_file;
using testing::run_ohprof;

using testing::code;
using testing::line_count;

// Few, fixed iterations: these tests check behaviour, not speed.
std::vector<std::string> quick(std::vector<std::string> args) {
  for (const char* arg : {"--device", "cpu", "--warmup", "1", "--min-runs", "3", "--max-runs", "3", "--min-time", "0",
                          "--quiet"}) {
    args.emplace_back(arg);
  }
  return args;
}

class CompareE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_cache = make_temp_dir("compare-cache");
    ::setenv("PYTHONPATH", OHPROF_SOURCE_DIR "/examples/models", 1);  // tiny_models for --model
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(s_cache); }
  void SetUp() override { m_dir = make_temp_dir("compare"); }
  void TearDown() override { std::filesystem::remove_all(m_dir); }
  static std::vector<std::string> endless_compare(const std::string& report_path);
  static std::string s_cache;
  std::string m_dir;
};
std::string CompareE2E::s_cache;

// Processes that spin until killed (or their parent dies, or 5 minutes pass), twice as many as the machine
// has CPUs: beside them every thread waits for a CPU about half the time (2N + 1 runnable threads on N
// CPUs), whatever N is.
class Spinners {
 public:
  explicit Spinners(unsigned count) {
    for (unsigned i = 0; i < count; ++i) {
      const pid_t pid = ::fork();
      if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        ::alarm(300);
        volatile unsigned long n = 0;
        while (true) n = n + 1;
      }
      if (pid > 0) m_pids.push_back(pid);
    }
  }
  ~Spinners() {
    for (const pid_t pid : m_pids) ::kill(pid, SIGKILL);
    for (const pid_t pid : m_pids) ::waitpid(pid, nullptr, 0);
  }
  Spinners(const Spinners&) = delete;
  Spinners& operator=(const Spinners&) = delete;

 private:
  std::vector<pid_t> m_pids;
};

// docs/metrics.md, "Waiting for a core": measured beside spinning processes, the measuring thread's wait is
// in each path's run_queue and the cores-busy warning names the paths (one intra-op thread, so the
// measuring thread is the one that runs the model). The fixture's program and package: nothing is built
// beside the spinners.
TEST_F(CompareE2E, BusyCoresAreNamed) {
  const bool readable = ::access("/proc/thread-self/schedstat", R_OK) == 0;
  const std::string report_path = m_dir + "/busy.json";
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  const char* before = std::getenv("OMP_NUM_THREADS");
  struct Restore {
    std::optional<std::string> value;
    ~Restore() { value ? ::setenv("OMP_NUM_THREADS", value->c_str(), 1) : ::unsetenv("OMP_NUM_THREADS"); }
  } restore{before ? std::optional<std::string>(before) : std::nullopt};
  ::setenv("OMP_NUM_THREADS", "1", 1);
  testing::CommandOutput result;
  {
    const Spinners spinners(std::min(2 * cpus, 1024u));
    result = run_ohprof({"compare", "--exported", OHPROF_TINY_PROGRAM, "--aoti", OHPROF_TINY_PACKAGE, "--paths",
                         "aoti,eager", "--device", "cpu", "--warmup", "3", "--min-runs", "20", "--max-runs", "1000000",
                         "--min-time", "0.4", "--max-rse", "1", "--time-limit", "60", "--no-explain", "--quiet",
                         "--export-json", report_path});
  }
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json report = json::parse(read_file(report_path));
  for (const json& path : report["paths"]) {
    const json& queue = path["run_queue"];
    if (!readable) {
      EXPECT_TRUE(queue.is_null()) << path["name"];
      continue;
    }
    ASSERT_FALSE(queue.is_null()) << path["name"] << ": the file is there, but the wait was not read";
    const double span = queue["span_ns"].get<double>();
    EXPECT_GE(span, 0.4e9) << path["name"];
    EXPECT_GE(queue["waited_ns"].get<double>() / span, 0.05) << path["name"] << ": " << queue.dump();
  }
  if (!readable) GTEST_SKIP() << "no /proc/thread-self/schedstat here: run_queue is null, as documented";
  bool named = false;
  for (const json& warning : report["warnings"]) {
    if (warning["code"] == "cores-busy") {
      named = true;
      const std::string message = warning["message"].get<std::string>();
      EXPECT_NE(message.find(" aoti "), std::string::npos) << message;
      EXPECT_NE(message.find(" eager "), std::string::npos) << message;
    }
  }
  EXPECT_TRUE(named) << result.err;
  EXPECT_NE(result.err.find("warning: the measuring thread waited for a CPU for "), std::string::npos) << result.err;
}

// Both runs share one cache: the first exports and compiles, the second must reuse the artifacts.
TEST_F(CompareE2E, AllPathsRunInOneProcessAgreeAndReuseTheCache) {
  const std::string first_report = m_dir + "/first.json";
  const auto first = run_ohprof(quick({"compare", "--model", "tiny_models:tiny_mlp", "--input", "4,16", "--paths",
                                       "aoti,aoti:python,compile,compile:cpp-wrapper,eager", "--cache-dir", s_cache,
                                       "--export-json", first_report}));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const json report = json::parse(read_file(first_report));
  EXPECT_EQ(report["kind"], "compare");
  EXPECT_FALSE(report["artifacts"]["cached"].get<bool>());
  EXPECT_GT(report["artifacts"]["export_ns"].get<std::int64_t>(), 0);
  EXPECT_GT(report["artifacts"]["aoti_compile_ns"].get<std::int64_t>(), 0);
  EXPECT_EQ(report["config"]["inputs"], json::array({"[4, 16]:float32"}));
  EXPECT_EQ(report["config"]["compare"]["compile_source"], "module");
  const json& paths = report["paths"];
  // The paths asked for, then the variants of compile's and compile:cpp-wrapper's chains.
  const std::vector<std::string> names{"aoti", "aoti:python", "compile", "compile:cpp-wrapper", "eager",
                                       "compile/no-guards", "compile/graph", "compile/inductor", "compile/call",
                                       "compile:cpp-wrapper/no-guards", "compile:cpp-wrapper/graph",
                                       "compile:cpp-wrapper/inductor", "compile:cpp-wrapper/call"};
  ASSERT_EQ(paths.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const json& path = paths[i];
    EXPECT_EQ(path["name"], names[i]);
    EXPECT_EQ(path["role"], i < 5 ? "path" : "variant") << names[i];
    EXPECT_EQ(path["source"], names[i].rfind("aoti", 0) == 0 ? "aoti_package" : "module") << names[i];
    EXPECT_EQ(path["samples_ns"].size(), 3u) << names[i];
    EXPECT_EQ(path["warmup_ns"].size(), 1u) << names[i];
    EXPECT_EQ(path["wall_ns"]["count"], 3) << names[i];
    for (const auto& sample : path["samples_ns"]) EXPECT_GT(sample.get<std::int64_t>(), 0);
    if (names[i] == "eager") {
      EXPECT_TRUE(path["output_check"].is_null());
    } else {
      // AOTI load, or torch.compile's first call (a variant reuses its path's compiled code)
      if (i < 5) EXPECT_GT(path["load_ns"].get<std::int64_t>(), 0) << names[i];
      EXPECT_EQ(path["output_check"]["reference"], "eager");
      EXPECT_TRUE(path["output_check"]["passed"].get<bool>()) << path["output_check"].dump();
    }
  }
  ASSERT_EQ(report["ratios"].size(), 4u);
  // Without --kernel-profile the CPU kernels do not record themselves: the explanations say the kernel
  // term is unknown rather than compare recorded ATen ops with unrecorded generated code.
  ASSERT_FALSE(report["explanations"].empty());
  for (const auto& e : report["explanations"]) {
    EXPECT_TRUE(e["kernels"].is_null()) << e.dump();
    EXPECT_NE(e["missing"].dump().find("--kernel-profile"), std::string::npos) << e["missing"].dump();
  }
  for (const auto& ratio : report["ratios"]) EXPECT_GE(ratio["ratio"].get<double>(), 1.0);
  // min runs = max runs = 3: after three rounds the loop stops either way, and which reason it gives
  // depends on the noise of these samples. Recompute each path's relative standard error of the mean
  // (sample stddev / (mean * sqrt(n))) against the default --max-rse of 1%.
  bool every_path_converged = true;
  for (const auto& path : paths) {  // variants included: the stopping rule waits for them too
    std::vector<double> samples;
    for (const auto& sample : path["samples_ns"]) samples.push_back(sample.get<double>());
    double mean = 0;
    for (double x : samples) mean += x / static_cast<double>(samples.size());
    double squares = 0;
    for (double x : samples) squares += (x - mean) * (x - mean);
    const double rse = std::sqrt(squares / static_cast<double>(samples.size() - 1)) /
                       (mean * std::sqrt(static_cast<double>(samples.size())));
    every_path_converged = every_path_converged && rse <= 0.01;
  }
  const std::string stop_reason = report["stop_reason"];
  if (every_path_converged) {
    EXPECT_EQ(stop_reason, "converged");
  } else {
    EXPECT_EQ(stop_reason.rfind("max runs reached (unmet: ", 0), 0u) << stop_reason;
  }

  const std::string package = report["artifacts"]["aoti_package"];
  struct stat before {};
  ASSERT_EQ(stat(package.c_str(), &before), 0);

  const std::string second_report = m_dir + "/second.json";
  const auto second = run_ohprof(quick({"compare", "--model", "tiny_models:tiny_mlp", "--input", "4,16", "--paths",
                                        "aoti,eager", "--cache-dir", s_cache, "--export-json", second_report}));
  ASSERT_EQ(second.exit_code, 0) << second.err;
  const json again = json::parse(read_file(second_report));
  EXPECT_TRUE(again["artifacts"]["cached"].get<bool>());
  EXPECT_TRUE(again["artifacts"]["export_ns"].is_null());
  EXPECT_EQ(again["artifacts"]["aoti_package"], package);
  struct stat after {};
  ASSERT_EQ(stat(package.c_str(), &after), 0);
  EXPECT_EQ(before.st_ino, after.st_ino);  // not rewritten
  EXPECT_EQ(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
}

double median_of(const json& samples) {
  std::vector<double> v;
  for (const auto& s : samples) v.push_back(s.get<double>());
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The explanation on the two-layer MLP at batch 1 (docs/metrics.md, "Explanation"): every layer of
// compile's chain is there, equal to the difference of its variants' medians recomputed here from the
// samples, non-negative within three standard errors or named in the answer as below zero, and the terms
// add up to the gap.
TEST_F(CompareE2E, TheGapBetweenCompileAndAotiIsSplitIntoLayersThatAddUp) {
  const std::string report_path = m_dir + "/explain.json";
  const auto result = run_ohprof({"compare", "--model", "tiny_models:tiny_mlp", "--input", "1,16", "--paths",
                                  "aoti,aoti:python,compile,eager", "--device", "cpu", "--kernel-profile", "--warmup", "20",
                                  "--min-runs", "400", "--max-runs", "400", "--min-time", "0", "--quiet",
                                  "--cache-dir", s_cache, "--export-json", report_path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json report = json::parse(read_file(report_path));
  std::map<std::string, const json*> by_name;
  for (const auto& path : report["paths"]) by_name[path["name"].get<std::string>()] = &path;
  const auto median = [&](const std::string& name) { return median_of((*by_name.at(name))["samples_ns"]); };

  const json* compile = nullptr;
  const json* loader = nullptr;
  for (const auto& e : report["explanations"]) {
    EXPECT_EQ(e["faster"], "aoti") << e["answer"];  // AOTI's C++ runner is the fastest by far
    if (e["slower"] == "compile") compile = &e;
    if (e["slower"] == "aoti:python") loader = &e;
  }
  ASSERT_NE(compile, nullptr) << report["explanations"].dump();
  ASSERT_NE(loader, nullptr);
  const json& e = *compile;
  EXPECT_DOUBLE_EQ(e["gap"]["value_ns"].get<double>(), median("compile") - median("aoti"));
  EXPECT_TRUE(e["missing"].empty()) << e["missing"].dump();
  const std::vector<std::string> layers{"guards", "dynamo", "aot_wrapper", "inductor_call"};
  // each layer is the difference of the variants docs/metrics.md names for it, in the chain's order
  const std::vector<std::pair<std::string, std::string>> variants{{"compile", "compile/no-guards"},
                                                                   {"compile/no-guards", "compile/graph"},
                                                                   {"compile/graph", "compile/inductor"},
                                                                   {"compile/inductor", "compile/call"}};
  ASSERT_EQ(e["layers"].size(), layers.size());
  double sum = e["kernels"]["value_ns"].get<double>() + e["wrapper"]["value_ns"].get<double>() +
               e["residual"]["value_ns"].get<double>();
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const json& layer = e["layers"][i];
    EXPECT_EQ(layer["layer"], layers[i]);
    EXPECT_EQ(layer["upper"], variants[i].first) << layers[i];
    EXPECT_EQ(layer["lower"], variants[i].second) << layers[i];
    const double value = layer["estimate"]["value_ns"].get<double>();
    EXPECT_DOUBLE_EQ(value, median(layer["upper"]) - median(layer["lower"])) << layers[i];
    if (value + 3 * layer["estimate"]["se_ns"].get<double>() < 0) {
      // A variant that runs less ran slower, beyond three standard errors: caches or placement on a busy machine
      // (tools/test runs two tests at once; docs/results/cpu-what-if-rebuilds-2026-12-06.md). It is no cost, and
      // the answer must say so rather than add it up as one.
      const std::string below = "(below zero: " + layer["lower"].get<std::string>() + " ran slower than " +
                                layer["upper"].get<std::string>() + ", which runs more;";
      EXPECT_NE(e["answer"].get<std::string>().find(below), std::string::npos) << layers[i] << ": " << e["answer"];
    }
    sum += value;
  }
  EXPECT_NEAR(sum, e["gap"]["value_ns"].get<double>(), 1e-6 * e["gap"]["value_ns"].get<double>());
  // What lies below the chains: the floors' difference, split into the kernels, the wrapper, the residual.
  EXPECT_DOUBLE_EQ(e["floor_gap"]["value_ns"].get<double>(), median("compile/call") - median("aoti"));
  EXPECT_EQ(e["floor_kind_slower"], "python_wrapper");
  EXPECT_EQ(e["floor_kind_faster"], "cpp_runner");
  EXPECT_NE(e["answer"].get<std::string>().find("compile is "), std::string::npos) << e["answer"];
  // Dynamo's entry, the biggest layer on this model, is a real cost: far above its spread.
  EXPECT_GT(e["layers"][1]["estimate"]["value_ns"].get<double>(), 3 * e["layers"][1]["estimate"]["se_ns"].get<double>());
  // The second view: Dynamo's own ranges, recorded by the CPU collector in compile's split pass.
  ASSERT_EQ(e["dynamo_ranges"].size(), 1u) << e.dump();
  EXPECT_EQ(e["dynamo_ranges"][0]["path"], "compile");
  EXPECT_GT(e["dynamo_ranges"][0]["cache_lookup"]["value_ns"].get<double>(), 0);
  EXPECT_GT(e["dynamo_ranges"][0]["outside_region"]["value_ns"].get<double>(), 0);
  EXPECT_EQ((*by_name.at("compile"))["dynamo_ranges"]["iterations"], (*by_name.at("compile"))["split"]["iterations"].size());
  EXPECT_TRUE((*by_name.at("aoti"))["dynamo_ranges"].is_null());
  // The execution check on a model that neither recompiles nor breaks its graph: nothing compiled while
  // 400 iterations of each path were measured, one graph, every sample kept.
  for (const auto& [name, path] : by_name) {
    const json& ran = (*path)["execution"];
    ASSERT_TRUE(ran.is_object()) << name;
    EXPECT_TRUE(ran["measured_compiles"].empty()) << name << ": " << ran.dump();
    EXPECT_EQ(ran["excluded_iterations"], 0) << name;
    EXPECT_EQ(ran["device"], "cpu") << name;
    EXPECT_EQ(ran["cuda_graphs"], "not-applicable") << name;
    const bool through_dynamo = name == "compile" || name == "compile/no-guards";
    EXPECT_EQ(ran["dynamo"], through_dynamo) << name;
    if (through_dynamo) {
      EXPECT_EQ(ran["graphs"], 1) << name;
      EXPECT_TRUE(ran["graph_breaks"].empty()) << name;
      // The probe after the timing pass found its compiled graph.
      EXPECT_EQ(ran["compiled_call"], "compiled") << name;
    } else {
      EXPECT_TRUE(ran["compiled_call"].is_null()) << name;
    }
    // Memory (docs/metrics.md, "Memory"): a peak is never below what is kept after it, nor below the
    // resident set it was reset to; the memory pass made its calls.
    const json& memory = (*path)["memory"];
    ASSERT_TRUE(memory.is_object()) << name;
    ASSERT_TRUE(memory["build_peak_bytes"].is_number()) << name << ": " << memory.dump();
    EXPECT_GE(memory["build_peak_bytes"].get<std::int64_t>(), memory["build_retained_bytes"].get<std::int64_t>())
        << name;
    EXPECT_GE(memory["build_peak_bytes"].get<std::int64_t>(), 0) << name;
    ASSERT_TRUE(memory["run_peak_bytes"].is_number()) << name << ": " << memory.dump();
    EXPECT_GE(memory["run_peak_bytes"].get<std::int64_t>(), 0) << name;
    EXPECT_EQ(memory["run_calls"], 3) << name;
  }
  // aoti:python against aoti: one layer, its Python loader, the whole gap.
  ASSERT_EQ((*loader)["layers"].size(), 1u);
  EXPECT_EQ((*loader)["layers"][0]["layer"], "python_loader");
  EXPECT_DOUBLE_EQ((*loader)["layers"][0]["estimate"]["value_ns"].get<double>(), median("aoti:python") - median("aoti"));
}

TEST_F(CompareE2E, KernelProfiledCpuSplitForAotiAndCompile) {
  const std::string report_path = m_dir + "/split.json";
  const auto result = run_ohprof(quick({"compare", "--model", "tiny_models:tiny_mlp", "--input", "4,16", "--paths",
                                        "aoti,compile", "--kernel-profile", "--cache-dir", s_cache,
                                        "--export-json", report_path}));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json report = json::parse(read_file(report_path));
  for (const auto& path : report["paths"]) {
    const json& split = path["split"];
    ASSERT_TRUE(split["available"].get<bool>()) << path["name"] << split.dump();
    EXPECT_EQ(path["split_collector"], "record_function");
    EXPECT_EQ(split["iterations"].size(), 3u) << path["name"];  // the split pass: as many runs as measured
    EXPECT_GT(split["summary"]["gpu"]["busy_ns"]["median"].get<double>(), 0.0) << path["name"];
    for (const auto& it : split["iterations"]) {
      EXPECT_EQ(it["gpu"]["busy_ns"].get<std::int64_t>() + it["gpu"]["idle_ns"].get<std::int64_t>(),
                it["wall_ns"].get<std::int64_t>());
    }
  }
  // Both paths ran Inductor's fused kernels for the same graph.
  const auto kernel_names = [](const json& path) {
    std::set<std::string> names;
    for (const auto& kernel : path["split"]["kernels"]) names.insert(kernel["name"].get<std::string>());
    return names;
  };
  const auto aoti = kernel_names(report["paths"][0]);
  const auto compile = kernel_names(report["paths"][1]);
  EXPECT_TRUE(aoti.count("graph_0_cpp_fused_relu_0") || aoti.count("cpp_fused_relu_0")) << report["paths"][0]["split"]["kernels"].dump();
  bool compile_has_fused = false;
  for (const auto& name : compile) compile_has_fused = compile_has_fused || name.find("cpp_fused_relu") != std::string::npos;
  EXPECT_TRUE(compile_has_fused) << report["paths"][1]["split"]["kernels"].dump();
  EXPECT_TRUE(report["paths"][0]["kernel_attribution"]["unattributed"].empty());
  ASSERT_EQ(report["kernel_diffs"].size(), 1u);
}

TEST_F(CompareE2E, TablePrintsEachPathAndTheRatios) {
  const auto result = run_ohprof({"compare", "--exported", OHPROF_TINY_PROGRAM, "--aoti", OHPROF_TINY_PACKAGE,
                                  "--paths", "aoti,eager", "--device", "cpu", "--warmup", "0", "--min-runs", "2",
                                  "--max-runs", "2", "--cache-dir", s_cache});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("path aoti"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("path eager"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("outputs:       match vs eager"), std::string::npos) << result.out;
  // the ratio with its 95% interval: "times faster than" or, with two runs, maybe "within noise: ratio"
  EXPECT_NE(result.out.find("(95% interval "), std::string::npos) << result.out;
}

TEST_F(CompareE2E, PackageOfAnotherModelIsCaughtByTheOutputCheck) {
  const std::vector<std::string> args{"compare", "--exported", OHPROF_TINY_PROGRAM, "--aoti",
                                      OHPROF_TINY_VARIANT_PACKAGE, "--paths", "aoti,eager", "--cache-dir", s_cache};
  const auto warned = run_ohprof(quick(args));
  EXPECT_EQ(warned.exit_code, 0) << warned.err;
  EXPECT_NE(warned.err.find("OUTPUTS DIFFER: path aoti does not match eager"), std::string::npos) << warned.err;

  const std::string report_path = m_dir + "/strict.json";
  auto strict_args = quick(args);
  for (const char* arg : {"--check-outputs", "strict", "--export-json"}) strict_args.emplace_back(arg);
  strict_args.push_back(report_path);
  const auto strict = run_ohprof(strict_args);
  EXPECT_EQ(strict.exit_code, code(ExitCode::output_mismatch)) << strict.err;
  const json report = json::parse(read_file(report_path));  // the checks are still reported
  EXPECT_FALSE(report["paths"][0]["output_check"]["passed"].get<bool>());
  EXPECT_GT(report["paths"][0]["output_check"]["max_abs_diff"].get<double>(), 0.0);
}

struct BadModelCase {
  const char* model;
  const char* input;
  ExitCode expected;
  const char* message;
  const char* paths = "aoti,compile,eager";
};

TEST_F(CompareE2E, BadModelSpecsGiveOneLineErrors) {
  const BadModelCase cases[] = {
      {"no_such_module_xyz:factory", "4,16", ExitCode::model_not_found, "cannot import module 'no_such_module_xyz'"},
      {"tiny_models:no_such_factory", "4,16", ExitCode::model_not_found, "has no attribute 'no_such_factory'"},
      {"tiny_models:raises", "4,16", ExitCode::model_error, "raised RuntimeError: this factory always fails"},
      {"tiny_models:not_a_module", "4,16", ExitCode::model_error, "returned int, not a torch.nn.Module"},
      // Inputs the model rejects: said in its own words (an eager call before any path is built), whichever
      // paths were asked for, where without an export path torch.compile's failure once said it (exit 9).
      {"tiny_models:tiny_mlp", "4,16,3,3", ExitCode::input_mismatch,
       "the model rejects these inputs (4x16x3x3:float32) when run eagerly: RuntimeError: "},
      {"tiny_models:tiny_mlp", "4,12", ExitCode::input_mismatch,
       "the model rejects these inputs (4x12:float32) when run eagerly: RuntimeError: ", "compile,eager"},
      {"tiny_models:two_inputs", "4,16", ExitCode::input_mismatch,
       "TypeError: ScaledMLP.forward() missing 1 required positional argument: 'scale'; pass one --input", "compile"},
      {"tiny_models_without_colon", "4,16", ExitCode::usage_error, "must be module:factory"},
  };
  for (const auto& c : cases) {
    const auto result = run_ohprof(
        quick({"compare", "--model", c.model, "--input", c.input, "--paths", c.paths, "--cache-dir", s_cache}));
    EXPECT_EQ(result.exit_code, code(c.expected)) << c.model << ": " << result.err;
    EXPECT_NE(result.err.find(c.message), std::string::npos) << c.model << ": " << result.err;
    EXPECT_EQ(line_count(result.err), 1u) << c.model << ": " << result.err;
  }
}

// A model that prints on every call: its lines go to stderr, so that stdout holds ohprof's JSON alone with
// --export-json - (and its table alone without).
TEST_F(CompareE2E, TheModelsOwnPrintsGoToStderr) {
  const auto result = run_ohprof(quick({"compare", "--model", "tiny_models:printing", "--input", "4,16", "--paths",
                                        "compile,eager", "--no-explain", "--cache-dir", s_cache, "--export-json", "-"}));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json report = json::parse(result.out);  // throws, failing the test, on anything but JSON
  EXPECT_EQ(report["paths"].size(), 2u);
  EXPECT_NE(result.err.find("printing_mlp: forward called"), std::string::npos) << result.err;
}

// aoti against eager until it is stopped from outside; signalled once the report's first checkpoint
// exists, that is once at least one round was measured.
std::vector<std::string> CompareE2E::endless_compare(const std::string& report_path) {
  return {"compare", "--exported", OHPROF_TINY_PROGRAM, "--aoti", OHPROF_TINY_PACKAGE, "--paths", "aoti,eager",
          "--device", "cpu", "--min-runs", "100000000", "--max-runs", "100000000", "--time-limit", "600",
          "--cache-dir", s_cache, "--export-json", report_path};
}

TEST_F(CompareE2E, InterruptedCompareStillWritesWhatItMeasured) {
  const std::string report_path = m_dir + "/interrupted.json";
  const auto result = testing::run_ohprof_and_interrupt(
      endless_compare(report_path),
      {"in interleaved rounds", report_path}, 120);
  ASSERT_EQ(result.exit_code, code(ExitCode::interrupted)) << result.err;
  const json report = json::parse(read_file(report_path));
  EXPECT_TRUE(report["interrupted"].get<bool>());
  EXPECT_EQ(report["stop_reason"], "interrupted");
  for (const auto& path : report["paths"]) {
    EXPECT_GT(path["samples_ns"].size(), 0u) << path["name"];
    EXPECT_EQ(path["split"]["reason"], "measurement stopped before the split pass");
  }
}

TEST_F(CompareE2E, KilledCompareLeavesItsLastCheckpoint) {
  const std::string report_path = m_dir + "/killed.json";
  const auto result = testing::run_ohprof_and_interrupt(
      endless_compare(report_path),
      {"in interleaved rounds", report_path}, 120, SIGKILL);
  ASSERT_EQ(result.exit_code, 128 + SIGKILL) << result.err;
  const json report = json::parse(read_file(report_path));
  EXPECT_EQ(report["stop_reason"], "in progress");
  EXPECT_FALSE(report["interrupted"].get<bool>());
  ASSERT_EQ(report["paths"].size(), 2u);
  for (const auto& path : report["paths"]) {
    EXPECT_EQ(path["stop_reason"], "in progress") << path["name"];
    ASSERT_GT(path["samples_ns"].size(), 0u) << path["name"];
    EXPECT_EQ(path["wall_ns"]["count"], path["samples_ns"].size()) << path["name"];
    EXPECT_EQ(path["split"]["reason"], "the split pass had not finished when this checkpoint was written");
  }
  // Checkpoints are written between interleaved rounds, so every path has run as often.
  EXPECT_EQ(report["paths"][0]["samples_ns"].size(), report["paths"][1]["samples_ns"].size());
  EXPECT_EQ(report["ratios"].size(), 1u);
}

// --inputs FILE: the user's own tensors (docs/usage.md, "Your own inputs"); the values reaching each path
// are checked against the model in test/tools/inputs_file_check.py, the command line here.
TEST_F(CompareE2E, OwnInputsFromAFileAreMeasuredAndBadFilesAreOneLine) {
  const std::string inputs = m_dir + "/inputs.pt";
  const std::string keywords = m_dir + "/keywords.pt";
  const std::string not_tensors = m_dir + "/not-tensors.pt";
  const auto saved = testing::run_program(
      {OHPROF_PYTHON, "-c",
       "import sys, torch\n"
       "torch.save((torch.randn(3, 16),), sys.argv[1])\n"
       "torch.save({'x': torch.randn(3, 16), 'mode': [1, 2]}, sys.argv[2])\n"
       "torch.save((torch.randn(3, 16), 'text'), sys.argv[3])\n",
       inputs, keywords, not_tensors});
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  const std::string report_path = m_dir + "/report.json";
  const auto result = run_ohprof(quick({"compare", "--model", "tiny_models:tiny_mlp", "--inputs", inputs, "--paths",
                                        "aoti,aoti:python,compile,eager", "--no-explain", "--cache-dir", s_cache,
                                        "--export-json", report_path}));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json report = json::parse(read_file(report_path));
  EXPECT_EQ(report["config"]["inputs"], json::array({"[3, 16]:float32"}));
  // the file and its values' digest, recomputed here from docs/usage.md ("Your own inputs"): the one
  // positional tensor's "tensor float32 [3, 16];" and its bytes
  EXPECT_EQ(report["config"]["inputs_file"], inputs);
  const auto digest = testing::run_program(
      {OHPROF_PYTHON, "-c",
       "import hashlib, sys, torch\n"
       "(t,) = torch.load(sys.argv[1])\n"
       "h = hashlib.sha256(b'tensor float32 [3, 16];' + t.contiguous().numpy().tobytes())\n"
       "print(h.hexdigest()[:16])\n",
       inputs});
  ASSERT_EQ(digest.exit_code, 0) << digest.err;
  EXPECT_EQ(report["config"]["inputs_file_digest"].get<std::string>() + "\n", digest.out);
  for (const auto& path : report["paths"]) {
    EXPECT_FALSE(path["samples_ns"].empty()) << path["name"];
    if (path["name"] != "eager") EXPECT_TRUE(path["output_check"]["passed"].get<bool>()) << path["name"];
  }
  // Keyword inputs: forward(x) given x by name; the AOTI package gets it in its own flat order.
  const std::string by_name = m_dir + "/by-name.pt";
  ASSERT_EQ(testing::run_program({OHPROF_PYTHON, "-c", "import sys, torch; torch.save(((), {'x': torch.randn(5, 16)}), sys.argv[1])",
                                  by_name}).exit_code, 0);
  const std::string named_report = m_dir + "/named.json";
  const auto named = run_ohprof(quick({"compare", "--model", "tiny_models:tiny_mlp", "--inputs", by_name, "--paths",
                                       "aoti,aoti:python,compile,eager", "--no-explain", "--cache-dir", s_cache,
                                       "--export-json", named_report}));
  ASSERT_EQ(named.exit_code, 0) << named.err;
  const json named_json = json::parse(read_file(named_report));
  EXPECT_EQ(named_json["config"]["inputs"], json::array({"[5, 16]:float32"}));
  for (const auto& path : named_json["paths"]) {
    if (path["name"] != "eager") EXPECT_TRUE(path["output_check"]["passed"].get<bool>()) << path["name"];
  }
  // A zero-dimensional input (scale = torch.tensor(3.0)): the package records it as "[]:float32" and
  // LibTorch's C++ runner gets it as it was saved.
  const std::string with_scalar = m_dir + "/scalar.pt";
  ASSERT_EQ(testing::run_program({OHPROF_PYTHON, "-c",
                                  "import sys, torch; torch.save(((torch.randn(2, 16),), {'scale': torch.tensor(3.0)}), "
                                  "sys.argv[1])",
                                  with_scalar}).exit_code, 0);
  const std::string scalar_report = m_dir + "/scalar.json";
  const auto scalar = run_ohprof(quick({"compare", "--model", "tiny_models:two_inputs", "--inputs", with_scalar,
                                        "--paths", "aoti,aoti:python,compile,eager", "--no-explain", "--cache-dir",
                                        s_cache, "--export-json", scalar_report}));
  ASSERT_EQ(scalar.exit_code, 0) << scalar.err;
  const json scalar_json = json::parse(read_file(scalar_report));
  EXPECT_EQ(scalar_json["config"]["inputs"], json::array({"[2, 16]:float32", "[]:float32"}));
  for (const auto& path : scalar_json["paths"]) {
    EXPECT_FALSE(path["samples_ns"].empty()) << path["name"];
    if (path["name"] != "eager") EXPECT_TRUE(path["output_check"]["passed"].get<bool>()) << path["name"];
  }
  struct Case {
    std::vector<std::string> args;
    ExitCode exit;
    const char* says;
  };
  const std::vector<Case> cases{
      {{"--inputs", keywords}, ExitCode::input_mismatch, "keyword input 'mode' is a list"},
      {{"--inputs", not_tensors}, ExitCode::input_mismatch, "input 1 is a str, not a tensor"},
      {{"--inputs", m_dir + "/missing.pt"}, ExitCode::file_not_found, "does not exist"},
      {{"--inputs", inputs, "--input", "3,16"}, ExitCode::usage_error, "not both"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args{"compare", "--model", "tiny_models:tiny_mlp", "--paths", "aoti,eager", "--cache-dir",
                                  s_cache};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto bad = run_ohprof(quick(args));
    EXPECT_EQ(bad.exit_code, code(c.exit)) << bad.err;
    EXPECT_NE(bad.err.find(c.says), std::string::npos) << bad.err;
    EXPECT_EQ(line_count(bad.err), 1u) << bad.err;
  }
}

// A model torch.export cannot capture (its output holds a non-pytree object, as transformers'
// DynamicCache): aoti and aoti:python are reported as not measured, with export's reason and a hint, and
// compile and eager are measured and explained; paths that need no export never export.
TEST_F(CompareE2E, AModelThatDoesNotExportStillGetsCompileAgainstEager) {
  const std::string report_path = m_dir + "/report.json";
  const auto result = run_ohprof(quick({"compare", "--model", "tiny_models:not_exportable", "--input", "2,16",
                                        "--paths", "aoti,aoti:python,compile,eager", "--cache-dir", s_cache,
                                        "--export-json", report_path}));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json report = json::parse(read_file(report_path));
  EXPECT_EQ(report["artifacts"]["not_measured"], json::array({"aoti", "aoti:python"}));
  // The deployment summary says which asked paths it could not weigh.
  EXPECT_EQ(report["deployment"]["not_measured"], json::array({"aoti", "aoti:python"}));
  EXPECT_NE(report["deployment"]["text"].get<std::string>().find(
                "; not weighed, as torch.export could not capture the model: aoti, aoti:python"),
            std::string::npos) << report["deployment"]["text"];
  EXPECT_NE(report["artifacts"]["export_error"].get<std::string>().find("tiny_models.Cache"), std::string::npos);
  std::set<std::string> measured;
  for (const auto& path : report["paths"]) measured.insert(path["name"].get<std::string>());
  EXPECT_TRUE(measured.count("compile") && measured.count("eager")) << report["paths"].dump();
  EXPECT_FALSE(measured.count("aoti") || measured.count("aoti:python"));
  ASSERT_EQ(report["explanations"].size(), 1u);  // the two measured paths, whichever ran faster
  const std::set<std::string> pair{report["explanations"][0]["slower"].get<std::string>(),
                                   report["explanations"][0]["faster"].get<std::string>()};
  EXPECT_EQ(pair, (std::set<std::string>{"compile", "eager"}));
  bool warned = false;
  for (const auto& warning : report["warnings"]) {
    if (warning["code"] != "paths-not-measured") continue;
    warned = true;
    const std::string message = warning["message"];
    EXPECT_NE(message.find("aoti and aoti:python not measured"), std::string::npos) << message;
    EXPECT_NE(message.find("strict=False"), std::string::npos) << message;
  }
  EXPECT_TRUE(warned) << report["warnings"].dump();

  // Only paths that need the export: the export's error, as before (6).
  const auto only_aoti = run_ohprof(quick({"compare", "--model", "tiny_models:not_exportable", "--input", "2,16",
                                           "--paths", "aoti", "--cache-dir", s_cache}));
  EXPECT_EQ(only_aoti.exit_code, code(ExitCode::input_mismatch)) << only_aoti.err;
  EXPECT_EQ(line_count(only_aoti.err), 1u) << only_aoti.err;
  // A model export traces partly before it fails (a branch on a tensor's value): the error names the last
  // line it traced, and the partial graph torch prints to stderr is not printed.
  const auto branching = run_ohprof(quick({"compare", "--model", "tiny_models:branches_on_value", "--input", "2,16",
                                           "--paths", "aoti", "--cache-dir", s_cache}));
  EXPECT_EQ(branching.exit_code, code(ExitCode::input_mismatch)) << branching.err;
  EXPECT_EQ(line_count(branching.err), 1u) << branching.err;
  EXPECT_NE(branching.err.find("(the last line the export traced: "), std::string::npos) << branching.err;
  EXPECT_NE(branching.err.find("tiny_models.py:"), std::string::npos) << branching.err;
  EXPECT_NE(branching.err.find(" in forward: if hidden.sum().item() > 0:)"), std::string::npos) << branching.err;
  // Inputs the model itself rejects stay an input mismatch (6), whatever paths are asked.
  const auto wrong = run_ohprof(quick({"compare", "--model", "tiny_models:tiny_mlp", "--input", "2,17", "--paths",
                                       "aoti,eager", "--cache-dir", s_cache}));
  EXPECT_EQ(wrong.exit_code, code(ExitCode::input_mismatch)) << wrong.err;
  // No path needs the export: none is made.
  const std::string no_export = m_dir + "/no-export.json";
  const auto plain = run_ohprof(quick({"compare", "--model", "tiny_models:not_exportable", "--input", "2,16", "--paths",
                                       "compile,eager", "--no-explain", "--cache-dir", s_cache, "--export-json", no_export}));
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const json plain_report = json::parse(read_file(no_export));
  EXPECT_EQ(plain_report["artifacts"]["exported_program"], "");
  EXPECT_TRUE(plain_report["artifacts"]["export_error"].is_null());
}

// A C++ compiler with only a static libstdc++ (the lent H200's CXX=/opt/gcc/bin/g++) would build an AOTI
// package that carries a second C++ runtime, which LibTorch does not load (std::bad_cast with torch 2.14 on
// the CPU: docs/design/python-extension.md, "One C++ runtime"). ohprof builds none with it: aoti and
// aoti:python are reported as not measured, with the reason and the compiler to set, and the others are
// measured; with only AOTI paths asked, one line and exit 16. The stand-in compiler answers
// -print-file-name=libstdc++.so as such a compiler does (the bare name) and is g++ otherwise.
TEST_F(CompareE2E, NoAotiPackageIsBuiltWithACompilerThatHasOnlyAStaticLibstdcxx) {
  const std::string compiler = m_dir + "/static-g++";
  {
    std::ofstream script(compiler);
    script << "#!/bin/sh\n"
              "for a in \"$@\"; do [ \"$a\" = -print-file-name=libstdc++.so ] && { echo libstdc++.so; exit 0; }; done\n"
              "exec g++ \"$@\"\n";
  }
  ASSERT_EQ(::chmod(compiler.c_str(), 0755), 0);
  ::setenv("CXX", compiler.c_str(), 1);
  struct Restore {
    ~Restore() { ::unsetenv("CXX"); }
  } restore;
  const std::string cache = m_dir + "/cache";  // no package cached: a cached one (built before) would be used
  const std::string report_path = m_dir + "/report.json";
  const auto result = run_ohprof(quick({"compare", "--model", "tiny_models:tiny_mlp", "--input", "2,16", "--paths",
                                        "aoti,aoti:python,eager", "--cache-dir", cache, "--export-json", report_path}));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json report = json::parse(read_file(report_path));
  EXPECT_EQ(report["artifacts"]["not_measured"], json::array({"aoti", "aoti:python"}));
  EXPECT_EQ(report["artifacts"]["aoti_package"], "");
  EXPECT_TRUE(report["artifacts"]["export_error"].is_null());
  const std::string why = report["artifacts"]["aoti_error"];
  EXPECT_NE(why.find("the C++ compiler " + compiler + " has only a static libstdc++"), std::string::npos) << why;
  EXPECT_NE(why.find("set CXX to a compiler with a shared libstdc++, such as "), std::string::npos) << why;
  EXPECT_FALSE(std::filesystem::exists(cache) && [&] {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(cache)) {
      if (entry.path().filename() == "model.aoti.pt2") return true;
    }
    return false;
  }()) << "a package was built";
  ASSERT_EQ(report["paths"].size(), 1u);
  EXPECT_EQ(report["paths"][0]["name"], "eager");
  EXPECT_EQ(report["deployment"]["not_measured"], json::array({"aoti", "aoti:python"}));
  EXPECT_EQ(report["deployment"]["not_measured_cause"], "no-package");
  EXPECT_NE(report["deployment"]["text"].get<std::string>().find(
                "; not weighed, as no AOTI package could be built here: aoti, aoti:python"),
            std::string::npos) << report["deployment"]["text"];
  std::size_t warned = 0;
  for (const auto& warning : report["warnings"]) {
    if (warning["code"] != "paths-not-measured") continue;
    ++warned;
    EXPECT_EQ(warning["message"].get<std::string>().rfind("aoti and aoti:python not measured: no AOTI package was built: " + why, 0), 0u)
        << warning["message"];
  }
  EXPECT_EQ(warned, 1u) << report["warnings"].dump();

  const auto only_aoti = run_ohprof(quick({"compare", "--model", "tiny_models:tiny_mlp", "--input", "2,16", "--paths",
                                           "aoti", "--cache-dir", cache}));
  EXPECT_EQ(only_aoti.exit_code, code(ExitCode::environment_error)) << only_aoti.err;
  EXPECT_EQ(line_count(only_aoti.err), 1u) << only_aoti.err;
  EXPECT_NE(only_aoti.err.find("error: no AOTI package was built: the C++ compiler "), std::string::npos) << only_aoti.err;
}

// The execution check end to end (docs/metrics.md, "Execution check"). tiny_models:recompiling branches on
// a global that a hook outside Dynamo flips after the 8th call of the model, counting every path's calls:
// the eager check of the inputs and the build's calls come first, so the flip falls inside the measured
// iterations and compile's next call recompiles there. tiny_models:graph_break breaks its graph once.
TEST_F(CompareE2E, ARecompileWhileMeasuredIsCaughtAndItsSamplesLeftOut) {
  const std::string report_path = m_dir + "/recompile.json";
  const auto result = run_ohprof({"compare", "--model", "tiny_models:recompiling", "--input", "2,16", "--paths",
                                  "compile,eager", "--no-explain", "--device", "cpu", "--warmup", "1", "--min-runs", "12",
                                  "--max-runs", "12", "--min-time", "0", "--block", "1", "--cache-dir", s_cache,
                                  "--export-json", report_path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json report = json::parse(read_file(report_path));
  const json* compile = nullptr;
  const json* eager = nullptr;
  for (const auto& path : report["paths"]) (path["name"] == "compile" ? compile : eager) = &path;
  ASSERT_TRUE(compile != nullptr && eager != nullptr);
  const json& ran = (*compile)["execution"];
  ASSERT_EQ(ran["measured_compiles"].size(), 1u) << ran.dump();
  const json& recompile = ran["measured_compiles"][0];
  EXPECT_EQ(recompile["pass"], "timing");
  EXPECT_EQ(recompile["kind"], "dynamo-compile");
  EXPECT_EQ(recompile["compile_id"].get<std::string>().substr(recompile["compile_id"].get<std::string>().size() - 2), "/1")
      << "the frame's first recompile: " << recompile.dump();
  EXPECT_NE(recompile["reason"].get<std::string>().find("LATE"), std::string::npos) << recompile.dump();
  // The samples up to and including the recompiling iteration are left out, and kept in the report.
  const std::int64_t excluded = recompile["iteration"].get<std::int64_t>() + 1;
  EXPECT_EQ(ran["excluded_iterations"], excluded);
  EXPECT_EQ(ran["excluded_samples_ns"].size(), static_cast<std::size_t>(excluded));
  EXPECT_EQ((*compile)["samples_ns"].size(), static_cast<std::size_t>(12 - excluded));
  EXPECT_EQ((*compile)["wall_ns"]["count"], 12 - excluded);
  EXPECT_FALSE(ran["pooled"].get<bool>());
  // The recompile (a whole Inductor compile) is far slower than a kept sample: against their median, not
  // their slowest, which a preempted call on a loaded CI machine can make as slow as a compile (160 ms once).
  const double kept_median = (*compile)["wall_ns"]["median"].get<double>();
  EXPECT_GT(ran["excluded_samples_ns"][static_cast<std::size_t>(excluded - 1)].get<double>(), 10 * kept_median);
  // After the recompile the path runs its new graph: the probe finds it.
  EXPECT_EQ(ran["compiled_call"], "compiled") << ran.dump();
  EXPECT_TRUE((*eager)["execution"]["measured_compiles"].empty());
  EXPECT_EQ((*eager)["samples_ns"].size(), 12u);
  bool warned = false;
  for (const auto& warning : report["warnings"]) {
    if (warning["code"] == "compiled-while-measuring") {
      warned = true;
      EXPECT_NE(warning["message"].get<std::string>().find("path compile: the framework compiled inside 1 measured"),
                std::string::npos) << warning["message"];
    }
  }
  EXPECT_TRUE(warned) << report["warnings"].dump();
  EXPECT_NE(result.out.find(excluded == 1 ? std::string("compiled inside 1 measured iteration, its first timing sample left out")
                                          : "compiled inside 1 measured iteration, its first " + std::to_string(excluded) +
                                                " timing samples left out"),
            std::string::npos) << result.out;

  // The same flip where Dynamo may compile forward only once: it gives up instead of recompiling, nothing is
  // left out, and the calls after it (which run forward uncompiled) are said to be so.
  const std::string limited_path = m_dir + "/recompile-limit.json";
  const auto limited = run_ohprof({"compare", "--model", "tiny_models:recompile_limited", "--input", "2,16", "--paths",
                                   "compile,eager", "--no-explain", "--device", "cpu", "--warmup", "1", "--min-runs",
                                   "12", "--max-runs", "12", "--min-time", "0", "--block", "1", "--cache-dir", s_cache,
                                   "--export-json", limited_path});
  ASSERT_EQ(limited.exit_code, 0) << limited.err;
  const json limited_report = json::parse(read_file(limited_path));
  const json& limited_ran = limited_report["paths"][0]["execution"];
  ASSERT_EQ(limited_report["paths"][0]["name"], "compile");
  ASSERT_EQ(limited_ran["measured_compiles"].size(), 1u) << limited_ran.dump();
  EXPECT_EQ(limited_ran["measured_compiles"][0]["kind"], "recompile-limit");
  EXPECT_NE(limited_ran["measured_compiles"][0]["reason"].get<std::string>().find("recompile_limit = 1; last guard failed: "),
            std::string::npos) << limited_ran.dump();
  EXPECT_EQ(limited_ran["excluded_iterations"], 0);
  EXPECT_EQ(limited_report["paths"][0]["samples_ns"].size(), 12u);
  bool limit_warned = false;
  for (const auto& warning : limited_report["warnings"]) {
    EXPECT_NE(warning["code"], "compiled-while-measuring") << warning.dump();
    if (warning["code"] == "recompile-limit-hit") limit_warned = true;
  }
  EXPECT_TRUE(limit_warned) << limited_report["warnings"].dump();
  EXPECT_NE(limited.out.find("RECOMPILE LIMIT hit in timing iteration"), std::string::npos) << limited.out;
  // The probe after the timing pass finds the calls running uncompiled: said, warned of, and the path is left
  // out of the deployment choice.
  EXPECT_EQ(limited_ran["compiled_call"], "guards-missed") << limited_ran.dump();
  EXPECT_NE(limited.out.find("RAN UNCOMPILED after the timing pass: a frame's guards matched none of its compiled entries"),
            std::string::npos) << limited.out;
  const auto warned_of = [](const json& report, const std::string& code, const std::string& text) {
    return std::any_of(report["warnings"].begin(), report["warnings"].end(), [&](const json& w) {
      return w["code"] == code && w["message"].get<std::string>().find(text) != std::string::npos;
    });
  };
  EXPECT_TRUE(warned_of(limited_report, "ran-uncompiled", "path compile ran uncompiled: a call right after its timing pass"))
      << limited_report["warnings"].dump();
  EXPECT_EQ(limited_report["deployment"]["left_out"], json::array({"compile"})) << limited_report["deployment"].dump();

  // A model whose forward calls code Dynamo is told to skip: no graph runs in its calls (the probe's frames match).
  const std::string skipped_path = m_dir + "/dynamo-skipped.json";
  const auto skipped = run_ohprof(quick({"compare", "--model", "tiny_models:dynamo_skipped", "--input", "2,16", "--paths",
                                         "compile,eager", "--no-explain", "--cache-dir", s_cache, "--export-json",
                                         skipped_path}));
  ASSERT_EQ(skipped.exit_code, 0) << skipped.err;
  const json skipped_report = json::parse(read_file(skipped_path));
  ASSERT_EQ(skipped_report["paths"][0]["name"], "compile");
  EXPECT_EQ(skipped_report["paths"][0]["execution"]["graphs"], 0) << skipped_report["paths"][0]["execution"].dump();
  EXPECT_EQ(skipped_report["paths"][0]["execution"]["compiled_call"], "no-graph")
      << skipped_report["paths"][0]["execution"].dump();
  EXPECT_NE(skipped_report["paths"][0]["execution"]["text"].get<std::string>().find(
                "RAN UNCOMPILED after the timing pass: no compiled graph ran"),
            std::string::npos) << skipped_report["paths"][0]["execution"].dump();
  EXPECT_TRUE(warned_of(skipped_report, "ran-uncompiled", "ran no compiled graph (Dynamo made none of what it ran"))
      << skipped_report["warnings"].dump();
  EXPECT_EQ(skipped_report["deployment"]["left_out"], json::array({"compile"}));

  const std::string broken_path = m_dir + "/graph-break.json";
  const auto broken = run_ohprof(quick({"compare", "--model", "tiny_models:graph_break", "--input", "2,16", "--paths",
                                        "compile,eager", "--cache-dir", s_cache, "--export-json", broken_path}));
  ASSERT_EQ(broken.exit_code, 0) << broken.err;
  const json broken_report = json::parse(read_file(broken_path));
  const json& broken_ran = broken_report["paths"][0]["execution"];
  ASSERT_EQ(broken_report["paths"][0]["name"], "compile");
  EXPECT_EQ(broken_ran["graphs"], 2) << broken_ran.dump();
  ASSERT_EQ(broken_ran["graph_breaks"].size(), 1u) << broken_ran.dump();
  EXPECT_NE(broken_ran["graph_breaks"][0]["reason"].get<std::string>().find("graph_break()"), std::string::npos);
  EXPECT_EQ(broken_ran["graph_breaks"][0]["count"], 1);
  EXPECT_TRUE(broken_ran["measured_compiles"].empty()) << broken_ran.dump();
  bool broken_warned = false;
  for (const auto& warning : broken_report["warnings"]) broken_warned = broken_warned || warning["code"] == "graph-breaks";
  EXPECT_TRUE(broken_warned) << broken_report["warnings"].dump();
}

// --what-if on the tiny MLP (docs/metrics.md, "What-if ledger"): each setting's path built and measured in
// the same rounds, CUDA graphs named not applicable on the CPU, every output matching, and every figure of
// the ledger recomputed from the JSON by the independent reference.
TEST_F(CompareE2E, WhatIfLedgersEachCompileSettingAgainstCompile) {
  const std::string report_path = m_dir + "/what-if.json";
  // Skipping the guards saves about 1 us of compile's 35 us per call here (docs/metrics.md): its median is
  // below compile's in every run seen; on a shared machine a run may still be unlucky, so at most twice.
  testing::CommandOutput result;
  json report;
  std::string attempts;
  for (int attempt = 1; attempt <= 2; ++attempt) {
    result = run_ohprof({"compare", "--model", "tiny_models:tiny_mlp", "--input", "4,16", "--paths", "compile,eager",
                         "--no-explain", "--what-if", "--device", "cpu", "--warmup", "5", "--min-runs", "400",
                         "--max-runs", "400", "--min-time", "0", "--cache-dir", s_cache, "--export-json", report_path});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    report = json::parse(read_file(report_path));
    const json& guards = report["what_if"]["entries"][0]["saved"];
    attempts += "attempt " + std::to_string(attempt) + ": skip-guards saved " + guards.dump() + "\n";
    if (guards.is_object() && guards["value_ns"].get<double>() > 0) break;
  }
  EXPECT_TRUE(report["config"]["compare"]["what_if"].get<bool>());
  const json& ledger = report["what_if"];
  ASSERT_TRUE(ledger.is_object()) << report.dump();
  EXPECT_EQ(ledger["base"], "compile");
  EXPECT_TRUE(ledger["base_measured"].get<bool>());
  std::map<std::string, std::string> roles;
  for (const auto& path : report["paths"]) roles[path["name"].get<std::string>()] = path["role"].get<std::string>();
  EXPECT_EQ(roles, (std::map<std::string, std::string>{{"compile", "path"},
                                                      {"eager", "path"},
                                                      {"compile/no-guards", "what-if"},
                                                      {"compile:no-module-guards", "what-if"},
                                                      {"compile:cpp-wrapper", "what-if"},
                                                      {"compile:max-autotune-no-cudagraphs", "what-if"},
                                                      {"compile:again", "what-if"},
                                                      {"compile:again-2", "what-if"}}));
  ASSERT_EQ(ledger["entries"].size(), 5u);
  for (const auto& entry : ledger["entries"]) {
    if (entry["setting"] == "cuda-graphs") {
      EXPECT_FALSE(entry["applicable"].get<bool>());
      EXPECT_NE(entry["not_applicable"].get<std::string>().find("CUDA device"), std::string::npos);
      continue;
    }
    EXPECT_TRUE(entry["saved"].is_object()) << entry.dump();
    EXPECT_TRUE(entry["outputs_match"].get<bool>()) << entry.dump();
  }
  EXPECT_GT(ledger["entries"][0]["saved"]["value_ns"].get<double>(), 0) << attempts;
  // The A/A check: each rebuild compiled anew in a fresh cache (misses only), its outputs those of the base;
  // the band from the base and both.
  ASSERT_EQ(ledger["rebuilds"].size(), 2u) << ledger["rebuilds"].dump();
  for (const auto& again : ledger["rebuilds"]) EXPECT_TRUE(again["moved"].is_object()) << again.dump();
  EXPECT_EQ(ledger["again"], ledger["rebuilds"][0]);
  EXPECT_EQ(ledger["placement"]["builds"].get<int>(), 3) << ledger["placement"].dump();
  for (const auto& path : report["paths"]) {
    if (path["name"] != "compile:again" && path["name"] != "compile:again-2") continue;
    EXPECT_EQ(path["execution"]["fx_cache_hits"].get<std::int64_t>(), 0) << path["execution"].dump();
    EXPECT_GE(path["execution"]["fx_cache_misses"].get<std::int64_t>(), 1) << path["execution"].dump();
    EXPECT_TRUE(path["output_check"]["passed"].get<bool>()) << path["output_check"].dump();
  }
  EXPECT_NE(result.out.find("\n  built again         "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\n  built again-2       "), std::string::npos) << result.out;
  EXPECT_TRUE(ledger["entries"][0]["ready_ns"].is_null());
  EXPECT_GT(ledger["entries"][1]["ready_ns"].get<std::int64_t>(), 0);
  // The guard filter's compile is its own: Dynamo ran it, and its FX-graph cache lookups were counted.
  for (const auto& path : report["paths"]) {
    if (path["name"] != "compile:no-module-guards") continue;
    EXPECT_TRUE(path["execution"]["dynamo"].get<bool>());
    EXPECT_GE(path["execution"]["fx_cache_hits"].get<std::int64_t>() + path["execution"]["fx_cache_misses"].get<std::int64_t>(),
              1) << path["execution"].dump();
  }
  EXPECT_NE(result.out.find("what if (each setting changed alone from compile"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("  cuda-graphs         not applicable: CUDA graphs need a CUDA device"), std::string::npos)
      << result.out;
  EXPECT_EQ(result.out.find("\npath compile:cpp-wrapper"), std::string::npos) << result.out;  // not asked: no path block
  // The deployment summary: the paths asked for, latency its one criterion here, named in its sentence.
  const json& deployment = report["deployment"];
  ASSERT_EQ(deployment["rows"].size(), 2u) << deployment.dump();
  EXPECT_EQ(deployment["rows"][0]["path"], "compile");
  ASSERT_EQ(deployment["criteria"].size(), 1u) << deployment.dump();
  EXPECT_EQ(deployment["criteria"][0]["criterion"], "latency");
  EXPECT_NE(deployment["text"].get<std::string>().find("not measured: throughput (--threads), start-up and fresh peak (--cold-start)"),
            std::string::npos) << deployment["text"];
  EXPECT_NE(result.out.find("which to deploy ("), std::string::npos) << result.out;
  const auto reference = testing::run_program(
      {"python3", OHPROF_SOURCE_DIR "/test/tools/what_if_reference.py", "--check", report_path});
  EXPECT_EQ(reference.exit_code, 0) << reference.out << reference.err;
  // The ratio's interval from the samples and their rounds (docs/metrics.md, "Spread of a difference").
  const auto spread = testing::run_program(
      {"python3", OHPROF_SOURCE_DIR "/test/tools/spread_reference.py", "--check", report_path});
  EXPECT_EQ(spread.exit_code, 0) << spread.out << spread.err;
}

TEST_F(CompareE2E, BadFlagsAreUsageErrors) {
  const std::vector<std::vector<std::string>> bad = {
      {"compare", "--paths", "aoti,bogus"},
      {"compare", "--paths", "aoti,aoti"},
      {"compare", "--check-outputs", "maybe"},
      {"compare", "--min-runs", "5", "--max-runs", "2"},
      {"compare", "--model", "a:b", "--exported", "x.pt2"},
      {"compare", "--explain", "compile:bogus"},
      {"compare", "--explain", "compile:cpp-wrapper:aoti"},  // compile:cpp-wrapper is not in --paths
      {"compare", "--explain", "compile:aoti", "--no-explain"},
      {"compare", "--compile-source", "graph"},
      {"compare", "--block", "0"},
      {"compare", "--threads", "2,x"},
      {"compare", "--threads", "0"},
      {"compare", "--threads", "2,257"},
      {"compare", "--cold-start=x"},
      {"compare", "--cold-start=101"},
      {"compare", "--cold-start=-1"},
  };
  for (const auto& args : bad) {
    const auto result = run_ohprof(args);
    EXPECT_EQ(result.exit_code, code(ExitCode::usage_error)) << args[1] << ": " << result.err;
    EXPECT_EQ(line_count(result.err), 1u) << result.err;
  }
  const auto missing = run_ohprof({"compare", "--exported", "/nonexistent/program.pt2"});
  EXPECT_EQ(missing.exit_code, code(ExitCode::file_not_found)) << missing.err;
}

}  // namespace
}  // namespace ohprof
