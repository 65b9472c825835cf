// The Kineto trace reader on small hand-written traces: what becomes which record, exact timestamps,
// iteration windows, and every kind of bad input (counted warnings or one clear error, never a crash).
#include "ohprof/trace/kineto_reader.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <string>

#include "ohprof/model/launch_apis.hpp"
#include "json_stream.hpp"
#include "kineto_events.hpp"
#include "trace_text.hpp"
#include "trace_fingerprint.hpp"

namespace ohprof {
namespace {

// ---- helpers ----------------------------------------------------------------------------------

std::string wrap(const std::string& events) { return R"({"schemaVersion": 1, "traceEvents": [)" + events + "]}"; }

KinetoTrace parse_ok(const std::string& json) {
  auto trace = parse_kineto_trace_text(json);
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().message);
  if (!trace.ok()) return {};
  return std::move(trace).value();
}

Error parse_error(const std::string& json) {
  auto trace = parse_kineto_trace_text(json, "t.json");
  EXPECT_FALSE(trace.ok());
  if (trace.ok()) return {};
  return trace.error();
}

bool one_line(const std::string& text) { return text.find('\n') == std::string::npos && !text.empty(); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool any_warning_contains(const KinetoTrace& trace, const std::string& part) {
  for (const auto& warning : trace.warnings) {
    if (contains(warning.message, part)) return true;
  }
  return false;
}

// A kernel event and the launch that enqueued it (ts/dur in microseconds as JSON text).
std::string kernel(const std::string& ts, const std::string& dur, int correlation, int stream = 7,
                   const std::string& name = "k") {
  return R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": )" + std::to_string(stream) +
         R"(, "ts": )" + ts + R"(, "dur": )" + dur + R"(, "args": {"device": 0, "stream": )" + std::to_string(stream) +
         R"(, "correlation": )" + std::to_string(correlation) + R"(, "grid": [1, 1, 1]}})";
}

std::string api(const std::string& name, const std::string& ts, const std::string& dur, int correlation,
                const std::string& cat = "cuda_runtime") {
  return R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "pid": 10, "tid": 11, "ts": )" + ts +
         R"(, "dur": )" + dur + R"(, "args": {"cbid": 211, "correlation": )" + std::to_string(correlation) + "}}";
}

std::string step(int index, const std::string& ts, const std::string& dur) {
  return R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#)" + std::to_string(index) +
         R"(", "pid": 10, "tid": 11, "ts": )" + ts + R"(, "dur": )" + dur + "}";
}

