// ohprof: why does my model run faster as an AOTInductor package than under torch.compile?
// The front: every command's flags, and `analyze` itself; it loads no LibTorch, CPython or CUDA
// library, and hands `run`, `compare` and `sweep` to the user's Python and the measuring extension (measure_module.cpp).
#include "commands.hpp"

int main(int argc, char** argv) { return ohprof::run_cli(argc, argv, /*runtime=*/nullptr); }
