// Output-shape rules of the array ops (see array_shapes.h), with TF's validation messages.
#include "ops/array_shapes.h"

#include <algorithm>

#include "core/errors.h"
#include "ops/broadcast_shapes.h"

namespace ef {

void check_index_type(const OpDef& op, DType t, const char* attr, bool int16_ok) {
  if (t == DType::kInt32 || t == DType::kInt64 || (int16_ok && t == DType::kInt16)) return;
  throw_error(Code::kInvalidArgument, "Value for attr '", attr, "' of ", tf_type_string(t),
              " is not in the list of allowed values: ", int16_ok ? "int16, " : "", "int32, int64\n\t; NodeDef: {{node ",
              op.name, "}}");
}

std::vector<int64_t> index_values(const OpDef& op, const TensorImpl& t, const char* attr, bool int16_ok) {
  check_index_type(op, t.dtype(), attr, int16_ok);
  return tensor_to_int_vector(t);
}

std::string list_string(const std::vector<int64_t>& v, const char* sep) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s + "]";
}

static Shape unknown_dims(int64_t n) { return n < 0 ? Shape::unknown_rank() : Shape(std::vector<int64_t>(n, -1)); }

// Dimension arithmetic on user-given sizes is checked before it is done (signed overflow is
// undefined): an output dim beyond int64, or a shape of more than 2**63 - 1 elements, is an
// InvalidArgument as TF raises it; a representable but impossible size fails allocation
// (ResourceExhausted).
static int64_t checked_dim(int64_t r, bool overflow, int d) {
  EF_INVALID(!overflow, "Dimension ", d, " of the output does not fit in int64");
  return r;
}
static int64_t dim_mul(int64_t a, int64_t b, int d) {
  int64_t r;
  return checked_dim(r, __builtin_mul_overflow(a, b, &r), d);
}
static int64_t dim_add(int64_t a, int64_t b, int d) {
  int64_t r;
  return checked_dim(r, __builtin_add_overflow(a, b, &r), d);
}
static int64_t sat_add(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

Shape checked_shape(Shape s) {
  if (!s.fully_defined() || s.num_elements() == 0) return s;
  int64_t n = 1;
  for (int64_t d : s)
    EF_INVALID(!__builtin_mul_overflow(n, d, &n), "Shape ", s.to_list_string(),
               " would have more than 2**63 - 1 elements");
  return s;
}

// Length of a 1-D index input from its static shape (-1 when unknown).
static int64_t vector_len(const Shape& s) { return s.rank() == 1 ? s[0] : -1; }

Shape reshape_shape(const OpDef& op, const Shape& in, const Shape& sizes_shape, const TensorImpl* sizes) {
  EF_INVALID(!sizes_shape.rank_known() || sizes_shape.rank() == 1, "sizes input must be 1-D, not ",
             sizes_shape.to_list_string());
  if (!sizes) return unknown_dims(vector_len(sizes_shape));
  std::vector<int64_t> v = index_values(op, *sizes, "Tshape");
  int64_t product = 1;
  bool sizes_have_zero = false, too_many = false;
  int unknown = -1;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == -1) {
      EF_INVALID(unknown == -1, "Only one input size may be -1, not both ", unknown, " and ", i);
      unknown = static_cast<int>(i);
    } else {
      EF_INVALID(v[i] >= 0, "Size ", i, " must be non-negative, not ", v[i]);
      if (v[i] == 0) sizes_have_zero = true;
      else too_many |= __builtin_mul_overflow(product, v[i], &product);
    }
  }
  EF_INVALID(!too_many, "Shape ", list_string(v, ", "), " has too many elements");
  Shape out(v);
  if (!in.fully_defined()) {
    if (unknown >= 0) out.set_dim(unknown, -1);
    return out;
  }
  if (unknown >= 0) {
    // Zero-size input dims are left out when the request has a zero too, so that the other
    // dims can still be inferred ([0, 2] -> [-1, 0] gives [2, 0], as TF does).
    int64_t input_num = 1;
    bool input_has_zero = false;
    for (int64_t d : in) {
      if (d > 0 || !sizes_have_zero) input_num *= d;
      else input_has_zero = true;
    }
    const int64_t missing = input_num / product;
    EF_INVALID(input_has_zero || product * missing == input_num, "Input to reshape is a tensor with ", input_num,
               " values, but the requested shape requires a multiple of ", product);
    out.set_dim(unknown, missing);
  }
  EF_INVALID(out.num_elements() == in.num_elements(), "Input to reshape is a tensor with ", in.num_elements(),
             " values, but the requested shape has ", out.num_elements());
  return out;
}

