// The names of a kernel listing's origins (model/code_dump.hpp): what kernels.json writes; a path's
// folder in the dump.
#include "ohprof/model/code_dump.hpp"

#include <gtest/gtest.h>

namespace ohprof {
namespace {

TEST(KernelOrigin, Names) {
  EXPECT_STREQ(to_string(KernelOrigin::generated), "generated");
  EXPECT_STREQ(to_string(KernelOrigin::extern_call), "extern_call");
  EXPECT_STREQ(to_string(KernelOrigin::not_in_code), "not_in_code");
}

TEST(DumpFolderName, MakesAPathsNameAFolderName) {
  EXPECT_EQ(dump_folder_name("aoti"), "aoti");
  EXPECT_EQ(dump_folder_name("compile:reduce-overhead"), "compile_reduce-overhead");
  EXPECT_EQ(dump_folder_name("compile:cpp-wrapper/call"), "compile_cpp-wrapper_call");
}

}  // namespace
}  // namespace ohprof
