#pragma once
// A stable sort for data that mostly arrives in order: a trace's records are written nearly sorted by
// start (a few dozen inversions in tens of thousands), where std::stable_sort still merges every element
// log n times. Here sorted input costs one comparison per element, and r ascending runs cost
// O(n log r) moves: adjacent runs merged pairwise (std::inplace_merge, which is stable) until one is left.
#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

namespace ohprof {

template <class RandomIt, class Less>
void stable_sort_runs(RandomIt first, RandomIt last, Less less) {
  const auto n = static_cast<std::size_t>(last - first);
  if (n < 2) return;
  std::vector<std::size_t> bounds{0};  // where each run begins, then n
  for (std::size_t i = 1; i < n; ++i) {
    if (less(first[i], first[i - 1])) bounds.push_back(i);  // a strict descent: equal elements stay in one run
  }
  if (bounds.size() == 1) return;
  if (bounds.size() > 64 && bounds.size() > n / 8) {  // far from sorted: the general algorithm does better
    std::stable_sort(first, last, less);
    return;
  }
  bounds.push_back(n);
  while (bounds.size() > 2) {
    std::vector<std::size_t> merged{0};
    for (std::size_t j = 0; j + 1 < bounds.size(); j += 2) {
      if (j + 2 < bounds.size()) {
        std::inplace_merge(first + static_cast<std::ptrdiff_t>(bounds[j]), first + static_cast<std::ptrdiff_t>(bounds[j + 1]),
                           first + static_cast<std::ptrdiff_t>(bounds[j + 2]), less);
        merged.push_back(bounds[j + 2]);
      } else {
        merged.push_back(bounds[j + 1]);  // an odd run out: merged in the next round
      }
    }
    bounds.swap(merged);
  }
}

}  // namespace ohprof
