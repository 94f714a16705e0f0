// The scalar loop's whole-loop superinstruction: the fusable op names are the registry's scalar-step
// ops, the counter-and-accumulator shape is recognized in its commuted and mirrored forms and runs
// to the right values, and other shapes are left alone.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/cpu/elementwise_blocks.h"
#include "kernels/cpu/scalar_fused_steps.h"

namespace ef {
namespace {

TEST(ScalarFusedSteps, FusableOpsHaveScalarSteps) {
  for (const char* op : {"AddV2", "Sub", "Mul", "Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual"}) {
    EXPECT_GE(scalar_fusable_op(op), 0) << op;
    EXPECT_NE(find_scalar_steps(op, DType::kInt32), nullptr) << op;
  }
  EXPECT_EQ(scalar_fusable_op("Maximum"), -1);
}

// Registers: 0 = i, 1 = s, 2 = n, 3 = the constant 1. Runs the fused step from i = 0, s = 5.
void expect_sum_loop(std::vector<ScalarInstr> code, const std::vector<FusableInstr>& fuse) {
  ASSERT_TRUE(fuse_whole_loop(code.data(), fuse.data(), static_cast<int>(code.size())));
  ScalarReg r[4];
  r[0].i32 = 0, r[1].i32 = 5, r[2].i32 = 10, r[3].i32 = 1;
  EXPECT_EQ(code[0].step(r, code.data()), nullptr);
  EXPECT_EQ(r[0].i32, 10);
  EXPECT_EQ(r[1].i32, 5 + 45);
  EXPECT_EQ(r[2].i32, 10);
}

TEST(ScalarFusedSteps, CounterAndAccumulatorLoop) {
  const int add = scalar_fusable_op("AddV2"), less = scalar_fusable_op("Less"), greater = scalar_fusable_op("Greater");
  const FusableInstr v{add, DType::kInt32, false};
  // s = s + i; i = i + 1; while i < n
  expect_sum_loop({{nullptr, 1, 0, 1, 0}, {nullptr, 0, 3, 0, 0}, {nullptr, 0, 2, 0, -2}},
                  {v, v, {less, DType::kInt32, true}});
  // s = i + s; i = 1 + i; while n > i (commuted operands, mirrored predicate)
  expect_sum_loop({{nullptr, 0, 1, 1, 0}, {nullptr, 3, 0, 0, 0}, {nullptr, 2, 0, 0, -2}},
                  {v, v, {greater, DType::kInt32, true}});
}

TEST(ScalarFusedSteps, OtherShapesAreLeftAlone) {
  const int add = scalar_fusable_op("AddV2"), sub = scalar_fusable_op("Sub"), less = scalar_fusable_op("Less");
  const FusableInstr v{add, DType::kInt32, false}, br{less, DType::kInt32, true};
  std::vector<ScalarInstr> s_plus_s = {{nullptr, 1, 1, 1, 0}, {nullptr, 0, 3, 0, 0}, {nullptr, 0, 2, 0, -2}};
  EXPECT_FALSE(fuse_whole_loop(s_plus_s.data(), std::vector<FusableInstr>{v, v, br}.data(), 3));
  std::vector<ScalarInstr> one_minus_s = {{nullptr, 3, 1, 1, 0}, {nullptr, 0, 3, 0, 0}, {nullptr, 0, 2, 0, -2}};
  const FusableInstr sv{sub, DType::kInt32, false};
  EXPECT_FALSE(fuse_whole_loop(one_minus_s.data(), std::vector<FusableInstr>{sv, v, br}.data(), 3));
  std::vector<ScalarInstr> i_less_s = {{nullptr, 1, 0, 1, 0}, {nullptr, 0, 3, 0, 0}, {nullptr, 0, 1, 0, -2}};
  EXPECT_FALSE(fuse_whole_loop(i_less_s.data(), std::vector<FusableInstr>{v, v, br}.data(), 3));
  const FusableInstr f64{add, DType::kFloat64, false};  // dtypes differ
  EXPECT_FALSE(fuse_whole_loop(i_less_s.data(), std::vector<FusableInstr>{f64, v, br}.data(), 3));
}

}  // namespace
}  // namespace ef
