// TF's Cast of a whole tensor, for code that converts dtypes outside an op call.
#pragma once
#include "core/tensor.h"

namespace ef {

// x as dtype `dst` with TF's Cast semantics; Unimplemented for strings and handles.
Tensor cast_tensor(const Tensor& x, DType dst);

}  // namespace ef
