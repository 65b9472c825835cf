#pragma once
// What a split figure is: the time itself, or a bound on it (docs/metrics.md, "Verdict": kernels_unrecorded).
#include "ohprof/base/enum_text.hpp"

namespace ohprof {

#define OHPROF_BOUND_VALUES(X) \
  X(exact, "exact")            \
  X(at_least, "at-least")      \
  X(at_most, "at-most")
OHPROF_ENUM_CLASS(Bound, OHPROF_BOUND_VALUES)

// Where a path's kernels do not record themselves (on the CPU without --kernel-profile), their time is counted
// as host (dispatch) time: its busy time is then at least what was recorded, and its host-bound time (and the
// framework part of it) at most.
constexpr Bound busy_bound(bool kernels_unrecorded) { return kernels_unrecorded ? Bound::at_least : Bound::exact; }
constexpr Bound host_time_bound(bool kernels_unrecorded) { return kernels_unrecorded ? Bound::at_most : Bound::exact; }

}  // namespace ohprof
