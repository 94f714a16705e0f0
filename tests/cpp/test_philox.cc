// Philox4x32-10 against the Random123 known-answer vectors, and the uniform/normal helpers.
#include <gtest/gtest.h>

#include "kernels/cpu/philox.h"

namespace ef {
namespace {

TEST(Philox, KnownAnswerVectors) {
  // key = seed (low word first), counter = (index low, index high, seed2 low, seed2 high).
  Philox4x32::Block zero = Philox4x32(0, 0).block(0);
  EXPECT_EQ(zero, (Philox4x32::Block{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
  Philox4x32::Block ones = Philox4x32(~uint64_t(0), ~uint64_t(0)).block(~uint64_t(0));
  EXPECT_EQ(ones, (Philox4x32::Block{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}));
  Philox4x32::Block pi =
      Philox4x32(0x299f31d0a4093822ull, 0x0370734413198a2eull).block(0x85a308d3243f6a88ull);
  EXPECT_EQ(pi, (Philox4x32::Block{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}));
}

TEST(Philox, UniformRange) {
  EXPECT_EQ(uniform_float(0), 0.0f);
  EXPECT_LT(uniform_float(0xffffffffu), 1.0f);
  EXPECT_EQ(uniform_double(0, 0), 0.0);
  EXPECT_LT(uniform_double(0xffffffffu, 0xffffffffu), 1.0);
  float a, b;
  box_muller(0.0f, 0.0f, &a, &b);  // u1 = 0 must not produce -inf/NaN
  EXPECT_EQ(a, 0.0f);
  EXPECT_EQ(b, 0.0f);
}

}  // namespace
}  // namespace ef
