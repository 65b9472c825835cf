#include "ohprof/analysis/explanation.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <numbers>

#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/analysis/path_stats.hpp"

namespace ohprof {
namespace {

// sqrt(pi / 2): the asymptotic standard error of a normal sample's median, in units of sigma / sqrt(n).
const double kMedianEfficiency = std::sqrt(std::numbers::pi / 2.0);

const PathResult* find_path(const std::vector<PathResult>& paths, const std::string& name) {
  for (const auto& path : paths) {
    if (path.name == name && path.wall.count > 0) return &path;
  }
  return nullptr;
}

// A path's split-pass busy and wall summaries over its iterations (BreakdownSummary), when it has a split.
struct SplitSamples {
  const SampleSummary& busy;
  const SampleSummary& wall;
};

std::optional<SplitSamples> split_samples(const PathResult& path) {
  if (!path.breakdown || path.breakdown->iterations.empty()) return std::nullopt;
  const BreakdownSummary& summary = path.breakdown->summary;
  return SplitSamples{summary.gpu.busy_ns, summary.wall_ns};
}

std::string split_missing_reason(const PathResult& path) {
  return path.split_unavailable_reason.empty() ? std::string("no split pass") : path.split_unavailable_reason;
}

// The layers of `path`'s chain that were measured, top down, stopping at the first missing variant;
// returns the floor reached.
std::string peel(const std::vector<PathResult>& paths, const std::string& path, int sign,
                 const std::map<std::string, std::string>& unavailable, GapExplanation& out) {
  std::string floor = path;
  const std::vector<PeelStep> chain = peel_chain(path);
  // A path that ran uncompiled code has no layers of compiled code to peel.
  if (const PathResult* top = find_path(paths, path);
      !chain.empty() && top != nullptr && ran_uncompiled(*top)) {
    out.missing.push_back(fmt::format("the layers of {}: it ran uncompiled code (execution check), so its variants' "
                                      "differences are not its layers",
                                      path));
    return floor;
  }
  for (const PeelStep& step : chain) {
    const PathResult* upper = find_path(paths, step.upper);
    const PathResult* lower = find_path(paths, step.lower);
    if (upper == nullptr || lower == nullptr) {
      const auto reason = unavailable.find(step.lower);
      out.missing.push_back(fmt::format("{} of {}: variant {} {}", layer_label(step.layer), path, step.lower,
                                        reason != unavailable.end() ? "not built: " + reason->second
                                                                    : std::string("not measured")));
      break;
    }
    // A variant that ran uncompiled code (the execution check's probe) differs from its neighbour by more
    // than the layer: the chain ends above it.
    const PathResult* uncompiled = ran_uncompiled(*upper) ? upper : ran_uncompiled(*lower) ? lower : nullptr;
    if (uncompiled != nullptr) {
      out.missing.push_back(fmt::format("{} of {}: {} ran uncompiled code (execution check), so the difference is "
                                        "not that layer alone",
                                        layer_label(step.layer), path, uncompiled->name));
      break;
    }
    LayerEstimate layer;
    layer.layer = step.layer;
    layer.path = path;
    layer.upper = step.upper;
    layer.lower = step.lower;
    layer.estimate = wall_difference(*upper, *lower);
    layer.sign = sign;
    if (upper->breakdown && lower->breakdown) {
      // Only a complete diff says whether the kernels differ: a partial one holds the recorded ops alone.
      const KernelSetDiff diff = diff_kernel_sets(*upper->breakdown, *lower->breakdown);
      if (!diff.partial) layer.kernels_differ = !diff.same_set();
    }
    out.layers.push_back(std::move(layer));
    floor = step.lower;
  }
  return floor;
}

// Why a path's split busy time is not its kernels' time (its verdict's kernels_unrecorded): an AOTI package whose
// code says it was built without kernel profiling (its kernel attribution was read), or Inductor kernels
// compiled without --kernel-profile.
std::string kernels_unrecorded_reason(const PathResult& path) {
  if (path.kernel_attribution) {
    return fmt::format("the AOTI package of path {} was built without cpp.enable_kernel_profile, so its CPU kernels do "
                       "not record themselves; rebuild it with --kernel-profile",
                       path.name);
  }
  return fmt::format("{}: on the CPU, Inductor's generated kernels record themselves only when compiled with "
                     "--kernel-profile; without it part of the kernels' time would count as host time; rerun with "
                     "--kernel-profile",
                     path.name);
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

RoundMedians round_medians(std::span<const std::int64_t> values, std::span<const int> rounds) {
  if (rounds.size() != values.size() || values.empty()) return {};
  std::map<int, std::vector<double>> blocks;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (rounds[i] < 0) return {};
    blocks[rounds[i]].push_back(static_cast<double>(values[i]));
  }
  RoundMedians out(static_cast<std::size_t>(blocks.rbegin()->first) + 1);
  for (const auto& [round, block] : blocks) out[static_cast<std::size_t>(round)] = summarize(block).median;
  return out;
}

std::optional<double> paired_se(const RoundMedians& a, const RoundMedians& b, double (*pair)(double, double)) {
  std::vector<double> per_round;
  for (std::size_t r = 0; r < a.size() && r < b.size(); ++r) {
    if (a[r] && b[r]) per_round.push_back(pair(*a[r], *b[r]));
  }
  if (per_round.size() < 2) return std::nullopt;
  return median_standard_error(summarize(per_round));
}

namespace {

// The independent estimate with its error raised to the round-paired one where that is larger.
Estimate widened(Estimate independent, std::optional<double> paired) {
  if (paired) independent.se_ns = std::max(independent.se_ns, *paired);
  return independent;
}

// A path's split-pass busy times by round; none unless every analysed iteration has its round (an iteration
// without one counts as round -1, which round_medians refuses).
RoundMedians busy_round_medians(const PathBreakdown& breakdown) {
  std::vector<std::int64_t> values;
  std::vector<int> rounds;
  for (const IterationBreakdown& iteration : breakdown.iterations) {
    values.push_back(iteration.gpu.busy_ns);
    rounds.push_back(iteration.round.value_or(-1));
  }
  return round_medians(values, rounds);
}

double minus(double x, double y) { return x - y; }

}  // namespace

std::optional<double> round_paired_se(std::span<const std::int64_t> a, std::span<const int> a_rounds,
                                      std::span<const std::int64_t> b, std::span<const int> b_rounds) {
  return paired_se(round_medians(a, a_rounds), round_medians(b, b_rounds), minus);
}

Estimate wall_difference(const PathResult& a, const PathResult& b) {
  return widened(difference_of_medians(a.wall, b.wall), round_paired_se(a.wall_ns, a.wall_rounds, b.wall_ns, b.wall_rounds));
}

Estimate busy_difference(const PathResult& a, const PathResult& b) {
  return widened(difference_of_medians(a.breakdown->summary.gpu.busy_ns, b.breakdown->summary.gpu.busy_ns),
                 paired_se(busy_round_medians(*a.breakdown), busy_round_medians(*b.breakdown), minus));
}

Estimate operator+(const Estimate& a, const Estimate& b) { return {a.value_ns + b.value_ns, std::hypot(a.se_ns, b.se_ns)}; }
Estimate operator-(const Estimate& a, const Estimate& b) { return {a.value_ns - b.value_ns, std::hypot(a.se_ns, b.se_ns)}; }

bool layers_exceed_range(const Estimate& layer, const Estimate& range) {
  const Estimate excess = layer - range;
  return excess.value_ns > 0 && significant(excess) && layer.value_ns >= kLayersExceedRatio * range.value_ns;
}

GapExplanation explain_gap(const std::vector<PathResult>& paths, const std::string& slower, const std::string& faster,
                           const ExplainContext& context) {
  GapExplanation out;
  out.slower = slower;
  out.faster = faster;
  const PathResult* a = find_path(paths, slower);
  const PathResult* b = find_path(paths, faster);
  if (a == nullptr || b == nullptr) {
    out.missing.push_back(fmt::format("{} has no measured iterations", a == nullptr ? slower : faster));
    return out;
  }
  out.measured = true;
  out.gap = wall_difference(*a, *b);
  out.within_noise = !significant(out.gap);

  // Host: each side's chain down to its floor.
  out.floor_slower = peel(paths, slower, +1, context.unavailable, out);
  out.floor_faster = peel(paths, faster, -1, context.unavailable, out);
  out.floor_kind_slower = floor_kind(out.floor_slower);
  out.floor_kind_faster = floor_kind(out.floor_faster);
  const PathResult* floor_a = find_path(paths, out.floor_slower);
  const PathResult* floor_b = find_path(paths, out.floor_faster);
  const bool same_floor = floor_a == floor_b;
  out.floor_gap = same_floor ? Estimate{} : wall_difference(*floor_a, *floor_b);

  // Device: the kernels' time and set, from the split pass; then what the floors spend around them.
  const auto split_a = split_samples(*a);
  const auto split_b = split_samples(*b);
  const auto split_floor_a = split_samples(*floor_a);
  const auto split_floor_b = split_samples(*floor_b);
  const PathResult* const sides[] = {a, b, floor_a, floor_b};
  const auto unrecorded = std::find_if(std::begin(sides), std::end(sides), [](const PathResult* p) {
    return p->breakdown && p->breakdown->verdict.kernels_unrecorded;
  });
  if (unrecorded != std::end(sides)) {
    out.missing.push_back("kernel time and the wrapper term: " + kernels_unrecorded_reason(**unrecorded));
  } else if (!split_a || !split_b || !split_floor_a || !split_floor_b) {
    const PathResult* without = !split_a ? a : !split_b ? b : !split_floor_a ? floor_a : floor_b;
    out.missing.push_back(fmt::format("kernel time and the wrapper term: {}: {}", without->name,
                                      split_missing_reason(*without)));
  } else {
    out.kernels = busy_difference(*a, *b);
    out.kernels_same = diff_kernel_sets(*a->breakdown, *b->breakdown).same_set();
    // The faster path's own verdict says what dominates its time (the same shares and rule, so the answer
    // never says otherwise); an unknown verdict says nothing.
    const PathVerdict& verdict = b->breakdown->verdict;
    if (verdict.verdict != Verdict::unknown) {
      out.faster_kernel_share = verdict.busy_share;
      out.faster_dominant = verdict.verdict == Verdict::compute_bound ? Dominant::kernels
                            : verdict.verdict == Verdict::host_bound  ? Dominant::host
                                                                      : Dominant::neither;
    }
    // A floor's host time: its timing-pass median less its split-pass busy median (the timing pass has
    // no collector to slow the host down); the wrapper term is the floors' difference of it, taken as the
    // difference of their wall medians (paired by round) less that of their busy medians. One floor on
    // both sides: no wrapper difference, exactly.
    out.wrapper = same_floor ? Estimate{} : out.floor_gap - busy_difference(*floor_a, *floor_b);
    // gap - sum(sign * layers) telescopes to median(floor_slower) - median(floor_faster), so the residual
    // is what the floors' kernel time differs from their paths': (busy(floor_a) - busy(a)) -
    // (busy(floor_b) - busy(b)), each 0 exactly where the floor is the path itself.
    const auto drift = [](const PathResult& path, const PathResult& floor) {
      if (&path == &floor) return Estimate{};
      return busy_difference(floor, path);
    };
    const Estimate residual = drift(*a, *floor_a) - drift(*b, *floor_b);
    // The same number as floor_gap - kernels - wrapper, written as the identity computes it.
    out.residual = Estimate{out.floor_gap.value_ns - out.kernels->value_ns - out.wrapper->value_ns, residual.se_ns};
    // A share of a gap that is noise says nothing.
    if (out.gap.value_ns != 0 && !out.within_noise) out.residual_share = out.residual->value_ns / out.gap.value_ns;
  }

  // The second view of the Dynamo layers, where the collector recorded Dynamo's own ranges.
  for (const PathResult* side : {a, b}) {
    if (!side->dynamo_ranges || side->dynamo_ranges->iterations == 0) continue;
    const DynamoRanges& ranges = *side->dynamo_ranges;
    DynamoRangeCheck check;
    check.path = side->name;
    check.cache_lookup = Estimate{ranges.cache_lookup_ns.median, median_standard_error(ranges.cache_lookup_ns)};
    check.outside_region = Estimate{ranges.outside_region_ns.median, median_standard_error(ranges.outside_region_ns)};
    const LayerEstimate* dynamo = nullptr;
    for (const auto& layer : out.layers) {
      if (layer.path != side->name) continue;
      if (layer.layer == HostLayer::guards) check.guards = layer.estimate;
      if (layer.layer == HostLayer::dynamo) dynamo = &layer;
    }
    // Both layers or no sum: the guards alone are not "guards + Dynamo entry" (a path whose Dynamo-entry
    // variant could not be built has no such layer). The sum is the difference of the path and the
    // Dynamo-entry layer's lower variant, as one estimate: the two layers share their middle variant, whose
    // noise their errors in quadrature would count twice. (A layer exists only where its lower variant was
    // measured, so `graph` is there; were it not, no sum is better than one with the wrong spread.)
    const PathResult* graph = dynamo != nullptr ? find_path(paths, dynamo->lower) : nullptr;
    if (check.guards && graph != nullptr) check.guards_and_dynamo = wall_difference(*side, *graph);
    check.guards_exceed_lookup = check.guards && layers_exceed_range(*check.guards, check.cache_lookup);
    check.layers_exceed_outside =
        check.guards_and_dynamo && layers_exceed_range(*check.guards_and_dynamo, check.outside_region);
    out.dynamo_ranges.push_back(std::move(check));
  }

  // What closes the gap: the other measured paths faster than `slower`.
  for (const auto& path : paths) {
    if (path.role != PathRole::path || path.name == slower || path.name == faster || path.wall.count == 0) continue;
    if (path.wall.median >= a->wall.median) continue;
    if (ran_uncompiled(path)) continue;  // not a compiled path's figures
    GapRemedy remedy;
    remedy.path = path.name;
    remedy.saved = wall_difference(*a, path);
    remedy.share_of_gap = out.gap.value_ns != 0 ? remedy.saved.value_ns / out.gap.value_ns : 0;
    out.remedies.push_back(std::move(remedy));
  }
  std::stable_sort(out.remedies.begin(), out.remedies.end(),
                   [](const GapRemedy& x, const GapRemedy& y) { return x.saved.value_ns > y.saved.value_ns; });
  return out;
}

std::vector<GapExplanation> explain_against_fastest(const std::vector<PathResult>& paths,
                                                    const ExplainContext& context) {
  std::vector<GapExplanation> out;
  const PathResult* fastest = fastest_path(paths);
  if (fastest == nullptr) return out;
  for (const auto& path : paths) {
    if (path.role != PathRole::path || &path == fastest || path.wall.count == 0) continue;
    out.push_back(explain_gap(paths, path.name, fastest->name, context));
  }
  return out;
}

}  // namespace ohprof
