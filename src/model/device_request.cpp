#include "ohprof/model/device_request.hpp"

#include <charconv>
#include <fmt/format.h>

namespace ohprof {

Result<DeviceRequest> parse_device_request(std::string_view text) {
  DeviceRequest request;
  if (text == "auto") return request;
  if (text == "cpu") {
    request.kind = DeviceRequest::Kind::cpu;
    return request;
  }
  if (text.starts_with("cuda")) {
    request.kind = DeviceRequest::Kind::cuda;
    std::string_view rest = text.substr(4);
    if (rest.empty()) return request;
    if (rest.front() == ':') {
      rest.remove_prefix(1);
      int index = -1;
      const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), index);
      if (!rest.empty() && ec == std::errc{} && end == rest.data() + rest.size() && index >= 0) {
        request.index = index;
        return request;
      }
    }
  }
  return make_error(ExitCode::usage_error,
                    fmt::format("bad --device '{}'; use auto, cpu, cuda or cuda:N", text));
}

std::string device_request_text(const DeviceRequest& request) {
  switch (request.kind) {
    case DeviceRequest::Kind::automatic: return "auto";
    case DeviceRequest::Kind::cpu: return "cpu";
    case DeviceRequest::Kind::cuda: return fmt::format("cuda:{}", request.index);
  }
  return "auto";
}

}  // namespace ohprof
