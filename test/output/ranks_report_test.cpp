// Many ranks' JSON, table and Markdown (output/ranks_report.hpp; docs/ranks.md, docs/report-schema.md
// "The ranks report"): a rank's digest read from a one-trace report made with report_to_json, the ranks
// report written and read back unchanged, and the errors of reports that are not usable.
#include "ohprof/output/ranks_report.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <functional>

#include <nlohmann/json.hpp>

#include "ohprof/analysis/ranks.hpp"
#include "ohprof/output/html_report.hpp"
#include "ohprof/output/json_report.hpp"

namespace ohprof {
namespace {

using nlohmann::json;

// A one-trace analyze report: two steps, one collective each, rank `rank` unless it is negative.
Report analyze_report(std::int64_t rank, std::int64_t wall_scale = 1) {
  Report r;
  r.kind = ReportKind::analyze;
  r.context = make_base_context({"ohprof", "analyze", "t.json"});
  r.context.device = DeviceDescription{DeviceKind::cuda, 0, "NVIDIA A100"};
  TraceSource source;
  source.path = "traces/rank" + std::to_string(rank) + ".json.gz";
  source.distributed = DistributedInfo{rank >= 0 ? std::optional<std::int64_t>(rank) : std::nullopt, 8, "nccl"};
  r.trace = source;
  PathResult p;
  p.name = "rank";
  PathBreakdown b;
  for (std::int64_t step : {4, 5}) {
    IterationBreakdown it;
    it.index = step;
    it.wall_ns = 1000 * wall_scale + step;
    it.gpu.busy_ns = 600;
    // busy + host-bound + device-wait = wall: host-bound 300 + step, device-wait 100 at scale 1; at scale 2
    // host-bound 1000 + step, device-wait 400
    it.gpu.host_bound_ns = 300 + 700 * (wall_scale - 1) + step;
    it.gpu.device_wait_ns = 100 + 300 * (wall_scale - 1);
    it.gpu.communication_ns = 200;
    b.iterations.push_back(it);
    b.collectives.push_back(CollectiveOp{step, StreamKey{0, 40}, 0, "ncclKernel_AllReduce", 10 * step, 150 + step * wall_scale});
  }
  b.verdict.verdict = Verdict::mixed;
  b.verdict.reason = VerdictReason::close_shares;
  b.verdict.busy_share = 0.6;
  b.verdict.host_bound_share = 0.3;
  b.verdict.device_wait_share = 0.1;
  p.breakdown = b;
  r.paths.push_back(p);
  r.warnings.push_back(Warning{WarningCode::ops_without_launch, "2 of 9 GPU operations have no launch call"});
  return r;
}

TEST(RankDigestFromReport, TakesTheStepsCollectivesVerdictAndRank) {
  auto d = rank_digest_from_report(report_to_json(analyze_report(3)), "r3.json", std::nullopt);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->rank, 3);
  EXPECT_EQ(d->rank_from, RankSource::distributed_info);
  EXPECT_EQ(d->world_size, 8);
  EXPECT_EQ(d->backend, "nccl");
  EXPECT_EQ(d->trace, "traces/rank3.json.gz");
  EXPECT_EQ(d->device, "NVIDIA A100");
  EXPECT_EQ(d->device_type, DeviceKind::cuda);
  ASSERT_EQ(d->steps.size(), 2u);
  EXPECT_EQ(d->steps[1], (RankStep{5, 1005, 600, 305, 100, 200}));
  ASSERT_EQ(d->collectives.size(), 2u);
  EXPECT_EQ(d->collectives[0], (CollectiveOp{4, StreamKey{0, 40}, 0, "ncclKernel_AllReduce", 40, 154}));
  EXPECT_EQ(d->verdict, Verdict::mixed);
  EXPECT_EQ(d->verdict_reason, VerdictReason::close_shares);
  EXPECT_DOUBLE_EQ(d->host_bound_share, 0.3);
  EXPECT_FALSE(d->queue_open);
  ASSERT_EQ(d->warnings.size(), 1u);
  EXPECT_EQ(d->warnings[0].code, WarningCode::ops_without_launch);
  // a verdict whose queue is open (docs/metrics.md, "Ops without a launch call") makes an open digest
  Report open = analyze_report(3);
  open.paths[0].breakdown->verdict.ops_queue_unknown = 2;
  open.paths[0].breakdown->verdict.host_bound_share_least = 0.1;
  open.paths[0].breakdown->verdict.device_wait_share_most = 0.3;
  auto o = rank_digest_from_report(report_to_json(open), "r3.json", std::nullopt);
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_TRUE(o->queue_open);
}

TEST(RankDigestFromReport, WithoutARankThePositionIsTheRankElseItIsAnError) {
  const json report = report_to_json(analyze_report(-1));
  auto by_position = rank_digest_from_report(report, "r.json", 7);
  ASSERT_TRUE(by_position.ok());
  EXPECT_EQ(by_position->rank, 7);
  EXPECT_EQ(by_position->rank_from, RankSource::position);
  auto none = rank_digest_from_report(report, "r.json", std::nullopt);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, ExitCode::usage_error);
  EXPECT_NE(none.error().message.find("'r.json' has no rank"), std::string::npos);
  EXPECT_NE(none.error().message.find("--first-position"), std::string::npos);
}

