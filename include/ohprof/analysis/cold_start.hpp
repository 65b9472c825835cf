#pragma once
// compare --cold-start (docs/metrics.md, "Cold start"): one process's phases from its timestamps, a
// state's medians, and how a warm cache's starts stand against a cold one's. Pure functions.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ohprof/model/cold_start.hpp"

namespace ohprof {

// What one fresh process reported, on CLOCK_MONOTONIC (ColdStartSample's comment names each step).
struct ColdStartTimes {
  std::int64_t spawn_ns = 0;   // the parent's clock just before it started the process
  std::int64_t main_ns = 0;    // the child's first statement
  std::int64_t torch_ns = 0;   // after import torch
  std::int64_t tool_ns = 0;    // after ohprof's own module, inputs and reference were read
  std::int64_t loaded_ns = 0;  // the path is ready to call
  std::int64_t first_ns = 0;   // its first call returned (and the device synchronised)
  std::int64_t compile_ns = 0; // compile events' time inside the first call
  std::int64_t hook_ns = 0;    // ohprof's own time inside the load (installing its compile log): not counted
};

// The phases of one process, or an error line when the timestamps are not in order (a child whose clock
// is not the parent's, or a broken result).
struct PhaseResult {
  std::optional<ColdStartSample> sample;
  std::string error;
};
PhaseResult cold_start_phases(const ColdStartTimes& times);

// The state's medians and range from its samples (median unset without samples).
void summarize_cold_start(ColdStartState& state);

// C(n + m, n): the orders of n and m totals, each equally likely when the two do not differ.
double start_orders(std::size_t n, std::size_t m);

// Where `values` stand against `against`, by rank: faster (every one below every one of `against`), slower (every
// one above), overlapping, or too_few (fewer than kColdStartOrderCombinations possible orders; model/cold_start.hpp,
// ColdStartOrder); nullopt when either is empty. The cold start's totals use it, and the fresh peaks (the
// deployment summary's criterion, the diff's figure).
std::optional<ColdStartOrder> rank_order(const std::vector<std::int64_t>& values, const std::vector<std::int64_t>& against);

// Where the totals of `state` stand against the totals of `cold`, by rank (model/cold_start.hpp,
// ColdStartOrder: too_few for an order with fewer than kColdStartOrderCombinations possible orders);
// nullopt when either has no sample.
std::optional<ColdStartOrder> order_against(const std::vector<ColdStartSample>& state,
                                            const std::vector<ColdStartSample>& cold);

// summarize_cold_start on every state, then against_cold and speedup_vs_cold of the warm and artifacts
// states when the path has a cold state with samples.
void summarize_path_cold_start(PathColdStart& path);

}  // namespace ohprof
