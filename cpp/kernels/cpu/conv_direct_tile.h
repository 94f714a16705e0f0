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
template <class A, int RW, int NV>
inline void tile(const float* const* src, const int* taps, int64_t ntaps, int64_t in_c, const float* f,
                 float* const* dst, int valid) {
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
                    float* const* dst, int valid) {
  if constexpr (NV > 1) {
    if (nv < NV) return tile_nv<A, RW, NV - 1>(nv, src, taps, ntaps, in_c, f, dst, valid);
  }
  tile<A, RW, NV>(src, taps, ntaps, in_c, f, dst, valid);
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

// Output pixels [p0, p1) (all images, row-major), block of output channels by block: each tile
// gathers its pixels' input rows per tap (taps that miss every pixel are skipped, so borders cost
// no FMAs past the image), then runs over all taps and input channels with the sums in registers.
// scratch: direct_conv_scratch(k_h*k_w, RW, p1 - p0) bytes.
template <class A, int RW, int NVB>
void run_pixels(const DirectConv& c, int64_t p0, int64_t p1, void* scratch) {
  const Conv2DGeometry& g = *c.g;
  constexpr int W = A::kW;
  const int64_t ntap_all = g.k_h * g.k_w, np_all = p1 - p0;
  const float** src = static_cast<const float**>(scratch);
  const float** img = src + ntap_all * RW;
  int32_t* iy0 = reinterpret_cast<int32_t*>(img + np_all);
  int32_t* ix0 = iy0 + np_all;
  int* taps = ix0 + np_all;
  pixel_origins(g, c.in, p0, p1, img, iy0, ix0);
  alignas(64) float sink[NVB * W];  // where the tile's pixels past p1 go
  for (int64_t b0 = 0; b0 < c.nvec; b0 += NVB) {
    const int nv = int(min64(NVB, c.nvec - b0));
    const float* f = c.packed + b0 * W * ntap_all * g.in_c;
    const int64_t co0 = b0 * W;
    const int valid = int(min64(nv * W, g.out_c - co0));
    for (int64_t i0 = 0; i0 < np_all; i0 += RW) {
      float* dst[RW];
      const int live = int(min64(RW, np_all - i0));
      for (int r = 0; r < RW; ++r) dst[r] = r < live ? c.out + (p0 + i0 + r) * g.out_c + co0 : sink;
      int64_t ntaps = 0;
      for (int64_t ky = 0; ky < g.k_h; ++ky)
        for (int64_t kx = 0; kx < g.k_w; ++kx) {
          bool any = false;
          const float** s = src + ntaps * RW;
          for (int r = 0; r < RW; ++r) {
            s[r] = c.zeros;
            if (r >= live) continue;
            const int64_t i = i0 + r, iy = iy0[i] + ky * g.dil_h, ix = ix0[i] + kx * g.dil_w;
            if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) continue;
            s[r] = img[i] + (iy * g.in_w + ix) * g.in_c;
            any = true;
          }
          if (any) taps[ntaps++] = int(ky * g.k_w + kx);
        }
      tile_nv<A, RW, NVB>(nv, src, taps, ntaps, g.in_c, f, dst, valid);
    }
  }
}

// acc[RC input channels][NV vectors] += sum over the listed pixels of input[ci] x out_backprop row:
// per pixel RC broadcasts and NV loads feed RC*NV FMAs. src[i] is pixel i's input at this tap
// (offset to the first channel), rows[i] its row in d (out_backprop padded to ldd columns).
template <class A, int RC, int NV>
inline void ftile(const float* const* src, const int32_t* rows, int64_t np, const float* d, int64_t ldd, float* acc) {
  using V = typename A::V;
  constexpr int W = A::kW;
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
      const V b = A::bcast(x[r]);
#pragma GCC unroll 4
      for (int n = 0; n < NV; ++n) s[r][n] = A::fma(b, dv[n], s[r][n]);
    }
  }
#pragma GCC unroll 32
  for (int r = 0; r < RC; ++r)
#pragma GCC unroll 4
    for (int n = 0; n < NV; ++n) A::store(acc + r * ldd + n * W, A::load(acc + r * ldd + n * W) + s[r][n]);
}

template <class A, int RC, int NV>
inline void ftile_nv(int nv, const float* const* src, const int32_t* rows, int64_t np, const float* d, int64_t ldd,
                     float* acc) {
  if constexpr (NV > 1) {
    if (nv < NV) return ftile_nv<A, RC, NV - 1>(nv, src, rows, np, d, ldd, acc);
  }
  ftile<A, RC, NV>(src, rows, np, d, ldd, acc);
}

template <class A, int RC, int NV>
inline void ftile_rc(int rc, int nv, const float* const* src, const int32_t* rows, int64_t np, const float* d,
                     int64_t ldd, float* acc) {
  if constexpr (RC > 1) {
    if (rc < RC) return ftile_rc<A, RC - 1, NV>(rc, nv, src, rows, np, d, ldd, acc);
  }
  ftile_nv<A, RC, NV>(nv, src, rows, np, d, ldd, acc);
}

// Output pixels [p0, p1)'s share of the filter gradient, added to acc [tap][in_c][nvec * W]: their
// out_backprop rows are copied once, zero-padded to whole vectors; per tap, the pixels whose
// input is inside the image are listed, then every (input channels x output channels) tile
// runs over that list with its sums in registers.
template <class A, int RC, int NVB>
void run_filter_grad(const DirectFilterGrad& c, int64_t p0, int64_t p1, void* scratch, float* acc) {
  const Conv2DGeometry& g = *c.g;
  constexpr int W = A::kW;
  const int64_t np_all = p1 - p0, ldd = c.nvec * W;
  const float** src = static_cast<const float**>(scratch);
  const float** img = src + np_all;
  int32_t* rows = reinterpret_cast<int32_t*>(img + np_all);
  int32_t* iy0 = rows + np_all;
  int32_t* ix0 = iy0 + np_all;
  float* d = reinterpret_cast<float*>(reinterpret_cast<uintptr_t>(ix0 + np_all + 15) & ~uintptr_t(63));
  pixel_origins(g, c.in, p0, p1, img, iy0, ix0);
  for (int64_t i = 0; i < np_all; ++i) {
    std::memcpy(d + i * ldd, c.dout + (p0 + i) * g.out_c, sizeof(float) * size_t(g.out_c));
    std::memset(d + i * ldd + g.out_c, 0, sizeof(float) * size_t(ldd - g.out_c));
  }
  for (int64_t ky = 0; ky < g.k_h; ++ky)
    for (int64_t kx = 0; kx < g.k_w; ++kx) {
      int64_t np = 0;
      for (int64_t i = 0; i < np_all; ++i) {
        const int64_t iy = iy0[i] + ky * g.dil_h, ix = ix0[i] + kx * g.dil_w;
        if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) continue;
        src[np] = img[i] + (iy * g.in_w + ix) * g.in_c;
        rows[np++] = int32_t(i);
      }
      if (np == 0) continue;
      float* acc_tap = acc + (ky * g.k_w + kx) * g.in_c * ldd;
      for (int64_t ci = 0; ci < g.in_c; ci += RC) {
        const int rc = int(min64(RC, g.in_c - ci));
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

template <class A, int RW, int NVB>
constexpr DirectTile make_tile() {
  return {NVB, RW, &run_pixels<A, RW, NVB>, &run_filter_grad<A, RW, NVB>, &run_input_grad<A, RW, NVB>};
}

}  // namespace
}  // namespace ef
