#pragma once
// What a PyTorch-profiler trace says of the distributed job it came from: its `distributedInfo`
// (docs/ranks.md). The trace reader fills it; the report carries it in `trace.distributed`.
#include <cstdint>
#include <optional>
#include <string>

namespace ohprof {

struct DistributedInfo {
  std::optional<std::int64_t> rank;        // distributedInfo.rank
  std::optional<std::int64_t> world_size;  // distributedInfo.world_size
  std::string backend;                     // distributedInfo.backend ("nccl", "gloo"), "" when absent
  friend bool operator==(const DistributedInfo&, const DistributedInfo&) = default;
};

}  // namespace ohprof
