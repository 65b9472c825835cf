#include "ohprof/analysis/explanation.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numbers>

#include "ohprof/analysis/breakdown.hpp"

namespace ohprof {
namespace {

// sqrt(pi / 2): the asymptotic standard error of a normal sample's median, in units of sigma / sqrt(n).
const double kMedianEfficiency = std::sqrt(std::numbers::pi / 2.0);
// MAD to sigma for normal data.
constexpr double kMadToSigma = 1.4826;

const PathResult* find_path(const std::vector<PathResult>& paths, const std::string& name) {
  for (const auto& path : paths) {
    if (path.name == name && path.wall.count > 0) return &path;
  }
  return nullptr;
}

// Per-iteration busy and host (wall - busy) time of a path's split pass.
struct SplitSamples {
  SampleSummary busy;
  SampleSummary host;
  SampleSummary wall;
};

std::optional<SplitSamples> split_samples(const PathResult& path) {
  if (!path.breakdown || path.breakdown->iterations.empty()) return std::nullopt;
  std::vector<std::int64_t> busy;
  std::vector<std::int64_t> host;
  std::vector<std::int64_t> wall;
  for (const auto& iteration : path.breakdown->iterations) {
    busy.push_back(iteration.gpu.busy_ns);
    host.push_back(iteration.wall_ns - iteration.gpu.busy_ns);
    wall.push_back(iteration.wall_ns);
  }
  return SplitSamples{summarize_ns(busy), summarize_ns(host), summarize_ns(wall)};
}

std::string split_missing_reason(const PathResult& path) {
  return path.split_unavailable_reason.empty() ? std::string("no split pass") : path.split_unavailable_reason;
}

// The layers of `path`'s chain that were measured, top down, stopping at the first missing variant;
// returns the floor reached.
std::string peel(const std::vector<PathResult>& paths, const std::string& path, int sign,
                 const std::map<std::string, std::string>& unavailable, GapExplanation& out) {
  std::string floor = path;
  for (const PeelStep& step : peel_chain(path)) {
    const PathResult* upper = find_path(paths, step.upper);
    const PathResult* lower = find_path(paths, step.lower);
    if (upper == nullptr || lower == nullptr) {
      const auto reason = unavailable.find(step.lower);
      out.missing.push_back(fmt::format("{} of {}: variant {} {}", layer_label(step.layer), path, step.lower,
                                        reason != unavailable.end() ? "not built: " + reason->second
                                                                    : std::string("not measured")));
      break;
    }
    LayerEstimate layer;
    layer.layer = step.layer;
    layer.path = path;
    layer.upper = step.upper;
    layer.lower = step.lower;
    layer.estimate = difference_of_medians(upper->wall, lower->wall);
    layer.sign = sign;
    if (upper->breakdown && lower->breakdown) {
      layer.kernels_differ = !diff_kernel_sets(*upper->breakdown, *lower->breakdown).same_set();
    }
    out.layers.push_back(std::move(layer));
    floor = step.lower;
  }
  return floor;
}

}  // namespace

double median_standard_error(const SampleSummary& summary) {
  if (summary.count < 2) return 0;
  return kMedianEfficiency * kMadToSigma * summary.mad / std::sqrt(static_cast<double>(summary.count));
}

Estimate difference_of_medians(const SampleSummary& a, const SampleSummary& b) {
  const double sa = median_standard_error(a);
  const double sb = median_standard_error(b);
  return Estimate{a.median - b.median, std::hypot(sa, sb)};
}

Estimate operator+(const Estimate& a, const Estimate& b) { return {a.value_ns + b.value_ns, std::hypot(a.se_ns, b.se_ns)}; }
Estimate operator-(const Estimate& a, const Estimate& b) { return {a.value_ns - b.value_ns, std::hypot(a.se_ns, b.se_ns)}; }

GapExplanation explain_gap(const std::vector<PathResult>& paths, const std::string& slower, const std::string& faster,
                           const std::map<std::string, std::string>& unavailable) {
  GapExplanation out;
  out.slower = slower;
  out.faster = faster;
  const PathResult* a = find_path(paths, slower);
  const PathResult* b = find_path(paths, faster);
  if (a == nullptr || b == nullptr) {
    out.missing.push_back(fmt::format("{} has no measured iterations", a == nullptr ? slower : faster));
    return out;
  }
  out.gap = difference_of_medians(a->wall, b->wall);
  out.within_noise = std::abs(out.gap.value_ns) <= 2.0 * out.gap.se_ns;

  // Device: the kernels' time and set, from the split pass.
  const auto split_a = split_samples(*a);
  const auto split_b = split_samples(*b);
  if (split_a && split_b) {
    out.kernels = difference_of_medians(split_a->busy, split_b->busy);
    out.kernels_same = diff_kernel_sets(*a->breakdown, *b->breakdown).same_set();
    if (split_b->wall.median > 0) out.faster_kernel_share = split_b->busy.median / split_b->wall.median;
  } else {
    out.missing.push_back(fmt::format("kernel time: {}", !split_a ? slower + ": " + split_missing_reason(*a)
                                                                   : faster + ": " + split_missing_reason(*b)));
  }

  // Host: each side's chain down to its floor, then what the floors run around the kernels.
  out.floor_slower = peel(paths, slower, +1, unavailable, out);
  out.floor_faster = peel(paths, faster, -1, unavailable, out);
  out.floor_kind_slower = floor_kind(out.floor_slower);
  out.floor_kind_faster = floor_kind(out.floor_faster);
  const PathResult* floor_a = find_path(paths, out.floor_slower);
  const PathResult* floor_b = find_path(paths, out.floor_faster);
  const auto split_floor_a = split_samples(*floor_a);
  const auto split_floor_b = split_samples(*floor_b);
  const bool same_floor = floor_a == floor_b;
  if (same_floor) {
    out.wrapper = Estimate{};  // one path: no wrapper difference, exactly
  } else if (split_floor_a && split_floor_b) {
    out.wrapper = difference_of_medians(split_floor_a->host, split_floor_b->host);
  } else {
    out.missing.push_back(fmt::format("wrapper host time: {}", !split_floor_a ? out.floor_slower + ": " + split_missing_reason(*floor_a)
                                                                               : out.floor_faster + ": " + split_missing_reason(*floor_b)));
  }
  if (out.kernels && out.wrapper) {
    // gap - sum(sign * layers) telescopes to median(floor_slower) - median(floor_faster); its error is
    // theirs, not the sum of the layers' (which share their variants' samples).
    const Estimate floor_gap = same_floor ? Estimate{} : difference_of_medians(floor_a->wall, floor_b->wall);
    out.residual = floor_gap - *out.kernels - *out.wrapper;
  }

  // What closes the gap: the other measured paths faster than `slower`.
  for (const auto& path : paths) {
    if (path.role != PathRole::path || path.name == slower || path.name == faster || path.wall.count == 0) continue;
    if (path.wall.median >= a->wall.median) continue;
    GapRemedy remedy;
    remedy.path = path.name;
    remedy.saved = difference_of_medians(a->wall, path.wall);
    remedy.share_of_gap = out.gap.value_ns != 0 ? remedy.saved.value_ns / out.gap.value_ns : 0;
    out.remedies.push_back(std::move(remedy));
  }
  std::stable_sort(out.remedies.begin(), out.remedies.end(),
                   [](const GapRemedy& x, const GapRemedy& y) { return x.saved.value_ns > y.saved.value_ns; });
  return out;
}

std::vector<GapExplanation> explain_against_fastest(const std::vector<PathResult>& paths,
                                                    const std::map<std::string, std::string>& unavailable) {
  const PathResult* fastest = nullptr;
  for (const auto& path : paths) {
    if (path.role != PathRole::path || path.wall.count == 0) continue;
    if (fastest == nullptr || path.wall.median < fastest->wall.median) fastest = &path;
  }
  std::vector<GapExplanation> out;
  if (fastest == nullptr) return out;
  for (const auto& path : paths) {
    if (path.role != PathRole::path || &path == fastest || path.wall.count == 0) continue;
    out.push_back(explain_gap(paths, path.name, fastest->name, unavailable));
  }
  return out;
}

}  // namespace ohprof
