// Op definitions: the unary elementwise ops of unary_op_table.h, the float predicates, LogicalNot,
// ComplexAbs and ClipByValue (TF names).
#include "ops/math_unary_ops.h"

#include "ops/op_util.h"
#include "ops/unary_op_table.h"

namespace ef {

void check_unary_type(const OpDef& op, DType t, const UnaryTypes& types) {
  const uint32_t bit = dtype_bit(t);
  if (types.kernels & bit) return;
  if ((types.declared_only & bit) || dtype_in(t, parse_type_list(types.tf_allowed))) {
    throw_error(Code::kNotFound, "Could not find device for node: {{node ", op.name, "}} = ", op.name, "[T=",
                dtype_enum_name(t), "]");
  }
  throw_error(Code::kInvalidArgument, "Value for attr 'T' of ", tf_type_string(t),
              " is not in the list of allowed values: ", types.tf_allowed, "\n\t; NodeDef: {{node ", op.name, "}}");
}

namespace {

template <const UnaryTypes& Types>
void infer_unary(InferContext& c) {
  check_unary_type(c.op, c.dtypes[0], Types);
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

// IsNan, IsInf, IsFinite: float in, bool out.
void infer_predicate(InferContext& c) {
  check_unary_type(c.op, c.dtypes[0], unary_types::kFloat);
  c.set_output(0, DType::kBool, c.shapes[0]);
}

void infer_logical_not(InferContext& c) {
  check_same_dtype(c.op, DType::kBool, c.dtypes[0], 0);
  c.set_output(0, DType::kBool, c.shapes[0]);
}

void infer_complex_abs(InferContext& c) {
  check_unary_type(c.op, c.dtypes[0], unary_types::kComplexAbs);
  c.set_output(0, c.dtypes[0] == DType::kComplex128 ? DType::kFloat64 : DType::kFloat32, c.shapes[0]);
}

void infer_clip(InferContext& c) {
  check_same_dtype(c.op, c.dtypes[0], c.dtypes[1], 1);
  check_same_dtype(c.op, c.dtypes[0], c.dtypes[2], 2);
  check_unary_type(c.op, c.dtypes[0], unary_types::kClipByValue);
  check_clip_shapes(c.shapes[0], c.shapes[1], c.shapes[2]);
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

// A bound is fine when it is a scalar or could equal the input's shape (unknown dims match).
bool clip_bound_ok(const Shape& t, const Shape& b) {
  if (!t.rank_known() || !b.rank_known()) return true;
  if (b.rank() == 0) return true;
  if (b.rank() != t.rank()) return false;
  for (int i = 0; i < t.rank(); ++i)
    if (t[i] >= 0 && b[i] >= 0 && t[i] != b[i]) return false;
  return true;
}

template <const UnaryTypes& Types>
OpDef unary(const char* name, const char* input = "x", InferFn infer = infer_unary<Types>) {
  OpDef d;
  d.name = name;
  d.inputs = {input};
  d.infer = infer;
  d.elementwise = true;
  return std::move(d).with_types({"T"}, {{"T", Types.tf_allowed, Types.kernels}});
}

namespace ut = unary_types;

#define EF_DEFINE_UNARY_OP(NAME, INPUT, TYPES) EF_REGISTER_OP(unary<ut::TYPES>(#NAME, INPUT));
EF_UNARY_OPS(EF_DEFINE_UNARY_OP)
#undef EF_DEFINE_UNARY_OP

EF_REGISTER_OP(unary<ut::kFloat>("IsNan", "x", infer_predicate));
EF_REGISTER_OP(unary<ut::kFloat>("IsInf", "x", infer_predicate));
EF_REGISTER_OP(unary<ut::kFloat>("IsFinite", "x", infer_predicate));
EF_REGISTER_OP([] {
  OpDef d = unary<ut::kFloat>("LogicalNot", "x", infer_logical_not);
  return std::move(d).with_types({"bool"}, {});
}());
EF_REGISTER_OP([] {
  OpDef d = unary<ut::kComplexAbs>("ComplexAbs", "x", infer_complex_abs);
  d.attrs = {"Tout"};
  return std::move(d).with_types({"T"}, {{"T", ut::kComplexAbs.tf_allowed, ut::kComplexAbs.kernels},
                                         {"Tout", "float, double", dtype_bit(DType::kFloat32) | dtype_bit(DType::kFloat64)}});
}());

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "ClipByValue";
  d.inputs = {"t", "clip_value_min", "clip_value_max"};
  d.infer = infer_clip;
  d.elementwise = true;
  return std::move(d).with_types({"T", "T", "T"}, {{"T", ut::kClipByValue.tf_allowed, ut::kClipByValue.kernels}});
}());

}  // namespace

void check_clip_shapes(const Shape& t, const Shape& lo, const Shape& hi) {
  if (clip_bound_ok(t, lo) && clip_bound_ok(t, hi)) return;
  throw_error(Code::kInvalidArgument,
              "clip_value_min and clip_value_max must be either of the same shape as input, or a scalar. input "
              "shape: ",
              t.to_list_string(), "clip_value_min shape: ", lo.to_list_string(),
              "clip_value_max shape: ", hi.to_list_string());
}

}  // namespace ef
