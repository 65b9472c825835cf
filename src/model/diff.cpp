#include "ohprof/model/diff.hpp"

#include <algorithm>

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

const char* to_string(DigestKind kind) {
  switch (kind) {
    case DigestKind::run: return "run";
    case DigestKind::compare: return "compare";
    case DigestKind::analyze: return "analyze";
    case DigestKind::sweep: return "sweep";
  }
  return "run";
}

std::optional<DigestKind> parse_digest_kind(const std::string& text) { return parse_enum<DigestKind>(text); }

const char* to_string(DiffVerdict verdict) {
  switch (verdict) {
    case DiffVerdict::faster: return "faster";
    case DiffVerdict::slower: return "slower";
    case DiffVerdict::no_change: return "no_change";
    case DiffVerdict::unknown: return "unknown";
  }
  return "unknown";
}

const char* to_string(DiffReason reason) {
  switch (reason) {
    case DiffReason::above_threshold: return "above_threshold";
    case DiffReason::below_threshold: return "below_threshold";
    case DiffReason::not_significant: return "not_significant";
    case DiffReason::no_samples: return "no_samples";
    case DiffReason::too_few_samples: return "too_few_samples";
    case DiffReason::reference_path: return "reference_path";
    case DiffReason::reference_missing: return "reference_missing";
    case DiffReason::only_in_base: return "only_in_base";
    case DiffReason::only_in_new: return "only_in_new";
    case DiffReason::callers_differ: return "callers_differ";
  }
  return "too_few_samples";
}

const char* to_string(DiffOutcome outcome) {
  switch (outcome) {
    case DiffOutcome::no_regression: return "no_regression";
    case DiffOutcome::regression: return "regression";
    case DiffOutcome::incomparable: return "incomparable";
    case DiffOutcome::nothing_judged: return "nothing_judged";
  }
  return "incomparable";
}

DiffOutcome DiffResult::outcome() const {
  if (!incomparable.empty() && !config.force) return DiffOutcome::incomparable;
  if (judged() == 0) return DiffOutcome::nothing_judged;
  return regression() ? DiffOutcome::regression : DiffOutcome::no_regression;
}

const char* to_string(DeployMeasure measure) {
  switch (measure) {
    case DeployMeasure::throughput: return "throughput";
    case DeployMeasure::start: return "start";
  }
  return "throughput";
}

bool DiffResult::regression() const {
  return std::any_of(paths.begin(), paths.end(), [](const PathDiff& p) { return p.verdict == DiffVerdict::slower; }) ||
         std::any_of(deployment.begin(), deployment.end(),
                     [](const DeploymentDiff& d) { return d.verdict == DiffVerdict::slower; });
}

std::size_t DiffResult::judged() const {
  return static_cast<std::size_t>(
      std::count_if(paths.begin(), paths.end(), [](const PathDiff& p) { return p.verdict != DiffVerdict::unknown; }) +
      std::count_if(deployment.begin(), deployment.end(),
                    [](const DeploymentDiff& d) { return d.verdict != DiffVerdict::unknown; }));
}

}  // namespace ohprof
