// `ohprof diff`'s reader of reports and its JSON (docs/diff.md, docs/report-schema.md "The diff report").
#include "ohprof/output/diff_report.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <set>
#include <stdexcept>

#include "ohprof/output/html_report.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/output/markdown_report.hpp"
#include "ohprof/output/sweep_report.hpp"
#include "json_read.hpp"
#include "report_forms.hpp"

namespace ohprof {
namespace {

using json = nlohmann::json;

std::string string_or(const json& j, const char* key, const std::string& fallback = "") {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_string()) return fallback;
  return j.at(key).get<std::string>();
}

void read_context(const RunContext& c, ReportDigest& d) {
  d.ohprof_version = c.ohprof_version;
  d.torch_version = c.torch_version;
  d.cuda_version = c.cuda_version;
  d.hostname = c.hostname;
  d.cpu_threads = c.cpu_threads;
  d.device_type = c.device.type;
  d.device_name = c.device.name;
}

// What makes a digest unusable though its JSON parsed: a wall time of 0 or less, or two paths of one
// name (at one point): an empty string when it is fine.
std::string unusable(const ReportDigest& d) {
  std::set<std::pair<std::int64_t, std::string>> seen;
  for (const DigestPath& p : d.paths) {
    const std::string where = p.point ? fmt::format("path '{}' at {} {}", p.name, d.axis, *p.point) : fmt::format("path '{}'", p.name);
    if (!seen.insert({p.point.value_or(0), p.name}).second) return where + " is listed twice";
    for (const std::int64_t s : p.samples_ns) {
      if (s <= 0) return fmt::format("{} has a sample of {} ns; wall times are positive", where, s);
    }
  }
  return "";
}

// A path's split as sums over its iterations, when it has one.
std::optional<SplitTotals> split_totals_of(const PathResult& path) {
  if (!path.breakdown) return std::nullopt;
  const BreakdownTotals& t = path.breakdown->summary.totals;
  SplitTotals s;
  s.iterations = static_cast<std::int64_t>(t.iterations);
  s.wall_ns = t.wall_ns;
  s.busy_ns = t.gpu.busy_ns;
  s.host_bound_ns = t.gpu.host_bound_ns;
  s.device_wait_ns = t.gpu.device_wait_ns;
  s.blocking_ns = t.host_states.blocking_ns;
  s.launch_ns = t.host_states.launch_ns;
  s.other_api_ns = t.host_states.other_api_ns;
  s.harness_ns = t.host_states.harness_ns;
  s.framework_ns = t.host_states.framework_ns;
  s.kernels_unrecorded = path.breakdown->verdict.kernels_unrecorded;
  s.queue_unknown = path.breakdown->verdict.queue_open();
  return s;
}

// compare --threads: its measured points (docs/diff.md, "Deployment figures").
std::vector<DigestThroughput> throughput_of(const PathResult& path) {
  std::vector<DigestThroughput> out;
  if (!path.concurrency) return out;
  for (const ThreadsPoint& point : path.concurrency->points) {
    out.push_back({point.threads, point.calls_per_s, point.calls_per_s_se, point.round_ns.size()});
  }
  return out;
}

// compare --cold-start: each state with processes, their totals and the peaks they read.
std::vector<DigestStart> starts_of(const PathResult& path) {
  std::vector<DigestStart> out;
  if (!path.cold_start) return out;
  for (const ColdStartState& state : path.cold_start->states) {
    DigestStart start;
    start.cache = state.cache;
    for (const ColdStartSample& sample : state.samples) {
      start.totals_ns.push_back(sample.total_ns);
      if (sample.peak_rss_bytes) start.peaks_bytes.push_back(*sample.peak_rss_bytes);
    }
    out.push_back(std::move(start));
  }
  return out;
}

// Where a report's inputs' values came from (ReportDigest::inputs_values).
std::string inputs_values_text(const std::string& file, const std::string& digest, std::uint64_t seed) {
  if (!digest.empty()) return fmt::format("--inputs file (digest {})", digest);
  if (!file.empty()) return fmt::format("--inputs file {} (digest not recorded)", file);  // a sweep of 2026-12-07's first commits
  return fmt::format("random (seed {})", seed);
}

// run, compare, analyze, read through report_from_json: the paths asked for (role "path"; variants are not
// diffed).
void read_measured_report(const json& j, ReportDigest& d) {
  d.schema_version = j.at("schema_version").get<int>();  // another version's: incomparable, unless --force
  std::vector<UnknownText> unknown;  // a later ohprof's texts, in fields diff does not use
  const Report report = report_from_json(j, &unknown);
  d.unknown_values = unknown_texts_text(unknown);
  read_context(report.context, d);
  d.inputs = report.kind == ReportKind::analyze ? std::vector<std::string>() : report.config.inputs;
  if (report.kind != ReportKind::analyze) d.inputs_values = inputs_values_text(report.config.inputs_file, report.config.inputs_file_digest, report.config.seed);
  if (report.config.compare) d.compile_source = to_string(report.config.compare->compile_source);
  if (report.kind == ReportKind::compare && report.artifacts) {
    const ArtifactSummary& a = *report.artifacts;
    d.model = !a.model.empty() ? a.model : !a.exported_program.empty() ? a.exported_program : a.aoti_package;
  } else if (report.kind == ReportKind::run && !report.paths.empty()) {
    d.model = report.paths.front().artifact;
  }
  for (const PathResult& p : report.paths) {
    if (p.role != PathRole::path) continue;
    DigestPath path;
    path.name = p.name;
    path.samples_ns = p.wall_ns;
    if (!std::isnan(p.wall.median)) path.median_ns = p.wall.median;
    path.split = split_totals_of(p);
    path.flaw = digest_flaw(p);
    path.run_queue = p.run_queue;
    if (report.kind == ReportKind::compare) {
      path.throughput = throughput_of(p);
      path.starts = starts_of(p);
    }
    d.paths.push_back(std::move(path));
  }
  if (report.stop_reason.code == StopCode::in_progress) {
    d.notes.push_back("a checkpoint written while measuring, not a finished report");
  }
  if (report.interrupted) d.notes.push_back("the run was interrupted; its samples are those measured before");
}

// sweep: each measured point's paths with their medians; the point reports hold the samples.
void read_sweep_report(const json& j, ParsedDigest& parsed) {
  const SweepReport sweep = sweep_from_json(j);
  ReportDigest& d = parsed.digest;
  d.schema_version = j.at("sweep_schema_version").get<int>();  // another version's: incomparable, unless --force
  read_context(sweep.context, d);
  d.model = sweep.config.model;
  d.inputs = sweep.config.inputs;
  d.axis = axis_name(sweep.config.axis);
  d.inputs_values = inputs_values_text(sweep.config.inputs_file, sweep.config.inputs_file_digest, sweep.config.seed);
  d.compile_source = to_string(sweep.config.compile_source);
  for (const SweepPoint& point : sweep.points) {
    if (point.status != PointStatus::measured) {
      d.notes.push_back(fmt::format("{} {} was not measured ({}{}{})", d.axis, point.value, to_string(point.status),
                                    point.reason.empty() ? "" : ": ", point.reason));
      continue;
    }
    for (const SweepPathPoint& p : point.paths) {
      DigestPath path;
      path.name = p.name;
      path.point = point.value;
      if (!std::isnan(p.wall_ns.median)) path.median_ns = p.wall_ns.median;
      d.paths.push_back(std::move(path));
    }
    if (point.report_path.empty()) {
      d.notes.push_back(fmt::format("{} {} has no point report: its paths have medians but no samples", d.axis, point.value));
    } else {
      parsed.sweep_point_reports.push_back({point.value, point.report_path});
    }
  }
}

}  // namespace

