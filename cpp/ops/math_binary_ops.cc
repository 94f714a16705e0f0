// Op definitions: binary elementwise math, comparison, logical and bitwise ops (TF names).
#include "ops/binary_op_table.h"
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

// TF's allowed lists for "T" (its errors print them as given).
constexpr const char* kListAdd =
    "bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, int16, int32, int64, complex64, complex128";
constexpr const char* kListPow = "bfloat16, float, half, double, int8, int16, int32, int64, complex64, complex128";

// `Types`: the dtypes the kernels take; those outside TF's `list` are dropped unless `extension`
// (AddV2 on strings: TF's tf.add uses its Add op for them).
template <unsigned Types, bool Compare = false>
OpDef binary(const char* name, const char* list, bool extension = false, const char* x = "x", const char* y = "y") {
  OpDef d;
  d.name = name;
  d.inputs = {x, y};
  d.infer = infer_binary<Types, Compare>;
  d.elementwise = true;
  if (Types == kTypesBool) return std::move(d).with_types({"bool", "bool"}, {});
  const uint32_t kernels = extension ? Types : Types & (list ? parse_type_list(list) : kTypesAll);
  return std::move(d).with_types({"T", "T"}, {{"T", list, kernels}});
}

EF_REGISTER_OP(binary<kTypesNumeric | kBitsRare | kTypesString>("AddV2", kListAdd, /*extension=*/true));
EF_REGISTER_OP(binary<kTypesNumeric | kBitsBFloat16 | kBitsComplex128>("Pow", kListPow));
#define EF_DEFINE_BINARY_OP(NAME, X, Y, TYPES, LIST, BLOCKS) \
  EF_REGISTER_OP(binary<TYPES>(#NAME, LIST, false, X, Y));
EF_BINARY_OPS(EF_DEFINE_BINARY_OP)
#undef EF_DEFINE_BINARY_OP
#define EF_DEFINE_COMPARE_OP(NAME, TYPES, LIST) EF_REGISTER_OP((binary<TYPES, true>(#NAME, LIST)));
EF_COMPARE_OPS(EF_DEFINE_COMPARE_OP)
#undef EF_DEFINE_COMPARE_OP
#define EF_DEFINE_LOGICAL_OP(NAME) EF_REGISTER_OP(binary<kTypesBool>(#NAME, nullptr));
EF_LOGICAL_OPS(EF_DEFINE_LOGICAL_OP)
#undef EF_DEFINE_LOGICAL_OP

}  // namespace
}  // namespace ef
