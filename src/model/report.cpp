#include "ohprof/model/report.hpp"

#include <array>
#include <ctime>
#include <unistd.h>

#include "ohprof/base/build_info.hpp"
#include "ohprof/base/enum_text.hpp"

namespace ohprof {

const char* to_string(ReportKind kind) {
  switch (kind) {
    case ReportKind::run: return "run";
    case ReportKind::compare: return "compare";
    case ReportKind::analyze: return "analyze";
  }
  return "run";
}

const char* to_string(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::cpu: return "cpu";
    case DeviceKind::cuda: return "cuda";
    case DeviceKind::accelerator: return "accelerator";
  }
  return "cpu";
}

const char* to_string(CollectorKind kind) {
  switch (kind) {
    case CollectorKind::none: return "";
    case CollectorKind::cupti: return "cupti";
    case CollectorKind::record_function: return "record_function";
    case CollectorKind::trace: return "trace";
  }
  return "";
}

const char* to_string(IterationSource source) {
  return source == IterationSource::whole_trace ? "whole trace" : "ProfilerStep";
}

const char* to_string(CheckMode mode) {
  switch (mode) {
    case CheckMode::warn: return "warn";
    case CheckMode::strict: return "strict";
    case CheckMode::off: return "off";
  }
  return "warn";
}

std::string utc_timestamp_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

RunContext make_base_context(const std::vector<std::string>& argv) {
  RunContext context;
  context.ohprof_version = ohprof_version();
  context.git_sha = ohprof_git_sha();
  context.torch_version = "none";
  context.cuda_version = cuda_toolkit_version();
  context.cupti_version = "none";
  context.cupti_library = "none";
  context.inflate_library = inflate_library();
  context.argv = argv;
  context.date_utc = utc_timestamp_now();
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) == 0) context.hostname = host.data();
  return context;
}

const char* to_string(StopCode code) {
  switch (code) {
    case StopCode::none: return "none";
    case StopCode::runs_reached: return "runs_reached";
    case StopCode::converged: return "converged";
    case StopCode::max_runs_reached: return "max_runs_reached";
    case StopCode::time_limit: return "time_limit";
    case StopCode::interrupted: return "interrupted";
    case StopCode::error: return "error";
    case StopCode::no_paths: return "no_paths";
    case StopCode::end_of_trace: return "end_of_trace";
    case StopCode::in_progress: return "in_progress";
  }
  return "none";
}

std::optional<StopCode> parse_stop_code(const std::string& text) { return parse_enum<StopCode>(text); }

}  // namespace ohprof
