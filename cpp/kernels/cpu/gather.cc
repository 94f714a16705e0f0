// CPU kernels for index-driven ops: GatherV2, GatherNd, Where (coordinates of true elements) and
// SelectV2 (elementwise choice with broadcasting).
#include <atomic>
#include <complex>
#include <type_traits>

#include "kernels/cpu/copy.h"
#include "kernels/cpu/nd_index.h"
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
  const std::vector<int64_t> offsets = nd_offsets(indices, count, k, ps, slice, [&](int64_t i, const std::vector<int64_t>& bad) {
    throw_error(Code::kInvalidArgument, "indices", coords(i, indices.shape(), indices.rank() - 1), " = ",
                list_string(bad, ", "), " does not index into param shape ", ps.to_list_string(), ", node name: GatherNd");
  });
  TensorImpl* out = c.allocate_output(0, params.dtype(), out_shape);
  if (count == 0 || slice == 0) return;
  EF_DISPATCH_STORAGE(params.dtype(), {
    const T* src = params.data<T>();
    T* dst = out->data<T>();
    const int64_t* off = offsets.data();
    if (slice == 1) {  // single elements: a gather loop, not a copy call per element
      for_range(count, [src, dst, off](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) dst[i] = src[off[i]];
      });
    } else {
      for_range(
          count,
          [&](int64_t b, int64_t e) {
            for (int64_t i = b; i < e; ++i) copy_block(src + off[i], dst + i * slice, slice);
          },
          std::max<int64_t>(1, kElementwiseGrain / slice));
    }
  });
}

// Elements as Where and count_nonzero test them: bool through its bytes (GCC vectorizes no loop
// over bools).
template <typename T>
using NonzeroView = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

template <typename T>
bool nonzero(const T& v) {
  return v != T(0);
}

// The coordinates of the nonzero elements in row-major order, without a branch per element (random
// masks would mispredict half of them): each element's coordinates are written to the next free
// row, which advances only past a nonzero one (the rows hold exactly the nonzeros, so the loop ends
// once the last is written); the odometer `idx` replaces a division per dim.
template <typename T>
void where_coords(const TensorImpl& x, TensorImpl* out) {
  using V = NonzeroView<T>;
  const V* p = reinterpret_cast<const V*>(x.data<T>());
  const int64_t n = x.num_elements(), rows = out->shape()[0];
  int64_t* o = out->data<int64_t>();
  const int r = x.rank();
  if (r == 1) {
    for (int64_t i = 0, k = 0; k < rows; ++i) {
      o[k] = i;
      k += nonzero(p[i]);
    }
    return;
  }
  std::vector<int64_t> idx(static_cast<size_t>(r), 0);
  const Shape& dims = x.shape();
  int64_t* const end = o + rows * r;
  for (int64_t i = 0; o < end && i < n; ++i) {
    for (int d = 0; d < r; ++d) o[d] = idx[d];
    o += nonzero(p[i]) ? r : 0;
    for (int d = r - 1; d >= 0 && ++idx[d] == dims[d]; --d) idx[d] = 0;
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

// dst[i] = c[i] ? t[i] : e[i] over one run, each operand contiguous (kC, kT, kE) or one broadcast
// element. On storage words both values are read and combined through the condition's mask, so the
// loop vectorizes with no branch to mispredict on random conditions (SelectV2's output is never a
// forwarded input: restrict holds).
template <bool kC, bool kT, bool kE, typename T>
void select_run(const uint8_t* __restrict c, const T* __restrict t, const T* __restrict e, T* __restrict dst,
                int64_t n) {
  if constexpr (std::is_unsigned_v<T>) {  // the storage words: a mask, which GCC vectorizes (a ?: it does not)
    for (int64_t i = 0; i < n; ++i) {
      const T m = T(0) - T(c[kC ? i : 0] != 0);
      dst[i] = (t[kT ? i : 0] & m) | (e[kE ? i : 0] & T(~m));
    }
  } else {  // complex128 and strings: copy the chosen one
    for (int64_t i = 0; i < n; ++i) dst[i] = c[kC ? i : 0] ? t[kT ? i : 0] : e[kE ? i : 0];
  }
}

template <typename T>
using SelectRun = void (*)(const uint8_t*, const T*, const T*, T*, int64_t);

// The run for operands with element strides sc, st, se, each 0 or 1.
template <typename T>
SelectRun<T> select_run_for(int64_t sc, int64_t st, int64_t se) {
  static constexpr SelectRun<T> kRuns[8] = {
      select_run<false, false, false, T>, select_run<false, false, true, T>, select_run<false, true, false, T>,
      select_run<false, true, true, T>,   select_run<true, false, false, T>, select_run<true, false, true, T>,
      select_run<true, true, false, T>,   select_run<true, true, true, T>};
  return kRuns[sc * 4 + st * 2 + se];
}

template <typename T>
void select_loop(const TensorImpl& cond, const TensorImpl& t, const TensorImpl& e, TensorImpl& out) {
  const Shape& os = out.shape();
  const int64_t n = out.num_elements();
  if (n == 0) return;
  const uint8_t* pc = reinterpret_cast<const uint8_t*>(cond.data<bool>());  // GCC vectorizes no loop over bools
  const T *pt = t.data<T>(), *pe = e.data<T>();
  T* po = out.data<T>();
  // Operands that are whole (the output's shape) or one element: one run over the flat elements.
  auto flat = [&](const TensorImpl& x) -> int64_t {
    if (x.shape() == os) return 1;
    return x.num_elements() == 1 ? 0 : -1;
  };
  const int64_t fc = flat(cond), ft = flat(t), fe = flat(e);
  if (fc >= 0 && ft >= 0 && fe >= 0) {
    const SelectRun<T> run = select_run_for<T>(fc, ft, fe);
    for_range(n, [&](int64_t b, int64_t end) { run(pc + fc * b, pt + ft * b, pe + fe * b, po + b, end - b); });
    return;
  }
  const int r = os.rank();
  std::vector<int64_t> sc = broadcast_strides(cond.shape(), os), st = broadcast_strides(t.shape(), os),
                       se = broadcast_strides(e.shape(), os);
  const int64_t inner = os[r - 1];
  const SelectRun<T> run = select_run_for<T>(sc[r - 1] ? 1 : 0, st[r - 1] ? 1 : 0, se[r - 1] ? 1 : 0);
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
          run(pc + oc, pt + ot, pe + oe, po + row * inner, inner);
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
  using V = NonzeroView<T>;
  const V* p = reinterpret_cast<const V*>(x.data<T>());
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
