// C++ twins of ops/math_grad.py's gradients of the common math ops (the same ops, in the same
// order, on real inputs): pass-throughs, Cast, the unary ops, the broadcasting binary ops, Sum/Mean,
// MatMul.
#include <algorithm>
#include <set>

#include "autodiff/gradients/grad_util.h"
#include "autodiff/gradients/registry.h"

namespace ef {
namespace {

using grad::mul;
using grad::real_scalar;
using grad::sub;

std::vector<Tensor> pass_through(const GradientOp&, const std::vector<Tensor>& g) { return {g[0]}; }

std::vector<Tensor> cast_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  const DType src = op.inputs[0]->dtype(), dst = op.outputs[0]->dtype();
  auto differentiable = [](DType d) { return dtype_is_floating(d) || dtype_is_complex(d); };
  if (!differentiable(src) || !differentiable(dst)) return {nullptr};
  if (g[0]->dtype() == src) return {g[0]};  // math_ops.cast returns a tensor of the dtype as it is
  static const OpDef& cast = get_op("Cast");
  Attrs a;
  a.set("DstT", src);
  return {grad::run(cast, {g[0]}, a)};
}

std::vector<Tensor> neg_grad(const GradientOp&, const std::vector<Tensor>& g) { return {grad::neg(g[0])}; }

std::vector<Tensor> square_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  const Tensor& x = op.inputs[0];
  return {mul(g[0], mul(x, real_scalar(2, x->dtype())))};
}

std::vector<Tensor> exp_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  return {mul(g[0], op.outputs[0])};
}

std::vector<Tensor> log_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  static const OpDef& reciprocal = get_op("Reciprocal");
  return {mul(g[0], grad::run(reciprocal, {op.inputs[0]}))};
}

// `g`, but 0 where the incoming gradient is 0 (math_grad.py: _zero_where_no_grad, TF's SqrtGrad etc.).
Tensor zero_where_no_grad(const Tensor& grad, const Tensor& g) {
  static const OpDef &equal = get_op("Equal"), &zeros_like = get_op("ZerosLike"), &select = get_op("SelectV2");
  Tensor no_grad = grad::run(equal, {grad, real_scalar(0, grad->dtype())});
  Tensor zeros = grad::run(zeros_like, {g});
  return grad::run(select, {no_grad, zeros, g});
}

std::vector<Tensor> sqrt_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  const Tensor& y = op.outputs[0];
  return {zero_where_no_grad(g[0], grad::div(mul(g[0], real_scalar(0.5, y->dtype())), y))};
}

std::vector<Tensor> rsqrt_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  const Tensor& y = op.outputs[0];
  return {zero_where_no_grad(g[0], mul(g[0], mul(mul(mul(real_scalar(-0.5, y->dtype()), y), y), y)))};
}

std::vector<Tensor> reciprocal_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  const Tensor& y = op.outputs[0];
  Tensor neg_grad = grad::neg(g[0]);
  return {zero_where_no_grad(g[0], mul(neg_grad, mul(y, y)))};
}

std::vector<Tensor> tanh_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  const Tensor& y = op.outputs[0];
  return {mul(g[0], sub(real_scalar(1, y->dtype()), mul(y, y)))};
}

std::vector<Tensor> sigmoid_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  const Tensor& y = op.outputs[0];
  return {mul(g[0], mul(y, sub(real_scalar(1, y->dtype()), y)))};
}

// The broadcast gradient `g` of a binary op summed down to the shape of its input `x`
// (math_grad.py: _reduce_to with static shapes, which eager tensors always have).
Tensor reduce_to(const Tensor& g, const Tensor& x) {
  const Shape& xs = x->shape();
  const Shape& gs = g->shape();
  if (xs == gs) return g;
  const int pad = gs.rank() - xs.rank();
  std::vector<int64_t> lead, inner;
  for (int i = 0; i < pad; ++i) lead.push_back(i);
  for (int i = pad; i < gs.rank(); ++i)
    if (xs[i - pad] == 1 && gs[i] != 1) inner.push_back(i);
  if (inner.empty()) return grad::sum(g, grad::int32_vector(lead), false);
  if (pad == 0) return grad::sum(g, grad::int32_vector(inner), true);
  lead.insert(lead.end(), inner.begin(), inner.end());
  return grad::reshape(grad::sum(g, grad::int32_vector(lead), false), grad::shape_tensor(xs));
}

