#pragma once
// Numbers for the real Kineto traces in test/data/traces, computed independently of ohprof by
// test/tools/trace_reference.py (Python standard library only, written from docs/metrics.md and
// docs/analyze.md; it shares no code with ohprof). The CTest trace_reference_matches_pinned_numbers
// re-runs the script and fails when this file no longer holds its output. To regenerate:
//   test/tools/trace_reference.py --cpp test/data/traces/*.json.gz
// and paste the output into kExpected. Exact integers only: shares are compared as quotients of the
// pinned integers. Used by trace_validation_test.cpp (the trace reader + analysis) and
// cupti_replay_test.cpp (the CUDA traces replayed as CUPTI records through the CUPTI collector).
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ohprof/analysis/breakdown.hpp"
#include "ohprof/trace/kineto_reader.hpp"

namespace ohprof::trace_reference {

// What the reader keeps, per (device, stream), over the whole trace.
struct StreamCounts {
  std::int32_t device;
  std::int64_t stream;
  std::size_t kernels, memcpys, memsets;
  std::size_t launches;        // distinct launch calls linked to ops on this stream
  std::size_t without_launch;  // ops on this stream whose correlation matches no launch call
  std::int64_t busy_ns;        // union of the stream's op intervals over the whole trace
};

// DeviceSplit, field by field (docs/metrics.md, "Device timeline").
struct SplitExpect {
  std::int64_t busy, idle, host_bound, device_wait, queue_ns, queue_max;
  std::size_t ops, own_ops;
  std::int64_t own_busy, carried_out;
  std::int64_t communication;  // the part of busy with a communication op (a kernel named nccl...) running
};

// HostStates (docs/metrics.md, "Host states"), in their order of precedence. A trace has no harness
// syncs: harness is 0 (pinned all the same).
struct HostStatesExpect {
  std::int64_t blocking, launch, other_api, harness, framework;
};

// The host side of one window (docs/metrics.md, "Host side"); the queue delays as count, clipped, sum.
struct HostSideExpect {
  std::int64_t launch_api, launch_exposed, launch_hidden, blocking;
  std::size_t blocking_calls;
  std::int64_t other_api;
  std::size_t launches, graph_launches, gpu_ops;
  std::size_t queue_delays, queue_delays_clipped;
  std::int64_t queue_delay_sum;  // sum of queue_delays_ns (after clipping)
};

struct StreamWindow {
  std::int32_t device;
  std::int64_t stream;
  SplitExpect split;
  std::int64_t waited;
};

struct WindowExpect {
  std::int64_t index, start_ns, end_ns;
  SplitExpect gpu;
  HostStatesExpect host_states;
  std::int64_t device_queue_max;  // the most ops pending on one device at any instant of the window
  HostSideExpect host;
  std::vector<StreamWindow> streams;
  // with each op without a launch call pending from its earliest launch (= gpu.host_bound where nothing moves)
  std::int64_t host_bound_least;
};

// DeviceSplitTotals, field by field.
struct SplitTotalsExpect {
  std::int64_t busy, host_bound, device_wait, queue_ns, queue_max, own_busy, carried_out, communication;
};

struct StreamTotalsExpect {
  std::int32_t device;
  std::int64_t stream;
  SplitTotalsExpect totals;
  std::int64_t waited;
};

// BreakdownTotals (dispatch_ns is 0 on a GPU timeline) and the per-stream totals of the summary.
struct TotalsExpect {
  std::size_t iterations;
  std::int64_t wall;
  SplitTotalsExpect gpu;
  HostStatesExpect host_states;
  std::int64_t launch_api, launch_exposed, launch_hidden, blocking;
  std::size_t blocking_calls;
  std::int64_t other_api;
  std::int64_t device_queue_max;          // the largest per-window device_queue_max
  std::size_t full_queue_iterations;      // windows whose device_queue_max >= kFullLaunchQueue
  std::vector<StreamTotalsExpect> streams;
};

// PathVerdict without its shares (those are quotients of the totals above; communication_share is
// totals.gpu.communication / totals.gpu.busy).
struct VerdictExpect {
  Verdict verdict;
  VerdictReason reason;
  TimeShare first, second;
  std::optional<HostState> host_state;
  std::optional<StreamKey> waited_stream;
  std::size_t full_queue_iterations;
  std::int64_t queue_max;  // totals.device_queue_max
  bool whole_recording_window;
  std::int64_t queue_delay_median_x2;  // twice the median of all queue delays (an integer)
  bool host_headroom_negligible;       // 100 W < 105 (W - host_bound): "host changes will not help"
  std::size_t ops_queue_unknown;       // timed ops without a launch call, not launched before the recording
  std::int64_t host_bound_least;       // host-bound with those pending from their earliest launch (= host-bound: exact)
};

// AnalysisCounters the traces exercise.
struct CountersExpect {
  std::size_t ops_without_launch, ops_outside_iterations, launches_outside_iterations, duplicate_launch_correlations;
};

struct TraceExpect {
  std::string file;
  std::size_t ops, launches, syncs, api_calls;
  bool whole_recording_window;
  CountersExpect counters;
  std::vector<StreamCounts> streams;
  std::vector<WindowExpect> windows;
  TotalsExpect totals;
  VerdictExpect verdict;
};

// clang-format off
inline const std::vector<TraceExpect> kExpected = {
    // benchmark_result_493459_1694039959_trace.json.gz (generated by test/tools/trace_reference.py --cpp)
    {"benchmark_result_493459_1694039959_trace.json.gz", 98, 100, 21, 210, true,
     {0, 0, 0, 0},
     {
         {0, 7, 73, 16, 2, 91, 0, 48745000},
         {0, 20, 6, 0, 1, 7, 0, 1071000},
     },
     {
         {0, 1694039994071256000, 1694040010535645000, {49758000, 16414631000, 16414480000, 151000, 60080000, 6, 98, 98, 49758000, 0, 0}, {1540000, 1013000, 13302453000, 0, 3109474000}, 6,
          {4220873000, 4220273000, 600000, 40619000, 28, 9084233000, 100, 0, 98, 98, 18, 10264000},
          {{0, 7, {48745000, 16415644000, 16415219000, 425000, 58669000, 6, 91, 91, 48745000, 0, 0}, 143000}, {0, 20, {1071000, 16463318000, 16463288000, 30000, 1411000, 2, 7, 7, 1071000, 0, 0}, 9000}}, 16414480000},
     },
     {1, 16464389000, {49758000, 16414480000, 151000, 60080000, 6, 49758000, 0, 0}, {1540000, 1013000, 13302453000, 0, 3109474000}, 4220873000, 4220273000, 600000, 40619000, 28, 9084233000, 6, 0,
      {{0, 7, {48745000, 16415219000, 425000, 58669000, 6, 48745000, 0, 0}, 143000}, {0, 20, {1071000, 16463288000, 30000, 1411000, 2, 1071000, 0, 0}, 9000}}},
     {Verdict::unknown, VerdictReason::startup_without_steps, TimeShare::host_bound, TimeShare::busy, HostState::other_api, StreamKey{0, 7}, 0, 6, true, 7000, false, 0, 16414480000}},
    // cpu_only.json.gz (generated by test/tools/trace_reference.py --cpp)
    {"cpu_only.json.gz", 0, 0, 0, 0, false,
     {0, 0, 0, 0},
     {
     },
     {
         {551, 1212075529876817, 1212075739985979, {0, 210109162, 210109162, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 210109162}, 0,
          {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
          {}, 210109162},
     },
     {1, 210109162, {0, 210109162, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 210109162}, 0, 0, 0, 0, 0, 0, 0, 0,
      {}},
     {Verdict::unknown, VerdictReason::no_device_work, TimeShare::host_bound, TimeShare::busy, HostState::framework, std::nullopt, 0, 0, false, 0, false, 0, 210109162}},
    // cupti_profiler_range.json.gz (generated by test/tools/trace_reference.py --cpp)
    {"cupti_profiler_range.json.gz", 0, 104, 21, 1737, true,
     {0, 0, 0, 0},
     {
     },
     {
         {0, 1679055453968002000, 1679055463390465000, {0, 9422463000, 9422463000, 0, 0, 0, 0, 0, 0, 0, 0}, {616000, 57175000, 8135779000, 0, 1228893000}, 0,
          {5220471000, 5220471000, 0, 616000, 22, 2972483000, 104, 0, 0, 0, 0, 0},
          {}, 9422463000},
     },
     {1, 9422463000, {0, 9422463000, 0, 0, 0, 0, 0, 0}, {616000, 57175000, 8135779000, 0, 1228893000}, 5220471000, 5220471000, 0, 616000, 22, 2972483000, 0, 0,
      {}},
     {Verdict::unknown, VerdictReason::unread_device_events, TimeShare::host_bound, TimeShare::busy, HostState::other_api, std::nullopt, 0, 0, true, 0, false, 0, 9422463000}},
    // event_sync.json.gz (generated by test/tools/trace_reference.py --cpp)
    {"event_sync.json.gz", 5, 5, 3, 4, false,
     {0, 0, 0, 0},
     {
         {0, 7, 4, 1, 0, 5, 0, 51000},
     },
     {
         {100, 1707417525509335000, 1707417525512489000, {51000, 3103000, 3098000, 5000, 56000, 1, 5, 5, 51000, 0, 0}, {49000, 66000, 10000, 0, 2973000}, 1,
          {67000, 66000, 1000, 77000, 4, 13000, 5, 0, 5, 5, 2, 5000},
          {{0, 7, {51000, 3103000, 3098000, 5000, 56000, 1, 5, 5, 51000, 0, 0}, 5000}}, 3098000},
     },
     {1, 3154000, {51000, 3098000, 5000, 56000, 1, 51000, 0, 0}, {49000, 66000, 10000, 0, 2973000}, 67000, 66000, 1000, 77000, 4, 13000, 1, 0,
      {{0, 7, {51000, 3098000, 5000, 56000, 1, 51000, 0, 0}, 5000}}},
     {Verdict::host_bound, VerdictReason::dominant_share, TimeShare::host_bound, TimeShare::busy, HostState::framework, StreamKey{0, 7}, 0, 1, false, 2000, false, 0, 3098000}},
    // event_sync_multi_stream.json.gz (generated by test/tools/trace_reference.py --cpp)
    {"event_sync_multi_stream.json.gz", 6, 6, 1, 32, true,
     {0, 0, 0, 0},
     {
         {0, 20, 1, 0, 1, 2, 0, 124000},
         {0, 24, 1, 0, 1, 2, 0, 124000},
         {0, 28, 1, 0, 1, 2, 0, 124000},
     },
     {
         {0, 1712867402348643000, 1712867402368186000, {372000, 19171000, 19153000, 18000, 390000, 1, 6, 6, 372000, 0, 0}, {13000, 95000, 431000, 0, 18614000}, 1,
          {97000, 95000, 2000, 20000, 1, 453000, 6, 0, 6, 6, 1, 18000},
          {{0, 20, {124000, 19419000, 19413000, 6000, 130000, 1, 2, 2, 124000, 0, 0}, 6000}, {0, 24, {124000, 19419000, 19414000, 5000, 129000, 1, 2, 2, 124000, 0, 0}, 5000}, {0, 28, {124000, 19419000, 19412000, 7000, 131000, 1, 2, 2, 124000, 0, 0}, 7000}}, 19153000},
     },
     {1, 19543000, {372000, 19153000, 18000, 390000, 1, 372000, 0, 0}, {13000, 95000, 431000, 0, 18614000}, 97000, 95000, 2000, 20000, 1, 453000, 1, 0,
      {{0, 20, {124000, 19413000, 6000, 130000, 1, 124000, 0, 0}, 6000}, {0, 24, {124000, 19414000, 5000, 129000, 1, 124000, 0, 0}, 5000}, {0, 28, {124000, 19412000, 7000, 131000, 1, 124000, 0, 0}, 7000}}},
     {Verdict::host_bound, VerdictReason::dominant_share, TimeShare::host_bound, TimeShare::busy, HostState::framework, StreamKey{0, 28}, 0, 1, true, 6000, false, 0, 19153000}},
    // mtia_inference.json.gz (generated by test/tools/trace_reference.py --cpp)
    {"mtia_inference.json.gz", 974, 185, 226, 261, true,
     {244, 0, 0, 0},
     {
         {17, 101, 9, 45, 0, 16, 6, 20163153},
         {17, 102, 18, 90, 0, 32, 12, 36933792},
         {17, 103, 6, 30, 0, 6, 18, 12956179},
         {17, 104, 15, 70, 0, 20, 25, 29056952},
         {17, 105, 2, 35, 0, 6, 9, 15056993},
         {17, 106, 5, 69, 0, 13, 14, 36808273},
         {17, 107, 4, 52, 0, 6, 28, 30044032},
         {17, 108, 9, 117, 0, 18, 42, 66892872},
         {17, 109, 7, 91, 0, 18, 14, 51987887},
         {17, 110, 6, 78, 0, 15, 14, 43495307},
         {17, 111, 9, 113, 0, 21, 24, 65013627},
         {17, 112, 7, 87, 0, 12, 38, 51047246},
     },
     {
         {0, 701805075001682, 701805525181189, {421661824, 28517683, 26379320, 2138363, 7334060914, 65, 974, 974, 421661824, 0, 0}, {7718402, 3455, 133383, 0, 18524080}, 65,
          {537622, 3455, 534167, 314512639, 226, 832003, 185, 0, 974, 183, 0, 1363150992},
          {{17, 101, {20163153, 430016354, 404796494, 25219860, 78129916, 6, 54, 54, 20163153, 0, 0}, 235849}, {17, 102, {36933792, 413245715, 329681962, 83563753, 337821986, 13, 108, 108, 36933792, 0, 0}, 680625}, {17, 103, {12956179, 437223328, 427789010, 9434318, 34875984, 6, 36, 36, 12956179, 0, 0}, 133178}, {17, 104, {29056952, 421122555, 369566709, 51555846, 116725393, 7, 85, 85, 29056952, 0, 0}, 400899}, {17, 105, {15056993, 435122514, 425982347, 9140167, 271913907, 14, 37, 37, 15056993, 0, 0}, 157306}, {17, 106, {36808273, 413371234, 359363701, 54007533, 935402358, 14, 74, 74, 36808273, 0, 0}, 574926}, {17, 107, {30044032, 420135475, 408987719, 11147756, 304334206, 14, 56, 56, 30044032, 0, 0}, 199937}, {17, 108, {66892872, 383286635, 336620057, 46666578, 1064717463, 14, 126, 126, 66892872, 0, 0}, 486198}, {17, 109, {51987887, 398191620, 344625271, 53566349, 1113161261, 14, 98, 98, 51987887, 0, 0}, 629552}, {17, 110, {43495307, 406684200, 363161697, 43522503, 864324517, 14, 84, 84, 43495307, 0, 0}, 562094}, {17, 111, {65013627, 385165880, 325091389, 60074491, 1311286087, 14, 122, 122, 65013627, 0, 0}, 795584}, {17, 112, {51047246, 399132261, 354610061, 44522200, 901367836, 14, 94, 94, 51047246, 0, 0}, 481719}}, 25750200},
     },
     {1, 450179507, {421661824, 26379320, 2138363, 7334060914, 65, 421661824, 0, 0}, {7718402, 3455, 133383, 0, 18524080}, 537622, 3455, 534167, 314512639, 226, 832003, 65, 0,
      {{17, 101, {20163153, 404796494, 25219860, 78129916, 6, 20163153, 0, 0}, 235849}, {17, 102, {36933792, 329681962, 83563753, 337821986, 13, 36933792, 0, 0}, 680625}, {17, 103, {12956179, 427789010, 9434318, 34875984, 6, 12956179, 0, 0}, 133178}, {17, 104, {29056952, 369566709, 51555846, 116725393, 7, 29056952, 0, 0}, 400899}, {17, 105, {15056993, 425982347, 9140167, 271913907, 14, 15056993, 0, 0}, 157306}, {17, 106, {36808273, 359363701, 54007533, 935402358, 14, 36808273, 0, 0}, 574926}, {17, 107, {30044032, 408987719, 11147756, 304334206, 14, 30044032, 0, 0}, 199937}, {17, 108, {66892872, 336620057, 46666578, 1064717463, 14, 66892872, 0, 0}, 486198}, {17, 109, {51987887, 344625271, 53566349, 1113161261, 14, 51987887, 0, 0}, 629552}, {17, 110, {43495307, 363161697, 43522503, 864324517, 14, 43495307, 0, 0}, 562094}, {17, 111, {65013627, 325091389, 60074491, 1311286087, 14, 65013627, 0, 0}, 795584}, {17, 112, {51047246, 354610061, 44522200, 901367836, 14, 51047246, 0, 0}, 481719}}},
     {Verdict::compute_bound, VerdictReason::dominant_share, TimeShare::busy, TimeShare::host_bound, HostState::framework, StreamKey{17, 111}, 0, 65, true, 12910712, false, 244, 25750200}},
    // mtia_training.json.gz (generated by test/tools/trace_reference.py --cpp)
    {"mtia_training.json.gz", 25677, 3453, 0, 0, false,
     {22224, 0, 0, 0},
     {
         {9, 1, 3450, 22179, 0, 3450, 22179, 7696081312},
         {9, 102, 3, 45, 0, 3, 45, 4716032},
     },
     {
         {1, 3605054884891872, 3605068221207677, {7700797344, 5635518461, 5635460216, 58245, 7732210493, 2, 25677, 25677, 7700797344, 0, 0}, {0, 0, 1055178266, 0, 4580281950}, 2,
          {8374363193, 1055178266, 7319184927, 0, 0, 0, 3453, 0, 25677, 3453, 3442, 58245},
          {{9, 1, {7696081312, 5640234493, 5640176248, 58245, 7727466949, 2, 25629, 25629, 7696081312, 0, 0}, 58245}, {9, 102, {4716032, 13331599773, 13331599773, 0, 4743544, 2, 48, 48, 4716032, 0, 0}, 0}}, 8244069},
     },
     {1, 13336315805, {7700797344, 5635460216, 58245, 7732210493, 2, 7700797344, 0, 0}, {0, 0, 1055178266, 0, 4580281950}, 8374363193, 1055178266, 7319184927, 0, 0, 0, 2, 0,
      {{9, 1, {7696081312, 5640176248, 58245, 7727466949, 2, 7696081312, 0, 0}, 58245}, {9, 102, {4716032, 13331599773, 0, 4743544, 2, 4716032, 0, 0}, 0}}},
     {Verdict::compute_bound, VerdictReason::dominant_share, TimeShare::busy, TimeShare::host_bound, HostState::framework, StreamKey{9, 1}, 0, 2, false, 0, false, 22224, 8244069}},
    // nccl_data.json.gz (generated by test/tools/trace_reference.py --cpp)
    {"nccl_data.json.gz", 3774, 3777, 25, 4938, false,
     {0, 0, 0, 0},
     {
         {0, 7, 2679, 960, 114, 3753, 0, 118309345},
         {0, 40, 21, 0, 0, 21, 0, 46876493},
     },
     {
         {4, 4458676416788066, 4458676639230257, {49438921, 173003270, 171049128, 1954142, 86437175, 12, 1258, 1258, 49438921, 0, 11989021}, {75491, 8557770, 1534987, 0, 160880880}, 12,
          {11898419, 8557770, 3340649, 78142, 10, 2057268, 1259, 0, 1258, 1258, 9, 35056160},
          {{0, 7, {39391994, 183050197, 180985466, 2064731, 73850434, 11, 1251, 1251, 39391994, 0, 0}, 1946207}, {0, 40, {11989021, 210453170, 209855450, 597720, 12586741, 1, 7, 7, 11989021, 0, 11989021}, 20831}}, 171049128},
         {5, 4458676639291351, 4458676859018256, {49728926, 169997979, 168078389, 1919590, 84661390, 11, 1258, 1258, 49728926, 0, 12300029}, {26367, 8518981, 1545378, 0, 157987663}, 11,
          {11840548, 8518981, 3321567, 26367, 8, 2092117, 1259, 0, 1258, 1258, 2, 33064524},
          {{0, 7, {39296837, 180430068, 178406677, 2023391, 71906773, 11, 1251, 1251, 39296837, 0, 0}, 1911265}, {0, 40, {12300029, 207426876, 206972288, 454588, 12754617, 1, 7, 7, 12300029, 0, 12300029}, 20325}}, 168078389},
         {6, 4458676859077781, 4458677084014024, {58332167, 166604076, 164806379, 1797697, 97279524, 12, 1258, 1258, 58332167, 0, 22587443}, {25023, 8377942, 1517304, 0, 154886110}, 12,
          {12077462, 8377942, 3699520, 25023, 8, 4489826, 1259, 0, 1258, 1258, 4, 35071567},
          {{0, 7, {39620514, 185315729, 183301036, 2014693, 74080825, 11, 1251, 1251, 39620514, 0, 0}, 1790635}, {0, 40, {22587443, 202348800, 201737544, 611256, 23198699, 1, 7, 7, 22587443, 0, 22587443}, 19577}}, 164806379},
     },
     {3, 667105339, {157500014, 503933896, 5671429, 268378089, 12, 157500014, 0, 46876493}, {126881, 25454693, 4597669, 0, 473754653}, 35816429, 25454693, 10361736, 129532, 26, 8639211, 12, 0,
      {{0, 7, {118309345, 542693179, 6102815, 219838032, 11, 118309345, 0, 0}, 5648107}, {0, 40, {46876493, 618565282, 1663564, 48540057, 1, 46876493, 0, 46876493}, 60733}}},
     {Verdict::host_bound, VerdictReason::dominant_share, TimeShare::host_bound, TimeShare::busy, HostState::framework, StreamKey{0, 7}, 0, 12, false, 3912, false, 0, 503933896}},
    // queue_full_training.json.gz (generated by test/tools/trace_reference.py --cpp)
    {"queue_full_training.json.gz", 15632, 9984, 61, 11122, false,
     {614, 0, 0, 0},
     {
         {1, 7, 9602, 4652, 882, 9492, 610, 636464000},
         {1, 14, 210, 60, 18, 288, 0, 9221000},
         {1, 15, 64, 0, 0, 60, 4, 251341000},
         {1, 16, 0, 144, 0, 144, 0, 66621000},
     },
     {
         {1009, 1661938466265087000, 1661938466365385000, {97307000, 2991000, 38000, 2953000, 87636771000, 1291, 2031, 3117, 97307000, 53913000, 35633000}, {0, 0, 0, 0, 38000}, 1291,
          {15452000, 0, 15452000, 34692000, 20, 668000, 1664, 2, 3117, 1664, 10, 70571309000},
          {{1, 7, {84829000, 15469000, 38000, 15431000, 86985293000, 1291, 1949, 3031, 84829000, 49470000, 0}, 2953000}, {1, 14, {1493000, 98805000, 64901000, 33904000, 124714000, 9, 48, 48, 1493000, 0, 0}, 418000}, {1, 15, {35633000, 64665000, 19950000, 44715000, 255431000, 5, 10, 14, 35633000, 23069000, 35633000}, 2431000}, {1, 16, {12906000, 87392000, 87128000, 264000, 271333000, 23, 24, 24, 12906000, 0, 0}, 4000}}, 38000},
         {1010, 1661938466365430000, 1661938466487579000, {117503000, 4646000, 0, 4646000, 118832743000, 1278, 2572, 2503, 74952000, 49169000, 38164000}, {0, 0, 0, 0, 0}, 1278,
          {23037000, 0, 23037000, 44431000, 20, 716000, 1664, 2, 2503, 1664, 10, 75515388000},
          {{1, 7, {104436000, 17713000, 0, 17713000, 118089228000, 1273, 2490, 2421, 55011000, 44985000, 0}, 4646000}, {1, 14, {1552000, 120597000, 76996000, 43601000, 124772000, 9, 48, 48, 1552000, 0, 0}, 560000}, {1, 15, {38164000, 83985000, 19617000, 64368000, 378874000, 6, 10, 10, 15095000, 23299000, 38164000}, 4144000}, {1, 16, {11441000, 110708000, 110574000, 134000, 239869000, 23, 24, 24, 11441000, 0, 0}, 9000}}, 0},
         {1011, 1661938466487634000, 1661938466654037000, {159833000, 6570000, 0, 6570000, 122943703000, 1277, 3490, 2503, 121982000, 342000, 62776000}, {0, 0, 0, 0, 0}, 1277,
          {19467000, 0, 19467000, 91308000, 20, 782000, 1664, 2, 2503, 1664, 10, 65921428000},
          {{1, 7, {143490000, 22913000, 0, 22913000, 121745814000, 1272, 3404, 2421, 98560000, 342000, 0}, 6570000}, {1, 14, {1571000, 164832000, 74297000, 90535000, 461751000, 9, 48, 48, 1571000, 0, 0}, 2933000}, {1, 15, {62776000, 103627000, 28073000, 75554000, 500738000, 6, 14, 10, 39477000, 0, 62776000}, 5714000}, {1, 16, {11104000, 155299000, 155143000, 156000, 235400000, 24, 24, 24, 11104000, 0, 0}, 9000}}, 0},
         {1012, 1661938466654090000, 1661938466736061000, {79510000, 2461000, 407000, 2054000, 43109180000, 840, 1748, 2503, 79221000, 38421000, 15981000}, {0, 20000, 53000, 0, 334000}, 840,
          {16520000, 20000, 16500000, 10268000, 20, 556000, 1664, 2, 2503, 1664, 10, 37391641000},
          {{1, 7, {69877000, 12094000, 2949000, 9145000, 42727029000, 833, 1670, 2421, 69588000, 34120000, 0}, 2048000}, {1, 14, {1411000, 80560000, 71046000, 9514000, 23981000, 9, 48, 48, 1411000, 0, 0}, 74000}, {1, 15, {15981000, 65990000, 35286000, 30704000, 108121000, 4, 6, 10, 15981000, 22597000, 15981000}, 896000}, {1, 16, {11744000, 70227000, 70086000, 141000, 250049000, 24, 24, 24, 11744000, 0, 0}, 6000}}, 407000},
         {1013, 1661938466736107000, 1661938466843337000, {104061000, 3169000, 0, 3169000, 92743247000, 1208, 2306, 2503, 73243000, 48177000, 37003000}, {0, 0, 0, 0, 0}, 1208,
          {16362000, 0, 16362000, 39077000, 20, 696000, 1664, 2, 2503, 1664, 10, 67812093000},
          {{1, 7, {90099000, 17131000, 0, 17131000, 92139248000, 1208, 2224, 2421, 56017000, 43934000, 0}, 3169000}, {1, 14, {1668000, 105562000, 67423000, 38139000, 137982000, 9, 48, 48, 1668000, 0, 0}, 575000}, {1, 15, {37003000, 70227000, 21320000, 48907000, 282116000, 5, 10, 10, 14406000, 22984000, 37003000}, 2648000}, {1, 16, {8923000, 98307000, 98160000, 147000, 183901000, 23, 24, 24, 8923000, 0, 0}, 62000}}, 0},
         {1014, 1661938466843382000, 1661938467009732000, {158908000, 7442000, 0, 7442000, 130698441000, 1248, 3455, 2503, 121569000, 585000, 61784000}, {0, 0, 0, 0, 0}, 1248,
          {17151000, 0, 17151000, 100976000, 20, 561000, 1664, 2, 2503, 1664, 10, 72606466000},
          {{1, 7, {142912000, 23438000, 0, 23438000, 129404637000, 1243, 3369, 2421, 99023000, 585000, 0}, 7442000}, {1, 14, {1526000, 164824000, 64748000, 100076000, 551074000, 9, 48, 48, 1526000, 0, 0}, 3549000}, {1, 15, {61784000, 104566000, 24110000, 80456000, 521618000, 6, 14, 10, 38800000, 0, 61784000}, 6868000}, {1, 16, {10503000, 155847000, 155691000, 156000, 221112000, 24, 24, 24, 10503000, 0, 0}, 0}}, 0},
     },
     {6, 744401000, {717122000, 445000, 26834000, 595964085000, 1291, 568274000, 190607000, 251341000}, {0, 20000, 53000, 0, 372000}, 107989000, 20000, 107969000, 320752000, 120, 3979000, 1291, 5,
      {{1, 7, {635643000, 2987000, 105771000, 591091249000, 1291, 463028000, 173436000, 0}, 26828000}, {1, 14, {9221000, 419411000, 315769000, 1424274000, 9, 9221000, 0, 0}, 8109000}, {1, 15, {251341000, 148356000, 344704000, 2046898000, 6, 159392000, 91949000, 251341000}, 22701000}, {1, 16, {66621000, 676782000, 998000, 1401664000, 24, 66621000, 0, 0}, 90000}}},
     {Verdict::compute_bound, VerdictReason::dominant_share, TimeShare::busy, TimeShare::device_wait, HostState::framework, StreamKey{1, 7}, 5, 1291, false, 85852000, true, 0, 445000}},
    // rocm_mi250_minitoy.json.gz (generated by test/tools/trace_reference.py --cpp)
    {"rocm_mi250_minitoy.json.gz", 16, 16, 1, 4, false,
     {0, 0, 0, 0},
     {
         {2, 0, 14, 2, 0, 16, 0, 149042},
     },
     {
         {1, 4203669603187439, 4203669612475730, {149042, 9139249, 9046930, 92319, 241361, 1, 16, 16, 149042, 0, 0}, {57611, 95452, 6545534, 0, 2348333}, 1,
          {6638561, 6638561, 0, 95772, 2, 2425, 16, 0, 16, 16, 2, 92319},
          {{2, 0, {149042, 9139249, 9046930, 92319, 241361, 1, 16, 16, 149042, 0, 0}, 92319}}, 9046930},
         {2, 4203669612512740, 4203669612561813, {0, 49073, 49073, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 49073}, 0,
          {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
          {{2, 0, {0, 49073, 49073, 0, 0, 0, 0, 0, 0, 0, 0}, 0}}, 49073},
     },
     {2, 9337364, {149042, 9096003, 92319, 241361, 1, 149042, 0, 0}, {57611, 95452, 6545534, 0, 2397406}, 6638561, 6638561, 0, 95772, 2, 2425, 1, 0,
      {{2, 0, {149042, 9096003, 92319, 241361, 1, 149042, 0, 0}, 92319}}},
     {Verdict::host_bound, VerdictReason::dominant_share, TimeShare::host_bound, TimeShare::busy, HostState::other_api, StreamKey{2, 0}, 0, 1, false, 12507, false, 0, 9096003}},
    // sampled_rank-0.json.gz (generated by test/tools/trace_reference.py --cpp)
    {"sampled_rank-0.json.gz", 1204, 1204, 0, 0, false,
     {0, 0, 0, 0},
     {
         {0, 7, 1036, 8, 8, 1052, 0, 202918000},
         {0, 23, 108, 16, 2, 126, 0, 7860000},
         {0, 25, 0, 16, 0, 16, 0, 867000},
         {0, 84, 8, 0, 0, 8, 0, 290059000},
         {0, 203, 2, 0, 0, 2, 0, 106140000},
     },
     {
         {551, 1682725898079292000, 1682725898686604000, {278680000, 328632000, 124068000, 204564000, 10182363000, 78, 602, 602, 278680000, 0, 195327000}, {69000, 922000, 0, 0, 123077000}, 78,
          {5032000, 922000, 4110000, 77000, 4, 0, 602, 0, 602, 602, 29, 9880122000},
          {{0, 7, {102607000, 504705000, 174839000, 329866000, 9501509000, 77, 526, 526, 102607000, 0, 0}, 204425000}, {0, 23, {3917000, 603395000, 603254000, 141000, 6583000, 5, 63, 63, 3917000, 0, 0}, 139000}, {0, 25, {390000, 606922000, 542889000, 64033000, 339486000, 8, 8, 8, 390000, 0, 0}, 6000}, {0, 84, {152831000, 454481000, 399010000, 55471000, 229934000, 2, 4, 4, 152831000, 0, 152831000}, 39353000}, {0, 203, {42496000, 564816000, 502461000, 62355000, 104851000, 1, 1, 1, 42496000, 0, 42496000}, 33689000}}, 124068000},
         {552, 1682725898686653000, 1682725899309581000, {268976000, 353952000, 159346000, 194606000, 10965179000, 81, 602, 602, 268976000, 0, 200872000}, {86000, 919000, 0, 0, 158341000}, 81,
          {4941000, 919000, 4022000, 1000000, 4, 0, 602, 0, 602, 602, 58, 10659576000},
          {{0, 7, {100311000, 522617000, 170037000, 352580000, 10063389000, 80, 526, 526, 100311000, 0, 0}, 187856000}, {0, 23, {3943000, 618985000, 618921000, 64000, 8322000, 4, 63, 63, 3943000, 0, 0}, 64000}, {0, 25, {477000, 622451000, 551861000, 70590000, 476097000, 8, 8, 8, 477000, 0, 0}, 23708000}, {0, 84, {137228000, 485700000, 389286000, 96414000, 303508000, 2, 4, 4, 137228000, 0, 137228000}, 79409000}, {0, 203, {63644000, 559284000, 509065000, 50219000, 113863000, 1, 1, 1, 63644000, 0, 63644000}, 826000}}, 159346000},
     },
     {2, 1230240000, {547656000, 283414000, 399170000, 21147542000, 81, 547656000, 0, 396199000}, {155000, 1841000, 0, 0, 281418000}, 9973000, 1841000, 8132000, 1077000, 8, 0, 81, 0,
      {{0, 7, {202918000, 344876000, 682446000, 19564898000, 80, 202918000, 0, 0}, 392281000}, {0, 23, {7860000, 1222175000, 205000, 14905000, 5, 7860000, 0, 0}, 203000}, {0, 25, {867000, 1094750000, 134623000, 815583000, 8, 867000, 0, 0}, 23714000}, {0, 84, {290059000, 788296000, 151885000, 533442000, 2, 290059000, 0, 290059000}, 118762000}, {0, 203, {106140000, 1011526000, 112574000, 218714000, 1, 106140000, 0, 106140000}, 34515000}}},
     {Verdict::mixed, VerdictReason::close_shares, TimeShare::busy, TimeShare::device_wait, HostState::framework, StreamKey{0, 7}, 0, 81, false, 21670000, false, 0, 283414000}},
    // sampled_rank-1.json.gz (generated by test/tools/trace_reference.py --cpp)
    {"sampled_rank-1.json.gz", 1154, 1154, 0, 0, false,
     {0, 0, 0, 0},
     {
         {1, 7, 986, 8, 8, 1002, 0, 267864000},
         {1, 23, 108, 16, 2, 126, 0, 8496000},
         {1, 25, 0, 16, 0, 16, 0, 12117000},
         {1, 84, 8, 0, 0, 8, 0, 274146000},
         {1, 203, 2, 0, 0, 2, 0, 104907000},
     },
     {
         {551, 1682725898079484000, 1682725898687388000, {272003000, 335901000, 159942000, 175959000, 10067904000, 77, 577, 577, 272003000, 0, 168027000}, {60000, 910000, 0, 0, 158972000}, 77,
          {4920000, 910000, 4010000, 68000, 4, 0, 577, 0, 577, 577, 73, 9761662000},
          {{1, 7, {133604000, 474300000, 178954000, 295346000, 9301349000, 75, 501, 501, 133604000, 0, 0}, 161206000}, {1, 23, {4261000, 603643000, 603538000, 105000, 8477000, 3, 63, 63, 4261000, 0, 0}, 103000}, {1, 25, {350000, 607554000, 539330000, 68224000, 372506000, 8, 8, 8, 350000, 0, 0}, 12854000}, {1, 84, {125283000, 482621000, 371864000, 110757000, 270764000, 2, 4, 4, 125283000, 0, 125283000}, 80875000}, {1, 203, {42744000, 565160000, 493096000, 72064000, 114808000, 1, 1, 1, 42744000, 0, 42744000}, 14243000}}, 159942000},
         {552, 1682725898687438000, 1682725899318077000, {308047000, 322592000, 154085000, 168507000, 10869884000, 92, 577, 577, 308047000, 0, 211026000}, {82000, 652000, 0, 0, 153351000}, 92,
          {4523000, 652000, 3871000, 91000, 5, 0, 577, 0, 577, 577, 125, 10508596000},
          {{1, 7, {134260000, 496379000, 177610000, 318769000, 10069154000, 91, 501, 501, 134260000, 0, 0}, 168439000}, {1, 23, {4235000, 626404000, 626336000, 68000, 7072000, 3, 63, 63, 4235000, 0, 0}, 68000}, {1, 25, {11767000, 618872000, 562298000, 56574000, 369095000, 8, 8, 8, 11767000, 0, 0}, 27672000}, {1, 84, {148863000, 481776000, 392829000, 88947000, 302989000, 2, 4, 4, 148863000, 0, 148863000}, 32333000}, {1, 203, {62163000, 568476000, 509065000, 59411000, 121574000, 1, 1, 1, 62163000, 0, 62163000}, 1281000}}, 154085000},
     },
     {2, 1238543000, {580050000, 314027000, 344466000, 20937788000, 92, 580050000, 0, 379053000}, {142000, 1562000, 0, 0, 312323000}, 9443000, 1562000, 7881000, 159000, 9, 0, 92, 0,
      {{1, 7, {267864000, 356564000, 614115000, 19370503000, 91, 267864000, 0, 0}, 329645000}, {1, 23, {8496000, 1229874000, 173000, 15549000, 3, 8496000, 0, 0}, 171000}, {1, 25, {12117000, 1101628000, 124798000, 741601000, 8, 12117000, 0, 0}, 40526000}, {1, 84, {274146000, 764693000, 199704000, 573753000, 2, 274146000, 0, 274146000}, 113208000}, {1, 203, {104907000, 1002161000, 131475000, 236382000, 1, 104907000, 0, 104907000}, 15524000}}},
     {Verdict::mixed, VerdictReason::close_shares, TimeShare::busy, TimeShare::device_wait, HostState::framework, StreamKey{1, 7}, 0, 92, false, 23772000, false, 0, 314027000}},
    // triton_example.json.gz (generated by test/tools/trace_reference.py --cpp)
    {"triton_example.json.gz", 1, 1, 1, 0, false,
     {0, 0, 0, 0},
     {
         {0, 7, 1, 0, 0, 1, 0, 1760},
     },
     {
         {1, 2413669096090100, 2413669097927433, {1760, 1835573, 1835573, 0, 1760, 1, 1, 1, 1760, 0, 0}, {16846, 46008, 0, 0, 1772719}, 1,
          {47768, 46008, 1760, 16846, 1, 0, 1, 0, 1, 1, 1, 0},
          {{0, 7, {1760, 1835573, 1835573, 0, 1760, 1, 1, 1, 1760, 0, 0}, 0}}, 1835573},
     },
     {1, 1837333, {1760, 1835573, 0, 1760, 1, 1760, 0, 0}, {16846, 46008, 0, 0, 1772719}, 47768, 46008, 1760, 16846, 1, 0, 1, 0,
      {{0, 7, {1760, 1835573, 0, 1760, 1, 1760, 0, 0}, 0}}},
     {Verdict::host_bound, VerdictReason::dominant_share, TimeShare::host_bound, TimeShare::busy, HostState::framework, std::nullopt, 0, 1, false, 0, false, 0, 1835573}},
};
// clang-format on

inline void expect_split(const DeviceSplit& got, const SplitExpect& want, const std::string& where) {
  EXPECT_EQ(got.busy_ns, want.busy) << where;
  EXPECT_EQ(got.idle_ns, want.idle) << where;
  EXPECT_EQ(got.host_bound_ns, want.host_bound) << where;
  EXPECT_EQ(got.device_wait_ns, want.device_wait) << where;
  EXPECT_EQ(got.queue_ns, want.queue_ns) << where;
  EXPECT_EQ(got.queue_max, want.queue_max) << where;
  EXPECT_EQ(got.ops, want.ops) << where;
  EXPECT_EQ(got.own_ops, want.own_ops) << where;
  EXPECT_EQ(got.own_busy_ns, want.own_busy) << where;
  EXPECT_EQ(got.carried_out_ns, want.carried_out) << where;
  EXPECT_EQ(got.communication_ns, want.communication) << where;
  EXPECT_LE(got.communication_ns, got.busy_ns) << where;
  EXPECT_EQ(got.busy_ns + got.host_bound_ns + got.device_wait_ns, got.busy_ns + got.idle_ns) << where;
}

inline void expect_host_states(const HostStates& got, const HostStatesExpect& want, const std::string& where) {
  EXPECT_EQ(got.blocking_ns, want.blocking) << where;
  EXPECT_EQ(got.launch_ns, want.launch) << where;
  EXPECT_EQ(got.other_api_ns, want.other_api) << where;
  EXPECT_EQ(got.harness_ns, want.harness) << where;
  EXPECT_EQ(got.framework_ns, want.framework) << where;
}

inline void expect_split_totals(const DeviceSplitTotals& got, const SplitTotalsExpect& want, const std::string& where) {
  EXPECT_EQ(got.busy_ns, want.busy) << where;
  EXPECT_EQ(got.host_bound_ns, want.host_bound) << where;
  EXPECT_EQ(got.device_wait_ns, want.device_wait) << where;
  EXPECT_EQ(got.queue_ns, want.queue_ns) << where;
  EXPECT_EQ(got.queue_max, want.queue_max) << where;
  EXPECT_EQ(got.own_busy_ns, want.own_busy) << where;
  EXPECT_EQ(got.carried_out_ns, want.carried_out) << where;
  EXPECT_EQ(got.communication_ns, want.communication) << where;
}

// Which parts of a window to compare: everything, or the device timeline only (a replay whose host
// calls differ from the trace's in a known way compares the host side itself).
enum class Compare { all, device_only };

inline void expect_window_matches(const IterationBreakdown& got, const WindowExpect& want, const std::string& where,
                                  Compare what = Compare::all) {
  EXPECT_EQ(got.start_ns, want.start_ns) << where;
  EXPECT_EQ(got.end_ns, want.end_ns) << where;
  EXPECT_EQ(got.wall_ns, want.end_ns - want.start_ns) << where;
  expect_split(got.gpu, want.gpu, where + " all streams");
  EXPECT_EQ(got.device_queue_max, want.device_queue_max) << where;
  ASSERT_EQ(got.streams.size(), want.streams.size()) << where;
  for (std::size_t s = 0; s < want.streams.size(); ++s) {
    const std::string at = where + " stream " + std::to_string(want.streams[s].device) + ":" +
                           std::to_string(want.streams[s].stream);
    EXPECT_EQ(got.streams[s].key.device, want.streams[s].device) << at;
    EXPECT_EQ(got.streams[s].key.stream, want.streams[s].stream) << at;
    expect_split(got.streams[s].split, want.streams[s].split, at);
    EXPECT_EQ(got.streams[s].waited_ns, want.streams[s].waited) << at;
  }
  EXPECT_EQ(got.gpu.own_ops, want.host.gpu_ops) << where;
  EXPECT_EQ(got.launches, want.host.launches) << where;
  EXPECT_EQ(got.graph_launches, want.host.graph_launches) << where;
  EXPECT_EQ(got.queue_delays_ns.size(), want.host.queue_delays) << where;
  EXPECT_EQ(got.queue_delays_clipped, want.host.queue_delays_clipped) << where;
  std::int64_t delay_sum = 0;
  for (const std::int64_t d : got.queue_delays_ns) delay_sum += d;
  EXPECT_EQ(delay_sum, want.host.queue_delay_sum) << where;
  EXPECT_FALSE(got.dispatch_ns.has_value()) << where;  // a GPU timeline
  if (what == Compare::device_only) return;
  expect_host_states(got.host_states, want.host_states, where + " host states");
  EXPECT_EQ(got.launch_api_ns, want.host.launch_api) << where;
  EXPECT_EQ(got.launch_exposed_ns, want.host.launch_exposed) << where;
  EXPECT_EQ(got.launch_hidden_ns, want.host.launch_hidden) << where;
  EXPECT_EQ(got.blocking_ns, want.host.blocking) << where;
  EXPECT_EQ(got.blocking_calls, want.host.blocking_calls) << where;
  EXPECT_EQ(got.other_api_ns, want.host.other_api) << where;
}

// The median of the launches per window, from the pinned windows (as SampleSummary's median).
inline double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

inline double share(std::int64_t part, std::int64_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

// Totals, per-stream totals and the verdict with its evidence.
inline void expect_totals_and_verdict(const PathBreakdown& split, const TraceExpect& expected, Compare what = Compare::all) {
  const std::string where = expected.file + " totals";
  const BreakdownTotals& t = split.summary.totals;
  const TotalsExpect& want = expected.totals;
  EXPECT_EQ(t.iterations, want.iterations) << where;
  EXPECT_EQ(t.wall_ns, want.wall) << where;
  expect_split_totals(t.gpu, want.gpu, where);
  EXPECT_EQ(t.device_queue_max, want.device_queue_max) << where;
  EXPECT_EQ(t.full_queue_iterations, want.full_queue_iterations) << where;
  EXPECT_EQ(t.dispatch_ns, 0) << where;
  if (what == Compare::all) {
    expect_host_states(t.host_states, want.host_states, where + " host states");
    EXPECT_EQ(t.launch_api_ns, want.launch_api) << where;
    EXPECT_EQ(t.launch_exposed_ns, want.launch_exposed) << where;
    EXPECT_EQ(t.launch_hidden_ns, want.launch_hidden) << where;
    EXPECT_EQ(t.blocking_ns, want.blocking) << where;
    EXPECT_EQ(t.blocking_calls, want.blocking_calls) << where;
    EXPECT_EQ(t.other_api_ns, want.other_api) << where;
  }
  ASSERT_EQ(split.summary.streams.size(), want.streams.size()) << where;
  for (std::size_t s = 0; s < want.streams.size(); ++s) {
    const StreamSummary& got = split.summary.streams[s];
    const std::string at = where + " stream " + std::to_string(want.streams[s].device) + ":" +
                           std::to_string(want.streams[s].stream);
    EXPECT_EQ(got.key.device, want.streams[s].device) << at;
    EXPECT_EQ(got.key.stream, want.streams[s].stream) << at;
    expect_split_totals(got.totals, want.streams[s].totals, at);
    EXPECT_EQ(got.waited_ns, want.streams[s].waited) << at;
  }

  const PathVerdict& v = split.verdict;
  const VerdictExpect& wv = expected.verdict;
  const std::string at = expected.file + " verdict";
  EXPECT_EQ(v.verdict, wv.verdict) << at << ": " << to_string(v.verdict) << " (" << to_string(v.reason) << ")";
  EXPECT_EQ(v.reason, wv.reason) << at << ": " << to_string(v.reason);
  EXPECT_EQ(v.first, wv.first) << at;
  EXPECT_EQ(v.second, wv.second) << at;
  EXPECT_EQ(v.waited_stream, wv.waited_stream) << at;
  EXPECT_EQ(v.full_queue_iterations, wv.full_queue_iterations) << at;
  EXPECT_EQ(v.queue_max, wv.queue_max) << at;
  EXPECT_EQ(v.queue_max, t.device_queue_max) << at;  // docs/metrics.md: totals.device_queue_max
  EXPECT_EQ(v.whole_recording_window, wv.whole_recording_window) << at;
  EXPECT_DOUBLE_EQ(v.busy_share, share(want.gpu.busy, want.wall)) << at;
  EXPECT_DOUBLE_EQ(v.host_bound_share, share(want.gpu.host_bound, want.wall)) << at;
  EXPECT_DOUBLE_EQ(v.device_wait_share, share(want.gpu.device_wait, want.wall)) << at;
  EXPECT_DOUBLE_EQ(v.communication_share, share(want.gpu.communication, want.gpu.busy)) << at;
  std::int64_t waited = 0;
  for (const StreamTotalsExpect& s : want.streams) {
    if (wv.waited_stream && s.device == wv.waited_stream->device && s.stream == wv.waited_stream->stream) waited = s.waited;
  }
  EXPECT_DOUBLE_EQ(v.waited_stream_share, share(waited, want.gpu.device_wait)) << at;
  EXPECT_DOUBLE_EQ(v.queue_delay_median_ns, static_cast<double>(wv.queue_delay_median_x2) / 2) << at;
  EXPECT_DOUBLE_EQ(split.summary.queue_delay_ns.median, static_cast<double>(wv.queue_delay_median_x2) / 2) << at;
  // Headroom (docs/metrics.md): W / (W - part) of the pinned totals, and the integer rule for the host's.
  EXPECT_EQ(v.host_headroom_negligible, wv.host_headroom_negligible) << at;
  const auto headroom = [&](std::int64_t part) {
    return static_cast<double>(want.wall) / static_cast<double>(want.wall - part);
  };
  if (want.wall > want.gpu.busy) EXPECT_DOUBLE_EQ(v.busy_headroom.value_or(-1), headroom(want.gpu.busy)) << at;
  if (want.wall > want.gpu.host_bound) {
    EXPECT_DOUBLE_EQ(v.host_bound_headroom.value_or(-1), headroom(want.gpu.host_bound)) << at;
  }
  // Ops without a launch call (docs/metrics.md): host-bound in [least, host_bound], device-wait up by the same.
  EXPECT_EQ(v.ops_queue_unknown, wv.ops_queue_unknown) << at;
  const std::int64_t shift = want.gpu.host_bound - wv.host_bound_least;
  if (shift > 0) {
    EXPECT_DOUBLE_EQ(v.host_bound_share_least.value_or(-1), share(wv.host_bound_least, want.wall)) << at;
    EXPECT_DOUBLE_EQ(v.device_wait_share_most.value_or(-1), share(want.gpu.device_wait + shift, want.wall)) << at;
    // each iteration's least (the page's columns draw it), window by window as the reference computes it
    ASSERT_EQ(split.iterations.size(), expected.windows.size()) << at;
    std::int64_t summed = 0;
    for (std::size_t w = 0; w < expected.windows.size(); ++w) {
      const IterationBreakdown& it = split.iterations[w];
      ASSERT_TRUE(it.host_bound_least_ns.has_value()) << at << " iteration " << it.index;
      EXPECT_EQ(*it.host_bound_least_ns, expected.windows[w].host_bound_least) << at << " iteration " << it.index;
      summed += *it.host_bound_least_ns;
    }
    EXPECT_EQ(summed, wv.host_bound_least) << at;
  } else {
    EXPECT_FALSE(v.host_bound_share_least) << at;
    EXPECT_FALSE(v.device_wait_share_most) << at;
    for (const IterationBreakdown& it : split.iterations) EXPECT_FALSE(it.host_bound_least_ns) << at;
  }
  if (want.wall > want.gpu.device_wait + std::max<std::int64_t>(shift, 0)) {  // the most device-wait can be
    EXPECT_DOUBLE_EQ(v.device_wait_headroom.value_or(-1), headroom(want.gpu.device_wait + std::max<std::int64_t>(shift, 0))) << at;
  }
  std::vector<double> launches;
  std::vector<double> graph_launches;
  for (const WindowExpect& w : expected.windows) {
    launches.push_back(static_cast<double>(w.host.launches));
    graph_launches.push_back(static_cast<double>(w.host.graph_launches));
  }
  EXPECT_DOUBLE_EQ(v.launches_per_iteration, median_of(launches)) << at;
  EXPECT_DOUBLE_EQ(v.graph_launches_per_iteration, median_of(graph_launches)) << at;
  EXPECT_FALSE(v.cpu_kernels) << at;
  if (what == Compare::device_only) return;
  EXPECT_EQ(v.host_state, wv.host_state) << at;
  const HostStatesExpect& hs = want.host_states;
  const std::int64_t state_ns = !wv.host_state                             ? 0
                                : *wv.host_state == HostState::blocking  ? hs.blocking
                                : *wv.host_state == HostState::launch    ? hs.launch
                                : *wv.host_state == HostState::other_api ? hs.other_api
                                : *wv.host_state == HostState::harness   ? hs.harness
                                                                         : hs.framework;
  EXPECT_DOUBLE_EQ(v.host_state_share, share(state_ns, want.gpu.host_bound)) << at;
  EXPECT_DOUBLE_EQ(v.blocking_share, share(want.blocking, want.wall)) << at;
}

// How the windows are numbered in the breakdown being checked.
enum class WindowNumbers { as_in_trace, from_zero };

// Every window of `split` (in order), the totals and the verdict against the reference of its trace.
inline void expect_breakdown_matches(const PathBreakdown& split, const TraceExpect& expected, WindowNumbers numbers,
                                     Compare what = Compare::all) {
  ASSERT_EQ(split.iterations.size(), expected.windows.size());
  EXPECT_EQ(split.analysis_counters.ops_without_launch, expected.counters.ops_without_launch);
  EXPECT_EQ(split.analysis_counters.ops_outside_iterations, expected.counters.ops_outside_iterations);
  EXPECT_EQ(split.analysis_counters.launches_outside_iterations, expected.counters.launches_outside_iterations);
  EXPECT_EQ(split.analysis_counters.duplicate_launch_correlations, expected.counters.duplicate_launch_correlations);
  for (std::size_t w = 0; w < expected.windows.size(); ++w) {
    const WindowExpect& want = expected.windows[w];
    const IterationBreakdown& got = split.iterations[w];
    const std::string where = expected.file + " window " + std::to_string(want.index);
    EXPECT_EQ(got.index, numbers == WindowNumbers::from_zero ? static_cast<std::int64_t>(w) : want.index) << where;
    expect_window_matches(got, want, where, what);
  }
  expect_totals_and_verdict(split, expected, what);
}

// A test name for a parameter: the file name up to its first '.', other characters than letters and
// digits as '_'.
inline std::string trace_test_name(const ::testing::TestParamInfo<TraceExpect>& info) {
  std::string name = info.param.file.substr(0, info.param.file.find('.'));
  std::replace_if(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) == 0; }, '_');
  return name;
}

// gtest prints a parameter with this (instead of its bytes).
inline void PrintTo(const TraceExpect& expect, std::ostream* os) { *os << expect.file; }

// The folder of the traces: OHPROF_TRACES_DIR from the environment, else the one CMake compiled in.
inline std::string traces_dir() {
  if (const char* env = std::getenv("OHPROF_TRACES_DIR"); env != nullptr && *env != '\0') return env;
  return OHPROF_TRACES_DIR;
}

inline std::string trace_path(const std::string& file) {
  return (std::filesystem::path(traces_dir()) / file).string();
}

// Reads a trace of that folder; a missing or unreadable file is a test failure (and an empty trace).
inline KinetoTrace read_or_fail(const std::string& file) {
  const std::string path = trace_path(file);
  if (!std::filesystem::exists(path)) {
    ADD_FAILURE() << path << " not found: put shared/ beside the clone or set OHPROF_TRACES_DIR";
    return {};
  }
  auto trace = read_kineto_trace(path);
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().message);
  return trace.ok() ? std::move(trace).value() : KinetoTrace{};
}

}  // namespace ohprof::trace_reference
