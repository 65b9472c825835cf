#include "ohprof/analysis/cold_start.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "ohprof/base/stats.hpp"

namespace ohprof {
namespace {

double median_of(const std::vector<ColdStartSample>& samples, std::int64_t ColdStartSample::*field) {
  std::vector<double> values;
  values.reserve(samples.size());
  for (const ColdStartSample& s : samples) values.push_back(static_cast<double>(s.*field));
  return quantile(values, 0.5);
}

// The median of an optional field over the samples that have it; null when none has.
std::optional<double> median_of(const std::vector<ColdStartSample>& samples,
                                std::optional<std::int64_t> ColdStartSample::*field) {
  std::vector<double> values;
  for (const ColdStartSample& s : samples) {
    if (s.*field) values.push_back(static_cast<double>(*(s.*field)));
  }
  if (values.empty()) return std::nullopt;
  return quantile(values, 0.5);
}

}  // namespace

PhaseResult cold_start_phases(const ColdStartTimes& t) {
  const bool ordered = t.spawn_ns <= t.main_ns && t.main_ns <= t.torch_ns && t.torch_ns <= t.tool_ns &&
                       t.tool_ns <= t.loaded_ns && t.loaded_ns <= t.first_ns;
  if (!ordered) {
    return {std::nullopt, fmt::format("the process's timestamps are out of order (spawn {}, main {}, torch {}, "
                                      "tool {}, loaded {}, first {})",
                                      t.spawn_ns, t.main_ns, t.torch_ns, t.tool_ns, t.loaded_ns, t.first_ns)};
  }
  if (t.compile_ns < 0 || t.compile_ns > t.first_ns - t.loaded_ns) {
    return {std::nullopt, fmt::format("the process's compile time {} ns is outside its first call ({} ns)",
                                      t.compile_ns, t.first_ns - t.loaded_ns)};
  }
  if (t.hook_ns < 0 || t.hook_ns > t.loaded_ns - t.tool_ns) {
    return {std::nullopt, fmt::format("the process's own time {} ns is outside its load ({} ns)", t.hook_ns,
                                      t.loaded_ns - t.tool_ns)};
  }
  ColdStartSample s;
  s.process_ns = t.main_ns - t.spawn_ns;
  s.import_ns = t.torch_ns - t.main_ns;
  s.load_ns = t.loaded_ns - t.tool_ns - t.hook_ns;
  s.compile_ns = t.compile_ns;
  s.first_call_ns = t.first_ns - t.loaded_ns - t.compile_ns;
  s.total_ns = s.process_ns + s.import_ns + s.load_ns + s.compile_ns + s.first_call_ns;
  return {s, ""};
}

void summarize_cold_start(ColdStartState& state) {
  state.median.reset();
  state.min_total_ns = state.max_total_ns = 0;
  if (state.samples.empty()) return;
  ColdStartPhases m;
  m.process_ns = median_of(state.samples, &ColdStartSample::process_ns);
  m.import_ns = median_of(state.samples, &ColdStartSample::import_ns);
  m.load_ns = median_of(state.samples, &ColdStartSample::load_ns);
  m.compile_ns = median_of(state.samples, &ColdStartSample::compile_ns);
  m.first_call_ns = median_of(state.samples, &ColdStartSample::first_call_ns);
  m.total_ns = median_of(state.samples, &ColdStartSample::total_ns);
  m.rss_bytes = median_of(state.samples, &ColdStartSample::rss_bytes);
  m.peak_rss_bytes = median_of(state.samples, &ColdStartSample::peak_rss_bytes);
  state.median = m;
  const auto [lo, hi] = std::minmax_element(state.samples.begin(), state.samples.end(),
                                            [](const auto& a, const auto& b) { return a.total_ns < b.total_ns; });
  state.min_total_ns = static_cast<double>(lo->total_ns);
  state.max_total_ns = static_cast<double>(hi->total_ns);
}

double start_orders(std::size_t n, std::size_t m) {
  double combinations = 1;
  for (std::size_t k = 1; k <= n; ++k) combinations = combinations * static_cast<double>(m + k) / static_cast<double>(k);
  return combinations;
}

std::optional<ColdStartOrder> rank_order(const std::vector<std::int64_t>& values, const std::vector<std::int64_t>& against) {
  if (values.empty() || against.empty()) return std::nullopt;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  const auto [against_lo, against_hi] = std::minmax_element(against.begin(), against.end());
  if (*hi >= *against_lo && *lo <= *against_hi) return ColdStartOrder::overlapping;
  if (start_orders(values.size(), against.size()) < kColdStartOrderCombinations - 1e-9) return ColdStartOrder::too_few;
  return *hi < *against_lo ? ColdStartOrder::faster : ColdStartOrder::slower;
}

std::optional<ColdStartOrder> order_against(const std::vector<ColdStartSample>& state,
                                            const std::vector<ColdStartSample>& cold) {
  const auto totals = [](const std::vector<ColdStartSample>& samples) {
    std::vector<std::int64_t> out;
    out.reserve(samples.size());
    for (const ColdStartSample& s : samples) out.push_back(s.total_ns);
    return out;
  };
  return rank_order(totals(state), totals(cold));
}

void summarize_path_cold_start(PathColdStart& path) {
  for (ColdStartState& state : path.states) summarize_cold_start(state);
  const auto cold = std::find_if(path.states.begin(), path.states.end(),
                                 [](const ColdStartState& s) { return s.cache == CompileCache::cold; });
  for (ColdStartState& state : path.states) {
    state.against_cold.reset();
    state.speedup_vs_cold = 0;
    if (cold == path.states.end() || (state.cache != CompileCache::warm && state.cache != CompileCache::artifacts)) {
      continue;
    }
    state.against_cold = order_against(state.samples, cold->samples);
    if (state.median && cold->median && state.median->total_ns > 0) {
      state.speedup_vs_cold = cold->median->total_ns / state.median->total_ns;
    }
  }
}

}  // namespace ohprof
