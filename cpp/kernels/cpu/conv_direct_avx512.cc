// The direct convolution's AVX-512 micro-kernels: 24 of the 32 zmm registers hold the sums of
// 6 pixels x 4 vectors of 16 channels (12 x 2 for narrow layers). One vector of output channels
// takes 12 pixels, whose input pointers then fit the general registers (24 spilled one load per
// FMA), and 24 input channels a filter-gradient tile.
#include "kernels/cpu/conv_direct_impl.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)  // clang has no `#pragma GCC target`
#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx512f,avx512vl,fma")
#include "kernels/cpu/conv_direct_tile.h"

namespace ef {
namespace {

struct Avx512 {
  using V = __m512;
  static constexpr int kW = 16;
  static V zero() { return _mm512_setzero_ps(); }
  static V load(const float* p) { return _mm512_loadu_ps(p); }
  static V bcast(float x) { return _mm512_set1_ps(x); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V max(V a, V b) { return _mm512_maskz_max_ps(__mmask16(0xFFFF), a, b); }  // GCC 12 warns on _mm512_max_ps
  static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
};

// Built here, at compile time (constexpr): no code of this ISA runs before the CPU is checked.
constexpr DirectTile kTiles[3] = {make_tile<Avx512, 6, 4>(), make_tile<Avx512, 12, 2>(), make_tile<Avx512, 12, 1, 24>()};

}  // namespace
}  // namespace ef
#pragma GCC pop_options

namespace ef {
const DirectIsa& direct_isa_avx512() {
  static const DirectIsa isa{"avx512", 16, true, {kTiles[0], kTiles[1], kTiles[2]}};
  return isa;
}
}  // namespace ef

#else
namespace ef {
const DirectIsa& direct_isa_avx512() {
  static const DirectIsa isa{"avx512", 16, false, {}};
  return isa;
}
}  // namespace ef
#endif
