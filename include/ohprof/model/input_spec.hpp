#pragma once
// --input SHAPE[:DTYPE], e.g. "1,3,224,224", "1x3x224x224:float16", "8,128:int64"; "[]:float32" is a
// zero-dimensional tensor.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ohprof/base/error.hpp"

namespace ohprof {

enum class DType { float32, float16, bfloat16, float64, int64, int32, int8, uint8, boolean };

struct InputSpec {
  std::vector<std::int64_t> shape;
  DType dtype = DType::float32;
  friend bool operator==(const InputSpec&, const InputSpec&) = default;
};

Result<InputSpec> parse_input_spec(std::string_view text);
// Each --input in order; the first bad one is the error.
Result<std::vector<InputSpec>> parse_input_specs(const std::vector<std::string>& texts);
// The inputs a package ohprof exported records in its "ohprof.inputs" metadata, ';'-separated:
// "1x3x224x224:float32;8:int64;[]:float32". A package written before "[]" spelled a zero-dimensional input
// records it as ":float32", read the same.
Result<std::vector<InputSpec>> parse_recorded_inputs(std::string_view text);
Result<DType> parse_dtype(std::string_view name);
std::string dtype_name(DType dtype);
// Every spelling --input accepts, with the dtype it names: the names, then the aliases ("half").
std::vector<std::pair<std::string, DType>> dtype_spellings();
std::string shape_text(const std::vector<std::int64_t>& shape);  // "[1, 3, 224, 224]"
std::string input_spec_text(const InputSpec& spec);               // "[1, 3, 224, 224]:float32"

}  // namespace ohprof
