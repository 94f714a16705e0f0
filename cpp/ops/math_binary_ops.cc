// Op definitions: binary elementwise math, comparison, logical and bitwise ops (TF names).
#include "ops/op_util.h"

namespace ef {
namespace {

// Dtype checks match the kernels in kernels/cpu/binary.cc (same order: dtypes agree, then "T").
template <unsigned Types, bool Compare>
void infer_binary(InferContext& c) {
  if (Types == kTypesBool) {  // LogicalAnd/LogicalOr have bool inputs, no "T" attr
    check_same_dtype(c.op, DType::kBool, c.dtypes[0], 0);
    check_same_dtype(c.op, DType::kBool, c.dtypes[1], 1);
  }
  check_same_dtype(c.op, c.dtypes[0], c.dtypes[1], 1);
  check_type(c.op, c.dtypes[0], Types);
  if (Compare) {
    infer_broadcast_compare(c);
  } else {
    infer_broadcast_binary(c);
  }
}

template <unsigned Types, bool Compare = false>
OpDef binary(const char* name) {
  OpDef d;
  d.name = name;
  d.inputs = {"x", "y"};
  d.infer = infer_binary<Types, Compare>;
  d.elementwise = true;
  return d;
}

EF_REGISTER_OP(binary<kTypesNumeric | kTypesString>("AddV2"));
EF_REGISTER_OP(binary<kTypesNumeric>("Sub"));
EF_REGISTER_OP(binary<kTypesNumeric>("Mul"));
EF_REGISTER_OP(binary<kTypesNumeric>("RealDiv"));
EF_REGISTER_OP(binary<kTypesReal>("FloorDiv"));
EF_REGISTER_OP(binary<kTypesReal>("FloorMod"));
EF_REGISTER_OP(binary<kTypesNumeric>("Pow"));
EF_REGISTER_OP(binary<kTypesReal>("Maximum"));
EF_REGISTER_OP(binary<kTypesReal>("Minimum"));
EF_REGISTER_OP(binary<kTypesNumeric>("SquaredDifference"));
EF_REGISTER_OP(binary<kTypesBool>("LogicalAnd"));
EF_REGISTER_OP(binary<kTypesBool>("LogicalOr"));
EF_REGISTER_OP(binary<kTypesInt>("BitwiseAnd"));
EF_REGISTER_OP(binary<kTypesInt>("BitwiseOr"));
EF_REGISTER_OP(binary<kTypesInt>("BitwiseXor"));
EF_REGISTER_OP(binary<kTypesInt>("LeftShift"));
EF_REGISTER_OP(binary<kTypesInt>("RightShift"));
EF_REGISTER_OP(binary<kTypesReal, true>("Less"));
EF_REGISTER_OP(binary<kTypesReal, true>("LessEqual"));
EF_REGISTER_OP(binary<kTypesReal, true>("Greater"));
EF_REGISTER_OP(binary<kTypesReal, true>("GreaterEqual"));
EF_REGISTER_OP(binary<kTypesAll, true>("Equal"));
EF_REGISTER_OP(binary<kTypesAll, true>("NotEqual"));

}  // namespace
}  // namespace ef
