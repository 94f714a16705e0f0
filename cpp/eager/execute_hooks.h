// How execute() reaches the layers above eager: graph/ registers graph building (tf.function,
// tf.Graph) and autodiff/ tape recording, each at static-init time (graph/graph_hooks.cc,
// autodiff/tape_hooks.cc).
#pragma once
#include <string>
#include <vector>

#include "core/tensor.h"
#include "ops/attrs.h"
#include "ops/registry.h"

namespace ef {

class Graph;

// Graph-mode half of execute(): adds a node for `op` to `g` and returns symbolic outputs.
using GraphExecuteFn = std::vector<Tensor> (*)(Graph& g, const OpDef& op, const std::vector<Tensor>& inputs,
                                               const Attrs& attrs, const std::string& name);
// TF's TypeError text for a symbolic tensor used eagerly (it leaked out of its graph).
using OutOfScopeMessageFn = std::string (*)(const TensorImpl& t);
// Records an op that ran (eager, `graph` null) or was added to `graph` on the active tapes; may
// replace outputs that alias another tensor by fresh views.
using RecordOperationFn = void (*)(const OpDef& op, const std::vector<Tensor>& inputs,
                                   std::vector<Tensor>& outputs, const Attrs& attrs, Graph* graph);

struct ExecuteHooks {
  GraphExecuteFn graph_execute = nullptr;              // graph/
  OutOfScopeMessageFn out_of_scope_message = nullptr;  // graph/
  RecordOperationFn record_operation = nullptr;        // autodiff/
};

// A function-local static: registrations in other files' static init find it constructed.
ExecuteHooks& execute_hooks();

}  // namespace ef
