#include "ohprof/model/input_spec.hpp"

#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ohprof {
namespace {

struct DTypeName {
  DType dtype;
  std::string_view name;
};

constexpr DTypeName kDTypeNames[] = {
    {DType::float32, "float32"}, {DType::float16, "float16"}, {DType::bfloat16, "bfloat16"},
    {DType::float64, "float64"}, {DType::int64, "int64"},     {DType::int32, "int32"},
    {DType::int8, "int8"},       {DType::uint8, "uint8"},     {DType::boolean, "bool"},
};

constexpr DTypeName kDTypeAliases[] = {
    {DType::float32, "float"}, {DType::float32, "f32"},  {DType::float16, "half"},
    {DType::float16, "f16"},   {DType::bfloat16, "bf16"}, {DType::float64, "double"},
    {DType::float64, "f64"},   {DType::int64, "long"},    {DType::int32, "int"},
};

}  // namespace

std::vector<std::pair<std::string, DType>> dtype_spellings() {
  std::vector<std::pair<std::string, DType>> out;
  for (const auto& entry : kDTypeNames) out.emplace_back(entry.name, entry.dtype);
  for (const auto& entry : kDTypeAliases) out.emplace_back(entry.name, entry.dtype);
  return out;
}

Result<DType> parse_dtype(std::string_view name) {
  for (const auto& entry : kDTypeNames) {
    if (entry.name == name) return entry.dtype;
  }
  for (const auto& entry : kDTypeAliases) {
    if (entry.name == name) return entry.dtype;
  }
  return make_error(ExitCode::usage_error,
                    fmt::format("unknown dtype '{}'; use one of float32, float16, bfloat16, float64, "
                                "int64, int32, int8, uint8, bool",
                                name));
}

std::string dtype_name(DType dtype) {
  for (const auto& entry : kDTypeNames) {
    if (entry.dtype == dtype) return std::string(entry.name);
  }
  return "unknown";
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

std::string input_spec_text(const InputSpec& spec) {
  return shape_text(spec.shape) + ":" + dtype_name(spec.dtype);
}

Result<InputSpec> parse_input_spec(std::string_view text) {
  const auto bad = [&](std::string_view why) {
    return make_error(ExitCode::usage_error,
                      fmt::format("bad --input '{}': {}; expected SHAPE[:DTYPE] such as 1,3,224,224 "
                                  "or 1x3x224x224:float16",
                                  text, why));
  };
  InputSpec spec;
  std::string_view shape_part = text;
  if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    shape_part = text.substr(0, colon);
    auto dtype = parse_dtype(text.substr(colon + 1));
    if (!dtype.ok()) return bad(dtype.error().message);
    spec.dtype = *dtype;
  }
  if (!shape_part.empty() && shape_part.front() == '[' && shape_part.back() == ']') {
    shape_part = shape_part.substr(1, shape_part.size() - 2);
    // "[]" is a zero-dimensional tensor (a scalar such as torch.tensor(2.0)); a bare empty shape is a typo
    if (shape_part.find_first_not_of(' ') == std::string_view::npos) return spec;
  }
  if (shape_part.empty()) return bad("the shape is empty (write [] for a zero-dimensional tensor)");
  std::size_t pos = 0;
  while (pos <= shape_part.size()) {
    const std::size_t next = shape_part.find_first_of(",x", pos);
    std::string_view token = shape_part.substr(pos, next == std::string_view::npos ? next : next - pos);
    while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
    while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
    std::int64_t dim = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), dim);
    if (token.empty() || ec != std::errc{} || end != token.data() + token.size()) {
      return bad(fmt::format("'{}' is not a dimension", token));
    }
    if (dim <= 0) return bad(fmt::format("dimension {} must be positive", dim));
    spec.shape.push_back(dim);
    if (next == std::string_view::npos) break;
    pos = next + 1;
  }
  return spec;
}

Result<std::vector<InputSpec>> parse_recorded_inputs(std::string_view text) {
  std::vector<InputSpec> specs;
  while (!text.empty()) {
    const std::size_t semicolon = text.find(';');
    std::string item(text.substr(0, semicolon));
    text = semicolon == std::string_view::npos ? std::string_view{} : text.substr(semicolon + 1);
    if (item.empty()) continue;
    if (item.front() == ':') item.insert(0, "[]");  // written before "[]" spelled a zero-dimensional input
    OHPROF_ASSIGN_OR_RETURN(auto spec, parse_input_spec(item));
    specs.push_back(spec);
  }
  return specs;
}

Result<std::vector<InputSpec>> parse_input_specs(const std::vector<std::string>& texts) {
  std::vector<InputSpec> specs;
  for (const auto& text : texts) {
    OHPROF_ASSIGN_OR_RETURN(auto spec, parse_input_spec(text));
    specs.push_back(spec);
  }
  return specs;
}

}  // namespace ohprof
