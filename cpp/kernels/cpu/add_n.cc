// CPU kernel for AddN: one pass over the output summing every input (integers wrap).
#include <type_traits>

#include "kernels/cpu/tensor_list.h"
#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/wrapping.h"
#include "ops/math_unary_ops.h"
#include "ops/op_util.h"

namespace ef {

void check_add_n_inputs(const OpDef& op, const std::vector<DType>& dtypes, const std::vector<Shape>& shapes);

namespace {

template <class T>
void add_n_typed(const std::vector<Tensor>& in, TensorImpl& out) {
  std::vector<const T*> src;
  for (const Tensor& t : in) src.push_back(t->data<T>());
  T* dst = out.data<T>();
  for_range(out.num_elements(), [&](int64_t s, int64_t e) {
    // Each element reads every input before its store: the output may be a forwarded input.
    for (int64_t i = s; i < e; ++i) {
      T acc = wrap_add(src[0][i], src[1][i]);
      for (size_t k = 2; k < src.size(); ++k) acc = wrap_add(acc, src[k][i]);
      dst[i] = acc;
    }
  });
}

void add_n_kernel(KernelContext& c) {
  std::vector<DType> dtypes;
  std::vector<Shape> shapes;
  for (const Tensor& t : c.inputs) {
    dtypes.push_back(t->dtype());
    shapes.push_back(t->shape());
  }
  check_add_n_inputs(c.op, dtypes, shapes);
  if (c.num_inputs() == 1) {
    c.set_output(0, c.input(0));
    return;
  }
  if (dtypes[0] == DType::kVariant) {  // gradients of a TensorArray used twice
    c.set_output(0, add_tensor_lists(c.inputs));
    return;
  }
  TensorImpl* out = c.allocate_output(0, dtypes[0], shapes[0]);
  if (out->num_elements() == 0) return;
  switch (dtypes[0]) {
    EF_CASES_REAL(add_n_typed<T>(c.inputs, *out))
    EF_CASE(kComplex64, complex64, add_n_typed<T>(c.inputs, *out))
    EF_CASES_RARE(add_n_typed<T>(c.inputs, *out))
    default: break;
  }
}

EF_REGISTER_CPU_KERNEL("AddN", add_n_kernel);

}  // namespace
}  // namespace ef
