#include "ohprof/report_output.hpp"

#include <fmt/core.h>

#include <utility>

#include "ohprof/console.hpp"
#include "ohprof/json_report.hpp"
#include "ohprof/table_printer.hpp"

namespace ohprof {

void add_warning(Report& report, const std::string& message) {
  console::warning(message);
  report.warnings.push_back(message);
}

Status emit_report(const Report& report, const std::string& export_json, bool quiet) {
  if (!quiet && export_json != "-") fmt::print("{}", format_run_table(report));
  if (!export_json.empty()) return write_json_report(report, export_json);
  return ok_status();
}

ReportCheckpoint::ReportCheckpoint(std::string export_json, std::int64_t now_ns, std::int64_t interval_ns)
    : m_export_json(std::move(export_json)),
      m_to_file(!m_export_json.empty() && m_export_json != "-"),
      m_interval_ns(interval_ns),
      m_last_ns(now_ns) {}

bool ReportCheckpoint::due(std::int64_t now_ns) const { return m_to_file && now_ns - m_last_ns >= m_interval_ns; }

void ReportCheckpoint::write(Report report, std::int64_t now_ns) {
  m_last_ns = now_ns;
  if (!m_to_file) return;
  report.stop_reason = kCheckpointStopReason;
  if (write_json_report(report, m_export_json).ok()) ++m_written;
}

}  // namespace ohprof
