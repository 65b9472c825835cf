// The activity buffer pool (include/ohprof/collectors/cupti_buffers.hpp).
#include "ohprof/collectors/cupti_buffers.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace ohprof {
namespace {

// A zeroed buffer of `bytes` (a multiple of 8), pages touched; null when memory is short.
ActivityBuffer zeroed_buffer(std::size_t bytes) {
  ActivityBuffer buffer(static_cast<std::uint8_t*>(std::aligned_alloc(8, bytes)));
  if (buffer) std::memset(buffer.get(), 0, bytes);
  return buffer;
}

}  // namespace

void FreeDeleter::operator()(std::uint8_t* p) const { std::free(p); }

bool ActivityBufferPool::claim() {
  std::lock_guard lock(m_mutex);
  if (m_claimed) return false;
  m_claimed = true;
  return true;
}

void ActivityBufferPool::release() {
  std::lock_guard lock(m_mutex);
  m_claimed = false;
}

void ActivityBufferPool::prepare(std::size_t bytes, std::size_t count) {
  std::size_t to_make = 0;
  std::vector<ActivityBuffer> stale;  // freed outside the lock
  std::vector<CompletedBuffer> old;
  {
    std::lock_guard lock(m_mutex);
    m_bytes = (std::max<std::size_t>(bytes, 64 * 1024) + 7) / 8 * 8;
    old.swap(m_completed);
    m_zeroed_in_run = 0;
    // Buffers of another size (an earlier collector's options) are of no use now.
    if (m_prepared_bytes != m_bytes) stale.swap(m_prepared);
    m_prepared_bytes = m_bytes;
    to_make = count - std::min(count, m_prepared.size());
    bytes = m_bytes;
  }
  std::vector<ActivityBuffer> fresh;
  for (std::size_t i = 0; i < to_make; ++i) {
    if (ActivityBuffer buffer = zeroed_buffer(bytes)) fresh.push_back(std::move(buffer));
  }
  std::lock_guard lock(m_mutex);
  for (ActivityBuffer& buffer : fresh) m_prepared.push_back(std::move(buffer));
}

std::size_t ActivityBufferPool::buffer_bytes() const {
  std::lock_guard lock(m_mutex);
  return m_bytes;
}

std::size_t ActivityBufferPool::prepared() const {
  std::lock_guard lock(m_mutex);
  return m_prepared.size();
}

ActivityBuffer ActivityBufferPool::request(std::size_t& bytes) {
  ActivityBuffer ready;
  {
    std::lock_guard lock(m_mutex);
    bytes = m_bytes;
    if (!m_prepared.empty()) {
      ready = std::move(m_prepared.back());
      m_prepared.pop_back();
    } else {
      ++m_zeroed_in_run;
    }
  }
  if (!ready) ready = zeroed_buffer(bytes);
  if (!ready) bytes = 0;
  return ready;
}

void ActivityBufferPool::complete(ActivityBuffer buffer, std::size_t valid_bytes) {
  std::unique_lock lock(m_mutex);
  if (!m_accepting) {
    lock.unlock();
    return;  // `buffer` is freed here, outside the lock
  }
  m_completed.push_back(CompletedBuffer{std::move(buffer), valid_bytes});
}

void ActivityBufferPool::accept() {
  std::lock_guard lock(m_mutex);
  m_accepting = true;
}

ActivityBufferPool::Taken ActivityBufferPool::take() {
  Taken taken;
  std::lock_guard lock(m_mutex);
  m_accepting = false;
  taken.buffers.swap(m_completed);
  taken.zeroed_in_run = m_zeroed_in_run;
  return taken;
}

void ActivityBufferPool::discard() {
  std::vector<CompletedBuffer> dropped;  // freed outside the lock
  std::lock_guard lock(m_mutex);
  m_accepting = false;
  dropped.swap(m_completed);
}

ActivityBufferPool& process_buffer_pool() {
  static auto* pool = new ActivityBufferPool;
  return *pool;
}

}  // namespace ohprof
