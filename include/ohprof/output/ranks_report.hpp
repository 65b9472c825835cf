#pragma once
// Many ranks (docs/ranks.md): a rank's digest read from its one-trace report, the ranks report's JSON
// (docs/report-schema.md, "The ranks report") both ways, and its table and Markdown.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ohprof/base/error.hpp"
#include "ohprof/model/ranks.hpp"
#include "ohprof/output/report_output.hpp"

namespace ohprof {

// The digest of an `analyze` report of one trace (its JSON, as report_to_json writes it). The rank is
// the trace's distributedInfo.rank, else `position` (rank_from "position"). Errors (usage_error, naming
// `label`): not a one-trace analyze report, a field missing, or no rank and no position.
Result<RankDigest> rank_digest_from_report(const nlohmann::json& report, const std::string& label,
                                           std::optional<std::int64_t> position);

nlohmann::json ranks_report_to_json(const RanksReport& report);

// What `ohprof merge` takes from one input: a ranks report's digests, failed traces and interrupted
// flag, or an analyze report's digest.
struct RanksParts {
  std::vector<RankDigest> ranks;
  std::vector<FailedTrace> failed;
  bool interrupted = false;
};
// Reads a ranks or one-trace analyze report (`label` names it in errors: usage_error "'F' is not ...").
Result<RanksParts> parse_ranks_parts(const nlohmann::json& report, const std::string& label);

// The table for people: the job, per rank its split and collectives, per step the straggler.
std::string format_ranks_table(const RanksReport& report);
std::string format_ranks_markdown(const RanksReport& report);

// The table on stdout (unless `quiet` or a report goes to stdout), then the JSON, the Markdown and the
// HTML page where `exports` names them (exports.trace must be empty).
Status emit_ranks_report(const RanksReport& report, const ReportExports& exports, bool quiet);

}  // namespace ohprof
