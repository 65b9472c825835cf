// A shared library that uses the C++ runtime (a string and a stream), for elf_test: built twice, once
// with -static-libstdc++ (test/CMakeLists.txt).
#include <sstream>
#include <string>

extern "C" int ohprof_elf_fixture(int value) {
  std::ostringstream out;
  out << "value " << value;
  return static_cast<int>(out.str().size());
}
