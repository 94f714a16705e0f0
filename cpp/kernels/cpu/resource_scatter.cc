// CPU kernels of the variable scatters and ResourceStridedSliceAssign. Like AssignAddVariableOp,
// each holds the variable's lock across read, compute and swap and makes a new value tensor (the
// current one may be held by readers).
#include "kernels/cpu/scatter_nd.h"
#include "ops/op_util.h"
#include "ops/resource_ops.h"

namespace ef {
namespace {

VariableState& variable(KernelContext& c) { return variable_state(c.op, c.input(0)); }

template <ScatterMode M>
void resource_scatter_nd_kernel(KernelContext& c) {
  VariableState& v = variable(c);
  const TensorImpl &indices = *c.input(1), &updates = *c.input(2);
  check_same_dtype(c.op, v.dtype, updates.dtype(), 2);
  std::lock_guard<std::mutex> l(v.mu);
  const Tensor cur = variable_value(v);
  EF_INVALID(indices.rank() >= 1, "Indices shape must have rank at least one. Found:",
             indices.shape().to_list_string());
  check_scatter_nd_shapes(cur->shape(), indices.shape(), updates.shape());
  v.value = scatter_nd_into(c.op, M, *cur, indices, updates);
}

template <ScatterMode M>
void resource_scatter_kernel(KernelContext& c) {
  VariableState& v = variable(c);
  check_same_dtype(c.op, v.dtype, c.input(2)->dtype(), 2);
  std::lock_guard<std::mutex> l(v.mu);
  const Tensor cur = variable_value(v);
  v.value = scatter_rows_into(c.op, M, *cur, *c.input(1), *c.input(2));
}

void strided_slice_assign_kernel(KernelContext& c) {
  VariableState& v = variable(c);
  check_same_dtype(c.op, v.dtype, c.input(4)->dtype(), 4);
  std::lock_guard<std::mutex> l(v.mu);
  const Tensor cur = variable_value(v);
  v.value = strided_slice_update(c, *cur, *c.input(4));
}

EF_REGISTER_CPU_KERNEL("ResourceScatterNdUpdate", resource_scatter_nd_kernel<ScatterMode::kUpdate>);
EF_REGISTER_CPU_KERNEL("ResourceScatterNdAdd", resource_scatter_nd_kernel<ScatterMode::kAdd>);
EF_REGISTER_CPU_KERNEL("ResourceScatterNdSub", resource_scatter_nd_kernel<ScatterMode::kSub>);
EF_REGISTER_CPU_KERNEL("ResourceScatterNdMin", resource_scatter_nd_kernel<ScatterMode::kMin>);
EF_REGISTER_CPU_KERNEL("ResourceScatterNdMax", resource_scatter_nd_kernel<ScatterMode::kMax>);
EF_REGISTER_CPU_KERNEL("ResourceScatterUpdate", resource_scatter_kernel<ScatterMode::kUpdate>);
EF_REGISTER_CPU_KERNEL("ResourceScatterAdd", resource_scatter_kernel<ScatterMode::kAdd>);
EF_REGISTER_CPU_KERNEL("ResourceScatterSub", resource_scatter_kernel<ScatterMode::kSub>);
EF_REGISTER_CPU_KERNEL("ResourceScatterMul", resource_scatter_kernel<ScatterMode::kMul>);
EF_REGISTER_CPU_KERNEL("ResourceScatterDiv", resource_scatter_kernel<ScatterMode::kDiv>);
EF_REGISTER_CPU_KERNEL("ResourceScatterMin", resource_scatter_kernel<ScatterMode::kMin>);
EF_REGISTER_CPU_KERNEL("ResourceScatterMax", resource_scatter_kernel<ScatterMode::kMax>);
EF_REGISTER_CPU_KERNEL("ResourceStridedSliceAssign", strided_slice_assign_kernel);

}  // namespace
}  // namespace ef
