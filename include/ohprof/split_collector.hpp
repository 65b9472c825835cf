#pragma once
// Chooses and drives the activity collector behind the device-time split of a live run: CUPTI for CUDA
// devices (docs/cupti.md); for the CPU, the RecordFunction collector when the build has it. When none
// can run, says why, and the run still reports its host timings.
#include <memory>
#include <string>
#include <vector>

#include "ohprof/error.hpp"
#include "ohprof/measurement_loop.hpp"
#include "ohprof/timeline.hpp"

namespace ohprof {

struct SplitCollectorOptions {
  std::string device_type = "cpu";  // "cpu" or "cuda"
  bool disabled = false;             // --no-cupti
};

struct SplitCollection {
  std::string collector;              // "cupti" or "record_function"
  Timeline timeline;
  std::vector<std::string> warnings;  // what the collector could not deliver
};

class SplitCollector {
 public:
  // Never fails: when no collector can run, observer() is null and unavailable_reason() says why.
  static std::unique_ptr<SplitCollector> start(const SplitCollectorOptions& options);
  virtual ~SplitCollector() = default;

  [[nodiscard]] virtual IterationObserver* observer() = 0;
  [[nodiscard]] virtual std::string unavailable_reason() const = 0;
  [[nodiscard]] virtual std::string collector_name() const = 0;
  // After the measurement (device synchronised): the records of the measured `iterations`.
  virtual Result<SplitCollection> finish(const std::vector<IterationWindow>& iterations) = 0;
};

// The CUPTI API version for the report ("130001"), or "none".
std::string collector_cupti_version();

}  // namespace ohprof
