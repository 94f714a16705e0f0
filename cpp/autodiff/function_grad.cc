// Implicit variable inputs of functional ops, and inlining a GraphFunction through execute().
#include "autodiff/function_grad.h"

#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "autodiff/tape.h"
#include "core/errors.h"
#include "eager/context.h"
#include "eager/execute.h"
#include "graph/function.h"
#include "graph/graph.h"

namespace ef {

namespace {

struct HandleCacheEntry {
  std::weak_ptr<GraphFunction> fn;  // the address may be reused once the function is gone
  std::vector<Tensor> handles;
};

std::mutex g_handles_mu;
std::unordered_map<const GraphFunction*, HandleCacheEntry> g_handles;

void collect(const GraphFunction& f, std::unordered_set<TensorKey>& seen, std::vector<Tensor>& out,
             std::unordered_set<const GraphFunction*>& visiting);

void collect_attrs(const Attrs& attrs, std::unordered_set<TensorKey>& seen, std::vector<Tensor>& out,
                   std::unordered_set<const GraphFunction*>& visiting) {
  for (const auto& kv : attrs.items()) {
    if (const FunctionPtr* fp = std::get_if<FunctionPtr>(&kv.second)) {
      if (*fp) collect(**fp, seen, out, visiting);
    }
  }
}

void collect(const GraphFunction& f, std::unordered_set<TensorKey>& seen, std::vector<Tensor>& out,
             std::unordered_set<const GraphFunction*>& visiting) {
  if (!visiting.insert(&f).second) return;
  for (const auto& n : f.graph->nodes()) {
    if (n->type() == "Const") {
      const AttrValue* v = n->attrs.find("value");
      const Tensor* t = v ? std::get_if<Tensor>(v) : nullptr;
      if (t && *t && (*t)->dtype() == DType::kResource && !(*t)->is_symbolic()) {
        if (seen.insert(tensor_key(**t)).second) out.push_back(*t);
      }
    } else if (n->op->runs_functions) {
      collect_attrs(n->attrs, seen, out, visiting);
    }
  }
}

const std::vector<Tensor>& handles_of(const FunctionPtr& f) {
  std::lock_guard<std::mutex> lock(g_handles_mu);
  auto it = g_handles.find(f.get());
  if (it != g_handles.end()) {
    if (it->second.fn.lock() == f) return it->second.handles;
    g_handles.erase(it);
  }
  if (g_handles.size() > 1024) {  // drop entries of functions that are gone
    for (auto i = g_handles.begin(); i != g_handles.end();) i = i->second.fn.expired() ? g_handles.erase(i) : std::next(i);
  }
  std::unordered_set<TensorKey> seen;
  std::unordered_set<const GraphFunction*> visiting;
  HandleCacheEntry e;
  e.fn = f;
  collect(*f, seen, e.handles, visiting);
  return g_handles.emplace(f.get(), std::move(e)).first->second.handles;
}

}  // namespace

const std::vector<Tensor>& implicit_resource_inputs(const Attrs& attrs) {
  static const std::vector<Tensor> kNone;
  const FunctionPtr* first = nullptr;
  int count = 0;
  for (const auto& kv : attrs.items()) {
    if (const FunctionPtr* fp = std::get_if<FunctionPtr>(&kv.second)) {
      if (*fp) {
        if (!first) first = fp;
        ++count;
      }
    }
  }
  if (count == 0) return kNone;
  if (count == 1) return handles_of(*first);
  // Several functions (If branches, While cond and body): the union, in attr order. Kept per
  // first function together with the others' addresses.
  thread_local std::vector<Tensor> merged;
  merged.clear();
  std::unordered_set<TensorKey> seen;
  for (const auto& kv : attrs.items()) {
    if (const FunctionPtr* fp = std::get_if<FunctionPtr>(&kv.second)) {
      if (!*fp) continue;
      for (const Tensor& h : handles_of(*fp))
        if (seen.insert(tensor_key(*h)).second) merged.push_back(h);
    }
  }
  return merged;
}

namespace {

// The nodes of f that its outputs need over data edges (stopping at its inputs), and each input
// placeholder's argument position.
void data_ancestors(const GraphFunction& f, size_t nargs, std::vector<char>& needed, std::vector<int>& input_pos) {
  if (nargs != f.inputs.size())
    throw ValueError(str_cat("inline_function: ", f.name, " takes ", f.inputs.size(), " inputs, got ", nargs));
  const size_t n = f.graph->nodes().size();
  needed.assign(n, 0);
  input_pos.assign(n, -1);
  for (size_t i = 0; i < f.inputs.size(); ++i) input_pos[f.inputs[i]->id] = static_cast<int>(i);
  std::vector<const Node*> stack;
  for (const Endpoint& e : f.outputs) stack.push_back(e.node);
  while (!stack.empty()) {
    const Node* nd = stack.back();
    stack.pop_back();
    if (needed[nd->id]) continue;
    needed[nd->id] = 1;
    if (input_pos[nd->id] >= 0) continue;
    for (const Endpoint& e : nd->inputs) stack.push_back(e.node);
  }
}

// Walks f's needed nodes in order: inputs take `args`, Consts their value, every other node
// `make(node, inputs)`. Returns the values of f's outputs.
template <class Make>
std::vector<Tensor> walk(const GraphFunction& f, const std::vector<Tensor>& args, Make make) {
  std::vector<char> needed;
  std::vector<int> input_pos;
  data_ancestors(f, args.size(), needed, input_pos);
  const Graph& g = *f.graph;
  std::vector<std::vector<Tensor>> values(g.nodes().size());
  std::vector<Tensor> ins;
  for (const auto& node : g.nodes()) {  // node ids are a topological order
    const Node& nd = *node;
    if (!needed[nd.id]) continue;
    if (input_pos[nd.id] >= 0) {
      values[nd.id] = {args[input_pos[nd.id]]};
      continue;
    }
    if (nd.type() == "Const") {
      values[nd.id] = {nd.attrs.get<Tensor>("value")};
      continue;
    }
    if (nd.type() == "Placeholder")
      throw_error(Code::kInvalidArgument, "inline_function: placeholder ", nd.name, " of ", f.name, " is not an input");
    ins.clear();
    for (const Endpoint& e : nd.inputs) ins.push_back(values[e.node->id].at(static_cast<size_t>(e.index)));
    values[nd.id] = make(nd, ins);
  }
  std::vector<Tensor> out;
  out.reserve(f.outputs.size());
  for (const Endpoint& e : f.outputs) out.push_back(values[e.node->id].at(static_cast<size_t>(e.index)));
  return out;
}

}  // namespace

std::vector<Tensor> inline_function(const GraphFunction& f, const std::vector<Tensor>& args) {
  return walk(f, args, [](const Node& nd, const std::vector<Tensor>& ins) {
    return execute(*nd.op, ins, nd.attrs, nd.name);
  });
}

Replay replay_function(const GraphFunction& f, const std::vector<Tensor>& args) {
  Graph* g = thread_context().graph;
  if (!g) throw ValueError("replay_function needs a graph being built");
  Replay r;
  r.outputs = walk(f, args, [&](const Node& nd, const std::vector<Tensor>& ins) {
    std::vector<Tensor> outs;
    for (size_t i = 0; i < nd.out_dtypes.size(); ++i) {
      Node* ph = g->add_placeholder(nd.out_dtypes[i], nd.out_shapes[i], "Placeholder");
      outs.push_back(g->output(ph, 0));
      r.placeholders.push_back(outs.back());
      r.endpoints.push_back(f.graph->output(const_cast<Node*>(&nd), static_cast<int>(i)));
    }
    record_operation(*nd.op, ins, outs, nd.attrs, g);
    return outs;
  });
  return r;
}

}  // namespace ef
