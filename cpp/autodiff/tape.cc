// Tape recording: tracked-tensor sets, the thread's tape stack, and the execute() hook.
#include "autodiff/tape.h"

#include "autodiff/function_grad.h"

#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "core/errors.h"
#include "eager/context.h"
#include "graph/graph.h"

namespace ef {

TensorKey tensor_key(const TensorImpl& t) {
  if (t.is_symbolic()) {
    // User-space addresses fit in 48 bits: the output index goes above them.
    return reinterpret_cast<TensorKey>(t.node()) ^ (static_cast<TensorKey>(t.output_index()) << 48);
  }
  if (t.dtype() == DType::kResource) {
    void* state = t.resource<void>();
    if (state) return reinterpret_cast<TensorKey>(state);
  }
  return reinterpret_cast<TensorKey>(&t);
}

namespace {

struct TapeStack {
  std::vector<std::shared_ptr<Tape>> active;
  std::vector<std::vector<std::shared_ptr<Tape>>> suspended;  // stop_recording() scopes
};

TapeStack& tape_stack() {
  thread_local TapeStack s;
  return s;
}

void sync_depth() { thread_context().tape_depth = static_cast<int>(tape_stack().active.size()); }

// Non-trainable variables by state address (rewritten at every variable creation, so a reused
// address gets its new variable's flag).
std::mutex g_trainable_mu;
std::unordered_set<const void*> g_non_trainable;

bool variable_trainable(const Tensor& handle) {
  if (handle->dtype() != DType::kResource) return false;
  if (handle->is_symbolic()) {  // a variable argument's placeholder: as the variables of its spec
    const Tensor& like = handle->output_index() == 0 ? handle->node()->handle_value : Tensor();
    return like && !like->is_symbolic() && variable_trainable(like);
  }
  std::lock_guard<std::mutex> lock(g_trainable_mu);
  return g_non_trainable.count(handle->resource<void>()) == 0;
}

const OpDef* read_variable_op() {
  static const OpDef* op = &get_op("ReadVariableOp");
  return op;
}

bool numeric(DType d) { return d != DType::kString && d != DType::kResource && d != DType::kVariant; }

// Gives every output its own identity: a kernel may return an input (Identity) or a tensor held
// elsewhere (a variable's value); such outputs become fresh views of the same data.
void make_unique_outputs(std::vector<Tensor>& outputs) {
  for (Tensor& t : outputs) {
    if (t && !t->is_symbolic() && t.use_count() > 1 && numeric(t->dtype())) t = t->with_shape(t->shape());
  }
}

}  // namespace

void Tape::watch(const Tensor& t) {
  TensorKey k = tensor_key(*t);
  if (!tracked_.insert(k).second) return;
  watched_.push_back(t);
  if (t->dtype() == DType::kResource) watched_variables_.push_back(t);
}

bool Tape::maybe_record(const OpDef& op, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs,
                        const Attrs& attrs, bool& outputs_unique) {
  bool hit = false;
  for (const Tensor& t : inputs) {
    if (tracked_.count(tensor_key(*t))) {
      hit = true;
      break;
    }
  }
  if (!hit && watch_accessed_variables && &op == read_variable_op() && inputs.size() == 1 &&
      variable_trainable(inputs[0])) {
    watch(inputs[0]);
    hit = true;
  }
  // Calls, If and While: the variables their functions read are extra inputs of the entry (a
  // graph holds them as Consts), watched like a ReadVariableOp's when this tape watches accesses;
  // only the watched ones are appended.
  std::vector<Tensor> with_implicit;
  if (op.runs_functions) {
    // Variables passed to the function as arguments: watched as their reads would be.
    for (const Tensor& t : inputs) {
      if (t->dtype() != DType::kResource) continue;
      if (watch_accessed_variables && variable_trainable(t)) watch(t);
      hit = hit || tracked_.count(tensor_key(*t)) != 0;
    }
    const std::vector<Tensor>& extra = implicit_resource_inputs(attrs);
    if (!extra.empty()) {
      for (const Tensor& h : extra) {
        if (watch_accessed_variables && variable_trainable(h)) watch(h);
        if (!tracked_.count(tensor_key(*h))) continue;  // unwatched variables get no gradient (as in TF)
        if (with_implicit.empty()) with_implicit = inputs;
        with_implicit.push_back(h);
        hit = true;
      }
    }
  }
  if (!hit) return false;
  if (!outputs_unique) {
    make_unique_outputs(outputs);
    outputs_unique = true;
  }
  auto e = std::make_shared<TapeEntry>();
  e->op = &op;
  e->inputs = with_implicit.empty() ? inputs : std::move(with_implicit);
  e->outputs = outputs;
  e->attrs = attrs;
  if (graph && !outputs.empty() && outputs[0]->is_symbolic()) e->node = outputs[0]->node();
  for (const Tensor& t : outputs) tracked_.insert(tensor_key(*t));
  entries_.push_back(std::move(e));
  return true;
}

bool Tape::maybe_record_custom(const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
                               const std::shared_ptr<void>& fn, const std::string& name) {
  bool hit = false;
  for (const Tensor& t : inputs) {
    // The variables the function read (with recording off) are watched as a read would watch them.
    if (t->dtype() == DType::kResource && watch_accessed_variables && variable_trainable(t)) watch(t);
    hit = hit || tracked_.count(tensor_key(*t)) != 0;
  }
  if (!hit) return false;
  auto e = std::make_shared<TapeEntry>();
  e->inputs = inputs;
  e->outputs = outputs;
  e->custom = fn;
  e->custom_name = name;
  if (graph && !outputs.empty() && outputs[0]->is_symbolic()) e->node = outputs[0]->node();
  for (const Tensor& t : outputs) tracked_.insert(tensor_key(*t));
  entries_.push_back(std::move(e));
  return true;
}

void push_tape(std::shared_ptr<Tape> tape) {
  tape_stack().active.push_back(std::move(tape));
  sync_depth();
}

void pop_tape(const Tape* tape) {
  auto& a = tape_stack().active;
  for (auto it = a.end(); it != a.begin();) {
    --it;
    if (it->get() == tape) {
      a.erase(it);
      break;
    }
  }
  sync_depth();
}

void suspend_tapes() {
  TapeStack& s = tape_stack();
  s.suspended.push_back(std::move(s.active));
  s.active.clear();
  sync_depth();
}

void resume_tapes() {
  TapeStack& s = tape_stack();
  if (s.suspended.empty()) return;
  // Tapes entered inside the suspended scope stay (innermost last).
  std::vector<std::shared_ptr<Tape>> inner = std::move(s.active);
  s.active = std::move(s.suspended.back());
  s.suspended.pop_back();
  for (auto& t : inner) s.active.push_back(std::move(t));
  sync_depth();
}

void record_operation(const OpDef& op, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs,
                      const Attrs& attrs, Graph* graph) {
  bool unique = graph != nullptr;  // symbolic outputs are always fresh endpoints
  for (auto& tape : tape_stack().active) {
    if (tape->graph == graph) tape->maybe_record(op, inputs, outputs, attrs, unique);
  }
}

void record_custom_gradient(const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
                            const std::shared_ptr<void>& fn, const std::string& name) {
  Graph* graph = thread_context().graph;
  for (auto& tape : tape_stack().active) {
    if (tape->graph == graph) tape->maybe_record_custom(inputs, outputs, fn, name);
  }
}

void set_variable_trainable(const Tensor& handle, bool trainable) {
  if (handle->dtype() != DType::kResource) throw TypeError("set_variable_trainable expects a resource handle");
  std::lock_guard<std::mutex> lock(g_trainable_mu);
  if (trainable) {
    g_non_trainable.erase(handle->resource<void>());
  } else {
    g_non_trainable.insert(handle->resource<void>());
  }
}

}  // namespace ef
