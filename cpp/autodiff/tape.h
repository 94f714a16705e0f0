// Gradient tapes: which op calls to record (those reading a watched tensor) and the recorded entries.
// execute() calls record_operation after every op while a tape is active (Context::tape_depth > 0);
// the backward pass is autodiff/backward.h.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/tensor.h"
#include "ops/attrs.h"
#include "ops/registry.h"

namespace ef {

class Graph;
struct Node;

// Identity of a tensor on a tape. Eager tensors: the TensorImpl's address (the tape keeps them
// alive, so addresses are not reused while it lives). Symbolic tensors: their (node, output)
// endpoint, since one endpoint may have several TensorImpl objects. Resource handles: the
// variable state they point to, so every handle of a variable is the same source.
using TensorKey = uintptr_t;
TensorKey tensor_key(const TensorImpl& t);

// One recorded op call: what a gradient function sees (op, inputs, outputs, attrs).
struct TapeEntry {
  const OpDef* op = nullptr;
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;
  Attrs attrs;
  Node* node = nullptr;  // graph mode: the node this call added (its name)
  // tf.custom_gradient: an opaque backward function (a Python callable, owned by the bindings)
  // that replaces the registry lookup; `op` is then null and `custom_name` names the entry.
  std::shared_ptr<void> custom;
  std::string custom_name;
};

class Tape {
 public:
  Tape(bool persistent, bool watch_accessed_variables, Graph* graph)
      : persistent(persistent), watch_accessed_variables(watch_accessed_variables), graph(graph) {}

  void watch(const Tensor& t);           // a tensor, or a variable's resource handle
  bool watching(const Tensor& t) const { return tracked_.count(tensor_key(*t)) != 0; }
  bool tracked(TensorKey k) const { return tracked_.count(k) != 0; }

  // Records `op` if one of its inputs is tracked (or it reads a trainable variable and this tape
  // watches accessed variables). Returns whether it did.
  bool maybe_record(const OpDef& op, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs,
                    const Attrs& attrs, bool& outputs_unique);

  // Records a tf.custom_gradient call (outputs computed from inputs by an unrecorded function) if
  // one of `inputs` is tracked. Returns whether it did.
  bool maybe_record_custom(const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
                           const std::shared_ptr<void>& fn, const std::string& name);

  const std::vector<std::shared_ptr<TapeEntry>>& entries() const { return entries_; }
  // Resource handles of watched variables in the order they were first watched.
  const std::vector<Tensor>& watched_variables() const { return watched_variables_; }

  const bool persistent;
  const bool watch_accessed_variables;
  Graph* const graph;  // the graph whose ops this tape records (null: eager ops)

 private:
  std::unordered_set<TensorKey> tracked_;
  std::vector<Tensor> watched_;  // keeps watched tensors alive (their keys stay unique)
  std::vector<Tensor> watched_variables_;
  std::vector<std::shared_ptr<TapeEntry>> entries_;
};

// The thread's active tapes (innermost last). Pushing/popping keeps Context::tape_depth in step.
void push_tape(std::shared_ptr<Tape> tape);
void pop_tape(const Tape* tape);  // removes `tape` wherever it is in the stack
// tf.GradientTape.stop_recording: suspends every tape of the thread; resume restores them.
void suspend_tapes();
void resume_tapes();

// Called by execute() after an op ran (eager) or was added to `graph`. May replace outputs that
// alias another tensor (Identity, ReadVariableOp) by fresh views so every output has its own key.
void record_operation(const OpDef& op, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs,
                      const Attrs& attrs, Graph* graph);

// Records a custom-gradient call on every active tape of the current graph (or eager) context.
void record_custom_gradient(const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
                            const std::shared_ptr<void>& fn, const std::string& name);

// Variables created with trainable=False are not watched automatically on read.
void set_variable_trainable(const Tensor& handle, bool trainable);

}  // namespace ef
