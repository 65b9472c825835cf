// report_to_json's inverse (docs/report-schema.md, "How reports are read back"): a run, compare or
// analyze report's JSON back into a Report, for diff and any reader of reports.
//
// One rule for what a report may lack: a key that a report written before the key existed lacks (an
// older ohprof's report) reads as the field's default, and so does null where the field is not optional
// (a number nlohmann wrote as null reads as NaN). Only the keys every report has had are required: kind,
// context, config with its inputs, paths with their name and samples_ns. A key of the wrong type, or a
// text that is none of its enum's, throws. Keys the writer derives from others (idle_ns of the totals,
// queue_mean, gpu_ops, the prose: suggestion, answer, text) are not read; writing the report again makes
// them anew.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "ohprof/output/json_report.hpp"
#include "ohprof/output/report_text.hpp"
#include "json_read.hpp"
#include "report_fields.hpp"

namespace ohprof {
namespace {

using json = nlohmann::json;

using json_fields::fields_from_json;
namespace fields = report_fields;

// `j[key]` into `out` (json_fields.hpp: absent or null keeps the default; an enum by its text).
template <typename T>
void read(const json& j, const char* key, T& out) {
  json_fields::read_value(j, key, out);
}
// A field that says what was measured (the header's list): its text must be one this ohprof knows.
template <typename T>
void read_known(const json& j, const char* key, T& out) {
  const UnknownTextScope strict = UnknownTextScope::strict();
  read(j, key, out);
}
// `j[key]`, which must be of `type` ("array", "object"), when present and not null: the iterator to it.
json::const_iterator present(const json& j, const char* key, json::value_t type) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return j.end();
  if (it->type() != type) {
    throw std::runtime_error(fmt::format("'{}': type must be {}, but is {}", key,
                                         type == json::value_t::array ? "array" : "object", it->type_name()));
  }
  return it;
}
// Each element of the array `j[key]` through `one`; an absent or null key leaves `out` empty.
template <typename T, typename One>
void read_list(const json& j, const char* key, std::vector<T>& out, One one) {
  const auto it = present(j, key, json::value_t::array);
  if (it == j.end()) return;
  for (const json& element : *it) {
    const UnknownTextPlace place(fmt::format("{}[{}]", key, out.size()));
    out.push_back(one(element));
  }
}
// The object `j[key]` through `one`, when present and not null.
template <typename T, typename One>
void read_object(const json& j, const char* key, std::optional<T>& out, One one) {
  const auto it = present(j, key, json::value_t::object);
  if (it == j.end()) {
    out = std::nullopt;
    return;
  }
  const UnknownTextPlace place(key);
  out = one(*it);
}
template <typename T, typename One>
void read_object(const json& j, const char* key, T& out, One one) {
  const auto it = present(j, key, json::value_t::object);
  if (it == j.end()) return;
  const UnknownTextPlace place(key);
  out = one(*it);
}
// stop_reason_text's text under `key` back into its StopReason; an unknown text keeps the default where an
// UnknownTextScope tolerates it.
void read_stop_reason(const json& j, const char* key, StopReason& out) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  if (!it->is_string()) throw std::runtime_error(fmt::format("'{}': type must be string, but is {}", key, it->type_name()));
  const std::string text = it->get<std::string>();
  if (const std::optional<StopReason> reason = stop_reason_from_text(text)) {
    out = *reason;
  } else if (!UnknownTextScope::tolerate(key, text)) {
    throw std::runtime_error(fmt::format("{} '{}' is none that this ohprof writes", key, text));
  }
}

StreamKey stream_key_from_json(const json& j) {
  StreamKey k;
  read(j, "device", k.device);
  read(j, "stream", k.stream);
  return k;
}

DeviceSplit device_split_from_json(const json& j) { return fields_from_json<DeviceSplit>(j, fields::kDeviceSplit); }

