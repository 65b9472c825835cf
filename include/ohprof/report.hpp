#pragma once
// What a measurement produced: plain data that printers (table, JSON, ...) format.
// The JSON form is documented in docs/report-schema.md; bump kReportSchemaVersion on any
// incompatible change.
#include <cstdint>
#include <string>
#include <vector>

#include "ohprof/stats.hpp"

namespace ohprof {

inline constexpr int kReportSchemaVersion = 1;

struct DeviceDescription {
  std::string type = "cpu";  // "cpu" or "cuda"
  int index = -1;            // CUDA device index, -1 for the CPU
  std::string name;          // "NVIDIA H200", or the CPU model
};

struct RunContext {
  std::string ohprof_version;
  std::string git_sha;
  std::string torch_version;   // "none" when built without LibTorch
  std::string cuda_version;    // CUDA toolkit ohprof was built with, "none" without
  std::string cupti_version;   // CUPTI API version, "none" without
  DeviceDescription device;
  std::vector<std::string> argv;
  std::string date_utc;        // ISO 8601, e.g. 2026-11-30T07:00:00Z
  std::string hostname;
  int cpu_threads = 0;         // intra-op threads LibTorch used
};

struct RunConfig {
  int warmup = 0;
  int runs = 0;
  std::uint64_t seed = 0;
  std::vector<std::string> inputs;  // "[1, 3, 224, 224]:float32"
};

// One deployment path (aoti, compile, eager, ...) measured under the run's config.
struct PathResult {
  std::string name;                   // "aoti"
  std::string artifact;               // what was loaded (package path)
  std::int64_t load_ns = 0;           // time to load / build the path before the first call
  std::vector<std::int64_t> warmup_ns;  // warm-up iteration wall times, not in the statistics
  std::vector<std::int64_t> wall_ns;    // measured iteration wall times
  SampleSummary wall;                 // summary of wall_ns
  std::string stop_reason;            // why measurement stopped ("runs reached", "interrupted")
  std::string split_unavailable_reason;  // why no device-time split exists, when none does
};

struct Report {
  std::string kind = "run";  // "run", "compare" or "analyze"
  RunContext context;
  RunConfig config;
  std::vector<PathResult> paths;
  bool interrupted = false;
  std::vector<std::string> warnings;
};

// Context fields that are the same for every report of this build and process
// (version, sha, CUDA/CUPTI versions, argv, date, hostname). The device and torch
// fields are filled by the path that ran.
RunContext make_base_context(const std::vector<std::string>& argv);

// "2026-11-30T07:00:00Z" for the current time.
std::string utc_timestamp_now();

}  // namespace ohprof
