#include "ohprof/model/execution_check.hpp"

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

const char* to_string(CompileEventKind kind) {
  switch (kind) {
    case CompileEventKind::dynamo_compile: return "dynamo-compile";
    case CompileEventKind::autotuning: return "autotuning";
    case CompileEventKind::cuda_graph_recording: return "cuda-graph-recording";
    case CompileEventKind::cuda_graph_eager: return "cuda-graph-eager";
  }
  return "dynamo-compile";
}

std::optional<CompileEventKind> parse_compile_event_kind(const std::string& text) { return parse_enum<CompileEventKind>(text); }

const char* to_string(MeasuredPass pass) { return pass == MeasuredPass::split ? "split" : "timing"; }

const char* to_string(CudaGraphUse use) {
  switch (use) {
    case CudaGraphUse::not_applicable: return "not-applicable";
    case CudaGraphUse::replayed: return "replayed";
    case CudaGraphUse::not_replayed: return "not-replayed";
    case CudaGraphUse::skipped: return "skipped";
  }
  return "not-applicable";
}

std::optional<CudaGraphUse> parse_cuda_graph_use(const std::string& text) { return parse_enum<CudaGraphUse>(text); }

}  // namespace ohprof