TEST(RankDigestFromReport, RefusesWhatIsNotAOneTraceAnalyzeReport) {
  Report compare = analyze_report(1);
  compare.kind = ReportKind::compare;
  json old = report_to_json(analyze_report(1));
  old["paths"][0]["split"].erase("collectives");
  json two = report_to_json(analyze_report(1));
  two["paths"].push_back(two["paths"][0]);
  for (const auto& [report, why] : {std::pair{report_to_json(compare), "its kind is not \"analyze\""},
                                    std::pair{old, "an older ohprof wrote it"}, std::pair{two, "it has 2 paths"},
                                    std::pair{json::array(), "its kind"}}) {
    auto d = rank_digest_from_report(report, "x.json", 0);
    ASSERT_FALSE(d.ok()) << why;
    EXPECT_EQ(d.error().code, ExitCode::usage_error);
    EXPECT_NE(d.error().message.find(why), std::string::npos) << d.error().message;
    EXPECT_EQ(d.error().message.find('\n'), std::string::npos);
  }
}

RanksReport two_rank_report() {
  RanksReport r;
  r.context = make_base_context({"ohprof", "analyze", "a", "b"});
  for (std::int64_t rank : {0, 1}) {
    r.ranks.push_back(*rank_digest_from_report(report_to_json(analyze_report(rank, rank + 1)), "r", std::nullopt));
  }
  r.failed.push_back(FailedTrace{"bad.json", 2, ExitCode::invalid_trace, "'bad.json' is not valid JSON"});
  r.world_size = 8;
  r.backend = "nccl";
  r.view = cross_rank_view(r.ranks);
  r.warnings = cross_rank_warnings(r.ranks, r.view);
  return r;
}

TEST(RanksReportJson, ReadsBackTheDigestsAndFailedTracesItWrote) {
  RanksReport r = two_rank_report();
  r.ranks[1].queue_open = true;  // read back too (docs/ranks.md, "The straggler")
  r.ranks[1].steps[0].host_bound_least_ns = 12;  // and a step's least host-bound time (the page's bars)
  const json j = ranks_report_to_json(r);
  EXPECT_EQ(j.at("kind"), "ranks");
  EXPECT_EQ(j.at("job").at("ranks"), 2);
  EXPECT_EQ(j.at("job").at("traces"), 3);
  EXPECT_EQ(j.at("job").at("world_size"), 8);
  EXPECT_EQ(j.at("job").at("backend"), "nccl");
  auto parts = parse_ranks_parts(json::parse(j.dump()), "ranks.json");
  ASSERT_TRUE(parts.ok()) << parts.error().message;
  EXPECT_EQ(parts->ranks, r.ranks);
  EXPECT_EQ(parts->failed, r.failed);
  EXPECT_FALSE(parts->interrupted);
}

