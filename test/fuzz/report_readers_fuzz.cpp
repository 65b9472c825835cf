// libFuzzer target: arbitrary bytes as a report given to `ohprof diff` or `ohprof merge` (a user's file).
// Whatever the input, each reader returns a value or an error and throws nothing (errors are values at
// the output layer's boundary); a crash, a sanitizer report or an exception that escapes is a finding.
// When a run, compare or analyze report is read, it is written again and read back, and must give the
// same digest: the reader and the writer agree on whatever the reader accepted. Build and run with
// `tools/fuzz reports`.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "ohprof/output/diff_report.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/output/ranks_report.hpp"

namespace {

// What the diff takes of a report, in one comparable text.
std::string digest_text(const ohprof::ParsedDigest& parsed) {
  nlohmann::json j = nlohmann::json::array();
  for (const ohprof::DigestPath& p : parsed.digest.paths) {
    j.push_back(nlohmann::json::array({p.name, p.point ? nlohmann::json(*p.point) : nlohmann::json(),
                                       p.samples_ns, p.median_ns ? nlohmann::json(*p.median_ns) : nlohmann::json()}));
  }
  return j.dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::istringstream in(text);
  const auto digest = ohprof::parse_report_digest(in, "fuzz.json");  // diff's reader

  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  (void)ohprof::parse_ranks_parts(j, "fuzz.json");  // merge's reader
  (void)ohprof::rank_digest_from_report(j, "fuzz.json", 0);

  // A report the reader accepted, written and read again, gives the same digest.
  if (digest.ok() && digest->digest.kind != ohprof::DigestKind::sweep) {
    std::vector<ohprof::UnknownText> unknown;
    ohprof::Report report;
    try {
      report = ohprof::report_from_json(j, &unknown);
    } catch (const std::exception&) {
      std::abort();  // diff read it, so its reader must too
    }
    std::istringstream again(ohprof::report_to_json(report).dump());
    const auto reread = ohprof::parse_report_digest(again, "fuzz.json");
    if (!reread.ok() || digest_text(*reread) != digest_text(*digest)) std::abort();
  }
  return 0;
}
