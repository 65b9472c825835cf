#include "ohprof/output/json_report.hpp"

#include <nlohmann/json.hpp>

#include "ohprof/base/atomic_file.hpp"
#include "ohprof/output/report_text.hpp"
#include "json_read.hpp"
#include "report_fields.hpp"

namespace ohprof {

using nlohmann::json;
using json_fields::fields_to_json;
namespace fields = report_fields;

json summary_to_json(const SampleSummary& summary) {
  return json{{"count", summary.count},   {"mean", summary.mean},
              {"stddev", summary.stddev}, {"median", summary.median},
              {"min", summary.min},       {"max", summary.max},
              {"relative_noise", summary.relative_noise}, {"mad", summary.mad},
              {"outliers", summary.outliers}};
}

namespace {

// Device-time split (docs/metrics.md gives each field's definition and its JSON name).

json device_split_to_json(const DeviceSplit& split, std::int64_t wall_ns) {
  json j = fields_to_json(split, fields::kDeviceSplit);
  j["queue_mean"] = queue_mean(split, wall_ns);
  return j;
}

json device_split_summary_to_json(const DeviceSplitSummary& summary) {
  return json{{"busy_ns", summary_to_json(summary.busy_ns)},
              {"idle_ns", summary_to_json(summary.idle_ns)},
              {"host_bound_ns", summary_to_json(summary.host_bound_ns)},
              {"device_wait_ns", summary_to_json(summary.device_wait_ns)},
              {"queue_mean", summary_to_json(summary.queue_mean)},
              {"queue_max", summary_to_json(summary.queue_max)},
              {"own_busy_ns", summary_to_json(summary.own_busy_ns)},
              {"carried_out_ns", summary_to_json(summary.carried_out_ns)}};
}

// Sums over the iterations; idle_ns is not stored (it is wall - busy, exactly as the sum of the idles).
json device_split_totals_to_json(const DeviceSplitTotals& totals, std::int64_t wall_ns) {
  json j = fields_to_json(totals, fields::kDeviceSplitTotals);
  j["idle_ns"] = wall_ns - totals.busy_ns;
  return j;
}

json host_states_to_json(const HostStates& states) { return fields_to_json(states, fields::kHostStates); }

json stream_key_to_json(const StreamKey& key) { return json{{"device", key.device}, {"stream", key.stream}}; }

json iteration_to_json(const IterationBreakdown& it) {
  json streams = json::array();
  for (const auto& stream : it.streams) {
    json entry = stream_key_to_json(stream.key);
    entry.update(device_split_to_json(stream.split, it.wall_ns));
    entry["waited_ns"] = stream.waited_ns;
    streams.push_back(std::move(entry));
  }
  return json{{"index", it.index},
              {"round", it.round ? json(*it.round) : json(nullptr)},
              {"start_ns", it.start_ns},
              {"end_ns", it.end_ns},
              {"wall_ns", it.wall_ns},
              {"gpu", device_split_to_json(it.gpu, it.wall_ns)},
              {"device_queue_max", it.device_queue_max},
              {"host_states", host_states_to_json(it.host_states)},
              {"streams", streams},
              {"launch_api_ns", it.launch_api_ns},
              {"launch_exposed_ns", it.launch_exposed_ns},
              {"launch_hidden_ns", it.launch_hidden_ns},
              {"blocking_ns", it.blocking_ns},
              {"blocking_calls", it.blocking_calls},
              {"other_api_ns", it.other_api_ns},
              {"dispatch_ns", optional_integer(it.dispatch_ns)},
              {"launches", it.launches},
              {"graph_launches", it.graph_launches},
              {"gpu_ops", it.gpu.own_ops},  // docs/metrics.md: gpu_ops is gpu.own_ops
              {"queue_delays_ns", it.queue_delays_ns},
              {"queue_delays_clipped", it.queue_delays_clipped},
              {"host_bound_least_ns", optional_integer(it.host_bound_least_ns)}};
}

json totals_to_json(const BreakdownTotals& totals, bool cpu_kernels) {
  return json{{"iterations", totals.iterations},
              {"wall_ns", totals.wall_ns},
              {"gpu", device_split_totals_to_json(totals.gpu, totals.wall_ns)},
              {"host_states", host_states_to_json(totals.host_states)},
              {"launch_api_ns", totals.launch_api_ns},
              {"launch_exposed_ns", totals.launch_exposed_ns},
              {"launch_hidden_ns", totals.launch_hidden_ns},
              {"blocking_ns", totals.blocking_ns},
              {"blocking_calls", totals.blocking_calls},
              {"other_api_ns", totals.other_api_ns},
              {"dispatch_ns", cpu_kernels ? json(totals.dispatch_ns) : json(nullptr)},
              {"device_queue_max", totals.device_queue_max},
              {"full_queue_iterations", totals.full_queue_iterations}};
}

json summary_of_split_to_json(const BreakdownSummary& summary) {
  json streams = json::array();
  for (const auto& stream : summary.streams) {
    json entry = stream_key_to_json(stream.key);
    entry["split"] = device_split_summary_to_json(stream.split);
    entry["totals"] = device_split_totals_to_json(stream.totals, summary.totals.wall_ns);
    entry["waited_ns"] = stream.waited_ns;
    streams.push_back(std::move(entry));
  }
  return json{{"cpu_kernels", summary.cpu_kernels},
              {"wall_ns", summary_to_json(summary.wall_ns)},
              {"gpu", device_split_summary_to_json(summary.gpu)},
              {"streams", streams},
              {"host_blocking_ns", summary_to_json(summary.host_blocking_ns)},
              {"host_launch_ns", summary_to_json(summary.host_launch_ns)},
              {"host_other_api_ns", summary_to_json(summary.host_other_api_ns)},
              {"host_harness_ns", summary_to_json(summary.host_harness_ns)},
              {"host_framework_ns", summary_to_json(summary.host_framework_ns)},
              {"launch_api_ns", summary_to_json(summary.launch_api_ns)},
              {"launch_exposed_ns", summary_to_json(summary.launch_exposed_ns)},
              {"launch_hidden_ns", summary_to_json(summary.launch_hidden_ns)},
              {"blocking_ns", summary_to_json(summary.blocking_ns)},
              {"other_api_ns", summary_to_json(summary.other_api_ns)},
              {"dispatch_ns", summary_to_json(summary.dispatch_ns)},
              {"launches", summary_to_json(summary.launches)},
              {"graph_launches", summary_to_json(summary.graph_launches)},
              {"gpu_ops", summary_to_json(summary.gpu_ops)},
              {"queue_delay_ns", summary_to_json(summary.queue_delay_ns)},
              {"queue_delays_clipped", summary.queue_delays_clipped},
              {"totals", totals_to_json(summary.totals, summary.cpu_kernels)}};
}

// {"category": events, ...}; "" is the events without a category
json event_counts_to_json(const std::vector<EventCount>& counts) {
  json out = json::object();
  for (const EventCount& c : counts) out[c.category] = c.events;
  return out;
}

// `suggestion`: the path's verdict sentence (path_verdict_text).
json verdict_to_json(const PathVerdict& v, const std::string& suggestion) {
  json j = fields_to_json(v, fields::kVerdict);
  j["waited_stream"] = v.waited_stream ? stream_key_to_json(*v.waited_stream) : json(nullptr);
  j["unread_device_events"] = event_counts_to_json(v.unread_device_events);
  j["suggestion"] = suggestion;
  return j;
}

json kernel_diff_row_to_json(const KernelDiffRow& row) { return fields_to_json(row, fields::kKernelDiffRow); }

json kernel_diff_to_json(const KernelSetDiff& diff) {
  json out{{"path_a", diff.path_a}, {"path_b", diff.path_b}, {"same_set", diff.same_set()}, {"partial", diff.partial}};
  for (const auto& [key, rows] : {std::pair{"both", &diff.both}, std::pair{"only_a", &diff.only_a},
                                  std::pair{"only_b", &diff.only_b}}) {
    json list = json::array();
    for (const auto& row : *rows) list.push_back(kernel_diff_row_to_json(row));
    out[key] = std::move(list);
  }
  return out;
}

}  // namespace

json collective_to_json(const CollectiveOp& op) {
  return json{{"step", op.step},           {"device", op.stream.device}, {"stream", op.stream.stream},
              {"ordinal", op.ordinal},     {"name", op.name},            {"start_ns", op.start_ns},
              {"duration_ns", op.duration_ns}};
}

json distributed_to_json(const std::optional<DistributedInfo>& info) {
  if (!info) return nullptr;
  return json{{"rank", optional_integer(info->rank)},
              {"world_size", optional_integer(info->world_size)},
              {"backend", info->backend}};
}

namespace {

json breakdown_to_json(const PathBreakdown& breakdown, const std::string& suggestion) {
  json iterations = json::array();
  for (const auto& it : breakdown.iterations) iterations.push_back(iteration_to_json(it));
  json kernels = json::array();
  for (const auto& kernel : breakdown.kernels) {
    kernels.push_back(fields_to_json(kernel, fields::kKernelStat));
  }
  json collectives = json::array();
  for (const CollectiveOp& op : breakdown.collectives) collectives.push_back(collective_to_json(op));
  return json{
      {"available", true},
      {"summary", summary_of_split_to_json(breakdown.summary)},
      {"verdict", verdict_to_json(breakdown.verdict, suggestion)},
      {"counters",
       {{"collection", fields_to_json(breakdown.collection_counters, fields::kCollectionCounters)},
        {"analysis", fields_to_json(breakdown.analysis_counters, fields::kAnalysisCounters)}}},
      {"kernels", kernels},
      {"collectives", collectives},
      {"iterations", iterations}};
}



json output_check_to_json(const std::optional<PathOutputCheck>& check) {
  return check ? fields_to_json(*check, fields::kOutputCheck) : json(nullptr);
}


json compare_config_to_json(const std::optional<CompareConfig>& config) {
  if (!config) return nullptr;
  const AdaptiveStopping& s = config->stopping;
  return json{{"paths", config->paths},    {"min_runs", s.min_runs},
              {"max_runs", s.max_runs},    {"min_time_s", s.min_time_s},
              {"max_rse", s.max_rse},      {"time_limit_s", s.time_limit_s},
              {"block", s.block},
              {"check_outputs", to_string(config->check_outputs)},
              {"compile_source", to_string(config->compile_source)},
              {"explain", config->explain},
              {"threads", config->threads},
              {"cold_start", config->cold_start},
              // the rank rule's fewest orders (docs/metrics.md, "Cold start"): 20 before 2026-12-06, when either order
              // named at 3 and 3 had a 10% chance
              {"cold_start_min_orders", config->cold_start_min_orders},
              {"what_if", config->what_if},
              {"explain_pairs", [&] {
                 json pairs = json::array();
                 for (const auto& [slower, faster] : config->explain_pairs) pairs.push_back(json::array({slower, faster}));
                 return pairs;
               }()}};
}

json estimate_to_json(const Estimate& estimate) {
  json j = fields_to_json(estimate, fields::kEstimate);
  j["significant"] = significant(estimate);
  return j;
}

json optional_estimate(const std::optional<Estimate>& estimate) {
  return estimate ? estimate_to_json(*estimate) : json(nullptr);
}

json explanation_to_json(const GapExplanation& e) {
  json layers = json::array();
  for (const auto& layer : e.layers) {
    layers.push_back(json{{"layer", to_string(layer.layer)},
                          {"path", layer.path},
                          {"upper", layer.upper},
                          {"lower", layer.lower},
                          {"sign", layer.sign},
                          {"estimate", estimate_to_json(layer.estimate)},
                          {"kernels_differ", layer.kernels_differ ? json(*layer.kernels_differ) : json(nullptr)}});
  }
  json remedies = json::array();
  for (const auto& remedy : e.remedies) {
    remedies.push_back(json{{"path", remedy.path}, {"saved", estimate_to_json(remedy.saved)},
                            {"share_of_gap", remedy.share_of_gap}});
  }
  json ranges = json::array();
  for (const auto& check : e.dynamo_ranges) {
    ranges.push_back(json{{"path", check.path},
                          {"cache_lookup", estimate_to_json(check.cache_lookup)},
                          {"guards", optional_estimate(check.guards)},
                          {"outside_region", estimate_to_json(check.outside_region)},
                          {"guards_and_dynamo", optional_estimate(check.guards_and_dynamo)},
                          {"guards_exceed_lookup", check.guards_exceed_lookup},
                          {"layers_exceed_outside", check.layers_exceed_outside}});
  }
  const auto kind = [](const std::optional<FloorKind>& k) { return k ? json(to_string(*k)) : json(nullptr); };
  return json{{"slower", e.slower},
              {"faster", e.faster},
              {"answer", explanation_text(e)},
              {"measured", e.measured},
              {"gap", estimate_to_json(e.gap)},
              {"within_noise", e.within_noise},
              {"kernels", optional_estimate(e.kernels)},
              {"kernels_same", e.kernels_same ? json(*e.kernels_same) : json(nullptr)},
              {"faster_kernel_share", e.faster_kernel_share ? json(*e.faster_kernel_share) : json(nullptr)},
              {"faster_dominant", e.faster_dominant ? json(to_string(*e.faster_dominant)) : json(nullptr)},
              {"layers", layers},
              {"floor_slower", e.floor_slower},
              {"floor_faster", e.floor_faster},
              {"floor_kind_slower", kind(e.floor_kind_slower)},
              {"floor_kind_faster", kind(e.floor_kind_faster)},
              {"floor_gap", estimate_to_json(e.floor_gap)},
              {"wrapper", optional_estimate(e.wrapper)},
              {"residual", optional_estimate(e.residual)},
              {"residual_share", e.residual_share ? json(*e.residual_share) : json(nullptr)},
              {"remedies", remedies},
              {"dynamo_ranges", ranges},
              {"missing", e.missing}};
}

json artifacts_to_json(const std::optional<ArtifactSummary>& artifacts) {
  if (!artifacts) return nullptr;
  return json{{"model", artifacts->model},
              {"exported_program", artifacts->exported_program},
              {"aoti_package", artifacts->aoti_package},
              {"cached", artifacts->cached},
              {"export_ns", optional_integer(artifacts->export_ns)},
              {"aoti_compile_ns", optional_integer(artifacts->aoti_compile_ns)},
              {"export_error", optional_text(artifacts->export_error)},
              {"not_measured", artifacts->not_measured},
              {"aoti_error", optional_text(artifacts->aoti_error)}};
}

json collector_cost_to_json(const std::optional<CollectorCost>& cost) {
  return cost ? fields_to_json(*cost, fields::kCollectorCost) : json(nullptr);
}

json attribution_to_json(const std::optional<KernelAttributionSummary>& attribution) {
  if (!attribution) return nullptr;
  return json{{"records_kernels", attribution->records_kernels},
              {"seen", attribution->seen},
              {"unattributed", attribution->unattributed},
              {"not_in_code", attribution->not_in_code}};
}

json concurrency_to_json(const std::optional<PathConcurrency>& c) {
  if (!c) return nullptr;
  json points = json::array();
  for (const ThreadsPoint& p : c->points) points.push_back(fields_to_json(p, fields::kThreadsPoint));
  return {{"points", std::move(points)},
          {"holds_gil", c->holds_gil},
          {"host_share", c->host_share ? json(*c->host_share) : json(nullptr)},
          {"host_share_se", c->host_share_se ? json(*c->host_share_se) : json(nullptr)},
          {"scaling_within_noise", c->scaling_within_noise},
          {"host_share_within_noise", c->host_share_within_noise},
          {"host_share_missing", c->host_share_missing},
          {"cores_had_room", c->cores_had_room},
          {"runner_instances", c->runner_instances},
          {"cores", c->context.cores},
          {"intra_op_threads", c->context.intra_op_threads},
          {"cuda", c->context.cuda},
          {"limit", to_string(c->limit)},
          {"caller_slowdown", c->caller_slowdown ? json(*c->caller_slowdown) : json(nullptr)},
          {"unavailable", optional_text(c->unavailable)}};
}

json cold_start_to_json(const std::optional<PathColdStart>& c) {
  if (!c) return nullptr;
  json states = json::array();
  for (const ColdStartState& state : c->states) {
    json samples = json::array();
    for (const ColdStartSample& s : state.samples) {
      json sample = fields_to_json(s, fields::kColdStartSample);
      sample["output_detail"] = optional_text(s.output_detail);
      samples.push_back(std::move(sample));
    }
    const json median = state.median ? fields_to_json(*state.median, fields::kColdStartPhases) : json(nullptr);
    states.push_back({{"cache", to_string(state.cache)},
                      {"samples", std::move(samples)},
                      {"median", std::move(median)},
                      {"min_total_ns", state.median ? json(state.min_total_ns) : json(nullptr)},
                      {"max_total_ns", state.median ? json(state.max_total_ns) : json(nullptr)},
                      {"against_cold", state.against_cold ? json(to_string(*state.against_cold)) : json(nullptr)},
                      {"speedup_vs_cold", state.speedup_vs_cold > 0 ? json(state.speedup_vs_cold) : json(nullptr)},
                      {"failed", optional_text(state.failed)},
                      {"unavailable", optional_text(state.unavailable)}});
  }
  return {{"processes", c->processes}, {"states", std::move(states)}};
}

json device_memory_to_json(const std::optional<PathDeviceMemory>& device) {
  return device ? fields_to_json(*device, fields::kDeviceMemory) : json(nullptr);
}

json memory_to_json(const std::optional<PathMemory>& memory) {
  if (!memory) return nullptr;
  return {{"build_retained_bytes", memory->build_retained_bytes},
          {"build_peak_bytes", optional_integer(memory->build_peak_bytes)},
          {"run_peak_bytes", optional_integer(memory->run_peak_bytes)},
          {"run_calls", memory->run_calls},
          {"device", device_memory_to_json(memory->device)}};
}

json execution_to_json(const std::optional<ExecutionCheck>& check) {
  if (!check) return nullptr;
  const ExecutionFacts& f = check->facts;
  json breaks = json::array();
  for (const GraphBreak& b : f.graph_breaks) breaks.push_back(json{{"reason", b.reason}, {"count", b.count}});
  json compiles = json::array();
  for (const MeasuredCompile& c : check->measured_compiles) {
    compiles.push_back(json{{"pass", to_string(c.pass)},
                            {"iteration", c.iteration},
                            {"kind", to_string(c.event.kind)},
                            {"compile_id", c.event.compile_id},
                            {"duration_ns", c.event.end_ns - c.event.start_ns},
                            {"reason", c.event.reason}});
  }
  return json{{"dynamo", f.dynamo},
              {"graphs", f.graphs ? json(*f.graphs) : json(nullptr)},
              {"graph_breaks", breaks},
              {"measured_compiles", compiles},
              {"excluded_iterations", check->excluded_iterations},
              {"excluded_samples_ns", check->excluded_samples_ns},
              {"pooled", check->pooled},
              {"cuda_graphs", to_string(check->cuda_graphs)},
              {"compiled_call", check->compiled_call ? json(to_string(*check->compiled_call)) : json(nullptr)},
              {"compiled_call_unknown",
               check->compiled_call_unknown ? json(to_string(*check->compiled_call_unknown)) : json(nullptr)},
              {"compiled_call_error", check->compiled_call_error},
              {"cuda_graph_skip_reason", f.cuda_graph_skip_reason},
              {"device", f.device},
              {"unobserved", f.unobserved},
              {"fx_cache_hits", optional_integer(f.fx_cache_hits)},
              {"fx_cache_misses", optional_integer(f.fx_cache_misses)},
              {"text", execution_text(*check)}};
}

// `kind`: the path kind the verdict's advice reads (advice_path_kind).
// A ratio's fields (docs/report-schema.md, "ratios"), without its sentence.
json ratio_fields(const PathRatio& ratio) {
  return json{{"faster", ratio.faster}, {"slower", ratio.slower}, {"ratio", ratio.ratio}, {"stddev", ratio.stddev},
              {"low", ratio.low},       {"high", ratio.high},     {"significant", ratio.significant}};
}

json path_to_json(const Report& report, const PathResult& path) {
  json out{{"name", path.name},
           {"role", to_string(path.role)},
           {"source", path.source ? json(to_string(*path.source)) : json(nullptr)},
           {"artifact", path.artifact},
           {"load_ns", path.load_ns},
           {"warmup_ns", path.warmup_ns},
           {"samples_ns", path.wall_ns},
           {"sample_rounds", path.wall_rounds},
           {"wall_ns", summary_to_json(path.wall)},
           {"stop_reason", stop_reason_text(path.stop_reason)},
           {"output_check", output_check_to_json(path.output_check)},
           {"execution", execution_to_json(path.execution)},
           {"memory", memory_to_json(path.memory)},
           {"concurrency", concurrency_to_json(path.concurrency)},
           {"cold_start", cold_start_to_json(path.cold_start)},
           {"slower_paths", [&] {
              json out = json::array();
              for (const PathRatio& ratio : path.slower_paths) out.push_back(ratio_fields(ratio));
              return out;
            }()},
           {"collector_cost", collector_cost_to_json(path.collector_cost)},
           {"run_queue", path.run_queue ? fields_to_json(*path.run_queue, fields::kRunQueue) : json(nullptr)},
           {"split_collector", to_string(path.split_collector)},
           {"kernel_attribution", attribution_to_json(path.kernel_attribution)},
           {"dynamo_ranges", path.dynamo_ranges ? json{{"iterations", path.dynamo_ranges->iterations},
                                                       {"cache_lookup_ns", summary_to_json(path.dynamo_ranges->cache_lookup_ns)},
                                                       {"outside_region_ns", summary_to_json(path.dynamo_ranges->outside_region_ns)}}
                                                 : json(nullptr)}};
  if (path.breakdown) {
    out["split"] = breakdown_to_json(*path.breakdown, path_verdict_text(report, path));
  } else {
    out["split"] = path.split_unavailable_reason.empty()
                       ? json(nullptr)
                       : json{{"available", false}, {"reason", path.split_unavailable_reason}};
  }
  return out;
}

}  // namespace

json optional_number(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }
json optional_integer(const std::optional<std::int64_t>& value) { return value ? json(*value) : json(nullptr); }
json optional_text(const std::string& text) { return text.empty() ? json(nullptr) : json(text); }

SampleSummary summary_from_json(const json& j) {
  SampleSummary s;
  s.count = j.at("count").get<std::size_t>();
  s.mean = number_at(j, "mean");  // null (NaN as nlohmann writes it): NaN
  s.stddev = number_at(j, "stddev");
  s.median = number_at(j, "median");
  s.min = number_at(j, "min");
  s.max = number_at(j, "max");
  s.relative_noise = number_at(j, "relative_noise");
  s.mad = number_at(j, "mad");
  s.outliers = j.at("outliers").get<std::size_t>();
  return s;
}

json context_to_json(const RunContext& context) {
  return json{{"ohprof_version", context.ohprof_version},
              {"git_sha", context.git_sha},
              {"torch_version", context.torch_version},
              {"cuda_version", context.cuda_version},
              {"cupti_version", context.cupti_version},
              {"cupti_library", context.cupti_library},
              {"inflate_library", context.inflate_library},
              {"device",
               {{"type", to_string(context.device.type)},
                {"index", context.device.index},
                {"name", context.device.name}}},
              {"argv", context.argv},
              {"date", context.date_utc},
              {"hostname", context.hostname},
              {"cpu_threads", context.cpu_threads}};
}

RunContext context_from_json(const json& j) {
  // A key a report written before it existed lacks (cupti_library, inflate_library, ...) reads as empty.
  const auto text = [&](const char* key) { return j.contains(key) ? j.at(key).get<std::string>() : std::string(); };
  RunContext c;
  c.ohprof_version = text("ohprof_version");
  c.git_sha = text("git_sha");
  c.torch_version = text("torch_version");
  c.cuda_version = text("cuda_version");
  c.cupti_version = text("cupti_version");
  c.cupti_library = text("cupti_library");
  c.inflate_library = text("inflate_library");
  const json& device = j.at("device");
  c.device.type = enum_from_json<DeviceKind>(device.at("type"), "device type");
  c.device.index = static_cast<int>(optional_integer_at(device, "index").value_or(-1));
  c.device.name = device.contains("name") ? device.at("name").get<std::string>() : std::string();
  if (j.contains("argv")) c.argv = j.at("argv").get<std::vector<std::string>>();
  c.date_utc = text("date");
  c.hostname = text("hostname");
  c.cpu_threads = static_cast<int>(optional_integer_at(j, "cpu_threads").value_or(0));
  return c;
}

json warnings_to_json(const std::vector<Warning>& warnings) {
  json out = json::array();
  for (const auto& warning : warnings) out.push_back(json{{"code", to_string(warning.code)}, {"message", warning.message}});
  return out;
}

static json site_to_json(const std::optional<SourceSite>& site) {
  return site ? json{{"file", site->file}, {"line", site->line}} : json(nullptr);
}

json kernel_listing_to_json(const PathResult& path, const KernelListing& listing) {
  json kernels = json::array();
  for (const KernelListingRow& k : listing.kernels) {
    json calls = json::array();
    for (const SourceSite& c : k.calls) calls.push_back(site_to_json(c));
    kernels.push_back(json{{"kind", to_string(k.kind)},
                           {"name", k.name},
                           {"canonical", k.canonical},
                           {"origin", to_string(k.origin)},
                           {"defined_at", site_to_json(k.defined_at)},
                           {"recorded_at", site_to_json(k.recorded_at)},
                           {"calls", calls},
                           {"count_per_iteration", k.count_per_iteration},
                           {"mean_ns", k.mean_ns},
                           {"median_ns", k.median_ns},
                           {"ns_per_iteration", k.ns_per_iteration}});
  }
  return json{{"path", path.name},
              {"artifact", path.artifact},
              {"collector", to_string(path.split_collector)},
              {"iterations", path.breakdown ? json(path.breakdown->summary.totals.iterations) : json(nullptr)},
              {"kernels", kernels},
              {"in_code_not_recorded", listing.in_code_not_recorded},
              {"call_sequence", listing.call_sequence}};
}

std::string unknown_texts_text(const std::vector<UnknownText>& unknown) {
  std::string out;
  for (const UnknownText& u : unknown) out += fmt::format("{}{} '{}'", out.empty() ? "" : ", ", u.key, u.text);
  return out;
}

std::vector<Warning> warnings_from_json(const json& list) {
  std::vector<Warning> out;
  for (const auto& w : list) {
    const std::string text = w.at("code").get<std::string>();
    const auto code = parse_warning_code(text);
    if (code) {
      out.push_back(Warning{*code, w.at("message").get<std::string>()});
    } else if (!UnknownTextScope::tolerate("warnings", text)) {  // a later ohprof's warning: left out
      throw std::runtime_error("unknown warning code '" + text + "'");
    }
  }
  return out;
}

static json trace_source_to_json(const std::optional<TraceSource>& trace) {
  if (!trace) return nullptr;
  return json{{"path", trace->path},
              {"format", trace->format},
              {"compressed", trace->compressed},
              {"file_bytes", trace->file_bytes},
              {"json_bytes", trace->json_bytes},
              {"events", trace->events},
              {"events_kept", trace->events_kept},
              {"events_ignored", trace->events_ignored},
              {"events_ignored_by_category", event_counts_to_json(trace->events_ignored_by_category)},
              {"events_skipped", trace->events_skipped},
              {"iterations_from", to_string(trace->iterations_from)},
              {"read_ns", trace->read_ns},
              {"distributed", distributed_to_json(trace->distributed)}};
}

json what_if_to_json(const std::optional<WhatIfLedger>& ledger) {
  if (!ledger) return nullptr;
  json rebuilds = json::array();
  for (const WhatIfAgain& a : ledger->again) {
    rebuilds.push_back(json{{"path", a.path},
                            {"unavailable", optional_text(a.unavailable)},
                            {"moved", optional_estimate(a.moved)},
                            {"moved_low_ns", a.moved ? json(interval_low(*a.moved)) : json(nullptr)},
                            {"moved_high_ns", a.moved ? json(interval_high(*a.moved)) : json(nullptr)}});
  }
  const PlacementBand& band = ledger->placement;
  json entries = json::array();
  for (const WhatIfEntry& e : ledger->entries) {
    entries.push_back(json{{"setting", to_string(e.setting)},
                           {"label", setting_label(e.setting)},
                           {"path", e.path},
                           {"applicable", e.not_applicable.empty()},
                           {"not_applicable", optional_text(e.not_applicable)},
                           {"unavailable", optional_text(e.unavailable)},
                           {"saved", optional_estimate(e.saved)},
                           {"negligible", e.negligible},
                           {"beyond_guards", e.beyond_guards},
                           {"saved_low_ns", e.saved ? json(interval_low(*e.saved)) : json(nullptr)},
                           {"saved_high_ns", e.saved ? json(interval_high(*e.saved)) : json(nullptr)},
                           {"outputs_match", e.outputs_match ? json(*e.outputs_match) : json(nullptr)},
                           {"max_abs_diff", optional_number(e.max_abs_diff)},
                           {"ready_ns", optional_integer(e.ready_ns)},
                           {"fx_cache_hits", optional_integer(e.fx_cache_hits)},
                           {"fx_cache_misses", optional_integer(e.fx_cache_misses)},
                           {"extra_run_peak_bytes", optional_integer(e.extra_run_peak_bytes)},
                           {"graph_pool_bytes", optional_integer(e.graph_pool_bytes)}});
  }
  json j{{"base", ledger->base},
         {"base_measured", ledger->base_measured},
         {"base_ready_ns", ledger->base_ready_ns},
         {"base_fx_cache_hits", optional_integer(ledger->base_fx_cache_hits)},
         {"base_fx_cache_misses", optional_integer(ledger->base_fx_cache_misses)},
         {"base_cache_lookup_ns", optional_number(ledger->base_cache_lookup_ns)},
         {"entries", entries}};
  // An older report read back is written as it was read (docs/report-schema.md): its rule is not this one's.
  switch (band.rule) {
    case PlacementRule::absent: break;
    case PlacementRule::floor:
      j["again"] = rebuilds.empty() ? json(nullptr) : rebuilds.front();
      j["placement_floor_ns"] = band.high_ns;
      j["floor_from_again"] = band.from_again;
      break;
    case PlacementRule::prediction:
      // The first rebuild alone, as schema 4 first wrote it (docs/report-schema.md), then all of them.
      j["again"] = rebuilds.empty() ? json(nullptr) : rebuilds.front();
      j["rebuilds"] = rebuilds;
      j["placement"] = fields_to_json(band, fields::kPlacementBand);
      break;
  }
  return j;
}

json deployment_to_json(const std::optional<DeploymentSummary>& d) {
  if (!d) return nullptr;
  json rows = json::array();
  for (const DeploymentRow& r : d->rows) rows.push_back(fields_to_json(r, fields::kDeploymentRow));
  json criteria = json::array();
  for (const CriterionLeaders& c : d->criteria) {
    criteria.push_back(json{{"criterion", to_string(c.criterion)},
                            {"leaders", c.leaders},
                            {"next", optional_text(c.next)},
                            {"without", c.without},
                            {"too_few", c.too_few},
                            {"negligible", c.negligible}});
  }
  return json{{"rows", rows}, {"criteria", criteria}, {"choice", d->choice}, {"left_out", d->left_out},
              {"not_measured", d->not_measured},
              {"not_measured_cause", d->not_measured.empty() ? json(nullptr) : json(to_string(d->not_measured_cause))},
              {"candidates", d->candidates},
              {"text", deployment_text(*d)}};
}

json report_to_json(const Report& report) {
  json paths = json::array();
  for (const auto& path : report.paths) paths.push_back(path_to_json(report, path));
  json kernel_diffs = json::array();
  for (const auto& diff : report.kernel_diffs) kernel_diffs.push_back(kernel_diff_to_json(diff));
  json ratios = json::array();
  for (const auto& ratio : report.ratios) {
    json one = ratio_fields(ratio);
    one["text"] = ratio_text(ratio, report.paths);
    ratios.push_back(std::move(one));
  }
  json explanations = json::array();
  for (const auto& explanation : report.explanations) explanations.push_back(explanation_to_json(explanation));
  return json{{"schema_version", kReportSchemaVersion},
              {"kind", to_string(report.kind)},
              {"trace", trace_source_to_json(report.trace)},
              {"context", context_to_json(report.context)},
              {"config",
               {{"warmup", report.config.warmup},
                {"runs", report.config.runs},
                {"seed", report.config.seed},
                {"inputs", report.config.inputs},
                {"inputs_file", optional_text(report.config.inputs_file)},
                {"inputs_file_digest", optional_text(report.config.inputs_file_digest)},
                {"compare", compare_config_to_json(report.config.compare)}}},
              {"artifacts", artifacts_to_json(report.artifacts)},
              {"paths", paths},
              {"ratios", ratios},
              {"explanations", explanations},
              {"what_if", what_if_to_json(report.what_if)},
              {"deployment", deployment_to_json(report.deployment)},
              {"stop_reason", stop_reason_text(report.stop_reason)},
              {"code_dump", report.code_dump ? json{{"dir", report.code_dump->dir},
                                                    {"files", report.code_dump->files},
                                                    {"notes", report.code_dump->notes}}
                                             : json(nullptr)},
              {"kernel_diffs", kernel_diffs},
              {"interrupted", report.interrupted},
              {"warnings", warnings_to_json(report.warnings)}};
}

std::string dump_report(const json& report) { return report.dump(2, ' ', false, json::error_handler_t::replace) + "\n"; }

Status write_json_report(const Report& report, const std::string& path) {
  return write_file_atomically(path, dump_report(report_to_json(report)));
}

}  // namespace ohprof
