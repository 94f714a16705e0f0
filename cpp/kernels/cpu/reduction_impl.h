#pragma once
// The CPU reduction kernels (Sum, Mean, Prod in reduction.cc; Max, Min, Any, All in
// reduction_minmax.cc, two files so they compile in parallel). The input is collapsed into
// alternating kept/reduced dim groups and reduced one group at a time as a [K1, R, K2] problem:
// contiguous rows (K2 == 1) or columns (K2 > 1), both with pairwise accumulation for accuracy.
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/reduction_kernels.h"
#include "ops/reduction_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

// Integer arithmetic wraps like TF (signed overflow is undefined in C++, so go through unsigned;
// types narrower than int promote to int, so use uint32 for them to avoid overflow there).
template <typename A>
using WrapT = std::conditional_t<(sizeof(A) < 4), uint32_t, std::make_unsigned_t<A>>;

template <typename A>
inline bool nan_value(A v) {
  if constexpr (std::is_floating_point_v<A>) return std::isnan(v);
  else return false;
}

struct SumOp {
  template <typename A> static A init() { return A(0); }
  template <typename A> static A op(A a, A b) {
    if constexpr (std::is_integral_v<A> && !std::is_same_v<A, bool>)
      return static_cast<A>(static_cast<WrapT<A>>(a) + static_cast<WrapT<A>>(b));
    else
      return a + b;
  }
};
struct ProdOp {
  template <typename A> static A init() { return A(1); }
  template <typename A> static A op(A a, A b) {
    if constexpr (std::is_integral_v<A> && !std::is_same_v<A, bool>)
      return static_cast<A>(static_cast<WrapT<A>>(a) * static_cast<WrapT<A>>(b));
    else
      return a * b;
  }
};
// Max/Min propagate NaN, as TF's do.
struct MaxOp {
  template <typename A> static A init() { return lowest_value<A>(); }
  template <typename A> static A op(A a, A b) { return (a > b || nan_value(a)) ? a : b; }
};
struct MinOp {
  template <typename A> static A init() { return highest_value<A>(); }
  template <typename A> static A op(A a, A b) { return (a < b || nan_value(a)) ? a : b; }
};
struct AnyOp {
  template <typename A> static A init() { return false; }
  template <typename A> static A op(A a, A b) { return a || b; }
};
struct AllOp {
  template <typename A> static A init() { return true; }
  template <typename A> static A op(A a, A b) { return a && b; }
};

// Widening integer sums (int8/int16 Mean in int64) in a plain loop: GCC 12's vectorizer
// miscompiles the 8-accumulator widening form below (int8 [100]*25 summed to a wrong value).
template <class Red, typename In, typename A>
__attribute__((optimize("no-tree-vectorize"))) A reduce_widening(const In* p, int64_t n) {
  A a = Red::template init<A>();
  for (int64_t i = 0; i < n; ++i) a = Red::op(a, static_cast<A>(p[i]));
  return a;
}

// The 8 accumulators of a 128-element leaf combined, as reduce_contig does.
template <class Red, typename A>
inline A combine8(const A* r) {
  return Red::op(Red::op(Red::op(r[0], r[1]), Red::op(r[2], r[3])), Red::op(Red::op(r[4], r[5]), Red::op(r[6], r[7])));
}

// A 1024-element node of reduce_contig's tree: eight 128-element leaves side by side, each with
// its own 8 accumulators (eight independent vector chains instead of one at a time), then
// combined as the recursion does. The same operations in the same order: the same bits.
template <class Red, typename A>
A reduce_1024(const A* p) {
  constexpr int kLeaves = 8, kLeaf = 128;
  A r[kLeaves][8];
  for (int l = 0; l < kLeaves; ++l)
    for (int j = 0; j < 8; ++j) r[l][j] = p[l * kLeaf + j];
  for (int i = 8; i < kLeaf; i += 8)
    for (int l = 0; l < kLeaves; ++l)
      for (int j = 0; j < 8; ++j) r[l][j] = Red::op(r[l][j], p[l * kLeaf + i + j]);
  A v[kLeaves];
  for (int l = 0; l < kLeaves; ++l) v[l] = combine8<Red>(r[l]);
  return Red::op(Red::op(Red::op(v[0], v[1]), Red::op(v[2], v[3])), Red::op(Red::op(v[4], v[5]), Red::op(v[6], v[7])));
}

