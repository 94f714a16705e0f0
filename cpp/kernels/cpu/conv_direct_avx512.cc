// The direct convolution's AVX-512 micro-kernels: 6 pixels x 4 vectors of 16 channels in 24 of the
// 32 zmm registers.
#include "kernels/cpu/conv_direct_impl.h"

#if defined(__x86_64__) && defined(__GNUC__)
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
  static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
};

void filter_grad(const DirectFilterGrad& c, int64_t p0, int64_t p1, void* scratch, float* acc) {
  run_filter_grad<Avx512, 6, 4>(c, p0, p1, scratch, acc);
}

void run(const DirectConv& c, int64_t p0, int64_t p1, void* scratch) { run_pixels<Avx512, 6, 4>(c, p0, p1, scratch); }

}  // namespace
}  // namespace ef
#pragma GCC pop_options

namespace ef {
const DirectIsa& direct_isa_avx512() {
  static const DirectIsa isa{"avx512", 16, 4, 6, &run, &filter_grad};
  return isa;
}
}  // namespace ef

#else
namespace ef {
const DirectIsa& direct_isa_avx512() {
  static const DirectIsa isa{"avx512", 16, 4, 6, nullptr, nullptr};
  return isa;
}
}  // namespace ef
#endif
