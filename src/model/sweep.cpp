#include "ohprof/model/sweep.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "ohprof/base/enum_text.hpp"

namespace ohprof {

const char* to_string(SweepAxis::Kind kind) { return kind == SweepAxis::Kind::batch ? "batch" : "dim"; }

std::string axis_name(const SweepAxis& axis) {
  if (axis.kind == SweepAxis::Kind::batch) return "batch";
  return fmt::format("input{}.dim{}", fmt::join(axis.inputs, "+"), axis.dim);
}

std::string point_file_stem(const SweepAxis& axis, std::int64_t value) {
  if (axis.kind == SweepAxis::Kind::batch) return fmt::format("batch-{}", value);
  return fmt::format("input{}-dim{}-{}", fmt::join(axis.inputs, "+"), axis.dim, value);
}

Result<std::vector<InputSpec>> apply_axis(const std::vector<InputSpec>& inputs, const SweepAxis& axis, std::int64_t value) {
  std::vector<InputSpec> out = inputs;
  if (axis.kind == SweepAxis::Kind::dim) {
    if (axis.inputs.empty()) return make_error(ExitCode::usage_error, "--dim names no input");
    for (int input : axis.inputs) {
      if (input < 0 || input >= static_cast<int>(inputs.size())) {
        return make_error(ExitCode::usage_error, fmt::format("--dim names input {}, but the model has {} input{} (counted from 0)",
                                                             input, inputs.size(), inputs.size() == 1 ? "" : "s"));
      }
    }
  }
  bool set = false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto named = [&] { return std::find(axis.inputs.begin(), axis.inputs.end(), static_cast<int>(i)) != axis.inputs.end(); };
    if (axis.kind == SweepAxis::Kind::dim && !named()) continue;
    // --batch leaves a zero-dimensional input (a scalar such as a scale factor) as it is: it has no batch
    // dimension. --dim names its input, so there it is an error.
    if (axis.kind == SweepAxis::Kind::batch && out[i].shape.empty()) continue;
    if (axis.dim < 0 || axis.dim >= static_cast<int>(out[i].shape.size())) {
      return make_error(ExitCode::usage_error,
                        fmt::format("input {} has shape {}: it has no dimension {} to sweep (counted from 0)", i,
                                    shape_text(out[i].shape), axis.dim));
    }
    out[i].shape[static_cast<std::size_t>(axis.dim)] = value;
    set = true;
  }
  if (!set) {
    return make_error(ExitCode::usage_error,
                      out.empty() ? "the model has no inputs, so there is nothing to sweep"
                                  : "every input is zero-dimensional ([]), so --batch has no dimension to sweep: give "
                                    "the inputs a batch dimension, or sweep another axis with --dim");
  }
  return out;
}

std::optional<PointStatus> parse_point_status(const std::string& text) { return parse_enum<PointStatus>(text); }

std::optional<SweepStop> parse_sweep_stop(const std::string& text) { return parse_enum<SweepStop>(text); }

}  // namespace ohprof
