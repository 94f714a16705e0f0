// Op definitions of the dense linear-algebra family: MatrixInverse, MatrixDeterminant,
// LogMatrixDeterminant, MatrixSolve, Cholesky, MatrixTriangularSolve (batches of [..., M, M]
// matrices), and MatrixBandPart, MatrixDiagV3, MatrixDiagPartV3, MatrixSetDiagV3.
#include "ops/matrix_ops.h"

#include "ops/op_util.h"
#include "ops/types.h"

namespace ef {

constexpr const char* kListLinalg = "double, float, half, complex64, complex128";
constexpr uint32_t kLinalgKernels = dtype_bit(DType::kFloat32) | dtype_bit(DType::kFloat64);

void check_square(const Shape& s, const char* not_square) {
  if (!s.rank_known()) return;
  if (s.rank() < 2) throw_error(Code::kInvalidArgument, "Input tensor 0 must have rank >= 2, got ", s.rank());
  const int64_t m = s[s.rank() - 2], n = s[s.rank() - 1];
  if (m >= 0 && n >= 0 && m != n) throw_error(Code::kInvalidArgument, not_square);
}

Shape batch_of(const Shape& s) {
  Shape out;
  for (int i = 0; i + 2 < s.rank(); ++i) out.push_back(s[i]);
  return out;
}

// Broadcast of two batch shapes (the dims before the last two); unknown dims stay unknown.
Shape broadcast_batch(const Shape& a, const Shape& b) {
  const int ra = a.rank() - 2, rb = b.rank() - 2, r = std::max(ra, rb);
  Shape out;
  for (int i = 0; i < r; ++i) {
    const int ia = i - (r - ra), ib = i - (r - rb);
    const int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da == db || db == 1) out.push_back(da);
    else if (da == 1) out.push_back(db);
    else if (da < 0 || db < 0) out.push_back(kUnknownDim);
    else
      throw_error(Code::kInvalidArgument, "In[0] and In[1] must have compatible batch dimensions: ", a.to_list_string(),
                  " vs. ", b.to_list_string());
  }
  return out;
}

namespace {

void infer_square_same(InferContext& c) {
  check_square(c.shapes[0], "Input matrix must be square.");
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

void infer_determinant(InferContext& c) {
  check_square(c.shapes[0], "Input matrix must be square.");
  const Shape out = c.shapes[0].rank_known() ? batch_of(c.shapes[0]) : Shape::unknown_rank();
  c.set_output(0, c.dtypes[0], out);
  if (c.op.name == "LogMatrixDeterminant") c.set_output(1, c.dtypes[0], out);
}

void infer_solve(InferContext& c) {
  const Shape& a = c.shapes[0];
  const Shape& b = c.shapes[1];
  check_same_dtype(c.op, c.dtypes[0], c.dtypes[1], 1);
  if (a.rank_known() && a.rank() < 2)
    throw_error(Code::kInvalidArgument, "Input tensor 0 must have rank >= 2, got ", a.rank());
  if (b.rank_known() && b.rank() < 2)
    throw_error(Code::kInvalidArgument, "Input tensor 1 must have rank >= 2, got ", b.rank());
  if (!a.rank_known() || !b.rank_known()) {
    c.set_output(0, c.dtypes[0], Shape::unknown_rank());
    return;
  }
  const int64_t m = a[a.rank() - 2], n = a[a.rank() - 1], rows = b[b.rank() - 2];
  if (c.op.name == "MatrixSolve") {
    if (m >= 0 && n >= 0 && m != n) throw_error(Code::kInvalidArgument, "First input (lhs) must be a square matrix.");
    if (a.rank() != b.rank()) throw_error(Code::kInvalidArgument, "All input tensors must have the same rank.");
    for (int i = 0; i + 2 < a.rank(); ++i)
      if (a[i] >= 0 && b[i] >= 0 && a[i] != b[i])
        throw_error(Code::kInvalidArgument, "All input tensors must have the same outer dimensions.");
    if (m >= 0 && rows >= 0 && m != rows) throw_error(Code::kInvalidArgument, "Input matrix and rhs are incompatible.");
    Shape out = batch_of(a);
    out.push_back(m);
    out.push_back(b[b.rank() - 1]);
    c.set_output(0, c.dtypes[0], out);
    return;
  }
  // MatrixTriangularSolve broadcasts its batch dims.
  if (m >= 0 && n >= 0 && m != n)
    throw_error(Code::kInvalidArgument, "In[0] matrices in the last dimensions must be square (", n, " =/= ", m, ")");
  if (m >= 0 && rows >= 0 && m != rows)
    throw_error(Code::kInvalidArgument, "In[0] mismatch In[1] shape: ", m, " vs. ", rows, ": ", a.to_list_string(),
                " ", b.to_list_string(), " ", int(c.attrs.get<bool>("lower", true)), " ",
                int(c.attrs.get<bool>("adjoint", false)));
  Shape out = broadcast_batch(a, b);
  out.push_back(rows);
  out.push_back(b[b.rank() - 1]);
  c.set_output(0, c.dtypes[0], out);
}

EF_REGISTER_OP(make_op("MatrixInverse", {"input"}, {"adjoint", "T"}, infer_square_same)
                   .with_types({"T"}, {{"T", kListLinalg, kLinalgKernels}}));
EF_REGISTER_OP(make_op("Cholesky", {"input"}, {"T"}, infer_square_same)
                   .with_types({"T"}, {{"T", kListLinalg, kLinalgKernels}}));
EF_REGISTER_OP(make_op("MatrixDeterminant", {"input"}, {"T"}, infer_determinant)
                   .with_types({"T"}, {{"T", "half, float, double, complex64, complex128", kLinalgKernels}}));
EF_REGISTER_OP(make_op("LogMatrixDeterminant", {"input"}, {"T"}, infer_determinant)
                   .with_types({"T"}, {{"T", "half, float, double, complex64, complex128", kLinalgKernels}}));
EF_REGISTER_OP(make_op("MatrixSolve", {"matrix", "rhs"}, {"adjoint", "T"}, infer_solve)
                   .with_types({"T", "T"}, {{"T", kListLinalg, kLinalgKernels}}));
EF_REGISTER_OP(make_op("MatrixTriangularSolve", {"matrix", "rhs"}, {"lower", "adjoint", "T"}, infer_solve)
                   .with_types({"T", "T"}, {{"T", "bfloat16, double, float, half, complex64, complex128",
                                             kLinalgKernels}}));

}  // namespace
}  // namespace ef

