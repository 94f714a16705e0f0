// TF's random distributions over Philox blocks (bit conversions, Box-Muller, truncation by
// rejection) and fill_philox, which fills an output so that each group of values depends only on
// its position: the result is the same however the work is split across threads.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/half.h"
#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/philox.h"

namespace ef {
namespace random {

// [0, 1) from the low mantissa bits: 1.m - 1 with m taken from x (exact, TF's Uint32ToFloat).
inline float uint32_to_float(uint32_t x) {
  const uint32_t bits = (127u << 23) | (x & 0x7fffffu);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f - 1.0f;
}
inline double uint64_to_double(uint32_t x0, uint32_t x1) {
  const uint64_t bits = (uint64_t{1023} << 52) | (static_cast<uint64_t>(x0 & 0xfffffu) << 32) | x1;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d - 1.0;
}
// Ten mantissa bits: the exact value m / 1024.
inline half uint32_to_half(uint32_t x) { return half(static_cast<float>(x & 0x3ffu) * (1.0f / 1024.0f)); }

// The uniform in (0, 1] is clamped at 1e-7 so that the log is finite (TF's BoxMullerFloat).
inline void box_muller_float(uint32_t x0, uint32_t x1, float* f0, float* f1) {
  float u1 = uint32_to_float(x0);
  if (u1 < 1.0e-7f) u1 = 1.0e-7f;
  // The angle is computed in double and rounded once, as TF's 2.0f * M_PI * u is.
  const float v1 = static_cast<float>(2.0f * M_PI * uint32_to_float(x1));
  const float u2 = std::sqrt(-2.0f * std::log(u1));
  sincosf(v1, f0, f1);
  *f0 *= u2;
  *f1 *= u2;
}
inline void box_muller_double(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3, double* d0, double* d1) {
  double u1 = uint64_to_double(x0, x1);
  if (u1 < 1.0e-7) u1 = 1.0e-7;
  const double v1 = 2 * M_PI * uint64_to_double(x2, x3);
  const double u2 = std::sqrt(-2.0 * std::log(u1));
  sincos(v1, d0, d1);
  *d0 *= u2;
  *d1 *= u2;
}

// Each distribution turns one 128-bit block (or, when kVariableSamples, as many 32-bit words as
// it needs from a SingleSampleAdapter) into kCount values.
template <typename T>
struct Uniform {
  static constexpr int kCount = std::is_same_v<T, double> ? 2 : 4;
  static constexpr bool kVariableSamples = false;
  std::array<T, kCount> operator()(const PhiloxRandom::ResultType& s) const {
    std::array<T, kCount> r;
    if constexpr (std::is_same_v<T, double>) {
      for (int i = 0; i < 2; ++i) r[i] = uint64_to_double(s[2 * i], s[2 * i + 1]);
    } else if constexpr (std::is_same_v<T, half>) {
      for (int i = 0; i < 4; ++i) r[i] = uint32_to_half(s[i]);
    } else {
      for (int i = 0; i < 4; ++i) r[i] = uint32_to_float(s[i]);
    }
    return r;
  }
};

// Integers in [lo, lo + range): bits % range, 32 bits per int32 and 64 per int64.
template <typename T>
struct UniformInt {
  using U = std::make_unsigned_t<T>;
  static constexpr int kCount = sizeof(T) == 8 ? 2 : 4;
  static constexpr bool kVariableSamples = false;
  T lo;
  U range;
  UniformInt(T lo_, T hi_) : lo(lo_), range(static_cast<U>(static_cast<U>(hi_) - static_cast<U>(lo_))) {}
  std::array<T, kCount> operator()(const PhiloxRandom::ResultType& s) const {
    std::array<T, kCount> r;
    for (int i = 0; i < kCount; ++i) {
      U bits = sizeof(T) == 8 ? static_cast<U>(s[2 * i] | (static_cast<uint64_t>(s[2 * i + 1]) << 32)) : static_cast<U>(s[i]);
      r[i] = static_cast<T>(static_cast<U>(static_cast<U>(lo) + bits % range));
    }
    return r;
  }
};

template <typename T>
struct UniformFullInt {
  static constexpr int kCount = sizeof(T) == 8 ? 2 : 4;
  static constexpr bool kVariableSamples = false;
  std::array<T, kCount> operator()(const PhiloxRandom::ResultType& s) const {
    std::array<T, kCount> r;
    for (int i = 0; i < kCount; ++i)
      r[i] = sizeof(T) == 8 ? static_cast<T>(s[2 * i] | (static_cast<uint64_t>(s[2 * i + 1]) << 32)) : static_cast<T>(s[i]);
    return r;
  }
};

template <typename T>
struct Normal {
  static constexpr int kCount = std::is_same_v<T, double> ? 2 : 4;
  static constexpr bool kVariableSamples = false;
  std::array<T, kCount> operator()(const PhiloxRandom::ResultType& s) const {
    std::array<T, kCount> r;
    if constexpr (std::is_same_v<T, double>) {
      box_muller_double(s[0], s[1], s[2], s[3], &r[0], &r[1]);
    } else {
      for (int i = 0; i < 4; i += 2) {
        float f[2];
        box_muller_float(s[i], s[i + 1], &f[0], &f[1]);
        r[i] = static_cast<T>(f[0]);
        r[i + 1] = static_cast<T>(f[1]);
      }
    }
    return r;
  }
};

// Standard normals redrawn until |x| < 2.
template <typename T>
struct TruncatedNormal {
  static constexpr int kCount = std::is_same_v<T, double> ? 2 : 4;
  static constexpr bool kVariableSamples = true;
  std::array<T, kCount> operator()(SingleSampleAdapter* gen) const {
    std::array<T, kCount> r;
    int index = 0;
    while (true) {
      if constexpr (std::is_same_v<T, double>) {
        const uint32_t x0 = (*gen)(), x1 = (*gen)(), x2 = (*gen)(), x3 = (*gen)();
        double d[2];
        box_muller_double(x0, x1, x2, x3, &d[0], &d[1]);
        for (int i = 0; i < 2; ++i) {
          if (std::abs(d[i]) < 2.0) {
            r[index++] = d[i];
            if (index >= kCount) return r;
          }
        }
      } else {
        const uint32_t x0 = (*gen)(), x1 = (*gen)();
        float f[2];
        box_muller_float(x0, x1, &f[0], &f[1]);
        for (int i = 0; i < 2; ++i) {
          if (std::abs(f[i]) < 2.0f) {
            r[index++] = static_cast<T>(f[i]);
            if (index >= kCount) return r;
          }
        }
      }
    }
  }
};

// Counter blocks a variable-sample distribution may use per output value (TF's reservation).
constexpr int64_t kReservedSamplesPerOutput = 256;

// Fills out[0, n) from `base`. Fixed-sample distributions use block g for group g; a variable-
// sample group starts kCount * 256 / 4 blocks after the previous one.
template <typename Dist, typename T>
void fill_philox(const PhiloxRandom& base, T* out, int64_t n, const Dist& dist) {
  constexpr int K = Dist::kCount;
  const int64_t groups = (n + K - 1) / K;
  for_range(groups, [&](int64_t g0, int64_t g1) {
    PhiloxRandom gen = base;
    if constexpr (Dist::kVariableSamples) {
      for (int64_t g = g0; g < g1; ++g) {
        gen = base;
        gen.skip(static_cast<uint64_t>(g) * (K * kReservedSamplesPerOutput / PhiloxRandom::kResultElementCount));
        SingleSampleAdapter single(&gen);
        const auto v = dist(&single);
        std::copy(v.begin(), v.begin() + std::min<int64_t>(K, n - g * K), out + g * K);
      }
    } else {
      gen.skip(static_cast<uint64_t>(g0));
      constexpr int64_t kChunk = 64;
      PhiloxRandom::ResultType blocks[kChunk];
      for (int64_t g = g0; g < g1; g += kChunk) {
        const int64_t c = std::min(kChunk, g1 - g);
        gen.fill(blocks, c);
        for (int64_t i = 0; i < c; ++i) {
          const auto v = dist(blocks[i]);
          std::copy(v.begin(), v.begin() + std::min<int64_t>(K, n - (g + i) * K), out + (g + i) * K);
        }
      }
    }
  }, 1024);
}

}  // namespace random
}  // namespace ef
