// Elementwise fusion: chains of elementwise ops (unary and binary, one dtype, one fully known
// shape, operands of that shape or scalars) become one _FusedElementwise node whose kernel runs
// the whole chain block by block (kernels/cpu/fused_elementwise.cc). Values of the chain that
// are fetched or used by other nodes are outputs of the fused node.
#include <unordered_map>

#include "core/errors.h"
#include "eager/context.h"
#include "graph/passes/passes.h"
#include "kernels/cpu/elementwise_blocks.h"

namespace ef {
namespace {

struct Group {
  std::vector<Node*> members;  // in id order
  int min_id = 0, max_id = 0;
  DType dtype = DType::kInvalid;
  Shape shape;
};

// The block op id of a node that can join a fused chain, or -1.
int fusable(const Node& nd, const std::vector<char>& fed) {
  if (!nd.op->elementwise || nd.op->stateful || fed[nd.id] || !nd.control_inputs.empty()) return -1;
  if (nd.out_dtypes.size() != 1) return -1;
  const DType t = nd.out_dtypes[0];
  const Shape& s = nd.out_shapes[0];
  if (!block_dtype_supported(t) || !s.fully_defined() || s.num_elements() <= 0) return -1;
  if (!has_elementwise_block(nd.op->name, t)) return -1;
  const int id = elementwise_block_id(nd.op->name);
  if (static_cast<size_t>(elementwise_block(id).arity) != nd.inputs.size()) return -1;
  for (const Endpoint& e : nd.inputs) {
    if (e.node->out_dtypes[e.index] != t) return -1;
    const Shape& is = e.node->out_shapes[e.index];
    if (!(is == s) && !(is.fully_defined() && is.num_elements() == 1)) return -1;
  }
  return id;
}

// Grouping state with the cycle check: a node may join group g only if none of its other
// inputs depends on g, where a node in a group depends on everything any member depends on
// (the groups become single nodes, so that is the dependence that matters).
class Grouper {
 public:
  explicit Grouper(const Graph& g) : group_of_(g.nodes().size(), -1), seen_(g.nodes().size(), 0) {}

  std::vector<Group> groups;
  int group_of(const Node* n) const { return group_of_[n->id]; }

  void add(Node* n, int gid) {
    if (gid < 0) {
      gid = static_cast<int>(groups.size());
      groups.emplace_back();
      groups.back().min_id = n->id;
      groups.back().dtype = n->out_dtypes[0];
      groups.back().shape = n->out_shapes[0];
    }
    Group& g = groups[gid];
    g.members.push_back(n);
    g.max_id = n->id;
    group_of_[n->id] = gid;
  }

  bool depends_on(const Node* start, int gid) {
    ++stamp_;
    group_seen_.resize(groups.size(), 0);
    const int min_id = groups[gid].min_id;
    std::vector<const Node*> stack{start};
    while (!stack.empty()) {
      const Node* x = stack.back();
      stack.pop_back();
      if (seen_[x->id] == stamp_) continue;
      seen_[x->id] = stamp_;
      const int h = group_of_[x->id];
      if (h == gid) return true;
      if (h >= 0) {
        if (group_seen_[h] == stamp_ || groups[h].max_id < min_id) continue;
        group_seen_[h] = stamp_;
        for (const Node* m : groups[h].members) push_inputs(m, stack);
      } else if (x->id > min_id) {
        push_inputs(x, stack);
      }
    }
    return false;
  }

