#pragma once
// What the two files that include cupti.h share (cupti_records.cpp reads records, cupti_collector.cpp
// runs the collection); private to src/collectors.
#include <cupti.h>

#include <string>

namespace ohprof {

// The external correlation kind of ohprof's iteration tags (PyTorch's profiler uses CUSTOM0 and CUSTOM1).
inline constexpr CUpti_ExternalCorrelationKind kIterationTagKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2;

// CUPTI's text for a result ("CUPTI_ERROR_NOT_INITIALIZED"), or "CUPTI error <n>".
std::string cupti_result_text(CUptiResult result);

}  // namespace ohprof