namespace ef {
namespace {

Shape with_dims(const Shape& batch, std::initializer_list<int64_t> dims) {
  Shape out = batch;
  for (int64_t d : dims) out.push_back(d);
  return out;
}

int64_t min_dim(int64_t a, int64_t b) { return a < 0 || b < 0 ? kUnknownDim : std::min(a, b); }

void check_rank2(const Shape& s) {
  if (s.rank_known() && s.rank() < 2)
    throw_error(Code::kInvalidArgument, "Input tensor 0 must have rank >= 2, got ", s.rank());
}

// e [..., N] and v [..., N, N] (v is [0] without compute_v).
void infer_self_adjoint_eig(InferContext& c) {
  const Shape& s = c.shapes[0];
  check_square(s, "Input matrix must be square.");
  if (!s.rank_known()) {
    c.set_output(0, c.dtypes[0], Shape::unknown_rank());
    c.set_output(1, c.dtypes[0], Shape::unknown_rank());
    return;
  }
  const int64_t n = s[s.rank() - 1];
  c.set_output(0, c.dtypes[0], with_dims(batch_of(s), {n}));
  c.set_output(1, c.dtypes[0], c.attrs.get<bool>("compute_v", true) ? with_dims(batch_of(s), {n, n}) : Shape{0});
}

void infer_qr(InferContext& c) {
  const Shape& s = c.shapes[0];
  check_rank2(s);
  if (!s.rank_known()) {
    c.set_output(0, c.dtypes[0], Shape::unknown_rank());
    c.set_output(1, c.dtypes[0], Shape::unknown_rank());
    return;
  }
  const int64_t m = s[s.rank() - 2], n = s[s.rank() - 1], p = min_dim(m, n);
  const bool full = c.attrs.get<bool>("full_matrices", false);
  c.set_output(0, c.dtypes[0], with_dims(batch_of(s), {m, full ? m : p}));
  c.set_output(1, c.dtypes[0], with_dims(batch_of(s), {full ? m : p, n}));
}

// s [..., P], u [..., M, P or M], v [..., N, P or N]; u and v are [0] without compute_uv.
void infer_svd(InferContext& c) {
  const Shape& s = c.shapes[0];
  check_rank2(s);
  if (!s.rank_known()) {
    for (int i = 0; i < 3; ++i) c.set_output(i, c.dtypes[0], Shape::unknown_rank());
    return;
  }
  const int64_t m = s[s.rank() - 2], n = s[s.rank() - 1], p = min_dim(m, n);
  const bool full = c.attrs.get<bool>("full_matrices", false), uv = c.attrs.get<bool>("compute_uv", true);
  c.set_output(0, c.dtypes[0], with_dims(batch_of(s), {p}));
  c.set_output(1, c.dtypes[0], uv ? with_dims(batch_of(s), {m, full ? m : p}) : Shape{0});
  c.set_output(2, c.dtypes[0], uv ? with_dims(batch_of(s), {n, full ? n : p}) : Shape{0});
}

void infer_cross(InferContext& c) {
  const Shape& a = c.shapes[0];
  const Shape& b = c.shapes[1];
  check_same_dtype(c.op, c.dtypes[0], c.dtypes[1], 1);
  if (a.rank_known() && b.rank_known()) {
    bool same = a.rank() == b.rank();
    for (int i = 0; same && i < a.rank(); ++i) same = a[i] < 0 || b[i] < 0 || a[i] == b[i];
    if (!same)
      throw_error(Code::kInvalidArgument, "Both inputs must be of same shape: ", a.to_list_string(), " vs. ",
                  b.to_list_string());
    if (a.rank() < 1) throw_error(Code::kInvalidArgument, "Input must be at least 1D", a.to_list_string());
    const int64_t d = a[a.rank() - 1] >= 0 ? a[a.rank() - 1] : b[b.rank() - 1];
    if (d >= 0 && d != 3)
      throw_error(Code::kFailedPrecondition, "Cross-products are only defined for 3-element vectors.");
  }
  c.set_output(0, c.dtypes[0], a.rank_known() ? a : b);
}

EF_REGISTER_OP(make_op("SelfAdjointEigV2", {"input"}, {"compute_v", "T"}, infer_self_adjoint_eig)
                   .with_types({"T"}, {{"T", kListLinalg, kLinalgKernels}}));
EF_REGISTER_OP(make_op("Qr", {"input"}, {"full_matrices", "T"}, infer_qr)
                   .with_types({"T"}, {{"T", kListLinalg, kLinalgKernels}}));
EF_REGISTER_OP(make_op("Svd", {"input"}, {"compute_uv", "full_matrices", "T"}, infer_svd)
                   .with_types({"T"}, {{"T", kListLinalg, kLinalgKernels}}));
EF_REGISTER_OP(make_op("Cross", {"a", "b"}, {"T"}, infer_cross)
                   .with_types({"T", "T"}, {{"T", kListRealNumber, kTypesReal}}));

}  // namespace
}  // namespace ef