Shape transpose_shape(const OpDef& op, const Shape& in, const TensorImpl* perm, std::vector<int>* perm_out) {
  perm_out->clear();
  if (!perm || !in.rank_known()) return perm ? unknown_dims(perm->num_elements()) : unknown_dims(in.rank());
  std::vector<int64_t> p = index_values(op, *perm, "Tperm");
  const int r = in.rank();
  EF_INVALID(perm->rank() == 1 && static_cast<int64_t>(p.size()) == r, "transpose expects a vector of size ", r,
             ". But input(1) is a vector of size ", p.size());
  std::vector<bool> seen(r, false);
  Shape out;
  for (int64_t v : p) {
    int64_t d = v < 0 ? v + r : v;
    EF_INVALID(d >= 0 && d < r, v, " is out of range [0 .. ", r, ")");
    seen[d] = true;
    perm_out->push_back(static_cast<int>(d));
    out.push_back(in[static_cast<int>(d)]);
  }
  const std::string listed = list_string(p);
  for (int d = 0; d < r; ++d)
    EF_INVALID(seen[d], d, " is missing from {", listed.substr(1, listed.size() - 2), "}.");
  return out;
}

Shape expand_dims_shape(const OpDef& op, const Shape& in, const TensorImpl* axis) {
  if (!axis || !in.rank_known()) return in.rank_known() ? unknown_dims(in.rank() + 1) : Shape::unknown_rank();
  check_index_type(op, axis->dtype(), "Tdim");
  EF_INVALID(axis->num_elements() == 1, "'dim' must be a tensor with a single value");
  const int64_t a = tensor_int_at(*axis, 0);
  const int r = in.rank();
  EF_INVALID(a >= -1 - r && a <= r, "Tried to expand dim index ", a, " for tensor with ", r, " dimensions.");
  Shape out = in;
  out.insert(static_cast<int>(a < 0 ? a + r + 1 : a), 1);
  return out;
}

Shape squeeze_shape(const Shape& in, const std::vector<int64_t>& squeeze_dims) {
  if (!in.rank_known()) return in;
  const int r = in.rank();
  std::vector<bool> drop(r, false);
  for (int64_t a : squeeze_dims) {
    EF_INVALID(a >= -r && a < r, "Tried to squeeze dim index ", a, " for tensor with ", r, " dimensions.");
    const int d = static_cast<int>(a < 0 ? a + r : a);
    EF_INVALID(in[d] == 1 || in[d] == -1, "Can not squeeze dim[", d, "], expected a dimension of 1, got ", in[d]);
    drop[d] = true;
  }
  Shape out;
  for (int d = 0; d < r; ++d) {
    if (squeeze_dims.empty()) {
      if (in[d] == -1) return Shape::unknown_rank();  // might or might not be squeezed
      if (in[d] == 1) continue;
    } else if (drop[d]) {
      continue;
    }
    out.push_back(in[d]);
  }
  return out;
}

