// Graph construction: unique names, inference, Const dedup, automatic control dependencies.
#include "graph/graph.h"

#include <algorithm>
#include <cctype>

#include "core/errors.h"
#include "graph/graph_errors.h"
#include "ops/signature.h"

namespace ef {

void check_node_name(const std::string& s) {
  auto ok = [](char c, bool first) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' ||
           (!first && (c == '_' || c == '\\' || c == '/' || c == '>' || c == '-'));
  };
  for (size_t i = 0; i < s.size(); ++i)
    if (!ok(s[i], i == 0))
      throw ValueError(str_cat("'", s, "' is not a valid root scope name. A root scope name has to match the ",
                               "following pattern: ^[A-Za-z0-9.][A-Za-z0-9_.\\\\/>-]*$"));
}

std::string Graph::scoped(const std::string& name) const {
  std::string out;
  for (const std::string& s : scopes_) out += s + "/";
  return out + name;
}

namespace {
std::string lower_name(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

std::string Graph::peek_unique_name(const std::string& base) const {
  std::string name = base.empty() ? "node" : base;
  std::string key = lower_name(name);
  auto it = name_counts_.find(key);
  if (it == name_counts_.end() && !used_.count(key)) return name;
  int n = it == name_counts_.end() ? 0 : it->second;
  std::string candidate;
  do {
    candidate = str_cat(name, "_", ++n);
  } while (used_.count(lower_name(candidate)));
  return candidate;
}

// Names are unique ignoring case, as in TF ("add" then tf.add's "Add" becomes "Add_1").
std::string Graph::unique_name(const std::string& base) {
  std::string name = base.empty() ? "node" : base;
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  std::string key = lower(name);
  auto it = name_counts_.find(key);
  if (it == name_counts_.end() && !used_.count(key)) {
    name_counts_[key] = 0;
    used_.insert(key);
    return name;
  }
  int& n = name_counts_[key];
  std::string candidate;
  do {
    candidate = str_cat(name, "_", ++n);
  } while (used_.count(lower(candidate)));
  used_.insert(lower(candidate));
  return candidate;
}

Node* Graph::find(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

Tensor Graph::output(Node* node, int index) {
  return TensorImpl::symbolic(shared_from_this(), node, index, node->out_dtypes.at(index), node->out_shapes.at(index));
}

Node* Graph::add_node(const OpDef& op, std::vector<Endpoint> inputs, Attrs attrs, const std::string& name) {
  return new_node(op, std::move(inputs), std::move(attrs), name, false);
}

Node* Graph::pending_const(const Tensor& value) {
  Attrs a;
  a.set("value", value);
  a.set("dtype", value->dtype());
  Node* n = new_node(get_op("Const"), {}, std::move(a), "Const", true);
  pending_.push_back({n, scoped("")});
  return n;
}

namespace {
// TF's name for input `i` of `n` inputs of `op`: the arg's name; inside a list arg, "<arg>_<k>".
std::string input_arg_name(const OpDef& op, size_t n, size_t i) {
  size_t list = op.inputs.size();
  for (size_t a = 0; a < op.inputs.size(); ++a)
    if (!op.inputs[a].empty() && op.inputs[a].back() == '*') list = a;
  if (list == op.inputs.size() || i < list) return i < op.inputs.size() ? op.inputs[i] : "input";
  size_t count = n + 1 - op.inputs.size();
  std::string arg = op.inputs[list].substr(0, op.inputs[list].size() - 1);
  if (i < list + count) return str_cat(arg, "_", i - list);
  return op.inputs[i - count + 1];
}
}  // namespace

void Graph::name_pending(const OpDef* op, const std::vector<Endpoint>& inputs, const std::string& node_name) {
  std::vector<Pending> pending;
  pending.swap(pending_);
  for (const Pending& p : pending) {
    std::string base = p.scope + "Const";
    for (size_t i = 0; op && i < inputs.size(); ++i)
      if (inputs[i].node == p.node) {
        base = node_name + "/" + input_arg_name(*op, inputs.size(), i);
        break;
      }
    p.node->name = unique_name(base);
    by_name_[p.node->name] = p.node;
  }
}

Node* Graph::new_node(const OpDef& op, std::vector<Endpoint> inputs, Attrs attrs, const std::string& name,
                      bool pending) {
  // Inference over the inputs' static types; constant inputs are passed as values.
  InferContext ic{op, {}, {}, {}, attrs, {}, {}};
  for (const Endpoint& e : inputs) {
    ic.dtypes.push_back(e.node->out_dtypes[e.index]);
    ic.shapes.push_back(e.node->out_shapes[e.index]);
    const AttrValue* v = e.node->op->name == "Const" ? e.node->attrs.find("value") : nullptr;
    ic.values.push_back(v ? std::get<Tensor>(*v) : e.node->handle_value);
  }
  if (!op.infer) {
    throw_error(Code::kUnimplemented, "Op ", op.name, " cannot be used in a graph: it has no shape inference");
  }
  // The name is taken before inference, as in TF: a node that fails still used its name. A pending
  // Const's name waits for the node that reads it; the Consts pending before are named first.
  std::string node_name;
  if (pending) {
    node_name = scoped(name);
  } else {
    std::vector<Pending> read, unread;
    for (const Pending& p : pending_) {
      bool reads = false;
      for (const Endpoint& e : inputs) reads = reads || e.node == p.node;
      (reads ? read : unread).push_back(p);
    }
    pending_.swap(unread);
    settle_pending();
    node_name = unique_name(scoped(name.empty() ? op.name : name));
    pending_.swap(read);
    name_pending(&op, inputs, node_name);
  }
  try {
    check_signature(op, ic.dtypes, ic.attrs);
    op.infer(ic);
  } catch (const OpError& e) {
    std::vector<std::string> input_names;
    for (const Endpoint& e2 : inputs)
      input_names.push_back(e2.index == 0 ? e2.node->name : str_cat(e2.node->name, ":", e2.index));
    rethrow_infer_error(e, ic, node_name, input_names);
  }
  auto node = std::make_unique<Node>();
  node->id = static_cast<int>(nodes_.size());
  node->name = std::move(node_name);
  node->op = &op;
  node->inputs = std::move(inputs);
  node->attrs = std::move(attrs);
  node->out_dtypes = std::move(ic.out_dtypes);
  node->out_shapes = std::move(ic.out_shapes);
  node->graph = this;
  bool inherits = false;
  for (const Endpoint& e : node->inputs) inherits = inherits || e.node->id >= control_dependencies_since;
  if (!inherits) node->control_inputs = control_dependencies;
  if (op.stateful && auto_control_deps) {
    if (last_stateful_ && std::find(control_dependencies.begin(), control_dependencies.end(), last_stateful_) ==
                              control_dependencies.end())
      node->control_inputs.push_back(last_stateful_);
    last_stateful_ = node.get();
    stateful_.push_back(node.get());
  }
  Node* raw = node.get();
  if (!pending) by_name_[raw->name] = raw;
  nodes_.push_back(std::move(node));
  return raw;
}

Node* Graph::add_placeholder(DType dtype, const Shape& shape, const std::string& name) {
  Attrs a;
  a.set("dtype", dtype);
  a.set("shape", shape);
  return add_node(get_op("Placeholder"), {}, std::move(a), name.empty() ? "Placeholder" : name);
}

Node* Graph::add_resource_argument(const Tensor& handle, const std::string& name) {
  Node* n = add_placeholder(DType::kResource, handle->shape(), name);
  n->handle_value = handle->is_symbolic() ? handle->node()->handle_value : handle;
  bool known = false;
  for (auto& a : resource_args) known = known || a.first == handle;
  if (!known) resource_args.emplace_back(handle, n);  // an aliased argument: the first placeholder serves
  return n;
}

Node* Graph::const_node(const Tensor& value, const std::string& name) {
  auto it = const_cache_.find(value.get());
  if (it != const_cache_.end()) return it->second;
  Attrs a;
  a.set("value", value);
  a.set("dtype", value->dtype());
  Node* n = add_node(get_op("Const"), {}, std::move(a), name);
  const_cache_[value.get()] = n;
  const_keep_.push_back(value);
  return n;
}

std::shared_ptr<Graph> Graph::clone(std::unordered_map<const Node*, Node*>* map) const {
  const_cast<Graph*>(this)->settle_pending();  // names are part of what is copied
  std::shared_ptr<Graph> c = Graph::create();
  c->name = name;
  c->auto_control_deps = auto_control_deps;
  std::unordered_map<const Node*, Node*> local;
  auto& m = map ? *map : local;
  for (const auto& up : nodes_) {
    auto n = std::make_unique<Node>(*up);
    n->graph = c.get();
    for (Endpoint& e : n->inputs) e.node = m.at(e.node);
    for (Node*& ctl : n->control_inputs) ctl = m.at(ctl);
    m[up.get()] = n.get();
    c->by_name_[n->name] = n.get();
    c->nodes_.push_back(std::move(n));
  }
  c->name_counts_ = name_counts_;
  c->used_ = used_;
  for (Node* s : stateful_) c->stateful_.push_back(m.at(s));
  c->last_stateful_ = last_stateful_ ? m.at(last_stateful_) : nullptr;
  return c;
}

std::vector<char> needed_nodes(const Graph& g, const std::vector<Node*>& feeds, const std::vector<Endpoint>& fetches,
                               const std::vector<Node*>& targets) {
  std::vector<char> needed(g.nodes().size(), 0);
  for (Node* f : feeds) needed[f->id] = 1;  // fed even when nothing reads them
  std::vector<const Node*> stack;
  for (const Endpoint& e : fetches) stack.push_back(e.node);
  for (Node* t : targets) stack.push_back(t);
  while (!stack.empty()) {
    const Node* nd = stack.back();
    stack.pop_back();
    if (needed[nd->id]) continue;
    needed[nd->id] = 1;
    for (const Endpoint& e : nd->inputs) stack.push_back(e.node);
    for (const Node* c : nd->control_inputs) stack.push_back(c);
  }
  return needed;
}

std::string symbolic_repr(const TensorImpl& t) {
  return str_cat("<tf.Tensor '", t.node()->name, ":", t.output_index(), "' shape=", t.shape().to_string(),
                 " dtype=", dtype_name(t.dtype()), ">");
}

namespace {

// A tensor of an enclosing graph, captured as a placeholder of `g` fed at call time (one per
// endpoint: an outer argument's tensor is made anew per use).
Node* capture_outer(Graph& g, const Tensor& t) {
  Graph* outer = g.outer;
  while (outer && outer != t->graph()) outer = outer->outer;
  if (!outer) throw TypeError(out_of_scope_message(*t));
  outer->settle_pending();  // the placeholder takes the captured node's name
  for (auto& c : g.captures)
    if (c.first->is_symbolic() && c.first->node() == t->node() && c.first->output_index() == t->output_index())
      return c.second;
  Node* ph = g.add_placeholder(t->dtype(), t->shape(), t->node()->name);
  if (t->output_index() == 0) ph->handle_value = t->node()->handle_value;
  g.captures.emplace_back(t, ph);
  return ph;
}

}  // namespace

Tensor resource_argument(Graph& g, const Tensor& handle) {
  for (Graph* h = &g; h; h = h->outer) {
    for (auto& a : h->resource_args) {
      if (a.first != handle) continue;
      if (h == &g) return g.output(a.second, 0);
      return g.output(capture_outer(g, h->output(a.second, 0)), 0);
    }
  }
  return Tensor();
}

std::vector<Tensor> graph_execute(Graph& g, const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                                  const std::string& name) {
  std::vector<Endpoint> eps;
  eps.reserve(inputs.size());
  for (const Tensor& t : inputs) {
    if (!t->is_symbolic() && t->dtype() == DType::kResource) {
      if (Tensor arg = resource_argument(g, t)) {
        eps.push_back({arg->node(), arg->output_index()});
        continue;
      }
    }
    if (!t->is_symbolic()) {
      // Resource handles stay Const: the handle is immutable and its variable's shape stays known.
      if (!g.captures_eager_tensors || t->dtype() == DType::kResource) {
        eps.push_back({g.const_node(t), 0});
        continue;
      }
      Node* ph = nullptr;
      for (auto& c : g.captures)
        if (c.first == t) ph = c.second;
      if (!ph) {
        ph = g.add_placeholder(t->dtype(), t->shape(), "Placeholder");
        g.captures.emplace_back(t, ph);
      }
      eps.push_back({ph, 0});
    } else if (t->graph() == &g) {
      eps.push_back({t->node(), t->output_index()});
    } else {
      eps.push_back({capture_outer(g, t), 0});
    }
  }
  Node* n = g.add_node(op, std::move(eps), attrs, name);
  std::vector<Tensor> out;
  out.reserve(n->out_dtypes.size());
  for (size_t i = 0; i < n->out_dtypes.size(); ++i) out.push_back(g.output(n, static_cast<int>(i)));
  return out;
}

}  // namespace ef
