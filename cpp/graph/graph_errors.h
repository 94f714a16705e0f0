// Graph-building errors in TF's Python form: inference errors (dtype mismatches as TypeError,
// shape errors as ValueError naming the node and its input shapes) and out-of-scope tensors.
#pragma once
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/tensor.h"
#include "ops/registry.h"

namespace ef {

// Rethrows `e` (thrown by op.infer for a node being added) as ef::TypeError / ef::ValueError.
// `node_name` is the new node's name, `input_names` its inputs as a NodeDef lists them.
[[noreturn]] void rethrow_infer_error(const OpError& e, const InferContext& ic, const std::string& node_name,
                                      const std::vector<std::string>& input_names);

// TF's TypeError text for a symbolic tensor used outside its graph (a tensor leaked out of a
// tf.function used in another function, or eagerly): "<tf.Tensor 'add:0' ...> is out of scope ...".
std::string out_of_scope_message(const TensorImpl& t);

}  // namespace ef
