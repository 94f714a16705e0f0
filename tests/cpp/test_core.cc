// C++ unit tests of the core: shapes, buffers, broadcasting, the registry and execute().
#include <gtest/gtest.h>

#include <cstdint>

#include "core/errors.h"
#include "core/tensor.h"
#include "eager/execute.h"
#include "kernels/cpu/broadcast.h"
#include "ops/registry.h"

namespace ef {
namespace {

TEST(Shape, BasicsAndPrinting) {
  Shape s{2, 3};
  EXPECT_EQ(s.rank(), 2);
  EXPECT_EQ(s.num_elements(), 6);
  EXPECT_EQ(s.to_string(), "(2, 3)");
  EXPECT_EQ(Shape{4}.to_string(), "(4,)");
  EXPECT_EQ(Shape().to_string(), "()");
  Shape u{-1, 3};
  EXPECT_FALSE(u.fully_defined());
  EXPECT_EQ(u.num_elements(), -1);
  EXPECT_EQ(u.to_string(), "(None, 3)");
  EXPECT_EQ(Shape::unknown_rank().rank(), -1);
  Shape big{1, 2, 3, 4, 5, 6, 7, 8};  // beyond the inline capacity
  EXPECT_EQ(big.num_elements(), 40320);
  Shape copy = big;
  EXPECT_EQ(copy, big);
  copy.erase(0);
  EXPECT_EQ(copy.rank(), 7);
}

TEST(Buffer, AlignedAndInline) {
  Tensor small = TensorImpl::empty(DType::kFloat32, Shape{4});
  EXPECT_EQ(small->buffer(), nullptr);  // inline storage
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small->raw_data()) % 64, 0u);
  Tensor big = TensorImpl::empty(DType::kFloat32, Shape{1000});
  ASSERT_NE(big->buffer(), nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(big->raw_data()) % 64, 0u);
}

TEST(Buffer, HugeAllocationIsResourceExhausted) {
  try {
    TensorImpl::empty(DType::kFloat32, Shape{100000, 100000, 1000});
    FAIL() << "expected an error";
  } catch (const OpError& e) {
    EXPECT_EQ(e.code(), Code::kResourceExhausted);
  }
}

TEST(Broadcast, Shapes) {
  EXPECT_EQ(broadcast_shapes(Shape{3, 1}, Shape{1, 4}), (Shape{3, 4}));
  EXPECT_EQ(broadcast_shapes(Shape{}, Shape{2}), (Shape{2}));
  EXPECT_EQ(broadcast_shapes(Shape{0, 3}, Shape{1, 3}), (Shape{0, 3}));
  EXPECT_EQ(broadcast_shapes(Shape{-1, 3}, Shape{1, 3}), (Shape{-1, 3}));
  EXPECT_THROW(broadcast_shapes(Shape{3}, Shape{2}), OpError);
}

TEST(Execute, AddV2Broadcasts) {
  Tensor a = TensorImpl::empty(DType::kInt32, Shape{2, 1});
  a->data<int32_t>()[0] = 1;
  a->data<int32_t>()[1] = 2;
  Tensor b = TensorImpl::empty(DType::kInt32, Shape{3});
  for (int i = 0; i < 3; ++i) b->data<int32_t>()[i] = 10 * i;
  Tensor c = execute1(get_op("AddV2"), {a, b}, Attrs());
  ASSERT_EQ(c->shape(), (Shape{2, 3}));
  const int32_t want[] = {1, 11, 21, 2, 12, 22};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(c->data<int32_t>()[i], want[i]);
}

TEST(Execute, DtypeMismatchNamesTheOp) {
  Tensor a = TensorImpl::scalar<int32_t>(1);
  Tensor b = TensorImpl::scalar<float>(1.f);
  try {
    execute1(get_op("AddV2"), {a, b}, Attrs());
    FAIL();
  } catch (const OpError& e) {
    EXPECT_EQ(e.code(), Code::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("[Op:AddV2]"), std::string::npos);
  }
}

TEST(Execute, IntegerOverflowWraps) {
  Tensor a = TensorImpl::scalar<int32_t>(INT32_MAX);
  Tensor b = TensorImpl::scalar<int32_t>(1);
  EXPECT_EQ(*execute1(get_op("AddV2"), {a, b}, Attrs())->data<int32_t>(), INT32_MIN);
}

TEST(Registry, EveryOpIsComplete) {
  auto ops = all_ops();
  EXPECT_GT(ops.size(), 20u);
  for (const OpDef* op : ops) {
    EXPECT_FALSE(op->name.empty());
    EXPECT_NE(op->infer, nullptr) << op->name;
    EXPECT_NE(op->kernels[0], nullptr) << op->name << " has no CPU kernel";
  }
  EXPECT_EQ(find_op("NoSuchOp"), nullptr);
  EXPECT_THROW(get_op("NoSuchOp"), OpError);
}

}  // namespace
}  // namespace ef
