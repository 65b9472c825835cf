// The names of a kernel listing's origins (model/code_dump.hpp): what kernels.json writes.
#include "ohprof/model/code_dump.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

TEST(KernelOrigin, Names) {
  EXPECT_STREQ(to_string(KernelOrigin::generated), "generated");
  EXPECT_STREQ(to_string(KernelOrigin::extern_call), "extern_call");
  EXPECT_STREQ(to_string(KernelOrigin::not_in_code), "not_in_code");
}

}  // namespace
}  // namespace ohprof
