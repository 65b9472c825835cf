#pragma once
// Documented exit codes (docs/exit-codes.md). Never renumber: scripts depend on them.

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
  interrupted = 130,       // SIGINT: what was measured is still written
};

constexpr int to_int(ExitCode code) { return static_cast<int>(code); }

}  // namespace ohprof