DeviceSplitSummary device_split_summary_from_json(const json& j) {
  DeviceSplitSummary s;
  read_object(j, "busy_ns", s.busy_ns, summary_from_json);
  read_object(j, "idle_ns", s.idle_ns, summary_from_json);
  read_object(j, "host_bound_ns", s.host_bound_ns, summary_from_json);
  read_object(j, "device_wait_ns", s.device_wait_ns, summary_from_json);
  read_object(j, "queue_mean", s.queue_mean, summary_from_json);
  read_object(j, "queue_max", s.queue_max, summary_from_json);
  read_object(j, "own_busy_ns", s.own_busy_ns, summary_from_json);
  read_object(j, "carried_out_ns", s.carried_out_ns, summary_from_json);
  return s;
}

DeviceSplitTotals device_split_totals_from_json(const json& j) {
  return fields_from_json<DeviceSplitTotals>(j, fields::kDeviceSplitTotals);
}

HostStates host_states_from_json(const json& j) { return fields_from_json<HostStates>(j, fields::kHostStates); }

IterationBreakdown iteration_from_json(const json& j) {
  IterationBreakdown it;
  read(j, "index", it.index);
  read(j, "round", it.round);  // absent before 2026-12-06: not paired by round
  read(j, "start_ns", it.start_ns);
  read(j, "end_ns", it.end_ns);
  read(j, "wall_ns", it.wall_ns);
  read_object(j, "gpu", it.gpu, device_split_from_json);
  read(j, "device_queue_max", it.device_queue_max);
  read_object(j, "host_states", it.host_states, host_states_from_json);
  read_list(j, "streams", it.streams, [](const json& s) {
    StreamSplit stream{stream_key_from_json(s), device_split_from_json(s), 0};
    read(s, "waited_ns", stream.waited_ns);
    return stream;
  });
  read(j, "launch_api_ns", it.launch_api_ns);
  read(j, "launch_exposed_ns", it.launch_exposed_ns);
  read(j, "launch_hidden_ns", it.launch_hidden_ns);
  read(j, "blocking_ns", it.blocking_ns);
  read(j, "blocking_calls", it.blocking_calls);
  read(j, "other_api_ns", it.other_api_ns);
  read(j, "dispatch_ns", it.dispatch_ns);
  read(j, "launches", it.launches);
  read(j, "graph_launches", it.graph_launches);
  read(j, "queue_delays_ns", it.queue_delays_ns);
  read(j, "queue_delays_clipped", it.queue_delays_clipped);
  read(j, "host_bound_least_ns", it.host_bound_least_ns);  // absent before 2026-12-07
  return it;
}

BreakdownTotals totals_from_json(const json& j) {
  BreakdownTotals t;
  read(j, "iterations", t.iterations);
  read(j, "wall_ns", t.wall_ns);
  read_object(j, "gpu", t.gpu, device_split_totals_from_json);
  read_object(j, "host_states", t.host_states, host_states_from_json);
  read(j, "launch_api_ns", t.launch_api_ns);
  read(j, "launch_exposed_ns", t.launch_exposed_ns);
  read(j, "launch_hidden_ns", t.launch_hidden_ns);
  read(j, "blocking_ns", t.blocking_ns);
  read(j, "blocking_calls", t.blocking_calls);
  read(j, "other_api_ns", t.other_api_ns);
  read(j, "dispatch_ns", t.dispatch_ns);  // null unless the split is of CPU kernels: 0
  read(j, "device_queue_max", t.device_queue_max);
  read(j, "full_queue_iterations", t.full_queue_iterations);
  return t;
}

