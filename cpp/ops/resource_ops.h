// Variable state behind a resource handle (tf.Variable), shared by the resource ops' kernels.
#pragma once
#include <mutex>
#include <string>

#include "core/tensor.h"

namespace ef {

struct OpDef;

struct VariableState {
  std::mutex mu;
  Tensor value;  // immutable tensors: an assign swaps the pointer, readers keep the old value
  DType dtype;
  Shape shape;   // the variable's declared shape (may be partially known)
  std::string name;  // a TF1 graph variable's name: it has no value until its initializer runs
};

// The variable behind resource `handle` (an op's input 0): InvalidArgument when it is none.
VariableState& variable_state(const OpDef& op, const Tensor& handle);

// Whether an update may write the variable's new value into `value`'s memory (`value` being
// v.value, its lock held): nothing else holds the tensor or its buffer (no live read, view or
// NumPy array), as for NumPy's `v -= d`; otherwise the update makes a fresh tensor and readers keep
// the old value.
inline bool writable_in_place(const Tensor& value) {
  return value.use_count() == 1 && (!value->buffer() || value->buffer().use_count() == 1);
}

// `v.value` (its lock held): FailedPrecondition, TF's message, while a TF1 graph variable has none.
const Tensor& variable_value(const VariableState& v);

}  // namespace ef
