// ResourceApplyGradientDescent: var -= alpha * delta, the product rounded before the subtraction
// (no fused multiply-add), so the result is the same bits as a Mul followed by AssignSubVariableOp,
// which the remapping pass replaces by this op.
#include "kernels/cpu/broadcast.h"
#include "ops/op_util.h"
#include "ops/resource_ops.h"
#include "kernels/cpu/no_fp_contract.h"

namespace ef {
namespace {

template <typename T>
void apply(VariableState& v, const Tensor& alpha, const Tensor& delta) {
  const Tensor& cur = v.value;
  Tensor out = writable_in_place(cur) ? cur : TensorImpl::empty(cur->dtype(), cur->shape());
  const T a = *alpha->data<T>();
  const T* x = cur->data<T>();
  const T* d = delta->data<T>();
  T* o = out->data<T>();
  for_range(out->num_elements(), [=](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) {
      const T step = a * d[i];
      o[i] = x[i] - step;
    }
  });
  v.value = std::move(out);
}

void apply_gradient_descent_kernel(KernelContext& c) {
  VariableState& v = variable_state(c.op, c.input(0));
  const Tensor& alpha = c.input(1);
  const Tensor& delta = c.input(2);
  check_same_dtype(c.op, v.dtype, alpha->dtype(), 1);
  check_same_dtype(c.op, v.dtype, delta->dtype(), 2);
  if (alpha->rank() != 0)
    throw_error(Code::kInvalidArgument, "alpha is not a scalar: ", alpha->shape().to_list_string());
  std::lock_guard<std::mutex> l(v.mu);
  const Tensor& cur = variable_value(v);
  if (cur->shape() != delta->shape())
    throw_error(Code::kInvalidArgument, "var and delta do not have the same shape", cur->shape().to_list_string(),
                " ", delta->shape().to_list_string());
  if (v.dtype == DType::kFloat64) return apply<double>(v, alpha, delta);
  apply<float>(v, alpha, delta);
}

EF_REGISTER_CPU_KERNEL("ResourceApplyGradientDescent", apply_gradient_descent_kernel);

}  // namespace
}  // namespace ef
