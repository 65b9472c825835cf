// Prints, as JSON, the constants the Python side of ohprof (python/ohprof/_paths.py) must agree with:
// exit codes, the --input dtype spellings, the Python paths of compare, their variants and sources, and
// what a probe call of a Dynamo path may say it ran. test/tools/python_boundary_check.py
// compares them with the module's own.
#include <algorithm>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "ohprof/base/exit_codes.hpp"
#include "ohprof/model/execution_check.hpp"
#include "ohprof/model/explanation.hpp"
#include "ohprof/model/input_spec.hpp"
#include "ohprof/session/session.hpp"

int main() {
  using namespace ohprof;
  nlohmann::json out;
  for (const auto& entry : kExitCodeNames) out["exit_codes"][entry.name] = to_int(entry.code);
  for (const auto& [spelling, dtype] : dtype_spellings()) out["dtypes"][spelling] = dtype_name(dtype);
  out["python_paths"] = nlohmann::json::array();
  for (const auto& path : known_compare_paths()) {
    if (path != "aoti") out["python_paths"].push_back(path);
  }
  // The variant suffixes of every path's peel chain ("compile/no-guards" -> "no-guards"), in chain order.
  out["variants"] = nlohmann::json::array();
  for (const auto& path : known_compare_paths()) {
    for (const auto& step : peel_chain(path)) {
      const auto slash = step.lower.find('/');
      if (slash == std::string::npos) continue;
      const std::string variant = step.lower.substr(slash + 1);
      if (std::find(out["variants"].begin(), out["variants"].end(), variant) == out["variants"].end()) {
        out["variants"].push_back(variant);
      }
    }
  }
  for (PathSource source : {PathSource::module, PathSource::exported_program, PathSource::aoti_package}) {
    out["sources"].push_back(to_string(source));
  }
  out["compiled_calls"] = nlohmann::json::array();
  for (const char* text : enum_texts(CompiledCall{})) out["compiled_calls"].push_back(text);
  // The reasons the probe itself gives; probe-failed is said by the C++ caller of a probe that raised.
  out["probe_unknown"] = nlohmann::json::array();
  for (const char* text : enum_texts(ProbeUnknown{})) {
    if (parse_enum<ProbeUnknown>(text) != ProbeUnknown::probe_failed && parse_enum<ProbeUnknown>(text) != ProbeUnknown::not_probed) {
      out["probe_unknown"].push_back(text);
    }
  }
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