BreakdownSummary breakdown_summary_from_json(const json& j) {
  BreakdownSummary s;
  read(j, "cpu_kernels", s.cpu_kernels);
  read_object(j, "wall_ns", s.wall_ns, summary_from_json);
  read_object(j, "gpu", s.gpu, device_split_summary_from_json);
  read_list(j, "streams", s.streams, [](const json& e) {
    StreamSummary stream;
    stream.key = stream_key_from_json(e);
    read_object(e, "split", stream.split, device_split_summary_from_json);
    read_object(e, "totals", stream.totals, device_split_totals_from_json);
    read(e, "waited_ns", stream.waited_ns);
    return stream;
  });
  read_object(j, "host_blocking_ns", s.host_blocking_ns, summary_from_json);
  read_object(j, "host_launch_ns", s.host_launch_ns, summary_from_json);
  read_object(j, "host_other_api_ns", s.host_other_api_ns, summary_from_json);
  read_object(j, "host_harness_ns", s.host_harness_ns, summary_from_json);
  read_object(j, "host_framework_ns", s.host_framework_ns, summary_from_json);
  read_object(j, "launch_api_ns", s.launch_api_ns, summary_from_json);
  read_object(j, "launch_exposed_ns", s.launch_exposed_ns, summary_from_json);
  read_object(j, "launch_hidden_ns", s.launch_hidden_ns, summary_from_json);
  read_object(j, "blocking_ns", s.blocking_ns, summary_from_json);
  read_object(j, "other_api_ns", s.other_api_ns, summary_from_json);
  read_object(j, "dispatch_ns", s.dispatch_ns, summary_from_json);
  read_object(j, "launches", s.launches, summary_from_json);
  read_object(j, "graph_launches", s.graph_launches, summary_from_json);
  read_object(j, "gpu_ops", s.gpu_ops, summary_from_json);
  read_object(j, "queue_delay_ns", s.queue_delay_ns, summary_from_json);
  read(j, "queue_delays_clipped", s.queue_delays_clipped);
  read_object(j, "totals", s.totals, totals_from_json);
  return s;
}

std::vector<EventCount> event_counts_from_json(const json& j) {
  std::vector<EventCount> out;
  for (const auto& [category, events] : j.items()) out.push_back({category, events.get<std::uint64_t>()});
  return out;  // nlohmann's objects iterate their keys sorted, as the writer's list is
}

PathVerdict verdict_from_json(const json& j) {
  PathVerdict v = fields_from_json<PathVerdict>(j, fields::kVerdict);
  read_object(j, "waited_stream", v.waited_stream, stream_key_from_json);
  read_object(j, "unread_device_events", v.unread_device_events, event_counts_from_json);
  return v;
}

KernelStat kernel_from_json(const json& j) { return fields_from_json<KernelStat>(j, fields::kKernelStat); }


PathBreakdown breakdown_from_json(const json& j) {
  PathBreakdown b;
  read_object(j, "summary", b.summary, breakdown_summary_from_json);
  read_object(j, "verdict", b.verdict, verdict_from_json);
  if (const auto counters = j.find("counters"); counters != j.end() && counters->is_object()) {
    if (const auto c = counters->find("collection"); c != counters->end() && c->is_object()) {
      json_fields::read_fields(*c, b.collection_counters, fields::kCollectionCounters);
    }
    if (const auto a = counters->find("analysis"); a != counters->end() && a->is_object()) {
      json_fields::read_fields(*a, b.analysis_counters, fields::kAnalysisCounters);
    }
  }
  read_list(j, "kernels", b.kernels, kernel_from_json);
  read_list(j, "collectives", b.collectives, collective_from_json);
  read_list(j, "iterations", b.iterations, iteration_from_json);
  return b;
}

Estimate estimate_from_json(const json& j) { return fields_from_json<Estimate>(j, fields::kEstimate); }

