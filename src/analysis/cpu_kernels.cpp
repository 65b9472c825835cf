#include "ohprof/analysis/cpu_kernels.hpp"

#include <algorithm>
#include <iterator>
#include <cctype>
#include <set>
#include <unordered_set>

namespace ohprof {
namespace {

// ATen operators that only allocate, or return a view / metadata change of their input: no arithmetic
// on the data. On a GPU they launch nothing; on the CPU they are host work, counted as dispatch.
// Copies they may make (aten::reshape of a non-contiguous tensor calls aten::clone) are separate
// recorded operators nested inside them, and those count.
constexpr std::string_view kBookkeepingOps[] = {
    "aten::empty",         "aten::empty_strided", "aten::empty_like",    "aten::new_empty",
    "aten::new_empty_strided", "aten::as_strided", "aten::view",         "aten::_unsafe_view",
    "aten::view_as",       "aten::reshape",       "aten::_reshape_alias", "aten::flatten",
    "aten::expand",        "aten::expand_as",     "aten::resolve_conj",  "aten::resolve_neg",
    "aten::detach",        "aten::detach_",       "aten::alias",         "aten::t",
    "aten::transpose",     "aten::permute",       "aten::select",        "aten::slice",
    "aten::squeeze",       "aten::unsqueeze",     "aten::narrow",        "aten::split",
    "aten::split_with_sizes", "aten::chunk",      "aten::unbind",        "aten::diagonal",
    "aten::contiguous",    "aten::lift_fresh",    "aten::set_",          "aten::resize_",
    "aten::numpy_T",       "aten::matrix_H",      "aten::mT",            "aten::unflatten",
    "aten::movedim",       "aten::swapaxes",
};

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// "<namespace>::<name>[.overload]": no spaces, a non-empty identifier before "::".
bool looks_like_operator(std::string_view name) {
  const auto sep = name.find("::");
  if (sep == std::string_view::npos || sep == 0) return false;
  for (std::size_t i = 0; i < sep; ++i) {
    if (!is_identifier_char(name[i])) return false;
  }
  return name.find(' ') == std::string_view::npos && sep + 2 < name.size();
}

// "graph_<digits>_" prefix length, or 0.
std::size_t graph_prefix_length(std::string_view name) {
  constexpr std::string_view kGraph = "graph_";
  if (!name.starts_with(kGraph)) return 0;
  std::size_t i = kGraph.size();
  const std::size_t digits_begin = i;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])) != 0) ++i;
  if (i == digits_begin || i >= name.size() || name[i] != '_' || i + 1 >= name.size()) return 0;
  return i + 1;
}

void insert_sorted_unique(std::vector<std::string>& into, std::string value) {
  const auto at = std::lower_bound(into.begin(), into.end(), value);
  if (at == into.end() || *at != value) into.insert(at, std::move(value));
}

}  // namespace

CpuEventClass classify_cpu_event(std::string_view name, CpuEventScope scope) {
  if (scope == CpuEventScope::user) return CpuEventClass::region;
  if (graph_prefix_length(name) > 0 || name.starts_with("cpp_fused_")) return CpuEventClass::generated;
  if (name.starts_with("aoti_torch_cpu_")) return CpuEventClass::extern_call;
  if (!looks_like_operator(name)) return CpuEventClass::region;
  const auto overload = name.find('.', name.find("::"));
  const std::string_view base = overload == std::string_view::npos ? name : name.substr(0, overload);
  if (std::find(std::begin(kBookkeepingOps), std::end(kBookkeepingOps), base) != std::end(kBookkeepingOps)) {
    return CpuEventClass::bookkeeping;
  }
  return CpuEventClass::op;
}

bool is_kernel_class(CpuEventClass value) {
  return value == CpuEventClass::generated || value == CpuEventClass::extern_call || value == CpuEventClass::op;
}

std::vector<DeviceOp> select_cpu_kernels(const std::vector<CpuEvent>& events) {
  // kernel_or_inside[i]: event i is a kernel or lies inside one. Parents are resolved on demand
  // (memoised), so the order of `events` does not matter; a parent index out of range ends the chain.
  enum : unsigned char { unknown, no, yes };
  std::vector<unsigned char> covered(events.size(), unknown);
  std::vector<unsigned char> is_kernel(events.size(), 0);
  for (std::size_t i = 0; i < events.size(); ++i) {
    is_kernel[i] = is_kernel_class(classify_cpu_event(events[i].name, events[i].scope)) ? 1 : 0;
  }
  std::vector<std::size_t> chain;
  auto resolve = [&](std::size_t start) {
    chain.clear();
    std::size_t i = start;
    unsigned char answer = no;
    while (true) {
      if (covered[i] != unknown) { answer = covered[i]; break; }
      if (is_kernel[i]) { answer = yes; covered[i] = yes; break; }
      chain.push_back(i);
      const std::int64_t parent = events[i].parent;
      if (parent < 0 || static_cast<std::size_t>(parent) >= events.size() || chain.size() > events.size()) {
        answer = no;
        break;
      }
      i = static_cast<std::size_t>(parent);
    }
    for (std::size_t c : chain) covered[c] = answer;
  };
  std::vector<DeviceOp> ops;
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (!is_kernel[i]) continue;
    const std::int64_t parent = events[i].parent;
    bool inside_kernel = false;
    if (parent >= 0 && static_cast<std::size_t>(parent) < events.size()) {
      const auto p = static_cast<std::size_t>(parent);
      if (covered[p] == unknown) resolve(p);
      inside_kernel = covered[p] == yes;
    }
    if (inside_kernel) continue;
    DeviceOp op;
    op.kind = DeviceOpKind::kernel;
    op.start_ns = events[i].start_ns;
    op.end_ns = events[i].end_ns;
    op.device = 0;
    op.stream = events[i].thread_id;
    op.name = events[i].name;
    ops.push_back(std::move(op));
  }
  return ops;
}

