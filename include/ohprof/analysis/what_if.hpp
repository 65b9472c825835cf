#pragma once
// compare --what-if (docs/metrics.md, "What-if ledger"): which settings apply on a device, and the ledger
// of what each setting bought against the base path. Pure functions over the report's plain structs.
#include <map>
#include <string>
#include <vector>

#include "ohprof/model/report.hpp"
#include "ohprof/model/what_if.hpp"

namespace ohprof {

// Why `setting` does not apply on the device (CUDA graphs on a CPU), or "" when it does. The session
// builds no path for a setting that does not apply.
std::string what_if_not_applicable(CompileSetting setting, DeviceKind device);

// What the session knows of the setting paths it could not build.
struct WhatIfContext {
  DeviceKind device = DeviceKind::cpu;
  std::map<std::string, std::string> not_offered;  // path -> why the torch in use cannot build it
  std::map<std::string, std::string> failed;       // path -> why its build failed otherwise
};

// The placement band (PlacementBand) from the base's median and its measured rebuilds' differences from it
// (WhatIfAgain::moved's values, median(base) − median(rebuild)); base_median_ns ≤ 0: the base has no samples
// (builds 0, the band [0, 0]).
PlacementBand placement_band(double base_median_ns, const std::vector<double>& moved_ns);

// The ledger: each setting of what_if_settings() against the base path (kWhatIfBase), in that order.
WhatIfLedger what_if_ledger(const std::vector<PathResult>& paths, const WhatIfContext& context);

}  // namespace ohprof
