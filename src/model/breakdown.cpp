#include "ohprof/model/breakdown.hpp"

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

std::optional<Verdict> parse_verdict(std::string_view text) { return parse_enum<Verdict>(text); }

std::optional<VerdictReason> parse_verdict_reason(std::string_view text) { return parse_enum<VerdictReason>(text); }

ReadableShares readable_shares(VerdictReason reason) {
  switch (reason) {
    case VerdictReason::unread_device_events:
    case VerdictReason::launches_without_ops: return {false, false};
    case VerdictReason::no_launches: return {true, false};
    default: return {};
  }
}

}  // namespace ohprof
