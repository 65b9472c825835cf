#include "ohprof/model/execution_check.hpp"

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

bool gave_up(const CompileEvent& event) { return event.kind == CompileEventKind::recompile_limit; }

std::optional<CompileEventKind> parse_compile_event_kind(const std::string& text) { return parse_enum<CompileEventKind>(text); }

std::optional<CudaGraphUse> parse_cuda_graph_use(const std::string& text) { return parse_enum<CudaGraphUse>(text); }

std::optional<CompiledCall> parse_compiled_call(const std::string& text) { return parse_enum<CompiledCall>(text); }

CompiledCallProbe probe_from_answer(const std::string& answer) {
  CompiledCallProbe probe;
  probe.result = parse_compiled_call(answer);
  if (probe.result) return probe;
  const std::optional<ProbeUnknown> why = parse_enum<ProbeUnknown>(answer);
  if (why == ProbeUnknown::no_hook || why == ProbeUnknown::limit_in_probe) {
    probe.unknown = why;
  } else {
    probe.unknown = ProbeUnknown::probe_failed;
    probe.error = "the probe answered '" + answer + "'";
  }
  return probe;
}

void record_probe(ExecutionCheck& check, CompiledCallProbe probe) {
  check.compiled_call = probe.result;
  check.compiled_call_unknown = probe.unknown;
  check.compiled_call_error = std::move(probe.error);
}

std::optional<UncompiledBy> uncompiled_by(const ExecutionCheck& check) {
  if (check.compiled_call == CompiledCall::guards_missed) return UncompiledBy::guards_missed;
  if (check.compiled_call == CompiledCall::no_frame) return UncompiledBy::no_frame;
  if (check.compiled_call == CompiledCall::no_graph) return UncompiledBy::no_graph;
  return std::nullopt;
}

bool ran_uncompiled(const ExecutionCheck& check) { return uncompiled_by(check).has_value(); }

}  // namespace ohprof
