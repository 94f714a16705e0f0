// CPU kernels that join, split and pad: ConcatV2, Pack, Unpack, Split, SplitV, Pad, PadV2, MirrorPad.
#include "kernels/cpu/copy.h"
#include "ops/array_shapes.h"

namespace ef {
namespace {

// Joins inputs viewed as [outer, inner_i] into out [outer, sum(inner_i)] (concat along an axis,
// and pack, whose inputs get a size-1 axis). Threads split the output's elements evenly, so one
// large input or many small ones divide alike; each piece is one memcpy per run of a row.
struct ConcatPiece {
  const void* src;
  int64_t inner;  // elements per outer row
  int64_t col;    // first column in the output row
};

template <typename T>
void concat_rows(const std::vector<ConcatPiece>& pieces, int64_t outer, int64_t out_inner, T* dst) {
  const int64_t total = outer * out_inner;
  if (total == 0) return;
  for_range(total, [&](int64_t b, int64_t e) {
    int64_t row = b / out_inner, col = b % out_inner;
    size_t k = 0;
    while (pieces[k].col + pieces[k].inner <= col) ++k;  // k: the piece holding col
    for (int64_t pos = b; pos < e;) {
      const ConcatPiece& p = pieces[k];
      const int64_t off = col - p.col, len = std::min(p.inner - off, e - pos);
      const T* s = static_cast<const T*>(p.src) + row * p.inner + off;
      if constexpr (std::is_trivially_copyable_v<T>) {
        std::memcpy(dst + pos, s, sizeof(T) * len);
      } else {
        for (int64_t i = 0; i < len; ++i) dst[pos + i] = s[i];
      }
      pos += len;
      col += len;
      if (col == out_inner) {
        col = 0;
        ++row;
        k = 0;
      } else {
        ++k;
      }
      while (k < pieces.size() && pieces[k].inner == 0) ++k;  // empty inputs take no columns
    }
  });
}

// Copies every input into `out`, each a block of `inner(i)` elements per outer row.
template <class Inner>
void join_inputs(KernelContext& c, size_t n, TensorImpl* out, int64_t outer, Inner inner) {
  std::vector<ConcatPiece> pieces;
  pieces.reserve(n);
  int64_t col = 0;
  for (size_t i = 0; i < n; ++i) {
    const int64_t w = inner(i);
    pieces.push_back({c.input(i)->raw_data(), w, col});
    col += w;
  }
  EF_DISPATCH_STORAGE(out->dtype(), concat_rows<T>(pieces, outer, col, out->data<T>()));
}

void concat_kernel(KernelContext& c) {
  const size_t n = c.num_inputs() - 1;
  std::vector<Shape> shapes;
  shapes.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    check_same_dtype(c.op, c.input(0)->dtype(), c.input(i)->dtype(), static_cast<int>(i));
    shapes.push_back(c.input(i)->shape());
  }
  int axis;
  Shape out_shape = concat_shape(c.op, shapes, c.input(n).get(), &axis);
  if (n == 1) return c.set_output(0, c.input(0)->with_shape(out_shape));
  TensorImpl* out = c.allocate_output(0, c.input(0)->dtype(), out_shape);
  int64_t outer = 1;
  for (int d = 0; d < axis; ++d) outer *= out_shape[d];
  if (outer == 0) return;
  join_inputs(c, n, out, outer, [&](size_t i) { return c.input(i)->num_elements() / outer; });
}

void pack_kernel(KernelContext& c) {
  std::vector<Shape> shapes;
  shapes.reserve(c.num_inputs());
  for (size_t i = 0; i < c.num_inputs(); ++i) {
    check_same_dtype(c.op, c.input(0)->dtype(), c.input(i)->dtype(), static_cast<int>(i));
    shapes.push_back(c.input(i)->shape());
  }
  int axis;
  Shape out_shape = pack_shape(shapes, c.attrs.get<int64_t>("axis", 0), &axis);
  TensorImpl* out = c.allocate_output(0, c.input(0)->dtype(), out_shape);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < out_shape.rank(); ++d) {
    if (d < axis) outer *= out_shape[d];
    else if (d > axis) inner *= out_shape[d];
  }
  if (outer == 0) return;
  join_inputs(c, c.num_inputs(), out, outer, [inner](size_t) { return inner; });
}

// The block [start, start + size) along `axis` of x as a tensor of `piece` shape: a view of x's
// buffer where the block is one run of its elements, else a copy.
Tensor slice_along(const TensorImpl& x, int axis, int64_t start, const Shape& piece) {
  std::vector<int64_t> in_st = row_strides(x.shape());
  int64_t outer = 1;
  for (int d = 0; d < axis; ++d) outer *= x.shape()[d];
  if (outer == 1)  // the piece is one run of x's elements: a view of its buffer
    if (Tensor view = TensorImpl::view_of(x, start * in_st[axis], piece)) return view;
  Tensor out = TensorImpl::empty(x.dtype(), piece);
  StridedIter it;
  it.dims = piece.to_vector();
  it.src_st = in_st;
  it.src_off = start * in_st[axis];
  if (static_cast<int>(it.dims.size()) < x.rank()) {  // Unpack: the axis is dropped
    it.src_st.erase(it.src_st.begin() + axis);
  }
  it.dst_st = row_strides(it.dims);
  EF_DISPATCH_STORAGE(x.dtype(), strided_copy(x.data<T>(), out->data<T>(), std::move(it)));
  return out;
}

