// Variable state behind a resource handle (tf.Variable), shared by the resource ops' kernels.
#pragma once
#include <mutex>

#include "core/tensor.h"

namespace ef {

struct VariableState {
  std::mutex mu;
  Tensor value;  // immutable tensors: an assign swaps the pointer, readers keep the old value
  DType dtype;
  Shape shape;   // the variable's declared shape (may be partially known)
};

}  // namespace ef
