#pragma once
// Sums and products of nanoseconds that stay at int64's limits instead of overflowing. A damaged trace
// can hold times near the limit (a window of 2e18 ns, found by the fuzzer); real ones stay far below it,
// where these are the plain + and *.
#include <cstdint>
#include <limits>

namespace ohprof {

inline std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (!__builtin_add_overflow(a, b, &out)) return out;
  return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

inline std::int64_t saturating_mul(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (!__builtin_mul_overflow(a, b, &out)) return out;
  return (a > 0) == (b > 0) ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

// `total += part`, saturating.
inline void accumulate(std::int64_t& total, std::int64_t part) { total = saturating_add(total, part); }

}  // namespace ohprof
