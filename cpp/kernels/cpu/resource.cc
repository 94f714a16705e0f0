// CPU kernels of the variable ops: reads return the current tensor (no copy); assigns swap it.
#include "ops/op_util.h"
#include "ops/resource_ops.h"
#include "ops/run_kernel.h"

namespace ef {
namespace {

VariableState& state_of(KernelContext& c) { return variable_state(c.op, c.input(0)); }

void read_kernel(KernelContext& c) {
  VariableState& v = state_of(c);
  std::lock_guard<std::mutex> l(v.mu);
  c.set_output(0, variable_value(v));
}

std::string list_text(const Shape& s) { return s.to_list_string(); }

void assign_kernel(KernelContext& c) {
  VariableState& v = state_of(c);
  const Tensor& value = c.input(1);
  check_same_dtype(c.op, v.dtype, value->dtype(), 1);
  bool ok = v.shape.rank_known() ? v.shape.rank() == value->rank() : true;
  for (int i = 0; ok && v.shape.rank_known() && i < v.shape.rank(); ++i)
    ok = v.shape[i] < 0 || v.shape[i] == value->shape()[i];
  if (!ok)
    throw_error(Code::kInvalidArgument, "Trying to assign to variable with tensor with wrong shape. Expected ",
                list_text(v.shape), " got ", list_text(value->shape()));
  std::lock_guard<std::mutex> l(v.mu);
  v.value = value;
}

// The lock spans read, compute and swap: two threads adding to one variable never both start from
// the same value (TF's resource variables give exact totals). When nothing but the variable holds
// its current tensor (no live read, no view of its bytes, no NumPy array over it) the elementwise
// kernel writes the new value into that tensor's memory (the executor's input forwarding), as NumPy's
// `v -= d` does; otherwise the new value is a fresh tensor and readers keep the old one.
template <bool kAdd>
void update_kernel(KernelContext& c) {
  VariableState& v = state_of(c);
  const Tensor& delta = c.input(1);
  static const OpDef& add = get_op("AddV2");
  static const OpDef& sub = get_op("Sub");
  const OpDef& op = kAdd ? add : sub;
  std::lock_guard<std::mutex> l(v.mu);
  const Shape& cur = variable_value(v)->shape();
  if (cur != delta->shape())
    throw_error(Code::kInvalidArgument, "Cannot update variable with shape ", list_text(cur),
                " using a Tensor with shape ", list_text(delta->shape()), ", shapes must be equal.");
  std::vector<Tensor> in{std::move(v.value), delta};
  std::vector<Tensor> out;
  try {
    run_kernel_into(op, select_kernel(op), in, Attrs(), out, /*may_forward=*/true);
  } catch (...) {
    v.value = std::move(in[0]);
    throw;
  }
  // A forwarded output only borrows the input's object: the variable keeps the owning reference.
  v.value = out[0].get() == in[0].get() ? std::move(in[0]) : std::move(out[0]);
}

EF_REGISTER_CPU_KERNEL("ReadVariableOp", read_kernel);
EF_REGISTER_CPU_KERNEL("AssignVariableOp", assign_kernel);
EF_REGISTER_CPU_KERNEL("AssignAddVariableOp", update_kernel<true>);
EF_REGISTER_CPU_KERNEL("AssignSubVariableOp", update_kernel<false>);

}  // namespace
}  // namespace ef
