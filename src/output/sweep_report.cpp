// The sweep report's JSON (docs/report-schema.md, "The sweep report"), written and read back for --resume.
#include "ohprof/output/sweep_report.hpp"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ohprof/base/atomic_file.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/output/report_text.hpp"
#include "json_fields.hpp"
#include "json_read.hpp"

namespace ohprof {
namespace {

using nlohmann::json;


json axis_to_json(const SweepAxis& axis) {
  return json{{"kind", to_string(axis.kind)},
              // "input": the first of "inputs", as a sweep of one input wrote it before "inputs" was added
              {"input", axis.kind == SweepAxis::Kind::dim && !axis.inputs.empty() ? json(axis.inputs.front()) : json(nullptr)},
              {"inputs", axis.kind == SweepAxis::Kind::dim ? json(axis.inputs) : json(nullptr)},
              {"dim", axis.dim},
              {"name", axis_name(axis)},
              {"values", axis.values}};
}

// The settings a resumed sweep must share with the report it resumes (docs/sweep.md, "Interruption").
json identity_to_json(const SweepConfig& c) {
  json axis = axis_to_json(c.axis);
  axis.erase("values");
  json out{{"model", c.model},           {"inputs", c.inputs},
           {"axis", axis},               {"paths", c.paths},
           {"device", to_string(c.device)}, {"compile_source", to_string(c.compile_source)},
           {"kernel_profile", c.kernel_profile},
           // the inputs' values, not the file's name: new values saved under the same name are another sweep
           {"inputs_file_digest", optional_text(c.inputs_file_digest)}};
  if (c.inputs_file_digest.empty()) out["seed"] = c.seed;  // random inputs: another seed, other values
  return out;
}

json config_to_json(const SweepConfig& c) {
  json out = identity_to_json(c);
  out["axis"] = axis_to_json(c.axis);
  out["inputs_file"] = optional_text(c.inputs_file);
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

json round_medians_json(const std::vector<std::optional<double>>& medians) {
  json out = json::array();
  for (const auto& m : medians) out.push_back(optional_number(m));
  return out;
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
                         {"kernels_unrecorded", path.kernels_unrecorded},
                         {"queue_open", path.queue_open},
                         {"collector_ratio", optional_number(path.collector_ratio)},
                         {"outputs_match", path.outputs_match ? json(*path.outputs_match) : json(nullptr)},
                         {"round_medians_ns", round_medians_json(path.round_medians_ns)}});
  }
  json ratios = json::array();
  for (const auto& r : p.ratios) ratios.push_back(ratio_to_json(r));
  json passes = json::array();
  for (const auto& pass : p.passes) {
    json medians = json::array();
    for (const auto& [name, median] : pass.medians_ns) medians.push_back(json{{"name", name}, {"median_ns", median}});
    passes.push_back(json{{"pass", pass.pass},
                          {"report", optional_text(pass.report_path)},
                          {"medians_ns", medians},
                          {"score_ns", pass.score_ns}});
  }
  return json{{"value", p.value},
              {"inputs", p.inputs},
              {"status", to_string(p.status)},
              {"reason", p.reason},
              {"exit_code", p.exit_code},
              {"report", optional_text(p.report_path)},
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
              {"fixed_minus_host_ns", optional_number(f.fixed_minus_host_ns)},
              {"host_upper_bound", f.host_upper_bound}};
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
  return json{{"baseline", optional_text(a.baseline)}, {"pairs", pairs}, {"fits", fits}};
}

// ---- the readers: each the inverse of its writer above (derived text, such as the axis's name or a
// stop reason's text, is not read back) ---------------------------------------------------------------

SweepAxis axis_from_json(const json& j) {
  SweepAxis axis;
  axis.kind = enum_from_json<SweepAxis::Kind>(j.at("kind"), "axis kind");
  if (j.contains("inputs") && !j.at("inputs").is_null()) {
    axis.inputs = j.at("inputs").get<std::vector<int>>();
  } else if (!j.at("input").is_null()) {
    axis.inputs = {j.at("input").get<int>()};
  }
  axis.dim = j.at("dim").get<int>();
  axis.values = j.at("values").get<std::vector<std::int64_t>>();
  return axis;
}

