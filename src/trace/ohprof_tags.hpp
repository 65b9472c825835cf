#pragma once
// The tags ohprof's own Chrome traces (run/compare --export-trace, trace_export.hpp) put in a runtime
// call's args as "ohprof_call", so that the Kineto reader reads back what the collector knew by the
// callback id rather than the name (an "internal launch", the harness's own sync). Private to the
// trace layer: the writer and the reader share these numbers, and they never change meaning.
#include <cstdint>
#include <optional>

#include "ohprof/model/timeline.hpp"

namespace ohprof {

enum class OhprofCallTag : std::int64_t {
  kernel_launch = 1,
  graph_launch = 2,
  memcpy_launch = 3,
  memcpy_launch_synchronous = 4,
  memset_launch = 5,
  other_launch = 6,
  sync = 7,
  harness_sync = 8,
  api_call = 9,
};

inline OhprofCallTag launch_tag(const LaunchCall& call) {
  switch (call.kind) {
    case LaunchKind::kernel: return OhprofCallTag::kernel_launch;
    case LaunchKind::graph: return OhprofCallTag::graph_launch;
    case LaunchKind::memcpy: return call.synchronous ? OhprofCallTag::memcpy_launch_synchronous : OhprofCallTag::memcpy_launch;
    case LaunchKind::memset: return OhprofCallTag::memset_launch;
    case LaunchKind::other: return OhprofCallTag::other_launch;
  }
  return OhprofCallTag::other_launch;
}

// What a tag says: a launch of a kind (synchronous or not), a sync (the harness's or not), or another call.
struct OhprofCall {
  std::optional<LaunchKind> launch;
  bool synchronous = false;
  bool sync = false;
  bool harness = false;
};
inline std::optional<OhprofCall> ohprof_call_of(std::optional<std::int64_t> tag) {
  if (!tag) return std::nullopt;
  switch (static_cast<OhprofCallTag>(*tag)) {
    case OhprofCallTag::kernel_launch: return OhprofCall{LaunchKind::kernel};
    case OhprofCallTag::graph_launch: return OhprofCall{LaunchKind::graph};
    case OhprofCallTag::memcpy_launch: return OhprofCall{LaunchKind::memcpy};
    case OhprofCallTag::memcpy_launch_synchronous: return OhprofCall{LaunchKind::memcpy, true};
    case OhprofCallTag::memset_launch: return OhprofCall{LaunchKind::memset};
    case OhprofCallTag::other_launch: return OhprofCall{LaunchKind::other};
    case OhprofCallTag::sync: return OhprofCall{std::nullopt, false, true, false};
    case OhprofCallTag::harness_sync: return OhprofCall{std::nullopt, false, true, true};
    case OhprofCallTag::api_call: return OhprofCall{};
  }
  return std::nullopt;  // a number this version does not know: read the call by its name
}

}  // namespace ohprof
