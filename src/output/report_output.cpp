#include "ohprof/output/report_output.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <iterator>
#include <utility>


#include "ohprof/base/console.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/base/atomic_file.hpp"
#include "ohprof/output/html_report.hpp"
#include "ohprof/output/markdown_report.hpp"
#include "ohprof/output/table_printer.hpp"

namespace ohprof {

void add_warning(Report& report, Warning warning) {
  console::warning(warning.message);
  report.warnings.push_back(std::move(warning));
}

Status check_report_exports(const ReportExports& exports) {
  if (exports.json == "-" && exports.markdown == "-") {
    return make_error(ExitCode::usage_error, "--export-json - and --export-markdown - both name stdout; give a file to one of them");
  }
  if (exports.html == "-") return make_error(ExitCode::usage_error, "--export-html needs a file name, not -");
  const std::pair<const char*, const std::string*> files[] = {{"--export-json", &exports.json},
                                                              {"--export-markdown", &exports.markdown},
                                                              {"--export-html", &exports.html},
                                                              {"--export-trace", &exports.trace}};
  for (std::size_t i = 0; i < std::size(files); ++i) {
    for (std::size_t j = i + 1; j < std::size(files); ++j) {
      const std::string& a = *files[i].second;
      if (!a.empty() && a != "-" && a == *files[j].second) {
        return make_error(ExitCode::usage_error, fmt::format("{} and {} name the same file '{}'; give each its own",
                                                             files[i].first, files[j].first, a));
      }
    }
  }
  return ok_status();
}

Status emit_report(const Report& report, const ReportExports& exports, bool quiet) {
  if (!quiet && exports.json != "-" && exports.markdown != "-") fmt::print("{}", format_run_table(report));
  // the JSON first: it holds every number, and a Markdown that cannot be written must not lose it
  Status json = exports.json.empty() ? ok_status() : write_json_report(report, exports.json);
  Status markdown = exports.markdown.empty() ? ok_status() : write_file_atomically(exports.markdown, format_markdown(report));
  Status html = exports.html.empty() ? ok_status() : write_file_atomically(exports.html, format_html(report));
  if (!json.ok()) return json;
  return markdown.ok() ? html : markdown;
}

}  // namespace ohprof
