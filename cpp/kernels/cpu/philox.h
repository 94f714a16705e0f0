// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"): a counter-based
// generator, so any block of output can be computed independently and in parallel.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>

namespace ef {

class Philox4x32 {
 public:
  using Block = std::array<uint32_t, 4>;

  // key = seed, counter = (block offset, seed2): each (seed, seed2) pair is its own stream.
  Philox4x32(uint64_t seed, uint64_t seed2)
      : key0_(static_cast<uint32_t>(seed)), key1_(static_cast<uint32_t>(seed >> 32)),
        c2_(static_cast<uint32_t>(seed2)), c3_(static_cast<uint32_t>(seed2 >> 32)) {}

  // The 128 random bits of block number `index` of this stream.
  Block block(uint64_t index) const {
    Block c{static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32), c2_, c3_};
    uint32_t k0 = key0_, k1 = key1_;
    for (int r = 0; r < 10; ++r) {
      if (r > 0) {
        k0 += kW0;
        k1 += kW1;
      }
      uint64_t p0 = static_cast<uint64_t>(kM0) * c[0];
      uint64_t p1 = static_cast<uint64_t>(kM1) * c[2];
      c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k0, static_cast<uint32_t>(p1),
           static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k1, static_cast<uint32_t>(p0)};
    }
    return c;
  }

 private:
  static constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  static constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  uint32_t key0_, key1_, c2_, c3_;
};

// Uniform floats in [0, 1) built from the top mantissa bits (so every value is exact).
inline float uniform_float(uint32_t x) { return static_cast<float>(x >> 8) * (1.0f / 16777216.0f); }
inline double uniform_double(uint32_t hi, uint32_t lo) {
  uint64_t x = (static_cast<uint64_t>(hi) << 32 | lo) >> 11;
  return static_cast<double>(x) * (1.0 / 9007199254740992.0);
}

// Box-Muller: two uniforms -> two independent standard normals. u1 is moved into (0, 1]
// so the log is finite.
template <typename F>
inline void box_muller(F u1, F u2, F* out0, F* out1) {
  const F kTwoPi = static_cast<F>(6.283185307179586);
  F r = std::sqrt(F(-2) * std::log(F(1) - u1));
  F theta = kTwoPi * u2;
  *out0 = r * std::cos(theta);
  *out1 = r * std::sin(theta);
}

}  // namespace ef