GapExplanation explanation_from_json(const json& j) {
  GapExplanation e;
  read(j, "slower", e.slower);
  read(j, "faster", e.faster);
  read(j, "measured", e.measured);
  read_object(j, "gap", e.gap, estimate_from_json);
  read(j, "within_noise", e.within_noise);
  read_object(j, "kernels", e.kernels, estimate_from_json);
  read(j, "kernels_same", e.kernels_same);
  read(j, "faster_kernel_share", e.faster_kernel_share);
  read(j, "faster_dominant", e.faster_dominant);  // absent in older reports: null
  read_list(j, "layers", e.layers, [](const json& l) {
    LayerEstimate layer;
    read(l, "layer", layer.layer);
    read(l, "path", layer.path);
    read(l, "upper", layer.upper);
    read(l, "lower", layer.lower);
    read(l, "sign", layer.sign);
    read_object(l, "estimate", layer.estimate, estimate_from_json);
    read(l, "kernels_differ", layer.kernels_differ);
    return layer;
  });
  read(j, "floor_slower", e.floor_slower);
  read(j, "floor_faster", e.floor_faster);
  read(j, "floor_kind_slower", e.floor_kind_slower);
  read(j, "floor_kind_faster", e.floor_kind_faster);
  read_object(j, "floor_gap", e.floor_gap, estimate_from_json);
  read_object(j, "wrapper", e.wrapper, estimate_from_json);
  read_object(j, "residual", e.residual, estimate_from_json);
  read(j, "residual_share", e.residual_share);
  read_list(j, "remedies", e.remedies, [](const json& r) {
    GapRemedy remedy;
    read(r, "path", remedy.path);
    read_object(r, "saved", remedy.saved, estimate_from_json);
    read(r, "share_of_gap", remedy.share_of_gap);
    return remedy;
  });
  read_list(j, "dynamo_ranges", e.dynamo_ranges, [](const json& r) {
    DynamoRangeCheck check;
    read(r, "path", check.path);
    read_object(r, "cache_lookup", check.cache_lookup, estimate_from_json);
    read_object(r, "guards", check.guards, estimate_from_json);
    read_object(r, "outside_region", check.outside_region, estimate_from_json);
    read_object(r, "guards_and_dynamo", check.guards_and_dynamo, estimate_from_json);
    read(r, "guards_exceed_lookup", check.guards_exceed_lookup);    // absent before 2026-12-06: false
    read(r, "layers_exceed_outside", check.layers_exceed_outside);
    return check;
  });
  read(j, "missing", e.missing);
  return e;
}

PathOutputCheck output_check_from_json(const json& j) { return fields_from_json<PathOutputCheck>(j, fields::kOutputCheck); }

ExecutionCheck execution_from_json(const json& j) {
  ExecutionCheck check;
  ExecutionFacts& f = check.facts;
  read(j, "dynamo", f.dynamo);
  read(j, "graphs", f.graphs);
  read_list(j, "graph_breaks", f.graph_breaks,
            [](const json& b) {
              GraphBreak graph_break;
              read(b, "reason", graph_break.reason);
              read(b, "count", graph_break.count);
              return graph_break;
            });
  read_list(j, "measured_compiles", check.measured_compiles, [](const json& c) {
    MeasuredCompile compile;
    read(c, "pass", compile.pass);
    read(c, "iteration", compile.iteration);
    read(c, "kind", compile.event.kind);
    read(c, "compile_id", compile.event.compile_id);
    read(c, "duration_ns", compile.event.end_ns);  // the report keeps the duration, not the clock: start 0
    read(c, "reason", compile.event.reason);
    return compile;
  });
  read(j, "excluded_iterations", check.excluded_iterations);
  read(j, "excluded_samples_ns", check.excluded_samples_ns);
  read(j, "pooled", check.pooled);
  read(j, "cuda_graphs", check.cuda_graphs);
  f.cuda_graphs_expected = check.cuda_graphs != CudaGraphUse::not_applicable;  // as cuda_graph_use decides it
  read(j, "compiled_call", check.compiled_call);  // absent before 2026-12-06: not probed
  read(j, "compiled_call_unknown", check.compiled_call_unknown);  // absent in older reports: null
  read(j, "compiled_call_error", check.compiled_call_error);
  read(j, "cuda_graph_skip_reason", f.cuda_graph_skip_reason);
  read(j, "device", f.device);
  read(j, "unobserved", f.unobserved);
  read(j, "fx_cache_hits", f.fx_cache_hits);
  read(j, "fx_cache_misses", f.fx_cache_misses);
  return check;
}

PathMemory memory_from_json(const json& j) {
  PathMemory m;
  read(j, "build_retained_bytes", m.build_retained_bytes);
  read(j, "build_peak_bytes", m.build_peak_bytes);
  read(j, "run_peak_bytes", m.run_peak_bytes);
  read(j, "run_calls", m.run_calls);
  read_object(j, "device", m.device,
              [](const json& d) { return fields_from_json<PathDeviceMemory>(d, fields::kDeviceMemory); });

  return m;
}

