#pragma once
// Facts fixed at build time, for the report's context block.

namespace ohprof {

const char* ohprof_version();
const char* ohprof_git_sha();
const char* cuda_toolkit_version();  // "13.0.88" or "none"
const char* inflate_library();       // what inflates gzip traces: "ISA-L 2.30.0" or "zlib 1.2.13"

}  // namespace ohprof
