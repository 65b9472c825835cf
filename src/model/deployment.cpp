#include "ohprof/model/deployment.hpp"

namespace ohprof {

const char* to_string(DeployCriterion criterion) {
  switch (criterion) {
    case DeployCriterion::latency: return "latency";
    case DeployCriterion::throughput: return "throughput";
    case DeployCriterion::cold_start: return "cold-start";
    case DeployCriterion::warm_start: return "warm-start";
  }
  return "latency";
}

}  // namespace ohprof
