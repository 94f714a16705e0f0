// tf.debugging.enable_check_numerics: a process-wide flag checked after each eager op and each
// graph step; a NaN or Inf in a floating output raises InvalidArgumentError naming the op.
#pragma once
#include <string>
#include <vector>

#include "core/tensor.h"
#include "kernels/cpu/numerics.h"
#include "ops/registry.h"

namespace ef {

// How an eager tensor prints (str(tensor) in Python); set by the bindings.
using TensorStrFn = std::string (*)(const Tensor&);
void set_tensor_str_hook(TensorStrFn fn);

// TF's "!!! Detected Infinity or NaN in output ..." opening of a report (`kind`: "graph" or
// "eagerly-executing").
std::string non_finite_header(const std::string& kind, const std::string& op_name, size_t out_index,
                              size_t num_outputs, const TensorImpl& t);

// Raise if an output of an eagerly executed op is not finite (graph steps: graph_check_numerics.h).
void check_numerics_eager(const OpDef& op, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs);

}  // namespace ef
