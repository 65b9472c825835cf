// compare --threads' figures (docs/metrics.md, "Concurrent callers"), each computed by hand.
#include "ohprof/analysis/concurrency.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace ohprof {
namespace {

TEST(CallsPerRound, AboutFiftyMillisecondsOfCallsWithinTheBounds) {
  EXPECT_EQ(calls_per_round(1e6), 50);         // 1 ms calls: 50 ms / 1 ms
  EXPECT_EQ(calls_per_round(3e6), 17);         // 16.67 rounded
  EXPECT_EQ(calls_per_round(40e3), 1250);
  EXPECT_EQ(calls_per_round(2e3), 5000);       // 25000, capped
  EXPECT_EQ(calls_per_round(100e6), 5);        // 0.5, raised to the least
  EXPECT_EQ(calls_per_round(0), kThreadRoundMinCalls);  // no timing pass median
}

TEST(LatencyStride, AtMostAHundredLatenciesPerThreadAndRound) {
  EXPECT_EQ(latency_stride(5), 1);
  EXPECT_EQ(latency_stride(100), 1);
  EXPECT_EQ(latency_stride(101), 2);   // calls 0, 2, ..., 100: 51 kept
  EXPECT_EQ(latency_stride(5000), 50);
  EXPECT_EQ(latency_stride(0), 1);
}

TEST(ThreadsPoint, ThroughputIsTheMedianRoundsAndLatencyQuantilesInterpolate) {
  // 2 threads x 10 calls in rounds of 10, 20 and 40 ms: 2000, 1000 and 500 calls/s.
  std::vector<std::int64_t> latency(100);
  std::iota(latency.begin(), latency.end(), 1);  // 1 .. 100 ns
  const ThreadsPoint p = threads_point(2, 10, {10'000'000, 20'000'000, 40'000'000}, latency);
  EXPECT_EQ(p.threads, 2);
  EXPECT_EQ(p.calls_per_round, 10);
  EXPECT_DOUBLE_EQ(p.calls_per_s, 1000);
  // MAD of {2000, 1000, 500} about 1000: median of {1000, 0, 500} = 500; se = sqrt(pi/2) 1.4826 MAD / sqrt(3)
  EXPECT_NEAR(p.calls_per_s_se, std::sqrt(M_PI / 2) * 1.4826 * 500 / std::sqrt(3.0), 1e-6);
  EXPECT_DOUBLE_EQ(p.p50_ns, 50.5);   // between the 50th and 51st of 100
  EXPECT_NEAR(p.p99_ns, 99.01, 1e-9);  // position 0.99 * 99 = 98.01: 99 + 0.01 * (100 - 99)
  EXPECT_EQ(p.round_ns.size(), 3u);
  EXPECT_EQ(p.latency_ns.size(), 100u);
}

TEST(ThreadsPoint, NoRoundsGiveNoThroughput) {
  const ThreadsPoint p = threads_point(4, 10, {}, {});
  EXPECT_EQ(p.calls_per_s, 0);
  EXPECT_EQ(p.p50_ns, 0);
  EXPECT_EQ(p.wait_share(), std::nullopt);
  EXPECT_EQ(p.cpus_used(), std::nullopt);
}

// The callers' time on a CPU and waiting for one, over their time: 2 threads over rounds of 10, 20 and 40 ms
// (70 ms of rounds, 140 ms of callers' time) that ran 13 + 26 + 52 = 91 ms and waited 5 + 10 + 20 = 35 ms: on
// 91 / 70 = 1.3 CPUs, waiting 35 / 140 = 25%. Without a figure for every round, or without time, none.
TEST(ThreadsPoint, CpusUsedAndTheWaitShareAreTheCallersTimesOverTheirRounds) {
  const ThreadsPoint p = threads_point(2, 10, {10'000'000, 20'000'000, 40'000'000}, {},
                                       {SchedStat{13'000'000, 5'000'000}, SchedStat{26'000'000, 10'000'000},
                                        SchedStat{52'000'000, 20'000'000}});
  EXPECT_EQ(p.on_cpu_ns, std::optional<std::int64_t>(91'000'000));
  EXPECT_EQ(p.waited_ns, std::optional<std::int64_t>(35'000'000));
  EXPECT_EQ(p.on_cpu_round_ns, (std::vector<std::int64_t>{13'000'000, 26'000'000, 52'000'000}));
  EXPECT_EQ(p.waited_round_ns, (std::vector<std::int64_t>{5'000'000, 10'000'000, 20'000'000}));
  EXPECT_DOUBLE_EQ(*p.cpus_used(), 1.3);
  EXPECT_DOUBLE_EQ(*p.wait_share(), 0.25);
  EXPECT_EQ(threads_point(2, 10, {10'000'000}, {}).wait_share(), std::nullopt);
  EXPECT_EQ(threads_point(2, 10, {}, {}, {SchedStat{5, 5}}).cpus_used(), std::nullopt);
  // a round whose read failed: no figures at all
  const ThreadsPoint failed = threads_point(2, 10, {10'000'000, 20'000'000}, {}, {SchedStat{1, 1}, std::nullopt});
  EXPECT_EQ(failed.on_cpu_ns, std::nullopt);
  EXPECT_TRUE(failed.on_cpu_round_ns.empty());
}

// The shares' spread over the rounds (the ratio estimator's standard error, docs/metrics.md): 2 callers over rounds
// of 10, 20 and 40 ms, so whole_r = 20, 40, 80 ms (mean 46.67 ms). Waiting 0.2, 1.2 and 2.1 ms: R = 3.5 / 140 =
// 2.5%, residuals -0.3, 0.2, 0.1 ms, se = sqrt(0.14 / 6) / 46.67 = 0.32733%. On a CPU 13, 26 and 52 ms, asleep
// 6.8, 12.8 and 25.9 ms: R = 45.5 / 140 = 32.5%, residuals 0.3, -0.2, -0.1 ms, the same se.
TEST(ThreadsPoint, TheWaitAndAsleepSharesHaveTheirSpreadOverTheRounds) {
  const ThreadsPoint p = threads_point(2, 10, {10'000'000, 20'000'000, 40'000'000}, {},
                                       {SchedStat{13'000'000, 200'000}, SchedStat{26'000'000, 1'200'000},
                                        SchedStat{52'000'000, 2'100'000}});
  const double se = std::sqrt(0.14 / 6) / (140.0 / 3);
  ASSERT_TRUE(wait_share_estimate(p).has_value());
  EXPECT_NEAR(wait_share_estimate(p)->value_ns, 0.025, 1e-12);
  EXPECT_NEAR(wait_share_estimate(p)->se_ns, se, 1e-12);
  EXPECT_NEAR(se, 0.0032733, 1e-7);
  EXPECT_NEAR(blocked_share_estimate(p)->value_ns, 0.325, 1e-12);
  EXPECT_NEAR(blocked_share_estimate(p)->se_ns, se, 1e-12);
  // one round, or no figures: no spread
  EXPECT_EQ(wait_share_estimate(threads_point(2, 10, {10'000'000}, {}, {SchedStat{1, 1}})), std::nullopt);
  EXPECT_EQ(blocked_share_estimate(threads_point(2, 10, {10'000'000, 20'000'000}, {})), std::nullopt);
}

ThreadsPoint point(int threads, double per_s, double se) {
  ThreadsPoint p;
  p.threads = threads;
  p.calls_per_s = per_s;
  p.calls_per_s_se = se;
  return p;
}

TEST(ScaleAgainstOne, RatioOfThroughputsWithTheGainsInterval) {
  std::vector<ThreadsPoint> points{point(1, 1000, 10), point(2, 1800, 20), point(4, 1030, 20)};
  scale_against_one(points);
  EXPECT_DOUBLE_EQ(points[0].scaling, 1);
  EXPECT_FALSE(points[0].scales);
  // gain 800 ± sqrt(10^2 + 20^2) = 22.36: interval 1 + (800 ∓ 1.96 · 22.36) / 1000
  EXPECT_DOUBLE_EQ(points[1].scaling, 1.8);
  EXPECT_NEAR(points[1].scaling_low, 1 + (800 - 1.96 * std::sqrt(500.0)) / 1000, 1e-12);
  EXPECT_NEAR(points[1].scaling_high, 1 + (800 + 1.96 * std::sqrt(500.0)) / 1000, 1e-12);
  EXPECT_TRUE(points[1].scales);
  // gain 30 ± 22.36: 1.96 · 22.36 = 43.8 > 30, within noise
  EXPECT_DOUBLE_EQ(points[2].scaling, 1.03);
  EXPECT_LT(points[2].scaling_low, 1);
  EXPECT_FALSE(points[2].scales);
}

TEST(ScaleAgainstOne, ASignificantLossDoesNotScale) {
  std::vector<ThreadsPoint> points{point(1, 1000, 1), point(2, 600, 1)};
  scale_against_one(points);
  EXPECT_DOUBLE_EQ(points[1].scaling, 0.6);
  EXPECT_LT(points[1].scaling_high, 1);
  EXPECT_FALSE(points[1].scales);
}

PathConcurrency path_with(bool top_scales, int top_threads, bool gil, std::optional<double> host_share,
                          ConcurrencyContext context) {
  PathConcurrency c;
  c.points = {point(1, 1000, 1), point(top_threads, 1000, 1)};
  c.points[1].scales = top_scales;
  c.holds_gil = gil;
  c.host_share = host_share;
  c.context = context;
  return c;
}

// Two paths' 2-caller points over the same 5 rounds, 5 calls per thread and round: a round's throughput is
// 2 * 5 * 1e9 / round_ns = 1e10 / round_ns calls/s.
// a: 1250, 1280, 1250, 1600, 1000 calls/s (median 1250, MAD 30, se 1.2533 * 1.4826 * 30 / sqrt 5 = 24.93).
// b: 800, 1250, 1000, 1024, 1024 (median 1024, MAD 24, se 19.94). Independent: 226 ± 31.93, significant.
// Per round a - b: 450, 30, 250, 576, -24 (median 250, MAD 220): the paired se 1.2533 * 1.4826 * 220 /
// sqrt 5 = 182.82 is the larger, and 226 < 1.96 * 182.82 = 358.3: within noise.
TEST(ThroughputDifference, PairedByRoundWhenThatIsTheLarger) {
  const ThreadsPoint a = threads_point(2, 5, {8'000'000, 7'812'500, 8'000'000, 6'250'000, 10'000'000}, {});
  const ThreadsPoint b = threads_point(2, 5, {12'500'000, 8'000'000, 10'000'000, 9'765'625, 9'765'625}, {});
  ASSERT_NEAR(a.calls_per_s, 1250, 1e-9);
  ASSERT_NEAR(b.calls_per_s, 1024, 1e-9);
  const double k = std::sqrt(std::acos(-1.0) / 2) * 1.4826 / std::sqrt(5.0);
  EXPECT_NEAR(std::hypot(a.calls_per_s_se, b.calls_per_s_se), std::hypot(k * 30, k * 24), 1e-9);
  const Estimate d = throughput_difference(a, b);
  EXPECT_NEAR(d.value_ns, 226, 1e-9);
  EXPECT_NEAR(d.se_ns, k * 220, 1e-9);
  EXPECT_FALSE(significant(d));
  // A round one of them has no time in (a burst without a time) is left out: rounds 0, 1, 2, 4 give
  // 450, 30, 250, -24 (median 140, deviations 310, 110, 110, 164, MAD 137: 1.2533 * 1.4826 * 137 / 2 = 127.28).
  ThreadsPoint c = b;
  c.round_ns[3] = 0;
  EXPECT_NEAR(throughput_difference(a, c).se_ns, std::sqrt(std::acos(-1.0) / 2) * 1.4826 * 137 / 2, 1e-9);
}

// Drift common to the rounds: b is 1000, 1024, 1000, 1000, 1024 (median 1000, MAD 0, se 0), so a - b is 250,
// 256, 250, 600, -24 (MAD 6, paired se 4.99) and the independent 24.93 is kept: 250 ± 24.93, significant.
// With fewer than 2 rounds in common, the independent form alone.
TEST(ThroughputDifference, TheIndependentFormWhenTheRoundsShareTheirDrift) {
  const ThreadsPoint a = threads_point(2, 5, {8'000'000, 7'812'500, 8'000'000, 6'250'000, 10'000'000}, {});
  const ThreadsPoint b = threads_point(2, 5, {10'000'000, 9'765'625, 10'000'000, 10'000'000, 9'765'625}, {});
  const double k = std::sqrt(std::acos(-1.0) / 2) * 1.4826 / std::sqrt(5.0);
  const Estimate d = throughput_difference(a, b);
  EXPECT_NEAR(d.value_ns, 250, 1e-9);
  EXPECT_NEAR(d.se_ns, k * 30, 1e-9);
  EXPECT_TRUE(significant(d));
  ThreadsPoint one_round = b;
  one_round.round_ns = {10'000'000};
  EXPECT_NEAR(throughput_difference(a, one_round).se_ns, std::hypot(a.calls_per_s_se, one_round.calls_per_s_se), 1e-9);
}

TEST(ConcurrencyLimit, TheRuleInItsOrder) {
  const ConcurrencyContext cpu2{2, 1, false};
  const ConcurrencyContext cpu16{16, 1, false};
  const ConcurrencyContext cuda{16, 8, true};
  // scales: the cores when the callers' threads fill them, else none
  EXPECT_EQ(concurrency_limit(path_with(true, 2, false, {}, cpu2)), ConcurrencyLimit::cores);
  EXPECT_EQ(concurrency_limit(path_with(true, 2, false, {}, cpu16)), ConcurrencyLimit::none);
  EXPECT_EQ(concurrency_limit(path_with(true, 2, false, {}, ConcurrencyContext{16, 8, false})), ConcurrencyLimit::cores);
  EXPECT_EQ(concurrency_limit(path_with(true, 4, false, {}, cuda)), ConcurrencyLimit::none);
  // does not scale: the GIL for a Python path whose host share is unknown or at least half
  EXPECT_EQ(concurrency_limit(path_with(false, 2, true, {}, cpu16)), ConcurrencyLimit::gil);
  EXPECT_EQ(concurrency_limit(path_with(false, 2, true, 0.5, cpu16)), ConcurrencyLimit::gil);
  EXPECT_EQ(concurrency_limit(path_with(false, 2, true, 0.2, cpu2)), ConcurrencyLimit::cores);
  EXPECT_EQ(concurrency_limit(path_with(false, 2, true, 0.2, cpu16)), ConcurrencyLimit::unknown);
  // ... the device on CUDA, the cores when full, else unknown
  EXPECT_EQ(concurrency_limit(path_with(false, 2, false, {}, cuda)), ConcurrencyLimit::device);
  EXPECT_EQ(concurrency_limit(path_with(false, 2, false, {}, cpu2)), ConcurrencyLimit::cores);
  EXPECT_EQ(concurrency_limit(path_with(false, 2, false, {}, cpu16)), ConcurrencyLimit::unknown);
  // one caller measured: nothing to say
  PathConcurrency one = path_with(true, 2, false, {}, cpu2);
  one.points.pop_back();
  EXPECT_EQ(concurrency_limit(one), ConcurrencyLimit::unknown);
  // a slow 1-caller point (caller_slowdown): the scaling measures the caller threads too, so unknown, whatever
  // rule would hold otherwise
  for (PathConcurrency slow : {path_with(true, 2, false, {}, cpu2), path_with(true, 2, false, {}, cpu16),
                               path_with(false, 2, true, {}, cpu16), path_with(false, 2, false, {}, cuda),
                               path_with(false, 2, false, {}, cpu2)}) {
    EXPECT_NE(concurrency_limit(slow), ConcurrencyLimit::unknown);
    slow.caller_slowdown = 2.4;
    EXPECT_EQ(concurrency_limit(slow), ConcurrencyLimit::unknown);
  }
  EXPECT_STREQ(to_string(ConcurrencyLimit::gil), "gil");
}

// A Python path that does not scale, whose host share is unknown: the GIL where nothing else the rules know is
// shared, unknown where the device or full cores could be the limit too (the share would tell them apart).
TEST(ConcurrencyLimit, AnUnknownShareNamesTheGilOnlyWhereNothingElseIsShared) {
  const ConcurrencyContext cpu2{2, 1, false};
  const ConcurrencyContext cpu16{16, 1, false};
  const ConcurrencyContext cpu16_8{16, 8, false};  // 2 callers x 8 intra-op threads fill 16 cores
  const ConcurrencyContext cuda{16, 8, true};
  EXPECT_EQ(concurrency_limit(path_with(false, 2, true, {}, cpu16)), ConcurrencyLimit::gil);
  EXPECT_FALSE(gil_share_missing(path_with(false, 2, true, {}, cpu16)));
  for (const ConcurrencyContext& context : {cpu2, cpu16_8, cuda}) {
    const PathConcurrency path = path_with(false, 2, true, {}, context);
    EXPECT_TRUE(gil_share_missing(path)) << context.cores;
    EXPECT_EQ(concurrency_limit(path), ConcurrencyLimit::unknown) << context.cores;
  }
  // a known share decides as before; a C++ path's share is not the GIL's; a path that scales is not limited
  EXPECT_EQ(concurrency_limit(path_with(false, 2, true, 0.6, cpu2)), ConcurrencyLimit::gil);
  EXPECT_EQ(concurrency_limit(path_with(false, 2, true, 0.6, cuda)), ConcurrencyLimit::gil);
  EXPECT_EQ(concurrency_limit(path_with(false, 2, true, 0.2, cuda)), ConcurrencyLimit::device);
  EXPECT_FALSE(gil_share_missing(path_with(false, 2, false, {}, cpu2)));
  EXPECT_EQ(concurrency_limit(path_with(false, 2, false, {}, cpu2)), ConcurrencyLimit::cores);
  EXPECT_FALSE(gil_share_missing(path_with(true, 2, true, {}, cpu2)));
  EXPECT_EQ(concurrency_limit(path_with(true, 2, true, {}, cpu2)), ConcurrencyLimit::cores);
}

// Rule 3, the callers' schedstat at the largest count: 2 callers over rounds of 10, 20 and 40 ms (70 ms of rounds,
// 140 ms of callers' time) of a path that did not scale (x0.80, 95% interval 0.70 to 0.90) on the CPU with one
// intra-op thread. On a CPU 91 ms and waiting 3.5 ms: a wait share of 3.5 / 140 = 2.5%, under 5%, and asleep
// 1 - 94.5 / 140 = 32.5%, from a tenth on: the cores had room, and the callers took turns: for a Python path, the
// GIL.
// `sched` is split over the rounds in proportion to their times (1 : 2 : 4, the remainder in the last), so that
// the shares' spread is 0 (to a few ns): the rule reads the figures' point values.
std::vector<std::optional<SchedStat>> by_round(SchedStat sched) {
  const SchedStat first{sched.on_cpu_ns / 7, sched.run_delay_ns / 7};
  const SchedStat second{2 * sched.on_cpu_ns / 7, 2 * sched.run_delay_ns / 7};
  return {first, second,
          SchedStat{sched.on_cpu_ns - first.on_cpu_ns - second.on_cpu_ns,
                    sched.run_delay_ns - first.run_delay_ns - second.run_delay_ns}};
}

PathConcurrency with_rounds(bool gil, std::optional<double> share, const std::vector<std::optional<SchedStat>>& rounds,
                            ConcurrencyContext context) {
  PathConcurrency path = path_with(false, 2, gil, share, context);
  ThreadsPoint top = threads_point(2, 10, {10'000'000, 20'000'000, 40'000'000}, {}, rounds);
  top.scaling = 0.8;
  top.scaling_low = 0.7;
  top.scaling_high = 0.9;
  path.points[1] = top;
  return path;
}

PathConcurrency with_sched(bool gil, std::optional<double> share, SchedStat sched, ConcurrencyContext context) {
  PathConcurrency path = path_with(false, 2, gil, share, context);
  ThreadsPoint top = threads_point(2, 10, {10'000'000, 20'000'000, 40'000'000}, {}, by_round(sched));
  top.scaling = 0.8;
  top.scaling_low = 0.7;
  top.scaling_high = 0.9;
  path.points[1] = top;
  return path;
}

TEST(ConcurrencyLimit, CallersTheCoresHadRoomForNameTheGilWhenTheyTookTurns) {
  const ConcurrencyContext cpu2{2, 1, false};
  const SchedStat turns{91'000'000, 3'500'000};
  PathConcurrency python = with_sched(true, {}, turns, cpu2);
  EXPECT_NEAR(*python.points[1].wait_share(), 0.025, 1e-12);
  EXPECT_NEAR(*python.points[1].blocked_share(), 0.325, 1e-12);
  EXPECT_TRUE(cores_had_room(python));
  EXPECT_FALSE(gil_share_missing(python));  // the rules before this one said "the GIL or the cores"
  EXPECT_EQ(concurrency_limit(python), ConcurrencyLimit::gil);
  // the callers' own times come before the share's proxy: a share below half, or within noise of it
  python.host_share = 0.2;
  EXPECT_EQ(concurrency_limit(python), ConcurrencyLimit::gil);
  python.host_share = 0.494;
  python.host_share_se = 0.004;
  EXPECT_FALSE(gil_share_within_noise(python));
  EXPECT_EQ(concurrency_limit(python), ConcurrencyLimit::gil);
  // asleep under a tenth (on a CPU 126 ms: 1 - 129.5 / 140 = 7.5%): the callers kept the cores about busy, so the
  // rules after it: the share unknown on full cores, the GIL or the cores
  const PathConcurrency busy = with_sched(true, {}, SchedStat{126'000'000, 3'500'000}, cpu2);
  EXPECT_NEAR(*busy.points[1].blocked_share(), 0.075, 1e-12);
  EXPECT_FALSE(cores_had_room(busy));
  EXPECT_TRUE(gil_share_missing(busy));
  EXPECT_EQ(concurrency_limit(busy), ConcurrencyLimit::unknown);
  // a C++ path whose 2 callers kept 2 cores busy without waiting (on a CPU 138 ms, waiting 1 ms): the cores (rule 6)
  EXPECT_FALSE(cores_had_room(with_sched(false, {}, SchedStat{138'000'000, 1'000'000}, cpu2)));
  EXPECT_EQ(concurrency_limit(with_sched(false, {}, SchedStat{138'000'000, 1'000'000}, cpu2)), ConcurrencyLimit::cores);
  // about a tenth asleep: on a CPU 122.4 ms, 1 - 125.9 / 140 = 10.07%, from a tenth on; 122.6 ms, 9.93%, under it
  EXPECT_TRUE(cores_had_room(with_sched(true, {}, SchedStat{122'400'000, 3'500'000}, cpu2)));
  EXPECT_FALSE(cores_had_room(with_sched(true, {}, SchedStat{122'600'000, 3'500'000}, cpu2)));
  // a C++ path (no GIL) whose callers took turns: not the cores (rule 6 would name them), unknown
  EXPECT_TRUE(cores_had_room(with_sched(false, {}, turns, cpu2)));
  EXPECT_EQ(concurrency_limit(with_sched(false, {}, turns, cpu2)), ConcurrencyLimit::unknown);
  EXPECT_EQ(concurrency_limit(path_with(false, 2, false, {}, cpu2)), ConcurrencyLimit::cores);  // without the figures
  // on 16 cores too: the share below half would have left it unknown
  EXPECT_EQ(concurrency_limit(with_sched(true, 0.2, turns, ConcurrencyContext{16, 1, false})), ConcurrencyLimit::gil);
  // waiting 7 ms, 7 / 140 = 5%: not under it, so the rules after: the share unknown, the GIL or the cores
  const PathConcurrency waited = with_sched(true, {}, SchedStat{91'000'000, 7'000'000}, cpu2);
  EXPECT_FALSE(cores_had_room(waited));
  EXPECT_TRUE(gil_share_missing(waited));
  EXPECT_EQ(concurrency_limit(waited), ConcurrencyLimit::unknown);
  // more than one intra-op thread (their workers are in neither figure), CUDA (callers sleep on the device),
  // the figures missing: rule 3 does not apply
  EXPECT_FALSE(cores_had_room(with_sched(true, {}, turns, ConcurrencyContext{2, 2, false})));
  EXPECT_FALSE(cores_had_room(with_sched(true, {}, turns, ConcurrencyContext{16, 1, true})));
  PathConcurrency unread = with_sched(true, {}, turns, cpu2);
  unread.points[1].waited_ns.reset();
  unread.points[1].waited_round_ns.clear();
  EXPECT_FALSE(cores_had_room(unread));
  EXPECT_EQ(concurrency_limit(unread), ConcurrencyLimit::unknown);  // the GIL or the cores, as before
  // rules 1 and 2 come first: a path that scales, a gain within noise, a slow 1-caller point
  PathConcurrency scales = with_sched(true, {}, turns, cpu2);
  scales.points[1].scales = true;
  EXPECT_FALSE(cores_had_room(scales));
  EXPECT_EQ(concurrency_limit(scales), ConcurrencyLimit::cores);
  PathConcurrency wide = with_sched(true, {}, turns, cpu2);
  wide.points[1].scaling_high = 1.3;
  EXPECT_FALSE(cores_had_room(wide));
  EXPECT_EQ(concurrency_limit(wide), ConcurrencyLimit::unknown);
  PathConcurrency slow = with_sched(true, {}, turns, cpu2);
  slow.caller_slowdown = 3.0;
  EXPECT_FALSE(cores_had_room(slow));
  EXPECT_EQ(concurrency_limit(slow), ConcurrencyLimit::unknown);
}

// Rule 3 reads the shares by their 95% intervals: the same figures in all, spread differently over the rounds of
// 10, 20 and 40 ms (2 callers; whole_r = 20, 40, 80 ms, mean 46.67 ms). On a CPU 13, 26, 52 ms and waiting 5.6 ms
// (4.0%): in proportion to the rounds (0.8, 1.6, 3.2 ms) the spread is 0, and the callers had room (the GIL);
// waiting 2.0, 0.4 and 3.2 ms, residuals 1.2, -1.2, 0 ms, se = sqrt(2.88 / 6) / 46.67 = 1.4846%, so the interval
// reaches 4.0 + 1.96 x 1.4846 = 6.91%, over 5%: not shown, and the rules after it speak (the GIL or the cores).
// Asleep 12% (0.8, 8.0, 8.0 ms; on a CPU 18.7, 31, 70 ms, waiting 0.5, 1, 2 ms): residuals -1.6, 3.2, -1.6 ms,
// se = sqrt(15.36 / 6) / 46.67 = 3.4286%, an interval from 12 - 6.72 = 5.28%, under a tenth: not shown either.
TEST(ConcurrencyLimit, RuleThreeNeedsItsSharesIntervalsNotTheirValuesAlone) {
  const ConcurrencyContext cpu2{2, 1, false};
  const PathConcurrency steady = with_rounds(true, {}, {SchedStat{13'000'000, 800'000}, SchedStat{26'000'000, 1'600'000},
                                                       SchedStat{52'000'000, 3'200'000}}, cpu2);
  EXPECT_NEAR(wait_share_estimate(steady.points[1])->value_ns, 0.04, 1e-12);
  EXPECT_NEAR(wait_share_estimate(steady.points[1])->se_ns, 0, 1e-12);
  EXPECT_TRUE(cores_had_room(steady));
  EXPECT_EQ(concurrency_limit(steady), ConcurrencyLimit::gil);
  const PathConcurrency spread = with_rounds(true, {}, {SchedStat{13'000'000, 2'000'000}, SchedStat{26'000'000, 400'000},
                                                       SchedStat{52'000'000, 3'200'000}}, cpu2);
  const Estimate waited = *wait_share_estimate(spread.points[1]);
  EXPECT_NEAR(waited.value_ns, 0.04, 1e-12);
  EXPECT_NEAR(waited.se_ns, std::sqrt(2.88 / 6) / (140.0 / 3), 1e-12);
  EXPECT_NEAR(interval_high(waited), 0.0691, 1e-4);
  EXPECT_FALSE(cores_had_room(spread));
  EXPECT_TRUE(gil_share_missing(spread));
  EXPECT_EQ(concurrency_limit(spread), ConcurrencyLimit::unknown);
  const PathConcurrency restless = with_rounds(true, {}, {SchedStat{18'700'000, 500'000}, SchedStat{31'000'000, 1'000'000},
                                                         SchedStat{70'000'000, 2'000'000}}, cpu2);
  const Estimate asleep = *blocked_share_estimate(restless.points[1]);
  EXPECT_NEAR(asleep.value_ns, 0.12, 1e-12);
  EXPECT_NEAR(asleep.se_ns, std::sqrt(15.36 / 6) / (140.0 / 3), 1e-12);
  EXPECT_NEAR(interval_low(asleep), 0.0528, 1e-4);
  EXPECT_FALSE(cores_had_room(restless));
  EXPECT_EQ(concurrency_limit(restless), ConcurrencyLimit::unknown);
}

// The GIL rule reads the host share with its spread: a share whose 95% interval contains 50% is not read.
TEST(ConcurrencyLimit, AHostShareWithinNoiseOfHalfIsNotRead) {
  const ConcurrencyContext cpu2{2, 1, false};
  // 0.494 +- 1.96 * 0.004 = [0.48616, 0.50184]: contains 0.5, so neither the GIL nor the cores: unknown
  PathConcurrency near = path_with(false, 2, true, 0.494, cpu2);
  near.host_share_se = 0.004;
  EXPECT_TRUE(gil_share_within_noise(near));
  EXPECT_EQ(concurrency_limit(near), ConcurrencyLimit::unknown);
  // 0.513 +- 0.00784 = [0.50516, 0.52084]: above, the GIL
  PathConcurrency above = path_with(false, 2, true, 0.513, cpu2);
  above.host_share_se = 0.004;
  EXPECT_FALSE(gil_share_within_noise(above));
  EXPECT_EQ(concurrency_limit(above), ConcurrencyLimit::gil);
  // 0.48 +- 0.00784 = [0.47216, 0.48784]: below, the rules after the GIL's (the cores, on 2 cores)
  PathConcurrency below = path_with(false, 2, true, 0.48, cpu2);
  below.host_share_se = 0.004;
  EXPECT_FALSE(gil_share_within_noise(below));
  EXPECT_EQ(concurrency_limit(below), ConcurrencyLimit::cores);
  // without a spread (an older report): the share alone, as before
  near.host_share_se.reset();
  EXPECT_FALSE(gil_share_within_noise(near));
  EXPECT_EQ(concurrency_limit(near), ConcurrencyLimit::cores);
  // not a Python path: the share is not the GIL's
  PathConcurrency cpp = path_with(false, 2, false, 0.494, cpu2);
  cpp.host_share_se = 0.004;
  EXPECT_FALSE(gil_share_within_noise(cpp));
  EXPECT_EQ(concurrency_limit(cpp), ConcurrencyLimit::cores);
  // a path that scales: the cores, whatever its share
  PathConcurrency scales = path_with(true, 2, true, 0.494, cpu2);
  scales.host_share_se = 0.004;
  EXPECT_EQ(concurrency_limit(scales), ConcurrencyLimit::cores);
}

// A gain within noise names a limit only when it is shown small: its scaling's 95% interval below x1.10.
TEST(ConcurrencyLimit, AGainWithinNoiseThatCouldBeLargeNamesNoLimit) {
  const ConcurrencyContext cpu2{2, 1, false};
  const ConcurrencyContext cuda{16, 8, true};
  // 1 caller 1000 ± 100, 2 callers 1300 ± 150: gain 300 ± 180.28, 1.96 · 180.28 = 353.3 > 300, within noise;
  // the interval 1 + (300 ± 353.3) / 1000 = [0.9467, 1.6533] reaches above 1.10
  std::vector<ThreadsPoint> wide{point(1, 1000, 100), point(2, 1300, 150)};
  scale_against_one(wide);
  ASSERT_FALSE(wide[1].scales);
  ASSERT_NEAR(wide[1].scaling_high, 1 + (300 + 1.96 * std::hypot(100.0, 150.0)) / 1000, 1e-12);
  // 2 callers 1020 ± 30: gain 20 ± 31.62, interval [0.958, 1.082]: below x1.10, so "does not scale"
  std::vector<ThreadsPoint> narrow{point(1, 1000, 10), point(2, 1020, 30)};
  scale_against_one(narrow);
  ASSERT_FALSE(narrow[1].scales);
  ASSERT_NEAR(narrow[1].scaling_high, 1 + (20 + 1.96 * std::hypot(10.0, 30.0)) / 1000, 1e-12);
  ASSERT_LT(narrow[1].scaling_high, 1.10);
  for (const bool gil : {true, false}) {
    for (const ConcurrencyContext& context : {cpu2, cuda}) {
      PathConcurrency path = path_with(false, 2, gil, 0.8, context);
      path.points = wide;
      EXPECT_TRUE(scaling_within_noise(path));
      EXPECT_EQ(concurrency_limit(path), ConcurrencyLimit::unknown) << gil << context.cores;
      // the share rules that come after it do not claim the unknown
      path.host_share = 0.5;
      path.host_share_se = 0.01;
      EXPECT_FALSE(gil_share_within_noise(path));
      path.host_share.reset();
      EXPECT_FALSE(gil_share_missing(path));
      path.points = narrow;
      path.host_share = 0.8;
      path.host_share_se.reset();
      EXPECT_FALSE(scaling_within_noise(path));
      EXPECT_EQ(concurrency_limit(path), gil ? ConcurrencyLimit::gil : context.cuda ? ConcurrencyLimit::device
                                                                                     : ConcurrencyLimit::cores);
    }
  }
  // exactly at the tolerance: shown small (the interval must reach above it)
  PathConcurrency edge = path_with(false, 2, true, 0.8, cpu2);
  edge.points[1].scaling_high = 1 + kNoGainTolerance;
  EXPECT_FALSE(scaling_within_noise(edge));
  edge.points[1].scaling_high = 1.1000001;
  EXPECT_TRUE(scaling_within_noise(edge));
  // a slow 1-caller point comes first; one point says nothing; a path that scales is not within noise
  edge.caller_slowdown = 2.5;
  EXPECT_FALSE(scaling_within_noise(edge));
  PathConcurrency one = path_with(false, 2, true, 0.8, cpu2);
  one.points = {wide[0]};
  EXPECT_FALSE(scaling_within_noise(one));
  PathConcurrency scales = path_with(false, 2, true, 0.8, cpu2);
  scales.points = wide;
  scales.points[1].scales = true;
  EXPECT_FALSE(scaling_within_noise(scales));
  EXPECT_EQ(concurrency_limit(scales), ConcurrencyLimit::cores);
}

// docs/metrics.md, "Slower on a caller thread". The timing pass {40, 50, 60, 50, 50}: median 50, MAD 0, so
// its median's standard error is 0.
TEST(OneCallerSlowdown, TheRatioWhenAtLeastTwiceAndSignificant) {
  const std::vector<std::int64_t> timing_ns{40, 50, 60, 50, 50};
  const SampleSummary timing = summarize_ns(timing_ns);
  // Latencies {100, ..., 140}: p50 120, MAD 10, se = sqrt(pi/2) * 1.4826 * 10 / sqrt(5) = 8.31; the
  // difference 70 is far beyond 1.96 * 8.31 = 16.3, and 120 / 50 = 2.4.
  const ThreadsPoint slow = threads_point(1, 5, {1000}, {100, 110, 120, 130, 140});
  ASSERT_TRUE(one_caller_slowdown(slow, timing).has_value());
  EXPECT_DOUBLE_EQ(*one_caller_slowdown(slow, timing), 2.4);
  // {60, 100, 120, 200, 400}: p50 120 again, but MAD 60 gives se 49.9 and 70 < 1.96 * 49.9 = 97.7: noise.
  EXPECT_FALSE(one_caller_slowdown(threads_point(1, 5, {1000}, {60, 100, 120, 200, 400}), timing).has_value());
  // {90, 95, 99, 100, 110}: significant, but 99 / 50 = 1.98 is under kSlowCallerRatio.
  EXPECT_FALSE(one_caller_slowdown(threads_point(1, 5, {1000}, {90, 95, 99, 100, 110}), timing).has_value());
  // Faster on the caller thread, another count, no latencies, no timing pass: none.
  EXPECT_FALSE(one_caller_slowdown(threads_point(1, 5, {1000}, {10, 11, 12, 13, 14}), timing).has_value());
  EXPECT_FALSE(one_caller_slowdown(threads_point(2, 5, {1000}, {100, 110, 120, 130, 140}), timing).has_value());
  EXPECT_FALSE(one_caller_slowdown(threads_point(1, 5, {1000}, {}), timing).has_value());
  EXPECT_FALSE(one_caller_slowdown(slow, SampleSummary{}).has_value());
}

}  // namespace
}  // namespace ohprof