 private:
  static void push_inputs(const Node* n, std::vector<const Node*>& stack) {
    for (const Endpoint& e : n->inputs) stack.push_back(e.node);
    for (const Node* c : n->control_inputs) stack.push_back(c);
  }
  std::vector<int> group_of_;
  std::vector<int> seen_, group_seen_;
  int stamp_ = 0;
};

}  // namespace

bool fuse_elementwise(OptimizedGraph& og) {
  // Fused kernels are CPU kernels: on other devices the unfused device kernels run.
  if (thread_context().device.type != DeviceType::kCPU) return false;
  const Graph& g = *og.graph;
  const size_t n = g.nodes().size();
  const std::vector<char> fed = fed_mask(og);
  std::vector<int> block_id(n, -1);
  Grouper grouper(g);
  for (const auto& up : g.nodes()) {
    Node* nd = up.get();
    block_id[nd->id] = fusable(*nd, fed);
    if (block_id[nd->id] < 0) continue;
    auto can_join = [&](int gid) {
      const Group& grp = grouper.groups[gid];
      if (grp.dtype != nd->out_dtypes[0] || !(grp.shape == nd->out_shapes[0])) return false;
      for (const Endpoint& f : nd->inputs)
        if (grouper.group_of(f.node) != gid && grouper.depends_on(f.node, gid)) return false;
      return true;
    };
    int chosen = -1;
    for (const Endpoint& e : nd->inputs) {
      const int gid = grouper.group_of(e.node);
      if (gid >= 0 && can_join(gid)) {
        chosen = gid;
        break;
      }
    }
    // A node that continues no group (tanh(x) beside a chain on x) joins a recent group of its
    // shape all the same: one pass over memory instead of another output and another kernel.
    for (int gid = static_cast<int>(grouper.groups.size()) - 1, tries = 0; chosen < 0 && gid >= 0 && tries < 4;
         --gid, ++tries)
      if (can_join(gid)) chosen = gid;
    grouper.add(nd, chosen);
  }

  // Who needs each member's value outside its group.
  const auto uses = consumers(g);
  std::vector<char> external(n, 0), is_target(n, 0);
  for (const Endpoint& e : og.fetches) external[e.node->id] = 1;
  for (const Node* t : og.targets) external[t->id] = is_target[t->id] = 1;
  for (size_t i = 0; i < n; ++i)
    for (const auto& use : uses[i])
      if (grouper.group_of(use.first) != grouper.group_of(g.nodes()[i].get()) || grouper.group_of(use.first) < 0)
        external[i] = 1;

  const OpDef& fused_op = get_op("_FusedElementwise");
  std::vector<Endpoint> moved(n);  // member -> (fused node, output index)
  std::vector<char> dead(n, 0);
  bool changed = false;
  for (Group& grp : grouper.groups) {
    if (grp.members.size() < 2) continue;
    std::vector<Endpoint> ext;
    std::vector<int64_t> program, outputs;
    std::vector<std::string> ops;
    std::unordered_map<const Node*, int> value_of;  // member -> value number, after the inputs
    std::vector<std::pair<const Node*, int>> ext_index;
    auto operand = [&](const Endpoint& e) -> int64_t {
      if (grouper.group_of(e.node) == grouper.group_of(grp.members[0])) return -1 - value_of.at(e.node);
      for (size_t i = 0; i < ext.size(); ++i)
        if (ext[i] == e) return static_cast<int64_t>(i);
      ext.push_back(e);
      return static_cast<int64_t>(ext.size() - 1);
    };
    // First pass with members encoded as -1 - j; the input count is known only at the end.
    for (size_t j = 0; j < grp.members.size(); ++j) {
      const Node* m = grp.members[j];
      program.push_back(block_id[m->id]);
      program.push_back(operand(m->inputs[0]));
      program.push_back(m->inputs.size() > 1 ? operand(m->inputs[1]) : INT64_MIN);
      ops.push_back(m->op->name);
      value_of[m] = static_cast<int>(j);
    }
    const int64_t k = static_cast<int64_t>(ext.size());
    for (size_t i = 0; i < program.size(); i += 3)
      for (size_t s = i + 1; s < i + 3; ++s) {
        if (program[s] == INT64_MIN) program[s] = -1;
        else if (program[s] < 0) program[s] = k + (-1 - program[s]);
      }
    Node* tail = grp.members.back();
    for (size_t j = 0; j < grp.members.size(); ++j) {
      const Node* m = grp.members[j];
      if (!external[m->id]) continue;
      moved[m->id] = {tail, static_cast<int>(outputs.size())};
      outputs.push_back(k + static_cast<int64_t>(j));
    }
    if (outputs.empty()) {  // nothing uses the chain (pruning is off): leave it
      for (const Node* m : grp.members) moved[m->id] = {};
      continue;
    }
    for (Node* m : grp.members)
      if (m != tail) dead[m->id] = 1;
    Attrs a;
    a.set("T", grp.dtype);
    a.set("shape", grp.shape);
    a.set("program", program);
    a.set("outputs", outputs);
    a.set("ops", ops);
    tail->op = &fused_op;
    tail->inputs = ext;
    tail->attrs = std::move(a);
    tail->out_dtypes.assign(outputs.size(), grp.dtype);
    tail->out_shapes.assign(outputs.size(), grp.shape);
    changed = true;
  }
  if (!changed) return false;
  // Everything that read a member's value now reads the fused node's output for it.
  auto remap = [&](Endpoint& e) {
    if (moved[e.node->id].node) e = moved[e.node->id];
  };
  for (const auto& up : g.nodes())
    if (!dead[up->id])
      for (Endpoint& e : up->inputs) remap(e);
  for (Endpoint& e : og.fetches) remap(e);
  for (Node*& t : og.targets)
    if (moved[t->id].node) t = moved[t->id].node;
  rebuild(og, dead);
  return true;
}

}  // namespace ef
