// Remapping (TF grappler's remapper): Conv2D -> BiasAdd (-> Relu) chains become one _FusedConv2D
// node, so the bias and activation run on the convolution's tiles before they are stored instead
// of as two more passes over its output. Only when the intermediate values have no other use.
#include <string>

#include "eager/context.h"
#include "graph/passes/passes.h"

namespace ef {
namespace {

bool nhwc(const Node& n) { return n.attrs.get<std::string>("data_format", "NHWC") == "NHWC"; }

bool on_cpu(const Node& n) { return n.device.find("GPU") == std::string::npos; }

// The node's value may be folded into its one consumer: float32, neither fed nor fetched nor a
// target, read by exactly one data edge and by no control edge.
bool private_value(const Node& n, const std::vector<std::vector<std::pair<Node*, int>>>& uses,
                   const std::vector<char>& pinned) {
  return !pinned[n.id] && uses[n.id].size() == 1 && n.out_dtypes.size() == 1 && n.out_dtypes[0] == DType::kFloat32 &&
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

  const OpDef& fused = get_op("_FusedConv2D");
  std::vector<char> dead(n, 0);
  bool changed = false;
  for (const auto& up : g.nodes()) {
    Node* bias_add = up.get();
    if (bias_add->type() != "BiasAdd" || dead[bias_add->id] || !nhwc(*bias_add) || !on_cpu(*bias_add)) continue;
    Node* conv = bias_add->inputs[0].node;
    if (conv->type() != "Conv2D" || bias_add->inputs[0].index != 0 || !nhwc(*conv)) continue;
    if (!private_value(*conv, uses, pinned) || !bias_add->control_inputs.empty()) continue;
    if (bias_add->inputs[1].node->out_dtypes[bias_add->inputs[1].index] != DType::kFloat32) continue;
    // The node that becomes the fused one: the Relu when it is BiasAdd's only reader.
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
    for (const char* name : {"T", "strides", "padding", "explicit_paddings", "data_format", "dilations"})
      if (const AttrValue* v = conv->attrs.find(name)) a.set(name, *v);
    a.set("fused_ops", ops);
    tail->inputs = {conv->inputs[0], conv->inputs[1], bias_add->inputs[1]};
    tail->control_inputs = conv->control_inputs;
    tail->op = &fused;
    tail->attrs = std::move(a);
    dead[conv->id] = 1;
    if (tail != bias_add) dead[bias_add->id] = 1;
    changed = true;
  }
  if (changed) rebuild(og, dead);
  return changed;
}

}  // namespace ef
