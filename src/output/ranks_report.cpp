// Many ranks' JSON (docs/ranks.md; docs/report-schema.md, "The ranks report"): a rank's digest read from
// its one-trace report, and the ranks report written and read back (so `ohprof merge` can merge it).
#include "ohprof/output/ranks_report.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "ohprof/output/html_report.hpp"
#include "ohprof/output/json_report.hpp"
#include "json_read.hpp"
#include "report_forms.hpp"

namespace ohprof {
namespace {

using json = nlohmann::json;

// An optional non-negative integer (a rank, a world size): null or absent is none; a negative one is
// an error, as the trace reader makes it none.
std::optional<std::int64_t> optional_int_at(const json& j, const char* key) {
  const std::optional<std::int64_t> value = optional_integer_at(j, key);
  if (value && *value < 0) throw std::runtime_error(std::string(key) + " is negative");
  return value;
}

// A non-negative integer field (an ordinal, a size): nlohmann's get<std::size_t> would take -1 as 2^64 - 1.
std::int64_t non_negative(const json& j, const char* key) {
  const std::int64_t value = j.at(key).get<std::int64_t>();
  if (value < 0) throw std::runtime_error(std::string(key) + " is negative");
  return value;
}


json rank_step_to_json(const RankStep& s) {
  return json{{"step", s.step},
              {"wall_ns", s.wall_ns},
              {"busy_ns", s.busy_ns},
              {"host_bound_ns", s.host_bound_ns},
              {"device_wait_ns", s.device_wait_ns},
              {"communication_ns", s.communication_ns},
              {"host_bound_least_ns", s.host_bound_least_ns ? json(*s.host_bound_least_ns) : json(nullptr)}};
}

RankStep rank_step_from_json(const json& j) {
  RankStep s{j.at("step").get<std::int64_t>(),          j.at("wall_ns").get<std::int64_t>(),
             j.at("busy_ns").get<std::int64_t>(),       j.at("host_bound_ns").get<std::int64_t>(),
             j.at("device_wait_ns").get<std::int64_t>(), j.at("communication_ns").get<std::int64_t>(), std::nullopt};
  // absent (or null) before 2026-12-07
  if (const auto least = j.find("host_bound_least_ns"); least != j.end() && !least->is_null()) {
    s.host_bound_least_ns = least->get<std::int64_t>();
  }
  return s;
}

json digest_to_json(const RankDigest& d) {
  json steps = json::array();
  for (const RankStep& s : d.steps) steps.push_back(rank_step_to_json(s));
  json collectives = json::array();
  for (const CollectiveOp& op : d.collectives) collectives.push_back(collective_to_json(op));
  return json{{"rank", d.rank},
              {"rank_from", to_string(d.rank_from)},
              {"world_size", optional_integer(d.world_size)},
              {"backend", d.backend},
              {"trace", d.trace},
              {"device_type", to_string(d.device_type)},
              {"device", d.device},
              {"verdict",
               {{"verdict", to_string(d.verdict)},
                {"reason", to_string(d.verdict_reason)},
                {"busy_share", d.busy_share},
                {"host_bound_share", d.host_bound_share},
                {"device_wait_share", d.device_wait_share},
                {"queue_open", d.queue_open}}},
              {"steps", steps},
              {"collectives", collectives},
              {"warnings", warnings_to_json(d.warnings)}};
}

RankDigest digest_from_json(const json& j) {
  RankDigest d;
  d.rank = j.at("rank").get<std::int64_t>();
  const auto from = parse_rank_source(j.at("rank_from").get<std::string>());
  if (!from) throw std::runtime_error("rank_from is neither \"distributedInfo\" nor \"position\"");
  d.rank_from = *from;
  d.world_size = optional_int_at(j, "world_size");
  d.backend = j.at("backend").get<std::string>();
  d.trace = j.at("trace").get<std::string>();
  d.device_type = enum_from_json<DeviceKind>(j.at("device_type"), "device type");
  d.device = j.at("device").get<std::string>();
  const json& v = j.at("verdict");
  d.verdict = enum_from_json<Verdict>(v.at("verdict"), "verdict");
  d.verdict_reason = enum_from_json<VerdictReason>(v.at("reason"), "verdict reason");
  d.busy_share = v.at("busy_share").get<double>();
  d.host_bound_share = v.at("host_bound_share").get<double>();
  d.device_wait_share = v.at("device_wait_share").get<double>();
  d.queue_open = v.value("queue_open", false);  // absent before 2026-12-06
  for (const json& s : j.at("steps")) d.steps.push_back(rank_step_from_json(s));
  for (const json& c : j.at("collectives")) d.collectives.push_back(collective_from_json(c));
  std::vector<UnknownText> unknown;  // a later ohprof's warning codes: left out, and said
  {
    const UnknownTextScope scope(&unknown);
    d.warnings = warnings_from_json(j.at("warnings"));
  }
  if (!unknown.empty()) {
    d.warnings.push_back({WarningCode::report_values_unknown,
                          fmt::format("rank {}: this ohprof does not know {} (a later ohprof's?); left out",
                                      d.rank, unknown_texts_text(unknown))});
  }
  return d;
}

json rank_in_step_to_json(const RankInStep& r) {
  json out = rank_step_to_json(r.split);
  out.erase("step");
  out["rank"] = r.rank;
  out["compute_ns"] = r.compute_ns;
  out["collective_ns"] = r.collective_ns;
  out["collective_wait_ns"] = r.collective_wait_ns;
  out["active_ns"] = r.active_ns;
  return out;
}

json straggler_to_json(const std::optional<StepStraggler>& s) {
  if (!s) return nullptr;
  return json{{"rank", s->rank},
              {"active_ns", s->active_ns},
              {"median_active_ns", s->median_active_ns},
              {"excess_ns", s->excess_ns},
              {"excess_share", s->excess_share},
              {"cause", to_string(s->cause)},
              {"largest", s->largest == StragglerCause::unknown ? json(nullptr) : json(to_string(s->largest))},
              {"cause_excess_ns", s->cause_excess_ns}};
}

json view_steps_to_json(const CrossRankView& view) {
  json steps = json::array();
  for (const StepView& step : view.steps) {
    json ranks = json::array();
    for (const RankInStep& r : step.ranks) ranks.push_back(rank_in_step_to_json(r));
    steps.push_back(json{{"step", step.step},
                         {"ranks", ranks},
                         {"missing_ranks", step.missing_ranks},
                         {"wall_min_ns", step.wall_min_ns},
                         {"wall_max_ns", step.wall_max_ns},
                         {"wall_median_ns", step.wall_median_ns},
                         {"collectives_matched", step.collectives_matched},
                         {"collectives_unmatched", step.collectives_unmatched},
                         {"straggler", straggler_to_json(step.straggler)}});
  }
  return steps;
}

json per_rank_to_json(const CrossRankView& view) {
  json out = json::array();
  for (const RankTotals& t : view.ranks) {
    out.push_back(json{{"rank", t.rank},
                       {"steps", t.steps},
                       {"wall_ns", t.wall_ns},
                       {"busy_ns", t.busy_ns},
                       {"host_bound_ns", t.host_bound_ns},
                       {"device_wait_ns", t.device_wait_ns},
                       {"communication_ns", t.communication_ns},
                       {"compute_ns", t.compute_ns},
                       {"collective_ns", t.collective_ns},
                       {"collective_wait_ns", t.collective_wait_ns},
                       {"active_ns", t.active_ns},
                       {"slowest_steps", t.slowest_steps}});
  }
  return out;
}

}  // namespace

Result<RankDigest> rank_digest_from_report(const json& report, const std::string& label,
                                           std::optional<std::int64_t> position) {
  const auto not_usable = [&](const std::string& why) {
    return make_error(ExitCode::usage_error, fmt::format("'{}' is not a one-trace analyze report ({}); make it with "
                                                         "`ohprof analyze TRACE --export-json FILE`",
                                                         label, why));
  };
  try {
    if (!report.is_object() || report.value("kind", "") != "analyze") return not_usable("its kind is not \"analyze\"");
    std::vector<UnknownText> unknown;  // a later ohprof's texts: refused where merge uses them (the verdict)
    const Report analyzed = report_from_json(report, &unknown);  // docs/report-schema.md, "How reports are read back"
    for (const UnknownText& u : unknown) {
      if (u.key.ends_with(".split.verdict.verdict") || u.key.ends_with(".split.verdict.reason")) {
        return not_usable(fmt::format("its {} '{}' is none this ohprof knows; merge it with the ohprof that wrote it",
                                      u.key, u.text));
      }
    }
    if (analyzed.paths.size() != 1) return not_usable(fmt::format("it has {} paths, not one", analyzed.paths.size()));
    if (!analyzed.trace) return not_usable("it names no trace");
    const PathResult& path = analyzed.paths.front();
    RankDigest d;
    d.trace = analyzed.trace->path;
    d.device_type = analyzed.context.device.type;
    d.device = analyzed.context.device.name;
    std::optional<std::int64_t> rank;
    if (const std::optional<DistributedInfo>& info = analyzed.trace->distributed) {
      // As the trace reader makes them: a rank or a size is a non-negative integer.
      if (info->rank && *info->rank < 0) throw std::runtime_error("rank is negative");
      if (info->world_size && *info->world_size < 0) throw std::runtime_error("world_size is negative");
      rank = info->rank;
      d.world_size = info->world_size;
      d.backend = info->backend;
    }
    if (rank) {
      d.rank = *rank;
      d.rank_from = RankSource::distributed_info;
    } else if (position) {
      d.rank = *position;
      d.rank_from = RankSource::position;
    } else {
      return make_error(ExitCode::usage_error,
                        fmt::format("'{}' has no rank: its trace '{}' has no distributedInfo.rank; analyze it with "
                                    "`ohprof analyze --ranks --first-position N TRACE --export-json FILE` to give it one",
                                    label, d.trace));
    }
    if (path.breakdown) {
      if (!report.at("paths").at(0).at("split").contains("collectives")) {  // absent, not empty
        return not_usable("its split has no collectives: an older ohprof wrote it; analyze the trace again");
      }
      const PathVerdict& v = path.breakdown->verdict;
      d.verdict = v.verdict;
      d.verdict_reason = v.reason;
      d.busy_share = v.busy_share;
      d.host_bound_share = v.host_bound_share;
      d.device_wait_share = v.device_wait_share;
      d.queue_open = v.queue_open();
      for (const IterationBreakdown& it : path.breakdown->iterations) {
        d.steps.push_back(RankStep{it.index, it.wall_ns, it.gpu.busy_ns, it.gpu.host_bound_ns, it.gpu.device_wait_ns,
                                   it.gpu.communication_ns, it.host_bound_least_ns});
      }
      std::stable_sort(d.steps.begin(), d.steps.end(), [](const RankStep& a, const RankStep& b) { return a.step < b.step; });
      d.collectives = path.breakdown->collectives;
    }
    d.warnings = analyzed.warnings;
    if (!unknown.empty()) {
      d.warnings.push_back({WarningCode::report_values_unknown,
                            fmt::format("'{}': this ohprof does not know {} (a later ohprof's?); read as their "
                                        "defaults, which merge does not use",
                                        label, unknown_texts_text(unknown))});
    }
    return d;
  } catch (const std::exception& e) {
    return not_usable(e.what());
  }
}

json ranks_report_to_json(const RanksReport& report) {
  json ranks = json::array();
  for (const RankDigest& d : report.ranks) ranks.push_back(digest_to_json(d));
  json failed = json::array();
  for (const FailedTrace& f : report.failed) {
    failed.push_back(
        json{{"trace", f.trace}, {"position", f.position}, {"code", exit_code_name(f.code)}, {"message", f.message}});
  }
  return json{{"schema_version", kReportSchemaVersion},
              {"kind", "ranks"},
              {"context", context_to_json(report.context)},
              {"job",
               {{"ranks", report.ranks.size()},
                {"traces", report.ranks.size() + report.failed.size()},
                {"failed", report.failed.size()},
                {"world_size", optional_integer(report.world_size)},
                {"backend", report.backend ? json(*report.backend) : json(nullptr)}}},
              {"ranks", ranks},
              {"failed", failed},
              {"steps", view_steps_to_json(report.view)},
              {"per_rank", per_rank_to_json(report.view)},
              {"interrupted", report.interrupted},
              {"warnings", warnings_to_json(report.warnings)}};
}

Result<RanksParts> parse_ranks_parts(const json& report, const std::string& label) {
  const json* kind = report.is_object() && report.contains("kind") ? &report.at("kind") : nullptr;
  const std::string kind_text = kind && kind->is_string() ? kind->get<std::string>() : "";
  const json* schema = report.is_object() && report.contains("schema_version") ? &report.at("schema_version") : nullptr;
  if (kind_text == "analyze" || kind_text == "ranks") {
    if (!schema || !schema->is_number_integer() || schema->get<std::int64_t>() > kReportSchemaVersion) {
      return make_error(ExitCode::usage_error,
                        fmt::format("'{}' has schema_version {} and this ohprof reads up to {}; read it with the ohprof "
                                    "that wrote it, or a later one",
                                    label, schema ? schema->dump() : "(none)", kReportSchemaVersion));
    }
  }
  if (kind_text == "analyze") {
    OHPROF_ASSIGN_OR_RETURN(auto digest, rank_digest_from_report(report, label, std::nullopt));
    RanksParts parts;
    parts.ranks.push_back(std::move(digest));
    const json& interrupted = report.contains("interrupted") ? report.at("interrupted") : json(false);
    parts.interrupted = interrupted.is_boolean() && interrupted.get<bool>();
    return parts;
  }
  if (kind_text != "ranks") {
    return make_error(ExitCode::usage_error,
                      fmt::format("'{}' is not a report ohprof merge reads (its kind is {}); give reports of "
                                  "`ohprof analyze TRACE...` or of `ohprof merge`",
                                  label, kind ? kind->dump() : "missing"));
  }
  try {
    RanksParts parts;
    for (const json& d : report.at("ranks")) parts.ranks.push_back(digest_from_json(d));
    for (const json& f : report.at("failed")) {
      const auto code = exit_code_named(f.at("code").get<std::string>());
      if (!code) throw std::runtime_error("unknown exit code name '" + f.at("code").get<std::string>() + "'");
      parts.failed.push_back(FailedTrace{f.at("trace").get<std::string>(), non_negative(f, "position"), *code,
                                         f.at("message").get<std::string>()});
    }
    parts.interrupted = report.at("interrupted").get<bool>();
    return parts;
  } catch (const std::exception& e) {
    return make_error(ExitCode::usage_error,
                      fmt::format("'{}' is not a usable ranks report ({}); write it again with this ohprof", label, e.what()));
  }
}

Status emit_ranks_report(const RanksReport& report, const ReportExports& exports, bool quiet) {
  return emit_forms({[&] { return format_ranks_table(report); }, [&] { return dump_report(ranks_report_to_json(report)); },
                     [&] { return ranks_document(report); }},
                    exports, quiet, report.warnings);
}

}  // namespace ohprof
