// stable_sort_runs is std::stable_sort: the same order, ties included, on sorted, nearly sorted,
// reversed and random input.
#include "ohprof/base/sorting.hpp"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

namespace ohprof {
namespace {

using Item = std::pair<int, std::size_t>;  // (key, position before sorting): ties must keep their order
bool by_key(const Item& a, const Item& b) { return a.first < b.first; }

TEST(StableSortRuns, IsStdStableSortOnAnyInput) {
  std::mt19937 rng(9);
  for (std::size_t size : {0, 1, 2, 3, 10, 100, 5000}) {
    for (int shape = 0; shape < 5; ++shape) {
      std::vector<Item> items(size);
      std::uniform_int_distribution<int> key(0, shape == 4 ? 3 : 1000);  // shape 4: mostly ties
      for (std::size_t i = 0; i < size; ++i) items[i] = {key(rng), i};
      if (shape == 1 || shape == 2) std::stable_sort(items.begin(), items.end(), by_key);  // sorted
      if (shape == 2 && size > 1) {
        for (int swaps = 0; swaps < 1 + static_cast<int>(size / 500); ++swaps) {  // then a few out of place
          std::swap(items[rng() % size], items[rng() % size]);
        }
      }
      if (shape == 3) std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.first > b.first; });
      for (std::size_t i = 0; i < size; ++i) items[i].second = i;
      std::vector<Item> expected = items;
      std::stable_sort(expected.begin(), expected.end(), by_key);
      stable_sort_runs(items.begin(), items.end(), by_key);
      EXPECT_EQ(items, expected) << "size " << size << ", shape " << shape;
    }
  }
}

TEST(StableSortRuns, MergesAFewRunsWithoutTheGeneralSort) {
  // Three ascending runs with ties across them: 1 2 2 5 | 0 2 9 | 2 3
  std::vector<Item> items = {{1, 0}, {2, 1}, {2, 2}, {5, 3}, {0, 4}, {2, 5}, {9, 6}, {2, 7}, {3, 8}};
  stable_sort_runs(items.begin(), items.end(), by_key);
  EXPECT_EQ(items, (std::vector<Item>{{0, 4}, {1, 0}, {2, 1}, {2, 2}, {2, 5}, {2, 7}, {3, 8}, {5, 3}, {9, 6}}));
}

}  // namespace
}  // namespace ohprof
