// What the C++ gradient functions build their results with: the ops they run (through execute(),
// so tapes record them) and the small constants they pass (axes, shapes, scalars), made as the
// Python gradient functions make theirs (ops/_grad_util.py, ops/_execute.py).
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.h"
#include "ops/attrs.h"
#include "ops/registry.h"

namespace ef::grad {

// execute1 of `op`, its OpDef looked up once per call site: run("Mul", {a, b}).
Tensor run(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs = Attrs());

template <const char* Name>
const OpDef& op() {
  static const OpDef& d = get_op(Name);
  return d;
}

// The ops the gradients use, one line each.
Tensor add(const Tensor& a, const Tensor& b);   // AddV2
Tensor sub(const Tensor& a, const Tensor& b);   // Sub
Tensor mul(const Tensor& a, const Tensor& b);   // Mul
Tensor div(const Tensor& a, const Tensor& b);   // RealDiv
Tensor neg(const Tensor& a);                    // Neg
Tensor exp(const Tensor& a);                    // Exp
Tensor reshape(const Tensor& a, const Tensor& shape);
Tensor sum(const Tensor& a, const Tensor& axes, bool keep_dims);

// A scalar of a real dtype (float or double) holding `v`, converted as Python's converter does.
Tensor real_scalar(double v, DType dtype);
Tensor int_scalar_of(int64_t v, DType dtype);  // an int64 value (an element count) as a real scalar
// An int32 vector (axes), whatever its values (TF's converter with an int32 dtype).
Tensor int32_vector(const std::vector<int64_t>& v);
Tensor int32_scalar(int32_t v);
// A shape as the op wrappers pass one: int32 unless a dim needs int64 (ops/_execute.py: index_tensor).
Tensor shape_tensor(const Shape& s);

}  // namespace ef::grad
