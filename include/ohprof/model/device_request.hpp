#pragma once
// --device auto|cpu|cuda[:N]
#include <string>
#include <string_view>

#include "ohprof/base/error.hpp"

namespace ohprof {

struct DeviceRequest {
  enum class Kind { automatic, cpu, cuda } kind = Kind::automatic;
  int index = 0;  // CUDA device index
};

Result<DeviceRequest> parse_device_request(std::string_view text);
std::string device_request_text(const DeviceRequest& request);

}  // namespace ohprof
