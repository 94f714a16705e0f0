// Data-movement helpers for the array kernels: storage-width dispatch and N-d strided copies.
#pragma once
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "core/errors.h"
#include "kernels/cpu/broadcast.h"

namespace ef {

// Moving elements never looks at their values, so fixed-size dtypes dispatch on byte width only
// (fewer instantiations, exact bit copies); strings copy std::string objects one by one.
// Handles have no element storage: a kernel reached with one is a signature bug, not a crash.
inline int storage_width(DType t) {
  if (t == DType::kString) return 0;
  const size_t w = dtype_size(t);
  if (w == 0) throw_error(Code::kInternal, "no element storage for dtype ", dtype_name(t));
  return static_cast<int>(w);
}

#define EF_DISPATCH_STORAGE(DTYPE, ...)          \
  switch (::ef::storage_width(DTYPE)) {           \
    case 1: {                                     \
      using T = uint8_t;                          \
      __VA_ARGS__;                                \
      break;                                      \
    }                                             \
    case 2: {                                     \
      using T = uint16_t;                         \
      __VA_ARGS__;                                \
      break;                                      \
    }                                             \
    case 4: {                                     \
      using T = uint32_t;                         \
      __VA_ARGS__;                                \
      break;                                      \
    }                                             \
    case 8: {                                     \
      using T = uint64_t;                         \
      __VA_ARGS__;                                \
      break;                                      \
    }                                             \
    case 16: {                                    \
      using T = ::ef::complex128;                 \
      __VA_ARGS__;                                \
      break;                                      \
    }                                             \
    default: {                                    \
      using T = std::string;                      \
      __VA_ARGS__;                                \
      break;                                      \
    }                                             \
  }

// Row-major element strides of `dims`.
inline std::vector<int64_t> row_strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * dims[d + 1];
  return s;
}
inline std::vector<int64_t> row_strides(const Shape& shape) { return row_strides(shape.to_vector()); }

// A strided view over every index i of `dims`: element at off + sum(i[d] * st[d]).
struct StridedIter {
  std::vector<int64_t> dims, src_st, dst_st;
  int64_t src_off = 0, dst_off = 0;

  // Drops size-1 dims and merges neighbours that are contiguous in both views, so that common
  // cases (slices of whole rows, concatenation blocks) become long memcpy-able inner runs.
  void simplify() {
    std::vector<int64_t> d2, s2, t2;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] == 1) continue;
      if (!d2.empty() && s2.back() == src_st[i] * dims[i] && t2.back() == dst_st[i] * dims[i]) {
        d2.back() *= dims[i];
        s2.back() = src_st[i];
        t2.back() = dst_st[i];
        continue;
      }
      d2.push_back(dims[i]);
      s2.push_back(src_st[i]);
      t2.push_back(dst_st[i]);
    }
    dims.swap(d2);
    src_st.swap(s2);
    dst_st.swap(t2);
  }
};

// o[i * di] = s[i * si] for i < n. The contiguous-destination strides that TF's data movement
// produces (a broadcast element, a reversal, every other element) get loops with the stride fixed,
// which GCC vectorizes; a runtime stride it does not.
template <typename T>
void copy_run(const T* s, T* o, int64_t n, int64_t si, int64_t di) {
  if constexpr (std::is_trivially_copyable_v<T>) {
    if (di == 1) {
      if (si == 1) {
        std::memcpy(o, s, sizeof(T) * n);
        return;
      }
      const T* __restrict x = s;
      T* __restrict y = o;
      if (si == 0) {
        const T v = x[0];
        for (int64_t i = 0; i < n; ++i) y[i] = v;
        return;
      }
      if (si == -1) {
        for (int64_t i = 0; i < n; ++i) y[i] = x[-i];
        return;
      }
      if (si == 2) {
        for (int64_t i = 0; i < n; ++i) y[i] = x[2 * i];
        return;
      }
    }
  }
  for (int64_t i = 0; i < n; ++i) o[i * di] = s[i * si];
}

// Rows of K elements (K a constant: the row's loop unrolls, the rows' loop is all that is left)
// into packed destination rows: dst[row * K + j] = src[row * sr + j * si] for rows [b, e). The
// shape of a column broadcast or tiled to a few columns (tf.repeat, broadcast_to [n, 1] -> [n, 3]),
// where a call per row of a few elements costs 4x the copying.
template <int K, typename T>
void copy_short_rows(const T* src, T* dst, int64_t b, int64_t e, int64_t sr, int64_t si) {
  const T* __restrict s = src;
  T* __restrict o = dst;
  if (si == 0) {
    for (int64_t row = b; row < e; ++row) {
      const T v = s[row * sr];
      for (int j = 0; j < K; ++j) o[row * K + j] = v;
    }
  } else {
    for (int64_t row = b; row < e; ++row)
      for (int j = 0; j < K; ++j) o[row * K + j] = s[row * sr + j * si];
  }
}

constexpr int64_t kShortRow = 8;  // the widest row copy_short_rows unrolls

