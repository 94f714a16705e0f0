// TF's InferenceContext::Merge for static shapes: two shapes merge when their ranks agree and each
// pair of known dims is equal (an unknown dim or rank merges with anything). The texts are TF's.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/shape.h"
#include "ops/attrs.h"

namespace ef {

// "[2,?,3]" (TF's DebugString of a shape; "<unknown>" for an unknown rank).
std::string shape_debug_string(const std::vector<int64_t>& dims);
std::string shape_debug_string(const Shape& s);
// "" when a and b merge, else TF's message ("Dimension 1 in both shapes must be equal, but are 4
// and 3. Shapes are [2,4] and [?,3].").
std::string shape_merge_error(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
std::string shape_merge_error(const Shape& a, const Shape& b);
// The merge of two shapes that merge: each dim known in either is known.
Shape merge_shapes(const Shape& a, const Shape& b);
// EnsureShape's `shape` attr: a dims list from Python (-1 unknown), a Shape, or none (any rank).
Shape ensure_shape_attr(const Attrs& attrs);
// Whether a concrete shape fits a partly known one (TF's PartialTensorShape::IsCompatibleWith).
bool shape_fits(const Shape& concrete, const Shape& expected);

}  // namespace ef
