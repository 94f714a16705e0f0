// C++ unit tests of the eager backward walk (autodiff/backward.h) with the C++ gradients only:
// accumulation, skipped inputs, and the callbacks for entries without a C++ gradient.
#include <gtest/gtest.h>

#include "autodiff/backward.h"
#include "autodiff/gradients/registry.h"
#include "core/tensor.h"
#include "eager/execute.h"
#include "ops/registry.h"

namespace ef {
namespace {

Tensor scalar(float v) { return TensorImpl::scalar<float>(v); }

// The C++ gradients are off until the Python registry turns them on.
struct NativeOn {
  explicit NativeOn(std::vector<std::string> types) : types_(std::move(types)) {
    for (const auto& t : types_) set_native_gradient_enabled(t, true);
  }
  ~NativeOn() {
    for (const auto& t : types_) set_native_gradient_enabled(t, false);
  }
  std::vector<std::string> types_;
};

BackwardCallbacks no_callbacks(int* calls) {
  BackwardCallbacks cb;
  cb.call = [calls](const PrunedEntry& p, const std::vector<Gradient>&) {
    ++*calls;
    return std::vector<Gradient>(p.in_keys.size());
  };
  cb.sum = [](const std::vector<Gradient>&) -> Gradient { throw std::runtime_error("no sparse sums here"); };
  return cb;
}

TEST(Backward, AccumulatesThroughCppGradients) {
  NativeOn on({"Mul", "AddV2"});
  auto tape = std::make_shared<Tape>(false, true, nullptr);
  Tensor x = scalar(3.0f), c = scalar(2.0f);
  tape->watch(x);
  push_tape(tape);
  Tensor y = execute1(get_op("Mul"), {x, x}, Attrs());  // x^2
  Tensor z = execute1(get_op("AddV2"), {y, x}, Attrs());  // x^2 + x
  Tensor w = execute1(get_op("Mul"), {z, c}, Attrs());   // 2 x^2 + 2 x
  pop_tape(tape.get());
  int calls = 0;
  auto grads = backward(*tape, {tensor_key(*w)}, {Gradient{scalar(1.0f), nullptr}}, {tensor_key(*x)},
                        no_callbacks(&calls));
  EXPECT_EQ(calls, 0);
  ASSERT_EQ(grads.count(tensor_key(*x)), 1u);
  float total = 0;
  for (const Gradient& g : grads[tensor_key(*x)]) total += *g.dense->data<float>();
  EXPECT_EQ(total, 14.0f);  // 4 x + 2
}

TEST(Backward, SkipsInputsNoSourceReaches) {
  NativeOn on({"MatMul"});
  auto tape = std::make_shared<Tape>(false, true, nullptr);
  Tensor a = TensorImpl::zeros(DType::kFloat32, Shape({2, 3})), b = TensorImpl::zeros(DType::kFloat32, Shape({3, 4}));
  tape->watch(b);
  push_tape(tape);
  Tensor y = execute1(get_op("MatMul"), {a, b}, Attrs());
  pop_tape(tape.get());
  std::vector<PrunedEntry> pruned = prune(*tape, {tensor_key(*y)}, {tensor_key(*b)});
  ASSERT_EQ(pruned.size(), 1u);
  EXPECT_EQ(pruned[0].skip, std::vector<int>{0});
  EXPECT_EQ(pruned[0].in_keys[0], kNoKey);
  int calls = 0;
  auto grads = backward(*tape, {tensor_key(*y)}, {Gradient{TensorImpl::zeros(DType::kFloat32, Shape({2, 4})), nullptr}},
                        {tensor_key(*b)}, no_callbacks(&calls));
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(grads[tensor_key(*b)].at(0).dense->shape(), Shape({3, 4}));
}

TEST(Backward, OtherDtypesAndTurnedOffGradientsGoToTheCallback) {
  auto tape = std::make_shared<Tape>(false, true, nullptr);
  Tensor x = TensorImpl::scalar<double>(1.0);
  tape->watch(x);
  push_tape(tape);
  Tensor y = execute1(get_op("Neg"), {x}, Attrs());  // Neg's C++ gradient is off
  pop_tape(tape.get());
  int calls = 0;
  backward(*tape, {tensor_key(*y)}, {Gradient{TensorImpl::scalar<double>(1.0), nullptr}}, {tensor_key(*x)},
           no_callbacks(&calls));
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace ef
