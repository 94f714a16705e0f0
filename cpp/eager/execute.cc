// Eager dispatch: pick the kernel for the context's device, run it, tag errors with the op.
#include "eager/execute.h"

#include "core/errors.h"
#include "eager/check_numerics.h"
#include "eager/context.h"
#include "eager/execute_hooks.h"
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

namespace {

DeviceType thread_device_type() { return thread_context().device.type; }

// Kernel selection below eager (ops/run_kernel.h) reads the thread's device through this.
[[maybe_unused]] const bool device_registered = (set_current_device_fn(&thread_device_type), true);

// Hooks of the layers above eager (execute_hooks.h); Internal when one is not linked in.
[[noreturn]] void missing_hook(const char* what) {
  throw_error(Code::kInternal, what, " is not registered (its layer is not linked in)");
}

void record_on_tapes(const OpDef& op, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs,
                     const Attrs& attrs, Graph* graph) {
  const RecordOperationFn record = execute_hooks().record_operation;
  if (!record) missing_hook("Tape recording");
  record(op, inputs, outputs, attrs, graph);
}

}  // namespace

std::vector<Tensor> execute(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                            const std::string& name) {
  Context& ctx = thread_context();
  if (ctx.graph) {
    const GraphExecuteFn graph_execute = execute_hooks().graph_execute;
    if (!graph_execute) missing_hook("Graph building");
    std::vector<Tensor> out = graph_execute(*ctx.graph, op, inputs, attrs, name);
    if (ctx.tape_depth > 0) record_on_tapes(op, inputs, out, attrs, ctx.graph);  // a tape inside tf.function
    return out;
  }
  for (const Tensor& t : inputs) {
    if (t->is_symbolic()) {
      const OutOfScopeMessageFn message = execute_hooks().out_of_scope_message;
      if (!message) missing_hook("Graph building");
      throw TypeError(message(*t));  // a graph tensor leaked out of its graph
    }
  }
  try {
    check_signature(op, inputs, attrs);
  } catch (const OpError& e) {
    rethrow_tagged(op, e);
  }
  std::vector<Tensor> out = run_kernel(op, select_kernel(op, ctx.device.type), inputs, attrs);
  if (check_numerics_enabled()) check_numerics_eager(op, inputs, out);  // tf.debugging.enable_check_numerics
  if (ctx.tape_depth > 0) record_on_tapes(op, inputs, out, attrs, nullptr);  // tf.GradientTape
  return out;
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
