// execute(op, inputs, attrs): the ONE dispatch entry for every op call. Eager mode runs the
// kernel now; graph mode and tape recording hook in here (see docs/architecture.md).
#pragma once
#include <vector>

#include "core/tensor.h"
#include "ops/attrs.h"
#include "ops/registry.h"

namespace ef {

// `name` names the graph node in graph mode (default: the op type); eager mode ignores it.
std::vector<Tensor> execute(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                            const std::string& name = std::string());

// Single-output convenience used by the binding fast paths.
Tensor execute1(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                const std::string& name = std::string());

// Runs the op's kernel now (eager mode, and the graph executor's per-node call).
std::vector<Tensor> run_kernel(const OpDef& op, KernelFn kernel, const std::vector<Tensor>& inputs,
                               const Attrs& attrs);
// Same, writing into `outputs` (cleared first; its capacity is reused across calls).
// `may_forward`: the plan executor's steps (KernelContext::may_forward).
void run_kernel_into(const OpDef& op, KernelFn kernel, const std::vector<Tensor>& inputs, const Attrs& attrs,
                     std::vector<Tensor>& outputs, bool may_forward = false);
// The kernel for `op` on the context's device (CPU as the soft-placement fallback).
KernelFn select_kernel(const OpDef& op);

// Runs shape/dtype inference for `op` on concrete inputs (tests compare it with kernels).
InferContext infer(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs);

}  // namespace ef
