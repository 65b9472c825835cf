#include "ohprof/session/checkpoint.hpp"

#include <algorithm>
#include <utility>

#include "ohprof/output/json_report.hpp"

namespace ohprof {

ReportCheckpoint::ReportCheckpoint(std::string export_json, std::function<std::int64_t()> clock_ns,
                                   std::int64_t min_interval_ns, double max_share)
    : m_export_json(std::move(export_json)),
      m_to_file(!m_export_json.empty() && m_export_json != "-"),
      m_clock_ns(std::move(clock_ns)),
      m_min_interval_ns(min_interval_ns),
      m_max_share(max_share),
      m_last_end_ns(m_clock_ns()),
      m_gap_ns(min_interval_ns) {}

bool ReportCheckpoint::due() const { return m_to_file && m_clock_ns() - m_last_end_ns >= m_gap_ns; }

void ReportCheckpoint::write(const std::function<Report()>& snapshot) {
  if (!m_to_file) return;
  const std::int64_t start = m_clock_ns();
  Report report = snapshot();
  report.stop_reason = kCheckpointStopReason;
  if (write_json_report(report, m_export_json).ok()) ++m_written;
  m_last_end_ns = m_clock_ns();
  // writing / (writing + gap) <= max_share
  const double writing = static_cast<double>(m_last_end_ns - start);
  m_gap_ns = std::max(m_min_interval_ns, static_cast<std::int64_t>(writing * (1 - m_max_share) / m_max_share));
}

}  // namespace ohprof
