// _ResourceApplyGradientDescentMatMul: var -= alpha * op(a) @ op(b) as one GEMM with -alpha as its
// scale and the variable's value as the accumulated output (beta = 1): no gradient tensor, no
// zeroing of one, no second pass. Each element is the unfused W - alpha * (a @ b) up to rounding:
// the GEMM adds -alpha * (its sum) to W with one rounding (a fused multiply-add) where the unfused
// ops round the sum, then the product, then the difference.
#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/gemm.h"
#include "ops/linalg_ops.h"
#include "ops/op_util.h"
#include "ops/resource_ops.h"

#include <cstring>

namespace ef {
namespace {

template <typename T>
void apply(VariableState& v, const Tensor& alpha, const TensorImpl& a, const TensorImpl& b, const MatDims& d) {
  if (!writable_in_place(v.value)) {  // a live read keeps the old value: accumulate into a copy
    Tensor copy = TensorImpl::empty(v.value->dtype(), v.value->shape());
    std::memcpy(copy->data<T>(), v.value->data<T>(), sizeof(T) * static_cast<size_t>(copy->num_elements()));
    v.value = std::move(copy);
  }
  gemm_accumulate<T>(a.data<T>(), b.data<T>(), v.value->data<T>(), d, -*alpha->data<T>());
}

void apply_gradient_descent_matmul_kernel(KernelContext& c) {
  VariableState& v = variable_state(c.op, c.input(0));
  const Tensor& alpha = c.input(1);
  const TensorImpl& a = *c.input(2);
  const TensorImpl& b = *c.input(3);
  check_same_dtype(c.op, v.dtype, alpha->dtype(), 1);
  check_same_dtype(c.op, v.dtype, a.dtype(), 2);
  check_same_dtype(c.op, v.dtype, b.dtype(), 3);
  if (alpha->rank() != 0)
    throw_error(Code::kInvalidArgument, "alpha is not a scalar: ", alpha->shape().to_list_string());
  const bool ta = c.attrs.get<bool>("transpose_a", false), tb = c.attrs.get<bool>("transpose_b", false);
  const Shape os = matmul_output_shape(c.op, a.shape(), b.shape(), ta, tb);
  std::lock_guard<std::mutex> l(v.mu);
  const Tensor& cur = variable_value(v);
  if (cur->shape() != os)
    throw_error(Code::kInvalidArgument, "var and delta do not have the same shape", cur->shape().to_list_string(),
                " ", os.to_list_string());
  const MatDims d{os[0], os[1], a.shape()[ta ? 0 : 1], ta, tb, false, false};
  if (v.dtype == DType::kFloat64) return apply<double>(v, alpha, a, b, d);
  apply<float>(v, alpha, a, b, d);
}

EF_REGISTER_CPU_KERNEL("_ResourceApplyGradientDescentMatMul", apply_gradient_descent_matmul_kernel);

}  // namespace
}  // namespace ef
