// Op definitions and kernels that exist for graphs: Placeholder (fed at run time) and Const.
#include "core/errors.h"
#include "ops/op_util.h"

namespace ef {
namespace {

void infer_placeholder(InferContext& c) {
  c.set_output(0, c.attrs.get<DType>("dtype"), c.attrs.get<Shape>("shape", Shape::unknown_rank()));
}

void placeholder_kernel(KernelContext& c) {
  throw_error(Code::kInvalidArgument, "You must feed a value for placeholder tensor with dtype ",
              tf_type_string(c.attrs.get<DType>("dtype")));
}

// The value attr: a concrete tensor (a graph tensor has no value to hold, as TF's TensorProto).
Tensor const_value(const Attrs& attrs) {
  Tensor v = attrs.get<Tensor>("value");
  if (!v || v->is_symbolic())
    throw TypeError("Don't know how to convert a symbolic tensor to a TensorProto for argument 'value'");
  return v;
}

void infer_const(InferContext& c) {
  Tensor v = const_value(c.attrs);
  c.set_output(0, v->dtype(), v->shape());
}

void const_kernel(KernelContext& c) { c.set_output(0, const_value(c.attrs)); }

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "Placeholder";
  d.attrs = {"dtype", "shape"};
  d.infer = infer_placeholder;
  return std::move(d).with_types({}, {{"dtype", nullptr, kTypesAll | kBitsHandle}});
}());
EF_REGISTER_OP([] {
  OpDef d;
  d.name = "Const";
  d.attrs = {"value", "dtype"};
  d.infer = infer_const;
  return std::move(d).with_types({}, {{"dtype", nullptr, kTypesAll | kBitsHandle}});
}());
EF_REGISTER_CPU_KERNEL("Placeholder", placeholder_kernel);
EF_REGISTER_CPU_KERNEL("Const", const_kernel);

}  // namespace
}  // namespace ef
