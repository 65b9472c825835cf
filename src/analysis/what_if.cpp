#include "ohprof/analysis/what_if.hpp"

#include <algorithm>
#include <cmath>

#include "ohprof/analysis/explanation.hpp"
#include "ohprof/base/stats.hpp"

namespace ohprof {
namespace {

const PathResult* find_path(const std::vector<PathResult>& paths, const std::string& name) {
  for (const auto& path : paths) {
    if (path.name == name) return &path;
  }
  return nullptr;
}

// A path's build error, whichever of the context's maps holds it ("" when neither does).
std::string build_error(const WhatIfContext& context, const std::string& path) {
  if (const auto it = context.not_offered.find(path); it != context.not_offered.end()) return it->second;
  if (const auto it = context.failed.find(path); it != context.failed.end()) return it->second;
  return "";
}

}  // namespace

std::string what_if_not_applicable(CompileSetting setting, DeviceKind device) {
  if (setting == CompileSetting::cuda_graphs && device != DeviceKind::cuda) {
    return "CUDA graphs need a CUDA device; on the CPU mode=\"reduce-overhead\" compiles as the default mode";
  }
  return "";
}

PlacementBand placement_band(double base_median_ns, const std::vector<double>& moved_ns) {
  PlacementBand band;
  if (base_median_ns <= 0) return band;
  // The n medians, the base's first: median(rebuild) = median(base) − moved.
  std::vector<double> medians{base_median_ns};
  for (const double m : moved_ns) medians.push_back(base_median_ns - m);
  const double n = static_cast<double>(medians.size());
  band.builds = static_cast<int>(medians.size());
  const double share = kWhatIfNegligibleShare * base_median_ns;
  band.low_ns = -share;
  band.high_ns = share;
  if (band.builds < 2) return band;
  double mean = 0;
  for (const double g : medians) mean += g / n;
  double squares = 0;
  for (const double g : medians) squares += (g - mean) * (g - mean);
  band.spread_ns = std::sqrt(squares / (n - 1));
  band.t = student_t_975(band.builds - 1);
  band.center_ns = base_median_ns - mean;
  band.half_width_ns = band.t * band.spread_ns * std::sqrt(1 + 1 / n);
  const double low = band.center_ns - band.half_width_ns;
  const double high = band.center_ns + band.half_width_ns;
  band.from_again = low < -share || high > share;
  band.low_ns = std::min(low, -share);
  band.high_ns = std::max(high, share);
  return band;
}

WhatIfLedger what_if_ledger(const std::vector<PathResult>& paths, const WhatIfContext& context) {
  WhatIfLedger ledger;
  const PathResult* base = find_path(paths, ledger.base);
  ledger.base_measured = base != nullptr && base->wall.count > 0;
  if (base != nullptr) {
    ledger.base_ready_ns = base->load_ns;
    if (base->dynamo_ranges && base->dynamo_ranges->iterations > 0) {
      ledger.base_cache_lookup_ns = base->dynamo_ranges->cache_lookup_ns.median;
    }
    if (base->execution) {
      ledger.base_fx_cache_hits = base->execution->facts.fx_cache_hits;
      ledger.base_fx_cache_misses = base->execution->facts.fx_cache_misses;
    }
  }
  // The A/A check first: its band is what the separately compiled settings are judged against.
  std::vector<double> moved;
  for (const char* name : kWhatIfRebuilds) {
    WhatIfAgain line;
    line.path = name;
    const PathResult* again = find_path(paths, line.path);
    if (!ledger.base_measured) {
      line.unavailable = "the base path " + ledger.base + " was not measured";
    } else if (const std::string why = build_error(context, line.path); !why.empty()) {
      line.unavailable = "its build failed: " + why;
    } else if (again == nullptr) {
      line.unavailable = "not built";
    } else if (again->wall.count == 0) {
      line.unavailable = "no measured iterations";
    } else {
      line.moved = wall_difference(*base, *again);
      line.significant = significant(*line.moved);
      moved.push_back(line.moved->value_ns);
    }
    ledger.again.push_back(std::move(line));
  }
  ledger.placement = placement_band(ledger.base_measured ? base->wall.median : 0.0, moved);
  for (const WhatIfSetting& setting : what_if_settings()) {
    WhatIfEntry entry;
    entry.setting = setting.setting;
    entry.path = setting.path;
    entry.not_applicable = what_if_not_applicable(setting.setting, context.device);
    if (!entry.not_applicable.empty()) {
      ledger.entries.push_back(std::move(entry));
      continue;
    }
    if (const auto it = context.not_offered.find(setting.path); it != context.not_offered.end()) {
      entry.not_applicable = it->second;
      ledger.entries.push_back(std::move(entry));
      continue;
    }
    const PathResult* path = find_path(paths, setting.path);
    if (!ledger.base_measured) {
      const std::string why = build_error(context, ledger.base);
      entry.unavailable = !why.empty()      ? "the base path " + ledger.base + " was not built: " + why
                          : base == nullptr ? "the base path " + ledger.base + " was not built"
                                            : "the base path " + ledger.base + " has no measured iterations";
    } else if (ran_uncompiled(*base)) {
      // A setting's saving is against compiled code, which the base did not run.
      entry.unavailable = "the base path " + ledger.base + " ran uncompiled code (execution check)";
    } else if (const auto it = context.failed.find(setting.path); it != context.failed.end()) {
      entry.unavailable = "its build failed: " + it->second;
    } else if (path == nullptr) {
      entry.unavailable = "not built";
    } else if (path->wall.count == 0) {
      entry.unavailable = "no measured iterations";
    } else if (ran_uncompiled(*path)) {
      entry.unavailable = "it ran uncompiled code (execution check)";
    } else if (setting.setting == CompileSetting::cuda_graphs && path->execution &&
               path->execution->cuda_graphs != CudaGraphUse::replayed) {
      // Its times are not of CUDA graphs: the execution check says what ran instead.
      const ExecutionCheck& ran = *path->execution;
      entry.unavailable = std::string("its measured calls did not all replay CUDA graphs (execution: ") +
                          to_string(ran.cuda_graphs) +
                          (ran.facts.cuda_graph_skip_reason.empty() ? std::string() : ": " + ran.facts.cuda_graph_skip_reason) + ")";
    }
    if (path != nullptr && path->output_check) {
      entry.outputs_match = path->output_check->passed;
      entry.max_abs_diff = path->output_check->max_abs_diff;
    }
    if (entry.unavailable.empty()) {
      entry.saved = wall_difference(*base, *path);
      entry.significant = significant(*entry.saved);
      // Placement moves only separately compiled paths: skip-guards runs the base's compiled code.
      entry.negligible = entry.significant && what_if_compiles(setting.setting) &&
                         entry.saved->value_ns > ledger.placement.low_ns && entry.saved->value_ns < ledger.placement.high_ns;
      if (what_if_compiles(setting.setting)) {
        entry.ready_ns = path->load_ns;
        if (path->execution) {
          entry.fx_cache_hits = path->execution->facts.fx_cache_hits;
          entry.fx_cache_misses = path->execution->facts.fx_cache_misses;
        }
        if (path->memory && base->memory && path->memory->run_peak_bytes && base->memory->run_peak_bytes) {
          entry.extra_run_peak_bytes = *path->memory->run_peak_bytes - *base->memory->run_peak_bytes;
        }
        if (path->memory && path->memory->device) entry.graph_pool_bytes = path->memory->device->graph_pool_bytes;
      }
    }
    ledger.entries.push_back(std::move(entry));
  }
  // A guard setting cannot save more than all of the base's guard evaluation takes.
  if (ledger.base_cache_lookup_ns) {
    for (WhatIfEntry& e : ledger.entries) {
      const bool guards = e.setting == CompileSetting::skip_guards || e.setting == CompileSetting::skip_module_guards;
      e.beyond_guards = guards && e.saved && e.significant && !e.negligible && e.saved->value_ns > 0 &&
                        interval_low(*e.saved) > *ledger.base_cache_lookup_ns;
    }
  }
  return ledger;
}

}  // namespace ohprof
