// Philox4x32-10 against the Random123 known-answer vectors; the 128-bit counter's carries; TF's
// bit conversions.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/cpu/random_distributions.h"

namespace ef {
namespace {

using Block = PhiloxRandom::ResultType;

TEST(Philox, KnownAnswerVectors) {
  EXPECT_EQ(PhiloxRandom({0, 0, 0, 0}, {0, 0})(), (Block{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
  const uint32_t f = 0xffffffffu;
  EXPECT_EQ(PhiloxRandom({f, f, f, f}, {f, f})(), (Block{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}));
  EXPECT_EQ(PhiloxRandom({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, {0xa4093822u, 0x299f31d0u})(),
            (Block{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}));
}

TEST(Philox, SkipCarriesAcrossTheCounterWords) {
  const uint32_t f = 0xffffffffu;
  PhiloxRandom g({f, f, f, 0}, {0, 0});
  g.skip(1);
  EXPECT_EQ(g.counter(), (Block{0, 0, 0, 1}));
  PhiloxRandom h({f, 0, 0, 0}, {0, 0});
  h.skip(uint64_t{1} << 32 | 1);
  EXPECT_EQ(h.counter(), (Block{0, 2, 0, 0}));
  PhiloxRandom k({5, 0, 0, 0}, {0, 0});
  k();  // a draw moves the counter by one block
  EXPECT_EQ(k.counter(), (Block{6, 0, 0, 0}));
}

TEST(Philox, FillEqualsOneBlockAtATime) {
  // Starts 20 blocks before word 0 wraps, so the batched path and the carry both run.
  for (uint32_t start : {0u, 0xffffffffu - 20u}) {
    PhiloxRandom a({start, 7, 8, 9}, {10, 11}), b = a;
    std::vector<Block> filled(100);
    a.fill(filled.data(), 100);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(filled[i], b()) << i;
    EXPECT_EQ(a.counter(), b.counter());
  }
}

TEST(Philox, BitConversions) {
  EXPECT_EQ(random::uint32_to_float(0), 0.0f);
  EXPECT_EQ(random::uint32_to_float(0xffffffffu), 1.0f - std::ldexp(1.0f, -23));
  EXPECT_EQ(random::uint64_to_double(0, 0), 0.0);
  EXPECT_EQ(random::uint64_to_double(0xffffffffu, 0xffffffffu), 1.0 - std::ldexp(1.0, -52));
  float a, b;
  random::box_muller_float(0, 0, &a, &b);  // u1 = 0 is clamped, so the log is finite
  EXPECT_TRUE(std::isfinite(a) && std::isfinite(b));
}

}  // namespace
}  // namespace ef