void unpack_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  const int64_t num = c.attrs.get<int64_t>("num");
  int axis;
  Shape piece = unpack_shape(x.shape(), num, c.attrs.get<int64_t>("axis", 0), &axis);
  for (int64_t i = 0; i < num; ++i) c.set_output(i, slice_along(x, axis, i, piece));
}

void split_pieces(KernelContext& c, const TensorImpl& x, int axis, const std::vector<Shape>& pieces) {
  if (pieces.size() == 1) return c.set_output(0, c.inputs[c.op.name == "Split" ? 1 : 0]->with_shape(x.shape()));
  int64_t start = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    c.set_output(i, slice_along(x, axis, start, pieces[i]));
    start += pieces[i][axis];
  }
}

void split_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(1);
  EF_INVALID(c.input(0)->dtype() == DType::kInt32, "split_dim must be an int32 tensor");
  int axis = 0;
  auto pieces = split_shapes(x.shape(), c.input(0).get(), c.attrs.get<int64_t>("num_split"), &axis);
  split_pieces(c, x, axis, pieces);
}

void splitv_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  int axis = 0;
  auto pieces = splitv_shapes(c.op, x.shape(), c.input(1).get(), c.input(2).get(), c.attrs.get<int64_t>("num_split"), &axis);
  split_pieces(c, x, axis, pieces);
}

// Pad / PadV2: fill with the constant, then copy the input into the interior.
void pad_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  std::vector<int64_t> pads;
  Shape out_shape = pad_shape(c.op, x.shape(), c.input(1)->shape(), c.input(1).get(), 0, &pads);
  const bool v2 = c.num_inputs() == 3;
  if (v2) {
    check_same_dtype(c.op, x.dtype(), c.input(2)->dtype(), 2);
    EF_INVALID(c.input(2)->rank() == 0, "constant_values must be a scalar. Found: ",
               c.input(2)->shape().to_list_string());
  }
  TensorImpl* out = c.allocate_output(0, x.dtype(), out_shape);
  std::vector<int64_t> out_st = row_strides(out_shape);
  int64_t off = 0;
  for (int d = 0; d < x.rank(); ++d) off += pads[2 * d] * out_st[d];
  EF_DISPATCH_STORAGE(x.dtype(), {
    T value{};
    if (v2) value = *c.input(2)->data<T>();
    fill_n<T>(out->data<T>(), out->num_elements(), value);
    copy_into<T>(x, out->data<T>(), off, out_st);
  });
}

// MirrorPad: each output coordinate maps to an input coordinate per dim (reflected at the edges,
// REFLECT excluding and SYMMETRIC including the edge element).
template <typename T>
void mirror_copy(const TensorImpl& x, TensorImpl& out, const std::vector<std::vector<int64_t>>& maps) {
  const int r = x.rank();
  const T* src = x.data<T>();
  T* dst = out.data<T>();
  if (r == 0) {
    dst[0] = src[0];
    return;
  }
  std::vector<int64_t> st = row_strides(x.shape());
  const std::vector<int64_t> od = out.shape().to_vector();
  const int64_t inner = od[r - 1];
  if (inner == 0) return;
  const int64_t rows = out.num_elements() / inner;
  const std::vector<int64_t>& last = maps[r - 1];
  for_range(rows, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      int64_t so = 0, rem = row;
      for (int d = r - 2; d >= 0; --d) {
        so += maps[d][rem % od[d]] * st[d];
        rem /= od[d];
      }
      T* o = dst + row * inner;
      for (int64_t i = 0; i < inner; ++i) o[i] = src[so + last[i]];
    }
  }, std::max<int64_t>(1, kElementwiseGrain / inner));
}

void mirror_pad_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  const std::string mode = c.attrs.get<std::string>("mode", "REFLECT");
  EF_INVALID(mode == "REFLECT" || mode == "SYMMETRIC", "mode must be either REFLECT or SYMMETRIC, got ", mode);
  const int mirror = mode == "REFLECT" ? 1 : 2;
  std::vector<int64_t> pads;
  Shape out_shape = pad_shape(c.op, x.shape(), c.input(1)->shape(), c.input(1).get(), mirror, &pads);
  std::vector<std::vector<int64_t>> maps(x.rank());
  for (int d = 0; d < x.rank(); ++d) {
    const int64_t n = x.shape()[d];
    for (int64_t o = 0; o < out_shape[d]; ++o) {
      int64_t j = o - pads[2 * d];
      if (j < 0) j = mirror == 1 ? -j : -j - 1;
      else if (j >= n) j = mirror == 1 ? 2 * n - 2 - j : 2 * n - 1 - j;
      maps[d].push_back(j);
    }
  }
  TensorImpl* out = c.allocate_output(0, x.dtype(), out_shape);
  if (out->num_elements() == 0) return;
  EF_DISPATCH_STORAGE(x.dtype(), mirror_copy<T>(x, *out, maps));
}

EF_REGISTER_CPU_KERNEL("ConcatV2", concat_kernel);
EF_REGISTER_CPU_KERNEL("Pack", pack_kernel);
EF_REGISTER_CPU_KERNEL("Unpack", unpack_kernel);
EF_REGISTER_CPU_KERNEL("Split", split_kernel);
EF_REGISTER_CPU_KERNEL("SplitV", splitv_kernel);
EF_REGISTER_CPU_KERNEL("Pad", pad_kernel);
EF_REGISTER_CPU_KERNEL("PadV2", pad_kernel);
EF_REGISTER_CPU_KERNEL("MirrorPad", mirror_pad_kernel);

}  // namespace
}  // namespace ef