Shape concat_shape(const OpDef& op, const std::vector<Shape>& ins, const TensorImpl* axis, int* axis_out) {
  *axis_out = -1;
  EF_INVALID(!ins.empty(), "ConcatOp : Expected a list of at least one tensor");
  if (axis) check_index_type(op, axis->dtype(), "Tidx");
  if (!axis || !ins[0].rank_known()) return unknown_dims(ins[0].rank());
  EF_INVALID(axis->num_elements() == 1, "ConcatOp : axis must be a scalar, got shape ", axis->shape().to_list_string());
  const Shape& s0 = ins[0];
  const int r = s0.rank();
  const int64_t raw = tensor_int_at(*axis, 0);
  const int64_t a = raw < 0 ? raw + r : raw;
  EF_INVALID((a >= 0 && a < r) || raw == 0, "ConcatOp : Expected concatenating dimensions in the range [", -r, ", ", r,
             "), but got ", raw);
  Shape out = s0;
  for (size_t i = 0; i < ins.size(); ++i) {
    const Shape& s = ins[i];
    if (!s.rank_known()) continue;
    EF_INVALID(s.rank() == r, "ConcatOp : Ranks of all input tensors should match: shape[0] = ", s0.to_list_string(),
               " vs. shape[", i, "] = ", s.to_list_string());
    EF_INVALID(r > 0, "ConcatOp : Can't concatenate scalars (use tf.stack instead)");
    for (int d = 0; d < r; ++d) {
      if (d == a) continue;
      EF_INVALID(s[d] == s0[d] || s[d] == -1 || s0[d] == -1, "ConcatOp : Dimension ", d,
                 " in both shapes must be equal: shape[0] = ", s0.to_list_string(), " vs. shape[", i,
                 "] = ", s.to_list_string());
      if (out[d] == -1) out.set_dim(d, s[d]);
    }
    if (i > 0) out.set_dim(static_cast<int>(a), out[a] < 0 || s[a] < 0 ? -1 : out[a] + s[a]);
  }
  *axis_out = static_cast<int>(a);
  return out;
}

Shape pack_shape(const std::vector<Shape>& ins, int64_t axis, int* axis_out) {
  EF_INVALID(!ins.empty(), "Pack expects at least one input");
  const Shape& s0 = ins[0];
  if (!s0.rank_known()) return Shape::unknown_rank();
  const int r = s0.rank() + 1;
  EF_INVALID(axis >= -r && axis < r, "axis = ", axis, " not in [", -r, ", ", r, ")");
  for (size_t i = 1; i < ins.size(); ++i)
    EF_INVALID(ins[i] == s0, "Shapes of all inputs must match: values[0].shape = ", s0.to_list_string(),
               " != values[", i, "].shape = ", ins[i].to_list_string());
  *axis_out = static_cast<int>(axis < 0 ? axis + r : axis);
  Shape out = s0;
  out.insert(*axis_out, static_cast<int64_t>(ins.size()));
  return out;
}

Shape unpack_shape(const Shape& in, int64_t num, int64_t axis, int* axis_out) {
  if (!in.rank_known()) return in;
  const int r = in.rank();
  EF_INVALID(axis >= -r && axis < r, "axis = ", axis, " not in [", -r, ", ", r, ")");
  const int a = static_cast<int>(axis < 0 ? axis + r : axis);
  EF_INVALID(in[a] == num || in[a] == -1, "Input shape axis ", a, " must equal ", num, ", got shape ",
             in.to_list_string());
  *axis_out = a;
  Shape out = in;
  out.erase(a);
  return out;
}

// The split axis, normalized; "-input rank(-1) <= split_dim < input rank (1), but got 1".
static int split_axis(const Shape& in, const TensorImpl& axis) {
  EF_INVALID(axis.num_elements() == 1, "split_dim must be a scalar but has rank ", axis.rank());
  const int64_t raw = tensor_int_at(axis, 0);
  const int r = in.rank();
  EF_INVALID(raw >= -r && raw < r, "-input rank(-", r, ") <= split_dim < input rank (", r, "), but got ", raw);
  return static_cast<int>(raw < 0 ? raw + r : raw);
}