// Reduces p[0..n) pairwise (like NumPy): 8 independent accumulators below 128 elements,
// recursive halves above, so float error grows with log(n) rather than n.
template <class Red, typename In, typename A>
A reduce_contig(const In* p, int64_t n) {
  if constexpr (std::is_integral_v<In> && std::is_same_v<A, int64_t> && (sizeof(In) < sizeof(A))) {
    return reduce_widening<Red, In, A>(p, n);
  }
  if constexpr ((std::is_same_v<Red, MaxOp> || std::is_same_v<Red, MinOp>) && std::is_same_v<In, A> &&
                std::is_arithmetic_v<A>) {
    if (n >= 32) {  // vectorized, with NaN propagated from a flag
      bool nan = false;
      const A best = extreme_value<std::is_same_v<Red, MaxOp>>(p, n, Red::template init<A>(), &nan);
      if constexpr (std::is_floating_point_v<A>) {
        if (nan) return std::numeric_limits<A>::quiet_NaN();
      }
      return best;
    }
  }
  if (n < 8) {
    if (n == 0) return Red::template init<A>();
    A a = static_cast<A>(p[0]);
    for (int64_t i = 1; i < n; ++i) a = Red::op(a, static_cast<A>(p[i]));
    return a;
  }
  if (n <= 128) {
    A r[8];
    for (int j = 0; j < 8; ++j) r[j] = static_cast<A>(p[j]);
    int64_t i = 8;
    for (; i + 8 <= n; i += 8)
      for (int j = 0; j < 8; ++j) r[j] = Red::op(r[j], static_cast<A>(p[i + j]));
    A a = combine8<Red>(r);
    for (; i < n; ++i) a = Red::op(a, static_cast<A>(p[i]));
    return a;
  }
  if constexpr (std::is_same_v<In, A> && (std::is_same_v<Red, SumOp> || std::is_same_v<Red, ProdOp>) &&
                std::is_arithmetic_v<A> && !std::is_same_v<A, bool>) {
    if (n == 1024) return reduce_1024<Red>(p);
  }
  int64_t h = n / 2;
  h -= h % 8;
  return Red::op(reduce_contig<Red, In, A>(p, h), reduce_contig<Red, In, A>(p + h, n - h));
}

// A scratch array; not std::vector, whose bool specialization packs bits (threads would race).
template <typename A>
struct Scratch {
  explicit Scratch(int64_t n = 0) : p(n > 0 ? new A[static_cast<size_t>(n)] : nullptr) {}
  A* data() { return p.get(); }
  A& operator[](int64_t i) { return p[i]; }
  std::unique_ptr<A[]> p;
};

constexpr int64_t kColTile = 256;  // columns reduced together (accumulators stay in L1)

// acc[j] = reduce over r < R of p[r * stride + j], j < w <= kColTile; pairwise over rows.
template <class Red, typename In, typename A>
void reduce_cols(const In* p, int64_t R, int64_t stride, int64_t w, A* acc) {
  if (R <= 128) {
    if (R == 0) {
      for (int64_t j = 0; j < w; ++j) acc[j] = Red::template init<A>();
      return;
    }
    for (int64_t j = 0; j < w; ++j) acc[j] = static_cast<A>(p[j]);
    for (int64_t r = 1; r < R; ++r) {
      const In* row = p + r * stride;
      for (int64_t j = 0; j < w; ++j) acc[j] = Red::op(acc[j], static_cast<A>(row[j]));
    }
    return;
  }
  const int64_t h = R / 2;
  reduce_cols<Red, In, A>(p, h, stride, w, acc);
  A tmp[kColTile];
  reduce_cols<Red, In, A>(p + h * stride, R - h, stride, w, tmp);
  for (int64_t j = 0; j < w; ++j) acc[j] = Red::op(acc[j], tmp[j]);
}

// Long rows and tall columns are cut into blocks of a size fixed by the shape alone, reduced in
// parallel and combined pairwise in block order: the result never depends on the thread count.
constexpr int64_t kRowBlock = int64_t(1) << 16;  // elements per block of a long row
constexpr int64_t kFewUnits = 16;                // column tiles below which tall columns are banded

