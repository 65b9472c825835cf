#pragma once
// The cross-rank view of a distributed job (docs/ranks.md, "The cross-rank view, step by step"): a pure
// function of the ranks' digests, so that `ohprof merge` of the parts of a job gives the view of the
// whole. No timestamps are compared across ranks, only durations.
#include <vector>

#include "ohprof/model/ranks.hpp"
#include "ohprof/model/warning.hpp"

namespace ohprof {

// The view of `ranks`, which must be sorted by rank with each rank once (ranks_report checks it).
CrossRankView cross_rank_view(const std::vector<RankDigest>& ranks);

// The job's warnings: ranks taken from positions, steps that some ranks lack, collectives that do not
// line up, traces that disagree on the world size or backend.
std::vector<Warning> cross_rank_warnings(const std::vector<RankDigest>& ranks, const CrossRankView& view);

}  // namespace ohprof