std::vector<Shape> split_shapes(const Shape& in, const TensorImpl* axis, int64_t num_split, int* axis_out) {
  EF_INVALID(num_split >= 1, "Value for attr 'num_split' of ", num_split, " must be at least minimum 1");
  if (!axis || !in.rank_known()) return std::vector<Shape>(num_split, unknown_dims(in.rank()));
  const int a = split_axis(in, *axis);
  *axis_out = a;
  Shape piece = in;
  if (in[a] >= 0) {
    EF_INVALID(in[a] % num_split == 0,
               "Number of ways to split should evenly divide the split dimension, but got split_dim ", a, " (size = ",
               in[a], ") and num_split ", num_split);
    piece.set_dim(a, in[a] / num_split);
  }
  return std::vector<Shape>(num_split, piece);
}

std::vector<Shape> splitv_shapes(const OpDef& op, const Shape& in, const TensorImpl* sizes, const TensorImpl* axis,
                                 int64_t num_split, int* axis_out) {
  EF_INVALID(num_split >= 1, "Value for attr 'num_split' of ", num_split, " must be at least minimum 1");
  if (!axis || !sizes || !in.rank_known()) return std::vector<Shape>(num_split, unknown_dims(in.rank()));
  check_index_type(op, axis->dtype(), "Tidx");
  const int a = split_axis(in, *axis);
  *axis_out = a;
  std::vector<int64_t> v = index_values(op, *sizes, "Tlen");
  EF_INVALID(static_cast<int64_t>(v.size()) == num_split, "Length of size_splits should be equal to the number of ",
             "outputs: ", v.size(), " vs. ", num_split);
  int unknown = -1;
  int64_t total = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == -1) {
      EF_INVALID(unknown == -1, "There can only be one -1 in the input.");
      unknown = static_cast<int>(i);
    } else {
      EF_INVALID(v[i] >= 0, "Split size at index ", i, " must be >= 0. Got: ", v[i]);
      total = sat_add(total, v[i]);
    }
  }
  const int64_t dim = in[a];
  if (dim >= 0) {
    EF_INVALID((unknown == -1 && total == dim) || (unknown >= 0 && total <= dim),
               "Determined shape must either match input shape along split_dim exactly if fully specified, or be "
               "less than the size of the input along split_dim if not fully specified.  Got: ", total);
    if (unknown >= 0) v[unknown] = dim - total;
  }
  std::vector<Shape> out;
  for (int64_t s : v) {
    Shape piece = in;
    piece.set_dim(a, s);
    out.push_back(piece);
  }
  return out;
}

Shape tile_shape(const OpDef& op, const Shape& in, const Shape& multiples_shape, const TensorImpl* multiples) {
  if (!multiples) return unknown_dims(in.rank_known() ? in.rank() : vector_len(multiples_shape));
  std::vector<int64_t> m = index_values(op, *multiples, "Tmultiples");
  if (!in.rank_known()) return unknown_dims(static_cast<int64_t>(m.size()));
  const int r = in.rank();
  EF_INVALID(multiples->rank() == 1 && static_cast<int64_t>(m.size()) == r,
             "Expected multiples argument to be a vector of length ", r, " but got length ",
             multiples->rank() == 1 ? static_cast<int64_t>(m.size()) : multiples->shape()[0]);
  Shape out;
  for (int d = 0; d < r; ++d) {
    EF_INVALID(m[d] >= 0, "Expected multiples[", d, "] >= 0, but got ", m[d]);
    out.push_back(in[d] < 0 ? -1 : dim_mul(in[d], m[d], d));
  }
  return checked_shape(out);
}