// What the JSON's view says is the view's: rank 1's steps are twice as long (wall 2000+, host-bound 1000+).
// Step 4: active 1004 and 2004 - 4 (median 1502, excess 498); host-bound 304 and 1004 (+350 over the
// median 654), device-wait 100 and 400 (+150): host-bound, within half to twice the excess.
TEST(RanksReportJson, WritesTheViewPerStepAndPerRank) {
  const json j = ranks_report_to_json(two_rank_report());
  const json& step = j.at("steps").at(0);
  EXPECT_EQ(step.at("step"), 4);
  EXPECT_EQ(step.at("ranks").size(), 2u);
  // collectives 154 and 158: rank 1 waited 4
  EXPECT_EQ(step.at("ranks").at(1).at("collective_wait_ns"), 4);
  EXPECT_EQ(step.at("ranks").at(1).at("active_ns"), 2004 - 4);
  EXPECT_EQ(step.at("collectives_matched"), 1);
  EXPECT_EQ(step.at("straggler").at("rank"), 1);
  EXPECT_EQ(step.at("straggler").at("cause"), "host_bound");
  EXPECT_EQ(step.at("straggler").at("largest"), "host_bound");
  EXPECT_DOUBLE_EQ(step.at("straggler").at("cause_excess_ns").get<double>(), 350);
  EXPECT_DOUBLE_EQ(step.at("straggler").at("excess_ns").get<double>(), 498);
  EXPECT_EQ(j.at("per_rank").at(1).at("slowest_steps"), 2);
  EXPECT_EQ(j.at("failed").at(0).at("code"), "invalid_trace");
}

TEST(RanksReportJson, AOneTraceReportIsOnePartAndOtherKindsAreRefused) {
  auto parts = parse_ranks_parts(report_to_json(analyze_report(5)), "r5.json");
  ASSERT_TRUE(parts.ok());
  ASSERT_EQ(parts->ranks.size(), 1u);
  EXPECT_EQ(parts->ranks[0].rank, 5);
  auto sweep = parse_ranks_parts(json{{"kind", "sweep"}}, "s.json");
  ASSERT_FALSE(sweep.ok());
  EXPECT_NE(sweep.error().message.find("'s.json' is not a report ohprof merge reads (its kind is \"sweep\")"),
            std::string::npos);
  auto number = parse_ranks_parts(json{{"kind", 5}}, "n.json");
  ASSERT_FALSE(number.ok());
  EXPECT_EQ(number.error().code, ExitCode::usage_error);
  json odd = report_to_json(analyze_report(5));
  odd["interrupted"] = "x";  // read through report_from_json: a key of the wrong type is refused, by name
  auto odd_parts = parse_ranks_parts(odd, "odd.json");
  ASSERT_FALSE(odd_parts.ok());
  EXPECT_NE(odd_parts.error().message.find("'interrupted': type must be boolean, but is string"), std::string::npos)
      << odd_parts.error().message;
  json newer = ranks_report_to_json(two_rank_report());
  newer["schema_version"] = kReportSchemaVersion + 1;
  auto too_new = parse_ranks_parts(newer, "new.json");
  ASSERT_FALSE(too_new.ok());
  EXPECT_NE(too_new.error().message.find("this ohprof reads up to"), std::string::npos);
  const auto refused = [](const std::function<void(json&)>& breaking, const std::string& why) {
    json broken = ranks_report_to_json(two_rank_report());
    breaking(broken);
    auto bad = parse_ranks_parts(broken, "b.json");
    ASSERT_FALSE(bad.ok()) << why;
    EXPECT_EQ(bad.error().code, ExitCode::usage_error);
    EXPECT_NE(bad.error().message.find("'b.json' is not a usable ranks report"), std::string::npos) << why;
    EXPECT_NE(bad.error().message.find(why), std::string::npos) << bad.error().message;
  };
  refused([](json& j) { j["ranks"][0].erase("steps"); }, "steps");
  refused([](json& j) { j["ranks"][0]["collectives"][0]["ordinal"] = -1; }, "ordinal is negative");
  refused([](json& j) { j["ranks"][0]["world_size"] = -5; }, "world_size is negative");
  refused([](json& j) { j["ranks"][0]["device_type"] = "tpu"; }, "device type 'tpu'");
  refused([](json& j) { j["ranks"][0]["verdict"]["verdict"] = "new-in-v9"; }, "verdict 'new-in-v9'");
  refused([](json& j) { j["failed"][0]["code"] = "bogus"; }, "unknown exit code name 'bogus'");
}

