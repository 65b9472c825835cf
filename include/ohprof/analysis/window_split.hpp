#pragma once
// The one attribution of records to iteration windows, and the one walk along the device timeline (a
// sweep line over its events; "walk" here, since `sweep` is the batch sweep's command) (docs/metrics.md,
// "Which records are used", "The launch queue", "Per iteration"): analyze_timeline sums the walk's
// intervals into its numbers; `--export-trace` writes them as slices.
// walk_windows is here (a template); the rest is in src/analysis/breakdown.cpp.
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "ohprof/base/enum_text.hpp"
#include "ohprof/model/breakdown.hpp"
#include "ohprof/model/timeline.hpp"

namespace ohprof {

inline constexpr std::size_t kNoIndex = std::numeric_limits<std::size_t>::max();

// What the device was doing in a stretch of time: running an op, waiting with ops pending, or waiting
// for the host with nothing pending.
#define OHPROF_SPLIT_SEGMENT_KIND_VALUES(X) \
  X(busy, "busy")                           \
  X(device_wait, "device-wait")             \
  X(host_bound, "host-bound")
OHPROF_ENUM_CLASS(SplitSegmentKind, OHPROF_SPLIT_SEGMENT_KIND_VALUES)

// One piece of a window: [start, end) of one kind.
struct SplitSegment {
  SplitSegmentKind kind = SplitSegmentKind::busy;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

struct SplitTrack {
  std::optional<StreamKey> stream;  // empty: all streams together
  std::vector<SplitSegment> segments;
};


// A timed device op (not start == end == 0, not end < start).
struct AttributedOp {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t pending_ns = 0;                  // start of its pending interval (docs: "The launch queue")
  StreamKey stream;
  std::size_t stream_index = 0;                 // its stream in WindowAttribution::streams
  std::size_t window = kNoIndex;                // its own window (the launching one), or kNoIndex
  std::size_t launch = kNoIndex;                // its launch call in Timeline::launches, or kNoIndex
  std::size_t source = 0;                       // its index in Timeline::ops
};

// A change of the walk's state at one instant.
struct TimelineEvent {
  enum class Kind : std::uint8_t {
    pending,          // an op's pending interval (stream: its index)
    running,          // an op's running interval (stream: its index)
    communication,    // a communication op's running interval (stream: its index)
    blocking,         // a blocking call on a launching thread
    launch,           // a non-blocking launch call of at most kSlowLaunchNs
    slow_launch,      // a non-blocking launch call of more than kSlowLaunchNs (loading code)
    api,              // an API call on a launching thread
    harness,          // the harness's own sync, on a launching thread
    blocking_elsewhere,  // a blocking call on another thread (host side only)
    api_elsewhere,       // an API call on another thread (host side only)
    window,           // a window opens (+1) or closes (-1); `index` is its position in the windows
  };
  std::int64_t t = 0;
  Kind kind = Kind::window;
  std::int8_t delta = 0;   // +1 opens, -1 closes
  std::uint32_t index = 0; // the stream (pending, running) or the window (window)
};
// Sixteen bytes: a trace's walk holds hundreds of thousands of them, sorted in several passes.
static_assert(sizeof(TimelineEvent) == 16);

// The state of the device and the host during one stretch [start, end) of a window.
struct TimelineState {
  std::int64_t running = 0;  // ops running, all streams
  std::int64_t pending = 0;  // ops pending, all streams
  std::span<const std::int64_t> stream_running;  // per stream index
  std::span<const std::int64_t> stream_pending;
  std::int64_t communication = 0;                // communication ops running, all streams
  std::span<const std::int64_t> stream_communication;
  std::int64_t blocking = 0;            // blocking calls open on launching threads
  std::int64_t launch = 0;              // non-blocking launch calls of at most kSlowLaunchNs open
  std::int64_t slow_launch = 0;         // longer non-blocking launch calls open
  std::int64_t api = 0;                 // API calls open on launching threads
  std::int64_t harness = 0;             // the harness's sync open
  std::int64_t blocking_elsewhere = 0;  // on other threads
  std::int64_t api_elsewhere = 0;

