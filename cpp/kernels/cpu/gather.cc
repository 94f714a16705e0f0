// CPU kernels for index-driven ops: GatherV2, GatherNd, Where (coordinates of true elements) and
// SelectV2 (elementwise choice with broadcasting).
#include <atomic>
#include <complex>

#include "kernels/cpu/copy.h"
#include "ops/array_shapes.h"
#include "ops/signature.h"

namespace ef {

namespace {

// "[1,1]": the coordinates of flat element `i` of a tensor of shape `dims` (first `n` dims).
std::string coords(int64_t i, const Shape& dims, int n) {
  std::vector<int64_t> c(n);
  for (int d = n - 1; d >= 0; --d) {
    c[d] = i % dims[d];
    i /= dims[d];
  }
  return list_string(c);
}

int64_t prod(const Shape& s, int from, int to) {
  int64_t p = 1;
  for (int d = from; d < to; ++d) p *= s[d];
  return p;
}

template <typename T>
void copy_block(const T* src, T* dst, int64_t n) {
  if constexpr (std::is_trivially_copyable_v<T>) {
    std::memcpy(dst, src, n * sizeof(T));
  } else {
    for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
  }
}

// Copies rows [b, e) of the [batch * outer, m] grid of gathered slices (each `inner` elements) and
// checks each index as it goes; returns the first row whose index is outside [0, n), else -1.
template <typename T, typename Index>
int64_t gather_rows(const T* src, const Index* idx, T* dst, int64_t outer, int64_t n, int64_t m, int64_t inner,
                    int64_t b, int64_t e) {
  int64_t bo = b / m, j = b % m;
  for (int64_t row = b; row < e; j = 0, ++bo) {
    const Index* ix = idx + (bo / outer) * m;  // this batch's indices
    const T* s = src + bo * n * inner;
    const int64_t stop = std::min(e, row + (m - j));
    if (inner == 1) {
      T* const d = dst;
      for (; row < stop; ++row, ++j) {
        const int64_t v = ix[j];
        if (static_cast<uint64_t>(v) >= static_cast<uint64_t>(n)) return row;
        d[row] = s[v];
      }
    } else {
      for (; row < stop; ++row, ++j) {
        const int64_t v = ix[j];
        if (static_cast<uint64_t>(v) >= static_cast<uint64_t>(n)) return row;
        copy_block(s + v * inner, dst + row * inner, inner);
      }
    }
  }
  return -1;
}

template <typename T, typename Index>
int64_t gather_all(const T* src, const Index* idx, T* dst, int64_t rows, int64_t outer, int64_t n, int64_t m,
                   int64_t inner) {
  std::atomic<int64_t> bad{rows};
  for_range(
      rows,
      [&](int64_t b, int64_t e) {
        const int64_t r = gather_rows(src, idx, dst, outer, n, m, inner, b, e);
        for (int64_t cur = bad.load(); r >= 0 && r < cur && !bad.compare_exchange_weak(cur, r);) {
        }
      },
      std::max<int64_t>(1, kElementwiseGrain / inner));
  return bad.load() < rows ? bad.load() : -1;
}

void gather_kernel(KernelContext& c) {
  const TensorImpl& params = *c.input(0);
  const TensorImpl& indices = *c.input(1);
  check_index_type(c.op, indices.dtype(), "Tindices", true);
  check_index_type(c.op, c.input(2)->dtype(), "Taxis");
  int axis = 0, bd = 0;
  Shape out_shape = gather_shape(params.shape(), indices.shape(), c.input(2).get(), c.attrs.get<int64_t>("batch_dims", 0),
                                 &axis, &bd);
  const Shape& ps = params.shape();
  const int64_t batch = prod(ps, 0, bd), outer = prod(ps, bd, axis), n = ps[axis];
  const int64_t inner = prod(ps, axis + 1, ps.rank());
  const int64_t m = prod(indices.shape(), bd, indices.rank());
  auto report = [&](int64_t i, int64_t v) {
    throw_error(Code::kInvalidArgument, "indices", coords(i, indices.shape(), indices.rank()), " = ", v,
                " is not in [0, ", n, ")");
  };
  TensorImpl* out = c.allocate_output(0, params.dtype(), out_shape);
  const int64_t rows = batch * outer * m;
  if (rows == 0 || inner == 0) return;  // nothing to copy: TF checks no index either
  auto run = [&](auto index_tag) {
    using Index = decltype(index_tag);
    const Index* idx = indices.data<Index>();
    int64_t bad = -1;
    EF_DISPATCH_STORAGE(params.dtype(), bad = gather_all(params.data<T>(), idx, out->data<T>(), rows, outer, n, m, inner));
    if (bad >= 0) {  // the first bad row in order holds the first bad index
      const int64_t i = (bad / m / outer) * m + bad % m;
      report(i, idx[i]);
    }
  };
  switch (indices.dtype()) {
    case DType::kInt16: run(int16_t{}); break;
    case DType::kInt32: run(int32_t{}); break;
    default: run(int64_t{}); break;
  }
}

void gather_nd_kernel(KernelContext& c) {
  const TensorImpl& params = *c.input(0);
  const TensorImpl& indices = *c.input(1);
  check_index_type(c.op, indices.dtype(), "Tindices", true);
  Shape out_shape = gather_nd_shape(params.shape(), indices.shape());
  const Shape& ps = params.shape();
  const int k = static_cast<int>(indices.shape()[indices.rank() - 1]);
  const int64_t count = prod(indices.shape(), 0, indices.rank() - 1);
  const int64_t slice = prod(ps, k, ps.rank());
  std::vector<int64_t> idx = tensor_to_int_vector(indices);
  std::vector<int64_t> offsets(count, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t off = 0;
    bool ok = true;
    for (int d = 0; d < k && ok; ++d) {
      const int64_t v = idx[i * k + d];
      ok = v >= 0 && v < ps[d];
      if (ok) off = off * ps[d] + v;  // only for in-range v: a bad index could overflow int64
    }
    if (!ok) {
      std::vector<int64_t> bad(idx.begin() + i * k, idx.begin() + (i + 1) * k);
      throw_error(Code::kInvalidArgument, "indices", coords(i, indices.shape(), indices.rank() - 1), " = ",
                  list_string(bad, ", "), " does not index into param shape ", ps.to_list_string(),
                  ", node name: GatherNd");
    }
    offsets[i] = off * slice;
  }
  TensorImpl* out = c.allocate_output(0, params.dtype(), out_shape);
  if (count == 0 || slice == 0) return;
  EF_DISPATCH_STORAGE(params.dtype(), {
    const T* src = params.data<T>();
    T* dst = out->data<T>();
    for_range(
        count,
        [&](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) copy_block(src + offsets[i], dst + i * slice, slice);
        },
        std::max<int64_t>(1, kElementwiseGrain / slice));
  });
}

template <typename T>
bool nonzero(const T& v) {
  return v != T(0);
}

template <typename T>
void where_coords(const TensorImpl& x, TensorImpl* out) {
  const T* p = x.data<T>();
  int64_t* o = out->data<int64_t>();
  const int r = x.rank();
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    if (!nonzero(p[i])) continue;
    int64_t rem = i;
    for (int d = r - 1; d >= 0; --d) {
      o[d] = rem % x.shape()[d];
      rem /= x.shape()[d];
    }
    o += r;
  }
}

