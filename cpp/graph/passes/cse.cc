// Common-subexpression elimination: stateless nodes with the same op, device, inputs, control
// inputs and attrs compute the same values, so all but the first are replaced by the first.
// Const nodes are compared by value when small (two tf.constant(2.0) become one node).
#include <cstring>
#include <functional>
#include <unordered_map>

#include "graph/passes/passes.h"

namespace ef {
namespace {

size_t mix(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

bool small_value(const TensorImpl& t) {
  // Resource handles and variants (TensorLists) have no bytes to compare: only identity counts.
  return t.dtype() != DType::kResource && t.dtype() != DType::kVariant && !t.is_symbolic() &&
         t.num_elements() <= kSmallConstElements;
}

bool tensors_equal(const Tensor& a, const Tensor& b) {
  if (a == b) return true;
  if (!a || !b || !small_value(*a) || !small_value(*b)) return false;
  if (a->dtype() != b->dtype() || a->shape() != b->shape()) return false;
  if (a->dtype() == DType::kString) {
    for (int64_t i = 0; i < a->num_elements(); ++i)
      if (a->data<std::string>()[i] != b->data<std::string>()[i]) return false;
    return true;
  }
  return std::memcmp(a->raw_data(), b->raw_data(), a->nbytes()) == 0;  // bitwise: NaN == NaN, -0 != 0
}

size_t tensor_hash(const Tensor& t) {
  if (!t) return 0;
  if (!small_value(*t)) return std::hash<const void*>()(t.get());
  size_t h = mix(static_cast<size_t>(t->dtype()), static_cast<size_t>(t->num_elements()));
  for (int i = 0; i < t->rank(); ++i) h = mix(h, static_cast<size_t>(t->shape()[i]));
  if (t->dtype() == DType::kString) {
    for (int64_t i = 0; i < t->num_elements(); ++i) h = mix(h, std::hash<std::string>()(t->data<std::string>()[i]));
  } else {
    const unsigned char* p = static_cast<const unsigned char*>(t->raw_data());
    for (size_t i = 0; i < t->nbytes(); ++i) h = mix(h, p[i]);
  }
  return h;
}

bool doubles_equal(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

bool attr_equal(const AttrValue& a, const AttrValue& b) {
  if (a.index() != b.index()) return false;
  if (auto* x = std::get_if<double>(&a)) return doubles_equal(*x, std::get<double>(b));
  if (auto* x = std::get_if<std::vector<double>>(&a)) {
    const auto& y = std::get<std::vector<double>>(b);
    if (x->size() != y.size()) return false;
    for (size_t i = 0; i < x->size(); ++i)
      if (!doubles_equal((*x)[i], y[i])) return false;
    return true;
  }
  if (auto* x = std::get_if<Tensor>(&a)) return tensors_equal(*x, std::get<Tensor>(b));
  return a == b;
}

}  // namespace

// Attr lists are equal when they hold the same names with equal values, in any order.
bool attrs_equal(const Attrs& a, const Attrs& b) {
  if (a.items().size() != b.items().size()) return false;
  for (const auto& kv : a.items()) {
    const AttrValue* v = b.find(kv.first);
    if (!v || !attr_equal(kv.second, *v)) return false;
  }
  return true;
}

namespace {

size_t node_hash(const Node& nd) {
  size_t h = std::hash<const void*>()(nd.op);
  for (const Endpoint& e : nd.inputs) h = mix(mix(h, static_cast<size_t>(e.node->id)), static_cast<size_t>(e.index));
  for (const Node* c : nd.control_inputs) h = mix(h, static_cast<size_t>(c->id) * 31);
  if (const AttrValue* v = nd.attrs.find("value"))
    if (auto* t = std::get_if<Tensor>(v)) h = mix(h, tensor_hash(*t));
  return h;
}

bool same_node(const Node& a, const Node& b) {
  return a.op == b.op && a.device == b.device && a.inputs == b.inputs && a.control_inputs == b.control_inputs &&
         a.out_dtypes == b.out_dtypes && attrs_equal(a.attrs, b.attrs);
}

}  // namespace

bool eliminate_common_subexpressions(OptimizedGraph& og) {
  const Graph& g = *og.graph;
  const size_t n = g.nodes().size();
  std::vector<char> fed = fed_mask(og), dead(n, 0);
  std::vector<Node*> rep(n, nullptr);  // node -> the equal node that replaces it
  auto canon = [&](Node* nd) { return rep[nd->id] ? rep[nd->id] : nd; };
  std::unordered_map<size_t, std::vector<Node*>> seen;
  bool changed = false;
  for (const auto& up : g.nodes()) {  // id order: a node's inputs are already canonical
    Node& nd = *up;
    for (Endpoint& e : nd.inputs) e.node = canon(e.node);
    for (Node*& c : nd.control_inputs) c = canon(c);
    if (nd.op->stateful || fed[nd.id] || nd.op->name == "Placeholder") continue;
    std::vector<Node*>& bucket = seen[node_hash(nd)];
    Node* same = nullptr;
    for (Node* other : bucket)
      if (same_node(*other, nd)) {
        same = other;
        break;
      }
    if (same) {
      rep[nd.id] = same;
      dead[nd.id] = 1;
      changed = true;
    } else {
      bucket.push_back(&nd);
    }
  }
  if (!changed) return false;
  for (Endpoint& e : og.fetches) e.node = canon(e.node);
  for (Node*& t : og.targets) t = canon(t);
  rebuild(og, dead);
  return true;
}

}  // namespace ef
