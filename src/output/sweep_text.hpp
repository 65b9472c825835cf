#pragma once
// Text of the sweep's derived figures, shared by its table and its Markdown (private to the output layer).
#include <string>

#include "ohprof/model/sweep.hpp"

namespace ohprof {

// "10.6 [10.5, 10.7]", with "*" when the interval reaches the tolerance band.
std::string ratio_text(const SweepRatio& ratio);
// "c = 38.9 us [36.0 us, 40.0 us], k = 25 ns [...] per item; 13 points, left out ...; split host time at batch 1: ..."
std::string fit_text(const SweepFit& fit, const std::string& axis);

}  // namespace ohprof
