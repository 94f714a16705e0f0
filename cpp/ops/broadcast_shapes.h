// NumPy broadcasting of shapes: shape inference and the elementwise kernels share the rule.
#pragma once
#include "core/shape.h"

namespace ef {

// Broadcast result of two shapes; unknown dims (-1) propagate. Throws InvalidArgument with
// TF's "Incompatible shapes: [3] vs. [2]" message.
Shape broadcast_shapes(const Shape& a, const Shape& b);

}  // namespace ef
