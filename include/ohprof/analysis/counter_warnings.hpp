#pragma once
// The warnings the analysis counters call for (docs/metrics.md, "Counters"): records the split could
// not use. Every command that analyses a timeline (run, compare, analyze) raises them.
#include <vector>

#include "ohprof/model/breakdown.hpp"
#include "ohprof/model/warning.hpp"

namespace ohprof {

// `from_profiler_steps`: the windows are a trace's ProfilerSteps (the text then says ops launched
// outside every step).
std::vector<Warning> counter_warnings(const AnalysisCounters& counters, bool from_profiler_steps);

}  // namespace ohprof
