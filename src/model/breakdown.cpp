#include "ohprof/model/breakdown.hpp"

namespace ohprof {

const char* to_string(DeviceOpKind kind) {
  switch (kind) {
    case DeviceOpKind::kernel: return "kernel";
    case DeviceOpKind::memcpy: return "memcpy";
    case DeviceOpKind::memset: return "memset";
  }
  return "unknown";
}

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::unknown: return "unknown";
    case Verdict::overhead_bound: return "overhead-bound";
    case Verdict::compute_bound: return "compute-bound";
  }
  return "unknown";
}

const char* to_string(VerdictRule rule) {
  switch (rule) {
    case VerdictRule::none: return "none";
    case VerdictRule::dispatch_exceeds_busy: return "dispatch_exceeds_busy";
    case VerdictRule::host_bound_largest: return "host_bound_largest";
    case VerdictRule::compute: return "compute";
  }
  return "none";
}

}  // namespace ohprof