// out[k1 * K2 + k2] = reduce over r of in[(k1 * R + r) * K2 + k2].
template <class Red, typename In, typename A>
void reduce3(const In* in, int64_t K1, int64_t R, int64_t K2, A* out) {
  if (K2 == 1) {
    if (R < 2 * kRowBlock) {
      for_range(K1, [&](int64_t s, int64_t e) {
        for (int64_t k = s; k < e; ++k) out[k] = reduce_contig<Red, In, A>(in + k * R, R);
      }, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(R, 1)));
      return;
    }
    const int64_t nb = (R + kRowBlock - 1) / kRowBlock;
    Scratch<A> part(K1 * nb);
    for_range(K1 * nb, [&](int64_t s, int64_t e) {
      for (int64_t u = s; u < e; ++u) {
        const int64_t k = u / nb, b = (u % nb) * kRowBlock;
        part[u] = reduce_contig<Red, In, A>(in + k * R + b, std::min(kRowBlock, R - b));
      }
    }, 1);
    for (int64_t k = 0; k < K1; ++k) out[k] = reduce_contig<Red, A, A>(part.data() + k * nb, nb);
    return;
  }
  const int64_t tiles = (K2 + kColTile - 1) / kColTile;
  const int64_t units = K1 * tiles;
  auto run_units = [&](const In* base, int64_t rows, A* dst, int64_t s, int64_t e) {
    for (int64_t u = s; u < e; ++u) {
      const int64_t k1 = u / tiles, c0 = (u % tiles) * kColTile, w = std::min(kColTile, K2 - c0);
      reduce_cols<Red, In, A>(base + k1 * R * K2 + c0, rows, K2, w, dst + k1 * K2 + c0);
    }
  };
  const int64_t band = std::max<int64_t>(128, kRowBlock / std::min(K2, kColTile));  // rows per band
  if (units >= kFewUnits || R < 2 * band) {
    for_range(units, [&](int64_t s, int64_t e) { run_units(in, R, out, s, e); },
              std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(R * kColTile, 1)));
    return;
  }
  // Few column tiles over many rows: bands of rows reduced in parallel, then combined pairwise.
  const int64_t nout = K1 * K2, nbands = (R + band - 1) / band;
  Scratch<A> part(nbands * nout);
  for_range(nbands, [&](int64_t s, int64_t e) {
    for (int64_t c = s; c < e; ++c) {
      const int64_t b = c * band;
      run_units(in + b * K2, std::min(band, R - b), part.data() + c * nout, 0, units);
    }
  }, 1);
  for_range(nout, [&](int64_t s, int64_t e) {
    Scratch<A> col(nbands);
    for (int64_t i = s; i < e; ++i) {
      for (int64_t c = 0; c < nbands; ++c) col[c] = part[c * nout + i];
      out[i] = reduce_contig<Red, A, A>(col.data(), nbands);
    }
  });
}

// The accumulator type: float16 and bfloat16 accumulate in float; Mean of narrow ints in int64 (as TF,
// so the mean of int8 [100, 100] is 100, not a wrapped value). Sum/Prod of 8/16-bit ints
// accumulate in uint32 and truncate at the end (the same bits as wrapping at every step):
// GCC 12 -O3 miscompiles the vectorized wrapping int8/int16 accumulator loop.
template <class Red, bool kMean, typename T>
using AccOf = std::conditional_t<
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float,
    std::conditional_t<std::is_integral_v<T> && (sizeof(T) < 8) && kMean, int64_t,
                       std::conditional_t<std::is_integral_v<T> && (sizeof(T) < 4) && !std::is_same_v<T, bool> &&
                                              (std::is_same_v<Red, SumOp> || std::is_same_v<Red, ProdOp>),
                                          uint32_t, T>>>;

template <bool kMean, typename T, typename A>
inline T finish(A a, int64_t count) {
  if constexpr (!kMean) {
    return static_cast<T>(a);
  } else if constexpr (std::is_integral_v<A>) {
    return count == 0 ? T(0) : static_cast<T>(a / static_cast<A>(count));  // truncates, like TF
  } else if constexpr (std::is_same_v<A, complex64> || std::is_same_v<A, complex128>) {
    return a / static_cast<typename A::value_type>(count);
  } else {
    return static_cast<T>(a / static_cast<A>(count));
  }
}

