#pragma once
// Documented exit codes (docs/exit-codes.md). Never renumber: scripts depend on them.
#include <optional>
#include <string_view>

namespace ohprof {

enum class ExitCode : int {
  success = 0,
  internal_error = 1,      // a bug in ohprof or an unexpected library failure
  usage_error = 2,         // bad command line (unknown flag, bad value, stray argument)
  file_not_found = 3,      // an input file does not exist or cannot be read
  invalid_package = 4,     // the file is not a usable AOTInductor package
  device_unavailable = 5,  // the requested device (or the package's device) is not available
  input_mismatch = 6,      // --input count, shape or dtype does not match the model
  invalid_trace = 7,       // a profiler trace that cannot be used (truncated, not JSON, no events)
  output_error = 8,        // a report could not be written
  model_error = 9,         // the model failed while running
  output_mismatch = 10,    // --check-outputs strict: paths disagree
  model_not_found = 11,    // --model module:factory names a module or attribute that does not exist
  no_valid_point = 12,     // sweep: no point of the sweep could be measured
  regression_found = 13,   // diff: a path is slower beyond the threshold
  incomparable_reports = 14,  // diff: the reports cannot be compared (model, inputs, device, schema, no samples)
  traces_failed = 15,      // analyze/merge of many ranks: some traces could not be analysed (the rest were)
  environment_error = 16,  // run/compare/sweep: no Python with torch and ohprof, torch too old, no compiler
                           // or headers for the measuring extension's first-use build, or that build failed
  interrupted = 130,       // SIGINT: what was measured is still written
};

constexpr int to_int(ExitCode code) { return static_cast<int>(code); }

// Each code with its name (as in docs/exit-codes.md), for tools and for the check that the Python side
// (python/ohprof/_paths.py) raises the same numbers.
struct ExitCodeName {
  ExitCode code;
  const char* name;
};
inline constexpr ExitCodeName kExitCodeNames[] = {
    {ExitCode::success, "success"},
    {ExitCode::internal_error, "internal_error"},
    {ExitCode::usage_error, "usage_error"},
    {ExitCode::file_not_found, "file_not_found"},
    {ExitCode::invalid_package, "invalid_package"},
    {ExitCode::device_unavailable, "device_unavailable"},
    {ExitCode::input_mismatch, "input_mismatch"},
    {ExitCode::invalid_trace, "invalid_trace"},
    {ExitCode::output_error, "output_error"},
    {ExitCode::model_error, "model_error"},
    {ExitCode::output_mismatch, "output_mismatch"},
    {ExitCode::model_not_found, "model_not_found"},
    {ExitCode::no_valid_point, "no_valid_point"},
    {ExitCode::regression_found, "regression_found"},
    {ExitCode::incomparable_reports, "incomparable_reports"},
    {ExitCode::traces_failed, "traces_failed"},
    {ExitCode::environment_error, "environment_error"},
    {ExitCode::interrupted, "interrupted"},
};

// A code's name ("invalid_trace"), and the code of a name (nullopt for an unknown one).
constexpr const char* exit_code_name(ExitCode code) {
  for (const ExitCodeName& entry : kExitCodeNames) {
    if (entry.code == code) return entry.name;
  }
  return "internal_error";
}
inline std::optional<ExitCode> exit_code_named(std::string_view name) {
  for (const ExitCodeName& entry : kExitCodeNames) {
    if (name == entry.name) return entry.code;
  }
  return std::nullopt;
}

}  // namespace ohprof
