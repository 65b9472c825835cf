#pragma once
// compare's deployment summary (docs/metrics.md, "Deployment summary") from the measured paths. Pure.
#include <vector>

#include "ohprof/model/deployment.hpp"
#include "ohprof/model/report.hpp"

namespace ohprof {

// The rows of the paths asked for (role path), and for each criterion measured the leaders: latency and
// throughput by the significance rule (a path whose difference from the best is within noise leads too),
// the start-ups by the rank rule of cold starts (a path whose totals are not all above the best's leads
// too), the fresh peak by the same rule over the processes' peaks and a floor (kFreshPeakTiePercent). A path
// whose outputs differ from the reference, or that ran uncompiled code, is left out of every criterion.
DeploymentSummary deployment_summary(const std::vector<PathResult>& paths);

}  // namespace ohprof
