#include "ohprof/model/diff.hpp"

#include <algorithm>

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

std::optional<DigestKind> parse_digest_kind(const std::string& text) { return parse_enum<DigestKind>(text); }

std::optional<DigestFlaw> digest_flaw(const PathResult& path) {
  if (path.output_check && !path.output_check->passed) return DigestFlaw::outputs_differ;
  if (ran_uncompiled(path)) return DigestFlaw::ran_uncompiled;
  if (path.execution && path.execution->pooled) return DigestFlaw::samples_pooled;
  return std::nullopt;
}

bool is_worse(DiffVerdict verdict) { return verdict == DiffVerdict::slower || verdict == DiffVerdict::larger; }

DiffOutcome DiffResult::outcome() const {
  if (!incomparable.empty() && !config.force) return DiffOutcome::incomparable;
  if (judged() == 0) return DiffOutcome::nothing_judged;
  return regression() ? DiffOutcome::regression : DiffOutcome::no_regression;
}

bool DiffResult::regression() const {
  return std::any_of(paths.begin(), paths.end(), [](const PathDiff& p) { return is_worse(p.verdict); }) ||
         std::any_of(deployment.begin(), deployment.end(), [](const DeploymentDiff& d) { return is_worse(d.verdict); });
}

std::size_t DiffResult::judged() const {
  return static_cast<std::size_t>(
      std::count_if(paths.begin(), paths.end(), [](const PathDiff& p) { return p.verdict != DiffVerdict::unknown; }) +
      std::count_if(deployment.begin(), deployment.end(),
                    [](const DeploymentDiff& d) { return d.verdict != DiffVerdict::unknown; }));
}

}  // namespace ohprof
