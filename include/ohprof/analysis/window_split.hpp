#pragma once
// The one attribution of launch calls and device ops to iteration windows, and the one tiling of a
// window into busy intervals and idle gaps (docs/metrics.md, "Which records are used", "Idle split").
// analyze_timeline sums the segments into its numbers; `--export-trace` writes them as slices.
// tile_window is here (a template); the rest is in src/analysis/breakdown.cpp.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "ohprof/model/breakdown.hpp"
#include "ohprof/model/timeline.hpp"

namespace ohprof {

inline constexpr std::size_t kNoIndex = std::numeric_limits<std::size_t>::max();

enum class SplitSegmentKind { head, busy, host_bound, other, tail };

// One piece of a window: [start, end) of one kind. A track's segments tile its window.
struct SplitSegment {
  SplitSegmentKind kind = SplitSegmentKind::busy;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

struct SplitTrack {
  std::optional<StreamKey> stream;  // empty: all streams together
  std::vector<SplitSegment> segments;
};

// "busy", "head", "host-bound gap", "other gap", "tail".
const char* to_string(SplitSegmentKind kind);

// A timed device op (not start == end == 0, not end < start) attributed to a window.
struct AttributedOp {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  StreamKey stream;
  std::optional<std::int64_t> launch_start_ns;  // start of its launch call; empty when it has none
  std::size_t launch = kNoIndex;                // its launch call in Timeline::launches, or kNoIndex
  std::size_t source = 0;                       // its index in Timeline::ops
};

// Which window every launch call and device op belongs to. Move-only: the op groups point into `ops`.
class WindowAttribution {
 public:
  explicit WindowAttribution(const Timeline& timeline);
  WindowAttribution(const WindowAttribution&) = delete;
  WindowAttribution& operator=(const WindowAttribution&) = delete;
  WindowAttribution(WindowAttribution&&) = default;
  WindowAttribution& operator=(WindowAttribution&&) = default;

  std::vector<IterationWindow> windows;                   // end >= start, stably sorted by start
  std::vector<std::size_t> launch_window;                 // per Timeline::launches: window, or kNoIndex
  std::vector<std::vector<std::size_t>> window_launches;  // per window: its launch calls, in input order
  std::vector<AttributedOp> ops;                          // attributed timed ops, in input order
  std::vector<StreamKey> streams;                         // every stream of `ops`, sorted
  AnalysisCounters counters;                              // what could not be attributed, and totals

  // A window's ops, sorted by (start, end): all streams, or those of streams[stream].
  [[nodiscard]] std::span<const AttributedOp* const> ops_of(std::size_t window) const;
  [[nodiscard]] std::span<const AttributedOp* const> ops_of(std::size_t window, std::size_t stream) const;

 private:
  std::vector<const AttributedOp*> m_by_window;         // grouped by window
  std::vector<std::size_t> m_window_begin;              // windows + 1 bounds into m_by_window
  std::vector<const AttributedOp*> m_by_stream;         // grouped by (window, stream)
  std::vector<std::size_t> m_stream_begin;              // windows * streams + 1 bounds into m_by_stream
};

// Tiles [window_start, window_end) into head, busy, host-bound gap, other gap and tail segments, none
// empty, for `ops` sorted by (start, end) and clipped to the window: calls emit(const SplitSegment&)
// for each, in time order. A gap is host-bound when every op that starts the busy interval after it
// was launched after the gap began. A template so that the analysis sums the segments without storing them.
template <typename Emit>
void tile_window(std::span<const AttributedOp* const> ops, std::int64_t window_start, std::int64_t window_end,
                 Emit&& emit) {
  const auto launched_after = [](const AttributedOp& op, std::int64_t t) {
    return op.launch_start_ns.has_value() && *op.launch_start_ns >= t;
  };
  bool have_interval = false;
  std::int64_t busy_start = 0;
  std::int64_t busy_end = 0;
  bool have_gap = false;  // the gap before the current busy interval, emitted once its kind is final
  SplitSegment gap;
  for (const AttributedOp* op : ops) {
    const std::int64_t start = op->start_ns > window_start ? op->start_ns : window_start;
    const std::int64_t end = op->end_ns < window_end ? op->end_ns : window_end;
    if (end <= start) continue;  // zero length, or wholly outside the window
    if (!have_interval) {
      have_interval = true;
      if (start > window_start) emit(SplitSegment{SplitSegmentKind::head, window_start, start});
      busy_start = start;
      busy_end = end;
    } else if (start > busy_end) {
      if (have_gap) emit(gap);
      emit(SplitSegment{SplitSegmentKind::busy, busy_start, busy_end});
      gap = SplitSegment{launched_after(*op, busy_end) ? SplitSegmentKind::host_bound : SplitSegmentKind::other,
                         busy_end, start};
      have_gap = true;
      busy_start = start;
      busy_end = end;
    } else {
      if (have_gap && start == busy_start && !launched_after(*op, gap.start_ns)) gap.kind = SplitSegmentKind::other;
      if (end > busy_end) busy_end = end;
    }
  }
  if (have_interval) {
    if (have_gap) emit(gap);
    emit(SplitSegment{SplitSegmentKind::busy, busy_start, busy_end});
    if (window_end > busy_end) emit(SplitSegment{SplitSegmentKind::tail, busy_end, window_end});
  } else if (window_end > window_start) {
    emit(SplitSegment{SplitSegmentKind::head, window_start, window_end});
  }
}

// The same segments, as a list.
std::vector<SplitSegment> tile_window(std::span<const AttributedOp* const> ops, std::int64_t window_start,
                                      std::int64_t window_end);

}  // namespace ohprof