Result<ParsedDigest> parse_report_digest(std::istream& in, const std::string& file) {
  const auto not_a_report = [&](const std::string& why) {
    return make_error(ExitCode::usage_error,
                      fmt::format("'{}' is not an ohprof report ({}); give two reports written by --export-json", file,
                                  why));
  };
  json j;
  try {
    j = json::parse(in);
  } catch (const std::exception& e) {
    return not_a_report(std::string("not JSON: ") + first_line(e.what()));
  }
  if (!j.is_object()) return not_a_report("not a JSON object");
  const auto kind = parse_digest_kind(string_or(j, "kind"));
  if (!kind) return not_a_report(fmt::format("kind '{}' is none of run, compare, analyze, sweep", string_or(j, "kind")));
  ParsedDigest parsed;
  parsed.digest.file = file;
  parsed.digest.kind = *kind;
  try {
    if (*kind == DigestKind::sweep) {
      read_sweep_report(j, parsed);
    } else {
      read_measured_report(j, parsed.digest);
    }
  } catch (const std::exception& e) {
    return not_a_report(first_line(e.what()));
  }
  if (const std::string why = unusable(parsed.digest); !why.empty()) return not_a_report(why);
  return parsed;
}

json diff_to_json(const DiffResult& diff) {
  json j;
  j["kind"] = "diff";
  j["diff_schema_version"] = kDiffSchemaVersion;
  j["base"] = diff.base_file;
  j["new"] = diff.new_file;
  j["report_kind"] = to_string(diff.kind);
  j["config"] = {{"threshold", diff.config.threshold},
                 {"alpha", diff.config.alpha},
                 {"resamples", diff.config.resamples},
                 {"seed", diff.config.seed},
                 {"min_samples", kMinDiffSamples},
                 {"relative_to", optional_text(diff.config.relative_to)},
                 {"force", diff.config.force}};
  j["outcome"] = to_string(diff.outcome());
  j["judged"] = diff.judged();
  json incomparable = json::array();
  for (const Incomparability& i : diff.incomparable) {
    incomparable.push_back({{"field", i.field}, {"base", i.base}, {"new", i.new_value}});
  }
  j["incomparable"] = incomparable;
  json paths = json::array();
  for (const PathDiff& p : diff.paths) {
    json split = json::array();
    for (const ComponentChange& c : p.split) {
      split.push_back({{"component", c.component}, {"base_ns", c.base_ns}, {"new_ns", c.new_ns}, {"change_ns", c.new_ns - c.base_ns},
                       {"base_bound", to_string(c.base_bound)}, {"new_bound", to_string(c.new_bound)}});
    }
    paths.push_back({{"name", p.name},
                     {"point", p.point ? json(*p.point) : json(nullptr)},
                     {"base_count", p.base_count},
                     {"new_count", p.new_count},
                     {"base_median_ns", optional_number(p.base_median_ns)},
                     {"new_median_ns", optional_number(p.new_median_ns)},
                     {"ratio", optional_number(p.ratio)},
                     {"low", optional_number(p.low)},
                     {"high", optional_number(p.high)},
                     {"verdict", to_string(p.verdict)},
                     {"reason", to_string(p.reason)},
                     {"base_flaw", p.base_flaw ? json(to_string(*p.base_flaw)) : json(nullptr)},
                     {"new_flaw", p.new_flaw ? json(to_string(*p.new_flaw)) : json(nullptr)},
                     {"split", split}});
  }
  j["paths"] = paths;
  json deployment = json::array();
  for (const DeploymentDiff& d : diff.deployment) {
    const bool throughput = d.measure == DeployMeasure::throughput;
    deployment.push_back({{"path", d.path},
                          {"measure", to_string(d.measure)},
                          {"threads", throughput && d.threads > 0 ? json(d.threads) : json(nullptr)},
                          {"cache", throughput ? json(nullptr) : json(to_string(d.cache))},
                          {"base_value", optional_number(d.base_value)},
                          {"new_value", optional_number(d.new_value)},
                          {"base_count", d.base_count},
                          {"new_count", d.new_count},
                          {"ratio", optional_number(d.ratio)},
                          {"verdict", to_string(d.verdict)},
                          {"reason", to_string(d.reason)}});
  }
  j["deployment"] = deployment;
  j["warnings"] = warnings_to_json(diff.warnings);
  return j;
}

