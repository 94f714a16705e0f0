// Op definitions: ReadVariableOp, AssignVariableOp, AssignAddVariableOp, AssignSubVariableOp,
// ResourceApplyGradientDescent, _ResourceApplyGradientDescentMatMul.
// All are stateful so automatic control dependencies keep reads and writes in program order.
#include "ops/resource_ops.h"

#include "core/errors.h"
#include "ops/op_util.h"

namespace ef {
namespace {

void infer_read(InferContext& c) {
  Shape s = Shape::unknown_rank();
  if (c.values.size() > 0 && c.values[0]) {
    if (auto* v = c.values[0]->resource<VariableState>()) s = v->shape;
  }
  c.set_output(0, c.attrs.get<DType>("dtype"), s);
}

void infer_assign(InferContext& c) {
  if (c.dtypes[0] != DType::kResource)
    throw_error(Code::kInvalidArgument, c.op.name, " expects a resource handle as input 0");
}

OpDef def(const char* name, std::vector<std::string> inputs, InferFn infer) {
  OpDef d;
  d.name = name;
  d.inputs = std::move(inputs);
  d.attrs = {"dtype"};
  d.infer = infer;
  d.stateful = true;
  return d;
}

// dtype: the variable's value dtype (TF allows any; assign_add/sub need arithmetic).
const TypeAttr kAnyDType{"dtype"};
EF_REGISTER_OP(def("ReadVariableOp", {"resource"}, infer_read).with_types({"resource"}, {kAnyDType}));
EF_REGISTER_OP(def("AssignVariableOp", {"resource", "value"}, infer_assign)
                   .with_types({"resource", "dtype"}, {kAnyDType}));
EF_REGISTER_OP(def("AssignAddVariableOp", {"resource", "value"}, infer_assign)
                   .with_types({"resource", "dtype"}, {{"dtype", nullptr, kTypesNumeric | kBitsRare}}));
EF_REGISTER_OP(def("AssignSubVariableOp", {"resource", "value"}, infer_assign)
                   .with_types({"resource", "dtype"}, {{"dtype", nullptr, kTypesNumeric | kBitsRare}}));

// var -= alpha * delta in one pass over memory (TF's op; the remapping pass also makes it of an
// AssignSubVariableOp of a Mul by a scalar, the SGD update `v.assign_sub(lr * g)`).
OpDef apply_gradient_descent() {
  OpDef d = def("ResourceApplyGradientDescent", {"var", "alpha", "delta"}, infer_assign);
  d.attrs = {"T", "use_locking"};
  return d;
}
EF_REGISTER_OP(apply_gradient_descent().with_types(
    {"resource", "T", "T"}, {{"T", "float, double", dtype_bit(DType::kFloat32) | dtype_bit(DType::kFloat64)}}));

// ResourceApplyGradientDescent whose delta is MatMul(a, b): var -= alpha * op(a) @ op(b) as one GEMM
// accumulating into the variable's memory, with no gradient tensor. Made by the remapping pass only
// (of an SGD update of a weight gradient); TF has no such op.
OpDef apply_gradient_descent_matmul() {
  OpDef d = def("_ResourceApplyGradientDescentMatMul", {"var", "alpha", "a", "b"}, infer_assign);
  d.attrs = {"T", "use_locking", "transpose_a", "transpose_b"};
  return d;
}
EF_REGISTER_OP(apply_gradient_descent_matmul().with_types(
    {"resource", "T", "T", "T"}, {{"T", "float, double", dtype_bit(DType::kFloat32) | dtype_bit(DType::kFloat64)}}));

}  // namespace
}  // namespace ef

namespace ef {

VariableState& variable_state(const OpDef& op, const Tensor& handle) {
  VariableState* v = handle->dtype() == DType::kResource ? handle->resource<VariableState>() : nullptr;
  if (!v) throw_error(Code::kInvalidArgument, op.name, " expects a resource handle as input 0");
  return *v;
}

const Tensor& variable_value(const VariableState& v) {
  if (!v.value)
    throw_error(Code::kFailedPrecondition, "Could not find variable ", v.name,
                ". This could mean that the variable has been deleted. In TF1, it can also mean the variable is "
                "uninitialized. Debug info: container=localhost, status error message=Container localhost does not "
                "exist. (Could not find resource: localhost/", v.name, ")");
  return v.value;
}

}  // namespace ef