template <class Red, bool kMean, typename T>
void reduce_typed(const TensorImpl& in, const std::vector<bool>& mask, TensorImpl* out) {
  using A = AccOf<Red, kMean, T>;
  const int64_t nout = out->num_elements();
  if (nout == 0) return;
  // Collapse dims into alternating kept/reduced groups; size-1 dims are layout-neutral.
  std::vector<int64_t> size;
  std::vector<bool> red;
  int64_t count = 1;
  for (int d = 0; d < in.rank(); ++d) {
    const int64_t n = in.shape()[d];
    if (mask[d]) count *= n;
    if (n == 1) continue;
    if (!red.empty() && red.back() == mask[d]) {
      size.back() *= n;
    } else {
      size.push_back(n);
      red.push_back(mask[d]);
    }
  }
  T* dst = out->data<T>();
  constexpr bool kDirect = std::is_same_v<A, T> && !kMean;
  Scratch<A> buf;
  const A* cur = nullptr;  // data of the previous pass (null: the input itself)
  bool any = false;
  for (bool r : red) any |= r;
  if (!any) {  // nothing to reduce (no axes, or only size-1 axes): a converting copy
    size.assign(1, nout);
    red.assign(1, false);
  }
  do {
    int j = -1;
    for (int g = 0; g < static_cast<int>(red.size()); ++g)
      if (red[g]) j = g;
    int64_t K1 = 1, R = 1, K2 = 1;
    if (j >= 0) {
      for (int g = 0; g < j; ++g) K1 *= size[g];
      R = size[j];
      for (int g = j + 1; g < static_cast<int>(size.size()); ++g) K2 *= size[g];
      size.erase(size.begin() + j);
      red.erase(red.begin() + j);
      if (j > 0 && j < static_cast<int>(size.size())) {  // merge the kept neighbours
        size[j - 1] *= size[j];
        size.erase(size.begin() + j);
        red.erase(red.begin() + j);
      }
    } else {
      K1 = nout;
    }
    bool last = true;
    for (bool r : red) last &= !r;
    Scratch<A> next(last && kDirect ? 0 : K1 * K2);
    A* target = last && kDirect ? reinterpret_cast<A*>(dst) : next.data();
    if (cur) reduce3<Red, A, A>(cur, K1, R, K2, target);
    else reduce3<Red, T, A>(in.data<T>(), K1, R, K2, target);
    if (last) {
      if constexpr (!kDirect) {
        for_range(nout, [&](int64_t s, int64_t e) {
          for (int64_t i = s; i < e; ++i) dst[i] = finish<kMean, T, A>(next[i], count);
        });
      }
      return;
    }
    buf.p.swap(next.p);
    cur = buf.data();
  } while (true);
}

template <class Red, bool kMean>
void reduction_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  const OpDef& op = c.op;
  const bool logical = std::is_same_v<Red, AnyOp> || std::is_same_v<Red, AllOp>;
  if (logical) check_same_dtype(op, DType::kBool, in.dtype(), 0);
  else check_type(op, in.dtype(), (std::is_same_v<Red, MaxOp> || std::is_same_v<Red, MinOp>) ? kTypesMinMax : kTypesSum);
  std::vector<bool> mask = reduction_mask(op, *c.input(1), in.rank());
  TensorImpl* out = c.allocate_output(0, in.dtype(), reduced_shape(in.shape(), mask, c.attrs.get<bool>("keep_dims", false)));
  if constexpr (std::is_same_v<Red, AnyOp> || std::is_same_v<Red, AllOp>) {
    reduce_typed<Red, false, bool>(in, mask, out);
  } else if constexpr (std::is_same_v<Red, MaxOp> || std::is_same_v<Red, MinOp>) {
    switch (in.dtype()) {
      EF_CASES_REAL(reduce_typed<Red, kMean, T>(in, mask, out))
      EF_CASES_WIDE_UINT(reduce_typed<Red, kMean, T>(in, mask, out))
      EF_CASE(kBFloat16, bfloat16, reduce_typed<Red, kMean, T>(in, mask, out))
      default: throw_no_kernel(op, "T", in.dtype());
    }
  } else {
    EF_DISPATCH_ALL_NUMERIC(in.dtype(), throw_no_kernel(op, "T", in.dtype()), reduce_typed<Red, kMean, T>(in, mask, out));
  }
}

}  // namespace
}  // namespace ef