PathConcurrency concurrency_from_json(const json& j) {
  PathConcurrency c;
  read_list(j, "points", c.points, [](const json& p) { return fields_from_json<ThreadsPoint>(p, fields::kThreadsPoint); });

  read(j, "holds_gil", c.holds_gil);
  read(j, "host_share", c.host_share);
  read(j, "host_share_se", c.host_share_se);
  read(j, "scaling_within_noise", c.scaling_within_noise);
  read(j, "host_share_within_noise", c.host_share_within_noise);
  read(j, "host_share_missing", c.host_share_missing);
  read(j, "cores_had_room", c.cores_had_room);
  read(j, "runner_instances", c.runner_instances);
  read(j, "cores", c.context.cores);
  read(j, "intra_op_threads", c.context.intra_op_threads);
  read(j, "cuda", c.context.cuda);
  read(j, "limit", c.limit);
  read(j, "caller_slowdown", c.caller_slowdown);
  read(j, "unavailable", c.unavailable);
  return c;
}

PathColdStart cold_start_from_json(const json& j) {
  PathColdStart c;
  read(j, "processes", c.processes);
  read_list(j, "states", c.states, [](const json& s) {
    ColdStartState state;
    read_known(s, "cache", state.cache);
    read_list(s, "samples", state.samples, [](const json& p) {
      ColdStartSample sample = fields_from_json<ColdStartSample>(p, fields::kColdStartSample);
      read(p, "output_detail", sample.output_detail);
      return sample;
    });

    read_object(s, "median", state.median,
                [](const json& m) { return fields_from_json<ColdStartPhases>(m, fields::kColdStartPhases); });

    if (state.median) {  // written as null without a median
      read(s, "min_total_ns", state.min_total_ns);
      read(s, "max_total_ns", state.max_total_ns);
    }
    read(s, "against_cold", state.against_cold);
    if (const auto it = s.find("speedup_vs_cold"); it != s.end() && !it->is_null()) state.speedup_vs_cold = it->get<double>();
    read(s, "failed", state.failed);
    read(s, "unavailable", state.unavailable);
    return state;
  });
  return c;
}

PathRatio ratio_from_json(const json& j);  // below, with the report's ratios

PathResult path_from_json(const json& j) {
  PathResult p;
  p.name = j.at("name").get<std::string>();
  const UnknownTextPlace place(fmt::format("paths[{}]", p.name));
  read_known(j, "role", p.role);
  read(j, "source", p.source);
  read(j, "artifact", p.artifact);
  read(j, "load_ns", p.load_ns);
  read(j, "warmup_ns", p.warmup_ns);
  p.wall_ns = j.at("samples_ns").get<std::vector<std::int64_t>>();
  read(j, "sample_rounds", p.wall_rounds);  // reports before 2026-12-06 have none: their samples are not paired
  if (!p.wall_rounds.empty() && p.wall_rounds.size() != p.wall_ns.size()) {
    throw std::runtime_error(fmt::format("paths[{}].sample_rounds has {} entries for {} samples_ns", p.name,
                                         p.wall_rounds.size(), p.wall_ns.size()));
  }
  if (std::any_of(p.wall_rounds.begin(), p.wall_rounds.end(), [](int round) { return round < 0; })) {
    throw std::runtime_error(fmt::format("paths[{}].sample_rounds holds a negative round", p.name));
  }
  p.wall.median = std::numeric_limits<double>::quiet_NaN();  // no summary: no median (not 0)
  read_object(j, "wall_ns", p.wall, summary_from_json);
  read_stop_reason(j, "stop_reason", p.stop_reason);
  read_object(j, "output_check", p.output_check, output_check_from_json);
  read_object(j, "execution", p.execution, execution_from_json);
  read_object(j, "memory", p.memory, memory_from_json);
  read_object(j, "concurrency", p.concurrency, concurrency_from_json);
  read_object(j, "cold_start", p.cold_start, cold_start_from_json);
  read_list(j, "slower_paths", p.slower_paths, ratio_from_json);  // absent before 2026-12-06: none cited
  read_object(j, "collector_cost", p.collector_cost,
              [](const json& c) { return fields_from_json<CollectorCost>(c, fields::kCollectorCost); });
  read_object(j, "run_queue", p.run_queue,  // absent before 2026-12-07: not measured
              [](const json& r) { return fields_from_json<PathRunQueue>(r, fields::kRunQueue); });

  read(j, "split_collector", p.split_collector);
  read_object(j, "kernel_attribution", p.kernel_attribution, [](const json& a) {
    KernelAttributionSummary attribution;
    read(a, "records_kernels", attribution.records_kernels);
    read(a, "seen", attribution.seen);
    read(a, "unattributed", attribution.unattributed);
    read(a, "not_in_code", attribution.not_in_code);
    return attribution;
  });
  read_object(j, "dynamo_ranges", p.dynamo_ranges, [](const json& d) {
    DynamoRanges ranges;
    read(d, "iterations", ranges.iterations);
    read_object(d, "cache_lookup_ns", ranges.cache_lookup_ns, summary_from_json);
    read_object(d, "outside_region_ns", ranges.outside_region_ns, summary_from_json);
    return ranges;
  });
  if (const auto split = j.find("split"); split != j.end() && split->is_object()) {
    const UnknownTextPlace in_split("split");
    if (split->value("available", false)) {
      p.breakdown = breakdown_from_json(*split);
    } else {
      read(*split, "reason", p.split_unavailable_reason);
    }
  }
  return p;
}

