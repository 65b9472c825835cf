#include "ohprof/model/breakdown.hpp"

#include "ohprof/base/enum_text.hpp"

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
    case Verdict::host_bound: return "host-bound";
    case Verdict::device_wait_bound: return "device-wait-bound";
    case Verdict::compute_bound: return "compute-bound";
    case Verdict::mixed: return "mixed";
  }
  return "unknown";
}

const char* to_string(VerdictReason reason) {
  switch (reason) {
    case VerdictReason::unread_device_events: return "unread_device_events";
    case VerdictReason::no_iterations: return "no_iterations";
    case VerdictReason::no_device_work: return "no_device_work";
    case VerdictReason::no_launches: return "no_launches";
    case VerdictReason::startup_without_steps: return "startup_without_steps";
    case VerdictReason::dominant_share: return "dominant_share";
    case VerdictReason::close_shares: return "close_shares";
  }
  return "no_iterations";
}

std::optional<Verdict> parse_verdict(std::string_view text) { return parse_enum<Verdict>(text); }

std::optional<VerdictReason> parse_verdict_reason(std::string_view text) { return parse_enum<VerdictReason>(text); }

const char* to_string(HostState state) {
  switch (state) {
    case HostState::blocking: return "blocking";
    case HostState::launch: return "launch";
    case HostState::other_api: return "other_api";
    case HostState::harness: return "harness";
    case HostState::framework: return "framework";
  }
  return "framework";
}

const char* to_string(TimeShare share) {
  switch (share) {
    case TimeShare::busy: return "busy";
    case TimeShare::host_bound: return "host_bound";
    case TimeShare::device_wait: return "device_wait";
  }
  return "busy";
}

}  // namespace ohprof
