#include "ohprof/model/warning.hpp"

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

std::vector<WarningCode> all_warning_codes() {
  std::vector<WarningCode> codes;
  for (std::size_t c = 0; c < enum_texts(WarningCode{}).size(); ++c) codes.push_back(static_cast<WarningCode>(c));
  return codes;
}

std::optional<WarningCode> parse_warning_code(const std::string& text) { return parse_enum<WarningCode>(text); }

}  // namespace ohprof
