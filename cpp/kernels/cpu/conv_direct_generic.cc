// The direct convolution's portable micro-kernels: GCC vectors of 4 floats (SSE2 on baseline
// x86-64, NEON on Arm), multiply then add; 6 pixels x 2 vectors (12 x 1) in 12 registers.
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
  static V max(V a, V b) { return a > b ? a : b; }  // b when either is NaN, as _mm_max_ps
  static void store(float* p, V v) { std::memcpy(p, &v, sizeof v); }
};

// Built here, at compile time (constexpr): no code of this ISA runs before the CPU is checked.
constexpr DirectTile kTiles[3] = {make_tile<Generic, 6, 2>(), make_tile<Generic, 6, 2>(), make_tile<Generic, 12, 1>()};

}  // namespace

const DirectIsa& direct_isa_generic() {
  static const DirectIsa isa{"generic", 4, true, {kTiles[0], kTiles[1], kTiles[2]}};
  return isa;
}
}  // namespace ef

#else
namespace ef {
const DirectIsa& direct_isa_generic() {
  static const DirectIsa isa{"generic", 4, false, {}};
  return isa;
}
}  // namespace ef
#endif
