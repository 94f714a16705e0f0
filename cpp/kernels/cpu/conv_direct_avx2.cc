// The direct convolution's AVX2 + FMA micro-kernels: 12 of the 16 ymm registers hold the sums of
// 6 pixels x 2 vectors of 8 channels (12 x 1 for narrow layers).
#include "kernels/cpu/conv_direct_impl.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)  // clang has no `#pragma GCC target`
#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx2,fma")
#include "kernels/cpu/conv_direct_tile.h"

namespace ef {
namespace {

struct Avx2 {
  using V = __m256;
  static constexpr int kW = 8;
  static V zero() { return _mm256_setzero_ps(); }
  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static V bcast(float x) { return _mm256_set1_ps(x); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V max(V a, V b) { return _mm256_max_ps(a, b); }
  static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
};

// Built here, at compile time (constexpr): no code of this ISA runs before the CPU is checked.
constexpr DirectTile kTiles[3] = {make_tile<Avx2, 6, 2>(), make_tile<Avx2, 6, 2>(), make_tile<Avx2, 12, 1>()};

}  // namespace
}  // namespace ef
#pragma GCC pop_options

namespace ef {
const DirectIsa& direct_isa_avx2() {
  static const DirectIsa isa{"avx2", 8, true, {kTiles[0], kTiles[1], kTiles[2]}};
  return isa;
}
}  // namespace ef

#else
namespace ef {
const DirectIsa& direct_isa_avx2() {
  static const DirectIsa isa{"avx2", 8, false, {}};
  return isa;
}
}  // namespace ef
#endif
