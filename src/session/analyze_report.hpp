#pragma once
// The one-trace report of `ohprof analyze` (private to the session layer): `analyze TRACE` writes it,
// and `analyze TRACE...` makes one per rank to take its digest from (docs/ranks.md).
#include <cstdint>
#include <string>
#include <vector>

#include "ohprof/base/error.hpp"
#include "ohprof/model/report.hpp"
#include "ohprof/trace/kineto_reader.hpp"

namespace ohprof {

// A trace read and analysed: its report (warnings recorded in it, not printed) and the trace itself.
struct AnalyzedTrace {
  Report report;
  KinetoTrace trace;
};
Result<AnalyzedTrace> read_and_analyze_trace(const std::string& trace_path, const std::vector<std::string>& argv);

}  // namespace ohprof