CompareConfig compare_config_from_json(const json& j) {
  CompareConfig c;
  read(j, "paths", c.paths);
  AdaptiveStopping& s = c.stopping;
  read(j, "min_runs", s.min_runs);
  read(j, "max_runs", s.max_runs);
  read(j, "min_time_s", s.min_time_s);
  if (const auto it = j.find("max_rse"); it != j.end()) s.max_rse = number_at(j, "max_rse", kNullIsInfinity);
  if (const auto it = j.find("time_limit_s"); it != j.end()) s.time_limit_s = number_at(j, "time_limit_s", kNullIsInfinity);
  read(j, "block", s.block);
  read(j, "check_outputs", c.check_outputs);
  read_known(j, "compile_source", c.compile_source);
  read(j, "explain", c.explain);
  read(j, "threads", c.threads);
  read(j, "cold_start", c.cold_start);
  c.cold_start_min_orders = 20;  // absent: written before the rule counted either order's chance
  read(j, "cold_start_min_orders", c.cold_start_min_orders);
  read(j, "what_if", c.what_if);
  read_list(j, "explain_pairs", c.explain_pairs, [](const json& pair) {
    return std::pair{pair.at(0).get<std::string>(), pair.at(1).get<std::string>()};
  });
  return c;
}

TraceSource trace_source_from_json(const json& j) {
  TraceSource t;
  read(j, "path", t.path);
  read(j, "format", t.format);
  read(j, "compressed", t.compressed);
  read(j, "file_bytes", t.file_bytes);
  read(j, "json_bytes", t.json_bytes);
  read(j, "events", t.events);
  read(j, "events_kept", t.events_kept);
  read(j, "events_ignored", t.events_ignored);
  read_object(j, "events_ignored_by_category", t.events_ignored_by_category, event_counts_from_json);
  read(j, "events_skipped", t.events_skipped);
  read(j, "iterations_from", t.iterations_from);
  read(j, "read_ns", t.read_ns);
  read_object(j, "distributed", t.distributed, [](const json& d) {
    DistributedInfo info;
    read(d, "rank", info.rank);
    read(d, "world_size", info.world_size);
    read(d, "backend", info.backend);
    return info;
  });
  return t;
}

ArtifactSummary artifacts_from_json(const json& j) {
  ArtifactSummary a;
  read(j, "model", a.model);
  read(j, "exported_program", a.exported_program);
  read(j, "aoti_package", a.aoti_package);
  read(j, "cached", a.cached);
  read(j, "export_ns", a.export_ns);
  read(j, "aoti_compile_ns", a.aoti_compile_ns);
  read(j, "export_error", a.export_error);
  read(j, "not_measured", a.not_measured);
  read(j, "aoti_error", a.aoti_error);  // absent before 2026-12-07: none
  return a;
}