SweepConfig config_from_json(const json& j) {
  SweepConfig c;
  c.model = j.at("model").get<std::string>();
  c.inputs = j.at("inputs").get<std::vector<std::string>>();
  c.axis = axis_from_json(j.at("axis"));
  c.paths = j.at("paths").get<std::vector<std::string>>();
  c.device = enum_from_json<DeviceKind>(j.at("device"), "device");
  c.compile_source = enum_from_json<PathSource>(j.at("compile_source"), "compile source");
  c.kernel_profile = j.at("kernel_profile").get<bool>();
  AdaptiveStopping& s = c.stopping;
  s.warmup = j.at("warmup").get<int>();
  s.min_runs = j.at("min_runs").get<int>();
  s.max_runs = j.at("max_runs").get<int>();
  s.min_time_s = number_at(j, "min_time_s");
  s.max_rse = number_at(j, "max_rse", kNullIsInfinity);
  s.time_limit_s = number_at(j, "time_limit_s", kNullIsInfinity);
  s.block = j.at("block").get<int>();
  c.sweep_time_limit_s = number_at(j, "sweep_time_limit_s", kNullIsInfinity);
  c.passes = j.at("passes").get<int>();
  c.check_outputs = enum_from_json<CheckMode>(j.at("check_outputs"), "check_outputs");
  c.seed = j.at("seed").get<std::uint64_t>();
  c.tolerance = number_at(j, "tolerance");
  c.fit_tolerance = number_at(j, "fit_tolerance");
  json_fields::read_value(j, "inputs_file", c.inputs_file);  // absent or null (random inputs, or before the key): ""
  json_fields::read_value(j, "inputs_file_digest", c.inputs_file_digest);
  return c;
}

SweepRatio ratio_from_json(const json& j) {
  return SweepRatio{j.at("slower").get<std::string>(), j.at("faster").get<std::string>(), number_at(j, "ratio"),
                    number_at(j, "se"),                number_at(j, "low"),                number_at(j, "high"),
                    j.at("within").get<bool>()};
}

SweepPathPoint path_point_from_json(const json& j) {
  SweepPathPoint out;
  out.name = j.at("name").get<std::string>();
  out.wall_ns = summary_from_json(j.at("wall_ns"));
  out.busy_ns = optional_number_at(j, "busy_ns");
  out.host_ns = optional_number_at(j, "host_ns");
  out.kernels_unrecorded = j.value("kernels_unrecorded", false);  // absent before 2026-12-06 (this change)
  out.queue_open = j.value("queue_open", false);                  // absent before 2026-12-06
  out.collector_ratio = optional_number_at(j, "collector_ratio");
  if (!j.at("outputs_match").is_null()) out.outputs_match = j.at("outputs_match").get<bool>();
  if (const auto it = j.find("round_medians_ns"); it != j.end() && !it->is_null()) {  // absent before 2026-12-06
    for (const json& m : *it) out.round_medians_ns.push_back(m.is_null() ? std::nullopt : std::optional<double>(m.get<double>()));
  }
  SweepPathFigures& f = out.figures;
  f.latency_ns = number_at(j, "latency_ns");
  f.latency_se_ns = number_at(j, "latency_se_ns");
  f.throughput_per_s = number_at(j, "throughput_per_s");
  f.throughput_se_per_s = number_at(j, "throughput_se_per_s");
  if (const json& b = j.at("to_baseline"); !b.is_null()) {
    f.to_baseline = SweepPathFigures::BaselineRatio{number_at(b, "ratio"), number_at(b, "se"), number_at(b, "low"),
                                                    number_at(b, "high")};
  }
  return out;
}

SweepPoint point_from_json(const json& j) {
  SweepPoint p;
  p.value = j.at("value").get<std::int64_t>();
  p.inputs = j.at("inputs").get<std::vector<std::string>>();
  p.status = enum_from_json<PointStatus>(j.at("status"), "point status");
  p.reason = j.at("reason").get<std::string>();
  p.exit_code = j.at("exit_code").get<int>();
  p.report_path = j.at("report").is_null() ? "" : j.at("report").get<std::string>();
  p.elapsed_s = number_at(j, "elapsed_s");
  p.artifacts_cached = j.at("artifacts_cached").get<bool>();
  const json& stop = j.at("stop_reason");
  p.stop_reason = StopReason(enum_from_json<StopCode>(stop.at("code"), "stop code"), stop.at("unmet").get<std::string>());
  p.warnings = warnings_from_json(j.at("warnings"));
  for (const auto& pass : j.at("passes")) {
    SweepPass out;
    out.pass = pass.at("pass").get<int>();
    out.report_path = pass.at("report").is_null() ? "" : pass.at("report").get<std::string>();
    for (const auto& median : pass.at("medians_ns")) {
      out.medians_ns.emplace_back(median.at("name").get<std::string>(), number_at(median, "median_ns"));
    }
    out.score_ns = number_at(pass, "score_ns");
    p.passes.push_back(std::move(out));
  }
  p.chosen_pass = j.at("chosen_pass").get<int>();
  for (const auto& path : j.at("paths")) p.paths.push_back(path_point_from_json(path));
  for (const auto& ratio : j.at("ratios")) p.ratios.push_back(ratio_from_json(ratio));
  return p;
}

