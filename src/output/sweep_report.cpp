// The sweep report's JSON (docs/report-schema.md, "The sweep report"), written and read back for --resume.
#include "ohprof/output/sweep_report.hpp"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ohprof/base/atomic_file.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/output/report_text.hpp"

namespace ohprof {
namespace {

using nlohmann::json;


json axis_to_json(const SweepAxis& axis) {
  return json{{"kind", to_string(axis.kind)},
              {"input", axis.kind == SweepAxis::Kind::dim ? json(axis.input) : json(nullptr)},
              {"dim", axis.dim},
              {"name", axis_name(axis)},
              {"values", axis.values}};
}

// The settings a resumed sweep must share with the report it resumes (docs/sweep.md, "Interruption").
json identity_to_json(const SweepConfig& c) {
  json axis = axis_to_json(c.axis);
  axis.erase("values");
  return json{{"model", c.model},           {"inputs", c.inputs},
              {"axis", axis},               {"paths", c.paths},
              {"device", to_string(c.device)}, {"compile_source", to_string(c.compile_source)},
              {"kernel_profile", c.kernel_profile}};
}

json config_to_json(const SweepConfig& c) {
  json out = identity_to_json(c);
  out["axis"] = axis_to_json(c.axis);
  const AdaptiveStopping& s = c.stopping;
  out.update(json{{"warmup", s.warmup},
                  {"min_runs", s.min_runs},
                  {"max_runs", s.max_runs},
                  {"min_time_s", s.min_time_s},
                  {"max_rse", s.max_rse},
                  {"time_limit_s", s.time_limit_s},
                  {"sweep_time_limit_s", c.sweep_time_limit_s},
                  {"passes", c.passes},
                  {"block", s.block},
                  {"check_outputs", to_string(c.check_outputs)},
                  {"seed", c.seed},
                  {"tolerance", c.tolerance},
                  {"fit_tolerance", c.fit_tolerance}});
  return out;
}

json ratio_to_json(const SweepRatio& r) {
  return json{{"slower", r.slower}, {"faster", r.faster}, {"ratio", r.ratio}, {"se", r.se},
              {"low", r.low},       {"high", r.high},     {"within", r.within}};
}

json point_to_json(const SweepPoint& p) {
  json paths = json::array();
  for (const SweepPathPoint& path : p.paths) {
    const SweepPathFigures& figures = path.figures;
    paths.push_back(json{{"name", path.name},
                         {"wall_ns", summary_to_json(path.wall_ns)},
                         {"latency_ns", figures.latency_ns},
                         {"latency_se_ns", figures.latency_se_ns},
                         {"throughput_per_s", figures.throughput_per_s},
                         {"throughput_se_per_s", figures.throughput_se_per_s},
                         {"to_baseline", figures.to_baseline ? json{{"ratio", figures.to_baseline->ratio},
                                                                    {"se", figures.to_baseline->se},
                                                                    {"low", figures.to_baseline->low},
                                                                    {"high", figures.to_baseline->high}}
                                                              : json(nullptr)},
                         {"busy_ns", optional_number(path.busy_ns)},
                         {"host_ns", optional_number(path.host_ns)},
                         {"collector_ratio", optional_number(path.collector_ratio)},
                         {"outputs_match", path.outputs_match ? json(*path.outputs_match) : json(nullptr)}});
  }
  json ratios = json::array();
  for (const auto& r : p.ratios) ratios.push_back(ratio_to_json(r));
  json passes = json::array();
  for (const auto& pass : p.passes) {
    json medians = json::array();
    for (const auto& [name, median] : pass.medians_ns) medians.push_back(json{{"name", name}, {"median_ns", median}});
    passes.push_back(json{{"pass", pass.pass},
                          {"report", pass.report_path.empty() ? json(nullptr) : json(pass.report_path)},
                          {"medians_ns", medians},
                          {"score_ns", pass.score_ns}});
  }
  return json{{"value", p.value},
              {"inputs", p.inputs},
              {"status", to_string(p.status)},
              {"reason", p.reason},
              {"exit_code", p.exit_code},
              {"report", p.report_path.empty() ? json(nullptr) : json(p.report_path)},
              {"elapsed_s", p.elapsed_s},
              {"artifacts_cached", p.artifacts_cached},
              {"stop_reason", json{{"code", to_string(p.stop_reason.code)},
                                   {"unmet", p.stop_reason.unmet},
                                   {"text", stop_reason_text(p.stop_reason)}}},
              {"warnings", warnings_to_json(p.warnings)},
              {"passes", passes},
              {"chosen_pass", p.chosen_pass},
              {"paths", paths},
              {"ratios", ratios}};
}

json fit_to_json(const SweepFit& f) {
  json left_out = json::array();
  for (const auto& p : f.points_left_out) left_out.push_back(json{{"value", p.value}, {"relative_residual", p.relative_residual}});
  return json{{"path", f.path},
              {"status", to_string(f.status)},
              {"fixed_ns", optional_number(f.fixed_ns)},
              {"fixed_low_ns", optional_number(f.fixed_low_ns)},
              {"fixed_high_ns", optional_number(f.fixed_high_ns)},
              {"per_item_ns", optional_number(f.per_item_ns)},
              {"per_item_low_ns", optional_number(f.per_item_low_ns)},
              {"per_item_high_ns", optional_number(f.per_item_high_ns)},
              {"points_used", f.points_used},
              {"points_left_out", left_out},
              {"max_relative_residual", optional_number(f.max_relative_residual)},
              {"smallest", optional_integer(f.smallest)},
              {"host_at_smallest_ns", optional_number(f.host_at_smallest_ns)},
              {"busy_at_smallest_ns", optional_number(f.busy_at_smallest_ns)},
              {"fixed_minus_host_ns", optional_number(f.fixed_minus_host_ns)}};
}

json analysis_to_json(const SweepAnalysis& a) {
  json pairs = json::array();
  for (const auto& p : a.pairs) {
    pairs.push_back(json{{"slower", p.slower},
                         {"faster", p.faster},
                         {"points", p.points},
                         {"crossover", optional_integer(p.crossover)},
                         {"crossover_index", p.crossover_index ? json(*p.crossover_index) : json(nullptr)}});
  }
  json fits = json::array();
  for (const auto& f : a.fits) fits.push_back(fit_to_json(f));
  return json{{"baseline", a.baseline.empty() ? json(nullptr) : json(a.baseline)}, {"pairs", pairs}, {"fits", fits}};
}

std::optional<double> read_optional_number(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<double>();
}


SweepPoint point_from_json(const json& j) {
  SweepPoint p;
  p.value = j.at("value").get<std::int64_t>();
  p.inputs = j.at("inputs").get<std::vector<std::string>>();
  const auto status = parse_point_status(j.at("status").get<std::string>());
  if (!status) throw std::runtime_error("unknown point status '" + j.at("status").get<std::string>() + "'");
  p.status = *status;
  p.reason = j.at("reason").get<std::string>();
  p.exit_code = j.at("exit_code").get<int>();
  p.report_path = j.at("report").is_null() ? "" : j.at("report").get<std::string>();
  p.elapsed_s = j.at("elapsed_s").get<double>();
  p.artifacts_cached = j.at("artifacts_cached").get<bool>();
  const json& stop = j.at("stop_reason");
  const auto code = parse_stop_code(stop.at("code").get<std::string>());
  if (!code) throw std::runtime_error("unknown stop code '" + stop.at("code").get<std::string>() + "'");
  p.stop_reason = StopReason(*code, stop.at("unmet").get<std::string>());
  p.warnings = warnings_from_json(j.at("warnings"));
  for (const auto& pass : j.at("passes")) {
    SweepPass out;
    out.pass = pass.at("pass").get<int>();
    out.report_path = pass.at("report").is_null() ? "" : pass.at("report").get<std::string>();
    for (const auto& median : pass.at("medians_ns")) {
      out.medians_ns.emplace_back(median.at("name").get<std::string>(), median.at("median_ns").get<double>());
    }
    out.score_ns = pass.at("score_ns").get<double>();
    p.passes.push_back(std::move(out));
  }
  p.chosen_pass = j.at("chosen_pass").get<int>();
  for (const auto& path : j.at("paths")) {
    SweepPathPoint out;
    out.name = path.at("name").get<std::string>();
    out.wall_ns = summary_from_json(path.at("wall_ns"));
    out.busy_ns = read_optional_number(path, "busy_ns");
    out.host_ns = read_optional_number(path, "host_ns");
    out.collector_ratio = read_optional_number(path, "collector_ratio");
    if (!path.at("outputs_match").is_null()) out.outputs_match = path.at("outputs_match").get<bool>();
    p.paths.push_back(std::move(out));
  }
  return p;
}

}  // namespace

json sweep_to_json(const SweepReport& report) {
  json points = json::array();
  for (const auto& p : report.points) points.push_back(point_to_json(p));
  return json{{"kind", "sweep"},
              {"sweep_schema_version", kSweepSchemaVersion},
              {"context", context_to_json(report.context)},
              {"config", config_to_json(report.config)},
              {"points", points},
              {"analysis", analysis_to_json(report.analysis)},
              {"stop", to_string(report.stop)},
              {"warnings", warnings_to_json(report.warnings)}};
}

Status write_sweep_report(const SweepReport& report, const std::string& path) {
  return write_file_atomically(path, dump_report(sweep_to_json(report)));
}

Result<std::vector<SweepPoint>> read_resumable_points(const std::string& path, const SweepConfig& expected) {
  std::ifstream in(path);
  if (!in) return make_error(ExitCode::file_not_found, fmt::format("--resume: cannot read '{}'", path));
  const auto not_a_report = [&](const std::string& why) {
    return make_error(ExitCode::usage_error, fmt::format("--resume: '{}' is not a sweep report ({}); give the "
                                                         "--export-json of an earlier sweep, or drop --resume",
                                                         path, why));
  };
  json j;
  try {
    j = json::parse(in);
  } catch (const std::exception& e) {
    return not_a_report(std::string("not JSON: ") + first_line(e.what()));
  }
  if (!j.is_object() || j.value("kind", "") != "sweep") return not_a_report("its kind is not \"sweep\"");
  if (j.value("sweep_schema_version", 0) != kSweepSchemaVersion) {
    return not_a_report(fmt::format("sweep_schema_version {} is not {}", j.value("sweep_schema_version", 0), kSweepSchemaVersion));
  }
  try {
    const json want = identity_to_json(expected);
    const json& have = j.at("config");
    for (const auto& [key, value] : want.items()) {
      const json had = have.contains(key) ? have.at(key) : json(nullptr);
      json had_cmp = had;
      if (key == "axis" && had_cmp.is_object()) had_cmp.erase("values");
      if (had_cmp != value) {
        return make_error(ExitCode::usage_error,
                          fmt::format("--resume: '{}' was made with {} {}, this sweep has {}; rerun with the same "
                                      "settings, or write another report (--export-json) without --resume",
                                      path, key, had_cmp.dump(), value.dump()));
      }
    }
    std::vector<SweepPoint> points;
    for (const auto& point : j.at("points")) points.push_back(point_from_json(point));
    return points;
  } catch (const std::exception& e) {
    return not_a_report(first_line(e.what()));
  }
}

}  // namespace ohprof
