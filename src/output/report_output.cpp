#include "ohprof/output/report_output.hpp"

#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iterator>
#include <optional>
#include <utility>


#include "ohprof/base/console.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/base/atomic_file.hpp"
#include "ohprof/output/html_report.hpp"
#include "ohprof/output/markdown_report.hpp"
#include "ohprof/output/table_printer.hpp"
#include "report_forms.hpp"

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

Status emit_forms(const ReportForms& forms, const ReportExports& exports, bool quiet,
                  const std::vector<Warning>& print_warnings) {
  for (const Warning& warning : print_warnings) console::warning(warning.message);
  if (!quiet && forms.table && exports.json != "-" && exports.markdown != "-") fmt::print("{}", forms.table());
  const auto write = [](const std::string& path, const std::function<std::string()>& form) {
    return path.empty() || !form ? ok_status() : write_file_atomically(path, form());
  };
  std::optional<Document> document;
  const auto drawn = [&](std::string (*render)(const Document&)) -> std::function<std::string()> {
    if (!forms.document) return {};
    return [&document, &forms, render] {
      if (!document) document = forms.document();
      return render(*document);
    };
  };
  Status json = write(exports.json, forms.json);
  Status markdown = write(exports.markdown, drawn(render_markdown));
  Status html = write(exports.html, forms.page ? drawn(render_html) : std::function<std::string()>());
  if (!json.ok()) return json;
  return markdown.ok() ? html : markdown;
}

Status emit_report(const Report& report, const ReportExports& exports, bool quiet, bool print_warnings) {
  return emit_forms({[&] { return format_run_table(report); }, [&] { return dump_report(report_to_json(report)); },
                     [&] { return report_document(report); }},
                    exports, quiet, print_warnings ? report.warnings : std::vector<Warning>{});
}

}  // namespace ohprof
