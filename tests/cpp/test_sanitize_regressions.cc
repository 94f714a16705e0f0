// Regressions found by the ASan/UBSan build (.ci/sanitize): extreme arguments that overflowed.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/tensor.h"
#include "kernels/cpu/print_format.h"

namespace ef {
namespace {

Tensor iota(const Shape& shape) {
  Tensor t = TensorImpl::empty(DType::kInt32, shape);
  for (int64_t i = 0; i < t->num_elements(); ++i) t->data<int32_t>()[i] = static_cast<int32_t>(i);
  return t;
}

TEST(SanitizeRegressions, PrintHugeSummarize) {
  // n <= 2 * summarize overflowed for summarize near INT64_MAX.
  EXPECT_EQ(format_tensor_for_print(*iota(Shape{2, 3}), INT64_MAX / 2 + 1), "[[0 1 2]\n [3 4 5]]");
  EXPECT_EQ(format_tensor_for_print(*iota(Shape{7}), INT64_MAX), "[0 1 2 3 4 5 6]");
  EXPECT_EQ(format_tensor_for_print(*iota(Shape{7}), INT64_MIN), "[0 1 2 3 4 5 6]");
}

TEST(SanitizeRegressions, PrintEmptyTensorWithHugeDims) {
  // The row strides were multiplied out before the empty check: 2^40 * 2^40 overflowed.
  EXPECT_EQ(format_tensor_for_print(*iota(Shape{0, int64_t(1) << 40, int64_t(1) << 40}), 3), "[]");
  EXPECT_EQ(format_tensor_for_print(*iota(Shape{2, int64_t(1) << 40, int64_t(1) << 40, 0}), 3), "[\n\n\n ...]");
}

}  // namespace
}  // namespace ef
