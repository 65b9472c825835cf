// Speed and memory of `ohprof analyze`'s work: read (decompress + parse) and analyse a real trace.
// Reports events/s and JSON bytes/s, and the process's peak resident memory next to the size of the
// uncompressed JSON (the goal: peak memory below it).
//
//   build/test/bench/ohprof_trace_bench [--benchmark_filter=...]
//   OHPROF_BENCH_TRACE=/path/to/trace.json.gz   (default: the largest shared trace, nccl_data.json.gz)
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/trace/kineto_reader.hpp"

namespace {

std::string bench_trace() {
  if (const char* path = std::getenv("OHPROF_BENCH_TRACE"); path != nullptr && *path != '\0') return path;
  const char* dir = std::getenv("OHPROF_TRACES_DIR");
  return (std::filesystem::path(dir != nullptr && *dir != '\0' ? dir : OHPROF_TRACES_DIR) / "nccl_data.json.gz").string();
}

double peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024.0;  // Linux reports KiB
}

void report(benchmark::State& state, const ohprof::KinetoReadStats& stats) {
  const auto iterations = static_cast<double>(state.iterations());
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(stats.events) * iterations, benchmark::Counter::kIsRate);
  state.counters["json_bytes/s"] =
      benchmark::Counter(static_cast<double>(stats.json_bytes) * iterations, benchmark::Counter::kIsRate);
  state.counters["events"] = static_cast<double>(stats.events);
  state.counters["json_MB"] = static_cast<double>(stats.json_bytes) / 1e6;
  state.counters["peak_rss_MB"] = peak_rss_bytes() / 1e6;
}

void BM_ReadTrace(benchmark::State& state) {
  const std::string path = bench_trace();
  ohprof::KinetoReadStats stats;
  for (auto _ : state) {
    auto trace = ohprof::read_kineto_trace(path);
    if (!trace.ok()) {
      state.SkipWithError(trace.error().message.c_str());
      return;
    }
    stats = trace->stats;
    benchmark::DoNotOptimize(trace->timeline.ops.data());
  }
  report(state, stats);
}

void BM_ReadAndAnalyzeTrace(benchmark::State& state) {
  const std::string path = bench_trace();
  ohprof::KinetoReadStats stats;
  for (auto _ : state) {
    auto trace = ohprof::read_kineto_trace(path);
    if (!trace.ok()) {
      state.SkipWithError(trace.error().message.c_str());
      return;
    }
    stats = trace->stats;
    const ohprof::PathBreakdown split = ohprof::analyze_timeline(trace->timeline);
    benchmark::DoNotOptimize(split.iterations.data());
  }
  report(state, stats);
}

// The analysis alone, on a trace read once.
void BM_AnalyzeTimeline(benchmark::State& state) {
  auto trace = ohprof::read_kineto_trace(bench_trace());
  if (!trace.ok()) {
    state.SkipWithError(trace.error().message.c_str());
    return;
  }
  for (auto _ : state) {
    const ohprof::PathBreakdown split = ohprof::analyze_timeline(trace->timeline);
    benchmark::DoNotOptimize(split.iterations.data());
  }
  report(state, trace->stats);
}

BENCHMARK(BM_ReadTrace)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AnalyzeTimeline)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadAndAnalyzeTrace)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
