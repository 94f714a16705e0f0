// Op definitions: unary elementwise math and activations, ComplexAbs and ClipByValue (TF names).
#include "ops/math_unary_ops.h"

#include "ops/op_util.h"

namespace ef {

namespace {

// TF's DT_* spelling, used in its "Could not find device for node" message.
const char* dt_enum_name(DType t) {
  switch (t) {
    case DType::kFloat16: return "DT_HALF";
    case DType::kFloat32: return "DT_FLOAT";
    case DType::kFloat64: return "DT_DOUBLE";
    case DType::kInt8: return "DT_INT8";
    case DType::kUInt8: return "DT_UINT8";
    case DType::kInt16: return "DT_INT16";
    case DType::kInt32: return "DT_INT32";
    case DType::kInt64: return "DT_INT64";
    case DType::kBool: return "DT_BOOL";
    case DType::kComplex64: return "DT_COMPLEX64";
    case DType::kString: return "DT_STRING";
    default: return "DT_INVALID";
  }
}

}  // namespace

void check_unary_type(const OpDef& op, DType t, const UnaryTypes& types) {
  const uint32_t bit = dtype_bit(t);
  if (types.kernels & bit) return;
  if (types.declared_only & bit) {
    throw_error(Code::kNotFound, "Could not find device for node: {{node ", op.name, "}} = ", op.name, "[T=",
                dt_enum_name(t), "]");
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
  c.set_output(0, DType::kFloat32, c.shapes[0]);
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

OpDef unary(const char* name, InferFn infer, const char* input = "x") {
  OpDef d;
  d.name = name;
  d.inputs = {input};
  d.infer = infer;
  d.elementwise = true;
  return d;
}

namespace ut = unary_types;

EF_REGISTER_OP(unary("Neg", infer_unary<ut::kNeg>));
EF_REGISTER_OP(unary("Abs", infer_unary<ut::kAbs>));
EF_REGISTER_OP(unary("Sign", infer_unary<ut::kNeg>));
EF_REGISTER_OP(unary("Exp", infer_unary<ut::kFloatComplex>));
EF_REGISTER_OP(unary("Expm1", infer_unary<ut::kFloatComplex>));
EF_REGISTER_OP(unary("Log", infer_unary<ut::kFloatComplex>));
EF_REGISTER_OP(unary("Log1p", infer_unary<ut::kFloatComplex>));
EF_REGISTER_OP(unary("Sqrt", infer_unary<ut::kFloatComplex>));
EF_REGISTER_OP(unary("Rsqrt", infer_unary<ut::kFloatComplex>));
EF_REGISTER_OP(unary("Square", infer_unary<ut::kSquare>));
EF_REGISTER_OP(unary("Reciprocal", infer_unary<ut::kReciprocal>));
EF_REGISTER_OP(unary("Tanh", infer_unary<ut::kFloatComplex>));
EF_REGISTER_OP(unary("Sigmoid", infer_unary<ut::kFloatComplex>));
EF_REGISTER_OP(unary("Sin", infer_unary<ut::kFloatComplex>));
EF_REGISTER_OP(unary("Cos", infer_unary<ut::kFloatComplex>));
EF_REGISTER_OP(unary("Tan", infer_unary<ut::kFloatComplex>));
EF_REGISTER_OP(unary("Floor", infer_unary<ut::kFloat>));
EF_REGISTER_OP(unary("Ceil", infer_unary<ut::kFloat>));
EF_REGISTER_OP(unary("Round", infer_unary<ut::kRound>));
EF_REGISTER_OP(unary("Relu", infer_unary<ut::kRelu>, "features"));
EF_REGISTER_OP(unary("Relu6", infer_unary<ut::kRelu6>, "features"));
EF_REGISTER_OP(unary("Elu", infer_unary<ut::kEluFamily>, "features"));
EF_REGISTER_OP(unary("Selu", infer_unary<ut::kEluFamily>, "features"));
EF_REGISTER_OP(unary("Softplus", infer_unary<ut::kEluFamily>, "features"));
EF_REGISTER_OP(unary("Invert", infer_unary<ut::kInvert>));
EF_REGISTER_OP(unary("IsNan", infer_predicate));
EF_REGISTER_OP(unary("IsInf", infer_predicate));
EF_REGISTER_OP(unary("IsFinite", infer_predicate));
EF_REGISTER_OP(unary("LogicalNot", infer_logical_not));
EF_REGISTER_OP(unary("ComplexAbs", infer_complex_abs));

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "ClipByValue";
  d.inputs = {"t", "clip_value_min", "clip_value_max"};
  d.infer = infer_clip;
  d.elementwise = true;
  return d;
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
