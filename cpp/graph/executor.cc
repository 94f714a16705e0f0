// Plan construction (reachability, order, slots, lifetimes) and the run loop.
#include "graph/executor.h"

#include <algorithm>
#include <unordered_map>

#include "core/buffer_pool.h"
#include "core/errors.h"
#include "eager/execute.h"
#include "graph/graph_check_numerics.h"
#include "graph/passes/optimize.h"

namespace ef {

Plan::Plan(const Graph& original, const std::vector<Node*>& orig_feeds, const std::vector<Endpoint>& orig_fetches,
           const std::vector<Node*>& orig_targets) {
  OptimizedGraph opt = optimize(original, orig_feeds, orig_fetches, orig_targets, optimizer_options());
  optimized_ = opt.graph;
  memory_planning_ = optimizer_options().memory_planning;
  const Graph& g = *optimized_;
  const std::vector<Node*>& feeds = opt.feeds;
  const std::vector<Endpoint>& fetches = opt.fetches;
  const std::vector<Node*>& targets = opt.targets;
  // Reachability, backwards over data and control edges; fed placeholders stop the walk.
  const size_t n = g.nodes().size();
  std::vector<char> needed = needed_nodes(g, feeds, fetches, targets), fed(n, 0);
  for (Node* f : feeds) fed[f->id] = 1;
  // Slots: one per needed (node, output). Node ids are already a topological order.
  std::unordered_map<const Node*, int> first_slot;
  for (const auto& up : g.nodes()) {
    const Node* nd = up.get();
    if (!needed[nd->id]) continue;
    first_slot[nd] = num_slots_;
    num_slots_ += static_cast<int>(nd->out_dtypes.size());
  }
  auto slot_of = [&](const Endpoint& e) { return first_slot.at(e.node) + e.index; };
  for (Node* f : feeds) {
    feed_slots_.push_back(first_slot.at(f));
    feed_dtypes_.push_back(f->out_dtypes[0]);
    feed_shapes_.push_back(f->out_shapes[0]);
    feed_names_.push_back(f->name);
  }
  std::vector<int> last_reader(num_slots_, -1);
  for (const auto& up : g.nodes()) {
    const Node* nd = up.get();
    if (!needed[nd->id] || fed[nd->id]) continue;
    if (nd->op->name == "Const") {
      consts_.emplace_back(first_slot[nd], nd->attrs.get<Tensor>("value"));
      continue;
    }
    if (nd->op->name == "Placeholder") {
      throw_error(Code::kInvalidArgument, "You must feed a value for placeholder tensor '", nd->name,
                  "' with dtype ", tf_type_string(nd->out_dtypes[0]));
    }
    Step s;
    s.node = nd;
    s.kernel = select_kernel(*nd->op);
    for (const Endpoint& e : nd->inputs) {
      s.in.push_back(slot_of(e));
      last_reader[slot_of(e)] = static_cast<int>(steps_.size());
    }
    for (size_t i = 0; i < nd->out_dtypes.size(); ++i) s.out.push_back(first_slot[nd] + static_cast<int>(i));
    steps_.push_back(std::move(s));
  }
  for (const Endpoint& e : fetches) {
    fetch_slots_.push_back(slot_of(e));
    last_reader[slot_of(e)] = -1;  // fetched values live to the end
  }
  for (auto& c : consts_) last_reader[c.first] = -1;
  for (int slot = 0; slot < num_slots_; ++slot)
    if (last_reader[slot] >= 0) steps_[last_reader[slot]].release.push_back(slot);
  // After a run: a fetched slot fetched once (and not a constant) is moved out; every other
  // non-constant slot still holding a value is reset, so a workspace keeps only constants.
  std::vector<char> is_const(num_slots_, 0);
  for (auto& c : consts_) is_const[c.first] = 1;
  for (size_t i = 0; i < fetch_slots_.size(); ++i) {
    const int f = fetch_slots_[i];
    bool unique = !is_const[f];
    for (size_t j = 0; j < fetch_slots_.size(); ++j) unique &= j == i || fetch_slots_[j] != f;
    fetch_move_.push_back(unique ? 1 : 0);
  }
  for (int slot = 0; slot < num_slots_; ++slot)
    if (!is_const[slot] && last_reader[slot] < 0) cleanup_slots_.push_back(slot);
  finish_steps();
}

void Plan::finish_steps() {
  for (Step& s : steps_) {
    s.consume.assign(s.in.size(), 0);
    std::vector<int> keep;
    for (int r : s.release) {
      int uses = 0, at = -1;
      for (size_t k = 0; k < s.in.size(); ++k)
        if (s.in[k] == r) ++uses, at = static_cast<int>(k);
      if (uses == 1) {
        s.consume[at] = 1;  // moved into the kernel's inputs; dropped (recycled) after the kernel
      } else {
        keep.push_back(r);
      }
    }
    s.release = std::move(keep);
  }
  constexpr size_t kLightSteps = 32;
  constexpr int64_t kLightElements = 16384;
  light_ = steps_.size() <= kLightSteps;
  for (const Step& s : steps_) {
    const OpDef& op = *s.node->op;
    if (!(op.elementwise || op.name == "Identity") || op.stateful) light_ = false;
    for (const Shape& sh : s.node->out_shapes) {
      const int64_t n = sh.num_elements();  // -1 when not fully known
      if (n < 0 || n > kLightElements) light_ = false;
    }
  }
}

// A kernel that returns a lent input as its output (a no-op cast, or an output forwarded into a
// consumed input's memory: KernelContext::allocate_output) gets the owning pointer.
void Plan::own_passed_through_inputs(const Step& s, const std::vector<Tensor>& slots, std::vector<Tensor>& inputs,
                                     std::vector<Tensor>& out) {
  for (Tensor& o : out) {
    if (!o || o.use_count() != 0) continue;
    bool found = false;
    for (size_t k = 0; k < inputs.size() && !found; ++k) {
      if (s.consume[k] && inputs[k].get() == o.get() && inputs[k].use_count() == 1) {
        o = std::move(inputs[k]);  // the step consumed this input: its only owner moves on
        found = true;
      }
    }
    if (found) continue;
    for (int slot : s.in) {
      if (slots[slot].get() == o.get()) {
        o = slots[slot];
        found = true;
        break;
      }
    }
    if (!found) throw_error(Code::kInternal, "kernel ", s.node->op->name, " kept a borrowed input");
  }
}

std::vector<Tensor> Plan::run(std::vector<Tensor> feeds) const {
  std::vector<Tensor> result;
  Workspace ws;
  run(feeds, ws, result);
  return result;
}

void Plan::run(std::vector<Tensor>& feeds, Workspace& ws, std::vector<Tensor>& result) const {
  if (feeds.size() != feed_slots_.size())
    throw_error(Code::kInvalidArgument, "Expected ", feed_slots_.size(), " inputs, got ", feeds.size());
  std::vector<Tensor>& slots = ws.slots;
  if (ws.loaded != this) {  // constants stay in a workspace's slots across runs of its plan
    slots.assign(num_slots_, Tensor());
    for (const auto& c : consts_) slots[c.first] = c.second;
    ws.loaded = this;
  }
  for (size_t i = 0; i < feeds.size(); ++i) {
    Tensor& t = feeds[i];
    if (!t || t->is_symbolic())
      throw TypeError(str_cat("Plan input #", i, " must be a concrete (eager) tensor, got a symbolic tensor ",
                              t ? symbolic_repr(*t) : std::string("(null)")));
    if (t->dtype() != feed_dtypes_[i]) {
      const std::string fn = "__inference_" + (optimized_->name.empty() ? std::string("function") : optimized_->name);
      throw_error(Code::kInvalidArgument, "cannot compute ", fn, " as input #", i, "(zero-based) was expected to be a ",
                  tf_type_string(feed_dtypes_[i]), " tensor but is a ", tf_type_string(t->dtype()),
                  " tensor [Op:", fn, "]");
    }
    slots[feed_slots_[i]] = std::move(t);
  }
  // Buffers whose last reader has run go to the pool; later outputs of the same size take them.
  BufferPool& pool = ws.pool;
  BufferPoolScope pool_scope(memory_planning_ ? &pool : nullptr);
  std::vector<Tensor>& inputs = ws.inputs;
  std::vector<Tensor>& out = ws.out;
  inputs.clear();
  for (const Step& s : steps_) {
    const size_t nin = s.in.size();
    // Elementwise kernels only read their inputs during the call, so inputs that stay in their
    // slots are lent as non-owning pointers: no reference-count traffic per step.
    const bool lend = s.node->op->elementwise;
    for (size_t k = 0; k < nin; ++k) {
      Tensor& slot = slots[s.in[k]];
      if (s.consume[k]) {
        inputs.push_back(std::move(slot));
      } else if (lend) {
        inputs.emplace_back(Tensor(), slot.get());
      } else {
        inputs.push_back(slot);
      }
    }
    try {
      run_kernel_into(*s.node->op, s.kernel, inputs, s.node->attrs, out, memory_planning_);
      if (check_numerics_enabled()) check_numerics_graph(*s.node, out);  // tf.debugging.enable_check_numerics
    } catch (const OpError& e) {
      inputs.clear();
      ws.loaded = nullptr;  // slots hold partial state: reload on the next run
      throw OpError(e.code(), str_cat(e.what(), "\n\t [[{{node ", s.node->name, "}}]]"));
    }
    if (lend) own_passed_through_inputs(s, slots, inputs, out);
    const size_t nout = std::min(s.out.size(), out.size());
    for (size_t i = 0; i < nout; ++i) slots[s.out[i]] = std::move(out[i]);
    for (size_t k = 0; k < nin; ++k)
      if (s.consume[k] && memory_planning_) pool.recycle(inputs[k]);
    inputs.clear();
    for (int r : s.release) {
      if (memory_planning_) pool.recycle(slots[r]);
      slots[r].reset();
    }
  }
  result.resize(fetch_slots_.size());
  for (size_t i = 0; i < fetch_slots_.size(); ++i) {
    Tensor& f = slots[fetch_slots_[i]];
    if (fetch_move_[i]) result[i] = std::move(f);
    else result[i] = f;
  }
  for (int slot : cleanup_slots_) slots[slot].reset();  // nothing but constants outlives a run
}

std::vector<std::string> Plan::step_names() const {
  std::vector<std::string> names;
  for (const Step& s : steps_) names.push_back(s.node->name);
  return names;
}

}  // namespace ef
