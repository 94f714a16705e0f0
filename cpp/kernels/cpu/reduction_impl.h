#pragma once
// The CPU reduction kernels (Sum, Mean, Prod in reduction.cc; Max, Min, Any, All in
// reduction_minmax.cc, two files so they compile in parallel). The input is collapsed into
// alternating kept/reduced dim groups and reduced one group at a time as a [K1, R, K2] problem:
// contiguous rows (K2 == 1) or columns (K2 > 1), both with pairwise accumulation for accuracy
// (the trees and the operations are in reduction_leaves.h).
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/reduction_isa.h"
#include "kernels/cpu/reduction_kernels.h"
#include "kernels/cpu/reduction_leaves.h"
#include "ops/reduction_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

// The float/double Sum/Prod/Max/Min leaves run the CPU's ISA copy (reduction_isa.h); the rest
// compile here.
template <class Red>
constexpr int kIsaReduceIndex = std::is_same_v<Red, SumOp> ? kIsaReduceSum
                                : std::is_same_v<Red, ProdOp> ? kIsaReduceProd
                                : std::is_same_v<Red, MaxOp> ? kIsaReduceMax
                                : std::is_same_v<Red, MinOp> ? kIsaReduceMin
                                                             : -1;
template <class Red, typename In, typename A>
constexpr bool kIsaLeaf = std::is_same_v<In, A> && (std::is_same_v<A, float> || std::is_same_v<A, double>) &&
                          kIsaReduceIndex<Red> >= 0;

// Reduces p[0..n) along the pairwise tree (reduction_leaves.h).
template <class Red, typename In, typename A>
A reduce_contig(const In* p, int64_t n) {
  if constexpr (kIsaLeaf<Red, In, A>) {
    return isa_reduce_leaves<A>().contig[kIsaReduceIndex<Red>](p, n);
  } else {
    return pairwise_contig<Red, In, A>(p, n);
  }
}

// acc[j] = reduce over r < R of p[r * stride + j], j < w <= kColTile; pairwise over rows.
template <class Red, typename In, typename A>
void reduce_cols(const In* p, int64_t R, int64_t stride, int64_t w, A* acc) {
  if constexpr (kIsaLeaf<Red, In, A>) {
    isa_reduce_leaves<A>().cols[kIsaReduceIndex<Red>](p, R, stride, w, acc);
  } else {
    pairwise_cols<Red, In, A>(p, R, stride, w, acc);
  }
}

// A scratch array; not std::vector, whose bool specialization packs bits (threads would race).
template <typename A>
struct Scratch {
  explicit Scratch(int64_t n = 0) : p(n > 0 ? new A[static_cast<size_t>(n)] : nullptr) {}
  A* data() { return p.get(); }
  A& operator[](int64_t i) { return p[i]; }
  std::unique_ptr<A[]> p;
};

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
