// C++ twins of ops/nn_grad.py's gradients of Relu, BiasAdd and the softmax ops (the same ops, in
// the same order, on real inputs).
#include <string>

#include "autodiff/gradients/grad_util.h"
#include "autodiff/gradients/registry.h"

namespace ef {
namespace {

using grad::mul;
using grad::sub;

std::vector<Tensor> relu_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  static const OpDef& relu_grad = get_op("ReluGrad");
  return {grad::run(relu_grad, {g[0], op.outputs[0]})};
}

std::vector<Tensor> bias_add_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  if (!op.needs(1)) return {g[0], nullptr};
  static const OpDef& bias_add_grad = get_op("BiasAddGrad");
  Attrs a;
  a.set("data_format", op.attrs.get<std::string>("data_format", "NHWC"));
  return {g[0], grad::run(bias_add_grad, {g[0]}, a)};
}

// sum(a, -1) with the last dim kept.
Tensor sum_last(const Tensor& a) { return grad::sum(a, grad::int32_scalar(-1), true); }

std::vector<Tensor> softmax_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  const Tensor& y = op.outputs[0];
  Tensor dot = sum_last(mul(g[0], y));
  return {mul(sub(g[0], dot), y)};
}

std::vector<Tensor> log_softmax_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  Tensor total = sum_last(g[0]);
  return {sub(g[0], mul(total, grad::exp(op.outputs[0])))};
}

// The loss output's gradient times each row of backprop, plus, when the backprop output has a
// gradient, the softmax Jacobian term (nn_grad.py: _sparse_xent_grad, which takes None for an
// output without a gradient).
std::vector<Tensor> sparse_xent_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  Tensor out;
  if (g[0]) {
    static const OpDef& expand_dims = get_op("ExpandDims");
    out = mul(grad::run(expand_dims, {g[0], grad::int32_scalar(-1)}), op.outputs[1]);
  }
  if (g[1]) {
    static const OpDef& softmax = get_op("Softmax");
    Tensor sm = grad::run(softmax, {op.inputs[0]});
    Tensor dot = sum_last(mul(g[1], sm));
    Tensor term = mul(sub(g[1], dot), sm);
    out = out ? grad::add(out, term) : term;
  }
  return {out, nullptr};
}

EF_REGISTER_GRADIENT("Relu", relu_grad);
EF_REGISTER_GRADIENT("BiasAdd", bias_add_grad);
EF_REGISTER_GRADIENT("Softmax", softmax_grad);
EF_REGISTER_GRADIENT("LogSoftmax", log_softmax_grad);
EF_REGISTER_GRADIENT("SparseSoftmaxCrossEntropyWithLogits", sparse_xent_grad);

}  // namespace
}  // namespace ef
