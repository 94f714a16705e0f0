// Eager dispatch: pick the kernel for the context's device, run it, tag errors with the op.
#include "eager/execute.h"

#include <new>

#include "autodiff/tape.h"
#include "core/errors.h"
#include "eager/check_numerics.h"
#include "eager/context.h"
#include "graph/graph.h"
#include "graph/graph_errors.h"
#include "ops/signature.h"

namespace ef {

Context& thread_context() {
  thread_local Context ctx;
  return ctx;
}

SeedState& seed_state() {
  static SeedState s;
  return s;
}

KernelFn select_kernel(const OpDef& op) {
  const Context& ctx = thread_context();
  KernelFn k = op.kernels[static_cast<int>(ctx.device.type)];
  if (!k) k = op.kernels[static_cast<int>(DeviceType::kCPU)];  // soft placement, like TF
  if (!k) throw_error(Code::kUnimplemented, "No kernel registered for op ", op.name, op_suffix(op));
  return k;
}

namespace {

[[noreturn]] void rethrow_tagged(const OpDef& op, const OpError& e) {
  std::string msg = e.what();
  if (msg.find("[Op:") == std::string::npos) msg += op_suffix(op);
  throw OpError(e.code(), msg);
}

}  // namespace

std::vector<Tensor> execute(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                            const std::string& name) {
  Context& ctx = thread_context();
  if (ctx.graph) {
    std::vector<Tensor> out = graph_execute(*ctx.graph, op, inputs, attrs, name);
    if (ctx.tape_depth > 0) record_operation(op, inputs, out, attrs, ctx.graph);  // a tape inside tf.function
    return out;
  }
  for (const Tensor& t : inputs) {
    if (t->is_symbolic()) {
      throw TypeError(out_of_scope_message(*t));  // a graph tensor leaked out of its graph
    }
  }
  try {
    check_signature(op, inputs, attrs);
  } catch (const OpError& e) {
    rethrow_tagged(op, e);
  }
  std::vector<Tensor> out = run_kernel(op, select_kernel(op), inputs, attrs);
  if (check_numerics_enabled()) check_numerics_eager(op, inputs, out);  // tf.debugging.enable_check_numerics
  if (ctx.tape_depth > 0) record_operation(op, inputs, out, attrs, nullptr);  // tf.GradientTape
  return out;
}

std::vector<Tensor> run_kernel(const OpDef& op, KernelFn kernel, const std::vector<Tensor>& inputs,
                               const Attrs& attrs) {
  std::vector<Tensor> outputs;
  run_kernel_into(op, kernel, inputs, attrs, outputs);
  return outputs;
}

void run_kernel_into(const OpDef& op, KernelFn kernel, const std::vector<Tensor>& inputs, const Attrs& attrs,
                     std::vector<Tensor>& outputs, bool may_forward) {
  outputs.clear();
  // The kernel fills `outputs` in place: a caller that reuses the vector keeps its capacity, so
  // the executor's steps allocate no vectors.
  KernelContext kc{op, inputs, attrs, std::move(outputs), may_forward};
  try {
    kernel(kc);
  } catch (const OpError& e) {
    rethrow_tagged(op, e);
  } catch (const std::bad_alloc&) {
    throw_error(Code::kResourceExhausted, "OOM when running ", op.name, op_suffix(op));
  }
  outputs = std::move(kc.outputs);
}

Tensor execute1(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs, const std::string& name) {
  std::vector<Tensor> out = execute(op, inputs, attrs, name);
  if (out.size() != 1) throw_error(Code::kInternal, op.name, " returned ", out.size(), " outputs, expected 1");
  return std::move(out[0]);
}

InferContext infer(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs) {
  InferContext ic{op, {}, {}, inputs, attrs, {}, {}};
  for (const Tensor& t : inputs) {
    ic.dtypes.push_back(t->dtype());
    ic.shapes.push_back(t->shape());
  }
  if (!op.infer) throw_error(Code::kUnimplemented, "No shape inference for op ", op.name);
  try {
    check_signature(op, ic.dtypes, attrs);
    op.infer(ic);
  } catch (const OpError& e) {
    rethrow_tagged(op, e);
  }
  return ic;
}

}  // namespace ef
