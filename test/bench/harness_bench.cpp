// What the measurement harness itself costs, next to the iterations it times (docs/metrics.md,
// "What the harness costs"):
//   - BM_LoopPerIteration: one empty iteration of the measurement loop, without and with the progress
//     callback that run and compare use to decide on checkpoints (arg 0: none, 1: with it);
//   - BM_Checkpoint: one report checkpoint (the copy, the statistics, the JSON and the atomic write) of
//     a run with the given number of samples.
//
//   build/ohprof_harness_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <cstdint>
#include <climits>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "ohprof/base/clock.hpp"
#include "ohprof/harness/measurement_loop.hpp"
#include "ohprof/session/checkpoint.hpp"
#include "ohprof/base/stats.hpp"

namespace {

void BM_LoopPerIteration(benchmark::State& state) {
  const bool with_progress = state.range(0) != 0;
  constexpr int kRuns = 10'000;
  // A file checkpoint with an interval longer than the benchmark: due() reads the clock every time.
  ohprof::ReportCheckpoint never_due("/nonexistent/never-written.json", ohprof::monotonic_now_ns, INT64_MAX);
  ohprof::LoopProgress progress;
  if (with_progress) {
    progress = [&never_due](const std::vector<std::int64_t>&, const std::vector<ohprof::IterationWindow>&) {
      benchmark::DoNotOptimize(never_due.due());
    };
  }
  for (auto _ : state) {
    ohprof::LoopResult result;
    const ohprof::Status status = ohprof::run_measurement_loop(
        ohprof::LoopConfig{0, kRuns}, [] { return ohprof::ok_status(); }, {}, result, progress);
    if (!status.ok()) {
      state.SkipWithError(status.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(result.iterations.data());
  }
  state.SetItemsProcessed(state.iterations() * kRuns);
  state.counters["ns/iteration"] = benchmark::Counter(static_cast<double>(state.iterations() * kRuns),
                                                      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_Checkpoint(benchmark::State& state) {
  const auto samples = static_cast<std::size_t>(state.range(0));
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("ohprof-harness-bench-" + std::to_string(::getpid()) + ".json");
  ohprof::Report report;
  ohprof::PathResult path;
  path.name = "aoti";
  path.wall_ns.reserve(samples);
  for (std::size_t i = 0; i < samples; ++i) path.wall_ns.push_back(100'000 + static_cast<std::int64_t>((i * 7919) % 5000));
  report.paths.push_back(path);
  ohprof::ReportCheckpoint checkpoint(file.string());
  for (auto _ : state) {
    checkpoint.write([&] {
      ohprof::Report partial = report;  // what run and compare do: a copy, then the statistics
      partial.paths.front().wall = ohprof::summarize_ns(partial.paths.front().wall_ns);
      return partial;
    });
  }
  if (checkpoint.written() != static_cast<int>(state.iterations())) {
    state.SkipWithError("a checkpoint was not written");
    return;
  }
  state.counters["file_MB"] = static_cast<double>(std::filesystem::file_size(file)) / 1e6;
  std::filesystem::remove(file);
}

BENCHMARK(BM_LoopPerIteration)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Checkpoint)->Arg(1'000)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
