// The direct convolution's portable micro-kernels: GCC vectors of 4 floats (SSE2 on baseline
// x86-64, NEON on Arm), multiply then add; 6 pixels x 2 vectors in 12 registers.
#include "kernels/cpu/conv_direct_impl.h"

#if defined(__GNUC__)
#include "kernels/cpu/conv_direct_tile.h"

namespace ef {
namespace {

struct Generic {
  typedef float V __attribute__((vector_size(16)));
  static constexpr int kW = 4;
  static V zero() { return V{0, 0, 0, 0}; }
  static V load(const float* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static V bcast(float x) { return V{x, x, x, x}; }
  static V fma(V a, V b, V c) { return a * b + c; }
  static void store(float* p, V v) { std::memcpy(p, &v, sizeof v); }
};

void filter_grad(const DirectFilterGrad& c, int64_t p0, int64_t p1, void* scratch, float* acc) {
  run_filter_grad<Generic, 6, 2>(c, p0, p1, scratch, acc);
}

void run(const DirectConv& c, int64_t p0, int64_t p1, void* scratch) { run_pixels<Generic, 6, 2>(c, p0, p1, scratch); }

}  // namespace

const DirectIsa& direct_isa_generic() {
  static const DirectIsa isa{"generic", 4, 2, 6, &run, &filter_grad};
  return isa;
}
}  // namespace ef

#else
namespace ef {
const DirectIsa& direct_isa_generic() {
  static const DirectIsa isa{"generic", 4, 2, 6, nullptr, nullptr};
  return isa;
}
}  // namespace ef
#endif
