// The direct convolution's AVX2 + FMA micro-kernels: 6 pixels x 2 vectors of 8 channels in 12 of
// the 16 ymm registers.
#include "kernels/cpu/conv_direct_impl.h"

#if defined(__x86_64__) && defined(__GNUC__)
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
  static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
};

void filter_grad(const DirectFilterGrad& c, int64_t p0, int64_t p1, void* scratch, float* acc) {
  run_filter_grad<Avx2, 6, 2>(c, p0, p1, scratch, acc);
}

void run(const DirectConv& c, int64_t p0, int64_t p1, void* scratch) { run_pixels<Avx2, 6, 2>(c, p0, p1, scratch); }

}  // namespace
}  // namespace ef
#pragma GCC pop_options

namespace ef {
const DirectIsa& direct_isa_avx2() {
  static const DirectIsa isa{"avx2", 8, 2, 6, &run, &filter_grad};
  return isa;
}
}  // namespace ef

#else
namespace ef {
const DirectIsa& direct_isa_avx2() {
  static const DirectIsa isa{"avx2", 8, 2, 6, nullptr, nullptr};
  return isa;
}
}  // namespace ef
#endif
