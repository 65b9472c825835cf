// Prints, as JSON, the constants the Python side of ohprof (python/ohprof_paths.py) must agree with:
// exit codes, the --input dtype spellings, the Python paths of compare. test/tools/python_boundary_check.py
// compares them with the module's own.
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "ohprof/base/exit_codes.hpp"
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
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