  [[nodiscard]] SplitSegmentKind device() const {
    return running > 0 ? SplitSegmentKind::busy : pending > 0 ? SplitSegmentKind::device_wait : SplitSegmentKind::host_bound;
  }
  [[nodiscard]] SplitSegmentKind stream_device(std::size_t s) const {
    return stream_running[s] > 0   ? SplitSegmentKind::busy
           : stream_pending[s] > 0 ? SplitSegmentKind::device_wait
                                   : SplitSegmentKind::host_bound;
  }
  // docs/metrics.md, "Host states": the first that holds.
  [[nodiscard]] HostState host() const {
    return blocking > 0                    ? HostState::blocking
           : launch > 0                    ? HostState::launch
           : api > 0 || slow_launch > 0    ? HostState::other_api
           : harness > 0                   ? HostState::harness
                                           : HostState::framework;
  }
  // Any non-blocking launch call open (the host side's launch API time).
  [[nodiscard]] bool in_launch() const { return launch + slow_launch > 0; }
};

// The events in time order, ties in the order given (a stable sort by `t`; a radix sort, breakdown.cpp).
void sort_by_time(std::vector<TimelineEvent>& events);

// Which window every launch call and device op belongs to, and the walk's events. Move-only: the op
// groups point into `ops`.
// When an op whose launch call is not in the data (and was not launched before the recording) starts
// pending (docs/metrics.md, "Ops without a launch call"): at its own start (the split's figures), or at the
// earliest its launch can have been (the other end of their bounds).
enum class UnlinkedPending { at_start, earliest };

class WindowAttribution {
 public:
  explicit WindowAttribution(const Timeline& timeline, UnlinkedPending unlinked = UnlinkedPending::at_start);
  WindowAttribution(const WindowAttribution&) = delete;
  WindowAttribution& operator=(const WindowAttribution&) = delete;
  WindowAttribution(WindowAttribution&&) = default;
  WindowAttribution& operator=(WindowAttribution&&) = default;

  std::vector<IterationWindow> windows;                   // end >= start, stably sorted by start
  std::vector<std::size_t> launch_window;                 // per Timeline::launches: window, or kNoIndex
  std::vector<std::vector<std::size_t>> window_launches;  // per window: its launch calls, in input order
  std::vector<bool> launch_blocking;                      // per Timeline::launches (docs: "Blocking launch calls")
  std::vector<std::int64_t> launch_first_op_ns;           // per Timeline::launches: its first timed op's start, or max
  std::vector<AttributedOp> ops;                          // every timed op, in input order
  std::vector<StreamKey> streams;                         // every stream of an op pending in or launched by a window
  std::vector<std::size_t> stream_device;                 // per stream: its device's position in `devices`
  std::vector<std::int32_t> devices;                      // the devices of `streams`, sorted
  std::vector<std::size_t> ran_in_window;                 // per window: timed ops that ran in it (clipped length > 0)
  std::vector<std::size_t> ran_in_window_stream;          // per (window, stream): the same, window * streams + stream
  std::vector<TimelineEvent> events;                      // sorted by time (window bounds included), sort_by_time
  AnalysisCounters counters;                              // what could not be attributed, and totals
  // Timed ops without a launch call in the data that were not launched before the recording (a GPU
  // timeline only): when they were queued is not known.
  std::size_t ops_queue_unknown = 0;

  // A window's own ops (launched by it), sorted by (start, end): all streams, or those of streams[stream].
  [[nodiscard]] std::span<const AttributedOp* const> own_ops(std::size_t window) const;
  [[nodiscard]] std::span<const AttributedOp* const> own_ops(std::size_t window, std::size_t stream) const;

  // The window a record starting at t belongs to: the last window in (start, end) order with start <= t,
  // if t is before its end; else kNoIndex.
  [[nodiscard]] std::size_t window_at(std::int64_t t) const;

  // Calls fn(window) for every window of positive length that overlaps [lo, hi) (nothing when hi <= lo),
  // latest start first. [t, t + 1) gives the windows that contain time t.
  template <typename Fn>
  void for_each_window_overlapping(std::int64_t lo, std::int64_t hi, Fn&& fn) const {
    if (hi <= lo) return;
    const auto it = std::lower_bound(windows.begin(), windows.end(), hi,
                                     [](const IterationWindow& w, std::int64_t value) { return w.start_ns < value; });
    // m_prefix_end[w], the latest end of windows 0..w, stops the walk at the first that cannot overlap.
    for (auto w = static_cast<std::ptrdiff_t>(it - windows.begin()) - 1; w >= 0; --w) {
      const auto pos = static_cast<std::size_t>(w);
      if (m_prefix_end[pos] <= lo) break;
      if (windows[pos].end_ns > lo && windows[pos].end_ns > windows[pos].start_ns) fn(pos);
    }
  }