std::vector<Tensor> add_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  return {op.needs(0) ? reduce_to(g[0], op.inputs[0]) : nullptr,
          op.needs(1) ? reduce_to(g[0], op.inputs[1]) : nullptr};
}

std::vector<Tensor> sub_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  return {op.needs(0) ? reduce_to(g[0], op.inputs[0]) : nullptr,
          op.needs(1) ? reduce_to(grad::neg(g[0]), op.inputs[1]) : nullptr};
}

std::vector<Tensor> mul_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  const Tensor &x = op.inputs[0], &y = op.inputs[1];
  return {op.needs(0) ? reduce_to(mul(g[0], y), x) : nullptr, op.needs(1) ? reduce_to(mul(x, g[0]), y) : nullptr};
}

std::vector<Tensor> real_div_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  const Tensor &x = op.inputs[0], &y = op.inputs[1];
  return {op.needs(0) ? reduce_to(grad::div(g[0], y), x) : nullptr,
          op.needs(1) ? reduce_to(mul(g[0], grad::div(grad::div(grad::neg(x), y), y)), y) : nullptr};
}

std::vector<Tensor> squared_difference_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  const Tensor &x = op.inputs[0], &y = op.inputs[1];
  Tensor d = mul(g[0], mul(real_scalar(2, g[0]->dtype()), sub(x, y)));
  return {op.needs(0) ? reduce_to(d, x) : nullptr, op.needs(1) ? reduce_to(grad::neg(d), y) : nullptr};
}

// Each input's share of the gradient: x's where it was inside the bounds, a bound's where x
// crossed it (all three computed, as math_grad.py's function does).
std::vector<Tensor> clip_by_value_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  static const OpDef &zeros_like = get_op("ZerosLike"), &less = get_op("Less"), &greater = get_op("Greater"),
                     &logical_or = get_op("LogicalOr"), &logical_not = get_op("LogicalNot"),
                     &select = get_op("SelectV2");
  const Tensor &x = op.inputs[0], &lo = op.inputs[1], &hi = op.inputs[2];
  Tensor zeros = grad::run(zeros_like, {g[0]});
  Tensor below = grad::run(less, {x, lo});
  Tensor above = grad::run(greater, {x, hi});
  Tensor inside = grad::run(logical_not, {grad::run(logical_or, {below, above})});
  Tensor gx = reduce_to(grad::run(select, {inside, g[0], zeros}), x);
  Tensor glo = reduce_to(grad::run(select, {below, g[0], zeros}), lo);
  Tensor ghi = reduce_to(grad::run(select, {above, g[0], zeros}), hi);
  return {gx, glo, ghi};
}

// A reduction's normalized axes (math_grad.py: _reduction_axes), from its eager axes input.
std::set<int64_t> reduced_axes(const Tensor& x, const Tensor& axes) {
  std::set<int64_t> out;
  const int64_t rank = x->rank();
  if (rank == 0) return out;
  for (int64_t i = 0; i < axes->num_elements(); ++i) {
    const int64_t a = axes->dtype() == DType::kInt64 ? axes->data<int64_t>()[i] : axes->data<int32_t>()[i];
    out.insert(((a % rank) + rank) % rank);  // Python's modulo
  }
  return out;
}

