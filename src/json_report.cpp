#include "ohprof/json_report.hpp"

#include <nlohmann/json.hpp>

#include "ohprof/atomic_file.hpp"

namespace ohprof {

using nlohmann::json;

json summary_to_json(const SampleSummary& summary) {
  return json{{"count", summary.count},   {"mean", summary.mean},
              {"stddev", summary.stddev}, {"median", summary.median},
              {"min", summary.min},       {"max", summary.max},
              {"relative_noise", summary.relative_noise}, {"outliers", summary.outliers}};
}

namespace {

json context_to_json(const RunContext& context) {
  return json{{"ohprof_version", context.ohprof_version},
              {"git_sha", context.git_sha},
              {"torch_version", context.torch_version},
              {"cuda_version", context.cuda_version},
              {"cupti_version", context.cupti_version},
              {"device",
               {{"type", context.device.type},
                {"index", context.device.index},
                {"name", context.device.name}}},
              {"argv", context.argv},
              {"date", context.date_utc},
              {"hostname", context.hostname},
              {"cpu_threads", context.cpu_threads}};
}

json path_to_json(const PathResult& path) {
  json out{{"name", path.name},
           {"artifact", path.artifact},
           {"load_ns", path.load_ns},
           {"warmup_ns", path.warmup_ns},
           {"samples_ns", path.wall_ns},
           {"wall_ns", summary_to_json(path.wall)},
           {"stop_reason", path.stop_reason}};
  out["split"] = path.split_unavailable_reason.empty()
                     ? json(nullptr)
                     : json{{"available", false}, {"reason", path.split_unavailable_reason}};
  return out;
}

}  // namespace

json report_to_json(const Report& report) {
  json paths = json::array();
  for (const auto& path : report.paths) paths.push_back(path_to_json(path));
  return json{{"schema_version", kReportSchemaVersion},
              {"kind", report.kind},
              {"context", context_to_json(report.context)},
              {"config",
               {{"warmup", report.config.warmup},
                {"runs", report.config.runs},
                {"seed", report.config.seed},
                {"inputs", report.config.inputs}}},
              {"paths", paths},
              {"interrupted", report.interrupted},
              {"warnings", report.warnings}};
}

Status write_json_report(const Report& report, const std::string& path) {
  return write_file_atomically(path, report_to_json(report).dump(2) + "\n");
}

}  // namespace ohprof
