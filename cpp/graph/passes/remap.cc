// Remapping (TF grappler's remapper): Conv2D -> BiasAdd (-> Relu) chains become one _FusedConv2D
// node and MatMul -> BiasAdd (-> Relu) chains one _FusedMatMul node, so the bias and activation run
// on the product's tiles or blocks before they leave the cache instead of as two more passes over
// its output. An AddV2 of a MatMul and a vector of its last dimension's size is a BiasAdd here (TF's
// bias-semantic add: `tf.matmul(x, w) + b`). An AssignSubVariableOp of a Mul by a scalar (the SGD
// update `v.assign_sub(lr * g)`) becomes ResourceApplyGradientDescent: one pass over the variable
// instead of writing and re-reading the scaled gradient; and such an update of a MatMul (the weight
// gradient) becomes _ResourceApplyGradientDescentMatMul: one GEMM accumulating -lr * the product into
// the variable, with no gradient tensor (equal to the unfused ops up to rounding, not bitwise). Only
// when the intermediate values have no other use.
#include <string>

#include "eager/context.h"
#include "graph/passes/passes.h"

namespace ef {
namespace {

bool nhwc(const Node& n) { return n.attrs.get<std::string>("data_format", "NHWC") == "NHWC"; }

bool on_cpu(const Node& n) { return n.device.find("GPU") == std::string::npos; }

// The node's value may be folded into its one consumer: float32 (or float64 where `f64`), neither
// fed nor fetched nor a target, read by exactly one data edge and by no control edge.
bool private_value(const Node& n, const std::vector<std::vector<std::pair<Node*, int>>>& uses,
                   const std::vector<char>& pinned, bool f64 = false) {
  return !pinned[n.id] && uses[n.id].size() == 1 && n.out_dtypes.size() == 1 &&
         (n.out_dtypes[0] == DType::kFloat32 || (f64 && n.out_dtypes[0] == DType::kFloat64)) &&
         n.control_inputs.empty() && on_cpu(n);
}

}  // namespace

bool remap(OptimizedGraph& og) {
  if (thread_context().device.type != DeviceType::kCPU) return false;
  const Graph& g = *og.graph;
  const size_t n = g.nodes().size();
  const auto uses = consumers(g);
  std::vector<char> pinned = fed_mask(og);  // values something outside the chain sees
  for (const Endpoint& e : og.fetches) pinned[e.node->id] = 1;
  for (const Node* t : og.targets) pinned[t->id] = 1;
  for (const auto& up : g.nodes())
    for (const Node* c : up->control_inputs) pinned[c->id] = 1;

  const OpDef& fused_conv = get_op("_FusedConv2D");
  const OpDef& fused_matmul = get_op("_FusedMatMul");
  std::vector<char> dead(n, 0);
  bool changed = false;
  for (const auto& up : g.nodes()) {
    Node* bias_add = up.get();
    if (dead[bias_add->id] || !on_cpu(*bias_add) || !bias_add->control_inputs.empty()) continue;
    // The product and the bias, in the add's input order.
    Endpoint product, bias;
    if (bias_add->type() == "BiasAdd" && nhwc(*bias_add)) {
      product = bias_add->inputs[0];
      bias = bias_add->inputs[1];
    } else if (bias_add->type() == "AddV2") {
      for (int i = 0; i < 2 && !product.node; ++i) {
        const Endpoint& p = bias_add->inputs[i];
        const Endpoint& v = bias_add->inputs[1 - i];
        const Shape& ps = p.node->out_shapes[p.index];
        const Shape& vs = v.node->out_shapes[v.index];
        if (p.node->type() == "MatMul" && ps.rank_known() && ps.rank() == 2 && ps[1] >= 0 && vs.rank_known() &&
            vs.rank() == 1 && vs[0] == ps[1]) {
          product = p;
          bias = v;
        }
      }
    }
    Node* prod = product.node;
    if (!prod || product.index != 0 || dead[prod->id]) continue;
    const bool conv = prod->type() == "Conv2D" && bias_add->type() == "BiasAdd" && nhwc(*prod);
    if (!conv && prod->type() != "MatMul") continue;
    if (!private_value(*prod, uses, pinned)) continue;
    if (bias.node->out_dtypes[bias.index] != DType::kFloat32) continue;
    // The node that becomes the fused one: the Relu when it is the add's only reader.
    Node* tail = bias_add;
    std::vector<std::string> ops = {"BiasAdd"};
    if (private_value(*bias_add, uses, pinned)) {
      Node* reader = uses[bias_add->id][0].first;
      if (reader->type() == "Relu" && reader->control_inputs.empty() && on_cpu(*reader)) {
        tail = reader;
        ops.push_back("Relu");
      }
    }
    Attrs a;
    const std::initializer_list<const char*> conv_attrs = {"T", "strides", "padding", "explicit_paddings",
                                                           "data_format", "dilations"};
    const std::initializer_list<const char*> matmul_attrs = {"T", "transpose_a", "transpose_b"};
    for (const char* name : conv ? conv_attrs : matmul_attrs)
      if (const AttrValue* v = prod->attrs.find(name)) a.set(name, *v);
    a.set("fused_ops", ops);
    tail->inputs = {prod->inputs[0], prod->inputs[1], bias};
    tail->control_inputs = prod->control_inputs;
    tail->op = conv ? &fused_conv : &fused_matmul;
    tail->attrs = std::move(a);
    dead[prod->id] = 1;
    if (tail != bias_add) dead[bias_add->id] = 1;
    changed = true;
  }
  const OpDef& apply_gd = get_op("ResourceApplyGradientDescent");
  for (const auto& up : g.nodes()) {
    Node* assign = up.get();
    if (assign->type() != "AssignSubVariableOp" || dead[assign->id] || !on_cpu(*assign)) continue;
    Node* mul = assign->inputs[1].node;
    if (mul->type() != "Mul" || dead[mul->id] || !private_value(*mul, uses, pinned, true)) continue;
    const Shape& out = mul->out_shapes[0];
    for (int i = 0; i < 2; ++i) {
      const Endpoint& alpha = mul->inputs[i];
      const Endpoint& delta = mul->inputs[1 - i];
      const Shape& as = alpha.node->out_shapes[alpha.index];
      if (as.rank_known() && as.rank() == 0 && out.fully_defined() &&
          delta.node->out_shapes[delta.index] == out) {
        Attrs a;
        a.set("T", mul->out_dtypes[0]);
        a.set("use_locking", false);
        assign->inputs = {assign->inputs[0], alpha, delta};
        assign->op = &apply_gd;
        assign->attrs = std::move(a);
        dead[mul->id] = 1;
        changed = true;
        break;
      }
    }
  }
  // The SGD update of a product (a weight gradient): the GEMM accumulates into the variable.
  const OpDef& apply_gd_matmul = get_op("_ResourceApplyGradientDescentMatMul");
  for (const auto& up : g.nodes()) {
    Node* apply = up.get();
    if (apply->type() != "ResourceApplyGradientDescent" || dead[apply->id] || !on_cpu(*apply)) continue;
    Node* prod = apply->inputs[2].node;
    if (prod->type() != "MatMul" || dead[prod->id] || !private_value(*prod, uses, pinned, true)) continue;
    if (!prod->out_shapes[0].fully_defined()) continue;
    Attrs a;
    a.set("T", prod->out_dtypes[0]);
    a.set("use_locking", apply->attrs.get<bool>("use_locking", false));
    for (const char* name : {"transpose_a", "transpose_b"})
      if (const AttrValue* v = prod->attrs.find(name)) a.set(name, *v);
    apply->inputs = {apply->inputs[0], apply->inputs[1], prod->inputs[0], prod->inputs[1]};
    apply->op = &apply_gd_matmul;
    apply->attrs = std::move(a);
    dead[prod->id] = 1;
    changed = true;
  }
  if (changed) rebuild(og, dead);
  return changed;
}

}  // namespace ef
