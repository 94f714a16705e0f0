// Kernels of the functional ops: run the function attrs through the FunctionRuntime that graph/
// registers (kernels/cpu/function_runtime.h).
#include <string>

#include "core/errors.h"
#include "kernels/cpu/function_runtime.h"
#include "kernels/cpu/scalar_loop.h"
#include "ops/registry.h"

namespace ef {
namespace {

const GraphFunction& function_attr(const KernelContext& c, const char* name) {
  FunctionPtr f = c.attrs.get<FunctionPtr>(name);
  if (!f) throw_error(Code::kInvalidArgument, "function attr '", name, "' is empty");
  return *f;
}

// Reads a cond/If predicate like TF: a scalar is its truth value, any other tensor is true
// when it has elements.
bool tensor_truth(const Tensor& t) {
  if (t->rank() != 0) return t->num_elements() > 0;
  switch (t->dtype()) {
    case DType::kBool: return *t->data<bool>();
    case DType::kString: return !t->data<std::string>()->empty();
    case DType::kFloat32: return *t->data<float>() != 0;
    case DType::kFloat64: return *t->data<double>() != 0;
    case DType::kInt32: return *t->data<int32_t>() != 0;
    case DType::kInt64: return *t->data<int64_t>() != 0;
    case DType::kInt16: return *t->data<int16_t>() != 0;
    case DType::kInt8: return *t->data<int8_t>() != 0;
    case DType::kUInt8: return *t->data<uint8_t>() != 0;
    case DType::kFloat16: return static_cast<float>(*t->data<half>()) != 0;
    default:
      throw_error(Code::kInvalidArgument, "The predicate must be a numeric or bool scalar, got ",
                  dtype_name(t->dtype()));
  }
}

void set_outputs(KernelContext& c, std::vector<Tensor>&& out) {
  for (size_t i = 0; i < out.size(); ++i) c.set_output(i, std::move(out[i]));
}

void if_kernel(KernelContext& c) {
  const bool pred = tensor_truth(c.input(0));
  const GraphFunction& f = function_attr(c, pred ? "then_branch" : "else_branch");
  std::vector<Tensor> args(c.inputs.begin() + 1, c.inputs.end());
  set_outputs(c, function_runtime().run(f, std::move(args)));
}

void call_kernel(KernelContext& c) { set_outputs(c, function_runtime().run(function_attr(c, "f"), c.inputs)); }

// The node's compiled ScalarLoop, or a marker that it does not qualify (decided once per node).
struct ScalarLoopCache {
  std::shared_ptr<ScalarLoop> loop;
};

void while_kernel(KernelContext& c) {
  const FunctionRuntime& runtime = function_runtime();
  const GraphFunction& cond_fn = function_attr(c, "cond");
  auto* cache = static_cast<const ScalarLoopCache*>(c.attrs.kernel_cache());
  if (!cache) {
    auto fresh = std::make_shared<ScalarLoopCache>();
    if (runtime.loop_optimization()) fresh->loop = runtime.compile_scalar_loop(cond_fn, function_attr(c, "body"));
    cache = static_cast<const ScalarLoopCache*>(c.attrs.set_kernel_cache(fresh));
  }
  if (cache->loop) {
    std::vector<Tensor> out;
    if (cache->loop->run(c.inputs, out)) {
      set_outputs(c, std::move(out));
      return;
    }
  }
  // Runners keep scratch across iterations: a small loop allocates nothing per iteration but its outputs.
  const std::unique_ptr<FunctionRuntime::Runner> cond = runtime.runner(cond_fn);
  const std::unique_ptr<FunctionRuntime::Runner> body = runtime.runner(function_attr(c, "body"));
  // A stateless cond only reads the loop variables during its run: lend them (non-owning
  // pointers, no reference counting). A stateful one might keep one (e.g. assign it).
  const bool lend = !runtime.stateful(cond_fn);
  std::vector<Tensor> vars(c.inputs.begin(), c.inputs.end()), args(vars.size()), pred, next;
  for (;;) {
    for (size_t k = 0; k < vars.size(); ++k) args[k] = lend ? Tensor(Tensor(), vars[k].get()) : vars[k];
    cond->run(args, pred);
    if (pred.size() != 1) throw_error(Code::kInvalidArgument, "While cond must return one value, got ", pred.size());
    const bool go = tensor_truth(pred[0]);
    pred.clear();
    if (!go) break;
    body->run(vars, next);  // consumes vars
    if (next.size() != c.inputs.size())
      throw_error(Code::kInvalidArgument, "While body returned ", next.size(), " values, expected ", c.inputs.size());
    vars.swap(next);
  }
  set_outputs(c, std::move(vars));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("If", if_kernel);
EF_REGISTER_CPU_KERNEL("StatelessIf", if_kernel);
EF_REGISTER_CPU_KERNEL("While", while_kernel);
EF_REGISTER_CPU_KERNEL("StatelessWhile", while_kernel);
EF_REGISTER_CPU_KERNEL("PartitionedCall", call_kernel);
EF_REGISTER_CPU_KERNEL("StatefulPartitionedCall", call_kernel);

}  // namespace ef
