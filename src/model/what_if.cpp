#include "ohprof/model/what_if.hpp"

namespace ohprof {

const char* setting_label(CompileSetting setting) {
  switch (setting) {
    case CompileSetting::skip_guards: return "torch.compiler.set_stance(\"default\", skip_guard_eval_unsafe=True)";
    case CompileSetting::skip_module_guards:
      return "torch.compile(options={\"guard_filter_fn\": torch.compiler.skip_guard_on_all_nn_modules_unsafe})";
    case CompileSetting::cpp_wrapper: return "torch._inductor.config.cpp_wrapper = True";
    case CompileSetting::cuda_graphs: return "torch.compile(mode=\"reduce-overhead\")";
    case CompileSetting::autotune: return "torch.compile(mode=\"max-autotune-no-cudagraphs\")";
  }
  return "";
}

bool what_if_compiles(CompileSetting setting) { return setting != CompileSetting::skip_guards; }

bool rebuilds_hold(const PlacementBand& band, double saved_ns) {
  return band.builds >= 2 && saved_ns > band.center_ns - band.half_width_ns &&
         saved_ns < band.center_ns + band.half_width_ns;
}

// placement_band sets each edge to the rebuilds' (center ∓ half width) or to the share, whichever reaches further.
bool low_edge_widened(const PlacementBand& band) {
  return band.builds >= 2 && band.low_ns < band.center_ns - band.half_width_ns;
}
bool high_edge_widened(const PlacementBand& band) {
  return band.builds >= 2 && band.high_ns > band.center_ns + band.half_width_ns;
}

const std::vector<WhatIfSetting>& what_if_settings() {
  static const std::vector<WhatIfSetting> settings{
      {CompileSetting::skip_guards, "compile/no-guards"},
      {CompileSetting::skip_module_guards, "compile:no-module-guards"},
      {CompileSetting::cpp_wrapper, "compile:cpp-wrapper"},
      {CompileSetting::cuda_graphs, "compile:reduce-overhead"},
      {CompileSetting::autotune, "compile:max-autotune-no-cudagraphs"},
  };
  return settings;
}

}  // namespace ohprof