Shape pad_shape(const OpDef& op, const Shape& in, const Shape& paddings_shape, const TensorImpl* paddings, int mirror,
                std::vector<int64_t>* pads_out) {
  EF_INVALID(!paddings_shape.rank_known() || (paddings_shape.rank() == 2 && paddings_shape[1] == 2),
             "paddings must be a matrix with 2 columns: ", paddings_shape.to_list_string());
  if (in.rank_known())
    EF_INVALID(!paddings_shape.rank_known() || paddings_shape[0] == in.rank(),
               "The first dimension of paddings must be the rank of inputs", paddings_shape.to_list_string(), " ",
               in.to_list_string());
  if (!paddings || !in.rank_known()) return unknown_dims(in.rank_known() ? in.rank() : -1);
  std::vector<int64_t> p = index_values(op, *paddings, "Tpaddings");
  *pads_out = p;
  Shape out;
  for (int d = 0; d < in.rank(); ++d) {
    const int64_t b = p[2 * d], a = p[2 * d + 1], n = in[d];
    EF_INVALID(b >= 0 && a >= 0, "Paddings must be non-negative: ", b, " ", a);
    if (n >= 0 && mirror == 1)
      EF_INVALID(b < n && a < n, "paddings must be less than the dimension size: ", b, ", ", a, " not less than ", n);
    if (n >= 0 && mirror == 2)
      EF_INVALID(b <= n && a <= n, "paddings must be no greater than the dimension size: ", b, ", ", a,
                 " greater than ", n);
    out.push_back(n < 0 ? -1 : dim_add(dim_add(n, a, d), b, d));
  }
  return checked_shape(out);
}

void reverse_axes(const OpDef& op, const Shape& in, const TensorImpl& axis, std::vector<bool>* axes_out) {
  EF_INVALID(axis.rank() == 1, "'dims' must be 1-dimension, not ", axis.rank());
  std::vector<int64_t> v = index_values(op, axis, "Tidx");
  const int r = in.rank();
  axes_out->assign(r, false);
  for (size_t i = 0; i < v.size(); ++i) {
    const int64_t d = v[i] < 0 ? v[i] + r : v[i];
    EF_INVALID(d >= 0 && d < r, "'axis'[", i, "] = ", v[i], " is out of valid range [0, ", r - 1);
    EF_INVALID(!(*axes_out)[d], "axis ", d, " specified more than once.");
    (*axes_out)[d] = true;
  }
}

Shape broadcast_to_shape(const OpDef& op, const Shape& in, const Shape& shape_shape, const TensorImpl* shape) {
  if (!shape) return unknown_dims(vector_len(shape_shape));
  Shape out(index_values(op, *shape, "Tidx"));
  for (int64_t d : out) EF_INVALID(d >= 0, "Dimension ", d, " must be >= 0");
  out = checked_shape(out);
  if (!in.rank_known()) return out;
  EF_INVALID(in.rank() <= out.rank(), "Rank of input (", in.rank(), ") must be no greater than rank of output shape (",
             out.rank(), ").");
  const int off = out.rank() - in.rank();
  for (int d = 0; d < in.rank(); ++d) {
    const int64_t i = in[d], o = out[d + off];
    EF_INVALID(i == o || i == 1 || i == -1, "Incompatible shapes: ", in.to_list_string(), " vs. ",
               out.to_list_string());
  }
  return out;
}

