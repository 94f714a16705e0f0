// The direct convolution's micro-kernel and pixel loop, written over an ISA's vector traits A
// (V, kW floats a vector, zero, load, bcast, fma, store). Each ISA's file includes this after its
// `#pragma GCC target`, so everything here compiles for that ISA; it uses no standard-library
// templates (their shared instances must stay baseline code).
#pragma once
#include <cstdint>
#include <cstring>

#include "kernels/cpu/conv_direct_impl.h"

namespace ef {
namespace {

// acc[RW pixels][NV vectors] = sum over the taps and input channels of input value x filter row:
// one broadcast per pixel and NV filter loads feed RW*NV FMAs. src[t*RW + r] is pixel r's input
// at the t-th live tap (or the zero row), taps[t] that tap's index in the packed filter block f.
// bias (NV vectors; null: none) is added to the sums, then max(0, .) taken when relu.
template <class A, int RW, int NV>
inline void tile(const float* const* src, const int* taps, int64_t ntaps, int64_t in_c, const float* f,
                 float* const* dst, int valid, const float* bias, bool relu) {
  using V = typename A::V;
  constexpr int W = A::kW;
  V acc[RW][NV];
#pragma GCC unroll 32
  for (int r = 0; r < RW; ++r)
#pragma GCC unroll 4
    for (int n = 0; n < NV; ++n) acc[r][n] = A::zero();
  for (int64_t t = 0; t < ntaps; ++t) {
    const float* s[RW];
#pragma GCC unroll 32
    for (int r = 0; r < RW; ++r) s[r] = src[t * RW + r];
    const float* ft = f + int64_t(taps[t]) * in_c * NV * W;
    for (int64_t c = 0; c < in_c; ++c, ft += NV * W) {
      V fv[NV];
#pragma GCC unroll 4
      for (int n = 0; n < NV; ++n) fv[n] = A::load(ft + n * W);
#pragma GCC unroll 32
      for (int r = 0; r < RW; ++r) {
        const V b = A::bcast(s[r][c]);
#pragma GCC unroll 4
        for (int n = 0; n < NV; ++n) acc[r][n] = A::fma(b, fv[n], acc[r][n]);
      }
    }
  }
  if (bias) {
#pragma GCC unroll 4
    for (int n = 0; n < NV; ++n) {
      const V b = A::load(bias + n * W);
#pragma GCC unroll 32
      for (int r = 0; r < RW; ++r) acc[r][n] = acc[r][n] + b;
    }
  }
  if (relu) {
#pragma GCC unroll 32
    for (int r = 0; r < RW; ++r)
#pragma GCC unroll 4
      for (int n = 0; n < NV; ++n) acc[r][n] = A::max(A::zero(), acc[r][n]);  // NaN stays NaN
  }
#pragma GCC unroll 32
  for (int r = 0; r < RW; ++r) {
    if (valid == NV * W) {
#pragma GCC unroll 4
      for (int n = 0; n < NV; ++n) A::store(dst[r] + n * W, acc[r][n]);
    } else {  // the last block of output channels
      float tmp[NV * W];
#pragma GCC unroll 4
      for (int n = 0; n < NV; ++n) A::store(tmp + n * W, acc[r][n]);
      std::memcpy(dst[r], tmp, sizeof(float) * size_t(valid));
    }
  }
}

// The tile for nv (1..NV) vectors of output channels.
template <class A, int RW, int NV>
inline void tile_nv(int nv, const float* const* src, const int* taps, int64_t ntaps, int64_t in_c, const float* f,
                    float* const* dst, int valid, const float* bias = nullptr, bool relu = false) {
  if constexpr (NV > 1) {
    if (nv < NV) return tile_nv<A, RW, NV - 1>(nv, src, taps, ntaps, in_c, f, dst, valid, bias, relu);
  }
  tile<A, RW, NV>(src, taps, ntaps, in_c, f, dst, valid, bias, relu);
}

inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// Per output pixel of [p0, p1): its image's input and the top-left input pixel of its window,
// stepped along (no divisions past the first pixel).
inline void pixel_origins(const Conv2DGeometry& g, const float* in, int64_t p0, int64_t p1, const float** img,
                          int32_t* iy0, int32_t* ix0) {
  const int64_t per_image = g.out_h * g.out_w;
  int64_t n = p0 / per_image, oy = p0 % per_image / g.out_w, ox = p0 % g.out_w;
  for (int64_t i = 0; i < p1 - p0; ++i) {
    img[i] = in + n * g.in_h * g.in_w * g.in_c;
    iy0[i] = int32_t(oy * g.stride_h - g.pad_top);
    ix0[i] = int32_t(ox * g.stride_w - g.pad_left);
    if (++ox == g.out_w) {
      ox = 0;
      if (++oy == g.out_h) oy = 0, ++n;
    }
  }
}

// acc[RW pixels of one output row] over filter rows of 3 taps: input column q of the tile (pixels
// q, q-1, q-2 through taps 0, 1, 2) is broadcast once for three FMAs. rows[k] is the k-th filter
// row's input row at the tile's first column, zero-padded, channels last; the columns are reached
// from five bases 3 columns apart plus 0, 1 or 2 times in_c, so the addresses need no more
// general registers than there are.
template <class A, int RW>
inline void row_tile(const float* const* rows, const float* const* frows, int nrows, int64_t in_c, float* const* dst,
                     int live, const float* bias, bool relu) {
  using V = typename A::V;
  constexpr int W = A::kW;
  constexpr int kBases = (RW + 2 + 2) / 3;
  V acc[RW];
#pragma GCC unroll 32
  for (int r = 0; r < RW; ++r) acc[r] = A::zero();
  const int64_t c1 = in_c, c2 = 2 * in_c;
  for (int k = 0; k < nrows; ++k) {
    const float* base[kBases];
#pragma GCC unroll 8
    for (int j = 0; j < kBases; ++j) base[j] = rows[k] + 3 * j * in_c;
    const float* f = frows[k];  // [3 taps][in_c][W]
    for (int64_t ci = 0; ci < in_c; ++ci, f += W) {
      const V f0 = A::load(f), f1 = A::load(f + in_c * W), f2 = A::load(f + 2 * in_c * W);
#pragma GCC unroll 32
      for (int q = 0; q < RW + 2; ++q) {
        const float* bq = base[q / 3] + ci;
        const V b = A::bcast(q % 3 == 0 ? bq[0] : q % 3 == 1 ? bq[c1] : bq[c2]);
        if (q < RW) acc[q] = A::fma(b, f0, acc[q]);
        if (q >= 1 && q - 1 < RW) acc[q - 1] = A::fma(b, f1, acc[q - 1]);
        if (q >= 2) acc[q - 2] = A::fma(b, f2, acc[q - 2]);
      }
    }
  }
  const V b = bias ? A::load(bias) : A::zero();
#pragma GCC unroll 32
  for (int r = 0; r < RW; ++r) {
    V v = acc[r] + b;
    if (relu) v = A::max(A::zero(), v);
    if (r < live) A::store(dst[r], v);
  }
}

// run_pixels for row_tiles() geometries: per output row segment, the k_h input rows it reads are
// copied zero-padded into the row cache (consecutive output rows share k_h - 1 of them), then tiles
// of RW pixels along the row run row_tile over the rows inside the image.
template <class A, int RW>
void run_rows(const DirectConv& c, int64_t p0, int64_t p1, float* cache) {
  const Conv2DGeometry& g = *c.g;
  constexpr int W = A::kW;
  const int64_t in_c = g.in_c, in_w = g.in_w, ldr = g.out_w + RW + 2, slots = row_slots(g);
  const int64_t slot_floats = in_c * ldr, per_image = g.out_h * g.out_w;
  const int64_t left = min64(g.pad_left, ldr), right0 = left + in_w;
  int64_t tag[16];  // the (image, row) each slot holds, as n * in_h + iy; -1 empty
  for (int64_t s = 0; s < slots; ++s) tag[s] = -1;
  const float* rows[16];
  const float* frows[16];
  float* dst[RW];
  alignas(64) float sink[W];
  for (int64_t p = p0; p < p1;) {
    const int64_t n = p / per_image, oy = p % per_image / g.out_w, ox_start = p % g.out_w;
    const int64_t seg = min64(g.out_w - ox_start, p1 - p);
    int nrows = 0;
    for (int64_t ky = 0; ky < g.k_h; ++ky) {
      const int64_t iy = oy * g.stride_h - g.pad_top + ky * g.dil_h;
      if (iy < 0 || iy >= g.in_h) continue;
      const int64_t key = n * g.in_h + iy, s = iy % slots;
      float* t = cache + s * slot_floats;
      if (tag[s] != key) {  // columns j hold input column j - pad_left
        const float* src = c.in + key * in_w * in_c;
        std::memset(t, 0, sizeof(float) * size_t(left * in_c));
        std::memcpy(t + left * in_c, src, sizeof(float) * size_t(min64(in_w, ldr - left) * in_c));
        if (right0 < ldr) std::memset(t + right0 * in_c, 0, sizeof(float) * size_t((ldr - right0) * in_c));
        tag[s] = key;
      }
      rows[nrows] = t;
      frows[nrows++] = c.packed + ky * 3 * in_c * W;
    }
    for (int64_t ox0 = ox_start; ox0 < ox_start + seg; ox0 += RW) {
      const int live = int(min64(RW, ox_start + seg - ox0));
      for (int r = 0; r < RW; ++r) dst[r] = r < live ? c.out + ((n * g.out_h + oy) * g.out_w + ox0 + r) * g.out_c : sink;
      const float* shifted[16];
      for (int k = 0; k < nrows; ++k) shifted[k] = rows[k] + ox0 * in_c;
      if (g.out_c == W) {
        row_tile<A, RW>(shifted, frows, nrows, in_c, dst, live, c.bias, c.relu);
      } else {  // the channels past out_c go to a row of their own
        alignas(64) float part[RW][W];
        float* pd[RW];
        for (int r = 0; r < RW; ++r) pd[r] = part[r];
        row_tile<A, RW>(shifted, frows, nrows, in_c, pd, RW, c.bias, c.relu);
        for (int r = 0; r < live; ++r)
          for (int64_t o = 0; o < g.out_c; ++o) dst[r][o] = part[r][o];
      }
    }
    p += seg;
  }
}

// Output pixels [p0, p1) (all images, row-major), block of output channels by block: each tile
// gathers its pixels' input rows per tap (taps that miss every pixel are skipped, so borders cost
// no FMAs past the image), then runs over all taps and input channels with the sums in registers.
// scratch: direct_conv_scratch(k_h*k_w, RW, p1 - p0) bytes.
template <class A, int RW, int NVB>
void run_pixels(const DirectConv& c, int64_t p0, int64_t p1, void* scratch) {
  const Conv2DGeometry& g = *c.g;
  constexpr int W = A::kW;
  const int64_t ntap_all = g.k_h * g.k_w, np_all = p1 - p0;
  const int64_t in_h = g.in_h, in_w = g.in_w, in_c = g.in_c, k_w = g.k_w, dil_h = g.dil_h, dil_w = g.dil_w;
  const float** src = static_cast<const float**>(scratch);
  const float** img = src + ntap_all * RW;
  int64_t* off = reinterpret_cast<int64_t*>(img + np_all);
  int32_t* iy0 = reinterpret_cast<int32_t*>(off + ntap_all);
  int32_t* ix0 = iy0 + np_all;
  int* taps = ix0 + np_all;
  if constexpr (NVB == 1) {
    if (row_tiles(g, c.nvec, NVB)) {
      float* cache = reinterpret_cast<float*>(
          (reinterpret_cast<uintptr_t>(scratch) + uintptr_t(direct_conv_scratch(ntap_all, RW, np_all)) + 63) &
          ~uintptr_t(63));
      return run_rows<A, RW>(c, p0, p1, cache);
    }
  }
  pixel_origins(g, c.in, p0, p1, img, iy0, ix0);
  for (int64_t t = 0; t < ntap_all; ++t) off[t] = (t / k_w * dil_h * in_w + t % k_w * dil_w) * in_c;
  alignas(64) float sink[NVB * W];  // where the tile's pixels past p1 go
  int64_t origin[RW];                // each pixel's window origin in its image (may lie outside)
  for (int64_t b0 = 0; b0 < c.nvec; b0 += NVB) {
    const int nv = int(min64(NVB, c.nvec - b0));
    const float* f = c.packed + b0 * W * ntap_all * in_c;
    const int64_t co0 = b0 * W;
    const int valid = int(min64(nv * W, g.out_c - co0));
    for (int64_t i0 = 0; i0 < np_all; i0 += RW) {
      float* dst[RW];
      const int live = int(min64(RW, np_all - i0));
      for (int r = 0; r < RW; ++r) dst[r] = r < live ? c.out + (p0 + i0 + r) * g.out_c + co0 : sink;
      // The tile's window origins' bounding box: a tap that keeps the whole box inside the image
      // takes every pixel at a fixed offset, one that leaves it entirely is skipped, and only the
      // taps in between check pixel by pixel.
      int64_t y_lo = iy0[i0], y_hi = y_lo, x_lo = ix0[i0], x_hi = x_lo;
      const float* base[RW];
      for (int r = 0; r < RW; ++r) {
        const int64_t i = i0 + (r < live ? r : 0);
        const int64_t iy = iy0[i], ix = ix0[i];
        y_lo = iy < y_lo ? iy : y_lo, y_hi = iy > y_hi ? iy : y_hi;
        x_lo = ix < x_lo ? ix : x_lo, x_hi = ix > x_hi ? ix : x_hi;
        base[r] = img[i];
        origin[r] = (iy * in_w + ix) * in_c;
      }
      int64_t ntaps = 0;
      for (int64_t t = 0; t < ntap_all; ++t) {
        const int64_t dy = t / k_w * dil_h, dx = t % k_w * dil_w;
        if (y_hi + dy < 0 || y_lo + dy >= in_h || x_hi + dx < 0 || x_lo + dx >= in_w) continue;
        const float** s = src + ntaps * RW;
        if (y_lo + dy >= 0 && y_hi + dy < in_h && x_lo + dx >= 0 && x_hi + dx < in_w) {
          for (int r = 0; r < RW; ++r) s[r] = base[r] + (origin[r] + off[t]);
          taps[ntaps++] = int(t);
          continue;
        }
        bool any = false;
        for (int r = 0; r < RW; ++r) {
          s[r] = c.zeros;
          if (r >= live) continue;
          const int64_t iy = iy0[i0 + r] + dy, ix = ix0[i0 + r] + dx;
          if (iy < 0 || iy >= in_h || ix < 0 || ix >= in_w) continue;
          s[r] = base[r] + (iy * in_w + ix) * in_c;
          any = true;
        }
        if (any) taps[ntaps++] = int(t);
      }
      tile_nv<A, RW, NVB>(nv, src, taps, ntaps, in_c, f, dst, valid, c.bias ? c.bias + co0 : nullptr, c.relu);
    }
  }
}

// acc[RC rows][NV vectors] += sum over the listed pixels of input value x out_backprop row: per pixel
// RC broadcasts and NV loads feed RC*NV FMAs. src[i] is pixel i's input, rows[i] its row in d
// (out_backprop padded to ldd columns). Row r of the filter gradient reads src[i][r] (kGather false:
// one tap's contiguous input channels, src offset to the first) or src[i][roff[r]] (kGather true:
// rows across taps, for layers with fewer input channels than RC whose windows lie inside the image).
template <class A, int RC, int NV, bool kGather>
inline void ftile(const float* const* src, const int64_t* roff, const int32_t* rows, int64_t np, const float* d,
                  int64_t ldd, float* acc) {
  using V = typename A::V;
  constexpr int W = A::kW;
  int64_t ro[kGather ? RC : 1];
  if constexpr (kGather) {
#pragma GCC unroll 32
    for (int r = 0; r < RC; ++r) ro[r] = roff[r];
  }
  V s[RC][NV];
#pragma GCC unroll 32
  for (int r = 0; r < RC; ++r)
#pragma GCC unroll 4
    for (int n = 0; n < NV; ++n) s[r][n] = A::zero();
  for (int64_t i = 0; i < np; ++i) {
    const float* x = src[i];
    const float* dr = d + rows[i] * ldd;
    V dv[NV];
#pragma GCC unroll 4
    for (int n = 0; n < NV; ++n) dv[n] = A::load(dr + n * W);
#pragma GCC unroll 32
    for (int r = 0; r < RC; ++r) {
      const V b = A::bcast(kGather ? x[ro[r]] : x[r]);  // contiguous: offsets in the instruction
#pragma GCC unroll 4
      for (int n = 0; n < NV; ++n) s[r][n] = A::fma(b, dv[n], s[r][n]);
    }
  }
#pragma GCC unroll 32
  for (int r = 0; r < RC; ++r)
#pragma GCC unroll 4
    for (int n = 0; n < NV; ++n) A::store(acc + r * ldd + n * W, A::load(acc + r * ldd + n * W) + s[r][n]);
}

// The tile for rc (1..RC) rows and nv (1..NV) vectors.
template <class A, int RC, int NV, bool kGather = false>
inline void ftile_rc(int rc, int nv, const float* const* src, const int32_t* rows, int64_t np, const float* d,
                     int64_t ldd, float* acc, const int64_t* roff = nullptr) {
  if constexpr (RC > 1) {
    if (rc < RC) return ftile_rc<A, RC - 1, NV, kGather>(rc, nv, src, rows, np, d, ldd, acc, roff);
  }
  if constexpr (NV > 1) {
    if (nv < NV) return ftile_rc<A, RC, NV - 1, kGather>(rc, nv, src, rows, np, d, ldd, acc, roff);
  }
  ftile<A, RC, NV, kGather>(src, roff, rows, np, d, ldd, acc);
}

// The filter gradient of layers with one vector of output channels and whole vectors of input
// channels, with vectors over input channels instead: acc[t][o] (W input channels ci0.. of tap
// taps[t], output channel co0 + o) += input vector x out_backprop value over the listed pixels. One
// broadcast out_backprop value feeds T FMAs (one per tap), where the usual tile feeds one, so the
// loop is bound by FMAs rather than loads. Added into acc ([tap][in_c][ldd]) transposed.
template <class A, int T, int CO>
inline void ftile_taps(const float* const* base, const int64_t* toff, const int* taps, int64_t ci0, int64_t co0,
                       int co_n, const int32_t* rows, int64_t np, const float* d, int64_t ldd, int64_t in_c,
                       float* acc) {
  using V = typename A::V;
  constexpr int W = A::kW;
  V s[T][CO];
#pragma GCC unroll 4
  for (int t = 0; t < T; ++t)
#pragma GCC unroll 16
    for (int o = 0; o < CO; ++o) s[t][o] = A::zero();
  int64_t off[T];
#pragma GCC unroll 4
  for (int t = 0; t < T; ++t) off[t] = toff[taps[t]] + ci0;
  for (int64_t i = 0; i < np; ++i) {
    const float* x = base[i];
    const float* dr = d + rows[i] * ldd + co0;
    V xv[T];
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) xv[t] = A::load(x + off[t]);
#pragma GCC unroll 16
    for (int o = 0; o < CO; ++o) {
      const V b = A::bcast(dr[o]);
#pragma GCC unroll 4
      for (int t = 0; t < T; ++t) s[t][o] = A::fma(xv[t], b, s[t][o]);
    }
  }
  alignas(64) float tmp[W];
#pragma GCC unroll 4
  for (int t = 0; t < T; ++t) {
    float* a = acc + (int64_t(taps[t]) * in_c + ci0) * ldd + co0;
    for (int o = 0; o < co_n; ++o) {
      A::store(tmp, s[t][o]);
      for (int j = 0; j < W; ++j) a[j * ldd + o] += tmp[j];
    }
  }
}

template <class A, int T, int CO>
inline void ftile_taps_t(int nt, const float* const* base, const int64_t* toff, const int* taps, int64_t ci0,
                         int64_t co0, int co_n, const int32_t* rows, int64_t np, const float* d, int64_t ldd,
                         int64_t in_c, float* acc) {
  if constexpr (T > 1) {
    if (nt < T) return ftile_taps_t<A, T - 1, CO>(nt, base, toff, taps, ci0, co0, co_n, rows, np, d, ldd, in_c, acc);
  }
  ftile_taps<A, T, CO>(base, toff, taps, ci0, co0, co_n, rows, np, d, ldd, in_c, acc);
}

// Output pixels [p0, p1)'s share of the filter gradient, added to acc [tap][in_c][nvec * W]. Their
// out_backprop rows are read in place, or copied zero-padded to whole vectors when out_c is not a
// multiple of W. Pixels whose window lies inside the image take every tap: the rows of the
// gradient (tap, input channel) run in tiles over those pixels with no per-tap lists. For the
// others, per tap, the pixels whose input is inside the image are listed, then every (input
// channels x output channels) tile runs over that list with its sums in registers.
template <class A, int RC, int NVB>
void run_filter_grad(const DirectFilterGrad& c, int64_t p0, int64_t p1, void* scratch, float* acc) {
  const Conv2DGeometry& g = *c.g;
  constexpr int W = A::kW;
  const int64_t np_all = p1 - p0, ldd = c.nvec * W;
  const int64_t in_h = g.in_h, in_w = g.in_w, in_c = g.in_c, k_w = g.k_w, dil_h = g.dil_h, dil_w = g.dil_w;
  const int64_t span_h = (g.k_h - 1) * dil_h, span_w = (k_w - 1) * dil_w, ntap_all = g.k_h * k_w;
  const float** src = static_cast<const float**>(scratch);
  const float** img = src + np_all;
  const float** base = img + np_all;
  int32_t* rows = reinterpret_cast<int32_t*>(base + np_all);
  int32_t* iy0 = rows + np_all;
  int32_t* ix0 = iy0 + np_all;
  int32_t* inside = ix0 + np_all;
  int32_t* border = inside + np_all;
  const float* d = c.dout + p0 * g.out_c;
  if (ldd != g.out_c) {
    float* padded = reinterpret_cast<float*>(reinterpret_cast<uintptr_t>(border + np_all + 15) & ~uintptr_t(63));
    for (int64_t i = 0; i < np_all; ++i) {
      std::memcpy(padded + i * ldd, c.dout + (p0 + i) * g.out_c, sizeof(float) * size_t(g.out_c));
      std::memset(padded + i * ldd + g.out_c, 0, sizeof(float) * size_t(ldd - g.out_c));
    }
    d = padded;
  }
  pixel_origins(g, c.in, p0, p1, img, iy0, ix0);
  int64_t n_in = 0, n_border = 0;
  for (int64_t i = 0; i < np_all; ++i) {
    const int64_t iy = iy0[i], ix = ix0[i];
    if (iy >= 0 && iy + span_h < in_h && ix >= 0 && ix + span_w < in_w) {
      base[n_in] = img[i] + (iy * in_w + ix) * in_c;
      inside[n_in++] = int32_t(i);
    } else {
      border[n_border++] = int32_t(i);
    }
  }
  constexpr int kCo = W == 16 ? 8 : 4;  // T x kCo sums, T input vectors and a broadcast in registers
  if (n_in > 0 && c.nvec == 1 && NVB == 1 && in_c % W == 0) {
    int64_t toff[64];
    int tap_ids[64];
    for (int64_t t0 = 0; t0 < ntap_all; t0 += 64) {
      const int64_t nt_all = min64(64, ntap_all - t0);
      for (int64_t t = 0; t < nt_all; ++t) {
        const int64_t tt = t0 + t;
        toff[t] = (tt / k_w * dil_h * in_w + tt % k_w * dil_w) * in_c;
        tap_ids[t] = int(t);
      }
      float* acc_t0 = acc + t0 * in_c * ldd;
      for (int64_t ci0 = 0; ci0 < in_c; ci0 += W)
        for (int64_t t = 0; t < nt_all; t += 3)
          for (int64_t co0 = 0; co0 < g.out_c; co0 += kCo)
            ftile_taps_t<A, 3, kCo>(int(min64(3, nt_all - t)), base, toff, tap_ids + t, ci0, co0,
                                    int(min64(kCo, g.out_c - co0)), inside, n_in, d, ldd, in_c, acc_t0);
    }
    n_in = 0;
  }
  if (n_in > 0) {
    // Rows as one tap's contiguous channels when a tap has enough of them to fill a tile; else
    // tiles gather rows across taps.
    const bool per_tap = 2 * in_c >= RC;
    const int64_t nrows = ntap_all * in_c;
    int64_t roff[RC];
    for (int64_t k0 = 0; k0 < nrows;) {
      const int64_t t0 = k0 / in_c, ci0 = k0 % in_c;
      const int rc = int(per_tap ? min64(RC, in_c - ci0) : min64(RC, nrows - k0));
      if (per_tap) {
        const int64_t o = (t0 / k_w * dil_h * in_w + t0 % k_w * dil_w) * in_c + ci0;
        for (int64_t i = 0; i < n_in; ++i) src[i] = base[i] + o;
      } else {
        for (int r = 0; r < rc; ++r) {
          const int64_t t = (k0 + r) / in_c;
          roff[r] = (t / k_w * dil_h * in_w + t % k_w * dil_w) * in_c + (k0 + r) % in_c;
        }
      }
      for (int64_t b0 = 0; b0 < c.nvec; b0 += NVB) {
        const int nv = int(min64(NVB, c.nvec - b0));
        float* a = acc + k0 * ldd + b0 * W;
        if (per_tap)
          ftile_rc<A, RC, NVB>(rc, nv, src, inside, n_in, d + b0 * W, ldd, a);
        else
          ftile_rc<A, RC, NVB, true>(rc, nv, base, inside, n_in, d + b0 * W, ldd, a, roff);
      }
      k0 += rc;
    }
  }
  if (n_border == 0) return;
  for (int64_t t = 0; t < ntap_all; ++t) {
    const int64_t dy = t / k_w * dil_h, dx = t % k_w * dil_w;
    int64_t np = 0;
    for (int64_t j = 0; j < n_border; ++j) {
      const int64_t i = border[j], iy = iy0[i] + dy, ix = ix0[i] + dx;
      if (iy < 0 || iy >= in_h || ix < 0 || ix >= in_w) continue;
      src[np] = img[i] + (iy * in_w + ix) * in_c;
      rows[np++] = int32_t(i);
    }
    if (np == 0) continue;
    float* acc_tap = acc + t * in_c * ldd;
    for (int64_t ci = 0; ci < in_c; ci += RC) {
      const int rc = int(min64(RC, in_c - ci));
      if (ci > 0)
        for (int64_t i = 0; i < np; ++i) src[i] += RC;
      for (int64_t b0 = 0; b0 < c.nvec; b0 += NVB)
        ftile_rc<A, RC, NVB>(rc, int(min64(NVB, c.nvec - b0)), src, rows, np, d + b0 * W, ldd,
                             acc_tap + ci * ldd + b0 * W);
    }
  }
}

// Input rows [r0, r1) (row r: image r / in_h, row r % in_h) of a strided convolution's input
// gradient, gathered: input pixel (iy, ix) takes out_backprop pixel (oy, ox) through tap (ky, kx)
// when iy = oy*stride_h - pad_top + ky*dil_h (likewise x). The pixels of one row and one column
// phase (ix mod stride_w) are reached by the same taps, so tiles of them run the forward kernel
// over just those taps (c.in is out_backprop, c.out the input gradient, c.packed the filter as
// [tap][out_c][in_c] blocks). scratch: direct_conv_scratch(k_h*k_w, RW, 0) bytes.
template <class A, int RW, int NVB>
void run_input_grad(const DirectConv& c, int64_t r0, int64_t r1, void* scratch) {
  const Conv2DGeometry& g = *c.g;
  constexpr int W = A::kW;
  const int64_t ntap_all = g.k_h * g.k_w;
  const float** src = static_cast<const float**>(scratch);
  int* taps = reinterpret_cast<int*>(src + ntap_all * RW);
  alignas(64) float sink[NVB * W];
  for (int64_t row = r0; row < r1; ++row) {
    const int64_t n = row / g.in_h, iy = row % g.in_h;
    const float* image = c.in + n * g.out_h * g.out_w * g.out_c;
    float* drow = c.out + row * g.in_w * g.in_c;
    for (int64_t b0 = 0; b0 < c.nvec; b0 += NVB) {
      const int nv = int(min64(NVB, c.nvec - b0));
      const float* f = c.packed + b0 * W * ntap_all * g.out_c;
      const int64_t co0 = b0 * W;
      const int valid = int(min64(nv * W, g.in_c - co0));
      for (int64_t px = 0; px < g.stride_w && px < g.in_w; ++px) {
        for (int64_t ix0 = px; ix0 < g.in_w; ix0 += RW * g.stride_w) {
          float* dst[RW];
          int64_t ix[RW];
          for (int r = 0; r < RW; ++r) {
            ix[r] = ix0 + r * g.stride_w;
            dst[r] = ix[r] < g.in_w ? drow + ix[r] * g.in_c + co0 : sink;
          }
          int64_t ntaps = 0;
          for (int64_t ky = 0; ky < g.k_h; ++ky) {
            const int64_t ty = iy + g.pad_top - ky * g.dil_h;
            if (ty < 0 || ty % g.stride_h != 0 || ty / g.stride_h >= g.out_h) continue;
            const float* orow = image + ty / g.stride_h * g.out_w * g.out_c;
            for (int64_t kx = 0; kx < g.k_w; ++kx) {
              bool any = false;
              const float** s = src + ntaps * RW;
              for (int r = 0; r < RW; ++r) {
                const int64_t tx = ix[r] + g.pad_left - kx * g.dil_w;
                const bool in = ix[r] < g.in_w && tx >= 0 && tx % g.stride_w == 0 && tx / g.stride_w < g.out_w;
                s[r] = in ? orow + tx / g.stride_w * g.out_c : c.zeros;
                any |= in;
              }
              if (any) taps[ntaps++] = int(ky * g.k_w + kx);
            }
          }
          tile_nv<A, RW, NVB>(nv, src, taps, ntaps, g.out_c, f, dst, valid);
        }
      }
    }
  }
}

// RW output pixels a forward tile, RC input channels a filter-gradient tile.
template <class A, int RW, int NVB, int RC = RW>
constexpr DirectTile make_tile() {
  return {NVB, RW, &run_pixels<A, RW, NVB>, &run_filter_grad<A, RC, NVB>, &run_input_grad<A, RW, NVB>};
}

}  // namespace
}  // namespace ef
