#include "ohprof/model/execution_check.hpp"

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

bool gave_up(const CompileEvent& event) { return event.kind == CompileEventKind::recompile_limit; }

std::optional<CompileEventKind> parse_compile_event_kind(const std::string& text) { return parse_enum<CompileEventKind>(text); }

std::optional<CudaGraphUse> parse_cuda_graph_use(const std::string& text) { return parse_enum<CudaGraphUse>(text); }

}  // namespace ohprof