KernelSetDiff kernel_diff_from_json(const json& j) {
  KernelSetDiff d;
  read(j, "path_a", d.path_a);
  read(j, "path_b", d.path_b);
  read(j, "partial", d.partial);  // absent before 2026-12-06: read as false
  const auto row = [](const json& r) { return fields_from_json<KernelDiffRow>(r, fields::kKernelDiffRow); };
  read_list(j, "both", d.both, row);
  read_list(j, "only_a", d.only_a, row);
  read_list(j, "only_b", d.only_b, row);
  return d;
}

PathRatio ratio_from_json(const json& j) {
  PathRatio r;
  read(j, "faster", r.faster);
  read(j, "slower", r.slower);
  read(j, "ratio", r.ratio);
  read(j, "stddev", r.stddev);
  read(j, "low", r.low);
  read(j, "high", r.high);
  read(j, "significant", r.significant);
  return r;
}

WhatIfLedger what_if_from_json(const json& j) {
  WhatIfLedger ledger;
  read(j, "base", ledger.base);
  read(j, "base_measured", ledger.base_measured);
  read(j, "base_ready_ns", ledger.base_ready_ns);
  read(j, "base_fx_cache_hits", ledger.base_fx_cache_hits);
  read(j, "base_fx_cache_misses", ledger.base_fx_cache_misses);
  read(j, "base_cache_lookup_ns", ledger.base_cache_lookup_ns);
  read_list(j, "entries", ledger.entries, [](const json& e) {
    WhatIfEntry entry;
    read(e, "setting", entry.setting);
    read(e, "path", entry.path);
    read(e, "not_applicable", entry.not_applicable);
    read(e, "unavailable", entry.unavailable);
    read_object(e, "saved", entry.saved, estimate_from_json);
    entry.significant = entry.saved && significant(*entry.saved);
    read(e, "negligible", entry.negligible);
    read(e, "beyond_guards", entry.beyond_guards);
    read(e, "outputs_match", entry.outputs_match);
    read(e, "max_abs_diff", entry.max_abs_diff);
    read(e, "ready_ns", entry.ready_ns);
    read(e, "fx_cache_hits", entry.fx_cache_hits);
    read(e, "fx_cache_misses", entry.fx_cache_misses);
    read(e, "extra_run_peak_bytes", entry.extra_run_peak_bytes);
    read(e, "graph_pool_bytes", entry.graph_pool_bytes);
    return entry;
  });
  const auto again_from_json = [](const json& a) {
    WhatIfAgain again;
    read(a, "path", again.path);
    read(a, "unavailable", again.unavailable);
    read_object(a, "moved", again.moved, estimate_from_json);
    again.significant = again.moved && significant(*again.moved);
    return again;
  };
  PlacementBand& band = ledger.placement;
  const auto again = j.find("again");
  if (const auto rebuilds = j.find("rebuilds"); rebuilds != j.end() && rebuilds->is_array()) {
    for (const json& a : *rebuilds) ledger.again.push_back(again_from_json(a));
    if (const auto p = j.find("placement"); p != j.end() && p->is_object()) {
      band = fields_from_json<PlacementBand>(*p, fields::kPlacementBand);
    }
  } else if (again != j.end() && again->is_object()) {
    // An ohprof of 2026-12-05: one rebuild, and a floor on |saved| (docs/metrics.md, "What-if ledger").
    ledger.again.push_back(again_from_json(*again));
    band.rule = PlacementRule::floor;
    double floor = 0;
    read(j, "placement_floor_ns", floor);
    read(j, "floor_from_again", band.from_again);
    band.low_ns = -floor;
    band.high_ns = floor;
  } else {
    WhatIfAgain none;
    none.path = kWhatIfRebuilds[0];
    none.unavailable = "not in this report (its ohprof predates the A/A check)";
    ledger.again.push_back(std::move(none));
    band.rule = PlacementRule::absent;
  }
  return ledger;
}