 private:
  std::vector<std::int64_t> m_prefix_end;               // per window: the latest end of windows 0..w
  std::vector<const AttributedOp*> m_by_window;         // own ops grouped by window
  std::vector<std::size_t> m_window_begin;              // windows + 1 bounds into m_by_window
  std::vector<const AttributedOp*> m_by_stream;         // grouped by (window, stream)
  std::vector<std::size_t> m_stream_begin;              // windows * streams + 1 bounds into m_by_stream
};

// Walks the device timeline inside the windows: calls visit(window, start, end, const TimelineState&)
// for every maximal stretch [start, end) of positive length over which the state does not change, once
// for each window that contains it (one, unless windows overlap), in time order. Time outside every
// window is skipped. One pass over the events.
template <typename Visit>
void walk_windows(const WindowAttribution& a, Visit&& visit) {
  std::vector<std::int64_t> stream_running(a.streams.size(), 0);
  std::vector<std::int64_t> stream_pending(a.streams.size(), 0);
  std::vector<std::int64_t> stream_communication(a.streams.size(), 0);
  std::vector<std::size_t> open;  // the windows containing the current stretch
  std::vector<std::int32_t> window_open(a.windows.size(), 0);
  TimelineState state;
  state.stream_running = stream_running;
  state.stream_pending = stream_pending;
  state.stream_communication = stream_communication;
  const auto& events = a.events;
  std::size_t i = 0;
  while (i < events.size()) {
    const std::int64_t t = events[i].t;
    for (; i < events.size() && events[i].t == t; ++i) {
      const TimelineEvent& e = events[i];
      switch (e.kind) {
        case TimelineEvent::Kind::pending:
          state.pending += e.delta;
          stream_pending[e.index] += e.delta;
          break;
        case TimelineEvent::Kind::running:
          state.running += e.delta;
          stream_running[e.index] += e.delta;
          break;
        case TimelineEvent::Kind::communication:
          state.communication += e.delta;
          stream_communication[e.index] += e.delta;
          break;
        case TimelineEvent::Kind::blocking: state.blocking += e.delta; break;
        case TimelineEvent::Kind::launch: state.launch += e.delta; break;
        case TimelineEvent::Kind::slow_launch: state.slow_launch += e.delta; break;
        case TimelineEvent::Kind::api: state.api += e.delta; break;
        case TimelineEvent::Kind::harness: state.harness += e.delta; break;
        case TimelineEvent::Kind::blocking_elsewhere: state.blocking_elsewhere += e.delta; break;
        case TimelineEvent::Kind::api_elsewhere: state.api_elsewhere += e.delta; break;
        case TimelineEvent::Kind::window: {
          // Counted, so that the order of a zero-length window's two bounds does not matter.
          std::int32_t& count = window_open[e.index];
          const bool was_open = count > 0;
          count += e.delta;
          if (!was_open && count > 0) {
            open.push_back(e.index);
          } else if (was_open && count <= 0) {
            open.erase(std::find(open.begin(), open.end(), static_cast<std::size_t>(e.index)));
          }
          break;
        }
      }
    }
    if (i == events.size()) break;
    const std::int64_t next = events[i].t;
    for (const std::size_t window : open) visit(window, t, next, static_cast<const TimelineState&>(state));
  }
}

// The slices of every window, for every track: all streams, then each of WindowAttribution::streams.
// Adjacent stretches of one kind are merged; per window and track the slices of each kind add up to
// the analysis's busy, device-wait and host-bound numbers.
struct QueueSample {
  std::int64_t t_ns = 0;
  std::int64_t depth = 0;  // ops pending from t_ns until the next sample (or the window's end)
};
struct WindowTracks {
  SplitTrack gpu;
  std::vector<SplitTrack> streams;
  std::vector<QueueSample> queue;  // the launch-queue depth, all streams, at every change
};
std::vector<WindowTracks> window_tracks(const WindowAttribution& attribution);

}  // namespace ohprof
