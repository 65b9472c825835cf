#pragma once
// Hand-built splits for the printer tests: consistent with docs/metrics.md's identities, so a printed
// number can be checked against the field it comes from, without running the analysis.
#include <cstdint>
#include <string>
#include <vector>

#include "ohprof/model/breakdown.hpp"
#include "ohprof/model/diff.hpp"
#include "ohprof/model/report.hpp"

namespace ohprof::test {

// A measured path of the report printers' tests: its samples and their summary.
inline PathResult measured_path(const std::string& name, std::vector<std::int64_t> samples,
                                const std::string& artifact = "tiny_models:tiny_mlp", PathRole role = PathRole::path) {
  PathResult p;
  p.name = name;
  p.role = role;
  p.artifact = artifact;
  p.wall_ns = std::move(samples);
  p.wall = summarize_ns(p.wall_ns);
  p.stop_reason = StopReason{StopCode::runs_reached};
  return p;
}

// A path the diff printers' tests judge slower: compile 30 -> 36 us, +20% [+15%, +25%], 100 -> 120
// samples; its split's wall grows 40 -> 46 us, busy stays 5 us, no device-wait time.
inline PathDiff slower_compile_diff() {
  PathDiff p;
  p.name = "compile";
  p.base_count = 100;
  p.new_count = 120;
  p.base_median_ns = 30000;
  p.new_median_ns = 36000;
  p.ratio = 1.2;
  p.low = 1.15;
  p.high = 1.25;
  p.verdict = DiffVerdict::slower;
  p.reason = DiffReason::above_threshold;
  p.split = {{"wall", 40000, 46000}, {"busy", 5000, 5000}, {"device_wait", 0, 0}};
  return p;
}

inline SampleSummary one(std::int64_t value) {
  const std::vector<std::int64_t> values{value};
  return summarize_ns(values);
}

inline SampleSummary one_value(double value) {
  const std::vector<double> values{value};
  return summarize(values);
}

inline DeviceSplitSummary summary_of(const DeviceSplit& split, std::int64_t wall_ns) {
  DeviceSplitSummary out;
  out.busy_ns = one(split.busy_ns);
  out.idle_ns = one(split.idle_ns);
  out.host_bound_ns = one(split.host_bound_ns);
  out.device_wait_ns = one(split.device_wait_ns);
  out.queue_mean = one_value(static_cast<double>(split.queue_ns) / static_cast<double>(wall_ns));
  out.queue_max = one(split.queue_max);
  out.own_busy_ns = one(split.own_busy_ns);
  out.carried_out_ns = one(split.carried_out_ns);
  return out;
}

inline DeviceSplitTotals totals_of(const DeviceSplit& split) {
  return DeviceSplitTotals{split.busy_ns,   split.host_bound_ns,    split.device_wait_ns, split.queue_ns,
                           split.queue_max, split.communication_ns, split.own_busy_ns,    split.carried_out_ns};
}

// One GPU iteration [1000, 11000): wall 10 us on two streams.
//   all streams: busy 6 us, host-bound 3 us, device-wait 1 us; queue 25 op-us (mean 2.5), max 7
//   host states of the 3 us: blocking 0.5, launch 1, other API 0.3, framework 1.2 us
//   stream 0:7  busy 5 us, host-bound 4.2 us, device-wait 0.8 us, waited 1 us
//   stream 0:13 busy 1.5 us, host-bound 8 us, device-wait 0.5 us, waited 0.2 us
//   host side: launch API 2 us (1 exposed, 1 hidden), blocking 0.6 us in 2 calls, other API 0.4 us
inline PathBreakdown gpu_breakdown() {
  PathBreakdown b;
  IterationBreakdown it;
  it.index = 4;
  it.start_ns = 1000;
  it.end_ns = 11'000;
  it.wall_ns = 10'000;
  it.gpu = DeviceSplit{6000, 4000, 3000, 1000, 25'000, 7, 0, 5, 4, 5000, 500};
  it.host_states = HostStates{500, 1000, 300, 0, 1200};
  it.device_queue_max = 7;
  it.streams = {StreamSplit{{0, 7}, DeviceSplit{5000, 5000, 4200, 800, 20'000, 5, 0, 4, 3, 4000, 500}, 1000},
                StreamSplit{{0, 13}, DeviceSplit{1500, 8500, 8000, 500, 5000, 2, 0, 1, 1, 1000, 0}, 200}};
  it.launch_api_ns = 2000;
  it.launch_exposed_ns = 1000;
  it.launch_hidden_ns = 1000;
  it.blocking_ns = 600;
  it.blocking_calls = 2;
  it.other_api_ns = 400;
  it.launches = 4;
  it.graph_launches = 1;
  it.queue_delays_ns = {10, 0, 30};
  it.queue_delays_clipped = 1;
  b.iterations = {it};

  BreakdownSummary& s = b.summary;
  s.wall_ns = one(it.wall_ns);
  s.gpu = summary_of(it.gpu, it.wall_ns);
  for (const StreamSplit& stream : it.streams) {
    s.streams.push_back(StreamSummary{stream.key, summary_of(stream.split, it.wall_ns), totals_of(stream.split),
                                      stream.waited_ns});
  }
  s.host_blocking_ns = one(it.host_states.blocking_ns);
  s.host_launch_ns = one(it.host_states.launch_ns);
  s.host_other_api_ns = one(it.host_states.other_api_ns);
  s.host_harness_ns = one(it.host_states.harness_ns);
  s.host_framework_ns = one(it.host_states.framework_ns);
  s.launch_api_ns = one(it.launch_api_ns);
  s.launch_exposed_ns = one(it.launch_exposed_ns);
  s.launch_hidden_ns = one(it.launch_hidden_ns);
  s.blocking_ns = one(it.blocking_ns);
  s.other_api_ns = one(it.other_api_ns);
  s.launches = one(4);
  s.graph_launches = one(1);
  s.gpu_ops = one(4);
  s.queue_delay_ns = summarize_ns(it.queue_delays_ns);
  s.queue_delays_clipped = 1;
  BreakdownTotals& t = s.totals;
  t.iterations = 1;
  t.wall_ns = it.wall_ns;
  t.gpu = totals_of(it.gpu);
  t.host_states = it.host_states;
  t.device_queue_max = it.device_queue_max;
  t.launch_api_ns = 2000;
  t.launch_exposed_ns = 1000;
  t.launch_hidden_ns = 1000;
  t.blocking_ns = 600;
  t.blocking_calls = 2;
  t.other_api_ns = 400;

  b.kernels = {KernelStat{DeviceOpKind::kernel, "gemm", 3, 4500, 1500, 3},
               KernelStat{DeviceOpKind::memcpy, "HtoD", 1, 1500, 1500, 1}};
  b.analysis_counters.ops_total = 5;
  b.analysis_counters.ops_without_launch = 1;
  b.collection_counters.dropped_records = 2;

  PathVerdict& v = b.verdict;
  v.verdict = Verdict::compute_bound;
  v.reason = VerdictReason::dominant_share;
  v.busy_share = 0.6;
  v.host_bound_share = 0.3;
  v.device_wait_share = 0.1;
  v.first = TimeShare::busy;
  v.second = TimeShare::host_bound;
  v.host_state = HostState::framework;
  v.host_state_share = 0.4;
  v.waited_stream = StreamKey{0, 7};
  v.waited_stream_share = 1.0;
  v.queue_delay_median_ns = 10;
  v.queue_max = 7;
  v.blocking_share = 0.06;
  v.launches_per_iteration = 4;
  v.graph_launches_per_iteration = 1;
  return b;
}

// One CPU iteration [0, 10 us): kernels busy 7.5 us, dispatch 2.5 us, 4 kernels on one thread.
// A --threads result of two counts (docs/metrics.md, "Concurrent callers"): 1 caller at 22.9k calls/s, 2 at 36.6k
// (x1.60, 95% interval 1.18 to 2.01, scaling), both with p50 40.70 us and p99 325.7 us; the cores on 2 cores, the
// runner holding 2 model instances. No schedstat figures.
inline PathConcurrency two_callers() {
  PathConcurrency c;
  c.context = ConcurrencyContext{2, 1, false};
  ThreadsPoint one;
  one.threads = 1;
  one.calls_per_s = 22'900;
  one.p50_ns = 40'700;
  one.p99_ns = 325'700;
  ThreadsPoint two = one;
  two.threads = 2;
  two.calls_per_s = 36'600;
  two.scaling = 1.598;
  two.scaling_low = 1.18;
  two.scaling_high = 2.01;
  two.scales = true;
  c.points = {one, two};
  c.limit = ConcurrencyLimit::cores;
  c.runner_instances = 2;
  return c;
}

inline PathBreakdown cpu_breakdown() {
  PathBreakdown b;
  IterationBreakdown it;
  it.start_ns = 0;
  it.end_ns = 10'000;
  it.wall_ns = 10'000;
  it.gpu = DeviceSplit{7500, 2500, 2500, 0, 7500, 1, 0, 4, 4, 7500, 0};
  it.host_states.framework_ns = 2500;
  it.streams = {StreamSplit{{-1, 1234}, it.gpu, 0}};
  it.dispatch_ns = 2500;
  b.iterations = {it};
  BreakdownSummary& s = b.summary;
  s.cpu_kernels = true;
  s.wall_ns = one(it.wall_ns);
  s.gpu = summary_of(it.gpu, it.wall_ns);
  s.streams = {StreamSummary{{-1, 1234}, summary_of(it.gpu, it.wall_ns), totals_of(it.gpu), 0}};
  s.host_framework_ns = one(2500);
  s.dispatch_ns = one(2500);
  s.gpu_ops = one(4);
  s.launches = one(0);
  s.graph_launches = one(0);
  BreakdownTotals& t = s.totals;
  t.iterations = 1;
  t.wall_ns = it.wall_ns;
  t.gpu = totals_of(it.gpu);
  t.host_states = it.host_states;
  t.dispatch_ns = 2500;
  b.analysis_counters.ops_total = 4;
  PathVerdict& v = b.verdict;
  v.verdict = Verdict::compute_bound;
  v.reason = VerdictReason::dominant_share;
  v.busy_share = 0.75;
  v.host_bound_share = 0.25;
  v.host_state = HostState::framework;
  v.host_state_share = 1;
  v.cpu_kernels = true;
  return b;
}

}  // namespace ohprof::test
