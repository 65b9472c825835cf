#pragma once
// The plain structs of a Timeline as one line of text each, every field, so that a mismatch prints
// readably: for the collector's tests (test/collectors).
#include <fmt/core.h>

#include <string>
#include <vector>

#include "ohprof/model/timeline.hpp"

namespace ohprof::cupti_test {

// ---- every field of the plain structs, as one line each (so a mismatch prints readably) ----------
inline const char* kind_text(DeviceOpKind kind) {
  switch (kind) {
    case DeviceOpKind::kernel: return "kernel";
    case DeviceOpKind::memcpy: return "memcpy";
    case DeviceOpKind::memset: return "memset";
  }
  return "?";
}
inline const char* kind_text(LaunchKind kind) {
  switch (kind) {
    case LaunchKind::kernel: return "kernel";
    case LaunchKind::graph: return "graph";
    case LaunchKind::memcpy: return "memcpy";
    case LaunchKind::memset: return "memset";
    case LaunchKind::other: return "other";
  }
  return "?";
}
inline std::vector<std::string> lines(const std::vector<DeviceOp>& ops) {
  std::vector<std::string> out;
  for (const auto& o : ops) {
    out.push_back(fmt::format("{} {}-{} dev{} s{} c{} g{} b{} {}", kind_text(o.kind), o.start_ns, o.end_ns, o.device,
                              o.stream, o.correlation, o.graph_id, o.bytes, o.name));
  }
  return out;
}
inline std::vector<std::string> lines(const std::vector<LaunchCall>& calls) {
  std::vector<std::string> out;
  for (const auto& c : calls) {
    out.push_back(fmt::format("{} {}-{} t{} c{} it{} {}", kind_text(c.kind), c.start_ns, c.end_ns, c.thread_id,
                              c.correlation, c.iteration ? std::to_string(*c.iteration) : "-", c.name));
  }
  return out;
}
inline std::vector<std::string> lines(const std::vector<SyncCall>& calls) {
  std::vector<std::string> out;
  for (const auto& c : calls) {
    out.push_back(fmt::format("{}-{} t{} {}{}", c.start_ns, c.end_ns, c.thread_id, c.name, c.harness ? " harness" : ""));
  }
  return out;
}
inline std::vector<std::string> lines(const std::vector<ApiCall>& calls) {
  std::vector<std::string> out;
  for (const auto& c : calls) out.push_back(fmt::format("{}-{} t{} {}", c.start_ns, c.end_ns, c.thread_id, c.name));
  return out;
}

}  // namespace ohprof::cupti_test
