// C++ unit tests of the tf.data kernels: typed handles, iteration to the end, and prefetch
// iterators destroyed while their worker threads run.
#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/tensor.h"
#include "eager/execute.h"
#include "kernels/data/dataset.h"
#include "ops/registry.h"

namespace ef {
namespace {

Tensor i64(int64_t v) { return TensorImpl::scalar<int64_t>(v); }

Attrs element_attrs() {
  Attrs a;
  a.set("output_types", std::vector<DType>{DType::kInt64});
  a.set("output_shapes", std::vector<Shape>{Shape()});
  return a;
}

Tensor range(int64_t n) { return execute1(get_op("RangeDataset"), {i64(0), i64(n), i64(1)}, element_attrs()); }

TEST(Data, HandlesAreTyped) {
  Tensor ds = range(3);
  EXPECT_NE(ds->resource<DatasetBase>(), nullptr);
  EXPECT_EQ(ds->resource<IteratorResource>(), nullptr);
  EXPECT_EQ(ds->with_shape(Shape())->resource<DatasetBase>(), ds->resource<DatasetBase>());
  EXPECT_NE(ds->resource<void>(), nullptr);
}

TEST(Data, IteratesToTheEnd) {
  Tensor ds = execute1(get_op("PrefetchDataset"), {range(5), i64(2)}, element_attrs());
  Tensor it = execute1(get_op("AnonymousIteratorV3"), {}, element_attrs());
  execute(get_op("MakeIterator"), {ds, it}, Attrs());
  for (int64_t i = 0; i < 5; ++i)
    EXPECT_EQ(*execute1(get_op("IteratorGetNext"), {it}, element_attrs())->data<int64_t>(), i);
  for (int k = 0; k < 2; ++k) {
    try {
      execute1(get_op("IteratorGetNext"), {it}, element_attrs());
      FAIL() << "expected the end of the sequence";
    } catch (const OpError& e) {
      EXPECT_EQ(e.code(), Code::kOutOfRange);
    }
  }
}

TEST(Data, PrefetchIteratorsDieWhileTheirThreadsRun) {
  for (int k = 0; k < 50; ++k) {
    Tensor inner = execute1(get_op("PrefetchDataset"), {range(int64_t(1) << 40), i64(4)}, element_attrs());
    Tensor outer = execute1(get_op("PrefetchDataset"), {inner, i64(1)}, element_attrs());
    auto it = outer->resource<DatasetBase>()->make_iterator();
    Element e;
    ASSERT_TRUE(it->get_next(e));
    EXPECT_EQ(*e[0]->data<int64_t>(), 0);
  }  // each iterator cancels and joins its threads here
}

}  // namespace
}  // namespace ef
