#pragma once
// What a report kind can be written as, and the one emitter that writes them (docs/architecture.md,
// "Where a new thing goes": an output format). Private to src/output; each kind's emit_* (report_output,
// diff_report, ranks_report, sweep_table) hands its forms to emit_forms.
#include <functional>
#include <string>
#include <vector>

#include "ohprof/base/error.hpp"
#include "ohprof/model/warning.hpp"
#include "ohprof/output/report_output.hpp"
#include "document.hpp"

namespace ohprof {

// Each form made only when asked for: the table for people, the JSON, and the document every renderer
// draws (render_markdown, render_html). A form a kind lacks is left empty (and `page` false when it has
// no HTML page), and its command offers no flag for it.
struct ReportForms {
  std::function<std::string()> table;
  std::function<std::string()> json;
  std::function<Document()> document;
  bool page = true;  // --export-html draws the document as a page
};

// The report's warnings on stderr (`print_warnings`: those a session did not print as they came), the
// table on stdout (unless `quiet`, or a report goes to stdout), then the JSON, the Markdown and the HTML
// where `exports` names them, each written atomically. The JSON first: it holds every number, and a page
// that cannot be written must not lose it. The document is built once, for every form drawn from it.
Status emit_forms(const ReportForms& forms, const ReportExports& exports, bool quiet,
                  const std::vector<Warning>& print_warnings = {});

}  // namespace ohprof