SweepFit fit_from_json(const json& j) {
  SweepFit f;
  f.path = j.at("path").get<std::string>();
  f.status = enum_from_json<FitStatus>(j.at("status"), "fit status");
  f.fixed_ns = optional_number_at(j, "fixed_ns");
  f.fixed_low_ns = optional_number_at(j, "fixed_low_ns");
  f.fixed_high_ns = optional_number_at(j, "fixed_high_ns");
  f.per_item_ns = optional_number_at(j, "per_item_ns");
  f.per_item_low_ns = optional_number_at(j, "per_item_low_ns");
  f.per_item_high_ns = optional_number_at(j, "per_item_high_ns");
  f.points_used = j.at("points_used").get<std::vector<std::int64_t>>();
  for (const auto& left : j.at("points_left_out")) {
    f.points_left_out.push_back(LeftOutPoint{left.at("value").get<std::int64_t>(), number_at(left, "relative_residual")});
  }
  f.max_relative_residual = optional_number_at(j, "max_relative_residual");
  f.smallest = optional_integer_at(j, "smallest");
  f.host_at_smallest_ns = optional_number_at(j, "host_at_smallest_ns");
  f.busy_at_smallest_ns = optional_number_at(j, "busy_at_smallest_ns");
  f.fixed_minus_host_ns = optional_number_at(j, "fixed_minus_host_ns");
  f.host_upper_bound = j.value("host_upper_bound", false);
  return f;
}

SweepAnalysis analysis_from_json(const json& j) {
  SweepAnalysis a;
  a.baseline = j.at("baseline").is_null() ? "" : j.at("baseline").get<std::string>();
  for (const auto& p : j.at("pairs")) {
    SweepPair pair;
    pair.slower = p.at("slower").get<std::string>();
    pair.faster = p.at("faster").get<std::string>();
    pair.points = p.at("points").get<std::size_t>();
    pair.crossover = optional_integer_at(p, "crossover");
    if (!p.at("crossover_index").is_null()) pair.crossover_index = p.at("crossover_index").get<std::size_t>();
    a.pairs.push_back(std::move(pair));
  }
  for (const auto& f : j.at("fits")) a.fits.push_back(fit_from_json(f));
  return a;
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

SweepReport sweep_from_json(const json& j) {
  if (!j.is_object() || j.value("kind", "") != "sweep") throw std::runtime_error("its kind is not \"sweep\"");
  SweepReport report;
  report.context = context_from_json(j.at("context"));
  report.config = config_from_json(j.at("config"));
  for (const auto& point : j.at("points")) report.points.push_back(point_from_json(point));
  report.analysis = analysis_from_json(j.at("analysis"));
  report.stop = enum_from_json<SweepStop>(j.at("stop"), "sweep stop");
  report.warnings = warnings_from_json(j.at("warnings"));
  return report;
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
  SweepReport earlier;
  try {
    if (!j.is_object() || j.value("kind", "") != "sweep") return not_a_report("its kind is not \"sweep\"");
    if (const int version = j.value("sweep_schema_version", 0); version != kSweepSchemaVersion) {
      return not_a_report(fmt::format("sweep_schema_version {} is not {}", version, kSweepSchemaVersion));
    }
    earlier = sweep_from_json(j);
  } catch (const std::exception& e) {
    return not_a_report(first_line(e.what()));
  }
  const json want = identity_to_json(expected);
  const json had = identity_to_json(earlier.config);
  for (const auto& [key, value] : want.items()) {
    const json theirs = had.contains(key) ? had.at(key) : json(nullptr);
    if (theirs != value) {
      return make_error(ExitCode::usage_error,
                        fmt::format("--resume: '{}' was made with {} {}, this sweep has {}; rerun with the same "
                                    "settings, or write another report (--export-json) without --resume",
                                    path, key, theirs.dump(), value.dump()));
    }
  }
  return std::move(earlier.points);
}

}  // namespace ohprof
