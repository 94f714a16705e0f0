// Eager dispatch: pick the kernel for the context's device, run it, tag errors with the op.
#include "eager/execute.h"

#include <string>
#include <string_view>
#include <variant>

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

// TF runs an eager op as a function named after the op, the attrs that size its lists (TF's
// number attrs) and the device; its kernel errors start with that function's name.
std::string wrapped_function_node(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                                  const DeviceSpec& device) {
  std::string name = str_cat("{{function_node __wrapped__", op.name);
  // A variadic input of one type attr is sized by TF's number attr N (type lists are not).
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const std::string& in = op.inputs[i];
    if (in.empty() || in.back() != '*' || i >= op.input_types.size() || op.input_types[i].empty()) continue;
    name += str_cat("_N_", inputs.size() - (op.inputs.size() - 1));
    break;
  }
  for (const char* a : {"num_split", "num"}) {
    if (const AttrValue* v = attrs.find(a))
      if (const int64_t* n = std::get_if<int64_t>(v)) name += str_cat("_", a, "_", *n);
  }
  // The ops whose outputs a type list sizes (a dataset op's output_types only describes its element).
  if (op.name == "IteratorGetNext" || op.name == "IteratorGetNextSync" || op.name == "OptionalGetValue") {
    if (const AttrValue* v = attrs.find("output_types")) {
      if (const auto* types = std::get_if<std::vector<DType>>(v)) name += str_cat("_output_types_", types->size());
      if (const auto* ints = std::get_if<std::vector<int64_t>>(v)) name += str_cat("_output_types_", ints->size());
    }
  }
  return str_cat(name, "_device_", device.name(), "}} ");
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
  const KernelFn kernel = select_kernel(op, ctx.device.type);
  std::vector<Tensor> out;
  try {
    out = run_kernel(op, kernel, inputs, attrs);
  } catch (const OpError& e) {
    // Function calls report their graph's node instead; an op run by a kernel keeps the inner name.
    if (op.runs_functions || std::string_view(e.what()).rfind("{{function_node ", 0) == 0) throw;
    throw OpError(e.code(), str_cat(wrapped_function_node(op, inputs, attrs, ctx.device), e.what()));
  }
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