TEST(RanksReportJson, ALaterOhprofsWarningCodeIsLeftOutAndSaid) {
  json later = ranks_report_to_json(two_rank_report());
  const std::size_t before = later["ranks"][0]["warnings"].size();
  ASSERT_GE(before, 1u);
  later["ranks"][0]["warnings"][0]["code"] = "new-in-v9";
  auto parts = parse_ranks_parts(later, "later.json");
  ASSERT_TRUE(parts.ok()) << parts.error().message;
  const std::vector<Warning>& warnings = parts->ranks[0].warnings;
  ASSERT_EQ(warnings.size(), before);  // the unknown one left out, one saying so added
  EXPECT_EQ(warnings.back().code, WarningCode::report_values_unknown);
  EXPECT_NE(warnings.back().message.find("does not know warnings 'new-in-v9'"), std::string::npos)
      << warnings.back().message;
}

TEST(RanksReportJson, AnAnalyzeReportsUnknownTextIsReadAsItsDefaultUnlessMergeUsesIt) {
  json later = report_to_json(analyze_report(5));
  later["paths"][0]["split"]["verdict"]["host_state"] = "new-in-v9";  // not used by merge
  auto parts = parse_ranks_parts(later, "later.json");
  ASSERT_TRUE(parts.ok()) << parts.error().message;
  ASSERT_FALSE(parts->ranks[0].warnings.empty());
  const Warning& said = parts->ranks[0].warnings.back();
  EXPECT_EQ(said.code, WarningCode::report_values_unknown);
  EXPECT_NE(said.message.find("does not know paths[rank].split.verdict.host_state 'new-in-v9'"), std::string::npos)
      << said.message;

  for (const char* key : {"verdict", "reason"}) {  // merge's verdict and its reason: refused
    json used_later = later;
    used_later["paths"][0]["split"]["verdict"][key] = "new-in-v9";
    auto used = parse_ranks_parts(used_later, "later.json");
    ASSERT_FALSE(used.ok()) << key;
    EXPECT_NE(used.error().message.find(fmt::format("its paths[rank].split.verdict.{} 'new-in-v9' is none this ohprof knows", key)),
              std::string::npos)
        << used.error().message;
  }
}