Shape gather_shape(const Shape& params, const Shape& indices, const TensorImpl* axis, int64_t batch_dims, int* axis_out,
                   int* batch_dims_out) {
  if (!params.rank_known() || !indices.rank_known() || !axis) return Shape::unknown_rank();
  EF_INVALID(params.rank() >= 1, "params must be at least 1 dimensional");
  EF_INVALID(axis->num_elements() == 1, "axis must be scalar, but has rank ", axis->rank());
  const int r = params.rank(), ir = indices.rank();
  const int64_t raw = tensor_int_at(*axis, 0);
  // The rank the axis would need, in uint64 (INT64_MIN and INT64_MAX are valid axis values).
  EF_INVALID(raw >= -r && raw < r, "Shape must be at least rank ",
             raw >= 0 ? uint64_t(raw) + 1 : uint64_t(0) - uint64_t(raw), " but is rank ", r);
  const int a = static_cast<int>(raw < 0 ? raw + r : raw);
  int64_t bd = batch_dims < 0 ? batch_dims + ir : batch_dims;
  EF_INVALID(bd >= 0 && bd <= ir, "Expected batch_dims in the range [", -ir, ", ", ir, "], but got ", batch_dims);
  EF_INVALID(bd <= a, "batch_dims (", bd, ") must be less than or equal to axis (", a, ").");
  for (int d = 0; d < bd; ++d)
    EF_INVALID(params[d] == indices[d] || params[d] < 0 || indices[d] < 0, "params.shape[", d, "]: ", params[d],
               " should be equal to indices.shape[", d, "]: ", indices[d]);
  *axis_out = a;
  *batch_dims_out = static_cast<int>(bd);
  Shape out;
  for (int d = 0; d < a; ++d) out.push_back(params[d]);
  for (int d = static_cast<int>(bd); d < ir; ++d) out.push_back(indices[d]);
  for (int d = a + 1; d < r; ++d) out.push_back(params[d]);
  return out;
}

Shape gather_nd_shape(const Shape& params, const Shape& indices) {
  if (!params.rank_known() || !indices.rank_known()) return Shape::unknown_rank();
  EF_INVALID(indices.rank() >= 1, "indices must be at least a vector");
  const int64_t k = indices[indices.rank() - 1];
  if (k < 0) return Shape::unknown_rank();
  EF_INVALID(k <= params.rank(), "index innermost dimension length must be <= params rank; saw: ", k, " vs. ",
             params.rank());
  Shape out;
  for (int d = 0; d < indices.rank() - 1; ++d) out.push_back(indices[d]);
  for (int d = static_cast<int>(k); d < params.rank(); ++d) out.push_back(params[d]);
  return out;
}

Shape select_shape(const Shape& cond, const Shape& t, const Shape& e) {
  try {
    return broadcast_shapes(broadcast_shapes(cond, t), e);
  } catch (const OpError&) {
    throw_error(Code::kInvalidArgument, "condition ", cond.to_list_string(), ", then ", t.to_list_string(),
                ", and else ", e.to_list_string(), " must be broadcastable");
  }
}

Shape one_hot_shape(const Shape& indices, const TensorImpl* depth, int64_t axis, int* axis_out) {
  if (!indices.rank_known()) return Shape::unknown_rank();
  const int r = indices.rank();
  EF_INVALID(axis == -1 || (axis >= 0 && axis <= r), "Expected axis to be -1 or between [0, ", r + 1,
             ").  But received: ", axis);
  *axis_out = static_cast<int>(axis == -1 ? r : axis);
  int64_t d = -1;
  if (depth) {
    EF_INVALID(depth->rank() == 0, "depth must be a scalar, but got: ", depth->shape().to_list_string());
    EF_INVALID(depth->dtype() == DType::kInt32, "depth must be an int32 scalar, got ", dtype_name(depth->dtype()));
    d = tensor_int_at(*depth, 0);
    EF_INVALID(d >= 0, "depth must be non-negative, got: ", d);
  }
  Shape out = indices;
  out.insert(*axis_out, d);
  return checked_shape(out);
}

Shape fill_shape(const OpDef& op, const Shape& dims_shape, const TensorImpl* dims) {
  EF_INVALID(!dims_shape.rank_known() || dims_shape.rank() == 1, "dims must represent a vector, got shape ",
             dims_shape.to_list_string());
  if (!dims) return unknown_dims(vector_len(dims_shape));
  std::vector<int64_t> v = index_values(op, *dims, "index_type");
  for (int64_t d : v) EF_INVALID(d >= 0, "Dimension ", d, " must be >= 0");
  return checked_shape(Shape(v));
}

}  // namespace ef
