// C++ unit tests of the tape recorder: what execute() records, output identities, suspension.
#include <gtest/gtest.h>

#include "autodiff/tape.h"
#include "core/tensor.h"
#include "eager/context.h"
#include "eager/execute.h"
#include "ops/registry.h"

namespace ef {
namespace {

Tensor scalar(float v) { return TensorImpl::scalar<float>(v); }

TEST(Tape, RecordsOnlyOpsReachingWatchedTensors) {
  auto tape = std::make_shared<Tape>(false, true, nullptr);
  Tensor x = scalar(2.0f), c = scalar(3.0f);
  tape->watch(x);
  push_tape(tape);
  EXPECT_EQ(thread_context().tape_depth, 1);
  Tensor y = execute1(get_op("Mul"), {x, c}, Attrs());
  execute1(get_op("Mul"), {c, c}, Attrs());  // no watched input: not recorded
  Tensor z = execute1(get_op("AddV2"), {y, c}, Attrs());
  pop_tape(tape.get());
  EXPECT_EQ(thread_context().tape_depth, 0);
  execute1(get_op("AddV2"), {z, c}, Attrs());  // tape popped
  ASSERT_EQ(tape->entries().size(), 2u);
  EXPECT_EQ(tape->entries()[0]->op->name, "Mul");
  EXPECT_EQ(tape->entries()[1]->op->name, "AddV2");
  EXPECT_TRUE(tape->watching(z));
}

TEST(Tape, AliasedOutputsGetTheirOwnIdentity) {
  auto tape = std::make_shared<Tape>(false, true, nullptr);
  Tensor x = scalar(2.0f);
  tape->watch(x);
  push_tape(tape);
  Tensor y = execute1(get_op("Identity"), {x}, Attrs());
  pop_tape(tape.get());
  EXPECT_NE(tensor_key(*x), tensor_key(*y));
  EXPECT_EQ(*y->data<float>(), 2.0f);
}

TEST(Tape, SuspendAndResume) {
  auto tape = std::make_shared<Tape>(true, true, nullptr);
  Tensor x = scalar(1.0f);
  tape->watch(x);
  push_tape(tape);
  suspend_tapes();
  EXPECT_EQ(thread_context().tape_depth, 0);
  execute1(get_op("Neg"), {x}, Attrs());
  resume_tapes();
  EXPECT_EQ(thread_context().tape_depth, 1);
  execute1(get_op("Neg"), {x}, Attrs());
  pop_tape(tape.get());
  EXPECT_EQ(tape->entries().size(), 1u);
}

}  // namespace
}  // namespace ef
