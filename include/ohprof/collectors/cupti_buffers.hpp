#pragma once
// The activity buffers ohprof hands CUPTI, and the completed ones CUPTI hands back (src/collectors/cupti_buffers.cpp).
// CUPTI's buffer callbacks are plain functions without user data, called from any thread (the completion
// callback from CUPTI's own), and from inside any CUPTI call: the collector's callbacks reach the one pool
// of the process (process_buffer_pool) and do nothing else. Every member takes the pool's lock only for
// its own bookkeeping; zeroing and freeing happen outside it. Definitions: docs/cupti.md.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace ohprof {

struct FreeDeleter {
  void operator()(std::uint8_t* p) const;
};
using ActivityBuffer = std::unique_ptr<std::uint8_t, FreeDeleter>;

struct CompletedBuffer {
  ActivityBuffer data;
  std::size_t valid_bytes = 0;
};

class ActivityBufferPool {
 public:
  // The one collector of the process takes the pool: false when another holds it. release() gives it back.
  bool claim();
  void release();

  // Before a run: buffers of `bytes` (rounded up to a multiple of 8, at least 64 KiB) from now on, and
  // `count` of them allocated and zeroed now (fewer when memory is short; buffers of another size are
  // freed). Clears the completed buffers and the count of buffers zeroed in the run.
  void prepare(std::size_t bytes, std::size_t count);
  [[nodiscard]] std::size_t buffer_bytes() const;
  [[nodiscard]] std::size_t prepared() const;

  // CUPTI asks for a buffer: a prepared one, else one allocated and zeroed now (counted). Null when
  // memory is short (CUPTI then drops records and counts them); `bytes` is its size (0 with null).
  ActivityBuffer request(std::size_t& bytes);
  // CUPTI hands a buffer back with `valid_bytes` of records: kept while accepting, else freed.
  void complete(ActivityBuffer buffer, std::size_t valid_bytes);

  // Between accept() and take() or discard(), completed buffers are kept for the collector.
  void accept();
  struct Taken {
    std::vector<CompletedBuffer> buffers;  // in the order CUPTI completed them
    std::uint64_t zeroed_in_run = 0;       // buffers request() had to zero since prepare()
  };
  // Stops accepting and hands over what was kept.
  Taken take();
  // Stops accepting and frees what was kept.
  void discard();

 private:
  mutable std::mutex m_mutex;
  bool m_claimed = false;
  bool m_accepting = false;
  std::size_t m_bytes = std::size_t{8} << 20;
  std::vector<CompletedBuffer> m_completed;
  std::vector<ActivityBuffer> m_prepared;  // zeroed, of m_prepared_bytes each
  std::size_t m_prepared_bytes = 0;
  std::uint64_t m_zeroed_in_run = 0;
};

// The pool CUPTI's callbacks reach. Never destroyed: CUPTI may call back during process exit.
ActivityBufferPool& process_buffer_pool();

}  // namespace ohprof
