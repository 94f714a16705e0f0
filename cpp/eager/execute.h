// execute(op, inputs, attrs): the ONE dispatch entry for every op call. Eager mode runs the
// kernel now; graph mode and tape recording hook in here (see docs/architecture.md).
#pragma once
#include <vector>

#include "core/tensor.h"
#include "ops/attrs.h"
#include "ops/registry.h"
#include "ops/run_kernel.h"  // run_kernel, select_kernel: kernel calls below eager

namespace ef {

// `name` names the graph node in graph mode (default: the op type); eager mode ignores it.
std::vector<Tensor> execute(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                            const std::string& name = std::string());

// Single-output convenience used by the binding fast paths.
Tensor execute1(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                const std::string& name = std::string());

// Runs shape/dtype inference for `op` on concrete inputs (tests compare it with kernels).
InferContext infer(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs);

}  // namespace ef
