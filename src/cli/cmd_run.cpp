// `ohprof run PACKAGE.pt2` (or `--aoti PACKAGE.pt2`): measure one AOTInductor package.
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "ohprof/base/console.hpp"

namespace ohprof {
namespace {

struct RunFlags {
  std::string aoti_package;
  std::vector<std::string> inputs;
  std::string device = "auto";
  int warmup = 10;
  int runs = 50;
  std::uint64_t seed = 0;
  ReportExports exports;
  std::string dump_code;
  bool quiet = false;
  bool no_cupti = false;
  int split_runs = 0;
  std::string python;
  std::string inputs_file;
};

Status run(RunFlags flags, const Invocation& invocation) {
  const ReportExports& exports = flags.exports;
  // `--input` takes every value after it, so `ohprof run --input 4,16 model.pt2` hands it the package: a
  // shape never ends in .pt2, so that last value is the package
  if (flags.aoti_package.empty() && !flags.inputs.empty() && flags.inputs.back().ends_with(".pt2")) {
    flags.aoti_package = flags.inputs.back();
    flags.inputs.pop_back();
  }
  if (flags.aoti_package.empty()) {
    return make_error(ExitCode::usage_error,
                      "no package given: ohprof run PACKAGE.pt2 (or --aoti PACKAGE.pt2), a package written by "
                      "torch._inductor.aoti_compile_and_package or examples/export_model.py");
  }
  OHPROF_RETURN_IF_ERROR(check_report_exports(exports));
  MeasureOptions options;
  options.aoti_package = flags.aoti_package;
  OHPROF_ASSIGN_OR_RETURN(options.inputs, parse_input_specs(flags.inputs));
  OHPROF_RETURN_IF_ERROR(check_inputs_file(flags.inputs_file, !options.inputs.empty()));
  options.inputs_file = flags.inputs_file;
  OHPROF_ASSIGN_OR_RETURN(options.device, parse_device_request(flags.device));
  if (invocation.runtime == nullptr) return delegate_to_measuring_python(invocation, "run", flags.python);
  console::start("run", flags.quiet);
  options.warmup = flags.warmup;
  options.runs = flags.runs;
  options.seed = flags.seed;
  options.split_runs = flags.split_runs;
  options.no_cupti = flags.no_cupti;
  options.checkpoint_path = flags.exports.json;
  options.export_trace = flags.exports.trace;
  options.dump_code_dir = flags.dump_code;
  options.argv = invocation.argv;
  return emit_outcome(measure_path(options, *invocation.runtime), exports, flags.quiet);
}

}  // namespace

Subcommand add_run_command(CLI::App& parent, const Invocation& invocation) {
  auto flags = std::make_shared<RunFlags>();  // must outlive parsing: CLI11 writes into it
  CLI::App* app = parent.add_subcommand("run", "Measure one model package (wall time per iteration)");
  // `ohprof run model.pt2` as well as `--aoti model.pt2`: one option, so giving both is CLI11's usage error
  app->add_option("package,--aoti", flags->aoti_package, "AOTInductor package (.pt2) to load with LibTorch");
  app->add_option("--input", flags->inputs,
                  "Input SHAPE[:DTYPE], once per model input in order (e.g. 1,3,224,224:float32)")
      ->take_all();
  add_inputs_file_option(app, flags->inputs_file);
  app->add_option("--device", flags->device, "auto, cpu, cuda or cuda:N (auto: CUDA when present)")
      ->capture_default_str();
  app->add_option("--warmup", flags->warmup, "Warm-up iterations, not measured")->capture_default_str();
  app->add_option("--runs", flags->runs, "Measured iterations")->capture_default_str();
  app->add_option("--seed", flags->seed, "Seed for the random inputs")->capture_default_str();
  add_export_options(app, flags->exports, kReportJsonHelp, kReportHtmlHelp, kSplitTraceHelp);
  app->add_option("--dump-code", flags->dump_code,
                  "After measuring, write the package's generated code and each kernel's place in it and cost to DIR/aoti/, "
                  "and DIR/index.html (docs/code-dump.md)");
  app->add_flag("--quiet", flags->quiet, "Do not print the table");
  app->add_option("--split-runs", flags->split_runs,
                  "Iterations of the instrumented pass for the device split (default: --runs, at most 100)");
  app->add_flag("--no-cupti", flags->no_cupti,
                "Do not use CUPTI (NVTX ranges and host timing only; for runs under Nsight Systems)");
  add_python_option(app, flags->python);
  return Subcommand{app, [flags, &invocation] { return run(*flags, invocation); }};
}

}  // namespace ohprof