DeploymentSummary deployment_from_json(const json& j) {
  DeploymentSummary d;
  read_list(j, "rows", d.rows, [](const json& r) { return fields_from_json<DeploymentRow>(r, fields::kDeploymentRow); });

  read_list(j, "criteria", d.criteria, [](const json& c) {
    CriterionLeaders leaders;
    read(c, "criterion", leaders.criterion);
    read(c, "leaders", leaders.leaders);
    read(c, "next", leaders.next);
    read(c, "without", leaders.without);
    read(c, "too_few", leaders.too_few);
    read(c, "negligible", leaders.negligible);  // absent before 2026-12-07: false
    return leaders;
  });
  read(j, "choice", d.choice);
  read(j, "left_out", d.left_out);
  read(j, "not_measured", d.not_measured);  // absent before 2026-12-06: none
  read(j, "not_measured_cause", d.not_measured_cause);  // absent or null before 2026-12-07: export_failed, the only cause then
  read(j, "candidates", d.candidates);
  return d;
}

}  // namespace

CollectiveOp collective_from_json(const json& j) {
  CollectiveOp op;
  op.step = j.at("step").get<std::int64_t>();
  op.stream.device = j.at("device").get<std::int32_t>();
  op.stream.stream = j.at("stream").get<std::int64_t>();
  const auto ordinal = j.at("ordinal").get<std::int64_t>();  // get<std::size_t> would take -1 as 2^64 - 1
  if (ordinal < 0) throw std::runtime_error("ordinal is negative");
  op.ordinal = static_cast<std::size_t>(ordinal);
  op.name = j.at("name").get<std::string>();
  op.start_ns = j.at("start_ns").get<std::int64_t>();
  op.duration_ns = j.at("duration_ns").get<std::int64_t>();
  return op;
}

Report report_from_json(const json& j, std::vector<UnknownText>* unknown) {
  if (!j.is_object()) throw std::runtime_error("not a JSON object");
  const UnknownTextScope scope(unknown);
  Report r;
  r.kind = enum_from_json<ReportKind>(j.at("kind"), "kind");
  read_object(j, "trace", r.trace, trace_source_from_json);
  r.context = context_from_json(j.at("context"));
  const json& config = j.at("config");
  read(config, "warmup", r.config.warmup);
  read(config, "runs", r.config.runs);
  read(config, "seed", r.config.seed);
  r.config.inputs = config.at("inputs").get<std::vector<std::string>>();
  read(config, "inputs_file", r.config.inputs_file);  // null / absent (before 2026-12-07): random inputs
  read(config, "inputs_file_digest", r.config.inputs_file_digest);
  read_object(config, "compare", r.config.compare, compare_config_from_json);
  if (r.config.compare) r.config.compare->stopping.warmup = r.config.warmup;
  read_object(j, "artifacts", r.artifacts, artifacts_from_json);
  for (const json& path : j.at("paths")) r.paths.push_back(path_from_json(path));
  read_list(j, "ratios", r.ratios, ratio_from_json);
  read_list(j, "explanations", r.explanations, explanation_from_json);
  read_object(j, "what_if", r.what_if, what_if_from_json);
  read_object(j, "deployment", r.deployment, deployment_from_json);
  {
    const UnknownTextScope strict = UnknownTextScope::strict();  // diff tells a checkpoint by it
    read_stop_reason(j, "stop_reason", r.stop_reason);
  }
  read_object(j, "code_dump", r.code_dump, [](const json& d) {
    CodeDump dump;
    read(d, "dir", dump.dir);
    read(d, "files", dump.files);
    read(d, "notes", dump.notes);
    return dump;
  });
  read_list(j, "kernel_diffs", r.kernel_diffs, kernel_diff_from_json);
  read(j, "interrupted", r.interrupted);
  if (const auto it = present(j, "warnings", json::value_t::array); it != j.end()) r.warnings = warnings_from_json(*it);
  return r;
}

}  // namespace ohprof
