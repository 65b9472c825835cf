#pragma once
// One monotonic clock for everything ohprof stamps: iteration bounds, CUPTI's timestamp callback
// and RecordFunction callbacks all read CLOCK_MONOTONIC in nanoseconds, so their times compare.
#include <cstdint>

namespace ohprof {

std::int64_t monotonic_now_ns();

}  // namespace ohprof
