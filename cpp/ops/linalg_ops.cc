// Op definitions: MatMul (attrs transpose_a, transpose_b) and BatchMatMulV2 (attrs adj_x, adj_y).
#include "ops/linalg_ops.h"

namespace ef {

namespace {
constexpr uint32_t kMatMulKernels = kBitsFloat | kBitsBFloat16 | dtype_bit(DType::kInt32) |
                                    dtype_bit(DType::kInt64) | dtype_bit(DType::kComplex64) | kBitsComplex128;
}  // namespace

void check_matmul_type(const OpDef& op, DType t) {
  if (dtype_in(t, kMatMulKernels)) return;
  throw_error(Code::kInvalidArgument, "Value for attr 'T' of ", tf_type_string(t),
              " is not in the list of allowed values: half, float, double, int32, int64, complex64",
              "\n\t; NodeDef: {{node ", op.name, "}}");
}

namespace {

// [M, N] of op(a) @ op(b); unknown dims (-1) are not checked.
Shape matmul_shape(const OpDef& op, const Shape& a, const Shape& b, bool ta, bool tb) {
  if (a.rank() != 2 || b.rank() != 2) {
    if (a.rank() != b.rank())
      throw_error(Code::kInvalidArgument, "In[0] and In[1] has different ndims: ", a.to_list_string(), " vs. ",
                  b.to_list_string());
    throw_error(Code::kInvalidArgument, "In[0] and In[1] ndims must be == 2: ", a.rank());
  }
  const int64_t k_a = a[ta ? 0 : 1], k_b = b[tb ? 1 : 0];
  if (k_a >= 0 && k_b >= 0 && k_a != k_b)
    throw_error(Code::kInvalidArgument, "Matrix size-incompatible: In[0]: ", a.to_list_string(),
                ", In[1]: ", b.to_list_string());
  return Shape{a[ta ? 1 : 0], b[tb ? 0 : 1]};
}

void infer_matmul(InferContext& c) {
  check_type_pair(c.op, c.dtypes[0], c.dtypes[1]);
  if (!c.shapes[0].rank_known() || !c.shapes[1].rank_known()) {
    c.set_output(0, c.dtypes[0], Shape{kUnknownDim, kUnknownDim});
    return;
  }
  c.set_output(0, c.dtypes[0], matmul_shape(c.op, c.shapes[0], c.shapes[1], c.attrs.get<bool>("transpose_a", false),
                                            c.attrs.get<bool>("transpose_b", false)));
}

void infer_batch_matmul(InferContext& c) {
  check_type_pair(c.op, c.dtypes[0], c.dtypes[1]);
  if (!c.shapes[0].rank_known() || !c.shapes[1].rank_known()) {
    c.set_output(0, c.dtypes[0], Shape::unknown_rank());
    return;
  }
  c.set_output(0, c.dtypes[0], batch_matmul_shape(c.shapes[0], c.shapes[1], c.attrs.get<bool>("adj_x", false),
                                                  c.attrs.get<bool>("adj_y", false)));
}

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "MatMul";
  d.inputs = {"a", "b"};
  d.attrs = {"transpose_a", "transpose_b"};  // defaults false
  d.infer = infer_matmul;
  return std::move(d).with_types({"T", "T"}, {{"T",
                                               "bfloat16, half, float, double, int32, int64, uint8, uint16, uint32, "
                                               "uint64, complex64, complex128",
                                               kMatMulKernels}});
}());

// MatMul + BiasAdd (+ Relu) as one node, made by the optimizer's remapping pass (TF's grappler
// remapper makes the same op): the kernel applies the bias and activation to each block of the
// product while it is in cache. The bias is the one extra input (TF's `args`).
void infer_fused_matmul(InferContext& c) {
  infer_matmul(c);
  fused_matmul_relu(c.attrs);
}

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "_FusedMatMul";
  d.inputs = {"a", "b", "bias"};
  d.attrs = {"transpose_a", "transpose_b", "fused_ops"};
  d.infer = infer_fused_matmul;
  return std::move(d).with_types({"T", "T", "T"}, {{"T", "float", dtype_bit(DType::kFloat32)}});
}());

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "BatchMatMulV2";
  d.inputs = {"x", "y"};
  d.attrs = {"adj_x", "adj_y"};  // defaults false
  d.infer = infer_batch_matmul;
  return std::move(d).with_types({"T", "T"}, {{"T",
                                               "bfloat16, half, float, double, int16, int32, int64, uint8, uint16, "
                                               "uint32, uint64, complex64, complex128",
                                               kMatMulKernels}});
}());

}  // namespace

void check_type_pair(const OpDef& op, DType a, DType b) {
  check_matmul_type(op, a);
  check_same_dtype(op, a, b, 1);
}

bool fused_matmul_relu(const Attrs& attrs) {
  const std::vector<std::string> ops = attrs.get<std::vector<std::string>>("fused_ops", {});
  if (ops.empty() || ops[0] != "BiasAdd" || ops.size() > 2 || (ops.size() == 2 && ops[1] != "Relu"))
    throw_error(Code::kUnimplemented, "_FusedMatMul: fused_ops must be [BiasAdd] or [BiasAdd, Relu]");
  return ops.size() == 2;
}

Shape matmul_output_shape(const OpDef& op, const Shape& a, const Shape& b, bool ta, bool tb) {
  return matmul_shape(op, a, b, ta, tb);
}

Shape batch_matmul_shape(const Shape& x, const Shape& y, bool adj_x, bool adj_y) {
  if (x.rank() < 2) throw_error(Code::kInvalidArgument, "In[0] ndims must be >= 2: ", x.rank());
  if (y.rank() < 2) throw_error(Code::kInvalidArgument, "In[1] ndims must be >= 2: ", y.rank());
  const int rx = x.rank(), ry = y.rank(), rb = std::max(rx, ry) - 2;
  Shape out;
  for (int i = 0; i < rb; ++i) {
    const int ix = i - (rb - (rx - 2)), iy = i - (rb - (ry - 2));
    const int64_t dx = ix >= 0 ? x[ix] : 1, dy = iy >= 0 ? y[iy] : 1;
    int64_t d;
    if (dx == dy || dy == 1) d = dx;
    else if (dx == 1) d = dy;
    else if (dx < 0 || dy < 0) d = kUnknownDim;
    else
      throw_error(Code::kInvalidArgument, "In[0] and In[1] must have compatible batch dimensions: ",
                  x.to_list_string(), " vs. ", y.to_list_string());
    out.push_back(d);
  }
  const int64_t k_x = x[rx - (adj_x ? 2 : 1)], k_y = y[ry - (adj_y ? 1 : 2)];
  if (k_x >= 0 && k_y >= 0 && k_x != k_y)
    throw_error(Code::kInvalidArgument, "Matrix size-incompatible: In[0]: ", x.to_list_string(),
                ", In[1]: ", y.to_list_string());
  out.push_back(x[rx - (adj_x ? 1 : 2)]);
  out.push_back(y[ry - (adj_y ? 2 : 1)]);
  return out;
}

}  // namespace ef