namespace {

// The static text among `names` that `text` is (ComponentChange::component and Incomparability::field point
// at such texts); otherwise std::runtime_error naming `what`.
template <std::size_t N>
const char* one_of(const std::array<const char*, N>& names, const std::string& text, const char* what) {
  for (const char* name : names) {
    if (text == name) return name;
  }
  std::string known;
  for (const char* name : names) known += (known.empty() ? "" : ", ") + std::string(name);
  throw std::runtime_error(fmt::format("{} '{}' is none of {}", what, text, known));
}
constexpr std::array<const char*, kSplitComponents.size()> kComponentNames = [] {
  std::array<const char*, kSplitComponents.size()> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = kSplitComponents[i].name;
  return names;
}();

// base_flaw, new_flaw: null, or absent in a diff written before they were (2026-12-06): no flaw.
std::optional<DigestFlaw> flaw_at(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return enum_from_json<DigestFlaw>(j.at(key), key);
}

// base_bound, new_bound: absent in a diff written before they were (2026-12-06): exact, as those diffs printed it.
Bound bound_at(const json& j, const char* key) {
  return j.contains(key) ? enum_from_json<Bound>(j.at(key), key) : Bound::exact;
}

}  // namespace

DiffResult diff_from_json(const json& j, std::vector<UnknownText>* unknown) {
  if (!j.is_object() || j.value("kind", "") != "diff") throw std::runtime_error("its kind is not \"diff\"");
  DiffResult diff;
  const UnknownTextScope strict = UnknownTextScope::strict();  // the verdicts decide the outcome: each must be known
  diff.base_file = j.at("base").get<std::string>();
  diff.new_file = j.at("new").get<std::string>();
  diff.kind = enum_from_json<DigestKind>(j.at("report_kind"), "report_kind");
  const json& c = j.at("config");
  diff.config.threshold = c.at("threshold").get<double>();
  diff.config.alpha = c.at("alpha").get<double>();
  diff.config.resamples = c.at("resamples").get<int>();
  diff.config.seed = c.at("seed").get<std::uint64_t>();
  diff.config.relative_to = c.at("relative_to").is_null() ? "" : c.at("relative_to").get<std::string>();
  diff.config.force = c.at("force").get<bool>();
  for (const json& i : j.at("incomparable")) {
    diff.incomparable.push_back({one_of(kIncomparableFields, i.at("field").get<std::string>(), "incomparable field"),
                                 i.at("base").get<std::string>(), i.at("new").get<std::string>()});
  }
  for (const json& p : j.at("paths")) {
    PathDiff path;
    path.name = p.at("name").get<std::string>();
    path.point = optional_integer_at(p, "point");
    path.base_count = p.at("base_count").get<std::size_t>();
    path.new_count = p.at("new_count").get<std::size_t>();
    path.base_median_ns = optional_number_at(p, "base_median_ns");
    path.new_median_ns = optional_number_at(p, "new_median_ns");
    path.ratio = optional_number_at(p, "ratio");
    path.low = optional_number_at(p, "low");
    path.high = optional_number_at(p, "high");
    path.verdict = enum_from_json<DiffVerdict>(p.at("verdict"), "verdict");
    path.reason = enum_from_json<DiffReason>(p.at("reason"), "reason");
    path.base_flaw = flaw_at(p, "base_flaw");
    path.new_flaw = flaw_at(p, "new_flaw");
    for (const json& s : p.at("split")) {
      path.split.push_back({one_of(kComponentNames, s.at("component").get<std::string>(), "split component"),
                            s.at("base_ns").get<double>(), s.at("new_ns").get<double>(),
                            bound_at(s, "base_bound"), bound_at(s, "new_bound")});
    }
    diff.paths.push_back(std::move(path));
  }
  for (const json& d : j.contains("deployment") ? j.at("deployment") : json::array()) {  // absent before 2026-12-04
    DeploymentDiff figure;
    figure.path = d.at("path").get<std::string>();
    figure.measure = enum_from_json<DeployMeasure>(d.at("measure"), "measure");
    figure.threads = d.at("threads").is_null() ? 0 : d.at("threads").get<int>();
    if (!d.at("cache").is_null()) figure.cache = enum_from_json<CompileCache>(d.at("cache"), "cache");
    figure.base_value = optional_number_at(d, "base_value");
    figure.new_value = optional_number_at(d, "new_value");
    figure.base_count = d.at("base_count").get<std::size_t>();
    figure.new_count = d.at("new_count").get<std::size_t>();
    figure.ratio = optional_number_at(d, "ratio");
    figure.verdict = enum_from_json<DiffVerdict>(d.at("verdict"), "verdict");
    figure.reason = enum_from_json<DiffReason>(d.at("reason"), "reason");
    diff.deployment.push_back(std::move(figure));
  }
  {  // a later ohprof's warning code is left out, listed in `unknown`, as in the other reports
    const UnknownTextScope scope(unknown);
    diff.warnings = warnings_from_json(j.at("warnings"));
  }
  // outcome and judged are derived from the rest: a file whose own disagree was edited, and is not shown as it says
  if (j.at("outcome").get<std::string>() != to_string(diff.outcome()) || j.at("judged").get<std::size_t>() != diff.judged()) {
    throw std::runtime_error(fmt::format("its outcome '{}' and judged {} are not what its paths and figures give ('{}', {})",
                                         j.at("outcome").get<std::string>(), j.at("judged").dump(),
                                         to_string(diff.outcome()), diff.judged()));
  }
  return diff;
}

Status emit_diff(const DiffResult& diff, const ReportExports& exports, bool quiet) {
  return emit_forms({[&] { return format_diff_table(diff); }, [&] { return dump_report(diff_to_json(diff)); },
                     [&] { return diff_document(diff); }},
                    exports, quiet, diff.warnings);
}

}  // namespace ohprof
