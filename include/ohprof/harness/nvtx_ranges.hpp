#pragma once
// NVTX ranges in ohprof's own domain ("ohprof"), so Nsight Systems can select measured iterations:
//   nsys profile --capture-range=nvtx --nvtx-capture='measure@ohprof' ohprof run ...
// Registered strings: "warmup" (each warm-up iteration), "iteration" (each measured iteration, payload
// = iteration index), "measure" (all measured iterations of one path). The path's name is the range's
// category. A no-op when built without NVTX3; about 2 ns a range when no tool is attached.
#include <cstdint>
#include <memory>
#include <string>

#include "ohprof/harness/measurement_loop.hpp"

namespace ohprof {

class NvtxRanges final : public IterationObserver {
 public:
  explicit NvtxRanges(const std::string& path_name);
  ~NvtxRanges() override;
  void on_measurement_begin() override;
  void on_iteration_begin(std::int64_t index, bool warmup) override;
  void on_iteration_end(std::int64_t index, bool warmup) override;
  void on_measurement_end() override;

  static bool available();  // built with NVTX3

 private:
  std::uint32_t m_category = 0;
};

}  // namespace ohprof
