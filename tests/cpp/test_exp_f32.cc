// kernels/cpu/exp_f32.h: the vectorized float exp and expm1 of the per-ISA copies, against
// double-precision exp and expm1 over a sample of every float in their domain (|x| <= 87, exp_safe),
// and the tail's padded vector against whole vectors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/cpu/exp_f32.h"

namespace ef {
namespace {

std::vector<float> domain_sample() {
  std::vector<float> xs;
  for (uint32_t bits = 0; bits < 0x80000000u; bits += 997) {
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    if (f <= 87.0f) {
      xs.push_back(f);
      xs.push_back(-f);
    }
  }
  xs.push_back(87.0f);
  xs.push_back(-87.0f);
  return xs;
}

TEST(ExpF32, WithinOneAndAHalfUlpOfTheTrueValue) {
  const std::vector<float> xs = domain_sample();
  std::vector<float> out(xs.size());
  exp_f32_block<kVectorBytes>(xs.data(), out.data(), static_cast<int64_t>(xs.size()), [](auto v) { return v; });
  double worst = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double want = std::exp(static_cast<double>(xs[i]));
    const float rounded = static_cast<float>(want);
    const double ulp = std::nextafter(rounded, std::numeric_limits<float>::infinity()) - rounded;
    worst = std::max(worst, std::fabs(out[i] - want) / ulp);
  }
  // Under 1 ulp with FMA; the SSE2 baseline rounds the reduction and each Horner step twice.
  EXPECT_LT(worst, 1.5);
}

// The largest error in ulps of fn's results (out) against want(x) in double.
template <class Want>
double worst_ulps(const std::vector<float>& xs, const std::vector<float>& out, Want want) {
  double worst = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double w = want(static_cast<double>(xs[i]));
    const float rounded = std::fabs(static_cast<float>(w));
    const double ulp = std::nextafter(rounded, std::numeric_limits<float>::infinity()) - rounded;
    worst = std::max(worst, std::fabs(out[i] - w) / ulp);
  }
  return worst;
}

TEST(Expm1F32, WithinOneAndAHalfUlpOfTheTrueValue) {
  std::vector<float> xs = domain_sample();
  for (int i = -2000; i <= 2000; ++i) xs.push_back(static_cast<float>(i) * 1e-3f);  // every reduction case near 0
  std::vector<float> out(xs.size());
  expm1_f32_block<kVectorBytes>(xs.data(), out.data(), static_cast<int64_t>(xs.size()), [](auto v) { return v; });
  // Under 1 ulp with FMA (the ulp of the result's magnitude: expm1 goes to -1 for negative x).
  EXPECT_LT(worst_ulps(xs, out, [](double x) { return std::expm1(x); }), 1.5);
  float neg_zero = -0.0f, got = 1.0f;
  expm1_f32_block<kVectorBytes>(&neg_zero, &got, 1, [](auto v) { return v; });
  EXPECT_TRUE(got == 0.0f && std::signbit(got));
}

TEST(ExpF32, TailsGiveTheBitsOfWholeVectors) {
  std::vector<float> xs(64);
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = -40.0f + 1.37f * static_cast<float>(i);
  std::vector<float> whole(xs.size());
  exp_f32_block<kVectorBytes>(xs.data(), whole.data(), 64, [](auto v) { return v; });
  for (int64_t start = 0; start < 17; ++start) {
    for (int64_t n = 0; n + start <= 64; n += 5) {
      std::vector<float> part(static_cast<size_t>(n), -1.0f);
      exp_f32_block<kVectorBytes>(xs.data() + start, part.data(), n, [](auto v) { return v; });
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(part[i], whole[start + i]) << start << " " << n << " " << i;
    }
  }
}

}  // namespace
}  // namespace ef