void where_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_type(c.op, x.dtype(), kTypesNumeric | kTypesBool);
  EF_INVALID(x.rank() > 0, "WhereOp : Unhandled input dimensions: 0");
  const int64_t n = count_nonzero(x);
  TensorImpl* out = c.allocate_output(0, DType::kInt64, Shape({n, x.rank()}));
  EF_DISPATCH_POD(x.dtype(), throw_no_kernel(c.op, "T", x.dtype()), where_coords<T>(x, out));
}

template <typename T>
void select_loop(const TensorImpl& cond, const TensorImpl& t, const TensorImpl& e, TensorImpl& out) {
  const Shape& os = out.shape();
  const int64_t n = out.num_elements();
  if (n == 0) return;
  const bool* pc = cond.data<bool>();
  const T *pt = t.data<T>(), *pe = e.data<T>();
  T* po = out.data<T>();
  const int r = os.rank();
  if (r == 0) {
    po[0] = pc[0] ? pt[0] : pe[0];
    return;
  }
  std::vector<int64_t> sc = broadcast_strides(cond.shape(), os), st = broadcast_strides(t.shape(), os),
                       se = broadcast_strides(e.shape(), os);
  const int64_t inner = os[r - 1];
  for_range(
      n / inner,
      [&](int64_t b, int64_t end) {
        for (int64_t row = b; row < end; ++row) {
          int64_t oc = 0, ot = 0, oe = 0, rem = row;
          for (int d = r - 2; d >= 0; --d) {
            const int64_t i = rem % os[d];
            rem /= os[d];
            oc += i * sc[d];
            ot += i * st[d];
            oe += i * se[d];
          }
          T* dst = po + row * inner;
          for (int64_t i = 0; i < inner; ++i)
            dst[i] = pc[oc + i * sc[r - 1]] ? pt[ot + i * st[r - 1]] : pe[oe + i * se[r - 1]];
        }
      },
      std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(inner, 1)));
}

void select_kernel(KernelContext& c) {
  const TensorImpl &cond = *c.input(0), &t = *c.input(1), &e = *c.input(2);
  check_same_dtype(c.op, DType::kBool, cond.dtype(), 0);
  check_same_dtype(c.op, t.dtype(), e.dtype(), 2);
  TensorImpl* out = c.allocate_output(0, t.dtype(), select_shape(cond.shape(), t.shape(), e.shape()));
  EF_DISPATCH_STORAGE(t.dtype(), select_loop<T>(cond, t, e, *out));
}

EF_REGISTER_CPU_KERNEL("GatherV2", gather_kernel);
EF_REGISTER_CPU_KERNEL("GatherNd", gather_nd_kernel);
EF_REGISTER_CPU_KERNEL("Where", where_kernel);
EF_REGISTER_CPU_KERNEL("SelectV2", select_kernel);

template <typename T>
int64_t count_nonzero_typed(const TensorImpl& x) {
  const T* p = x.data<T>();
  int64_t n = 0;
  for (int64_t i = 0; i < x.num_elements(); ++i) n += nonzero(p[i]);
  return n;
}

}  // namespace

int64_t count_nonzero(const TensorImpl& x) {
  EF_DISPATCH_POD(x.dtype(), throw_error(Code::kInvalidArgument, "Where: unsupported dtype ", dtype_name(x.dtype())),
                  return count_nonzero_typed<T>(x));
  return 0;
}

}  // namespace ef
