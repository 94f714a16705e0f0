// C++ twins of ops/array_grad.py's gradients of the reshaping ops: the gradient reshaped to the
// input's shape (array_grad.py: u.reshape_like, a Reshape even where the shapes already agree).
#include "autodiff/gradients/grad_util.h"
#include "autodiff/gradients/registry.h"

namespace ef {
namespace {

Tensor reshape_like(const Tensor& g, const Tensor& x) { return grad::reshape(g, grad::shape_tensor(x->shape())); }

std::vector<Tensor> reshape_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  return {reshape_like(g[0], op.inputs[0]), nullptr};  // Reshape and ExpandDims: no gradient for the shape/axis
}

std::vector<Tensor> squeeze_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  return {reshape_like(g[0], op.inputs[0])};
}

EF_REGISTER_GRADIENT("Reshape", reshape_grad);
EF_REGISTER_GRADIENT("ExpandDims", reshape_grad);
EF_REGISTER_GRADIENT("Squeeze", squeeze_grad);

}  // namespace
}  // namespace ef