template <typename T>
void copy_short_rows(const T* src, T* dst, int64_t inner, int64_t b, int64_t e, int64_t sr, int64_t si) {
  switch (inner) {
    case 2: return copy_short_rows<2>(src, dst, b, e, sr, si);
    case 3: return copy_short_rows<3>(src, dst, b, e, sr, si);
    case 4: return copy_short_rows<4>(src, dst, b, e, sr, si);
    case 5: return copy_short_rows<5>(src, dst, b, e, sr, si);
    case 6: return copy_short_rows<6>(src, dst, b, e, sr, si);
    case 7: return copy_short_rows<7>(src, dst, b, e, sr, si);
    default: return copy_short_rows<kShortRow>(src, dst, b, e, sr, si);
  }
}

// dst[view] = src[view] for a StridedIter; runs rows in parallel when large.
template <typename T>
void strided_copy(const T* src, T* dst, StridedIter it) {
  for (int64_t d : it.dims)
    if (d == 0) return;
  it.simplify();
  const int r = static_cast<int>(it.dims.size());
  if (r == 0) {
    dst[it.dst_off] = src[it.src_off];
    return;
  }
  const int64_t inner = it.dims[r - 1], si = it.src_st[r - 1], di = it.dst_st[r - 1];
  int64_t rows = 1;
  for (int d = 0; d < r - 1; ++d) rows *= it.dims[d];
  if (r == 2 && di == 1 && it.dst_st[0] == inner && inner >= 2 && inner <= kShortRow &&
      std::is_trivially_copyable_v<T>) {
    const T* s = src + it.src_off;
    T* o = dst + it.dst_off;
    const int64_t sr = it.src_st[0];
    for_range(rows, [&](int64_t b, int64_t e) { copy_short_rows(s, o, inner, b, e, sr, si); },
              std::max<int64_t>(1, kElementwiseGrain / inner));
    return;
  }
  if (r >= 2 && di == 1 && si != 1 && it.src_st[r - 2] == 1 && rows >= 64) {
    // Transpose-like: the source is contiguous along the second-to-last dim. Copy in tiles so
    // both sides stay in cache (a plain row loop would miss on every source read).
    constexpr int64_t kTile = 32;
    const int64_t a_dim = it.dims[r - 2], da = it.dst_st[r - 2];
    const int64_t outer = rows / a_dim, a_tiles = (a_dim + kTile - 1) / kTile;
    for_range(
        outer * a_tiles,
        [&](int64_t b, int64_t e) {
          for (int64_t job = b; job < e; ++job) {
            const int64_t o = job / a_tiles, a0 = (job % a_tiles) * kTile, a1 = std::min(a_dim, a0 + kTile);
            int64_t so = it.src_off, doff = it.dst_off, rem = o;
            for (int d = r - 3; d >= 0; --d) {
              const int64_t idx = rem % it.dims[d];
              rem /= it.dims[d];
              so += idx * it.src_st[d];
              doff += idx * it.dst_st[d];
            }
            for (int64_t b0 = 0; b0 < inner; b0 += kTile) {
              const int64_t b1 = std::min(inner, b0 + kTile);
              for (int64_t a = a0; a < a1; ++a)
                for (int64_t k = b0; k < b1; ++k) dst[doff + a * da + k] = src[so + a + k * si];
            }
          }
        },
        std::max<int64_t>(1, kElementwiseGrain / (kTile * std::max<int64_t>(inner, 1))));
    return;
  }
  for_range(
      rows,
      [&](int64_t b, int64_t e) {
        for (int64_t row = b; row < e; ++row) {
          int64_t so = it.src_off, doff = it.dst_off, rem = row;
          for (int d = r - 2; d >= 0; --d) {
            const int64_t idx = rem % it.dims[d];
            rem /= it.dims[d];
            so += idx * it.src_st[d];
            doff += idx * it.dst_st[d];
          }
          copy_run(src + so, dst + doff, inner, si, di);
        }
      },
      std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(inner, 1)));
}

// Copies `src` (whole tensor) into `dst` at element offset `dst_off` with destination strides
// `dst_st` (one per src dim): the building block of concat, pack and pad.
template <typename T>
void copy_into(const TensorImpl& src, T* dst, int64_t dst_off, const std::vector<int64_t>& dst_st) {
  StridedIter it;
  it.dims = src.shape().to_vector();
  it.src_st = row_strides(it.dims);
  it.dst_st = dst_st;
  it.dst_off = dst_off;
  strided_copy(src.data<T>(), dst, std::move(it));
}

// Fills `n` elements with `v`.
template <typename T>
void fill_n(T* dst, int64_t n, const T& v) {
  // Locals only: a 1-byte store may alias anything it could reach (`v`, the closure's members),
  // which reloads them per element and keeps the loop scalar (bool fills ran 4x slower).
  for_range(n, [dst, v](int64_t b, int64_t e) {
    T* const d = dst;
    const T value = v;
    for (int64_t i = b; i < e; ++i) d[i] = value;
  });
}

}  // namespace ef
