#include "ohprof/model/explanation.hpp"

#include <cmath>

#include "ohprof/base/enum_text.hpp"
#include "ohprof/model/path_kind.hpp"

namespace ohprof {

bool significant(const Estimate& e) { return std::abs(e.value_ns) > kZ95 * e.se_ns; }
double interval_low(const Estimate& e) { return e.value_ns - kZ95 * e.se_ns; }
double interval_high(const Estimate& e) { return e.value_ns + kZ95 * e.se_ns; }

std::optional<PathSource> parse_path_source(const std::string& text) { return parse_enum<PathSource>(text); }

const char* layer_label(HostLayer layer) {
  switch (layer) {
    case HostLayer::guards: return "guards";
    case HostLayer::dynamo: return "Dynamo entry";
    case HostLayer::aot_wrapper: return "AOTAutograd wrapper";
    case HostLayer::inductor_call: return "Inductor graph call";
    case HostLayer::python_loader: return "Python loader";
  }
  return "guards";
}

std::vector<PeelStep> peel_chain(const std::string& path) {
  const std::optional<PathKind> kind = parse_path_kind(path);
  if (!kind) return {};
  if (*kind == PathKind::aoti_python) return {{HostLayer::python_loader, path, to_string(PathKind::aoti)}};
  const PathKindInfo& what = path_kind_info(*kind);
  if (!what.compiled) return {};
  std::vector<PeelStep> chain{{HostLayer::guards, path, path + "/no-guards"},
                              {HostLayer::dynamo, path + "/no-guards", path + "/graph"}};
  if (what.python_wrapper) {
    chain.push_back({HostLayer::aot_wrapper, path + "/graph", path + "/inductor"});
    chain.push_back({HostLayer::inductor_call, path + "/inductor", path + "/call"});
  }
  return chain;
}

std::string chain_floor(const std::string& path) {
  const std::vector<PeelStep> chain = peel_chain(path);
  return chain.empty() ? path : chain.back().lower;
}

const char* floor_label(FloorKind kind) {
  switch (kind) {
    case FloorKind::python_wrapper: return "Inductor's Python wrapper";
    case FloorKind::cpp_wrapper: return "Inductor's cpp_wrapper";
    case FloorKind::cuda_graph: return "AOTAutograd's function (a CUDA-graph replay on a GPU)";
    case FloorKind::cpp_runner: return "AOTI's C++ runner";
    case FloorKind::eager_dispatch: return "eager dispatch";
  }
  return "";
}

std::optional<FloorKind> floor_kind(const std::string& floor_path) {
  const std::optional<PathKind> kind = parse_path_kind(floor_path);
  if (kind == PathKind::aoti) return FloorKind::cpp_runner;
  if (kind == PathKind::eager) return FloorKind::eager_dispatch;
  if (floor_path == "compile:cpp-wrapper/call") return FloorKind::cpp_wrapper;
  if (floor_path == "compile:reduce-overhead/graph") return FloorKind::cuda_graph;
  const std::string suffix = "/call";
  if (floor_path.size() > suffix.size() && floor_path.ends_with(suffix)) return FloorKind::python_wrapper;
  return std::nullopt;
}

}  // namespace ohprof
