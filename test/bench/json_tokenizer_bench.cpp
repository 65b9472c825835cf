// The trace reader's JSON tokenizing weighed against simdjson's On-Demand API (Debian's
// libsimdjson-dev; built only when it is installed): the same trace, decompressed into memory once,
// read on one thread. docs/analyze.md, "The tokenizer".
//
//   BM_OhprofWindow     parse_kineto_trace_text: the window reading, with all the event handling
//   BM_OhprofGeneral    the same through the general streaming parser only (JsonReading::general)
//   BM_SimdjsonFields   simdjson On-Demand: each event's ph, cat, name, pid, tid, ts, dur and its args'
//                       correlation, stream and device found and read (no event handling): a lower
//                       bound for a reader built on it, which also needs the whole document in memory
//
//   build/ohprof_tokenizer_bench [--benchmark_filter=...]
//   OHPROF_BENCH_TRACE=/path/to/trace.json[.gz]   (default: the largest shared trace, nccl_data.json.gz)
#include <benchmark/benchmark.h>
#include <simdjson.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "ohprof/trace/kineto_reader.hpp"

namespace {

std::string bench_trace() {
  if (const char* path = std::getenv("OHPROF_BENCH_TRACE"); path != nullptr && *path != '\0') return path;
  const char* dir = std::getenv("OHPROF_TRACES_DIR");
  return (std::filesystem::path(dir != nullptr && *dir != '\0' ? dir : OHPROF_TRACES_DIR) / "nccl_data.json.gz").string();
}

// The trace's JSON text (gzip or plain: gzread reads both).
const std::string& trace_text() {
  static const std::string text = [] {
    std::string out;
    gzFile file = gzopen(bench_trace().c_str(), "rb");
    if (file == nullptr) return out;
    char chunk[1 << 16];
    int got = 0;
    while ((got = gzread(file, chunk, sizeof chunk)) > 0) out.append(chunk, static_cast<std::size_t>(got));
    gzclose(file);
    return out;
  }();
  return text;
}

void rate(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(trace_text().size()));
}

void read_with(benchmark::State& state, ohprof::JsonReading reading) {
  const std::string& text = trace_text();
  for (auto _ : state) {
    auto trace = ohprof::parse_kineto_trace_text(text, "bench", reading);
    if (!trace.ok()) {
      state.SkipWithError(trace.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(trace->timeline.ops.data());
  }
  rate(state);
}

void BM_OhprofWindow(benchmark::State& state) { read_with(state, ohprof::JsonReading::window); }
void BM_OhprofGeneral(benchmark::State& state) { read_with(state, ohprof::JsonReading::general); }

// A number field as its raw token (a trace's microseconds may have decimals), folded into `sum`.
template <class Value>
void fold_number(Value value, std::uint64_t& sum) {
  std::string_view raw;
  if (value.raw_json_token().get(raw) == simdjson::SUCCESS) sum += raw.size() + static_cast<unsigned char>(raw[0]);
}

void BM_SimdjsonFields(benchmark::State& state) {
  const simdjson::padded_string padded(trace_text());
  simdjson::ondemand::parser parser;
  for (auto _ : state) {
    std::uint64_t sum = 0;
    simdjson::ondemand::document doc;
    if (parser.iterate(padded).get(doc) != simdjson::SUCCESS) {
      state.SkipWithError("simdjson: not JSON");
      return;
    }
    simdjson::ondemand::array events;
    if (doc["traceEvents"].get_array().get(events) != simdjson::SUCCESS) {
      state.SkipWithError("simdjson: no traceEvents");
      return;
    }
    for (auto element : events) {
      simdjson::ondemand::object event;
      if (element.get_object().get(event) != simdjson::SUCCESS) continue;
      for (auto field : event) {
        std::string_view key;
        if (field.unescaped_key().get(key) != simdjson::SUCCESS) continue;
        if (key == "ph" || key == "cat" || key == "name") {
          std::string_view text;
          if (field.value().get_string().get(text) == simdjson::SUCCESS) sum += text.size();
        } else if (key == "pid" || key == "tid" || key == "ts" || key == "dur") {
          fold_number(field.value(), sum);
        } else if (key == "args") {
          simdjson::ondemand::object args;
          if (field.value().get_object().get(args) != simdjson::SUCCESS) continue;
          for (auto arg : args) {
            std::string_view name;
            if (arg.unescaped_key().get(name) != simdjson::SUCCESS) continue;
            if (name == "correlation" || name == "stream" || name == "device") fold_number(arg.value(), sum);
          }
        }
      }
    }
    benchmark::DoNotOptimize(sum);
  }
  rate(state);
}

BENCHMARK(BM_OhprofWindow)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_OhprofGeneral)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SimdjsonFields)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
