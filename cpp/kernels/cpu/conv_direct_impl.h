// The direct convolution's per-ISA part: what one thread does for a range of output pixels.
#pragma once
#include <cstdint>

#include "ops/conv_shape.h"

namespace ef {

// One convolution as the micro-kernels see it. The filter is packed per block of output channels
// (nvb vectors of the ISA's width w each): block b holds [k_h*k_w][in_c][its vectors * w], the
// channels past out_c zero, so the inner loop loads whole aligned vectors.
struct DirectConv {
  const Conv2DGeometry* g;
  const float* in;
  const float* packed;  // the packed filter
  float* out;
  const float* zeros;   // in_c zeros: the source of taps that fall in the padding
  int64_t nvec;         // vectors covering out_c
  // The forward's epilogue, applied to the sums in registers: + bias (nvec * w floats, zero past
  // out_c; null: none), then max(0, .) when relu.
  const float* bias = nullptr;
  bool relu = false;
};

// Scratch bytes a forward range of up to `pixels` output pixels needs.
inline int64_t direct_conv_scratch(int64_t taps, int rw, int64_t pixels) {
  return taps * (rw * int64_t(sizeof(float*)) + 4 + 8) + pixels * (int64_t(sizeof(float*)) + 8);
}

// The filter gradient as the micro-kernels see it: dfilter[tap][ci][co] is the sum over output
// pixels of input(pixel at tap)[ci] * out_backprop[pixel][co].
struct DirectFilterGrad {
  const Conv2DGeometry* g;
  const float* in;
  const float* dout;
  int64_t nvec;  // vectors covering out_c
};

// 3-wide filter rows at stride 1 and no horizontal dilation, one vector of output channels: the
// forward runs row tiles over input rows transposed to [channel][column] (conv_direct_tile.h).
// The transposed rows are cached in (k_h - 1) * dil_h + 2 slots by input row: the rows one output
// row reads never share a slot.
inline int64_t row_slots(const Conv2DGeometry& g) { return (g.k_h - 1) * g.dil_h + 2; }
inline bool row_tiles(const Conv2DGeometry& g, int64_t nvec, int nvb) {
  return nvec == 1 && nvb == 1 && g.k_w == 3 && g.stride_w == 1 && g.dil_w == 1 && row_slots(g) <= 16;
}
// Floats of the transposed input rows a row-tiled range keeps.
inline int64_t row_cache_floats(const Conv2DGeometry& g, int rw) { return row_slots(g) * g.in_c * (g.out_w + rw + 2); }

// Scratch bytes the filter gradient needs for a range of up to `pixels` output pixels.
inline int64_t filter_grad_scratch(int64_t pixels, int64_t nvec, int w) {
  return pixels * (int64_t(sizeof(float*)) * 3 + 4 * 5 + int64_t(sizeof(float)) * nvec * w) + 64;
}

// A tile shape: rw output pixels (the filter gradient has its own width) by up to nvb vectors
// of output channels, with its kernels. The filter is packed in blocks of nvb vectors.
struct DirectTile {
  int nvb, rw;
  // Output pixels [p0, p1) of all images; scratch: direct_conv_scratch bytes.
  void (*run)(const DirectConv& c, int64_t p0, int64_t p1, void* scratch);
  // Adds output pixels [p0, p1)'s part of the filter gradient to acc ([tap][in_c][nvec * w]).
  void (*filter_grad)(const DirectFilterGrad& c, int64_t p0, int64_t p1, void* scratch, float* acc);
  // Input rows [r0, r1) of all images of a (strided) input gradient; see run_input_grad.
  void (*input_grad)(const DirectConv& c, int64_t r0, int64_t r1, void* scratch);
};

// An ISA's kernels: vectors of w floats, tiles widest first (nvb 4, 2, 1 on AVX-512), so narrow
// layers (32 output channels: 2 vectors) get tiles that still fill the registers.
struct DirectIsa {
  const char* name;
  int w;
  bool built;  // false where the build has no such kernel (not x86-64 or not GCC-compatible)
  DirectTile tiles[3];
  // The widest tile no wider than nvec vectors.
  const DirectTile& tile_for(int64_t nvec) const {
    for (const DirectTile& t : tiles)
      if (t.nvb <= nvec) return t;
    return tiles[2];
  }
};

const DirectIsa& direct_isa_avx512();
const DirectIsa& direct_isa_avx2();
const DirectIsa& direct_isa_generic();

}  // namespace ef
