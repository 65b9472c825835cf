#include "ohprof/model/device_request.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

TEST(ParseDeviceRequest, KnownForms) {
  EXPECT_EQ(parse_device_request("auto")->kind, DeviceRequest::Kind::automatic);
  EXPECT_EQ(parse_device_request("cpu")->kind, DeviceRequest::Kind::cpu);
  auto cuda = parse_device_request("cuda");
  ASSERT_TRUE(cuda.ok());
  EXPECT_EQ(cuda->kind, DeviceRequest::Kind::cuda);
  EXPECT_EQ(cuda->index, 0);
  auto cuda3 = parse_device_request("cuda:3");
  ASSERT_TRUE(cuda3.ok());
  EXPECT_EQ(cuda3->index, 3);
  EXPECT_EQ(device_request_text(*cuda3), "cuda:3");
}

TEST(ParseDeviceRequest, RejectsOthers) {
  for (const char* bad : {"gpu", "cuda:", "cuda:x", "cuda:-1", "cuda1", "CPU", ""}) {
    auto parsed = parse_device_request(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.error().code, ExitCode::usage_error);
  }
}

}  // namespace
}  // namespace ohprof
