// Op definitions: binary elementwise math, comparison, logical and bitwise ops (TF names).
#include "ops/op_util.h"

namespace ef {
namespace {

OpDef binary(const char* name, bool compare = false) {
  OpDef d;
  d.name = name;
  d.inputs = {"x", "y"};
  d.infer = compare ? infer_broadcast_compare : infer_broadcast_binary;
  d.elementwise = true;
  return d;
}

EF_REGISTER_OP(binary("AddV2"));
EF_REGISTER_OP(binary("Sub"));
EF_REGISTER_OP(binary("Mul"));
EF_REGISTER_OP(binary("RealDiv"));
EF_REGISTER_OP(binary("FloorDiv"));
EF_REGISTER_OP(binary("FloorMod"));
EF_REGISTER_OP(binary("Pow"));
EF_REGISTER_OP(binary("Maximum"));
EF_REGISTER_OP(binary("Minimum"));
EF_REGISTER_OP(binary("SquaredDifference"));
EF_REGISTER_OP(binary("LogicalAnd"));
EF_REGISTER_OP(binary("LogicalOr"));
EF_REGISTER_OP(binary("BitwiseAnd"));
EF_REGISTER_OP(binary("BitwiseOr"));
EF_REGISTER_OP(binary("BitwiseXor"));
EF_REGISTER_OP(binary("LeftShift"));
EF_REGISTER_OP(binary("RightShift"));
EF_REGISTER_OP(binary("Less", true));
EF_REGISTER_OP(binary("LessEqual", true));
EF_REGISTER_OP(binary("Greater", true));
EF_REGISTER_OP(binary("GreaterEqual", true));
EF_REGISTER_OP(binary("Equal", true));
EF_REGISTER_OP(binary("NotEqual", true));

}  // namespace
}  // namespace ef
