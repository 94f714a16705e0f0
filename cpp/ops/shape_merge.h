// Partial static shapes (unknown dims -1, or an unknown rank) as TF's shape functions and
// PartialTensorShape treat them: printing, merging (TF's InferenceContext::Merge, with its texts)
// and checking a concrete shape against one.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/shape.h"
#include "ops/attrs.h"

namespace ef {

// "[2,?,3]" (TF's DebugString of a shape; "<unknown>" for an unknown rank).
std::string partial_shape_string(const std::vector<int64_t>& dims);
std::string partial_shape_string(const Shape& s);
// "" when a and b merge, else TF's message ("Dimension 1 in both shapes must be equal, but are 4
// and 3. Shapes are [2,4] and [?,3].").
std::string shape_merge_error(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
std::string shape_merge_error(const Shape& a, const Shape& b);
// Merges two partial shapes into the most specific one; false when they conflict.
bool merge_shapes(const Shape& a, const Shape& b, Shape* out);
// Whether a concrete shape fits a partial one (TF's PartialTensorShape::IsCompatibleWith).
bool shape_fits(const Shape& concrete, const Shape& expected);
// EnsureShape's `shape` attr: a dims list from Python (-1 unknown), a Shape, or none (any rank).
Shape ensure_shape_attr(const Attrs& attrs);

}  // namespace ef
