#include "ohprof/model/cold_start.hpp"

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

std::optional<CompileCache> parse_compile_cache(const std::string& text) { return parse_enum<CompileCache>(text); }

}  // namespace ohprof
