// Gradient functions written in C++ for the common ops, one per op type. The eager backward pass
// (autodiff/backward.h) runs them instead of the Python registry's functions for float and double
// tensors; the Python functions stay the source for graphs, other dtypes and tf.gradients, and
// tests/test_native_gradients.py checks each C++ function against its Python twin bit for bit.
//
// A function builds its result with execute() only, as the Python ones do: the same ops, so
// enclosing tapes record them (higher-order gradients) and the values are the same bits.
#pragma once
#include <string>
#include <vector>

#include "core/tensor.h"
#include "ops/attrs.h"
#include "ops/registry.h"

namespace ef {

// What a gradient function sees of a recorded op call.
struct GradientOp {
  const OpDef& op;
  const std::vector<Tensor>& inputs;
  const std::vector<Tensor>& outputs;
  const Attrs& attrs;
  const std::vector<int>& skip;  // inputs whose gradient nothing reads (TF's skip_input_indices)

  bool needs(int i) const {
    for (int s : skip)
      if (s == i) return false;
    return true;
  }
};

// Takes the gradient of each output (null where it has none) and returns one gradient per input
// (null: none).
using GradientFn = std::vector<Tensor> (*)(const GradientOp& op, const std::vector<Tensor>& grads);

// The C++ gradient of `op`, or null when it has none or it is turned off.
GradientFn native_gradient(const OpDef& op);

// The op types with a C++ gradient (on or off).
std::vector<std::string> native_gradient_types();

// Turns an op type's C++ gradient on or off. The Python registry turns it on while the op type's
// entry there is the function that the C++ one mirrors (tf.RegisterGradient overrides or tests
// that replace it take the Python path). Off until then.
void set_native_gradient_enabled(const std::string& op_type, bool enabled);

struct GradientRegistrar {
  GradientRegistrar(const char* op_type, GradientFn fn);
};

#define EF_REGISTER_GRADIENT(OP_TYPE, FN) \
  static ::ef::GradientRegistrar EF_CONCAT(ef_gradient_registrar_, __COUNTER__)(OP_TYPE, FN)

}  // namespace ef