std::string strip_graph_prefix(std::string_view name) {
  return std::string(name.substr(graph_prefix_length(name)));
}

std::string canonical_kernel_name(std::string_view name) {
  std::string stripped = strip_graph_prefix(name);
  for (std::string_view shim : {std::string_view("aoti_torch_cpu_"), std::string_view("aoti_torch_cuda_")}) {
    if (stripped.rfind(shim, 0) != 0) continue;
    std::string op = stripped.substr(shim.size());
    if (op.size() > 4 && op.compare(op.size() - 4, 4, "_out") == 0) op.resize(op.size() - 4);
    if (!op.empty()) return "aten::" + op;
  }
  return stripped;
}

void scan_generated_code(std::string_view source, GeneratedKernels& into) {
  constexpr std::string_view kGenerated = "cpp_fused_";
  constexpr std::string_view kExtern = "aoti_torch_cpu_";
  if (source.find("RAIIAtenRecordFunctionHandle") != std::string_view::npos ||
      source.find("RECORD_FUNCTION(") != std::string_view::npos) {
    into.records_kernels = true;
  }
  std::size_t i = 0;
  while (i < source.size()) {
    if (!is_identifier_char(source[i])) { ++i; continue; }
    const std::size_t begin = i;
    while (i < source.size() && is_identifier_char(source[i])) ++i;
    const std::string_view token = source.substr(begin, i - begin);
    if (std::isdigit(static_cast<unsigned char>(token.front())) != 0) continue;
    if (token.starts_with(kGenerated) && token.size() > kGenerated.size()) {
      insert_sorted_unique(into.generated, std::string(token));
    } else if (token.starts_with(kExtern) && token.size() > kExtern.size()) {
      std::size_t next = i;
      while (next < source.size() && std::isspace(static_cast<unsigned char>(source[next])) != 0) ++next;
      if (next < source.size() && source[next] == '(') insert_sorted_unique(into.extern_calls, std::string(token));
    }
  }
}

KernelAttribution attribute_kernels(const GeneratedKernels& code, const std::vector<CpuEvent>& events) {
  KernelAttribution result;
  result.records_kernels = code.records_kernels;
  std::unordered_set<std::string> recorded;        // names as recorded
  std::unordered_set<std::string> recorded_generated;  // generated names without the graph prefix
  for (const auto& event : events) {
    recorded.insert(event.name);
    if (classify_cpu_event(event.name, event.scope) == CpuEventClass::generated) {
      recorded_generated.insert(strip_graph_prefix(event.name));
    }
  }
  for (const auto& name : code.generated) {
    (recorded_generated.contains(name) ? result.seen : result.unattributed).push_back(name);
  }
  for (const auto& name : code.extern_calls) {
    (recorded.contains(name) ? result.seen : result.unattributed).push_back(name);
  }
  std::sort(result.seen.begin(), result.seen.end());
  std::sort(result.unattributed.begin(), result.unattributed.end());
  const std::set<std::string> in_code = [&] {
    std::set<std::string> names(code.generated.begin(), code.generated.end());
    names.insert(code.extern_calls.begin(), code.extern_calls.end());
    return names;
  }();
  std::set<std::string> extra;
  for (const auto& op : select_cpu_kernels(events)) {
    const std::string name = graph_prefix_length(op.name) > 0 ? strip_graph_prefix(op.name) : op.name;
    if (!in_code.contains(name)) extra.insert(op.name);
  }
  result.not_in_code.assign(extra.begin(), extra.end());
  return result;
}

std::map<std::int64_t, DynamoRangeTimes> dynamo_range_times(const std::vector<CpuEvent>& events,
                                                            std::int64_t first_iteration, std::int64_t last_iteration) {
  constexpr std::string_view kLookup = "TorchDynamo Cache Lookup";
  constexpr std::string_view kRegion = "Torch-Compiled Region";
  const auto is_region = [&](const CpuEvent& e) { return std::string_view(e.name).starts_with(kRegion); };
  std::map<std::int64_t, DynamoRangeTimes> out;
  for (const auto& event : events) {
    if (event.iteration < first_iteration || event.iteration > last_iteration) continue;
    if (event.name == kLookup) {
      out[event.iteration].cache_lookup_ns += event.end_ns - event.start_ns;
    } else if (is_region(event)) {
      // Outermost only: a region nested in another (a compiled function called from compiled code)
      // is already inside it.
      bool nested = false;
      for (std::int64_t parent = event.parent; parent >= 0 && !nested;
           parent = events[static_cast<std::size_t>(parent)].parent) {
        nested = is_region(events[static_cast<std::size_t>(parent)]);
      }
      if (!nested) out[event.iteration].compiled_region_ns += event.end_ns - event.start_ns;
    }
  }
  return out;
}

}  // namespace ohprof
