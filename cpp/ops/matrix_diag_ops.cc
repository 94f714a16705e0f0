// Op definitions of the band and diagonal ops: MatrixBandPart, MatrixDiagV3, MatrixDiagPartV3 and
// MatrixSetDiagV3. The V3 ops take one diagonal k or a band k = (lo, hi), packed as TF's
// [..., hi - lo + 1, max_len] with `align`.
#include "ops/matrix_ops.h"

#include <algorithm>

#include "ops/op_util.h"
#include "ops/types.h"

namespace ef {

DiagRange diag_range(const Tensor& k) {
  const std::vector<int64_t> v = tensor_to_int_vector(*k);
  if (k->rank() > 1) throw_error(Code::kInvalidArgument, "diag_index must be a scalar or vector, received shape: ",
                                 k->shape().to_list_string());
  if (v.empty() || v.size() > 2)
    throw_error(Code::kInvalidArgument, "diag_index must have only one or two elements, received ", v.size(),
                " elements.");
  const DiagRange r{v[0], v.size() == 2 ? v[1] : v[0]};
  if (r.lo > r.hi)
    throw_error(Code::kInvalidArgument, "lower_diag_index must not be larger than upper_diag_index: ", r.lo, " > ",
                r.hi);
  return r;
}

int64_t diag_offset(const std::string& align, int64_t d, int64_t len, int64_t max_len) {
  const bool super = d >= 0;
  const std::string word = align.empty() ? (super ? "RIGHT" : "LEFT")
                                         : (super ? align.substr(0, align.find('_')) : align.substr(align.find('_') + 1));
  return word == "RIGHT" ? max_len - len : 0;
}

int64_t diag_length(int64_t rows, int64_t cols, int64_t k) {
  return std::max<int64_t>(0, std::min(rows + std::min<int64_t>(k, 0), cols - std::max<int64_t>(k, 0)));
}

int64_t max_diag_length(int64_t rows, int64_t cols, const DiagRange& k) {
  return std::max<int64_t>(0, std::min(rows + std::min<int64_t>(k.hi, 0), cols - std::max<int64_t>(k.lo, 0)));
}

namespace {

void check_matrix_rank(const Shape& s) {
  if (s.rank_known() && s.rank() < 2)
    throw_error(Code::kInvalidArgument, "input must be at least 2-dim, received shape: ", s.to_list_string());
}

void check_diag_bounds(const DiagRange& k, int64_t rows, int64_t cols) {
  if (rows <= 0 || cols <= 0) return;
  if (k.lo <= -rows || k.lo >= cols)
    throw_error(Code::kInvalidArgument, "lower_diag_index is out of bound: ", k.lo, ". It must be between ", -rows,
                " and ", cols);
  if (k.hi <= -rows || k.hi >= cols)
    throw_error(Code::kInvalidArgument, "upper_diag_index is out of bound: ", k.hi, ". It must be between ", -rows,
                " and ", cols);
}

void infer_band_part(InferContext& c) {
  const Shape& s = c.shapes[0];
  check_matrix_rank(s);
  if (s.rank_known()) {
    const char* names[] = {"num_lower", "num_upper"};
    const char* what[] = {"rows", "columns"};
    for (int i = 0; i < 2; ++i) {
      const Tensor& v = c.values[1 + i];
      if (!v) continue;
      if (v->rank() != 0)
        throw_error(Code::kInvalidArgument, names[i], " must be scalar, got shape ", v->shape().to_list_string());
      const int64_t n = tensor_to_int_vector(*v).at(0), dim = s[s.rank() - 2 + i];
      if (dim >= 0 && n > dim)
        throw_error(Code::kInvalidArgument, names[i], " must be negative or less or equal to number of ", what[i],
                    " (", dim, ") got: ", n);
    }
  }
  c.set_output(0, c.dtypes[0], s);
}

void infer_diag_part(InferContext& c) {
  const Shape& s = c.shapes[0];
  check_matrix_rank(s);
  if (!s.rank_known() || !c.values[1]) {
    c.set_output(0, c.dtypes[0], Shape::unknown_rank());
    return;
  }
  const DiagRange k = diag_range(c.values[1]);
  const int64_t rows = s[s.rank() - 2], cols = s[s.rank() - 1];
  check_diag_bounds(k, rows, cols);
  Shape out = batch_of(s);
  if (k.num() > 1) out.push_back(k.num());
  out.push_back(rows < 0 || cols < 0 ? kUnknownDim : max_diag_length(rows, cols, k));
  c.set_output(0, c.dtypes[0], out);
}

void infer_diag(InferContext& c) {
  const Shape& s = c.shapes[0];
  if (s.rank_known() && s.rank() < 1)
    throw_error(Code::kInvalidArgument, "diagonal must be at least 1-dim, received shape: ", s.to_list_string());
  if (!s.rank_known() || !c.values[1] || !c.values[2] || !c.values[3]) {
    c.set_output(0, c.dtypes[0], Shape::unknown_rank());
    return;
  }
  const DiagRange k = diag_range(c.values[1]);
  const int64_t len = s[s.rank() - 1];
  int64_t rows = tensor_to_int_vector(*c.values[2]).at(0), cols = tensor_to_int_vector(*c.values[3]).at(0);
  if (k.num() > 1 && s.rank() < 2)
    throw_error(Code::kInvalidArgument, "diagonal must be at least 2-dim for a band, received shape: ",
                s.to_list_string());
  if (k.num() > 1 && s[s.rank() - 2] >= 0 && s[s.rank() - 2] != k.num())
    throw_error(Code::kInvalidArgument, "The number of diagonals provided in the input does not match the "
                "lower_diag_index and upper_diag_index range.");
  Shape out;
  for (int i = 0; i + (k.num() > 1 ? 2 : 1) < s.rank(); ++i) out.push_back(s[i]);
  if (len < 0) {
    out.push_back(kUnknownDim);
    out.push_back(kUnknownDim);
    c.set_output(0, c.dtypes[0], out);
    return;
  }
  const int64_t min_rows = len - std::min<int64_t>(k.hi, 0), min_cols = len + std::max<int64_t>(k.lo, 0);
  if (rows == -1 && cols == -1) rows = cols = std::max(min_rows, min_cols);
  else if (rows == -1) rows = min_rows;
  else if (cols == -1) cols = min_cols;
  if (rows < min_rows) throw_error(Code::kInvalidArgument, "The number of rows is too small.");
  if (cols < min_cols) throw_error(Code::kInvalidArgument, "The number of columns is too small.");
  if (rows != min_rows && cols != min_cols)
    throw_error(Code::kInvalidArgument, "The number of rows or columns is not consistent with the specified d_lower, ",
                "d_upper, and diagonal.");
  out.push_back(rows);
  out.push_back(cols);
  c.set_output(0, c.dtypes[0], out);
}

void infer_set_diag(InferContext& c) {
  const Shape& s = c.shapes[0];
  const Shape& d = c.shapes[1];
  check_same_dtype(c.op, c.dtypes[0], c.dtypes[1], 1);
  check_matrix_rank(s);
  if (s.rank_known() && d.rank_known() && c.values[2] && s.fully_defined() && d.fully_defined()) {
    const DiagRange k = diag_range(c.values[2]);
    check_diag_bounds(k, s[s.rank() - 2], s[s.rank() - 1]);
    Shape want = batch_of(s);
    if (k.num() > 1) want.push_back(k.num());
    want.push_back(max_diag_length(s[s.rank() - 2], s[s.rank() - 1], k));
    if (!(want == d))
      throw_error(Code::kInvalidArgument, "Either first dimensions of diagonal don't match input.shape[:-2], or "
                  "diagonal.shape[:-1] is not equal to the longests diagonal in range [lower_diag_index:"
                  "upper_diag_index].\nInput shape: ", s.to_list_string(), "\nDiagonal shape: ", d.to_list_string(),
                  "\nExpected diagonal shape: ", want.to_list_string());
  }
  c.set_output(0, c.dtypes[0], s);
}

constexpr uint32_t kDiagKernels = kTypesNumeric | kTypesBool;

EF_REGISTER_OP(make_op("MatrixBandPart", {"input", "num_lower", "num_upper"}, {"T", "Tindex"}, infer_band_part)
                   .with_types({"T", "Tindex", "Tindex"}, {{"T", nullptr, kDiagKernels}, {"Tindex", kListIndex}}));
EF_REGISTER_OP(make_op("MatrixDiagPartV3", {"input", "k", "padding_value"}, {"T", "align"}, infer_diag_part)
                   .with_types({"T", "int32", "T"}, {{"T", nullptr, kDiagKernels}}));
EF_REGISTER_OP(make_op("MatrixDiagV3", {"diagonal", "k", "num_rows", "num_cols", "padding_value"}, {"T", "align"},
                       infer_diag)
                   .with_types({"T", "int32", "int32", "int32", "T"}, {{"T", nullptr, kDiagKernels}}));
EF_REGISTER_OP(make_op("MatrixSetDiagV3", {"input", "diagonal", "k"}, {"T", "align"}, infer_set_diag)
                   .with_types({"T", "T", "int32"}, {{"T", nullptr, kDiagKernels}}));

}  // namespace
}  // namespace ef