// The gradient of a reduction's output reshaped with the reduced dims kept and broadcast to the
// input's shape (math_grad.py: _broadcast_reduced).
Tensor broadcast_reduced(const GradientOp& op, Tensor g) {
  const Tensor& x = op.inputs[0];
  if (g->rank() != 0) {
    const std::set<int64_t> axes = reduced_axes(x, op.inputs[1]);
    Shape kept;
    for (int i = 0; i < x->rank(); ++i) kept.push_back(axes.count(i) ? 1 : x->shape()[i]);
    if (g->shape() != kept) g = grad::reshape(g, grad::shape_tensor(kept));
  }
  if (g->shape() == x->shape()) return g;
  static const OpDef& broadcast_to = get_op("BroadcastTo");
  return grad::run(broadcast_to, {g, grad::shape_tensor(x->shape())});
}

std::vector<Tensor> sum_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  return {broadcast_reduced(op, g[0]), nullptr};
}

std::vector<Tensor> mean_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  Tensor b = broadcast_reduced(op, g[0]);
  const int64_t n_in = op.inputs[0]->num_elements(), n_out = op.outputs[0]->num_elements();
  return {grad::div(b, grad::int_scalar_of(n_in / std::max<int64_t>(n_out, 1), b->dtype())), nullptr};
}

// math_grad.py: _product_grads over MatMul, each gradient only when something reads it.
std::vector<Tensor> matmul_grad(const GradientOp& op, const std::vector<Tensor>& g) {
  const Tensor &a = op.inputs[0], &b = op.inputs[1], &grad = g[0];
  const bool ta = op.attrs.get<bool>("transpose_a", false), tb = op.attrs.get<bool>("transpose_b", false);
  auto mm = [](const Tensor& x, const Tensor& y, bool tx, bool ty) {
    static const OpDef& matmul = get_op("MatMul");
    Attrs at;
    at.set("transpose_a", tx);
    at.set("transpose_b", ty);
    return grad::run(matmul, {x, y}, at);
  };
  Tensor ga, gb;
  if (op.needs(0))
    ga = !ta && !tb ? mm(grad, b, false, true) : !ta ? mm(grad, b, false, false) : !tb ? mm(b, grad, false, true)
                                                                                       : mm(b, grad, true, true);
  if (op.needs(1))
    gb = !ta && !tb ? mm(a, grad, true, false) : !ta ? mm(grad, a, true, false) : !tb ? mm(a, grad, false, false)
                                                                                       : mm(grad, a, true, true);
  return {ga, gb};
}

EF_REGISTER_GRADIENT("Identity", pass_through);
EF_REGISTER_GRADIENT("ReadVariableOp", pass_through);
EF_REGISTER_GRADIENT("Cast", cast_grad);
EF_REGISTER_GRADIENT("Neg", neg_grad);
EF_REGISTER_GRADIENT("Square", square_grad);
EF_REGISTER_GRADIENT("Exp", exp_grad);
EF_REGISTER_GRADIENT("Log", log_grad);
EF_REGISTER_GRADIENT("Sqrt", sqrt_grad);
EF_REGISTER_GRADIENT("Rsqrt", rsqrt_grad);
EF_REGISTER_GRADIENT("Reciprocal", reciprocal_grad);
EF_REGISTER_GRADIENT("Tanh", tanh_grad);
EF_REGISTER_GRADIENT("Sigmoid", sigmoid_grad);
EF_REGISTER_GRADIENT("AddV2", add_grad);
EF_REGISTER_GRADIENT("Sub", sub_grad);
EF_REGISTER_GRADIENT("Mul", mul_grad);
EF_REGISTER_GRADIENT("RealDiv", real_div_grad);
EF_REGISTER_GRADIENT("SquaredDifference", squared_difference_grad);
EF_REGISTER_GRADIENT("ClipByValue", clip_by_value_grad);
EF_REGISTER_GRADIENT("Sum", sum_grad);
EF_REGISTER_GRADIENT("Mean", mean_grad);
EF_REGISTER_GRADIENT("MatMul", matmul_grad);

}  // namespace
}  // namespace ef