std::string temp_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("ohprof-kineto-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// gzip written by zlib's own gz* API, independent of ohprof's writer.
void write_gzip(const std::string& path, const std::string& text) {
  gzFile file = gzopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(gzwrite(file, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
  ASSERT_EQ(gzclose(file), Z_OK);
}

// ---- timestamps -------------------------------------------------------------------------------

TEST(MicrosecondsTextToNs, IntegersAndThreeDecimalsAreExact) {
  EXPECT_EQ(microseconds_text_to_ns("17"), 17000);
  EXPECT_EQ(microseconds_text_to_ns("0"), 0);
  EXPECT_EQ(microseconds_text_to_ns("1.76"), 1760);
  EXPECT_EQ(microseconds_text_to_ns("123456.789"), 123456789);
  EXPECT_EQ(microseconds_text_to_ns("2413669096090.1"), 2413669096090100);
  EXPECT_EQ(microseconds_text_to_ns("1694039968955744"), 1694039968955744000);
  EXPECT_EQ(microseconds_text_to_ns("-2.5"), -2500);
  EXPECT_EQ(microseconds_text_to_ns("0.001"), 1);
}

// The shortcut for the commonest decimal reads what the general conversion reads, and gives every other
// text to it; the window's own reading of it (window::number) gives the same: on the edges by hand and
// on 200,000 random JSON numbers.
TEST(ShortDecimalThousandths, IsMicrosecondsTextToNsWhereItReadsAndDeclinesTheRest) {
  EXPECT_EQ(short_decimal_thousandths("3605057436108.407"), 3605057436108407);
  EXPECT_EQ(short_decimal_thousandths("-2.5"), -2500);
  EXPECT_EQ(short_decimal_thousandths("0.001"), 1);
  EXPECT_EQ(short_decimal_thousandths("999999999999999.999"), 999999999999999999);  // 15 + 3 digits
  EXPECT_EQ(short_decimal_thousandths("1000000000000000.5"), std::nullopt);         // 16 integer digits
  EXPECT_EQ(short_decimal_thousandths("1.0005"), std::nullopt);                     // a fourth decimal: rounded there
  EXPECT_EQ(short_decimal_thousandths("1694039994041752551.5"), std::nullopt);  // the fuzzer's: no overflow on the way
  EXPECT_EQ(short_decimal_thousandths("1.99999999999999999999"), std::nullopt);
  EXPECT_EQ(short_decimal_thousandths("17"), std::nullopt);                         // an integer is the parser's
  EXPECT_EQ(short_decimal_thousandths("1.5e3"), std::nullopt);
  EXPECT_EQ(short_decimal_thousandths("1."), std::nullopt);

  std::mt19937_64 random(29);
  const auto digits = [&](std::size_t n, bool leading) {
    std::string out;
    for (std::size_t k = 0; k < n; ++k) {
      out += static_cast<char>('0' + (k == 0 && leading && n > 1 ? 1 + random() % 9 : random() % 10));
    }
    return out;
  };
  std::size_t read = 0;
  for (int i = 0; i < 200000; ++i) {
    std::string text = random() % 4 == 0 ? "-" : "";
    text += digits(1 + random() % 17, true);
    if (random() % 8 != 0) text += "." + digits(1 + random() % 5, false);
    if (random() % 16 == 0) text += "e" + std::to_string(static_cast<int>(random() % 7) - 3);
    const std::optional<std::int64_t> shortcut = short_decimal_thousandths(text);
    if (shortcut) {
      ++read;
      ASSERT_EQ(shortcut, microseconds_text_to_ns(text)) << text;
    }
    NumberField field;
    set_number_text(field, text);
    ASSERT_EQ(as_ns(field), microseconds_text_to_ns(text)) << text;
    ASSERT_EQ(as_integer(field), std::nullopt) << text;  // a decimal is never an id

    // The window reads the same shortcut in the same pass as the number, where at least eight bytes
    // follow the point; nearer the window's end it hands the text over (and set_number_text reads it).
    for (const std::string after : {",        ", ","}) {
      const std::string in_buffer = text + after;
      const char* p = in_buffer.data();
      std::int64_t integer = 0;
      std::string_view window_text;
      bool thousandths = false;
      ASSERT_TRUE(json_detail::window::number(p, in_buffer.data() + in_buffer.size(), integer, window_text, thousandths))
          << text;
      ASSERT_EQ(p, in_buffer.data() + text.size()) << text;
      if (text.find_first_of(".eE") == std::string::npos) {
        ASSERT_TRUE(window_text.empty() && !thousandths) << text;
        continue;
      }
      ASSERT_EQ(window_text, text);
      if (after.size() > 1) ASSERT_EQ(thousandths, shortcut.has_value()) << text;
      if (thousandths) ASSERT_EQ(integer, *shortcut) << text;
    }
  }
  EXPECT_GT(read, 50000u);  // the shortcut was taken often enough to be tested
}

TEST(MicrosecondsTextToNs, ExactWhereDoubleArithmeticIsNot) {
  // A timestamp from the nccl_data trace (one of ~15% of its ts/dur values where this happens): the
  // double nearest to it, times 1000, rounds to ...656.
  const std::string text = "4458676522690.655";
  EXPECT_EQ(microseconds_text_to_ns(text), 4458676522690655);
  EXPECT_NE(std::llround(std::stod(text) * 1000.0), 4458676522690655) << "the double path should be wrong here";
}

TEST(MicrosecondsTextToNs, ExponentsAndExtraDecimalsRoundHalfAwayFromZero) {
  EXPECT_EQ(microseconds_text_to_ns("1.5e3"), 1500000);
  EXPECT_EQ(microseconds_text_to_ns("1E-3"), 1);
  EXPECT_EQ(microseconds_text_to_ns("2.5e-4"), 0);   // 0.25 ns
  EXPECT_EQ(microseconds_text_to_ns("5e-4"), 1);     // 0.5 ns
  EXPECT_EQ(microseconds_text_to_ns("123456.7894"), 123456789);
  EXPECT_EQ(microseconds_text_to_ns("123456.7895"), 123456790);
  EXPECT_EQ(microseconds_text_to_ns("-0.0005"), -1);
  EXPECT_EQ(microseconds_text_to_ns("0.0004999"), 0);
  EXPECT_EQ(microseconds_text_to_ns("0.00000000000000000000000000001"), 0);
}

TEST(MicrosecondsTextToNs, RejectsNonNumbersAndOverflow) {
  for (const char* bad : {"", "-", "abc", "1.", ".5", "1e", "1e+", "12a", "1.2.3", " 1"}) {
    EXPECT_EQ(microseconds_text_to_ns(bad), std::nullopt) << bad;
  }
  EXPECT_EQ(microseconds_text_to_ns("9223372036854775.807"), 9223372036854775807);
  EXPECT_EQ(microseconds_text_to_ns("9223372036854775.808"), std::nullopt);
  EXPECT_EQ(microseconds_text_to_ns("1e400"), std::nullopt);
  EXPECT_EQ(microseconds_text_to_ns("99999999999999999999999"), std::nullopt);
}

// ---- API names --------------------------------------------------------------------------------

TEST(LaunchKindOfApi, KnownLaunchesAndSuffixes) {
  EXPECT_EQ(launch_kind_of_api("cudaLaunchKernel"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("cudaLaunchKernel_ptsz"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("cudaLaunchKernelExC"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("cudaLaunchKernelExC_v11060"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("cuLaunchKernel"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("cuLaunchKernelEx"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("cudaGraphLaunch"), LaunchKind::graph);
  EXPECT_EQ(launch_kind_of_api("cudaMemcpyAsync"), LaunchKind::memcpy);
  EXPECT_EQ(launch_kind_of_api("cudaMemcpy"), LaunchKind::memcpy);
  EXPECT_EQ(launch_kind_of_api("cuMemcpyHtoDAsync_v2"), LaunchKind::memcpy);
  EXPECT_EQ(launch_kind_of_api("cudaMemsetAsync"), LaunchKind::memset);
  EXPECT_EQ(launch_kind_of_api("cudaStreamSynchronize"), std::nullopt);
  EXPECT_EQ(launch_kind_of_api("cudaStreamGetCaptureInfo_v2"), std::nullopt);
  EXPECT_EQ(launch_kind_of_api("cudaLaunchHostFunc"), std::nullopt);
  EXPECT_EQ(launch_kind_of_api("cudaLaunchKernelX"), std::nullopt);
}

// The live collector's table (model/launch_apis.hpp, by CUPTI callback id) and the trace reader's
// classification by name agree on every entry: as CUPTI spells it ("cudaLaunchKernel_ptsz_v7000") and as
// Kineto and the collector print it, without the version ("cudaLaunchKernel_ptsz").
TEST(LaunchKindOfApi, AgreesWithTheCollectorsTableOnEveryEntry) {
  std::size_t checked = 0;
  for (const std::span<const LaunchApi> table : kCudaLaunchApiTables) {
    for (const LaunchApi& api : table) {
      const std::string name(api.name);
      EXPECT_EQ(launch_kind_of_api(name), api.kind) << name;
      const std::string printed = std::regex_replace(name, std::regex("_v[0-9]+$"), "");
      EXPECT_EQ(launch_kind_of_api(printed), api.kind) << printed;
      ++checked;
    }
  }
  EXPECT_GT(checked, 190u);  // 198 when written
  // names the reader's own list once lacked: the oldest launches and CUDA 13's
  EXPECT_EQ(launch_kind_of_api("cudaLaunch"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("cuLaunchGridAsync"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("__cudaLaunchKernel"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("cudaMemcpy_ptds_v7000"), LaunchKind::memcpy);
}

TEST(LaunchKindOfApi, HipCallsLikeTheirCudaCounterparts) {
  EXPECT_EQ(launch_kind_of_api("hipLaunchKernel"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("hipLaunchKernel_spt"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("hipLaunchKernelExC"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("hipExtLaunchKernel"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("hipModuleLaunchKernel"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("hipExtModuleLaunchKernel"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("hipHccModuleLaunchKernel"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("hipDrvLaunchKernelEx"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("hipLaunchCooperativeKernel"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("hipModuleLaunchCooperativeKernelMultiDevice"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("hipExtLaunchMultiKernelMultiDevice"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("hipGraphLaunch"), LaunchKind::graph);
  EXPECT_EQ(launch_kind_of_api("hipMemcpyWithStream"), LaunchKind::memcpy);
  EXPECT_EQ(launch_kind_of_api("hipMemcpyAsync"), LaunchKind::memcpy);
  EXPECT_EQ(launch_kind_of_api("hipMemcpy"), LaunchKind::memcpy);
  EXPECT_EQ(launch_kind_of_api("hipMemcpyHtoDAsync"), LaunchKind::memcpy);
  EXPECT_EQ(launch_kind_of_api("hipMemsetAsync"), LaunchKind::memset);
  EXPECT_EQ(launch_kind_of_api("hipMemset"), LaunchKind::memset);
  EXPECT_EQ(launch_kind_of_api("hipMemsetD32Async"), LaunchKind::memset);
  EXPECT_EQ(launch_kind_of_api("hipGetDevicePropertiesR0600"), std::nullopt);
  EXPECT_EQ(launch_kind_of_api("hipDeviceSynchronize"), std::nullopt);
  EXPECT_EQ(launch_kind_of_api("hipLaunchHostFunc"), std::nullopt);
  EXPECT_EQ(launch_kind_of_api("hipMalloc"), std::nullopt);
}

TEST(IsSyncApi, HostWaitsOnly) {
  EXPECT_TRUE(is_sync_api("cudaDeviceSynchronize"));
  EXPECT_TRUE(is_sync_api("cudaStreamSynchronize"));
  EXPECT_TRUE(is_sync_api("cudaEventSynchronize"));
  EXPECT_TRUE(is_sync_api("cuCtxSynchronize"));
  EXPECT_FALSE(is_sync_api("cudaStreamWaitEvent"));
  EXPECT_FALSE(is_sync_api("cudaEventQuery"));
  EXPECT_TRUE(is_sync_api("hipDeviceSynchronize"));
  EXPECT_TRUE(is_sync_api("hipStreamSynchronize"));
  EXPECT_TRUE(is_sync_api("hipStreamSynchronize_spt"));
  EXPECT_TRUE(is_sync_api("hipEventSynchronize"));
  EXPECT_TRUE(is_sync_api("hipCtxSynchronize"));
  EXPECT_FALSE(is_sync_api("hipStreamWaitEvent"));  // as cudaStreamWaitEvent: the device waits, not the host
  EXPECT_FALSE(is_sync_api("hipEventQuery"));
}

// ---- records ----------------------------------------------------------------------------------

TEST(KinetoReader, KernelLaunchSyncAndStepBecomeRecords) {
  const KinetoTrace trace = parse_ok(wrap(
      step(3, "1000.5", "100") + "," + api("cudaLaunchKernel", "1001.25", "4.5", 42) + "," +
      kernel("1010.125", "1.76", 42, 7, "gemm") + "," +
      R"J({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7,
          "ts": 1020, "dur": 2, "args": {"device": 1, "stream": 7, "correlation": 43, "bytes": 4096}},)J" +
      api("cudaMemcpyAsync", "1015", "3", 43) + "," + api("cudaDeviceSynchronize", "1030", "10.001", 44)));
  const Timeline& t = trace.timeline;
  ASSERT_EQ(t.ops.size(), 2u);
  EXPECT_EQ(t.ops[0].kind, DeviceOpKind::kernel);
  EXPECT_EQ(t.ops[0].name, "gemm");
  EXPECT_EQ(t.ops[0].start_ns, 1010125);
  EXPECT_EQ(t.ops[0].end_ns, 1011885);
  EXPECT_EQ(t.ops[0].stream, 7);
  EXPECT_EQ(t.ops[0].device, 0);
  EXPECT_EQ(t.ops[0].correlation, 42u);
  EXPECT_EQ(t.ops[0].bytes, 0u);
  EXPECT_EQ(t.ops[1].kind, DeviceOpKind::memcpy);
  EXPECT_EQ(t.ops[1].device, 1);
  EXPECT_EQ(t.ops[1].bytes, 4096u);
  EXPECT_EQ(t.ops[1].start_ns, 1020000);
  EXPECT_EQ(t.ops[1].end_ns, 1022000);

  ASSERT_EQ(t.launches.size(), 2u);
  EXPECT_EQ(t.launches[0].kind, LaunchKind::kernel);
  EXPECT_EQ(t.launches[0].name, "cudaLaunchKernel");
  EXPECT_EQ(t.launches[0].start_ns, 1001250);
  EXPECT_EQ(t.launches[0].end_ns, 1005750);
  EXPECT_EQ(t.launches[0].thread_id, 11);
  EXPECT_EQ(t.launches[0].correlation, 42u);
  EXPECT_FALSE(t.launches[0].iteration.has_value());
  EXPECT_EQ(t.launches[1].kind, LaunchKind::memcpy);

  ASSERT_EQ(t.syncs.size(), 1u);
  EXPECT_EQ(t.syncs[0].name, "cudaDeviceSynchronize");
  EXPECT_EQ(t.syncs[0].start_ns, 1030000);
  EXPECT_EQ(t.syncs[0].end_ns, 1040001);

  ASSERT_EQ(t.iterations.size(), 1u);
  EXPECT_EQ(t.iterations[0].index, 3);
  EXPECT_EQ(t.iterations[0].start_ns, 1000500);
  EXPECT_EQ(t.iterations[0].end_ns, 1040001);  // 1100.5 us, cut at the end of the recording
  EXPECT_TRUE(trace.iterations_from_profiler_steps);
  EXPECT_EQ(t.counters.ops_without_launch, 0u);
  EXPECT_EQ(t.counters.skipped_events, 0u);
  EXPECT_EQ(trace.stats.events, 6u);
  EXPECT_EQ(trace.stats.kept, 6u);
  EXPECT_EQ(trace.device_index, -1);  // ops on devices 0 and 1
}

TEST(KinetoReader, HipLaunchesCopiesAndSyncsAreLinkedLikeCudaOnes) {
  // A ROCm Kineto trace: HIP calls, still with category cuda_runtime.
  const KinetoTrace trace = parse_ok(wrap(
      step(1, "100", "100") + "," + api("hipLaunchKernel", "101", "5", 118) + "," +
      kernel("110", "6.88", 118, 0, "elementwise_kernel") + "," + api("hipExtModuleLaunchKernel", "120", "5.18", 121) +
      "," + kernel("130", "17.6", 121, 0, "Cijk_Alik_Bljk") + "," +
      R"J({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Host -> Device)", "pid": 2, "tid": 0,
          "ts": 160, "dur": 22.441, "args": {"device": 2, "stream": 0, "correlation": 117, "bytes": 1024}},)J" +
      api("hipMemcpyWithStream", "150", "60.204", 117) + "," +
      api("hipGetDevicePropertiesR0600", "211", "1", 119) + "," + api("hipDeviceSynchronize", "190", "5", 137)));
  const Timeline& t = trace.timeline;
  ASSERT_EQ(t.ops.size(), 3u);
  ASSERT_EQ(t.launches.size(), 3u);
  std::map<std::uint64_t, const LaunchCall*> by_correlation;
  for (const auto& call : t.launches) by_correlation[call.correlation] = &call;
  ASSERT_EQ(by_correlation.count(118), 1u);
  EXPECT_EQ(by_correlation[118]->name, "hipLaunchKernel");
  EXPECT_EQ(by_correlation[118]->kind, LaunchKind::kernel);
  ASSERT_EQ(by_correlation.count(121), 1u);
  EXPECT_EQ(by_correlation[121]->name, "hipExtModuleLaunchKernel");
  EXPECT_EQ(by_correlation[121]->kind, LaunchKind::kernel);
  ASSERT_EQ(by_correlation.count(117), 1u);
  EXPECT_EQ(by_correlation[117]->name, "hipMemcpyWithStream");
  EXPECT_EQ(by_correlation[117]->kind, LaunchKind::memcpy);
  EXPECT_EQ(by_correlation[117]->start_ns, 150000);
  EXPECT_EQ(by_correlation[117]->end_ns, 210204);
  for (const DeviceOp& op : t.ops) EXPECT_EQ(by_correlation.count(op.correlation), 1u) << op.name;
  ASSERT_EQ(t.syncs.size(), 1u);
  EXPECT_EQ(t.syncs[0].name, "hipDeviceSynchronize");
  EXPECT_EQ(t.counters.ops_without_launch, 0u);
  EXPECT_FALSE(any_warning_contains(trace, "no launch call"));
  // hipGetDevicePropertiesR0600 is an API call (neither a launch nor a sync): kept as one.
  EXPECT_EQ(trace.stats.kept, 9u);
  EXPECT_EQ(trace.stats.ignored, 0u);
  ASSERT_EQ(t.api_calls.size(), 1u);
  EXPECT_EQ(t.api_calls[0].name, "hipGetDevicePropertiesR0600");
}

TEST(KinetoReader, GpuWorkIsDecidedByCategoryNotByAStreamArgument) {
  // The Triton launcher's cpu_op carries args.stream; it is host work.
  const KinetoTrace trace = parse_ok(wrap(
      R"({"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused_add_cos_sin_0", "pid": 1, "tid": 1,
          "ts": 10, "dur": 95.812, "args": {"stream": 0, "correlation": 35, "device": 0}},)" +
      api("cuLaunchKernel", "12", "47.768", 35, "cuda_driver") + "," +
      kernel("60.592", "1.76", 35, 7, "triton_poi_fused_add_cos_sin_0")));
  ASSERT_EQ(trace.timeline.ops.size(), 1u);
  EXPECT_EQ(trace.timeline.ops[0].stream, 7);
  ASSERT_EQ(trace.timeline.launches.size(), 1u);
  EXPECT_EQ(trace.timeline.launches[0].kind, LaunchKind::kernel);
  EXPECT_EQ(trace.timeline.launches[0].name, "cuLaunchKernel");
  EXPECT_EQ(trace.stats.ignored, 1u);
  EXPECT_EQ(trace.timeline.counters.skipped_events, 0u);
}

TEST(KinetoReader, GraphLaunchKeepsEveryKernelWithTheSharedCorrelation) {
  const KinetoTrace trace = parse_ok(wrap(
      api("cudaGraphLaunch", "1", "5", 9) + "," +
      R"({"ph": "X", "cat": "kernel", "name": "a", "pid": 0, "tid": 7, "ts": 10, "dur": 1,
          "args": {"device": 0, "stream": 7, "correlation": 9, "graph id": 3, "graph node id": 1}},
         {"ph": "X", "cat": "kernel", "name": "b", "pid": 0, "tid": 7, "ts": 12, "dur": 1,
          "args": {"device": 0, "stream": 7, "correlation": 9, "graph id": 3, "graph node id": 2}})"));
  ASSERT_EQ(trace.timeline.launches.size(), 1u);
  EXPECT_EQ(trace.timeline.launches[0].kind, LaunchKind::graph);
  ASSERT_EQ(trace.timeline.ops.size(), 2u);
  EXPECT_EQ(trace.timeline.ops[0].graph_id, 3u);
  EXPECT_EQ(trace.timeline.ops[1].correlation, 9u);
  EXPECT_EQ(trace.timeline.counters.ops_without_launch, 0u);
}

TEST(KinetoReader, KeyOrderDoesNotMatter) {
  const KinetoTrace trace = parse_ok(wrap(
      R"({"args": {"correlation": 5, "stream": 3, "device": 0}, "dur": 2.5, "ts": 7.25, "tid": 3, "pid": 0,
          "name": "k", "cat": "kernel", "ph": "X"},
         {"args": {"correlation": 5}, "dur": 1, "ts": 1, "name": "cudaLaunchKernel", "cat": "cuda_runtime", "ph": "X"})"));
  ASSERT_EQ(trace.timeline.ops.size(), 1u);
  EXPECT_EQ(trace.timeline.ops[0].start_ns, 7250);
  EXPECT_EQ(trace.timeline.ops[0].end_ns, 9750);
  EXPECT_EQ(trace.timeline.ops[0].stream, 3);
  ASSERT_EQ(trace.timeline.launches.size(), 1u);
}

TEST(KinetoReader, BareArrayOfEventsIsATrace) {
  const KinetoTrace trace =
      parse_ok("[" + api("cudaLaunchKernel", "1", "1", 1) + "," + kernel("3", "1", 1) + "]");
  EXPECT_EQ(trace.timeline.ops.size(), 1u);
  EXPECT_EQ(trace.timeline.launches.size(), 1u);
}

TEST(KinetoReader, NestedValuesInsideArgsAreIgnored) {
  // Objects and arrays nested in args must not be mistaken for the event's own fields.
  const KinetoTrace trace = parse_ok(wrap(
      R"({"ph": "X", "cat": "kernel", "name": "k", "ts": 5, "dur": 1,
          "args": {"nested": {"stream": 99, "ts": 1}, "list": [{"device": 5}], "stream": 4, "device": 0,
                   "correlation": 1}, "extra": {"ts": 123, "args": {"stream": 77}}},)" +
      api("cudaLaunchKernel", "1", "1", 1)));
  ASSERT_EQ(trace.timeline.ops.size(), 1u);
  EXPECT_EQ(trace.timeline.ops[0].stream, 4);
  EXPECT_EQ(trace.timeline.ops[0].device, 0);
  EXPECT_EQ(trace.timeline.ops[0].start_ns, 5000);
}

TEST(KinetoReader, DevicePropertiesNameTheGpu) {
  const KinetoTrace trace = parse_ok(
      R"({"deviceProperties": [{"id": 0, "name": "NVIDIA A100-PG509-200"}, {"id": 1, "name": "other"}],
          "traceEvents": [)" +
      kernel("3", "1", 1) + "]}");
  EXPECT_EQ(trace.device_index, 0);
  EXPECT_EQ(trace.device_name, "NVIDIA A100-PG509-200");
}

TEST(KinetoReader, DistributedInfoGivesTheRankWorldSizeAndBackend) {
  const KinetoTrace trace = parse_ok(
      R"({"distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8, "pg_count": 1,
                              "pg_config": [{"pg_name": "0", "ranks": [0, 1]}], "nccl_version": "2.17.1"},
          "traceEvents": [)" +
      kernel("3", "1", 1) + "]}");
  ASSERT_TRUE(trace.distributed);
  EXPECT_EQ(trace.distributed->rank, 3);
  EXPECT_EQ(trace.distributed->world_size, 8);
  EXPECT_EQ(trace.distributed->backend, "nccl");
}

TEST(KinetoReader, ARankThatIsNotANonNegativeIntegerIsNoRank) {
  for (const char* rank : {R"("2")", "-1", "1.5", "null", "[0]", R"({"r": 0})"}) {
    const KinetoTrace trace = parse_ok(std::string(R"({"distributedInfo": {"rank": )") + rank +
                                       R"(, "world_size": 4}, "traceEvents": [)" + kernel("3", "1", 1) + "]}");
    ASSERT_TRUE(trace.distributed) << rank;
    EXPECT_FALSE(trace.distributed->rank) << rank;
    EXPECT_EQ(trace.distributed->world_size, 4) << rank;
  }
  EXPECT_FALSE(parse_ok(wrap(kernel("3", "1", 1))).distributed);
}

// ---- iterations -------------------------------------------------------------------------------

TEST(KinetoReader, ProfilerStepsAreSortedAndIndexed) {
  const KinetoTrace trace = parse_ok(wrap(step(6, "300", "100") + "," + step(4, "100", "100") + "," +
                                          step(5, "200", "100") + "," + kernel("150", "1", 0) + "," +
                                          api("cudaDeviceSynchronize", "399", "1", 2)));
  const auto& windows = trace.timeline.iterations;
  ASSERT_EQ(windows.size(), 3u);
  EXPECT_EQ(windows[0].index, 4);
  EXPECT_EQ(windows[0].start_ns, 100000);
  EXPECT_EQ(windows[0].end_ns, 200000);
  EXPECT_EQ(windows[1].index, 5);
  EXPECT_EQ(windows[2].index, 6);
  EXPECT_EQ(windows[2].end_ns, 400000);
  ASSERT_EQ(trace.warnings.size(), 1u) << "one warning: the kernel has no launch";
  EXPECT_EQ(trace.warnings[0].code, WarningCode::ops_without_launch);
}

TEST(KinetoReader, WithoutProfilerStepsOneWindowSpansAllCudaActivity) {
  const KinetoTrace trace = parse_ok(wrap(
      R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1, "dur": 1000},)" +
      api("cudaLaunchKernel", "100", "5", 1) + "," + kernel("110", "20", 1) + "," +
      api("cudaStreamSynchronize", "106", "30.5", 2)));
  EXPECT_FALSE(trace.iterations_from_profiler_steps);
  ASSERT_EQ(trace.timeline.iterations.size(), 1u);
  EXPECT_EQ(trace.timeline.iterations[0].index, 0);
  EXPECT_EQ(trace.timeline.iterations[0].start_ns, 100000);
  EXPECT_EQ(trace.timeline.iterations[0].end_ns, 136500);
}

TEST(KinetoReader, StepBeyondTheRecordingIsCutWithAWarning) {
  const KinetoTrace trace = parse_ok(wrap(step(1, "100", "13336315.805") + "," + api("cuLaunchKernel", "110", "5", 1) +
                                          "," + kernel("120", "1.76", 1) + "," +
                                          R"({"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": 200.5})"));
  ASSERT_EQ(trace.timeline.iterations.size(), 1u);
  EXPECT_EQ(trace.timeline.iterations[0].start_ns, 100000);
  EXPECT_EQ(trace.timeline.iterations[0].end_ns, 200500);
  EXPECT_EQ(trace.recorded_end_ns, 200500);
  EXPECT_TRUE(any_warning_contains(trace, "ProfilerStep#1 ends")) << trace.warnings.size();
  ASSERT_FALSE(trace.warnings.empty());
  EXPECT_EQ(trace.warnings.back().code, WarningCode::step_cut_at_recording_end);
}

// ---- what is skipped, counted and warned about --------------------------------------------------

TEST(KinetoReader, KernelWithoutItsLaunchIsKeptAndCounted) {
  const KinetoTrace trace =
      parse_ok(wrap(api("cudaLaunchKernel", "1", "1", 1) + "," + kernel("3", "1", 1) + "," + kernel("5", "1", 77) +
                    "," + R"({"ph": "X", "cat": "kernel", "name": "nocorr", "ts": 7, "dur": 1, "args": {"device": 0, "stream": 7}})"));
  EXPECT_EQ(trace.timeline.ops.size(), 3u);
  EXPECT_EQ(trace.timeline.counters.ops_without_launch, 2u);
  EXPECT_TRUE(any_warning_contains(trace, "2 of 3 GPU operations have no launch call"));
}

TEST(KinetoReader, EventsMissingRequiredFieldsAreSkippedAndCounted) {
  const KinetoTrace trace = parse_ok(wrap(
      kernel("1", "1", 0) + "," +
      R"({"ph": "X", "cat": "kernel", "name": "no_dur", "ts": 1, "args": {"device": 0, "stream": 7, "correlation": 1}},
         {"ph": "X", "cat": "kernel", "name": "no_stream", "ts": 1, "dur": 1, "args": {"device": 0, "correlation": 1}},
         {"ph": "X", "cat": "kernel", "name": "no_args", "ts": 1, "dur": 1},
         {"ph": "X", "cat": "gpu_memset", "name": "string_ts", "ts": "1", "dur": 1, "args": {"device": 0, "stream": 7}},
         {"ph": "X", "cat": "kernel", "name": "negative_dur", "ts": 1, "dur": -1, "args": {"device": 0, "stream": 7}},
         {"ph": "X", "cat": "kernel", "name": "stream_is_array", "ts": 1, "dur": 1, "args": {"device": 0, "stream": [7]}},
         {"ph": "B", "cat": "kernel", "name": "begin_phase", "ts": 1, "args": {"device": 0, "stream": 7}},
         {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 1, "dur": 1, "args": {}},
         {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#x", "ts": 1, "dur": 1},
         17, [1, 2])"));
  EXPECT_EQ(trace.timeline.ops.size(), 1u);
  EXPECT_TRUE(trace.timeline.launches.empty());
  EXPECT_EQ(trace.timeline.counters.skipped_events, 11u);
  EXPECT_EQ(trace.stats.invalid, 11u);
  EXPECT_TRUE(any_warning_contains(trace, "skipped 11 trace events"));
  EXPECT_TRUE(any_warning_contains(trace, "missing 'dur'"));
  EXPECT_TRUE(any_warning_contains(trace, "missing 'args.stream'"));
  EXPECT_FALSE(trace.iterations_from_profiler_steps);
}

// A start and duration each within int64 nanoseconds whose sum is not (a damaged trace's): skipped and
// said, not wrapped to a negative end (the fuzzer's kind of input).
TEST(KinetoReader, AnEventEndingPastInt64NanosecondsIsSkipped) {
  const KinetoTrace trace = parse_ok(wrap(kernel("1", "1", 0) + "," + kernel("9000000000000000", "1000000000000000", 1)));
  EXPECT_EQ(trace.timeline.ops.size(), 1u);
  EXPECT_EQ(trace.stats.invalid, 1u);
  EXPECT_TRUE(any_warning_contains(trace, "'ts' + 'dur' is past int64 nanoseconds"));
}

TEST(KinetoReader, UnknownCategoriesAreCountedKnownOnesIgnored) {
  const KinetoTrace trace = parse_ok(wrap(
      kernel("1", "1", 0) + "," +
      R"({"ph": "X", "cat": "cpu_op", "name": "aten::add", "ts": 1, "dur": 1},
         {"ph": "X", "cat": "python_function", "name": "f", "ts": 1, "dur": 1},
         {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 1, "ts": 1},
         {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python"}},
         {"ph": "X", "cat": "my_custom", "name": "a", "ts": 1, "dur": 1},
         {"ph": "X", "cat": "my_custom", "name": "b", "ts": 1, "dur": 1},
         {"ph": "X", "cat": "Kernel_typo", "name": "c", "ts": 1, "dur": 1})"));
  EXPECT_EQ(trace.stats.ignored, 4u);
  EXPECT_EQ(trace.stats.unknown_category, 3u);
  EXPECT_EQ(trace.timeline.counters.skipped_events, 3u);
  EXPECT_TRUE(any_warning_contains(trace, "'my_custom' x2"));
  EXPECT_TRUE(any_warning_contains(trace, "'Kernel_typo' x1"));
}

TEST(KinetoReader, EveryEventIsKeptIgnoredOrSkipped) {
  const KinetoTrace trace = parse_ok(wrap(
      step(1, "0", "50") + "," + api("cudaLaunchKernel", "1", "1", 1) + "," + kernel("3", "1", 1) + "," +
      R"({"ph": "X", "cat": "cpu_op", "name": "aten::add", "ts": 1, "dur": 1},
         {"ph": "X", "cat": "weird", "name": "a", "ts": 1, "dur": 1},
         {"ph": "X", "cat": "kernel", "name": "bad", "ts": 1},
         {"ph": "X", "cat": "cuda_runtime", "name": "cudaGetDevice", "ts": 1, "dur": 1, "args": {"correlation": 3}})"));
  const auto& s = trace.stats;
  EXPECT_EQ(s.events, 7u);
  EXPECT_EQ(s.kept, 4u);     // the step, the launch, the kernel, cudaGetDevice (an API call)
  EXPECT_EQ(s.ignored, 1u);  // the cpu_op
  EXPECT_EQ(s.unknown_category, 1u);
  EXPECT_EQ(s.invalid, 1u);
  EXPECT_EQ(s.kept + s.ignored + s.unknown_category + s.invalid, s.events);
}

// ---- what makes a trace unusable: one clear line --------------------------------------------------

TEST(KinetoReader, InvalidJsonIsAnInvalidTraceInOneLine) {
  const Error error = parse_error(R"({"traceEvents": [{"ph": "X", "cat": "kernel",, }]})");
  EXPECT_EQ(error.code, ExitCode::invalid_trace);
  EXPECT_TRUE(contains(error.message, "'t.json' is not valid JSON")) << error.message;
  EXPECT_TRUE(contains(error.message, "expected a string (an object key), found ',' at byte 45")) << error.message;
  EXPECT_TRUE(one_line(error.message)) << error.message;
}

TEST(KinetoReader, TruncatedJsonIsAnInvalidTrace) {
  const std::string full = wrap(api("cudaLaunchKernel", "1", "1", 1) + "," + kernel("3", "1", 1));
  for (const std::size_t keep : {full.size() / 2, full.size() - 1, std::size_t{20}}) {
    const Error error = parse_error(full.substr(0, keep));
    EXPECT_EQ(error.code, ExitCode::invalid_trace);
    EXPECT_TRUE(contains(error.message, "truncated?")) << error.message;
    EXPECT_TRUE(one_line(error.message));
  }
  EXPECT_FALSE(contains(parse_error(full + "x").message, "truncated?"));
}

TEST(KinetoReader, JsonThatIsNotATraceIsAnInvalidTrace) {
  for (const std::string text : {R"({"a": 1})", "42", R"({"traceEvents": 5})", "[]x"}) {
    const Error error = parse_error(text);
    EXPECT_EQ(error.code, ExitCode::invalid_trace) << text;
    EXPECT_TRUE(one_line(error.message)) << error.message;
  }
  EXPECT_TRUE(contains(parse_error(R"({"a": 1})").message, "no 'traceEvents' array"));
}

TEST(KinetoReader, TraceWithoutGpuWorkIsReadAndItsWindowIsTheRecording) {
  // No device events and no ProfilerStep: one window over the recording, marked as such; the analysis
  // then says "no device work" (docs/metrics.md, "Verdict").
  const KinetoTrace trace = parse_ok(wrap(R"({"ph": "X", "cat": "cpu_op", "name": "aten::add", "ts": 1, "dur": 4},
         {"ph": "X", "cat": "cuda_runtime", "name": "cudaGetDevice", "ts": 2, "dur": 1, "tid": 3})"));
  EXPECT_TRUE(trace.timeline.ops.empty());
  EXPECT_TRUE(trace.timeline.whole_recording_window);
  ASSERT_EQ(trace.timeline.iterations.size(), 1u);
  // Over CUDA activity: the API call is not activity of the device; the recording spans [1, 5) us.
  EXPECT_EQ(trace.timeline.iterations[0].start_ns, 1000);
  EXPECT_EQ(trace.timeline.iterations[0].end_ns, 5000);
  ASSERT_EQ(trace.timeline.api_calls.size(), 1u);
  EXPECT_EQ(trace.timeline.api_calls[0].thread_id, 3);
  EXPECT_EQ(trace.device_index, -1);
}

TEST(KinetoReader, StepsMarkIterationsAndNoStepsMarkTheWholeRecording) {
  const KinetoTrace stepped = parse_ok(wrap(step(1, "0", "50") + "," + api("cudaLaunchKernel", "1", "1", 1) + "," +
                                            kernel("3", "1", 1)));
  EXPECT_FALSE(stepped.timeline.whole_recording_window);
  const KinetoTrace whole = parse_ok(wrap(api("cudaLaunchKernel", "1", "1", 1) + "," + kernel("3", "1", 1)));
  EXPECT_TRUE(whole.timeline.whole_recording_window);
}

// ---- files ------------------------------------------------------------------------------------

TEST(KinetoReaderFiles, PlainAndGzipFilesGiveTheSameRecords) {
  const std::string text = wrap(api("cudaLaunchKernel", "1.5", "1", 1) + "," + kernel("3.001", "1", 1));
  const std::string plain = temp_path("plain.json");
  const std::string gz = temp_path("trace.json.gz");
  write_text(plain, text);
  write_gzip(gz, text);
  auto a = read_kineto_trace(plain);
  auto b = read_kineto_trace(gz);
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_FALSE(a->stats.compressed);
  EXPECT_TRUE(b->stats.compressed);
  EXPECT_EQ(a->stats.json_bytes, text.size());
  EXPECT_EQ(b->stats.json_bytes, text.size());
  ASSERT_EQ(b->timeline.ops.size(), 1u);
  EXPECT_EQ(b->timeline.ops[0].start_ns, 3001);
  EXPECT_EQ(a->timeline.ops[0].start_ns, b->timeline.ops[0].start_ns);
}

TEST(KinetoReaderFiles, GzipDetectedByMagicBytesNotByName) {
  const std::string text = wrap(kernel("3", "1", 1));
  const std::string gz_named_json = temp_path("really-gzip.json");
  const std::string json_named_gz = temp_path("really-plain.json.gz");
  write_gzip(gz_named_json, text);
  write_text(json_named_gz, text);
  auto a = read_kineto_trace(gz_named_json);
  auto b = read_kineto_trace(json_named_gz);
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_TRUE(a->stats.compressed);
  EXPECT_FALSE(b->stats.compressed);
}

TEST(KinetoReaderFiles, LargeGzipTraceStreamsAcrossManyBuffers) {
  // Several MB of JSON: crosses the reader's input and output buffers many times.
  std::string events;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    if (i > 0) events += ",";
    const std::string start = std::to_string(i * 10) + ".123";
    events += api("cudaLaunchKernel", std::to_string(i * 10), "1", i + 1) + "," + kernel(start, "2.5", i + 1, 7, "kernel_" + std::to_string(i)) +
              R"(,{"ph": "X", "cat": "cpu_op", "name": "padding padding padding padding", "ts": 1, "dur": 1, "args": {"Input Dims": [[1, 2, 3], [4, 5, 6]]}})";
  }
  const std::string gz = temp_path("large.json.gz");
  write_gzip(gz, wrap(events));
  auto trace = read_kineto_trace(gz);
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  ASSERT_EQ(trace->timeline.ops.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(trace->timeline.launches.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(trace->timeline.ops[12345].start_ns, 123450123);
  EXPECT_EQ(trace->timeline.ops[12345].name, "kernel_12345");
  EXPECT_EQ(trace->timeline.counters.ops_without_launch, 0u);
  EXPECT_GT(trace->stats.json_bytes, 3'000'000u);
}

TEST(KinetoReaderFiles, MissingFileIsFileNotFound) {
  auto trace = read_kineto_trace("/nonexistent/trace.json.gz");
  ASSERT_FALSE(trace.ok());
  EXPECT_EQ(trace.error().code, ExitCode::file_not_found);
  EXPECT_TRUE(contains(trace.error().message, "/nonexistent/trace.json.gz"));
  EXPECT_TRUE(one_line(trace.error().message));
}

TEST(KinetoReaderFiles, TruncatedGzipIsAnInvalidTraceNamingTheCause) {
  std::string events;
  for (int i = 0; i < 2000; ++i) events += (i ? "," : "") + kernel(std::to_string(i), "1", i);
  const std::string whole = temp_path("whole.json.gz");
  write_gzip(whole, wrap(events));
  std::ifstream in(whole, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const std::size_t keep : {bytes.size() - 4, bytes.size() / 2, std::size_t{10}}) {
    const std::string cut = temp_path("cut.json.gz");
    write_text(cut, bytes.substr(0, keep));
    auto trace = read_kineto_trace(cut);
    ASSERT_FALSE(trace.ok()) << keep;
    EXPECT_EQ(trace.error().code, ExitCode::invalid_trace);
    EXPECT_TRUE(contains(trace.error().message, "truncated")) << trace.error().message;
    EXPECT_TRUE(one_line(trace.error().message));
  }
}

TEST(KinetoReaderFiles, CorruptGzipIsAnInvalidTrace) {
  std::string events;
  for (int i = 0; i < 500; ++i) events += (i ? "," : "") + kernel(std::to_string(i), "1", i);
  const std::string path = temp_path("corrupt.json.gz");
  write_gzip(path, wrap(events));
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekp(40);
  file.write("\xff\x00\xff\x00\xff\x00\xff\x00", 8);
  file.close();
  auto trace = read_kineto_trace(path);
  ASSERT_FALSE(trace.ok());
  EXPECT_EQ(trace.error().code, ExitCode::invalid_trace);
  EXPECT_TRUE(contains(trace.error().message, "gzip")) << trace.error().message;
  EXPECT_TRUE(one_line(trace.error().message));
}

TEST(KinetoReaderFiles, EmptyFileIsAnInvalidTrace) {
  const std::string path = temp_path("empty.json");
  write_text(path, "");
  auto trace = read_kineto_trace(path);
  ASSERT_FALSE(trace.ok());
  EXPECT_EQ(trace.error().code, ExitCode::invalid_trace);
  EXPECT_TRUE(contains(trace.error().message, "is empty")) << trace.error().message;
}

TEST(KinetoReaderFiles, DirectoryIsNotATraceFile) {
  auto trace = read_kineto_trace(std::filesystem::temp_directory_path().string());
  ASSERT_FALSE(trace.ok());
  EXPECT_EQ(trace.error().code, ExitCode::file_not_found);
}

}  // namespace
}  // namespace ohprof

// ---- MTIA and an older PyTorch's categories (docs/analyze.md, "What is read") ------------------

namespace ohprof {
namespace {

TEST(KinetoReaderMtia, DeviceEventsAndRuntimeCallsAreReadByName) {
  EXPECT_EQ(mtia_device_event("pe_exe"), MtiaDeviceEvent::kernel);
  EXPECT_EQ(mtia_device_event("remote"), MtiaDeviceEvent::kernel);
  EXPECT_EQ(mtia_device_event("merge"), MtiaDeviceEvent::kernel);
  EXPECT_EQ(mtia_device_event("aten::mul.out-dtype_Float"), MtiaDeviceEvent::kernel);
  EXPECT_EQ(mtia_device_event("dma_request"), MtiaDeviceEvent::copy);
  EXPECT_EQ(mtia_device_event("event_record"), MtiaDeviceEvent::marker);
  EXPECT_EQ(mtia_device_event("event_wait"), MtiaDeviceEvent::marker);
  EXPECT_EQ(mtia_runtime_call("runFunction - job_prep_and_submit_for_execution"), MtiaRuntimeCall::kernel_launch);
  EXPECT_EQ(mtia_runtime_call("enqueueCommand memcpyHtoDAsync"), MtiaRuntimeCall::copy_launch);
  EXPECT_EQ(mtia_runtime_call("synchronizeStream"), MtiaRuntimeCall::sync);
  EXPECT_EQ(mtia_runtime_call("synchronize"), MtiaRuntimeCall::sync);
  EXPECT_EQ(mtia_runtime_call("enqueueCommand waitOnEvent"), MtiaRuntimeCall::api);
  EXPECT_EQ(mtia_runtime_call("recordEvent"), MtiaRuntimeCall::api);
  EXPECT_EQ(mtia_runtime_call("gif_merge"), MtiaRuntimeCall::stage);
  EXPECT_EQ(mtia_runtime_call("predictor_executor::run gif_thread_id:1573"), MtiaRuntimeCall::stage);
}

// A hand-written MTIA trace in the shape of mtia_inference.json.gz: a copy linked to its launch only by
// the ac2g flow that finishes on it, a kernel by its own args.correlation, a marker, a kernel named by
// its operator (as in HTA's mtia_rank_0.json.gz), a copy without a stream (skipped, said).
TEST(KinetoReaderMtia, ATraceIsReadAsAnAcceleratorsOpsLinkedByCorrelationOrFlow) {
  const std::string events = R"(
    {"ph": "X", "cat": "mtia_runtime", "name": "enqueueCommand memcpyHtoDAsync", "pid": 865, "tid": 5, "ts": 10, "dur": 1,
     "args": {"correlation": 700, "device": 17, "stream_id": 101}},
    {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 700, "pid": 865, "tid": 5, "ts": 10},
    {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 700, "pid": 17, "tid": 3600, "ts": 20.5, "bp": "e"},
    {"ph": "X", "cat": "mtia_ccp_events", "name": "dma_request", "pid": 17, "tid": 3600, "ts": 20.5, "dur": 4,
     "args": {"stream": 101, "direction": "HOST_TO_DEVICE", "size": 4096}},
    {"ph": "X", "cat": "mtia_runtime", "name": "runFunction - job_prep_and_submit_for_execution", "pid": 865, "tid": 5,
     "ts": 12, "dur": 3, "args": {"correlation": 701, "device": 17, "stream_id": 101}},
    {"ph": "X", "cat": "mtia_ccp_events", "name": "remote", "pid": 17, "tid": 3601, "ts": 30, "dur": 50,
     "args": {"correlation": 701, "stream": 101}},
    {"ph": "X", "cat": "mtia_ccp_events", "name": "event_wait", "pid": 17, "tid": 3602, "ts": 25, "dur": 60,
     "args": {"stream": 102, "wait_on_stream": 101}},
    {"ph": "X", "cat": "mtia_ccp_events", "name": "aten::mul.out-dtype_Float", "pid": 17, "tid": 3603, "ts": 90, "dur": 1,
     "args": {"stream": 103}},
    {"ph": "X", "cat": "mtia_ccp_events", "name": "dma_request", "pid": 17, "tid": 801, "ts": 91, "dur": 1,
     "args": {"direction": "DEVICE_TO_HOST", "size": 16}},
    {"ph": "X", "cat": "mtia_runtime", "name": "synchronizeStream", "pid": 865, "tid": 5, "ts": 16, "dur": 70,
     "args": {"correlation": 702, "device": 17, "stream_id": 101}},
    {"ph": "X", "cat": "mtia_runtime", "name": "recordEvent", "pid": 865, "tid": 5, "ts": 15, "dur": 0.5,
     "args": {"correlation": 703, "device": 17, "stream_id": "101"}},
    {"ph": "X", "cat": "mtia_runtime", "name": "gif_merge", "pid": 865, "tid": 6, "ts": 9, "dur": 90,
     "args": {"correlation": 1000000002}})";
  const std::string json = R"({"schemaVersion": 1, "deviceProperties": [{"id": 17, "name": "ARTEMIS"}], "traceEvents": [)" +
                           events + "]}";
  const KinetoTrace trace = parse_ok(json);
  const Timeline& t = trace.timeline;
  EXPECT_TRUE(trace.accelerator_ops);
  EXPECT_EQ(trace.device_index, 17);
  EXPECT_EQ(trace.device_name, "ARTEMIS");
  ASSERT_EQ(t.ops.size(), 3u);
  EXPECT_EQ(t.ops[0].kind, DeviceOpKind::memcpy);
  EXPECT_EQ(t.ops[0].correlation, 700u);  // from the flow
  EXPECT_EQ(t.ops[0].bytes, 4096u);
  EXPECT_EQ(t.ops[0].device, 17);
  EXPECT_EQ(t.ops[0].start_ns, 20'500);
  EXPECT_EQ(t.ops[1].kind, DeviceOpKind::kernel);
  EXPECT_EQ(t.ops[1].correlation, 701u);
  EXPECT_EQ(t.ops[2].kind, DeviceOpKind::kernel);
  EXPECT_EQ(t.ops[2].name, "aten::mul.out-dtype_Float");
  EXPECT_EQ(t.counters.ops_without_launch, 1u);
  EXPECT_TRUE(any_warning_contains(trace, "missing 'args.stream'"));
  ASSERT_EQ(t.launches.size(), 2u);
  EXPECT_EQ(t.launches[0].kind, LaunchKind::memcpy);
  EXPECT_FALSE(t.launches[0].synchronous);
  EXPECT_EQ(t.launches[1].kind, LaunchKind::kernel);
  ASSERT_EQ(t.syncs.size(), 1u);
  EXPECT_EQ(t.syncs[0].name, "synchronizeStream");
  ASSERT_EQ(t.api_calls.size(), 1u);
  EXPECT_EQ(t.api_calls[0].name, "recordEvent");
  // Every MTIA device event is read: none is unread; the marker and the stage are ignored.
  EXPECT_TRUE(t.unread_device_events.empty());
  EXPECT_EQ(trace.stats.kept, 7u);
  EXPECT_EQ(trace.stats.ignored, 4u);  // the 2 flow events, the marker, the stage
  EXPECT_EQ(trace.stats.invalid, 1u);  // the copy without a stream
}

TEST(KinetoReaderMtia, AnOpNoFlowFinishesOnHasNoLaunchAndIsSaidSo) {
  const KinetoTrace trace = parse_ok(wrap(R"(
    {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 9, "pid": 17, "tid": 1, "ts": 20.001},
    {"ph": "X", "cat": "mtia_ccp_events", "name": "pe_exe", "pid": 17, "tid": 1, "ts": 20, "dur": 4, "args": {"stream": 1}})"));
  ASSERT_EQ(trace.timeline.ops.size(), 1u);
  EXPECT_EQ(trace.timeline.ops[0].correlation, 0u);
  EXPECT_EQ(trace.timeline.counters.ops_without_launch, 1u);
  EXPECT_TRUE(any_warning_contains(trace, "1 of 1 device operations have no launch call"));
}

// An older PyTorch (1.8-1.10) wrote Kernel, Memcpy, Memset, Runtime and Operator: the same trace with
// today's names reads to the same timeline.
TEST(KinetoReaderOlderCategories, ReadLikeTodaysNames) {
  const std::string today =
      api("cudaLaunchKernel", "1", "2", 1) + "," + kernel("5", "10", 1) + "," + api("cudaMemcpyAsync", "3", "1", 2) +
      R"(, {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": 7, "ts": 16, "dur": 2,
            "args": {"device": 0, "stream": 7, "correlation": 2, "bytes": 64}},
          {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 11, "ts": 0.5, "dur": 4},
          {"ph": "X", "cat": "cuda_runtime", "name": "cudaDeviceSynchronize", "pid": 10, "tid": 11, "ts": 4, "dur": 15})";
  std::string older = today;
  for (const auto& [from, to] : std::map<std::string, std::string>{{R"("cat": "cuda_runtime")", R"("cat": "Runtime")"},
                                                                  {R"("cat": "kernel")", R"("cat": "Kernel")"},
                                                                  {R"("cat": "gpu_memcpy")", R"("cat": "Memcpy")"},
                                                                  {R"("cat": "cpu_op")", R"("cat": "Operator")"}}) {
    for (auto at = older.find(from); at != std::string::npos; at = older.find(from, at + to.size())) {
      older.replace(at, from.size(), to);
    }
  }
  ASSERT_NE(older, today);
  const KinetoTrace a = parse_ok(wrap(today));
  const KinetoTrace b = parse_ok(wrap(older));
  ASSERT_EQ(a.timeline.ops.size(), 2u);
  ASSERT_EQ(b.timeline.ops.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(a.timeline.ops[i].kind, b.timeline.ops[i].kind);
    EXPECT_EQ(a.timeline.ops[i].start_ns, b.timeline.ops[i].start_ns);
    EXPECT_EQ(a.timeline.ops[i].correlation, b.timeline.ops[i].correlation);
  }
  EXPECT_EQ(b.timeline.launches.size(), 2u);
  EXPECT_EQ(b.timeline.syncs.size(), 1u);
  EXPECT_TRUE(b.timeline.unread_device_events.empty());
  EXPECT_EQ(a.stats.kept, b.stats.kept);
  EXPECT_EQ(a.stats.ignored, b.stats.ignored);
  EXPECT_FALSE(b.accelerator_ops);
}

}  // namespace
}  // namespace ohprof

namespace ohprof {
namespace {

// Intel XPU (docs/analyze.md, "XPU traces"): kernels under `kernel`, the runtime under xpu_runtime.
TEST(KinetoReaderXpu, UnifiedRuntimeEnqueuesAreLaunchesAndItsWaitsAreSyncs) {
  EXPECT_EQ(launch_kind_of_api("urEnqueueKernelLaunch"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("urEnqueueKernelLaunchWithArgsExp"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("piEnqueueKernelLaunch"), LaunchKind::kernel);
  EXPECT_EQ(launch_kind_of_api("urEnqueueUSMMemcpy"), LaunchKind::memcpy);
  EXPECT_EQ(launch_kind_of_api("piextUSMEnqueueMemcpy2D"), LaunchKind::memcpy);
  EXPECT_EQ(launch_kind_of_api("urEnqueueUSMFill"), LaunchKind::memset);
  EXPECT_EQ(launch_kind_of_api("piextUSMEnqueueMemset"), LaunchKind::memset);
  EXPECT_FALSE(launch_kind_of_api("urUSMDeviceAlloc").has_value());
  EXPECT_TRUE(is_sync_api("urQueueFinish"));
  EXPECT_TRUE(is_sync_api("urEventWait"));
  EXPECT_TRUE(is_sync_api("piEventsWait"));

  const KinetoTrace trace = parse_ok(wrap(
      api("urEnqueueKernelLaunch", "1", "2", 1, "xpu_runtime") + "," + kernel("5", "10", 1) + "," +
      api("urEnqueueUSMMemcpy", "3", "1", 2, "xpu_runtime") +
      R"(, {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy M2D", "pid": 0, "tid": 7, "ts": 16, "dur": 2,
            "args": {"device": 0, "stream": 7, "correlation": 2, "bytes": 64}},
          {"ph": "X", "cat": "xpu_runtime", "name": "urQueueFinish", "pid": 10, "tid": 11, "ts": 4, "dur": 15},
          {"ph": "X", "cat": "xpu_runtime", "name": "urUSMDeviceAlloc", "pid": 10, "tid": 11, "ts": 0, "dur": 1})"));
  const Timeline& t = trace.timeline;
  ASSERT_EQ(t.ops.size(), 2u);
  ASSERT_EQ(t.launches.size(), 2u);
  EXPECT_EQ(t.launches[0].kind, LaunchKind::kernel);
  EXPECT_EQ(t.launches[1].kind, LaunchKind::memcpy);
  EXPECT_FALSE(t.launches[1].synchronous);  // an enqueue, "Async" in its name or not
  ASSERT_EQ(t.syncs.size(), 1u);
  ASSERT_EQ(t.api_calls.size(), 1u);
  EXPECT_EQ(t.counters.ops_without_launch, 0u);
}

// The device a trace names (docs/analyze.md, "The device"): whose launch calls and whose device events.
TEST(KinetoReaderDevice, TheRuntimeThatLaunchedNamesTheDeviceWhereTheOpsDoNot) {
  // XPU: its kernels are under `kernel` like CUDA's; its launches under xpu_runtime say whose
  const KinetoTrace xpu = parse_ok(wrap(api("urEnqueueKernelLaunch", "1", "2", 1, "xpu_runtime") + "," + kernel("5", "10", 1)));
  EXPECT_TRUE(xpu.runtimes.xpu);
  EXPECT_FALSE(xpu.runtimes.cuda);
  EXPECT_EQ(trace_device_kind(xpu), DeviceKind::xpu);
  // the same kernel launched by CUDA's runtime (or HIP's, under the same category): cuda
  const KinetoTrace cuda = parse_ok(wrap(api("cudaLaunchKernel", "1", "2", 1) + "," + kernel("5", "10", 1)));
  EXPECT_TRUE(cuda.runtimes.cuda);
  EXPECT_EQ(trace_device_kind(cuda), DeviceKind::cuda);
  const KinetoTrace hip = parse_ok(wrap(api("hipLaunchKernel", "1", "2", 1) + "," + kernel("5", "10", 1)));
  EXPECT_EQ(trace_device_kind(hip), DeviceKind::cuda);
  // launch calls whose ops were lost: the launching runtime still says the device
  EXPECT_EQ(trace_device_kind(parse_ok(wrap(api("urEnqueueKernelLaunch", "1", "2", 1, "xpu_runtime")))), DeviceKind::xpu);
  EXPECT_EQ(trace_device_kind(parse_ok(wrap(api("cudaLaunchKernel", "1", "2", 1)))), DeviceKind::cuda);
  const KinetoTrace mtia = parse_ok(wrap(
      R"({"ph": "X", "cat": "mtia_runtime", "name": "runFunction - job_prep", "pid": 10, "tid": 11, "ts": 1, "dur": 2,
          "args": {"correlation": 1}})"));
  ASSERT_EQ(mtia.timeline.launches.size(), 1u);
  EXPECT_TRUE(mtia.runtimes.mtia);
  EXPECT_EQ(trace_device_kind(mtia), DeviceKind::accelerator);
  // an XPU allocation is no device work: with nothing else, the CPU alone
  const KinetoTrace host_only = parse_ok(wrap(
      R"({"ph": "X", "cat": "xpu_runtime", "name": "urUSMDeviceAlloc", "pid": 10, "tid": 11, "ts": 0, "dur": 1})"));
  EXPECT_TRUE(host_only.runtimes.xpu);
  EXPECT_EQ(trace_device_kind(host_only), DeviceKind::cpu);
  // XPU kernels whose launches were all lost, beside the runtime's sync: still the XPU's
  const KinetoTrace launches_lost = parse_ok(wrap(
      kernel("5", "10", 1) +
      R"(, {"ph": "X", "cat": "xpu_runtime", "name": "urQueueFinish", "pid": 10, "tid": 11, "ts": 4, "dur": 15})"));
  EXPECT_TRUE(launches_lost.timeline.launches.empty());
  EXPECT_EQ(trace_device_kind(launches_lost), DeviceKind::xpu);
  ASSERT_EQ(launches_lost.warnings.size(), 1u);
  EXPECT_NE(launches_lost.warnings[0].message.find("no xpu_runtime launch"), std::string::npos);
  // an XPU kernel whose launch is not in the trace: the warning names the XPU runtime
  const KinetoTrace lost = parse_ok(wrap(api("urEnqueueKernelLaunch", "1", "2", 1, "xpu_runtime") + "," +
                                         kernel("5", "10", 1) + "," + kernel("20", "5", 9)));
  ASSERT_EQ(lost.warnings.size(), 1u);
  EXPECT_NE(lost.warnings[0].message.find("(no xpu_runtime launch with their args.correlation)"), std::string::npos)
      << lost.warnings[0].message;
}

// ---- the window and the general parser agree (JsonReading) -------------------------------------

TEST(KinetoReader, AnEventWithoutANameHasNoneNotThePreviousEventsName) {
  const std::string events =
      R"({"ph": "X", "cat": "kernel", "name": "first", "pid": 0, "tid": 7, "ts": 1, "dur": 1, "args": {"device": 0, "stream": 7}},)"
      R"({"ph": "X", "cat": "kernel", "pid": 0, "tid": 7, "ts": 5, "dur": 1, "args": {"device": 0, "stream": 7}})";
  for (JsonReading reading : {JsonReading::window, JsonReading::general}) {
    auto trace = parse_kineto_trace_text(wrap(events), "t", reading);
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    ASSERT_EQ(trace->timeline.ops.size(), 2U);
    EXPECT_EQ(trace->timeline.ops[0].name, "first");
    EXPECT_EQ(trace->timeline.ops[1].name, "");
  }
}

TEST(KinetoReader, TheWindowReadsRealTracesAsTheGeneralParserDoes) {
  const char* env = std::getenv("OHPROF_TRACES_DIR");
  const std::filesystem::path dir(env != nullptr && *env != '\0' ? env : OHPROF_TRACES_DIR);
  std::size_t traces = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().string().find(".json") == std::string::npos) continue;
    const std::string path = entry.path().string();
    const std::string window = fingerprint(read_kineto_trace(path, JsonReading::window));
    const std::string general = fingerprint(read_kineto_trace(path, JsonReading::general));
    EXPECT_EQ(window, general) << path;
    EXPECT_EQ(window.rfind("error", 0), std::string::npos) << path;
    ++traces;
  }
  EXPECT_GE(traces, 10U);
}

// The text read from a LendingChunks of `chunk` bytes, as parse_kineto_trace_text reads it from one piece.
Result<KinetoTrace> read_lent(const std::string& text, std::size_t chunk, JsonReading reading,
                              std::size_t* lends = nullptr) {
  LendingChunks lent(text, chunk);
  Result<KinetoTrace> read = parse_kineto_trace(lent, "t", reading);
  if (read.ok()) read->stats.json_bytes = read->stats.file_bytes = text.size();  // as parse_kineto_trace_text sets them
  if (lends != nullptr) *lends = lent.lends;
  return read;
}

// The parser reads a lending stream buffer's chunks in place, putting together only what spans two of
// them: any chunk size gives the trace read from one piece of memory, through the window or not.
TEST(KinetoReader, ChunksReadInPlaceGiveTheSameTraceAsOnePieceOfMemory) {
  const char* env = std::getenv("OHPROF_TRACES_DIR");
  const std::filesystem::path dir(env != nullptr && *env != '\0' ? env : OHPROF_TRACES_DIR);
  for (const char* file : {"nccl_data.json.gz", "triton_example.json.gz", "mtia_training.json.gz"}) {
    const std::string text = gunzip((dir / file).string());
    ASSERT_FALSE(text.empty()) << file;
    const std::string expected = fingerprint(parse_kineto_trace_text(text, "t", JsonReading::window));
    ASSERT_EQ(expected.rfind("error", 0), std::string::npos) << file;
    for (std::size_t chunk : {std::size_t{4093}, std::size_t{16 * 1024}, std::size_t{40000}, std::size_t{300000}}) {
      for (JsonReading reading : {JsonReading::window, JsonReading::general}) {
        std::size_t lends = 0;
        EXPECT_EQ(fingerprint(read_lent(text, chunk, reading, &lends)), expected) << file << ", chunk " << chunk;
        EXPECT_GT(lends, text.size() / chunk) << "the parser read the chunks in place";
      }
    }
  }
}

// Events of every shape the reader meets (escapes, fractions, strings where numbers belong, nested args,
// metadata, flows, MTIA), then the same text with bytes changed at random: each reading gives the same
// trace or the same error as the other.
TEST(KinetoReader, TheWindowAgreesWithTheGeneralParserOnDamagedTraces) {
  const std::string text = R"json({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "GPU \"0\""}],
  "distributedInfo": {"rank": 1, "world_size": 2, "backend": "nccl"},
  "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "tid": 2, "ts": 100, "dur": 900},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 110.5, "dur": 5,
   "args": {"External id": 3, "cbid": 211, "correlation": 41}},
  {"ph": "X", "cat": "kernel", "name": "void gemm<\u0041>(float*)", "pid": 0, "tid": "stream 7", "ts": 120.125,
   "dur": 30.5, "args": {"queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 41,
   "registers per thread": 32, "grid": [1, 1, 1], "est. achieved occupancy %": 0}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 2, "ts": 105, "dur": 20,
   "args": {"Input Dims": [[2, 3], [3, 4]], "Input type": ["float", "float"], "Call stack": "a.py(1): f\nb.py(2): g"}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 160,
   "dur": 4, "args": {"device": 0, "stream": 7, "correlation": 42, "bytes": 4096, "memory bandwidth (GB/s)": 1.2e1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 2, "ts": 150, "dur": 3,
   "args": {"correlation": 42}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": 1, "tid": 2, "ts": 170, "dur": 20,
   "args": {"correlation": 43, "stream": 7}},
  {"ph": "s", "id": 41, "pid": 1, "tid": 2, "ts": 110, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 41, "pid": 0, "tid": 7, "ts": 120, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "GPU 0"}},
  {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 2, "ts": 130, "s": "t",
   "args": {"Total Reserved": 2097152, "Bytes": -512, "Addr": 140000000000000, "Device Id": -1}},
  {"ph": "X", "cat": "mtia_ccp_events", "name": "pe_exe", "pid": 5, "tid": 1, "ts": 200, "dur": 10},
  {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 300, "dur": 1, "args": {"device": 0, "stream": 7,
   "correlation": 18446744073709551615, "graph id": 3}},
  {"ph": "X", "cat": "Kernel", "name": "old", "pid": 0, "tid": 7, "ts": 1.5e2, "dur": null, "args": {"device": true, "stream": 7}},
  {"ph": "X", "cat": "weird_category", "name": "w", "pid": 9, "tid": 9, "ts": 10, "dur": 1},
  {}, 5, [1]
  ], "traceName": "t"})json";
  ASSERT_EQ(fingerprint(parse_kineto_trace_text(text, "t", JsonReading::window)),
            fingerprint(parse_kineto_trace_text(text, "t", JsonReading::general)));
  ASSERT_EQ(fingerprint(parse_kineto_trace_text(text, "t")).rfind("error", 0), std::string::npos);

  std::mt19937 rng(3);
  constexpr std::string_view kBytes = "0123456789-.eE\"\\{}[],: \nxtfn";
  std::uniform_int_distribution<std::size_t> pick(0, kBytes.size() - 1);
  std::uniform_int_distribution<std::size_t> at(0, text.size() - 1);
  std::size_t read_ok = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string damaged = text;
    const int changes = 1 + round % 3;
    for (int c = 0; c < changes; ++c) {
      const std::size_t where = std::min(at(rng), damaged.size() - 1);
      switch (round % 3) {
        case 0: damaged[where] = kBytes[pick(rng)]; break;
        case 1: damaged.erase(where, 1); break;
        default: damaged.insert(where, 1, kBytes[pick(rng)]); break;
      }
    }
    const std::string window = fingerprint(parse_kineto_trace_text(damaged, "t", JsonReading::window));
    ASSERT_EQ(window, fingerprint(parse_kineto_trace_text(damaged, "t", JsonReading::general))) << damaged;
    // Read in place, in chunks of 1 to 97 bytes: the same.
    ASSERT_EQ(window, fingerprint(read_lent(damaged, 1 + round % 97, JsonReading::window))) << damaged;
    if (window.rfind("error", 0) == std::string::npos) ++read_ok;
  }
  // Both outcomes were compared many times.
  EXPECT_GT(read_ok, 300U);
  EXPECT_LT(read_ok, 2700U);
}

}  // namespace
}  // namespace ohprof
