// Op definitions: shape queries and tensor creation (Shape, Size, Rank, Fill, ZerosLike, OnesLike,
// Range, LinSpace, OneHot).
#include <cmath>

#include "ops/array_shapes.h"

namespace ef {
namespace {

DType out_type(const InferContext& c) {
  DType t = c.attrs.get<DType>("out_type", DType::kInt32);
  EF_INVALID(t == DType::kInt32 || t == DType::kInt64, "Value for attr 'out_type' of ", tf_type_string(t),
             " is not in the list of allowed values: int32, int64\n\t; NodeDef: {{node ", c.op.name, "}}");
  return t;
}

void infer_shape(InferContext& c) { c.set_output(0, out_type(c), Shape({c.shapes[0].rank()})); }
void infer_scalar_count(InferContext& c) {
  c.set_output(0, c.op.name == "Rank" ? DType::kInt32 : out_type(c), Shape());
}

void infer_fill(InferContext& c) {
  EF_INVALID(!c.shapes[1].rank_known() || c.shapes[1].rank() == 0, "value must represent a scalar, got shape ",
             c.shapes[1].to_list_string());
  c.set_output(0, c.dtypes[1], fill_shape(c.op, c.shapes[0], input_value(c, 0)));
}

void infer_ones_like(InferContext& c) {
  check_type(c.op, c.dtypes[0], kTypesNumeric | kBitsRare | kTypesBool);
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

// |(limit - start) / delta| computed in T, as TF's kernel sizes its output (a half or bfloat16
// quotient rounds: range(0, 1000, 0.7) has 1428 half elements, not 1429).
template <typename T>
double range_quotient(double start, double limit, double delta) {
  return std::abs(static_cast<double>((T(limit) - T(start)) / T(delta)));
}

}  // namespace

// Shared with the Range kernel: validates start/limit/delta and returns the element count.
int64_t range_size(const OpDef& op, DType t, double start, double limit, double delta, int64_t istart, int64_t ilimit,
                   int64_t idelta) {
  const bool is_int = dtype_is_integer(t);
  if (is_int) {
    EF_INVALID(idelta != 0, "Requires delta != 0: ", idelta);
    EF_INVALID(idelta < 0 || istart <= ilimit, "Requires start <= limit when delta > 0: ", istart, "/", ilimit);
    EF_INVALID(idelta > 0 || istart >= ilimit, "Requires start >= limit when delta < 0: ", istart, "/", ilimit);
    // In uint64: the span of [INT64_MIN, INT64_MAX] and -INT64_MIN overflow int64.
    const uint64_t span = ilimit > istart ? uint64_t(ilimit) - uint64_t(istart) : uint64_t(istart) - uint64_t(ilimit);
    const uint64_t step = idelta > 0 ? uint64_t(idelta) : uint64_t(0) - uint64_t(idelta);
    const uint64_t n = span / step + (span % step != 0);
    EF_INVALID(n <= uint64_t(INT64_MAX), "Requires ((limit - start) / delta) <= 9223372036854775807");
    return static_cast<int64_t>(n);
  }
  EF_INVALID(delta != 0, "Requires delta != 0: ", delta);
  EF_INVALID(delta < 0 || start <= limit, "Requires start <= limit when delta > 0: ", start, "/", limit);
  EF_INVALID(delta > 0 || start >= limit, "Requires start >= limit when delta < 0: ", start, "/", limit);
  double q;
  switch (t) {
    case DType::kFloat16: q = range_quotient<half>(start, limit, delta); break;
    case DType::kBFloat16: q = range_quotient<bfloat16>(start, limit, delta); break;
    case DType::kFloat32: q = range_quotient<float>(start, limit, delta); break;
    default: q = range_quotient<double>(start, limit, delta);
  }
  const double n = std::ceil(q);
  EF_INVALID(n <= 9.2e18, "Requires ((limit - start) / delta) <= 9223372036854775807");
  return static_cast<int64_t>(n);
}

namespace {

void check_scalar(const Shape& s, const char* what) {
  EF_INVALID(!s.rank_known() || s.num_elements() == 1 || (s.rank() == 0), what, " must be a scalar, not shape ",
             s.to_list_string());
}

void infer_range(InferContext& c) {
  const DType t = c.dtypes[0];
  EF_INVALID(dtype_is_floating(t) || (dtype_is_integer(t) && t != DType::kUInt8), "Value for attr 'Tidx' of ",
             tf_type_string(t), " is not in the list of allowed values: half, float, double, int8, int16, int32, ",
             "int64\n\t; NodeDef: {{node Range}}");
  check_same_dtype(c.op, t, c.dtypes[1], 1);
  check_same_dtype(c.op, t, c.dtypes[2], 2);
  check_scalar(c.shapes[0], "start");
  check_scalar(c.shapes[1], "limit");
  check_scalar(c.shapes[2], "delta");
  const TensorImpl *s = input_value(c, 0), *l = input_value(c, 1), *d = input_value(c, 2);
  int64_t n = -1;
  // Float bounds are never read as int64: 1e30 or NaN does not fit (undefined behaviour).
  const bool is_int = dtype_is_integer(t);
  if (s && l && d)
    n = range_size(c.op, t, tensor_double_at(*s, 0), tensor_double_at(*l, 0), tensor_double_at(*d, 0),
                   is_int ? tensor_int_at(*s, 0) : 0, is_int ? tensor_int_at(*l, 0) : 0,
                   is_int ? tensor_int_at(*d, 0) : 0);
  c.set_output(0, t, Shape({n}));
}

void infer_linspace(InferContext& c) {
  check_type(c.op, c.dtypes[0], kTypesFloat);
  check_same_dtype(c.op, c.dtypes[0], c.dtypes[1], 1);
  check_index_type(c.op, c.dtypes[2], "Tidx");
  EF_INVALID(!c.shapes[0].rank_known() || c.shapes[0].rank() == 0, "start must be a scalar, not shape ",
             c.shapes[0].to_list_string());
  EF_INVALID(!c.shapes[1].rank_known() || c.shapes[1].rank() == 0, "stop must be a scalar, not shape ",
             c.shapes[1].to_list_string());
  EF_INVALID(!c.shapes[2].rank_known() || c.shapes[2].rank() == 0, "num must be a scalar, not shape ",
             c.shapes[2].to_list_string());
  int64_t n = -1;
  if (const TensorImpl* num = input_value(c, 2)) {
    n = tensor_int_at(*num, 0);
    EF_INVALID(n > 0, "Requires num > 0: ", n);
  }
  c.set_output(0, c.dtypes[0], Shape({n}));
}

void infer_one_hot(InferContext& c) {
  const DType ti = c.dtypes[0];
  EF_INVALID(ti == DType::kUInt8 || ti == DType::kInt8 || ti == DType::kInt32 || ti == DType::kInt64,
             "Value for attr 'TI' of ", tf_type_string(ti),
             " is not in the list of allowed values: uint8, int8, int32, int64\n\t; NodeDef: {{node OneHot}}");
  check_same_dtype(c.op, c.dtypes[2], c.dtypes[3], 3);
  EF_INVALID(!c.shapes[2].rank_known() || c.shapes[2].rank() == 0, "on_value must be a scalar, but got: ",
             c.shapes[2].to_list_string());
  EF_INVALID(!c.shapes[3].rank_known() || c.shapes[3].rank() == 0, "off_value must be a scalar, but got: ",
             c.shapes[3].to_list_string());
  int axis;
  c.set_output(0, c.dtypes[2], one_hot_shape(c.shapes[0], input_value(c, 1), c.attrs.get<int64_t>("axis", -1), &axis));
}

// Shape, Size and Rank read only the shape: handles too.
const TypeAttr kAnyWithHandles{"T", nullptr, kTypesAll | kBitsHandle};

EF_REGISTER_OP(make_op("Shape", {"input"}, {"T", "out_type"}, infer_shape)
                   .with_types({"T"}, {kAnyWithHandles, {"out_type", kListIndex}}));
EF_REGISTER_OP(make_op("Size", {"input"}, {"T", "out_type"}, infer_scalar_count)
                   .with_types({"T"}, {kAnyWithHandles, {"out_type", kListIndex}}));
EF_REGISTER_OP(make_op("Rank", {"input"}, {"T"}, infer_scalar_count).with_types({"T"}, {kAnyWithHandles}));
EF_REGISTER_OP(make_op("Fill", {"dims", "value"}, {"T", "index_type"}, infer_fill)
                   .with_types({"index_type", "T"}, {{"T"}, {"index_type", kListIndex}}));
// ZerosLike of a variant: a TensorList of unset elements (gradients of TensorArrays).
EF_REGISTER_OP(make_op("ZerosLike", {"x"}, {"T"}, infer_same_as_input0)
                   .with_types({"T"}, {{"T", nullptr, kTypesAll | dtype_bit(DType::kVariant)}}));
EF_REGISTER_OP(make_op("OnesLike", {"x"}, {"T"}, infer_ones_like)
                   .with_types({"T"}, {{"T",
                                        "bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, "
                                        "int64, uint64, complex64, complex128, bool",
                                        kTypesNumeric | kBitsRare | kTypesBool}}));
EF_REGISTER_OP(make_op("Range", {"start", "limit", "delta"}, {"Tidx"}, infer_range)
                   .with_types({"Tidx", "Tidx", "Tidx"},
                               {{"Tidx",
                                 "bfloat16, half, float, double, int8, int16, int32, int64, uint16, uint32, uint64",
                                 kTypesFloat | kBitsBFloat16 | kBitsIndex}}));
EF_REGISTER_OP(make_op("LinSpace", {"start", "stop", "num"}, {"T", "Tidx"}, infer_linspace)
                   .with_types({"T", "T", "Tidx"}, {{"T", "bfloat16, half, float, double"}, {"Tidx", kListIndex}}));
EF_REGISTER_OP(make_op("OneHot", {"indices", "depth", "on_value", "off_value"}, {"axis", "T", "TI"}, infer_one_hot)
                   .with_types({"TI", "int32", "T", "T"}, {{"T"}, {"TI", "uint8, int8, int32, int64"}}));

}  // namespace
}  // namespace ef
