#pragma once
// Private to the LibTorch adapters (aoti_runner.cpp, python_session.cpp): what a TensorBundle holds.
#include <ATen/Tensor.h>

#include <vector>

#include "ohprof/harness/path_runner.hpp"

namespace ohprof {

struct TensorBundle {
  std::vector<at::Tensor> tensors;
};

}  // namespace ohprof
