#pragma once
// Chooses and drives the activity collector behind the device-time split of a live run: CUPTI for CUDA
// devices (docs/cupti.md); for the CPU, the RecordFunction collector when the build has it. When none
// can run, says why, and the run still reports its host timings.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/analysis/cpu_kernels.hpp"
#include "ohprof/base/error.hpp"
#include "ohprof/model/report.hpp"
#include "ohprof/harness/measurement_loop.hpp"
#include "ohprof/model/timeline.hpp"

namespace ohprof {

struct SplitCollectorOptions {
  DeviceKind device_type = DeviceKind::cpu;
  bool disabled = false;             // --no-cupti (CUDA devices)
};

struct SplitCollection {
  CollectorKind collector = CollectorKind::none;
  Timeline timeline;
  std::vector<CpuEvent> cpu_events;   // record_function: every recorded range (for kernel attribution)
  std::vector<Warning> warnings;      // what the collector could not deliver
};

class SplitCollector {
 public:
  // Never fails: when no collector can run, observer() is null and unavailable_reason() says why.
  static std::unique_ptr<SplitCollector> start(const SplitCollectorOptions& options);
  virtual ~SplitCollector() = default;

  [[nodiscard]] virtual IterationObserver* observer() = 0;
  [[nodiscard]] virtual std::string unavailable_reason() const = 0;
  [[nodiscard]] virtual CollectorKind kind() const = 0;  // none when unavailable
  // After the measurement (device synchronised): the records of the measured `iterations`.
  virtual Result<SplitCollection> finish(const std::vector<IterationWindow>& iterations) = 0;
};

// The CUPTI API version for the report ("130001"), or "none".
std::string collector_cupti_version();
std::string collector_cupti_library();  // cupti_library_path()


}  // namespace ohprof