TEST(RanksTable, NamesTheJobEachRankAndEachStepsStraggler) {
  const std::string table = format_ranks_table(two_rank_report());
  EXPECT_NE(table.find("job: 2 ranks of a job of 8 (nccl), 3 traces, 1 failed; steps 4..5 (2 in all)"), std::string::npos)
      << table;
  EXPECT_NE(table.find("failed: 'bad.json' is not valid JSON"), std::string::npos);
  EXPECT_NE(table.find("traces/rank1.json.gz"), std::string::npos);
  EXPECT_NE(table.find("rank 1"), std::string::npos);
  EXPECT_NE(table.find("host-bound +"), std::string::npos);
  EXPECT_NE(table.find("1 matched, 0 unmatched"), std::string::npos);
  const std::string markdown = format_ranks_markdown(two_rank_report());
  EXPECT_NE(markdown.find("| step | ranks | wall min | wall max | slowest | by | cause | collectives |"), std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("**rank 1**"), std::string::npos);
  // one document (ranks_document.cpp), two renderers: the same sections in the same order
  EXPECT_NE(markdown.find("\n- failed: 'bad.json' is not valid JSON\n\n**Per rank**, over its steps\n\n| rank |"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("\n\n**Per step**\n\n| step |"), std::string::npos) << markdown;
  EXPECT_EQ(markdown.find("<svg"), std::string::npos) << "the figure is the page's alone";
  const std::string html = format_ranks_html(two_rank_report());
  const std::size_t failed = html.find("<ul class=\"ohprof-failed\">\n<li>failed: &#39;bad.json&#39; is not valid JSON</li>");
  const std::size_t per_rank = html.find("<h2>Per rank, over its steps</h2>\n<table class=\"ohprof-ranks\">");
  const std::size_t per_step = html.find("<h2>Per step</h2>\n<table class=\"ohprof-steps\">");
  const std::size_t bars = html.find("<h2>Each step, rank by rank</h2>");
  ASSERT_NE(failed, std::string::npos) << html;
  ASSERT_NE(per_rank, std::string::npos) << html;
  ASSERT_NE(per_step, std::string::npos) << html;
  ASSERT_NE(bars, std::string::npos) << html;
  EXPECT_LT(failed, per_rank);
  EXPECT_LT(per_rank, per_step);
  EXPECT_LT(per_step, bars);
  EXPECT_NE(html.find("<p class=\"note\">"), std::string::npos);
}

// A rank whose verdict says its shares cannot be read shows them unknown, not the zeros (or the rest) they hold.
TEST(RanksTable, SharesTheVerdictCannotReadAreUnknown) {
  RanksReport r = two_rank_report();
  r.ranks[0].verdict_reason = VerdictReason::unread_device_events;
  r.ranks[1].verdict_reason = VerdictReason::no_launches;
  const std::string markdown = format_ranks_markdown(r);
  // rank 0: busy, host-bound and device-wait unknown; rank 1: busy read, the other two unknown
  EXPECT_NE(markdown.find("| 0 | 2 | "), std::string::npos) << markdown;
  const std::size_t row0 = markdown.find("| 0 | 2 | ");
  const std::size_t row1 = markdown.find("| 1 | 2 | ");
  ASSERT_NE(row1, std::string::npos) << markdown;
  const std::string line0 = markdown.substr(row0, markdown.find('\n', row0) - row0);
  const std::string line1 = markdown.substr(row1, markdown.find('\n', row1) - row1);
  EXPECT_NE(line0.find(" | unknown | unknown | unknown | "), std::string::npos) << line0;
  EXPECT_NE(line1.find("% | unknown | unknown | "), std::string::npos) << line1;
  EXPECT_EQ(format_ranks_markdown(two_rank_report()).find("| unknown | unknown"), std::string::npos);
}

// The cause cell (docs/ranks.md, "The straggler") for each rule: a named part with its excess; level;
// offsetting; under half; none above. A level step's slowest rank is not in bold: it is no straggler.
TEST(RanksTable, TheCauseCellSaysWhyNoPartIsNamed) {
  RanksReport r = two_rank_report();
  StepStraggler& g = *r.view.steps[0].straggler;
  g.largest = StragglerCause::device_wait;
  g.cause_excess_ns = 13.05e6;
  const auto cause_cell = [&](StragglerCause cause) {
    g.cause = cause;
    const std::string markdown = format_ranks_markdown(r);
    const std::size_t row = markdown.find("| 4 | 2/2 | ");
    return markdown.substr(row, markdown.find('\n', row) - row);
  };
  EXPECT_NE(cause_cell(StragglerCause::device_wait).find("| **rank 1** | "), std::string::npos);
  EXPECT_NE(cause_cell(StragglerCause::device_wait).find(" | device-wait +13.05 ms | "), std::string::npos)
      << cause_cell(StragglerCause::device_wait);
  EXPECT_NE(cause_cell(StragglerCause::offsetting).find(" | none alone (device-wait +13.05 ms, over twice the excess: offset) | "),
            std::string::npos)
      << cause_cell(StragglerCause::offsetting);
  EXPECT_NE(cause_cell(StragglerCause::queue_open)
                .find(" | unknown: a rank's host-bound and device-wait are bounds (device ops without a launch call) | "),
            std::string::npos)
      << cause_cell(StragglerCause::queue_open);
  EXPECT_NE(cause_cell(StragglerCause::unknown).find(" | unknown (device-wait +13.05 ms, under half the excess) | "),
            std::string::npos)
      << cause_cell(StragglerCause::unknown);
  const std::string level = cause_cell(StragglerCause::level);
  EXPECT_NE(level.find(" | level (under 5%): no straggler | "), std::string::npos) << level;
  EXPECT_NE(level.find("| rank 1 | "), std::string::npos) << level;
  EXPECT_EQ(level.find("**rank 1**"), std::string::npos) << level;
  EXPECT_NE(format_ranks_html(r).find("(slowest)"), std::string::npos) << "step 5 still has its straggler";
  for (StepView& step : r.view.steps) step.straggler->cause = StragglerCause::level;
  EXPECT_EQ(format_ranks_html(r).find("(slowest)"), std::string::npos) << "a level step marks no rank";
  g.largest = StragglerCause::unknown;
  g.cause_excess_ns = 0;
  EXPECT_NE(cause_cell(StragglerCause::unknown).find(" | unknown | "), std::string::npos) << cause_cell(StragglerCause::unknown);
}

TEST(RanksTable, AJobWithoutRanksSaysOnlyWhatFailed) {
  RanksReport r;
  r.failed.push_back(FailedTrace{"a.json", 0, ExitCode::file_not_found, "cannot open 'a.json'"});
  const std::string table = format_ranks_table(r);
  EXPECT_EQ(table, "job: 0 ranks, 1 trace, 1 failed\n  failed: cannot open 'a.json'\n");
}

}  // namespace
}  // namespace ohprof
